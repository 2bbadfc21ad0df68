// SPDX-License-Identifier: MIT
/// \file json.hpp
/// A push-style JSON SAX reader: fed in chunks of any size, resumable at every byte, strict
/// RFC 8259, no heap allocation while parsing.
///
/// `logscan::json::reader<Visitor>` is fed the input with `feed(chunk)` any number of times and
/// ended with `finish()`; it calls the visitor's callbacks for every value, in document order.
/// Every callback is optional (see visit.hpp); each may return `void`, `bool` (false = stop),
/// `logscan::flow` or `logscan::json::action` (which adds `skip`):
///
/// \code
/// struct my_visitor {
///     void on_object_begin();  void on_object_end();
///     void on_array_begin();   void on_array_end();
///     void on_key(std::string_view key);                  // decoded (escapes resolved)
///     void on_string(std::string_view s);                 // decoded (escapes resolved)
///     void on_number(const logscan::json::number& n);     // n.text(), n.to_double(), ... (or on_number(double))
///     void on_bool(bool b);    void on_null();
///     void on_error(const logscan::error& e);             // once, on the first error
/// };
/// my_visitor v;
/// logscan::json::reader<my_visitor> r{v};                 // allocates its buffers once, here
/// r.feed(chunk1); r.feed(chunk2);                          // any split, never allocates
/// r.finish();
/// const logscan::error& res = r.result();                 // res.ok(), res.code, res.line, ...
///
/// logscan::error e = logscan::json::parse(whole_document, v);   // contiguous input
/// logscan::file_source src{"profile.json"};
/// logscan::error e2 = logscan::json::parse(src, v);              // streamed from a file
/// \endcode
///
/// A callback of one of these names that cannot be called with what the reader delivers
/// (`on_string(const std::string&)`, the path before the value, `on_number(int)`) is a
/// compile error naming the accepted forms, and so is a visitor with none of the callbacks
/// (derive from `logscan::validate_only` for a visitor that only validates).
///
/// **Results.** `feed()` and `finish()` return `logscan::flow` so that `logscan::pump()` can drive
/// a reader; `flow::stop` means the reader is done (an error, or a callback stopped it) and
/// ignores further input. The outcome is `result()`: a `logscan::error` whose code is `none`,
/// `syntax`, `unexpected_end`, `too_deep`, `too_long`, `invalid_utf8`, `stopped`, or `io_error`
/// (with `ENOMEM`, when the reader's buffers could not be allocated), with 1-based line and
/// byte column, 0-based byte offset, and a static message naming what was expected
/// (`"expected ':' after object key"`). Errors (but not `stopped`) are also delivered once to
/// the visitor's `on_error`.
///
/// **Strings.** Strings without escapes that lie whole in one chunk are handed out as views into
/// the chunk; strings with escapes or split across chunks are assembled in the reader's scratch
/// buffer (`options::scratch_capacity`, default 64 KiB). A key or string value longer (decoded)
/// than the scratch capacity is a `too_long` error at its opening quote, however the input is
/// chunked: never silently truncated. A visitor with
/// `on_string_part(std::string_view part, bool last)` instead receives every string value in one
/// or more parts (each at most `scratch_capacity` bytes, the final one with `last == true`; a
/// part may end inside a UTF-8 sequence) and has no length limit; `on_string` is then not called.
/// Views are valid only during the callback.
///
/// **Numbers.** `number` keeps the exact text; conversions are lazy (`to_double()` is
/// correctly rounded: Clinger's exact fast path, fast_float otherwise). The reader accumulates
/// the digits while scanning, so converting a number that lay whole in one chunk does not
/// re-read its text. Integers beyond 64 bits are delivered as text; `is_big_integer()` flags
/// them.
///
/// **Key paths.** A callback may take a trailing `const logscan::json::path&` argument (or the
/// visitor may declare `static constexpr bool wants_path = true;` and call `reader::path()`):
/// the reader then keeps the key path of the current value (keys are copied into a buffer of
/// `options::path_capacity` bytes). `p.matches("graph_exec.operator.*.type")` tests it; `*`
/// matches one key or array index. Visitors that do not ask pay nothing for paths.
///
/// **Skipping.** Returning `action::skip` from `on_key` skips that key's value (no events for it
/// or anything inside it); from `on_object_begin`/`on_array_begin` it skips the container's
/// contents (its end event is still delivered). Skipped input is still fully validated, and
/// skipped strings and numbers have no length limit.
///
/// **Capturing a value's text.** Returning `action::capture` from `on_key` skips the key's value
/// (validated, no events) and hands its bytes exactly as they stand in the input — from its
/// first byte to its last, whitespace and escapes inside it as they are — to
/// `on_value_text(std::string_view part, bool last)`: one or more parts, in order, the final one
/// with `last == true` (parts are views into the chunks, valid during the call; a part may be
/// empty). The raw text of a subtree (an operator's `param` object) is so kept without
/// decoding and re-encoding it. Returned from `on_object_begin`/`on_array_begin` (below the
/// document's top level), it does the same for that container: its text from its opening
/// bracket to its closing one goes to `on_value_text`, and its end event is not delivered (an
/// array's elements, each captured whole). A document error inside the value ends the parse
/// without a final part.
///
/// **Whole objects.** A visitor with `bool on_whole_object(json::whole_object&)` is offered
/// each object that begins, outside skipped values, at its opening brace, with the rest of the
/// chunk: it may read the object there itself and return true with the position after its
/// closing brace (the reader then goes on from there as after any value, with no events for
/// what is inside), or return false to have it read as usual. It must take an object only if
/// the reader would read that text without an error, and must then have done for it what the
/// reader's events would have made it do (json_project.hpp's projector does so, reading a
/// record's object against its fields in one pass, and leaves anything unusual, such as an
/// escape, to the reader).
///
/// **Strictness.** RFC 8259: exactly one value (or, with `options::multiple_values`, any number
/// of values, separated by whitespace where needed), no comments, no trailing commas, no leading
/// zeros, no control characters in strings, only the listed escapes, `\u` surrogate pairs
/// combined and lone surrogates rejected, UTF-8 validated (`options::validate_utf8`), only
/// space, `\t`, `\n`, `\r` as whitespace, no byte order mark. Nesting deeper than
/// `options::max_depth` (default 1024) is `too_deep`; the reader never recurses.
#ifndef LOGSCAN_JSON_HPP_INCLUDED
#define LOGSCAN_JSON_HPP_INCLUDED

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <concepts>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>

#include <fast_float/fast_float.h>


#include "config.hpp"
#include "num.hpp"
#include "utf8.hpp"
#include "error.hpp"
#include "source.hpp"
#include "visit.hpp"

namespace logscan::json {

/// What a callback tells the reader: `flow` plus `skip`.
enum class action : unsigned char {
    proceed = 0, ///< go on
    stop = 1,    ///< end the parse; `result()` is `error_code::stopped`
    skip = 2,    ///< from `on_key`: skip the key's value; from a begin event: skip the contents
    /// From `on_key`: skip the key's value as `skip` does, and hand its text, as it is in the
    /// input, to `on_value_text` (see the file comment); `skip` for a visitor without it. From
    /// a begin event below the top level: the same for the container (no end event); at the
    /// top level, `skip` (the end event is delivered).
    capture = 3,
};

/// Reader settings; every field has a sensible default.
struct options {
    /// Deepest nesting of arrays and objects accepted; deeper is `too_deep`.
    std::size_t max_depth = 1024;
    /// Bytes of the scratch buffer that assembles split or escaped strings and split numbers;
    /// also the longest key, string value (without `on_string_part`) or number accepted.
    std::size_t scratch_capacity = std::size_t{64} << 10;
    /// Bytes for the keys of the current key path (only used when the visitor wants paths).
    std::size_t path_capacity = 4096;
    /// Accept a stream of values (concatenated, or separated by whitespace/newlines).
    bool multiple_values = false;
    /// Also accept, where a value belongs, a bare non-finite number word — `nan`, `-nan`,
    /// `inf`, `-inf`, `+inf`, `infinity`, `-infinity`, in any letter case — as a number
    /// (`number::is_finite()` false; `to_double()` NaN or +-infinity; its text the word as
    /// written): what C's `%g` printed into older JSON dumps (MegEngine's before 1.7). The
    /// word ends at the first byte that is not a letter; any other word is a syntax error.
    bool non_finite_words = false;
    /// Reject strings that are not valid UTF-8 (`invalid_utf8`).
    bool validate_utf8 = true;
    /// Accept a `\u` surrogate escape without its pair (`"\ud800"`), decoded as U+FFFD,
    /// instead of a syntax error (chrome-trace: formats.md 6A.2).
    bool lone_surrogates = false;
};

namespace internal {
/// 10^0 .. 10^19 (10^19 is the largest power of ten below 2^64).
inline constexpr std::uint64_t pow10_u64[20] = {1ull,
                                                10ull,
                                                100ull,
                                                1000ull,
                                                10000ull,
                                                100000ull,
                                                1000000ull,
                                                10000000ull,
                                                100000000ull,
                                                1000000000ull,
                                                10000000000ull,
                                                100000000000ull,
                                                1000000000000ull,
                                                10000000000000ull,
                                                100000000000000ull,
                                                1000000000000000ull,
                                                10000000000000000ull,
                                                100000000000000000ull,
                                                1000000000000000000ull,
                                                10000000000000000000ull};
/// 1e0 .. 1e22: the powers of ten that are exact doubles.
inline constexpr double pow10_f64[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                         1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
} // namespace internal

/// A JSON number as it appears in the input. The text is valid JSON number syntax.
class number {
public:
    constexpr number() noexcept = default;
    /// A number with text `text` (valid JSON syntax); `integer` when it has no fraction/exponent.
    constexpr number(std::string_view text, bool integer) noexcept : text_(text), integer_(integer) {}
    /// (internal; used by the reader) A number whose decimal value the reader computed while
    /// scanning it: the text means `(-1)^neg * mantissa * 10^exp10` exactly, with at most 19
    /// digits in the mantissa.
    constexpr number(std::string_view text, bool integer, std::uint64_t mantissa, std::int32_t exp10) noexcept
        : text_(text), mantissa_(mantissa), exp10_(exp10), integer_(integer), decimal_(true) {}
    /// (internal; used by the reader) A non-finite number word (`options::non_finite_words`),
    /// `text` as written, `value` NaN or +-infinity.
    static constexpr number non_finite(std::string_view text, double value) noexcept {
        number n(text, false);
        n.finite_ = false;
        n.special_ = value;
        return n;
    }
    /// False for a non-finite number word (`options::non_finite_words`).
    constexpr bool is_finite() const noexcept { return finite_; }

    /// The exact text, e.g. `-12.5e3`.
    constexpr std::string_view text() const noexcept { return text_; }
    /// True when the text has neither fraction nor exponent.
    constexpr bool is_integer() const noexcept { return integer_; }
    /// True when the text starts with `-`.
    constexpr bool is_negative() const noexcept { return !text_.empty() && text_[0] == '-'; }
    /// The value as a signed 64-bit integer; empty if not an integer or out of range.
    std::optional<std::int64_t> to_int64() const noexcept {
        if (!integer_) return std::nullopt;
        if (LOGSCAN_LIKELY(decimal_)) { // at most 19 digits: the mantissa is the exact magnitude
            constexpr auto max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
            if (!is_negative()) {
                if (mantissa_ > max) return std::nullopt;
                return static_cast<std::int64_t>(mantissa_);
            }
            if (mantissa_ > max + 1) return std::nullopt;
            // -(m) without overflowing at INT64_MIN
            return mantissa_ == max + 1 ? std::numeric_limits<std::int64_t>::min()
                                        : -static_cast<std::int64_t>(mantissa_);
        }
        std::int64_t v = 0;
        const auto r = std::from_chars(text_.data(), text_.data() + text_.size(), v);
        if (r.ec != std::errc{} || r.ptr != text_.data() + text_.size()) return std::nullopt;
        return v;
    }
    /// The value as an unsigned 64-bit integer; empty if not a non-negative integer in range
    /// (`-0` is 0).
    std::optional<std::uint64_t> to_uint64() const noexcept {
        if (!integer_) return std::nullopt;
        if (LOGSCAN_LIKELY(decimal_)) {
            if (is_negative() && mantissa_ != 0) return std::nullopt;
            return mantissa_;
        }
        std::uint64_t v = 0;
        if (text_ == "-0") return std::uint64_t{0};
        const auto r = std::from_chars(text_.data(), text_.data() + text_.size(), v);
        if (r.ec != std::errc{} || r.ptr != text_.data() + text_.size()) return std::nullopt;
        return v;
    }
    /// The value as the nearest double, correctly rounded (ties to even): Clinger's exact
    /// fast path for up to 19 significant digits times a power of ten up to 22, fast_float
    /// otherwise; +-inf when the magnitude is beyond the double range. For numbers delivered
    /// by the reader the digits were already accumulated while scanning, so the fast path is
    /// one integer-to-double conversion and one multiplication or division.
    double to_double() const noexcept {
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
        // m and 10^|exp10| are exact doubles, so one IEEE operation rounds correctly
        if (LOGSCAN_LIKELY(decimal_ && mantissa_ <= (std::uint64_t{1} << 53) && exp10_ >= -22 && exp10_ <= 22)) {
            // through int64_t: one conversion instruction (m <= 2^53)
            double d = static_cast<double>(static_cast<std::int64_t>(mantissa_));
            d = exp10_ < 0 ? d / internal::pow10_f64[-exp10_] : d * internal::pow10_f64[exp10_];
            return is_negative() ? -d : d;
        }
#endif
        return text_to_double();
    }
    /// True for an integer that fits neither `int64_t` nor `uint64_t`.
    bool is_big_integer() const noexcept {
        if (!integer_ || text_.size() < 19) return false;
        return !to_int64() && !to_uint64();
    }

private:
    // to_double() from the text alone (kept out of line: the callers' fast path stays small).
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((noinline))
#endif
    double text_to_double() const noexcept {
        if (!finite_) return special_;
        const char* p = text_.data();
        const char* const end = p + text_.size();
        const bool neg = p != end && *p == '-';
        if (neg) ++p;
        std::uint64_t m = 0;
        const char* const int_start = p;
        p = accumulate_digits(p, end, m);
        std::ptrdiff_t digits = p - int_start;
        int exp10 = 0;
        if (p != end && *p == '.') {
            const char* const frac_start = ++p;
            p = accumulate_digits(p, end, m);
            digits += p - frac_start;
            exp10 = -static_cast<int>(p - frac_start > 100000 ? 100000 : p - frac_start);
        }
        if (p != end) { // exponent: [eE][+-]?digits
            ++p;
            bool eneg = false;
            if (p != end && (*p == '+' || *p == '-')) eneg = *p++ == '-';
            int e = 0;
            for (; p != end; ++p)
                if (e < 100000) e = e * 10 + (*p - '0');
            exp10 += eneg ? -e : e;
        }
        // m and 10^|exp10| are exact doubles, so one IEEE operation rounds correctly (the
        // digit count bounds m below 10^19, so it did not wrap)
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
        if (digits <= 19 && m <= (std::uint64_t{1} << 53) && exp10 >= -22 && exp10 <= 22) {
            double d = static_cast<double>(m);
            d = exp10 < 0 ? d / internal::pow10_f64[-exp10] : d * internal::pow10_f64[exp10];
            return neg ? -d : d;
        }
#else
        (void)digits;
        (void)m;
        (void)exp10;
#endif
        double d = 0;
        (void)fast_float::from_chars(text_.data(), text_.data() + text_.size(), d);
        return d;
    }
    // m = m * 10^n + (the n digits at p); returns the first non-digit. m wraps after 19 digits
    // (the caller then does not use it).
    static const char* accumulate_digits(const char* p, const char* end, std::uint64_t& m) noexcept {
        for (; p != end && static_cast<unsigned char>(*p - '0') <= 9; ++p) m = m * 10 + static_cast<unsigned char>(*p - '0');
        return p;
    }
    std::string_view text_{};
    std::uint64_t mantissa_ = 0; // with decimal_: the digits without sign or decimal point
    std::int32_t exp10_ = 0;     // with decimal_: the power of ten they are scaled by
    bool integer_ = false;
    bool decimal_ = false; // mantissa_ and exp10_ are exact
    bool finite_ = true;   // false: a non-finite word, whose value is special_
    double special_ = 0;
};

namespace internal {
/// One level of the key path: the key (in the reader's key buffer) or the element index.
struct path_slot {
    std::uint32_t key_off = 0;
    std::uint32_t key_len = 0;
    std::uint64_t index = 0;
};
/// Container kinds on the reader's depth stack.
inline constexpr unsigned char kind_object = 1;
inline constexpr unsigned char kind_array = 2;
} // namespace internal

/// One step of a key path: an object key or an array index.
struct path_segment {
    std::string_view key{}; ///< the member name (when `is_key()`)
    std::uint64_t index = 0; ///< the 0-based element index (when `!is_key()`)
    bool in_object = false;  ///< true when this step is an object member
    /// True for an object member, false for an array element.
    constexpr bool is_key() const noexcept { return in_object; }
};

/// The key path of the value being reported: one segment per enclosing container. For
/// `on_key` it ends with that key; for a container's begin/end events it is the container's own
/// position. A view into the reader: valid during the callback.
class path {
public:
    constexpr path() noexcept = default;
    /// (internal) A view of a reader's path storage.
    constexpr path(const internal::path_slot* slots, const unsigned char* kinds, const char* keys,
                   std::size_t size) noexcept
        : slots_(slots), kinds_(kinds), keys_(keys), size_(size) {}

    /// Number of segments (0 for the top-level value).
    constexpr std::size_t size() const noexcept { return size_; }
    /// True for the top-level value.
    constexpr bool empty() const noexcept { return size_ == 0; }
    /// Segment `i` (0 = outermost), `i < size()`.
    constexpr path_segment operator[](std::size_t i) const noexcept {
        const internal::path_slot& s = slots_[i];
        if (kinds_[i] == internal::kind_object)
            return {std::string_view(keys_ + s.key_off, s.key_len), 0, true};
        return {std::string_view{}, s.index, false};
    }
    /// The innermost segment, `size() > 0`.
    constexpr path_segment back() const noexcept { return (*this)[size_ - 1]; }

    /// True when the path matches `pattern`: segments separated by `.`, each a key, a decimal
    /// array index, or `*` (any one segment). `"graph_exec.operator.*.type"`; `""` matches the
    /// top level. Keys containing `.` can only be matched by `*`.
    constexpr bool matches(std::string_view pattern) const noexcept {
        std::size_t i = 0;
        if (pattern.empty()) return size_ == 0;
        for (;;) {
            const std::size_t dot = pattern.find('.');
            const std::string_view part = pattern.substr(0, dot);
            if (i == size_) return false;
            const path_segment s = (*this)[i];
            if (part != "*") {
                if (s.in_object) {
                    if (part != s.key) return false;
                } else if (!index_equals(part, s.index)) {
                    return false;
                }
            }
            ++i;
            if (dot == std::string_view::npos) return i == size_;
            pattern.remove_prefix(dot + 1);
        }
    }

private:
    static constexpr bool index_equals(std::string_view part, std::uint64_t index) noexcept {
        if (part.empty() || part.size() > 20 || (part.size() > 1 && part[0] == '0')) return false;
        std::uint64_t v = 0;
        for (const char c : part) {
            if (c < '0' || c > '9') return false;
            const auto d = static_cast<std::uint64_t>(c - '0');
            if (v > (std::numeric_limits<std::uint64_t>::max() - d) / 10) return false;
            v = v * 10 + d;
        }
        return v == index;
    }

    const internal::path_slot* slots_ = nullptr;
    const unsigned char* kinds_ = nullptr;
    const char* keys_ = nullptr;
    std::size_t size_ = 0;
};

namespace internal {

/// Turns whatever a callback returned into an `action`.
template <class F>
LOGSCAN_FORCE_INLINE constexpr action call_as_action(F&& f) {
    using R = decltype(std::forward<F>(f)());
    if constexpr (std::is_void_v<R>) {
        std::forward<F>(f)();
        return action::proceed;
    } else if constexpr (std::is_same_v<std::remove_cvref_t<R>, action>) {
        return std::forward<F>(f)();
    } else if constexpr (std::is_same_v<std::remove_cvref_t<R>, flow>) {
        return std::forward<F>(f)() == flow::stop ? action::stop : action::proceed;
    } else {
        static_assert(std::is_same_v<std::remove_cvref_t<R>, bool>, // (an int would stop on 0)
                      "logscan::json: a visitor callback must return void, bool (false stops), "
                      "logscan::flow or logscan::json::action");
        return static_cast<bool>(std::forward<F>(f)()) ? action::proceed : action::stop;
    }
}

/// Converts to `double` and to nothing else: a callback declared `on_number(double)` takes it,
/// one declared `on_number(int)` (which would truncate) does not.
struct only_double {
    double value;
    template <class T>
        requires std::same_as<T, double>
    constexpr operator T() const noexcept {
        return value;
    }
};

/// True when the visitor asks for key paths: it declares `wants_path = true` or has a callback
/// taking a trailing `const path&`.
template <class V>
concept wants_path =
    requires { requires static_cast<bool>(V::wants_path); } ||
    requires(V& v, const path& p, std::string_view s, const number& n, bool b) {
        requires(requires { v.on_object_begin(p); } || requires { v.on_object_end(p); } ||
                 requires { v.on_array_begin(p); } || requires { v.on_array_end(p); } ||
                 requires { v.on_key(s, p); } || requires { v.on_string(s, p); } ||
                 requires { v.on_string_part(s, b, p); } || requires { v.on_number(n, p); } ||
                 requires { v.on_number(only_double{0.0}, p); } ||
                 requires { v.on_bool(b, p); } || requires { v.on_null(p); });
    };

/// True when the visitor takes string values in parts.
template <class V>
concept wants_string_parts = requires(V& v, std::string_view s, bool b) { v.on_string_part(s, b); } ||
                             requires(V& v, std::string_view s, bool b, const path& p) {
                                 v.on_string_part(s, b, p);
                             };

/// First byte in [p, end) that is `"`, `\`, below 0x20 or above 0x7F; `end` if none.
LOGSCAN_FORCE_INLINE const char* scan_string_plain(const char* p, const char* end) noexcept {
#if LOGSCAN_SSE2
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    while (end - p >= 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        // signed compare: bytes >= 0x80 are negative, so `v < 0x20` catches them too
        const __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                       _mm_cmplt_epi8(v, space));
        const int mask = _mm_movemask_epi8(m);
        if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
        p += 16;
    }
#endif
    while (p != end) {
        const auto c = static_cast<unsigned char>(*p);
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) return p;
        ++p;
    }
    return end;
}

LOGSCAN_FORCE_INLINE constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
LOGSCAN_FORCE_INLINE constexpr bool is_letter(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/// First byte in [p, end) outside a string that may end a run of JSON text kept as it is (a
/// blank, `"`, an ASCII letter, `-` or `+`: what a compaction looks at); `end` if none. The
/// bytes before it are numbers' digits and punctuation (`:{`, `},`, `1.5`, ...).
LOGSCAN_FORCE_INLINE const char* scan_run_plain(const char* p, const char* end) noexcept {
#if LOGSCAN_SSE2
    while (end - p >= 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const __m128i lower = _mm_or_si128(v, _mm_set1_epi8(0x20)); // (letters: 'a'..'z' once lowered;
        const __m128i letter = _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)), // bytes >= 0x80 are
                                             _mm_cmplt_epi8(lower, _mm_set1_epi8('z' + 1))); // negative: none)
        const __m128i blank = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
                                           _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
        const __m128i other = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                           _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('-')), _mm_cmpeq_epi8(v, _mm_set1_epi8('+'))));
        const int mask = _mm_movemask_epi8(_mm_or_si128(letter, _mm_or_si128(blank, other)));
        if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
        p += 16;
    }
#endif
    while (p != end) {
        const char c = *p;
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '"' || c == '-' || c == '+' || is_letter(c)) return p;
        ++p;
    }
    return end;
}

/// The first byte in [p, end) that is not an ASCII digit (`end` if none), eight bytes at a
/// time, accumulating the digits: m = m * 10^n + (the n digits), n = the number of digits,
/// added to `count`. m wraps after 19 digits in all (the caller then does not use it).
LOGSCAN_FORCE_INLINE const char* scan_digits(const char* p, const char* end, std::uint64_t& m,
                                             std::size_t& count) noexcept {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && (defined(__GNUC__) || defined(__clang__))
    constexpr std::uint64_t high = 0xF0F0F0F0F0F0F0F0ull;
    constexpr std::uint64_t zeros = 0x3030303030303030ull;
    while (end - p >= 8) {
        std::uint64_t x;
        std::memcpy(&x, p, 8);
        // a byte's high nibble is non-zero unless it is in 0x30..0x3F (first term) and in
        // 0x2A..0x39 (second term); a carry out of a byte >= 0xFA only disturbs later bytes
        const std::uint64_t bad = ((x & high) ^ zeros) | (((x + 0x0606060606060606ull) & high) ^ zeros);
        if (bad == 0) {
            m = m * 100000000u + logscan::internal::eight_digits_value(x - zeros);
            count += 8;
            p += 8;
            continue;
        }
        const auto n = static_cast<unsigned>(__builtin_ctzll(bad)) >> 3; // 0..7 digits
        if (n != 0) {
            // the n digit bytes are the low ones: subtracting '0' borrows only above them,
            // and the shift drops those bytes and puts n digits after 8 - n leading zeros
            m = m * pow10_u64[n] + logscan::internal::eight_digits_value((x - zeros) << (64 - 8 * n));
            count += n;
        }
        return p + n;
    }
#endif
    for (; p != end && is_digit(*p); ++p, ++count) m = m * 10 + static_cast<unsigned char>(*p - '0');
    return p;
}

/// A string's body from `s` (after its opening quote): its closing quote, when the string ends
/// in [s, end), has no escape and no control character, and (with `utf8`) is valid UTF-8;
/// else nullptr (the reader's byte-by-byte path, which also reports what is wrong).
LOGSCAN_FORCE_INLINE const char* plain_string_end(const char* s, const char* end, bool utf8) noexcept {
    const char* q = s;
    for (;;) {
#if LOGSCAN_SSE2
        if (end - q >= 16) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
            const unsigned quotes = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"'))));
            const unsigned special =
                quotes | static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(
                             _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')), _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)))));
            if (special == 0) {
                q += 16;
                continue;
            }
            const auto i = static_cast<unsigned>(__builtin_ctz(special));
            q += i;
            if ((quotes >> i) & 1u) return q; // the closing quote, known without reloading it
        } else
#endif
        {
            q = scan_string_plain(q, end);
            if (q == end) return nullptr;
            if (*q == '"') return q;
        }
        // a backslash, a control character or a non-ASCII byte
        const auto c = static_cast<unsigned char>(*q);
        if (c < 0x80) return nullptr;
        if (!utf8) {
            ++q;
            continue;
        }
        const std::size_t len = logscan::internal::utf8_complete(q, end);
        if (len == 0) return nullptr;
        q += len;
    }
}

/// What `number_end` read of a number: enough to make its `number` without reading it again.
struct number_scan {
    std::uint64_t mantissa = 0; ///< the digits (wraps past 19)
    std::int64_t exp10 = 0;     ///< minus the fraction digits, plus the exponent (capped at 10^6)
    std::size_t digits = 0;     ///< digits in the mantissa (integer and fraction part)
    bool integer = true;        ///< no fraction, no exponent
    /// The number of text `text` (the bytes scanned): exact in 19 digits, else from its text.
    LOGSCAN_FORCE_INLINE constexpr number make(std::string_view text) const noexcept {
        return digits <= 19 && exp10 > -1000000 && exp10 < 1000000
                   ? number(text, integer, mantissa, static_cast<std::int32_t>(exp10))
                   : number(text, integer);
    }
};

/// A number from `p` (at `-` or a digit): the byte after it, with what `s` needs to make it,
/// when it is valid and ends before `end` (`AtEnd`: or at `end`); else nullptr (the reader's
/// byte-by-byte path, which also reports what is wrong).
template <bool AtEnd = false>
LOGSCAN_FORCE_INLINE const char* number_end(const char* p, const char* end, number_scan& s) noexcept {
    const char* q = p;
    if (*q == '-') ++q;
    if (q == end) return nullptr;
    if (*q == '0') {
        ++q;
        if (q != end && is_digit(*q)) return nullptr;
        s.digits = 1;
    } else if (is_digit(*q)) {
        q = scan_digits(q, end, s.mantissa, s.digits);
    } else {
        return nullptr;
    }
    if (q != end && *q == '.') {
        s.integer = false;
        ++q;
        if (q == end || !is_digit(*q)) return nullptr;
        const std::size_t int_digits = s.digits;
        q = scan_digits(q, end, s.mantissa, s.digits);
        s.exp10 = -static_cast<std::int64_t>(s.digits - int_digits > 1000000 ? 1000000 : s.digits - int_digits);
    }
    if (q != end && (*q == 'e' || *q == 'E')) {
        s.integer = false;
        ++q;
        bool eneg = false;
        if (q != end && (*q == '+' || *q == '-')) eneg = *q++ == '-';
        if (q == end || !is_digit(*q)) return nullptr;
        std::int64_t e = 0;
        for (; q != end && is_digit(*q); ++q)
            if (e < 1000000) e = e * 10 + (*q - '0');
        s.exp10 += eneg ? -e : e;
    }
    return q == end && !AtEnd ? nullptr : q;
}

// JSON's white space from p (space, tab, CR, LF): the first other byte, or `end`; `newline(q)`
// for each line feed passed, `q` the byte after it. A run of spaces (a pretty-printer's
// indent) is passed 8 bytes at a time. (The reader's and whole_scan's.)
template <class Newline>
LOGSCAN_FORCE_INLINE const char* json_blanks(const char* p, const char* const end, Newline&& newline) noexcept {
    while (p != end) {
        const char c = *p;
        if (c == ' ') {
            p += end - p >= 8 ? logscan::internal::spaces8<false>(p) : 1; // (at least the one)
        } else if (c == '\n') {
            ++p;
            newline(p);
        } else if (c == '\t' || c == '\r') {
            ++p;
        } else {
            return p;
        }
    }
    return end;
}

} // namespace internal

/// An object offered to a visitor's `on_whole_object` (see the file comment): what it is
/// given, and what it returns when it took the object.
struct whole_object {
    const char* begin = nullptr; ///< the opening brace
    const char* end = nullptr;   ///< the end of the chunk (the object is taken only if it ends before)
    std::size_t max_token = 0;   ///< the longest string or number the reader accepts outside skipped values
    std::size_t levels = 0;      ///< how many containers may nest, this object included (options::max_depth)
    bool validate_utf8 = true;   ///< options::validate_utf8
    bool non_finite_words = false; ///< options::non_finite_words
    // -- set by a visitor that took the object --
    const char* next = nullptr;       ///< the byte after the closing brace
    std::size_t newlines = 0;         ///< line feeds between `begin` and `next`
    const char* line_start = nullptr; ///< the byte after the last of them
    bool stop = false;                ///< a callback asked to end the parse (at the closing brace)
    bool stop_after_close = false;    ///< the stop is at the byte after the brace instead (where the reader stops after an object it captured)
};

/// The reading of an object offered to `on_whole_object`, in one pass over its bytes (what
/// json_project.hpp's projector and chrome_trace.hpp read their records' objects with). Each
/// function takes `p` at a value's first byte (or, for `blanks`, anywhere) and returns the
/// byte after what it read, or nullptr where the reader's events must read the object
/// instead: a string that is not plain (an escape, a control character, invalid UTF-8), a
/// string or number longer than the reader accepts or cut by the chunk's end, a non-finite
/// word, nesting past the levels allowed, anything the reader would reject. It counts the
/// line feeds it passes, for `done`.
class whole_scan {
public:
    constexpr whole_scan() noexcept = default;
    /// Ready to read `w`'s object (`w.begin` to `w.end`).
    explicit constexpr whole_scan(const whole_object& w) noexcept
        : end(w.end), max_token(w.max_token), utf8(w.validate_utf8) {}

    /// Blanks skipped, line feeds counted: the first other byte, or the end. (No blank and one
    /// space, the common cases, take no loop.)
    LOGSCAN_FORCE_INLINE const char* blanks(const char* p) noexcept {
        if (LOGSCAN_LIKELY(p != end)) {
            const auto c = static_cast<unsigned char>(*p);
            if (c > ' ') return p;
            if (c == ' ' && end - p >= 2 && static_cast<unsigned char>(p[1]) > ' ') return p + 1;
        }
        return internal::json_blanks(p, end, [this](const char* q) {
            ++newlines;
            line_start = q;
        });
    }
    /// A plain string from its opening quote: its closing quote.
    LOGSCAN_FORCE_INLINE const char* string(const char* p) const noexcept {
        const char* const q = internal::plain_string_end(p + 1, end, utf8);
        if (q == nullptr || static_cast<std::size_t>(q - p - 1) > max_token) return nullptr;
        return q;
    }
    /// A number, made into `x` (its text a view of the input).
    LOGSCAN_FORCE_INLINE const char* number_value(const char* p, number& x) const noexcept {
        internal::number_scan s;
        const char* const q = internal::number_end(p, end, s);
        if (q == nullptr || static_cast<std::size_t>(q - p) > max_token) return nullptr;
        x = s.make(std::string_view(p, static_cast<std::size_t>(q - p)));
        return q;
    }
    /// A number, validated and skipped (as a skipped value, it has no length limit).
    LOGSCAN_FORCE_INLINE const char* skip_number(const char* p) const noexcept {
        internal::number_scan s;
        return internal::number_end(p, end, s);
    }
    /// A number token begins with c.
    static constexpr bool number_start(char c) noexcept { return c == '-' || (c >= '0' && c <= '9'); }
    /// `true`, `false` or `null` (a non-finite word: nullptr).
    LOGSCAN_FORCE_INLINE const char* literal(const char* p) const noexcept {
        const char ch = *p;
        const std::string_view word = ch == 't' ? "true" : ch == 'f' ? "false" : "null";
        if ((ch != 't' && ch != 'f' && ch != 'n') || static_cast<std::size_t>(end - p) < word.size() ||
            std::memcmp(p, word.data(), word.size()) != 0)
            return nullptr;
        return p + word.size();
    }
    /// After an element or member: the byte after the closing bracket `close` (and `done`
    /// set), or the next element's or member's first byte.
    template <bool Compact = false>
    LOGSCAN_FORCE_INLINE const char* next(const char* p, char close, bool& done) noexcept {
        p = gap<Compact>(p);
        if (p == end) return nullptr;
        if (*p == close) {
            done = true;
            return p + 1;
        }
        if (*p != ',') return nullptr;
        p = gap<Compact>(p + 1);
        return p == end ? nullptr : p;
    }
    /// A member's key from its opening quote to its value's first byte: the key's closing
    /// quote in `key_end`.
    template <bool Compact = false>
    LOGSCAN_FORCE_INLINE const char* key(const char* p, const char*& key_end) noexcept {
        if (*p != '"') return nullptr;
        const char* const q = string(p);
        if (q == nullptr) return nullptr;
        key_end = q;
        p = gap<Compact>(q + 1);
        if (p == end || *p != ':') return nullptr;
        p = gap<Compact>(p + 1);
        return p == end ? nullptr : p;
    }
    /// Any value, validated and skipped, within `levels` levels of nesting.
    template <bool Compact = false>
    LOGSCAN_FORCE_INLINE const char* skip_value(const char* p, std::size_t levels) noexcept {
        const char ch = *p;
        if (ch == '"') {
            const char* const q = string(p);
            return q == nullptr ? nullptr : q + 1;
        }
        if (number_start(ch)) return skip_number(p);
        if (ch == '{' || ch == '[') return skip<Compact>(p, levels);
        return literal(p);
    }
    /// An object or array from its bracket, validated and skipped.
    template <bool Compact = false>
    const char* skip(const char* p, std::size_t levels) noexcept {
        if (levels == 0) return nullptr;
        const bool object = *p == '{';
        const char close = object ? '}' : ']';
        p = gap<Compact>(p + 1);
        if (p == end) return nullptr;
        bool done = *p == close;
        if (done) return p + 1;
        while (!done) {
            if (object) {
                const char* k;
                p = key<Compact>(p, k);
                if (p == nullptr) return nullptr;
            }
            p = skip_value<Compact>(p, levels - 1);
            if (p == nullptr) return nullptr;
            p = next<Compact>(p, close, done);
            if (p == nullptr) return nullptr;
        }
        return p;
    }
    /// `skip`, in the same pass writing the compact text of what it read (the blanks outside
    /// strings dropped: what a `compactor` writes of it) from `out`, within
    /// `out_end`: `out` is left after what it wrote, or nullptr when that did not fit.
    const char* skip_compact(const char* p, std::size_t levels, char*& out, const char* out_end) noexcept {
        run_ = p;
        out_ = out;
        out_end_ = out_end;
        room_ = true;
        const char* const q = skip<true>(p, levels);
        if (q == nullptr) return nullptr;
        put_run(q);
        out = room_ ? out_ : nullptr;
        return q;
    }
    /// Tells the reader the object was taken, ending before `next`.
    constexpr void done(whole_object& w, const char* next_byte) const noexcept {
        w.next = next_byte;
        w.newlines = newlines;
        w.line_start = line_start;
    }

    const char* end = nullptr;        ///< the end of the chunk
    std::size_t max_token = 0;        ///< the longest string or number the reader accepts
    std::size_t newlines = 0;         ///< line feeds passed
    const char* line_start = nullptr; ///< the byte after the last of them
    bool utf8 = true;                 ///< strings' UTF-8 validated

private:
    // Blanks skipped (`blanks`); when compacting, the run of input before them written out
    // and the next run begun after them.
    template <bool Compact>
    LOGSCAN_FORCE_INLINE const char* gap(const char* p) noexcept {
        const char* const q = blanks(p);
        if constexpr (Compact) {
            if (q != p) {
                put_run(p);
                run_ = q;
            }
        }
        return q;
    }
    // The input from the run's start to `to`, written out (no room: room_ false, nothing written).
    LOGSCAN_FORCE_INLINE void put_run(const char* to) noexcept {
        const auto n = static_cast<std::size_t>(to - run_);
        if (n > static_cast<std::size_t>(out_end_ - out_)) {
            room_ = false;
            out_end_ = out_; // (nothing more written)
            return;
        }
        logscan::internal::copy_bytes(out_, run_, n);
        out_ += n;
    }
    const char* run_ = nullptr; // (skip_compact: the input not yet written out begins here)
    char* out_ = nullptr;
    const char* out_end_ = nullptr;
    bool room_ = true;
};

/// The number a whole JSON number token is (`12`, `-0.5e3`, `1712195495519689.047`), its
/// value read as the reader reads it (`to_double`, `to_int64`: the digits accumulated once);
/// empty when `token` is not exactly one number in JSON's syntax.
inline std::optional<number> number_token(std::string_view token) noexcept {
    if (token.empty() || !whole_scan::number_start(token.front())) return std::nullopt;
    internal::number_scan s;
    const char* const end = token.data() + token.size();
    if (internal::number_end<true>(token.data(), end, s) != end) return std::nullopt;
    return s.make(token);
}

LOGSCAN_EVENT(on_object_begin, "on_object_begin(), on_object_begin(const logscan::json::path&)");
LOGSCAN_EVENT(on_object_end, "on_object_end(), on_object_end(const logscan::json::path&)");
LOGSCAN_EVENT(on_array_begin, "on_array_begin(), on_array_begin(const logscan::json::path&)");
LOGSCAN_EVENT(on_array_end, "on_array_end(), on_array_end(const logscan::json::path&)");
LOGSCAN_EVENT(on_key, "on_key(std::string_view), on_key(std::string_view, const logscan::json::path&)");
LOGSCAN_EVENT(on_string, "on_string(std::string_view), on_string(std::string_view, const logscan::json::path&)");
LOGSCAN_EVENT(on_string_part, "on_string_part(std::string_view part, bool last), on_string_part(std::string_view, bool, "
                              "const logscan::json::path&)");
LOGSCAN_EVENT(on_number, "on_number(const logscan::json::number&), on_number(double), each optionally with a "
                         "trailing const logscan::json::path&");
LOGSCAN_EVENT(on_bool, "on_bool(bool), on_bool(bool, const logscan::json::path&)");
LOGSCAN_EVENT(on_null, "on_null(), on_null(const logscan::json::path&)");
LOGSCAN_EVENT(on_value_text, "on_value_text(std::string_view part, bool last)");

namespace internal {
/// True when V has at least one of the JSON reader's callbacks (or opts out).
template <class V>
concept json_visitor = has_some_callback<V, on_object_begin_event, on_object_end_event, on_array_begin_event,
                                         on_array_end_event, on_key_event, on_string_event, on_string_part_event,
                                         on_number_event, on_bool_event, on_null_event, on_value_text_event,
                                         on_error_event> ||
                       requires { requires static_cast<bool>(V::wants_path); };
} // namespace internal

// Calls the visitor's callback `name` (with a trailing path of `npath` segments if it takes
// one) and yields an `action`; `action::proceed` when the visitor lacks the callback. A
// member of that name that takes neither form is a compile error (see visit.hpp).
#define LOGSCAN_JSON_EMIT(npath, name, ...)                                                    \
    ([&]() -> ::logscan::json::action {                                                        \
        if constexpr (tracks_path) path_size_ = (npath);                                       \
        if constexpr (requires(const ::logscan::json::path& lsp_) {                            \
                          vis_.name(__VA_ARGS__ __VA_OPT__(, ) lsp_);                          \
                      })                                                                       \
            return ::logscan::json::internal::call_as_action([&]() -> decltype(auto) {         \
                return vis_.name(__VA_ARGS__ __VA_OPT__(, ) make_path(npath));                 \
            });                                                                                \
        else if constexpr (requires { vis_.name(__VA_ARGS__); })                               \
            return ::logscan::json::internal::call_as_action(                                  \
                [&]() -> decltype(auto) { return vis_.name(__VA_ARGS__); });                   \
        else {                                                                                 \
            static_assert(name##_event::reject<Visitor>());                                    \
            return ::logscan::json::action::proceed;                                           \
        }                                                                                      \
    }())

/// The push parser; see the file comment. Not copyable or movable (the visitor is held by
/// reference). All memory is allocated once by the constructor (or supplied by the caller);
/// `feed()` and `finish()` never allocate.
template <class Visitor>
class reader {
    static_assert(internal::json_visitor<Visitor>,
                  "logscan::json::reader: the visitor has none of the reader's callbacks (on_object_begin, "
                  "on_object_end, on_array_begin, on_array_end, on_key, on_string, on_string_part, on_number, "
                  "on_bool, on_null, on_error): a misspelt name? Derive it from logscan::validate_only if "
                  "that is deliberate");

public:
    /// True when the reader keeps the key path (the visitor asks for it).
    static constexpr bool tracks_path = internal::wants_path<Visitor>;
    /// True when string values are delivered through `on_string_part`.
    static constexpr bool string_parts = internal::wants_string_parts<Visitor>;
    /// True when the visitor may read whole objects itself (`on_whole_object`).
    static constexpr bool takes_whole_objects = requires(Visitor& v, whole_object& w) {
        { v.on_whole_object(w) } -> std::same_as<bool>;
    };

    /// Bytes of storage a reader with options `opt` needs (for the caller-storage constructor).
    static constexpr std::size_t storage_size(const options& opt) noexcept {
        const layout l = layout_of(opt);
        return l.total + alignof(internal::path_slot);
    }

    /// Allocates the scratch buffer, the depth stack and (if paths are tracked) the path
    /// storage, in one block. If that fails, the first `feed`/`finish` reports `io_error`.
    explicit reader(Visitor& vis, const options& opt = {}) noexcept : vis_(vis), opt_(opt) {
        const std::size_t n = storage_size(opt_);
        void* mem = std::malloc(n);
        owned_ = mem;
        init(mem, n);
    }
    /// Uses `storage` (at least `storage_size(opt)` bytes, outliving the reader) and allocates
    /// nothing at all. Too small a block is reported as `io_error` by the first `feed`.
    reader(Visitor& vis, const options& opt, std::span<std::byte> storage) noexcept : vis_(vis), opt_(opt) {
        init(storage.data(), storage.size());
    }
    reader(const reader&) = delete;
    reader& operator=(const reader&) = delete;
    ~reader() { std::free(owned_); }

    /// Feeds the next chunk (any size, including empty). Returns `flow::stop` once the reader is
    /// done (error or stopped by a callback); further input is then ignored.
    flow feed(std::string_view chunk) {
        if (LOGSCAN_UNLIKELY(done_)) return flow::stop;
        if (LOGSCAN_UNLIKELY(finished_)) {
            fail_at(base_, error_code::syntax, "feed() called after finish()");
            return flow::stop;
        }
        if (LOGSCAN_UNLIKELY(chunk.empty())) return flow::proceed; // (changes nothing; its pointer may be null)
        const char* p = chunk.data();
        const char* const end = p + chunk.size();
        cbeg_ = p;
        bool go = run(p, end);
        if (LOGSCAN_UNLIKELY(capturing_) && go) go = capture_at_chunk_end(end);
        base_ += chunk.size();
        return go ? flow::proceed : flow::stop;
    }

    /// Ends the input: completes a number at the very end and checks that the document is
    /// complete. Returns `flow::stop` if the document has an error or was stopped (see
    /// `result()`), else `flow::proceed`. Calling it again changes nothing.
    flow finish() {
        if (done_) return flow::stop;
        if (finished_) return flow::proceed;
        finished_ = true;
        cbeg_ = nullptr;
        switch (tok_) {
        case tok_none: break;
        case tok_number:
            if (!number_accepting(nstate_)) {
                fail_at(base_, error_code::unexpected_end, number_message(nstate_));
                return flow::stop;
            }
            tok_ = tok_none;
            if (!deliver_number(number(std::string_view(scratch_, slen_), number_integer(nstate_)), tok_off_))
                return flow::stop;
            if (cap_end_ && !end_capture(nullptr)) return flow::stop; // (its bytes went out with the chunks)
            break;
        case tok_string:
            fail_at(base_, error_code::unexpected_end, "unterminated string");
            return flow::stop;
        case tok_literal:
            fail_at(base_, error_code::unexpected_end, "input ends inside true, false or null");
            return flow::stop;
        case tok_word:
            if (word_n_ == 1) { // a sign alone
                fail_at(base_, error_code::unexpected_end, number_message(n_minus));
                return flow::stop;
            }
            if (!word_end()) return flow::stop;
            if (cap_end_ && !end_capture(nullptr)) return flow::stop;
            break;
        }
        if (state_ == st_done || (opt_.multiple_values && state_ == st_value && depth_ == 0)) return flow::proceed;
        fail_at(base_, error_code::unexpected_end, state_message());
        return flow::stop;
    }

    /// True when the input read so far ends inside a string, a number or a literal (what
    /// `finish()` then completes, or reports as cut).
    bool in_token() const noexcept { return tok_ != tok_none; }
    /// True when the input read so far ends between values, with nothing in progress (no
    /// token, capture or skip, no error): the next byte that is not blank is to begin a value
    /// (after `[`, after `,` in an array, or after `:`). Where a reader that has read the
    /// document's opening up to its container can take over (a parse in parts).
    bool at_value() const noexcept {
        return !done_ && !finished_ && tok_ == tok_none && !capturing_ && skip_depth_ == 0 &&
               (state_ == st_value || state_ == st_value_or_close);
    }
    /// Counts the positions of what is fed next as if it began at byte `offset` of the input,
    /// at column `column` of line `lines_before + 1` (call it between values: `at_value()`):
    /// a reader fed a made-up opening before a part of a document gives its errors the part's
    /// positions; one fed a document after bytes dropped before it (a byte order mark), the
    /// input's.
    void start_at(std::uint64_t lines_before, std::uint64_t offset, std::uint64_t column = 1) noexcept {
        base_ = offset;
        line_ = lines_before + 1;
        line_start_ = offset - (column - 1);
    }
    /// The outcome so far: no error, or the first error (or `stopped`).
    const error& result() const noexcept { return result_; }
    /// True while no error occurred and no callback stopped the parse.
    bool ok() const noexcept { return result_.ok(); }
    /// Current nesting depth (open arrays and objects).
    std::size_t depth() const noexcept { return depth_; }
    /// Bytes fed so far.
    std::uint64_t bytes() const noexcept { return base_; }
    /// The key path of the value being reported, for a visitor with `wants_path` (call it from
    /// a callback): the same path a callback taking a `const json::path&` receives.
    json::path path() const noexcept
        requires tracks_path
    {
        return make_path(path_size_);
    }

private:
    // ---- storage ----
    struct layout {
        std::size_t slots = 0, scratch = 0, kinds = 0, keys = 0, total = 0;
    };
    static constexpr layout layout_of(const options& opt) noexcept {
        layout l;
        std::size_t at = 0;
        l.slots = at;
        if constexpr (tracks_path) at += opt.max_depth * sizeof(internal::path_slot);
        l.scratch = at;
        at += opt.scratch_capacity;
        l.kinds = at;
        at += opt.max_depth;
        l.keys = at;
        if constexpr (tracks_path) at += opt.path_capacity;
        l.total = at;
        return l;
    }
    void init(void* mem, std::size_t size) noexcept {
        if (opt_.max_depth > (std::size_t{1} << 32)) opt_.max_depth = std::size_t{1} << 32;
        if (opt_.path_capacity > std::numeric_limits<std::uint32_t>::max())
            opt_.path_capacity = std::numeric_limits<std::uint32_t>::max();
        const layout l = layout_of(opt_);
        auto addr = reinterpret_cast<std::uintptr_t>(mem);
        const std::uintptr_t aligned = (addr + alignof(internal::path_slot) - 1) &
                                       ~static_cast<std::uintptr_t>(alignof(internal::path_slot) - 1);
        if (mem == nullptr || aligned - addr + l.total > size) {
            done_ = true;
            result_ = {error_code::io_error, 1, 1, 0, "the JSON reader's buffers could not be allocated", ENOMEM};
            return;
        }
        char* base = reinterpret_cast<char*>(aligned);
        slots_ = reinterpret_cast<internal::path_slot*>(base + l.slots);
        scratch_ = base + l.scratch;
        kinds_ = reinterpret_cast<unsigned char*>(base + l.kinds);
        keys_ = base + l.keys;
        cap_ = opt_.scratch_capacity;
    }

    // ---- states ----
    enum state_t : unsigned char {
        st_value,          // a value (document start, after ':' or after ',' in an array)
        st_value_or_close, // after '['
        st_key_or_close,   // after '{'
        st_key,            // after ',' in an object
        st_colon,          // after a key
        st_comma,          // after a value inside a container
        st_done,           // after the top-level value
    };
    enum token_t : unsigned char { tok_none, tok_string, tok_number, tok_literal, tok_word };
    enum string_state_t : unsigned char { ss_body, ss_escape, ss_u, ss_low_backslash, ss_low_u, ss_low_hex };
    enum number_state_t : unsigned char {
        n_start, n_minus, n_zero, n_int, n_dot, n_frac, n_e, n_esign, n_exp,
        n_end = 0xFE,  // the byte ends the number
        n_error = 0xFF // the byte is not allowed here
    };

    // A word where a value begins that no literal begins with: told by its first byte, as every
    // chunking must tell it alike (`NaN`, `Infinity`: what Python's json.dump writes of a
    // non-finite float; `None`, `True`: a Python repr).
    static constexpr const char* not_json_word(char c) noexcept {
        return c == 'N' || c == 'I' ? "expected a JSON value, not a word (NaN and Infinity are not JSON: Python's json.dump "
                                      "writes them unless allow_nan=False)"
                                    : "expected a JSON value, not a word (JSON's words are true, false and null)";
    }
    const char* state_message() const noexcept {
        switch (state_) {
        case st_value: return depth_ == 0 ? "expected a JSON value" : (kinds_[depth_ - 1] == internal::kind_object ? "expected a value after ':'" : "expected a value after ','");
        case st_value_or_close: return "expected a value or ']'";
        case st_key_or_close: return "expected a string key or '}'";
        case st_key: return "expected a string key after ','";
        case st_colon: return "expected ':' after object key";
        case st_comma:
            return kinds_[depth_ - 1] == internal::kind_object ? "expected ',' or '}' after an object member"
                                                               : "expected ',' or ']' after an array element";
        case st_done: return "expected the end of the input after the JSON value";
        }
        return "syntax error";
    }

    // ---- errors ----
    std::uint64_t off(const char* p) const noexcept {
        return base_ + static_cast<std::uint64_t>(p - cbeg_);
    }
    void fail_at(std::uint64_t offset, error_code code, const char* message) {
        result_ = {code, line_, offset - line_start_ + 1, offset, message, 0, true};
        done_ = true;
        (void)report_error(vis_, result_);
    }
    const char* fail(const char* p, error_code code, const char* message) {
        fail_at(off(p), code, message);
        return nullptr;
    }
    bool stopped_at(std::uint64_t offset) {
        result_ = {error_code::stopped, line_, offset - line_start_ + 1, offset, to_string(error_code::stopped), 0};
        done_ = true;
        return false;
    }

    json::path make_path(std::size_t n) const noexcept { return json::path(slots_, kinds_, keys_, n); }
    bool skipping() const noexcept { return skip_depth_ != 0; }

    // ---- the main loop ----
    // Skips whitespace, counting lines; returns the first other byte or `end`. The common
    // cases (no whitespace, one space) take no loop.
    LOGSCAN_FORCE_INLINE const char* skip_ws(const char* p, const char* const end) noexcept {
        if (LOGSCAN_LIKELY(p != end)) {
            const auto c = static_cast<unsigned char>(*p);
            if (c > ' ') return p; // (the caller's `p == end` test then folds away)
            if (c == ' ' && end - p >= 2 && static_cast<unsigned char>(p[1]) > ' ') return p + 1;
        }
        return skip_ws_loop(p, end);
    }
    const char* skip_ws_loop(const char* p, const char* const end) noexcept {
        return internal::json_blanks(p, end, [this](const char* q) { // (another byte: the grammar step reports it)
            ++line_;
            line_start_ = off(q);
        });
    }

    // The grammar as a goto machine: each label knows what comes next, so the common paths
    // (key, ':', value, ',', key, ...) never go through the state dispatch. `state_` is kept
    // exact at every point where the chunk can end, so `dispatch` resumes anywhere.
    bool run(const char* p, const char* const end) {
        if (LOGSCAN_UNLIKELY(tok_ != tok_none)) {
            p = resume(p, end);
            if (p == nullptr) return false;
            if (tok_ != tok_none) return true;
            if (LOGSCAN_UNLIKELY(cap_start_)) start_capture(p);
            if (LOGSCAN_UNLIKELY(cap_end_) && !end_capture(p)) return false;
        }
    dispatch:
        p = skip_ws(p, end);
        if (p == end) return true;
        switch (state_) {
        case st_comma: goto comma;
        case st_colon: goto colon;
        case st_key_or_close:
            if (*p == '}') goto close_here;
            goto key;
        case st_key: goto key;
        case st_value_or_close:
            if (*p == ']') goto close_here;
            goto value;
        case st_value: goto value;
        case st_done:
            if (opt_.multiple_values) goto value;
            fail(p, error_code::syntax, state_message());
            return false;
        }
        return false;

    value: // p at a non-whitespace byte where a value must start (state_ is a value state)
        switch (*p) {
        case '{':
            if constexpr (takes_whole_objects) {
                if (!skipping() && depth_ < opt_.max_depth) {
                    whole_object w;
                    w.begin = p;
                    w.end = end;
                    w.max_token = cap_;
                    w.levels = opt_.max_depth - depth_;
                    w.validate_utf8 = opt_.validate_utf8;
                    w.non_finite_words = opt_.non_finite_words;
                    if (vis_.on_whole_object(w)) {
                        if (w.newlines != 0) {
                            line_ += w.newlines;
                            line_start_ = off(w.line_start);
                        }
                        state_ = depth_ != 0 ? st_comma : st_done;
                        p = w.next;
                        if (LOGSCAN_UNLIKELY(w.stop)) return stopped_at(off(w.stop_after_close ? p : p - 1));
                        if (p == end) return true;
                        goto after_value;
                    }
                }
            }
            p = open(p, internal::kind_object);
            if (LOGSCAN_UNLIKELY(p == nullptr)) return false;
            p = skip_ws(p, end);
            if (p == end) return true;
            if (*p == '}') goto close_here;
            goto key;
        case '[':
            p = open(p, internal::kind_array);
            if (LOGSCAN_UNLIKELY(p == nullptr)) return false;
            p = skip_ws(p, end);
            if (p == end) return true;
            if (*p == ']') goto close_here;
            goto value;
        case '"': p = string_token(p, end, false); break;
        case 't':
            if (end - p >= 4 && std::memcmp(p, "true", 4) == 0) {
                p = deliver_bool(true, off(p)) ? p + 4 : nullptr;
            } else {
                p = literal_start(p, end, 0);
            }
            break;
        case 'f':
            if (end - p >= 5 && std::memcmp(p, "false", 5) == 0) {
                p = deliver_bool(false, off(p)) ? p + 5 : nullptr;
            } else {
                p = literal_start(p, end, 1);
            }
            break;
        case 'n':
            if (end - p >= 4 && std::memcmp(p, "null", 4) == 0) {
                p = deliver_null(off(p)) ? p + 4 : nullptr;
            } else if (opt_.non_finite_words) {
                p = word_start(p, end);
            } else {
                p = literal_start(p, end, 2);
            }
            break;
        case 'N': case 'i': case 'I': case '+':
            if (!opt_.non_finite_words) {
                fail(p, error_code::syntax, *p == '+' ? state_message() : not_json_word(*p));
                return false;
            }
            p = word_start(p, end);
            break;
        case '-':
            if (LOGSCAN_UNLIKELY(opt_.non_finite_words) && (end - p < 2 || internal::is_letter(p[1]))) {
                p = word_start(p, end);
                break;
            }
            p = number_token(p, end);
            break;
        case '0': case '1': case '2': case '3': case '4':
        case '5': case '6': case '7': case '8': case '9':
            p = number_token(p, end);
            break;
        default: // (the first byte of a UTF-8 byte order mark before the document: said so, as
                 // nothing shows the mark; the byte alone decides, whatever the chunks)
            fail(p, error_code::syntax,
                 depth_ == 0 && static_cast<unsigned char>(*p) == 0xEF
                     ? "the byte EF where the JSON value begins (a UTF-8 byte order mark begins so; a JSON text may not begin with one)"
                     : internal::is_letter(*p) ? not_json_word(*p)
                                               : state_message());
            return false;
        }
        if (LOGSCAN_UNLIKELY(p == nullptr)) return false;
        // A token cut by the chunk's end returns `end` (tok_ is set and the next feed resumes
        // it); a complete token may also end exactly at `end`: either way, return.
        if (LOGSCAN_UNLIKELY(p == end)) return true;
    after_value:
        if (LOGSCAN_UNLIKELY(cap_end_) && !end_capture(p)) return false;
        if (LOGSCAN_UNLIKELY(depth_ == 0)) goto dispatch;
        p = skip_ws(p, end);
        if (p == end) return true;
    comma: // state_ == st_comma
        if (*p == ',') {
            ++p;
            if (kinds_[depth_ - 1] == internal::kind_object) {
                state_ = st_key;
                p = skip_ws(p, end);
                if (p == end) return true;
                goto key;
            }
            state_ = st_value;
            if constexpr (tracks_path) ++slots_[depth_ - 1].index;
            p = skip_ws(p, end);
            if (p == end) return true;
            goto value;
        }
        if (*p == (kinds_[depth_ - 1] == internal::kind_object ? '}' : ']')) goto close_here;
        fail(p, error_code::syntax, state_message());
        return false;

    close_here: // p at the bracket closing the innermost container
        if (LOGSCAN_UNLIKELY(!close(p))) return false;
        ++p;
        goto after_value;

    key: // p at a non-whitespace byte where a key must start (state_ is a key state)
        if (LOGSCAN_UNLIKELY(*p != '"')) {
            fail(p, error_code::syntax, state_message());
            return false;
        }
        p = string_token(p, end, true);
        if (LOGSCAN_UNLIKELY(p == nullptr)) return false;
        if (LOGSCAN_UNLIKELY(cap_start_)) start_capture(p);
        if (LOGSCAN_UNLIKELY(p == end)) return true; // complete or cut: see `value`
        p = skip_ws(p, end);
        if (p == end) return true;
    colon: // state_ == st_colon
        if (LOGSCAN_UNLIKELY(*p != ':')) {
            fail(p, error_code::syntax, state_message());
            return false;
        }
        ++p;
        state_ = st_value;
        p = skip_ws(p, end);
        if (p == end) return true;
        goto value;
    }

    const char* resume(const char* p, const char* end) {
        switch (tok_) {
        case tok_string: return string_slow(p, end);
        case tok_number: return number_slow(p, end);
        case tok_literal: return literal_slow(p, end);
        case tok_word: return word_slow(p, end);
        case tok_none: break;
        }
        return p;
    }

    // ---- containers ----
    const char* open(const char* p, unsigned char kind) {
        if (LOGSCAN_UNLIKELY(depth_ >= opt_.max_depth))
            return fail(p, error_code::too_deep, "nesting deeper than options::max_depth");
        kinds_[depth_] = kind;
        if constexpr (tracks_path) {
            internal::path_slot& s = slots_[depth_];
            s.key_off = depth_ == 0 ? 0 : slots_[depth_ - 1].key_off + slots_[depth_ - 1].key_len;
            s.key_len = 0;
            s.index = 0;
        }
        ++depth_;
        state_ = kind == internal::kind_object ? st_key_or_close : st_value_or_close;
        if (!skipping()) {
            const action a = kind == internal::kind_object ? LOGSCAN_JSON_EMIT(depth_ - 1, on_object_begin)
                                                           : LOGSCAN_JSON_EMIT(depth_ - 1, on_array_begin);
            if (LOGSCAN_UNLIKELY(a != action::proceed)) {
                if (a == action::stop) {
                    stopped_at(off(p));
                    return nullptr;
                }
                if (captures_text && a == action::capture && depth_ > 1) { // its text, from the bracket
                    skip_depth_ = depth_ - 1;
                    skip_keep_end_ = false;
                    capturing_ = true;
                    cap_start_ = false;
                    cap_from_ = p;
                    cap_lead_ = false;
                } else {
                    skip_depth_ = depth_;
                    skip_keep_end_ = true;
                }
            }
        }
        return p + 1;
    }

    // Closes the innermost container (the caller checked the bracket matches).
    bool close(const char* p) {
        const std::size_t d = depth_;
        const unsigned char kind = kinds_[d - 1];
        --depth_;
        state_ = depth_ != 0 ? st_comma : st_done;
        bool emit = true;
        if (LOGSCAN_UNLIKELY(skip_depth_ != 0)) {
            if (skip_keep_end_ && d == skip_depth_) {
                skip_depth_ = 0;
            } else {
                emit = false;
                if (!skip_keep_end_ && depth_ == skip_depth_) {
                    skip_depth_ = 0;
                    if (capturing_) return end_capture(p + 1);
                }
            }
        }
        if (emit) {
            const action a = kind == internal::kind_object ? LOGSCAN_JSON_EMIT(depth_, on_object_end)
                                                           : LOGSCAN_JSON_EMIT(depth_, on_array_end);
            if (LOGSCAN_UNLIKELY(a == action::stop)) return stopped_at(off(p));
        }
        return true;
    }

    // After a scalar value: the next state, and the end of a key's skipped scalar.
    LOGSCAN_FORCE_INLINE void after_scalar() noexcept {
        state_ = depth_ != 0 ? st_comma : st_done;
        if (LOGSCAN_UNLIKELY(skip_depth_ != 0) && !skip_keep_end_ && depth_ == skip_depth_) {
            skip_depth_ = 0;
            cap_end_ = capturing_; // (the caller's run loop hands out the last part)
        }
    }

    // ---- captured values (action::capture) ----
    static constexpr bool captures_text =
        requires(Visitor& v, std::string_view s, bool b) { v.on_value_text(s, b); };
    // The key's closing quote is at p - 1: the value's text starts after the ':'.
    void start_capture(const char* p) noexcept {
        cap_start_ = false;
        cap_from_ = p;
        cap_lead_ = true;
    }
    // Hands out [from, to) of the current chunk (from: cap_from_, or the chunk's start).
    bool capture_part(const char* to, bool last) {
        const char* from = cap_from_ != nullptr ? cap_from_ : cbeg_;
        if (cap_lead_) { // the ':' and the blanks before the value are not its text
            while (from != to && (*from == ':' || *from == ' ' || *from == '\t' || *from == '\n' || *from == '\r')) ++from;
            if (from != to) cap_lead_ = false;
        }
        const std::string_view part = from == nullptr ? std::string_view{}
                                                      : std::string_view(from, static_cast<std::size_t>(to - from));
        if constexpr (captures_text) {
            if (LOGSCAN_JSON_EMIT(depth_, on_value_text, part, last) == action::stop) return stopped_at(off(to));
        }
        return true;
    }
    bool end_capture(const char* to) {
        capturing_ = cap_end_ = false;
        const bool go = capture_part(to, true);
        cap_from_ = nullptr;
        return go;
    }
    bool capture_at_chunk_end(const char* end) {
        if (cap_start_) return true; // (the key was cut: its value has not begun)
        if (cap_end_) return end_capture(end);
        const bool go = capture_part(end, false);
        cap_from_ = nullptr; // the next chunk's start
        return go;
    }

    // ---- scalars: delivery ----
    bool deliver_bool(bool b, std::uint64_t at) {
        if (!skipping() && LOGSCAN_JSON_EMIT(depth_, on_bool, b) == action::stop) return stopped_at(at);
        after_scalar();
        return true;
    }
    bool deliver_null(std::uint64_t at) {
        if (!skipping() && LOGSCAN_JSON_EMIT(depth_, on_null) == action::stop) return stopped_at(at);
        after_scalar();
        return true;
    }
    // on_number(double) (with or without a path) is served with the converted value.
    static constexpr bool number_as_double =
        !requires(Visitor& v, const number& n) { v.on_number(n); } &&
        !requires(Visitor& v, const number& n, const ::logscan::json::path& p) { v.on_number(n, p); } &&
        (requires(Visitor& v, internal::only_double d) { v.on_number(d); } ||
         requires(Visitor& v, internal::only_double d, const ::logscan::json::path& p) { v.on_number(d, p); });

    LOGSCAN_FORCE_INLINE bool deliver_number(const number& n, std::uint64_t at) {
        if (!skipping()) {
            if constexpr (number_as_double) {
                const internal::only_double d{n.to_double()};
                if (LOGSCAN_UNLIKELY(LOGSCAN_JSON_EMIT(depth_, on_number, d) == action::stop)) return stopped_at(at);
            } else {
                if (LOGSCAN_UNLIKELY(LOGSCAN_JSON_EMIT(depth_, on_number, n) == action::stop)) return stopped_at(at);
            }
        }
        after_scalar();
        return true;
    }
    // A complete string (key or value) that fits the scratch capacity, or (with string parts)
    // the final part of a value.
    bool deliver_string(std::string_view s, bool is_key, std::uint64_t at) {
        return is_key ? deliver_key(s, at) : deliver_value_string(s, at);
    }
    LOGSCAN_FORCE_INLINE bool deliver_key(std::string_view s, std::uint64_t at) {
        state_ = st_colon;
        if (skipping()) return true;
        if constexpr (tracks_path) {
            internal::path_slot& slot = slots_[depth_ - 1];
            if (LOGSCAN_UNLIKELY(s.size() > opt_.path_capacity - slot.key_off)) {
                fail_at(at, error_code::too_long, "key path longer than options::path_capacity");
                return false;
            }
            if (!s.empty()) std::memcpy(keys_ + slot.key_off, s.data(), s.size());
            slot.key_len = static_cast<std::uint32_t>(s.size());
        }
        const action a = LOGSCAN_JSON_EMIT(depth_, on_key, s);
        if (LOGSCAN_UNLIKELY(a != action::proceed)) {
            if (a == action::stop) return stopped_at(at);
            skip_depth_ = depth_;
            skip_keep_end_ = false;
            if (captures_text && a == action::capture) {
                capturing_ = true;
                cap_start_ = true;
            }
        }
        return true;
    }
    LOGSCAN_FORCE_INLINE bool deliver_value_string(std::string_view s, std::uint64_t at) {
        if (!skipping()) {
            action a;
            if constexpr (string_parts) {
                a = LOGSCAN_JSON_EMIT(depth_, on_string_part, s, true);
            } else {
                a = LOGSCAN_JSON_EMIT(depth_, on_string, s);
            }
            if (LOGSCAN_UNLIKELY(a == action::stop)) return stopped_at(at);
        }
        after_scalar();
        return true;
    }

    // ---- strings ----
    // `p` is at the opening quote. Fast path: the whole string is in this chunk, has no
    // escapes, is valid UTF-8 and fits the limit; anything else goes through string_slow from
    // the start, which handles every case byte by byte (and so reports exactly the same
    // events and errors however the input is split).
    LOGSCAN_FORCE_INLINE const char* string_token(const char* p, const char* end, bool is_key) {
        const char* const s = p + 1;
        if (const char* const q = internal::plain_string_end(s, end, opt_.validate_utf8); LOGSCAN_LIKELY(q != nullptr)) {
            const auto n = static_cast<std::size_t>(q - s);
            if (LOGSCAN_LIKELY(n <= cap_) || skipping())
                return (is_key ? deliver_key(std::string_view(s, n), off(p))
                               : deliver_value_string(std::string_view(s, n), off(p)))
                           ? q + 1
                           : nullptr;
        }
        tok_ = tok_string;
        tok_key_ = is_key;
        tok_off_ = off(p);
        store_ = !skipping();
        slen_ = 0;
        sstate_ = ss_body;
        u8_need_ = 0;
        return string_slow(s, end);
    }

    // Appends to the scratch buffer; at the limit, emits a part (string values with
    // on_string_part) or fails with too_long.
    bool append(const char* b, std::size_t n) {
        if (!store_) return true;
        while (LOGSCAN_UNLIKELY(n > cap_ - slen_)) {
            if constexpr (string_parts) {
                if (tok_ == tok_string && !tok_key_ && cap_ != 0) {
                    const std::size_t room = cap_ - slen_;
                    if (room) std::memcpy(scratch_ + slen_, b, room);
                    b += room;
                    n -= room;
                    if (LOGSCAN_JSON_EMIT(depth_, on_string_part, std::string_view(scratch_, cap_), false) ==
                        action::stop)
                        return stopped_at(tok_off_);
                    slen_ = 0;
                    continue;
                }
            }
            fail_at(tok_off_, error_code::too_long,
                    tok_ == tok_number ? "number longer than options::scratch_capacity"
                                       : (tok_key_ ? "object key longer than options::scratch_capacity"
                                                   : "string longer than options::scratch_capacity"));
            return false;
        }
        if (n != 0) std::memcpy(scratch_ + slen_, b, n);
        slen_ += n;
        return true;
    }
    bool append_byte(unsigned char c) {
        const char ch = static_cast<char>(c);
        return append(&ch, 1);
    }
    bool append_code_point(std::uint32_t cp) {
        char buf[4];
        return append(buf, logscan::internal::encode_utf8(cp, buf));
    }

    // The byte-by-byte string machine; resumable at any byte.
    const char* string_slow(const char* p, const char* const end) {
        while (p != end) {
            switch (sstate_) {
            case ss_body: {
                if (u8_need_ != 0) {
                    const auto b = static_cast<unsigned char>(*p);
                    if (b < u8_lo_ || b > u8_hi_) return fail(p, error_code::invalid_utf8, "invalid UTF-8 in string");
                    if (!append_byte(b)) return nullptr;
                    u8_lo_ = 0x80;
                    u8_hi_ = 0xBF;
                    --u8_need_;
                    ++p;
                    continue;
                }
                const char* q = internal::scan_string_plain(p, end);
                if (q != p) {
                    if (!append(p, static_cast<std::size_t>(q - p))) return nullptr;
                    p = q;
                    if (p == end) return end;
                }
                const auto c = static_cast<unsigned char>(*p);
                if (c == '"') {
                    tok_ = tok_none;
                    return deliver_string(std::string_view(scratch_, slen_), tok_key_, tok_off_) ? p + 1 : nullptr;
                }
                if (c == '\\') {
                    esc_off_ = off(p);
                    sstate_ = ss_escape;
                    ++p;
                    continue;
                }
                if (c < 0x20) return fail(p, error_code::syntax, "control character in string (it must be escaped)");
                if (opt_.validate_utf8 && !logscan::internal::utf8_lead(c, u8_need_, u8_lo_, u8_hi_))
                    return fail(p, error_code::invalid_utf8, "invalid UTF-8 in string");
                if (!append_byte(c)) return nullptr;
                ++p;
                continue;
            }
            case ss_escape: {
                char out;
                switch (*p) {
                case '"': out = '"'; break;
                case '\\': out = '\\'; break;
                case '/': out = '/'; break;
                case 'b': out = '\b'; break;
                case 'f': out = '\f'; break;
                case 'n': out = '\n'; break;
                case 'r': out = '\r'; break;
                case 't': out = '\t'; break;
                case 'u':
                    sstate_ = ss_u;
                    hex_n_ = 0;
                    hex_ = 0;
                    ++p;
                    continue;
                default:
                    return fail(p, error_code::syntax,
                                "invalid escape in string (expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)");
                }
                if (!append(&out, 1)) return nullptr;
                sstate_ = ss_body;
                ++p;
                continue;
            }
            case ss_u:
            case ss_low_hex: {
                const int h = logscan::internal::hex_value(*p);
                if (h < 0) return fail(p, error_code::syntax, "expected 4 hex digits after \\u");
                hex_ = hex_ * 16 + static_cast<std::uint32_t>(h);
                ++p;
                if (++hex_n_ < 4) continue;
                if (sstate_ == ss_u) {
                    if (hex_ >= 0xD800 && hex_ <= 0xDBFF) {
                        high_ = hex_;
                        sstate_ = ss_low_backslash;
                        continue;
                    }
                    if (hex_ >= 0xDC00 && hex_ <= 0xDFFF) {
                        if (!opt_.lone_surrogates) {
                            fail_at(esc_off_, error_code::syntax, "lone low surrogate in \\u escape");
                            return nullptr;
                        }
                        hex_ = 0xFFFD;
                    }
                    if (!append_code_point(hex_)) return nullptr;
                } else {
                    if (hex_ < 0xDC00 || hex_ > 0xDFFF) {
                        if (!opt_.lone_surrogates) {
                            fail_at(esc_off_, error_code::syntax, "expected a low surrogate \\uDC00-\\uDFFF after a high surrogate");
                            return nullptr;
                        }
                        // the high surrogate alone is U+FFFD; this escape is read on its own
                        if (!append_code_point(0xFFFD)) return nullptr;
                        if (hex_ >= 0xD800 && hex_ <= 0xDBFF) {
                            high_ = hex_;
                            sstate_ = ss_low_backslash;
                            continue;
                        }
                        if (!append_code_point(hex_ >= 0xDC00 && hex_ <= 0xDFFF ? 0xFFFD : hex_)) return nullptr;
                        sstate_ = ss_body;
                        continue;
                    }
                    if (!append_code_point(0x10000 + ((high_ - 0xD800) << 10) + (hex_ - 0xDC00))) return nullptr;
                }
                sstate_ = ss_body;
                continue;
            }
            case ss_low_backslash:
            case ss_low_u:
                if (*p != (sstate_ == ss_low_backslash ? '\\' : 'u')) {
                    if (!opt_.lone_surrogates)
                        return fail(p, error_code::syntax, "lone high surrogate: expected a \\u low surrogate escape");
                    // the high surrogate alone is U+FFFD; this byte is read again (the body's, or
                    // the escape's after the backslash)
                    if (!append_code_point(0xFFFD)) return nullptr;
                    sstate_ = sstate_ == ss_low_backslash ? ss_body : ss_escape;
                    continue;
                }
                if (sstate_ == ss_low_u) {
                    esc_off_ = off(p) - 1;
                    sstate_ = ss_low_hex;
                    hex_n_ = 0;
                    hex_ = 0;
                } else {
                    sstate_ = ss_low_u;
                }
                ++p;
                continue;
            }
        }
        return end;
    }

    // ---- numbers ----
    static constexpr unsigned char number_step(unsigned char s, char c) noexcept {
        const bool is_digit_byte = internal::is_digit(c);
        switch (s) {
        case n_start: return c == '-' ? n_minus : c == '0' ? n_zero : is_digit_byte ? n_int : n_error;
        case n_minus: return c == '0' ? n_zero : is_digit_byte ? n_int : n_error;
        case n_zero: return is_digit_byte ? n_error : c == '.' ? n_dot : (c == 'e' || c == 'E') ? n_e : n_end;
        case n_int: return is_digit_byte ? n_int : c == '.' ? n_dot : (c == 'e' || c == 'E') ? n_e : n_end;
        case n_dot: return is_digit_byte ? n_frac : n_error;
        case n_frac: return is_digit_byte ? n_frac : (c == 'e' || c == 'E') ? n_e : n_end;
        case n_e: return (c == '+' || c == '-') ? n_esign : is_digit_byte ? n_exp : n_error;
        case n_esign: return is_digit_byte ? n_exp : n_error;
        case n_exp: return is_digit_byte ? n_exp : n_end;
        default: return n_error;
        }
    }
    static constexpr bool number_accepting(unsigned char s) noexcept {
        return s == n_zero || s == n_int || s == n_frac || s == n_exp;
    }
    static constexpr bool number_integer(unsigned char s) noexcept { return s == n_zero || s == n_int; }
    static constexpr const char* number_message(unsigned char s) noexcept {
        switch (s) {
        case n_minus: return "expected a digit after '-'";
        case n_zero: return "leading zeros are not allowed";
        case n_dot: return "expected a digit after the decimal point";
        case n_e: return "expected a digit or sign in the exponent";
        case n_esign: return "expected a digit in the exponent";
        default: return "invalid number";
        }
    }

    // `p` is at '-' or a digit. Fast path: the number ends inside this chunk, is valid and fits
    // the limit; anything else goes through number_slow from the start. The digits are
    // accumulated on the way, so that `number` converts the common numbers without reading
    // them again.
    LOGSCAN_FORCE_INLINE const char* number_token(const char* p, const char* end) {
        internal::number_scan ns;
        if (const char* const q = internal::number_end(p, end, ns);
            LOGSCAN_LIKELY(q != nullptr) && (static_cast<std::size_t>(q - p) <= cap_ || skipping())) {
            if (skipping()) {
                after_scalar();
                return q;
            }
            return deliver_number(ns.make(std::string_view(p, static_cast<std::size_t>(q - p))), off(p)) ? q : nullptr;
        }
        tok_ = tok_number;
        tok_key_ = false;
        tok_off_ = off(p);
        store_ = !skipping();
        slen_ = 0;
        nstate_ = n_start;
        return number_slow(p, end);
    }

    const char* number_slow(const char* p, const char* const end) {
        const char* run = p;
        while (p != end) {
            const unsigned char ns = number_step(nstate_, *p);
            if (ns == n_end) {
                if (!append(run, static_cast<std::size_t>(p - run))) return nullptr;
                tok_ = tok_none;
                return deliver_number(number(std::string_view(scratch_, slen_), number_integer(nstate_)), tok_off_) ? p : nullptr;
            }
            if (ns == n_error) {
                // bytes before the bad one count towards the limit first
                if (!append(run, static_cast<std::size_t>(p - run))) return nullptr;
                return fail(p, error_code::syntax, number_message(nstate_));
            }
            nstate_ = ns;
            ++p;
        }
        if (!append(run, static_cast<std::size_t>(p - run))) return nullptr;
        return end;
    }

    // ---- literals ----
    static constexpr std::string_view literal_text(unsigned char k) noexcept {
        return k == 0 ? std::string_view("true") : k == 1 ? std::string_view("false") : std::string_view("null");
    }
    const char* literal_start(const char* p, const char* end, unsigned char kind) {
        tok_ = tok_literal;
        tok_off_ = off(p);
        lit_ = kind;
        lit_n_ = 0;
        return literal_slow(p, end);
    }
    const char* literal_slow(const char* p, const char* const end) {
        const std::string_view lit = literal_text(lit_);
        while (p != end) {
            if (*p != lit[lit_n_])
                return fail(p, error_code::syntax,
                            lit_ == 0   ? "invalid literal (expected 'true')"
                            : lit_ == 1 ? "invalid literal (expected 'false')"
                                        : "invalid literal (expected 'null')");
            ++p;
            if (++lit_n_ == lit.size()) {
                tok_ = tok_none;
                const bool go = lit_ == 2 ? deliver_null(tok_off_) : deliver_bool(lit_ == 0, tok_off_);
                return go ? p : nullptr;
            }
        }
        return end;
    }

    // ---- non-finite number words (options::non_finite_words) ----
    const char* word_start(const char* p, const char* end) {
        tok_ = tok_word;
        tok_off_ = off(p);
        word_n_ = 0;
        return word_slow(p, end);
    }
    const char* word_slow(const char* p, const char* const end) {
        for (; p != end; ++p) {
            const char c = *p;
            if (word_n_ == 0 && (c == '-' || c == '+')) {
                word_[word_n_++] = c;
                continue;
            }
            if (internal::is_letter(c)) {
                if (word_n_ == sizeof word_) return fail(p, error_code::syntax, "invalid literal (a word too long for a number)");
                word_[word_n_++] = c;
                // `null` ends where the fast path ends it, however the input is split
                if (word_n_ == 4 && std::memcmp(word_, "null", 4) == 0) return word_end() ? p + 1 : nullptr;
                continue;
            }
            if (word_n_ == 1 && word_[0] == '-') { // `-` then a digit (or nothing valid): a number
                tok_ = tok_number; // (tok_off_: the `-`)
                store_ = !skipping();
                slen_ = 0;
                nstate_ = n_minus;
                if (!append("-", 1)) return nullptr;
                return number_slow(p, end);
            }
            if (word_n_ == 1) return fail(p, error_code::syntax, "expected a number word after '+'");
            return word_end() ? p : nullptr;
        }
        return end;
    }
    // The word is complete: null or a non-finite number.
    bool word_end() {
        tok_ = tok_none;
        const std::string_view w(word_, word_n_);
        if (w == "null") return deliver_null(tok_off_);
        double v = 0;
        if (!logscan::internal::non_finite_word(w, v)) {
            fail_at(tok_off_, error_code::syntax, "invalid literal (expected true, false, null or a non-finite number word)");
            return false;
        }
        return deliver_number(number::non_finite(w, v), tok_off_);
    }

    // ---- members ----
    Visitor& vis_;
    options opt_;
    void* owned_ = nullptr;
    internal::path_slot* slots_ = nullptr;
    char* scratch_ = nullptr;
    unsigned char* kinds_ = nullptr;
    char* keys_ = nullptr;
    std::size_t cap_ = 0;
    std::size_t depth_ = 0;
    std::size_t slen_ = 0;
    std::size_t skip_depth_ = 0; // 0: not skipping
    std::size_t path_size_ = 0;  // path length of the event being reported
    const char* cbeg_ = nullptr; // start of the current chunk
    const char* cap_from_ = nullptr; // start of the captured value's text in this chunk (null: the chunk's start)
    std::uint64_t base_ = 0;       // bytes before the current chunk
    std::uint64_t line_ = 1;
    std::uint64_t line_start_ = 0; // offset of the current line's first byte
    std::uint64_t tok_off_ = 0;    // offset of the partial token's first byte
    std::uint64_t esc_off_ = 0;    // offset of the current \u escape
    error result_{};
    std::uint32_t hex_ = 0, high_ = 0;
    std::size_t lit_n_ = 0;
    unsigned char lit_ = 0;
    char word_[9] = {};         // a non-finite number word so far (`-infinity` is the longest)
    std::size_t word_n_ = 0;
    unsigned char hex_n_ = 0;
    unsigned char u8_need_ = 0, u8_lo_ = 0x80, u8_hi_ = 0xBF;
    state_t state_ = st_value;
    token_t tok_ = tok_none;
    string_state_t sstate_ = ss_body;
    unsigned char nstate_ = n_start;
    bool tok_key_ = false;
    bool store_ = true;
    bool skip_keep_end_ = false;
    bool capturing_ = false; // a key's value is being captured (action::capture)
    bool cap_start_ = false; // ... and its key has not ended yet
    bool cap_end_ = false;   // ... and the value just ended (a scalar): the last part is due
    bool cap_lead_ = false;  // ... and its first byte is not handed out yet
    bool done_ = false;
    bool finished_ = false;
};

#undef LOGSCAN_JSON_EMIT

/// Parses a contiguous document. The reader's buffers are allocated once, here.
template <class Visitor>
error parse(std::string_view document, Visitor& vis, const options& opt = {}) {
    reader<Visitor> r(vis, opt);
    if (r.feed(document) == flow::proceed) (void)r.finish();
    return r.result();
}

/// Parses a document read from a source (see source.hpp), chunk by chunk. Returns the
/// source's error (`io_error` / `open_failed` with errno, offset = bytes parsed before it) if
/// reading failed, else the reader's result. The reader's buffers are allocated once, here.
template <byte_source Source, class Visitor>
error parse(Source& src, Visitor& vis, const options& opt = {}) {
    reader<Visitor> r(vis, opt);
    for (;;) {
        const chunk c = src.next();
        if (c.code != error_code::none) return chunk_error(c, r.bytes());
        if (c.data.empty()) break;
        if (r.feed(c.data) == flow::stop) return r.result();
    }
    (void)r.finish();
    return r.result();
}

namespace internal {
// A reader's callbacks as an emitter's calls (replay).
template <class Emitter>
struct replay_events {
    Emitter& w;
    void on_object_begin() { w.begin_object(); }
    void on_object_end() { w.end_object(); }
    void on_array_begin() { w.begin_array(); }
    void on_array_end() { w.end_array(); }
    void on_key(std::string_view k) { w.key(k); }
    void on_string(std::string_view v) { w.value(v); }
    // (the number as the reader read it, to an emitter that takes one: its value without
    // reading its text again; else its token)
    void on_number(const number& n) {
        if constexpr (requires { w.json_number(n); }) w.json_number(n);
        else w.json_number(n.text());
    }
    void on_bool(bool b) { w.value(b); }
    void on_null() { w.value(nullptr); }
};

// A text that is one scalar as the reader would read it — a number token, a string of
// printable ASCII without an escape, `true`, `false`, `null`, nothing around it — given to
// `e` without a reader (most JSON fields of a record are one: a pid, a timestamp, a name);
// false for any other text (and one longer than `longest`, the reader's limit), which the
// reader replays.
template <class Events>
bool replay_scalar(std::string_view text, Events& e, std::size_t longest) {
    if (text.empty() || text.size() > longest) return false;
    const char c = text.front();
    if (whole_scan::number_start(c)) {
        const std::optional<number> n = number_token(text);
        if (!n) return false;
        e.on_number(*n);
        return true;
    }
    if (c == '"') {
        if (text.size() < 2 || text.back() != '"') return false;
        const char* const b = text.data() + 1;
        const char* const end = text.data() + text.size() - 1;
        if (scan_string_plain(b, end) != end) return false; // (an escape, a quote, a control or non-ASCII byte)
        e.on_string(std::string_view(b, static_cast<std::size_t>(end - b)));
        return true;
    }
    if (text == "true" || text == "false") {
        e.on_bool(text.size() == 4);
        return true;
    }
    if (text == "null") {
        e.on_null();
        return true;
    }
    return false;
}
} // namespace internal

/// What the format modules' readers accept (strings not checked as UTF-8, a lone `\u`
/// surrogate as U+FFFD, the non-finite words `NaN`, `Infinity`, `-Infinity` as numbers): the
/// options `replay` reads with by default, so a text a module handed out replays whole.
inline constexpr options replay_options{.non_finite_words = true, .validate_utf8 = false, .lone_surrogates = true};

/// Replays a JSON text as the calls of an emitter (record.hpp: what writes a record's values):
/// `begin_object()`/`end_object()`, `begin_array()`/`end_array()`, `key(k)`, `value(s)` for a
/// string, `value(b)` for a bool, `value(nullptr)`, and `json_number(token)` for a number (its
/// token as written, so nothing is lost to a conversion; an emitter that also has
/// `json_number(const json::number&)` gets the number as read, its value ready to take). A
/// text that is one scalar is given without a reader (so without allocating one: options whose
/// buffers cannot be allocated fail on the other texts only; a `replayer` fails on all of
/// them, as the reader does). Keys and strings are decoded, and
/// valid only during the call (an emitter that keeps one copies it); one without an escape is
/// handed out in place, a view into `text` itself, valid as long as `text` is (an emitter can
/// tell it by its address: the Python module's frames keep such a key until its value, no
/// copy). Returns the reader's
/// outcome; on an error, calls already made stand. `opt`: `replay_options` by default.
/// What a JSON text inside a record becomes in a flat output: the command's CSV columns, the
/// Python module's frames. Output side only, not a parse path: each call makes a reader, whose
/// buffers (about 66 KiB) are allocated and freed once per text; a `replayer` replays many
/// texts with one allocation.
template <class Emitter>
error replay(std::string_view text, Emitter& w, const options& opt = replay_options) {
    internal::replay_events<Emitter> e{w};
    if (internal::replay_scalar(text, e, opt.scratch_capacity)) return {};
    return parse(text, e, opt);
}

/// `replay` for many texts (a JSON field of every record): the reader's storage is allocated
/// once, at the first text, and kept for the next ones.
/// \code
/// logscan::json::replayer<my_emitter> replay;   // a member of the output writer
/// replay(record.args, emitter);                  // as json::replay(record.args, emitter)
/// \endcode
template <class Emitter>
class replayer {
    using reader_type = reader<internal::replay_events<Emitter>>;

public:
    /// Replays with options `opt` (`replay_options` by default).
    explicit replayer(const options& opt = replay_options) noexcept : opt_(opt) {}
    replayer(const replayer&) = delete;
    replayer& operator=(const replayer&) = delete;
    ~replayer() { std::free(storage_); }

    /// `replay(text, w, opt)`, without an allocation after the first call.
    error operator()(std::string_view text, Emitter& w) {
        if (storage_ == nullptr) {
            size_ = reader_type::storage_size(opt_);
            storage_ = std::malloc(size_); // (null: the reader reports io_error)
            if (storage_ == nullptr) size_ = 0;
        }
        internal::replay_events<Emitter> e{w};
        if (storage_ != nullptr && internal::replay_scalar(text, e, opt_.scratch_capacity)) return {};
        reader_type r(e, opt_, std::span<std::byte>(static_cast<std::byte*>(storage_), size_));
        if (r.feed(text) == flow::proceed) (void)r.finish();
        return r.result();
    }

private:
    options opt_;
    void* storage_ = nullptr;
    std::size_t size_ = 0;
};

// ---- reading the text of a value the reader has accepted (a take_text's compact text) ----

/// Removes the blanks outside strings from a JSON text the reader accepted, fed in parts (the
/// parts `on_value_text` receives for a captured value): `feed(part, put)` calls `put(run)`
/// with the runs of the compact text, in order, and `finish(put)` ends the text. Strings are
/// kept as they stand (escapes as written); a bare non-finite number word (a reader with
/// `options::non_finite_words` let it through) is written `null`, as JSON has no such word
/// (words are told from numbers by where they start: at a value's start). Keeps no text:
/// `put` stores it. What json_project's `take_text` and chrome-trace's events are made of.
class compactor {
public:
    /// Ready for a new text.
    constexpr void reset() noexcept { *this = compactor{}; }
    /// Compacts the next part of the text. The bytes kept are handed on in runs as long as the
    /// text allows: a run ends only where a blank is dropped or a word is rewritten.
    template <class Put>
    void feed(std::string_view part, Put&& put) {
        const char* p = part.data();
        const char* const e = p + part.size();
        const char* run = p; // kept bytes not yet handed on: [run, p)
        const auto flush = [&] {
            if (p != run) put(std::string_view(run, static_cast<std::size_t>(p - run)));
        };
        while (p != e) {
            if (string_) { // up to the closing quote, escapes as they are
                if (escape_) { // (the byte after a backslash: whatever it is, kept)
                    escape_ = false;
                    ++p;
                    continue;
                }
                p = internal::scan_string_plain(p, e); // (16 bytes at a time up to a `"`, `\`, or a byte it leaves to us)
                if (p == e) break;
                const char c = *p++;
                if (c == '\\') escape_ = true;
                else if (c == '"') string_ = false;
                continue;
            }
            if (word_n_ != 0) { // a word begun: byte by byte until it ends
                flush();
                compact_byte(*p++, put);
                run = p;
                continue;
            }
            char c = *p;
            if (c != '"' && c != ' ' && c != '\n' && !internal::is_letter(c)) { // (the usual stops, seen without a scan)
                if (const char* const s = internal::scan_run_plain(p, e); s != p) { // (digits, punctuation)
                    prev_ = s[-1];
                    p = s;
                    if (p == e) break;
                    c = *p;
                }
            }
            if (c == '"') {
                prev_ = c;
                string_ = true;
                ++p;
                continue;
            }
            if (c == ' ' || c == '\n' || c == '\t' || c == '\r') { // dropped
                flush();
                for (++p; p != e && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r');) ++p;
                run = p;
                continue;
            }
            // a letter or a sign: inside a number (1e-5), or a word or a number's sign at a value's start
            if (!value_start()) {
                prev_ = c;
                ++p;
                continue;
            }
            const auto left = static_cast<std::size_t>(e - p);
            const std::string_view literal = c == 't' ? "true" : c == 'f' ? "false" : "null";
            if ((c == 't' || c == 'f' || c == 'n') && left >= literal.size() && literal == std::string_view(p, literal.size())) {
                prev_ = c; // (a word the reader accepted is whole when it spells a literal: kept as it is)
                p += literal.size();
                continue;
            }
            if (c == '-' && left >= 2 && internal::is_digit(p[1])) { // a negative number
                prev_ = c;
                ++p;
                continue;
            }
            flush(); // (a non-finite word, or a word or sign cut by the part's end)
            compact_byte(c, put);
            run = ++p;
        }
        flush();
    }
    /// Ends the text (a word still open is written).
    template <class Put>
    void finish(Put&& put) {
        if (word_n_ != 0) end_word(put);
    }

private:
    // True when a value may start here (after `[`, `{`, `,`, `:`, or at the text's start).
    bool value_start() const noexcept {
        return prev_ == 0 || prev_ == '[' || prev_ == '{' || prev_ == ',' || prev_ == ':';
    }
    // One byte outside strings: a blank (dropped), a word's, a quote, or any other.
    template <class Put>
    void compact_byte(char c, Put& put) {
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r') return;
        const bool letter = internal::is_letter(c);
        if (word_n_ != 0) {
            if (letter && word_n_ < sizeof word_) {
                word_[word_n_++] = c;
                return;
            }
            end_word(put);
        }
        const bool starts = value_start();
        prev_ = c;
        if (starts && (letter || c == '-' || c == '+')) {
            word_[word_n_++] = c;
            return;
        }
        put(std::string_view(&c, 1));
        if (c == '"') string_ = true;
    }
    // A word (or a lone sign, before a number's digits) ends: as it is, or `null`.
    template <class Put>
    void end_word(Put& put) {
        const std::string_view w(word_, word_n_);
        word_n_ = 0;
        if (w == "true" || w == "false" || w == "null" || w == "-" || w == "+") put(w);
        else put("null");
    }

    bool string_ = false, escape_ = false;
    char word_[10] = {};   // a word outside strings so far
    std::size_t word_n_ = 0;
    char prev_ = 0;        // the last byte outside strings (0: none yet)
};


namespace internal {
/// The code point of the escape at `in[i]` (a backslash, with a byte after it) in a string the
/// reader accepted, `i` moved past it: `\n` and the like their byte, `\uXXXX` its code point
/// (a surrogate pair combined; a surrogate without its pair, which a reader with
/// options::lone_surrogates let through, U+FFFD). What string_text and same_string read.
constexpr std::uint32_t escape_point(std::string_view in, std::size_t& i) noexcept {
    const char e = in[i + 1];
    i += 2;
    const auto hex4 = [&](std::size_t at) -> std::uint32_t {
        std::uint32_t v = 0;
        for (std::size_t k = at; k < at + 4 && k < in.size(); ++k)
            v = v * 16 + static_cast<std::uint32_t>(std::max(0, logscan::internal::hex_value(in[k])));
        return v;
    };
    switch (e) {
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case 'u': {
        std::uint32_t cp = hex4(i);
        i += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 6 <= in.size() && in[i] == '\\' && in[i + 1] == 'u' &&
            hex4(i + 2) >= 0xDC00 && hex4(i + 2) <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (hex4(i + 2) - 0xDC00);
            i += 6;
        } else if (cp >= 0xD800 && cp <= 0xDFFF) {
            cp = 0xFFFD;
        }
        return cp;
    }
    default: return static_cast<unsigned char>(e); // \" \\ \/
    }
}
} // namespace internal

/// The text of a JSON string token as it stands in a document the reader accepted (`"..."`,
/// escapes as written): a view of the token's inside when it has no escape, else its text
/// with the escapes resolved, written into `out`. None when `token` is not a string token or
/// the text does not fit `out`.
constexpr std::optional<std::string_view> string_text(std::string_view token, std::span<char> out) noexcept {
    if (token.size() < 2 || token.front() != '"' || token.back() != '"') return std::nullopt;
    const std::string_view in = token.substr(1, token.size() - 2);
    if (in.find('\\') == std::string_view::npos) return in;
    std::size_t n = 0;
    for (std::size_t i = 0; i < in.size();) {
        if (out.size() - n < 4) return std::nullopt;
        if (in[i] != '\\' || i + 1 >= in.size()) {
            out[n++] = in[i++];
            continue;
        }
        const bool unicode = in[i + 1] == 'u';
        const std::uint32_t cp = internal::escape_point(in, i);
        if (unicode) n += logscan::internal::encode_utf8(cp, out.data() + n);
        else out[n++] = static_cast<char>(cp);
    }
    return std::string_view(out.data(), n);
}

/// Whether two JSON string tokens (`"..."`, as a reader accepted them) hold the same text once
/// their escapes are resolved (`"a"` and `"\u0061"`), whatever their length; a surrogate
/// escape without its pair reads as U+FFFD, as `string_text` gives it. False when either is
/// no string token.
constexpr bool same_string(std::string_view a, std::string_view b) noexcept {
    if (a.size() < 2 || b.size() < 2 || a.front() != '"' || b.front() != '"' || a.back() != '"' || b.back() != '"')
        return false;
    if (a == b) return true;
    // the next code point (or byte, outside escapes) of the token's inside from i
    const auto next = [](std::string_view in, std::size_t& i) -> std::uint32_t {
        if (in[i] != '\\' || i + 1 >= in.size()) return static_cast<unsigned char>(in[i++]);
        const std::uint32_t cp = internal::escape_point(in, i);
        return cp < 0x80 ? cp : 0x80000000u | cp; // (as its UTF-8 bytes would compare: below 0x80, its byte)
    };
    // bytes of 0x80 and above outside escapes are compared as the code points they encode
    const auto next_point = [&](std::string_view in, std::size_t& i) -> std::uint32_t {
        const auto c = static_cast<unsigned char>(in[i]);
        if (c < 0x80 || in[i] == '\\') return next(in, i);
        const std::size_t n = logscan::internal::utf8_complete(in.data() + i, in.data() + in.size());
        if (n == 0) return 0x40000000u | static_cast<unsigned char>(in[i++]); // (a byte of no UTF-8 sequence: itself)
        std::uint32_t cp = n == 2 ? c & 0x1Fu : n == 3 ? c & 0x0Fu : c & 0x07u;
        for (std::size_t k = 1; k < n; ++k) cp = cp << 6 | (static_cast<unsigned char>(in[i + k]) & 0x3Fu);
        i += n;
        return 0x80000000u | cp;
    };
    const std::string_view x = a.substr(1, a.size() - 2), y = b.substr(1, b.size() - 2);
    std::size_t i = 0, j = 0;
    while (i < x.size() && j < y.size())
        if (next_point(x, i) != next_point(y, j)) return false;
    return i == x.size() && j == y.size();
}

/// Whether the string token `token` has the text of `plain`, a string token without escapes
/// (a literal key such as `"\"stream\""`): the bytes compared when the two are as long (an
/// escape makes a token longer than its text), decoded (`same_string`) only when `token` is
/// longer. What a walk over an object's members asks of each key, cheaply.
LOGSCAN_FORCE_INLINE constexpr bool is_text(std::string_view token, std::string_view plain) noexcept {
    if (token.size() == plain.size()) { // (no call: inlined, a literal's length is known)
        if (std::is_constant_evaluated()) return token == plain;
        return logscan::internal::same_bytes(token.data(), plain.data(), plain.size());
    }
    if (token.size() < plain.size()) return false;
    // (a first byte that is no escape and differs from plain's starts another character)
    if (plain.size() > 2 && token[1] != '\\' && token[1] != plain[1]) return false;
    return same_string(token, plain);
}

/// The end of the string token that starts at `text[at]` (its opening quote) in a text the
/// reader accepted: the index just past its closing quote (the first `"` after an even run of
/// backslashes).
constexpr std::size_t string_end(std::string_view text, std::size_t at) noexcept {
    std::size_t i = at + 1;
    if (!std::is_constant_evaluated()) { // (the reader's scan of a string without escapes: 16 bytes at once)
        const char* const q = internal::plain_string_end(text.data() + i, text.data() + text.size(), false);
        if (q != nullptr) return static_cast<std::size_t>(q - text.data()) + 1;
    }
    for (; i < text.size();) {
        const std::size_t q = text.find('"', i);
        if (q == std::string_view::npos) return text.size();
        std::size_t b = q;
        while (b > at + 1 && text[b - 1] == '\\') --b;
        if ((q - b) % 2 == 0) return q + 1;
        i = q + 1;
    }
    return text.size();
}

/// The end of the value that starts at `text[at]` in a compact JSON text (as the reader
/// accepted it, no blanks outside strings): the index just past it.
constexpr std::size_t value_end(std::string_view text, std::size_t at) noexcept {
    if (at < text.size() && (whole_scan::number_start(text[at]) || text[at] == 't' || text[at] == 'f' || text[at] == 'n')) {
        // a number, true, false, null: to the next ',', '}' or ']'
        std::size_t i = at;
        while (i < text.size() && text[i] != ',' && text[i] != '}' && text[i] != ']') ++i;
        return i;
    }
    std::size_t depth = 0;
    for (std::size_t i = at; i < text.size();) {
        const char c = text[i];
        if (c == '"') {
            i = string_end(text, i);
            if (depth == 0) return i;
            continue;
        }
        if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            if (depth == 0) return i; // (the enclosing container's end)
            if (--depth == 0) return i + 1;
        } else if (c == ',' && depth == 0) {
            return i;
        }
        ++i;
    }
    return text.size();
}

/// Calls `f(key_token, value_text)` for each member of a compact object text (`{"a":1,...}`,
/// as `take_text` gives it) in order, until `f` returns false (when it returns a bool): the
/// key as its string token (`string_text` reads it), the value's compact text. False when
/// `text` is not an object.
template <class F>
constexpr bool for_each_member(std::string_view text, F&& f) {
    if (text.size() < 2 || text.front() != '{' || text.back() != '}') return false;
    for (std::size_t i = 1; i + 1 < text.size();) {
        if (text[i] != '"') return false;
        const std::size_t k = string_end(text, i);
        if (k >= text.size() || text[k] != ':') return false;
        const std::size_t v = value_end(text, k + 1);
        const std::string_view key(text.data() + i, k - i), value(text.data() + k + 1, v - k - 1);
        if constexpr (std::is_same_v<decltype(f(key, value)), bool>) {
            if (!f(key, value)) return true;
        } else {
            f(key, value);
        }
        i = v + 1; // (past the ',')
    }
    return true;
}

} // namespace logscan::json

#endif // LOGSCAN_JSON_HPP_INCLUDED
