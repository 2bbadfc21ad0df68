// SPDX-License-Identifier: MIT
// A malformed pattern must not compile; the error names the problem and its offset.
// expect: shorthand_in_range_at_offset<1>
#include <logscan/regex.hpp>
int main() { return logscan::match<R"lsrx([\d-z])lsrx">("x") ? 0 : 1; }
