// SPDX-License-Identifier: MIT
// A malformed pattern must not compile; the error names the problem and its offset.
// expect: repeat_too_large_at_offset<1>
#include <logscan/regex.hpp>
int main() { return logscan::match<R"lsrx(a{1001})lsrx">("x") ? 0 : 1; }
