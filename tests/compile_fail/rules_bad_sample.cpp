// A rule whose sample line does not match its pattern must not compile.
// expect: a sample line does not match its rule's pattern
#include <logscan/rules.hpp>

int main() {
    auto r = logscan::rule<R"(\[(\d+)\] .*)", "[12] fine", "[x] not a number">([](const auto&) {});
    (void)r;
    return 0;
}
