// SPDX-License-Identifier: MIT
// A malformed pattern must not compile; the error names the problem and its offset.
// expect: missing_close_bracket_at_offset<1>
#include <logscan/regex.hpp>
int main() { return logscan::match<R"lsrx(x[a-z)lsrx">("x") ? 0 : 1; }
