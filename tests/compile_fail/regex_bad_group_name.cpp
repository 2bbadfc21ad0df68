// SPDX-License-Identifier: MIT
// A malformed pattern must not compile; the error names the problem and its offset.
// expect: bad_group_name_at_offset<3>
#include <logscan/regex.hpp>
int main() { return logscan::match<R"lsrx((?<1x>a))lsrx">("x") ? 0 : 1; }
