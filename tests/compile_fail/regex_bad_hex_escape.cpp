// SPDX-License-Identifier: MIT
// A malformed pattern must not compile; the error names the problem and its offset.
// expect: bad_hex_escape_at_offset<0>
#include <logscan/regex.hpp>
int main() { return logscan::match<R"lsrx(\xZ1)lsrx">("x") ? 0 : 1; }
