// SPDX-License-Identifier: MIT
// get<I>() with I past the last group is a compile error.
// expect: group index out of range for this pattern
#include <logscan/regex.hpp>
int main() { return static_cast<int>(logscan::match<"(a)(b)">("ab").get<3>().size()); }
