// A sample that ends before the pattern does: matching stopped at its length (8).
// expect: sample_line_does_not_match<0, 8,
#include <logscan/rules.hpp>

int main() {
    auto r = logscan::rule<R"(\[(\d+)\] (\w+) done)", "[12] abc">([](const auto&) {});
    (void)r;
    return 0;
}
