// SPDX-License-Identifier: MIT
/// \file formats/paddle_log.hpp
/// The `paddle-log` format: a PaddleDetection training log, with the summary tables of the
/// Paddle profiler (the record contract is formats.md, section 4). Built from the toolkit's
/// parts only: line framing, one rule for the log line with a sub-rule for training steps,
/// `rule_table` for the profiler's tables, `pipe_table` for its Perf Summary, and
/// `line_router` to share lines between them.
///
/// \code
/// #include <logscan/formats/paddle_log.hpp>             // (also in the umbrella <logscan.hpp>)
/// struct curve {                                         // every callback is optional
///     void on_train_step(const logscan::paddle_log::train_step& s) {
///         for (const auto& m : s.metrics())
///             if (m.key == "loss") use(s.iter, m.number().value);
///     }
/// };
/// curve v;
/// logscan::file_source src("train.log");
/// logscan::error e = logscan::paddle_log::parse(src, v);
/// // or, for your own I/O: logscan::paddle_log::parser<curve> p(v); p.feed(chunk); ...; p.finish();
/// \endcode
///
/// Events (records are views into the current line or the readers' buffers, valid during
/// the call):
/// \code
/// void on_log(const paddle_log::log&);               // [MM/DD HH:MM:SS] LOGGER LEVEL: MESSAGE
/// void on_train_step(const paddle_log::train_step&); // after the log record of an `Epoch: [E] [I/N] ...` line
/// void on_table(const paddle_log::table&);           // a profiler table's title line
/// void on_table_row(const paddle_log::table_row&);   // each row of a profiler table or of the Perf Summary
/// void on_text(const logscan::line&);                // any other non-blank line, trailing spaces removed
/// void on_error(const logscan::error&);              // a line too long; a table too wide
/// \endcode
///
/// LEVEL is one of `DEBUG INFO WARNING ERROR CRITICAL`; LOGGER has no spaces. A training
/// step's message is `Epoch: [E] [I/N]` and pairs `KEY: VALUE` (KEY of letters, digits and
/// `_`, at the start or after a space; VALUE up to the next key, a trailing `,` removed). A
/// VALUE that is a number, optionally followed by one unit word (`8.49 images/s`), is a
/// number; `eta` is a duration (`5:05:37`, `1 day, 2:03:04`, `67 days, 10:28:48`) given as
/// `eta_s`.
///
/// Tables: a title line (`---Operator Summary---`, `===Perf Summary===`) yields `table`; its
/// `time_unit` is read from a `Time unit: ms` / `Time Unit: s, IPS Unit: ...` note among the
/// lines between the title and the table's first header (that note yields nothing; the
/// `table` record waits for it, holding up to 8 other notes of up to 4 KiB in all, which
/// then follow it as `text`). Rows are cut by the spans of the rule line, counted in code
/// points (see `rule_table` in table.hpp); `thread` is the `NAME` of the last
/// `---Thread: NAME---` banner of the table; `depth` is the name's indentation / 2. Rule
/// lines, headers, banners, the pipe table's separator lines and a lone dash line closing a
/// table are structure and yield nothing. A log line always is a log line, also right after
/// a table.
///
/// Allocation: the parser allocates its carry buffer and ANSI strip buffer once, at
/// construction; the table readers keep headers in fixed buffers inside the parser; nothing
/// while parsing.
#ifndef LOGSCAN_FORMATS_PADDLE_LOG_HPP_INCLUDED
#define LOGSCAN_FORMATS_PADDLE_LOG_HPP_INCLUDED

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "../format.hpp" // (config, error, lines, source, visit, num, record, ndjson)
#include "../regex.hpp"
#include "../route.hpp"
#include "../rules.hpp"
#include "../table.hpp"

namespace logscan::paddle_log {

/// The format's name, as the command line and `detect` know it.
inline constexpr std::string_view format_name = "paddle-log";

/// `[09/20 12:00:35] ppdet.data.source.coco INFO: Load [25000 samples valid, ...]`.
struct log {
    std::uint64_t line;       ///< line number
    std::string_view date;    ///< `09/20`
    std::string_view time;    ///< `12:00:35`
    std::string_view logger;  ///< `ppdet.data.source.coco`
    std::string_view level;   ///< `DEBUG`, `INFO`, `WARNING`, `ERROR`, `CRITICAL`
    std::string_view message; ///< the rest of the line
};

/// One `KEY: VALUE` pair of a training step.
struct metric {
    std::string_view key;   ///< `loss`, `ips`
    std::string_view value; ///< the value's text: `0.922204`, `8.49 images/s`, `5:05:37`
    std::string_view unit;  ///< `images/s`, `MB`; empty without one (or when the value is no number)
    std::string_view number_text; ///< the number's text (`8.49`), empty when the value is no number
    /// The number (thousands separators allowed); `invalid_argument` when the value is none.
    value_result<double> number() const noexcept {
        if (number_text.empty()) return {0, value.data(), std::errc::invalid_argument};
        return parse_grouped<double>(number_text);
    }
};

/// The pairs of a training step, lazily (no storage).
class metric_range {
public:
    constexpr explicit metric_range(std::string_view text) noexcept : s_(text) {}
    class iterator {
    public:
        using value_type = metric;
        using difference_type = std::ptrdiff_t;
        constexpr iterator() noexcept = default;
        constexpr iterator(std::string_view s, std::size_t key) noexcept : s_(s), key_(key) { load(); }
        constexpr const metric& operator*() const noexcept { return m_; }
        constexpr const metric* operator->() const noexcept { return &m_; }
        constexpr iterator& operator++() noexcept {
            key_ = next_;
            load();
            return *this;
        }
        constexpr iterator operator++(int) noexcept {
            iterator t = *this;
            ++*this;
            return t;
        }
        friend constexpr bool operator==(const iterator& a, const iterator& b) noexcept { return a.key_ == b.key_; }

    private:
        constexpr void load() noexcept {
            if (key_ == std::string_view::npos) return;
            std::size_t colon = 0;
            key_ = find_key(s_, key_, colon);
            if (key_ == std::string_view::npos) return;
            std::size_t next_colon = 0;
            next_ = find_key(s_, colon + 2, next_colon);
            const std::string_view v = value_text(s_, colon, next_);
            m_ = metric{s_.substr(key_, colon - key_), v, {}, {}};
            const std::size_t sp = v.find(' ');
            const std::string_view num = v.substr(0, sp);
            const std::string_view unit = sp == std::string_view::npos ? std::string_view{} : v.substr(sp + 1);
            if (unit.find(' ') == std::string_view::npos && parse_grouped<double>(num).ok()) {
                m_.number_text = num;
                m_.unit = unit;
            }
        }
        std::string_view s_{};
        std::size_t key_ = std::string_view::npos;
        std::size_t next_ = std::string_view::npos;
        metric m_{};
    };
    constexpr iterator begin() const noexcept { return iterator(s_, 0); }
    constexpr iterator end() const noexcept { return iterator(s_, std::string_view::npos); }

    /// The value text of the first pair whose key is `key`, found by its keys alone (no value
    /// is converted on the way); none when no pair has that key.
    constexpr std::optional<std::string_view> value_of(std::string_view key) const noexcept {
        std::size_t colon = 0;
        for (std::size_t k = find_key(s_, 0, colon); k != std::string_view::npos;) {
            std::size_t next_colon = 0;
            const std::size_t next = find_key(s_, colon + 2, next_colon);
            if (s_.substr(k, colon - k) == key) return value_text(s_, colon, next);
            k = next;
            colon = next_colon;
        }
        return std::nullopt;
    }

private:
    static constexpr bool key_char(char c) noexcept {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }
    // The start of the first key of `s` at or after `from` (npos if none); `colon` its `: `.
    static constexpr std::size_t find_key(std::string_view s, std::size_t from, std::size_t& colon) noexcept {
        for (std::size_t q = s.find(": ", from); q != std::string_view::npos; q = s.find(": ", q + 1)) {
            std::size_t k = q;
            while (k > from && key_char(s[k - 1])) --k;
            if (k < q && (k == 0 || s[k - 1] == ' ')) {
                colon = q;
                return k;
            }
        }
        return std::string_view::npos;
    }
    // The value after the key whose `: ` is at `colon`, up to the next key (at `next`, or npos):
    // spaces and a trailing `,` removed.
    static constexpr std::string_view value_text(std::string_view s, std::size_t colon, std::size_t next) noexcept {
        std::string_view v = s.substr(colon + 2, (next == std::string_view::npos ? s.size() : next) - (colon + 2));
        v = internal::trim(v);
        if (!v.empty() && v.back() == ',') v = internal::trim_right(v.substr(0, v.size() - 1));
        return v;
    }

    std::string_view s_;
};

/// `eta` text as seconds: `5:05:37` -> 18337, `1 day, 2:03:04` -> 93784; none if not a duration.
constexpr std::optional<std::uint64_t> eta_seconds(std::string_view v) noexcept {
    std::uint64_t days = 0;
    if (const auto m = match<R"((\d+) days?, (.*))">(v)) {
        const auto d = parse_number<std::uint64_t>(m.template get<1>());
        if (!d.ok()) return std::nullopt;
        days = d.value;
        v = m.template get<2>();
    }
    const auto t = match<R"((\d+):(\d\d):(\d\d))">(v);
    if (!t) return std::nullopt;
    const auto h = parse_number<std::uint64_t>(t.template get<1>());
    const auto mi = parse_number<std::uint64_t>(t.template get<2>());
    const auto s = parse_number<std::uint64_t>(t.template get<3>());
    if (!h.ok() || !mi.ok() || !s.ok()) return std::nullopt;
    return ((days * 24 + h.value) * 60 + mi.value) * 60 + s.value;
}

/// `Epoch: [0] [    0/12500] learning_rate: 0.000000 loss: 0.922204 eta: 5:05:37 ...`.
struct train_step {
    std::uint64_t line;                 ///< line number
    std::uint64_t epoch;                ///< 0
    std::uint64_t iter;                 ///< 0
    std::uint64_t iters;                ///< 12500
    std::optional<std::uint64_t> eta_s; ///< `eta` in seconds, none without a (readable) eta
    std::string_view pairs;             ///< the `KEY: VALUE ...` text
    /// Every pair but `eta`'s, in order: `for (const auto& m : s.metrics())`.
    constexpr auto metrics() const noexcept { return metric_range(pairs); }
};

/// A profiler table's title line: `---Operator Summary---`.
struct table {
    std::uint64_t line;                        ///< line number
    std::string_view title;                    ///< `Operator Summary`
    std::optional<std::string_view> time_unit; ///< `ms` from `Time unit: ms`, none without it
};

/// A row of a profiler table (or of the Perf Summary's pipe table).
struct table_row {
    std::uint64_t line;                     ///< line number
    std::string_view table;                 ///< the table's title
    std::optional<std::string_view> thread; ///< NAME of the last `Thread: NAME` banner, none before one
    std::size_t depth;                      ///< the name's indentation / 2 (0 in the pipe table)
    std::string_view name;                  ///< the first column, trimmed
    std::span<const cell> cells;            ///< cells[i] under columns[i] (cells[0]: the name)
    std::span<const cell> columns;          ///< the header of the row's section
    /// The cell under the column named `name` (trimmed comparison), or nullptr.
    constexpr const cell* find(std::string_view column) const noexcept {
        const std::size_t i = column_lookup::index_of(columns, column);
        return i < cells.size() ? &cells[i] : nullptr;
    }
};

LOGSCAN_EVENT(on_log, "void on_log(const logscan::paddle_log::log&)");
LOGSCAN_EVENT(on_train_step, "void on_train_step(const logscan::paddle_log::train_step&)");
LOGSCAN_EVENT(on_table, "void on_table(const logscan::paddle_log::table&)");
LOGSCAN_EVENT(on_table_row, "void on_table_row(const logscan::paddle_log::table_row&)");

/// A `train_step`'s pairs but `eta`, each value a number when it is one (its unit apart),
/// else its text: the `metrics` field.
struct step_metrics {
    const train_step& step; ///< the record
    /// Calls `f(key, value)` for each pair in order.
    template <class F>
    constexpr void for_each_entry(F&& f) const {
        for (const metric& m : step.metrics()) {
            if (m.key == "eta") continue;
            if (m.number_text.empty()) f(m.key, m.value);
            else f(m.key, loose_number{m.number_text, true});
        }
    }
};
/// A `train_step`'s units (`"ips": "images/s"`) of the metrics that have one: the `units` field.
struct step_units {
    const train_step& step; ///< the record
    /// Calls `f(key, unit)` for each pair with a unit, in order.
    template <class F>
    constexpr void for_each_entry(F&& f) const {
        for (const metric& m : step.metrics())
            if (m.key != "eta" && !m.unit.empty()) f(m.key, m.unit);
    }
};
constexpr step_metrics metrics_of(const train_step& s) noexcept { return {s}; } ///< the `metrics` field
constexpr step_units units_of(const train_step& s) noexcept { return {s}; }     ///< the `units` field

/// One value of a table cell: `-` is null, a number a number (`,` separators allowed),
/// anything else its text.
constexpr std::optional<loose_number> cell_value(std::string_view t) noexcept {
    if (t == "-") return std::nullopt;
    return loose_number{t, true};
}
/// A cell of several values (`1.5 / 2.0 / -`): an array of `cell_value`s.
struct cell_values {
    std::string_view text; ///< the cell's text
    /// Calls `f(value)` for each value in order.
    template <class F>
    constexpr void for_each_item(F&& f) const {
        for (const value_part& p : multi_values(text)) f(cell_value(p.text));
    }
};
/// A `table_row`'s cells under their columns' names, empty ones left out: the `cells` field.
struct row_cells {
    const table_row& row; ///< the record
    /// Calls `f(column name, value)` for each non-empty cell after the name, in order.
    template <class F>
    constexpr void for_each_entry(F&& f) const {
        for_each_named_cell(row.cells, row.columns, [&](std::string_view name, std::string_view t) {
            if (t.find(" / ") != std::string_view::npos) f(name, cell_values{t});
            else f(name, cell_value(t));
        });
    }
};
constexpr row_cells cells_of(const table_row& r) noexcept { return {r}; } ///< the `cells` field

/// The format's records, described once (record.hpp): `record_types`, the visitor check,
/// `ndjson_visitor` come from here.
using records = record_list<
    record_kind<"log", log, on_log_event, field<"date", &log::date>, field<"time", &log::time>,
                field<"logger", &log::logger>, field<"level", &log::level>, field<"message", &log::message>>,
    record_kind<"train_step", train_step, on_train_step_event, field<"epoch", &train_step::epoch>,
                field<"iter", &train_step::iter>, field<"iters", &train_step::iters>,
                field<"eta_s", &train_step::eta_s>, field<"metrics", metrics_of>, field<"units", units_of>>,
    record_kind<"table", table, on_table_event, field<"title", &table::title>, field<"time_unit", &table::time_unit>>,
    record_kind<"table_row", table_row, on_table_row_event, field<"table", &table_row::table>,
                field<"thread", &table_row::thread>, field<"depth", &table_row::depth>,
                field<"name", &table_row::name>, field<"cells", cells_of>>,
    text_kind, error_kind>;

/// The `"type"` of every record the format yields (formats.md section 4), `text` and `error` included.
inline constexpr const auto& record_types = records::types;

/// True when V has at least one of the format's callbacks (or derives from `validate_only`).
template <class V>
concept visitor = records::accepted_by<V>;

namespace detail {

// A bounded copy of a line's text.
template <std::size_t N>
struct held_text {
    char bytes[N] = {};
    std::size_t size = 0;
    std::string_view view() const noexcept { return {bytes, size}; }
    void assign(std::string_view s) noexcept {
        size = s.size() < N ? s.size() : N;
        std::memcpy(bytes, s.data(), size);
    }
};

template <class V>
struct state {
    V& vis;

    // a title whose `table` record waits for its time unit, and the notes held meanwhile
    bool pending = false;
    std::uint64_t title_line = 0;
    held_text<256> title{};
    struct note {
        std::uint64_t number, offset;
        std::size_t from, size;
    };
    std::array<note, 8> notes{};
    std::size_t nnotes = 0;
    held_text<4096> note_bytes{};
    std::optional<error> deferred{}; // the pipe table's error about the line being routed

    // no title waiting for its time unit, no error waiting for its line (the tables and the
    // rules answer for themselves)
    bool at_rest() const noexcept { return !pending && !deferred; }
    flow text(const line& l) { return text_record(vis, l); }
    // Emits the pending title's record (with its time unit, if found) and the held notes.
    flow settle(std::optional<std::string_view> unit = std::nullopt) {
        if (!pending) return flow::proceed;
        pending = false;
        const table t{title_line, title.view(), unit};
        if (LOGSCAN_VISIT(vis, on_table, t) == flow::stop) return flow::stop;
        for (std::size_t i = 0; i < nnotes; ++i) {
            const note& n = notes[i];
            if (text(line{std::string_view(note_bytes.bytes + n.from, n.size), n.number, n.offset}) == flow::stop)
                return flow::stop;
        }
        nnotes = 0;
        note_bytes.size = 0;
        return flow::proceed;
    }

    // rule_table and pipe_table events
    flow on_table_title(const table_title& t) {
        if (settle() == flow::stop) return flow::stop;
        pending = true;
        title_line = t.line;
        title.assign(t.text);
        return flow::proceed;
    }
    flow on_table_header(const table_header&) { return settle(); }
    flow on_table_banner(const table_banner&) { return settle(); }
    flow on_table_end(std::uint64_t) { return settle(); }
    flow on_table_text(const line& l) {
        if (pending) {
            const std::string_view t = internal::trim_right(l.text);
            if (const auto m = match<R"(Time [Uu]nit: ([^,\s]+)(?:,.*)?)">(t)) return settle(m.template get<1>());
            if (nnotes < notes.size() && t.size() <= sizeof note_bytes.bytes - note_bytes.size) {
                notes[nnotes++] = note{l.number, l.offset, note_bytes.size, t.size()};
                std::memcpy(note_bytes.bytes + note_bytes.size, t.data(), t.size());
                note_bytes.size += t.size();
                return flow::proceed;
            }
            if (settle() == flow::stop) return flow::stop;
        }
        return text(l);
    }
    flow row(const logscan::table_row& r, bool pipe) {
        if (settle() == flow::stop) return flow::stop;
        std::optional<std::string_view> thread;
        if (!r.banner.empty()) {
            std::string_view b = r.banner;
            if (b.starts_with("Thread:")) b = internal::trim(b.substr(7));
            thread = b;
        }
        const table_row row{r.line, r.title, thread, pipe ? 0 : r.cells[0].depth(), r.cells[0].text(), r.cells, r.header};
        return LOGSCAN_VISIT(vis, on_table_row, row);
    }
    flow on_table_row(const logscan::table_row& r) { return row(r, false); }
    flow on_error(const error& e) {
        if (settle() == flow::stop) return flow::stop;
        return report_error(vis, e);
    }
};

// The pipe table's events: rows with depth 0, the rest as the rule table's.
template <class V>
struct pipe_events {
    state<V>* st;
    flow on_table_title(const table_title& t) { return st->on_table_title(t); }
    flow on_table_header(const table_header& h) { return st->on_table_header(h); }
    flow on_table_row(const logscan::table_row& r) { return st->row(r, true); }
    flow on_table_text(const line& l) { return st->on_table_text(l); }
    flow on_table_end(std::uint64_t n) { return st->on_table_end(n); }
    // (the pipe table sees a line before the rule table, which may still hold the line
    // before it: its error waits until the line has been routed, to keep line order)
    flow on_error(const error& e) {
        if (st->deferred && st->on_error(*st->deferred) == flow::stop) return flow::stop;
        st->deferred = e;
        return flow::proceed;
    }
};

// The tables matter to a visitor that wants their records, their notes as text, or their
// errors; to any other, the format's lines are the rules' alone (a log line is a log line
// in a table too: the rules go first), and the table readers are left out.
template <class V>
inline constexpr bool wants_tables = wants_any<V, on_table_event, on_table_row_event, on_text_event, on_error_event>;

// The log rule's and the training-step rule's assisting readers (rules.hpp's `assisted`):
// one pass over the line's head, the message taken whole (a line holds no `\n`, all `.*`
// excludes); each fills its pattern's groups and declines what it does not read whole.
// `[MM/DD HH:MM:SS] LOGGER LEVEL: MESSAGE`; groups: line, date, time, logger, level, message.
constexpr bool read_log_line(std::string_view t, std::array<std::string_view, 6>& g) noexcept {
    const char* p = t.data();
    const char* const e = p + t.size();
    if (e - p < 18 || !internal::fits_template(p, "[99/99 99:99:99] ")) return false;
    g[1] = std::string_view(p + 1, 5);
    g[2] = std::string_view(p + 7, 8);
    p += 17;
    const char* const logger = p; // \S+, then one space
    while (p != e && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && *p != '\f' && *p != '\v') ++p;
    if (p == logger || p == e || *p != ' ') return false;
    g[3] = std::string_view(logger, static_cast<std::size_t>(p - logger));
    const char* const level = ++p;
    while (p != e && *p >= 'A' && *p <= 'Z') ++p;
    const std::string_view lv(level, static_cast<std::size_t>(p - level));
    if (lv != "INFO" && lv != "WARNING" && lv != "DEBUG" && lv != "ERROR" && lv != "CRITICAL") return false;
    if (e - p < 2 || p[0] != ':' || p[1] != ' ') return false;
    g[4] = lv;
    g[5] = std::string_view(p + 2, static_cast<std::size_t>(e - (p + 2)));
    g[0] = t;
    return true;
}
// `Epoch: [E] [ I/N] PAIRS`; groups: text, epoch, iter, iters, pairs.
constexpr bool read_epoch(std::string_view t, std::array<std::string_view, 5>& g) noexcept {
    const char* p = t.data();
    const char* const e = p + t.size();
    const auto number = [&](std::string_view& v) {
        const char* const b = p;
        while (p != e && *p >= '0' && *p <= '9') ++p;
        v = std::string_view(b, static_cast<std::size_t>(p - b));
        return p != b;
    };
    if (e - p < 8 || std::string_view(p, 8) != "Epoch: [") return false;
    p += 8;
    if (!number(g[1]) || e - p < 3 || p[0] != ']' || p[1] != ' ' || p[2] != '[') return false;
    p += 3;
    while (p != e && *p == ' ') ++p;
    if (!number(g[2]) || p == e || *p != '/') return false;
    ++p;
    if (!number(g[3]) || e - p < 2 || p[0] != ']' || p[1] != ' ') return false;
    g[4] = std::string_view(p + 2, static_cast<std::size_t>(e - (p + 2)));
    g[0] = t;
    return true;
}

// A rule runs only when the visitor wants what it yields (`when`, rules.hpp).
template <class V>
auto make_rules(state<V>& st) {
    return rule_set(
        rule<R"(\[(\d\d/\d\d) (\d\d:\d\d:\d\d)\] (\S+) (DEBUG|INFO|WARNING|ERROR|CRITICAL): (.*))",
             "[09/20 12:00:35] ppdet.data.source.coco INFO: Load [25000 samples valid, 0 samples invalid]",
             "[09/20 12:00:35] reader WARNING: Shared memory size is less than 1G">(
            [&](const auto& m, rule_context& ctx) {
                if (st.settle() == flow::stop) return flow::stop;
                return LOGSCAN_VISIT_LAZY(st.vis, on_log, log, [&] {
                    return log{ctx.current.number, m.template get<1>(), m.template get<2>(), m.template get<3>(),
                               m.template get<4>(), internal::trim_right(m.template get<5>())};
                });
            })
            .template then<5>(rule<R"(Epoch: \[(\d+)\] \[ *(\d+)/(\d+)\] (.*))",
                                   "Epoch: [0] [    0/12500] learning_rate: 0.000000 loss: 0.922204 eta: 5:05:37">(
                [&](const auto& m, rule_context& ctx) {
                    return LOGSCAN_VISIT_LAZY(st.vis, on_train_step, train_step, [&] {
                        const std::string_view pairs = internal::trim_right(m.template get<4>());
                        std::optional<std::uint64_t> eta;
                        if (const auto v = metric_range(pairs).value_of("eta")) eta = eta_seconds(*v); // (keys only)
                        return train_step{ctx.current.number, parse_number<std::uint64_t>(m.template get<1>()).value,
                                          parse_number<std::uint64_t>(m.template get<2>()).value,
                                          parse_number<std::uint64_t>(m.template get<3>()).value, eta, pairs};
                    });
                })
                .assisted(read_epoch)
                .when(wants_any<V, on_train_step_event>))
            .assisted(read_log_line)
            .when(wants_any<V, on_log_event, on_train_step_event> || wants_tables<V>)); // (a log line ends a table)
}

template <class V>
struct fallback {
    state<V>* st;
    flow operator()(const line& l) const {
        if (internal::trim_right(l.text).empty()) return flow::proceed;
        if (st->settle() == flow::stop) return flow::stop;
        return st->text(l);
    }
};

template <class V>
using rules_t = decltype(make_rules(std::declval<state<V>&>()));
template <class V>
using reader_t = rule_reader<rules_t<V>, fallback<V>>;
template <class V>
using rule_table_t = rule_table<state<V>, 64, 8192>;
template <class V>
using pipe_table_t = pipe_table<pipe_events<V>, 64, 8192>;

} // namespace detail

namespace detail {

// The format's reader of lines (a line_parser core, format.hpp): the pipe table, the rule
// table and the rules, sharing lines through a line_router.
template <class Visitor>
class core {
    static_assert(records::accepts<Visitor>());

public:
    core(Visitor& vis, const format_options&)
        : st_{vis}, pipe_ev_{&st_}, pipes_(pipe_ev_), tables_(st_),
          rules_(make_rules(st_), fallback<Visitor>{&st_}, rule_options{.strip_ansi = false, .strip_capacity = 0}),
          router_(rules_, pipes_, tables_) {
        router_.rules_first(); // a log line is a log line, also right below a table's last row
    }
    flow read_line(const line& l) {
        if constexpr (!wants_tables<Visitor>) return rules_.feed(l);
        if (router_.feed(l) == flow::stop) return flow::stop;
        if (!st_.deferred) return flow::proceed;
        const error e = *st_.deferred;
        st_.deferred.reset();
        return st_.on_error(e);
    }
    flow line_too_long(const error& e) { // no table goes on past it
        if (router_.close(e.line) == flow::stop) return flow::stop;
        return st_.on_error(e);
    }
    flow finish() {
        if (router_.finish() == flow::stop) return flow::stop;
        return st_.settle();
    }
    /// What carries state from line to line: a title waiting for its time unit, the tables
    /// (a pipe table's remembered title too), the rules' mode.
    auto readers() const noexcept { return std::tie(st_, pipes_, tables_, rules_); }

private:
    state<Visitor> st_;
    pipe_events<Visitor> pipe_ev_;
    pipe_table_t<Visitor> pipes_;
    rule_table_t<Visitor> tables_;
    reader_t<Visitor> rules_;
    // the pipe table first: it sees the title lines the rule table takes as structure
    line_router<reader_t<Visitor>, pipe_table_t<Visitor>, rule_table_t<Visitor>> router_;
};

} // namespace detail

/// The push parser (format.hpp's `line_parser`): `feed(chunk)` any number of times (chunks
/// may split lines anywhere), then `finish()`; `at_rest()` between lines with no table open
/// and no title waiting for its time unit or remembered for a pipe table. Holds the visitor
/// by reference. Not copyable or movable (its readers refer to its state).
template <class Visitor>
using parser = line_parser<detail::core<Visitor>>;

/// The visitor that writes every record as formats.md's NDJSON through an `ndjson_writer`
/// (`"type"`, `"line"`, then the fields in the contract's order): `records`'s.
template <class Writer>
using ndjson_visitor = records::ndjson<Writer>;

namespace detail {
// `[MM/DD HH:MM:SS] LOGGER LEVEL: ...` (the log rule's language)
constexpr bool is_log_line(std::string_view l) noexcept {
    return static_cast<bool>(match<R"(\[\d\d/\d\d \d\d:\d\d:\d\d\] \S+ (?:DEBUG|INFO|WARNING|ERROR|CRITICAL): .*)">(l));
}
} // namespace detail

/// What `detect` counts, in a few words (for `logscan detect --help`).
inline constexpr std::string_view detect_signals = "`[MM/DD HH:MM:SS] LOGGER LEVEL: ...` lines, profiler titles `---...Summary---`";

/// How much the first bytes of an input (`head`; `cut`: more input follows) look like a
/// paddle-log: the number of log lines `[MM/DD HH:MM:SS] LOGGER LEVEL: ...` and profiler
/// table titles (`---Operator Summary---`, `===Perf Summary===`) among its first 64 lines;
/// 0 when there is none.
constexpr std::size_t detect(std::string_view head, bool cut = true) noexcept {
    std::size_t score = 0;
    internal::for_each_head_line(head, cut, 64, [&](std::string_view l) {
        if (detail::is_log_line(l)) ++score;
        else if (match<R"([-=]{3,}[^-=]*Summary[-=]{3,} *)">(l)) ++score;
    });
    return score;
}

/// Where one input can be cut into parts parsed apart (`find_split`): after a log line,
/// which ends every table (the parser is then at rest).
constexpr bool split_point(std::string_view previous, std::string_view) noexcept { return detail::is_log_line(previous); }

/// `parse(source, vis, options)` reads a whole source (`file_source`, `fd_source`,
/// `memory_source`, ...), `parse(text, vis, options)` a buffer in memory (format.hpp's
/// `format_parse`; `options.max_line`): the source's error, `stopped`, or none; problems
/// inside the input go to `on_error` and do not stop the parse.
inline constexpr format_parse<parser> parse{};

/// The format as generic code sees it (format.hpp's `format_entry`; formats/registry.hpp).
using format = format_entry<format_name, records, detect, detect_signals, parser, split_point>;

} // namespace logscan::paddle_log

#endif // LOGSCAN_FORMATS_PADDLE_LOG_HPP_INCLUDED
