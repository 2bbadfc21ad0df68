// SPDX-License-Identifier: MIT
// Fuzz target for the table readers (rule_table, aligned_table, pipe_table). Every line of
// the input is offered to all three (a driver like a format module's). Invariants (abort on
// violation): results are identical whole and split at an input-chosen position; every cell
// of a row lies inside its line; rows have at least as many cells as header columns.
#include <logscan/table.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "split_input.hpp"

namespace {
struct recorder {
    std::vector<std::string> events;
    std::string_view current; // the line being fed
    void check_inside(std::string_view v) const {
        if (v.empty()) return;
        if (v.data() < current.data() || v.data() + v.size() > current.data() + current.size()) std::abort();
    }
    void on_table_header(const logscan::table_header& h) {
        std::string e = "H" + std::to_string(h.line);
        for (const auto& c : h.columns) e += "|" + std::string(c.text());
        events.push_back(e);
    }
    void on_table_row(const logscan::table_row& r) {
        if (r.cells.size() < r.header.size()) std::abort();
        std::string e = "R" + std::to_string(r.line);
        for (const auto& c : r.cells) {
            check_inside(c.raw);
            e += "|" + std::string(c.text());
            for (auto p : logscan::multi_values(c.text())) e += p.placeholder() ? "~" : "";
        }
        events.push_back(e + "{" + std::string(r.banner) + "}");
    }
    void on_table_banner(const logscan::table_banner& b) { events.push_back("B" + std::string(b.text)); }
    void on_table_text(const logscan::line& l) { events.push_back("T" + std::to_string(l.number) + std::string(l.text)); }
    void on_table_end(std::uint64_t line) { events.push_back("E" + std::to_string(line)); }
    void on_error(const logscan::error& e) { events.push_back("X" + std::to_string(e.line)); }
};

struct driver {
    recorder r;
    logscan::rule_table<recorder, 8, 512> rule{r};
    logscan::aligned_table<recorder, 8, 512> aligned{r};
    logscan::pipe_table<recorder, 8, 512> pipe{r};
    logscan::aligned_table<recorder, 8, 512> in_order{r, logscan::column_match::in_order};
    void on_line(const logscan::line& l) {
        r.current = l.text;
        if (rule.feed(l) != logscan::table_feed::not_mine) return;
        if (pipe.feed(l) != logscan::table_feed::not_mine) return;
        if (aligned.feed(l) != logscan::table_feed::not_mine) return;
        if (in_order.feed(l) != logscan::table_feed::not_mine) return;
        if (l.text.starts_with("Name")) aligned.start(l);
        else if (l.text.starts_with(" comp")) in_order.start(l);
    }
};

std::vector<std::string> run(std::string_view in, std::size_t split) {
    driver d;
    std::vector<char> carry(1024);
    logscan::line_splitter<driver> s(d, carry);
    const fuzz::two_chunks halves(in, split);
    s.feed(halves.first());
    s.feed(halves.second());
    s.finish();
    d.rule.finish();
    d.aligned.finish();
    d.pipe.finish();
    d.in_order.finish();
    return d.r.events;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::check_split(data, size, run);
}
