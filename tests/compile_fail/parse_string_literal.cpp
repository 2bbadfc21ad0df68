// A string literal given to a format's parse, `parse("train.log", v)`: a path, or the text?
// Rejected as a C string is (it was read as a log of one line, the file's name, silently).
// expect: a path, or the text?|logscan::file_source src{path}
#include <logscan/formats/megengine_log.hpp>

struct visitor {
    void on_log(const logscan::megengine_log::log&) {}
};

int main() {
    visitor v;
    return logscan::megengine_log::parse("train.log", v).ok() ? 0 : 1;
}
