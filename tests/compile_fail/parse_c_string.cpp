// A C string given to a format's parse: a path, or the text? Rejected (it was read as a log
// of one line, the path's name, silently).
// expect: a path, or the text?|logscan::file_source src{path}
#include <logscan/formats/paddle_log.hpp>

struct visitor {
    void on_train_step(const logscan::paddle_log::train_step&) {}
};

int main(int, char** argv) {
    visitor v;
    return logscan::paddle_log::parse(argv[1], v).ok() ? 0 : 1;
}
