// SPDX-License-Identifier: MIT
#include <logscan/rules.hpp>

#include <doctest/doctest.h>

#include <array>
#include <string>
#include <vector>

#include "support/alloc_counter.hpp"
#include "support/chunking.hpp"

namespace {

// A MegEngine-log reader made of rules (the shape a format module takes): header lines in
// every mode switch the mode by their message; var-shape lines apply in mode 1, memory-table
// lines in mode 2.
struct megengine_counts {
    std::size_t headers = 0, shapes = 0, shape_dims = 0, mem_headers = 0, mem_rows = 0, text = 0;
    unsigned long long alloc_bytes = 0;
    std::vector<std::string> log; // a few recorded events (when `record`)
    bool record = true;
    bool operator==(const megengine_counts&) const = default;
};

enum : std::uint32_t { normal = 0, var_shapes = 1, mem_table = 2 };

auto megengine_rules(megengine_counts& c) {
    return logscan::rule_set(
        logscan::rule<R"(\[(\d\d) (\d\d:\d\d:\d\d) (\d+)@([^:]*):([^\]]*)\] (.*))",
                      "[06 15:13:35 330@env.py:meghair.train.env] WRN --fast-run not enabled; execution may be slow",
                      "[06 15:13:36 272@fprop.py:megskull.graph.fprop] FpropEnv(val): shapes of var nodes:">(
            [&c](const auto& m, logscan::rule_context& ctx) {
                ++c.headers;
                const std::string_view msg = m.template get<6>();
                ctx.mode = msg.ends_with("shapes of var nodes:") ? var_shapes
                           : msg.ends_with("static memory allocation:") ? mem_table
                                                                        : normal;
                if (c.record && c.headers == 1) c.log.push_back(std::string(m.template get<4>()) + "|" + std::string(m.template get<5>()));
            })
            .in_all_modes(),
        logscan::rule<R"( ([^@: ]+)(?:@(\d+))?: \(([\d, ]*)\))", " data@0: (4, 3, 224, 224)", " loss: ()">(
            [&c](const auto& m) {
                ++c.shapes;
                for (auto d : logscan::search_all<R"(\d+)">(m.template get<3>())) {
                    (void)d;
                    ++c.shape_dims;
                }
            })
            .in_modes(1u << var_shapes),
        logscan::rule<R"( comp_node +alloc +lower_bound +upper_bound)">([&c](const auto&) { ++c.mem_headers; })
            .in_modes(1u << mem_table),
        logscan::rule<R"( *(\S+) +([\d.]+)MiB\( *(\d+)bytes\) +([\d.]+)MiB\( *([\d.]+)%\) +([\d.]+)MiB\( *([\d.]+)%\))",
                      "   gpu0:0    196.00MiB( 205520896bytes)    196.00MiB(100.00%)    832.06MiB(424.52%)">(
            [&c](const auto& m) {
                ++c.mem_rows;
                c.alloc_bytes += m.template to<3, unsigned long long>().value;
            })
            .in_modes(1u << mem_table));
}

megengine_counts run_megengine(logscan::test::chunk_list chunks) {
    megengine_counts c;
    logscan::rule_reader reader(megengine_rules(c), [&c](const logscan::line&) { ++c.text; });
    struct feeder {
        decltype(reader)& r;
        void on_line(const logscan::line& l) { r.feed(l); }
    } f{reader};
    logscan::line_buffer carry(4096);
    logscan::line_splitter<feeder> s(f, carry);
    for (auto ch : chunks) s.feed(ch);
    s.finish();
    return c;
}

} // namespace

TEST_CASE("rules::MegEngine log of sample 000 through rules and modes") {
    const std::string text = logscan::test::read_file(logscan::test::sample_path("000_cf8afa6c099f806b.txt"));
    const auto c = logscan::test::check_chunk_invariance(text, run_megengine, 3);
    // counted with grep in the sample: 276 lines start with '[', 3905 are " VAR[@R]: (...)",
    // 42 memory tables of one header and 9 rows; nothing is left over
    CHECK(c.headers == 276);
    CHECK(c.shapes == 3905);
    CHECK(c.mem_headers == 42);
    CHECK(c.mem_rows == 378);
    CHECK(c.text == 0);
    CHECK(c.log == std::vector<std::string>{"env.py|meghair.train.env"});
    // the bytes column of every memory-table row, summed independently:
    // grep -oE 'MiB\( *[0-9]+bytes\)' sample | grep -oE '[0-9]+' | python3 -c 'print(sum(map(int, open(0))))'
    CHECK(c.alloc_bytes == 80609128448ull);
}

TEST_CASE("rules::one matcher per line, then sub-rules on the message: exact counts, allocation-free") {
    const std::string text = logscan::test::read_file(logscan::test::sample_path("000_cf8afa6c099f806b.txt"));
    megengine_counts c;
    c.record = false; // the test's own recording allocates
    std::size_t fprop = 0, var_shape = 0, graph_opt = 0, opr_seq = 0, stats = 0;
    // the header rule with sub-rules on its message (group 6): one header match per header
    // line, then only the sub-rules whose literal prefix the message has
    auto header = logscan::rule<R"(\[(\d\d) (\d\d:\d\d:\d\d) (\d+)@([^:]*):([^\]]*)\] (.*))">(
                      [&c](const auto& m, logscan::rule_context& ctx) {
                          ++c.headers;
                          auto [all, day, time, src_line, file, logger, msg] = m;
                          ctx.mode = msg.ends_with("shapes of var nodes:") ? var_shapes
                                     : msg.ends_with("static memory allocation:") ? mem_table
                                                                                  : normal;
                      })
                      .in_all_modes()
                      .then<6>(logscan::rule<R"(FpropEnv\((\w+)\): start fprop VarNode\(owner_opr=(.*)\))">(
                                   [&](const auto&) { ++fprop; }),
                               logscan::rule<R"(FpropEnv\((\w+)\): var node shape:  (\S+): \(([\d, ]*)\))">(
                                   [&](const auto&) { ++var_shape; }),
                               logscan::rule<R"(graph optimization: applied (\d+) passes, total (\d+) var\(s\) replaced; time=([\d.]+) ?ms)">(
                                   [&](const auto&) { ++graph_opt; }),
                               logscan::rule<R"(opr seq of length (\d+): (.*))">([&](const auto&) { ++opr_seq; }),
                               logscan::rule<R"(static mem alloc: nr_opr=(\d+) nr_var=(\d+) (.*))">([&](const auto&) { ++stats; }));
    auto base = megengine_rules(c);
    auto rules = logscan::rule_set(header, std::get<1>(base.rules), std::get<2>(base.rules), std::get<3>(base.rules));
    logscan::rule_reader reader(rules, [&c](const logscan::line&) { ++c.text; });
    LOGSCAN_CHECK_NO_ALLOC(logscan::for_each_line(std::string_view(text), reader));
    CHECK(c.headers == 276);
    CHECK(c.shapes == 3905);
    CHECK(c.mem_rows == 378);
    CHECK(c.text == 0);
    // the records of the messages, and the matcher runs, counted from the text with plain
    // string operations: every line runs exactly one matcher (the header's, or its
    // continuation rule's); a message starting "FpropEnv(" runs the first sub-rule, and the
    // second too when it is not a "start fprop"; the other three prefixes run one each
    std::size_t lines = 0, expect_fprop = 0, expect_fprop_other = 0, expect_graph = 0, expect_seq = 0, expect_stats = 0;
    for (std::size_t p = 0; p < text.size();) {
        std::size_t nl = text.find('\n', p);
        if (nl == std::string::npos) nl = text.size();
        const std::string_view l(text.data() + p, nl - p);
        ++lines;
        if (l.starts_with("[")) {
            const std::string_view msg = l.substr(l.find("] ") + 2);
            if (msg.starts_with("FpropEnv(")) (msg.find("): start fprop ") != std::string_view::npos ? expect_fprop : expect_fprop_other)++;
            expect_graph += msg.starts_with("graph optimization: applied ");
            expect_seq += msg.starts_with("opr seq of length ");
            expect_stats += msg.starts_with("static mem alloc: nr_opr=");
        }
        p = nl + 1;
    }
    CHECK(lines == 4601);
    CHECK(fprop == expect_fprop);
    CHECK(fprop == 62);
    CHECK(var_shape == 21); // 21 "var node shape:" messages of the 62 other FpropEnv ones
    CHECK(graph_opt == expect_graph);
    CHECK(opr_seq == expect_seq);
    CHECK(stats == expect_stats);
    CHECK(reader.matcher_calls() == lines + expect_fprop + 2 * expect_fprop_other + expect_graph + expect_seq + expect_stats);
    // and without sub-rules, exactly one matcher per line
    megengine_counts c2;
    c2.record = false;
    logscan::rule_reader flat(megengine_rules(c2), [&c2](const logscan::line&) { ++c2.text; });
    LOGSCAN_CHECK_NO_ALLOC(logscan::for_each_line(std::string_view(text), flat));
    CHECK(flat.matcher_calls() == 4601);
}

TEST_CASE("rules::first match wins, fallback gets the rest, handlers can stop") {
    std::vector<std::string> got;
    auto rules = logscan::rule_set(
        logscan::rule<R"(a(\d+))">([&](const auto& m) { got.push_back("A" + std::string(m.template get<1>())); }),
        logscan::rule<R"(a.*)">([&](const auto&) { got.push_back("ANY"); }),
        logscan::rule<R"(stop)">([&](const auto&) { return logscan::flow::stop; }));
    logscan::rule_reader r(rules, [&](const logscan::line& l) { got.push_back("T" + std::to_string(l.number)); });
    std::uint64_t n = 0;
    for (std::string_view l : {"a12", "abc", "b", "", "a"}) CHECK(r.feed(logscan::line{l, ++n, 0}) == logscan::flow::proceed);
    CHECK(r.feed(logscan::line{"stop", ++n, 0}) == logscan::flow::stop);
    CHECK(got == std::vector<std::string>{"A12", "ANY", "T3", "T4", "ANY"});
    CHECK(r.unmatched() == 2);
}

TEST_CASE("rules::an assisted rule: its reader's lines cost no matcher, the rest go to the pattern, same groups") {
    std::vector<std::string> got;
    // the reader takes `x=DIGITS` only (group 2 absent: `(?:/(\w+))?` left out), declines the rest
    const auto fast = [](std::string_view t, std::array<std::string_view, 4>& g) {
        if (t.size() < 3 || t[0] != 'x' || t[1] != '=') return false;
        for (char c : t.substr(2))
            if (c < '0' || c > '9') return false;
        g[0] = t;
        g[1] = t.substr(0, 1);
        g[3] = t.substr(2);
        return true;
    };
    auto rules = logscan::rule_set(
        logscan::rule<R"((\w+)(?:/(\w+))?=(\d+))">([&](const auto& m, logscan::rule_context& ctx) {
            got.push_back(std::string(m.template get<1>()) + "|" +
                          (m.template get<2>().data() == nullptr ? std::string("null") : std::string(m.template get<2>())) +
                          "|" + std::string(m.template get<3>()));
            ctx.mode = 0;
        })
            .assisted(fast)
            .then<3>(logscan::rule<R"(7+)">([&](const auto&) { got.push_back("sevens"); })));
    logscan::rule_reader r(rules, [&](const logscan::line& l) { got.push_back("T" + std::string(l.text)); });
    std::uint64_t n = 0;
    for (std::string_view l : {"x=12", "y/z=3", "x=", "x=77", "x=4a"}) r.feed(logscan::line{l, ++n, 0});
    CHECK(got == std::vector<std::string>{"x|null|12", "y|z|3", "Tx=", "x|null|77", "sevens", "Tx=4a"});
    // matchers run: the pattern on `y/z=3`, `x=` and `x=4a` (the reader's lines run none), the
    // sub-rule on `77` (its prefilter rejects `12` and `3` by their first byte)
    CHECK(r.matcher_calls() == 3 + 1);
    CHECK(r.unmatched() == 2);
}

TEST_CASE("rules::a rule read by hand: its reader decides both ways, the pattern never runs, the next rule gets the rest") {
    std::vector<std::string> got;
    // `size=DIGITS(.DIGITS)? ?MiB` implemented whole: each part ends at a byte it cannot hold
    const auto read = [](std::string_view t, std::array<std::string_view, 2>& g) {
        logscan::text_cursor c(t);
        if (!(c.literal("size=") && c.decimal(g[1]) && (c.literal(" MiB") || c.literal("MiB")) && c.at_end())) return false;
        g[0] = t;
        return true;
    };
    auto rules = logscan::rule_set(
        logscan::rule<R"(size=(\d+(?:\.\d+)?) ?MiB)", "size=1.5MiB", "size=2 MiB">(
            [&](const auto& m) { got.push_back("S" + std::string(m.template get<1>())); })
            .read_by(read),
        logscan::rule<R"(size=(.*))">([&](const auto& m) { got.push_back("other " + std::string(m.template get<1>())); }));
    logscan::rule_reader r(rules, [&](const logscan::line& l) { got.push_back("T" + std::string(l.text)); });
    std::uint64_t n = 0;
    for (std::string_view l : {"size=12MiB", "size=1.25 MiB", "size=1.MiB", "size=3  MiB", "size=MiB", "sizes"})
        r.feed(logscan::line{l, ++n, 0});
    CHECK(got == std::vector<std::string>{"S12", "S1.25", "other 1.MiB", "other 3  MiB", "other MiB", "Tsizes"});
    // matchers run: only the second rule's, on the three lines the reader declined (`sizes`:
    // both prefilters need `size=`)
    CHECK(r.matcher_calls() == 3);
    CHECK(r.unmatched() == 1);
}

// A fused rule's reader: `NAME=DIGITS` up to the line's end (its `\n` before `e`, or `e`).
const char* read_pair(const char* p, const char* e, std::array<std::string_view, 3>& g) {
    const char* const b = p;
    while (p != e && ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')) ++p;
    if (p == b || p == e || *p != '=') return nullptr;
    const char* const d = ++p;
    while (p != e && *p >= '0' && *p <= '9') ++p;
    if (p == d || (p != e && *p != '\n')) return nullptr;
    g[0] = std::string_view(b, static_cast<std::size_t>(p - b));
    g[1] = std::string_view(b, static_cast<std::size_t>(d - 1 - b));
    g[2] = std::string_view(d, static_cast<std::size_t>(p - d));
    return p;
}

// A reader with a fused rule behind a line_splitter: lines it takes and lines framed.
template <class Reader>
struct fused_driver {
    Reader& r;
    std::uint64_t taken = 0; // lines taken whole
    std::uint64_t runs = 0;  // calls that took some
    logscan::flow on_line(const logscan::line& l) { return r.feed(l); }
    logscan::line_taken take_line(const char* p, const char* e, std::uint64_t n, std::uint64_t off) {
        const logscan::line_taken t = r.take_line(p, e, n, off);
        if (t.next != nullptr) {
            taken += t.lines;
            ++runs;
        }
        return t;
    }
};

TEST_CASE("rules::a fused rule reads its lines straight from the chunk, with the records of framed lines") {
    // `#kv` opens block 1 (pairs), `#` ends it; in it `zDIGITS` (not fused, before the fused
    // rule: its prefilter takes every line starting with z from the fused path), `k=v` (fused;
    // `=0` ends the block, `=99` stops the parse), anything else text. `a=1\r` has a CR (so it
    // is framed), `a=` is not a pair (text), `q=5` and `d=3` are outside the block (text).
    const std::string input = "#kv\nab=12\nz7\nz1=2\na=1\r\nlong_name_3=4567\na=\n\nx\n#\nq=5\n#kv\nc=0\nd=3\n#kv\ne=99\nf=1\n";
    struct result {
        std::vector<std::string> events;
        std::uint64_t taken = 0;
        bool stopped = false;
        bool operator==(const result&) const = default;
    };
    const auto run = [](logscan::test::chunk_list chunks, bool fused) {
        result out;
        auto rules = logscan::rule_set(
            logscan::rule<R"(#(\w*))">([&](const auto& m, logscan::rule_context& ctx) {
                out.events.push_back("H" + std::string(m.template get<1>()) + "@" + std::to_string(ctx.current.number));
                ctx.mode = m.template get<1>() == "kv" ? 1 : 0;
            }).in_all_modes(),
            logscan::rule<R"(z(\d+))">([&](const auto& m) { out.events.push_back("Z" + std::string(m.template get<1>())); })
                .in_modes(1u << 1),
            logscan::rule<R"((\w+)=(\d+))">([&](const auto& m, logscan::rule_context& ctx) {
                const std::string v(m.template get<2>());
                out.events.push_back(std::string(m.template get<1>()) + "=" + v + "@" + std::to_string(ctx.current.number) + ":" +
                                     std::to_string(ctx.current.offset) + ":" + std::string(ctx.current.text));
                if (v == "0") ctx.mode = 0;
                return v == "99" ? logscan::flow::stop : logscan::flow::proceed;
            })
                .fused(read_pair)
                .in_modes(1u << 1));
        logscan::rule_reader reader(std::move(rules), [&](const logscan::line& l) {
            out.events.push_back("T" + std::string(l.text) + "@" + std::to_string(l.number));
        });
        if (fused) {
            fused_driver<decltype(reader)> d{reader};
            std::string carry(64, '\0');
            logscan::line_splitter<fused_driver<decltype(reader)>> streamed(d, std::span<char>(carry));
            for (std::string_view c : chunks)
                if (streamed.feed(c) == logscan::flow::stop) out.stopped = true;
            if (streamed.finish() == logscan::flow::stop) out.stopped = true;
            out.taken = d.taken;
        } else {
            std::string carry(64, '\0');
            logscan::line_splitter<decltype(reader)> streamed(reader, std::span<char>(carry));
            for (std::string_view c : chunks)
                if (streamed.feed(c) == logscan::flow::stop) out.stopped = true;
            if (streamed.finish() == logscan::flow::stop) out.stopped = true;
        }
        return out;
    };
    const std::vector<std::string> expected{
        "Hkv@1", "ab=12@2:4:ab=12", "Z7", "z1=2@4:13:z1=2", "a=1@5:18:a=1", "long_name_3=4567@6:23:long_name_3=4567",
        "Ta=@7", "T@8", "Tx@9", "H@10", "Tq=5@11", "Hkv@12", "c=0@13:56:c=0", "Td=3@14", "Hkv@15", "e=99@16:68:e=99"};
    const result framed = logscan::test::check_chunk_invariance(input, [&](auto chunks) { return run(chunks, false); });
    CHECK(framed.events == expected);
    CHECK(framed.stopped);
    const result whole = run(logscan::test::chunked_input(input, {}).chunks(), true);
    CHECK(whole.events == expected);
    CHECK(whole.stopped);
    // taken straight from the chunk: ab=12, long_name_3=4567, c=0, e=99 (z1=2 starts with z,
    // a=1 has a CR, a= is no pair, q=5 and d=3 are outside the block)
    CHECK(whole.taken == 4);
    // under any chunking, the same records (lines split across chunks are framed)
    logscan::test::check_chunk_invariance(input, [&](auto chunks) {
        result r = run(chunks, true);
        r.taken = 0;
        return r;
    });
}

TEST_CASE("rules::a fused rule that stops the parse stops the splitter at that line") {
    std::vector<std::string> got;
    auto rules = logscan::rule_set(logscan::rule<R"((\w+)=(\d+))">([&](const auto& m) {
                                       got.push_back(std::string(m.template get<0>()));
                                       return m.template get<2>() == "99" ? logscan::flow::stop : logscan::flow::proceed;
                                   }).fused(read_pair));
    logscan::rule_reader reader(std::move(rules), [&](const logscan::line& l) { got.push_back("T" + std::string(l.text)); });
    fused_driver<decltype(reader)> d{reader};
    logscan::line_splitter<fused_driver<decltype(reader)>> s(d);
    CHECK(s.feed("a=1\nb=99\nc=2\n") == logscan::flow::stop);
    CHECK(s.finish() == logscan::flow::stop);
    CHECK(got == std::vector<std::string>{"a=1", "b=99"});
    CHECK(d.taken == 2);
    CHECK(d.runs == 1); // (a run of lines the fused rule takes, in one call, up to the stop)
    CHECK(s.lines() == 2);
}

TEST_CASE("rules::a run of lines a fused rule takes is read in one call, each line numbered as framed") {
    std::vector<std::string> got;
    auto rules = logscan::rule_set(logscan::rule<R"((\w+)=(\d+))">([&](const auto& m, logscan::rule_context& ctx) {
                                       got.push_back(std::string(m.template get<0>()) + "@" + std::to_string(ctx.current.number) +
                                                     ":" + std::to_string(ctx.current.offset));
                                   }).fused(read_pair));
    logscan::rule_reader reader(std::move(rules), [&](const logscan::line& l) {
        got.push_back("T" + std::string(l.text) + "@" + std::to_string(l.number) + ":" + std::to_string(l.offset));
    });
    fused_driver<decltype(reader)> d{reader};
    logscan::line_splitter<fused_driver<decltype(reader)>> s(d);
    CHECK(s.feed("a=1\nbb=22\nccc=333\nx\nd=4\ne=5\n") == logscan::flow::proceed);
    CHECK(s.finish() == logscan::flow::proceed);
    // offsets: a=1 at 0, bb=22 at 4, ccc=333 at 10, x at 18, d=4 at 20, e=5 at 24
    CHECK(got == std::vector<std::string>{"a=1@1:0", "bb=22@2:4", "ccc=333@3:10", "Tx@4:18", "d=4@5:20", "e=5@6:24"});
    CHECK(d.taken == 5);
    CHECK(d.runs == 2); // (three lines, then two: x is framed between them)
    CHECK(s.lines() == 6);
}

TEST_CASE("rules::with trim_lines, a line of blanks a fused rule may take is framed as feed frames it") {
    // `(\d*)` fused with a reader that takes any run of digits, none included: a line of only
    // spaces is, once trimmed, empty with no indent (feed trims the right end first)
    const auto read_digits = [](const char* p, const char* e, std::array<std::string_view, 2>& g) -> const char* {
        const char* const b = p;
        while (p != e && *p >= '0' && *p <= '9') ++p;
        if (p != e && *p != '\n') return nullptr;
        g[0] = g[1] = std::string_view(b, static_cast<std::size_t>(p - b));
        return p;
    };
    const auto run = [&](bool fused) {
        std::vector<std::string> got;
        auto rules = logscan::rule_set(logscan::rule<R"((\d*))">([&](const auto& m, logscan::rule_context& ctx) {
                                           got.push_back("[" + std::string(m.template get<1>()) + "]@" +
                                                         std::to_string(ctx.current.number) + ":" +
                                                         std::to_string(ctx.current.offset) + "+" + std::to_string(ctx.indent));
                                       }).fused(read_digits));
        logscan::rule_reader reader(std::move(rules), [&](const logscan::line& l) { got.push_back("T" + std::string(l.text)); },
                                    logscan::rule_options{.trim_lines = true});
        const std::string_view input = "1\n   \n  22\n\n";
        if (fused) {
            fused_driver<decltype(reader)> d{reader};
            logscan::line_splitter<fused_driver<decltype(reader)>> s(d);
            (void)s.feed(input);
            (void)s.finish();
        } else {
            logscan::line_splitter<decltype(reader)> s(reader);
            (void)s.feed(input);
            (void)s.finish();
        }
        return got;
    };
    // offsets: `1` at 0, the blanks at 2, `  22` at 6 (its digits at 8), the empty line at 11
    const std::vector<std::string> expected{"[1]@1:0+0", "[]@2:2+0", "[22]@3:8+2", "[]@4:11+0"};
    CHECK(run(false) == expected);
    CHECK(run(true) == expected);
}

TEST_CASE("rules::a reader offers a line to its fused rules only in the modes of the enabled ones") {
    // `k=v` fused in mode 1 only; `n=v` fused in every mode but left out (`when(false)`): in
    // mode 0 no fused rule applies, so take_line declines every line there, the pairs too
    // (they are then framed and fed); in mode 1 the enabled rule takes its lines.
    const auto make = [](bool second_on, std::vector<std::string>& got) {
        return logscan::rule_set(
            logscan::rule<R"((k\w*)=(\d+))">([&got](const auto& m) { got.push_back(std::string(m.template get<0>())); })
                .fused(read_pair)
                .in_modes(1u << 1),
            logscan::rule<R"((n\w*)=(\d+))">([&got](const auto& m) { got.push_back(std::string(m.template get<0>())); })
                .fused(read_pair)
                .in_all_modes()
                .when(second_on));
    };
    std::vector<std::string> got;
    CHECK(make(false, got).fused_modes() == 1u << 1);
    CHECK(make(true, got).fused_modes() == ~0u);
    logscan::rule_reader off(make(false, got), [&](const logscan::line& l) { got.push_back("T" + std::string(l.text)); });
    const std::string_view k = "k1=2\n", n = "n1=3\n";
    CHECK(off.take_line(k.data(), k.data() + k.size(), 1, 0).next == nullptr); // mode 0: no enabled fused rule
    CHECK(off.take_line(n.data(), n.data() + n.size(), 1, 0).next == nullptr);
    off.set_mode(1);
    CHECK(off.take_line(k.data(), k.data() + k.size(), 1, 0).next == k.data() + k.size());
    CHECK(off.take_line(n.data(), n.data() + n.size(), 2, 5).next == nullptr); // (left out)
    CHECK(got == std::vector<std::string>{"k1=2"});
    logscan::rule_reader on(make(true, got), [&](const logscan::line& l) { got.push_back("T" + std::string(l.text)); });
    CHECK(on.take_line(n.data(), n.data() + n.size(), 1, 0).next == n.data() + n.size()); // mode 0 too
    CHECK(got == std::vector<std::string>{"k1=2", "n1=3"});
}

// A fallback that yields nothing in the modes `idle` names (it counts the lines it is given).
struct idle_counting_fallback {
    std::uint32_t idle = 0;
    std::uint64_t* calls = nullptr;
    std::uint32_t idle_modes() const noexcept { return idle; }
    void operator()(const logscan::line&) const { ++*calls; }
};

TEST_CASE("rules::lines nobody wants are passed over unread in the fallback's idle modes") {
    // `#...` switches the mode (every mode), `k=v` counts (mode 1 only); the fallback does
    // nothing in mode 0. In mode 0 a line whose first byte neither rule can begin with is
    // nobody's: take_line passes over it, finding its end, and counts it as unmatched.
    std::uint64_t fallback_calls = 0;
    std::vector<std::string> got;
    auto make = [&] {
        return logscan::rule_set(
            logscan::rule<R"(#(\w*))">([&](const auto& m, logscan::rule_context& ctx) {
                got.push_back("H" + std::string(m.template get<1>()));
                ctx.mode = m.template get<1>() == "kv" ? 1 : 0;
            }).in_all_modes(),
            logscan::rule<R"((k\w*)=(\d+))">([&](const auto& m) { got.push_back(std::string(m.template get<0>())); })
                .in_modes(1u << 1));
    };
    logscan::rule_reader r(make(), idle_counting_fallback{1u << 0, &fallback_calls}, logscan::rule_options{.trim_lines = true});
    const auto take = [&](std::string_view t) { return r.take_line(t.data(), t.data() + t.size(), 1, 0).next; };
    const std::string_view skip = "  xyz = 1\nnext", hash = "#kv\n", blank = "   \n", tab = " \tx\n", cr = "\r\n",
                           open = "xyz", pair = "k1=2\n";
    CHECK(take(skip) == skip.data() + 10); // passed over: one past its \n
    CHECK(r.unmatched() == 1);
    CHECK(take(hash) == nullptr);  // `#` may begin the mode switch: fed as usual
    // blank, a tab first, a bare CR (each blank once trimmed, or beginning with a byte no
    // rule begins with): no rule of mode 0 may match an empty text, so passed over too
    CHECK(take(blank) == blank.data() + blank.size());
    CHECK(take(tab) == tab.data() + tab.size());
    CHECK(take(cr) == cr.data() + cr.size());
    CHECK(take(open) == nullptr);  // no \n before the end of the bytes given
    CHECK(take(pair) == pair.data() + pair.size()); // k: no rule of mode 0 begins with it
    r.set_mode(1);                 // not idle: nothing is passed over
    CHECK(take(skip) == nullptr);
    CHECK(take(pair) == nullptr);
    CHECK(r.unmatched() == 5);
    CHECK(fallback_calls == 0);
    CHECK(got.empty());

    // a run of such lines is passed over at once, up to the first line that is not one
    logscan::rule_reader runs(make(), idle_counting_fallback{1u << 0, &fallback_calls}, logscan::rule_options{.trim_lines = true});
    const auto run_of = [&](std::string_view t) { return runs.take_line(t.data(), t.data() + t.size(), 1, 0); };
    const std::string_view three = "ab\n  cd\nk=1\n#kv\nxy\n", to_blank = "ab\ncd\n  \nxy\n", to_tab = "ab\n\tcd\n",
                           to_end = "ab\ncd\nef";
    CHECK(run_of(three).next == three.data() + 12);
    CHECK(run_of(three).lines == 3);
    CHECK(run_of(to_blank).next == to_blank.data() + to_blank.size()); // (the blank line in the run)
    CHECK(run_of(to_blank).lines == 4);
    CHECK(run_of(to_tab).lines == 2);
    CHECK(run_of(to_end).next == to_end.data() + 6); // (the last line's \n is not in the bytes given)
    CHECK(run_of(to_end).lines == 2);
    CHECK(runs.unmatched() == 3 + 3 + 4 + 4 + 2 + 2 + 2);
    CHECK(fallback_calls == 0);

    // a rule of the mode that may match an empty text (`(z*)`): a blank line, or one that
    // may be blank once trimmed, is the rule's to try, so left to feed; and `z*` may begin
    // with any byte (its prefilter knows no first byte), so every line is
    int zs = 0;
    logscan::rule_reader empties(logscan::rule_set(logscan::rule<R"(#(\w*))">([](const auto&) {}),
                                                   logscan::rule<R"((z*))">([&](const auto&) { ++zs; })),
                                 idle_counting_fallback{1u << 0, &fallback_calls}, logscan::rule_options{.trim_lines = true});
    static_assert(decltype(logscan::rule_set(logscan::rule<R"(#(\w*))">([](const auto&) {}),
                                             logscan::rule<R"((z*))">([](const auto&) {})))::empty_rules == 2u);
    for (const std::string_view t : {blank, tab, cr, std::string_view("\n"), skip})
        CHECK(empties.take_line(t.data(), t.data() + t.size(), 1, 0).next == nullptr);
    CHECK(empties.unmatched() == 0);
    for (const std::string_view t : {std::string_view(""), std::string_view("   "), std::string_view("zz")}) // (fed: matched)
        CHECK(empties.feed(logscan::line{t, 1, 0}) == logscan::flow::proceed);
    CHECK(zs == 3);
    CHECK(empties.unmatched() == 0);

    // without trim_lines the first byte is the line's own (a rule may begin with a space);
    // with strip_ansi, only lines known to hold no ESC are passed over
    auto spaced = [&] {
        return logscan::rule_set(logscan::rule<R"( (\w+))">([&](const auto& m) { got.push_back(std::string(m.template get<1>())); }));
    };
    logscan::rule_reader untrimmed(spaced(), idle_counting_fallback{1u << 0, &fallback_calls});
    const std::string_view indented = " ab\n", plain_line = "xy\n";
    CHECK(untrimmed.take_line(indented.data(), indented.data() + indented.size(), 1, 0).next == nullptr);
    CHECK(untrimmed.take_line(plain_line.data(), plain_line.data() + plain_line.size(), 1, 0).next ==
          plain_line.data() + plain_line.size());
    logscan::rule_reader coloured(spaced(), idle_counting_fallback{1u << 0, &fallback_calls},
                                  logscan::rule_options{.strip_ansi = true, .strip_capacity = 64});
    CHECK(coloured.take_line(plain_line.data(), plain_line.data() + plain_line.size(), 1, 0).next == nullptr);
    coloured.set_escape_free(true);
    CHECK(coloured.take_line(plain_line.data(), plain_line.data() + plain_line.size(), 1, 0).next ==
          plain_line.data() + plain_line.size());
    CHECK(got.empty());

    // Behind a line splitter, the records and the lines given to the fallback outside its idle
    // modes are those of a reader without idle modes, under any chunking.
    const std::string input = "intro\n#kv\nk1=2\nzz\n#\n   q=5\nlast\n#kv\nk3=4\n";
    const auto run = [&](logscan::test::chunk_list chunks, std::uint32_t idle) {
        got.clear();
        fallback_calls = 0;
        logscan::rule_reader reader(make(), idle_counting_fallback{idle, &fallback_calls},
                                    logscan::rule_options{.trim_lines = true});
        fused_driver<decltype(reader)> d{reader};
        std::string carry(64, '\0');
        logscan::line_splitter<fused_driver<decltype(reader)>> streamed(d, std::span<char>(carry));
        for (std::string_view c : chunks) streamed.feed(c);
        streamed.finish();
        std::vector<std::string> out = got;
        out.push_back("fallback " + std::to_string(fallback_calls) + ", unmatched " + std::to_string(reader.unmatched()) +
                      ", lines " + std::to_string(streamed.lines()));
        return out;
    };
    const std::vector<std::string> plain = run(logscan::test::chunked_input(input, {}).chunks(), 0);
    CHECK(plain == std::vector<std::string>{"Hkv", "k1=2", "H", "Hkv", "k3=4", "fallback 4, unmatched 4, lines 9"});
    const std::vector<std::string> idle = run(logscan::test::chunked_input(input, {}).chunks(), 1u << 0);
    // intro, q=5 and last passed over in mode 0 (zz, in mode 1, still goes to the fallback)
    CHECK(idle == std::vector<std::string>{"Hkv", "k1=2", "H", "Hkv", "k3=4", "fallback 1, unmatched 4, lines 9"});
    logscan::test::check_chunk_invariance(input, [&](auto chunks) {
        std::vector<std::string> v = run(chunks, 1u << 0);
        v.pop_back(); // (a line split across chunks is framed and given to the fallback)
        return v;
    });
}

TEST_CASE("rules::ANSI colour sequences are stripped without copying plain lines") {
    std::vector<std::string> levels;
    const char* data_seen = nullptr;
    auto rules = logscan::rule_set(logscan::rule<R"(\[(\w+)\] (.*))">([&](const auto& m, logscan::rule_context& ctx) {
        levels.emplace_back(m.template get<1>());
        data_seen = ctx.current.text.data();
    }));
    logscan::rule_reader r(rules, [](const logscan::line&) {}, logscan::rule_options{.strip_ansi = true});
    const std::string coloured = "\x1b[1;31m[ERR]\x1b[0m disk full";
    r.feed(logscan::line{coloured, 1, 0});
    CHECK(levels == std::vector<std::string>{"ERR"});
    CHECK(data_seen != coloured.data()); // copied once, stripped
    const std::string plain = "[INFO] fine";
    r.feed(logscan::line{plain, 2, 0});
    CHECK(levels.back() == "INFO");
    CHECK(data_seen == plain.data()); // used in place
    // without the option the sequences stay and the rule does not match
    std::size_t fallbacks = 0;
    logscan::rule_reader raw(rules, [&](const logscan::line&) { ++fallbacks; });
    raw.feed(logscan::line{coloured, 1, 0});
    CHECK(fallbacks == 1);
}

TEST_CASE("rules::a coloured line longer than 4 KiB is stripped too, and fallback text holds no ESC") {
    // MegEngine colours the header and level when it writes to a terminal; an "opr seq" header
    // line runs to kilobytes (one k=v pair per var kind)
    std::string seq = "\x1b[32m[06 15:13:36 1083@graph.cpp:megbrain]\x1b[0m \x1b[38:5:208mopr seq\x1b[0m of length 804:";
    for (int i = 0; i < 400; ++i) seq += " var_kind_" + std::to_string(i) + "=" + std::to_string(i * 7);
    REQUIRE(seq.size() > 5000);
    const std::string other = "\x1b[1;33mWRN\x1b[0m something \x1b[38:2:255:128:0mcoloured\x1b[0m " + std::string(6000, 'x');
    const std::string text = seq + "\r\n" + other + "\n";
    struct out {
        std::vector<std::string> got;
        bool operator==(const out&) const = default;
    };
    logscan::test::check_chunk_invariance(text, [&](logscan::test::chunk_list ch) {
        out o;
        auto rules = logscan::rule_set(logscan::rule<R"(\[(\d\d) (\d\d:\d\d:\d\d) (\d+)@([^:]*):([^\]]*)\] (.*))">(
            [&](const auto& m) {
                auto [all, day, time, src, file, logger, msg] = m;
                o.got.push_back("R:" + std::string(logger) + ":" + std::string(msg.substr(0, 24)) + ":" + std::to_string(msg.size()));
            }));
        logscan::rule_reader r(rules, [&](const logscan::line& l) { o.got.push_back("T:" + std::string(l.text)); },
                               logscan::rule_options{.strip_ansi = true});
        logscan::line_buffer carry; // default size: every streamed line can be stripped
        logscan::line_splitter<decltype(r)> s(r, carry);
        for (auto c : ch) s.feed(c);
        s.finish();
        CHECK(r.ansi_unstripped() == 0);
        return o.got;
    }, 4);
    out whole;
    auto rules = logscan::rule_set(logscan::rule<R"(\[(\d\d) (\d\d:\d\d:\d\d) (\d+)@([^:]*):([^\]]*)\] (.*))">(
        [&](const auto& m) { whole.got.emplace_back(m.template get<6>()); }));
    logscan::rule_reader r(rules, [&](const logscan::line& l) { whole.got.emplace_back(l.text); },
                           logscan::rule_options{.strip_ansi = true});
    logscan::for_each_line(std::string_view(text), r);
    REQUIRE(whole.got.size() == 2);
    CHECK(whole.got[0].starts_with("opr seq of length 804: var_kind_0=0"));
    CHECK(whole.got[0].find('\x1b') == std::string::npos);
    CHECK(whole.got[1].starts_with("WRN something coloured xxx"));
    CHECK(whole.got[1].find('\x1b') == std::string::npos);
}

TEST_CASE("rules::strip_sgr") {
    std::array<char, 64> out{};
    const auto strip = [&](std::string_view in) {
        const std::size_t n = logscan::internal::strip_sgr(in, out);
        return n <= out.size() ? std::string(out.data(), n) : std::string("<overflow>");
    };
    CHECK(strip("\x1b[32mok\x1b[0m") == "ok");
    CHECK(strip("\x1b[38;5;208mx") == "x");
    CHECK(strip("\x1b[38:5:208mx\x1b[m") == "x"); // colon-form parameters (ITU T.416)
    CHECK(strip("\x1b[Knot sgr") == "\x1b[Knot sgr"); // other CSI sequences are kept
    CHECK(strip("trailing \x1b[") == "trailing \x1b[");
    CHECK(strip(std::string(65, 'x')) == "<overflow>");
}

TEST_CASE("rules::a set of more than 32 rules: every rule tried in order, the first match wins") {
    // (no first-byte masks past 32 rules: the rules are tried one after another)
    int hit = -1;
    auto set = [&]<std::size_t... I>(std::index_sequence<I...>) {
        return logscan::rule_set(logscan::rule<R"(a(\d))">([&hit](const auto&) { hit = static_cast<int>(I); })...,
                                 logscan::rule<R"(b(\d))">([&hit](const auto&) { hit = 100; }),
                                 logscan::rule<R"(a(\d)|b(\d))">([&hit](const auto&) { hit = 200; }));
    }(std::make_index_sequence<33>{});
    static_assert(!decltype(set)::has_masks);
    std::vector<std::string> fell;
    logscan::rule_reader r(std::move(set), [&](const logscan::line& l) { fell.emplace_back(l.text); });
    for (const auto& [text, want] : {std::pair{std::string_view("a1"), 0}, std::pair{std::string_view("b2"), 100}}) {
        hit = -1;
        CHECK(r.feed(logscan::line{text, 1, 0}) == logscan::flow::proceed);
        CHECK(hit == want);
    }
    CHECK(r.feed(logscan::line{"c3", 1, 0}) == logscan::flow::proceed);
    CHECK(fell == std::vector<std::string>{"c3"});
}
