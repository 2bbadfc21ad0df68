// SPDX-License-Identifier: MIT
// A malformed pattern must not compile; the error names the problem and its offset.
// expect: trailing_backslash_at_offset<2>
#include <logscan/regex.hpp>
int main() { return logscan::match<R"lsrx(ab\)lsrx">("x") ? 0 : 1; }
