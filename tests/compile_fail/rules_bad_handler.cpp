// A rule handler that cannot take the match is rejected at the rule, with the accepted forms.
// expect: logscan::rule: the handler cannot be called with the match
#include <logscan/rules.hpp>

int main() {
    auto r = logscan::rule<R"(\[(\d+)\] (.*))">([](std::string_view) {});
    (void)r;
    return 0;
}
