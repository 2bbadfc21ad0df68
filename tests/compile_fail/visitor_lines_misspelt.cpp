// A line visitor with neither on_line nor on_error, and not callable, is rejected.
// expect: the visitor has neither on_line nor on_error
#include <logscan/lines.hpp>

struct visitor {
    void online(const logscan::line&) {}
};

int main() {
    visitor v;
    return logscan::for_each_line(std::string_view("a\n"), v).ok() ? 0 : 1;
}
