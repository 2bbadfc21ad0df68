// A callback returning int (0 for "fine", a C habit) is a compile error: as a bool it would
// stop the parse at the first record. The error names the callback (its event type) and what it returns.
// expect: must return void, bool (false stops) or logscan::flow
// expect: callback_result_check<logscan::megengine_log::on_mem_alloc_event, int>
#include <logscan/formats/megengine_log.hpp>

struct visitor {
    int rows = 0;
    int on_mem_alloc(const logscan::megengine_log::mem_alloc&) {
        ++rows;
        return 0;
    }
};

int main() {
    visitor v;
    return logscan::megengine_log::parse(std::string_view("x"), v).ok() ? 0 : 1;
}
