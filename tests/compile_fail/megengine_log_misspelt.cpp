// A megengine-log visitor with none of the format's callbacks (misspelt) is rejected.
// expect: the visitor has none of the format's callbacks
#include <logscan/formats/megengine_log.hpp>

struct visitor {
    void on_mem_aloc(const logscan::megengine_log::mem_alloc&) {}
};

int main() {
    visitor v;
    return logscan::megengine_log::parse(std::string_view("x"), v).ok() ? 0 : 1;
}
