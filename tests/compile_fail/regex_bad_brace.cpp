// SPDX-License-Identifier: MIT
// A malformed pattern must not compile; the error names the problem and its offset.
// expect: bad_brace_at_offset<1>
#include <logscan/regex.hpp>
int main() { return logscan::search<R"lsrx(a{x})lsrx">("x") ? 0 : 1; }
