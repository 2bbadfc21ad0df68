// A fallback that cannot take the line is rejected by the reader.
// expect: logscan::rule_reader: the fallback cannot be called with the line
#include <logscan/rules.hpp>

int main() {
    auto rules = logscan::rule_set(logscan::rule<R"(a+)">([](const auto&) {}));
    logscan::rule_reader r(rules, [](int) {});
    return 0;
}
