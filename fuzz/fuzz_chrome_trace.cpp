// SPDX-License-Identifier: MIT
// Fuzz target for the chrome-trace format. Invariants (abort on violation): no crash or hang;
// the same records whole and split at an input-chosen position, with small storage (so an
// event too large and a B past the open-span store happen); every error has an index or is a
// break, a break is followed only by the B events never closed; indices of events never
// decrease, except for those end-of-input errors; every object written is compact JSON text.
#include <logscan/formats/chrome_trace.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "split_input.hpp"

namespace {
namespace ct = logscan::chrome_trace;

struct out {
    std::vector<std::string> events;
    bool broke = false;
    std::uint64_t last = 0;
    static std::string v(const ct::json_value& x) {
        if (!x) return "~";
        if (x->json && x->text.empty()) std::abort(); // (JSON text is never empty)
        if (x->json && (x->text.front() == '{' || x->text.front() == '[') &&
            x->text.find_first_of(" \n\t\r") != std::string_view::npos && x->text.find('"') == std::string_view::npos)
            std::abort(); // (objects are compact: blanks only inside strings)
        return (x->json ? "j" : "s") + std::string(x->text);
    }
    void at(std::uint64_t index) {
        if (broke || index < last) std::abort();
        last = index;
    }
    void on_span(const ct::span& r) {
        at(r.index);
        events.push_back("S" + v(r.name) + v(r.ph) + v(r.pid) + v(r.tid) + v(r.ts_us) + v(r.dur_us) + v(r.args) + v(r.extra));
    }
    void on_instant(const ct::instant& r) { at(r.index); events.push_back("I" + v(r.name) + v(r.scope) + v(r.args) + v(r.extra)); }
    void on_counter(const ct::counter& r) { at(r.index); events.push_back("C" + v(r.name) + v(r.values) + v(r.extra)); }
    void on_meta(const ct::meta& r) { at(r.index); events.push_back("M" + v(r.name) + v(r.value) + v(r.args)); }
    void on_flow(const ct::flow_event& r) { at(r.index); events.push_back("F" + v(r.ph) + v(r.id) + v(r.bp)); }
    void on_event(const ct::event& r) { at(r.index); events.push_back("E" + v(r.ph) + v(r.name) + v(r.extra)); }
    void on_trace_info(const ct::trace_info& r) {
        if (broke) std::abort();
        events.push_back("T" + std::string(r.key) + v(r.value));
    }
    void on_error(const logscan::error& e) {
        const bool end_of_input = e.message == "B is never closed";
        if (!end_of_input) {
            if (broke) std::abort(); // (one break, then only the B events never closed)
            if (e.index) at(*e.index);
        }
        if (e.line != 0 || e.message == "traceEvents is not an array" ||
            e.message == "the top level is neither an object nor an array")
            broke = true; // (a break: the reader's error, or the document's shape)
        events.push_back("X" + (e.index ? std::to_string(*e.index) : std::string("~")));
    }
};

std::vector<std::string> run(std::string_view in, std::size_t split) {
    out o;
    ct::parser<out> p(o, ct::options{.scratch_capacity = 256, .open_capacity = 128});
    const fuzz::two_chunks halves(in, split);
    p.feed(halves.first());
    p.feed(halves.second());
    p.finish();
    return o.events;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::check_split(data, size, run);
}
