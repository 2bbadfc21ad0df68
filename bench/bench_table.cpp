// SPDX-License-Identifier: MIT
// Table readers: rows/s and MB/s of rule_table (Paddle profiler tables), aligned_table
// (TVM reports) and pipe_table (Paddle's Perf Summary), each on a sample repeated to --mb MB
// (default 100), against a straightforward std::getline + std::regex + std::istringstream
// implementation of the same extraction (the reference, ratio 1.00). Both sides extract the
// same values (row count, a sum of a numeric column) and must agree.
//
//   bench_table [--mb 100] [--runs 3]
#include <logscan/lines.hpp>
#include <logscan/table.hpp>

#include <cstdio>
#include <cstdlib>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "bench_util.hpp"

namespace {

struct result {
    std::size_t rows = 0;
    double sum = 0;
    bool operator==(const result& o) const { return rows == o.rows && std::abs(sum - o.sum) <= 1e-6 * std::abs(o.sum) + 1e-9; }
};

// "1,577.51" -> 1577.51 (the "straightforward" way: strip commas, istringstream)
double stream_number(std::string s) {
    std::string t;
    for (char c : s)
        if (c != ',') t.push_back(c);
    std::istringstream in(t);
    double v = 0;
    in >> v;
    return v;
}
double fast_number(std::string_view s) { // logscan side: the same digits without streams
    char buf[64];
    std::size_t n = 0;
    for (char c : s)
        if (c != ',' && n < sizeof buf - 1) buf[n++] = c;
    buf[n] = '\0';
    return std::strtod(buf, nullptr);
}

//--- rule tables (Paddle): rows, sum of the Calls column where numeric ---//
result logscan_rule(std::string_view text) {
    struct v {
        result r;
        void on_table_row(const logscan::table_row& row) {
            ++r.rows;
            if (const logscan::cell* c = row.find("Calls"); c && !c->empty() && c->text() != "-") r.sum += fast_number(c->text());
        }
    } vis;
    logscan::rule_table<v> t(vis, logscan::position_unit::bytes);
    struct f { logscan::rule_table<v>& t; void on_line(const logscan::line& l) { t.feed(l); } } feeder{t};
    logscan::for_each_line(text, feeder);
    t.finish();
    return vis.r;
}
result std_rule(const std::string& text) {
    // state machine mirroring rule_table's, with std::regex for the line shapes
    static const std::regex rule(R"(^-+( +-+)* *$)"), dash(R"(^-{3,}$)"), banner(R"(^-{3,}[^-].*[^-]-{3,} *$)"),
        title(R"(^(-{3,}|={3,})[^-=].*(-{3,}|={3,}) *$)"), blank(R"(^\s*$)"), run("-+");
    result r;
    std::istringstream in(text);
    std::string line, held;
    std::vector<std::size_t> starts;
    std::vector<std::string> header;
    enum { idle, want_header, want_rule, body, after, trailer } st = idle;
    auto cut = [&](const std::string& s) {
        std::vector<std::string> cells;
        for (std::size_t i = 0; i < starts.size(); ++i) {
            const std::size_t b = std::min(starts[i], s.size());
            const std::size_t e = i + 1 < starts.size() ? std::min(starts[i + 1], s.size()) : s.size();
            std::string c = s.substr(b, e - b);
            c.erase(0, c.find_first_not_of(' '));
            c.erase(c.find_last_not_of(' ') + 1);
            cells.push_back(c);
        }
        return cells;
    };
    while (std::getline(in, line)) {
        switch (st) {
        case idle:
            if (std::regex_match(line, rule)) {
                starts.clear();
                for (auto it = std::sregex_iterator(line.begin(), line.end(), run); it != std::sregex_iterator(); ++it)
                    starts.push_back(static_cast<std::size_t>(it->position()));
                st = want_header;
            }
            break;
        case want_header:
            if (!std::regex_match(line, blank)) { held = line; st = want_rule; }
            break;
        case want_rule:
            if (std::regex_match(line, rule)) { header = cut(held); st = body; }
            else st = trailer;
            break;
        case body:
            if (std::regex_match(line, rule)) st = after;
            else if (std::regex_match(line, dash) || std::regex_match(line, blank)) st = idle;
            else if (!std::regex_match(line, banner)) {
                const auto cells = cut(line);
                ++r.rows;
                for (std::size_t i = 0; i < header.size(); ++i)
                    if (header[i] == "Calls" && !cells[i].empty() && cells[i] != "-") r.sum += stream_number(cells[i]);
            }
            break;
        case after:
            if (std::regex_match(line, blank) || std::regex_match(line, rule)) break;
            if (std::regex_match(line, dash) || std::regex_match(line, title)) { st = idle; break; }
            held = line;
            st = want_rule;
            break;
        case trailer:
            if (std::regex_match(line, dash) || std::regex_match(line, title)) st = idle;
            break;
        }
    }
    return r;
}

//--- aligned tables (TVM): rows (incl. footer), sum of Duration (us) ---//
result logscan_aligned(std::string_view text) {
    struct v {
        result r;
        void on_table_row(const logscan::table_row& row) {
            ++r.rows;
            if (const logscan::cell* c = row.find("Duration (us)"); c && !c->empty()) r.sum += fast_number(c->text());
        }
    } vis;
    logscan::aligned_table<v> t(vis);
    struct f {
        logscan::aligned_table<v>& t;
        void on_line(const logscan::line& l) {
            if (t.feed(l) == logscan::table_feed::not_mine && l.text.starts_with("Name ") &&
                l.text.find("Duration (us)") != std::string_view::npos)
                t.start(l);
        }
    } feeder{t};
    logscan::for_each_line(text, feeder);
    t.finish();
    return vis.r;
}
result std_aligned(const std::string& text) {
    static const std::regex header(R"(^Name .*Duration \(us\).*)"), token(R"(\S+(?: \S+)*)"), dashes(R"(^-+ *$)"), blank(R"(^\s*$)");
    result r;
    std::istringstream in(text);
    std::string line;
    std::vector<std::pair<std::size_t, std::string>> cols; // right edge, name
    bool active = false, footer = false;
    while (std::getline(in, line)) {
        if (active) {
            if (std::regex_match(line, blank)) { active = false; continue; }
            if (std::regex_match(line, dashes)) {
                if (footer) { active = false; continue; }
                footer = true;
                continue;
            }
            bool ok = true;
            double dur = 0;
            bool has = false;
            std::size_t col = 0;
            for (auto it = std::sregex_iterator(line.begin(), line.end(), token); it != std::sregex_iterator(); ++it) {
                const auto b = static_cast<std::size_t>(it->position()), e = b + static_cast<std::size_t>(it->length());
                if (b == 0) { col = 1; continue; }
                while (col < cols.size() && cols[col].first < e) ++col;
                if (col == cols.size() || cols[col].first != e) { ok = false; break; }
                if (cols[col].second == "Duration (us)") { dur = stream_number(it->str()); has = true; }
                ++col;
            }
            if (!ok) { active = false; }
            else { ++r.rows; if (has) r.sum += dur; continue; }
        }
        if (std::regex_match(line, header)) {
            cols.clear();
            for (auto it = std::sregex_iterator(line.begin(), line.end(), token); it != std::sregex_iterator(); ++it)
                cols.emplace_back(static_cast<std::size_t>(it->position() + it->length()), it->str());
            active = true;
            footer = false;
        }
    }
    return r;
}

//--- pipe tables: rows, sum of the "max" column ---//
result logscan_pipe(std::string_view text) {
    struct v {
        result r;
        void on_table_row(const logscan::table_row& row) {
            ++r.rows;
            if (const logscan::cell* c = row.find("max")) r.sum += fast_number(c->text());
        }
    } vis;
    logscan::pipe_table<v> t(vis);
    struct f { logscan::pipe_table<v>& t; void on_line(const logscan::line& l) { t.feed(l); } } feeder{t};
    logscan::for_each_line(text, feeder);
    t.finish();
    return vis.r;
}
result std_pipe(const std::string& text) {
    static const std::regex cell(R"(\|([^|]*))");
    result r;
    std::istringstream in(text);
    std::string line;
    std::size_t max_col = 0;
    bool active = false;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] != '|') { active = false; continue; }
        std::vector<std::string> cells;
        for (auto it = std::sregex_iterator(line.begin(), line.end(), cell); it != std::sregex_iterator(); ++it) {
            std::string c = (*it)[1].str();
            c.erase(0, c.find_first_not_of(' '));
            c.erase(c.find_last_not_of(' ') + 1);
            cells.push_back(c);
        }
        if (!cells.empty() && cells.back().empty() && line.back() == '|') cells.pop_back();
        if (!active) {
            for (std::size_t i = 0; i < cells.size(); ++i)
                if (cells[i] == "max") max_col = i;
            active = true;
            continue;
        }
        ++r.rows;
        if (max_col < cells.size()) r.sum += stream_number(cells[max_col]);
    }
    return r;
}

template <class Mine, class Theirs>
void run(const char* title, const std::string& text, const bench::options& o, Mine mine, Theirs theirs) {
    result a, b;
    const double tb = bench::best_seconds(o.runs, [&] { b = theirs(text); });
    const double ta = bench::best_seconds(o.runs, [&] { a = mine(std::string_view(text)); });
    bench::table t(title, text.size());
    char note[96];
    std::snprintf(note, sizeof note, "%.2f M rows/s", static_cast<double>(b.rows) / tb / 1e6);
    t.add("std::getline + std::regex + istringstream", tb, true, note);
    std::snprintf(note, sizeof note, "%.2f M rows/s", static_cast<double>(a.rows) / ta / 1e6);
    t.add("logscan", ta, false, note);
    t.print();
    if (!(a == b)) {
        std::fprintf(stderr, "MISMATCH: logscan %zu rows sum %.6f, reference %zu rows sum %.6f\n", a.rows, a.sum, b.rows, b.sum);
        std::exit(1);
    }
}

} // namespace

int main(int argc, char** argv) {
    const bench::options o = bench::parse_args(argc, argv, 100);
    const std::string paddle = bench::sample("003_1c776201c8b5b83e.txt");
    run("rule_table: Paddle profiler log (sample 003) repeated", bench::repeat_to(paddle, o.mb), o, logscan_rule, std_rule);
    run("aligned_table: TVM reports (sample 004) repeated", bench::repeat_to(bench::sample("004_d73c77cb3fb2895c.txt"), o.mb), o,
        logscan_aligned, std_aligned);
    // the Perf Summary pipe table, one table per copy, separated by a line
    const std::string pipes = paddle.substr(paddle.find("|                 |"));
    run("pipe_table: Paddle Perf Summary repeated", bench::repeat_to(pipes + "--\n", o.mb), o, logscan_pipe, std_pipe);
    return 0;
}
