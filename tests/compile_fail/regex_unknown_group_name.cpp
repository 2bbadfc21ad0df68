// SPDX-License-Identifier: MIT
// get<"name">() with a name the pattern does not define is a compile error.
// expect: the pattern has no group with this name
#include <logscan/regex.hpp>
int main() { return static_cast<int>(logscan::match<"(?<a>x)">("x").get<"b">().size()); }
