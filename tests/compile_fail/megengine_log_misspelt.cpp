// A megengine-log visitor with none of the format's callbacks (misspelt) is rejected, the callbacks
// named in the error (as event types, on_log_event for on_log) by g++ and clang alike.
// expect: the visitor has none of the format's callbacks
// expect: visitor_check<false, logscan::megengine_log::on_log_event
#include <logscan/formats/megengine_log.hpp>

struct visitor {
    void on_mem_aloc(const logscan::megengine_log::mem_alloc&) {}
};

int main() {
    visitor v;
    return logscan::megengine_log::parse(std::string_view("x"), v).ok() ? 0 : 1;
}
