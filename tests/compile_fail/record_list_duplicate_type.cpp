// A record list in which two record kinds have the same "type" is rejected (the outputs find
// a record type's table by its name).
// expect: two record kinds have the same
#include <logscan/record.hpp>

#include <cstdint>
#include <string_view>

struct run {
    std::uint64_t line;
    std::string_view model;
};
LOGSCAN_EVENT(on_run, "void on_run(const run&)");
LOGSCAN_EVENT(on_rerun, "void on_rerun(const run&)");

using records = logscan::record_list<logscan::record_kind<"run", run, on_run_event, logscan::field<"model", &run::model>>,
                                     logscan::record_kind<"run", run, on_rerun_event, logscan::field<"model", &run::model>>,
                                     logscan::text_kind, logscan::error_kind>;

int main() { return static_cast<int>(records::types.size()); }
