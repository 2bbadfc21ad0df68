#include <logscan/lines.hpp>
#include <doctest/doctest.h>
TEST_CASE("lines::smoke") { CHECK(true); }
