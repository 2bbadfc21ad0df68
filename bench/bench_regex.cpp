// SPDX-License-Identifier: MIT
// logscan::regex against std::regex, Boost.Regex, RE2 and PCRE2-JIT (the last three when
// found at configure time) on inputs built from the samples:
//  (a) the megengine-log header pattern with 6 captures, matched on every line;
//  (b) search_all of a thousands-separated number pattern over TVM profiler tables;
//  (c) a rare-literal search (`static mem alloc`) over the megengine log.
//  (d) pathological patterns over 1 MB;
//  (e) capture patterns that are not one-pass (bounded backtracker) against PCRE2-JIT and RE2.
// Usage: bench_regex [--mb N] [--runs N] [--sections abcde]   (default 100 MB per input, best
// of 5 runs, every section; the slow std::regex rows and the Pike VM rows run once).
// Built with -DLOGSCAN_BENCH_COMPILE_50 this file is instead the compile-cost benchmark: one
// translation unit instantiating 50 realistic log-line patterns (see bench/regex.cmake).
#include <logscan/regex.hpp>

#ifdef LOGSCAN_BENCH_COMPILE_50

#include <cstddef>
#include <string_view>

#define P(n, pat)                                                                              \
    std::size_t f##n(std::string_view s) {                                                     \
        std::size_t k = logscan::match<pat>(s) ? 1u : 0u;                                      \
        k += logscan::search<pat>(s).get<0>().size();                                          \
        for (auto h : logscan::search_all<pat>(s)) k += h.get<0>().size();                      \
        return k;                                                                              \
    }
P(0, R"(\[(\d+) (\d\d:\d\d:\d\d) (\d+)@([^:]*):([^\]]*)\] (.*))")
P(1, R"(\[(?<day>\d\d) (?<time>\d\d:\d\d:\d\d) (?<line>\d+)@(?<file>[^:]+):(?<logger>[^\]]+)\] (?:(DBG|WRN|ERR|CRIT|CRITICAL) )?(.*))")
P(2, R"(\[(\d\d)/(\d\d) (\d\d:\d\d:\d\d)\] (\S+) (INFO|WARNING|ERROR|DEBUG): (.*))")
P(3, R"((\d+) (\d+) (\S+))")
P(4, R"((\S+)\s+(\d{1,3}(?:,\d{3})*(?:\.\d+)?)\s+(\d+\.\d+)\s+(\w+)\s+(\d+)\s*(.*))")
P(5, R"(\d{1,3}(?:,\d{3})+(?:\.\d+)?)")
P(6, R"(graph optimization: applied (\d+) passes, total (\d+) var\(s\) replaced; time=([\d.]+) ms)")
P(7, R"(FpropEnv\((\w+)\): start fprop VarNode\(owner_opr=(\w+)\{(\w+)@(0x[0-9a-f]+)\}\))")
P(8, R"(FpropEnv\((\w+)\): var node shape:  (\w+): \(([\d, ]*)\))")
P(9, R"(\s*(\w+)(?:@(\d+))?: \(([\d, ]*)\))")
P(10, R"(Epoch: \[(\d+)\]\s*\[\s*(\d+)/(\d+)\])")
P(11, R"((?P<key>\w+): (?P<val>[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?))")
P(12, R"((Mean|Median) (\w+) inference time \(std dev\): ([\d.]+) ms \(([\d.]+) ms\))")
P(13, R"(float32\[([\d, ]*)\])")
P(14, R"((\d+(?:\.\d+)?)(us|ms|s)\b)")
P(15, R"(static memory allocation: nr_opr=(\d+) nr_var=(\d+) realtime=([\d.]+)msec)")
P(16, R"(\s+(\d+)\s+(\S+)\s+(\d+)\s+(\d+)\s+(\S+))")
P(17, R"(ppdet\.engine INFO: Epoch: \[(\d+)\] \[\s*(\d+)/(\d+)\] learning_rate: ([\d.e-]+) (.*))")
P(18, R"(loss: ([\d.]+) loss_rpn_cls: ([\d.]+) loss_rpn_reg: ([\d.]+))")
P(19, R"(eta: (\d+ days?, )?(\d+):(\d\d):(\d\d) batch_cost: ([\d.]+) data_cost: ([\d.]+))")
P(20, R"(ips: ([\d.]+) images/s)")
P(21, R"(-{10,})")
P(22, R"(=+\s*(\w[\w ]*\w)\s*=+)")
P(23, R"(Event\s+Calls\s+CPU Time \(Ms\)\s+GPU Time \(Ms\))")
P(24, R"((\S+)\s+(\d+)\s+([\d.]+) / ([\d.]+) / ([\d.]+) / ([\d.]+) / ([\d.]+)\s+(.*))")
P(25, R"(Name\s+Duration \(us\)\s+Percent\s+Device\s+Count\s+(.*))")
P(26, R"((vm_mod_\w+)\s+([\d,]+\.\d+)\s+([\d.]+)\s+(\w+)\s+(\d+)\s+(.*))")
P(27, R"(Total\s+([\d,]+\.\d+)\s+([\d.]+)\s+(\w+)\s+(\d+))")
P(28, R"(Evaluate (\w+) inference cost of (\w+) on (\w+)\((\d+)\))")
P(29, R"((\d+) (\d+) (/[\w/]+|_))")
P(30, R"(^(\d+) (\d+)$)")
P(31, R"(WRN (.*))")
P(32, R"(ERR (.*))")
P(33, R"(CRIT(?:ICAL)? (.*))")
P(34, R"(\x1b\[[0-9;]*m)")
P(35, R"((\w+)\{(\w+)@(0x[0-9a-f]+)\})")
P(36, R"(opr_footprint\.(\w+)\.(\w+))")
P(37, R"x("(\w+)": (-?\d+(?:\.\d+)?(?:e-?\d+)?))x")
P(38, R"(\b(\d+)\s*(B|KiB|MiB|GiB)\b)")
P(39, R"((\d+(?:\.\d+)?)%)")
P(40, R"(\((\d+(?:, \d+)*,?)\))")
P(41, R"((\w+)@(\d+): \(([\d, ]*)\))")
P(42, R"(loading annotations into memory\.\.\.)")
P(43, R"(Done \(t=([\d.]+)s\))")
P(44, R"(\[(\d\d)/(\d\d) (\d\d):(\d\d):(\d\d)\] (\S+) (\w+): Load \[(\d+) samples valid, (\d+) samples invalid\] in file (.*)\.)")
P(45, R"(Warning: (.*))")
P(46, R"(Mean vm inference time \(std dev\): ([\d.]+) ms \(([\d.]+) ms\))")
P(47, R"((\S+) = (\S+))")
P(48, R"(^\s*$)")
P(49, R"((?:[A-Za-z_][\w.]*/)+[\w.]+)")
#undef P

#else // the benchmark program

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <regex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench_util.hpp"

#ifdef LOGSCAN_BENCH_PCRE2
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#endif
#ifdef LOGSCAN_BENCH_RE2
#include <re2/re2.h>
#endif
#ifdef LOGSCAN_BENCH_BOOST
#include <boost/regex.hpp>
#endif

namespace {

constexpr logscan::fixed_string header = R"(\[(\d+) (\d\d:\d\d:\d\d) (\d+)@([^:]*):([^\]]*)\] (.*))";
constexpr logscan::fixed_string grouped = R"(\d{1,3}(?:,\d{3})*(?:\.\d+)?)";
constexpr logscan::fixed_string rare = "static mem alloc";

struct outcome {
    std::size_t count = 0; // matches
    std::size_t bytes = 0; // total length of one capture / of the matches
    bool operator==(const outcome&) const = default;
};

template <class F>
void each_line(const std::string& text, F&& f) {
    const char* p = text.data();
    const char* end = p + text.size();
    while (p < end) {
        const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
        if (!nl) nl = end;
        f(p, static_cast<std::size_t>(nl - p));
        p = nl + 1;
    }
}

void row(bench::table& t, const char* name, int runs, outcome& out, const outcome& ref, bool reference,
         auto&& f) {
    const double s = bench::best_seconds(runs, [&] { out = f(); });
    std::string note = "matches " + std::to_string(out.count);
    if (!(out == ref) && !reference) note += "  (DIFFERS from logscan: " + std::to_string(ref.count) + ")";
    t.add(name, s, reference, note);
}

/// Lines of `text` for which keep(line) holds, each followed by '\n', repeated to `mb` MB.
template <class F>
std::string lines_where(const std::string& text, double mb, F&& keep) {
    std::string unit;
    each_line(text, [&](const char* p, std::size_t n) {
        if (keep(std::string_view(p, n))) unit.append(p, n).push_back('\n');
    });
    return bench::repeat_to(unit, mb);
}

/// One table of section (e): pattern P on every line of `text`, `match` (whole line) or
/// `search`, by logscan, by logscan's Pike VM alone (the engine such patterns had before),
/// PCRE2-JIT and RE2; the outcome counts the matches and sums the length of group G. The
/// contenders take turns, one run each per round, so that a noisy spell of the machine
/// does not fall on one of them only.
template <logscan::fixed_string P, std::size_t G>
void capture_table(const char* title, const std::string& text, bool search, int runs) {
    using C = logscan::regex_internal::compiled<P>;
    constexpr std::size_t groups = static_cast<std::size_t>(C::ngroups);
    static_assert(G < groups);
    struct contender {
        std::string name;
        int runs;
        std::function<outcome()> f;
        double best = 1e300;
        outcome out{};
    };
    std::vector<contender> cs;
    cs.push_back({search ? "logscan::search" : "logscan::match", runs, [&] {
        outcome r;
        each_line(text, [&](const char* p, std::size_t n) {
            const auto m = search ? logscan::search<P>(std::string_view(p, n)) : logscan::match<P>(std::string_view(p, n));
            if (m) ++r.count, r.bytes += m.template get<G>().size();
        });
        return r;
    }});
    cs.push_back({"logscan, Pike VM alone (before)", 1, [&] {
        outcome r;
        std::size_t slots[static_cast<std::size_t>(C::nslots)];
        each_line(text, [&](const char* p, std::size_t n) {
            if (logscan::regex_internal::pike_run<C>(p, n, 0, !search, !search, false, slots, nullptr))
                ++r.count, r.bytes += slots[2 * G + 1] - slots[2 * G];
        });
        return r;
    }});
#ifdef LOGSCAN_BENCH_PCRE2
    int err = 0;
    PCRE2_SIZE off = 0;
    pcre2_code* re = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(P.chars), PCRE2_ZERO_TERMINATED,
                                   search ? 0u : (PCRE2_ANCHORED | PCRE2_ENDANCHORED), &err, &off, nullptr);
    pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
    pcre2_match_data* md = pcre2_match_data_create_from_pattern(re, nullptr);
    pcre2_match_context* mc = pcre2_match_context_create(nullptr);
    cs.push_back({"PCRE2-JIT", runs, [&] {
        outcome r;
        each_line(text, [&](const char* p, std::size_t n) {
            if (pcre2_jit_match(re, reinterpret_cast<PCRE2_SPTR>(p), n, 0, 0, md, mc) > 0) {
                const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md);
                ++r.count, r.bytes += ov[2 * G + 1] - ov[2 * G];
            }
        });
        return r;
    }});
#endif
#ifdef LOGSCAN_BENCH_RE2
    RE2 re2(std::string("(") + P.chars + ")"); // group 0 as group 1
    re2::StringPiece g[groups];
    RE2::Arg a[groups];
    const RE2::Arg* args[groups];
    for (std::size_t k = 0; k < groups; ++k) a[k] = &g[k], args[k] = &a[k];
    cs.push_back({search ? "RE2 (PartialMatchN)" : "RE2 (FullMatchN)", runs, [&] {
        outcome r;
        each_line(text, [&](const char* p, std::size_t n) {
            const re2::StringPiece in(p, n);
            if (search ? RE2::PartialMatchN(in, re2, args, static_cast<int>(groups))
                       : RE2::FullMatchN(in, re2, args, static_cast<int>(groups)))
                ++r.count, r.bytes += g[G].size();
        });
        return r;
    }});
#endif
    for (int round = 0; round < runs; ++round)
        for (contender& c : cs) {
            if (round >= c.runs) continue;
            c.best = std::min(c.best, bench::best_seconds(1, [&] { c.out = c.f(); }));
        }
    bench::table t(title, text.size());
    for (const contender& c : cs) {
        std::string note = "matches " + std::to_string(c.out.count);
        if (!(c.out == cs[0].out)) note += "  (DIFFERS from logscan: " + std::to_string(cs[0].out.count) + ")";
        t.add(c.name, c.best, &c == &cs[0], note);
    }
    t.print();
#ifdef LOGSCAN_BENCH_PCRE2
    pcre2_match_context_free(mc);
    pcre2_match_data_free(md);
    pcre2_code_free(re);
#endif
}

} // namespace

int main(int argc, char** argv) {
    const bench::options o = bench::parse_args(argc, argv, 100);
    // --sections abcde: run only these sections (default: all)
    std::string only;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--sections") == 0) only = argv[i + 1];
    auto section = [&](char s) { return only.empty() || only.find(s) != std::string::npos; };
    const int slow_runs = 1;
    const std::string mege = bench::repeat_to(bench::sample("000_cf8afa6c099f806b.txt"), o.mb);
    const std::string tvm = bench::repeat_to(bench::sample("004_d73c77cb3fb2895c.txt"), o.mb);

    // (a) header pattern, 6 captures, every line
    if (section('a')) {
        bench::table t("(a) megengine header, 6 captures, match on every line", mege.size());
        outcome ref, out;
        row(t, "logscan::match", o.runs, ref, ref, true, [&] {
            outcome r;
            each_line(mege, [&](const char* p, std::size_t n) {
                const auto m = logscan::match<header>(std::string_view(p, n));
                if (m) ++r.count, r.bytes += m.get<4>().size();
            });
            return r;
        });
#ifdef LOGSCAN_BENCH_PCRE2
        {
            int err = 0;
            PCRE2_SIZE off = 0;
            pcre2_code* re = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(header.chars), PCRE2_ZERO_TERMINATED,
                                           PCRE2_ANCHORED | PCRE2_ENDANCHORED, &err, &off, nullptr);
            pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
            pcre2_match_data* md = pcre2_match_data_create_from_pattern(re, nullptr);
            pcre2_match_context* mc = pcre2_match_context_create(nullptr);
            row(t, "PCRE2-JIT", o.runs, out, ref, false, [&] {
                outcome r;
                each_line(mege, [&](const char* p, std::size_t n) {
                    if (pcre2_jit_match(re, reinterpret_cast<PCRE2_SPTR>(p), n, 0, 0, md, mc) > 0) {
                        const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md);
                        ++r.count, r.bytes += ov[9] - ov[8];
                    }
                });
                return r;
            });
            pcre2_match_context_free(mc);
            pcre2_match_data_free(md);
            pcre2_code_free(re);
        }
#endif
#ifdef LOGSCAN_BENCH_RE2
        {
            RE2 re(header.chars);
            row(t, "RE2 (FullMatch, 6 captures)", o.runs, out, ref, false, [&] {
                outcome r;
                re2::StringPiece g[6];
                each_line(mege, [&](const char* p, std::size_t n) {
                    if (RE2::FullMatch(re2::StringPiece(p, n), re, &g[0], &g[1], &g[2], &g[3], &g[4], &g[5]))
                        ++r.count, r.bytes += g[3].size();
                });
                return r;
            });
        }
#endif
#ifdef LOGSCAN_BENCH_BOOST
        {
            const boost::regex re(header.chars);
            row(t, "Boost.Regex", slow_runs, out, ref, false, [&] {
                outcome r;
                boost::cmatch m;
                each_line(mege, [&](const char* p, std::size_t n) {
                    if (boost::regex_match(p, p + n, m, re)) ++r.count, r.bytes += static_cast<std::size_t>(m[4].length());
                });
                return r;
            });
        }
#endif
        {
            const std::regex re(header.chars);
            row(t, "std::regex", slow_runs, out, ref, false, [&] {
                outcome r;
                std::cmatch m;
                each_line(mege, [&](const char* p, std::size_t n) {
                    if (std::regex_match(p, p + n, m, re)) ++r.count, r.bytes += static_cast<std::size_t>(m[4].length());
                });
                return r;
            });
        }
        t.print();
    }

    // (b) thousands-separated numbers, search_all over TVM tables
    if (section('b')) {
        bench::table t("(b) search_all of \\d{1,3}(?:,\\d{3})*(?:\\.\\d+)? over TVM tables", tvm.size());
        outcome ref, out;
        const std::string_view text = tvm;
        row(t, "logscan::search_all", o.runs, ref, ref, true, [&] {
            outcome r;
            for (const auto& h : logscan::search_all<grouped>(text)) ++r.count, r.bytes += h.get<0>().size();
            return r;
        });
#ifdef LOGSCAN_BENCH_PCRE2
        {
            int err = 0;
            PCRE2_SIZE off = 0;
            pcre2_code* re = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(grouped.chars), PCRE2_ZERO_TERMINATED, 0, &err,
                                           &off, nullptr);
            pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
            pcre2_match_data* md = pcre2_match_data_create_from_pattern(re, nullptr);
            row(t, "PCRE2-JIT", o.runs, out, ref, false, [&] {
                outcome r;
                PCRE2_SIZE pos = 0;
                while (pcre2_jit_match(re, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), pos, 0, md, nullptr) > 0) {
                    const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md);
                    ++r.count, r.bytes += ov[1] - ov[0];
                    pos = ov[1] > ov[0] ? ov[1] : ov[1] + 1;
                }
                return r;
            });
            pcre2_match_data_free(md);
            pcre2_code_free(re);
        }
#endif
#ifdef LOGSCAN_BENCH_RE2
        {
            RE2 re(std::string("(") + grouped.chars + ")");
            row(t, "RE2 (FindAndConsume)", o.runs, out, ref, false, [&] {
                outcome r;
                re2::StringPiece in(text.data(), text.size()), g;
                while (RE2::FindAndConsume(&in, re, &g)) ++r.count, r.bytes += g.size();
                return r;
            });
        }
#endif
#ifdef LOGSCAN_BENCH_BOOST
        {
            const boost::regex re(grouped.chars);
            row(t, "Boost.Regex (cregex_iterator)", slow_runs, out, ref, false, [&] {
                outcome r;
                for (boost::cregex_iterator it(text.data(), text.data() + text.size(), re), end; it != end; ++it)
                    ++r.count, r.bytes += static_cast<std::size_t>((*it)[0].length());
                return r;
            });
        }
#endif
        {
            const std::regex re(grouped.chars);
            row(t, "std::regex (cregex_iterator)", slow_runs, out, ref, false, [&] {
                outcome r;
                for (std::cregex_iterator it(text.data(), text.data() + text.size(), re), end; it != end; ++it)
                    ++r.count, r.bytes += static_cast<std::size_t>((*it)[0].length());
                return r;
            });
        }
        t.print();
    }

    // (c) rare literal over the megengine log
    if (section('c')) {
        bench::table t("(c) rare literal 'static mem alloc', every occurrence, megengine log", mege.size());
        outcome ref, out;
        const std::string_view text = mege;
        row(t, "logscan::search_all", o.runs, ref, ref, true, [&] {
            outcome r;
            for (const auto& h : logscan::search_all<rare>(text)) ++r.count, r.bytes += h.get<0>().size();
            return r;
        });
#ifdef LOGSCAN_BENCH_PCRE2
        {
            int err = 0;
            PCRE2_SIZE off = 0;
            pcre2_code* re = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(rare.chars), PCRE2_ZERO_TERMINATED, 0, &err, &off, nullptr);
            pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
            pcre2_match_data* md = pcre2_match_data_create_from_pattern(re, nullptr);
            row(t, "PCRE2-JIT", o.runs, out, ref, false, [&] {
                outcome r;
                PCRE2_SIZE pos = 0;
                while (pcre2_jit_match(re, reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), pos, 0, md, nullptr) > 0) {
                    const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md);
                    ++r.count, r.bytes += ov[1] - ov[0];
                    pos = ov[1];
                }
                return r;
            });
            pcre2_match_data_free(md);
            pcre2_code_free(re);
        }
#endif
#ifdef LOGSCAN_BENCH_RE2
        {
            RE2 re(std::string("(") + rare.chars + ")");
            row(t, "RE2 (FindAndConsume)", o.runs, out, ref, false, [&] {
                outcome r;
                re2::StringPiece in(text.data(), text.size()), g;
                while (RE2::FindAndConsume(&in, re, &g)) ++r.count, r.bytes += g.size();
                return r;
            });
        }
#endif
#ifdef LOGSCAN_BENCH_BOOST
        {
            const boost::regex re(rare.chars);
            row(t, "Boost.Regex (cregex_iterator)", slow_runs, out, ref, false, [&] {
                outcome r;
                for (boost::cregex_iterator it(text.data(), text.data() + text.size(), re), end; it != end; ++it)
                    ++r.count, r.bytes += static_cast<std::size_t>((*it)[0].length());
                return r;
            });
        }
#endif
        {
            const std::regex re(rare.chars);
            row(t, "std::regex (cregex_iterator)", slow_runs, out, ref, false, [&] {
                outcome r;
                for (std::cregex_iterator it(text.data(), text.data() + text.size(), re), end; it != end; ++it)
                    ++r.count, r.bytes += static_cast<std::size_t>((*it)[0].length());
                return r;
            });
        }
        t.print();
    }

    // (e) capture patterns that are not one-pass (the bounded backtracker's work)
    if (section('e')) {
        const std::string paddle = bench::sample("003_1c776201c8b5b83e.txt");
        const std::string paddle_all = bench::repeat_to(paddle, o.mb);
        const std::string paddle_epoch =
            lines_where(paddle, o.mb, [](std::string_view l) { return l.find(" INFO: Epoch: ") != l.npos; });
        const std::string paddle_other =
            lines_where(paddle, o.mb, [](std::string_view l) { return l.find(" INFO: Epoch: ") == l.npos; });
        constexpr logscan::fixed_string epoch = R"(\[[^\]]*\] \S+ INFO: Epoch: \[(\d+)\] \[ *(\d+)/(\d+)\] .* loss: (\S+) .*)";
        capture_table<epoch, 4>("(e1) paddle epoch line, 4 captures, .* before and after the loss; match on every line",
                                paddle_all, false, o.runs);
        capture_table<epoch, 4>("(e2) the same, on the matching lines only", paddle_epoch, false, o.runs);
        capture_table<epoch, 4>("(e3) the same, on the other lines only", paddle_other, false, o.runs);
        constexpr logscan::fixed_string bridged = R"(\[(.*) (\d+)@(.*):(.*)\] (.*))";
        capture_table<bridged, 4>("(e4) megengine header written with .* between the fields; match on every line",
                                  mege, false, o.runs);
        constexpr logscan::fixed_string tvm_row = R"((\S+)\s+([\d,.]+)\s+([\d.]+)\s+(\w+)\s+(\d+)\s+(.*\]))";
        capture_table<tvm_row, 6>("(e5) tvm row, 6 captures up to the last ']' of the shapes; search in every line",
                                  tvm, true, o.runs);
    }

    // (d) the issue's pathological patterns over 1,000,000 'a's (no match), and the same
    // with a final 'b' (a match: the Pike VM runs over the whole input)
    if (section('d')) {
        const std::string a(1000000, 'a'), ab = a + "b";
        std::printf("\n(d) pathological patterns, 1,000,000 bytes, best of %d (ms)\n", o.runs);
        auto time_ms = [&](auto f) {
            double best = 1e300;
            bool r = false;
            for (int k = 0; k < (o.runs > 0 ? o.runs : 1); ++k) {
                const auto t0 = std::chrono::steady_clock::now();
                r = f();
                const std::chrono::duration<double, std::milli> d = std::chrono::steady_clock::now() - t0;
                best = d.count() < best ? d.count() : best;
            }
            return std::pair<double, bool>{best, r};
        };
        auto show = [](const char* what, std::pair<double, bool> v) {
            std::printf("  %-44s %9.2f ms  %s\n", what, v.first, v.second ? "match" : "no match");
        };
        show("search<\"(a|aa)*b\">, 1M 'a'", time_ms([&] { return logscan::search<"(a|aa)*b">(a).matched(); }));
        show("match<\"(a*)*b\">, 1M 'a'", time_ms([&] { return logscan::match<"(a*)*b">(a).matched(); }));
        show("search<\"(a|aa)*b\">, 1M 'a' + 'b'", time_ms([&] { return logscan::search<"(a|aa)*b">(ab).matched(); }));
        show("match<\"(a*)*b\">, 1M 'a' + 'b'", time_ms([&] { return logscan::match<"(a*)*b">(ab).matched(); }));
    }
    return 0;
}

#endif
