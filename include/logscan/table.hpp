// SPDX-License-Identifier: MIT
/// \file table.hpp
/// Readers for the text tables profilers print: fed line by line, delivering rows as views.
///
/// Three shapes, each a reader fed `logscan::line`s (for example from a `line_splitter`
/// callback). `feed` answers whether the line belonged to the table: `table_feed::consumed`,
/// or `table_feed::not_mine` — the table has ended (or never started) and the caller handles
/// the line itself — or `table_feed::stop` when a callback stopped the parse.
///
/// - `rule_table` (Paddle profiler, PyTorch `key_averages().table()`): a title line
///   (`---Operator Summary---`, `===Perf Summary===`) opens a region and is delivered to
///   `on_table_title`; the title is also in every header and row of the table. A rule line of
///   dash runs separated by spaces (`-----  ------  -----`) gives the column spans; the next
///   line is the header and a rule closes it; rows follow until the next rule. A rule after
///   rows that is followed by a header and another rule starts a new section with its own
///   header. Only rule lines with the table's own dash runs are its rules (a row of `-`
///   cells is a row). `---Thread: NAME---` banners, in the rows or right after a rule, are
///   reported and remembered for the rows after them; any other framed title ends the table
///   and opens the next title. A blank line inside the rows ends the table (Paddle omits the
///   closing rule of its last table), and so does a lone dash line (trailing spaces allowed);
///   the table does not end at a rule alone, so the line after its last rule still belongs
///   to it (a note, `on_table_text`) unless it is blank: a reader used alone, without
///   `line_router`, should end the table with `close()` where its own lines resume;
///   `close()` ends it from outside. Lines in the region that are none of these (notes such
///   as `Time unit: ms`) go to `on_table_text`. A binary line (a control character, tab
///   included, or bytes that are not UTF-8: `internal::is_binary_text`) is never a header,
///   section header or row, and a line in the rows with no cell past the first column (a
///   debug print, a row cut off mid-name) is no row: both go to `on_table_text` and the
///   table goes on in the state it was in (where the header was due, it still is).
///   Cell i runs from the start of span i to the start of span i+1; positions count UTF-8
///   code points by default (Python's `str.format` pads by characters). A value longer than
///   its span (str.format never cuts one) shows as text in the gutter between two spans: the
///   cell then runs to the next two spaces and the cells after it shift by as much, so every
///   cell comes out whole.
/// - `aligned_table` (TVM): `start(header_line)` splits the header on runs of two or more
///   spaces (names may hold single spaces: `Duration (us)`). The first column is
///   left-aligned, every other column right-aligned to its header's right edge: a cell is
///   assigned to the column whose header right edge it ends on; cells may be empty. A row
///   starts with its first column's cell at 0 and must have a cell besides it: a line in the
///   rows that is not a row (a debug print, a name cut off, an indented line) is a note
///   (`on_table_text`) and the rows go on. A line of
///   dashes starts the footer (`Sum`, `Total` rows, flagged `footer`); after it, a line that
///   is not a row (`Configuration`), a blank line or a second dash line ends the table
///   (not_mine).
///   With `column_match::in_order` (for printf-style tables whose header is not aligned
///   with the data, like MegEngine's memory tables) a row's cells are its runs of text
///   separated by two or more spaces outside brackets (`0.43MiB(    448512bytes)` is one
///   cell), taken in order; a row must have exactly one cell per column. When that split does
///   not give one cell per column, the row is split at single spaces and after closing
///   brackets (printf values wider than their field leave one space, or none after `)`); a
///   line that still does not fit ends the table.
/// - `pipe_table` (`| a | b |`): the first pipe line is the header; `|---|---|` separator
///   lines are skipped; the table ends at the first line that does not start with `|`. A
///   pipe line that is binary, or has no cell past the first (`|   ips   |   |`, `|` alone),
///   is no row: it goes to `on_table_text` and the table goes on. A
///   title line fed to it before the table (and not followed by a blank line) is the table's
///   title: a framed title, `===Perf Summary===` or `---Title---` (a plain line of text is no
///   title). It shows in the table's header and rows (`title`), with no `on_table_title`
///   event; `feed` returns `not_mine` for the title line, which stays the caller's too. A row with fewer cells than the header has its missing cells empty (`text()`
///   empty, like a blank cell); one with more has them all delivered, past the header's.
///
/// Every reader also has `feed(line, offer::loose_lines)`, `keep(line)` and `close(line)`,
/// the protocol `line_router` (route.hpp) uses to share lines with line rules.
///
/// Events (every one optional, see visit.hpp; a misdeclared one is a compile error):
/// \code
/// struct my_visitor {
///     void on_table_title(const logscan::table_title& t);   // rule_table only; t.text: "Operator Summary"
///     void on_table_header(const logscan::table_header& h); // h.columns[i].text(), h.index_of("Calls")
///     void on_table_row(const logscan::table_row& r);       // r.cells[i] under r.header[i], r.find_prefix("CPU")
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
/// `a / b / c` with `-` placeholders; `front()`, `[i]`, `size()`; `value_part::number<T>()`).
#ifndef LOGSCAN_TABLE_HPP_INCLUDED
#define LOGSCAN_TABLE_HPP_INCLUDED

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <utility>

#include "config.hpp"
#include "error.hpp"
#include "lines.hpp"
#include "num.hpp"
#include "utf8.hpp"
#include "visit.hpp"

namespace logscan {

//=== cells ===//

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
        if (!std::is_constant_evaluated()) n = internal::leading_spaces(raw);
        else
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
    /// The part as a number of type T (thousands separators allowed): `parse_grouped<T>(text)`
    /// (a `double` read while the part was cut is not read again).
    template <parsable_number T>
    LOGSCAN_FORCE_INLINE constexpr value_result<T> number() const noexcept {
        if constexpr (std::is_same_v<T, double>)
            if (read) return {value, text.data() + text.size(), std::errc{}};
        return parse_text<T>(text);
    }
    double value = 0;  ///< (the number `multi_values` read while cutting the part, when `read`)
    bool read = false; ///< (`value` holds `parse_grouped<double>(text)`)

private:
    // (out of line: the kept number is what a loop over the parts reads, and it stays small)
    template <parsable_number T>
    [[gnu::noinline]] static constexpr value_result<T> parse_text(std::string_view t) noexcept {
        return parse_grouped<T>(t);
    }
};

/// A lazy range over the parts of `a / b / c`: the (trimmed) text is cut at each ` / ` (a
/// space, `/`, a space), left to right, and each part trimmed, as formats.md's `a / b / ...`
/// reads: `N/A` is one part, and a cell cut after a slash, `1 / 2 /`, has the parts `1` and
/// `2 /` (no separator follows `2`: the bytes stay in the part, which is then no number).
/// No storage. One pass: a part that is a plain decimal of up to 15 digits (`441.72`, `-0.5`,
/// `1,577.51`) or the `-` placeholder, then ` / ` or the end, is cut where its digits end and
/// its number kept (`value_part::number<double>()` does not read it again); any other part is
/// cut at the next ` / ` and parsed when asked.
class multi_value_range {
public:
    constexpr explicit multi_value_range(std::string_view s) noexcept : s_(internal::trim(s)) {}
    class iterator : public internal::iterator_ops<iterator> {
    public:
        using value_type = value_part;
        using difference_type = std::ptrdiff_t;
        constexpr iterator() noexcept = default;
        constexpr iterator(std::string_view rest, bool done) noexcept
            : p_(done ? nullptr : rest.data()), e_(rest.data() + rest.size()) {
            load();
        }
        constexpr const value_part& operator*() const noexcept { return cur_; }
        constexpr iterator& operator++() noexcept {
            p_ = next_;
            load();
            return *this;
        }
        constexpr bool operator==(const iterator& o) const noexcept { return p_ == o.p_; }

    private:
        // The part at p_ (null p_: past the last one); next_ where the one after it begins.
        // (An untrimmed text given to the constructor may end right after a ` / `, or be
        // empty: an empty part there, as the cut gives it.)
        LOGSCAN_FORCE_INLINE constexpr void load() noexcept {
            if (p_ == nullptr) return;
            if (LOGSCAN_LIKELY(p_ != e_ && plain(p_))) return;
            general();
        }
        // Any other part (out of line): up to the next ` / `, trimmed; an empty part at the end.
        [[gnu::noinline]] constexpr void general() noexcept {
            if (p_ == e_) {
                cur_ = value_part{std::string_view(p_, 0)};
                next_ = nullptr;
                return;
            }
            const std::string_view rest(p_, static_cast<std::size_t>(e_ - p_));
            const std::size_t sep = rest.find(" / ");
            cur_ = value_part{internal::trim(sep == std::string_view::npos ? rest : rest.substr(0, sep))};
            next_ = sep == std::string_view::npos ? nullptr : p_ + sep + 3;
        }
        // A short decimal (num.hpp's `short_decimal`, `,ddd` groups taken), then the end or
        // ` / `: read here, its number kept; `-` then the end or ` / ` is the placeholder. (No
        // space inside, so no ` / ` begins before its end and the part needs no trim.)
        LOGSCAN_FORCE_INLINE constexpr bool plain(const char* p) noexcept {
            const bool negative = *p == '-';
            if (negative && ends_part(p + 1)) {
                cur_ = value_part{std::string_view(p, 1)};
                return true;
            }
            double x = 0;
            const char* const q = internal::short_decimal(negative ? p + 1 : p, e_, true, negative, x);
            if (q == nullptr || !ends_part(q)) return false;
            cur_ = value_part{std::string_view(p, static_cast<std::size_t>(q - p)), x, true};
            return true;
        }
        // True when a part ends at q (the end, or ` / `): next_ is set to the next part.
        LOGSCAN_FORCE_INLINE constexpr bool ends_part(const char* q) noexcept {
            if (q == e_) {
                next_ = nullptr;
                return true;
            }
            if (e_ - q >= 3 && q[0] == ' ' && q[1] == '/' && q[2] == ' ') {
                next_ = q + 3;
                return true;
            }
            return false;
        }
        const char* p_ = nullptr;
        const char* e_ = nullptr;
        const char* next_ = nullptr;
        value_part cur_{};
    };
    constexpr iterator begin() const noexcept { return iterator(s_, s_.empty()); }
    constexpr iterator end() const noexcept { return iterator(); }
    /// Number of parts (walks the text).
    constexpr std::size_t size() const noexcept {
        std::size_t n = 0;
        for (auto it = begin(); it != end(); ++it) ++n;
        return n;
    }
    /// True when there are no parts (the text is blank).
    constexpr bool empty() const noexcept { return s_.empty(); }
    /// The first part (an empty part when there is none).
    constexpr value_part front() const noexcept { return (*this)[0]; }
    /// Part i, counted from 0 (walks the text); an empty part past the last one, whose
    /// `number()` fails, so a missing value is never read as a number.
    constexpr value_part operator[](std::size_t i) const noexcept {
        for (auto it = begin(); it != end(); ++it, --i)
            if (i == 0) return *it;
        return {};
    }

private:
    std::string_view s_;
};

/// The parts of a multi-value cell text, lazily: `for (auto p : multi_values(c.text()))`.
constexpr multi_value_range multi_values(std::string_view text) noexcept { return multi_value_range(text); }

/// The next cell of `s` from byte `at` when cells are separated by runs of two or more spaces
/// (a single space belongs to its cell; a space at the end of `s` ends the last one): its
/// text, with `at` one past it; empty when only spaces remain (or `at` is past the end: `at`
/// is then the end). For tables printed with `setw` or `str.format` padding (Paddle's legacy
/// report, TVM's debug table header).
constexpr std::string_view next_wide_cell(std::string_view s, std::size_t& at) noexcept {
    if (at > s.size()) at = s.size();
    while (at < s.size() && s[at] == ' ') ++at;
    const std::size_t b = at;
    while (at < s.size() && !(s[at] == ' ' && (at + 1 == s.size() || s[at + 1] == ' '))) ++at;
    return s.substr(b, at - b);
}
namespace internal {
/// The runs of text of a line as `next_wide_cell` cuts them (a run ends at two spaces, or at
/// a space that ends the line), found 64 bytes at a time: each block of 64 bytes becomes a
/// mask of its spaces (SSE2, else a byte loop; the last block of a text of 64 bytes or more
/// read as the 64 bytes that end it, a shorter text from a padded copy: never a byte past the
/// text), the bytes past the line's end counted as spaces, and each
/// run's start and end are a count of zero bits in it. For the rows and headers of aligned
/// tables, mostly padding: a cell costs a few instructions whatever its width. Not for
/// constant evaluation (see `next_wide_cell`).
class wide_runs {
public:
    constexpr wide_runs(const char* s, std::size_t n) noexcept : s_(s), n_(n) {}
    /// The first byte at or after `i` that is not a space (`n` when none is).
    LOGSCAN_FORCE_INLINE std::size_t skip_spaces(std::size_t i) noexcept {
        for (;;) {
            if (i >= n_) return n_;
            const std::size_t base = at(i);
            if (const std::uint64_t m = ~spaces_ >> (i - base); m != 0) // (the bytes past the end are spaces: < n)
                return i + static_cast<std::size_t>(std::countr_zero(m));
            i = base + 64;
        }
    }
    /// The end of the run of text at `i`: the first space followed by a space or by the end.
    LOGSCAN_FORCE_INLINE std::size_t run_end(std::size_t i) noexcept {
        for (;;) {
            const std::size_t base = at(i);
            if (const std::uint64_t m = pairs_ >> (i - base); m != 0) return i + static_cast<std::size_t>(std::countr_zero(m));
            i = base + 64;
        }
    }

private:
    // The block holding byte i (its first byte returned): its masks made on first use.
    LOGSCAN_FORCE_INLINE std::size_t at(std::size_t i) noexcept {
        const std::size_t base = i & ~std::size_t{63};
        if (base != base_) load(base);
        return base;
    }
    void load(std::size_t base) noexcept {
        base_ = base;
        if (base >= n_) { // (past the end: all spaces)
            spaces_ = pairs_ = ~std::uint64_t{0};
            return;
        }
        const std::size_t have = n_ - base;
        if (have >= 64) {
            spaces_ = space_bits(s_ + base);
        } else if (n_ >= 64) { // the last block: the 64 bytes that end the text, shifted down, then spaces
            spaces_ = space_bits(s_ + n_ - 64) >> (64 - have) | ~std::uint64_t{0} << have;
        } else { // a text shorter than a block: its bytes, then spaces
            char pad[64];
            std::memset(pad, ' ', sizeof pad);
            std::memcpy(pad, s_ + base, have);
            spaces_ = space_bits(pad);
        }
        // (a space whose next byte is a space: the next block's first byte, or the end)
        const bool next_space = base + 64 >= n_ || s_[base + 64] == ' ';
        pairs_ = spaces_ & ((spaces_ >> 1) | (static_cast<std::uint64_t>(next_space) << 63));
    }
    // Bit k: byte k of the 64 at p is a space.
    static std::uint64_t space_bits(const char* p) noexcept {
        std::uint64_t m = 0;
#if LOGSCAN_SSE2
        const __m128i sp = _mm_set1_epi8(' ');
        for (int k = 0; k < 4; ++k)
            m |= static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(
                     _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k)), sp))))
                 << (16 * k);
#else
        for (int k = 0; k < 64; ++k) m |= static_cast<std::uint64_t>(p[k] == ' ') << k;
#endif
        return m;
    }
    const char* s_;
    std::size_t n_;
    std::size_t base_ = ~std::size_t{0};
    std::uint64_t spaces_ = 0, pairs_ = 0;
};
} // namespace internal

/// Calls `f(cell, begin)` for each cell of `s` from byte `from` (see `next_wide_cell`),
/// `begin` the cell's first byte in `s` (at run time the cells are found by `wide_runs`).
template <class F>
constexpr void for_each_wide_cell(std::string_view s, std::size_t from, F&& f) {
    if (!std::is_constant_evaluated()) {
        internal::wide_runs runs(s.data(), s.size());
        for (std::size_t b = runs.skip_spaces(from); b < s.size(); b = runs.skip_spaces(b)) {
            const std::size_t e = runs.run_end(b);
            f(s.substr(b, e - b), b);
            b = e;
        }
        return;
    }
    std::size_t at = from;
    for (std::string_view c = next_wide_cell(s, at); !c.empty(); c = next_wide_cell(s, at))
        f(c, static_cast<std::size_t>(c.data() - s.data()));
}

//=== events ===//

namespace internal {
/// Index of the first column whose trimmed header text satisfies `pred`, or npos.
template <class Pred>
constexpr std::size_t find_column(std::span<const cell> header, Pred pred) noexcept {
    for (std::size_t i = 0; i < header.size(); ++i)
        if (pred(header[i].text())) return i;
    return std::string_view::npos;
}
/// The first word of a header text (up to the first space).
constexpr std::string_view first_word(std::string_view s) noexcept { return s.substr(0, s.find(' ')); }
} // namespace internal

/// Column lookups shared by headers and rows: by the exact header text, by a prefix of it,
/// or by its first word (`CPU` finds `CPU Total / Avg / Max / Min / Ratio(%)`). Each returns
/// the index of the first such column, or `npos`.
struct column_lookup {
    static constexpr std::size_t npos = std::string_view::npos; ///< no such column
    /// Index of the column whose trimmed header is `name`.
    static constexpr std::size_t index_of(std::span<const cell> h, std::string_view name) noexcept {
        return internal::find_column(h, [&](std::string_view t) { return t == name; });
    }
    /// Index of the first column whose trimmed header starts with `prefix`.
    static constexpr std::size_t index_of_prefix(std::span<const cell> h, std::string_view prefix) noexcept {
        return internal::find_column(h, [&](std::string_view t) { return t.starts_with(prefix); });
    }
    /// Index of the first column whose header's first word is `word`.
    static constexpr std::size_t index_of_word(std::span<const cell> h, std::string_view word) noexcept {
        return internal::find_column(h, [&](std::string_view t) { return internal::first_word(t) == word; });
    }
};

/// Calls `f(column name, cell text)` for each non-empty cell of a row after the first (the
/// row's name) that has a column, in order: what a record's `cells` object holds.
template <class F>
constexpr void for_each_named_cell(std::span<const cell> cells, std::span<const cell> columns, F&& f) {
    for (std::size_t i = 1; i < cells.size() && i < columns.size(); ++i) {
        const std::string_view t = cells[i].text();
        if (!t.empty()) f(columns[i].text(), t);
    }
}

/// A title line before a table (`----Operator Summary----`, `====Perf Summary====`).
struct table_title {
    std::uint64_t line;    ///< line number of the title line
    std::string_view text; ///< the text between the dashes (or `=`), trimmed
};

/// A table's header (for `rule_table`, one per section).
struct table_header {
    std::uint64_t line;             ///< line number of the header line
    std::span<const cell> columns;  ///< one cell per column: the header names
    std::size_t section;            ///< 0 for the first header of a table, then 1, 2, ...
    std::string_view title;         ///< the table's title (`Operator Summary`), or empty

    /// Index of the column named `name` (exact trimmed text), or column_lookup::npos; look
    /// a column up once per header and index the rows' cells with it.
    constexpr std::size_t index_of(std::string_view name) const noexcept { return column_lookup::index_of(columns, name); }
    /// Index of the first column whose name starts with `prefix`, or npos.
    constexpr std::size_t index_of_prefix(std::string_view prefix) const noexcept {
        return column_lookup::index_of_prefix(columns, prefix);
    }
    /// Index of the first column whose name's first word is `word`, or npos.
    constexpr std::size_t index_of_word(std::string_view word) const noexcept {
        return column_lookup::index_of_word(columns, word);
    }
};

/// A row of cells, one per column of the current header.
struct table_row {
    std::uint64_t line;            ///< line number of the row
    std::span<const cell> cells;   ///< cells[i] belongs to header[i]; missing cells are empty
    std::span<const cell> header;  ///< the current header's columns
    std::size_t section;           ///< the header section the row is in
    std::string_view banner;       ///< text of the last banner (`Thread: NAME` -> `Thread: NAME`), or empty
    bool footer;                   ///< aligned_table: a row after the dashes rule (`Sum`, `Total`)
    std::string_view title;        ///< the table's title, or empty

    /// The cell under the header named `name` (trimmed comparison), or nullptr.
    constexpr const cell* find(std::string_view name) const noexcept { return at(column_lookup::index_of(header, name)); }
    /// The cell under the first header starting with `prefix`, or nullptr.
    constexpr const cell* find_prefix(std::string_view prefix) const noexcept {
        return at(column_lookup::index_of_prefix(header, prefix));
    }
    /// The cell under the first header whose first word is `word`, or nullptr.
    constexpr const cell* find_word(std::string_view word) const noexcept {
        return at(column_lookup::index_of_word(header, word));
    }
    /// The cell of column i, or nullptr when the row has none.
    constexpr const cell* at(std::size_t i) const noexcept { return i < cells.size() ? &cells[i] : nullptr; }
};

/// A banner line inside a rule table's body: `---Thread: All threads merged---`.
struct table_banner {
    std::uint64_t line;    ///< line number
    std::string_view text; ///< the text between the dashes, trimmed
};

LOGSCAN_EVENT(on_table_title, "void on_table_title(const logscan::table_title&)");
LOGSCAN_EVENT(on_table_header, "void on_table_header(const logscan::table_header&)");
LOGSCAN_EVENT(on_table_row, "void on_table_row(const logscan::table_row&)");
LOGSCAN_EVENT(on_table_banner, "void on_table_banner(const logscan::table_banner&)");
LOGSCAN_EVENT(on_table_text, "void on_table_text(const logscan::line&)");
LOGSCAN_EVENT(on_table_end, "void on_table_end(std::uint64_t line)");

namespace internal {
/// True when V has at least one of the table readers' callbacks (or opts out).
template <class V>
concept table_visitor = has_some_callback<V, on_table_title_event, on_table_header_event, on_table_row_event,
                                          on_table_banner_event, on_table_text_event, on_table_end_event,
                                          on_error_event>;
} // namespace internal

#define LOGSCAN_TABLE_VISITOR_CHECK(Visitor)                                                   \
    static_assert(::logscan::internal::table_visitor<Visitor>,                                  \
                  "logscan: the table reader's visitor has none of its callbacks (on_table_title, " \
                  "on_table_header, on_table_row, on_table_banner, on_table_text, on_table_end, on_error): " \
                  "a misspelt name? Derive it from logscan::validate_only if that is deliberate")

/// What a reader did with a line.
enum class table_feed : unsigned char {
    consumed, ///< the line belonged to the table (an event may have been delivered)
    not_mine, ///< the table has ended or not started: the caller handles this line
    stop,     ///< a callback returned `flow::stop`
    offered,  ///< only with `feed(l, offer::loose_lines)`: the line is no structure of the table
              ///< (it would be a note, or a header candidate after a closing rule); the caller
              ///< may claim it (then `close(l.number)`), or hand it back with `keep(l)`
};

/// What a table reader's `feed` did with a line, as a run of rows read straight from the chunk
/// says it (lines.hpp's `take_run`): a line it did not take (`not_mine`, `offered`) ends the
/// run and is read as usual.
constexpr run_step to_run_step(table_feed f) noexcept {
    return f == table_feed::consumed ? run_step::taken : f == table_feed::stop ? run_step::stopped : run_step::declined;
}

/// Whether `feed` may hand a loose line back to the caller (see `table_feed::offered`).
enum class offer : unsigned char {
    never,       ///< the table takes every line of its region (notes become on_table_text)
    loose_lines, ///< lines that are no structure of the table are offered to the caller first
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
/// A rule line: runs of '-' separated by spaces, starting at column 0: at least two runs, or
/// one run followed by spaces (a one-column table's rule; a lone dash line has none).
constexpr bool is_rule_line(std::string_view s) noexcept {
    if (s.empty() || s[0] != '-') return false;
    bool space_seen = false;
    for (char c : s) {
        if (c == ' ') space_seen = true;
        else if (c != '-') return false;
    }
    return space_seen;
}
/// A lone dash line: only '-' (at least 3), optionally followed by spaces.
constexpr bool is_dash_line(std::string_view s) noexcept {
    s = trim_right(s);
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
    const std::string_view t = trim(s.substr(b, e - b));
    for (char c : t)
        if (c != fill && c != ' ') return t;
    return {}; // only fill and spaces: a rule line, not a frame
}
/// The text of a title line (`---Title---` or `===Title===`), or empty.
constexpr std::string_view title_text(std::string_view s) noexcept {
    if (s.empty() || (s[0] != '-' && s[0] != '=')) return {};
    const std::string_view t = framed_text(s, s[0]);
    return t;
}
constexpr bool is_title_line(std::string_view s) noexcept { return !title_text(s).empty(); }
/// A thread banner inside a table body: a framed `Thread: NAME` (dashes only).
constexpr bool is_banner_text(std::string_view t) noexcept { return internal::begins_with(t, "Thread:"); }
constexpr bool is_blank(std::string_view s) noexcept { return trim(s).empty(); }
/// A framed title that opens a table: any but a `---Thread: NAME---` banner.
constexpr bool is_table_title(std::string_view s) noexcept {
    const std::string_view t = title_text(s);
    return !t.empty() && !(s[0] == '-' && is_banner_text(t));
}

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
        internal::copy_bytes(bytes.data(), s.data(), s.size());
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
    LOGSCAN_TABLE_VISITOR_CHECK(Visitor);

public:
    /// `titled_only`: only a title opens a table (a rule line, or a `---Thread: NAME---`
    /// banner, outside one is not the reader's: formats whose every table has a title, as
    /// Paddle's), else an opening rule line (or any framed line) does too.
    explicit rule_table(Visitor& vis, position_unit unit = position_unit::code_points, bool titled_only = false) noexcept
        : vis_(vis), unit_(unit), titled_only_(titled_only) {}

    /// True when `s` opens a region of this reader: a framed title that is no `Thread:` banner
    /// (for `indented_table`: a title deeper than the open table's indent opens its own).
    static constexpr bool opens_region(std::string_view s) noexcept { return internal::is_table_title(s); }

    /// True inside a table region: from a title or an opening rule to the end of the table.
    bool active() const noexcept { return state_ != state::idle; }
    /// True outside any table region: the state a new reader starts in.
    bool at_rest() const noexcept { return state_ == state::idle; }
    /// True when `feed` declines every line that begins with `first` now (`not_mine`, nothing
    /// changed; `'\n'`: an empty line): at rest, only a title or a rule line (`-`, `=`) opens.
    bool declines(char first) const noexcept { return state_ == state::idle && first != '-' && first != '='; }
    /// The current title (empty if the table has none or no region is open).
    std::string_view title() const noexcept { return title_.view(); }

    /// Feeds the next line; see `table_feed`. With `offer::loose_lines`, a line that is no
    /// structure of the table is returned as `offered` instead of being taken as a note.
    table_feed feed(const line& l, offer mode = offer::never) {
        const std::string_view s = l.text;
        switch (state_) {
        case state::idle:
            if (title_opens(s)) return start_title(l);
            if (titled_only_ || !internal::is_rule_line(s)) return table_feed::not_mine;
            title_.size = 0;
            return open(l);
        case state::titled:
            if (internal::is_rule_line(s)) return open(l);
            if (title_opens(s)) return start_title(l);
            if (internal::is_dash_line(s)) return end(l.number, table_feed::consumed);
            if (internal::is_blank(s)) return table_feed::consumed;
            return loose(l, mode);
        case state::want_header:
            if (internal::is_blank(s)) return table_feed::consumed;
            if (internal::is_binary_text(s)) return to_feed(LOGSCAN_VISIT(vis_, on_table_text, l)); // the header is still due
            if (!pending_.assign(s, l.number, l.offset)) return too_long(l, state::trailer);
            state_ = state::want_header_rule;
            return table_feed::consumed;
        case state::want_header_rule:
            if (internal::is_rule_line(s)) return begin_section(l);
            // not a header after all: the held line is a note, and so is this one
            if (deliver_held() == flow::stop) return table_feed::stop;
            state_ = state::trailer;
            return trailer(l, mode);
        case state::body: {
            // a line that starts with none of '-', '=', ' ', '\t' can only be a row (rules,
            // dash lines, titles and banners start with a fill byte; blank lines with a space)
            if (!s.empty() && s[0] != '-' && s[0] != '=' && s[0] != ' ' && s[0] != '\t') return row(l);
            if (!s.empty() && s[0] == ' ') { // an indented name (no rule, dash line or title begins with a space)
                const std::size_t n = internal::leading_spaces(s);
                if (n != s.size() && s[n] != '\t') return row(l); // (not blank)
            }
            if (same_geometry(s)) {
                state_ = state::after_rows;
                return table_feed::consumed;
            }
            if (internal::is_dash_line(s)) return end(l.number, table_feed::consumed);
            const std::string_view t = internal::title_text(s);
            if (!t.empty()) {
                if (s[0] == '-' && internal::is_banner_text(t)) return banner(l, t);
                return retitle(l); // any other framed title ends the table
            }
            if (internal::is_blank(s)) return end(l.number, table_feed::consumed); // rows without a closing rule
            return row(l);
        }
        case state::after_rows: {
            if (internal::is_blank(s) || same_geometry(s)) return table_feed::consumed;
            if (internal::is_dash_line(s)) return end(l.number, table_feed::consumed);
            const std::string_view t = internal::title_text(s);
            if (!t.empty()) {
                if (s[0] == '-' && internal::is_banner_text(t)) { // the table goes on for that thread
                    state_ = state::body;
                    return banner(l, t);
                }
                return retitle(l);
            }
            if (mode == offer::loose_lines) return table_feed::offered; // a header candidate, or the caller's line
            return keep(l);
        }
        case state::trailer:
            return trailer(l, mode);
        }
        return table_feed::not_mine;
    }

    /// Takes a line `feed(l, offer::loose_lines)` offered and the caller did not claim, as
    /// `feed(l)` would have: a note (`on_table_text`), or a new section's header candidate
    /// after a closing rule.
    table_feed keep(const line& l) {
        if (state_ == state::after_rows && !internal::is_binary_text(l.text)) {
            if (!pending_.assign(l.text, l.number, l.offset)) return too_long(l, state::trailer);
            state_ = state::want_header_rule;
            return table_feed::consumed;
        }
        return to_feed(LOGSCAN_VISIT(vis_, on_table_text, l));
    }

    /// Ends the input: a header line still held is delivered as text; the table ends.
    flow finish() { return close(0); }

    /// Ends the table (or title region) now, for a caller that recognises a line of its own
    /// inside the region; `line` is reported to `on_table_end`. A held header candidate
    /// becomes text.
    flow close(std::uint64_t line) {
        if (state_ == state::want_header_rule && deliver_held() == flow::stop) return flow::stop;
        if (state_ != state::idle) return end(line, table_feed::consumed) == table_feed::stop ? flow::stop : flow::proceed;
        return flow::proceed;
    }

    /// True when the next line would be offered (not taken as structure) unless it is a
    /// rule, a title or a banner: the reader is in a title region or after a closing rule.
    bool loose() const noexcept {
        return state_ == state::titled || state_ == state::after_rows || state_ == state::trailer;
    }

private:
    enum class state : unsigned char { idle, titled, want_header, want_header_rule, body, after_rows, trailer };
    static constexpr std::size_t banner_capacity = 256;
    static constexpr std::size_t title_capacity = 256;

    static table_feed to_feed(flow f) noexcept { return f == flow::stop ? table_feed::stop : table_feed::consumed; }

    table_feed loose(const line& l, offer mode) {
        if (mode == offer::loose_lines) return table_feed::offered;
        return to_feed(LOGSCAN_VISIT(vis_, on_table_text, l));
    }

    table_feed trailer(const line& l, offer mode) {
        const std::string_view s = l.text;
        if (internal::is_dash_line(s)) return end(l.number, table_feed::consumed);
        if (title_opens(s)) return retitle(l);
        if (internal::is_blank(s)) return table_feed::consumed;
        return loose(l, mode);
    }

    // A line that opens a table where no rows are being read (with `titled_only`, a
    // `Thread:` banner does not).
    bool title_opens(std::string_view s) const noexcept { return titled_only_ ? opens_region(s) : internal::is_title_line(s); }

    table_feed start_title(const line& l) {
        const std::string_view t = internal::title_text(l.text);
        title_.assign(t.substr(0, t.size() < title_capacity ? t.size() : title_capacity), l.number, l.offset);
        state_ = state::titled;
        return to_feed(LOGSCAN_VISIT(vis_, on_table_title, table_title{l.number, title_.view()}));
    }

    // A framed title inside a region: the current table ends (at this line) and a new title begins.
    table_feed retitle(const line& l) {
        if (close(l.number) == flow::stop) return table_feed::stop;
        return start_title(l);
    }

    table_feed banner(const line& l, std::string_view t) {
        banner_.assign(t.substr(0, t.size() < banner_capacity ? t.size() : banner_capacity), l.number);
        return to_feed(LOGSCAN_VISIT(vis_, on_table_banner, table_banner{l.number, banner_.view()}));
    }

    table_feed open(const line& l) {
        if (!set_spans(l.text, l)) return table_feed::consumed; // reported; the table is skipped
        section_ = 0;
        banner_.size = 0;
        state_ = state::want_header;
        return table_feed::consumed;
    }

    // The held header candidate turned out to be a note.
    flow deliver_held() { return LOGSCAN_VISIT(vis_, on_table_text, line{pending_.view(), pending_.number, pending_.offset}); }

    table_feed end(std::uint64_t number, table_feed result) {
        state_ = state::idle;
        title_.size = 0;
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

    // Column spans from a rule line (ASCII, so bytes = code points): where each dash run
    // starts and ends.
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
            starts_[ncols_] = i;
            while (i < s.size() && s[i] == '-') ++i;
            ends_[ncols_++] = i;
        }
        return true;
    }

    // True when `s` is a rule line with the current table's dash runs (a closing rule or a
    // section's rule); a row of `-` placeholder cells, or a lone dash line, is not one.
    bool same_geometry(std::string_view s) const noexcept {
        if (!internal::is_rule_line(s)) return false;
        std::size_t c = 0, i = 0;
        while (i < s.size()) {
            if (s[i] != '-') {
                ++i;
                continue;
            }
            if (c == ncols_ || starts_[c] != i) return false;
            while (i < s.size() && s[i] == '-') ++i;
            if (ends_[c++] != i) return false;
        }
        return c == ncols_;
    }

    // A position in the line, in bytes and in the table's unit.
    struct cursor {
        std::size_t byte = 0, pos = 0;
    };
    // (`bytes`: positions are byte offsets: the unit is bytes, or the line is all ASCII)
    static cursor seek(std::string_view s, cursor c, std::size_t pos, bool bytes) noexcept {
        if (bytes) {
            const std::size_t b = pos < s.size() ? pos : s.size();
            return {b, pos};
        }
        return {internal::advance_code_points(s, c.byte, c.pos, pos), pos};
    }
    static cursor step(std::string_view s, cursor c, bool bytes) noexcept { return seek(s, c, c.pos + 1, bytes); }

    // Cuts `s` into out[0..ncols_): cell i runs from span i's start to span i+1's start. A
    // cell longer than its span (Python's str.format never cuts: it pushes the rest of the
    // row right) shows as text in the gutter between the spans; it then runs to the next run
    // of two or more spaces, and the cells after it shift by as much.
    // (`ascii`: the caller knows `s` is ASCII)
    void cut(std::string_view s, std::array<cell, MaxColumns>& out, bool ascii = false) const noexcept {
        const bool bytes = unit_ == position_unit::bytes || ascii || internal::all_ascii(s); // no code-point walk for ASCII
        if (bytes && ncols_ != 0) { // the usual row: each cell in its span, every gutter blank, cut in one pass
            const std::size_t n = s.size();
            std::size_t c = 0;
            for (; c + 1 < ncols_; ++c) {
                const std::size_t g = ends_[c] < n ? ends_[c] : n, e = starts_[c + 1] < n ? starts_[c + 1] : n;
                bool blank = true;
                for (std::size_t k = g; k < e; ++k) blank &= s[k] == ' ';
                if (!blank) break; // (a cell runs into its gutter: the cut below, from the start)
                const std::size_t b = starts_[c] < n ? starts_[c] : n;
                out[c] = cell{s.substr(b, e - b)};
            }
            if (c + 1 == ncols_) {
                out[c] = cell{s.substr(starts_[c] < n ? starts_[c] : n)};
                return;
            }
        }
        std::size_t shift = 0;
        cursor at{};
        for (std::size_t c = 0; c < ncols_; ++c) {
            const cursor b = seek(s, at, starts_[c] + shift, bytes);
            if (c + 1 == ncols_) {
                out[c] = cell{s.substr(b.byte)};
                break;
            }
            const cursor g = seek(s, b, ends_[c] + shift, bytes);    // the gutter ...
            cursor e = seek(s, g, starts_[c + 1] + shift, bytes);   // ... up to the next span
            bool overflow = false;
            for (std::size_t k = g.byte; k < e.byte; ++k)
                if (s[k] != ' ') overflow = true;
            if (overflow) {
                cursor p = g;
                while (p.byte < s.size() && !(s[p.byte] == ' ' && p.byte + 1 < s.size() && s[p.byte + 1] == ' ')) {
                    if (s[p.byte] == ' ' && p.byte + 1 == s.size()) break;
                    p = step(s, p, bytes);
                }
                // Paddle pads with the gutter's width after every cell
                const std::size_t next = p.pos + (starts_[c + 1] - ends_[c]);
                shift = next - starts_[c + 1];
                e = seek(s, p, next, bytes);
            }
            out[c] = cell{s.substr(b.byte, e.byte - b.byte)};
            at = e;
        }
    }

    table_feed begin_section(const line& rule) {
        (void)rule;
        cut(pending_.view(), header_);
        state_ = state::body;
        const std::size_t section = section_++;
        return to_feed(LOGSCAN_VISIT(vis_, on_table_header,
                                     table_header{pending_.number, std::span<const cell>(header_.data(), ncols_), section,
                                                  title_.view()}));
    }

    // A line in the rows: a row, unless it is binary (a control character or bytes that are
    // not UTF-8) or has no cell past the first column (a debug print, a row cut off mid-name):
    // those are notes (`on_table_text`) and the rows go on.
    table_feed row(const line& l) {
        std::array<cell, MaxColumns>& cells = cells_;
        const bool plain = internal::printable_ascii(l.text); // (one pass tells both: not binary, ASCII)
        if (!plain && internal::is_binary_text(l.text)) return to_feed(LOGSCAN_VISIT(vis_, on_table_text, l));
        cut(l.text, cells, plain);
        bool beyond_first = ncols_ < 2;
        for (std::size_t c = 1; c < ncols_ && !beyond_first; ++c) beyond_first = !cells[c].empty();
        if (!beyond_first) return to_feed(LOGSCAN_VISIT(vis_, on_table_text, l));
        return to_feed(LOGSCAN_VISIT(
            vis_, on_table_row,
            table_row{l.number, std::span<const cell>(cells.data(), ncols_), std::span<const cell>(header_.data(), ncols_),
                      section_ - 1, banner_.view(), false, title_.view()}));
    }

    Visitor& vis_;
    position_unit unit_;
    bool titled_only_ = false;
    state state_ = state::idle;
    std::size_t ncols_ = 0;
    std::size_t section_ = 0;
    std::array<std::size_t, MaxColumns> starts_{};
    std::array<std::size_t, MaxColumns> ends_{};
    std::array<cell, MaxColumns> header_{};
    std::array<cell, MaxColumns> cells_{}; // the current row's (kept here: no array of cells built per row)
    internal::line_copy<HeaderCapacity> pending_{};
    internal::line_copy<banner_capacity> banner_{};
    internal::line_copy<title_capacity> title_{};
};

//=== aligned_table ===//

/// Reader of header-aligned tables (TVM profiler reports); see the file comment.
template <class Visitor, std::size_t MaxColumns = 32, std::size_t HeaderCapacity = 4096>
class aligned_table {
    LOGSCAN_TABLE_VISITOR_CHECK(Visitor);

public:
    explicit aligned_table(Visitor& vis, column_match match = column_match::header_edges) noexcept
        : vis_(vis), match_(match) {}

    /// True after a successful `start` until the table ends.
    bool active() const noexcept { return active_; }
    /// True outside a table: the state a new reader starts in.
    bool at_rest() const noexcept { return !active_; }

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
        internal::wide_runs runs(h.data(), h.size());
        for (std::size_t i = runs.skip_spaces(0); i < h.size(); i = runs.skip_spaces(i)) {
            const std::size_t b = i;
            i = runs.run_end(i);
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
        const flow f = LOGSCAN_VISIT(vis_, on_table_header, table_header{l.number, columns(), 0, {}});
        return f == flow::stop ? table_feed::stop : table_feed::consumed;
    }

    /// Feeds a line after the header; see the file comment. With `offer::loose_lines`, a line
    /// in the rows that is not a row is `offered` instead of becoming `on_table_text`.
    table_feed feed(const line& l, offer mode = offer::never) {
        if (!active_) return table_feed::not_mine;
        const std::string_view s = l.text;
        // (the first byte decides cheaply that most rows are neither blank nor dashes)
        if ((s.empty() || s[0] == ' ' || s[0] == '\t') && internal::is_blank(s)) return end(l.number, table_feed::not_mine);
        if (!s.empty() && s[0] == '-' && internal::is_dash_line(s)) {
            if (footer_) return end(l.number, table_feed::not_mine);
            footer_ = true;
            return table_feed::consumed;
        }
        std::array<cell, MaxColumns>& cells = cells_; // assign() sets cells [0, ncols_) of a row
        if (!assign(s, cells)) {
            // header_edges: before the rule, a line that is not a row (a debug print, a name
            // cut off) is a note and the rows go on; after it (or in_order) it ends the table
            if (footer_ || match_ == column_match::in_order) return end(l.number, table_feed::not_mine);
            if (mode == offer::loose_lines) return table_feed::offered;
            return keep(l);
        }
        const flow f = LOGSCAN_VISIT(vis_, on_table_row,
                                     table_row{l.number, std::span<const cell>(cells.data(), ncols_), columns(), 0, {}, footer_, {}});
        return f == flow::stop ? table_feed::stop : table_feed::consumed;
    }

    /// Takes a line `feed(l, offer::loose_lines)` offered as a note (`on_table_text`).
    table_feed keep(const line& l) {
        return LOGSCAN_VISIT(vis_, on_table_text, l) == flow::stop ? table_feed::stop : table_feed::consumed;
    }

    /// Ends the table now; `line` is reported to `on_table_end`.
    flow close(std::uint64_t line) {
        if (!active_) return flow::proceed;
        return end(line, table_feed::consumed) == table_feed::stop ? flow::stop : flow::proceed;
    }

    /// Ends the input (the table ends if still open).
    flow finish() { return close(0); }

private:
    std::span<const cell> columns() const noexcept { return {header_.data(), ncols_}; }

    table_feed end(std::uint64_t number, table_feed result) {
        active_ = false;
        if (LOGSCAN_VISIT(vis_, on_table_end, number) == flow::stop) return table_feed::stop;
        return result;
    }

    // Splits `s` into its runs of text. A run ends at two or more spaces (`tight`: at any
    // space, or right after a closing bracket) outside (), [] and {} (in_order only).
    template <class F>
    void tokens(std::string_view s, bool tight, F&& f) const noexcept {
        std::size_t i = 0;
        while (i < s.size()) {
            while (i < s.size() && s[i] == ' ') ++i;
            if (i == s.size()) break;
            const std::size_t b = i;
            int depth = 0;
            while (i < s.size()) {
                const char c = s[i];
                if (depth <= 0 && c == ' ' && (tight || i + 1 == s.size() || s[i + 1] == ' ')) break;
                if (match_ == column_match::in_order) {
                    if (c == '(' || c == '[' || c == '{') ++depth;
                    else if (c == ')' || c == ']' || c == '}') {
                        if (--depth == 0 && tight) {
                            ++i;
                            break;
                        }
                    }
                }
                ++i;
            }
            if (!f(b, i)) return;
        }
    }

    // Assigns a row's runs to columns. header_edges: a row starts with its first column's
    // cell at 0 (left-aligned), every other run goes to the column whose header's right edge
    // it ends on; the row must have a cell besides the first column's. in_order: one run per column, in order; when
    // the runs separated by two or more spaces do not give one per column, printf-style
    // rows whose values outgrew their width (a single space, or none after a bracket) are
    // split tightly. False if the line is not a row.
    bool assign(std::string_view s, std::array<cell, MaxColumns>& cells) const noexcept {
        if (match_ == column_match::in_order) {
            for (const bool tight : {false, true}) {
                std::size_t col = 0;
                bool fits = true;
                tokens(s, tight, [&](std::size_t b, std::size_t e) {
                    if (col == ncols_) return fits = false;
                    cells[col++] = cell{s.substr(b, e - b)};
                    return true;
                });
                if (fits && col == ncols_) return true;
            }
            return false;
        }
        if (s.empty() || s[0] == ' ') return false; // the first column is left-aligned: a row starts with it
        const std::size_t n = s.size();
        internal::wide_runs runs(s.data(), n);
        std::size_t e = runs.run_end(0);
        cells[0] = cell{s.substr(0, e)};
        if (cells[0].empty()) return false; // (a first run of tabs: no name, as a line that starts with spaces)
        std::size_t col = 1; // columns are visited left to right
        bool beyond_first = false;
        for (std::size_t i = runs.skip_spaces(e); i < n; i = runs.skip_spaces(e)) {
            e = runs.run_end(i);
            while (col < ncols_ && right_[col] < e) cells[col++] = cell{};
            if (col == ncols_ || right_[col] != e) return false;
            cells[col++] = cell{s.substr(i, e - i)};
            beyond_first = beyond_first || !cells[col - 1].empty(); // (a run of tabs is no cell's text)
        }
        while (col < ncols_) cells[col++] = cell{};
        return beyond_first;
    }

    Visitor& vis_;
    column_match match_;
    std::size_t ncols_ = 0;
    bool active_ = false;
    bool footer_ = false;
    std::array<cell, MaxColumns> header_{};
    std::array<cell, MaxColumns> cells_{}; // the current row's (kept here: no array of cells built per row)
    std::array<std::size_t, MaxColumns> right_{};
    internal::line_copy<HeaderCapacity> header_line_{};
};

//=== pipe_table ===//

/// Reader of pipe tables (`| a | b |`); see the file comment.
template <class Visitor, std::size_t MaxColumns = 32, std::size_t HeaderCapacity = 4096>
class pipe_table {
    LOGSCAN_TABLE_VISITOR_CHECK(Visitor);

public:
    /// `only_title`: when not empty, a table opens only after a title of that text (`Perf
    /// Summary`: formats whose pipe tables always have that title), blank lines between them
    /// or not, and no other title is remembered; else a pipe line opens one anywhere.
    explicit pipe_table(Visitor& vis, std::string_view only_title = {}) noexcept : vis_(vis), only_title_(only_title) {}

    bool active() const noexcept { return active_; }
    /// True when a title is remembered for the next table (see `feed`): state that a
    /// caller resuming an input in parts must not lose.
    bool holds_title() const noexcept { return title_.size != 0; }
    /// True outside a table with no title remembered: the state a new reader starts in.
    bool at_rest() const noexcept { return !active_ && title_.size == 0; }

    /// A line starting with `|` starts (first line: header) or continues the table. A title
    /// line (`===Perf Summary===`) fed while no table is open is remembered (and left to the
    /// caller: `not_mine`) as the title of the next table, unless a blank line comes first.
    /// True when `feed` declines every line that begins with `first` now (`not_mine`; `'\n'`:
    /// an empty line, which at rest changes nothing): what `indented_table` asks before it
    /// cuts a line's indent for the reader.
    bool declines(char first) const noexcept { return !active_ && !maybe_own(first); }
    table_feed feed(const line& l, offer = offer::never) {
        if (!l.text.empty() && declines(l.text[0]))
            return table_feed::not_mine; // (no title, row or blank: nothing to take or forget)
        const std::string_view s = internal::trim_right(l.text);
        if (s.empty() || s[0] != '|') {
            if (!active_) {
                const std::string_view t = internal::title_text(s);
                if (!t.empty() && (only_title_.empty() || t == only_title_))
                    title_.assign(t.substr(0, t.size() < title_capacity ? t.size() : title_capacity), l.number);
                else if ((s.empty() && only_title_.empty()) || !t.empty()) title_.size = 0; // (another title: not this reader's)
                return table_feed::not_mine;
            }
            return end(l.number, table_feed::not_mine);
        }
        if (!active_ && !only_title_.empty() && title_.size == 0) return table_feed::not_mine;
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
            const flow f = LOGSCAN_VISIT(vis_, on_table_header, table_header{l.number, columns(), 0, title_.view()});
            return f == flow::stop ? table_feed::stop : table_feed::consumed;
        }
        std::array<cell, MaxColumns>& cells = cells_;
        std::size_t n = 0;
        // a binary line, or one with no cell past the first (`|   ips   |   |`), is a note
        if (internal::is_binary_text(s)) return note(l);
        if (!split(s, cells, n)) return too_many(l);
        for (std::size_t c = n; c < ncols_; ++c) cells[c] = cell{}; // missing cells are empty
        bool beyond_first = false; // (a one-column table's lines are all notes: no cell past the name)
        for (std::size_t c = 1; c < n && !beyond_first; ++c) beyond_first = !cells[c].empty();
        if (!beyond_first) return note(l);
        // missing cells stay empty; extra cells (beyond the header) are delivered too
        const std::size_t shown = n < ncols_ ? ncols_ : n;
        const flow f = LOGSCAN_VISIT(vis_, on_table_row,
                                     table_row{l.number, std::span<const cell>(cells.data(), shown), columns(), 0, {}, false,
                                               title_.view()});
        return f == flow::stop ? table_feed::stop : table_feed::consumed;
    }

    /// A pipe table never offers lines; for the uniform interface of table readers.
    table_feed keep(const line&) noexcept { return table_feed::not_mine; }

    /// Ends the table now (`line` is reported to `on_table_end`), or forgets the title held
    /// for the next one.
    flow close(std::uint64_t line) {
        if (!active_) {
            title_.size = 0;
            return flow::proceed;
        }
        return end(line, table_feed::consumed) == table_feed::stop ? flow::stop : flow::proceed;
    }

    flow finish() { return close(0); }

private:
    // A first byte a line this reader takes or notes while idle can begin with: `|` (a row
    // or separator), a title's fill (`-`, `=`), a blank (a blank line forgets the title).
    static constexpr bool maybe_own(char c) noexcept { return c == '|' || c == '-' || c == '=' || c == ' ' || c == '\t'; }
    static constexpr std::size_t title_capacity = 256;

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

    table_feed note(const line& l) {
        return LOGSCAN_VISIT(vis_, on_table_text, l) == flow::stop ? table_feed::stop : table_feed::consumed;
    }

    table_feed too_many(const line& l) {
        const flow f = report_error(vis_, error{error_code::too_many_columns, l.number, 0, l.offset,
                                                "table has more columns than the reader's maximum", 0});
        if (f == flow::stop) return table_feed::stop;
        return active_ ? end(l.number, table_feed::not_mine) : table_feed::not_mine;
    }

    table_feed end(std::uint64_t number, table_feed result) {
        active_ = false;
        title_.size = 0;
        if (LOGSCAN_VISIT(vis_, on_table_end, number) == flow::stop) return table_feed::stop;
        return result;
    }

    Visitor& vis_;
    std::string_view only_title_;
    std::size_t ncols_ = 0;
    bool active_ = false;
    std::array<cell, MaxColumns> header_{};
    std::array<cell, MaxColumns> cells_{}; // the current row's (kept here: no array of cells built per row)
    internal::line_copy<HeaderCapacity> header_line_{};
    internal::line_copy<title_capacity> title_{};
};

//=== indented tables ===//

/// What an `indented_table` set aside from its lines, so that a line it delivers (a note, a
/// held header) can be given back whole: a `text` record keeps its indent (formats.md).
class indent_keeper {
public:
    /// The spaces removed from the current line: the open table's indent, or the current
    /// line's own leading spaces when no table is open.
    std::size_t indent() const noexcept { return indent_; }
    /// `l`, a line the table delivered for the current line or one it held, with the indent
    /// put back: a view into the current line when `l` is that line, else a copy in a
    /// fixed buffer (a header held from an earlier line of the same table); `l` as it is
    /// when the copy would not fit.
    line whole(const line& l) noexcept {
        if (indent_ == 0) return l;
        if (l.text.data() == current_ && l.number == number_)
            return line{std::string_view(l.text.data() - indent_, l.text.size() + indent_), l.number, l.offset - indent_};
        if (l.text.size() > sizeof held_ - indent_ || indent_ > sizeof held_) return l;
        std::memset(held_, ' ', indent_);
        if (!l.text.empty()) std::memcpy(held_ + indent_, l.text.data(), l.text.size());
        return line{std::string_view(held_, indent_ + l.text.size()), l.number, l.offset >= indent_ ? l.offset - indent_ : 0};
    }

protected:
    // Sets `n` leading spaces of `l` aside, `n` the indent from now on: the line the table reads.
    const line& strip(const line& l, std::size_t n) noexcept {
        indent_ = n;
        return blank(l);
    }
    // `l` without its first `min(indent, its spaces)` bytes, the indent kept (a blank line).
    // (Written field by field and handed on where it is: a line built whole and copied was
    // stored as two 8-byte halves and read back in one 16-byte load by g++ -O3, which waits
    // for the stores to retire: a tenth of a legacy Paddle report's parse.)
    const line& blank(const line& l) noexcept {
        std::size_t n = 0;
        while (n < indent_ && n < l.text.size() && l.text[n] == ' ') ++n;
        stripped_.text = std::string_view(l.text.data() + n, l.text.size() - n);
        stripped_.number = number_ = l.number;
        stripped_.offset = l.offset + n;
        current_ = stripped_.text.data();
        return stripped_;
    }
    line stripped_{};
    const char* current_ = nullptr;
    std::uint64_t number_ = 0;
    std::size_t indent_ = 0;
    char held_[8448];
};

/// A table reader (`rule_table`, `pipe_table`, or any reader with the same members) whose
/// tables may be indented as a whole — a log pasted from a notebook, a Markdown list item's
/// code block (formats.md section 4): a table has the indent of the line that opens it, and
/// that many spaces are removed from each of its lines before the reader sees them, so an
/// indented table yields the records of the same table without the indent (its rows' own
/// indentation, a name's depth, is kept). While a table is open, a non-blank line that does
/// not start with its indent ends it (`close`) and is read as a line outside any table, and
/// so does a line that opens a region of the reader's own at a deeper indent (a title: the
/// reader's static `opens_region(text)`, if it has one); blank lines keep their own rules. Outside a table every line is offered without its
/// leading spaces. The reader's events see lines without the indent; `whole(l)` gives a
/// delivered line back with it (for `text` records). A reader that can tell at a glance which
/// lines it would decline at rest says so (`bool declines(char first) const`: true when its
/// `feed` returns `not_mine` for every line beginning with `first`, `'\n'` standing for an
/// empty line, and at rest changes nothing), and such lines are not cut for it (nor offered
/// to it by `line_router`: `declines_line`). The wrapped reader is constructed from the constructor's arguments and is
/// `table()`. Nothing allocates.
template <class Table>
class indented_table : public indent_keeper {
public:
    /// Constructs the wrapped reader from `args`.
    template <class... Args>
    explicit indented_table(Args&&... args) : table_(std::forward<Args>(args)...) {}
    indented_table(const indented_table&) = delete;
    indented_table& operator=(const indented_table&) = delete;

    /// The wrapped reader.
    Table& table() noexcept { return table_; }
    const Table& table() const noexcept { return table_; }
    /// True inside a table region.
    bool active() const noexcept { return table_.active(); }
    /// True outside any table region.
    bool at_rest() const noexcept { return table_.at_rest(); }

    /// Feeds the next line without the indent (see the class comment).
    table_feed feed(const line& l, offer mode = offer::never) {
        const std::size_t n = internal::leading_spaces(l.text);
        if constexpr (requires(const Table& t) { t.declines(' '); }) // (a line the reader would not take, not cut for it)
            if (n != l.text.size() && table_.at_rest() && table_.declines(l.text[n])) {
                indent_ = n; // (`indent()`: the line's own leading spaces; the line is not delivered)
                return table_feed::not_mine;
            }
        if (!table_.at_rest()) { // (a region: a table, or a title the reader holds for the next one)
            if (n < indent_ && (n == l.text.size() || internal::is_blank(l.text))) return table_.feed(blank(l), mode);
            if (n > indent_ && opens_region(l.text.substr(n))) { // a title deeper in: ends the table, opens its own
                if (table_.close(l.number) == flow::stop) return table_feed::stop;
            } else if (n >= indent_) {
                return table_.feed(strip(l, indent_), mode);
            } else if (table_.close(l.number) == flow::stop) { // (the table's indent still set)
                return table_feed::stop;
            }
        }
        return table_.feed(strip(l, n), mode);
    }
    /// True when `feed(l)` would return `not_mine`, the reader at rest declining what the line
    /// begins with after its spaces (`'\n'` for a blank line); then `indent()` is the line's
    /// spaces, as `feed` would leave it, and nothing else changed. False when the reader cannot
    /// tell (it has no `declines`), the line not looked at. What `line_router` asks before it
    /// offers a line to any table.
    bool declines_line(const line& l) noexcept {
        if constexpr (requires(const Table& t) { t.declines(' '); }) {
            if (!table_.at_rest()) return false;
            const std::size_t n = internal::leading_spaces(l.text);
            if (!table_.declines(n == l.text.size() ? '\n' : l.text[n])) return false;
            indent_ = n;
            return true;
        } else {
            return false;
        }
    }
    /// True when `s` (a line without its leading spaces) opens a region of the reader's own,
    /// at any indent (`Table::opens_region(s)`; none when the reader does not say).
    static constexpr bool opens_region(std::string_view s) noexcept {
        if constexpr (requires { Table::opens_region(s); }) return Table::opens_region(s);
        else return false;
    }
    /// Keeps the line last fed (see `line_router`).
    table_feed keep(const line&) { return table_.keep(stripped_); }
    /// Ends the table now.
    flow close(std::uint64_t number) { return table_.close(number); }
    /// Ends the input.
    flow finish() { return table_.finish(); }

private:
    Table table_;
};

#undef LOGSCAN_TABLE_VISITOR_CHECK

} // namespace logscan

#endif // LOGSCAN_TABLE_HPP_INCLUDED
