// SPDX-License-Identifier: MIT
// A malformed pattern must not compile; the error names the problem and its offset.
// expect: backreference_at_offset<8>
#include <logscan/regex.hpp>
int main() { return logscan::match<R"lsrx((?P<x>a)(?P=x))lsrx">("x") ? 0 : 1; }
