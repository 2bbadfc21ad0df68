// SPDX-License-Identifier: MIT
#include <logscan/table.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <iterator>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "support/alloc_counter.hpp"
#include "support/chunking.hpp"

namespace {

// Records table events as text: "H<line>[s<section>]:a|b|c", "R<line>:a|b|c{banner}", ...
struct recorder {
    std::vector<std::string> events;
    static std::string join(std::span<const logscan::cell> cells) {
        std::string s;
        for (std::size_t i = 0; i < cells.size(); ++i) s += (i ? "|" : "") + std::string(cells[i].text());
        return s;
    }
    void on_table_header(const logscan::table_header& h) {
        events.push_back("H" + std::to_string(h.line) + "s" + std::to_string(h.section) + ":" + join(h.columns));
    }
    void on_table_row(const logscan::table_row& r) {
        std::string e = (r.footer ? "F" : "R") + std::to_string(r.line) + ":" + join(r.cells);
        if (!r.banner.empty()) e += "{" + std::string(r.banner) + "}";
        events.push_back(e);
    }
    void on_table_banner(const logscan::table_banner& b) { events.push_back("B" + std::to_string(b.line) + ":" + std::string(b.text)); }
    void on_table_title(const logscan::table_title& t) { events.push_back("N" + std::to_string(t.line) + ":" + std::string(t.text)); }
    void on_table_text(const logscan::line& l) { events.push_back("T" + std::to_string(l.number) + ":" + std::string(l.text)); }
    void on_table_end(std::uint64_t line) { events.push_back("E" + std::to_string(line)); }
    void on_error(const logscan::error& e) { events.push_back("X" + std::to_string(e.line) + ":" + std::string(logscan::to_string(e.code))); }
};

// Feeds every line to a rule table; lines it does not take are recorded as "O<line>".
template <class Table, class V>
struct rule_driver {
    V& vis;
    Table& table;
    std::vector<std::string>* outside;
    void on_line(const logscan::line& l) {
        if (table.feed(l) == logscan::table_feed::not_mine && outside) outside->push_back("O" + std::to_string(l.number));
    }
};

std::vector<std::string> run_rule_table(logscan::test::chunk_list chunks) {
    recorder r;
    logscan::rule_table<recorder> t(r);
    std::vector<std::string> outside;
    rule_driver<logscan::rule_table<recorder>, recorder> d{r, t, &outside};
    logscan::line_buffer carry(4096);
    logscan::line_splitter<decltype(d)> s(d, carry);
    for (auto c : chunks) s.feed(c);
    s.finish();
    t.finish();
    r.events.insert(r.events.end(), outside.begin(), outside.end());
    return r.events;
}

// TVM-style driver: a line starting with "Name" that holds "Duration (us)" starts a table.
template <class Table>
struct aligned_driver {
    Table& table;
    std::vector<std::string>* outside;
    void on_line(const logscan::line& l) {
        if (table.feed(l) != logscan::table_feed::not_mine) return;
        if (l.text.starts_with("Name") && l.text.find("Duration (us)") != std::string_view::npos) {
            if (table.start(l) != logscan::table_feed::not_mine) return;
        }
        if (outside) outside->push_back("O" + std::to_string(l.number));
    }
};

std::vector<std::string> run_aligned_table(logscan::test::chunk_list chunks) {
    recorder r;
    logscan::aligned_table<recorder> t(r);
    std::vector<std::string> outside;
    aligned_driver<logscan::aligned_table<recorder>> d{t, &outside};
    logscan::line_buffer carry(4096);
    logscan::line_splitter<decltype(d)> s(d, carry);
    for (auto c : chunks) s.feed(c);
    s.finish();
    t.finish();
    r.events.insert(r.events.end(), outside.begin(), outside.end());
    return r.events;
}

// "12,424.27" -> 12424.27, independent of the library's number parsing.
double plain_number(std::string_view s) {
    std::string t;
    for (char c : s)
        if (c != ',') t.push_back(c);
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    REQUIRE_MESSAGE((end && *end == '\0' && !t.empty()), "not a number: " << std::string(s));
    return v;
}

} // namespace

TEST_CASE("table::cells and multi-values") {
    const logscan::cell c{"    conv2d infer_meta   "};
    CHECK(c.text() == "conv2d infer_meta");
    CHECK(c.indent() == 4);
    CHECK(c.depth() == 2);
    CHECK(logscan::cell{"     "}.empty());
    CHECK(logscan::cell{"     "}.indent() == 0);
    std::vector<std::string> parts;
    std::vector<bool> holes;
    for (auto p : logscan::multi_values(" 232.45 / - / - / - / 8.71  ")) {
        parts.emplace_back(p.text);
        holes.push_back(p.placeholder());
    }
    CHECK(parts == std::vector<std::string>{"232.45", "-", "-", "-", "8.71"});
    CHECK(holes == std::vector<bool>{false, true, true, true, false});
    CHECK(logscan::multi_values("1.67 / 0.00").size() == 2);
    // numbers in cells and parts (thousands separators allowed)
    CHECK(logscan::cell{"   122,624.85 "}.number<double>().value == 122624.85);
    CHECK(logscan::cell{" 3,983"}.number<int>().value == 3983);
    CHECK_FALSE(logscan::cell{" cpu0 "}.number<double>().ok());
    CHECK_FALSE(logscan::cell{"1,23"}.number<double>().ok());
    auto it = logscan::multi_values("0.39 / 2.61").begin();
    CHECK((*it).number<double>().value == 0.39);
    CHECK(logscan::multi_values("   ").size() == 0);
    CHECK(logscan::multi_values("single").size() == 1);
}

TEST_CASE("table::rule_table on hand-written tables") {
    SUBCASE("sections, banners, notes, empty cells, non-ASCII, truncated names, trailing spaces, CRLF") {
        const std::string text =
            "----------  -----  ------  \r\n"
            "Name        Calls  Ratio   \r\n"
            "----------  -----  ------  \r\n"
            "---Thread: main---\r\n"
            "conv2d      570    1.5     \r\n"
            "  数据预处理     9      -       \r\n"  // 5 CJK chars (15 bytes): positions count code points
            "very_lo...         2.0\r\n"         // empty middle cell, no trailing spaces
            "----------  -----  ------  \r\n"
            "            Calls  GPU     \r\n"    // a second header section, first column empty
            "----------  -----  ------  \r\n"
            "Kernel      16525  69.54   \r\n"
            "----------  -----  ------  \r\n"
            "Note:\r\n"
            "some explanation\r\n"
            "\r\n"
            "--------------------------\r\n"
            "after the table\r\n";
        const std::vector<std::string> expected = {
            "H2s0:Name|Calls|Ratio",
            "B4:Thread: main",
            "R5:conv2d|570|1.5{Thread: main}",
            "R6:数据预处理|9|-{Thread: main}",
            "R7:very_lo...||2.0{Thread: main}",
            "H9s1:|Calls|GPU",
            "R11:Kernel|16525|69.54{Thread: main}",
            "T13:Note:",
            "T14:some explanation",
            "E16",
            "O17",
        };
        logscan::test::check_chunk_invariance(text, [&](logscan::test::chunk_list ch) {
            auto got = run_rule_table(ch);
            CHECK(got == expected);
            return got;
        });
    }
    SUBCASE("depth of indented names and code-point cut with multi-byte text") {
        struct v {
            std::vector<std::size_t> depth;
            std::vector<std::string> second;
            void on_table_row(const logscan::table_row& r) {
                depth.push_back(r.cells[0].depth());
                second.emplace_back(r.cells[1].text());
            }
        } vis;
        logscan::rule_table<decltype(vis)> t(vis);
        const char* lines[] = {"------  ---", "Name    N  ", "------  ---", "a       1", "  é     2", "    ü   3"};
        std::uint64_t n = 0;
        for (const char* l : lines) t.feed(logscan::line{l, ++n, 0});
        CHECK(vis.depth == std::vector<std::size_t>{0, 1, 2});
        CHECK(vis.second == std::vector<std::string>{"1", "2", "3"});
    }
    SUBCASE("a table cut off mid-row at the end of input") {
        const std::string text = "-----  -----  -----\nA      B      C\n-----  -----  -----\nx      1      2\ny      3";
        const std::vector<std::string> expected = {"H2s0:A|B|C", "R4:x|1|2", "R5:y|3|", "E0"};
        logscan::test::check_chunk_invariance(text, [&](logscan::test::chunk_list ch) {
            auto got = run_rule_table(ch);
            CHECK(got == expected);
            return got;
        });
    }
    SUBCASE("a title line after a closing rule ends the table and opens the next title") {
        const std::string text = "---  ---\nA    B\n---  ---\n1    2\n---  ---\n\n-----Next Summary-----\n";
        CHECK(run_rule_table(logscan::test::chunked_input(text, {}).chunks()) ==
              std::vector<std::string>{"H2s0:A|B", "R4:1|2", "E7", "N7:Next Summary", "E0"});
    }
    SUBCASE("a title right after the rows (no closing rule, no blank line) ends the table, never a banner") {
        // Paddle omits the closing rule of its last table; the next summary's title, its
        // `Time unit` line and its header must not become a banner, a row and a new section
        const std::string text =
            "-----UserDefined Summary-----\n"
            "Time unit: ms\n"
            "------  -----\n"
            "Name    Calls\n"
            "------  -----\n"
            "a       1\n"
            "---------Kernel Summary---------\n"
            "Time unit: ms\n"
            "------  -----  ------\n"
            "Name    Calls  GPU\n"
            "------  -----  ------\n"
            "k       2      0.5\n"
            "==========Perf Summary==========\n"
            "Reader Ratio: 0.106%\n";
        CHECK(run_rule_table(logscan::test::chunked_input(text, {}).chunks()) ==
              std::vector<std::string>{"N1:UserDefined Summary", "T2:Time unit: ms", "H4s0:Name|Calls", "R6:a|1",
                                       "E7", "N7:Kernel Summary", "T8:Time unit: ms", "H10s0:Name|Calls|GPU",
                                       "R12:k|2|0.5", "E13", "N13:Perf Summary", "T14:Reader Ratio: 0.106%", "E0"});
    }
    SUBCASE("more columns than the maximum is an error, not a crash") {
        recorder r;
        logscan::rule_table<recorder, 2> t(r);
        CHECK(t.feed(logscan::line{"--  --  --", 1, 0}) == logscan::table_feed::consumed);
        CHECK(r.events == std::vector<std::string>{"X1:too many columns"});
    }
}

TEST_CASE("table::aligned_table on hand-written tables") {
    // Name left-aligned; others right-aligned to their header's right edge; header names
    // with single spaces; empty cells; a cell wider than its header; footer after dashes.
    const std::string text =
        "Name          Duration (us)  Percent  Device            Argument Shapes  \n"
        "fused_add          1,577.51     1.29    cpu0  float32[1, 2], float32[3]\n"
        "fused_mul            856.38     0.70                         float32[1]\n"
        "a_very_long_name_x    12.00     0.01    cpu0  \n"
        "-------------\n"
        "Sum                2,445.89     2.00  \n"
        "Total            122,624.85             cpu0  \n"
        "\n"
        "Configuration\n";
    const std::vector<std::string> expected = {
        "H1s0:Name|Duration (us)|Percent|Device|Argument Shapes",
        "R2:fused_add|1,577.51|1.29|cpu0|float32[1, 2], float32[3]",
        "R3:fused_mul|856.38|0.70||float32[1]",
        "R4:a_very_long_name_x|12.00|0.01|cpu0|",
        "F6:Sum|2,445.89|2.00||",
        "F7:Total|122,624.85||cpu0|",
        "E8",
        "O8",
        "O9",
    };
    logscan::test::check_chunk_invariance(text, [&](logscan::test::chunk_list ch) {
        auto got = run_aligned_table(ch);
        CHECK(got == expected);
        return got;
    });
    // before the rule, a line whose cells fit no column is a note and the rows go on
    const std::string bad = "Name    Duration (us)\nx                 1.0\ny          2.0\nz                 3.0\n";
    CHECK(run_aligned_table(logscan::test::chunked_input(bad, {}).chunks()) ==
          std::vector<std::string>{"H1s0:Name|Duration (us)", "R2:x|1.0", "T3:y          2.0", "R4:z|3.0", "E0"});
    // a row starts with its (left-aligned) first cell: an indented line whose text ends on a
    // right edge is a note, not a row without a name
    const std::string indented = "Name    Duration (us)  Percent\nx                 1.0     0.50\n      stray text   1.0\n"
                                 "    indented:  debug     0.50\n";
    CHECK(run_aligned_table(logscan::test::chunked_input(indented, {}).chunks()) ==
          std::vector<std::string>{"H1s0:Name|Duration (us)|Percent", "R2:x|1.0|0.50", "T3:      stray text   1.0",
                                   "T4:    indented:  debug     0.50", "E0"});
    // a name with only blanks after it (a tab at a column's edge: the fuzzer's find) is no row
    // (a row has a cell besides its name): a note, and the rows go on
    const std::string tab_only = "Name    Duration (us)\nx                 1.0\ny                   \t\nz                 3.0\n";
    CHECK(run_aligned_table(logscan::test::chunked_input(tab_only, {}).chunks()) ==
          std::vector<std::string>{"H1s0:Name|Duration (us)", "R2:x|1.0", "T3:y                   \t", "R4:z|3.0", "E0"});
}

TEST_CASE("table::pipe_table") {
    recorder r;
    logscan::pipe_table<recorder> t(r);
    const char* lines[] = {"|     | avg | max |", "|-----|-----|-----|", "| a   | 1   | 2   |", "| b   | 3 |", "| c | 4 | 5 | 6 |", "after"};
    std::vector<logscan::table_feed> res;
    std::uint64_t n = 0;
    for (const char* l : lines) res.push_back(t.feed(logscan::line{l, ++n, 0}));
    CHECK(res.back() == logscan::table_feed::not_mine);
    CHECK(r.events == std::vector<std::string>{"H1s0:|avg|max", "R3:a|1|2", "R4:b|3|", "R5:c|4|5|6", "E6"});
}

TEST_CASE("table::pipe_table: a title holds over other lines, a blank line (spaces or a tab) forgets it") {
    struct titles {
        std::vector<std::string> seen;
        void on_table_header(const logscan::table_header& h) { seen.emplace_back(h.title); }
    };
    const auto title_of = [](const char* between) {
        titles v;
        logscan::pipe_table<titles> t(v);
        const char* lines[] = {"----- Perf -----", between, "| a | b |", "|---|---|", "| 1 | 2 |"};
        std::uint64_t n = 0;
        for (const char* l : lines) t.feed(logscan::line{l, ++n, 0});
        return v.seen;
    };
    CHECK(title_of("note") == std::vector<std::string>{"Perf"});
    CHECK(title_of("  note") == std::vector<std::string>{"Perf"});
    CHECK(title_of("") == std::vector<std::string>{""});
    CHECK(title_of("    ") == std::vector<std::string>{""});
    CHECK(title_of("\t") == std::vector<std::string>{""});
    CHECK(title_of("=== Other ===") == std::vector<std::string>{"Other"});
}

TEST_CASE("table::pipe_table is chunk-invariant and allocation-free") {
    const std::string text = "intro\r\n| | avg | max |\r\n|---|---|---|\r\n| a | 1 | 2 |\r\n| b | 3 |\r\n\r\n| x | y |\n| 1 | 2";
    const std::vector<std::string> expected = {"O1", "H2s0:|avg|max", "R4:a|1|2", "R5:b|3|", "E6", "O6", "H7s0:x|y", "R8:1|2", "E0"};
    logscan::test::check_chunk_invariance(text, [&](logscan::test::chunk_list ch) {
        recorder r;
        logscan::pipe_table<recorder> t(r);
        struct feeder {
            logscan::pipe_table<recorder>& t;
            recorder& r;
            void on_line(const logscan::line& l) {
                if (t.feed(l) == logscan::table_feed::not_mine) r.events.push_back("O" + std::to_string(l.number));
            }
        } f{t, r};
        logscan::line_buffer carry(256);
        logscan::line_splitter<feeder> s(f, carry);
        for (auto c : ch) s.feed(c);
        s.finish();
        t.finish();
        CHECK(r.events == expected);
        return r.events;
    });
    struct counter {
        std::size_t rows = 0;
        void on_table_row(const logscan::table_row&) { ++rows; }
    } c;
    logscan::pipe_table<counter> t(c);
    struct feeder {
        logscan::pipe_table<counter>& t;
        void on_line(const logscan::line& l) { t.feed(l); }
    } f{t};
    LOGSCAN_CHECK_NO_ALLOC(logscan::for_each_line(std::string_view(text), f); t.finish());
    CHECK(c.rows == 3);
}

TEST_CASE("table::Paddle profiler tables of sample 003") {
    const std::string text = logscan::test::read_file(logscan::test::sample_path("003_1c776201c8b5b83e.txt"));
    struct collect {
        std::map<std::uint64_t, std::size_t> rows_per_header; // header line -> rows
        std::uint64_t current = 0;
        std::map<std::uint64_t, std::vector<std::string>> row; // spot rows by line
        std::vector<std::string> banners;
        void on_table_header(const logscan::table_header& h) { rows_per_header[current = h.line] = 0; }
        void on_table_row(const logscan::table_row& r) {
            ++rows_per_header[current];
            if (r.line == 106 || r.line == 90 || r.line == 35 || r.line == 61) {
                auto& v = row[r.line];
                v.push_back(std::to_string(r.cells[0].depth()));
                for (const auto& c : r.cells) v.emplace_back(c.text());
                v.emplace_back(r.banner);
            }
        }
        void on_table_banner(const logscan::table_banner& b) { banners.emplace_back(b.text); }
    } c;
    logscan::rule_table<collect> t(c);
    std::vector<std::string> outside;
    rule_driver<logscan::rule_table<collect>, collect> d{c, t, &outside};
    logscan::for_each_line(std::string_view(text), d);
    t.finish();
    // the lines left to the caller: the 6 lines before the first log line, the 43 log lines
    // (grep -c '^\['; lines 7-28, 980-999) and no other non-blank line
    std::size_t logs = 0, first = 0, other = 0;
    for (const std::string& o : outside) {
        const std::size_t n = std::stoul(o.substr(1));
        std::size_t b = 0;
        for (std::size_t k = 1; k < n; ++k) b = text.find('\n', b) + 1;
        const std::string_view l(text.data() + b, text.find('\n', b) - b);
        if (l.starts_with("[")) ++logs;
        else if (n <= 6) ++first;
        else if (l.find_first_not_of(' ') != std::string_view::npos) ++other;
    }
    CHECK(logs == 43);
    CHECK(first == 6);
    CHECK(other == 0);
    // header line -> number of rows, counted in the sample by line ranges
    // (Device 33-35, Overview 49-57 and 61-63, Model 86-90, Operator 105-680, Kernel 689-932,
    //  Memory Manipulation 941-947, UserDefined 957-975)
    const std::map<std::uint64_t, std::size_t> expected = {{31, 3},   {47, 9},   {59, 3},  {84, 5},
                                                           {102, 576}, {687, 244}, {939, 7}, {954, 19}};
    CHECK(c.rows_per_header == expected);
    CHECK(c.banners == std::vector<std::string>{"Thread: All threads merged", "Thread: All threads merged"});
    CHECK(c.row[106] == std::vector<std::string>{"1", "conv2d infer_meta", "570", "1.67 / 0.00 / 0.01 / 0.00 / 0.38",
                                                 "0.00 / 0.00 / 0.00 / 0.00 / 0.00", "-", "Thread: All threads merged"});
    CHECK(c.row[90] == std::vector<std::string>{"1", "Others", "-", "232.45 / - / - / - / 8.71", "18.37 / - / - / - / 0.99", ""});
    CHECK(c.row[35] == std::vector<std::string>{"0", "GPU0", "69.54", ""});
    CHECK(c.row[61] == std::vector<std::string>{"1", "Kernel", "16525", "1856.84", "69.54", ""});

    // the Perf Summary pipe table (lines 1003-1006)
    struct pipes {
        std::vector<std::string> rows;
        void on_table_row(const logscan::table_row& r) {
            rows.push_back(std::string(r.cells[0].text()) + "=" + std::string(r.find("max")->text()));
        }
    } p;
    logscan::pipe_table<pipes> pt(p);
    struct feeder {
        logscan::pipe_table<pipes>& t;
        void on_line(const logscan::line& l) { t.feed(l); }
    } f{pt};
    logscan::for_each_line(std::string_view(text), f);
    pt.finish();
    CHECK(p.rows == std::vector<std::string>{"reader_cost=0.00117", "batch_cost=9.35223", "ips=4.50119"});
}

TEST_CASE("table::TVM reports of sample 004 add up to their Sum rows") {
    const std::string text = logscan::test::read_file(logscan::test::sample_path("004_d73c77cb3fb2895c.txt"));
    struct report {
        std::uint64_t header = 0;
        std::size_t rows = 0;
        double duration = 0, percent = 0;
        long long count = 0;
        double sum_duration = -1, sum_percent = -1;
        long long sum_count = -1;
        std::string first_name, first_hash;
    };
    struct collect {
        std::vector<report> reports;
        void on_table_header(const logscan::table_header& h) {
            report r;
            r.header = h.line;
            reports.push_back(r);
        }
        void on_table_row(const logscan::table_row& r) {
            report& rep = reports.back();
            const auto dur = plain_number(r.find("Duration (us)")->text());
            const logscan::cell* pct = r.find("Percent");
            const logscan::cell* cnt = r.find("Count");
            if (!r.footer) {
                ++rep.rows;
                rep.duration += dur;
                rep.percent += plain_number(pct->text());
                rep.count += std::atoll(std::string(cnt->text()).c_str());
                if (rep.rows == 1) {
                    rep.first_name = r.cells[0].text();
                    rep.first_hash = r.find("Hash")->text();
                }
            } else if (r.cells[0].text() == "Sum") {
                rep.sum_duration = dur;
                rep.sum_percent = plain_number(pct->text());
                rep.sum_count = std::atoll(std::string(cnt->text()).c_str());
            }
        }
    } c;
    logscan::aligned_table<collect> t(c);
    std::vector<std::string> outside;
    aligned_driver<logscan::aligned_table<collect>> d{t, &outside};
    logscan::for_each_line(std::string_view(text), d);
    t.finish();
    // the lines that are not the tables': 739 lines (wc -l) less 11 headers, 585 rows, 22
    // Sum/Total rows and 11 dash lines (grep -c '^Name ', the row counts below, and half of
    // grep -c '^-------': the other 11 underline "Configuration"); the notes inside rows: none
    CHECK(outside.size() == 739 - 11 - 585 - 22 - 11);
    // header lines and row counts, counted in the sample (rows between each header and its dash line)
    const std::vector<std::pair<std::uint64_t, std::size_t>> expected = {
        {5, 63}, {82, 84}, {180, 44}, {238, 49}, {301, 59}, {374, 48}, {436, 40}, {490, 57}, {561, 118}, {694, 10}, {717, 13}};
    REQUIRE(c.reports.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const report& r = c.reports[i];
        INFO("report at line " << r.header);
        CHECK(r.header == expected[i].first);
        CHECK(r.rows == expected[i].second);
        // every cell is rounded to 0.01, so the sum may be off by half a unit per row
        CHECK(std::fabs(r.duration - r.sum_duration) <= 0.005 * static_cast<double>(r.rows) + 0.01);
        CHECK(std::fabs(r.percent - r.sum_percent) <= 0.005 * static_cast<double>(r.rows) + 0.01);
        CHECK(r.count == r.sum_count);
    }
    CHECK(c.reports[0].first_name == "vm_mod_fused_nn_contrib_conv2d_NCHWc_add_nn_relu_1");
    CHECK(c.reports[0].first_hash == "35b19e27a40f9b21");
}

TEST_CASE("table::MegEngine static memory allocation tables of sample 000 (in-order cells)") {
    const std::string text = logscan::test::read_file(logscan::test::sample_path("000_cf8afa6c099f806b.txt"));
    struct collect {
        std::size_t tables = 0, rows = 0;
        std::vector<std::string> first_rows;
        void on_table_header(const logscan::table_header& h) {
            ++tables;
            CHECK(h.columns.size() == 4);
            CHECK(h.columns[0].text() == "comp_node");
            CHECK(h.columns[3].text() == "upper_bound");
        }
        void on_table_row(const logscan::table_row& r) {
            ++rows;
            if (first_rows.size() < 2)
                first_rows.push_back(std::string(r.cells[0].text()) + "|" + std::string(r.find("alloc")->text()) + "|" +
                                     std::string(r.cells[2].text()) + "|" + std::string(r.cells[3].text()));
        }
    } c;
    logscan::aligned_table<collect> t(c, logscan::column_match::in_order);
    struct driver {
        logscan::aligned_table<collect>& t;
        bool next_is_header = false;
        void on_line(const logscan::line& l) {
            if (t.feed(l) != logscan::table_feed::not_mine) return;
            if (next_is_header) t.start(l);
            next_is_header = l.text.ends_with("static memory allocation:");
        }
    } d{t};
    logscan::for_each_line(std::string_view(text), d);
    t.finish();
    // 42 "static memory allocation:" messages, each followed by a header and 9 rows
    // (gpu0:0, gpu0:COPY, gpu1:0 .. gpu7:0), counted with grep in the sample
    CHECK(c.tables == 42);
    CHECK(c.rows == 378);
    CHECK(c.first_rows == std::vector<std::string>{
                              "gpu0:0|196.00MiB( 205520896bytes)|196.00MiB(100.00%)|832.06MiB(424.52%)",
                              "gpu0:COPY|784.00MiB( 822083584bytes)|784.00MiB(100.00%)|784.27MiB(100.04%)"});
}

TEST_CASE("table::readers are chunk-invariant and allocation-free on the samples") {
    const std::string paddle = logscan::test::read_file(logscan::test::sample_path("003_1c776201c8b5b83e.txt"));
    const std::string tvm = logscan::test::read_file(logscan::test::sample_path("004_d73c77cb3fb2895c.txt"));
    logscan::test::check_chunk_invariance(paddle, run_rule_table, 4);
    logscan::test::check_chunk_invariance(tvm, run_aligned_table, 4);

    struct counter {
        std::size_t rows = 0, cells = 0;
        void on_table_row(const logscan::table_row& r) {
            ++rows;
            for (const auto& c : r.cells) cells += !c.empty();
        }
    };
    counter a, b;
    logscan::rule_table<counter> rt(a);
    logscan::aligned_table<counter> at(b);
    struct feed_rule {
        logscan::rule_table<counter>& t;
        void on_line(const logscan::line& l) { t.feed(l); }
    } fr{rt};
    struct feed_aligned {
        logscan::aligned_table<counter>& t;
        void on_line(const logscan::line& l) {
            if (t.feed(l) == logscan::table_feed::not_mine && l.text.starts_with("Name ")) t.start(l);
        }
    } fa{at};
    LOGSCAN_CHECK_NO_ALLOC(logscan::for_each_line(std::string_view(paddle), fr); rt.finish());
    LOGSCAN_CHECK_NO_ALLOC(logscan::for_each_line(std::string_view(tvm), fa); at.finish());
    CHECK(a.rows == 3 + 9 + 3 + 5 + 576 + 244 + 7 + 19);
    CHECK(b.rows == 63 + 84 + 44 + 49 + 59 + 48 + 40 + 57 + 118 + 10 + 13 + 2 * 11);
}

namespace {
// A Paddle profiler row as Paddle prints it: every value left-aligned with '{:<w}' (padded to
// w code points, never cut) followed by two spaces.
std::string paddle_row(const std::vector<std::string>& values, const std::vector<std::size_t>& widths) {
    std::string out;
    for (std::size_t i = 0; i < values.size(); ++i) {
        std::size_t cps = 0;
        for (char c : values[i]) cps += (static_cast<unsigned char>(c) & 0xC0u) != 0x80u;
        out += values[i];
        if (cps < widths[i]) out.append(widths[i] - cps, ' ');
        out += "  ";
    }
    return out;
}
std::string paddle_rule(const std::vector<std::size_t>& widths) {
    std::string out;
    for (std::size_t w : widths) out += std::string(w, '-') + "  ";
    return out;
}
} // namespace

TEST_CASE("table::rule_table: a Paddle cell wider than its span comes out whole") {
    const std::vector<std::size_t> w = {6, 8, 20, 6};
    const std::vector<std::vector<std::string>> rows = {
        {"big", "123456789", "2,290,805.04 / 1.00 / 2.00", "1,234"}, // two cells overflow, by 1 and by 6
        {"small", "1", "0.50 / 0.10", "-"},                           // fits
        {"a_very_long_name", "2", "1.00 / 2.00", "7"},                // the name overflows
        {"数据预处理数据", "3", "-", "8"},                              // 7 code points in 6
    };
    std::string text = paddle_rule(w) + "\n" + paddle_row({"Name", "Calls", "CPU Total / Avg", "FLOPs"}, w) + "\n" +
                       paddle_rule(w) + "\n";
    for (const auto& r : rows) text += paddle_row(r, w) + "\n";
    text += paddle_rule(w) + "\n";
    std::vector<std::string> expected = {"H2s0:Name|Calls|CPU Total / Avg|FLOPs"};
    for (std::size_t i = 0; i < rows.size(); ++i)
        expected.push_back("R" + std::to_string(4 + i) + ":" + rows[i][0] + "|" + rows[i][1] + "|" + rows[i][2] + "|" + rows[i][3]);
    expected.push_back("E0");
    logscan::test::check_chunk_invariance(text, [&](logscan::test::chunk_list ch) {
        auto got = run_rule_table(ch);
        CHECK(got == expected);
        return got;
    });
}

TEST_CASE("table::rule_table: banners, dash cells and dash lines as Paddle prints them") {
    SUBCASE("a Thread banner right after a rule continues the table for that thread") {
        const std::string text = "------  -----\nName    Calls\n------  -----\n---Thread: 1---\na       1\n"
                                 "------  -----\n---Thread: 2---\nb       2\n------  -----\n";
        CHECK(run_rule_table(logscan::test::chunked_input(text, {}).chunks()) ==
              std::vector<std::string>{"H2s0:Name|Calls", "B4:Thread: 1", "R5:a|1{Thread: 1}", "B7:Thread: 2",
                                       "R8:b|2{Thread: 2}", "E0"});
    }
    SUBCASE("a row of '-' cells is a row; a lone dash line with a trailing space closes the table") {
        const std::string text = "------  -----\nName    Calls\n------  -----\n-       -    \nx       1\n"
                                 "--------------  \nafter\n";
        CHECK(run_rule_table(logscan::test::chunked_input(text, {}).chunks()) ==
              std::vector<std::string>{"H2s0:Name|Calls", "R4:-|-", "R5:x|1", "E6", "O7"});
    }
}

TEST_CASE("table::rule_table: binary lines and lines with no cell past the name are notes, the table goes on") {
    // (formats.md section 4: a control character, tab included, or bytes that are not UTF-8
    // make a line text; so does a row line with no cell past the name column)
    SUBCASE("in the rows") {
        const std::string text = std::string("------  -----  -----\nName    Calls  Total\n------  -----  -----\n") +
                                 "a       1      2\n" +
                                 std::string("\x89PNG\r\x1a\n", 7) +     // line 5: binary (control bytes)
                                 "b       3      4\n"
                                 "matmul_v2 compute\n"                     // line 7: cut after its name
                                 "c\x80\xff    5      6\n"                 // line 8: not UTF-8
                                 "tab\there 7      8\n"                    // line 9: a tab
                                 "d       9      10\n"
                                 "------  -----  -----\n";
        CHECK(run_rule_table(logscan::test::chunked_input(text, {}).chunks()) ==
              std::vector<std::string>{"H2s0:Name|Calls|Total", "R4:a|1|2", "T5:" + std::string("\x89PNG\r\x1a", 6), "R6:b|3|4",
                                       "T7:matmul_v2 compute", "T8:c\x80\xff    5      6", "T9:tab\there 7      8",
                                       "R10:d|9|10", "E0"});
    }
    SUBCASE("where the header is due, it still is after a binary line") {
        const std::string text = "------  -----\n\x01\x02garbage\nName    Calls\n------  -----\nx       1\n------  -----\n";
        CHECK(run_rule_table(logscan::test::chunked_input(text, {}).chunks()) ==
              std::vector<std::string>{"T2:\x01\x02garbage", "H3s0:Name|Calls", "R5:x|1", "E0"});
    }
    SUBCASE("after a closing rule a binary line is a note, not the next section's header") {
        const std::string text = "------  -----\nName    Calls\n------  -----\nx       1\n------  -----\n\x7f\x7f  junk\nafter\n";
        const auto got = run_rule_table(logscan::test::chunked_input(text, {}).chunks());
        CHECK(std::find(got.begin(), got.end(), "T6:\x7f\x7f  junk") != got.end());
        CHECK(std::none_of(got.begin(), got.end(), [](const std::string& e) { return e.starts_with("H6"); }));
    }
    SUBCASE("the binary test itself") {
        CHECK_FALSE(logscan::internal::is_binary_text("plain ASCII, spaces  and ~"));
        CHECK_FALSE(logscan::internal::is_binary_text("数据预处理 é"));
        CHECK(logscan::internal::is_binary_text(std::string_view("a\0b", 3)));
        CHECK(logscan::internal::is_binary_text("a\tb"));
        CHECK(logscan::internal::is_binary_text("a\x7f"));
        CHECK(logscan::internal::is_binary_text("\xe6\x95"));          // a cut sequence
        CHECK(logscan::internal::is_binary_text("\xc0\xaf"));          // overlong
        CHECK(logscan::internal::is_binary_text("\xed\xa0\x80"));      // a surrogate
        static_assert(!logscan::internal::is_binary_text("ok"));
    }
}

TEST_CASE("table::pipe_table: a row with no cell past the first, or a binary one, is a note") {
    recorder r;
    logscan::pipe_table<recorder> t(r);
    const char* lines[] = {"| Model | ips | mem |", "|---|---|---|", "| a | 1 | 2 |", "|   ips   |   |   |", "|",
                           "| \x89PNG\x1a | 3 | 4 |", "| b | | 5 |", "after"};
    std::uint64_t n = 0;
    for (const char* l : lines) (void)t.feed(logscan::line{l, ++n, 0});
    CHECK(r.events == std::vector<std::string>{"H1s0:Model|ips|mem", "R3:a|1|2", "T4:|   ips   |   |   |", "T5:|",
                                               "T6:| \x89PNG\x1a | 3 | 4 |", "R7:b||5", "E8"});
}

TEST_CASE("table::multi_values: access, count, a missing last value") {
    const auto v = logscan::multi_values("1.67 / 0.00 / 0.01 / 0.00 / 0.38");
    CHECK(v.size() == 5);
    CHECK(v.front().text == "1.67");
    CHECK(v[4].text == "0.38");
    CHECK(v[2].number<double>().value == 0.01);
    CHECK(v[5].text.empty());
    CHECK_FALSE(v[5].number<double>().ok());
    std::vector<std::string> parts;
    // formats.md's `a / b / ...`: parts between ` / ` separators, so a cell cut after a slash
    // keeps it in its last part (no separator follows `2`), and `/ /` is one separator and a
    // part `/ 2` (separators are found left to right, as the text is read)
    for (auto p : logscan::multi_values("1 / 2 / ")) parts.emplace_back(p.text);
    CHECK(parts == std::vector<std::string>{"1", "2 /"});
    parts.clear();
    for (auto p : logscan::multi_values("1 / / 2")) parts.emplace_back(p.text);
    CHECK(parts == std::vector<std::string>{"1", "/ 2"});
    parts.clear();
    for (auto p : logscan::multi_values("1  /  - / 3")) parts.emplace_back(p.text);
    CHECK(parts == std::vector<std::string>{"1", "-", "3"});
    CHECK(logscan::multi_values("N/A / 2").size() == 2);
    CHECK(logscan::multi_values("N/A / 2").front().text == "N/A");
    CHECK(logscan::multi_values("").empty());
    CHECK(logscan::multi_values("").front().text.empty());
}

TEST_CASE("table::multi_values: parts cut and numbers read in one pass, as the cut at ` / ` and parse_grouped give them") {
    struct part {
        std::string text;
        bool is_number;
        double value;
        bool operator==(const part&) const = default;
    };
    std::size_t read_parts = 0; // parts whose number was read while cut
    const auto parts = [&](std::string_view cell) {
        std::vector<part> out;
        for (const logscan::value_part& p : logscan::multi_values(cell)) {
            const auto v = p.number<double>();
            out.push_back({std::string(p.text), v.ok(), v.ok() ? v.value : 0});
            read_parts += p.read;
        }
        return out;
    };
    // the definition (formats.md's `a / b / ...`): the trimmed text cut at each ` / ` left to
    // right, each part trimmed, and its number parse_grouped's
    const auto defined = [](std::string_view cell) {
        std::vector<part> out;
        std::string_view rest = logscan::internal::trim(cell);
        while (!rest.empty()) {
            const std::size_t sep = rest.find(" / ");
            const std::string_view t = logscan::internal::trim(rest.substr(0, sep));
            const auto v = logscan::parse_grouped<double>(t);
            out.push_back({std::string(t), v.ok(), v.ok() ? v.value : 0});
            if (sep == std::string_view::npos) break;
            rest = rest.substr(sep + 3);
        }
        return out;
    };
    CHECK(parts("  441.72 / 0.39 / - / 1,577.51 / -0.5     ") ==
          std::vector<part>{{"441.72", true, 441.72}, {"0.39", true, 0.39}, {"-", false, 0}, {"1,577.51", true, 1577.51}, {"-0.5", true, -0.5}});
    CHECK(read_parts == 4);
    CHECK(parts("1.5e3 / N/A / 1,23 / 1. / 0123") ==
          std::vector<part>{{"1.5e3", true, 1500}, {"N/A", false, 0}, {"1,23", false, 0}, {"1.", false, 0}, {"0123", true, 123}});
    CHECK(parts("1234567890123456 / 12,345,678.25 / -") ==
          std::vector<part>{{"1234567890123456", true, 1234567890123456.0}, {"12,345,678.25", true, 12345678.25}, {"-", false, 0}});
    CHECK(std::signbit(parts("-0.00").at(0).value)); // -0 keeps its sign, as parse_grouped gives it
    CHECK(logscan::multi_values("2.5").front().number<float>().value == 2.5f); // (other types parse the text)
    // the iterator's own constructor on an untrimmed text that ends right after a separator,
    // or is empty: an empty last part, as the cut gives it, read within the text (ASan)
    const std::vector<char> bytes{'1', ' ', '/', ' '};
    std::vector<std::string> cut;
    for (auto it = logscan::multi_value_range::iterator(std::string_view(bytes.data(), 4), false);
         it != logscan::multi_value_range::iterator() && cut.size() < 4; ++it)
        cut.emplace_back(it->text);
    CHECK(cut == std::vector<std::string>{"1", ""});
    cut.clear();
    for (auto it = logscan::multi_value_range::iterator(std::string_view(bytes.data(), 0), false);
         it != logscan::multi_value_range::iterator() && cut.size() < 4; ++it)
        cut.emplace_back(it->text);
    CHECK(cut == std::vector<std::string>{""});

    // random cells of digits, signs, separators, dots, exponents, dashes, letters and blanks,
    // and long decimals (past what m / 10^k holds exactly): every part and number as defined
    // (a part cut elsewhere, or a number read by the one-pass path that it should have left
    // to parse_grouped, differs here)
    const char alphabet[] = "0123456789000111.,,-- //  /eE+xN\t";
    std::uint64_t seed = 0x9E3779B97F4A7C15ull;
    const auto next = [&] {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        return seed;
    };
    read_parts = 0;
    std::size_t checked = 0;
    for (int round = 0; round < 220000; ++round) {
        std::string cell;
        if (round < 200000) {
            const std::size_t n = next() % 24;
            for (std::size_t i = 0; i < n; ++i) {
                const std::uint64_t r = next();
                if (r % 5 == 0) cell += " / ";
                else cell += alphabet[(r >> 8) % (sizeof alphabet - 1)];
            }
        } else {
            const std::size_t digits = 14 + next() % 11, dot = next() % digits;
            for (std::size_t i = 0; i < digits; ++i) {
                if (i == dot && i != 0) cell += '.';
                cell += static_cast<char>('0' + next() % 10);
            }
            cell += " / " + cell;
        }
        const std::vector<part> got = parts(cell), want = defined(cell);
        if (got != want) {
            FAIL_CHECK("cell [" << cell << "]");
            break;
        }
        for (std::size_t i = 0; i < got.size(); ++i)
            if (std::signbit(got[i].value) != std::signbit(want[i].value)) FAIL_CHECK("sign of [" << cell << "]");
        ++checked;
    }
    CHECK(checked == 220000);
    CHECK(read_parts > 50000); // (the one-pass path is taken)
}

TEST_CASE("table::titles and column lookups on the Paddle tables of sample 003") {
    const std::string text = logscan::test::read_file(logscan::test::sample_path("003_1c776201c8b5b83e.txt"));
    struct collect {
        std::vector<std::string> titles, header_titles;
        std::map<std::string, std::size_t> rows_per_title;
        std::string cpu_106, gpu_106, first_word_106;
        double cpu_total_106 = -1;
        std::size_t lookups_missing = 0;
        void on_table_title(const logscan::table_title& t) { titles.push_back(std::to_string(t.line) + ":" + std::string(t.text)); }
        void on_table_header(const logscan::table_header& h) {
            header_titles.push_back(std::to_string(h.line) + ":" + std::string(h.title));
            if (h.title == "Operator Summary") {
                CHECK(h.index_of_prefix("CPU Total") == 2);
                CHECK(h.index_of_word("GPU") == 3);
                CHECK(h.index_of("FLOPs") == 4);
                CHECK(h.index_of("CPU") == logscan::column_lookup::npos);
            }
        }
        void on_table_row(const logscan::table_row& r) {
            ++rows_per_title[std::string(r.title)];
            if (r.line == 106) {
                cpu_106 = r.find_prefix("CPU Total")->text();
                gpu_106 = r.find_word("GPU")->text();
                first_word_106 = r.find_word("Name")->text();
                cpu_total_106 = logscan::multi_values(r.find_prefix("CPU")->text()).front().number<double>().value;
                if (r.find_prefix("Nope") != nullptr) ++lookups_missing;
            }
        }
    } c;
    logscan::rule_table<collect> t(c);
    rule_driver<logscan::rule_table<collect>, collect> d{c, t, nullptr};
    logscan::for_each_line(std::string_view(text), d);
    t.finish();
    // the framed title lines of the sample (grep -n for dashes or '=' around text; the two
    // "Thread: All threads merged" lines are banners, not titles)
    CHECK(c.titles == std::vector<std::string>{"29:Device Summary", "44:Overview Summary", "81:Model Summary",
                                               "99:Operator Summary", "684:Kernel Summary",
                                               "936:Memory Manipulation Summary", "951:UserDefined Summary",
                                               "1000:Perf Summary"});
    CHECK(c.header_titles == std::vector<std::string>{"31:Device Summary", "47:Overview Summary", "59:Overview Summary",
                                                      "84:Model Summary", "102:Operator Summary", "687:Kernel Summary",
                                                      "939:Memory Manipulation Summary", "954:UserDefined Summary"});
    // rows per table, counted by line ranges in the sample (see "Paddle profiler tables of sample 003")
    CHECK(c.rows_per_title == std::map<std::string, std::size_t>{{"Device Summary", 3}, {"Overview Summary", 12},
                                                                 {"Model Summary", 5}, {"Operator Summary", 576},
                                                                 {"Kernel Summary", 244}, {"Memory Manipulation Summary", 7},
                                                                 {"UserDefined Summary", 19}});
    // line 106: "  conv2d infer_meta  570  1.67 / 0.00 / 0.01 / 0.00 / 0.38  0.00 / ... / 0.00  -"
    CHECK(c.cpu_106 == "1.67 / 0.00 / 0.01 / 0.00 / 0.38");
    CHECK(c.gpu_106 == "0.00 / 0.00 / 0.00 / 0.00 / 0.00");
    CHECK(c.first_word_106 == "conv2d infer_meta");
    CHECK(c.cpu_total_106 == 1.67);
    CHECK(c.lookups_missing == 0);
}

TEST_CASE("table::aligned_table: TVM debug prints between rows, Configuration right after the footer") {
    // TVM prints compiler debug output into the same stream; the rows go on after it, and
    // `Configuration` may follow the Total row without a blank line
    const std::string text =
        "Name          Duration (us)  Percent  Device  \n"
        "fused_add          1,577.51     1.29    cpu0  \n"
        "hellow minjae this is compiler.cc line 911\n"
        "vm_mod_fused_nn_co\n"
        "fused_mul            856.38     0.70    cpu0  \n"
        "-------------\n"
        "Sum                2,433.89     1.99          \n"
        "Total              2,433.89             cpu0  \n"
        "Configuration\n"
        "-------------\n"
        "Number of threads: 32\n";
    const std::vector<std::string> expected = {
        "H1s0:Name|Duration (us)|Percent|Device",
        "R2:fused_add|1,577.51|1.29|cpu0",
        "T3:hellow minjae this is compiler.cc line 911",
        "T4:vm_mod_fused_nn_co",
        "R5:fused_mul|856.38|0.70|cpu0",
        "F7:Sum|2,433.89|1.99|",
        "F8:Total|2,433.89||cpu0",
        "E9", "O9", "O10", "O11",
    };
    logscan::test::check_chunk_invariance(text, [&](logscan::test::chunk_list ch) {
        auto got = run_aligned_table(ch);
        CHECK(got == expected);
        return got;
    });
}

TEST_CASE("table::aligned_table in_order: MegEngine memory rows with values that outgrow their width") {
    // printed with MegEngine's own format; 100000.00 MiB and more leave one space (or none,
    // after a bracket) between cells
    const char* fmt = "%9s%10.2fMiB(%10zubytes)%10.2fMiB(%6.2f%%)%10.2fMiB(%6.2f%%)";
    struct row { const char* node; double alloc; std::size_t bytes; double lo, lo_pct, up, up_pct; };
    const row rows[] = {
        {"gpu0:0", 196.00, 205520896, 196.00, 100.00, 832.06, 424.52},
        {"gpu1:0", 123456.78, 129452998901, 123456.78, 100.00, 234567.89, 190.00},
        {"gpu2:0", 99999.99, 104857589514, 1234567.89, 100.00, 1234567.89, 100.00},
        {"gpu10:COPY", 12.00, 12582912, 12.00, 100.00, 12.00, 100.00},
    };
    std::string text = "[06 15:13:36 169@fprop.py:megskull.graph.fprop] static memory allocation:\n"
                       " comp_node  alloc  lower_bound  upper_bound\n";
    std::vector<std::string> expected = {"H2s0:comp_node|alloc|lower_bound|upper_bound"};
    char buf[256];
    std::uint64_t n = 2;
    for (const row& r : rows) {
        std::snprintf(buf, sizeof buf, fmt, r.node, r.alloc, r.bytes, r.lo, r.lo_pct, r.up, r.up_pct);
        text += std::string(buf) + "\n";
        // each cell on its own, without padding
        char a[64], b[64], c[64];
        std::snprintf(a, sizeof a, "%.2fMiB(%10zubytes)", r.alloc, r.bytes); // the brackets keep their padding
        std::snprintf(b, sizeof b, "%.2fMiB(%.2f%%)", r.lo, r.lo_pct);
        std::snprintf(c, sizeof c, "%.2fMiB(%.2f%%)", r.up, r.up_pct);
        expected.push_back("R" + std::to_string(++n) + ":" + r.node + "|" + a + "|" + b + "|" + c);
    }
    text += "[06 15:13:36 172@fprop.py:megskull.graph.fprop] static mem alloc: nr_opr=397\n";
    expected.push_back("E" + std::to_string(n + 1));
    expected.push_back("O" + std::to_string(n + 1));
    // the rows must really be printed tightly: one has a single space, one none
    CHECK(text.find("gpu1:0 123456.78MiB(") != std::string::npos);
    CHECK(text.find("%)1234567.89MiB(") != std::string::npos);
    logscan::test::check_chunk_invariance(text, [&](logscan::test::chunk_list ch) {
        recorder r;
        logscan::aligned_table<recorder> t(r, logscan::column_match::in_order);
        struct driver {
            logscan::aligned_table<recorder>& t;
            recorder& r;
            bool next_is_header = false;
            void on_line(const logscan::line& l) {
                if (t.feed(l) != logscan::table_feed::not_mine) return;
                if (next_is_header) {
                    next_is_header = false;
                    if (t.start(l) != logscan::table_feed::not_mine) return;
                }
                next_is_header = l.text.ends_with("static memory allocation:");
                if (l.number > 1) r.events.push_back("O" + std::to_string(l.number));
            }
        } d{t, r};
        logscan::line_buffer carry(4096);
        logscan::line_splitter<driver> s(d, carry);
        for (auto c : ch) s.feed(c);
        s.finish();
        t.finish();
        CHECK(r.events == expected);
        return r.events;
    });
}

TEST_CASE("table::aligned_table cuts rows as a byte-at-a-time reference does (random rows, all lengths)") {
    // reference: runs end at two spaces or a space at the end; a run at 0 is the first column,
    // any other goes to the column whose header ends where it ends; a row has a second cell.
    // Two headers: a short one, and one wider than four 64-byte blocks whose columns end at
    // the blocks' last bytes (the reader finds runs 64 bytes at a time: rows of every length
    // up to past 256, runs and space pairs across block edges). Each row is fed as a view
    // followed by other bytes, which must not be read as the row's.
    const auto ending_at = [](std::string h, std::size_t end, const std::string& word) {
        return h + std::string(end - word.size() - h.size(), ' ') + word;
    };
    std::string wide = ending_at("Name", 63, "Duration (us)");
    wide = ending_at(wide + "  Percent  Device", 127, "Count");
    // (and a header of two blocks exactly, its last column ending there)
    const std::string block_long = ending_at(ending_at("Name", 63, "Duration (us)") + "  Percent  Device", 128, "Count");
    wide = ending_at(wide + "  Argument Shapes", 191, "Hash");
    wide = ending_at(wide + "  a", 255, "perf::CYCLES") + "  z";
    for (const std::string& header : {std::string("Name      Duration (us)  Percent  Device  Count   Argument Shapes   Hash"), wide,
                                      block_long, wide + " " /* a header ending in a space */}) {
        INFO("header: '" << header << "'");
        std::vector<std::size_t> right;
        for (std::size_t i = 0; i < header.size();) {
            while (i < header.size() && header[i] == ' ') ++i;
            if (i == header.size()) break; // (trailing spaces: no column)
            while (i < header.size() && !(header[i] == ' ' && (i + 1 == header.size() || header[i + 1] == ' '))) ++i;
            right.push_back(i);
        }
        auto reference = [&](const std::string& s) {
            std::vector<std::string> cells(right.size());
            if (s.empty() || s[0] == ' ') return std::string("not a row");
            std::size_t col = 0, i = 0;
            bool second = false;
            while (i < s.size()) {
                while (i < s.size() && s[i] == ' ') ++i;
                if (i == s.size()) break;
                const std::size_t b = i;
                while (i < s.size() && !(s[i] == ' ' && (i + 1 == s.size() || s[i + 1] == ' '))) ++i;
                if (b == 0) {
                    cells[0] = s.substr(0, i);
                    col = 1;
                    continue;
                }
                while (col < right.size() && right[col] < i) ++col;
                if (col == right.size() || right[col] != i) return std::string("not a row");
                cells[col++] = s.substr(b, i - b);
                second = true;
            }
            if (!second) return std::string("not a row");
            std::string out;
            for (const auto& c : cells) out += c + "|";
            return out;
        };
        struct rows {
            std::string last;
            void on_table_row(const logscan::table_row& r) {
                last.clear();
                for (const auto& c : r.cells) last += std::string(c.raw) + "|";
            }
            void on_table_text(const logscan::line&) { last = "not a row"; }
        } v;
        logscan::aligned_table<rows> t(v);
        REQUIRE(t.start(logscan::line{header, 1, 0}) == logscan::table_feed::consumed);
        std::uint64_t seed = 12345;
        auto rnd = [&](std::uint64_t n) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            return (seed >> 33) % n;
        };
        // rows ending at and around the blocks' edges, then random ones
        std::vector<std::string> edges;
        for (const std::size_t len : {1u, 2u, 3u, 62u, 63u, 64u, 65u, 66u, 126u, 127u, 128u, 129u, 130u, 190u, 191u, 192u,
                                      193u, 194u, 254u, 255u, 256u, 257u, 258u})
            for (const std::size_t gap : {1u, 2u, 3u}) {
                if (len > header.size() + 30) continue;
                edges.emplace_back(len, 'x');                                   // one run to the end
                std::string a = "x" + std::string(len - 1, ' ');                // a run at 0, then padding
                edges.push_back(a);
                if (len > gap + 1) a.replace(len - gap, gap, std::string(gap, 'y')); // a run ending at the end
                edges.push_back(a);
                if (len > gap + 2) a[len - gap - 1] = 'z';                       // two runs touching: one
                edges.push_back(a);
                if (len > 2) edges.push_back(std::string(len - 2, 'x') + "  "); // ended by the last two spaces
                if (len > 1) edges.push_back(std::string(len - 1, 'x') + " ");  // by a space at the end
            }
        std::size_t rows_seen = 0;
        for (std::size_t k = 0; k < 20000 + edges.size(); ++k) {
            std::string s;
            const std::size_t len = 1 + rnd(header.size() + 30);
            for (std::size_t i = 0; i < len; ++i) s += rnd(3) == 0 ? 'x' : ' '; // mostly padding
            if (k >= 20000) s = edges[k - 20000];
            else if (rnd(2) == 0) { // or a row that fits: cells ending on the right edges
                const std::size_t last = 1 + rnd(right.size() - 1); // (the columns after it left off)
                s.assign(right[last] + rnd(4), ' ');
                s.replace(0, 3, "abc");
                for (std::size_t c = 1; c <= last; ++c)
                    if (rnd(3) != 0 || c == last) s.replace(right[c] - 2, 2, rnd(2) ? "12" : "ab");
            }
            if (s.find_first_not_of(' ') == std::string::npos || s[0] == '-') continue;
            INFO("row: '" << s << "'");
            v.last = "none";
            const std::string stored = s + "xx x"; // (bytes after the row's end)
            REQUIRE(t.feed(logscan::line{std::string_view(stored).substr(0, s.size()), 2, 0}) == logscan::table_feed::consumed);
            CHECK(v.last == reference(s));
            rows_seen += v.last != "not a row";
        }
        CHECK(rows_seen > 1000);
    }
}

namespace {
// Feeds each line of `text` to `t` (an indented_table), recording the lines it does not
// take as "O<line>:<text>" and its notes as the whole line (`whole`).
struct indent_recorder : recorder {
    logscan::indent_keeper* table = nullptr;
    void on_table_text(const logscan::line& l) {
        const logscan::line w = table->whole(l);
        events.push_back("T" + std::to_string(w.number) + ":" + std::string(w.text));
    }
};
std::vector<std::string> run_indented(std::string_view text, bool titled_only) {
    indent_recorder r;
    logscan::indented_table<logscan::rule_table<indent_recorder>> t(r, logscan::position_unit::code_points, titled_only);
    r.table = &t;
    std::uint64_t n = 0;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t e = text.find('\n', at);
        const logscan::line l{text.substr(at, e - at), ++n, at};
        if (t.feed(l) == logscan::table_feed::not_mine) r.events.push_back("O" + std::to_string(n) + ":" + std::string(l.text));
        at = e + 1;
    }
    t.finish();
    return r.events;
}
} // namespace

TEST_CASE("indented_table: a table keeps the indent of its opening line; a line off it ends the table") {
    // the same table at indent 0 and at indent 4 yields the same events, its rows' own
    // indentation (depth) kept; notes come back whole
    const std::string plain = "---Model Summary---\n"
                              "-------  ----\n"
                              "Name     Calls\n"
                              "-------  ----\n"
                              "conv     3\n"
                              "  relu   2\n"
                              "-------  ----\n";
    std::string indented;
    for (std::size_t at = 0; at < plain.size();) {
        const std::size_t e = plain.find('\n', at);
        indented += "    " + plain.substr(at, e - at + 1);
        at = e + 1;
    }
    const auto a = run_indented(plain, true);
    const auto b = run_indented(indented, true);
    CHECK(a == b);
    CHECK(a == std::vector<std::string>{"N1:Model Summary", "H3s0:Name|Calls", "R5:conv|3", "R6:relu|2", "E0"});

    // a line that does not start with the indent ends the table (and is the caller's); a
    // blank line keeps its own rule (rows without a closing rule end at it); a note keeps its
    // indent; a title deeper in opens its own table; titled_only: a bare rule line or a Thread
    // banner opens nothing
    const auto c = run_indented("  ---Model Summary---\n"
                                                        "  -------  ----\n"
                                                        "  Name     Calls\n"
                                                        "  -------  ----\n"
                                                        "  conv     3\n"
                                                        "  not a row\n"
                                                        " off the indent\n"
                                                        "-------  ----\n"
                                                        "---Thread: 1---\n"
                                                        "  ---Other Summary---\n"
                                                        "  a note\n"
                                                        "      ---Deeper Summary---\n",
                                                        true);
    CHECK(c == std::vector<std::string>{"N1:Model Summary", "H3s0:Name|Calls", "R5:conv|3", "T6:  not a row", "E7",
                                        "O7: off the indent", "O8:-------  ----", "O9:---Thread: 1---", "N10:Other Summary",
                                        "T11:  a note", "E12", "N12:Deeper Summary", "E0"});
    // without titled_only, a bare rule line opens an untitled table
    const auto d = run_indented("-------  ----\nName     Calls\n-------  ----\nconv     3\n", false);
    CHECK(d == std::vector<std::string>{"H2s0:Name|Calls", "R4:conv|3", "E0"});
}

TEST_CASE("pipe_table with only_title: a table opens only after that title, blank lines between or not") {
    recorder r;
    logscan::pipe_table<recorder> t(r, "Perf Summary");
    const std::vector<std::string> lines = {"===Other Summary===", "| a | b |", "|---|---|", "| 1 | 2 |", "",
                                            "===Perf Summary===",  "",          "note",      "| a | b |", "| 1 | 2 |",
                                            "| 3 |"};
    std::vector<std::string> outside;
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (t.feed(logscan::line{lines[i], i + 1, 0}) == logscan::table_feed::not_mine) outside.push_back(std::to_string(i + 1));
    t.finish();
    CHECK(r.events == std::vector<std::string>{"H9s0:a|b", "R10:1|2", "T11:| 3 |", "E0"});
    CHECK(outside == std::vector<std::string>{"1", "2", "3", "4", "5", "6", "7", "8"});
}

TEST_CASE("table::cells split at runs of two or more spaces (next_wide_cell, for_each_wide_cell)") {
    // a single space stays in its cell, a space at the end ends the last one, blanks make none
    const std::string_view s = "  Node Name   Ops  Time(us) x ";
    std::vector<std::pair<std::string, std::size_t>> cells;
    logscan::for_each_wide_cell(s, 0, [&](std::string_view c, std::size_t b) { cells.emplace_back(c, b); });
    CHECK(cells == std::vector<std::pair<std::string, std::size_t>>{{"Node Name", 2}, {"Ops", 14}, {"Time(us) x", 19}});
    std::size_t at = 13;
    CHECK(logscan::next_wide_cell(s, at) == "Ops");
    CHECK(at == 17);
    at = s.size() - 1;
    CHECK(logscan::next_wide_cell(s, at).empty());
    cells.clear();
    logscan::for_each_wide_cell("   ", 0, [&](std::string_view c, std::size_t b) { cells.emplace_back(c, b); });
    CHECK(cells.empty());
    // a start past the end: no cell (not an out-of-range cut)
    logscan::for_each_wide_cell(s, s.size() + 5, [&](std::string_view c, std::size_t b) { cells.emplace_back(c, b); });
    CHECK(cells.empty());
    at = s.size() + 5;
    CHECK(logscan::next_wide_cell(s, at).empty());
    CHECK(at == s.size());
    // at run time the cells are found 64 bytes at a time: the same cuts as the byte-at-a-time
    // definition (a constant evaluation's path), on texts of every length up to past 3 blocks,
    // from every start, each text a view followed by other bytes
    constexpr auto at_compile_time = [] {
        std::size_t n = 0;
        logscan::for_each_wide_cell("  Node Name   Ops  Time(us) x ", 0, [&](std::string_view, std::size_t) { ++n; });
        return n;
    }();
    static_assert(at_compile_time == 3);
    std::uint64_t seed = 99;
    for (int k = 0; k < 3000; ++k) {
        std::string t;
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        const std::size_t len = (seed >> 33) % 200;
        for (std::size_t i = 0; i < len; ++i) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            t += (seed >> 40) % 3 == 0 ? 'x' : ' ';
        }
        const std::string stored = t + "xx";
        const std::string_view v = std::string_view(stored).substr(0, t.size());
        const std::size_t from = len == 0 ? 0 : (seed >> 20) % (len + 2);
        std::vector<std::pair<std::string, std::size_t>> got, want;
        logscan::for_each_wide_cell(v, from, [&](std::string_view c, std::size_t b) { got.emplace_back(c, b); });
        std::size_t a = from;
        for (std::string_view c = logscan::next_wide_cell(v, a); !c.empty(); c = logscan::next_wide_cell(v, a))
            want.emplace_back(c, static_cast<std::size_t>(c.data() - v.data()));
        INFO("text: '" << t << "' from " << from);
        REQUIRE(got == want);
    }
}

TEST_CASE("indented_table: a line the reader declines at rest is not cut for it, and indent() is still its own") {
    // pipe_table declines, at rest, a line beginning with a byte no pipe table line can
    // begin with (`declines`): not_mine, as its feed says, and indent() is that line's
    // leading spaces (indent_keeper: the current line's own when no table is open)
    recorder r;
    logscan::indented_table<logscan::pipe_table<recorder>> t(r);
    CHECK(t.feed(logscan::line{"   x", 1, 0}) == logscan::table_feed::not_mine);
    CHECK(t.indent() == 3);
    CHECK(t.feed(logscan::line{"x", 2, 5}) == logscan::table_feed::not_mine);
    CHECK(t.indent() == 0);
    CHECK(t.feed(logscan::line{"  | a | b |", 3, 7}) != logscan::table_feed::not_mine); // (a pipe table's header)
    CHECK(t.indent() == 2);
}

TEST_CASE("multi_values: a forward iterator whose it++ and it-> are its ++it and *it (internal::iterator_ops)") {
    static_assert(std::forward_iterator<logscan::multi_value_range::iterator>);
    const auto parts = logscan::multi_values("1.5 / - / 3");
    auto it = parts.begin();
    const auto was = it++; // (the place before, kept)
    CHECK(was->text == "1.5");
    CHECK(it->text == "-");
    CHECK(it->placeholder());
    CHECK((*it++).text == "-");
    CHECK(it->text == "3");
    CHECK(++it == parts.end());
}
