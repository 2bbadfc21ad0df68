// on_string taking const std::string& (not convertible from the std::string_view the reader
// delivers) must not compile.
// expect: the visitor's on_string cannot be called with what the reader delivers
#include <logscan/json.hpp>

#include <string>

struct visitor {
    void on_string(const std::string&, const logscan::json::path&) {}
};

int main() {
    visitor v;
    return logscan::json::parse("[\"a\"]", v).ok() ? 0 : 1;
}
