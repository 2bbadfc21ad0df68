// on_number(int) would truncate: it must not compile (on_number(double) is accepted).
// expect: the visitor's on_number cannot be called with what the reader delivers
#include <logscan/json.hpp>

struct visitor {
    void on_number(int) {}
};

int main() {
    visitor v;
    return logscan::json::parse("[1.5]", v).ok() ? 0 : 1;
}
