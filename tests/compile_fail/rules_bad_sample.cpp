// A rule whose sample line does not match its pattern must not compile; the error names the
// sample (index 1, from 0) and the byte where matching stopped (1: 'x' is not a digit).
// expect: sample_line_does_not_match<1, 1,
#include <logscan/rules.hpp>

int main() {
    auto r = logscan::rule<R"(\[(\d+)\] .*)", "[12] fine", "[x] not a number">([](const auto&) {});
    (void)r;
    return 0;
}
