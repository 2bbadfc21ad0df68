// SPDX-License-Identifier: MIT
// A malformed pattern must not compile; the error names the problem and its offset.
// expect: nothing_to_repeat_at_offset<2>
#include <logscan/regex.hpp>
int main() { return logscan::match<R"lsrx(a|*b)lsrx">("x") ? 0 : 1; }
