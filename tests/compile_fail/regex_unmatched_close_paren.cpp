// SPDX-License-Identifier: MIT
// A malformed pattern must not compile; the error names the problem and its offset.
// expect: unmatched_close_paren_at_offset<2>
#include <logscan/regex.hpp>
int main() { return logscan::match<R"lsrx(ab)c)lsrx">("x") ? 0 : 1; }
