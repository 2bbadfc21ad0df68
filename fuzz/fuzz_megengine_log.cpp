// SPDX-License-Identifier: MIT
// Fuzz target for the megengine-log format. Invariants (abort on violation): no crash or
// hang; the same records whole and split at an input-chosen position; every non-blank line
// is accounted for (a record or an error names it, or it is a memory table's header line);
// no record is out of line order; text never ends in a space; shapes are well formed.
#include <logscan/formats/megengine_log.hpp>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "split_input.hpp"

namespace {
namespace ml = logscan::megengine_log;

struct out {
    std::vector<std::string> events;
    std::vector<std::uint64_t> lines; // the line of every record, in order
    void add(std::uint64_t line, std::string e) {
        if (!lines.empty() && line < lines.back()) std::abort();
        lines.push_back(line);
        events.push_back(std::move(e));
    }
    void on_log(const ml::log& r) { add(r.line, "L" + std::string(r.level) + "|" + std::string(r.message)); }
    void on_fprop_start(const ml::fprop_start& r) { add(r.line, "F" + std::string(r.var)); }
    void on_var_shape(const ml::var_shape& r) {
        std::string e = "V" + std::string(r.var);
        if (!r.shape.ok()) std::abort(); // a var_shape's shape is always well formed
        for (std::int64_t d : r.shape) e += "," + std::to_string(d);
        add(r.line, e);
    }
    void on_graph_opt(const ml::graph_opt& r) { add(r.line, "G" + std::to_string(r.passes)); }
    void on_opr_seq(const ml::opr_seq& r) {
        std::string e = "S";
        for (const auto& p : r.pairs()) e += std::string(p.get<1>()) + "=" + std::string(p.get<2>()) + ";";
        add(r.line, e);
    }
    void on_mem_alloc(const ml::mem_alloc& r) { add(r.line, "M" + std::string(r.comp_node) + std::to_string(r.alloc_bytes)); }
    void on_workspace_bound(const ml::workspace_bound& r) { add(r.line, "W" + std::string(r.comp_node)); }
    void on_mem_alloc_stats(const ml::mem_alloc_stats& r) { add(r.line, "A" + std::to_string(r.nr_opr)); }
    void on_static_storage(const ml::static_storage& r) { add(r.line, "O" + std::string(r.comp_node) + std::string(r.addr_end)); }
    static std::string opt(const std::optional<double>& v) { return v ? std::to_string(*v) : "-"; }
    void on_lar_iteration(const ml::lar_iteration& r) { add(r.line, "I" + opt(r.time_ms) + opt(r.exec_ms) + opt(r.device_ms)); }
    void on_lar_summary(const ml::lar_summary& r) { add(r.line, "U" + opt(r.avg_ms) + opt(r.sd_ms)); }
    void on_lar_warmup(const ml::lar_warmup& r) { add(r.line, "P" + std::to_string(r.iter) + std::to_string(r.time_ms)); }
    void on_lar_phase(const ml::lar_phase& r) { add(r.line, "H" + std::string(r.phase) + std::to_string(r.time_ms)); }
    void on_lar_run(const ml::lar_run& r) {
        add(r.line, "R" + (r.output_vars ? std::string(*r.output_vars) : std::string("-")) + std::to_string(r.iters.value_or(0)));
    }
    void on_text(const logscan::line& l) {
        if (l.text.empty() || l.text.back() == ' ' || l.text.back() == '\t') std::abort(); // trailing spaces removed
        add(l.number, "T" + std::string(l.text));
    }
    void on_error(const logscan::error& e) { add(e.line, "X" + std::string(e.message)); }
};

std::vector<std::string> run(std::string_view in, std::size_t split) {
    out o;
    ml::parser<out> p(o, {.max_line = 512});
    const fuzz::two_chunks halves(in, split);
    p.feed(halves.first());
    p.feed(halves.second());
    p.finish();
    // every non-blank line is named by a record (or is a memory table's header line); a UTF-8
    // byte order mark first is not the first line's
    const std::string_view body = logscan::without_byte_order_mark(in);
    std::uint64_t n = 0;
    std::size_t k = 0;
    for (std::size_t pos = 0; pos <= body.size();) {
        std::size_t nl = body.find('\n', pos);
        if (nl == std::string_view::npos) {
            if (pos == body.size()) break;
            nl = body.size();
        }
        std::string_view l = body.substr(pos, nl - pos);
        ++n;
        while (k < o.lines.size() && o.lines[k] < n) ++k;
        const bool named = k < o.lines.size() && o.lines[k] == n;
        bool blank = true;
        for (char c : l) blank = blank && (c == ' ' || c == '\t' || c == '\r');
        // (a line of colour sequences only is blank once they are removed)
        if (!named && !blank && l.find("comp_node") == std::string_view::npos && l.find('\x1b') == std::string_view::npos)
            std::abort();
        pos = nl + 1;
    }
    return o.events;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::check_split(data, size, run);
}
