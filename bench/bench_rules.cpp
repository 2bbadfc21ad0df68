// SPDX-License-Identifier: MIT
// Rule-dispatched lines: lines/s and MB/s of a rule_reader with the MegEngine-log rules
// (header line with 6 captures, var-shape continuation lines in a mode, memory-table rows
// in another) on sample 000 repeated to --mb MB (default 100), against std::getline +
// std::regex_match with the same patterns tried in the same order (the reference, 1.00).
// Both count the same records and must agree.
//
//   bench_rules [--mb 100] [--runs 3]
#include <logscan/rules.hpp>

#include <cstdio>
#include <cstdlib>
#include <regex>
#include <sstream>
#include <string>

#include "bench_util.hpp"

namespace {

#define HEADER R"(\[(\d\d) (\d\d:\d\d:\d\d) (\d+)@([^:]*):([^\]]*)\] (.*))"
#define SHAPE R"( ([^@: ]+)(?:@(\d+))?: \(([\d, ]*)\))"
#define MEMROW R"( *(\S+) +([\d.]+)MiB\( *(\d+)bytes\) +([\d.]+)MiB\( *([\d.]+)%\) +([\d.]+)MiB\( *([\d.]+)%\))"

struct counts {
    std::size_t headers = 0, shapes = 0, rows = 0, text = 0, lines = 0;
    unsigned long long bytes = 0;
    bool operator==(const counts&) const = default;
};

counts run_logscan(std::string_view text) {
    counts c;
    auto rules = logscan::rule_set(
        logscan::rule<HEADER>([&c](const auto& m, logscan::rule_context& ctx) {
            ++c.headers;
            const std::string_view msg = m.template get<6>();
            ctx.mode = msg.ends_with("shapes of var nodes:") ? 1u : msg.ends_with("static memory allocation:") ? 2u : 0u;
        }).in_all_modes(),
        logscan::rule<SHAPE>([&c](const auto&) { ++c.shapes; }).in_modes(1u << 1),
        logscan::rule<MEMROW>([&c](const auto& m) {
            ++c.rows;
            c.bytes += m.template to<3, unsigned long long>().value;
        }).in_modes(1u << 2));
    logscan::rule_reader reader(rules, [&c](const logscan::line&) { ++c.text; });
    struct feeder {
        decltype(reader)& r;
        counts& c;
        void on_line(const logscan::line& l) {
            ++c.lines;
            r.feed(l);
        }
    } f{reader, c};
    logscan::for_each_line(text, f);
    return c;
}

counts run_std(const std::string& text) {
    static const std::regex header(HEADER), shape(SHAPE), memrow(MEMROW);
    counts c;
    std::istringstream in(text);
    std::string line;
    std::smatch m;
    int mode = 0;
    while (std::getline(in, line)) {
        ++c.lines;
        if (std::regex_match(line, m, header)) {
            ++c.headers;
            const std::string msg = m[6].str();
            const auto ends = [&](const std::string& s) { return msg.size() >= s.size() && msg.compare(msg.size() - s.size(), s.size(), s) == 0; };
            mode = ends("shapes of var nodes:") ? 1 : ends("static memory allocation:") ? 2 : 0;
        } else if (mode == 1 && std::regex_match(line, m, shape)) {
            ++c.shapes;
        } else if (mode == 2 && std::regex_match(line, m, memrow)) {
            ++c.rows;
            c.bytes += std::stoull(m[3].str());
        } else {
            ++c.text;
        }
    }
    return c;
}

} // namespace

int main(int argc, char** argv) {
    const bench::options o = bench::parse_args(argc, argv, 100);
    const std::string text = bench::repeat_to(bench::sample("000_cf8afa6c099f806b.txt"), o.mb);
    counts a, b;
    const double tb = bench::best_seconds(o.runs, [&] { b = run_std(text); });
    const double ta = bench::best_seconds(o.runs, [&] { a = run_logscan(text); });
    bench::table t("rule_reader: MegEngine log (sample 000) repeated, 3 rules + fallback", text.size());
    char note[64];
    std::snprintf(note, sizeof note, "%.2f M lines/s", static_cast<double>(b.lines) / tb / 1e6);
    t.add("std::getline + std::regex_match", tb, true, note);
    std::snprintf(note, sizeof note, "%.2f M lines/s", static_cast<double>(a.lines) / ta / 1e6);
    t.add("logscan rule_reader", ta, false, note);
    t.print();
    if (!(a == b)) {
        std::fprintf(stderr, "MISMATCH: logscan %zu/%zu/%zu/%zu, std %zu/%zu/%zu/%zu\n", a.headers, a.shapes, a.rows, a.text,
                     b.headers, b.shapes, b.rows, b.text);
        return 1;
    }
    return 0;
}
