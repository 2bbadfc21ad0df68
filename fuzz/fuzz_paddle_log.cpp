// SPDX-License-Identifier: MIT
// Fuzz target for the paddle-log format. Invariants (abort on violation): no crash or hang;
// the same records whole and split at an input-chosen position; no record is out of line
// order; text never ends in a space; every row has a table title or comes from a rule table;
// a train_step follows the log record of its line.
#include <logscan/formats/paddle_log.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "split_input.hpp"

namespace {
namespace pl = logscan::paddle_log;

struct out {
    std::vector<std::string> events;
    std::vector<std::uint64_t> lines;
    std::uint64_t last_log = 0;
    void add(std::uint64_t line, std::string e) {
        if (!lines.empty() && line < lines.back()) std::abort();
        lines.push_back(line);
        events.push_back(std::move(e));
    }
    void on_log(const pl::log& r) {
        last_log = r.line;
        add(r.line, "L" + std::string(r.level) + "|" + std::string(r.message));
    }
    void on_train_step(const pl::train_step& r) {
        if (r.line != last_log) std::abort();
        std::string e = "S" + std::to_string(r.iter) + "/" + (r.iters ? std::to_string(*r.iters) : std::string("-"));
        if (r.eta_s) e += "@" + std::to_string(*r.eta_s);
        for (const pl::metric& m : r.metrics()) {
            e += " " + std::string(m.key) + "=" + std::string(m.value);
            if (!m.number_text.empty() && !m.number().ok()) std::abort();
        }
        add(r.line, e);
    }
    void on_table(const pl::table& r) {
        add(r.line, "B" + std::string(r.title) + (r.time_unit ? "|" + std::string(*r.time_unit) : std::string()));
    }
    void on_total(const pl::total& r) { add(r.line, "T" + std::string(r.table) + "|" + std::string(r.value)); }
    void on_table_row(const pl::table_row& r) {
        std::string e = "R" + std::string(r.table) + "|" + std::to_string(r.depth) + "|" + std::string(r.name);
        for (std::size_t i = 1; i < r.cells.size(); ++i) e += "|" + std::string(r.cells[i].text());
        add(r.line, e);
    }
    void on_text(const logscan::line& l) {
        if (l.text.empty() || l.text.back() == ' ' || l.text.back() == '\t') std::abort();
        add(l.number, "T" + std::string(l.text));
    }
    void on_error(const logscan::error& e) { add(e.line, "X" + std::string(e.message)); }
};

std::vector<std::string> run(std::string_view in, std::size_t split) {
    out o;
    pl::parser<out> p(o, {.max_line = 512});
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
