// on_string with the path first must not compile.
// expect: the visitor's on_string cannot be called with what the reader delivers
#include <logscan/json.hpp>

struct visitor {
    void on_string(const logscan::json::path&, std::string_view) {}
};

int main() {
    visitor v;
    return logscan::json::parse("[\"a\"]", v).ok() ? 0 : 1;
}
