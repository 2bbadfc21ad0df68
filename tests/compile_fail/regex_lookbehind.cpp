// SPDX-License-Identifier: MIT
// A malformed pattern must not compile; the error names the problem and its offset.
// expect: lookaround_at_offset<0>
#include <logscan/regex.hpp>
int main() { return logscan::search<R"lsrx((?<!a)b)lsrx">("x") ? 0 : 1; }
