// SPDX-License-Identifier: MIT
// A malformed pattern must not compile; the error names the problem and its offset.
// expect: backreference_at_offset<3>
#include <logscan/regex.hpp>
int main() { return logscan::match<R"lsrx((a)\1)lsrx">("x") ? 0 : 1; }
