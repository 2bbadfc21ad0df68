// SPDX-License-Identifier: MIT
// A malformed pattern must not compile; the error names the problem and its offset.
// expect: too_deeply_nested_at_offset<48>
#include <logscan/regex.hpp>
int main() { return logscan::match<R"lsrx(((((((((((((((((((((((((((((((((((((((((((((((((((a)))))))))))))))))))))))))))))))))))))))))))))))))))lsrx">("x") ? 0 : 1; }
