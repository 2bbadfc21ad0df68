// SPDX-License-Identifier: MIT
// Fuzz target for the megengine-profile format. Invariants (abort on violation): no crash or
// hang; the same records whole and split at an input-chosen position, with a small scratch
// buffer (so "object too large" happens); at most one error from the JSON reader, and it is
// the last thing delivered; every shape delivered is well formed; the same records and errors
// (with their lines and columns) with records' objects read in one pass as through the JSON
// reader's events alone.
#include <logscan/formats/megengine_profile.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "split_input.hpp"

namespace {
namespace mp = logscan::megengine_profile;

struct out {
    std::vector<std::string> events;
    bool ended = false; // a JSON error was delivered: nothing may follow
    void add(std::string e) {
        if (ended) std::abort();
        events.push_back(std::move(e));
    }
    static std::string s(const mp::opt_string& v) { return v ? std::string(*v) : std::string("~"); }
    void on_opr(const mp::opr& r) {
        std::string e = "O" + s(r.id) + s(r.name) + s(r.opr_type);
        if (r.inputs)
            for (std::string_view x : *r.inputs) e += "," + std::string(x);
        add(e);
    }
    void on_var(const mp::var& r) {
        std::string e = "V" + s(r.id) + s(r.dtype) + s(r.mem_chunk);
        if (r.shape) {
            if (!r.shape->ok()) std::abort();
            for (std::int64_t d : *r.shape) e += "," + std::to_string(d);
        }
        if (r.flags) e += "#" + std::to_string(r.flags->size());
        add(e);
    }
    void on_mem_chunk(const mp::mem_chunk& r) { add("C" + s(r.id) + std::to_string(r.size.value_or(0))); }
    void on_exec(const mp::exec& r) { add("E" + std::to_string(r.index) + s(r.opr_id)); }
    void on_opr_time(const mp::opr_time& r) { add("T" + std::string(r.opr_id) + std::string(r.unit) + std::to_string(r.end.value_or(-1))); }
    void on_opr_footprint(const mp::opr_footprint& r) {
        std::string e = "F" + std::string(r.opr_id) + s(r.param);
        if (r.in_shapes) {
            if (!r.in_shapes->ok()) std::abort();
            for (const auto& l : *r.in_shapes) e += "/" + std::to_string(l.size());
        }
        add(e);
    }
    void on_error(const logscan::error& e) {
        add("X" + std::string(e.message) + (e.line != 0 ? " " + std::to_string(e.line) + ":" + std::to_string(e.column) : ""));
        if (e.line != 0) ended = true; // the reader's error ends the parse
    }
};

std::vector<std::string> run_as(std::string_view in, std::size_t split, bool fuse) {
    out o;
    mp::parser<out> p(o, mp::options{.scratch_capacity = 200});
    p.fuse_objects(fuse);
    const fuzz::two_chunks halves(in, split);
    p.feed(halves.first());
    p.feed(halves.second());
    p.finish();
    return o.events;
}
std::vector<std::string> run(std::string_view in, std::size_t split) { return run_as(in, split, true); }
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 1) {
        const std::string_view in(reinterpret_cast<const char*>(data + 1), size - 1);
        if (run_as(in, 0, false) != run_as(in, 0, true)) std::abort();
    }
    return fuzz::check_split(data, size, run);
}
