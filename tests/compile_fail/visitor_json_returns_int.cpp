// A JSON callback returning int is a compile error (0 would stop the document at once).
// expect: must return void, bool (false stops), logscan::flow or logscan::json::action
#include <logscan/json.hpp>

struct visitor {
    int on_key(std::string_view) { return 0; }
};

int main() {
    visitor v;
    return logscan::json::parse(std::string_view("{\"a\":1}"), v).ok() ? 0 : 1;
}
