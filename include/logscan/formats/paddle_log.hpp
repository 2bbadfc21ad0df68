// SPDX-License-Identifier: MIT
/// \file formats/paddle_log.hpp
/// The `paddle-log` format: a PaddleDetection training log, with the summary tables of the
/// Paddle profiler and the legacy fluid profiler's report (the record contract is
/// formats.md, section 4, every generation it lists). Built from the toolkit's parts: line
/// framing, rules for the two log forms with sub-rules for the two training-step forms,
/// `rule_table` for the profiler's tables, `pipe_table` for its Perf Summary, a reader of the
/// legacy report, each table reader in an `indented_table`, and `line_router` to share lines
/// between them.
///
/// \code
/// #include <logscan/formats/paddle_log.hpp>             // (also in the umbrella <logscan.hpp>)
/// struct curve {                                         // every callback is optional
///     void on_train_step(const logscan::paddle_log::train_step& s) {
///         for (const auto& m : s.metrics())
///             if (m.key == "loss") use(s.step(), m.number().value);   // NaN for a `nan` loss
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
/// void on_log(const paddle_log::log&);               // [MM/DD HH:MM:SS] LOGGER LEVEL: MESSAGE, or YYYY-MM-DD HH:MM:SS,mmm-LEVEL: MESSAGE
/// void on_train_step(const paddle_log::train_step&); // after the log record of an `Epoch: [E] [I/N] ...` or `[Epoch:E: ]iter: I, ...` message
/// void on_table(const paddle_log::table&);           // a profiler table's title line; a legacy report's banner or section banner
/// void on_table_row(const paddle_log::table_row&);   // each row of a profiler table, of the Perf Summary, of a legacy report
/// void on_total(const paddle_log::total&);           // a legacy report's `Total time: X`
/// void on_text(const logscan::line&);                // any other non-blank line, trailing spaces removed, indent kept
/// void on_error(const logscan::error&);              // a line too long; a table too wide
/// \endcode
///
/// LEVEL is one of `DEBUG INFO WARNING ERROR CRITICAL`; LOGGER has no spaces. A log line may
/// be indented (a log pasted from a notebook): the indent is part of no field. A training
/// step's message is `Epoch: [E] [I/N]` and pairs `KEY: VALUE`, or the older `[Epoch:E: ]iter:
/// I, ` and pairs separated by `, ` (no `iters`; `epoch` only with its prefix). A KEY (letters,
/// digits and `_`, possibly in single quotes) stands at the start or after a space or a `,`;
/// its VALUE runs up to the next key, a trailing `,` and then single quotes removed. A VALUE
/// that is a number, optionally followed by one unit word (`8.49 images/s`), is a metric (a
/// non-finite one, `nan`, is null in `metrics`); `eta` is a duration (`5:05:37`, `1 day,
/// 2:03:04`) given as `eta_s`; any other value yields no metric (`metric_range` still walks it).
/// A message whose pairs give one KEY twice (a line cut short that runs into the next) is no
/// `train_step`: a record never holds two values under one key (its `log` keeps the message).
///
/// Tables: a title line (`---Operator Summary---`, `===Perf Summary===`) yields `table`; its
/// `time_unit` is read from a `Time unit: ms` / `Time Unit: s, IPS Unit: ...` note among the
/// lines between the title and the table's first header (that note yields nothing; the
/// `table` record waits for it, holding up to 8 other notes of up to 4 KiB in all, which
/// then follow it as `text`). Every table opens with a title (a bare rule line or a
/// `---Thread: NAME---` banner outside one is text); a pipe table only after `Perf Summary`.
/// A table has the indent of its title: that many spaces are set aside from its lines, and a
/// non-blank line with less indent ends it. Rows are cut by the spans of the rule line,
/// counted in code points (see `rule_table` in table.hpp); `thread` is the `NAME` of the last
/// `---Thread: NAME---` banner of the table; `depth` is the name's indentation / 2. Rule
/// lines, headers, banners, the pipe table's separator lines and a lone dash line closing a
/// table are structure and yield nothing. A log line always is a log line, also right after
/// a table.
///
/// The legacy report (`---->  Profiling Report  <----`): its `table` record carries the
/// `Place:`, `Time unit:` and merge note lines after the banner (it is delivered at the first
/// line that is none of those, so that they are known; lines after that change the section
/// banners' records only); section banners (`----  Event Summary  ----`) yield `table`;
/// `Total time: X` yields `total`; `NAME  K: V  K: V%` rows and the event table's rows (their
/// NAME before the header's `Calls` column, `threadN::` split off into `thread`, `X (R)`
/// cells as pairs: `table_row::legacy`) yield `table_row`; a blank line after the event
/// header, a log line or a profiler title ends the report.
///
/// Allocation: the parser allocates its carry buffer once, at construction; the table
/// readers keep headers, titles and held lines in fixed buffers inside the parser; nothing
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

/// `[09/20 12:00:35] ppdet.data.source.coco INFO: Load [25000 samples valid, ...]`, or the
/// older `2021-03-14 09:30:12,001-INFO: Save model to ...`.
struct log {
    std::uint64_t line;                     ///< line number
    std::string_view date;                  ///< `09/20`, `2021-03-14`
    std::string_view time;                  ///< `12:00:35`, `09:30:12,001`
    std::optional<std::string_view> logger; ///< `ppdet.data.source.coco`; none in the older form
    std::string_view level;                 ///< `DEBUG`, `INFO`, `WARNING`, `ERROR`, `CRITICAL`
    std::string_view message;               ///< the rest of the line
};

/// One `KEY: VALUE` pair of a training step.
struct metric {
    std::string_view key;   ///< `loss`, `ips` (without the quotes of `'loss': `)
    std::string_view value; ///< the value's text: `0.922204`, `8.49 images/s`, `5:05:37` (quotes removed)
    std::string_view unit;  ///< `images/s`, `MB`; empty without one (or when the value is no number)
    std::string_view number_text; ///< the number's text (`8.49`, `nan`), empty when the value is no number
    bool finite = true;           ///< false for a non-finite number (`nan`, `-inf`: formats.md's common rules)
    /// The number (thousands separators allowed; NaN or an infinity for a non-finite one);
    /// `invalid_argument` when the value is none.
    value_result<double> number() const noexcept {
        if (number_text.empty()) return {0, value.data(), std::errc::invalid_argument};
        if (!finite) {
            double v = 0;
            internal::non_finite_word(number_text, v);
            return {v, number_text.data() + number_text.size(), std::errc{}};
        }
        if (read) return {parsed, number_text.data() + number_text.size(), std::errc{}};
        return parse_grouped<double>(number_text);
    }
    double parsed = 0; ///< (the number `metric_range` read while cutting the pair, when `read`)
    bool read = false; ///< (`parsed` holds `parse_grouped<double>(number_text)`: not read again)
};

/// The pairs of a training step, lazily (no storage).
class metric_range {
public:
    constexpr explicit metric_range(std::string_view text) noexcept : s_(text) {}

private:
    struct found {
        std::size_t start = std::string_view::npos; // where the key starts, its opening quote included
        std::size_t colon = 0;                      // its `: `
        std::string_view key{};                     // the key without quotes
    };

public:
    class iterator : public internal::iterator_ops<iterator> {
    public:
        using value_type = metric;
        using difference_type = std::ptrdiff_t;
        constexpr iterator() noexcept = default;
        constexpr iterator(std::string_view s, std::size_t key) noexcept : s_(s) {
            if (key != std::string_view::npos) key_ = find_key(s_, key);
            load();
        }
        constexpr const metric& operator*() const noexcept { return m_; }
        constexpr iterator& operator++() noexcept {
            key_ = next_; // (found once, while the pair before it was read)
            load();
            return *this;
        }
        friend constexpr bool operator==(const iterator& a, const iterator& b) noexcept { return a.key_.start == b.key_.start; }

    private:
        constexpr void load() noexcept {
            if (key_.start == std::string_view::npos) return;
            next_ = find_key(s_, key_.colon + 2);
            const std::string_view v = value_text(s_, key_.colon, next_.start);
            m_.key = key_.key; // (field by field: g++ zeroes a record built whole with `rep stos` first)
            m_.value = v;
            m_.unit = m_.number_text = {};
            m_.finite = true;
            m_.parsed = 0;
            m_.read = false;
            const std::size_t sp = v.find(' ');
            const std::string_view num = v.substr(0, sp);
            const std::string_view unit = sp == std::string_view::npos ? std::string_view{} : v.substr(sp + 1);
            if (unit.find(' ') != std::string_view::npos) return;
            double nf = 0;
            if (const value_result<double> r = parse_grouped<double>(num); r.ok()) {
                m_.finite = true;
                m_.parsed = r.value;
                m_.read = true;
            } else if (internal::non_finite_word(num, nf)) {
                m_.finite = false;
            } else {
                return;
            }
            m_.number_text = num;
            m_.unit = unit;
        }
        std::string_view s_;
        found key_;  // the current pair's key (start npos: past the last pair)
        found next_; // the next pair's
        metric m_;   // (default-initialised, not `{}`: g++ zeroes a value-initialised one with `rep stos`)
    };
    constexpr iterator begin() const noexcept { return iterator(s_, 0); }
    constexpr iterator end() const noexcept { return iterator(s_, std::string_view::npos); }

    /// The value text of the first pair whose key is `key`, found by its keys alone (no value
    /// is converted on the way); none when no pair has that key. Whether bytes are a key does
    /// not depend on the pairs before them (`KEY: ` or `'KEY': `, at the start or after a space
    /// or a `,`, with no key byte before it), so the first pair with this key is where the
    /// key's bytes first stand so: they are searched for, not every key before them read.
    constexpr std::optional<std::string_view> value_of(std::string_view key) const noexcept {
        bool plain = !key.empty();
        for (const char c : key) plain = plain && key_char(c);
        if (!plain) { // (no such pair can be found by its bytes: every key found, in order)
            for (found k = find_key(s_, 0); k.start != std::string_view::npos;) {
                const found next = find_key(s_, k.colon + 2);
                if (k.key == key) return value_text(s_, k.colon, next.start);
                k = next;
            }
            return std::nullopt;
        }
        for (std::size_t at = s_.find(key); at != std::string_view::npos; at = s_.find(key, at + 1)) {
            std::size_t end = at + key.size(), start = at;
            const bool quoted = at != 0 && s_[at - 1] == '\'';
            if (quoted) {
                if (end == s_.size() || s_[end] != '\'') continue;
                start = at - 1;
                ++end;
            }
            if (s_.size() - end < 2 || s_[end] != ':' || s_[end + 1] != ' ') continue;
            if (start != 0 && s_[start - 1] != ' ' && s_[start - 1] != ',') continue;
            return value_text(s_, end, find_key(s_, end + 2).start);
        }
        return std::nullopt;
    }
    /// The pairs' keys alone, in order, found as `begin()` finds them (no value read): a range
    /// of `std::string_view` (`logscan::keys_clash(range.keys())`: the pairs give a key twice).
    class key_range {
    public:
        class iterator : public internal::iterator_ops<iterator> {
        public:
            using value_type = std::string_view;
            using difference_type = std::ptrdiff_t;
            constexpr iterator() noexcept = default;
            constexpr iterator(std::string_view s, found k) noexcept : s_(s), k_(k) {}
            constexpr std::string_view operator*() const noexcept { return k_.key; }
            constexpr iterator& operator++() noexcept {
                k_ = find_key(s_, k_.colon + 2);
                return *this;
            }
            friend constexpr bool operator==(const iterator& a, const iterator& b) noexcept { return a.k_.start == b.k_.start; }

        private:
            std::string_view s_;
            found k_;
        };
        constexpr explicit key_range(std::string_view s) noexcept : s_(s) {}
        constexpr iterator begin() const noexcept { return iterator(s_, find_key(s_, 0)); }
        constexpr iterator end() const noexcept { return iterator(s_, found{}); }

    private:
        std::string_view s_;
    };
    constexpr key_range keys() const noexcept { return key_range(s_); }

private:
    // A key's bytes, `[A-Za-z0-9_]` (looked up: a key is read back from its end a byte at a time).
    static constexpr bool key_char(char c) noexcept { return key_chars[static_cast<unsigned char>(c)]; }
    static constexpr std::array<bool, 256> key_chars = [] {
        std::array<bool, 256> t{};
        for (int c = 0; c < 256; ++c) t[static_cast<std::size_t>(c)] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        return t;
    }();
    // Where the first `: ` of `s` at or after `from` is, or npos (its `:` looked for in place,
    // `find_byte`: a step's pairs are a few bytes apart, where a call of memchr costs more).
    static constexpr std::size_t colon_space(std::string_view s, std::size_t from) noexcept {
        if (std::is_constant_evaluated()) return s.find(": ", from);
        const char *const b = s.data(), *const e = b + s.size();
        for (std::size_t at = from; at < s.size(); ++at) { // (no pointer formed past the end)
            const char* const p = internal::find_byte<':'>(b + at, e, b);
            if (p == nullptr || e - p < 2) break;
            if (p[1] == ' ') return static_cast<std::size_t>(p - b);
            at = static_cast<std::size_t>(p - b);
        }
        return std::string_view::npos;
    }
    // The first key of `s` at or after `from`: `KEY: ` or `'KEY': `, at the start or after a
    // space or a `,`.
    static constexpr found find_key(std::string_view s, std::size_t from) noexcept {
        for (std::size_t q = colon_space(s, from); q != std::string_view::npos; q = colon_space(s, q + 1)) {
            std::size_t end = q;
            const bool quoted = end > from && s[end - 1] == '\'';
            if (quoted) --end;
            std::size_t k = end;
            while (k > from && key_char(s[k - 1])) --k;
            if (k == end) continue;
            std::size_t start = k;
            if (quoted) {
                if (k == from || s[k - 1] != '\'') continue;
                start = k - 1;
            }
            if (start == 0 || s[start - 1] == ' ' || s[start - 1] == ',') return found{start, q, s.substr(k, end - k)};
        }
        return found{};
    }
    // The value after the key whose `: ` is at `colon`, up to the next key (at `next`, or npos):
    // spaces and a trailing `,` removed, then the single quotes around it.
    static constexpr std::string_view value_text(std::string_view s, std::size_t colon, std::size_t next) noexcept {
        std::string_view v = s.substr(colon + 2, (next == std::string_view::npos ? s.size() : next) - (colon + 2));
        v = internal::trim(v);
        if (!v.empty() && v.back() == ',') v = internal::trim_right(v.substr(0, v.size() - 1));
        if (v.size() >= 2 && v.front() == '\'' && v.back() == '\'') v = v.substr(1, v.size() - 2);
        return v;
    }

    std::string_view s_;
};

/// `eta` text as seconds: `5:05:37` -> 18337, `1 day, 2:03:04` -> 93784; none if not a duration.
constexpr std::optional<std::uint64_t> eta_seconds(std::string_view v) noexcept {
    // `(\d+) days?, (.*)` then `(\d+):(\d\d):(\d\d)`, read in one pass (every training line
    // has an eta); a count that does not fit is no duration
    std::uint64_t days = 0, h = 0;
    std::string_view mi, s;
    text_cursor c(v);
    if (c.unsigned_integer(days) && c.literal(" day")) {
        (void)c.literal("s");
        if (!c.literal(", ")) return std::nullopt;
    } else {
        days = 0;
        c = text_cursor(v);
    }
    if (!(c.unsigned_integer(h) && c.literal(":") && c.digits(mi) && mi.size() == 2 && c.literal(":") && c.digits(s) &&
          s.size() == 2 && c.at_end()))
        return std::nullopt;
    const auto two = [](std::string_view d) { return static_cast<std::uint64_t>((d[0] - '0') * 10 + (d[1] - '0')); };
    return ((days * 24 + h) * 60 + two(mi)) * 60 + two(s);
}

/// `Epoch: [0] [    0/12500] learning_rate: 0.000000 loss: 0.922204 eta: 5:05:37 ...`, or
/// the older `Epoch:3: iter: 120, lr: 0.010000, 'loss': '0.412300', eta: 1 day, 2:03:04`.
struct train_step {
    std::uint64_t line;                 ///< line number
    std::optional<std::uint64_t> epoch; ///< 0; none in an older `iter: I, ...` line without `Epoch:E: `
    std::uint64_t iter;                 ///< 0
    std::optional<std::uint64_t> iters; ///< 12500; none in the older form (not printed)
    std::optional<std::uint64_t> eta_s; ///< `eta` in seconds, none without a (readable) eta
    std::string_view pairs;             ///< the `KEY: VALUE ...` text
    /// Every pair but `eta`'s, in order: `for (const auto& m : s.metrics())`.
    constexpr auto metrics() const noexcept { return metric_range(pairs); }
    /// A step counter across epochs, for plotting: `epoch * iters + iter` when both are
    /// printed, else `iter` (the older form prints no `iters`). With an epoch but no `iters`
    /// (`Epoch:3: iter: 120`) each epoch's steps start again at its first `iter`: to plot
    /// across epochs, number the records in order instead (as `logscan summary` does).
    constexpr std::uint64_t step() const noexcept { return epoch && iters ? *epoch * *iters + iter : iter; }
};

/// A profiler table's title line (`---Operator Summary---`), or a legacy report's banner
/// (`----->     Profiling Report     <-----`) or section banner (`---     Event Summary     ---`).
struct table {
    std::uint64_t line;                        ///< line number
    std::string_view title;                    ///< `Operator Summary`
    std::optional<std::string_view> time_unit; ///< `ms` from `Time unit: ms`, none without it
    std::optional<std::string_view> place;     ///< a legacy report's `Place: X` (`CPU`, `CUDA`, `All`); none elsewhere
    std::optional<bool> merged;                ///< a legacy report: whether it merged all threads into one; none elsewhere
};

/// A legacy report's `Total time: 42.1875` line.
struct total {
    std::uint64_t line;         ///< line number
    std::string_view table;     ///< the report's (or its section's) title
    std::string_view kind;      ///< `Total time`
    std::string_view value;     ///< `42.1875` (`-nan`: non-finite)
};

/// A row of a profiler table (or of the Perf Summary's pipe table).
struct table_row {
    std::uint64_t line;                     ///< line number
    std::string_view table;                 ///< the table's title
    std::optional<std::string_view> thread; ///< NAME of the last `Thread: NAME` banner, none before one
    std::size_t depth;                      ///< the name's indentation / 2 (0 in the pipe table)
    std::string_view name;                  ///< the first column, trimmed
    std::span<const cell> cells;            ///< cells[i] under columns[i] (cells[0]: the name)
    std::span<const cell> columns;          ///< the header of the row's section (a legacy overhead row: its keys)
    bool legacy = false;                    ///< a row of a legacy report, whose `X (R)` cells are pairs
    /// The cell under the column named `name` (trimmed comparison), or nullptr.
    constexpr const cell* find(std::string_view column) const noexcept {
        const std::size_t i = column_lookup::index_of(columns, column);
        return i < cells.size() ? &cells[i] : nullptr;
    }
    /// The cell under the first column whose name starts with `prefix` (`"GPU Total"`), or nullptr.
    constexpr const cell* find_prefix(std::string_view prefix) const noexcept {
        const std::size_t i = column_lookup::index_of_prefix(columns, prefix);
        return i < cells.size() ? &cells[i] : nullptr;
    }
};

LOGSCAN_EVENT(on_log, "void on_log(const logscan::paddle_log::log&)");
LOGSCAN_EVENT(on_train_step, "void on_train_step(const logscan::paddle_log::train_step&)");
LOGSCAN_EVENT(on_table, "void on_table(const logscan::paddle_log::table&)");
LOGSCAN_EVENT(on_table_row, "void on_table_row(const logscan::paddle_log::table_row&)");
LOGSCAN_EVENT(on_total, "void on_total(const logscan::paddle_log::total&)");

/// A `train_step`'s pairs but `eta` whose value is a number (its unit apart; a non-finite one
/// null): the `metrics` field (formats.md: a pair whose value is anything else yields nothing).
struct step_metrics {
    const train_step& step; ///< the record
    /// Calls `f(key, value)` for each pair in order.
    template <class F>
    constexpr void for_each_entry(F&& f) const {
        for (const metric& m : step.metrics()) {
            if (m.key == "eta" || m.number_text.empty()) continue;
            if (!m.finite) f(m.key, nullptr);
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

/// One value of a table cell: `-` is null, a number a number (`,` separators allowed; a
/// non-finite one null), anything else its text.
constexpr std::optional<loose_number> cell_value(std::string_view t) noexcept {
    double v = 0;
    if (t == "-" || internal::non_finite_word(t, v)) return std::nullopt;
    return loose_number{t, true};
}
/// A legacy report's `X (R)` cell (`0.200000 (0.800000)`): its two parts, or none when the
/// text is not of that form.
constexpr std::optional<std::pair<std::string_view, std::string_view>> paired_cell(std::string_view t) noexcept {
    const std::size_t open = t.find(" (");
    if (open == 0 || open == std::string_view::npos || t.back() != ')') return std::nullopt;
    const std::string_view x = t.substr(0, open), r = t.substr(open + 2, t.size() - open - 3);
    if (r.empty() || x.find_first_of(" (") != std::string_view::npos || r.find_first_of(" )") != std::string_view::npos)
        return std::nullopt;
    return std::pair{x, r};
}
/// An `X (R)` cell's value: `[X, R]` when both are numbers (a non-finite one null).
struct cell_pair {
    std::string_view x, r; ///< the two parts
    /// Calls `f(value)` for X and R.
    template <class F>
    constexpr void for_each_item(F&& f) const {
        f(cell_value(x));
        f(cell_value(r));
    }
};
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
            if (row.legacy) {
                if (const auto p = paired_cell(t)) {
                    if (is_number_or_non_finite(p->first) && is_number_or_non_finite(p->second))
                        return f(name, cell_pair{p->first, p->second});
                    return f(name, t);
                }
            }
            if (t.find(" / ") != std::string_view::npos) f(name, cell_values{t});
            else f(name, cell_value(t));
        });
    }
};
constexpr row_cells cells_of(const table_row& r) noexcept { return {r}; } ///< the `cells` field
/// A `total`'s value under its kind: the `cells` field (`{"Total time": 42.1875}`).
struct total_cells {
    const total& t; ///< the record
    /// Calls `f(kind, value)`.
    template <class F>
    constexpr void for_each_entry(F&& f) const {
        f(t.kind, cell_value(t.value));
    }
};
constexpr total_cells total_cells_of(const total& t) noexcept { return {t}; } ///< a `total`'s `cells` field

/// The format's records, described once (record.hpp): `record_types`, the visitor check,
/// `ndjson_visitor` come from here.
using records = record_list<
    record_kind<"log", log, on_log_event, field<"date", &log::date>, field<"time", &log::time>,
                field<"logger", &log::logger>, field<"level", &log::level>, field<"message", &log::message>>,
    record_kind<"train_step", train_step, on_train_step_event, field<"epoch", &train_step::epoch>,
                field<"iter", &train_step::iter>, field<"iters", &train_step::iters>,
                field<"eta_s", &train_step::eta_s>, field<"metrics", metrics_of>, field<"units", units_of>>,
    record_kind<"table", table, on_table_event, field<"title", &table::title>, field<"time_unit", &table::time_unit>,
                field<"place", &table::place>, field<"merged", &table::merged>>,
    record_kind<"table_row", table_row, on_table_row_event, field<"table", &table_row::table>,
                field<"thread", &table_row::thread>, field<"depth", &table_row::depth>,
                field<"name", &table_row::name>, field<"cells", cells_of>>,
    record_kind<"total", total, on_total_event, field<"table", &total::table>, field<"kind", &total::kind>,
                field<"cells", total_cells_of>>,
    text_kind, error_kind>;

namespace detail {

// A bounded copy of a line's text.
template <std::size_t N>
struct held_text {
    char bytes[N] = {};
    std::size_t size = 0;
    std::string_view view() const noexcept { return {bytes, size}; }
    void assign(std::string_view s) noexcept {
        size = s.size() < N ? s.size() : N;
        internal::copy_bytes(bytes, s.data(), size);
    }
};

template <class V>
struct state {
    V& vis;
    // the readers' indents, to give their notes back whole (`indented_table`; set by the core)
    indent_keeper* table_indent = nullptr;
    indent_keeper* pipe_indent = nullptr;
    indent_keeper* report_indent = nullptr;

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
        const table t{title_line, title.view(), unit, std::nullopt, std::nullopt};
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
    flow on_table_text(const line& l) { return table_text(l, table_indent); }
    // A note of a table (`l` without the table's indent; `k` puts it back).
    flow table_text(const line& l, indent_keeper* k) {
        const line whole = k ? k->whole(l) : l;
        if (pending) {
            if (const auto m = match<R"(Time [Uu]nit: ([^,\s]+)(?:,.*)?)">(internal::trim_right(l.text)))
                return settle(m.template get<1>());
            const std::string_view t = internal::trim_right(whole.text);
            if (nnotes < notes.size() && t.size() <= sizeof note_bytes.bytes - note_bytes.size) {
                notes[nnotes++] = note{whole.number, whole.offset, note_bytes.size, t.size()};
                std::memcpy(note_bytes.bytes + note_bytes.size, t.data(), t.size());
                note_bytes.size += t.size();
                return flow::proceed;
            }
            if (settle() == flow::stop) return flow::stop;
        }
        return text(whole);
    }
    flow row(const logscan::table_row& r, bool pipe) {
        if (settle() == flow::stop) return flow::stop;
        std::optional<std::string_view> thread;
        if (!r.banner.empty()) {
            std::string_view b = r.banner;
            if (internal::begins_with(b, "Thread:")) b = internal::trim(b.substr(7));
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

    // legacy report events (`legacy_report`)
    flow report_table(const table& t) { return LOGSCAN_VISIT(vis, on_table, t); }
    flow report_total(const total& t) { return LOGSCAN_VISIT(vis, on_total, t); }
    flow report_row(const table_row& r) { return LOGSCAN_VISIT(vis, on_table_row, r); }
    flow report_text(const line& l) { return text(report_indent ? report_indent->whole(l) : l); }
};

// The pipe table's events: rows with depth 0, the rest as the rule table's.
template <class V>
struct pipe_events {
    state<V>* st;
    flow on_table_title(const table_title& t) { return st->on_table_title(t); }
    flow on_table_header(const table_header& h) { return st->on_table_header(h); }
    flow on_table_row(const logscan::table_row& r) { return st->row(r, true); }
    flow on_table_text(const line& l) { return st->table_text(l, st->pipe_indent); }
    flow on_table_end(std::uint64_t n) { return st->on_table_end(n); }
    // (the pipe table sees a line before the rule table, which may still hold the line
    // before it: its error waits until the line has been routed, to keep line order)
    flow on_error(const error& e) {
        if (st->deferred && st->on_error(*st->deferred) == flow::stop) return flow::stop;
        st->deferred = e;
        return flow::proceed;
    }
};

//--- the legacy profiler report (formats.md section 4, "Legacy profiler report") ---//

constexpr bool is_letter(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
// The title of a frame `-+ OPEN spaces TITLE spaces CLOSE -+` (OPEN/CLOSE `>`/`<` for a
// report's banner, none for a section banner), TITLE starting with a letter; empty if none.
constexpr std::string_view frame_title(std::string_view s, char open, char close) noexcept {
    std::size_t b = internal::leading_run(s, '-'), e = s.size();
    if (b == 0 || b == e) return {};
    e -= internal::trailing_run(s, '-'); // (past b: s[b] is no dash)
    if (e == s.size()) return {};
    if (open != 0) {
        if (b == e || s[b] != open || s[e - 1] != close || e - b < 2) return {};
        ++b, --e;
    }
    if (b >= e || s[b] != ' ' || s[e - 1] != ' ') return {};
    while (b < e && s[b] == ' ') ++b; // (spaces only: a tab is part of the title)
    while (e > b && s[e - 1] == ' ') --e;
    const std::string_view t = s.substr(b, e - b);
    return !t.empty() && is_letter(t[0]) ? t : std::string_view{};
}
// (a line that does not begin with a dash, most of a report's, costs one compare and no call)
constexpr std::string_view report_banner(std::string_view s) noexcept {
    return !s.empty() && s[0] == '-' ? frame_title(s, '>', '<') : std::string_view{};
}
constexpr std::string_view section_banner(std::string_view s) noexcept {
    return !s.empty() && s[0] == '-' ? frame_title(s, 0, 0) : std::string_view{};
}

// The columns of the event table after `Event` (their order as printed, any subset after `Calls`).
inline constexpr std::array<std::string_view, 8> event_columns{"Calls", "Total", "CPU Time (Ratio)", "GPU Time (Ratio)",
                                                               "Min.",  "Max.",  "Ave.",             "Ratio."};

// Reads a legacy profiler report: a table reader for `line_router` (formats.md section 4).
template <class State>
class legacy_report {
public:
    explicit legacy_report(State& st) noexcept : st_(st) {}
    bool active() const noexcept { return phase_ != phase::idle; }
    bool at_rest() const noexcept { return phase_ == phase::idle; }
    // A banner, or a title that ends the report (`indented_table`: also deeper than its indent).
    static constexpr bool opens_region(std::string_view s) noexcept {
        return !report_banner(s).empty() || internal::is_table_title(s);
    }

    // (only a banner opens a report, and it begins with its dashes; `'\n'`: an empty line)
    bool declines(char first) const noexcept { return phase_ == phase::idle && first != '-'; }
    table_feed feed(const line& l, offer) {
        if (l.text.empty() ? phase_ == phase::idle : declines(l.text[0])) return table_feed::not_mine;
        const std::string_view s = internal::trim_right(l.text);
        if (const std::string_view t = report_banner(s); !t.empty()) {
            if (close(l.number) == flow::stop) return table_feed::stop;
            return open(l, t);
        }
        if (phase_ == phase::idle) return table_feed::not_mine;
        const std::string_view section = section_banner(s);
        if (section.empty() && internal::is_table_title(s)) { // a profiler summary's title: for the other readers
            if (close(l.number) == flow::stop) return table_feed::stop;
            return table_feed::not_mine;
        }
        if (!section.empty()) return to_feed(open_section(l, section));
        if (phase_ == phase::events && s.empty()) return to_feed(close(l.number)); // the report's end
        if (s.empty()) return table_feed::consumed;
        if (internal::is_binary_text(s)) return to_feed(text(l));
        if (phase_ == phase::events) return to_feed(event_row(l, s));
        return to_feed(head_line(l, s));
    }
    table_feed keep(const line& l) { return to_feed(text(l)); }
    flow close(std::uint64_t) {
        if (phase_ == phase::idle) return flow::proceed;
        const flow f = announce();
        phase_ = phase::idle;
        return f;
    }
    flow finish() { return close(0); }

private:
    enum class phase : unsigned char { idle, head, events };
    static constexpr std::size_t max_cells = 16;

    static table_feed to_feed(flow f) noexcept { return f == flow::stop ? table_feed::stop : table_feed::consumed; }

    table_feed open(const line& l, std::string_view t) {
        phase_ = phase::head;
        announced_ = false;
        banner_line_ = l.number;
        title_.assign(t);
        section_.size = 0;
        in_section_ = false;
        unit_.size = place_.size = 0;
        has_unit_ = has_place_ = merged_ = false;
        return table_feed::consumed;
    }
    table make_table(std::uint64_t number, std::string_view t) const noexcept {
        return table{number, t, has_unit_ ? std::optional<std::string_view>(unit_.view()) : std::nullopt,
                     has_place_ ? std::optional<std::string_view>(place_.view()) : std::nullopt, merged_};
    }
    // The report's `table` record, once what the lines after its banner say is known.
    flow announce() {
        if (announced_) return flow::proceed;
        announced_ = true;
        return st_.report_table(make_table(banner_line_, title_.view()));
    }
    flow text(const line& l) {
        if (announce() == flow::stop) return flow::stop;
        return st_.report_text(l);
    }
    std::string_view table_name() const noexcept { return in_section_ ? section_.view() : title_.view(); }
    flow open_section(const line& l, std::string_view t) {
        if (announce() == flow::stop) return flow::stop;
        section_.assign(t);
        in_section_ = true;
        phase_ = phase::head;
        return st_.report_table(make_table(l.number, section_.view()));
    }

    // A line before the event table's header.
    flow head_line(const line& l, std::string_view s) {
        if (internal::equals(s, "Note! This Report merge all thread info into one.")) return merged_ = true, flow::proceed;
        if (s.size() > 7 && internal::begins_with(s, "Place: ") && s[7] != ' ') { // `Place: X`, X the rest
            place_.assign(s.substr(7));
            return has_place_ = true, flow::proceed;
        }
        if (s.size() > 11 && internal::begins_with(s, "Time unit: ") && s.find(' ', 11) == std::string_view::npos) { // one word
            unit_.assign(s.substr(11));
            return has_unit_ = true, flow::proceed;
        }
        if (internal::begins_with(s, "Sorted by ")) return flow::proceed;
        if (announce() == flow::stop) return flow::stop;
        if (internal::begins_with(s, "Total time:")) {
            const std::string_view v = internal::trim(s.substr(11));
            if (is_number_or_non_finite(v)) return st_.report_total(total{l.number, table_name(), "Total time", v});
        }
        if (event_header(s)) return phase_ = phase::events, flow::proceed;
        if (const std::optional<flow> f = overhead_row(l, s)) return *f;
        return st_.report_text(l);
    }

    // `Event  Calls  Total  ...`: keeps the columns and where `Calls` starts.
    bool event_header(std::string_view s) noexcept {
        std::size_t at = 0;
        if (!internal::begins_with(s, "Event") || next_wide_cell(s, at) != "Event") return false;
        std::size_t n = 0;
        std::array<std::uint8_t, event_columns.size()> cols{};
        std::size_t calls_at = 0;
        while (at < s.size()) {
            const std::string_view c = next_wide_cell(s, at);
            if (c.empty()) break;
            std::size_t id = 0;
            while (id < event_columns.size() && event_columns[id] != c) ++id;
            if (id == event_columns.size() || (n == 0) != (id == 0) || n == cols.size()) return false;
            if (n == 0) calls_at = static_cast<std::size_t>(c.data() - s.data());
            cols[n++] = static_cast<std::uint8_t>(id);
        }
        if (n == 0) return false;
        ncols_ = n;
        cols_ = cols;
        calls_at_ = calls_at;
        return true;
    }

    // `NAME  K: V  K: V ...` (an overhead or memcpy row); true when the line has that shape
    // (its record, or its text when a V is no number, delivered: how that went), else none.
    std::optional<flow> overhead_row(const line& l, std::string_view s) {
        for (std::size_t i = s.find("  "); i != std::string_view::npos; i = s.find("  ", i)) {
            std::size_t j = i;
            while (j < s.size() && s[j] == ' ') ++j;
            if (internal::trim(s.substr(0, i)).empty()) {
                i = j;
                continue;
            }
            std::size_t n = 0;
            bool numbers = true, pairs = true;
            std::size_t p = j;
            while (p < s.size() && n + 1 < max_cells) {
                const std::size_t k = p;
                while (p < s.size() && is_letter(s[p])) ++p;
                if (p == k || p + 1 >= s.size() || s[p] != ':' || s[p + 1] != ' ') {
                    pairs = false;
                    break;
                }
                const std::string_view key = s.substr(k, p - k);
                p += 2; // (`K: V`: one space)
                const std::size_t v = p;
                while (p < s.size() && s[p] != ' ') ++p;
                if (p == v) break;
                std::string_view value = s.substr(v, p - v);
                if (value.back() == '%') value.remove_suffix(1);
                if (!is_number_or_non_finite(value)) numbers = false;
                ++n;
                cols_cells_[n] = cell{key};
                cells_[n] = cell{value};
                while (p < s.size() && s[p] == ' ') ++p;
            }
            if (n == 0 || !pairs || p != s.size()) {
                i = j;
                continue;
            }
            if (!numbers) {
                return st_.report_text(l);
            }
            const std::string_view name = s.substr(0, i);
            cells_[0] = cell{name};
            cols_cells_[0] = cell{};
            const table_row r{l.number, table_name(), std::nullopt, cells_[0].depth(), internal::trim(name),
                              std::span<const cell>(cells_.data(), n + 1), std::span<const cell>(cols_cells_.data(), n + 1),
                              true};
            return st_.report_row(r);
        }
        return std::nullopt;
    }

    // A line after the event table's header: a row whose cells match the header's, else text.
    flow event_row(const line& l, std::string_view s) {
        const std::string_view name = s.substr(0, calls_at_ < s.size() ? calls_at_ : s.size());
        std::size_t n = 0;
        for (std::size_t p = name.size(); p < s.size();) {
            while (p < s.size() && s[p] == ' ') ++p;
            if (p == s.size()) break;
            const std::size_t b = p;
            bool paren = false;
            while (p < s.size() && s[p] != ' ') paren |= s[p++] == '(';
            if (!paren && p + 1 < s.size() && s[p + 1] == '(') { // `X (R)`, ending at its `)`
                std::size_t q = p + 2;
                while (q < s.size() && s[q] != ' ' && s[q] != ')') ++q;
                if (q < s.size() && s[q] == ')' && q > p + 2) p = q + 1;
            }
            if (n == ncols_ || n + 1 == max_cells) return text(l); // (more cells than columns)
            cells_[++n] = cell{s.substr(b, p - b)};
        }
        if (n != ncols_) return text(l);
        cells_[0] = cell{name};
        cols_cells_[0] = cell{"Event"};
        for (std::size_t i = 0; i < ncols_; ++i) cols_cells_[i + 1] = cell{event_columns[cols_[i]]};
        std::string_view op = internal::trim(name);
        std::optional<std::string_view> thread;
        if (internal::begins_with(op, "thread")) {
            std::size_t d = 6;
            while (d < op.size() && op[d] >= '0' && op[d] <= '9') ++d;
            if (d > 6 && op.size() > d + 2 && internal::begins_with(op.substr(d), "::")) {
                thread = op.substr(0, d);
                op = op.substr(d + 2);
            }
        }
        if (announce() == flow::stop) return flow::stop;
        const table_row r{l.number, table_name(), thread, cells_[0].depth(), op,
                          std::span<const cell>(cells_.data(), n + 1), std::span<const cell>(cols_cells_.data(), n + 1), true};
        return st_.report_row(r);
    }

    State& st_;
    phase phase_ = phase::idle;
    bool announced_ = true, in_section_ = false, has_unit_ = false, has_place_ = false, merged_ = false;
    std::uint64_t banner_line_ = 0;
    held_text<256> title_{}, section_{};
    held_text<64> unit_{}, place_{};
    std::size_t ncols_ = 0, calls_at_ = 0;
    std::array<std::uint8_t, event_columns.size()> cols_{};
    std::array<cell, max_cells> cells_{}, cols_cells_{};
};

// The tables matter to a visitor that wants their records, their notes as text, or their
// errors; to any other, the format's lines are the rules' alone (a log line is a log line
// in a table too: the rules go first), and the table readers are left out.
template <class V>
inline constexpr bool wants_tables =
    wants_any<V, on_table_event, on_table_row_event, on_total_event, on_text_event, on_error_event>;

// The log rules' and the training-step rules' assisting readers (rules.hpp's `assisted`):
// one pass over the line's head, the message taken whole (a line holds no `\n`, all `.*`
// excludes); each fills its pattern's groups and declines what it does not read whole.
constexpr bool is_level(std::string_view lv) noexcept {
    return lv == "INFO" || lv == "WARNING" || lv == "DEBUG" || lv == "ERROR" || lv == "CRITICAL";
}
// The two log forms' patterns (their rules' readers below decide: `read_by`, so neither
// pattern's matcher is compiled into the parser; the tests hold each reader to its pattern).
inline constexpr fixed_string log_pattern{R"(\[(\d\d/\d\d) (\d\d:\d\d:\d\d)\] (\S+) (DEBUG|INFO|WARNING|ERROR|CRITICAL):(?: (.*))?)"};
inline constexpr fixed_string legacy_log_pattern{
    R"((\d\d\d\d-\d\d-\d\d) (\d\d:\d\d:\d\d,\d\d\d)-(DEBUG|INFO|WARNING|ERROR|CRITICAL):(?: (.*))?)"};
// `[MM/DD HH:MM:SS] LOGGER LEVEL: MESSAGE`; groups: line, date, time, logger, level, message.
constexpr bool read_log_line(std::string_view t, std::array<std::string_view, 6>& g) noexcept {
    const char* p = t.data();
    const char* const e = p + t.size();
    if (e - p < 18 || !printf_row<"[99/99 99:99:99] ">::starts(t)) return false;
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
    if (!is_level(lv) || p == e || *p != ':' || (e - p > 1 && p[1] != ' ')) return false;
    g[4] = lv;
    g[5] = e - p > 1 ? std::string_view(p + 2, static_cast<std::size_t>(e - (p + 2))) : std::string_view{};
    g[0] = t;
    return true;
}
// `YYYY-MM-DD HH:MM:SS,mmm-LEVEL: MESSAGE`; groups: line, date, time, level, message.
constexpr bool read_legacy_log(std::string_view t, std::array<std::string_view, 5>& g) noexcept {
    const char* p = t.data();
    const char* const e = p + t.size();
    if (e - p < 29 || !printf_row<"9999-99-99 99:99:99,999-">::starts(t)) return false;
    g[1] = std::string_view(p, 10);
    g[2] = std::string_view(p + 11, 12);
    p += 24;
    const char* const level = p;
    while (p != e && *p >= 'A' && *p <= 'Z') ++p;
    const std::string_view lv(level, static_cast<std::size_t>(p - level));
    if (!is_level(lv) || p == e || *p != ':' || (e - p > 1 && p[1] != ' ')) return false;
    g[3] = lv;
    g[4] = e - p > 1 ? std::string_view(p + 2, static_cast<std::size_t>(e - (p + 2))) : std::string_view{};
    g[0] = t;
    return true;
}
// `Epoch: [E] [ I/N] PAIRS`; groups: text, epoch, iter, iters, pairs.
// The digits at `p` (advanced past them) as `v`; false when there are none.
constexpr bool read_digits(const char*& p, const char* e, std::string_view& v) noexcept {
    const char* const b = p;
    while (p != e && *p >= '0' && *p <= '9') ++p;
    v = std::string_view(b, static_cast<std::size_t>(p - b));
    return p != b;
}
constexpr bool read_epoch(std::string_view t, std::array<std::string_view, 5>& g) noexcept {
    const char* p = t.data();
    const char* const e = p + t.size();
    const auto number = [&](std::string_view& v) { return read_digits(p, e, v); };
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
// `[Epoch:E: ]iter: I, PAIRS`; groups: text, epoch, iter, pairs.
constexpr bool read_iter(std::string_view t, std::array<std::string_view, 4>& g) noexcept {
    const char* p = t.data();
    const char* const e = p + t.size();
    const auto number = [&](std::string_view& v) { return read_digits(p, e, v); };
    g[1] = {};
    if (e - p >= 6 && std::string_view(p, 6) == "Epoch:") {
        p += 6;
        if (!number(g[1]) || e - p < 2 || p[0] != ':' || p[1] != ' ') return false;
        p += 2;
    }
    if (e - p < 6 || std::string_view(p, 6) != "iter: ") return false;
    p += 6;
    if (!number(g[2]) || e - p < 2 || p[0] != ',' || p[1] != ' ') return false;
    g[3] = std::string_view(p + 2, static_cast<std::size_t>(e - (p + 2)));
    g[0] = t;
    return true;
}

template <class V>
flow step_record(state<V>& st, const rule_context& ctx, std::string_view epoch, std::string_view iter,
                 std::string_view iters, std::string_view pairs_text) {
    if (keys_clash(metric_range(pairs_text).keys())) return flow::proceed; // (the log record keeps the message)
    return LOGSCAN_VISIT_LAZY(st.vis, on_train_step, train_step, [&] {
        const std::string_view pairs = internal::trim_right(pairs_text);
        std::optional<std::uint64_t> eta;
        if (const auto v = metric_range(pairs).value_of("eta")) eta = eta_seconds(*v); // (keys only)
        const auto opt = [](std::string_view d) {
            return d.empty() ? std::optional<std::uint64_t>() : std::optional<std::uint64_t>(parse_number<std::uint64_t>(d).value);
        };
        return train_step{ctx.current.number, opt(epoch), parse_number<std::uint64_t>(iter).value, opt(iters), eta, pairs};
    });
}

// A rule runs only when the visitor wants what it yields (`when`, rules.hpp).
template <class V>
auto make_rules(state<V>& st) {
    // the two messages of a training step, in either log form
    const auto steps = [&] {
        return rule_set(
            rule<R"(Epoch: \[(\d+)\] \[ *(\d+)/(\d+)\] (.*))",
                 "Epoch: [0] [    0/12500] learning_rate: 0.000000 loss: 0.922204 eta: 5:05:37">(
                [&](const auto& m, rule_context& ctx) {
                    return step_record(st, ctx, m.template get<1>(), m.template get<2>(), m.template get<3>(), m.template get<4>());
                })
                .assisted(read_epoch)
                .when(wants_any<V, on_train_step_event>),
            rule<R"((?:Epoch:(\d+): )?iter: (\d+), (.*))", "Epoch:3: iter: 120, lr: 0.010000, 'loss': 'nan'",
                 "iter: 140, lr: 0.010000, 'loss': '0.388100', time: 0.733, eta: 0:41:20">(
                [&](const auto& m, rule_context& ctx) {
                    return step_record(st, ctx, m.template get<1>(), m.template get<2>(), {}, m.template get<3>());
                })
                .assisted(read_iter)
                .when(wants_any<V, on_train_step_event>));
    };
    constexpr bool logs = wants_any<V, on_log_event, on_train_step_event> || wants_tables<V>; // (a log line ends a table)
    return rule_set(
        rule<log_pattern, "[09/20 12:00:35] ppdet.data.source.coco INFO: Load [25000 samples valid, 0 samples invalid]",
             "[09/20 12:00:35] reader WARNING: Shared memory size is less than 1G">(
            [&](const auto& m, rule_context& ctx) {
                if (st.settle() == flow::stop) return flow::stop;
                return LOGSCAN_VISIT_LAZY(st.vis, on_log, log, [&] {
                    return log{ctx.current.number, m.template get<1>(), m.template get<2>(), m.template get<3>(),
                               m.template get<4>(), m.template get<5>()};
                });
            })
            .template then<5>(steps())
            .read_by(read_log_line)
            .when(logs),
        rule<legacy_log_pattern, "2021-03-14 09:30:12,001-INFO: Save model to ckpt/yolo_tiny_demo/model_final">(
            [&](const auto& m, rule_context& ctx) {
                if (st.settle() == flow::stop) return flow::stop;
                return LOGSCAN_VISIT_LAZY(st.vis, on_log, log, [&] {
                    return log{ctx.current.number, m.template get<1>(), m.template get<2>(), std::nullopt,
                               m.template get<3>(), m.template get<4>()};
                });
            })
            .template then<4>(steps())
            .read_by(read_legacy_log)
            .when(logs));
}

template <class V>
struct fallback {
    state<V>* st;
    /// The modes in which it yields nothing (rules.hpp: their lines nobody's rule can take
    /// are passed over unread): every mode when the visitor wants no text and no table (a
    /// title waits for its time unit only in a table).
    static constexpr std::uint32_t idle_modes() noexcept {
        return wants_any<V, on_text_event> || wants_tables<V> ? 0u : ~0u;
    }
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
using rule_table_t = indented_table<rule_table<state<V>, 64, 8192>>;
template <class V>
using pipe_table_t = indented_table<pipe_table<pipe_events<V>, 64, 8192>>;
template <class V>
using report_t = indented_table<legacy_report<state<V>>>;

} // namespace detail

namespace detail {

// The format's reader of lines (a line_parser core, format.hpp): the legacy report, the pipe
// table, the rule table and the rules, sharing lines through a line_router; each table
// reader set apart from the indent of its table.
template <class Visitor>
class core {
    static_assert(records::accepts<Visitor>());

public:
    core(Visitor& vis, const format_options&)
        : st_{vis}, pipe_ev_{&st_}, report_(st_), pipes_(pipe_ev_, "Perf Summary"), tables_(st_, position_unit::code_points, true),
          rules_(make_rules(st_), fallback<Visitor>{&st_},
                 rule_options{.strip_ansi = false, .trim_lines = true, .strip_capacity = 0}),
          router_(rules_, report_, pipes_, tables_) {
        router_.rules_first(); // a log line is a log line, also right below a table's last row
        st_.table_indent = &tables_;
        st_.pipe_indent = &pipes_;
        st_.report_indent = &report_;
    }
    core(const core&) = delete;
    core& operator=(const core&) = delete;
    flow read_line(const line& l) {
        if constexpr (!wants_tables<Visitor>) return rules_.feed(l);
        if (router_.feed(l) == flow::stop) return flow::stop;
        if (!st_.deferred) return flow::proceed;
        const error e = *st_.deferred;
        st_.deferred.reset();
        return st_.on_error(e);
    }
    /// (line_parser: with no table wanted, the lines nobody wants passed over unread)
    line_taken take_line(const char* p, const char* e, std::uint64_t number, std::uint64_t offset) {
        if constexpr (!wants_tables<Visitor> && requires { rules_.take_line(p, e, number, offset); })
            return rules_.take_line(p, e, number, offset);
        else
            return {};
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
    /// (a pipe table's remembered title too), the legacy report, the rules' mode.
    auto readers() const noexcept { return std::tie(st_, report_, pipes_, tables_, rules_); }

private:
    state<Visitor> st_;
    pipe_events<Visitor> pipe_ev_;
    report_t<Visitor> report_;
    pipe_table_t<Visitor> pipes_;
    rule_table_t<Visitor> tables_;
    reader_t<Visitor> rules_;
    // the legacy report first (its banners are framed titles too), then the pipe table: it
    // sees the title lines the rule table takes as structure
    line_router<reader_t<Visitor>, report_t<Visitor>, pipe_table_t<Visitor>, rule_table_t<Visitor>> router_;
};

} // namespace detail

/// The push parser (format.hpp's `line_parser`): `feed(chunk)` any number of times (chunks
/// may split lines anywhere), then `finish()`; `at_rest()` between lines with no table open
/// and no title waiting for its time unit or remembered for a pipe table. Holds the visitor
/// by reference. Not copyable or movable (its readers refer to its state).
template <class Visitor>
using parser = line_parser<detail::core<Visitor>>;

namespace detail {
// A log line of either form, indented or not (the log rules' language).
constexpr bool is_log_line(std::string_view l) noexcept {
    l = internal::trim(l);
    std::array<std::string_view, 6> g{};
    std::array<std::string_view, 5> h{};
    return read_log_line(l, g) || read_legacy_log(l, h);
}
// A profiler summary's title (`---Operator Summary---`, `===Perf Summary===`) or a legacy
// report's banner (`----->   Profiling Report   <-----`), indented or not.
constexpr bool is_table_title(std::string_view l) noexcept {
    l = internal::trim(l);
    return internal::title_text(l).ends_with("Summary") || !report_banner(l).empty();
}
} // namespace detail

/// What `detect` counts, in a few words (for `logscan detect --help`).
inline constexpr std::string_view detect_signals =
    "`[MM/DD HH:MM:SS] LOGGER LEVEL: ...` and `YYYY-MM-DD HH:MM:SS,mmm-LEVEL: ...` lines, profiler titles "
    "`---...Summary---`, `--->  Profiling Report  <---` banners";

/// How much the first bytes of an input (`head`; `cut`: more input follows) look like a
/// paddle-log: the number of log lines of either form (`[MM/DD HH:MM:SS] LOGGER LEVEL: ...`,
/// `YYYY-MM-DD HH:MM:SS,mmm-LEVEL: ...`), profiler table titles (`---Operator Summary---`,
/// `===Perf Summary===`) and legacy report banners (`---->  Profiling Report  <----`) among its
/// first 64 lines, each possibly indented; 0 when there is none. (Both log forms are specific:
/// a bracketed date without a year, or Python logging's `asctime` joined to the level by `-`.)
constexpr std::size_t detect(std::string_view head, bool cut = true) noexcept {
    std::size_t score = 0;
    internal::for_each_head_line(head, cut, 64, [&](std::string_view l) {
        if (detail::is_log_line(l) || detail::is_table_title(l)) ++score;
    });
    return score;
}

/// Where one input can be cut into parts parsed apart (`find_split`): after a log line (of
/// either form), which ends every table and report (the parser is then at rest).
constexpr bool split_point(std::string_view previous, std::string_view) noexcept { return detail::is_log_line(previous); }

/// The format's names (format.hpp's `LOGSCAN_FORMAT_MODULE`): `format`, `record_types` (formats.md
/// section 4, `text` and `error` included), `visitor<V>`, `parse` (`options.max_line`: the source's
/// error, `stopped`, or none; problems inside the input go to `on_error` and do not stop the parse)
/// and `ndjson_visitor<Writer>` (`"line"` after `"type"`).
LOGSCAN_FORMAT_MODULE(format_name, records, detect, detect_signals, parser, split_point);

} // namespace logscan::paddle_log

#endif // LOGSCAN_FORMATS_PADDLE_LOG_HPP_INCLUDED
