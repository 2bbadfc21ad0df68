// SPDX-License-Identifier: MIT
// A malformed pattern must not compile; the error names the problem and its offset.
// expect: duplicate_group_name_at_offset<10>
#include <logscan/regex.hpp>
int main() { return logscan::match<R"lsrx((?<a>x)(?<a>y))lsrx">("x") ? 0 : 1; }
