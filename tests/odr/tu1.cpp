// First of two translation units that include every public header (ODR check).
#include "all_headers.hpp"
int tu2_value();
int main() { return tu2_value() == 2 ? 0 : 1; }
