// Second of two translation units that include every public header (ODR check).
#include "all_headers.hpp"
int tu2_value() { return 2; }
