// A table visitor whose on_table_row takes a non-const reference must not compile (it would
// silently never be called).
// expect: the visitor's on_table_row cannot be called with what the reader delivers
#include <logscan/table.hpp>

struct visitor {
    void on_table_row(logscan::table_row&) {}
};

int main() {
    visitor v;
    logscan::rule_table<visitor> t(v);
    (void)t.feed(logscan::line{"---  ---", 1, 0});
    return 0;
}
