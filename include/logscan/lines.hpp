// SPDX-License-Identifier: MIT
/// \file lines.hpp
/// Line framing across chunk boundaries.
///
/// `line_splitter<Visitor>` is fed chunks of any size and calls `on_line(const line&)` for
/// every line, in order:
/// - a line ends at `\n`; one `\r` right before it is dropped (also at the end of input);
/// - the last line may lack `\n`; an empty input has no lines; `"a\n"` is one line;
/// - lines are numbered from 1 and carry the byte offset of their first byte;
/// - a line that straddles chunks is assembled in a bounded carry buffer given at
///   construction. Every line longer than that buffer (counted without `\n`, with `\r`) is
///   reported to `on_error` as `error_code::line_too_long` with its line number, and the
///   parse continues with the next line: the limit holds however the input is chunked, so
///   the same input always yields the same lines and errors.
///
/// The visitor is a struct with `on_line` (and optionally `on_error`), or any callable taking
/// `const line&` (a lambda). A visitor with neither, or an `on_line` that cannot take a
/// `const line&`, is a compile error (see visit.hpp); a splitter that only counts lines
/// takes `logscan::null_visitor`.
///
/// The splitter never allocates. `line_buffer` is an owning carry buffer, allocated once.
///
/// **Lines taken whole.** A visitor may also offer `line_taken take_line(const char* p, const
/// char* e, std::uint64_t number, std::uint64_t offset)`: before looking for the end of a line
/// that starts at `p` in the current chunk, the splitter hands it the bytes from `p` up to `e`
/// (the chunk's end, or one past the longest line allowed); a visitor that reads the line
/// itself, finding its `\n` on the way (a fused reader, rules.hpp), returns where the next line
/// starts and the flow of what it did with it, and the splitter goes on from there without a
/// separate search for the `\n`. It takes only a line whose `\n` is before `e`, and must do with
/// it exactly what `on_line` would with the line as framed (without its `\n`, and without a `\r`
/// before it: `take_run` drops it as the splitter does; a fused reader declines such a line);
/// `next == nullptr` declines (the line is then framed and delivered as usual). It may take a
/// run of whole lines at once (`lines` says how many: lines it passes over, that would yield
/// nothing, or lines it reads and handles one after another, each numbered as if framed; a
/// table reader in its rows reads them so with `take_run`). Lines that straddle chunks are
/// always delivered through `on_line`.
///
/// \code
/// struct stats { std::size_t n = 0; void on_line(const logscan::line&) { ++n; } } vis;
/// logscan::for_each_line(std::string_view{text}, vis);            // contiguous input
/// logscan::file_source src{"train.log"};
/// logscan::line_buffer buf;                                          // 1 MiB, once
/// logscan::error e = logscan::for_each_line(src, vis, buf);        // streamed
/// \endcode
#ifndef LOGSCAN_LINES_HPP_INCLUDED
#define LOGSCAN_LINES_HPP_INCLUDED

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <span>
#include <type_traits>
#include <string_view>
#include <utility>

#include "config.hpp"
#include "error.hpp"
#include "source.hpp"
#include "visit.hpp"


namespace logscan {

struct line;
LOGSCAN_EVENT(on_line, "void on_line(const logscan::line&) (or pass a callable taking const logscan::line&)");
/// A line a format module did not recognise (trailing spaces removed): the `text` record.
LOGSCAN_EVENT(on_text, "void on_text(const logscan::line&)");

/// One line of input, as handed to `on_line`.
struct line {
    std::string_view text; ///< the line without its `\n` and without a `\r` before it
    std::uint64_t number;  ///< 1-based line number
    std::uint64_t offset;  ///< 0-based byte offset of the line's first byte in the input
};

/// What a visitor's `take_line` did with the line at the bytes it was given (see the file
/// comment): `next` one past the line's `\n` when it took the line, null when it declined.
struct line_taken {
    const char* next = nullptr; ///< where the next line starts; null: not taken
    flow result = flow::proceed; ///< `flow::stop` when a callback stopped the parse
    std::uint64_t lines = 1;     ///< how many lines were taken (a run of lines passed over at once)
};

/// What a reader of a run of lines (`take_run`) did with one of them.
enum class run_step : unsigned char {
    taken,    ///< read (its records delivered)
    declined, ///< not read: the run ends before it, and the line is read as usual
    stopped   ///< read, and a callback stopped the parse
};

namespace internal {
/// True when `V` reads some lines itself (see `line_taken`).
template <class V>
concept takes_lines = requires(V& v, const char* p, std::uint64_t n) {
    { v.take_line(p, p, n, n) } -> std::same_as<line_taken>;
};

/// The first byte `C` in [p, e), or null. The first 64 bytes are looked at 16 at a time in
/// place (most log lines end within them, most cells too, and there a call to memchr costs
/// more than the look; with SSE2), fewer than 16 left byte by byte, the rest by memchr.
/// `begin` (at or before `p`): where the bytes that may be read begin; when fewer than 16 are
/// left before `e`, the 16 that end at `e` are looked at if they all may be (a cell at the end
/// of a line: one look, not a loop).
/// (`Blocks`: how many 16-byte looks before memchr; a table's rows, under 128 bytes, take 8.)
template <char C, int Blocks = 4>
LOGSCAN_FORCE_INLINE const char* find_byte(const char* p, const char* e, const char* begin = nullptr) noexcept {
#if LOGSCAN_SSE2
    const __m128i nl = _mm_set1_epi8(C);
    for (int i = 0; i < Blocks && e - p >= 16; ++i, p += 16) {
        const auto m = static_cast<unsigned>(
            _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), nl)));
        if (m != 0) return p + std::countr_zero(m);
    }
    if (e - p < 16) {
        if (begin != nullptr && e - begin >= 16) {
            const auto m = static_cast<unsigned>(
                _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(e - 16)), nl))) >> (16 - (e - p));
            return m != 0 ? p + std::countr_zero(m) : nullptr;
        }
        for (; p != e; ++p)
            if (*p == C) return p;
        return nullptr;
    }
#else
    (void)begin;
    if (p == e) return nullptr; // (an empty range may be two null pointers: memchr must not see them)
#endif
    return static_cast<const char*>(std::memchr(p, C, static_cast<std::size_t>(e - p)));
}
/// Where the last `needle` (not empty) in `text` begins, or npos, as `text.rfind(needle)`:
/// its first byte looked for from the end 16 bytes at a time (with SSE2), the rest compared
/// where it is (`rfind` compares at every place; a cell or a key near the end of a line, found
/// from there: `static storage on COMP: size=...`'s last `: size=`, a memory row's `MiB(`s).
constexpr std::size_t find_last(std::string_view text, std::string_view needle) noexcept {
    if (std::is_constant_evaluated() || needle.empty()) return text.rfind(needle);
    if (text.size() < needle.size()) return std::string_view::npos;
    const char* const b = text.data();
    const char* e = b + (text.size() - needle.size() + 1); // (one past the last place needle may begin)
    const auto here = [&](const char* q) { return same_bytes(q + 1, needle.data() + 1, needle.size() - 1); };
#if LOGSCAN_SSE2
    const __m128i c = _mm_set1_epi8(needle[0]);
    while (e - b >= 16) {
        auto m = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(e - 16)), c)));
        for (; m != 0; m &= ~(1u << (31 - std::countl_zero(m)))) {
            const char* const q = e - 16 + (31 - std::countl_zero(m));
            if (here(q)) return static_cast<std::size_t>(q - b);
        }
        e -= 16;
    }
#endif
    while (e != b)
        if (*--e == needle[0] && here(e)) return static_cast<std::size_t>(e - b);
    return std::string_view::npos;
}
/// The first `\n` in [p, e), or null (`find_byte`: the first 128 bytes in place, which most
/// lines of a log end within, a C++ log's header lines too).
LOGSCAN_FORCE_INLINE const char* find_newline(const char* p, const char* e) noexcept { return find_byte<'\n', 8>(p, e); }

/// A `take_line` (see `line_taken`) that reads a run of whole lines straight from the bytes:
/// each line that starts at `p` and ends in [p, e) (its `\r` before the `\n` dropped, as the
/// splitter drops it) is given to `step(const line&)` until it declines one or a line does not
/// end in the range; the lines it took are passed over at once. A table reader in its rows
/// takes them so, without a call through the line parser per row.
template <class Step>
LOGSCAN_FORCE_INLINE line_taken take_run(const char* p, const char* e, std::uint64_t number, std::uint64_t offset, Step&& step) {
    std::uint64_t n = 0;
    const char* q = p;
    for (;;) {
        const char* const nl = find_byte<'\n', 8>(q, e);
        if (nl == nullptr) break;
        std::size_t len = static_cast<std::size_t>(nl - q);
        if (len != 0 && q[len - 1] == '\r') --len;
        const run_step s = step(line{std::string_view(q, len), number + n, offset + static_cast<std::uint64_t>(q - p)});
        if (s == run_step::declined) break;
        ++n;
        q = nl + 1;
        if (s == run_step::stopped) return {q, flow::stop, n};
    }
    if (n == 0) return {};
    return {q, flow::proceed, n};
}

/// Spaces and tabs: what trimming removes.
constexpr bool is_space(char c) noexcept { return c == ' ' || c == '\t'; }
/// Number of bytes `c` `s` begins with, counted 8 at a time (a frame's dashes, an indent).
constexpr std::size_t leading_run(std::string_view s, char c) noexcept {
    std::size_t n = 0;
    if (!std::is_constant_evaluated()) {
        while (s.size() - n >= 8) {
            const std::size_t k = run8<false>(s.data() + n, c);
            n += k;
            if (k != 8) return n;
        }
    }
    while (n < s.size() && s[n] == c) ++n;
    return n;
}
/// Number of bytes `c` `s` ends with, counted 8 at a time.
constexpr std::size_t trailing_run(std::string_view s, char c) noexcept {
    std::size_t n = 0;
    if (!std::is_constant_evaluated()) {
        while (s.size() - n >= 8) {
            const std::size_t k = run8<true>(s.data() + s.size() - n - 8, c);
            n += k;
            if (k != 8) return n;
        }
    }
    while (n < s.size() && s[s.size() - n - 1] == c) ++n;
    return n;
}
/// Number of spaces (` ` only) `s` begins with, counted 8 at a time.
inline std::size_t leading_spaces(std::string_view s) noexcept {
    std::size_t n = 0;
    while (s.size() - n >= 8) {
        const std::size_t k = spaces8<false>(s.data() + n);
        n += k;
        if (k != 8) return n;
    }
    while (n < s.size() && s[n] == ' ') ++n;
    return n;
}
/// The end of [b, e) of `s` without its trailing spaces and tabs: the 16 bytes before the end
/// looked at at once with SSE2 (earlier bytes of `s` included when the range is shorter; a
/// table's padded cell ends in one or two looks), else spaces counted 8 at a time and a tab
/// byte by byte.
inline std::size_t trim_end(const char* s, std::size_t b, std::size_t e) noexcept {
#if LOGSCAN_SSE2
    const __m128i space = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t');
    while (e >= 16 && e > b) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + e - 16));
        const auto other = ~static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, tab)))) & 0xFFFFu;
        if (other != 0) {
            const std::size_t end = e - 16 + static_cast<std::size_t>(std::bit_width(other));
            return end > b ? end : b;
        }
        e = e - 16 > b ? e - 16 : b;
    }
#endif
    while (e >= 8 && e > b) {
        const std::size_t all = spaces8<true>(s + e - 8), n = all < e - b ? all : e - b;
        e -= n;
        if (n != 8) break;
    }
    while (e > b && is_space(s[e - 1])) --e;
    return e;
}
/// Bit k: byte k of the 64 at `p` is a space or a tab (SSE2, else a byte loop).
inline std::uint64_t blank_bits(const char* p) noexcept {
    std::uint64_t m = 0;
#if LOGSCAN_SSE2
    const __m128i space = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t');
    const auto bits = [&](int k) { // (written out four times: not a loop the compiler keeps)
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
        return static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, tab)))))
               << (16 * k);
    };
    m = bits(0) | bits(1) | bits(2) | bits(3);
#else
    for (int k = 0; k < 64; ++k) m |= static_cast<std::uint64_t>(is_space(p[k])) << k;
#endif
    return m;
}
/// `trim_end(s, b, e)` where `s` has `n` bytes to read (n >= e): when there are 64 of them,
/// the 64 bytes around the end looked at at once, without a branch on how many blanks there
/// are (a table's padded cell, whose padding differs from row to row).
inline std::size_t trim_end_within(const char* s, std::size_t n, std::size_t b, std::size_t e) noexcept {
    if (n < 64 || e <= b) return trim_end(s, b, e);
    const std::size_t base = e > 64 ? e - 64 : 0, from = b > base ? b - base : 0;
    const std::uint64_t below_end = e - base == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (e - base)) - 1;
    const std::uint64_t text = ~blank_bits(s + base) & below_end & (~std::uint64_t{0} << from);
    if (text != 0) return base + static_cast<std::size_t>(std::bit_width(text));
    return b >= base ? b : trim_end(s, b, base);
}
/// `s` without leading and trailing spaces and tabs (runs of spaces counted 8 at a time; an end
/// that is neither costs one look).
constexpr std::string_view trim(std::string_view s) noexcept {
    std::size_t b = 0, e = s.size();
    if (e == 0 || (!is_space(s[0]) && !is_space(s[e - 1]))) return s;
    if (is_space(s[0])) { // (each end looked at once first: most cells have nothing to trim at one end or both)
        if (!std::is_constant_evaluated())
            while (e - b >= 8) {
                const std::size_t n = spaces8<false>(s.data() + b);
                b += n;
                if (n != 8) break;
            }
        while (b < e && is_space(s[b])) ++b;
    }
    if (e > b && is_space(s[e - 1])) {
        if (!std::is_constant_evaluated()) {
            e = trim_end(s.data(), b, e);
        } else {
            while (e > b && is_space(s[e - 1])) --e;
        }
    }
    return {s.data() + b, e - b}; // (not substr: its check of b, never needed here, keeps it out of line)
}
/// `s` without trailing spaces and tabs (a `text` record's text).
LOGSCAN_FORCE_INLINE constexpr std::string_view trim_right(std::string_view s) noexcept {
    std::size_t e = s.size();
    if (e == 0 || !is_space(s[e - 1])) return s; // (most lines: nothing to trim, one look)
    if (!std::is_constant_evaluated()) return {s.data(), trim_end(s.data(), 0, e)};
    while (e > 0 && is_space(s[e - 1])) --e;
    return s.substr(0, e);
}
/// `part` (a view into `text`) without leading and trailing spaces and tabs: `trim(part)`,
/// but a part that starts with its text (a table's left-aligned cell, padded) has its end found
/// in one look at the 64 bytes of `text` around it (`trim_end_within`).
inline std::string_view trim_within(std::string_view text, std::string_view part) noexcept {
    if (part.empty() || is_space(part[0])) return trim(part);
    const auto b = static_cast<std::size_t>(part.data() - text.data());
    return {part.data(), trim_end_within(text.data(), text.size(), b, b + part.size()) - b};
}
/// Calls `f(line_text)` for each whole line of `head` (the first bytes of an input, for
/// format detection), at most `max_lines`, with a `\r` before the `\n` dropped; a last
/// line without `\n` is passed too unless `head` was cut (`cut`: more input follows).
template <class F>
constexpr void for_each_head_line(std::string_view head, bool cut, std::size_t max_lines, F&& f) {
    std::size_t p = 0;
    for (std::size_t n = 0; n < max_lines && p < head.size(); ++n) {
        std::size_t e = head.find('\n', p);
        if (e == std::string_view::npos) {
            if (cut) return;
            e = head.size();
        }
        std::string_view l = head.substr(p, e - p);
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
        f(l);
        p = e + 1;
    }
}

// The whole lines of `bytes` that read one of `words` (then spaces or tabs, and a `\r` before
// the `\n`): how many records the lines of a part of a format's input start, where a record
// starts at a line of its own (parallel.hpp's `part_units`: chainer-memtrace's direction
// lines). What is searched for is the words' common ending (`ward` of `forward` and
// `backward`), each place it stands checked for a word before it at a line's start (an ending
// that overlaps itself is looked for again one byte on); words with none are counted one by
// one. An empty word counts no line.
constexpr std::uint64_t count_word_lines(std::string_view bytes, std::span<const std::string_view> words) noexcept {
    std::size_t common = std::string_view::npos; // (the common ending's length; npos: no word yet)
    std::string_view some;
    for (const std::string_view w : words) {
        if (w.empty()) continue;
        if (common == std::string_view::npos) {
            common = w.size();
            some = w;
        }
        std::size_t k = 0;
        while (k < common && k < w.size() && w[w.size() - 1 - k] == some[some.size() - 1 - k]) ++k;
        common = k;
    }
    if (common == std::string_view::npos) return 0;
    if (common == 0) {
        std::uint64_t n = 0;
        for (const std::string_view& w : words)
            if (!w.empty()) n += count_word_lines(bytes, std::span<const std::string_view>(&w, 1));
        return n;
    }
    const std::string_view ending = some.substr(some.size() - common);
    std::uint64_t n = 0;
    for (std::size_t i = bytes.find(ending); i != std::string_view::npos; i = bytes.find(ending, i + 1)) {
        bool starts = false; // (a word before the ending, at a line's start)
        for (const std::string_view w : words) {
            if (w.empty()) continue;
            const std::size_t head = w.size() - common;
            starts = starts || (i >= head && bytes.compare(i - head, head, w.substr(0, head)) == 0 &&
                                (i == head || bytes[i - head - 1] == '\n'));
        }
        if (!starts) continue;
        std::size_t e = i + common;
        while (e < bytes.size() && is_space(bytes[e])) ++e;
        if (e < bytes.size() && bytes[e] == '\r' && e + 1 < bytes.size() && bytes[e + 1] == '\n') ++e;
        if (e == bytes.size() || bytes[e] == '\n') ++n;
    }
    return n;
}
} // namespace internal

/// An owning carry buffer for `line_splitter`, allocated once at construction.
class line_buffer {
public:
    /// Default capacity: the longest line that can straddle chunks.
    static constexpr std::size_t default_capacity = std::size_t{1} << 20;
    explicit line_buffer(std::size_t capacity = default_capacity) noexcept
        : data_(static_cast<char*>(std::malloc(capacity ? capacity : 1))),
          size_(data_ ? capacity : 0) {}
    line_buffer(const line_buffer&) = delete;
    line_buffer& operator=(const line_buffer&) = delete;
    ~line_buffer() { std::free(data_); }
    /// The storage (empty if the allocation failed).
    std::span<char> span() noexcept { return {data_, size_}; }
    operator std::span<char>() noexcept { return span(); }

private:
    char* data_;
    std::size_t size_;
};

/// Splits a stream of chunks into lines; see the file comment. `Visitor` may have
/// `on_line(const line&)` and `on_error(const error&)`; each may return void, bool or flow.
template <class Visitor>
class line_splitter {
    static_assert(has_some_callback<Visitor, on_line_event, on_error_event> ||
                      std::is_invocable_v<Visitor&, const line&>,
                  "logscan::line_splitter: the visitor has neither on_line nor on_error and is not callable "
                  "with a const logscan::line& (a misspelt callback name?); derive it from "
                  "logscan::validate_only if it deliberately has no callback");

public:
    /// Contiguous input only: with no carry buffer, a line cannot straddle two chunks and
    /// has no length limit (feed the whole input as one chunk).
    explicit line_splitter(Visitor& vis) noexcept : vis_(vis), limit_(no_limit) {}
    /// Streaming: lines longer than `carry.size()` bytes are reported as `line_too_long`.
    line_splitter(Visitor& vis, std::span<char> carry) noexcept
        : vis_(vis), carry_(carry.data()), limit_(carry.size()) {}

    /// Feeds the next chunk. Returns `flow::stop` once a callback has stopped the parse;
    /// further input is then ignored.
    flow feed(std::string_view chunk) {
        if (LOGSCAN_UNLIKELY(stopped_)) return flow::stop;
        if (chunk.empty()) return flow::proceed; // (its data() may be null: no memchr on it)
        const char* p = chunk.data();
        const char* const end = p + chunk.size();
        const std::uint64_t base = consumed_;
        consumed_ += chunk.size();

        if (LOGSCAN_UNLIKELY(pending_ != 0 || skipping_)) {
            // finish the line that began in an earlier chunk
            const char* nl = find_newline(p, end);
            const char* stop_at = nl ? nl : end;
            if (!skipping_) {
                const std::size_t add = static_cast<std::size_t>(stop_at - p);
                if (carry_ != nullptr && add <= limit_ - pending_) {
                    if (add) std::memcpy(carry_ + pending_, p, add);
                    pending_ += add;
                } else if (report_too_long() == flow::stop) {
                    return stop();
                }
            }
            if (!nl) return flow::proceed;
            if (!skipping_) {
                if (emit(pending_ptr_, pending_ptr_ + pending_, pending_offset_) == flow::stop)
                    return stop();
            } else {
                skipping_ = false;
            }
            pending_ = 0;
            p = nl + 1;
        }

        while (p != end) {
            if constexpr (internal::takes_lines<Visitor>) {
                const char* const e = static_cast<std::size_t>(end - p) > limit_ ? p + limit_ + 1 : end;
                const line_taken t = vis_.take_line(p, e, lines_ + 1, base + static_cast<std::uint64_t>(p - chunk.data()));
                if (t.next != nullptr) {
                    lines_ += t.lines;
                    if (t.result == flow::stop) return stop();
                    p = t.next;
                    continue;
                }
            }
            const char* nl = find_newline(p, end);
            if (!nl) break;
            const std::uint64_t off = base + static_cast<std::uint64_t>(p - chunk.data());
            if (LOGSCAN_UNLIKELY(static_cast<std::size_t>(nl - p) > limit_)) {
                pending_offset_ = off;
                if (report_too_long() == flow::stop) return stop();
                skipping_ = false;
            } else if (emit(p, nl, off) == flow::stop) {
                return stop();
            }
            p = nl + 1;
        }

        if (p != end) { // a partial line: keep it for the next chunk
            pending_offset_ = base + static_cast<std::uint64_t>(p - chunk.data());
            const std::size_t rest = static_cast<std::size_t>(end - p);
            if (rest <= limit_) {
                // A source may reuse its buffer for the next chunk, so the tail is copied now.
                // Without a carry buffer (contiguous input) a view is kept for finish().
                if (carry_ != nullptr) {
                    std::memcpy(carry_, p, rest);
                    pending_ptr_ = carry_;
                } else {
                    pending_ptr_ = p;
                }
                pending_ = rest;
            } else if (report_too_long() == flow::stop) {
                return stop();
            }
        }
        return flow::proceed;
    }

    /// Ends the input: delivers a last line that has no `\n`.
    flow finish() {
        if (stopped_) return flow::stop;
        if (skipping_) {
            skipping_ = false;
        } else if (pending_ != 0) {
            const flow f = emit(pending_ptr_, pending_ptr_ + pending_, pending_offset_);
            pending_ = 0;
            if (f == flow::stop) return stop();
        }
        return flow::proceed;
    }

    /// Numbers the lines and offsets as in a larger input of which this splitter reads a part
    /// that starts at a line boundary, after `lines_before` lines and `offset` bytes (parsing
    /// one file in pieces, e.g. in parallel). Call before the first `feed`.
    void start_at(std::uint64_t lines_before, std::uint64_t offset) noexcept {
        lines_ = lines_before;
        consumed_ = offset;
    }
    /// True between lines: no partial line is held or being skipped.
    bool at_line_start() const noexcept { return pending_ == 0 && !skipping_; }

    /// Lines seen so far (including lines reported as too long).
    std::uint64_t lines() const noexcept { return lines_; }
    /// Bytes fed so far.
    std::uint64_t bytes() const noexcept { return consumed_; }

private:
    static constexpr std::size_t no_limit = std::numeric_limits<std::size_t>::max();

    static LOGSCAN_FORCE_INLINE const char* find_newline(const char* p, const char* end) noexcept {
        return internal::find_newline(p, end);
    }

    LOGSCAN_FORCE_INLINE flow emit(const char* b, const char* e, std::uint64_t off) {
        std::size_t n = static_cast<std::size_t>(e - b);
        if (n != 0 && b[n - 1] == '\r') --n;
        ++lines_;
        if constexpr (!on_line_event::named<Visitor>() && std::is_invocable_v<Visitor&, const line&>)
            return internal::call_as_flow(vis_, line{std::string_view(b, n), lines_, off}); // a callable
        else
            return LOGSCAN_VISIT(vis_, on_line, line{std::string_view(b, n), lines_, off});
    }

    // The current line (starting at pending_offset_) is longer than the limit: report it and
    // skip to its end.
    flow report_too_long() {
        ++lines_;
        skipping_ = true;
        pending_ = 0;
        const std::uint64_t cap = limit_;
        return report_error(vis_, error{error_code::line_too_long, lines_, cap + 1,
                                        pending_offset_ + cap,
                                        "line longer than the line buffer (max_line); it is skipped",
                                        0});
    }

    flow stop() {
        stopped_ = true;
        return flow::stop;
    }

    Visitor& vis_;
    char* carry_ = nullptr;
    const char* pending_ptr_ = nullptr; // where the pending partial line's bytes are
    std::size_t limit_;
    std::size_t pending_ = 0;          // bytes of a partial line in carry_
    std::uint64_t pending_offset_ = 0; // offset of the partial (or skipped) line
    std::uint64_t consumed_ = 0;
    std::uint64_t lines_ = 0;
    bool skipping_ = false; // inside a too-long line, looking for its end
    bool stopped_ = false;
};

/// Where to cut `text` into parts that can be parsed separately: the start of the first line
/// that begins in [`from`, `from + reach`) and for which `pred(previous_line, line)` is true
/// (both without their line ends; `previous_line` is empty at the start of `text`), or, when
/// none does, the start of the first line at or after `from`; `text.size()` when no line
/// starts there. A format module's `split_point` is such a predicate: a place where its
/// parser is usually at rest (`parser::at_rest`), so that a part can start with a fresh one.
template <class Pred>
constexpr std::size_t find_split(std::string_view text, std::size_t from, std::size_t reach, Pred&& pred) {
    constexpr std::size_t npos = std::string_view::npos;
    auto strip = [](std::string_view l) {
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
        return l;
    };
    if (from >= text.size()) return text.size();
    std::size_t p = 0; // the first line start at or after from
    if (from > 0) {
        const std::size_t nl = text.find('\n', from - 1);
        if (nl == npos || nl + 1 == text.size()) return text.size();
        p = nl + 1;
    }
    const std::size_t first = p;
    std::string_view prev;
    if (p > 0) {
        const std::size_t b = p == 1 ? npos : text.rfind('\n', p - 2);
        prev = strip(text.substr(b == npos ? 0 : b + 1, p - 1 - (b == npos ? 0 : b + 1)));
    }
    const std::size_t end = reach > text.size() - from ? text.size() : from + reach;
    while (p < end) {
        std::size_t nl = text.find('\n', p);
        if (nl == npos) nl = text.size();
        const std::string_view l = strip(text.substr(p, nl - p));
        if (pred(prev, l)) return p;
        prev = l;
        p = nl + 1;
    }
    return first;
}

/// Calls `vis.on_line` for every line of a contiguous buffer. Never allocates.
/// Returns `error_code::stopped` if a callback stopped, else no error.
template <class Visitor>
error for_each_line(std::string_view text, Visitor&& vis) { // (a temporary lambda too)
    line_splitter<std::remove_reference_t<Visitor>> s(vis);
    if (s.feed(text) == flow::stop || s.finish() == flow::stop)
        return {error_code::stopped, s.lines(), 0, s.bytes(), to_string(error_code::stopped), 0};
    return {};
}

/// Calls `vis.on_line` for every line of a source, carrying straddling lines in `carry`.
/// Returns the source's error (after delivering every line read before it; as `pump` gives
/// it: no line, its offset the bytes read before it, so that `source_failed` tells it),
/// `stopped` (its line and offset where the visitor stopped), or no error (with the lines
/// and bytes read). Allocates nothing.
template <byte_source Source, class Visitor>
error for_each_line(Source& src, Visitor&& vis, std::span<char> carry) { // (a temporary lambda too)
    line_splitter<std::remove_reference_t<Visitor>> s(vis, carry);
    error e = pump(src, s);
    if (e.ok() || e.code == error_code::stopped) {
        e.line = s.lines();
        e.offset = s.bytes();
    }
    return e;
}

} // namespace logscan

#endif // LOGSCAN_LINES_HPP_INCLUDED
