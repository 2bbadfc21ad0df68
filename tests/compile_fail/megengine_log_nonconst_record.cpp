// A format callback taking its record by non-const reference is a compile error naming it.
// expect: the visitor's on_mem_alloc cannot be called
#include <logscan/formats/megengine_log.hpp>

struct visitor {
    void on_mem_alloc(logscan::megengine_log::mem_alloc&) {}
};

int main() {
    visitor v;
    return logscan::megengine_log::parse(std::string_view("x"), v).ok() ? 0 : 1;
}
