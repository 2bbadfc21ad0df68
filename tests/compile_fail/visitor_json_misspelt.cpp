// A JSON visitor with none of the reader's callbacks (misspelt) is rejected.
// expect: the visitor has none of the reader's callbacks
#include <logscan/json.hpp>

struct visitor {
    void on_numbr(const logscan::json::number&) {}
};

int main() {
    visitor v;
    return logscan::json::parse("[1]", v).ok() ? 0 : 1;
}
