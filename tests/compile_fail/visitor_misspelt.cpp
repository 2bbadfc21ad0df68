// A visitor whose only callback is misspelt has none of the reader's callbacks: rejected.
// expect: the table reader's visitor has none of its callbacks
#include <logscan/table.hpp>

struct visitor {
    void on_tabel_row(const logscan::table_row&) {}
};

int main() {
    visitor v;
    logscan::rule_table<visitor> t(v);
    return 0;
}
