// SPDX-License-Identifier: MIT
/// \file formats/tvm_profile.hpp
/// The `tvm-profile` format: the report TVM's VM profiler prints (`vm.profile(...)`, the
/// record contract is formats.md, section 5). Built from the toolkit's parts only: line
/// framing, line rules for the report's own lines and `aligned_table` for its rows.
///
/// \code
/// #include <logscan/formats/tvm_profile.hpp>            // (also in the umbrella <logscan.hpp>)
/// struct kernels {                                       // every callback is optional
///     std::string_view model;                            // (copy it if you keep it: views die with the line)
///     void on_run(const logscan::tvm_profile::run& r) { remember(r.model); }
///     void on_call(const logscan::tvm_profile::call& c) { use(c.name, c.duration_us().value_or(0)); }
/// };
/// kernels v;
/// logscan::file_source src("profile.txt");
/// logscan::error e = logscan::tvm_profile::parse(src, v);
/// // or, for your own I/O: logscan::tvm_profile::parser<kernels> p(v); p.feed(chunk); ...; p.finish();
/// \endcode
///
/// Events (records are views into the current line, valid during the call):
/// \code
/// void on_run(const tvm_profile::run&);             // Evaluate vm inference cost of MODEL on DEVICE
/// void on_mean_time(const tvm_profile::mean_time&); // Mean vm inference time (std dev): X ms (Y ms)
/// void on_call(const tvm_profile::call&);           // each row of a report table
/// void on_total(const tvm_profile::total&);         // each row after the table's dashes (Sum, Total)
/// void on_config(const tvm_profile::config&);       // each KEY: VALUE of a Configuration block
/// void on_text(const logscan::line&);               // any other non-blank line, trailing spaces removed
/// void on_error(const logscan::error&);             // a line too long; a header with too many columns
/// \endcode
///
/// The report table starts at a header line that begins with `Name` and holds
/// `Duration (us)` (up to 64 columns and 16 KiB of header). Columns are separated by two or
/// more spaces; `Name` is left-aligned at column 0, every other column right-aligned to its
/// header's right edge (TVM pads by bytes): a cell belongs to the column whose header ends
/// where the cell ends. Before the dashes line, a line with no cell past `Name` (a debug
/// print, a row cut off) is `text` and the rows go on; the dashes start the footer (`Sum`,
/// `Total`); a line that is not a row, a blank line or a second dashes line ends the table.
/// `Configuration` followed by a dashes line opens a block of `KEY: VALUE` lines (KEY: a
/// letter, then letters, digits, spaces, `_`, `-`) that ends at a blank line or at the first
/// other line, which is then read as usual. The table's header and dashes lines and the
/// `Configuration` heading and its dashes are structure: they yield no record.
///
/// Cells: `Duration (us)`, `Percent`, `Count` and every `perf::` column are numeric (`,`
/// thousands separators allowed, `numeric_column`); every other cell is text, even when it
/// looks like a number (a `Hash` may be all digits). Empty cells are absent.
///
/// Allocation: the parser allocates its carry buffer once, at construction; the table
/// reader keeps the header in a fixed buffer inside the parser; nothing while parsing.
#ifndef LOGSCAN_FORMATS_TVM_PROFILE_HPP_INCLUDED
#define LOGSCAN_FORMATS_TVM_PROFILE_HPP_INCLUDED

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "../format.hpp" // (config, error, lines, source, visit, num, record, ndjson)
#include "../regex.hpp"
#include "../rules.hpp"
#include "../table.hpp"

namespace logscan::tvm_profile {

/// The format's name, as the command line and `detect` know it.
inline constexpr std::string_view format_name = "tvm-profile";

/// `Evaluate vm inference cost of resnet18 on cpu(0)`: a report begins.
struct run {
    std::uint64_t line;      ///< line number
    std::string_view model;  ///< `resnet18`
    std::string_view device; ///< `cpu(0)`
};

/// `Mean vm inference time (std dev): 13.13 ms (1.80 ms)`.
struct mean_time {
    std::uint64_t line; ///< line number
    double mean_ms;     ///< 13.13
    double std_ms;      ///< 1.8
};

/// True for the columns whose cells are numbers: `Duration (us)`, `Percent`, `Count` and
/// every column whose name starts with `perf::`.
constexpr bool numeric_column(std::string_view name) noexcept {
    return name == "Duration (us)" || name == "Percent" || name == "Count" || name.starts_with("perf::");
}

/// What a report row (`call`) and a footer row (`total`) share: the cells under the header.
struct report_row {
    std::uint64_t line;              ///< line number
    std::span<const cell> cells;     ///< cells[i] under columns[i] (cells[0]: the name); empty ones are blank
    std::span<const cell> columns;   ///< the report's header: columns[i].text() is the name
    std::size_t duration_column;     ///< index of `Duration (us)`, or column_lookup::npos
    std::size_t percent_column;      ///< index of `Percent`, or npos
    std::size_t count_column;        ///< index of `Count`, or npos
    std::size_t device_column;       ///< index of `Device`, or npos

    /// The trimmed text of column i, empty when the row has no cell there.
    constexpr std::string_view text(std::size_t i) const noexcept { return i < cells.size() ? cells[i].text() : std::string_view{}; }
    /// The trimmed text of the column named `name` (a linear search: look the index up once
    /// with `columns` for a hot loop), empty when absent.
    constexpr std::string_view text(std::string_view name) const noexcept { return text(column_lookup::index_of(columns, name)); }
    /// Column i as a number (thousands separators allowed); none when empty or not a number.
    constexpr std::optional<double> number(std::size_t i) const noexcept {
        const std::string_view t = text(i);
        if (t.empty()) return std::nullopt;
        const auto r = parse_grouped<double>(t);
        return r.ok() ? std::optional<double>(r.value) : std::nullopt;
    }
    /// `Duration (us)`: the time of the call(s) in microseconds.
    constexpr std::optional<double> duration_us() const noexcept { return number(duration_column); }
    /// `Percent`: its share of the total.
    constexpr std::optional<double> percent() const noexcept { return number(percent_column); }
    /// `Count`: the number of calls.
    constexpr std::optional<std::uint64_t> count() const noexcept {
        const std::string_view t = text(count_column);
        const auto r = parse_grouped<std::uint64_t>(t);
        return !t.empty() && r.ok() ? std::optional<std::uint64_t>(r.value) : std::nullopt;
    }
    /// `Device`: `cpu0`, `cuda0`, ...; empty when the row has none.
    constexpr std::string_view device() const noexcept { return text(device_column); }
};

/// A row of a report table: a fused kernel or a VM instruction.
struct call : report_row {
    std::string_view name; ///< `vm_mod_fused_nn_contrib_conv2d_NCHWc_add_nn_relu_1`, `VM::AllocStorage`
};

/// A row after the table's dashes line.
struct total : report_row {
    std::string_view kind; ///< `Sum`, `Total`
};

/// A `KEY: VALUE` line of a Configuration block: `Number of threads: 32`.
struct config {
    std::uint64_t line;     ///< line number
    std::string_view key;   ///< `Number of threads`
    std::string_view value; ///< `32`
};

LOGSCAN_EVENT(on_run, "void on_run(const logscan::tvm_profile::run&)");
LOGSCAN_EVENT(on_mean_time, "void on_mean_time(const logscan::tvm_profile::mean_time&)");
LOGSCAN_EVENT(on_call, "void on_call(const logscan::tvm_profile::call&)");
LOGSCAN_EVENT(on_total, "void on_total(const logscan::tvm_profile::total&)");
LOGSCAN_EVENT(on_config, "void on_config(const logscan::tvm_profile::config&)");

/// The cells of a report row under their columns' names, empty ones left out, numeric
/// columns (`numeric_column`) as numbers: the `cells` field of `call` and `total`.
struct report_cells {
    const report_row& row; ///< the row
    /// Calls `f(column name, value)` for each non-empty cell after the name, in order.
    template <class F>
    constexpr void for_each_entry(F&& f) const {
        for_each_named_cell(row.cells, row.columns, [&](std::string_view name, std::string_view t) {
            if (numeric_column(name)) f(name, loose_number{t, true});
            else f(name, t);
        });
    }
};
/// A row's `cells` field.
constexpr report_cells cells_of(const report_row& r) noexcept { return {r}; }

/// The format's records, described once (record.hpp): `record_types`, the visitor check,
/// `ndjson_visitor` come from here.
using records = record_list<
    record_kind<"run", run, on_run_event, field<"model", &run::model>, field<"device", &run::device>>,
    record_kind<"mean_time", mean_time, on_mean_time_event, field<"mean_ms", &mean_time::mean_ms>,
                field<"std_ms", &mean_time::std_ms>>,
    record_kind<"call", call, on_call_event, field<"name", &call::name>, field<"cells", cells_of>>,
    record_kind<"total", total, on_total_event, field<"kind", &total::kind>, field<"cells", cells_of>>,
    record_kind<"config", config, on_config_event, field<"key", &config::key>, field<"value", &config::value>>,
    text_kind, error_kind>;

/// The `"type"` of every record the format yields (formats.md section 5), `text` and `error` included.
inline constexpr const auto& record_types = records::types;

/// True when V has at least one of the format's callbacks (or derives from `validate_only`).
template <class V>
concept visitor = records::accepted_by<V>;

namespace detail {

inline constexpr std::size_t max_columns = 64;
inline constexpr std::size_t header_capacity = 16384;

template <class V>
struct state {
    V& vis;
    // the current report's column indices
    std::size_t duration = column_lookup::npos, percent = column_lookup::npos, count = column_lookup::npos,
                device = column_lookup::npos;
    // a Configuration block: its heading (known to be one only at the next line), then its lines
    enum class block : unsigned char { none, heading, config } in_block = block::none;
    line heading{};

    // outside a Configuration block (the table and the rules answer for themselves)
    bool at_rest() const noexcept { return in_block == block::none; }
    // the `text` record of a line (trailing spaces removed; blank lines yield nothing)
    flow text(const line& l) { return text_record(vis, l); }

    // the aligned_table's events
    void on_table_header(const table_header& h) noexcept {
        duration = h.index_of("Duration (us)");
        percent = h.index_of("Percent");
        count = h.index_of("Count");
        device = h.index_of("Device");
    }
    flow on_table_row(const table_row& r) {
        const report_row base{r.line, r.cells, r.header, duration, percent, count, device};
        const std::string_view first = r.cells[0].text();
        if (r.footer) {
            const total t{base, first};
            return LOGSCAN_VISIT(vis, on_total, t);
        }
        const call c{base, first};
        return LOGSCAN_VISIT(vis, on_call, c);
    }
    flow on_table_text(const line& l) { return text(l); }
    flow on_error(const error& e) { return report_error(vis, e); }
};

template <class V>
using table_t = aligned_table<state<V>, max_columns, header_capacity>;

// A rule runs only when the visitor wants what it yields (`when`, rules.hpp), or the text its
// lines would otherwise be: the report table is not even started for a visitor that wants
// none of its rows, notes or errors.
template <class V>
auto make_rules(state<V>& st, table_t<V>& table) {
    return rule_set(
        rule<R"(Evaluate vm inference cost of (\S+) on (\S+) *)", "Evaluate vm inference cost of resnet18 on cpu(0)">(
            [&](const auto& m, rule_context& ctx) {
                return LOGSCAN_VISIT_LAZY(st.vis, on_run, run, [&] {
                    return run{ctx.current.number, m.template get<1>(), m.template get<2>()};
                });
            })
            .when(wants_any<V, on_run_event, on_text_event>),
        rule<R"(Mean [^:]* time \(std dev\): (\d+(?:\.\d+)?) ms \((\d+(?:\.\d+)?) ms\) *)",
             "Mean vm inference time (std dev): 13.13 ms (1.80 ms)">([&](const auto& m, rule_context& ctx) {
            return LOGSCAN_VISIT_LAZY(st.vis, on_mean_time, mean_time, [&] {
                return mean_time{ctx.current.number, parse_number<double>(m.template get<1>()).value,
                                 parse_number<double>(m.template get<2>()).value};
            });
        }).when(wants_any<V, on_mean_time_event, on_text_event>),
        // (`Name.*` and a find: `Name.*Duration \(us\).*` would not run one-pass)
        rule<R"(Name.*)", "Name          Duration (us)  Percent  Device  Count  ">(
            [&st, &table](const auto&, rule_context& ctx) {
                if (ctx.current.text.find("Duration (us)") == std::string_view::npos) return st.text(ctx.current);
                const table_feed f = table.start(ctx.current);
                if (f == table_feed::stop) return flow::stop;
                if (f == table_feed::not_mine) return st.text(ctx.current); // reported: too wide
                return flow::proceed;
            })
            .when(wants_any<V, on_call_event, on_total_event, on_text_event, on_error_event>),
        rule<R"(Configuration *)">([&st](const auto&, rule_context& ctx) { // its text is known: keep the number only
            st.in_block = state<V>::block::heading;
            st.heading = line{"Configuration", ctx.current.number, ctx.current.offset};
        }).when(wants_any<V, on_config_event, on_text_event>));
}

template <class V>
struct fallback {
    state<V>* st;
    flow operator()(const line& l) const { return st->text(l); }
};

template <class V>
using rules_t = decltype(make_rules(std::declval<state<V>&>(), std::declval<table_t<V>&>()));

} // namespace detail

namespace detail {

// The format's reader of lines (a line_parser core, format.hpp): a Configuration block
// first, then the report table, then the rules.
template <class Visitor>
class core {
    static_assert(records::accepts<Visitor>());
    using block = typename state<Visitor>::block;

public:
    core(Visitor& vis, const format_options&) : st_{vis}, table_(st_), rules_(make_rules(st_, table_), fallback<Visitor>{&st_}) {}

    // One line: a Configuration block first (a heading is known to be one only at the next
    // line), then the tables and the rules.
    flow read_line(const line& l) {
        const std::string_view t = internal::trim_right(l.text);
        if (st_.in_block == block::heading) {
            st_.in_block = block::none;
            if (internal::is_dash_line(t)) {
                st_.in_block = block::config;
                return flow::proceed;
            }
            if (st_.text(st_.heading) == flow::stop) return flow::stop;
        }
        if (st_.in_block == block::config) {
            if (t.empty()) {
                st_.in_block = block::none;
                return flow::proceed;
            }
            if (const auto m = match<R"(([A-Za-z][A-Za-z0-9 _-]*): (.*))">(t)) {
                return LOGSCAN_VISIT_LAZY(st_.vis, on_config, config, [&] {
                    return config{l.number, m.template get<1>(), m.template get<2>()};
                });
            }
            st_.in_block = block::none;
        }
        if (table_.active()) { // before the dashes a line that is no row is text, and the rows go on
            switch (table_.feed(l)) {
            case table_feed::consumed: return flow::proceed;
            case table_feed::stop: return flow::stop;
            default: break; // the table ended: the line is read as usual
            }
        }
        return rules_.feed(l);
    }

    // A line too long: not the dashes a heading needs, not KEY: VALUE.
    flow line_too_long(const error& e) {
        if (flush_heading() == flow::stop) return flow::stop;
        st_.in_block = block::none;
        return report_error(st_.vis, e);
    }
    flow finish() {
        if (flush_heading() == flow::stop) return flow::stop;
        st_.in_block = block::none;
        return table_.finish();
    }
    /// What carries state from line to line: a Configuration block, the report table, the
    /// rules' mode.
    auto readers() const noexcept { return std::tie(st_, table_, rules_); }

private:
    // A held `Configuration` heading not followed by dashes is text.
    flow flush_heading() {
        if (st_.in_block != block::heading) return flow::proceed;
        st_.in_block = block::none;
        return st_.text(st_.heading);
    }

    state<Visitor> st_;
    table_t<Visitor> table_;
    rule_reader<rules_t<Visitor>, fallback<Visitor>> rules_;
};

} // namespace detail

/// The push parser (format.hpp's `line_parser`): `feed(chunk)` any number of times (chunks
/// may split lines anywhere), then `finish()`; `at_rest()` between lines outside a report
/// table and a Configuration block. Holds the visitor by reference. Not copyable or movable.
template <class Visitor>
using parser = line_parser<detail::core<Visitor>>;

/// The visitor that writes every record as formats.md's NDJSON through an `ndjson_writer`
/// (`"type"`, `"line"`, then the fields in the contract's order; `cells` keyed by the
/// header's column names in their order, numeric columns as numbers): `records`'s.
template <class Writer>
using ndjson_visitor = records::ndjson<Writer>;

/// What `detect` counts, in a few words (for `logscan detect --help`).
inline constexpr std::string_view detect_signals = "`Evaluate vm inference cost of ...`, `Mean ... time (std dev)`, `Name ... Duration (us)`";

/// How much the first bytes of an input (`head`; `cut`: more input follows) look like a
/// tvm-profile: the number of `Evaluate vm inference cost of ...`, `Mean ... time (std
/// dev): ...` and report header (`Name ... Duration (us) ...`) lines among its first 64
/// lines; 0 when there is none.
constexpr std::size_t detect(std::string_view head, bool cut = true) noexcept {
    std::size_t score = 0;
    internal::for_each_head_line(head, cut, 64, [&](std::string_view l) {
        if (l.starts_with("Evaluate vm inference cost of ") || (l.starts_with("Mean ") && l.find(" time (std dev): ") != std::string_view::npos) ||
            (l.starts_with("Name ") && l.find("  Duration (us)") != std::string_view::npos))
            ++score;
    });
    return score;
}

/// Where one input can be cut into parts parsed apart (`find_split`): before a report's
/// `Evaluate vm inference cost of ...` line, where the previous report has ended.
constexpr bool split_point(std::string_view, std::string_view next) noexcept {
    return next.starts_with("Evaluate vm inference cost of ");
}

/// `parse(source, vis, options)` reads a whole source (`file_source`, `fd_source`,
/// `memory_source`, ...), `parse(text, vis, options)` a buffer in memory (format.hpp's
/// `format_parse`; `options.max_line`): the source's error, `stopped`, or none; problems
/// inside the input go to `on_error` and do not stop the parse.
inline constexpr format_parse<parser> parse{};

/// The format as generic code sees it (format.hpp's `format_entry`; formats/registry.hpp).
using format = format_entry<format_name, records, detect, detect_signals, parser, split_point>;

} // namespace logscan::tvm_profile

#endif // LOGSCAN_FORMATS_TVM_PROFILE_HPP_INCLUDED
