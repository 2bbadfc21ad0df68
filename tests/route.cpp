// SPDX-License-Identifier: MIT
#include <logscan/route.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/alloc_counter.hpp"
#include "support/chunking.hpp"

namespace {

// Everything the router hands out, as text: titles, headers, rows, notes, ends, log lines and
// fallback text, each with its line number.
struct trace {
    std::vector<std::string> ev;
    bool record = true;
    std::size_t rows = 0, logs = 0, text = 0, notes = 0, titles = 0, headers = 0, ends = 0;
    // builds the entry only when recording (the allocation-free run records nothing)
    template <class F>
    void add(F&& make) {
        if (record) ev.push_back(make());
    }
    void on_table_title(const logscan::table_title& t) {
        ++titles;
        add([&] { return "N" + std::to_string(t.line) + ":" + std::string(t.text); });
    }
    void on_table_header(const logscan::table_header& h) {
        ++headers;
        add([&] { return "H" + std::to_string(h.line); });
    }
    void on_table_row(const logscan::table_row& r) {
        ++rows;
        add([&] { return "R" + std::to_string(r.line) + ":" + std::string(r.title) + ":" + std::string(r.cells[0].text()); });
    }
    void on_table_text(const logscan::line& l) {
        ++notes;
        add([&] { return "T" + std::to_string(l.number); });
    }
    void on_table_end(std::uint64_t line) {
        ++ends;
        add([&] { return "E" + std::to_string(line); });
    }
};

// Paddle: log lines by a rule, the profiler tables by a rule_table and a pipe_table.
template <class Out>
Out run_paddle(logscan::test::chunk_list chunks, bool record = true) {
    trace t;
    t.record = record;
    logscan::pipe_table<trace> pipes(t);
    logscan::rule_table<trace> table(t);
    auto rules = logscan::rule_set(logscan::rule<R"(\[(\d\d/\d\d) (\d\d:\d\d:\d\d)\] (\S+) (\w+): (.*))",
                                                 "[09/20 12:00:35] reader WARNING: Shared memory size is less than 1G">(
        [&](const auto& m) {
            ++t.logs;
            t.add([&] { return "L" + std::string(m.template get<2>()); });
        }));
    logscan::rule_reader reader(rules, [&](const logscan::line& l) {
        if (l.text.find_first_not_of(' ') == std::string_view::npos) return; // blank lines yield nothing
        ++t.text;
        t.add([&] { return "O" + std::to_string(l.number); });
    });
    logscan::line_router router(reader, pipes, table);
    logscan::line_buffer carry(4096);
    logscan::line_splitter<decltype(router)> s(router, carry);
    for (auto c : chunks) s.feed(c);
    s.finish();
    router.finish();
    if constexpr (std::is_same_v<Out, trace>) return t;
    else return t.ev;
}

} // namespace

TEST_CASE("route::an ordinary log line right after a table is the log line, never table text") {
    const std::string text =
        "-----Model Summary-----\n"
        "Time unit: ms\n"
        "------  -----\n"
        "Name    Calls\n"
        "------  -----\n"
        "a       1\n"
        "------  -----\n"
        "[09/20 12:00:56] ppdet.engine INFO: Epoch: [0] [   19/12500] loss: 0.5\n"
        "a note nobody claims\n";
    const std::vector<std::string> expected = {"N1:Model Summary", "T2", "H4", "R6:Model Summary:a", "E8", "L12:00:56", "O9"};
    logscan::test::check_chunk_invariance(text, [&](logscan::test::chunk_list ch) {
        auto got = run_paddle<std::vector<std::string>>(ch);
        CHECK(got == expected);
        return got;
    });
}

TEST_CASE("route::a title, its notes and a pipe table: the pipe rows carry the title") {
    const std::string text =
        "============Perf Summary============\n"
        "Reader Ratio: 0.106%\n"
        "Time Unit: s, IPS Unit: steps/s\n"
        "|                 |       avg       |       max       |\n"
        "|   reader_cost   |     0.00074     |     0.00117     |\n"
        "|       ips       |     1.42885     |     4.50119     |\n"
        "[09/20 12:01:02] ppdet.engine INFO: done\n";
    const std::vector<std::string> expected = {"N1:Perf Summary", "T2", "T3", "H4", "E4",
                                               "R5:Perf Summary:reader_cost", "R6:Perf Summary:ips", "E7", "L12:01:02"};
    logscan::test::check_chunk_invariance(text, [&](logscan::test::chunk_list ch) {
        auto got = run_paddle<std::vector<std::string>>(ch);
        CHECK(got == expected);
        return got;
    });
}

TEST_CASE("route::sample 003: every non-blank line is a log line, table structure, a row or text") {
    const std::string text = logscan::test::read_file(logscan::test::sample_path("003_1c776201c8b5b83e.txt"));
    const trace t = logscan::test::check_chunk_invariance(
        text, [](logscan::test::chunk_list ch) { return run_paddle<std::vector<std::string>>(ch); }, 4)
                        .empty()
                    ? trace{}
                    : run_paddle<trace>(logscan::test::chunked_input(text, {}).chunks(), false);
    // counted in the sample: 43 lines start with '[' (grep -c '^\['); the table rows per
    // table by line ranges (3 + 12 + 5 + 576 + 244 + 7 + 19) and the 3 pipe rows
    CHECK(t.logs == 43);
    CHECK(t.rows == 866 + 3);
    CHECK(t.titles == 8);
    CHECK(t.headers == 8 + 1); // 8 table headers (of 7 tables: Overview has two sections), 1 pipe header
    // the remaining non-blank lines: every one is structure or text, counted by kind with
    // plain string tests: rule lines, dash lines, framed lines, the pipe lines ...
    std::size_t nonblank = 0, structural = 0;
    for (std::size_t p = 0; p < text.size();) {
        std::size_t nl = text.find('\n', p);
        if (nl == std::string::npos) nl = text.size();
        std::string_view l(text.data() + p, nl - p);
        while (!l.empty() && l.back() == ' ') l.remove_suffix(1);
        if (!l.empty()) {
            ++nonblank;
            const bool dashes = l.find_first_not_of("- ") == std::string_view::npos;
            const bool framed = (l.starts_with("---") && l.ends_with("---")) || (l.starts_with("===") && l.ends_with("==="));
            structural += dashes || framed;
        }
        p = nl + 1;
    }
    // nonblank = logs + rows + headers + structural + notes and other text
    CHECK(nonblank == t.logs + t.rows + t.headers + structural + t.notes + t.text);
    CHECK(t.text == 6); // the 6 lines before the first log line (warnings, "loading annotations ...")
}

TEST_CASE("route::the router allocates nothing while parsing") {
    const std::string text = logscan::test::read_file(logscan::test::sample_path("003_1c776201c8b5b83e.txt"));
    trace t;
    t.record = false;
    logscan::pipe_table<trace> pipes(t);
    logscan::rule_table<trace> table(t);
    auto rules = logscan::rule_set(logscan::rule<R"(\[(\d\d/\d\d) (\d\d:\d\d:\d\d)\] (\S+) (\w+): (.*))">(
        [&](const auto&) { ++t.logs; }));
    logscan::rule_reader reader(rules, [&](const logscan::line&) { ++t.text; }, logscan::rule_options{.strip_ansi = true});
    logscan::line_router router(reader, pipes, table);
    logscan::memory_source src(text);
    logscan::line_buffer carry(4096);
    LOGSCAN_CHECK_NO_ALLOC(logscan::for_each_line(src, router, carry); router.finish());
    CHECK(t.rows == 869);
    CHECK(t.logs == 43);
}

TEST_CASE("route::close ends the open regions, after the lines a table still holds") {
    trace t;
    logscan::rule_table<trace> table(t);
    auto rules = logscan::rule_set(logscan::rule<R"(\[(\d\d/\d\d) (\d\d:\d\d:\d\d)\] (.*))">([&](const auto&) { ++t.logs; }));
    logscan::rule_reader reader(rules, [&](const logscan::line&) { ++t.text; });
    logscan::line_router router(reader, table);
    router.feed(logscan::line{"-----Model Summary-----", 1, 0});
    router.feed(logscan::line{"------  -----", 2, 0});
    router.feed(logscan::line{"Name    Calls", 3, 0}); // held: a header only when a rule line follows
    CHECK(t.ev == std::vector<std::string>{"N1:Model Summary"});
    CHECK(router.close(4) == logscan::flow::proceed); // e.g. line 4 was too long to read
    CHECK(t.ev == std::vector<std::string>{"N1:Model Summary", "T3", "E4"});
    CHECK(!table.active());
    CHECK(router.close(5) == logscan::flow::proceed); // nothing open: nothing happens
    CHECK(t.ev.size() == 3);
}

TEST_CASE("route::rules_first: a log line right below a table's last row is a log line") {
    const std::string text = "-----Model Summary-----\n"
                             "------  -----\n"
                             "Name    Calls\n"
                             "------  -----\n"
                             "a       1\n"
                             "[09/20 12:00:56] ppdet.engine INFO: Epoch: [0] [   19/12500] loss: 0.5\n"
                             "b       2\n";
    auto run = [&](bool first) {
        trace t;
        logscan::rule_table<trace> table(t);
        auto rules = logscan::rule_set(logscan::rule<R"(\[(\d\d/\d\d) (\d\d:\d\d:\d\d)\] (.*))">(
            [&](const auto& m) { t.add([&] { return "L" + std::string(m.template get<2>()); }); }));
        logscan::rule_reader reader(rules, [&](const logscan::line& l) { t.add([&] { return "O" + std::to_string(l.number); }); });
        logscan::line_router router(reader, table);
        router.rules_first(first);
        REQUIRE(logscan::for_each_line(std::string_view(text), router).ok());
        router.finish();
        return t.ev;
    };
    // tables first (the default): the line is cut as a row of the table
    CHECK(run(false) == std::vector<std::string>{"N1:Model Summary", "H3", "R5:Model Summary:a",
                                                 "R6:Model Summary:[09/20 12:00:56] ppdet.engine INFO: Epoch: [0] [",
                                                 "R7:Model Summary:b", "E0"});
    // rules first: the log line ends the table; the next line is no table's
    CHECK(run(true) == std::vector<std::string>{"N1:Model Summary", "H3", "R5:Model Summary:a", "E6", "L12:00:56", "O7"});
}

TEST_CASE("route::a line every table at rest declines goes to the rules alone, as if each table had been fed it") {
    // A pipe table holding a title is not at rest: the blank line after the title is fed to it
    // and makes it forget the title, as its own feed says (the header has none). Skipping it
    // there would keep the title.
    struct titles {
        std::vector<std::string> ev;
        void on_table_header(const logscan::table_header& h) { ev.push_back("H" + std::to_string(h.line) + ":" + std::string(h.title)); }
        void on_table_row(const logscan::table_row& r) { ev.push_back("R" + std::to_string(r.line)); }
    };
    for (const bool first : {false, true}) {
        titles t;
        logscan::pipe_table<titles> pipes(t);
        std::vector<std::uint64_t> others;
        auto rules = logscan::rule_set(logscan::rule<R"(#(\w+))">([](const auto&) {}));
        logscan::rule_reader reader(rules, [&](const logscan::line& l) { others.push_back(l.number); });
        logscan::line_router router(reader, pipes);
        router.rules_first(first);
        REQUIRE(logscan::for_each_line(std::string_view("===Title===\n\n| a | b |\n| 1 | 2 |\nx\n===Next===\n| c | d |\n| 3 | 4 |\n"), router).ok());
        router.finish();
        CHECK(t.ev == std::vector<std::string>{"H3:", "R4", "H7:Next", "R8"});
        CHECK(others == std::vector<std::uint64_t>{1, 2, 5, 6}); // (titles and plain lines: the fallback's)
    }

    // an indented table's indent() is the line's own spaces on a line no table takes, as its
    // feed sets it, whether the router fed it or skipped it
    struct none {
        void on_table_header(const logscan::table_header&) {}
        void on_table_row(const logscan::table_row&) {}
    } n;
    logscan::indented_table<logscan::pipe_table<none>> pipes(n);
    std::vector<std::size_t> indents;
    auto rules = logscan::rule_set(logscan::rule<R"(#(\w+))">([](const auto&) {}));
    logscan::rule_reader reader(rules, [&](const logscan::line&) { indents.push_back(pipes.indent()); });
    logscan::line_router router(reader, pipes);
    REQUIRE(logscan::for_each_line(std::string_view("    four\nzero\n  two\n\n   \n"), router).ok());
    CHECK(indents == std::vector<std::size_t>{4, 0, 2, 0, 3});

    // rule_table: at rest it takes only a title or a rule line (`-`, `=`), so it declines the rest
    struct quiet {
        void on_table_header(const logscan::table_header&) {}
        void on_table_row(const logscan::table_row&) {}
    } q;
    logscan::rule_table<quiet> table(q);
    CHECK_FALSE(table.declines('-'));
    CHECK_FALSE(table.declines('='));
    CHECK(table.declines('a'));
    CHECK(table.declines('\n'));
    CHECK(table.feed(logscan::line{"--- Title ---", 1, 0}) == logscan::table_feed::consumed);
    CHECK_FALSE(table.declines('a')); // (a title region: not at rest)
}
