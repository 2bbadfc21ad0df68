// A bad pattern in a rule is an error at the rule, even when the rule is never used.
// expect: missing ')' to close this group
#include <logscan/rules.hpp>

int main() {
    auto r = logscan::rule<R"(\[(\d+ (.*))">([](const auto&) {});
    (void)r;
    return 0;
}
