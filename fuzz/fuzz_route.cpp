// SPDX-License-Identifier: MIT
// Fuzz target for line_router: a Paddle-style log (a header rule with sub-rules on the
// message) sharing its lines with a pipe table and a rule table. Invariants (abort on
// violation): no crash or hang; the same events whole and split at an input-chosen
// position; every line reaches at most one of: a rule, the fallback, a table event or table
// structure (a line is never delivered twice as a row, a note, a log line or text).
#include <logscan/route.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "split_input.hpp"

namespace {
struct out {
    std::vector<std::string> events;
    std::vector<std::uint64_t> delivered; // line numbers of row / note / log / text deliveries
    void on_table_title(const logscan::table_title& t) { events.push_back("N" + std::string(t.text)); }
    void on_table_header(const logscan::table_header& h) { events.push_back("H" + std::to_string(h.columns.size())); }
    void on_table_row(const logscan::table_row& r) {
        delivered.push_back(r.line);
        std::string e = "R" + std::string(r.title) + "|" + std::string(r.banner);
        for (const auto& c : r.cells) e += "|" + std::string(c.text());
        events.push_back(e);
    }
    void on_table_banner(const logscan::table_banner& b) { events.push_back("B" + std::string(b.text)); }
    void on_table_text(const logscan::line& l) {
        delivered.push_back(l.number);
        events.push_back("T" + std::string(l.text));
    }
    void on_table_end(std::uint64_t line) { events.push_back("E" + std::to_string(line)); }
    void on_error(const logscan::error& e) { events.push_back("X" + std::string(logscan::to_string(e.code))); }
};

std::vector<std::string> run(std::string_view in, std::size_t split) {
    out o;
    logscan::pipe_table<out, 8, 256> pipes(o);
    logscan::rule_table<out, 8, 256> table(o);
    auto rules = logscan::rule_set(
        logscan::rule<R"(\[(\d\d/\d\d) (\d\d:\d\d:\d\d)\] (\S+) (\w+): (.*))">([&](const auto& m, logscan::rule_context& ctx) {
            o.delivered.push_back(ctx.current.number);
            o.events.push_back("L" + std::string(m.template get<5>()));
        }).then<5>(logscan::rule<R"(Epoch: \[(\d+)\] \[ *(\d+)/(\d+)\] (.*))">([&](const auto& m) {
            o.events.push_back("S" + std::string(m.template get<2>()));
        })));
    logscan::rule_reader reader(rules, [&](const logscan::line& l) {
        o.delivered.push_back(l.number);
        o.events.push_back("O" + std::string(l.text));
    }, logscan::rule_options{.strip_ansi = true, .strip_capacity = 512});
    logscan::line_router router(reader, pipes, table);
    std::vector<char> carry(512);
    logscan::line_splitter<decltype(router)> s(router, carry);
    const fuzz::two_chunks halves(in, split);
    s.feed(halves.first());
    s.feed(halves.second());
    s.finish();
    router.finish();
    for (std::size_t i = 1; i < o.delivered.size(); ++i)
        if (o.delivered[i] <= o.delivered[i - 1]) std::abort(); // a line delivered twice, or out of order
    return o.events;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::check_split(data, size, run);
}
