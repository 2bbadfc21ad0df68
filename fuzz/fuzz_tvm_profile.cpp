// SPDX-License-Identifier: MIT
// Fuzz target for the tvm-profile format. Invariants (abort on violation): no crash or hang;
// the same records whole and split at an input-chosen position; every non-blank line is
// accounted for (a record names it, or it is structure: a table header, a dashes line, a
// `Configuration` heading); no record is out of line order; text never ends in a space;
// every call and total has a name and a cell besides it. A `Report.json()` document (first
// non-blank byte `{`): records without lines, every metric walked and read, at most one
// error and nothing after it.
#include <logscan/formats/tvm_profile.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "split_input.hpp"

namespace {
namespace tp = logscan::tvm_profile;

struct out {
    bool document = false;
    std::size_t errors = 0;
    std::vector<std::string> events;
    std::vector<std::uint64_t> lines; // the line of every record, in order
    void add(std::uint64_t line, std::string e) {
        if (document && (line != 0 || errors != 0)) std::abort(); // (nothing after a document's error)
        if (!lines.empty() && line < lines.back()) std::abort();
        lines.push_back(line);
        events.push_back(std::move(e));
    }
    static std::string cells(const tp::report_row& r) {
        std::string s;
        if (r.form == tp::table_form::json) { // every metric, unwrapped, and the accessors
            if (!r.metrics) std::abort();
            tp::cells_of(r).for_each_entry([&](std::string_view k, const auto& v) {
                s += "|" + std::string(k);
                if constexpr (std::is_same_v<std::decay_t<decltype(v)>, logscan::json_text>) s += "=" + std::string(v.text);
            });
            s += "|" + std::to_string(r.duration_us().value_or(-1)) + std::to_string(r.count().value_or(0)) + std::string(r.device());
            return s;
        }
        bool any = false;
        for (std::size_t i = 1; i < r.cells.size(); ++i) {
            if (r.cells[i].empty()) continue;
            any = true;
            s += "|" + std::string(r.columns[i].text()) + "=" + std::string(r.cells[i].text());
        }
        if (!any && r.form == tp::table_form::report) std::abort(); // a report row has a cell besides its name
        if (r.duration_us()) s += "|d" + std::to_string(*r.duration_us());
        return s;
    }
    void on_run(const tp::run& r) { add(r.line, "R" + std::string(r.model) + "@" + std::string(r.device)); }
    void on_mean_time(const tp::mean_time& r) { add(r.line, "M" + std::to_string(r.mean_ms)); }
    void on_call(const tp::call& r) {
        if (r.name.empty() && r.form != tp::table_form::json) std::abort();
        add(r.line, "C" + std::string(r.name) + cells(r));
    }
    void on_total(const tp::total& r) {
        if (r.kind.empty() && r.form != tp::table_form::json) std::abort();
        add(r.line, "S" + std::string(r.kind) + cells(r));
    }
    void on_config(const tp::config& r) { add(r.line, "K" + std::string(r.key) + "=" + std::string(r.value)); }
    void on_text(const logscan::line& l) {
        if (l.text.empty() || l.text.back() == ' ' || l.text.back() == '\t') std::abort(); // trailing spaces removed
        add(l.number, "T" + std::string(l.text));
    }
    void on_error(const logscan::error& e) {
        if (document && e.document) {
            add(0, "X" + std::string(e.message));
            ++errors;
        } else {
            add(document ? 0 : e.line, "X" + std::string(e.message)); // (a document's call too large: no line)
        }
    }
};

std::vector<std::string> run(std::string_view in, std::size_t split) {
    out o;
    // (a UTF-8 byte order mark first is passed over: what follows it tells a document, and
    // its lines are read without it)
    const std::string_view body = logscan::without_byte_order_mark(in);
    const std::size_t first = body.find_first_not_of(" \t\r\n");
    o.document = first != std::string_view::npos && body[first] == '{';
    tp::parser<out> p(o, {.max_line = 512, .scratch_capacity = 1024});
    const fuzz::two_chunks halves(in, split);
    p.feed(halves.first());
    p.feed(halves.second());
    p.finish();
    if (o.document) return o.events;
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
        const std::string_view t = logscan::internal::trim(l.ends_with('\r') ? l.substr(0, l.size() - 1) : l);
        const bool structural = (t.starts_with("Name") && t.find("Duration (us)") != std::string_view::npos) ||
                                t.starts_with("---") || t == "Configuration" || tp::detail::is_debug_header(t) ||
                                tp::detail::is_tab_header(l);
        if (!named && !t.empty() && !structural) std::abort();
        pos = nl + 1;
    }
    return o.events;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::check_split(data, size, run);
}
