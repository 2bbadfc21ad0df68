// SPDX-License-Identifier: MIT
/// \file formats/tvm_profile.hpp
/// The `tvm-profile` format: the reports TVM's profilers print as text (formats.md, section
/// 5): the VM / Relax VM report (`vm.profile(...)`), the graph debug executor's table
/// (`tvm.contrib.debugger`) and the original Relay VM profiler's tab-separated table. Built
/// from the toolkit's parts: line framing, line rules for the report's own lines,
/// `aligned_table` for the report's rows, and two small readers for the other tables.
/// A `Report.json()` document (an input whose first non-blank byte is `{`) is read as a
/// stream by the JSON projection (json_project.hpp): each call, device and configuration
/// entry as it completes.
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
/// void on_call(const tvm_profile::call&);           // each row of a report, graph debug or VM table (`form` says which);
///                                                   // each element of a document's `calls`
/// void on_total(const tvm_profile::total&);         // Sum, Total after a report's dashes; Total_time; Total Duration;
///                                                   // each entry of a document's `device_metrics`
/// void on_config(const tvm_profile::config&);       // each KEY: VALUE of a Configuration block; each entry of a
///                                                   // document's `configuration`
/// void on_text(const logscan::line&);               // any other non-blank line, trailing spaces removed
/// void on_error(const logscan::error&);             // a line too long; a header with too many columns; where a
///                                                   // document breaks (`error::document`; nothing after it)
/// \endcode
///
/// A document's records (`form == table_form::json`, `line` 0) hold the object's compact text
/// in `metrics`; `cells` gives every metric but `Name` with its type wrapper removed
/// (`{"microseconds":734.25}` -> 734.25; a number as `loose_number`, `null` as nullptr, a
/// string, object or array as `json_text`); `name`/`kind` are the `Name` metric, `device_entry`
/// the device's key; a `config`'s `json` keeps the value's JSON type. Non-finite words
/// (`-nan`, `inf`, any case) are `null`. Views point into the parser's scratch buffer
/// (`format_options::scratch_capacity`, 64 KiB: a larger object is an `error` record, and
/// the parse goes on).
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
/// thousands separators allowed, `numeric_column`; a non-finite one null); every other cell
/// is text, even when it looks like a number (a `Hash` may be all digits). Empty cells are
/// absent.
///
/// The graph debug executor's table: a header whose cells (split at two or more spaces)
/// begin with `Node Name` and include `Ops`, held until the next line shows its dash runs,
/// one starting at each header cell; rows are cut at those column starts (code points; the
/// table may be indented); a row with an empty cell, or a blank line, ends the table; a
/// `Total_time` row is a `total`. `Time(us)`, `Time(%)`, `Inputs`, `Outputs` are numbers,
/// `Shape` a tuple of integers (`(1, 32, 28, 28)`), `Measurements(us)` a list of numbers; a
/// `-` cell is absent. The original VM table: a `#OpName<TAB>...` header (its keys without
/// the `#`), rows of as many tab-separated cells, a number a number and `a/b/c/d` four
/// numbers; it ends at its `Total Duration X us` / `Total Duration: X us.<TAB>Total Packed
/// Functions: N` line (a `total`), or at a run, mean-time or table header line. `duration_us()`
/// reads `Time(us)` and the Sum of `Sum/Mean/Min/Max` in those tables.
///
/// Allocation: the parser allocates its carry buffer once, at construction; the table
/// reader keeps the header in a fixed buffer inside the parser; nothing while parsing.
#ifndef LOGSCAN_FORMATS_TVM_PROFILE_HPP_INCLUDED
#define LOGSCAN_FORMATS_TVM_PROFILE_HPP_INCLUDED

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "../format.hpp" // (config, error, lines, source, visit, num, record, ndjson)
#include "../json_project.hpp"
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
    return name == "Duration (us)" || name == "Percent" || name == "Count" || internal::begins_with(name, "perf::");
}

/// The table a row comes from, which says how its cells are read (formats.md section 5).
enum class table_form : unsigned char {
    report,      ///< the VM / Relax VM report (`Name ... Duration (us)`): `numeric_column`s are numbers
    graph_debug, ///< the graph debug executor's table (`Node Name  Ops ...` over dash runs)
    vm_tabs,     ///< the original VM profiler's tab-separated table (`#OpName`, `a/b/c/d` sums)
    json,        ///< a `Report.json()` document: no line, no table; the metrics are `metrics`
};

/// A `Report.json()` metric's value (compact JSON text, as `metrics` holds it) with its
/// one-key type wrapper removed: `{"microseconds":734.25}` -> `734.25`, `{"string":"cuda0"}` ->
/// `"cuda0"` (wrappers `string`, `count`, `microseconds`, `percent`, `ratio`); any other
/// value is itself (a bare `"fused_add"` or `734.250000` of the first generation, an object
/// of another shape such as `{"bytes":512}`).
constexpr std::string_view unwrap_metric(std::string_view v) noexcept {
    if (v.empty() || v.front() != '{') return v;
    std::size_t n = 0;
    std::string_view key, inner;
    json::for_each_member(v, [&](std::string_view k, std::string_view x) {
        ++n;
        key = k;
        inner = x;
    });
    if (n == 1 && (key == "\"string\"" || key == "\"count\"" || key == "\"microseconds\"" || key == "\"percent\"" ||
                   key == "\"ratio\""))
        return inner;
    return v;
}

/// True when the key token `k` (`"Name"`, as a compact text holds it) is `name`, its
/// escapes resolved.
constexpr bool key_is(std::string_view k, std::string_view name) noexcept {
    if (k.size() == name.size() + 2 && k.substr(1, name.size()) == name) return true;
    if (k.find('\\') == std::string_view::npos || k.size() > 6 * name.size() + 2) return false;
    char buf[256];
    const auto t = json::string_text(k, buf);
    return t && *t == name;
}

/// The value of metric `name` (its wrapper removed: `unwrap_metric`) in a `Report.json()`
/// object's compact text; none when the object has no such key.
constexpr std::optional<std::string_view> json_metric(std::string_view metrics, std::string_view name) noexcept {
    std::optional<std::string_view> found;
    json::for_each_member(metrics, [&](std::string_view k, std::string_view x) {
        if (!key_is(k, name)) return true;
        found = unwrap_metric(x);
        return false; // (the first: TVM writes each key once)
    });
    return found;
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
    table_form form = table_form::report; ///< the table the row comes from
    /// From a `Report.json()` document (`form == table_form::json`, `line` 0, no `cells`):
    /// the call's or device's object as compact JSON text, metrics with their wrappers as
    /// printed (`json_metric` reads one; non-finite words are `null`). None in tables.
    std::optional<std::string_view> metrics{};

    /// The trimmed text of column i, empty when the row has no cell there.
    constexpr std::string_view text(std::size_t i) const noexcept { return i < cells.size() ? cells[i].text() : std::string_view{}; }
    /// The trimmed text of the column named `name` (a linear search: look the index up once
    /// with `columns` for a hot loop), empty when absent. From a document: the metric's
    /// text (a string's inside, escapes as written; else its JSON text).
    constexpr std::string_view text(std::string_view name) const noexcept {
        if (form == table_form::json) {
            const auto v = metrics ? json_metric(*metrics, name) : std::nullopt;
            if (!v) return {};
            return v->size() >= 2 && v->front() == '"' ? v->substr(1, v->size() - 2) : *v;
        }
        return text(column_lookup::index_of(columns, name));
    }
    /// Column i as a number (thousands separators allowed); none when empty or not a number.
    constexpr std::optional<double> number(std::size_t i) const noexcept {
        const std::string_view t = text(i);
        if (t.empty()) return std::nullopt;
        const auto r = parse_grouped<double>(t);
        return r.ok() ? std::optional<double>(r.value) : std::nullopt;
    }
    /// `Duration (us)` (`Time(us)` in a graph debug table; the Sum of `Sum/Mean/Min/Max` in
    /// the original VM table): the time of the call(s) in microseconds.
    constexpr std::optional<double> duration_us() const noexcept {
        if (form == table_form::json) return json_number("Duration (us)");
        if (form != table_form::vm_tabs) return number(duration_column);
        const std::string_view t = text(duration_column);
        const auto r = parse_grouped<double>(t.substr(0, t.find('/')));
        return !t.empty() && r.ok() ? std::optional<double>(r.value) : std::nullopt;
    }
    /// `Percent`: its share of the total.
    constexpr std::optional<double> percent() const noexcept {
        return form == table_form::json ? json_number("Percent") : number(percent_column);
    }
    /// `Count`: the number of calls.
    constexpr std::optional<std::uint64_t> count() const noexcept {
        const std::string_view t = form == table_form::json ? text("Count") : text(count_column);
        const auto r = parse_grouped<std::uint64_t>(t);
        return !t.empty() && r.ok() ? std::optional<std::uint64_t>(r.value) : std::nullopt;
    }
    /// `Device`: `cpu0`, `cuda0`, ...; empty when the row has none.
    constexpr std::string_view device() const noexcept {
        return form == table_form::json ? text("Device") : text(device_column);
    }

private:
    constexpr std::optional<double> json_number(std::string_view name) const noexcept {
        const std::string_view t = text(name);
        const auto r = parse_number<double>(t);
        return !t.empty() && r.ok() ? std::optional<double>(r.value) : std::nullopt;
    }
};

/// A row of a report table: a fused kernel or a VM instruction.
struct call : report_row {
    /// `vm_mod_fused_nn_contrib_conv2d_NCHWc_add_nn_relu_1`, `VM::AllocStorage`; from a
    /// document the `Name` metric's text (escapes resolved), `name.data() == nullptr` when
    /// the call has none.
    std::string_view name;
};

/// A row after the table's dashes line; a graph debug table's `Total_time` row; the original
/// VM table's `Total Duration ...` line.
struct total : report_row {
    /// `Sum`, `Total`, `Total_time`, `Total Duration`; from a document the device's `Name`
    /// metric (`kind.data() == nullptr` when it has none).
    std::string_view kind;
    std::optional<std::string_view> device_entry; ///< a `Report.json()` device's key; none in tables
};

/// A `KEY: VALUE` line of a Configuration block: `Number of threads: 32`.
struct config {
    std::uint64_t line;     ///< line number (0: from a `Report.json()` document)
    std::string_view key;   ///< `Number of threads`
    std::string_view value; ///< `32`; from a document a string's text (escapes resolved), any other value's JSON text
    /// From a document: the value as compact JSON text, its wrapper removed (`8`, `"VM"`,
    /// `{"name":"jetson","cores":6}`, `null` for a non-finite word); none in a Configuration block.
    std::optional<std::string_view> json{};
};

LOGSCAN_EVENT(on_run, "void on_run(const logscan::tvm_profile::run&)");
LOGSCAN_EVENT(on_mean_time, "void on_mean_time(const logscan::tvm_profile::mean_time&)");
LOGSCAN_EVENT(on_call, "void on_call(const logscan::tvm_profile::call&)");
LOGSCAN_EVENT(on_total, "void on_total(const logscan::tvm_profile::total&)");
LOGSCAN_EVENT(on_config, "void on_config(const logscan::tvm_profile::config&)");


/// A list of numbers separated by `sep` (`812.406, 3.5` inside `[...]`; `96.3/nan/30.8/33.9`),
/// each a number or null: an array; `valid()` when every part is a number.
struct number_items {
    std::string_view text; ///< the parts, without brackets
    char sep;              ///< `,` or `/`
    /// True when every part (trimmed) is a number or a non-finite word (an empty text: none).
    bool valid() const noexcept {
        if (internal::trim(text).empty()) return sep == ',';
        for (std::size_t b = 0;;) {
            const std::size_t e = text.find(sep, b);
            if (!is_number_or_non_finite(internal::trim(text.substr(b, e - b)), true)) return false;
            if (e == std::string_view::npos) return true;
            b = e + 1;
        }
    }
    /// Calls `f(value)` for each part in order.
    template <class F>
    void for_each_item(F&& f) const {
        if (internal::trim(text).empty()) return;
        for (std::size_t b = 0;;) {
            const std::size_t e = text.find(sep, b);
            const std::string_view p = internal::trim(text.substr(b, e - b));
            double v = 0;
            if (internal::non_finite_word(p, v)) f(std::optional<loose_number>());
            else f(std::optional<loose_number>(loose_number{p, true}));
            if (e == std::string_view::npos) return;
            b = e + 1;
        }
    }
};

/// True when `t` is a Python tuple of integers as `repr` prints it: `()`, `(4,)`, `(1, 32, 28, 28)`.
constexpr bool is_int_tuple(std::string_view t) noexcept {
    if (t.size() < 2 || t.front() != '(' || t.back() != ')') return false;
    std::size_t i = 1, items = 0;
    bool comma = false;
    const auto spaces = [&] {
        while (i < t.size() - 1 && t[i] == ' ') ++i;
    };
    spaces();
    while (i < t.size() - 1) {
        const std::size_t b = i;
        while (i < t.size() - 1 && t[i] >= '0' && t[i] <= '9') ++i;
        if (i == b) return false;
        ++items;
        spaces();
        comma = i < t.size() - 1 && t[i] == ',';
        if (!comma && i != t.size() - 1) return false;
        if (comma) ++i;
        spaces();
    }
    return items != 1 || comma;
}

/// The cells of a row under their columns' names, empty ones left out: the `cells` field of
/// `call` and `total`. In a report, `numeric_column`s are numbers; in a graph debug table
/// `Time(us)`, `Time(%)`, `Inputs`, `Outputs` are numbers, `Shape` a tuple of integers,
/// `Measurements(us)` a list of numbers, and `-` is left out; in the original VM table a
/// number is a number, `a/b/c/d` (four numbers: Sum/Mean/Min/Max) an array, and an empty
/// cell the empty string. Elsewhere a cell is its text (also
/// where it does not parse as its column says); a non-finite number is null.
struct report_cells {
    const report_row& row; ///< the row
    /// Calls `f(column name, value)` for each non-empty cell after the name, in order.
    template <class F>
    void for_each_entry(F&& f) const {
        if (row.form == table_form::json) { // every metric but Name, unwrapped
            if (!row.metrics) return;
            json::for_each_member(*row.metrics, [&](std::string_view k, std::string_view x) {
                if (key_is(k, "Name")) return;
                char buf[1024]; // (a longer key with escapes is written as it stands between its quotes)
                const std::string_view name = json::string_text(k, buf).value_or(k.substr(1, k.size() - 2));
                const std::string_view v = unwrap_metric(x);
                if (v == "null") f(name, nullptr);
                else if (!v.empty() && (v.front() == '-' || (v.front() >= '0' && v.front() <= '9'))) f(name, loose_number{v});
                else f(name, json_text{v});
            });
            return;
        }
        const auto number = [&](std::string_view name, std::string_view t) {
            double v = 0;
            if (internal::non_finite_word(t, v)) f(name, nullptr);
            else f(name, loose_number{t, true});
        };
        if (row.form == table_form::vm_tabs) { // (every cell, an empty one too: a string)
            for (std::size_t i = 1; i < row.cells.size() && i < row.columns.size(); ++i) {
                const std::string_view name = row.columns[i].text(), t = row.cells[i].text();
                if (is_number_or_non_finite(t, true)) number(name, t);
                else if (std::count(t.begin(), t.end(), '/') == 3 && number_items{t, '/'}.valid()) f(name, number_items{t, '/'});
                else f(name, t);
            }
            return;
        }
        for_each_named_cell(row.cells, row.columns, [&](std::string_view name, std::string_view t) {
            switch (row.form) {
            case table_form::report:
                if (numeric_column(name)) return number(name, t);
                return f(name, t);
            case table_form::graph_debug:
                if (t == "-") return;
                if (name == "Time(us)" || name == "Time(%)" || name == "Inputs" || name == "Outputs") {
                    if (is_number_or_non_finite(t, true)) return number(name, t);
                } else if (name == "Shape") {
                    if (is_int_tuple(t)) return f(name, shape_dims(t));
                } else if (name == "Measurements(us)") {
                    const number_items items{t.size() >= 2 ? t.substr(1, t.size() - 2) : std::string_view{}, ','};
                    if (t.size() >= 2 && t.front() == '[' && t.back() == ']' && items.valid()) return f(name, items);
                }
                return f(name, t);
            case table_form::vm_tabs: // (above)
            case table_form::json: return;
            }
        });
    }
};
/// A row's `cells` field.
constexpr report_cells cells_of(const report_row& r) noexcept { return {r}; }

namespace detail {
// The `Name` of a row as written: its text; from a document, null when absent, its JSON when
// it is no string.
constexpr std::optional<string_or_json> name_field(const report_row& r, std::string_view name) noexcept {
    if (r.form != table_form::json) return string_or_json{name};
    if (name.data() == nullptr) return std::nullopt;
    const auto v = r.metrics ? json_metric(*r.metrics, "Name") : std::nullopt;
    if (v && !v->empty() && v->front() != '"') return string_or_json{*v, true};
    return string_or_json{name};
}
} // namespace detail
/// A call's `name` field: null for a document's call without `Name`; a `Name` that is no
/// string is written as its JSON.
constexpr std::optional<string_or_json> name_of(const call& c) noexcept { return detail::name_field(c, c.name); }
/// A total's `kind` field (null for a document's device without `Name`).
constexpr std::optional<string_or_json> kind_of(const total& t) noexcept { return detail::name_field(t, t.kind); }
/// A config's `value` field: the string as printed; a document's value keeps its JSON type.
constexpr string_or_json value_of(const config& c) noexcept {
    if (!c.json || (!c.json->empty() && c.json->front() == '"')) return {c.value};
    return {*c.json, true};
}

/// The format's records, described once (record.hpp): `record_types`, the visitor check,
/// `ndjson_visitor` come from here.
using records = record_list<
    record_kind<"run", run, on_run_event, field<"model", &run::model>, field<"device", &run::device>>,
    record_kind<"mean_time", mean_time, on_mean_time_event, field<"mean_ms", &mean_time::mean_ms>,
                field<"std_ms", &mean_time::std_ms>>,
    record_kind<"call", call, on_call_event, field<"name", name_of>, field<"cells", cells_of>>,
    record_kind<"total", total, on_total_event, field<"kind", kind_of>, field<"device", &total::device_entry>,
                field<"cells", cells_of>>,
    record_kind<"config", config, on_config_event, field<"key", &config::key>, field<"value", value_of>>,
    text_kind, error_kind>;

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
            const total t{base, first, std::nullopt};
            return LOGSCAN_VISIT(vis, on_total, t);
        }
        const call c{base, first};
        return LOGSCAN_VISIT(vis, on_call, c);
    }
    flow on_table_text(const line& l) { return text(l); }
    flow on_error(const error& e) { return report_error(vis, e); }
    // the graph debug and original VM tables' rows
    flow call_row(const call& c) { return LOGSCAN_VISIT(vis, on_call, c); }
    flow total_row(const total& t) { return LOGSCAN_VISIT(vis, on_total, t); }
};

template <class V>
using table_t = aligned_table<state<V>, max_columns, header_capacity>;

// The number of code points in `s` before byte `b`.
constexpr std::size_t code_points_before(std::string_view s, std::size_t b) noexcept {
    std::size_t n = 0;
    for (std::size_t i = 0; i < b && i < s.size(); ++i) n += (static_cast<unsigned char>(s[i]) & 0xC0u) != 0x80u;
    return n;
}

// A graph debug executor table's header line (trailing spaces removed): its first cell
// `Node Name` (after any indent), an `Ops` cell.
constexpr bool is_debug_header(std::string_view t) noexcept {
    if (t.empty() || (t[0] != 'N' && t[0] != ' ')) return false; // (a row: one look)
    std::size_t i = 0;
    while (i < t.size() && t[i] == ' ') ++i;
    t.remove_prefix(i);
    // (for_each_wide_cell's cuts, found directly: a cell ends at a space before a space or
    // the line's end, and one begins after two spaces)
    const auto cell_ends = [&](std::size_t e) {
        return e == t.size() || (t[e] == ' ' && (e + 1 == t.size() || t[e + 1] == ' '));
    };
    if (!internal::begins_with(t, "Node Name") || !cell_ends(9)) return false;
    for (std::size_t p = t.find("Ops", 11); p != std::string_view::npos; p = t.find("Ops", p + 1)) // (`O` is rare: spaces are not)
        if (t[p - 1] == ' ' && t[p - 2] == ' ' && cell_ends(p + 3)) return true;
    return false;
}
// The original VM profiler table's header line: `#OpName` TAB ...
constexpr bool is_tab_header(std::string_view t) noexcept {
    return internal::begins_with(t, "#OpName") && t.find('\t') != std::string_view::npos;
}

// The graph debug executor's table (formats.md section 5): a header whose cells begin with
// `Node Name` and include `Ops`, held until the next line shows its dash runs, one starting
// at each header cell; then rows cut at the column starts (code points). A row with an empty
// cell, or a blank line, ends the table (the line is the caller's); a new header starts the
// next table. Every column left-aligned; the table may be indented.
template <class State>
class debug_table {
public:
    explicit debug_table(State& st) noexcept : st_(st) {}
    bool active() const noexcept { return phase_ != phase::idle; }
    bool at_rest() const noexcept { return phase_ == phase::idle; }
    bool in_rows() const noexcept { return phase_ == phase::rows; }
    static constexpr bool is_header(std::string_view t) noexcept { return is_debug_header(t); }

    // One line: consumed (structure or a row), not_mine (the caller reads it), or stop. A
    // header line is one only when its dashes follow: until the next line it is held (inside
    // a table, it is that table's row if they do not).
    table_feed feed(const line& l) {
        const std::string_view t = internal::trim_right(l.text);
        if (phase_ == phase::held || phase_ == phase::rows_held) {
            if (dashes_match(heads_[1 - cur_], t)) {
                cur_ = 1 - cur_;
                phase_ = phase::rows;
                return table_feed::consumed;
            }
            if (settle() == flow::stop) return table_feed::stop;
        }
        if (phase_ == phase::rows) {
            if (t.empty()) return phase_ = phase::idle, table_feed::not_mine;
            if (!is_header(t)) {
                const table_feed f = row(l, t);
                if (f == table_feed::not_mine) phase_ = phase::idle; // (a row with an empty cell: the table ends)
                return f;
            }
            if (!hold(l, t)) return phase_ = phase::idle, table_feed::not_mine;
            phase_ = phase::rows_held;
            return table_feed::consumed;
        }
        if (!is_header(t) || !hold(l, t)) return table_feed::not_mine;
        phase_ = phase::held;
        return table_feed::consumed;
    }
    // While in its rows: the rows that start at `p`, read straight from the bytes up to the
    // first line that is no row of the table (a blank line, a header, a row with an empty
    // cell), which is read as usual (`feed`).
    line_taken take_rows(const char* p, const char* e, std::uint64_t number, std::uint64_t offset) {
        return internal::take_run(p, e, number, offset, [this](const line& l) {
            const std::string_view t = internal::trim_right(l.text);
            if (t.empty() || is_header(t)) return run_step::declined;
            return to_run_step(row(l, t));
        });
    }
    // Ends the table; a held header is text (or the open table's row).
    flow close(std::uint64_t) {
        const flow f = settle();
        phase_ = phase::idle;
        return f;
    }
    flow finish() { return close(0); }

private:
    enum class phase : unsigned char { idle, held, rows, rows_held };
    // A header: its line (copied), its cells and where they start (code points).
    struct head {
        char bytes[header_capacity / 4];
        line l{};
        std::size_t n = 0, duration = column_lookup::npos, percent = column_lookup::npos;
        std::array<cell, max_columns> columns{};
        std::array<std::size_t, max_columns> starts{};
        std::span<const cell> cols() const noexcept { return {columns.data(), n}; }
    };

    // Holds a header candidate (in the slot the open table does not use).
    bool hold(const line& l, std::string_view t) {
        head& h = heads_[1 - cur_];
        if (t.size() > sizeof h.bytes) return false; // (read as text)
        std::memcpy(h.bytes, t.data(), t.size());
        const std::string_view v(h.bytes, t.size());
        h.l = line{v, l.number, l.offset};
        h.n = 0;
        bool fits = true;
        const bool ascii = internal::all_ascii(v); // (then the byte is the code point)
        for_each_wide_cell(v, 0, [&](std::string_view c, std::size_t b) {
            if (h.n == max_columns) return void(fits = false);
            h.columns[h.n] = cell{c};
            h.starts[h.n++] = ascii ? b : code_points_before(v, b);
        });
        h.duration = column_lookup::index_of(h.cols(), "Time(us)");
        h.percent = column_lookup::index_of(h.cols(), "Time(%)");
        return fits;
    }
    // A held header whose dashes did not follow: text, or inside a table that table's row
    // (text too when it is none, which ends the table).
    flow settle() {
        const head& h = heads_[1 - cur_];
        if (phase_ == phase::held) {
            phase_ = phase::idle;
            return st_.text(h.l);
        }
        if (phase_ != phase::rows_held) return flow::proceed;
        phase_ = phase::rows;
        const table_feed f = row(h.l, h.l.text);
        if (f == table_feed::stop) return flow::stop;
        if (f == table_feed::not_mine) {
            phase_ = phase::idle;
            return st_.text(h.l);
        }
        return flow::proceed;
    }
    // Dash runs, one starting at each header cell's column (the dash line is ASCII).
    static bool dashes_match(const head& h, std::string_view t) noexcept {
        std::size_t n = 0, i = 0;
        while (i < t.size()) {
            while (i < t.size() && t[i] == ' ') ++i;
            if (i == t.size()) break;
            if (t[i] != '-' || n == h.n || h.starts[n] != i) return false;
            ++n;
            while (i < t.size() && t[i] == '-') ++i;
        }
        return n == h.n;
    }
    // A row of the open table (`consumed`), or `not_mine` when a cell is empty.
    table_feed row(const line& l, std::string_view t) {
        const head& h = heads_[cur_];
        const std::size_t size = t.size();
        // the byte where each column starts in this line: the column's start when the line is
        // ASCII up to the last column (code points are bytes), else code points counted
        const auto cut = [&](std::size_t c, std::size_t b, std::size_t e) {
            cells_[c] = cell{std::string_view(t.data() + b, e - b)};
            // (columns are left-aligned: a cell that starts with its text is not empty, and
            // only one that starts with a space or a tab is trimmed to tell)
            return e != b && (!internal::is_space(t[b]) || !cells_[c].empty());
        };
        if (internal::all_ascii(t.substr(0, std::min(h.starts[h.n - 1], size)))) {
            std::size_t b = std::min(h.starts[0], size);
            if (b != 0 && internal::leading_spaces(t) < b) return table_feed::not_mine; // (the indent: nothing there)
            for (std::size_t c = 0; c < h.n; ++c) {
                const std::size_t e = c + 1 < h.n ? std::min(h.starts[c + 1], size) : size;
                if (!cut(c, b, e)) return table_feed::not_mine; // no row: the table ends
                b = e;
            }
        } else {
            std::size_t cp = 0, b = 0;
            for (std::size_t c = 0; c < h.n; ++c) {
                while (b < size && cp < h.starts[c]) {
                    ++b;
                    while (b < size && (static_cast<unsigned char>(t[b]) & 0xC0u) == 0x80u) ++b;
                    ++cp;
                }
                bytes_[c] = b;
            }
            if (bytes_[0] != 0 && internal::leading_spaces(t) < bytes_[0]) return table_feed::not_mine;
            for (std::size_t c = 0; c < h.n; ++c)
                if (!cut(c, bytes_[c], c + 1 < h.n ? bytes_[c + 1] : size)) return table_feed::not_mine;
        }
        const report_row base{l.number,
                              std::span<const cell>(cells_.data(), h.n),
                              h.cols(),
                              h.duration,
                              h.percent,
                              column_lookup::npos,
                              column_lookup::npos,
                              table_form::graph_debug};
        const std::string_view name = internal::trim_within(t, cells_[0].raw); // (its padding looked at in one go)
        flow f;
        if (name == "Total_time") f = st_.total_row(total{base, name, std::nullopt});
        else f = st_.call_row(call{base, name});
        return f == flow::stop ? table_feed::stop : table_feed::consumed;
    }

    State& st_;
    phase phase_ = phase::idle;
    std::size_t cur_ = 0; // the slot of the open table's header
    std::array<head, 2> heads_{};
    std::array<cell, max_columns> cells_{};
    std::array<std::size_t, max_columns> bytes_{};
};

// The original VM profiler's table (formats.md section 5): a `#OpName` TAB ... header, rows
// of as many tab-separated cells, up to its `Total Duration ...` line.
template <class State>
class tab_table {
public:
    explicit tab_table(State& st) noexcept : st_(st) {}
    bool active() const noexcept { return active_; }
    bool at_rest() const noexcept { return !active_; }

    static constexpr bool is_header(std::string_view t) noexcept { return is_tab_header(t); }
    // Starts a table at its header line.
    table_feed start(const line& l) {
        const std::string_view t = l.text; // (split as printed: a trailing tab is an empty last cell)
        if (t.size() > sizeof header_) return table_feed::not_mine;
        std::memcpy(header_, t.data(), t.size());
        const std::string_view h(header_, t.size());
        ncols_ = 0;
        for (std::size_t b = 0;;) {
            const std::size_t e = h.find('\t', b);
            if (ncols_ == max_columns) return table_feed::not_mine;
            std::string_view c = internal::trim(h.substr(b, e - b));
            if (c.starts_with('#')) c.remove_prefix(1);
            columns_[ncols_++] = cell{c};
            if (e == std::string_view::npos) break;
            b = e + 1;
        }
        duration_ = column_lookup::index_of_prefix(columns(), "Duration");
        active_ = true;
        return table_feed::consumed;
    }
    // A line while the table is open: consumed (a row, its summary, a blank line or text),
    // not_mine (a line that ends it and is read as usual), or stop.
    table_feed feed(const line& l, bool ends_table) { return feed(l, internal::trim_right(l.text), ends_table); }
    // (`t`: the line without trailing blanks)
    table_feed feed(const line& l, std::string_view t, bool ends_table) {
        if (t.empty()) return table_feed::consumed; // (blank lines do not end it)
        if (const std::optional<flow> f = summary(l, t)) return active_ = false, to_feed(*f);
        if (ends_table) return active_ = false, table_feed::not_mine;
        std::size_t n = 0;
        for (const char *b = l.text.data(), *const end = b + l.text.size();;) {
            const char* const tab = internal::find_byte<'\t'>(b, end, l.text.data());
            if (n == ncols_) return to_feed(st_.text(l)); // (more cells than the header)
            cells_[n++] = cell{std::string_view(b, static_cast<std::size_t>((tab ? tab : end) - b))};
            if (tab == nullptr) break;
            b = tab + 1;
        }
        if (n != ncols_ || cells_[0].raw.empty() || (cells_[0].raw[0] == ' ' && cells_[0].empty()))
            return to_feed(st_.text(l));
        const report_row base{l.number,    std::span<const cell>(cells_.data(), n), columns(),
                              duration_,   column_lookup::npos,                     column_lookup::npos,
                              column_lookup::npos, table_form::vm_tabs};
        return to_feed(st_.call_row(call{base, internal::trim_within(l.text, cells_[0].raw)}));
    }
    // While open: the rows (and blank lines) that start at `p`, read straight from the bytes
    // up to the first line that may end the table (`may_end(t)`, `t` its text without trailing
    // blanks), which is read as usual (`feed`).
    template <class MayEnd>
    line_taken take_rows(const char* p, const char* e, std::uint64_t number, std::uint64_t offset, MayEnd may_end) {
        return internal::take_run(p, e, number, offset, [&](const line& l) {
            const std::string_view t = internal::trim_right(l.text);
            if (!active_ || may_end(t)) return run_step::declined;
            return feed(l, t, false) == table_feed::stop ? run_step::stopped : run_step::taken;
        });
    }
    flow close(std::uint64_t) { return active_ = false, flow::proceed; }
    flow finish() { return close(0); }

private:
    static table_feed to_feed(flow f) noexcept { return f == flow::stop ? table_feed::stop : table_feed::consumed; }
    std::span<const cell> columns() const noexcept { return {columns_.data(), ncols_}; }

    // `Total Duration X us`, or `Total Duration: X us.` TAB `Total Packed Functions: N`:
    // when `t` is one, its record delivered (how that went), else none.
    std::optional<flow> summary(const line& l, std::string_view t) {
        if (!internal::begins_with(t, "Total Duration")) return std::nullopt;
        std::string_view r = t.substr(14);
        const bool colon = internal::begins_with(r, ": ");
        if (!colon && !r.starts_with(' ')) return std::nullopt;
        r.remove_prefix(colon ? 2 : 1);
        const std::size_t sp = r.find(' ');
        if (sp == std::string_view::npos) return std::nullopt;
        const std::string_view x = r.substr(0, sp);
        r = r.substr(sp);
        std::string_view packed;
        if (!colon) {
            if (r != " us") return std::nullopt;
        } else {
            if (!internal::begins_with(r, " us.")) return std::nullopt;
            r.remove_prefix(4);
            if (!r.empty()) {
                if (!internal::begins_with(r, "\tTotal Packed Functions: ")) return std::nullopt;
                packed = r.substr(25);
                if (packed.empty() || !parse_number<std::uint64_t>(packed).ok()) return std::nullopt;
            }
        }
        if (!is_number_or_non_finite(x, true)) return std::nullopt;
        sum_columns_ = {cell{}, cell{"Duration (us)"}, cell{"Total Packed Functions"}};
        sum_cells_ = {cell{"Total Duration"}, cell{x}, cell{packed}};
        const std::size_t n = packed.empty() ? 2 : 3;
        const report_row base{l.number,
                              std::span<const cell>(sum_cells_.data(), n),
                              std::span<const cell>(sum_columns_.data(), n),
                              1,
                              column_lookup::npos,
                              column_lookup::npos,
                              column_lookup::npos,
                              table_form::vm_tabs};
        return st_.total_row(total{base, "Total Duration", std::nullopt});
    }

    State& st_;
    bool active_ = false;
    std::size_t ncols_ = 0, duration_ = column_lookup::npos;
    char header_[header_capacity / 4];
    std::array<cell, max_columns> columns_{}, cells_{};
    std::array<cell, 3> sum_columns_{}, sum_cells_{};
};

// A rule runs only when the visitor wants what it yields (`when`, rules.hpp), or the text its
// lines would otherwise be: the report table is not even started for a visitor that wants
// none of its rows, notes or errors.
// `Evaluate vm inference cost of MODEL on DEVICE`, its rule's reader (`read_by`: the pattern
// is never run, nor compiled into the parser; the tests hold the reader to it): MODEL and
// DEVICE runs of bytes that are not whitespace, the first ended by ` on `, the second by the
// spaces that end the line. Groups: line, MODEL, DEVICE.
inline constexpr fixed_string run_pattern{R"(Evaluate vm inference cost of (\S+) on (\S+) *)"};
constexpr bool read_run(std::string_view t, std::array<std::string_view, 3>& g) noexcept {
    text_cursor c(t);
    if (!(c.literal("Evaluate vm inference cost of ") && c.until<" \t\n\r\f\v">(g[1]) && !g[1].empty() && c.literal(" on ") &&
          c.until<" \t\n\r\f\v">(g[2]) && !g[2].empty()))
        return false;
    while (c.literal(" ")) {}
    if (!c.at_end()) return false;
    g[0] = t;
    return true;
}

template <class V>
auto make_rules(state<V>& st, table_t<V>& table) {
    return rule_set(
        rule<run_pattern, "Evaluate vm inference cost of resnet18 on cpu(0)">(
            [&](const auto& m, rule_context& ctx) {
                return LOGSCAN_VISIT_LAZY(st.vis, on_run, run, [&] {
                    return run{ctx.current.number, m.template get<1>(), m.template get<2>()};
                });
            })
            .read_by(read_run)
            .when(wants_any<V, on_run_event, on_text_event>),
        // (X and Y: decimals, or non-finite words: null)
        rule<R"(Mean .* time \(std dev\): (\d+(?:\.\d+)?|[-+]?[A-Za-z]+) ms \((\d+(?:\.\d+)?|[-+]?[A-Za-z]+) ms\) *)",
             "Mean vm inference time (std dev): 13.13 ms (1.80 ms)", "Mean vm inference time (std dev): nan ms (-nan ms)">(
            [&](const auto& m, rule_context& ctx) {
                double x = 0, y = 0;
                const auto value = [](std::string_view t, double& v) {
                    if (internal::non_finite_word(t, v)) return true;
                    const auto r = parse_number<double>(t);
                    v = r.value;
                    return r.ok();
                };
                if (!value(m.template get<1>(), x) || !value(m.template get<2>(), y)) return st.text(ctx.current);
                return LOGSCAN_VISIT_LAZY(st.vis, on_mean_time, mean_time, [&] { return mean_time{ctx.current.number, x, y}; });
            })
            .when(wants_any<V, on_mean_time_event, on_text_event>),
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

    // the tables matter to a visitor that wants their rows, their notes as text, or their errors
    static constexpr bool wants_tables = wants_any<Visitor, on_call_event, on_total_event, on_text_event, on_error_event>;

public:
    core(Visitor& vis, const format_options&)
        : st_{vis}, table_(st_), debug_(st_), tabs_(st_), rules_(make_rules(st_, table_), fallback<Visitor>{&st_}) {}

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
        if (debug_.active()) {
            switch (debug_.feed(l)) {
            case table_feed::consumed: // (its header confirmed by its dashes: another table ends)
                if (debug_.in_rows() && tabs_.active() && tabs_.close(l.number) == flow::stop) return flow::stop;
                return flow::proceed;
            case table_feed::stop: return flow::stop;
            default: break; // the table ended (or its header was none): the line is read as usual
            }
        }
        // (a graph debug header is one only with its dashes on the next line: held below, it
        // ends the original VM table only then)
        if (tabs_.active()) {
            const bool may_end = may_end_tab_table(t); // (a row: none of the checks below)
            if (!may_end || !debug_table<state<Visitor>>::is_header(t)) {
                switch (tabs_.feed(l, may_end && ends_tab_table(l, t))) {
                case table_feed::consumed: return flow::proceed;
                case table_feed::stop: return flow::stop;
                default: break;
                }
            }
        }
        if (table_.active()) { // before the dashes a line that is no row is text, and the rows go on
            switch (table_.feed(l)) {
            case table_feed::consumed: return flow::proceed;
            case table_feed::stop: return flow::stop;
            default: break; // the table ended: the line is read as usual
            }
        }
        if constexpr (wants_tables) {
            table_feed f = table_feed::not_mine;
            if (debug_table<state<Visitor>>::is_header(t)) f = debug_.feed(l);
            else if (tab_table<state<Visitor>>::is_header(l.text)) f = tabs_.start(l); // (`#OpName<TAB>`: the tab may end it)
            if (f == table_feed::consumed) return flow::proceed;
            if (f == table_feed::stop) return flow::stop;
        }
        return rules_.feed(l);
    }

    // A line too long: not the dashes a heading needs, not KEY: VALUE.
    flow line_too_long(const error& e) {
        if (flush_heading() == flow::stop) return flow::stop;
        st_.in_block = block::none;
        if (debug_.close(e.line) == flow::stop || tabs_.close(e.line) == flow::stop) return flow::stop;
        return report_error(st_.vis, e);
    }
    flow finish() {
        if (flush_heading() == flow::stop) return flow::stop;
        st_.in_block = block::none;
        if (debug_.finish() == flow::stop || tabs_.finish() == flow::stop) return flow::stop;
        return table_.finish();
    }
    /// The rows of the graph debug table and of the original VM table, while they are in them,
    /// read straight from the bytes (lines.hpp's `take_line`): what `read_line` would make of
    /// them, a call less per row.
    line_taken take_line(const char* p, const char* e, std::uint64_t number, std::uint64_t offset) {
        if constexpr (wants_tables) {
            if (st_.in_block != block::none) return {};
            if (debug_.in_rows() && !tabs_.active()) return debug_.take_rows(p, e, number, offset);
            // (and of the original VM table, up to a line that may end it)
            if (tabs_.active() && !debug_.active()) return tabs_.take_rows(p, e, number, offset, may_end_tab_table);
            // (and of the report's table: a line it does not take ends it and is read as usual)
            if (table_.active() && !debug_.active() && !tabs_.active())
                return internal::take_run(p, e, number, offset, [this](const line& l) {
                    return to_run_step(table_.feed(l)); // (a line it did not take ended it: read again, as usual)
                });
        }
        return {};
    }
    /// What carries state from line to line: a Configuration block, the three tables, the
    /// rules' mode.
    auto readers() const noexcept { return std::tie(st_, table_, debug_, tabs_, rules_); }

private:
    // True when `t` (a line, trailing blanks removed) may end the original VM table or head a
    // graph debug table, by its first byte: what `ends_tab_table` and `is_debug_header` can
    // take begins with `E`, `M`, `N`, `#` or an indent; the table's rows begin with a name.
    static constexpr bool may_end_tab_table(std::string_view t) noexcept {
        if (t.empty()) return false;
        switch (t[0]) {
        case 'E': case 'M': case 'N': case '#': case ' ': return true;
        default: return false;
        }
    }
    // A line that ends the original VM table: a `run` or `mean_time` line, another table's header.
    static bool ends_tab_table(const line& l, std::string_view t) noexcept {
        return internal::begins_with(t, "Evaluate vm inference cost of ") ||
               (internal::begins_with(t, "Mean ") && t.find(" time (std dev): ") != std::string_view::npos) ||
               (internal::begins_with(t, "Name") && t.find("Duration (us)") != std::string_view::npos) ||
               tab_table<state<Visitor>>::is_header(l.text);
    }

    // A held `Configuration` heading not followed by dashes is text.
    flow flush_heading() {
        if (st_.in_block != block::heading) return flow::proceed;
        st_.in_block = block::none;
        return st_.text(st_.heading);
    }

    state<Visitor> st_;
    table_t<Visitor> table_;
    debug_table<state<Visitor>> debug_;
    tab_table<state<Visitor>> tabs_;
    rule_reader<rules_t<Visitor>, fallback<Visitor>> rules_;
};

} // namespace detail

namespace detail {

// The text of a value (compact JSON): a string's text (escapes resolved into `spare` when it
// has any), another value's JSON; none when a string does not fit `spare`.
inline std::optional<std::string_view> value_text(std::string_view v, std::span<char> spare) noexcept {
    if (v.empty() || v.front() != '"') return v;
    return json::string_text(v, spare);
}
// What a document's records derive from their captured text (json_project's complete_with):
// a call or a device is an object (anything else in their place is no record).
inline json::completion complete_row(report_row& r, std::string_view& name, std::span<char> spare) noexcept {
    if (!r.metrics || r.metrics->empty() || r.metrics->front() != '{') return json::completion::skip;
    r.form = table_form::json;
    r.duration_column = r.percent_column = r.count_column = r.device_column = column_lookup::npos;
    name = {};
    if (const auto v = json_metric(*r.metrics, "Name")) {
        const auto t = value_text(*v, spare);
        if (!t) return json::completion::too_large;
        name = t->data() != nullptr ? *t : std::string_view(v->data(), 0); // (an empty name is no absent one)
    }
    return json::completion::deliver;
}
inline json::completion complete_call(call& c, std::span<char> spare) noexcept { return complete_row(c, c.name, spare); }
inline json::completion complete_total(total& t, std::span<char> spare) noexcept { return complete_row(t, t.kind, spare); }
inline json::completion complete_config(config& c, std::span<char> spare) noexcept {
    if (!c.json) return json::completion::skip;
    c.json = unwrap_metric(*c.json);
    const auto t = value_text(*c.json, spare);
    if (!t) return json::completion::too_large;
    c.value = *t;
    return json::completion::deliver;
}

} // namespace detail

/// Where the records of a `Report.json()` document stand (json_project.hpp): each element of
/// `calls` a `call`, each entry of `device_metrics` a `total` (its key the `device`), each
/// entry of `configuration` a `config`, each read whole as compact JSON text.
using document_routes = json::projection<
    json::route<call, on_call_event, "calls[]", json::take_text<"", &call::metrics>,
                json::complete_with<detail::complete_call>>,
    json::route<total, on_total_event, "device_metrics.*", json::take_key<&total::device_entry>,
                json::take_text<"", &total::metrics>, json::complete_with<detail::complete_total>>,
    json::route<config, on_config_event, "configuration.*", json::take_key<&config::key>,
                json::take_text<"", &config::json>, json::complete_with<detail::complete_config>>>;

/// The push parser: `feed(chunk)` any number of times (chunks may split lines anywhere), then
/// `finish()`. An input whose first byte other than blanks is `{` is a `Report.json()`
/// document, read as a stream (json_project.hpp's `projection_parser` of `document_routes`,
/// bare non-finite words as numbers with no value); any other input is lines (format.hpp's
/// `line_parser`), `at_rest()` between lines outside a report table and a Configuration
/// block (format.hpp's `document_or_lines`). Holds the visitor by reference. Not copyable or
/// movable.
template <class Visitor>
using parser = document_or_lines<json::projection_parser<Visitor, records, document_routes, json::options{.non_finite_words = true}>,
                                 line_parser<detail::core<Visitor>>>;

/// What `detect` counts, in a few words (for `logscan detect --help`).
inline constexpr std::string_view detect_signals =
    "`Evaluate vm inference cost of ...`, `Mean ... time (std dev)`, `Name ... Duration (us)`, `Node Name  Ops ...`, "
    "`#OpName<TAB>...`; a JSON object with `\"calls\"` and `\"device_metrics\"`/`\"configuration\"` (Report.json())";

/// How much the first bytes of an input (`head`; `cut`: more input follows) look like a
/// tvm-profile: the number of `Evaluate vm inference cost of ...`, `Mean ... time (std
/// dev): ...` and table header lines (the report's `Name ... Duration (us) ...`, the graph
/// debug executor's `Node Name  Ops ...`, the original VM table's `#OpName<TAB>...`) among its
/// first 64 lines; 0 when there is none. An input whose first non-blank byte is `{`: the
/// number of `Report.json()`'s keys and marks in it (`"calls"`, `"device_metrics"`,
/// `"configuration"`, `{"microseconds":`, `"Duration (us)"`), when `"calls"` is one of at
/// least two; else 0.
constexpr std::size_t detect(std::string_view head, bool cut = true) noexcept {
    std::size_t score = 0;
    if (const std::size_t first = head.find_first_not_of(" \t\r\n"); first != std::string_view::npos && head[first] == '{') {
        // a Report.json() document: `calls` and another of its keys or wrappers
        if (head.find("\"calls\"") == std::string_view::npos) return 0;
        for (std::string_view k : {std::string_view("\"calls\""), std::string_view("\"device_metrics\""),
                                   std::string_view("\"configuration\""), std::string_view("{\"microseconds\":"),
                                   std::string_view("\"Duration (us)\"")})
            if (head.find(k) != std::string_view::npos) ++score;
        return score >= 2 ? score : 0;
    }
    internal::for_each_head_line(head, cut, 64, [&](std::string_view l) {
        if (internal::begins_with(l, "Evaluate vm inference cost of ") || (internal::begins_with(l, "Mean ") && l.find(" time (std dev): ") != std::string_view::npos) ||
            (internal::begins_with(l, "Name ") && l.find("  Duration (us)") != std::string_view::npos) ||
            detail::is_debug_header(internal::trim_right(l)) || detail::is_tab_header(l))
            ++score;
    });
    return score;
}

/// Where one input can be cut into parts parsed apart (`find_split`): before a report's
/// `Evaluate vm inference cost of ...` line, where the previous report has ended.
constexpr bool split_point(std::string_view, std::string_view next) noexcept {
    return internal::begins_with(next, "Evaluate vm inference cost of ");
}

/// The format's names (format.hpp's `LOGSCAN_FORMAT_MODULE`): `format`, `record_types` (formats.md
/// section 5, `text` and `error` included), `visitor<V>`, `parse` (`options.max_line`,
/// `options.scratch_capacity`: the source's error, `stopped`, or none; problems inside lines go to
/// `on_error` and do not stop the parse; a `Report.json()` document that breaks ends the parse, its
/// error (the reader's, `document` set) delivered and returned; an object too large for the scratch
/// buffer is an `on_error` record only) and `ndjson_visitor<Writer>` (`"line"` after `"type"`;
/// `cells` keyed by the header's column names in their order, numeric columns as numbers).
LOGSCAN_FORMAT_MODULE(format_name, records, detect, detect_signals, parser, split_point);

} // namespace logscan::tvm_profile

#endif // LOGSCAN_FORMATS_TVM_PROFILE_HPP_INCLUDED
