// SPDX-License-Identifier: MIT
// A malformed pattern must not compile; the error names the problem and its offset.
// expect: pattern_too_large_at_offset<0>
#include <logscan/regex.hpp>
int main() { return logscan::match<R"lsrx((a{1000}){1000})lsrx">("x") ? 0 : 1; }
