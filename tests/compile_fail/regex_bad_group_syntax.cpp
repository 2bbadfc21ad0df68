// SPDX-License-Identifier: MIT
// A malformed pattern must not compile; the error names the problem and its offset.
// expect: bad_group_syntax_at_offset<0>
#include <logscan/regex.hpp>
int main() { return logscan::match<R"lsrx((?i)abc)lsrx">("x") ? 0 : 1; }
