// SPDX-License-Identifier: MIT
/// \file formats/megengine_log.hpp
/// The `megengine-log` format: MegEngine / megskull / megbrain training logs (the record
/// contract is formats.md, section 1). Built from the toolkit's parts only: line framing,
/// one rule for the header line with sub-rules on its message, modes for the multi-line
/// blocks, the numbers layer and shape lists.
///
/// \code
/// #include <logscan/formats/megengine_log.hpp>          // (also in the umbrella <logscan.hpp>)
/// struct peak {                                          // every callback is optional
///     void on_mem_alloc(const logscan::megengine_log::mem_alloc& r) { use(r.comp_node, r.alloc_bytes); }
/// };
/// peak v;
/// logscan::file_source src("train.log");
/// logscan::error e = logscan::megengine_log::parse(src, v);
/// // or, for your own I/O: logscan::megengine_log::parser<peak> p(v); p.feed(chunk); ...; p.finish();
/// \endcode
///
/// Header lines come in three forms (formats.md section 1; `log::form`): A, the Python file
/// log `[DD HH:MM:SS LINENO@FILE:LOGGER] [LEVEL ]MESSAGE` (FILE may hold spaces and parentheses,
/// `(unknown file)`, but no `:`; LOGGER no `]`; LEVEL `DBG`, `WRN`, `ERR`, `CRIT`, `CRITICAL`);
/// B, the C++ log `[DD HH:MM:SS FUNC@FILE:LINE][TAG] MESSAGE` (or `[S.SSS FUNC@...]`; TAG `ERR`,
/// `WARN`, `DEBUG` in any case); C, the Python console log `DD HH:MM:SS [LEVEL ]MESSAGE` or
/// `DD HH:MM:SS[mgb] ...`. Without a printed level it is `INFO`. ANSI SGR colour sequences are
/// removed from every line before it is interpreted (no record holds one), then its indent is
/// set aside and its trailing blanks removed (`text` records keep the indent).
///
/// Events (records are views into the current line, valid during the call; numbers are
/// parsed only when the callback that receives them exists):
/// \code
/// void on_log(const megengine_log::log&);                    // every header line, of any form
/// void on_fprop_start(const megengine_log::fprop_start&);    // FpropEnv(ENV): start fprop VarNode(owner_opr=VAR{TYPE@ADDR})
/// void on_var_shape(const megengine_log::var_shape&);        // "var node shape:" messages and the lines
///                                                            // after "shapes of var nodes:"
/// void on_graph_opt(const megengine_log::graph_opt&);        // graph optimization: applied P passes, ...
/// void on_opr_seq(const megengine_log::opr_seq&);            // opr seq of length L: k=v k=v ...
/// void on_mem_alloc(const megengine_log::mem_alloc&);        // each row of a "static memory allocation:" table
/// void on_workspace_bound(const megengine_log::workspace_bound&); // each COMP=MIB after "bounds(MiB):"
/// void on_mem_alloc_stats(const megengine_log::mem_alloc_stats&); // static mem alloc: nr_opr=..., or
///                                                            // static memory allocation: nr_opr=...
/// void on_static_storage(const megengine_log::static_storage&); // static storage on COMP: size=XMiB addr_range=[P0, P1).
/// void on_lar_iteration(const megengine_log::lar_iteration&);  // load_and_run: iter I/N: T ms ... (every generation)
/// void on_lar_summary(const megengine_log::lar_summary&);      // === finished test #K: time=... avg_time=...
/// void on_lar_warmup(const megengine_log::lar_warmup&);        // warm up I  Tms, warmup I: Tms, ...
/// void on_lar_phase(const megengine_log::lar_phase&);          // load model: Tms, === prepare: Tms; ..., ...
/// void on_lar_run(const megengine_log::lar_run&);              // === going to run ..., run testcase: K
/// void on_text(const logscan::line&);                        // any other non-blank line, trailing spaces removed
/// void on_error(const logscan::error&);                      // a memory-table row cut off; a line too long
/// \endcode
/// A header line yields its `log` record first, then the record of its message, if any.
/// `load_and_run`'s own lines (`lar_*`) are read as lines of their own (until 1.10 it prints
/// them with printf) and as messages of header lines (since 1.11), each against the printf
/// forms of every generation (`lar_forms`, read with `scan_form`).
/// The lines after `... shapes of var nodes:` (` VAR@R: (d, ...)`, ` VAR: (d, ...)`) and after
/// `... static memory allocation:` (the structural header ` comp_node alloc lower_bound
/// upper_bound`, then one row per comp node) belong to that block until the next header
/// line; a line in a block that fits neither is `text`, except a memory-table row that was
/// cut off (it has `MiB(` but not the whole row), which is an `error` record
/// (`error_code::syntax`, "memory table row cut off", column one past its last byte). Blank
/// lines yield nothing. A line longer than the carry buffer (`max_line`, 1 MiB by default)
/// is an `error` record (`line_too_long`) and reading goes on.
///
/// Memory table rows are printed by MegEngine with
/// `"%9s%10.2fMiB(%10zubytes)%10.2fMiB(%6.2f%%)%10.2fMiB(%6.2f%%)"` and read from the right:
/// large values leave one space between cells, or none; with none between the comp node and
/// the allocation, the allocation is the `%.2f` of the byte count in MiB, which tells where the
/// comp node ends; a comp node may be `CompNode("gpu0:0" from "xpu0:0")` (its physical and
/// logical names); `nan`, `-nan`, `inf` values are NaN or infinity.
///
/// Allocation: the parser allocates its carry buffer and ANSI strip buffer once, at
/// construction; nothing while parsing.
#ifndef LOGSCAN_FORMATS_MEGENGINE_LOG_HPP_INCLUDED
#define LOGSCAN_FORMATS_MEGENGINE_LOG_HPP_INCLUDED

#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <optional>
#include <string_view>
#include <system_error>
#include <utility>

#include "../format.hpp" // (config, error, lines, source, visit, num, record, ndjson)
#include "../regex.hpp"
#include "../rules.hpp"

namespace logscan::megengine_log {

/// The format's name, as the command line and `detect` know it.
inline constexpr std::string_view format_name = "megengine-log";

/// A header line, in one of the three forms of formats.md section 1 (its indent set aside):
/// - A, Python file log: `[06 15:13:35 330@env.py:meghair.train.env] WRN --fast-run not enabled`;
/// - B, C++ log: `[21 08:14:09 plan_storage@mem_planner.cpp:57][DEBUG] static memory allocation:`,
///   `[37.512 load_graph@graph_loader.cpp:210] loaded 118 operators` (seconds since start);
/// - C, Python console log: `05 19:40:02 WRN checkpoint directory ./ckpt is empty`,
///   `05 19:40:03[mgb] ERR worker 3 lost connection`.
/// A value the line's form does not print is none.
struct log {
    std::uint64_t line;                     ///< line number
    std::string_view form;                  ///< `form_file` (A), `form_cpp` (B) or `form_console` (C)
    std::optional<int> day;                 ///< `06` -> 6; none for B's seconds
    std::string_view time;                  ///< `15:13:35`, or B's seconds `37.512`
    std::optional<std::string_view> func;   ///< B's function before `@` (may be empty); none in A, C
    std::optional<std::string_view> file;   ///< A's and B's file: `env.py`, `(unknown file)` (may be empty in B)
    std::optional<std::uint64_t> src_line;  ///< the source line: A's before `@`, B's after `:`
    std::optional<std::string_view> logger; ///< A's logger `meghair.train.env`; `mgb` for a C line with `[mgb]`
    std::string_view level;    ///< `DBG`, `WRN`, `ERR` (A, C), `CRIT`, `CRITICAL` (A), B's tag as printed (`WARN`, `warn`), or `INFO`
    std::string_view message;  ///< the rest of the line after the level, trailing spaces removed
};

/// `log::form` of each header form.
inline constexpr std::string_view form_file = "file", form_cpp = "cpp", form_console = "console";

/// `FpropEnv(val): start fprop VarNode(owner_opr=data{DataProvider@0x7f349a5c59e8})`.
struct fprop_start {
    std::uint64_t line;        ///< line number
    std::string_view env;      ///< `val`
    std::string_view var;      ///< `data`
    std::string_view opr_type; ///< `DataProvider`
    std::string_view addr;     ///< `0x7f349a5c59e8`
};

/// A var node's shape: ` conv1_1@3: (4, 64, 224, 224)` or `... var node shape:  data: (32, 3, 224, 224)`.
struct var_shape {
    std::uint64_t line;                    ///< line number
    std::string_view var;                  ///< `conv1_1`
    std::optional<std::uint64_t> replica;  ///< the `@R` number, none without it
    shape_list shape;                      ///< the dims (`(32,)` has one, `()` none), parsed once
};

/// `graph optimization: applied 8 passes, total 5757 var(s) replaced; time=74.64ms`.
struct graph_opt {
    std::uint64_t line;          ///< line number
    std::uint64_t passes;        ///< 8
    std::uint64_t vars_replaced; ///< 5757
    double time_ms;              ///< 74.64
};

namespace detail {
inline constexpr fixed_string opr_pair_pattern{R"(([^\s=]+)=(\S*))"};
// The matches of opr_pair_pattern found by hand (`search_all`'s `Find`; a test holds them
// equal to the pattern's): a key is a run of bytes that are neither blank nor `=`, and a match
// begins only at a run that `=` ends, so runs a blank or the end ends are passed over whole;
// the value is every byte up to the next blank. (No match is empty: `must_advance` never holds.)
struct opr_pair_finder {
    constexpr bool operator()(std::string_view t, std::size_t p, bool, std::size_t* slots) const noexcept {
        static_assert(regex_result<opr_pair_pattern>::groups == 3);
        using internal::is_regex_space;
        const std::size_t n = t.size();
        const char* const b = t.data();
        // (where a key or a value ends: the run's next blank or `=`, looked for 16 bytes at a time)
        const auto run_end = [&]<char... Cs>(std::size_t from) {
            return static_cast<std::size_t>(internal::find_space_or<Cs...>(b + from, b + n, b) - b);
        };
        for (;;) {
            while (p < n && (is_regex_space(t[p]) || t[p] == '=')) ++p; // (no key begins here)
            const std::size_t k = p;
            p = run_end.template operator()<'='>(p);
            if (p == k) return false;
            if (p < n && t[p] == '=') {
                const std::size_t e = run_end.template operator()<>(p + 1);
                const std::size_t found[6] = {k, e, k, p, p + 1, e};
                for (std::size_t i = 0; i < 6; ++i) slots[i] = found[i];
                return true;
            }
        }
    }
};
using opr_pairs = regex_range<opr_pair_pattern, opr_pair_finder>;
} // namespace detail

/// `opr seq of length 804: var_static=533 var_dynamic_shape=0 ...`.
struct opr_seq {
    std::uint64_t line;      ///< line number
    std::uint64_t length;    ///< 804
    std::string_view params; ///< the `k=v k=v ...` text after the colon
    /// Every `k=v` pair of `params`, in order: `for (auto p : r.pairs())` with `p.get<1>()` the
    /// key and `p.get<2>()` the value text (`logscan::parse_number_value` makes it a number).
    /// (The matches of `search_all<R"(([^\s=]+)=(\S*))">(params)`, found by hand: each a
    /// `regex_result` of that pattern.)
    constexpr detail::opr_pairs pairs() const noexcept { return detail::opr_pairs(params); }
};

/// A row of a static memory allocation table:
/// `   gpu0:0    196.00MiB( 205520896bytes)    196.00MiB(100.00%)    832.06MiB(424.52%)`.
/// Since 2021 MegEngine prints the comp node as `CompNode("gpu3:0" from "xpu3:0")`: its
/// physical and logical names. A value printed as `nan`, `-nan` or `inf` (glibc's `%f` of a
/// ratio with a zero size) is NaN or infinity (`null` in NDJSON).
struct mem_alloc {
    std::uint64_t line;      ///< line number
    std::string_view comp_node; ///< `gpu0:0`, `CompNode("gpu3:0" from "xpu3:0")`: as printed
    std::string_view physical;  ///< `gpu3:0` of `CompNode("gpu3:0" from "xpu3:0")`, else `comp_node`
    std::optional<std::string_view> logical; ///< `xpu3:0` of `CompNode("gpu3:0" from "xpu3:0")`, else none
    double alloc_mib;        ///< 196.0
    std::uint64_t alloc_bytes; ///< 205520896
    double lower_bound_mib;  ///< 196.0
    double lower_bound_pct;  ///< 100.0
    double upper_bound_mib;  ///< 832.06
    double upper_bound_pct;  ///< 424.52
};

/// One `COMP=MIB` pair after `bounds(MiB):`.
struct workspace_bound {
    std::uint64_t line;         ///< line number
    std::string_view comp_node; ///< `gpu0:COPY`
    double mib;                 ///< 7809.5
};

/// `static mem alloc: nr_opr=397 nr_var=533 realtime=26.04msec(si3.31 mp+re7.10 omp0.03 alloc15.60)`,
/// or (newer releases) `static memory allocation: nr_opr=57 nr_var=83 realtime=1.25msec (plan0.94 alloc0.31)`;
/// a value the message does not print is none.
struct mem_alloc_stats {
    std::uint64_t line;              ///< line number
    std::uint64_t nr_opr;            ///< 397
    std::uint64_t nr_var;            ///< 533
    double realtime_ms;              ///< 26.04
    std::optional<double> si_ms;     ///< 3.31 (first form only)
    std::optional<double> mp_re_ms;  ///< 7.1 (first form only)
    std::optional<double> omp_ms;    ///< 0.03 (first form only)
    double alloc_ms;                 ///< 15.6
    std::optional<double> plan_ms;   ///< 0.94 (second form only)
};

/// `static storage on gpu3:0: size=12.50MiB addr_range=[0x7f2a4c000000, 0x7f2a4cc80000).`
struct static_storage {
    std::uint64_t line;          ///< line number
    std::string_view comp_node;  ///< `gpu3:0`, `CompNode("cpu0:0" from "xpux:0")`: as printed
    double size_mib;             ///< 12.5 (NaN or infinity for a non-finite word)
    std::string_view addr_begin; ///< `0x7f2a4c000000`
    std::string_view addr_end;   ///< `0x7f2a4cc80000`
};

/// One timed iteration of `load_and_run`: `iter 3/20: 12.004ms (exec=2.118,device=11.870)` and
/// the other forms of formats.md section 1. A value the form does not print is none; a
/// non-finite one (`-nan`) is NaN or infinity.
struct lar_iteration {
    std::uint64_t line;                  ///< line number
    std::optional<std::uint64_t> iter;   ///< I of `iter I/N`
    std::optional<std::uint64_t> iters;  ///< N of `iter I/N`
    std::optional<double> time_ms;       ///< the iteration's wall time
    std::optional<double> exec_ms;       ///< until the execution was issued (`exec=`, `host=`)
    std::optional<double> device_ms;     ///< the device time (`device=`)
};

/// The end of a test's iterations: `=== finished test #0: time=144.600 ms avg_time=7.230 ms ...`.
struct lar_summary {
    std::uint64_t line;                ///< line number
    std::optional<std::uint64_t> test; ///< K of `#K`
    std::optional<double> time_ms;     ///< the sum of the iterations' times
    std::optional<double> avg_ms;      ///< their mean
    std::optional<double> sd_ms;       ///< their standard deviation (`sd`, `sexec`, `standard_deviation`)
    std::optional<double> min_ms;      ///< the fastest
    std::optional<double> max_ms;      ///< the slowest
};

/// One warm-up run: `warm up 0  30.010ms`.
struct lar_warmup {
    std::uint64_t line; ///< line number
    std::uint64_t iter; ///< I
    double time_ms;     ///< T
};

/// The time of a stage: `load model: Tms` (`load`), `=== prepare: Tms; going to warmup`
/// (`prepare`), `=== total time: Tms` (`total`), `config model time T ms` (`config`).
struct lar_phase {
    std::uint64_t line;     ///< line number
    std::string_view phase; ///< `load`, `prepare`, `total` or `config`
    double time_ms;         ///< T
};

/// What runs next: `=== going to run 2 testcases; output vars: fc1{1,1000} prob{1,1000}`,
/// `=== going to run test #1 for 20 times`, `run testcase: 0`, ...
struct lar_run {
    std::uint64_t line;                         ///< line number
    std::optional<std::uint64_t> test;          ///< K
    std::optional<std::uint64_t> testcases;     ///< the number of test cases
    std::optional<std::uint64_t> iters;         ///< N, the iterations each test runs
    std::optional<std::string_view> output_vars; ///< the outputs as printed (`""` when none follow `output vars:`)
};

LOGSCAN_EVENT(on_log, "void on_log(const logscan::megengine_log::log&)");
LOGSCAN_EVENT(on_lar_iteration, "void on_lar_iteration(const logscan::megengine_log::lar_iteration&)");
LOGSCAN_EVENT(on_lar_summary, "void on_lar_summary(const logscan::megengine_log::lar_summary&)");
LOGSCAN_EVENT(on_lar_warmup, "void on_lar_warmup(const logscan::megengine_log::lar_warmup&)");
LOGSCAN_EVENT(on_lar_phase, "void on_lar_phase(const logscan::megengine_log::lar_phase&)");
LOGSCAN_EVENT(on_lar_run, "void on_lar_run(const logscan::megengine_log::lar_run&)");
LOGSCAN_EVENT(on_static_storage, "void on_static_storage(const logscan::megengine_log::static_storage&)");
LOGSCAN_EVENT(on_fprop_start, "void on_fprop_start(const logscan::megengine_log::fprop_start&)");
LOGSCAN_EVENT(on_var_shape, "void on_var_shape(const logscan::megengine_log::var_shape&)");
LOGSCAN_EVENT(on_graph_opt, "void on_graph_opt(const logscan::megengine_log::graph_opt&)");
LOGSCAN_EVENT(on_opr_seq, "void on_opr_seq(const logscan::megengine_log::opr_seq&)");
LOGSCAN_EVENT(on_mem_alloc, "void on_mem_alloc(const logscan::megengine_log::mem_alloc&)");
LOGSCAN_EVENT(on_workspace_bound, "void on_workspace_bound(const logscan::megengine_log::workspace_bound&)");
LOGSCAN_EVENT(on_mem_alloc_stats, "void on_mem_alloc_stats(const logscan::megengine_log::mem_alloc_stats&)");

/// An `opr_seq`'s `k=v` pairs, each its own key of the record (numbers as numbers).
struct opr_seq_pairs {
    const opr_seq& seq; ///< the record
    /// Calls `f(key, value)` for each pair in order.
    template <class F>
    constexpr void for_each_entry(F&& f) const {
        for (const auto& p : seq.pairs()) f(p.template get<1>(), loose_number{p.template get<2>()});
    }
};
/// An `opr_seq`'s pairs.
constexpr opr_seq_pairs pairs_of(const opr_seq& r) noexcept { return {r}; }
/// The `opr_seq` record's description (its pairs are its own keys: `keys_clash` tells a pair
/// named as one of its fields, or two pairs of one name).
using opr_seq_kind = record_kind<"opr_seq", opr_seq, on_opr_seq_event, field<"length", &opr_seq::length>, entries<pairs_of>>;

/// The format's records, described once (record.hpp): `record_types`, the visitor check,
/// `ndjson_visitor` come from here.
using records = record_list<
    record_kind<"log", log, on_log_event, field<"form", &log::form>, field<"day", &log::day>, field<"time", &log::time>,
                field<"func", &log::func>, field<"file", &log::file>, field<"src_line", &log::src_line>,
                field<"logger", &log::logger>, field<"level", &log::level>, field<"message", &log::message>>,
    record_kind<"fprop_start", fprop_start, on_fprop_start_event, field<"env", &fprop_start::env>,
                field<"var", &fprop_start::var>, field<"opr_type", &fprop_start::opr_type>,
                field<"addr", &fprop_start::addr>>,
    record_kind<"var_shape", var_shape, on_var_shape_event, field<"var", &var_shape::var>,
                field<"replica", &var_shape::replica>, field<"shape", &var_shape::shape>>,
    record_kind<"graph_opt", graph_opt, on_graph_opt_event, field<"passes", &graph_opt::passes>,
                field<"vars_replaced", &graph_opt::vars_replaced>, field<"time_ms", &graph_opt::time_ms>>,
    opr_seq_kind,
    record_kind<"mem_alloc", mem_alloc, on_mem_alloc_event, field<"comp_node", &mem_alloc::comp_node>,
                field<"physical", &mem_alloc::physical>, field<"logical", &mem_alloc::logical>,
                field<"alloc_mib", &mem_alloc::alloc_mib>, field<"alloc_bytes", &mem_alloc::alloc_bytes>,
                field<"lower_bound_mib", &mem_alloc::lower_bound_mib>,
                field<"lower_bound_pct", &mem_alloc::lower_bound_pct>,
                field<"upper_bound_mib", &mem_alloc::upper_bound_mib>,
                field<"upper_bound_pct", &mem_alloc::upper_bound_pct>>,
    record_kind<"workspace_bound", workspace_bound, on_workspace_bound_event,
                field<"comp_node", &workspace_bound::comp_node>, field<"mib", &workspace_bound::mib>>,
    record_kind<"mem_alloc_stats", mem_alloc_stats, on_mem_alloc_stats_event, field<"nr_opr", &mem_alloc_stats::nr_opr>,
                field<"nr_var", &mem_alloc_stats::nr_var>, field<"realtime_ms", &mem_alloc_stats::realtime_ms>,
                field<"si_ms", &mem_alloc_stats::si_ms>, field<"mp_re_ms", &mem_alloc_stats::mp_re_ms>,
                field<"omp_ms", &mem_alloc_stats::omp_ms>, field<"alloc_ms", &mem_alloc_stats::alloc_ms>,
                field<"plan_ms", &mem_alloc_stats::plan_ms>>,
    record_kind<"static_storage", static_storage, on_static_storage_event, field<"comp_node", &static_storage::comp_node>,
                field<"size_mib", &static_storage::size_mib>, field<"addr_begin", &static_storage::addr_begin>,
                field<"addr_end", &static_storage::addr_end>>,
    record_kind<"lar_iteration", lar_iteration, on_lar_iteration_event, field<"iter", &lar_iteration::iter>,
                field<"iters", &lar_iteration::iters>, field<"time_ms", &lar_iteration::time_ms>,
                field<"exec_ms", &lar_iteration::exec_ms>, field<"device_ms", &lar_iteration::device_ms>>,
    record_kind<"lar_summary", lar_summary, on_lar_summary_event, field<"test", &lar_summary::test>,
                field<"time_ms", &lar_summary::time_ms>, field<"avg_ms", &lar_summary::avg_ms>,
                field<"sd_ms", &lar_summary::sd_ms>, field<"min_ms", &lar_summary::min_ms>,
                field<"max_ms", &lar_summary::max_ms>>,
    record_kind<"lar_warmup", lar_warmup, on_lar_warmup_event, field<"iter", &lar_warmup::iter>,
                field<"time_ms", &lar_warmup::time_ms>>,
    record_kind<"lar_phase", lar_phase, on_lar_phase_event, field<"phase", &lar_phase::phase>,
                field<"time_ms", &lar_phase::time_ms>>,
    record_kind<"lar_run", lar_run, on_lar_run_event, field<"test", &lar_run::test>,
                field<"testcases", &lar_run::testcases>, field<"iters", &lar_run::iters>,
                field<"output_vars", &lar_run::output_vars>>,
    text_kind, error_kind>;

namespace detail {

enum : std::uint32_t { normal = 0, var_shapes = 1, mem_table = 2 };

// The message patterns are written so that each byte decides the path (the regex engine's
// one-pass kind, its fastest) and run on the message after the level, so that their first
// bytes tell them apart; the header pattern (a level that may be absent before a free-form
// message) has a hand reader. What a one-pass pattern cannot say (a shape's grammar, a printf
// row whose cells may touch) is checked in the handlers, and a line that fails the check is
// `text` (or, for a row, an `error`).
#define LOGSCAN_MEGENGINE_NUM R"((\d+(?:\.\d+)?))"

template <class T>
T number_or(std::string_view s, T fallback) noexcept {
    const auto r = parse_number<T>(s);
    return r.ok() ? r.value : fallback;
}

template <class V>
struct state {
    V& vis;
    var_shape shape{};        // a var_shape record, its replica and dims read in place by the var-shape reader
    bool shape_read = false;  // (set by the reader, taken by the record)
    shape_memo shapes{};      // (the var-shape reader's: the shape of the line before)
    // the `text` record of a line (trailing spaces removed; blank lines yield nothing)
    flow text(const line& l) { return text_record(vis, l); }
    // `shape` with the replica and dims of this line: the reader's, when it read this very
    // text, else read now.
    var_shape& take_shape(std::string_view replica, std::string_view text) noexcept {
        if (!shape_read || shape.shape.brackets().data() != text.data()) {
            shape.shape = shape_dims(text);
            shape.replica = replica.empty() ? std::nullopt : std::optional<std::uint64_t>(number_or<std::uint64_t>(replica, 0));
        }
        shape_read = false;
        return shape;
    }
};

// Splits REST into level and message (formats.md: DBG, WRN, ERR, CRIT, CRITICAL): the level
// left null when none is printed (the record's level is then `INFO`).
constexpr void split_level(std::string_view rest, std::string_view& level, std::string_view& message) noexcept {
    message = rest;
    if (rest.size() < 4 || rest[0] < 'C' || rest[0] > 'W') return; // (most messages: no level word can begin them)
    const auto word = [&](std::string_view w) {
        if (rest.size() <= w.size() || rest[w.size()] != ' ' || rest.substr(0, w.size()) != w) return false;
        level = rest.substr(0, w.size());
        message = rest.substr(w.size() + 1);
        return true;
    };
    switch (rest[0]) {
    case 'D': (void)word("DBG"); break;
    case 'W': (void)word("WRN"); break;
    case 'E': (void)word("ERR"); break;
    case 'C': (void)(word("CRITICAL") || word("CRIT")); break;
    default: break;
    }
}

// The text of the allocation cell when nothing separates it from the comp node: the `%.2f`
// of bytes / 2^20, which touches the comp node only when it fills `%10.2f` (1,000,000 MiB or
// more: a shorter one is printed after a space, and `   gpu0:0   0196.00MiB(` is the comp
// node `gpu0:0` and `0196.00`). Splits `run` (comp node + allocation) and returns true, or false.
inline bool split_glued(std::string_view run, std::uint64_t bytes, std::string_view& comp, std::string_view& alloc) noexcept {
    if (run.size() <= 10) return false; // (A of 10 bytes or more and a comp node: what a cheaper look rules out)
    char buf[48];
    const auto r = std::to_chars(buf, buf + sizeof buf, static_cast<double>(bytes) / 1048576.0, std::chars_format::fixed, 2);
    if (r.ec != std::errc{}) return false;
    const std::string_view want(buf, static_cast<std::size_t>(r.ptr - buf));
    if (want.size() < 10 || run.size() <= want.size() || !run.ends_with(want)) return false;
    comp = run.substr(0, run.size() - want.size());
    alloc = run.substr(run.size() - want.size());
    return true;
}

// A comp node's physical and logical names: `CompNode("P" from "L")` (P and L without `"`),
// or the name itself and none.
constexpr void comp_names(std::string_view comp, std::string_view& physical, std::optional<std::string_view>& logical) noexcept {
    physical = comp;
    logical = std::nullopt;
    text_cursor c(comp);
    std::string_view p, l;
    if (c.literal("CompNode(\"") && c.until<"\"">(p) && c.literal("\" from \"") && c.until<"\"">(l) && c.literal("\")") &&
        c.at_end()) {
        physical = p;
        logical = l;
    }
}

// A memory-table row as the printf template prints it when every value fits its width
// (what nearly every row is): its last 74 columns, the allocation and what follows it, hold
// the literals at fixed places and each value right-aligned in its slot after spaces, read
// there in one pass; the comp node is what comes before them, trimmed, however wide (`%9s`
// pads `gpu0:0`; `CompNode("gpu0:0" from "xpux:0")` runs past it). True only for a row that
// the general reading (`read_row`) reads the same, and then fills `r`; false leaves it to
// that reading: a comp node that touches the allocation, a value wider than its slot, a
// `nan` percentage, a tab, trailing blanks.
inline bool read_row_template(const line& l, mem_alloc& r) noexcept {
    // ` %9.2fMiB(%10zubytes) %9.2fMiB(%6.2f%%) %9.2fMiB(%6.2f%%)` as the columns fall when no
    // value is wider than its field (the space: `%10.2f` of a value under 1,000,000 MiB)
    using tail = printf_row<" _____9.99" "MiB(" "_________9" "bytes)" "______9.99" "MiB(" "__9.99" "%)"
                            "______9.99" "MiB(" "__9.99" "%)">;
    const std::string_view t = l.text;
    if (t.size() <= tail::size) return false;
    const std::string_view row = t.substr(t.size() - tail::size);
    if (!tail::fits(row)) return false;
    const std::string_view comp = internal::trim(t.substr(0, t.size() - tail::size)); // (as read_row trims it)
    if (comp.empty() || comp.find("MiB(") != std::string_view::npos) return false;
    const auto mib = [](std::uint64_t cents) { return static_cast<double>(cents) / 100.0; }; // (exact: num.hpp's short decimals)
    r = mem_alloc{l.number,          comp,
                  comp,              std::nullopt,
                  mib(tail::digits<1, 10>(row)), tail::digits<14, 24>(row),
                  mib(tail::digits<30, 40>(row)), mib(tail::digits<44, 50>(row)),
                  mib(tail::digits<52, 62>(row)), mib(tail::digits<66, 72>(row))};
    comp_names(comp, r.physical, r.logical);
    return true;
}

// A number of a memory row (formats.md section 1): digits with an optional fraction (a
// leading `-` too when `minus`), or a non-finite number word (NaN, infinity).
constexpr bool row_value(std::string_view t, bool minus, double& v) noexcept {
    const char* const e = t.data() + t.size();
    if (!t.empty() && internal::is_digit(t[0]) && internal::short_decimal(t.data(), e, false, false, v) == e)
        return true; // (what nearly every value is: `196.00`, read in one pass)
    if (internal::non_finite_word(t, v)) return true;
    form_values f; // (`%f`'s grammar: `[-]digits[.digits]`)
    if ((!minus && t.starts_with('-')) || !scan_form(t, "%f", f)) return false;
    v = f.f[0];
    return true;
}

// The tail of a memory-table row from its third `MiB(` from the right, `MiB( *B bytes) *L
// MiB( *P%) *U MiB( *Q%)` (read_row's pattern, without its blanks), read in one pass: each
// value a run of bytes that are not a space, `(`, `)` or `%`, which ends where the pattern
// needs it to end (a run before `MiB(` ends with `MiB` and the `(` that ends the run; one
// before `%)` at the `%`), so the groups are the pattern's. Groups: whole text, B, L, P, U, Q.
inline constexpr fixed_string row_tail_pattern{R"(MiB\( *(\d+)bytes\) *([^ ()%]+)MiB\( *([^ ()%]+)%\) *([^ ()%]+)MiB\( *([^ ()%]+)%\))"};
constexpr bool read_row_tail(std::string_view t, std::array<std::string_view, 6>& g) noexcept {
    text_cursor c(t);
    const auto spaces = [&] {
        while (c.literal(" ")) {}
    };
    const auto value = [&](std::string_view& out, bool mib) { // ([^ ()%]+) then MiB\( or %\)
        std::string_view run;
        (void)c.until<" ()%">(run);
        if (mib) {
            if (run.size() < 4 || !run.ends_with("MiB") || !c.literal("(")) return false;
            out = run.substr(0, run.size() - 3);
            return true;
        }
        out = run;
        return !run.empty() && c.literal("%)");
    };
    if (!c.literal("MiB(")) return false;
    spaces();
    if (!c.digits(g[1]) || !c.literal("bytes)")) return false;
    spaces();
    if (!value(g[2], true)) return false;
    spaces();
    if (!value(g[3], false)) return false;
    spaces();
    if (!value(g[4], true)) return false;
    spaces();
    if (!value(g[5], false) || !c.at_end()) return false;
    g[0] = t;
    return true;
}

// A memory-table row, read from the right (formats.md section 1): the line ends with
// `AMiB(Bbytes)LMiB(P%)UMiB(Q%)`, spaces allowed before each number; the comp node is
// everything before A, trimmed (`%9s` never cuts: `CompNode("gpu0:0" from "xpu0:0")` runs
// past it); when A touches it (`gpu0:01234567.00`), A is the `%.2f` of B / 2^20. Returns false
// when the line is not a whole row (a comp node holding `MiB(`: a row cut off, then the next).
inline bool read_row(const line& l, mem_alloc& r) noexcept {
    const std::string_view t = internal::trim_right(l.text);
    std::size_t mib = internal::find_last(t, "MiB("); // (the third from the right starts the tail)
    for (int k = 0; k < 2 && mib != std::string_view::npos; ++k) mib = internal::find_last(t.substr(0, mib + 3), "MiB(");
    if (mib == std::string_view::npos) return false;
    const auto tail = assisted_match<row_tail_pattern>(t.substr(mib), read_row_tail);
    if (!tail) return false;
    auto [all, bytes_text, lo, lo_pct, up, up_pct] = tail;
    const auto bytes = parse_number<std::uint64_t>(bytes_text);
    double lo_v = 0, lo_p = 0, up_v = 0, up_p = 0, alloc_v = 0;
    if (!bytes.ok() || !row_value(lo, false, lo_v) || !row_value(lo_pct, true, lo_p) || !row_value(up, false, up_v) ||
        !row_value(up_pct, true, up_p))
        return false;
    const std::string_view head = t.substr(0, mib); // "   gpu0:0    196.00", "gpu0:01234567.00"
    const std::size_t sp = head.find_last_of(' ');
    const std::string_view run = sp == std::string_view::npos ? head : head.substr(sp + 1);
    std::string_view comp, alloc;
    if (!split_glued(run, bytes.value, comp, alloc)) { // (A touches the comp node: B tells where it ends)
        alloc = run;
        comp = head.substr(0, head.size() - run.size());
    } else {
        comp = head.substr(0, head.size() - alloc.size());
    }
    comp = internal::trim(comp);
    // (a comp node holding `MiB(` is a row cut off that runs into the next: not a whole row)
    if (comp.empty() || comp.find("MiB(") != std::string_view::npos || !row_value(alloc, false, alloc_v)) return false;
    // (field by field: g++ builds the record whole in a temporary, zeroed by `rep stos`, first)
    r.line = l.number;
    r.comp_node = r.physical = comp;
    r.logical = std::nullopt;
    r.alloc_mib = alloc_v;
    r.alloc_bytes = bytes.value;
    r.lower_bound_mib = lo_v;
    r.lower_bound_pct = lo_p;
    r.upper_bound_mib = up_v;
    r.upper_bound_pct = up_p;
    comp_names(comp, r.physical, r.logical);
    return true;
}

// A memory-table row: at its template's fixed places, else read in general. (With
// LOGSCAN_CHECK_ASSISTS, a row the template took is read in general too; a difference aborts.)
inline bool parse_row(const line& l, mem_alloc& r) noexcept {
    if (!read_row_template(l, r)) return read_row(l, r);
#ifdef LOGSCAN_CHECK_ASSISTS
    mem_alloc g{};
    if (!read_row(l, g) || g.comp_node.data() != r.comp_node.data() || g.comp_node.size() != r.comp_node.size() ||
        g.physical != r.physical || g.logical != r.logical ||
        g.alloc_mib != r.alloc_mib || g.alloc_bytes != r.alloc_bytes || g.lower_bound_mib != r.lower_bound_mib ||
        g.lower_bound_pct != r.lower_bound_pct || g.upper_bound_mib != r.upper_bound_mib || g.upper_bound_pct != r.upper_bound_pct) {
        std::fprintf(stderr, "logscan: the memory row template read a row otherwise: %.*s\n", static_cast<int>(l.text.size()),
                     l.text.data());
        std::abort();
    }
#endif
    return true;
}

// The memory table's header line, ` *comp_node +alloc +lower_bound +upper_bound *`, word by word
// (with LOGSCAN_CHECK_ASSISTS, against that pattern too; a difference aborts).
inline bool table_header(std::string_view t) noexcept {
    std::size_t i = 0;
    bool ok = true;
    for (const std::string_view w : {std::string_view("comp_node"), std::string_view("alloc"), std::string_view("lower_bound"),
                                     std::string_view("upper_bound")}) {
        const std::size_t gap = i;
        i += internal::leading_spaces(t.substr(i));
        if ((gap != 0 && i == gap) || t.substr(i, w.size()) != w) {
            ok = false;
            break;
        }
        i += w.size();
    }
    ok = ok && i + internal::leading_spaces(t.substr(i)) == t.size();
#ifdef LOGSCAN_CHECK_ASSISTS
    if (ok != static_cast<bool>(match<R"( *comp_node +alloc +lower_bound +upper_bound *)">(t))) {
        std::fprintf(stderr, "logscan: the memory table header reader read a line otherwise: %.*s\n", static_cast<int>(t.size()), t.data());
        std::abort();
    }
#endif
    return ok;
}

template <class V>
LOGSCAN_FORCE_INLINE flow var_shape_record(state<V>& st, const line& l, std::string_view var, std::string_view replica, std::string_view shape) {
    if constexpr (wants_any<V, on_var_shape_event>) { // (the dims parsed once, into the record)
        var_shape& r = st.take_shape(replica, shape);
        if (!r.shape.ok()) return st.text(l); // `(1,,2)`: not a shape
        r.line = l.number;
        r.var = var;
        return LOGSCAN_VISIT(st.vis, on_var_shape, std::as_const(r));
    } else {
        if (!st.take_shape(replica, shape).shape.ok()) return st.text(l);
        return flow::proceed;
    }
}

// A form-A header line, `[DD HH:MM:SS N@FILE:LOGGER] MESSAGE`, read in one pass: the
// header rule's reader (`read_by`: its false is final, as each variable part ends at a byte
// it cannot hold, so a form-B or form-C line costs it a few compares and no pattern run; see
// read_var_shape_line), for the line every record but
// the blocks' rows begins with. Groups: whole line, day, time, N, FILE, LOGGER, LEVEL (null
// when none is printed), MESSAGE (taken whole: a line holds no `\n`, all the pattern's `.*`
// excludes; null when nothing follows the bracket: the rules see lines without trailing
// blanks, so `[...] ` with an empty message arrives as `[...]`).
constexpr bool read_header_line(std::string_view t, std::array<std::string_view, 8>& g) noexcept {
    using internal::is_digit;
    const char* p = t.data();
    const char* const e = p + t.size();
    // (N's first digit first: a form-B line, whose FUNC is empty or not all digits, fails here)
    if (t.size() < 14 || !is_digit(t[13]) || !printf_row<"[99 99:99:99 ">::starts(t)) return false;
    g[1] = std::string_view(p + 1, 2);
    g[2] = std::string_view(p + 4, 8);
    p += 13;
    const char* const n = p;
    while (p != e && is_digit(*p)) ++p;
    if (p == n || p == e || *p != '@') return false;
    g[3] = std::string_view(n, static_cast<std::size_t>(p - n));
    const char* const file = ++p;
    p = internal::find_stop<":">(p, e); // [^:]*
    if (p == e) return false;
    g[4] = std::string_view(file, static_cast<std::size_t>(p - file));
    const char* const logger = ++p;
    p = internal::find_stop<"]">(p, e); // [^\]]*
    if (p == e || (e - p >= 2 && p[1] != ' ')) return false;
    g[5] = std::string_view(logger, static_cast<std::size_t>(p - logger));
    if (e - p >= 2) split_level(std::string_view(p + 2, static_cast<std::size_t>(e - (p + 2))), g[6], g[7]);
    g[0] = t;
    return true;
}

// `FpropEnv(ENV): start fprop VarNode(owner_opr=VAR{TYPE@0xADDR})`, read in one pass with
// text_cursor: the fprop_start rule's assisting reader (a message every fprop of a graph
// prints). Groups: whole message, ENV, VAR, TYPE, 0xADDR.
constexpr bool read_fprop_start(std::string_view t, std::array<std::string_view, 5>& g) noexcept {
    text_cursor c(t);
    std::string_view hex;
    if (!(c.literal("FpropEnv(") && c.until<")">(g[1]) && c.literal("): start fprop VarNode(owner_opr=") && c.until<"{}">(g[2]) &&
          c.literal("{") && c.until<"{}@">(g[3]) && c.literal("@")))
        return false;
    const char* const addr = c.rest_view().data();
    if (!(c.literal("0x") && c.hex_digits(hex) && c.literal("})") && c.at_end())) return false;
    g[4] = std::string_view(addr, static_cast<std::size_t>(hex.data() + hex.size() - addr));
    g[0] = t;
    return true;
}

// The messages most headers print, read in one pass with text_cursor: the readers of their
// rules (`read_by`: each implements its pattern whole, whose every variable part ends at a
// byte it cannot hold; groups as the pattern's: the whole message, then each group in order).
// `FpropEnv(ENV): shapes of var nodes:`
constexpr bool read_shapes_header(std::string_view t, std::array<std::string_view, 1>& g) noexcept {
    text_cursor c(t);
    std::string_view env;
    if (!(c.literal("FpropEnv(") && c.until<")">(env) && c.literal("): shapes of var nodes:") && c.at_end())) return false;
    g[0] = t;
    return true;
}
// `FpropEnv(ENV): var node shape: +VAR[@R]: (SHAPE)`
constexpr bool read_var_node_shape(std::string_view t, std::array<std::string_view, 4>& g) noexcept {
    text_cursor c(t);
    std::string_view skip;
    if (!(c.literal("FpropEnv(") && c.until<")">(skip) && c.literal("): var node shape: "))) return false;
    while (c.literal(" ")) {
    }
    if (!(c.until<"@: ">(g[1]) && !g[1].empty())) return false;
    if (c.literal("@") && !c.digits(g[2])) return false;
    if (!c.literal(": ")) return false;
    const char* const open = c.rest_view().data();
    if (!(c.literal("(") && c.until<"()">(skip) && c.literal(")") && c.at_end())) return false;
    g[3] = std::string_view(open, static_cast<std::size_t>(t.data() + t.size() - open));
    g[0] = t;
    return true;
}
// `graph optimization: applied N passes, total N var(s) replaced; time=T[ ]ms`
constexpr bool read_graph_opt(std::string_view t, std::array<std::string_view, 4>& g) noexcept {
    text_cursor c(t);
    if (!(c.literal("graph optimization: applied ") && c.digits(g[1]) && c.literal(" passes, total ") && c.digits(g[2]) &&
          c.literal(" var(s) replaced; time=") && c.decimal(g[3]) && (c.literal(" ms") || c.literal("ms")) && c.at_end()))
        return false;
    g[0] = t;
    return true;
}
// `opr seq of length N:REST` (REST all the rest: a message holds no `\n`, which the pattern's
// `.` would not take; a line has none)
constexpr bool read_opr_seq(std::string_view t, std::array<std::string_view, 3>& g) noexcept {
    text_cursor c(t);
    if (!(c.literal("opr seq of length ") && c.digits(g[1]) && c.literal(":"))) return false;
    g[2] = c.rest_view();
    g[0] = t;
    return true;
}
// `static memory allocation: nr_opr=N nr_var=N realtime=Tmsec[ ](planT allocT)` (newer
// releases): the rule's reader (`read_by`: the pattern is never run, nor compiled into the
// parser).
#define LOGSCAN_MEGENGINE_ALLOC_STATS                                                                        \
    R"(static memory allocation: nr_opr=(\d+) nr_var=(\d+) realtime=)" LOGSCAN_MEGENGINE_NUM R"(msec ?\(plan)" \
        LOGSCAN_MEGENGINE_NUM R"( alloc)" LOGSCAN_MEGENGINE_NUM R"(\))"
inline constexpr fixed_string alloc_stats_pattern{LOGSCAN_MEGENGINE_ALLOC_STATS}; // (for tests)
constexpr bool read_alloc_stats(std::string_view t, std::array<std::string_view, 6>& g) noexcept {
    text_cursor c(t);
    if (!(c.literal("static memory allocation: nr_opr=") && c.digits(g[1]) && c.literal(" nr_var=") && c.digits(g[2]) &&
          c.literal(" realtime=") && c.decimal(g[3]) && c.literal("msec") && (c.literal(" (plan") || c.literal("(plan")) &&
          c.decimal(g[4]) && c.literal(" alloc") && c.decimal(g[5]) && c.literal(")") && c.at_end()))
        return false;
    g[0] = t;
    return true;
}
// `static mem alloc: nr_opr=N nr_var=N realtime=Tmsec[ ](siT mp+reT ompT allocT)`
constexpr bool read_mem_alloc_stats(std::string_view t, std::array<std::string_view, 8>& g) noexcept {
    text_cursor c(t);
    if (!(c.literal("static mem alloc: nr_opr=") && c.digits(g[1]) && c.literal(" nr_var=") && c.digits(g[2]) &&
          c.literal(" realtime=") && c.decimal(g[3]) && c.literal("msec") && (c.literal(" (si") || c.literal("(si")) &&
          c.decimal(g[4]) && c.literal(" mp+re") && c.decimal(g[5]) && c.literal(" omp") && c.decimal(g[6]) &&
          c.literal(" alloc") && c.decimal(g[7]) && c.literal(")") && c.at_end()))
        return false;
    g[0] = t;
    return true;
}

// The header forms B and C (formats.md section 1), read in one pass: the assisting readers of
// their rules (`assisted`: a false hands the line to the pattern, which the backtracker ran on
// every such line, about 1300 instructions each). Groups as the patterns': whole line, then
// each group in order, a group that takes no part left null.
// B. `[DD HH:MM:SS FUNC@FILE:LINE][TAG] MESSAGE` or `[S.SSS FUNC@FILE:LINE] ...`: FUNC runs to
// the first `@` (no `]` in it, not all digits), FILE to the first `:` (no `]`), TAG one of
// ERR, WARN, DEBUG in any case.
constexpr bool read_cpp_header(std::string_view t, std::array<std::string_view, 9>& g) noexcept {
    using internal::is_digit;
    const char* p = t.data();
    const char* const e = p + t.size();
    const auto view = [](const char* b, const char* x) { return std::string_view(b, static_cast<std::size_t>(x - b)); };
    const auto digits = [&] { // \d+ at p (false: none)
        const char* const b = p;
        while (p != e && is_digit(*p)) ++p;
        return p != b;
    };
    if (p == e || *p != '[') return false;
    if (printf_row<"[99 99:99:99 ">::starts(t)) {
        g[1] = view(p + 1, p + 3);
        g[2] = view(p + 4, p + 12);
        p += 13;
    } else { // `S.SSS `
        const char* const b = ++p;
        if (!digits() || p == e || *p++ != '.' || !digits() || p == e || *p != ' ') return false;
        g[3] = view(b, p++);
    }
    const char* const func = p; // FUNC: to the first `@`, no `]`, not all digits
    p = internal::find_stop<"@]">(p, e);
    if (p == e || *p != '@') return false;
    bool digits_only = true;
    for (const char* q = func; q != p; ++q) digits_only = digits_only && is_digit(*q);
    if (digits_only && p != func) return false;
    g[4] = view(func, p);
    const char* const file = ++p; // FILE: to the first `:`, no `]`
    p = internal::find_stop<":]">(p, e);
    if (p == e || *p != ':') return false;
    g[5] = view(file, p);
    const char* const src = ++p;
    if (!digits() || p == e || *p != ']') return false;
    g[6] = view(src, p++);
    if (p != e && *p == '[') { // [TAG]: ERR, WARN or DEBUG in any case
        const char* const tag = ++p;
        p = internal::find_stop<"]">(p, e);
        if (p == e) return false;
        const std::string_view v = view(tag, p++);
        const auto is = [&](std::string_view w) {
            if (v.size() != w.size()) return false;
            for (std::size_t i = 0; i < w.size(); ++i)
                if ((v[i] | 0x20) != w[i]) return false;
            return true;
        };
        if (!(is("err") || is("warn") || is("debug"))) return false;
        g[7] = v;
    }
    if (p != e) {
        if (*p != ' ') return false;
        g[8] = view(p + 1, e);
    }
    g[0] = t;
    return true;
}
// C. `DD HH:MM:SS [LEVEL ]MESSAGE` or `DD HH:MM:SS[mgb] [LEVEL ]MESSAGE`, LEVEL one of DBG,
// WRN, ERR followed by a space.
constexpr bool read_console_header(std::string_view t, std::array<std::string_view, 6>& g) noexcept {
    if (!printf_row<"99 99:99:99">::starts(t)) return false;
    text_cursor c(t.substr(11));
    if (!c.literal(" ")) {
        if (!c.literal("[mgb] ")) return false;
        g[3] = t.substr(11, 5);
    }
    g[1] = t.substr(0, 2);
    g[2] = t.substr(3, 8);
    const std::string_view rest = c.rest_view();
    if (rest.size() >= 4 && rest[3] == ' ' &&
        (internal::begins_with(rest, "DBG") || internal::begins_with(rest, "WRN") || internal::begins_with(rest, "ERR"))) {
        g[4] = rest.substr(0, 3);
        g[5] = rest.substr(4);
    } else {
        g[5] = rest;
    }
    g[0] = t;
    return true;
}
// `static storage on COMP: size=X *MiB addr_range=[0xA, 0xB)[.]`: COMP (the pattern's greedy
// `(.*)`) up to the last `: size=`, when what follows it is the rest of the pattern (else the
// pattern decides: an earlier `: size=` may be the one); X a decimal or a word with an
// optional sign (`nan`, `-inf`), as the pattern's `(\d+(?:\.\d+)?|[-+]?[A-Za-z]+)`.
constexpr bool read_static_storage(std::string_view t, std::array<std::string_view, 5>& g) noexcept {
    constexpr std::string_view head = "static storage on ", size = ": size=";
    if (!t.starts_with(head)) return false;
    const std::size_t at = internal::find_last(t, size);
    if (at == std::string_view::npos || at < head.size()) return false;
    const std::string_view rest = t.substr(at + size.size());
    // ` *MiB addr_range=\[(0x[0-9a-fA-F]+), (0x[0-9a-fA-F]+)(?:\)\.?)?` after X, to the end
    const auto tail = [&](std::size_t x) {
        text_cursor c(rest.substr(x));
        std::string_view lo, hi;
        while (c.literal(" ")) {}
        if (!(c.literal("MiB addr_range=[0x") && c.hex_digits(lo) && c.literal(", 0x") && c.hex_digits(hi))) return false;
        if (!c.at_end() && !(c.literal(")") && (c.at_end() || (c.literal(".") && c.at_end())))) return false;
        g[3] = std::string_view(lo.data() - 2, lo.size() + 2);
        g[4] = std::string_view(hi.data() - 2, hi.size() + 2);
        return true;
    };
    std::size_t x = 0; // X's length
    if (!rest.empty() && internal::is_digit(rest[0])) {
        text_cursor c(rest);
        std::string_view d;
        (void)c.decimal(d);
        if (!tail(x = d.size())) return false;
    } else { // [-+]?[A-Za-z]+: the longest run the tail follows (a word that runs into `MiB` leaves it those letters)
        const std::size_t sign = rest.starts_with('-') || rest.starts_with('+') ? 1 : 0;
        x = sign;
        while (x < rest.size() && internal::is_alpha(rest[x])) ++x;
        if (x == sign) return false;
        if (!tail(x)) {
            if (x - sign <= 3 || !rest.substr(0, x).ends_with("MiB") || !tail(x -= 3)) return false;
        }
    }
    g[1] = t.substr(head.size(), at - head.size());
    g[2] = rest.substr(0, x);
    g[0] = t;
    return true;
}

// A var-shape block line, ` VAR[@R]: (d, d, ...)` (from VAR: its indent is set aside), read
// in one pass: the var-shape rule's
// fused reader (rules.hpp's `fused`), for the lines that are most of a log with shape blocks:
// read straight from the chunk, the end of the line found on the way. It fills the pattern's
// groups (whole line, var, replica or null, shape) and returns the line's end for a line it
// reads whole, null for any other (the pattern then decides: `(1,,2)` is the pattern's line,
// and `text`). The dims are parsed here, into the record `r` with its replica (`shape_read`
// then true): a well-formed list holds no parenthesis, so parsing it is the pattern's `[^()]*`
// check too.
constexpr const char* read_var_shape_line(const char* p, const char* const e, std::array<std::string_view, 4>& g,
                                          var_shape& r, bool& shape_read, shape_memo& shapes) noexcept {
    shape_read = false;
    r.replica = std::nullopt;
    bool replica_fits = true;
    const char* const line = p;
    const char* const var = p; // (the indent set aside: rule_options::trim_lines)
    p = internal::find_stop<"@: \n">(p, e); // [^@: ]+
    if (p == var) return nullptr;
    g[1] = std::string_view(var, static_cast<std::size_t>(p - var));
    if (p != e && *p == '@') { // (?:@(\d+))?
        const char* const d = ++p;
        std::uint64_t n = 0;
        while (p != e && internal::is_digit(*p)) n = n * 10u + internal::digit_value(*p++);
        if (p == d) return nullptr;
        g[2] = std::string_view(d, static_cast<std::size_t>(p - d));
        r.replica = n;
        replica_fits = p - d <= 19; // (longer: the record reads it again, with its overflow rule)
    }
    if (e - p < 4 || p[0] != ':' || p[1] != ' ' || p[2] != '(') return nullptr; // : (...)
    shape_list& shape = r.shape;
    shapes.assign(shape, p + 2, e); // (the line before's shape again: not parsed again)
    const char* const end = shape.ptr();
    if (!shape.ok() || (end != e && *end != '\n')) return nullptr;
    shape_read = replica_fits;
    g[3] = std::string_view(p + 2, static_cast<std::size_t>(end - (p + 2)));
    g[0] = std::string_view(line, static_cast<std::size_t>(end - line));
    return end;
}

// load_and_run's own lines (formats.md section 1), every generation's form as printf prints
// it, with where each value goes: the record's fields in order, each the index of a `%u`
// (integers) or `%f` (times) value, `unprinted` when the form does not print it.
enum class lar_kind : unsigned char { iteration, summary, warmup, phase, run };
inline constexpr signed char unprinted = -1, empty_text = -2; // (empty_text: output_vars `""`)
struct lar_form {
    std::string_view form;
    lar_kind kind;
    std::array<signed char, 6> at; // iteration: iter, iters, time, exec, device; summary: test,
                                   // time, avg, sd, min, max; warmup: iter, time; phase: -, time;
                                   // run: test, testcases, iters, output_vars (0: the `%s`)
    std::string_view phase{};      // (phase)
};
inline constexpr lar_form lar_forms[] = {
    {"iter %u/%u: %fms (exec=%f,device=%f)", lar_kind::iteration, {0, 1, 0, 1, 2}},           // until 1.6
    {"iter %u/%u: %fms (exec=%fms)", lar_kind::iteration, {0, 1, 0, 1, unprinted}},                // 1.7, 1.8
    {"iter %u/%u: %f ms (exec=%f ms)", lar_kind::iteration, {0, 1, 0, 1, unprinted}},              // 1.9
    {"iter %u/%u: e2e=%f ms (host=%f ms)", lar_kind::iteration, {0, 1, 0, 1, unprinted}},          // since 1.10
    {"run iter %u time %f ms", lar_kind::iteration, {0, unprinted, 0, unprinted, unprinted}},                // --fitting
    {"=== finished run #%u: time=%fms", lar_kind::iteration, {0, unprinted, 0, unprinted, unprinted}},       // no test cases, until 1.6
    {"%fms  %fms (device=%f)", lar_kind::iteration, {unprinted, unprinted, 0, 1, 2}},                   // --input data, 0.5
    {"=== finished test #%u: time=%fms avg_time=%fms sd=%fms minmax=%f,%f", lar_kind::summary, {0, 0, 1, 2, 3, 4}},
    {"=== finished test #%u: time=%fms avg_time=%fms sexec=%fms min=%fms max=%fms", lar_kind::summary, {0, 0, 1, 2, 3, 4}},
    {"=== finished test #%u: time=%f ms avg_time=%f ms sexec=%f ms min=%f ms max=%f ms", lar_kind::summary,
     {0, 0, 1, 2, 3, 4}},
    {"=== finished test #%u: time=%f ms avg_time=%f ms standard_deviation=%f ms min=%f ms max=%f ms", lar_kind::summary,
     {0, 0, 1, 2, 3, 4}},
    {"avg time: %fms", lar_kind::summary, {unprinted, unprinted, 0, unprinted, unprinted, unprinted}},
    {"warmup %u: %fms", lar_kind::warmup, {0, 0}},
    {"warm up %u  %fms", lar_kind::warmup, {0, 0}},
    {"warm up %u time %f ms", lar_kind::warmup, {0, 0}},
    {"load model: %fms", lar_kind::phase, {unprinted, 0}, "load"},
    {"=== prepare: %fms; going to warmup", lar_kind::phase, {unprinted, 0}, "prepare"},
    {"=== total time: %fms", lar_kind::phase, {unprinted, 0}, "total"},
    {"config model time %f ms", lar_kind::phase, {unprinted, 0}, "config"},
    {"=== going to run %u testcases; output vars: %s", lar_kind::run, {unprinted, 0, unprinted, 0}},
    {"=== going to run %u testcases; output vars:", lar_kind::run, {unprinted, 0, unprinted, empty_text}},
    {"=== going to run test #%u for %u times", lar_kind::run, {0, unprinted, 1, unprinted}},
    {"=== going to run input for %u times", lar_kind::run, {unprinted, unprinted, 0, unprinted}},
    {"=== going to run for %u times; output vars: %s", lar_kind::run, {unprinted, unprinted, 0, 0}},
    {"=== going to run for %u times; output vars:", lar_kind::run, {unprinted, unprinted, 0, empty_text}},
    {"run testcase: %u", lar_kind::run, {0, unprinted, unprinted, unprinted}},
};
// The forms of `lar_forms`, tried in order where a line's first byte can begin them.
inline constexpr form_list<std::size(lar_forms)> lar_form_list{[] {
    std::array<std::string_view, std::size(lar_forms)> forms{};
    for (std::size_t i = 0; i < forms.size(); ++i) forms[i] = lar_forms[i].form;
    return forms;
}()};

// The load_and_run record of `text` (a line that is no header line, or a header's message)
// when one of `lar_forms` fits all of it (`matched` then true), built only when wanted.
template <class V>
flow lar_record(state<V>& st, std::uint64_t number, std::string_view text, bool& matched) {
    matched = false;
    form_values v;
    const int which = lar_form_list.scan(text, v);
    if (which >= 0) {
        const lar_form& f = lar_forms[static_cast<std::size_t>(which)];
        matched = true;
        const auto& a = f.at;
        const auto u = [&](signed char i) { return i < 0 ? std::optional<std::uint64_t>() : std::optional<std::uint64_t>(v.u[i]); };
        const auto d = [&](signed char i) { return i < 0 ? std::optional<double>() : std::optional<double>(v.f[i]); };
        switch (f.kind) {
        case lar_kind::iteration:
            return LOGSCAN_VISIT_LAZY(st.vis, on_lar_iteration, lar_iteration,
                                      [&] { return lar_iteration{number, u(a[0]), u(a[1]), d(a[2]), d(a[3]), d(a[4])}; });
        case lar_kind::summary:
            return LOGSCAN_VISIT_LAZY(st.vis, on_lar_summary, lar_summary,
                                      [&] { return lar_summary{number, u(a[0]), d(a[1]), d(a[2]), d(a[3]), d(a[4]), d(a[5])}; });
        case lar_kind::warmup:
            return LOGSCAN_VISIT_LAZY(st.vis, on_lar_warmup, lar_warmup, [&] { return lar_warmup{number, v.u[0], v.f[0]}; });
        case lar_kind::phase:
            return LOGSCAN_VISIT_LAZY(st.vis, on_lar_phase, lar_phase, [&] { return lar_phase{number, f.phase, v.f[0]}; });
        case lar_kind::run:
            return LOGSCAN_VISIT_LAZY(st.vis, on_lar_run, lar_run, [&] {
                return lar_run{number, u(a[0]), u(a[1]), u(a[2]),
                               a[3] == unprinted ? std::optional<std::string_view>()
                                            : std::optional<std::string_view>(a[3] == empty_text ? std::string_view() : v.s)};
            });
        }
    }
    return flow::proceed;
}
// The lines that may be load_and_run's (what the lar rules' pattern lets through to
// lar_record): its words first, or a number (the 0.5 `Tms  Ems (device=D)` line).
#define LOGSCAN_MEGENGINE_LAR \
    R"((?:iter |run |=== |warm|load model: |config model time |avg time: |[-+]?(?:[0-9]|[nN][aA][nN]|[iI][nN][fF])).*)"
inline constexpr fixed_string lar_pattern{LOGSCAN_MEGENGINE_LAR}; // (for tests: the macro ends with this header)
// The same, read by hand (the lar rules' `read_by`: a line no other rule took would otherwise
// cost a backtracking run of the pattern's alternatives): one of its words, or an optional sign
// then a digit, `nan` or `inf` in any case; the rest is the pattern's `.*` (a line holds no
// `\n`). Group: the whole text.
constexpr bool read_lar_start(std::string_view t, std::array<std::string_view, 1>& g) noexcept {
    using internal::begins_with; // (each word's length known where it is compared: no memcmp call at -O2)
    bool ok = begins_with(t, "iter ") || begins_with(t, "run ") || begins_with(t, "=== ") || begins_with(t, "warm") ||
              begins_with(t, "load model: ") || begins_with(t, "config model time ") || begins_with(t, "avg time: ");
    if (!ok) {
        const std::size_t i = !t.empty() && (t[0] == '-' || t[0] == '+') ? 1 : 0;
        const auto word = [&](const char* w) { // (`| 0x20`: only the letter's two cases give it)
            return t.size() - i >= 3 && (t[i] | 0x20) == w[0] && (t[i + 1] | 0x20) == w[1] && (t[i + 2] | 0x20) == w[2];
        };
        ok = (i < t.size() && internal::is_digit(t[i])) || word("nan") || word("inf");
    }
    if (!ok) return false;
    g[0] = t;
    return true;
}

// Lines no rule takes: in a memory table, its rows (mem_alloc), its structural header (no
// record: tried after the row, which most lines are and which it cannot be, as it has no
// `MiB(`) and rows cut off (error); anything else is text.
template <class V>
struct fallback {
    state<V>* st;
    /// The modes in which it yields nothing (rules.hpp: their lines nobody's rule can take
    /// are passed over unread): outside a memory table it only yields text.
    static constexpr std::uint32_t idle_modes() noexcept {
        constexpr bool text = wants_any<V, on_text_event>;
        constexpr bool rows = text || wants_any<V, on_mem_alloc_event, on_error_event>;
        return (text ? 0u : (1u << normal) | (1u << var_shapes)) | (rows ? 0u : 1u << mem_table);
    }
    LOGSCAN_FORCE_INLINE flow operator()(const line& l, rule_context& ctx) const {
        if (ctx.mode == mem_table) return table_line(l);
        return st->text(l);
    }
    // A line no rule took inside a memory table: a row, the header again, a cut row, or text
    // (out of line: the other lines do not pay a row's frame).
    [[gnu::noinline]] flow table_line(const line& l) const {
        mem_alloc r;
        internal::reset_value(r); // (its `{}`, without `rep stos`)
        if (parse_row(l, r)) return LOGSCAN_VISIT(st->vis, on_mem_alloc, std::as_const(r));
        if (table_header(l.text)) return flow::proceed;
        const std::string_view t = internal::trim_right(l.text);
        if (t.find("MiB(") != std::string_view::npos) {
            const error e{error_code::syntax, l.number, t.size() + 1, l.offset + t.size(), "memory table row cut off", 0};
            return report_error(st->vis, e);
        }
        return st->text(l);
    }
};

// The `COMP=MIB` pairs of a `bounds(MiB):` list as MegEngine prints them (` gpu0:0=8397.50
// gpu0:COPY=7809.50 ...`: COMP without blanks, `=` or `"`, MIB digits with an optional
// fraction, the pairs apart by spaces): calls f(COMP, MIB) for each and returns true, or
// returns false at once, calling nothing, when `t` holds anything else (the pair pattern then
// reads it: on text of this form both give the same pairs, tests/formats/megengine_log.cpp).
template <class F>
constexpr bool plain_bounds(std::string_view t, F&& f) {
    const auto walk = [t](auto&& each) {
        std::size_t i = 0;
        const std::size_t n = t.size();
        while (i < n) {
            if (t[i] == ' ') {
                ++i;
                continue;
            }
            const std::size_t name = i;
            while (i < n && t[i] != '=' && t[i] != '"' && !internal::is_regex_space(t[i])) ++i;
            if (i == name || i == n || t[i] != '=') return false;
            const std::size_t value = ++i;
            while (i < n && internal::is_digit(t[i])) ++i;
            if (i == value) return false;
            if (i < n && t[i] == '.') {
                const std::size_t fraction = ++i;
                while (i < n && internal::is_digit(t[i])) ++i;
                if (i == fraction) return false;
            }
            if (i < n && t[i] != ' ') return false;
            each(t.substr(name, value - 1 - name), t.substr(value, i - value));
        }
        return true;
    };
    if (!walk([](std::string_view, std::string_view) {})) return false;
    walk(f);
    return true;
}

// What every header form does once its fields are read: ends any block, yields the `log`
// record (built only when wanted), then the workspace bounds of its message.
template <class V, class Make>
flow header_line(state<V>& st, rule_context& ctx, std::string_view message, Make&& make) {
    ctx.mode = normal; // a header line ends any block
    if (LOGSCAN_VISIT_LAZY(st.vis, on_log, log, make) == flow::stop) return flow::stop;
    if constexpr (requires { st.vis.on_workspace_bound(std::declval<const workspace_bound&>()); }) {
        constexpr std::string_view key = "bounds(MiB):";
        if (const std::size_t k = message.find(key); k != std::string_view::npos) {
            const std::string_view list = message.substr(k + key.size());
            flow f = flow::proceed;
            if (plain_bounds(list, [&](std::string_view comp, std::string_view v) {
                    double mib = 0;
                    if (f == flow::stop || !row_value(v, false, mib)) return;
                    f = LOGSCAN_VISIT(st.vis, on_workspace_bound, (workspace_bound{ctx.current.number, comp, mib}));
                }))
                return f;
            // a pair: COMP (`CompNode("P" from "L")`, or a run of non-spaces), `=`, MIB (a number of
            // digits and `.`, or a non-finite word)
            for (const auto& p : search_all<R"((CompNode\("[^"]*" from "[^"]*"\)|[^\s=]+)=(\d+(?:\.\d+)?|[-+]?[A-Za-z]+)(?:\s|$))">(list)) {
                double mib = 0;
                if (!row_value(p.template get<2>(), false, mib)) continue; // (a word that is no number: no pair)
                const workspace_bound b{ctx.current.number, p.template get<1>(), mib};
                if (LOGSCAN_VISIT(st.vis, on_workspace_bound, b) == flow::stop) return flow::stop;
            }
        }
    } else {
        static_assert(on_workspace_bound_event::template reject<V>());
    }
    return flow::proceed;
}

// A `log` record, built field by field: g++ -O3 zeroes one built whole (`log{...}`, a record of
// more than 64 bytes with null parts) with `rep stos` first, on every header line.
inline log make_log(std::uint64_t line, std::string_view form, std::optional<int> day, std::string_view time,
                    std::optional<std::string_view> func, std::optional<std::string_view> file,
                    std::optional<std::uint64_t> src_line, std::optional<std::string_view> logger, std::string_view level,
                    std::string_view message) noexcept {
    log r;
    r.line = line;
    r.form = form;
    r.day = day;
    r.time = time;
    r.func = func;
    r.file = file;
    r.src_line = src_line;
    r.logger = logger;
    r.level = level;
    r.message = message;
    return r;
}

// `DD` of a header (two digits: the patterns say so).
constexpr int two_digits(std::string_view dd) noexcept {
    return static_cast<int>(internal::digit_value(dd[0]) * 10 + internal::digit_value(dd[1]));
}
// A header's source line number (digits: the patterns say so; 0 beyond uint64_t, as number_or).
constexpr std::uint64_t source_line(std::string_view digits) noexcept {
    std::uint64_t n = 0;
    if (text_cursor c(digits); !c.unsigned_integer(n)) n = 0;
    return n;
}
inline constexpr std::string_view info = "INFO"; // (the level when none is printed)

// A rule runs only when the visitor wants what it yields (`when`): the matcher of a line
// whose record nobody wants never runs, and a block whose lines nobody wants is never
// entered (its lines are then `text`, which nobody wants either). The patterns of a mode
// exclude each other, so a rule left out never hands its lines to another.
// The rules see a line without its indent and trailing blanks (rule_options::trim_lines).
template <class V>
auto make_rules(state<V>& st) {
    constexpr bool shapes = wants_any<V, on_var_shape_event, on_text_event>;          // a shape, or text if it is none
    constexpr bool table = wants_any<V, on_mem_alloc_event, on_text_event, on_error_event>; // rows, text, rows cut off
    constexpr bool headers = shapes || table || // (a header line ends the blocks) or their records
                             wants_any<V, on_log_event, on_workspace_bound_event, on_fprop_start_event, on_graph_opt_event,
                                       on_opr_seq_event, on_mem_alloc_stats_event, on_static_storage_event,
                                       on_lar_iteration_event, on_lar_summary_event, on_lar_warmup_event,
                                       on_lar_phase_event, on_lar_run_event>;
    constexpr bool lar = wants_any<V, on_lar_iteration_event, on_lar_summary_event, on_lar_warmup_event, on_lar_phase_event,
                                   on_lar_run_event>;
    // The rules on a header's message, whatever the header's form: one set (one
    // instantiation of its matchers) given to each form's rule.
    const auto messages = [&] {
        return rule_set(
            rule<R"(FpropEnv\(([^)]*)\): start fprop VarNode\(owner_opr=([^{}]*)\{([^{}@]*)@(0x[0-9a-fA-F]+)\}\))",
                 "FpropEnv(val): start fprop VarNode(owner_opr=data{DataProvider@0x7f349a5c59e8})">(
                [&](const auto& m, rule_context& ctx) {
                    return LOGSCAN_VISIT_LAZY(st.vis, on_fprop_start, fprop_start, [&] {
                        auto [all, env, var, type, addr] = m;
                        return fprop_start{ctx.current.number, env, var, type, addr};
                    });
                })
                .read_by(read_fprop_start)
                .when(wants_any<V, on_fprop_start_event>),
            rule<R"(FpropEnv\([^)]*\): var node shape: +([^@: ]+)(?:@(\d+))?: (\([^()]*\)))",
                 "FpropEnv(val): var node shape:  data: (32, 3, 224, 224)">([&](const auto& m, rule_context& ctx) {
                auto [all, var, replica, shape] = m;
                return var_shape_record(st, ctx.whole(), var, replica, shape);
            })
                .read_by(read_var_node_shape)
                .when(shapes),
            rule<R"(FpropEnv\([^)]*\): shapes of var nodes:)">(
                [](const auto&, rule_context& ctx) { ctx.mode = var_shapes; })
                .read_by(read_shapes_header)
                .when(shapes),
            rule<R"(graph optimization: applied (\d+) passes, total (\d+) var\(s\) replaced; time=)" LOGSCAN_MEGENGINE_NUM R"( ?ms)",
                 "graph optimization: applied 8 passes, total 5757 var(s) replaced; time=74.64ms">(
                [&](const auto& m, rule_context& ctx) {
                    return LOGSCAN_VISIT_LAZY(st.vis, on_graph_opt, graph_opt, [&] {
                        auto [all, passes, replaced, time] = m;
                        return graph_opt{ctx.current.number, number_or<std::uint64_t>(passes, 0),
                                         number_or<std::uint64_t>(replaced, 0), number_or<double>(time, 0)};
                    });
                })
                .read_by(read_graph_opt)
                .when(wants_any<V, on_graph_opt_event>),
            rule<R"(opr seq of length (\d+):(.*))", "opr seq of length 804: var_static=533 no_sys_alloc=0">(
                [&](const auto& m, rule_context& ctx) {
                    // (a pair named as one of the record's own keys would be a second "type",
                    // "line" or "length" of it: not what MegEngine prints; the log record keeps the message)
                    const auto key = [](const auto& p) noexcept { return p.template get<1>(); };
                    if (keys_clash<opr_seq_kind>(opr_seq{0, 0, m.template get<2>()}.pairs(), key)) return flow::proceed;
                    return LOGSCAN_VISIT_LAZY(st.vis, on_opr_seq, opr_seq, [&] {
                        auto [all, length, params] = m;
                        return opr_seq{ctx.current.number, number_or<std::uint64_t>(length, 0), params};
                    });
                })
                .read_by(read_opr_seq)
                .when(wants_any<V, on_opr_seq_event>),
            rule<R"(static memory allocation:)">([](const auto&, rule_context& ctx) { ctx.mode = mem_table; })
                .read_by([](std::string_view t, std::array<std::string_view, 1>& g) {
                    g[0] = t;
                    return t == "static memory allocation:";
                })
                .when(table),
            rule<LOGSCAN_MEGENGINE_ALLOC_STATS, "static memory allocation: nr_opr=57 nr_var=83 realtime=1.25msec (plan0.94 alloc0.31)">(
                [&](const auto& m, rule_context& ctx) {
                    return LOGSCAN_VISIT_LAZY(st.vis, on_mem_alloc_stats, mem_alloc_stats, [&] {
                        auto [all, nr_opr, nr_var, real, plan, alloc] = m;
                        return mem_alloc_stats{ctx.current.number, number_or<std::uint64_t>(nr_opr, 0),
                                               number_or<std::uint64_t>(nr_var, 0), number_or<double>(real, 0),
                                               std::nullopt, std::nullopt, std::nullopt, number_or<double>(alloc, 0),
                                               number_or<double>(plan, 0)};
                    });
                })
                .read_by(read_alloc_stats)
                .when(wants_any<V, on_mem_alloc_stats_event>),
            rule<R"(static mem alloc: nr_opr=(\d+) nr_var=(\d+) realtime=)" LOGSCAN_MEGENGINE_NUM
                 R"(msec ?\(si)" LOGSCAN_MEGENGINE_NUM R"( mp\+re)" LOGSCAN_MEGENGINE_NUM R"( omp)" LOGSCAN_MEGENGINE_NUM
                 R"( alloc)" LOGSCAN_MEGENGINE_NUM R"(\))",
                 "static mem alloc: nr_opr=397 nr_var=533 realtime=26.04msec(si3.31 mp+re7.10 omp0.03 alloc15.60)">(
                [&](const auto& m, rule_context& ctx) {
                    return LOGSCAN_VISIT_LAZY(st.vis, on_mem_alloc_stats, mem_alloc_stats, [&] {
                        auto [all, nr_opr, nr_var, real, si, mp, omp, alloc] = m;
                        return mem_alloc_stats{ctx.current.number, number_or<std::uint64_t>(nr_opr, 0),
                                               number_or<std::uint64_t>(nr_var, 0), number_or<double>(real, 0),
                                               number_or<double>(si, 0), number_or<double>(mp, 0),
                                               number_or<double>(omp, 0), number_or<double>(alloc, 0), std::nullopt};
                    });
                })
                .read_by(read_mem_alloc_stats)
                .when(wants_any<V, on_mem_alloc_stats_event>),
            rule<R"(static storage on (.*): size=(\d+(?:\.\d+)?|[-+]?[A-Za-z]+) *MiB addr_range=\[(0x[0-9a-fA-F]+), )"
                 R"((0x[0-9a-fA-F]+)(?:\)\.?)?)",
                 "static storage on gpu3:0: size=12.50MiB addr_range=[0x7f2a4c000000, 0x7f2a4cc80000).">(
                [&](const auto& m, rule_context& ctx) {
                    double size = 0;
                    if (!row_value(m.template get<2>(), false, size)) return flow::proceed; // (no number: only the log)
                    return LOGSCAN_VISIT_LAZY(st.vis, on_static_storage, static_storage, [&] {
                        return static_storage{ctx.current.number, m.template get<1>(), size, m.template get<3>(),
                                              m.template get<4>()};
                    });
                })
                .assisted(read_static_storage)
                .when(wants_any<V, on_static_storage_event>),
            rule<LOGSCAN_MEGENGINE_LAR>([&](const auto& m, rule_context& ctx) { // (since 1.11 a message of the logger)
                bool matched = false;
                return lar_record(st, ctx.current.number, m.template get<0>(), matched);
            })
                .read_by(read_lar_start)
                .when(lar));
    };

    // A. Python file log: `[DD HH:MM:SS LINENO@FILE:LOGGER] [LEVEL ]MESSAGE`.
    auto file_form =
        rule<R"(\[(\d\d) (\d\d:\d\d:\d\d) (\d+)@([^:]*):([^\]]*)\](?: (?:(DBG|WRN|ERR|CRIT(?:ICAL)?) )?(.*))?)",
             "[06 15:13:35 330@env.py:meghair.train.env] WRN --fast-run not enabled; execution may be slow",
             "[06 15:13:36 272@(unknown file):megskull.graph.fprop] FpropEnv(val): shapes of var nodes:">(
            [&](const auto& m, rule_context& ctx) {
                const std::string_view message = m.template get<7>();
                return header_line(st, ctx, message, [&] { // (get<>: clang 14 cannot capture bindings)
                    const std::string_view printed = m.template get<6>();
                    return make_log(ctx.current.number, form_file, two_digits(m.template get<1>()), m.template get<2>(),
                               std::nullopt, m.template get<4>(), source_line(m.template get<3>()), m.template get<5>(),
                               printed.empty() ? info : printed, message);
                });
            })
            .read_by(read_header_line) // (its false is the pattern's: each variable part ends at a byte it cannot hold)
            .in_all_modes()
            .when(headers)
            .template then<7>(messages());
    // B. C++ log: `[DD HH:MM:SS FUNC@FILE:LINE][TAG] MESSAGE` or `[S.SSS FUNC@FILE:LINE] ...`;
    // FUNC possibly empty, never all digits (such a line is A's, or none); TAG in any case.
    auto cpp_form =
        rule<R"(\[(?:(\d\d) (\d\d:\d\d:\d\d)|(\d+\.\d+)) ((?:\d*[^\d@\]][^@\]]*)?)@([^:\]]*):(\d+)\])"
             R"((?:\[([Ee][Rr][Rr]|[Ww][Aa][Rr][Nn]|[Dd][Ee][Bb][Uu][Gg])\])?(?: (.*))?)",
             "[21 08:14:09 plan_storage@mem_planner.cpp:57][DEBUG] static memory allocation:",
             "[37.512 load_graph@graph_loader.cpp:210] loaded 118 operators",
             "[05 19:40:02 @:88][warn] fallback to default comp node">(
            [&](const auto& m, rule_context& ctx) {
                const std::string_view message = m.template get<8>();
                return header_line(st, ctx, message, [&] {
                    const std::string_view dd = m.template get<1>(), tag = m.template get<7>();
                    return make_log(ctx.current.number,
                               form_cpp,
                               dd.empty() ? std::optional<int>() : std::optional<int>(two_digits(dd)),
                               dd.empty() ? m.template get<3>() : m.template get<2>(),
                               m.template get<4>(),
                               m.template get<5>(),
                               source_line(m.template get<6>()),
                               std::nullopt,
                               tag.empty() ? info : tag,
                               message);
                });
            })
            .assisted(read_cpp_header)
            .in_all_modes()
            .when(headers)
            .template then<8>(messages());
    // C. Python console log: `DD HH:MM:SS [LEVEL ]MESSAGE` or `DD HH:MM:SS[mgb] [LEVEL ]MESSAGE`.
    auto console_form =
        rule<R"((\d\d) (\d\d:\d\d:\d\d)(?: |(\[mgb\]) )(?:(DBG|WRN|ERR) )?(.*))",
             "05 19:40:02 WRN checkpoint directory ./ckpt is empty", "05 19:40:03[mgb] ERR worker 3 lost connection">(
            [&](const auto& m, rule_context& ctx) {
                const std::string_view message = m.template get<5>();
                return header_line(st, ctx, message, [&] {
                    const std::string_view printed = m.template get<4>();
                    return make_log(ctx.current.number,
                               form_console,
                               two_digits(m.template get<1>()),
                               m.template get<2>(),
                               std::nullopt,
                               std::nullopt,
                               std::nullopt,
                               m.template get<3>().empty() ? std::optional<std::string_view>() : std::string_view("mgb"),
                               printed.empty() ? info : printed,
                               message);
                });
            })
            .assisted(read_console_header)
            .in_all_modes()
            .when(headers)
            .template then<5>(messages());

    // (the var-shape rule first: it applies in shape blocks only, where it takes nearly every
    // line straight from the chunk without a look at the header forms' first bytes; no header
    // line fits its pattern, which has no space before the `: (`)
    return rule_set(
        rule<R"(([^@: ]+)(?:@(\d+))?: (\([^()]*\)))", "data@0: (4, 3, 224, 224)", "loss: ()", "fc@1: (32,)">(
            [&](const auto& m, rule_context& ctx) LOGSCAN_INLINE_LAMBDA {
                auto [all, var, replica, shape] = m;
                return var_shape_record(st, ctx.whole(), var, replica, shape);
            })
            .fused([&st](const char* p, const char* e, std::array<std::string_view, 4>& g) {
                return read_var_shape_line(p, e, g, st.shape, st.shape_read, st.shapes);
            })
            .in_modes(1u << var_shapes)
            .when(shapes),
        std::move(file_form), std::move(cpp_form), std::move(console_form),
        // load_and_run's own lines (until 1.10 printed with printf): a line no form fits is
        // what it would be without this rule (the fallback's: a row, text)
        rule<LOGSCAN_MEGENGINE_LAR>([&](const auto&, rule_context& ctx) {
            bool matched = false;
            const flow f = lar_record(st, ctx.current.number, ctx.current.text, matched);
            return matched ? f : fallback<V>{&st}(ctx.whole(), ctx);
        })
            .read_by(read_lar_start)
            .in_all_modes()
            .when(lar || wants_any<V, on_text_event>)); // (its records, or text when a line is none of them)
}

#undef LOGSCAN_MEGENGINE_NUM
#undef LOGSCAN_MEGENGINE_LAR
#undef LOGSCAN_MEGENGINE_ALLOC_STATS

template <class V>
using rules_t = decltype(make_rules(std::declval<state<V>&>()));

} // namespace detail

namespace detail {

// The format's reader of lines (a line_parser core, format.hpp): the rules, with the blocks
// as their modes.
template <class Visitor>
class core {
    static_assert(records::accepts<Visitor>());

public:
    core(Visitor& vis, const format_options& o)
        : st_{vis}, reader_(make_rules(st_), fallback<Visitor>{&st_},
                            rule_options{.strip_ansi = true, .trim_lines = true, .strip_capacity = o.max_line}) {}
    flow read_line(const line& l) { return reader_.feed(l); }
    flow line_too_long(const error& e) { return report_error(st_.vis, e); }
    /// (line_parser: the var-shape lines of a block, read straight from the chunk)
    line_taken take_line(const char* p, const char* e, std::uint64_t number, std::uint64_t offset) {
        return reader_.take_line(p, e, number, offset);
    }
    /// (line_parser: the lines fed next hold no colour sequence to remove)
    void escape_free(bool free) noexcept { reader_.set_escape_free(free); }
    /// What carries state from line to line: the rules' mode (a block: shapes of var
    /// nodes, a memory table).
    auto readers() const noexcept { return std::tie(reader_); }
    /// Matcher runs so far (see `rule_reader::matcher_calls`).
    std::uint64_t matcher_calls() const noexcept { return reader_.matcher_calls(); }

private:
    state<Visitor> st_;
    rule_reader<rules_t<Visitor>, fallback<Visitor>> reader_;
};

} // namespace detail

/// The push parser (format.hpp's `line_parser`): `feed(chunk)` any number of times (chunks
/// may split lines anywhere), then `finish()`; `at_rest()` between lines outside a block.
/// Holds the visitor by reference. Not copyable or movable (the rules refer to its state).
template <class Visitor>
using parser = line_parser<detail::core<Visitor>>;

namespace detail {
// What a head line tells of the format: which header form it has (colour sequences and an
// indent allowed before it), and for form C whether something marks it as MegEngine's.
enum class head_kind { none, file, cpp, console_marked, console_plain };
constexpr head_kind head_line_kind(std::string_view l) noexcept {
    char buf[512] = {}; // (the line's first bytes, colour sequences removed: what is read of it)
    if (l.size() > sizeof buf) l = l.substr(0, sizeof buf);
    if (l.find('\x1b') != std::string_view::npos) l = std::string_view(buf, internal::strip_sgr(l, std::span<char>(buf)));
    while (l.starts_with(' ')) l.remove_prefix(1); // (an indent)
    if (match<R"(\[\d\d \d\d:\d\d:\d\d \d+@[^:]*:[^\]]*\].*)">(l)) return head_kind::file;
    if (match<R"(\[(\d\d \d\d:\d\d:\d\d|\d+\.\d+) (\d*[^\d@\]][^@\]]*)?@[^:\]]*:\d+\].*)">(l)) return head_kind::cpp;
    if (match<R"(\d\d \d\d:\d\d:\d\d(\[mgb\]|(\[mgb\])? (DBG|WRN|ERR)) .*)">(l)) return head_kind::console_marked;
    if (match<R"(\d\d \d\d:\d\d:\d\d .*)">(l)) return head_kind::console_plain;
    return head_kind::none;
}
} // namespace detail

/// What `detect` counts, in a few words (for `logscan detect --help`).
inline constexpr std::string_view detect_signals =
    "header lines `[DD HH:MM:SS N@FILE:LOGGER] ...`, `[DD HH:MM:SS FUNC@FILE:LINE] ...`, `DD HH:MM:SS[mgb] ...`, "
    "`DD HH:MM:SS WRN ...` (plain `DD HH:MM:SS ...` lines only beside those); colours and an indent allowed";

/// How much the first bytes of an input (`head`; `cut`: more input follows) look like a
/// megengine-log, counted over its first 64 lines (colour sequences and an indent allowed
/// before each):
/// - a form-A header `[DD HH:MM:SS N@FILE:LOGGER] ...` or a form-B header
///   `[DD HH:MM:SS FUNC@FILE:LINE] ...` / `[S.SSS FUNC@FILE:LINE] ...` counts 1: the bracket, the
///   `@` and the `:` are MegEngine's own;
/// - a form-C console line counts 1 when MegEngine marks it: `DD HH:MM:SS[mgb] ...`, or a
///   level word of its logger after the time (`DD HH:MM:SS WRN ...`, `DBG`, `ERR`);
/// - a plain `DD HH:MM:SS message` line is what many tools print: such lines count only when
///   at least one line of the kinds above is there too, so they alone never make an input a
///   megengine-log (0).
constexpr std::size_t detect(std::string_view head, bool cut = true) noexcept {
    std::size_t marked = 0, plain = 0;
    internal::for_each_head_line(head, cut, 64, [&](std::string_view l) {
        switch (detail::head_line_kind(l)) {
        case detail::head_kind::file:
        case detail::head_kind::cpp:
        case detail::head_kind::console_marked: ++marked; break;
        case detail::head_kind::console_plain: ++plain; break;
        case detail::head_kind::none: break;
        }
    });
    return marked == 0 ? 0 : marked + plain;
}

/// Where one input can be cut into parts parsed apart (`find_split`): between two header
/// lines (of any form), where the parser is at rest unless the first opened a block that
/// has no line.
constexpr bool split_point(std::string_view previous, std::string_view next) noexcept {
    return detail::head_line_kind(next) != detail::head_kind::none &&
           detail::head_line_kind(previous) != detail::head_kind::none;
}

/// The format's names (format.hpp's `LOGSCAN_FORMAT_MODULE`): `format`, `record_types` (formats.md
/// section 1, `text` and `error` included), `visitor<V>`, `parse` (`options.max_line`: the source's
/// error, `stopped`, or none; problems inside the input go to `on_error` and do not stop the parse)
/// and `ndjson_visitor<Writer>` (`"line"` after `"type"`; an `opr_seq`'s pairs as its own keys,
/// numbers as numbers).
LOGSCAN_FORMAT_MODULE(format_name, records, detect, detect_signals, parser, split_point);

} // namespace logscan::megengine_log

#endif // LOGSCAN_FORMATS_MEGENGINE_LOG_HPP_INCLUDED
