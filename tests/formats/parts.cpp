// SPDX-License-Identifier: MIT
// One input parsed in parts (what `logscan convert --threads` does): a parser that says it is
// at rest after a prefix (`parser::at_rest`) may be dropped unfinished, and a fresh parser
// started at the same place (`parser::start_at`) must yield exactly the records the first
// would have. Checked on the samples and the hand-written inputs of the three line formats
// that can be cut (megengine-log, paddle-log, tvm-profile), at many line boundaries: every
// boundary of the small inputs, an even spread and the format's `split_point` places of the
// samples. The expected output is the whole input's output, from one parser.
#include <logscan/formats/chainer_memtrace.hpp>
#include <logscan/formats/megengine_log.hpp>
#include <logscan/formats/paddle_log.hpp>
#include <logscan/formats/tvm_profile.hpp>
#include <logscan/ndjson.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "support/chunking.hpp"
#include "support/string_writer.hpp"

namespace {

using logscan::test::string_sink;
using logscan::test::string_writer;

// NDJSON of `text` read by one parser started after `lines_before` lines and `offset`
// bytes; `finish` ends the input; `at_rest` receives the parser's at_rest() at the end.
template <template <class> class Parser, template <class> class Visitor>
std::string render(std::string_view text, std::uint64_t lines_before, std::uint64_t offset, bool finish, bool* at_rest = nullptr) {
    std::string out;
    char buf[4096];
    string_writer w(string_sink{&out}, buf);
    Visitor<string_writer> v{w};
    Parser<Visitor<string_writer>> p(v);
    p.start_at(lines_before, offset);
    p.feed(text);
    if (at_rest != nullptr) *at_rest = p.at_rest();
    if (finish) p.finish();
    w.flush();
    return out;
}

// True when split_point holds before the line that starts at byte b.
template <class Point>
bool is_point(std::string_view text, std::size_t b, Point split_point) {
    if (b == 0 || b >= text.size()) return false;
    const std::size_t pb = b < 2 ? std::string_view::npos : text.rfind('\n', b - 2);
    const std::size_t from = pb == std::string_view::npos ? 0 : pb + 1;
    const std::size_t e = text.find('\n', b);
    std::string_view prev = text.substr(from, b - 1 - from);
    std::string_view next = text.substr(b, (e == std::string_view::npos ? text.size() : e) - b);
    if (!prev.empty() && prev.back() == '\r') prev.remove_suffix(1);
    if (!next.empty() && next.back() == '\r') next.remove_suffix(1);
    return split_point(prev, next);
}

// The line starts to try: every one for a small input, else an even spread of about
// `spread` plus up to `spread` places where `split_point` holds.
template <class Point>
std::vector<std::size_t> boundaries(std::string_view text, std::size_t spread, Point split_point) {
    std::vector<std::size_t> starts;
    for (std::size_t p = 0; p < text.size();) {
        starts.push_back(p);
        const std::size_t nl = text.find('\n', p);
        if (nl == std::string_view::npos) break;
        p = nl + 1;
    }
    starts.push_back(text.size());
    if (starts.size() <= 2 * spread) return starts;
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < starts.size(); i += starts.size() / spread) out.push_back(starts[i]);
    std::vector<std::size_t> hinted;
    for (std::size_t p : starts)
        if (is_point(text, p, split_point)) hinted.push_back(p);
    for (std::size_t i = 0; i < hinted.size(); i += std::max<std::size_t>(1, hinted.size() / spread)) out.push_back(hinted[i]);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

struct outcome {
    std::size_t tried = 0, at_rest = 0, hints = 0, hints_at_rest = 0;
};

// The input cut at many places: where the first part's parser ends at rest, a fresh parser
// started there (and, for a core that resumes, resumed after the units the first part holds,
// when the first parser says it ended there, then given what it could not guess) must yield
// the rest of the whole's records.
template <template <class> class Parser, template <class> class Visitor, class Point>
outcome check_parts(std::string_view text, Point split_point, std::size_t spread = 80) {
    using V = Visitor<string_writer>;
    constexpr bool resumable = requires(Parser<V>& p) { p.resume(0); };
    const std::string whole = render<Parser, Visitor>(text, 0, 0, true);
    outcome o;
    for (std::size_t b : boundaries(text, spread, split_point)) {
        ++o.tried;
        const bool hint = is_point(text, b, split_point);
        o.hints += hint ? 1 : 0;
        std::string head, tail;
        char hbuf[4096], tbuf[4096];
        string_writer hw(string_sink{&head}, hbuf), tw(string_sink{&tail}, tbuf);
        V hv{hw}, tv{tw};
        Parser<V> hp(hv), tp(tv);
        hp.feed(text.substr(0, b));
        hw.flush();
        if (!hp.at_rest()) continue;
        const auto lines_before = static_cast<std::uint64_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(b), '\n'));
        tp.start_at(lines_before, b);
        if constexpr (resumable) {
            const std::uint64_t units = Parser<V>::part_units(text.substr(0, b));
            if (!hp.resumes(units)) continue; // (a wrong guess: parse_in_parts has the first parser read on)
            tp.resume(units);
        }
        ++o.at_rest;
        tp.feed(text.substr(b));
        if constexpr (resumable) tp.inherit(hp);
        tp.finish();
        tw.flush();
        INFO("cut at byte " << b << " (after line " << lines_before << ")");
        REQUIRE(head + tail == whole);
        if (hint) ++o.hints_at_rest;
    }
    return o;
}

// An input's text, read once (the seed samples by name, the others from tests/data; a map's
// nodes stay where they are, so a text given before stays valid).
const std::string& file(const char* name, bool sample) {
    static std::map<std::string, std::string, std::less<>> cache;
    if (const auto it = cache.find(std::string_view(name)); it != cache.end()) return it->second;
    const std::string path =
        sample ? logscan::test::sample_path(name) : std::string(LOGSCAN_SOURCE_DIR) + "/tests/data/" + name;
    return cache.emplace(name, logscan::test::read_file(path)).first->second;
}

// `check(text)` on a format's seed sample and on its hand-written inputs in tests/data, each
// with its name captured.
template <class Check>
void each_input(const char* sample, std::initializer_list<const char*> data, Check check) {
    const auto one = [&](const char* name, bool is_sample) {
        CAPTURE(std::string(name));
        check(file(name, is_sample));
    };
    one(sample, true);
    for (const char* name : data) one(name, false);
}

// The places split_point names in `text` (prev, next pairs, counted here by hand).
template <class Point>
std::size_t count_points(std::string_view text, Point split_point) {
    const auto lines = logscan::test::lines_of(text);
    std::size_t n = 0;
    for (std::size_t i = 1; i < lines.size(); ++i) {
        std::string_view a = lines[i - 1], b = lines[i];
        if (!a.empty() && a.back() == '\r') a.remove_suffix(1);
        if (!b.empty() && b.back() == '\r') b.remove_suffix(1);
        if (split_point(a, b)) ++n;
    }
    return n;
}

} // namespace

namespace cm = logscan::chainer_memtrace;
namespace ml = logscan::megengine_log;
namespace pl = logscan::paddle_log;
namespace tp = logscan::tvm_profile;

TEST_CASE("find_split: the first qualifying line start in reach, else the first line start") {
    const std::string_view t = "aa\nbb\ncc\ndd\n";
    auto never = [](std::string_view, std::string_view) { return false; };
    auto at_cc = [](std::string_view, std::string_view l) { return l == "cc"; };
    auto after_bb = [](std::string_view prev, std::string_view) { return prev == "bb"; };
    CHECK(logscan::find_split(t, 0, 100, never) == 0);
    CHECK(logscan::find_split(t, 1, 100, never) == 3);  // mid-line: the next line start
    CHECK(logscan::find_split(t, 3, 100, never) == 3);  // a line start itself
    CHECK(logscan::find_split(t, 1, 100, at_cc) == 6);
    CHECK(logscan::find_split(t, 1, 2, at_cc) == 3);    // cc is out of reach
    CHECK(logscan::find_split(t, 4, 100, after_bb) == 6);
    CHECK(logscan::find_split(t, 6, 100, after_bb) == 6); // prev is the line before from
    CHECK(logscan::find_split(t, 10, 100, never) == t.size()); // no line starts after 10
    CHECK(logscan::find_split("aa\r\nbb\r\n", 1, 100, [](std::string_view p, std::string_view l) { return p == "aa" && l == "bb"; }) == 4);
    CHECK(logscan::find_split("no newline", 3, 100, never) == 10);
}

TEST_CASE("megengine-log: cut where the parser is at rest, the parts yield the whole's records") {
    each_input("000_cf8afa6c099f806b.txt", {"megengine_log_hand.txt"}, [](const std::string& t) {
        const outcome o = check_parts<ml::parser, ml::ndjson_visitor>(t, ml::split_point);
        CHECK(o.at_rest > 0);
        // every place split_point names is one where the parser is at rest
        CHECK(count_points(t, ml::split_point) > 0);
        CHECK(o.hints > 0);
        CHECK(o.hints_at_rest == o.hints);
    });
    // inside a memory table the parser is not at rest: the next line could be a row
    bool rest = true;
    render<ml::parser, ml::ndjson_visitor>("[06 15:13:36 272@x.py:megbrain] static memory allocation:\n", 0, 0, false, &rest);
    CHECK_FALSE(rest);
    render<ml::parser, ml::ndjson_visitor>("[06 15:13:36 272@x.py:megbrain] hello\n", 0, 0, false, &rest);
    CHECK(rest);
    render<ml::parser, ml::ndjson_visitor>("[06 15:13:36 272@x.py:megbrain] hel", 0, 0, false, &rest);
    CHECK_FALSE(rest); // mid-line
}

TEST_CASE("paddle-log: cut where the parser is at rest, the parts yield the whole's records") {
    each_input("003_1c776201c8b5b83e.txt", {"paddle_log_hand.txt", "paddle_log_crlf.txt"}, [](const std::string& t) {
        const outcome o = check_parts<pl::parser, pl::ndjson_visitor>(t, pl::split_point);
        CHECK(o.at_rest > 0);
        CHECK(o.at_rest < o.tried); // tables: places that are not at rest
        CHECK(o.hints > 0);
        // (a log line ends every table and every title held for one: each split point is at rest)
        CHECK(o.hints_at_rest == o.hints);
    });
}

TEST_CASE("paddle-log: a title remembered for a pipe table is not a place of rest; a log line ends it") {
    // (review finding: a title held for the next pipe table must keep at_rest false, or a
    // fresh parser after the cut gives the table no title)
    const std::string t = "[09/20 12:00:35] ppdet INFO: start\n"
                          "====Perf Summary====\n"
                          "Reader Ratio: 0.331%\n"
                          "\n"
                          "| a | b |\n"
                          "|---|---|\n"
                          "| 1 | 2 |\n";
    const std::string whole = render<pl::parser, pl::ndjson_visitor>(t, 0, 0, true);
    CHECK(whole.find(R"("type":"table_row","line":7,"table":"Perf Summary")") != std::string::npos);
    bool rest = true;
    render<pl::parser, pl::ndjson_visitor>(std::string_view(t).substr(0, t.find("| a")), 0, 0, false, &rest);
    CHECK_FALSE(rest);
    render<pl::parser, pl::ndjson_visitor>(std::string_view(t).substr(0, t.find("====")), 0, 0, false, &rest);
    CHECK(rest);
    // a log line ends the title's region (formats.md section 4: a log line ends a table): the
    // pipe lines after it are text, and the parser is at rest after it; the parts agree
    const std::string u = "[09/20 12:00:35] ppdet INFO: start\n====Perf Summary====\n[09/20 12:00:36] ppdet INFO: x\n| a | b |\n|---|---|\n| 1 | 2 |\n";
    const std::string u_whole = render<pl::parser, pl::ndjson_visitor>(u, 0, 0, true);
    CHECK(u_whole.find(R"("type":"text","line":6,"text":"| 1 | 2 |")") != std::string::npos);
    CHECK(u_whole.find("table_row") == std::string::npos);
    const std::size_t c2 = u.find("| a");
    const std::string head = render<pl::parser, pl::ndjson_visitor>(std::string_view(u).substr(0, c2), 0, 0, false, &rest);
    CHECK(rest);
    CHECK(head + render<pl::parser, pl::ndjson_visitor>(std::string_view(u).substr(c2), 3, c2, true) == u_whole);
    const outcome o = check_parts<pl::parser, pl::ndjson_visitor>(t, pl::split_point);
    CHECK(o.at_rest > 0);
}

TEST_CASE("tvm-profile: cut where the parser is at rest, the parts yield the whole's records") {
    each_input("004_d73c77cb3fb2895c.txt", {"tvm_profile_hand.txt", "tvm_profile_crlf.txt"}, [](const std::string& t) {
        const outcome o = check_parts<tp::parser, tp::ndjson_visitor>(t, tp::split_point);
        CHECK(o.at_rest > 0);
        CHECK(o.at_rest < o.tried);
        // every `Evaluate vm inference cost` line after the first is a place at rest
        std::size_t evaluate = 0;
        for (std::string_view l : logscan::test::lines_of(t))
            if (l.starts_with("Evaluate vm inference cost of ")) ++evaluate;
        CHECK(count_points(t, tp::split_point) == evaluate - (t.starts_with("Evaluate") ? 1 : 0));
        CHECK(o.hints == evaluate - (t.starts_with("Evaluate") ? 1 : 0));
        CHECK(o.hints_at_rest == o.hints);
    });
}

TEST_CASE("chainer-memtrace: cut before a function record, a resumed parser yields the whole's records") {
    each_input("002_925085f7148f0ebf.txt", {"chainer_memtrace_hand.txt", "chainer_memtrace_crlf.txt"}, [](const std::string& t) {
        const outcome o = check_parts<cm::parser, cm::ndjson_visitor>(t, cm::split_point, 400);
        // every direction line after the header's (a record's start) is a split point, counted by hand
        std::size_t directions = 0;
        for (std::string_view l : logscan::test::lines_of(t)) {
            if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
            while (!l.empty() && (l.back() == ' ' || l.back() == '\t')) l.remove_suffix(1);
            if (l == "forward" || l == "backward") ++directions;
        }
        CHECK(directions > 0);
        CHECK(count_points(t, cm::split_point) == directions);
        CHECK(o.hints > 0);
        CHECK(o.at_rest > 0);
        CHECK(o.at_rest < o.tried); // (the header, the buffer list, inside a record: no rest)
    });
}

TEST_CASE("chainer-memtrace: a part's guess of the records before it, and what a resumed parser takes over") {
    // direction lines counted as whole lines, with trailing blanks and a CR before the LF
    CHECK(cm::parser<cm::ndjson_visitor<string_writer>>::part_units("forward\nbackward  \r\n  forward\nforwards\nx forward\nbackward") == 3);
    CHECK(cm::parser<cm::ndjson_visitor<string_writer>>::part_units("") == 0);
    CHECK(cm::parser<cm::ndjson_visitor<string_writer>>::part_units("2 4\n0 8 _\nfor\nward\n") == 0);
    // a cut in the buffer list: the parser there is not at rest
    const std::string t = "2 2\n0 8 _\n1 8 w\nforward\n1 1\n0 _\n1\nReLU\n{}\nbackward\n1 1\n1 _\n0\nReLU\n{\"rank\": 3}\n";
    bool rest = true;
    render<cm::parser, cm::ndjson_visitor>(std::string_view(t).substr(0, t.find("1 8 w")), 0, 0, false, &rest);
    CHECK_FALSE(rest);
    render<cm::parser, cm::ndjson_visitor>(std::string_view(t).substr(0, t.find("backward")), 0, 0, false, &rest);
    CHECK(rest);
    // the second record after a cut: index 1 only when resumed after the one before
    const std::size_t cut = t.find("backward");
    std::string out;
    char buf[4096];
    string_writer w(string_sink{&out}, buf);
    cm::ndjson_visitor<string_writer> v{w};
    cm::parser<cm::ndjson_visitor<string_writer>> p(v);
    p.start_at(9, cut);
    p.resume(1);
    p.feed(std::string_view(t).substr(cut));
    p.finish(); // (not inherited: no header seen, no count to check)
    w.flush();
    CHECK(out == R"({"type":"function","line":10,"index":1,"direction":"backward","func_type":"ReLU","inputs":[{"id":1,"role":null}],"outputs":[0],"params":{"rank": 3}})"
                 "\n");
    // the header's counts come with inherit: a count that does not match is reported at the end
    const std::string u = "1 3\n0 8 _\nforward\n0 0\nReLU\n{}\nforward\n0 0\nReLU\n{}\n"; // two records, not three
    const std::size_t c2 = u.rfind("forward");
    const std::string whole = render<cm::parser, cm::ndjson_visitor>(u, 0, 0, true);
    CHECK(whole.find("function count does not match the header") != std::string::npos);
    const outcome o = check_parts<cm::parser, cm::ndjson_visitor>(u, cm::split_point);
    CHECK(o.at_rest >= 2); // (after the buffer list; before the second record: c2)
    CHECK(c2 != std::string::npos);
}
