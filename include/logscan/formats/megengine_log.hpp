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
/// Header line: `[DD HH:MM:SS LINENO@FILE:LOGGER] REST`; FILE may hold spaces and
/// parentheses (`(unknown file)`) but no `:`, LOGGER no `]`. When REST starts with `DBG `,
/// `WRN `, `ERR `, `CRIT ` or `CRITICAL `, that word is the level and the message follows;
/// otherwise the level is `INFO` and the message is REST. ANSI SGR colour sequences are
/// removed from every line before it is interpreted; no record holds one.
///
/// Events (records are views into the current line, valid during the call; numbers are
/// parsed only when the callback that receives them exists):
/// \code
/// void on_log(const megengine_log::log&);                    // every header line
/// void on_fprop_start(const megengine_log::fprop_start&);    // FpropEnv(ENV): start fprop VarNode(owner_opr=VAR{TYPE@ADDR})
/// void on_var_shape(const megengine_log::var_shape&);        // "var node shape:" messages and the lines
///                                                            // after "shapes of var nodes:"
/// void on_graph_opt(const megengine_log::graph_opt&);        // graph optimization: applied P passes, ...
/// void on_opr_seq(const megengine_log::opr_seq&);            // opr seq of length L: k=v k=v ...
/// void on_mem_alloc(const megengine_log::mem_alloc&);        // each row of a "static memory allocation:" table
/// void on_workspace_bound(const megengine_log::workspace_bound&); // each COMP=MIB after "bounds(MiB):"
/// void on_mem_alloc_stats(const megengine_log::mem_alloc_stats&); // static mem alloc: nr_opr=..., or
///                                                            // static memory allocation: nr_opr=...
/// void on_text(const logscan::line&);                        // any other non-blank line, trailing spaces removed
/// void on_error(const logscan::error&);                      // a memory-table row cut off; a line too long
/// \endcode
/// A header line yields its `log` record first, then the record of its message, if any.
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
/// `"%9s%10.2fMiB(%10zubytes)%10.2fMiB(%6.2f%%)%10.2fMiB(%6.2f%%)"`: large values leave one
/// space between cells, or none; with none between the comp node and the allocation, the
/// allocation is the `%.2f` of the byte count in MiB, which tells where the comp node ends.
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

/// A header line: `[06 15:13:35 330@env.py:meghair.train.env] WRN --fast-run not enabled`.
struct log {
    std::uint64_t line;        ///< line number
    int day;                   ///< `06` -> 6
    std::string_view time;     ///< `15:13:35`
    std::uint64_t src_line;    ///< the source line number before `@`
    std::string_view file;     ///< `env.py`, `(unknown file)`
    std::string_view logger;   ///< `meghair.train.env`
    std::string_view level;    ///< `DBG`, `WRN`, `ERR`, `CRIT`, `CRITICAL`, or `INFO` when none is printed
    std::string_view message;  ///< the rest of the line after the level
};

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

/// `opr seq of length 804: var_static=533 var_dynamic_shape=0 ...`.
struct opr_seq {
    std::uint64_t line;      ///< line number
    std::uint64_t length;    ///< 804
    std::string_view params; ///< the `k=v k=v ...` text after the colon
    /// Every `k=v` pair of `params`, in order: `for (auto p : r.pairs())` with `p.get<1>()` the
    /// key and `p.get<2>()` the value text (`logscan::parse_number_value` makes it a number).
    auto pairs() const noexcept { return search_all<R"(([^\s=]+)=(\S*))">(params); }
};

/// A row of a static memory allocation table:
/// `   gpu0:0    196.00MiB( 205520896bytes)    196.00MiB(100.00%)    832.06MiB(424.52%)`.
struct mem_alloc {
    std::uint64_t line;      ///< line number
    std::string_view comp_node; ///< `gpu0:0`
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

LOGSCAN_EVENT(on_log, "void on_log(const logscan::megengine_log::log&)");
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

/// The format's records, described once (record.hpp): `record_types`, the visitor check,
/// `ndjson_visitor` come from here.
using records = record_list<
    record_kind<"log", log, on_log_event, field<"day", &log::day>, field<"time", &log::time>,
                field<"src_line", &log::src_line>, field<"file", &log::file>, field<"logger", &log::logger>,
                field<"level", &log::level>, field<"message", &log::message>>,
    record_kind<"fprop_start", fprop_start, on_fprop_start_event, field<"env", &fprop_start::env>,
                field<"var", &fprop_start::var>, field<"opr_type", &fprop_start::opr_type>,
                field<"addr", &fprop_start::addr>>,
    record_kind<"var_shape", var_shape, on_var_shape_event, field<"var", &var_shape::var>,
                field<"replica", &var_shape::replica>, field<"shape", &var_shape::shape>>,
    record_kind<"graph_opt", graph_opt, on_graph_opt_event, field<"passes", &graph_opt::passes>,
                field<"vars_replaced", &graph_opt::vars_replaced>, field<"time_ms", &graph_opt::time_ms>>,
    record_kind<"opr_seq", opr_seq, on_opr_seq_event, field<"length", &opr_seq::length>, entries<pairs_of>>,
    record_kind<"mem_alloc", mem_alloc, on_mem_alloc_event, field<"comp_node", &mem_alloc::comp_node>,
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
    text_kind, error_kind>;

/// The `"type"` of every record the format yields (formats.md section 1), `text` and `error` included.
inline constexpr const auto& record_types = records::types;

/// True when V has at least one of the format's callbacks (or derives from `validate_only`).
template <class V>
concept visitor = records::accepted_by<V>;

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
    for (std::string_view w : {std::string_view("DBG"), std::string_view("WRN"), std::string_view("ERR"),
                               std::string_view("CRITICAL"), std::string_view("CRIT")}) {
        if (rest.size() > w.size() && rest.starts_with(w) && rest[w.size()] == ' ') {
            level = rest.substr(0, w.size());
            message = rest.substr(w.size() + 1);
            return;
        }
    }
    message = rest;
}

// The text of the allocation cell when nothing separates it from the comp node: the `%.2f`
// of bytes / 2^20. Splits `run` (comp node + allocation) and returns true, or false.
inline bool split_glued(std::string_view run, std::uint64_t bytes, std::string_view& comp, std::string_view& alloc) noexcept {
    char buf[48];
    const auto r = std::to_chars(buf, buf + sizeof buf, static_cast<double>(bytes) / 1048576.0, std::chars_format::fixed, 2);
    if (r.ec != std::errc{}) return false;
    const std::string_view want(buf, static_cast<std::size_t>(r.ptr - buf));
    if (run.size() <= want.size() || !run.ends_with(want)) return false;
    comp = run.substr(0, run.size() - want.size());
    alloc = run.substr(run.size() - want.size());
    return true;
}

// The numbers of a row's tail that its reader converts as it reads them.
struct row_numbers {
    std::uint64_t bytes = 0;
    double lower = 0, upper = 0;
    bool read = false; // (false: the pattern matched instead; the groups are parsed)
};

// The part of a memory-table row from its first `MiB(`, read in one pass (the row pattern's
// assisting reader; see read_var_shape_line). Groups: whole text, bytes, lower bound, its
// percentage, upper bound, its percentage; the byte count and the two `%.2f` MiB values
// converted on the way into `n` (a `%.2f` is m / 100, exact as in num.hpp's short decimals;
// a longer one than 13 + 2 digits, or more than 19 digits of bytes, is left to the pattern).
constexpr bool read_row_tail(std::string_view t, std::array<std::string_view, 6>& g, row_numbers& n) noexcept {
    const char* p = t.data();
    const char* const e = p + t.size();
    using internal::digit_value;
    using internal::is_digit;
    n.read = false;
    const auto lit = [&](std::string_view s) {
        if (static_cast<std::size_t>(e - p) < s.size() || std::string_view(p, s.size()) != s) return false;
        p += s.size();
        return true;
    };
    const auto spaces = [&] {
        while (p != e && *p == ' ') ++p;
    };
    const auto mib = [&](std::string_view& v, double& x) { // \d+\.\d\d
        const char* const b = p;
        std::uint64_t m = 0;
        while (p != e && is_digit(*p)) m = m * 10u + digit_value(*p++);
        if (p == b || p - b > 13 || e - p < 3 || p[0] != '.' || !is_digit(p[1]) || !is_digit(p[2])) return false;
        x = static_cast<double>(m * 100u + digit_value(p[1]) * 10u + digit_value(p[2])) / 100.0;
        p += 3;
        v = std::string_view(b, static_cast<std::size_t>(p - b));
        return true;
    };
    const auto pct = [&](std::string_view& v) { // [^()%]*%\)
        const char* const b = p;
        while (p != e && *p != '%' && *p != '(' && *p != ')') ++p;
        if (e - p < 2 || p[0] != '%' || p[1] != ')') return false;
        v = std::string_view(b, static_cast<std::size_t>(p - b));
        p += 2;
        return true;
    };
    if (!lit("MiB(")) return false;
    spaces();
    const char* const b = p;
    std::uint64_t bytes = 0;
    while (p != e && is_digit(*p)) bytes = bytes * 10u + digit_value(*p++);
    if (p == b || p - b > 19) return false;
    g[1] = std::string_view(b, static_cast<std::size_t>(p - b));
    if (!lit("bytes)")) return false;
    spaces();
    if (!mib(g[2], n.lower) || !lit("MiB(") || !pct(g[3])) return false;
    spaces();
    if (!mib(g[4], n.upper) || !lit("MiB(") || !pct(g[5])) return false;
    spaces();
    if (p != e) return false;
    g[0] = t;
    n.bytes = bytes;
    n.read = true;
    return true;
}

// A memory-table row as the printf template prints it when every value fits its width
// (what nearly every row is): 83 columns, the literals at fixed places, each value
// right-aligned in its slot after spaces, read there in one pass. True only for a row that
// the general reading (`read_row`) reads the same, and then fills `r`; false leaves it to
// that reading: a comp node that fills its slot and touches the allocation, a value wider
// than its slot, a `nan` percentage, a tab.
inline bool read_row_template(const line& l, mem_alloc& r) noexcept {
    const std::string_view t = l.text;
    if (t.size() != 83 || t.compare(19, 4, "MiB(") != 0 || t.compare(33, 6, "bytes)") != 0 || t.compare(49, 4, "MiB(") != 0 ||
        t.compare(59, 2, "%)") != 0 || t.compare(71, 4, "MiB(") != 0 || t.compare(81, 2, "%)") != 0 || t[9] != ' ')
        return false;
    const char* const s = t.data();
    using internal::digit_value;
    using internal::is_digit;
    // slot [b, e): spaces, then `\d+` (`\d+\.\d\d` with `cents`) up to its end: m (cents: m / 100)
    // (the value accumulated in a local, stored once: a store per digit through `out` would
    // chain each digit to the previous one's store)
    const auto slot = [s](std::size_t b, std::size_t e, bool cents, std::uint64_t& out) {
        while (b < e && s[b] == ' ') ++b;
        const std::size_t digits = b, int_end = cents ? e - 3 : e;
        std::uint64_t m = 0;
        while (b < int_end && is_digit(s[b])) m = m * 10u + digit_value(s[b++]);
        if (b == digits || b != int_end) return false;
        if (cents) {
            if (s[b] != '.' || !is_digit(s[b + 1]) || !is_digit(s[b + 2])) return false;
            m = m * 100u + digit_value(s[b + 1]) * 10u + digit_value(s[b + 2]);
        }
        out = m;
        return true;
    };
    std::size_t c = 0; // the comp node: spaces, then a name without blanks (nor `MiB(`) up to the slot's end
    while (c < 9 && s[c] == ' ') ++c;
    const std::string_view comp(s + c, 9 - c);
    if (comp.empty() || comp.find_first_of(" \t") != std::string_view::npos || comp.find("MiB(") != std::string_view::npos)
        return false;
    std::uint64_t alloc = 0, bytes = 0, lo = 0, lo_pct = 0, up = 0, up_pct = 0;
    if (!slot(9, 19, true, alloc) || !slot(23, 33, false, bytes) || !slot(39, 49, true, lo) || !slot(53, 59, true, lo_pct) ||
        !slot(61, 71, true, up) || !slot(75, 81, true, up_pct))
        return false;
    const auto mib = [](std::uint64_t cents) { return static_cast<double>(cents) / 100.0; }; // (exact: num.hpp's short decimals)
    r = mem_alloc{l.number, comp, mib(alloc), bytes, mib(lo), mib(lo_pct), mib(up), mib(up_pct)};
    return true;
}

// A memory-table row. `%9s%10.2fMiB(`: the comp node and the allocation before the first
// `MiB(` (separated by spaces, or by nothing: the byte count then says where); the rest by
// a one-pass pattern. Returns false when the line is not a whole row.
inline bool read_row(const line& l, mem_alloc& r) noexcept {
    const std::string_view t = l.text;
    const std::size_t mib = t.find("MiB(");
    if (mib == std::string_view::npos) return false;
    row_numbers n;
    const auto tail = assisted_match<R"(MiB\( *(\d+)bytes\) *(\d+\.\d\d)MiB\(([^()%]*)%\) *(\d+\.\d\d)MiB\(([^()%]*)%\) *)">(
        t.substr(mib), [&n](std::string_view text, std::array<std::string_view, 6>& g) { return read_row_tail(text, g, n); });
    if (!tail) return false;
    auto [all, bytes, lo, lo_pct, up, up_pct] = tail;
    if (!n.read) { // (the pattern's groups)
        const auto b = parse_number<std::uint64_t>(bytes);
        const auto lo_v = parse_number<double>(lo);
        const auto up_v = parse_number<double>(up);
        if (!b.ok() || !lo_v.ok() || !up_v.ok()) return false;
        n = {b.value, lo_v.value, up_v.value, true};
    }
    const auto lo_p = parse_number<double>(internal::trim(lo_pct));
    const auto up_p = parse_number<double>(internal::trim(up_pct));
    if (!lo_p.ok() || !up_p.ok()) return false;
    const std::string_view head = internal::trim(t.substr(0, mib)); // "gpu0:0    196.00" or "gpu0:COPY1234567.00"
    std::string_view comp, alloc;
    if (const std::size_t sp = head.find_last_of(" \t"); sp != std::string_view::npos) {
        comp = internal::trim(head.substr(0, sp));
        alloc = head.substr(sp + 1);
        if (comp.find_first_of(" \t") != std::string_view::npos) return false;
    } else if (!split_glued(head, n.bytes, comp, alloc)) {
        return false;
    }
    text_cursor c(alloc); // `\d+\.\d\d`
    std::string_view whole, cents;
    if (comp.empty() || !(c.digits(whole) && c.literal(".") && c.digits(cents) && cents.size() == 2 && c.at_end()))
        return false;
    r = mem_alloc{l.number, comp, parse_number<double>(alloc).value, n.bytes, n.lower, lo_p.value, n.upper, up_p.value};
    return true;
}

// A memory-table row: at its template's fixed places, else read in general. (With
// LOGSCAN_CHECK_ASSISTS, a row the template took is read in general too; a difference aborts.)
inline bool parse_row(const line& l, mem_alloc& r) noexcept {
    if (!read_row_template(l, r)) return read_row(l, r);
#ifdef LOGSCAN_CHECK_ASSISTS
    mem_alloc g{};
    if (!read_row(l, g) || g.comp_node.data() != r.comp_node.data() || g.comp_node.size() != r.comp_node.size() ||
        g.alloc_mib != r.alloc_mib || g.alloc_bytes != r.alloc_bytes || g.lower_bound_mib != r.lower_bound_mib ||
        g.lower_bound_pct != r.lower_bound_pct || g.upper_bound_mib != r.upper_bound_mib || g.upper_bound_pct != r.upper_bound_pct) {
        std::fprintf(stderr, "logscan: the memory row template read a row otherwise: %.*s\n", static_cast<int>(l.text.size()),
                     l.text.data());
        std::abort();
    }
#endif
    return true;
}

template <class V>
flow var_shape_record(state<V>& st, const line& l, std::string_view var, std::string_view replica, std::string_view shape) {
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

// A header line, `[DD HH:MM:SS N@FILE:LOGGER] MESSAGE`, read in one pass: the header rule's
// assisting reader (see read_var_shape_line), for the line every record but the blocks'
// rows begins with. Groups: whole line, day, time, N, FILE, LOGGER, LEVEL (null when none is
// printed), MESSAGE (taken whole: a line holds no `\n`, all the pattern's `.*` excludes).
constexpr bool read_header_line(std::string_view t, std::array<std::string_view, 8>& g) noexcept {
    using internal::is_digit;
    const char* p = t.data();
    const char* const e = p + t.size();
    if (e - p < 13 || !internal::fits_template(p, "[99 99:99:99 ")) return false;
    g[1] = std::string_view(p + 1, 2);
    g[2] = std::string_view(p + 4, 8);
    p += 13;
    const char* const n = p;
    while (p != e && is_digit(*p)) ++p;
    if (p == n || p == e || *p != '@') return false;
    g[3] = std::string_view(n, static_cast<std::size_t>(p - n));
    const char* const file = ++p;
    while (p != e && *p != ':') ++p; // [^:]*
    if (p == e) return false;
    g[4] = std::string_view(file, static_cast<std::size_t>(p - file));
    const char* const logger = ++p;
    while (p != e && *p != ']') ++p; // [^\]]*
    if (e - p < 2 || p[1] != ' ') return false;
    g[5] = std::string_view(logger, static_cast<std::size_t>(p - logger));
    split_level(std::string_view(p + 2, static_cast<std::size_t>(e - (p + 2))), g[6], g[7]);
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

// A var-shape block line, ` VAR[@R]: (d, d, ...)`, read in one pass: the var-shape rule's
// fused reader (rules.hpp's `fused`), for the lines that are most of a log with shape blocks:
// read straight from the chunk, the end of the line found on the way. It fills the pattern's
// groups (whole line, var, replica or null, shape) and returns the line's end for a line it
// reads whole, null for any other (the pattern then decides: `(1,,2)` is the pattern's line,
// and `text`). The dims are parsed here, into the record `r` with its replica (`shape_read`
// then true): a well-formed list holds no parenthesis, so parsing it is the pattern's `[^()]*`
// check too.
constexpr const char* read_var_shape_line(const char* p, const char* const e, std::array<std::string_view, 4>& g,
                                          var_shape& r, bool& shape_read) noexcept {
    shape_read = false;
    r.replica = std::nullopt;
    bool replica_fits = true;
    const char* const line = p;
    if (p == e || *p != ' ') return nullptr;
    const char* const var = ++p;
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
    shape.assign(p + 2, e);
    const char* const end = shape.ptr();
    if (!shape.ok() || (end != e && *end != '\n')) return nullptr;
    shape_read = replica_fits;
    g[3] = std::string_view(p + 2, static_cast<std::size_t>(end - (p + 2)));
    g[0] = std::string_view(line, static_cast<std::size_t>(end - line));
    return end;
}

// A rule runs only when the visitor wants what it yields (`when`): the matcher of a line
// whose record nobody wants never runs, and a block whose lines nobody wants is never
// entered (its lines are then `text`, which nobody wants either). The patterns of a mode
// exclude each other, so a rule left out never hands its lines to another.
template <class V>
auto make_rules(state<V>& st) {
    constexpr bool shapes = wants_any<V, on_var_shape_event, on_text_event>;          // a shape, or text if it is none
    constexpr bool table = wants_any<V, on_mem_alloc_event, on_text_event, on_error_event>; // rows, text, rows cut off
    auto header = rule<R"(\[(\d\d) (\d\d:\d\d:\d\d) (\d+)@([^:]*):([^\]]*)\] (?:(DBG|WRN|ERR|CRIT(?:ICAL)?) )?(.*))",
                       "[06 15:13:35 330@env.py:meghair.train.env] WRN --fast-run not enabled; execution may be slow",
                       "[06 15:13:36 272@(unknown file):megskull.graph.fprop] FpropEnv(val): shapes of var nodes:">(
        [&](const auto& m, rule_context& ctx) {
            ctx.mode = normal; // a header line ends any block
            const std::string_view printed = m.template get<6>();
            const std::string_view level = printed.empty() ? std::string_view("INFO") : printed;
            const std::string_view message = m.template get<7>();
            if (LOGSCAN_VISIT_LAZY(st.vis, on_log, log, [&] { // (get<>: clang 14 cannot capture bindings)
                    const std::string_view dd = m.template get<1>(); // (two digits: the pattern says so)
                    std::uint64_t src_line = 0;                      // (0 beyond uint64_t, as number_or)
                    if (text_cursor c(m.template get<3>()); !c.unsigned_integer(src_line)) src_line = 0;
                    return log{ctx.current.number, static_cast<int>(internal::digit_value(dd[0]) * 10 + internal::digit_value(dd[1])),
                               m.template get<2>(), src_line, m.template get<4>(), m.template get<5>(), level, message};
                }) == flow::stop)
                return flow::stop;
            if constexpr (requires { st.vis.on_workspace_bound(std::declval<const workspace_bound&>()); }) {
                constexpr std::string_view key = "bounds(MiB):";
                if (const std::size_t k = message.find(key); k != std::string_view::npos) {
                    for (const auto& p : search_all<R"(([^\s=]+)=(\d+(?:\.\d+)?)(?:\s|$))">(message.substr(k + key.size()))) {
                        const workspace_bound b{ctx.current.number, p.template get<1>(), number_or<double>(p.template get<2>(), 0)};
                        if (LOGSCAN_VISIT(st.vis, on_workspace_bound, b) == flow::stop) return flow::stop;
                    }
                }
            } else {
                static_assert(on_workspace_bound_event::template reject<V>());
            }
            return flow::proceed;
        })
        .assisted(read_header_line)
        .in_all_modes()
        .when(shapes || table || // (it ends the blocks) or its records
              wants_any<V, on_log_event, on_workspace_bound_event, on_fprop_start_event, on_graph_opt_event,
                        on_opr_seq_event, on_mem_alloc_stats_event>)
        .template then<7>( // (on the message: the level, if printed, is group 6)
            rule<R"(FpropEnv\(([^)]*)\): start fprop VarNode\(owner_opr=([^{}]*)\{([^{}@]*)@(0x[0-9a-fA-F]+)\}\))",
                 "FpropEnv(val): start fprop VarNode(owner_opr=data{DataProvider@0x7f349a5c59e8})">(
                [&](const auto& m, rule_context& ctx) {
                    return LOGSCAN_VISIT_LAZY(st.vis, on_fprop_start, fprop_start, [&] {
                        auto [all, env, var, type, addr] = m;
                        return fprop_start{ctx.current.number, env, var, type, addr};
                    });
                })
                .assisted(read_fprop_start)
                .when(wants_any<V, on_fprop_start_event>),
            rule<R"(FpropEnv\([^)]*\): var node shape: +([^@: ]+)(?:@(\d+))?: (\([^()]*\)))",
                 "FpropEnv(val): var node shape:  data: (32, 3, 224, 224)">([&](const auto& m, rule_context& ctx) {
                auto [all, var, replica, shape] = m;
                return var_shape_record(st, ctx.current, var, replica, shape);
            }).when(shapes),
            rule<R"(FpropEnv\([^)]*\): shapes of var nodes:)">(
                [](const auto&, rule_context& ctx) { ctx.mode = var_shapes; })
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
                .when(wants_any<V, on_graph_opt_event>),
            rule<R"(opr seq of length (\d+):(.*))", "opr seq of length 804: var_static=533 no_sys_alloc=0">(
                [&](const auto& m, rule_context& ctx) {
                    return LOGSCAN_VISIT_LAZY(st.vis, on_opr_seq, opr_seq, [&] {
                        auto [all, length, params] = m;
                        return opr_seq{ctx.current.number, number_or<std::uint64_t>(length, 0), params};
                    });
                })
                .when(wants_any<V, on_opr_seq_event>),
            rule<R"(static memory allocation:)">([](const auto&, rule_context& ctx) { ctx.mode = mem_table; })
                .when(table),
            rule<R"(static memory allocation: nr_opr=(\d+) nr_var=(\d+) realtime=)" LOGSCAN_MEGENGINE_NUM
                 R"(msec ?\(plan)" LOGSCAN_MEGENGINE_NUM R"( alloc)" LOGSCAN_MEGENGINE_NUM R"(\))",
                 "static memory allocation: nr_opr=57 nr_var=83 realtime=1.25msec (plan0.94 alloc0.31)">(
                [&](const auto& m, rule_context& ctx) {
                    return LOGSCAN_VISIT_LAZY(st.vis, on_mem_alloc_stats, mem_alloc_stats, [&] {
                        auto [all, nr_opr, nr_var, real, plan, alloc] = m;
                        return mem_alloc_stats{ctx.current.number, number_or<std::uint64_t>(nr_opr, 0),
                                               number_or<std::uint64_t>(nr_var, 0), number_or<double>(real, 0),
                                               std::nullopt, std::nullopt, std::nullopt, number_or<double>(alloc, 0),
                                               number_or<double>(plan, 0)};
                    });
                })
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
                .when(wants_any<V, on_mem_alloc_stats_event>));

    return rule_set(
        std::move(header),
        rule<R"( ([^@: ]+)(?:@(\d+))?: (\([^()]*\)))", " data@0: (4, 3, 224, 224)", " loss: ()", " fc@1: (32,)">(
            [&](const auto& m, rule_context& ctx) {
                auto [all, var, replica, shape] = m;
                return var_shape_record(st, ctx.current, var, replica, shape);
            })
            .fused([&st](const char* p, const char* e, std::array<std::string_view, 4>& g) {
                return read_var_shape_line(p, e, g, st.shape, st.shape_read);
            })
            .in_modes(1u << var_shapes)
            .when(shapes));
}

#undef LOGSCAN_MEGENGINE_NUM

// Lines no rule takes: in a memory table, its rows (mem_alloc), its structural header (no
// record: tried after the row, which most lines are and which it cannot be, as it has no
// `MiB(`) and rows cut off (error); anything else is text.
template <class V>
struct fallback {
    state<V>* st;
    flow operator()(const line& l, rule_context& ctx) const {
        if (ctx.mode == mem_table) {
            mem_alloc r{};
            if (parse_row(l, r)) return LOGSCAN_VISIT(st->vis, on_mem_alloc, std::as_const(r));
            if (match<R"( *comp_node +alloc +lower_bound +upper_bound *)">(l.text)) return flow::proceed;
            const std::string_view t = internal::trim_right(l.text);
            if (t.find("MiB(") != std::string_view::npos) {
                const error e{error_code::syntax, l.number, t.size() + 1, l.offset + t.size(), "memory table row cut off", 0};
                return report_error(st->vis, e);
            }
        }
        return st->text(l);
    }
};

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
                            rule_options{.strip_ansi = true, .strip_capacity = o.max_line}) {}
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

/// The visitor that writes every record as formats.md's NDJSON through an `ndjson_writer`
/// (`"type"`, `"line"`, then the fields in the contract's order; an `opr_seq`'s pairs as its
/// own keys, numbers as numbers): `records`'s.
template <class Writer>
using ndjson_visitor = records::ndjson<Writer>;

namespace detail {
// `[DD HH:MM:SS N@FILE:LOGGER] ...`, colour sequences allowed before and inside.
constexpr bool is_header_line(std::string_view l) noexcept {
    while (l.starts_with("\x1b[")) { // leading SGR sequences: `ESC [ params m`
        const std::size_t m = l.find('m');
        if (m == std::string_view::npos) return false;
        l.remove_prefix(m + 1);
    }
    return static_cast<bool>(match<R"(\[\d\d \d\d:\d\d:\d\d \d+@[^:]*:[^\]]*\].*)">(l));
}
} // namespace detail

/// What `detect` counts, in a few words (for `logscan detect --help`).
inline constexpr std::string_view detect_signals = "`[DD HH:MM:SS N@FILE:LOGGER] ...` lines (colours allowed)";

/// How much the first bytes of an input (`head`; `cut`: more input follows) look like a
/// megengine-log: the number of header lines `[DD HH:MM:SS N@FILE:LOGGER] ...` (colour
/// sequences allowed before and inside) among its first 64 lines; 0 when there is none.
constexpr std::size_t detect(std::string_view head, bool cut = true) noexcept {
    std::size_t score = 0;
    internal::for_each_head_line(head, cut, 64, [&](std::string_view l) {
        if (detail::is_header_line(l)) ++score;
    });
    return score;
}

/// Where one input can be cut into parts parsed apart (`find_split`): between two header
/// lines, where the parser is at rest unless the first opened a block that has no line.
constexpr bool split_point(std::string_view previous, std::string_view next) noexcept {
    return detail::is_header_line(next) && detail::is_header_line(previous);
}

/// `parse(source, vis, options)` reads a whole source (`file_source`, `fd_source`,
/// `memory_source`, ...), `parse(text, vis, options)` a buffer in memory (format.hpp's
/// `format_parse`; `options.max_line`): the source's error, `stopped`, or none; problems
/// inside the input go to `on_error` and do not stop the parse.
inline constexpr format_parse<parser> parse{};

/// The format as generic code sees it (format.hpp's `format_entry`; formats/registry.hpp).
using format = format_entry<format_name, records, detect, detect_signals, parser, split_point>;

} // namespace logscan::megengine_log

#endif // LOGSCAN_FORMATS_MEGENGINE_LOG_HPP_INCLUDED
