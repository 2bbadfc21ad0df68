// SPDX-License-Identifier: MIT
/// \file table.hpp
/// Readers for the text tables profilers print: fed line by line, delivering rows as views.
///
/// Three shapes, each a reader fed `logscan::line`s (for example from a `line_splitter`
/// callback). `feed` answers whether the line belonged to the table: `table_feed::consumed`,
/// or `table_feed::not_mine` — the table has ended (or never started) and the caller handles
/// the line itself — or `table_feed::stop` when a callback stopped the parse.
///
/// - `rule_table` (Paddle profiler): a rule line of dash runs separated by spaces
///   (`-----  ------  -----`) gives the column spans; the next line is the header and a rule
///   closes it; rows follow until the next rule. A rule after rows that is followed by a
///   header and another rule starts a new section with its own header. Banner lines
///   (`---Thread: NAME---`) inside the body are reported and remembered for the rows after
///   them. A blank line inside the rows ends the table (Paddle omits the closing rule of
///   its last table). A lone dash line (one run of dashes, no spaces) closes the table; so
///   does a title line (`---Title---`, `===Title===`) after the rows, which is then left to
///   the caller; `close()` ends it from outside.
///   Lines in the table region that are none of these (notes) go to `on_table_text`.
///   Cell i runs from the start of span i to the start of span i+1; positions count UTF-8
///   code points by default (Python's `str.format` pads by characters).
/// - `aligned_table` (TVM): `start(header_line)` splits the header on runs of two or more
///   spaces (names may hold single spaces: `Duration (us)`). The first column is
///   left-aligned, every other column right-aligned to its header's right edge: a cell is
///   assigned to the column whose header right edge it ends on; cells may be empty. A line
///   of dashes starts the footer (`Sum`, `Total` rows, flagged `footer`); a blank line, or a
///   line whose cells do not fit the columns, ends the table (not_mine).
///   With `column_match::in_order` (for printf-style tables whose header is not aligned
///   with the data, like MegEngine's memory tables) a row's cells are its runs of text
///   separated by two or more spaces outside brackets (`0.43MiB(    448512bytes)` is one
///   cell), taken in order; a row must have exactly one cell per column.
/// - `pipe_table` (`| a | b |`): the first pipe line is the header; `|---|---|` separator
///   lines are skipped; the table ends at the first line that does not start with `|`.
///
/// Events (every one optional, see visit.hpp):
/// \code
/// struct my_visitor {
///     void on_table_header(const logscan::table_header& h); // h.columns[i].text()
///     void on_table_row(const logscan::table_row& r);       // r.cells[i] under r.header[i]
///     void on_table_banner(const logscan::table_banner& b); // rule_table only
///     void on_table_text(const logscan::line& l);           // a note inside the table region
///     void on_table_end(std::uint64_t line);                // the line that ended it (0 at end of input)
///     void on_error(const logscan::error& e);               // e.g. too_many_columns
/// };
/// logscan::rule_table<my_visitor> t{vis};
/// // for every line: if (t.feed(l) == logscan::table_feed::not_mine) { ... the caller's line ... }
/// t.finish();
/// \endcode
///
/// Memory is constant: the readers keep the current header line (and banner) in fixed
/// buffers inside the reader object (`HeaderCapacity` bytes) and at most `MaxColumns`
/// columns; a header with more columns is reported as `too_many_columns` and its table is
/// skipped as text. Nothing allocates.
///
/// Cell helpers: `cell::text()` (trimmed), `cell::indent()`, `cell::depth()` (indent / 2),
/// `cell::number<T>()` (thousands separators allowed), `multi_values(text)` (lazy
/// `a / b / c` with `-` placeholders; `value_part::number<T>()`).
#ifndef LOGSCAN_TABLE_HPP_INCLUDED
#define LOGSCAN_TABLE_HPP_INCLUDED

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "config.hpp"
#include "error.hpp"
#include "lines.hpp"
#include "num.hpp"
#include "visit.hpp"

namespace logscan {

//=== cells ===//

namespace internal {
constexpr bool is_space(char c) noexcept { return c == ' ' || c == '\t'; }
constexpr std::string_view trim(std::string_view s) noexcept {
    std::size_t b = 0, e = s.size();
    while (b < e && is_space(s[b])) ++b;
    while (e > b && is_space(s[e - 1])) --e;
    return s.substr(b, e - b);
}
constexpr std::string_view trim_right(std::string_view s) noexcept {
    std::size_t e = s.size();
    while (e > 0 && is_space(s[e - 1])) --e;
    return s.substr(0, e);
}
} // namespace internal

/// One cell of a table row or header: a view into the line (or the reader's header copy).
struct cell {
    std::string_view raw; ///< the cell's bytes as cut from the line, spaces included

    /// The text without leading and trailing spaces.
    constexpr std::string_view text() const noexcept { return internal::trim(raw); }
    /// True when the cell holds only spaces.
    constexpr bool empty() const noexcept { return text().empty(); }
    /// Number of leading spaces (indentation).
    constexpr std::size_t indent() const noexcept {
        std::size_t n = 0;
        while (n < raw.size() && raw[n] == ' ') ++n;
        return n == raw.size() ? 0 : n;
    }
    /// Nesting depth of an indented name: leading spaces / 2.
    constexpr std::size_t depth() const noexcept { return indent() / 2; }
    /// The trimmed text as a number of type T, `,` thousands separators allowed
    /// (`logscan::parse_grouped`): `{value, ptr, ec}`.
    template <parsable_number T>
    constexpr value_result<T> number() const noexcept { return parse_grouped<T>(text()); }
};

/// One part of a multi-value cell (`1.67 / 0.00 / -`).
struct value_part {
    std::string_view text; ///< trimmed text of the part
    /// True for the `-` placeholder (no value).
    constexpr bool placeholder() const noexcept { return text == "-"; }
    /// The part as a number of type T (thousands separators allowed).
    template <parsable_number T>
    constexpr value_result<T> number() const noexcept { return parse_grouped<T>(text); }
};

/// A lazy range over the parts of `a / b / c` (separator: `" / "`); no storage.
class multi_value_range {
public:
    constexpr explicit multi_value_range(std::string_view s) noexcept : s_(internal::trim(s)) {}
    class iterator {
    public:
        using value_type = value_part;
        using difference_type = std::ptrdiff_t;
        constexpr iterator() noexcept = default;
        constexpr iterator(std::string_view rest, bool done) noexcept : rest_(rest), done_(done) { cut(); }
        constexpr value_part operator*() const noexcept { return {internal::trim(cur_)}; }
        constexpr iterator& operator++() noexcept {
            if (next_ == std::string_view::npos) {
                done_ = true;
            } else {
                rest_ = rest_.substr(next_ + 3);
                cut();
            }
            return *this;
        }
        constexpr iterator operator++(int) noexcept {
            iterator t = *this;
            ++*this;
            return t;
        }
        constexpr bool operator==(const iterator& o) const noexcept {
            return done_ == o.done_ && (done_ || rest_.data() == o.rest_.data());
        }

    private:
        constexpr void cut() noexcept {
            next_ = rest_.find(" / ");
            cur_ = next_ == std::string_view::npos ? rest_ : rest_.substr(0, next_);
        }
        std::string_view rest_{}, cur_{};
        std::size_t next_ = std::string_view::npos;
        bool done_ = true;
    };
    constexpr iterator begin() const noexcept { return iterator(s_, s_.empty()); }
    constexpr iterator end() const noexcept { return iterator(); }
    /// Number of parts (walks the text).
    constexpr std::size_t size() const noexcept {
        std::size_t n = 0;
        for (auto it = begin(); it != end(); ++it) ++n;
        return n;
    }

private:
    std::string_view s_;
};

/// The parts of a multi-value cell text, lazily: `for (auto p : multi_values(c.text()))`.
constexpr multi_value_range multi_values(std::string_view text) noexcept { return multi_value_range(text); }

//=== events ===//

/// A table's header (for `rule_table`, one per section).
struct table_header {
    std::uint64_t line;             ///< line number of the header line
    std::span<const cell> columns;  ///< one cell per column: the header names
    std::size_t section;            ///< 0 for the first header of a table, then 1, 2, ...
};

/// A row of cells, one per column of the current header.
struct table_row {
    std::uint64_t line;            ///< line number of the row
    std::span<const cell> cells;   ///< cells[i] belongs to header[i]; missing cells are empty
    std::span<const cell> header;  ///< the current header's columns
    std::size_t section;           ///< the header section the row is in
    std::string_view banner;       ///< text of the last banner (`Thread: NAME` -> `Thread: NAME`), or empty
    bool footer;                   ///< aligned_table: a row after the dashes rule (`Sum`, `Total`)

    /// The cell under the header named `name` (trimmed comparison), or nullptr.
    constexpr const cell* find(std::string_view name) const noexcept {
        for (std::size_t i = 0; i < header.size() && i < cells.size(); ++i)
            if (header[i].text() == name) return &cells[i];
        return nullptr;
    }
};

/// A banner line inside a rule table's body: `---Thread: All threads merged---`.
struct table_banner {
    std::uint64_t line;    ///< line number
    std::string_view text; ///< the text between the dashes, trimmed
};

/// What a reader did with a line.
enum class table_feed : unsigned char {
    consumed, ///< the line belonged to the table (an event may have been delivered)
    not_mine, ///< the table has ended or not started: the caller handles this line
    stop,     ///< a callback returned `flow::stop`
};

/// How `aligned_table` assigns a row's cells to columns.
enum class column_match : unsigned char {
    header_edges, ///< first column left-aligned, the others right-aligned to their header (TVM)
    in_order,     ///< cells separated by 2+ spaces, one per column, in order
};

/// How column positions are counted.
enum class position_unit : unsigned char {
    code_points, ///< UTF-8 code points (Python `str.format` padding)
    bytes,       ///< bytes
};

//=== line shapes ===//

namespace internal {
/// A rule line: runs of '-' separated by spaces, at least two runs or a run with spaces after.
constexpr bool is_rule_line(std::string_view s) noexcept {
    if (s.empty() || s[0] != '-') return false;
    bool space_seen = false;
    for (char c : s) {
        if (c == ' ') space_seen = true;
        else if (c != '-') return false;
    }
    return space_seen;
}
/// A lone dash line: only '-' (at least 3), nothing else.
constexpr bool is_dash_line(std::string_view s) noexcept {
    if (s.size() < 3) return false;
    for (char c : s)
        if (c != '-') return false;
    return true;
}
/// A title or banner line: 3+ of `fill`, text, 3+ of `fill` (trailing spaces allowed).
/// Returns the trimmed text, or an empty view if the line is not one.
constexpr std::string_view framed_text(std::string_view s, char fill) noexcept {
    s = trim_right(s);
    std::size_t b = 0, e = s.size();
    while (b < e && s[b] == fill) ++b;
    while (e > b && s[e - 1] == fill) --e;
    if (b < 3 || s.size() - e < 3 || b == e) return {};
    return trim(s.substr(b, e - b));
}
constexpr bool is_title_line(std::string_view s) noexcept {
    return !framed_text(s, '-').empty() || !framed_text(s, '=').empty();
}
constexpr bool is_blank(std::string_view s) noexcept { return trim(s).empty(); }

/// Byte index of code-point position `cp` in `s` (s.size() if the text is shorter).
/// `from_byte`/`from_cp` resume a left-to-right walk.
constexpr std::size_t advance_code_points(std::string_view s, std::size_t from_byte, std::size_t from_cp,
                                          std::size_t cp) noexcept {
    std::size_t b = from_byte;
    while (b < s.size() && from_cp < cp) {
        ++b;
        while (b < s.size() && (static_cast<unsigned char>(s[b]) & 0xC0u) == 0x80u) ++b;
        ++from_cp;
    }
    return b;
}

/// Fixed-capacity copy of a line (a header or banner kept for the rows after it).
template <std::size_t Capacity>
struct line_copy {
    std::array<char, Capacity> bytes{};
    std::size_t size = 0;
    std::uint64_t number = 0;
    std::uint64_t offset = 0;
    bool assign(std::string_view s, std::uint64_t n, std::uint64_t off = 0) noexcept {
        if (s.size() > Capacity) return false;
        if (!s.empty()) std::memcpy(bytes.data(), s.data(), s.size());
        size = s.size();
        number = n;
        offset = off;
        return true;
    }
    std::string_view view() const noexcept { return {bytes.data(), size}; }
};
} // namespace internal

//=== rule_table ===//

/// Reader of rule-line tables (Paddle profiler summaries); see the file comment.
template <class Visitor, std::size_t MaxColumns = 32, std::size_t HeaderCapacity = 4096>
class rule_table {
public:
    explicit rule_table(Visitor& vis, position_unit unit = position_unit::code_points) noexcept
        : vis_(vis), unit_(unit) {}

    /// True between the opening rule and the end of the table.
    bool active() const noexcept { return state_ != state::idle; }

    /// Feeds the next line; see `table_feed`.
    table_feed feed(const line& l) {
        const std::string_view s = l.text;
        switch (state_) {
        case state::idle:
            if (!internal::is_rule_line(s)) return table_feed::not_mine;
            if (!set_spans(s, l)) return table_feed::consumed; // reported; the table is skipped
            section_ = 0;
            banner_.size = 0;
            state_ = state::want_header;
            return table_feed::consumed;
        case state::want_header:
            if (internal::is_blank(s)) return table_feed::consumed;
            if (!pending_.assign(s, l.number, l.offset)) return too_long(l, state::trailer);
            state_ = state::want_header_rule;
            return table_feed::consumed;
        case state::want_header_rule:
            if (internal::is_rule_line(s)) return begin_section(l);
            // not a header after all: the held line and this one are notes
            if (deliver_held() == flow::stop) return table_feed::stop;
            state_ = state::trailer;
            return trailer(l);
        case state::body: {
            if (internal::is_rule_line(s)) {
                state_ = state::after_rows;
                return table_feed::consumed;
            }
            if (internal::is_dash_line(s)) return end(l.number, table_feed::consumed);
            const std::string_view b = internal::framed_text(s, '-');
            if (!b.empty()) {
                banner_.assign(b.substr(0, b.size() < banner_capacity ? b.size() : banner_capacity), l.number);
                return to_feed(LOGSCAN_VISIT(vis_, on_table_banner, table_banner{l.number, b}));
            }
            if (internal::is_blank(s)) return end(l.number, table_feed::consumed); // rows without a closing rule
            return row(l);
        }
        case state::after_rows:
            if (internal::is_blank(s) || internal::is_rule_line(s)) return table_feed::consumed;
            if (internal::is_dash_line(s)) return end(l.number, table_feed::consumed);
            if (internal::is_title_line(s)) return end(l.number, table_feed::not_mine);
            if (!pending_.assign(s, l.number, l.offset)) return too_long(l, state::trailer);
            state_ = state::want_header_rule;
            return table_feed::consumed;
        case state::trailer:
            return trailer(l);
        }
        return table_feed::not_mine;
    }

    /// Ends the input: a header line still held is delivered as text; the table ends.
    flow finish() {
        return close(0);
    }

    /// Ends the table now (for a caller that recognises a line of its own inside the table
    /// region); `line` is reported to `on_table_end`. A held header candidate becomes text.
    flow close(std::uint64_t line) {
        if (state_ == state::want_header_rule && deliver_held() == flow::stop) return flow::stop;
        if (state_ != state::idle) return end(line, table_feed::consumed) == table_feed::stop ? flow::stop : flow::proceed;
        return flow::proceed;
    }

private:
    enum class state : unsigned char { idle, want_header, want_header_rule, body, after_rows, trailer };
    static constexpr std::size_t banner_capacity = 256;

    static table_feed to_feed(flow f) noexcept { return f == flow::stop ? table_feed::stop : table_feed::consumed; }

    table_feed trailer(const line& l) {
        const std::string_view s = l.text;
        if (internal::is_dash_line(s)) return end(l.number, table_feed::consumed);
        if (internal::is_title_line(s)) return end(l.number, table_feed::not_mine);
        if (internal::is_blank(s)) return table_feed::consumed;
        return to_feed(LOGSCAN_VISIT(vis_, on_table_text, l));
    }

    // The held header candidate turned out to be a note.
    flow deliver_held() { return LOGSCAN_VISIT(vis_, on_table_text, line{pending_.view(), pending_.number, pending_.offset}); }

    table_feed end(std::uint64_t number, table_feed result) {
        state_ = state::idle;
        if (LOGSCAN_VISIT(vis_, on_table_end, number) == flow::stop) return table_feed::stop;
        return result;
    }

    table_feed too_long(const line& l, state next) {
        state_ = next;
        const flow f = report_error(vis_, error{error_code::too_long, l.number, HeaderCapacity + 1, l.offset + HeaderCapacity,
                                                "table header longer than the reader's header buffer", 0});
        if (f == flow::stop) return table_feed::stop;
        return to_feed(LOGSCAN_VISIT(vis_, on_table_text, l));
    }

    // Column spans from a rule line (ASCII, so bytes = code points).
    bool set_spans(std::string_view s, const line& l) {
        ncols_ = 0;
        std::size_t i = 0;
        while (i < s.size()) {
            if (s[i] != '-') {
                ++i;
                continue;
            }
            if (ncols_ == MaxColumns) {
                ncols_ = 0;
                state_ = state::trailer;
                (void)report_error(vis_, error{error_code::too_many_columns, l.number, i + 1, l.offset + i,
                                               "table has more columns than the reader's maximum", 0});
                return false;
            }
            starts_[ncols_++] = i;
            while (i < s.size() && s[i] == '-') ++i;
        }
        return true;
    }

    // Cuts `s` at the span starts into out[0..ncols_).
    void cut(std::string_view s, std::array<cell, MaxColumns>& out) const noexcept {
        std::size_t byte = 0, cp = 0;
        std::size_t begin = 0;
        for (std::size_t c = 0; c < ncols_; ++c) {
            const std::size_t start_pos = starts_[c];
            if (unit_ == position_unit::bytes) {
                begin = start_pos < s.size() ? start_pos : s.size();
            } else {
                begin = internal::advance_code_points(s, byte, cp, start_pos);
                byte = begin;
                cp = start_pos;
            }
            std::size_t stop;
            if (c + 1 < ncols_) {
                const std::size_t next = starts_[c + 1];
                stop = unit_ == position_unit::bytes ? (next < s.size() ? next : s.size())
                                                     : internal::advance_code_points(s, byte, cp, next);
            } else {
                stop = s.size();
            }
            out[c] = cell{s.substr(begin, stop - begin)};
        }
    }

    table_feed begin_section(const line& rule) {
        (void)rule;
        cut(pending_.view(), header_);
        state_ = state::body;
        const std::size_t section = section_++;
        return to_feed(LOGSCAN_VISIT(vis_, on_table_header,
                                     table_header{pending_.number, std::span<const cell>(header_.data(), ncols_), section}));
    }

    table_feed row(const line& l) {
        std::array<cell, MaxColumns> cells;
        cut(l.text, cells);
        return to_feed(LOGSCAN_VISIT(
            vis_, on_table_row,
            table_row{l.number, std::span<const cell>(cells.data(), ncols_), std::span<const cell>(header_.data(), ncols_),
                      section_ - 1, banner_.view(), false}));
    }

    Visitor& vis_;
    position_unit unit_;
    state state_ = state::idle;
    std::size_t ncols_ = 0;
    std::size_t section_ = 0;
    std::array<std::size_t, MaxColumns> starts_{};
    std::array<cell, MaxColumns> header_{};
    internal::line_copy<HeaderCapacity> pending_{};
    internal::line_copy<banner_capacity> banner_{};
};

//=== aligned_table ===//

/// Reader of header-aligned tables (TVM profiler reports); see the file comment.
template <class Visitor, std::size_t MaxColumns = 32, std::size_t HeaderCapacity = 4096>
class aligned_table {
public:
    explicit aligned_table(Visitor& vis, column_match match = column_match::header_edges) noexcept
        : vis_(vis), match_(match) {}

    /// True after a successful `start` until the table ends.
    bool active() const noexcept { return active_; }

    /// Starts a table at its header line. Returns `not_mine` if the line has too many columns
    /// or is too long for the header buffer (reported to `on_error`), else delivers
    /// `on_table_header` and returns `consumed` (or `stop`).
    table_feed start(const line& l) {
        active_ = false;
        footer_ = false;
        if (!header_line_.assign(l.text, l.number)) {
            const flow f = report_error(vis_, error{error_code::too_long, l.number, HeaderCapacity + 1, l.offset + HeaderCapacity,
                                                    "table header longer than the reader's header buffer", 0});
            return f == flow::stop ? table_feed::stop : table_feed::not_mine;
        }
        const std::string_view h = header_line_.view();
        ncols_ = 0;
        std::size_t i = 0;
        while (i < h.size()) {
            while (i < h.size() && h[i] == ' ') ++i;
            if (i == h.size()) break;
            const std::size_t b = i;
            while (i < h.size() && !(h[i] == ' ' && (i + 1 == h.size() || h[i + 1] == ' '))) ++i;
            if (ncols_ == MaxColumns) {
                const flow f = report_error(vis_, error{error_code::too_many_columns, l.number, b + 1, l.offset + b,
                                                        "table has more columns than the reader's maximum", 0});
                return f == flow::stop ? table_feed::stop : table_feed::not_mine;
            }
            header_[ncols_] = cell{h.substr(b, i - b)};
            right_[ncols_] = i;
            ++ncols_;
        }
        if (ncols_ == 0) return table_feed::not_mine;
        active_ = true;
        const flow f = LOGSCAN_VISIT(vis_, on_table_header, table_header{l.number, columns(), 0});
        return f == flow::stop ? table_feed::stop : table_feed::consumed;
    }

    /// Feeds a line after the header; see the file comment.
    table_feed feed(const line& l) {
        if (!active_) return table_feed::not_mine;
        const std::string_view s = l.text;
        if (internal::is_blank(s)) return end(l.number, table_feed::not_mine);
        if (internal::is_dash_line(internal::trim_right(s))) {
            if (footer_) return end(l.number, table_feed::not_mine);
            footer_ = true;
            return table_feed::consumed;
        }
        std::array<cell, MaxColumns> cells{};
        if (!assign(s, cells)) return end(l.number, table_feed::not_mine);
        const flow f = LOGSCAN_VISIT(vis_, on_table_row,
                                     table_row{l.number, std::span<const cell>(cells.data(), ncols_), columns(), 0, {}, footer_});
        return f == flow::stop ? table_feed::stop : table_feed::consumed;
    }

    /// Ends the input (the table ends if still open).
    flow finish() {
        if (!active_) return flow::proceed;
        return end(0, table_feed::consumed) == table_feed::stop ? flow::stop : flow::proceed;
    }

private:
    std::span<const cell> columns() const noexcept { return {header_.data(), ncols_}; }

    table_feed end(std::uint64_t number, table_feed result) {
        active_ = false;
        if (LOGSCAN_VISIT(vis_, on_table_end, number) == flow::stop) return table_feed::stop;
        return result;
    }

    // Splits a row into tokens (runs separated by 2+ spaces) and assigns each to the column
    // whose right edge it ends on (the first column: a token starting at 0). False if a
    // token fits no column.
    bool assign(std::string_view s, std::array<cell, MaxColumns>& cells) const noexcept {
        std::size_t col = 0; // columns are visited left to right
        std::size_t i = 0;
        bool any = false;
        while (i < s.size()) {
            while (i < s.size() && s[i] == ' ') ++i;
            if (i == s.size()) break;
            const std::size_t b = i;
            int depth = 0; // in_order: spaces inside (), [] or {} do not separate cells
            while (i < s.size() && !(depth <= 0 && s[i] == ' ' && (i + 1 == s.size() || s[i + 1] == ' '))) {
                if (match_ == column_match::in_order) {
                    if (s[i] == '(' || s[i] == '[' || s[i] == '{') ++depth;
                    else if (s[i] == ')' || s[i] == ']' || s[i] == '}') --depth;
                }
                ++i;
            }
            const std::string_view tok = s.substr(b, i - b);
            if (match_ == column_match::in_order) {
                if (col == ncols_) return false;
                cells[col++] = cell{tok};
                any = true;
                continue;
            }
            if (b == 0) {
                cells[0] = cell{tok};
                col = 1;
                any = true;
                continue;
            }
            while (col < ncols_ && right_[col] < i) ++col;
            if (col == ncols_ || right_[col] != i) return false;
            cells[col++] = cell{tok};
            any = true;
        }
        return match_ == column_match::in_order ? col == ncols_ : any;
    }

    Visitor& vis_;
    column_match match_;
    std::size_t ncols_ = 0;
    bool active_ = false;
    bool footer_ = false;
    std::array<cell, MaxColumns> header_{};
    std::array<std::size_t, MaxColumns> right_{};
    internal::line_copy<HeaderCapacity> header_line_{};
};

//=== pipe_table ===//

/// Reader of pipe tables (`| a | b |`); see the file comment.
template <class Visitor, std::size_t MaxColumns = 32, std::size_t HeaderCapacity = 4096>
class pipe_table {
public:
    explicit pipe_table(Visitor& vis) noexcept : vis_(vis) {}

    bool active() const noexcept { return active_; }

    /// A line starting with `|` starts (first line: header) or continues the table.
    table_feed feed(const line& l) {
        const std::string_view s = internal::trim_right(l.text);
        if (s.empty() || s[0] != '|') {
            if (!active_) return table_feed::not_mine;
            return end(l.number, table_feed::not_mine);
        }
        if (is_separator(s)) return table_feed::consumed;
        if (!active_) {
            if (!header_line_.assign(s, l.number)) {
                const flow f = report_error(vis_, error{error_code::too_long, l.number, HeaderCapacity + 1, l.offset + HeaderCapacity,
                                                        "table header longer than the reader's header buffer", 0});
                return f == flow::stop ? table_feed::stop : table_feed::not_mine;
            }
            std::size_t n = 0;
            if (!split(header_line_.view(), header_, n)) return too_many(l);
            ncols_ = n;
            active_ = true;
            const flow f = LOGSCAN_VISIT(vis_, on_table_header, table_header{l.number, columns(), 0});
            return f == flow::stop ? table_feed::stop : table_feed::consumed;
        }
        std::array<cell, MaxColumns> cells{};
        std::size_t n = 0;
        if (!split(s, cells, n)) return too_many(l);
        // missing cells stay empty; extra cells (beyond the header) are delivered too
        const std::size_t shown = n < ncols_ ? ncols_ : n;
        const flow f = LOGSCAN_VISIT(vis_, on_table_row,
                                     table_row{l.number, std::span<const cell>(cells.data(), shown), columns(), 0, {}, false});
        return f == flow::stop ? table_feed::stop : table_feed::consumed;
    }

    flow finish() {
        if (!active_) return flow::proceed;
        return end(0, table_feed::consumed) == table_feed::stop ? flow::stop : flow::proceed;
    }

private:
    std::span<const cell> columns() const noexcept { return {header_.data(), ncols_}; }

    static bool is_separator(std::string_view s) noexcept {
        bool dash = false;
        for (char c : s) {
            if (c == '-') dash = true;
            else if (c != '|' && c != ':' && c != ' ' && c != '+') return false;
        }
        return dash;
    }

    // Cells between pipes; a last cell without a closing pipe counts too.
    static bool split(std::string_view s, std::array<cell, MaxColumns>& out, std::size_t& n) noexcept {
        n = 0;
        std::size_t i = 1; // after the leading '|'
        while (i <= s.size()) {
            std::size_t j = s.find('|', i);
            if (j == std::string_view::npos) {
                if (i == s.size()) break;
                j = s.size();
            }
            if (n == MaxColumns) return false;
            out[n++] = cell{s.substr(i, j - i)};
            i = j + 1;
        }
        return true;
    }

    table_feed too_many(const line& l) {
        const flow f = report_error(vis_, error{error_code::too_many_columns, l.number, 0, l.offset,
                                                "table has more columns than the reader's maximum", 0});
        if (f == flow::stop) return table_feed::stop;
        return active_ ? end(l.number, table_feed::not_mine) : table_feed::not_mine;
    }

    table_feed end(std::uint64_t number, table_feed result) {
        active_ = false;
        if (LOGSCAN_VISIT(vis_, on_table_end, number) == flow::stop) return table_feed::stop;
        return result;
    }

    Visitor& vis_;
    std::size_t ncols_ = 0;
    bool active_ = false;
    std::array<cell, MaxColumns> header_{};
    internal::line_copy<HeaderCapacity> header_line_{};
};

} // namespace logscan

#endif // LOGSCAN_TABLE_HPP_INCLUDED
