// on_line taking the text instead of the line record must not compile.
// expect: the visitor's on_line cannot be called with what the reader delivers
#include <logscan/lines.hpp>

#include <string>

struct visitor {
    void on_line(const std::string&) {}
};

int main() {
    visitor v;
    return logscan::for_each_line(std::string_view("a\n"), v).ok() ? 0 : 1;
}
