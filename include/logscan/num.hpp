// SPDX-License-Identifier: MIT
/// \file num.hpp
/// Numbers as logs print them: decimal integers and doubles, `,` thousands separators,
/// percentages, durations with units (`74.64 ms`, `26.04msec`), clock durations
/// (`1:31:44`, `2 days, 1:31:44`), byte sizes (`196.00MiB`, `205520896bytes`) and shape
/// lists (`(4, 64, 224, 224)`, `(32,)`, `()`, `float32[1, 784]`) and sequences of them
/// (`float32[1, 784], float32[784]`).
///
/// Every parser returns a `value_result<T>`: the value, `ptr` (the first byte not consumed)
/// and `ec` (`std::errc{}` on success, `std::errc::invalid_argument` or
/// `std::errc::result_out_of_range`). Nothing throws, nothing allocates, everything works
/// with `-fno-exceptions`. Integers go through `std::from_chars` (a digit loop when
/// constant-evaluated: every integer parser is usable in `constexpr`); floating point goes
/// through fast_float (correctly rounded, round-to-nearest, bit-identical to `strtod` in the
/// C locale).
///
/// **The decimal grammar** (formats.md's "parses as a number"): optional sign (`+` or `-`),
/// one or more digits, optionally `.` followed by one or more digits, optionally `e`/`E`, an
/// optional sign and one or more digits. `1.`, `.5`, `0x10`, `nan`, `inf`, `infinity` and
/// spaces are *not* decimal numbers and are rejected (a log's `nan` is a word, not a
/// number; callers that want it can test for it themselves). Leading zeros are allowed
/// (`007`).
///
/// **Grouped numbers** (`parse_grouped`): the integer part may use `,` thousands separators:
/// a first group of 1 to 3 digits (not starting with `0`), then groups of exactly three digits
/// each preceded by `,`: `3,983`, `12,424.27`, `-1,234,567e3`. `1,23`, `1,2345`, `1234,567`,
/// `0,123` and `1,` are not grouped numbers. The value is the value of the text with its
/// commas removed. A text without commas is accepted as well.
///
/// **Whole-text vs. prefix parsers.** `parse_number`, `parse_grouped`, `parse_percent`,
/// `parse_time`, `parse_byte_size`, `parse_clock_duration` and `shape_dims` require the whole
/// view to be the value (trim it first): on failure `ptr` points at the first byte that does
/// not fit. The `*_prefix(first, last)` forms parse the longest value at `first` and return
/// `ptr` one past it, for use inside larger texts (`"time=74.64ms;"`). A grouped prefix never
/// ends right before a digit: in `"1,2345"` the number is `1` (not `1,234` and a stray `5`).
///
/// **Cost.** The run-time path of `parse_number` / `parse_prefix` is one call of
/// `std::from_chars` or fast_float on the input plus a few checks, except for the decimals
/// logs print most: a double of at most 15 digits and no exponent (`196.00`, `3,983.23`) is
/// read in one pass as m / 10^k, one exact IEEE division of two exact doubles, the same
/// correctly rounded value (`parse_number_value` / `parse_grouped_value` read such a text,
/// or an integer of at most 15 digits, in that one pass too: 2x on a table's cells);
/// longer grouped numbers use a stack buffer. Floating-point parsers are not usable in
/// constant expressions (fast_float 3 is not `constexpr`); integer ones, `classify_*`, the
/// unit-name parsers, the integer clock parser and the shape parsers are.
///
/// **Integer or floating?** `classify_number` / `classify_grouped` tell, from the syntax
/// alone, whether a text is an integer (no fraction, no exponent), a floating-point number,
/// or no number; `parse_number_value` / `parse_grouped_value` return a `number` that holds
/// an `int64_t` or a `double` accordingly.
///
/// **Overflow.** An integer outside the range of `T` gives `result_out_of_range`; for an
/// unsigned `T` a minus sign is `invalid_argument` at the sign (even `-0`). A floating
/// number whose magnitude rounds beyond the largest finite value gives `result_out_of_range`
/// with `value` = ±infinity (what `strtod` returns as `HUGE_VAL`); a nonzero number that
/// rounds to zero or to a subnormal (`1e-400`) is *not* an error: the value is the correctly
/// rounded result (±0 or subnormal), as `strtod` returns.
///
/// **Units.** Time units: `ns`/`nsec`, `us`/`usec`/`µs`/`μs`, `ms`/`msec`, `s`/`sec`,
/// `min`, `h`. Byte units: `B`/`byte`/`bytes`; decimal `kB`/`KB` = 1000, `MB` = 1000²,
/// `GB` = 1000³, `TB` = 1000⁴, `PB` = 1000⁵; binary `KiB` = 1024, `MiB` = 1024², `GiB` = 1024³,
/// `TiB` = 1024⁴, `PiB` = 1024⁵. Unit names are case-sensitive. Numbers before a unit or `%`
/// may be grouped and may be separated from it by spaces or tabs, and may be negative (a
/// change in memory, `-4.00 MB`, as profilers print it).
///
/// **Clock durations** (`parse_clock_duration`, as Python's `timedelta` prints them):
/// `H:MM:SS`, `D day(s), H:MM:SS`, fractional seconds `H:MM:SS.ffffff`, negative days
/// (`-1 day, 23:59:59` is -1 s); seconds as `double`, or exactly as `std::int64_t` with
/// `parse_clock_duration<std::int64_t>` (also in constant expressions; fractions are then
/// `invalid_argument`). `H` is not checked against 24 when days are present.
///
/// **printf forms** (`scan_form`): a whole line read against the `printf` format that printed
/// it, `%u` (digits), `%f` (`[-]digits[.digits]` or a non-finite word: `-nanms`), `%s` (the
/// rest): `scan_form("iter 3/20: 12.004ms (exec=2.118,device=11.870)", "iter %u/%u: %fms
/// (exec=%f,device=%f)", v)`. Non-finite words anywhere a value is read are `nan`, `-nan`,
/// `inf`, `-inf`, `+inf`, `infinity`, `-infinity` in any letter case (formats.md's common rules).
///
/// **printf rows** (`printf_row<"...">`): a row printed with fixed field widths checked against
/// its column template at once (16 columns at a time with SSE2) and its numbers read eight
/// digits at a time: `printf_row<">>>>>>>>* _____9.99MiB(">::fits(row)`, then
/// `digits<10, 19>(row)` (the value in hundredths); `starts` for a fixed-width line head.
///
/// \code
/// #include <logscan/num.hpp>
/// auto a = logscan::parse_number<int>("3983");                  // a.value == 3983
/// auto b = logscan::parse_grouped<double>("12,424.27");         // b.value == 12424.27
/// auto c = logscan::parse_number<double>("1e400");              // c.ec == result_out_of_range
/// std::string_view line = "time=74.64ms; 8 passes";
/// auto t = logscan::parse_time_prefix(line.data() + 5, line.data() + line.size());
///                                           // t.value.value == 74.64, unit ms, t.ptr at ';'
/// double s = t.value.seconds();                                 // 0.07464
/// auto eta = logscan::parse_clock_duration("2 days, 1:31:44"); // eta.value == 178304.0
/// auto m = logscan::parse_byte_size("196.00MiB");              // m.value.bytes() == 205520896
/// auto p = logscan::parse_percent("424.52%");                  // p.value == 424.52
/// for (std::int64_t d : logscan::shape_dims("(4, 64, 224, 224)")) use(d);
/// auto sh = logscan::shape_dims("float32[1, 784]");
/// // sh.ok(), sh.dtype() == "float32", sh.size() == 2
/// for (logscan::shape_list one : logscan::shape_lists("float32[1, 2], float32[3]")) use(one);
/// \endcode
#ifndef LOGSCAN_NUM_HPP_INCLUDED
#define LOGSCAN_NUM_HPP_INCLUDED

#include <array>
#include <bit>
#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>

#include <fast_float/fast_float.h>

#include "config.hpp"
#include "fixed_string.hpp"


namespace logscan {

/// The result of every number parser: `{value, ptr, ec}`, in the style of `std::from_chars`.
template <class T>
struct value_result {
    T value{};                 ///< the parsed value, valid when `ec == std::errc{}`
    const char* ptr = nullptr; ///< first byte not consumed (on failure: where parsing stopped)
    std::errc ec{};            ///< `std::errc{}`, `invalid_argument` or `result_out_of_range`

    /// True when parsing succeeded.
    constexpr bool ok() const noexcept { return ec == std::errc{}; }
    /// Same as `ok()`.
    constexpr explicit operator bool() const noexcept { return ok(); }
};

/// Integer types the parsers accept: every standard signed and unsigned integer type of at
/// most 64 bits except `bool` and the character types (`signed char` / `unsigned char`,
/// i.e. `int8_t` / `uint8_t`, are accepted).
template <class T>
concept parsable_integer =
    std::integral<T> && !std::is_const_v<T> && !std::is_volatile_v<T> && sizeof(T) <= 8 &&
    !std::same_as<T, bool> && !std::same_as<T, char> && !std::same_as<T, wchar_t> &&
    !std::same_as<T, char8_t> && !std::same_as<T, char16_t> && !std::same_as<T, char32_t>;

/// Floating-point types the parsers accept (those fast_float supports).
template <class T>
concept parsable_float = std::same_as<T, float> || std::same_as<T, double>;

/// Any type `parse_number` accepts.
template <class T>
concept parsable_number = parsable_integer<T> || parsable_float<T>;

/// What kind of number a text is, from its syntax alone.
enum class number_kind : unsigned char {
    none = 0, ///< not a decimal number
    integer,  ///< digits only (with sign, and with separators for the grouped forms)
    floating, ///< has a fraction or an exponent
};

namespace internal {

/// The regex engine's `\s`: space, tab, newline, carriage return, form feed, vertical tab.
constexpr bool is_regex_space(char c) noexcept {
    return c == ' ' || static_cast<unsigned char>(c) - 9u < 5u; // (\t \n \v \f \r are 9..13)
}
template <char... Cs>
constexpr const char* find_space_or_bytes(const char* p, const char* e) noexcept {
    while (p != e && !is_regex_space(*p) && (true && ... && (*p != Cs))) ++p;
    return p;
}
/// The first byte in [p, e) that is a regex `\s` or one of `Cs`, or `e`: 16 bytes at a time
/// in place with SSE2 (a token of a few bytes ends within the first look, where a loop byte by
/// byte pays a mispredicted exit per token). `begin` (at or before p): where the bytes that may
/// be read begin; fewer than 16 left are looked at as the 16 that end at `e` if they all may be.
/// (In a constant expression: byte by byte.)
template <char... Cs>
LOGSCAN_FORCE_INLINE constexpr const char* find_space_or(const char* p, const char* e, const char* begin) noexcept {
#if LOGSCAN_SSE2
    if (std::is_constant_evaluated()) return find_space_or_bytes<Cs...>(p, e);
    const auto hits = [](const char* at) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
        __m128i m = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
                                 _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(8)), _mm_cmplt_epi8(v, _mm_set1_epi8(14))));
        ((m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(Cs)))), ...);
        return static_cast<unsigned>(_mm_movemask_epi8(m));
    };
    for (; e - p >= 16; p += 16)
        if (const unsigned m = hits(p); m != 0) return p + std::countr_zero(m);
    if (p != e && e - begin >= 16) {
        const unsigned m = hits(e - 16) >> (16 - (e - p));
        return m != 0 ? p + std::countr_zero(m) : e;
    }
#else
    (void)begin;
#endif
    return find_space_or_bytes<Cs...>(p, e);
}
constexpr bool is_digit(char c) noexcept {
    return static_cast<unsigned>(static_cast<unsigned char>(c)) - 48u < 10u;
}
constexpr bool is_alpha(char c) noexcept {
    return static_cast<unsigned>(static_cast<unsigned char>(c) | 0x20u) - 97u < 26u;
}
constexpr bool is_blank(char c) noexcept { return c == ' ' || c == '\t'; }
/// The bytes of `Set` as a 256-entry table: membership is one load, however many bytes the
/// set has (a `[^@: ]+` scan tests one table entry per byte, not three compares).
template <fixed_string Set>
struct byte_set {
    static constexpr struct table_t {
        bool in[256]{};
        constexpr table_t() noexcept {
            for (const char c : Set.view()) in[static_cast<unsigned char>(c)] = true;
        }
    } table{};
    static constexpr bool contains(char c) noexcept { return table.in[static_cast<unsigned char>(c)]; }
};
/// The first byte of [p, e) that is in `Stops`, or e. Up to four stops are looked for 16
/// bytes at a time with SSE2 (a compare per stop), the rest byte by byte.
template <fixed_string Stops>
LOGSCAN_FORCE_INLINE constexpr const char* find_stop(const char* p, const char* e) noexcept {
#if LOGSCAN_SSE2
    if constexpr (Stops.size() <= 4) {
        if (!std::is_constant_evaluated()) {
            for (; e - p >= 16; p += 16) {
                const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
                const __m128i hit = [&]<std::size_t... I>(std::index_sequence<I...>) {
                    __m128i m = _mm_setzero_si128();
                    ((m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(Stops.chars[I])))), ...);
                    return m;
                }(std::make_index_sequence<Stops.size()>{});
                if (const auto bits = static_cast<unsigned>(_mm_movemask_epi8(hit)); bits != 0)
                    return p + std::countr_zero(bits);
            }
        }
    }
#endif
    if constexpr (Stops.size() == 1) { // (one byte: a compare, no table)
        while (p != e && *p != Stops.chars[0]) ++p;
    } else {
        while (p != e && !byte_set<Stops>::contains(*p)) ++p;
    }
    return p;
}
constexpr unsigned digit_value(char c) noexcept {
    return static_cast<unsigned>(static_cast<unsigned char>(c)) - 48u;
}

/// Where the parts of a decimal number are, found by `scan_decimal`.
struct decimal_scan {
    const char* end = nullptr;     ///< one past the number; the start when `!found`
    const char* digits = nullptr;  ///< first digit (after the sign)
    const char* int_end = nullptr; ///< one past the integer part (separators included)
    bool found = false;            ///< a number was found
    bool negative = false;         ///< sign `-`
    bool plus = false;             ///< sign `+`
    bool floating = false;         ///< has a fraction or an exponent
    bool grouped = false;          ///< `,` separators were consumed
};

/// The longest decimal number at the start of [first, last): see the grammar in the file
/// comment. `groups` allows `,` separators; `fraction` allows a fraction and an exponent.
constexpr decimal_scan scan_decimal(const char* first, const char* last, bool groups,
                                    bool fraction) noexcept {
    decimal_scan s;
    s.end = first;
    const char* p = first;
    if (p != last && (*p == '+' || *p == '-')) {
        s.negative = *p == '-';
        s.plus = *p == '+';
        ++p;
    }
    s.digits = p;
    const char* q = p;
    while (q != last && is_digit(*q)) ++q;
    if (q == p) {
        s.int_end = p;
        return s;
    }
    if (groups && q - p <= 3 && *p != '0') {
        while (last - q >= 4 && q[0] == ',' && is_digit(q[1]) && is_digit(q[2]) && is_digit(q[3]) &&
               (last - q == 4 || !is_digit(q[4]))) {
            q += 4;
            s.grouped = true;
        }
    }
    s.int_end = q;
    if (fraction) {
        if (q != last && *q == '.' && last - q >= 2 && is_digit(q[1])) {
            q += 2;
            while (q != last && is_digit(*q)) ++q;
            s.floating = true;
        }
        if (q != last && (*q == 'e' || *q == 'E')) {
            const char* e = q + 1;
            if (e != last && (*e == '+' || *e == '-')) ++e;
            if (e != last && is_digit(*e)) {
                while (e != last && is_digit(*e)) ++e;
                q = e;
                s.floating = true;
            }
        }
    }
    s.end = q;
    s.found = true;
    return s;
}

/// Accumulates the digits of [first, last) (skipping `,`) into T, with overflow detection.
template <parsable_integer T>
constexpr value_result<T> accumulate_integer(const char* digits, const char* last,
                                             bool negative) noexcept {
    using U = std::make_unsigned_t<T>;
    std::uint64_t limit = static_cast<std::uint64_t>(std::numeric_limits<T>::max());
    if (negative) limit += 1; // magnitude of min() for signed T (unsigned T rejects '-')
    const std::uint64_t cutoff = limit / 10u; // below it, one more digit cannot pass the limit
    std::uint64_t acc = 0;
    bool overflow = false;
    for (const char* p = digits; p != last; ++p) {
        if (*p == ',') continue;
        const std::uint64_t d = digit_value(*p);
        if (acc < cutoff || acc <= (limit - d) / 10u) // (the exact test only near the limit)
            acc = acc * 10u + d;
        else
            overflow = true;
    }
    if (overflow) return {T{}, last, std::errc::result_out_of_range};
    const U mag = static_cast<U>(acc);
    return {negative ? static_cast<T>(static_cast<U>(U{0} - mag)) : static_cast<T>(mag), last,
            std::errc{}};
}

/// Integer from a successful scan (fraction not allowed in the scan).
template <parsable_integer T>
constexpr value_result<T> integer_from_scan(const char* first, const decimal_scan& s) noexcept {
    if constexpr (std::is_unsigned_v<T>) {
        if (s.negative) return {T{}, first, std::errc::invalid_argument};
    }
    if (!s.grouped && !std::is_constant_evaluated()) {
        T v{};
        const char* start = s.plus ? first + 1 : first;
        const std::from_chars_result r = std::from_chars(start, s.end, v);
        if (r.ec == std::errc{} && r.ptr == s.end) return {v, s.end, std::errc{}};
        if (r.ec == std::errc::result_out_of_range)
            return {T{}, s.end, std::errc::result_out_of_range};
        return {T{}, first,
                std::errc::invalid_argument}; // not reached: the scan checked the syntax
    }
    return accumulate_integer<T>(s.digits, s.end, s.negative);
}

template <parsable_float T>
constexpr bool is_overflow(T v) noexcept {
    return v > std::numeric_limits<T>::max() || v < -std::numeric_limits<T>::max();
}

/// fast_float on [begin, end), which must be exactly a decimal number (sign `-` at most).
template <parsable_float T>
inline value_result<T> fast_float_exact(const char* begin, const char* end, const char* err_ptr,
                                        const char* result_ptr) noexcept {
    T v{};
    const fast_float::from_chars_result r = fast_float::from_chars(begin, end, v);
    if (r.ec != std::errc{} || r.ptr != end) return {T{}, err_ptr, std::errc::invalid_argument};
    if (is_overflow(v)) return {v, result_ptr, std::errc::result_out_of_range};
    return {v, result_ptr, std::errc{}};
}

/// Significant digits kept when a grouped number too long for the stack buffer is
/// normalized; more than the 767 a correctly rounded double conversion can depend on.
inline constexpr std::size_t long_keep_digits = 780;
/// Stack buffer for a grouped number with its separators removed.
inline constexpr std::size_t grouped_buffer = long_keep_digits + 48;

/// A grouped number: the text with `,` removed is converted; see `float_from_scan`.
template <parsable_float T>
inline value_result<T> grouped_float(const char* first, const decimal_scan& s) noexcept {
    char buf[grouped_buffer];
    std::size_t n = 0;
    const std::size_t len = static_cast<std::size_t>(s.end - s.digits);
    if (len + 1 <= grouped_buffer) {
        if (s.negative) buf[n++] = '-';
        for (const char* p = s.digits; p != s.end; ++p)
            if (*p != ',') buf[n++] = *p;
        return fast_float_exact<T>(buf, buf + n, first, s.end);
    }
    // Too long for the buffer: write 0.DDD...e<E> with the first significant digits, plus a
    // sticky '1' when a dropped digit is nonzero. No rounding boundary of T lies strictly
    // between the truncated and the true value, so the result is the same.
    std::int64_t int_sig = 0;    // integer digits from the first nonzero one
    std::int64_t frac_zeros = 0; // leading fraction zeros while nothing significant was seen
    std::size_t kept = 0;
    bool started = false, sticky = false;
    if (s.negative) buf[n++] = '-';
    buf[n++] = '0';
    buf[n++] = '.';
    auto take = [&](char c) {
        if (kept < long_keep_digits) {
            buf[n++] = c;
            ++kept;
        } else if (c != '0') {
            sticky = true;
        }
    };
    const char* p = s.digits;
    for (; p != s.int_end; ++p) {
        if (*p == ',') continue;
        if (!started && *p == '0') continue;
        started = true;
        ++int_sig;
        take(*p);
    }
    std::int64_t exp = 0;
    if (p != s.end && *p == '.') {
        for (++p; p != s.end && is_digit(*p); ++p) {
            if (!started && *p == '0') {
                ++frac_zeros;
                continue;
            }
            started = true;
            take(*p);
        }
    }
    if (p != s.end) { // exponent, saturated far beyond any finite double
        ++p;
        bool eneg = false;
        if (*p == '+' || *p == '-') eneg = *p++ == '-';
        for (; p != s.end; ++p)
            if (exp < 1000000000000000LL)
                exp = exp * 10 + static_cast<std::int64_t>(digit_value(*p));
        if (eneg) exp = -exp;
    }
    if (!started) return {s.negative ? -T{0} : T{0}, s.end, std::errc{}};
    if (sticky) buf[n++] = '1';
    const std::int64_t e10 = exp + (int_sig > 0 ? int_sig : -frac_zeros);
    buf[n++] = 'e';
    const std::to_chars_result tc = std::to_chars(buf + n, buf + grouped_buffer, e10);
    n = static_cast<std::size_t>(tc.ptr - buf);
    return fast_float_exact<T>(buf, buf + n, first, s.end);
}

/// Floating value from a successful scan.
template <parsable_float T>
inline value_result<T> float_from_scan(const char* first, const decimal_scan& s) noexcept {
    if (s.grouped) return grouped_float<T>(first, s);
    return fast_float_exact<T>(s.plus ? first + 1 : first, s.end, first, s.end);
}

/// Converts a successful scan to T.
template <parsable_number T>
constexpr value_result<T> from_scan(const char* first, const decimal_scan& s) noexcept {
    if constexpr (parsable_integer<T>)
        return integer_from_scan<T>(first, s);
    else
        return float_from_scan<T>(first, s);
}

/// The first byte in [p, last) that is not an ASCII digit, or `last`; eight bytes at a time
/// on little-endian targets (never reading outside [p, last)).
LOGSCAN_FORCE_INLINE const char* skip_digits(const char* p, const char* last) noexcept {
    if constexpr (std::endian::native == std::endian::little) {
        while (last - p >= 8) {
            std::uint64_t v = 0;
            std::memcpy(&v, p, 8);
            const std::uint64_t a = v ^ 0x3030303030303030ull; // digits become 0..9
            // high bit of a byte set when it is >= 10; a carry only leaves a flagged byte, so
            // the lowest flagged byte is exact
            const std::uint64_t m = ((a + 0x7676767676767676ull) | a) & 0x8080808080808080ull;
            if (m != 0) return p + (std::countr_zero(m) >> 3);
            p += 8;
        }
    }
    while (p != last && is_digit(*p)) ++p;
    return p;
}

/// Powers of ten a double holds exactly (10^0 .. 10^15).
inline constexpr double exact_powers_of_ten[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                                    1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

/// What `read_short_digits` read: the digits as an integer (`m`, below 10^15), how many of
/// them are the fraction's, and one past the number (null: not a short decimal).
struct short_digits {
    const char* end = nullptr;
    std::uint64_t m = 0;
    std::size_t fraction = 0; ///< 0: no `.` was read (an integer's text)
};

/// The one pass of `short_decimal` (its grammar: below), giving the digits' integer and the
/// fraction's length rather than the value.
LOGSCAN_FORCE_INLINE constexpr short_digits read_short_digits(const char* d, const char* last, bool groups) noexcept {
    const char* q = d;
    std::uint64_t m = 0;
    while (q != last && is_digit(*q)) m = m * 10u + digit_value(*q++);
    std::size_t digits = static_cast<std::size_t>(q - d);
    if (digits == 0) return {};
    if (groups && q != last && *q == ',') {
        if (digits > 3 || *d == '0') return {};
        while (last - q >= 4 && q[0] == ',' && is_digit(q[1]) && is_digit(q[2]) && is_digit(q[3]) &&
               (last - q == 4 || !is_digit(q[4]))) {
            m = m * 1000u + digit_value(q[1]) * 100u + digit_value(q[2]) * 10u + digit_value(q[3]);
            digits += 3;
            q += 4;
        }
    }
    std::size_t fraction = 0;
    if (q != last && *q == '.') {
        const char* const f = ++q;
        while (q != last && is_digit(*q)) m = m * 10u + digit_value(*q++);
        fraction = static_cast<std::size_t>(q - f);
        if (fraction == 0) return {};
        digits += fraction;
    }
    if (digits > 15 || (q != last && (*q == 'e' || *q == 'E'))) return {};
    return {q, m, fraction};
}

/// A short plain decimal at `d` (its digits; the sign before them is the caller's, given as
/// `negative`) read in one pass: `\d+`, with `groups` also `,ddd` thousands groups after a
/// first run of 1-3 digits not starting with 0 (each group not followed by a digit), then an
/// optional `.\d+` (a `,` that starts no group ends the number, as in `parse_grouped_prefix`);
/// at most 15 digits in all, and no exponent after (what logs print:
/// `196.00`, `0.0364`, `3,983.23`). Then the digits make an integer m < 10^15 < 2^53 and the
/// value is m / 10^k: both exact doubles, so the one IEEE division is the correctly rounded
/// value of the decimal, the same double fast_float gives. Returns one past the number, or
/// null (nothing written) for anything the general path must read: no digit, more digits,
/// an exponent, a `.` without a digit after it, a `,` after a first run of four or more
/// digits or of one starting with 0 (a `,` that starts no group after a first run of 1-3 digits
/// ends the number, as the general path ends it).
LOGSCAN_FORCE_INLINE constexpr const char* short_decimal(const char* d, const char* last, bool groups, bool negative,
                                                         double& v) noexcept {
    const short_digits s = read_short_digits(d, last, groups);
    if (s.end == nullptr) return nullptr;
    const double x = static_cast<double>(s.m) / exact_powers_of_ten[s.fraction];
    v = negative ? -x : x;
    return s.end;
}

/// The run-time fast path of the prefix parsers: one pass of `std::from_chars` (integers) or
/// fast_float (floats) straight on the input, the sign handled here; a short plain decimal
/// (`short_decimal`) read without fast_float. Returns false when the
/// text needs the grammar-checking slow path: a `.` not followed by a digit (which fast_float
/// would consume), or, for grouped parsing, a `,` right after the number. The result goes to
/// scalars (not a struct copy) so that, inlined, it stays in registers.
template <parsable_number T>
LOGSCAN_FORCE_INLINE bool parse_fast(const char* first, const char* last, bool groups, T& v,
                                     const char*& end, std::errc& ec) noexcept {
    const char* p = first; // where the library parser starts ('-' included, '+' skipped)
    const char* d = first; // first digit
    if (d != last && *d == '+')
        p = ++d;
    else if (d != last && *d == '-')
        ++d;
    end = first;
    ec = std::errc::invalid_argument;
    if (d == last || !is_digit(*d)) return true;
    if constexpr (parsable_integer<T>) {
        if constexpr (std::is_unsigned_v<T>) {
            if (d != p) return true;
        }
        if (groups) { // a separator after the digits: the slow path reads the groups
            const char* q = skip_digits(d, last);
            if (q != last && *q == ',') return false;
        }
        const std::from_chars_result fr = std::from_chars(p, last, v);
        if (fr.ec != std::errc{} && fr.ec != std::errc::result_out_of_range)
            return false; // not reached: a digit follows the sign
        end = fr.ptr;
        ec = fr.ec;
        return true;
    } else {
        if constexpr (std::is_same_v<T, double>) {
            if (const char* q = short_decimal(d, last, groups, *first == '-', v)) {
                end = q;
                ec = std::errc{};
                return true;
            }
        }
        const char* q = skip_digits(d, last); // end of the integer digits
        if (q != last && groups && *q == ',') return false; // separators: the slow path reads them
        if (q != last && *q == '.' && (q + 1 == last || !is_digit(q[1]))) return false; // "1." "1.e5"
        const fast_float::from_chars_result fr = fast_float::from_chars(p, last, v);
        if (fr.ec != std::errc{}) return false; // not reached: a digit follows the sign
        end = fr.ptr;
        ec = is_overflow(v) ? std::errc::result_out_of_range : std::errc{};
        return true;
    }
}

/// The grammar-checking path of the prefix parsers (constant evaluation, separators, `1.`).
template <parsable_number T>
constexpr value_result<T> parse_slow(const char* first, const char* last, bool groups) noexcept {
    const decimal_scan s = scan_decimal(first, last, groups, parsable_float<T>);
    if (!s.found) return {T{}, first, std::errc::invalid_argument};
    return from_scan<T>(first, s);
}

/// Shared body of the prefix parsers. Inlined, so that the result stays in registers.
template <parsable_number T>
LOGSCAN_FORCE_INLINE constexpr value_result<T> parse_at(const char* first, const char* last,
                                                        bool groups) noexcept {
    if (!std::is_constant_evaluated()) {
        T v{};
        const char* end = first;
        std::errc ec{};
        if (LOGSCAN_LIKELY(parse_fast<T>(first, last, groups, v, end, ec)))
            return {v, end, ec}; // v is untouched (0) unless parsed
    }
    return parse_slow<T>(first, last, groups);
}

/// Shared body of the whole-text parsers: the prefix parser, then nothing may follow.
template <parsable_number T>
LOGSCAN_FORCE_INLINE constexpr value_result<T> parse_whole(std::string_view text,
                                                           bool groups) noexcept {
    const char* first = text.data();
    const char* last = first + text.size();
    if (!std::is_constant_evaluated()) { // (the fast path's scalars straight into the result: no copy of a result)
        T v{};
        const char* end = first;
        std::errc ec{};
        if (LOGSCAN_LIKELY(parse_fast<T>(first, last, groups, v, end, ec))) {
            if (ec != std::errc::invalid_argument && end != last) ec = std::errc::invalid_argument;
            if (ec == std::errc::invalid_argument) v = T{};
            return {v, end, ec};
        }
    }
    const value_result<T> r = parse_slow<T>(first, last, groups);
    if (r.ec == std::errc::invalid_argument) return {T{}, r.ptr, r.ec};
    if (r.ptr != last) return {T{}, r.ptr, std::errc::invalid_argument};
    return r;
}

constexpr const char* skip_blanks(const char* p, const char* last) noexcept {
    while (p != last && is_blank(*p)) ++p;
    return p;
}

/// End of a unit word at p: ASCII letters and bytes >= 0x80 (UTF-8 `µ`).
constexpr const char* unit_word_end(const char* p, const char* last) noexcept {
    while (p != last && (is_alpha(*p) || static_cast<unsigned char>(*p) >= 0x80u)) ++p;
    return p;
}

} // namespace internal

// ---------------------------------------------------------------------------------------
// Plain numbers
// ---------------------------------------------------------------------------------------

/// Parses the whole of `text` as a decimal number of type `T` (no separators, no spaces).
/// Integers: `[+-]digits`; a fraction or exponent is `invalid_argument` for an integer `T`,
/// and so is `-` for an unsigned `T`. Floats: the full decimal grammar (file comment).
/// \code
/// logscan::parse_number<std::int64_t>("-42").value  // -42
/// logscan::parse_number<double>("2.5e-3").value     // 0.0025
/// logscan::parse_number<int>("12abc").ptr            // points at 'a' (invalid_argument)
/// \endcode
template <parsable_number T>
LOGSCAN_FORCE_INLINE constexpr value_result<T> parse_number(std::string_view text) noexcept {
    return internal::parse_whole<T>(text, false);
}

/// Like `parse_number`, and the integer part may have `,` thousands separators in correct
/// groups of three (`3,983`, `12,424.27`; `1,23` is `invalid_argument`).
template <parsable_number T>
LOGSCAN_FORCE_INLINE constexpr value_result<T> parse_grouped(std::string_view text) noexcept {
    return internal::parse_whole<T>(text, true);
}

/// Parses the longest decimal number at the start of [first, last) (no separators); `ptr`
/// is one past it. No number at `first` gives `invalid_argument` with `ptr == first`.
/// For an integer `T` the number ends before a `.` or `e` (`"12.5"` gives 12, `ptr` at `.`).
/// An incomplete fraction or exponent is not consumed: `"1.x"` and `"1e+"` give 1 with
/// `ptr` at `.` / `e`.
template <parsable_number T>
LOGSCAN_FORCE_INLINE constexpr value_result<T> parse_prefix(const char* first,
                                                            const char* last) noexcept {
    return internal::parse_at<T>(first, last, false);
}

/// `parse_prefix` on a view: parses at the start of `text`.
template <parsable_number T>
LOGSCAN_FORCE_INLINE constexpr value_result<T> parse_prefix(std::string_view text) noexcept {
    return internal::parse_at<T>(text.data(), text.data() + text.size(), false);
}

/// Like `parse_prefix`, also taking `,` separators in correct groups of three. A `,` that
/// does not start a group of exactly three digits ends the number: `"1,2,3"` gives 1 with
/// `ptr` at the first `,`, but note that `"1,234"` is one thousand two hundred thirty-four.
template <parsable_number T>
LOGSCAN_FORCE_INLINE constexpr value_result<T> parse_grouped_prefix(const char* first,
                                                                    const char* last) noexcept {
    return internal::parse_at<T>(first, last, true);
}

/// `parse_grouped_prefix` on a view: parses at the start of `text`.
template <parsable_number T>
LOGSCAN_FORCE_INLINE constexpr value_result<T>
parse_grouped_prefix(std::string_view text) noexcept {
    return internal::parse_at<T>(text.data(), text.data() + text.size(), true);
}

/// The kind of number the whole of `text` is, by syntax only (no separators):
/// `"12"` integer, `"1.5"` / `"1e3"` floating, `"1,234"` / `"nan"` / `""` none.
constexpr number_kind classify_number(std::string_view text) noexcept {
    const internal::decimal_scan s =
        internal::scan_decimal(text.data(), text.data() + text.size(), false, true);
    if (!s.found || s.end != text.data() + text.size()) return number_kind::none;
    return s.floating ? number_kind::floating : number_kind::integer;
}

/// Like `classify_number`, with `,` thousands separators allowed (`"1,234"` is integer).
constexpr number_kind classify_grouped(std::string_view text) noexcept {
    const internal::decimal_scan s =
        internal::scan_decimal(text.data(), text.data() + text.size(), true, true);
    if (!s.found || s.end != text.data() + text.size()) return number_kind::none;
    return s.floating ? number_kind::floating : number_kind::integer;
}

/// A number that is an integer or a double, as the text says (see `parse_number_value`).
struct number {
    number_kind kind = number_kind::none; ///< `integer` or `floating` once parsed
    std::int64_t integer = 0;             ///< the value when `kind == integer`
    double floating = 0;                  ///< the value when `kind == floating`

    /// True when the number is an integer.
    constexpr bool is_integer() const noexcept { return kind == number_kind::integer; }
    /// The value as a double (an integer converted with round-to-nearest).
    constexpr double as_double() const noexcept {
        return kind == number_kind::integer ? static_cast<double>(integer) : floating;
    }
};

namespace internal {
inline value_result<number> number_from_scan(const char* first, const decimal_scan& s) noexcept {
    value_result<number> out;
    if (!s.floating) {
        out.value.kind = number_kind::integer;
        const value_result<std::int64_t> i = integer_from_scan<std::int64_t>(first, s);
        out.ptr = i.ptr;
        out.ec = i.ec;
        out.value.integer = i.value;
        if (i.ec == std::errc::result_out_of_range) // nearest double, for callers that want it
            out.value.floating = float_from_scan<double>(first, s).value;
        return out;
    }
    out.value.kind = number_kind::floating;
    const value_result<double> d = float_from_scan<double>(first, s);
    out.ptr = d.ptr;
    out.ec = d.ec;
    out.value.floating = d.value;
    return out;
}
inline value_result<number> parse_number_value_impl(std::string_view text, bool groups) noexcept {
    const char* first = text.data();
    const char* last = first + text.size();
    { // a whole short plain decimal (`-3`, `0.637474`, `1,577.51`): one pass, no fast_float
        const bool negative = first != last && *first == '-';
        const short_digits d = read_short_digits(first + (negative ? 1 : 0), last, groups);
        if (d.end != nullptr && d.end == last) { // (an empty view's null data is no number)
            value_result<number> out{{}, last, std::errc{}};
            const auto m = static_cast<std::int64_t>(d.m); // (< 10^15)
            if (d.fraction == 0) {
                out.value.kind = number_kind::integer;
                out.value.integer = negative ? -m : m;
            } else {
                const double x = static_cast<double>(d.m) / exact_powers_of_ten[d.fraction];
                out.value.kind = number_kind::floating;
                out.value.floating = negative ? -x : x;
            }
            return out;
        }
    }
    const decimal_scan s = scan_decimal(first, last, groups, true);
    if (!s.found) return {{}, first, std::errc::invalid_argument};
    if (s.end != last) return {{}, s.end, std::errc::invalid_argument};
    return number_from_scan(first, s);
}
} // namespace internal

/// Parses the whole of `text` as formats.md's "number": an `int64_t` when the text has no
/// fraction and no exponent, else a `double`. An integer text outside the `int64_t` range
/// gives `result_out_of_range` with `kind == integer` and `floating` set to the nearest
/// double (so a caller may fall back to it); a floating text beyond the double range gives
/// `result_out_of_range` with `floating` = ±infinity.
/// \code
/// auto n = logscan::parse_number_value("570");    // n.value.is_integer(), integer == 570
/// auto x = logscan::parse_number_value("0.38");   // kind == floating, floating == 0.38
/// \endcode
inline value_result<number> parse_number_value(std::string_view text) noexcept {
    return internal::parse_number_value_impl(text, false);
}

/// `parse_number_value` with `,` thousands separators allowed (`"97,226,683"` is the
/// integer 97226683, `"1,577.51"` the double 1577.51).
inline value_result<number> parse_grouped_value(std::string_view text) noexcept {
    return internal::parse_number_value_impl(text, true);
}

/// True when the whole of `text` is a number (`parse_number_value`; with `grouped`, `,`
/// thousands separators allowed too) or a non-finite number word (`nan`, `-inf`, ...:
/// `internal::non_finite_word`, formats.md's common rules): a value a table cell holds.
inline bool is_number_or_non_finite(std::string_view text, bool grouped = false) noexcept {
    double v = 0;
    return parse_number_value(text).ok() || (grouped && parse_grouped_value(text).ok()) || internal::non_finite_word(text, v);
}

// ---------------------------------------------------------------------------------------
// Percent
// ---------------------------------------------------------------------------------------

/// Parses a percentage at the start of [first, last): a (possibly grouped) decimal number,
/// optional spaces or tabs, and `%`. The value is in percent (`"424.52%"` gives 424.52, not
/// 4.2452); `ptr` is one past the `%`. A number without `%` is `invalid_argument` with `ptr`
/// where the `%` was expected.
inline value_result<double> parse_percent_prefix(const char* first, const char* last) noexcept {
    const internal::decimal_scan s = internal::scan_decimal(first, last, true, true);
    if (!s.found) return {0.0, first, std::errc::invalid_argument};
    const char* p = internal::skip_blanks(s.end, last);
    if (p == last || *p != '%') return {0.0, p, std::errc::invalid_argument};
    value_result<double> r = internal::float_from_scan<double>(first, s);
    if (r.ec != std::errc::invalid_argument) r.ptr = p + 1;
    return r;
}

/// Parses the whole of `text` as a percentage (see `parse_percent_prefix`):
/// `"100.00%"` gives 100.0, `"0.106%"` gives 0.106.
inline value_result<double> parse_percent(std::string_view text) noexcept {
    const char* last = text.data() + text.size();
    value_result<double> r = parse_percent_prefix(text.data(), last);
    if (r.ec != std::errc::invalid_argument && r.ptr != last)
        return {0.0, r.ptr, std::errc::invalid_argument};
    return r;
}

// ---------------------------------------------------------------------------------------
// Durations with a unit
// ---------------------------------------------------------------------------------------

/// A unit of time.
enum class time_unit : unsigned char {
    ns,  ///< nanosecond: `ns`, `nsec`
    us,  ///< microsecond: `us`, `usec`, `µs` (U+00B5), `μs` (U+03BC)
    ms,  ///< millisecond: `ms`, `msec`
    s,   ///< second: `s`, `sec`
    min, ///< minute: `min`
    h,   ///< hour: `h`
};

/// The canonical short name of a time unit (`"us"`, `"ms"`, ...).
constexpr std::string_view to_string(time_unit u) noexcept {
    switch (u) {
    case time_unit::ns: return "ns";
    case time_unit::us: return "us";
    case time_unit::ms: return "ms";
    case time_unit::s: return "s";
    case time_unit::min: return "min";
    case time_unit::h: return "h";
    }
    return "?";
}

/// Recognizes a time unit name (exactly, case-sensitive; list in `time_unit`). `ptr` is the
/// end of `name` on success, its start otherwise.
constexpr value_result<time_unit> parse_time_unit(std::string_view name) noexcept {
    const char* end = name.data() + name.size();
    if (name == "ns" || name == "nsec") return {time_unit::ns, end, std::errc{}};
    if (name == "us" || name == "usec" || name == "\xC2\xB5s" || name == "\xCE\xBCs")
        return {time_unit::us, end, std::errc{}};
    if (name == "ms" || name == "msec") return {time_unit::ms, end, std::errc{}};
    if (name == "s" || name == "sec") return {time_unit::s, end, std::errc{}};
    if (name == "min") return {time_unit::min, end, std::errc{}};
    if (name == "h") return {time_unit::h, end, std::errc{}};
    return {time_unit::s, name.data(), std::errc::invalid_argument};
}

/// Nanoseconds in one `u` (exact in a double).
constexpr double nanoseconds_per(time_unit u) noexcept {
    switch (u) {
    case time_unit::ns: return 1.0;
    case time_unit::us: return 1e3;
    case time_unit::ms: return 1e6;
    case time_unit::s: return 1e9;
    case time_unit::min: return 6e10;
    case time_unit::h: return 3.6e12;
    }
    return 1.0;
}

/// Converts `v` from unit `from` to unit `to` with one correctly rounded multiplication or
/// division by an exact factor: `convert(74.64, time_unit::ms, time_unit::s)` is
/// `74.64 / 1000`, `convert(1577.51, time_unit::us, time_unit::ms)` is `1577.51 / 1000`.
constexpr double convert(double v, time_unit from, time_unit to) noexcept {
    const double f = nanoseconds_per(from), t = nanoseconds_per(to);
    return f >= t ? v * (f / t) : v / (t / f);
}

/// A number with a time unit, as written (`74.64 ms` is `{74.64, time_unit::ms}`).
struct time_quantity {
    double value = 0;              ///< the number as written
    time_unit unit = time_unit::s; ///< its unit

    /// The value in unit `u` (see `convert`).
    constexpr double in(time_unit u) const noexcept { return convert(value, unit, u); }
    /// The value in seconds.
    constexpr double seconds() const noexcept { return in(time_unit::s); }
};

/// Parses a duration with a unit at the start of [first, last): a (possibly grouped)
/// decimal number, optional spaces or tabs, and a time unit word that ends at a byte which
/// is not a letter (`"26.04msec(si3.31"` gives 26.04 msec, `ptr` at `(`). The unit is
/// required: a bare number is `invalid_argument` (use `parse_number` and `convert` for
/// numbers whose unit is given elsewhere, such as a `Duration (us)` column).
inline value_result<time_quantity> parse_time_prefix(const char* first, const char* last) noexcept {
    const internal::decimal_scan s = internal::scan_decimal(first, last, true, true);
    if (!s.found) return {{}, first, std::errc::invalid_argument};
    const char* u = internal::skip_blanks(s.end, last);
    const char* ue = internal::unit_word_end(u, last);
    const value_result<time_unit> unit = parse_time_unit({u, static_cast<std::size_t>(ue - u)});
    if (!unit.ok()) return {{}, u, std::errc::invalid_argument};
    const value_result<double> v = internal::float_from_scan<double>(first, s);
    if (v.ec == std::errc::invalid_argument) return {{}, v.ptr, v.ec};
    return {{v.value, unit.value}, ue, v.ec};
}

/// Parses the whole of `text` as a duration with a unit (see `parse_time_prefix`):
/// `"74.64 ms"`, `"26.04msec"`, `"13.13 ms"`, `"3 s"`.
inline value_result<time_quantity> parse_time(std::string_view text) noexcept {
    const char* last = text.data() + text.size();
    value_result<time_quantity> r = parse_time_prefix(text.data(), last);
    if (r.ec != std::errc::invalid_argument && r.ptr != last)
        return {{}, r.ptr, std::errc::invalid_argument};
    return r;
}

// ---------------------------------------------------------------------------------------
// Clock durations: H:MM:SS, N days, H:MM:SS
// ---------------------------------------------------------------------------------------

namespace internal {
/// Reads digits [p, last) into an int64 with overflow detection; returns the end or null.
constexpr const char* read_uint(const char* p, const char* last, std::int64_t& out,
                                bool& overflow) noexcept {
    std::int64_t v = 0;
    const char* q = p;
    for (; q != last && is_digit(*q); ++q) {
        const std::int64_t d = static_cast<std::int64_t>(digit_value(*q));
        if (v > (std::numeric_limits<std::int64_t>::max() - d) / 10)
            overflow = true;
        else
            v = v * 10 + d;
    }
    out = v;
    return q == p ? nullptr : q;
}
constexpr bool mul_add(std::int64_t& acc, std::int64_t mul, std::int64_t add) noexcept {
    std::int64_t t = 0;
    if (__builtin_mul_overflow(acc, mul, &t)) return false;
    return !__builtin_add_overflow(t, add, &acc);
}
} // namespace internal

/// Value types of the clock-duration parsers: seconds as `double` or as `std::int64_t`.
template <class T>
concept clock_value = std::same_as<T, double> || std::same_as<T, std::int64_t>;

/// Parses a clock duration at the start of [first, last), as Python's `timedelta` prints
/// it: `H:MM:SS` or `D day, H:MM:SS` / `D days, H:MM:SS` (one or more spaces after the
/// comma), with optional fractional seconds `H:MM:SS.ffffff`. `H` has one or more digits;
/// `MM` and `SS` have two and are below 60. `D` may be negative, as Python prints negative
/// durations (`-1 day, 23:59:59` is -1 s); no other sign is accepted. The value is in
/// seconds: `1:31:44` gives 5504, `2 days, 1:31:44` gives 178304. For an integer `T`
/// fractional seconds are `invalid_argument` (with `ptr` at the `.`); a total that does not
/// fit `int64_t` (or `T`) is `result_out_of_range`. Two-part `MM:SS` is not accepted.
template <clock_value T = double>
constexpr value_result<T> parse_clock_duration_prefix(const char* first,
                                                      const char* last) noexcept {
    using internal::is_digit;
    bool overflow = false;
    const char* p = first;
    std::int64_t days = 0;
    {
        // "[-]D day[s], " ?
        const char* q = p;
        const bool neg = q != last && *q == '-';
        if (neg) ++q;
        std::int64_t d = 0;
        bool ovf = false;
        const char* e = internal::read_uint(q, last, d, ovf);
        if (e && last - e >= 4 && e[0] == ' ' && e[1] == 'd' && e[2] == 'a' && e[3] == 'y') {
            e += 4;
            if (e != last && *e == 's') ++e;
            if (e != last && *e == ',' && last - e >= 2 && e[1] == ' ') {
                e = internal::skip_blanks(e + 1, last);
                days = neg ? -d : d;
                overflow = ovf;
                p = e;
            } else {
                return {T{}, e, std::errc::invalid_argument};
            }
        }
    }
    std::int64_t h = 0;
    const char* e = internal::read_uint(p, last, h, overflow);
    if (!e) return {T{}, p, std::errc::invalid_argument};
    std::int64_t mm = 0, ss = 0;
    for (std::int64_t* part : {&mm, &ss}) {
        if (e == last || *e != ':') return {T{}, e, std::errc::invalid_argument};
        if (last - e < 3 || !is_digit(e[1]) || !is_digit(e[2]) || (last - e > 3 && is_digit(e[3])))
            return {T{}, e + 1, std::errc::invalid_argument};
        *part = static_cast<std::int64_t>(internal::digit_value(e[1]) * 10 +
                                          internal::digit_value(e[2]));
        if (*part >= 60) return {T{}, e + 1, std::errc::invalid_argument};
        e += 3;
    }
    const char* frac_begin = e;
    if (e != last && *e == '.' && last - e >= 2 && is_digit(e[1])) {
        if constexpr (std::is_integral_v<T>) return {T{}, e, std::errc::invalid_argument};
        e += 2;
        while (e != last && is_digit(*e)) ++e;
    }
    std::int64_t total = days;
    if (overflow || !internal::mul_add(total, 24, h) || !internal::mul_add(total, 60, mm) ||
        !internal::mul_add(total, 60, ss))
        return {T{}, e, std::errc::result_out_of_range};
    if constexpr (std::is_integral_v<T>) {
        return {total, e, std::errc{}};
    } else {
        double v = static_cast<double>(total);
        if (e != frac_begin) {
            // "SS.fff" parsed whole, added to the whole minutes (one rounding each)
            double sec = 0;
            (void)fast_float::from_chars(frac_begin - 2, e, sec);
            v = static_cast<double>(total - ss) + sec;
        }
        return {v, e, std::errc{}};
    }
}

/// Parses the whole of `text` as a clock duration (see `parse_clock_duration_prefix`):
/// `"5:05:37"` gives 18337 s, `"2 days, 1:31:44"` gives 178304 s.
template <clock_value T = double>
constexpr value_result<T> parse_clock_duration(std::string_view text) noexcept {
    const char* last = text.data() + text.size();
    value_result<T> r = parse_clock_duration_prefix<T>(text.data(), last);
    if (r.ec != std::errc::invalid_argument && r.ptr != last)
        return {T{}, r.ptr, std::errc::invalid_argument};
    return r;
}

// ---------------------------------------------------------------------------------------
// Byte sizes
// ---------------------------------------------------------------------------------------

/// A unit of data size. Decimal units are powers of 1000, binary units (`i`) of 1024.
enum class byte_unit : unsigned char {
    B,   ///< byte: `B`, `byte`, `bytes`
    kB,  ///< 1000 bytes: `kB`, `KB`
    KiB, ///< 1024 bytes: `KiB`
    MB,  ///< 1000² bytes: `MB`
    MiB, ///< 1024² bytes: `MiB`
    GB,  ///< 1000³ bytes: `GB`
    GiB, ///< 1024³ bytes: `GiB`
    TB,  ///< 1000⁴ bytes: `TB`
    TiB, ///< 1024⁴ bytes: `TiB`
    PB,  ///< 1000⁵ bytes: `PB`
    PiB, ///< 1024⁵ bytes: `PiB`
};

/// The canonical name of a byte unit (`"B"`, `"kB"`, `"MiB"`, ...).
constexpr std::string_view to_string(byte_unit u) noexcept {
    switch (u) {
    case byte_unit::B: return "B";
    case byte_unit::kB: return "kB";
    case byte_unit::KiB: return "KiB";
    case byte_unit::MB: return "MB";
    case byte_unit::MiB: return "MiB";
    case byte_unit::GB: return "GB";
    case byte_unit::GiB: return "GiB";
    case byte_unit::TB: return "TB";
    case byte_unit::TiB: return "TiB";
    case byte_unit::PB: return "PB";
    case byte_unit::PiB: return "PiB";
    }
    return "?";
}

/// Recognizes a byte unit name (exactly, case-sensitive; list in `byte_unit`). `ptr` is the
/// end of `name` on success, its start otherwise.
constexpr value_result<byte_unit> parse_byte_unit(std::string_view name) noexcept {
    const char* end = name.data() + name.size();
    if (name == "B" || name == "byte" || name == "bytes") return {byte_unit::B, end, std::errc{}};
    if (name == "kB" || name == "KB") return {byte_unit::kB, end, std::errc{}};
    constexpr std::string_view names[] = {"",    "",   "KiB", "MB", "MiB", "GB",
                                          "GiB", "TB", "TiB", "PB", "PiB"};
    for (std::size_t i = 2; i < std::size(names); ++i)
        if (name == names[i]) return {static_cast<byte_unit>(i), end, std::errc{}};
    return {byte_unit::B, name.data(), std::errc::invalid_argument};
}

/// Bytes in one `u` (exact in a double).
constexpr double bytes_per(byte_unit u) noexcept {
    switch (u) {
    case byte_unit::B: return 1.0;
    case byte_unit::kB: return 1e3;
    case byte_unit::KiB: return 1024.0;
    case byte_unit::MB: return 1e6;
    case byte_unit::MiB: return 1048576.0;
    case byte_unit::GB: return 1e9;
    case byte_unit::GiB: return 1073741824.0;
    case byte_unit::TB: return 1e12;
    case byte_unit::TiB: return 1099511627776.0;
    case byte_unit::PB: return 1e15;
    case byte_unit::PiB: return 1125899906842624.0;
    }
    return 1.0;
}

/// Converts `v` from byte unit `from` to `to` (one correctly rounded multiplication or
/// division by the exact ratio when one factor divides the other, else via bytes).
constexpr double convert(double v, byte_unit from, byte_unit to) noexcept {
    const double f = bytes_per(from), t = bytes_per(to);
    const double r = f >= t ? f / t : t / f; // integral when one factor divides the other
    if (r == static_cast<double>(static_cast<std::int64_t>(r))) return f >= t ? v * r : v / r;
    return v * f / t;
}

/// A number with a byte unit, as written (`196.00MiB` is `{196.0, byte_unit::MiB}`).
struct byte_size {
    double value = 0;              ///< the number as written
    byte_unit unit = byte_unit::B; ///< its unit

    /// The size in bytes (`value * bytes_per(unit)`, one rounding; exact for integral
    /// results below 2^53).
    constexpr double bytes() const noexcept { return value * bytes_per(unit); }
    /// The size in unit `u` (see `convert`).
    constexpr double in(byte_unit u) const noexcept { return convert(value, unit, u); }
};

/// Parses a byte size at the start of [first, last): a (possibly grouped) decimal number,
/// optional spaces or tabs, and a byte unit word ending at a byte that is not a letter
/// (`"196.00MiB( 205520896bytes)"` gives 196 MiB, `ptr` at `(`). The unit is required. The
/// number may be negative: `-1 MB` is -1000000 bytes, a change in memory.
inline value_result<byte_size> parse_byte_size_prefix(const char* first,
                                                      const char* last) noexcept {
    const internal::decimal_scan s = internal::scan_decimal(first, last, true, true);
    if (!s.found) return {{}, first, std::errc::invalid_argument};
    const char* u = internal::skip_blanks(s.end, last);
    const char* ue = internal::unit_word_end(u, last);
    const value_result<byte_unit> unit = parse_byte_unit({u, static_cast<std::size_t>(ue - u)});
    if (!unit.ok()) return {{}, u, std::errc::invalid_argument};
    const value_result<double> v = internal::float_from_scan<double>(first, s);
    if (v.ec == std::errc::invalid_argument) return {{}, v.ptr, v.ec};
    return {{v.value, unit.value}, ue, v.ec};
}

/// Parses the whole of `text` as a byte size (see `parse_byte_size_prefix`):
/// `"196.00MiB"`, `"205520896bytes"`, `"1234 MB"`.
inline value_result<byte_size> parse_byte_size(std::string_view text) noexcept {
    const char* last = text.data() + text.size();
    value_result<byte_size> r = parse_byte_size_prefix(text.data(), last);
    if (r.ec != std::errc::invalid_argument && r.ptr != last)
        return {{}, r.ptr, std::errc::invalid_argument};
    return r;
}

// ---------------------------------------------------------------------------------------
// Shape lists
// ---------------------------------------------------------------------------------------

/// A shape list such as `(4, 64, 224, 224)`, `(32,)`, `()`, `[1, 784]`, `{128,128,3,3}` or
/// `float32[1, 784]`, parsed once: the first `inline_dims` dims are kept in the object (what
/// most shapes are), a longer list is iterated lazily from its text; no allocation.
///
/// Grammar: an optional dtype (`[A-Za-z_][A-Za-z0-9_]*`) directly before the opening
/// bracket; `(`, `[` or `{` and its matching closer; dims separated by `,`, each an
/// optionally signed decimal integer that fits `int64_t` (`-1` is kept, as frameworks use it
/// for unknown dims); spaces and tabs allowed after the opener, around commas and before the
/// closer; one trailing comma allowed after the last dim (`(32,)`). Nothing else: `(,)`,
/// `(1,,2)`, `(1 2)`, nested lists, `None` and `?` dims are invalid.
///
/// A malformed list has `ok() == false`, `error()` telling why (`invalid_argument`, or
/// `result_out_of_range` for a dim beyond `int64_t`), `ptr()` at the offending byte, and
/// iterates as empty.
/// \code
/// auto s = logscan::shape_dims("(4, 64, 224, 224)");
/// std::int64_t n = 1;
/// if (s.ok()) for (std::int64_t d : s) n *= d;           // s.size() == 4
/// \endcode
namespace internal {
struct shape_builder;
}

class shape_list {
    friend struct internal::shape_builder;
public:
    /// Forward iterator over the dims; dereferences to `std::int64_t`.
    class iterator : public internal::iterator_ops<iterator> {
    public:
        using iterator_category = std::input_iterator_tag; // dereferences to a value
        using iterator_concept = std::forward_iterator_tag;
        using value_type = std::int64_t;
        using difference_type = std::ptrdiff_t;
        using reference = std::int64_t;
        using pointer = void;

        /// A singular iterator (compares equal only to other default-constructed ones).
        constexpr iterator() noexcept = default;
        /// The current dim.
        constexpr std::int64_t operator*() const noexcept { return kept_ ? *kept_ : value_; }
        /// Advances to the next dim.
        constexpr iterator& operator++() noexcept {
            if (kept_) [[likely]] ++kept_;
            else *this = next_of(*this);
            return *this;
        }
        /// Same position in the same list.
        friend constexpr bool operator==(const iterator& a, const iterator& b) noexcept {
            return a.kept_ == b.kept_ && a.pos_ == b.pos_;
        }

    private:
        friend class shape_list;
        constexpr iterator(const char* p, const char* close) noexcept : close_(close) { load(p); }
        // At a dim the list keeps (the list outlives the iterator: see `begin`)
        constexpr explicit iterator(const std::int64_t* kept) noexcept : kept_(kept) {}
        // The iterator after `i`, read from the text (out of line, by value: a walk over kept
        // dims keeps its iterator in registers)
        [[gnu::noinline]] static constexpr iterator next_of(iterator i) noexcept {
            i.load(i.next_);
            return i;
        }
        // Positions at the dim at or after p (skipping blanks and a comma), or the end.
        constexpr void load(const char* p) noexcept {
            while (p != close_ && (internal::is_blank(*p) || *p == ',')) ++p;
            pos_ = p;
            if (p == close_) return;
            const internal::decimal_scan s = internal::scan_decimal(p, close_, false, false);
            value_ = internal::accumulate_integer<std::int64_t>(s.digits, s.end, s.negative).value;
            next_ = s.end;
        }
        const char* pos_ = nullptr;
        const char* next_ = nullptr;
        const char* close_ = nullptr;
        std::int64_t value_ = 0;
        const std::int64_t* kept_ = nullptr; // the current dim in the list's kept dims, or null: read from the text
    };

    /// How many dims a list keeps in itself (a longer list re-reads its text when iterated).
    static constexpr std::size_t inline_dims = 8;

    /// An empty, invalid list.
    constexpr shape_list() noexcept = default;

    /// Parses the shape list at the start of [first, last); `ptr()` is one past its closing
    /// bracket (see `parse_shape_prefix`).
    constexpr shape_list(const char* first, const char* last) noexcept { parse(first, last); }
    /// Parses the shape list at the start of [first, last) into this list, as the constructor
    /// does, in place (a list kept in a record is refilled without a copy).
    LOGSCAN_FORCE_INLINE constexpr void assign(const char* first, const char* last) noexcept {
        open_ = close_ = ptr_ = nullptr;
        dtype_ = {};
        count_ = 0;
        ec_ = std::errc::invalid_argument;
        parse(first, last);
    }

    /// True when the list is well formed.
    constexpr bool ok() const noexcept { return ec_ == std::errc{}; }
    /// Same as `ok()`.
    constexpr explicit operator bool() const noexcept { return ok(); }
    /// `std::errc{}`, `invalid_argument` or `result_out_of_range`.
    constexpr std::errc error() const noexcept { return ec_; }
    /// One past the closing bracket when `ok()`, else the offending byte.
    constexpr const char* ptr() const noexcept { return ptr_; }
    /// Number of dims (0 for `()`, or when not `ok()`).
    constexpr std::size_t size() const noexcept { return ok() ? count_ : 0; }
    /// True when there are no dims.
    constexpr bool empty() const noexcept { return size() == 0; }
    /// The dtype before the bracket (`"float32"` in `float32[1, 784]`), empty if none.
    constexpr std::string_view dtype() const noexcept { return dtype_; }
    /// The bracketed list including its brackets, e.g. `"[1, 784]"` (empty when not `ok()`).
    constexpr std::string_view brackets() const noexcept {
        return ok() ? std::string_view(open_, static_cast<std::size_t>(ptr_ - open_))
                    : std::string_view{};
    }
    /// First dim (equals `end()` when there is none or the list is invalid). On a list that
    /// is named (a record's field, a variable, a range-for's range) the iterator walks the
    /// dims kept in it (valid while the list lives unchanged; iterators of two copies of a
    /// list are not comparable); on a temporary (`shape_dims("(1, 2)").begin()`), the text,
    /// which outlives it. A `begin` and an `end` come from the same list, both named or both
    /// temporary.
    constexpr iterator begin() const& noexcept {
        if (ok() && count_ <= inline_dims) [[likely]] return iterator(kept_);
        return ok() ? text_iterator(open_ + 1, close_) : text_iterator(close_, close_);
    }
    /// Past the last dim.
    constexpr iterator end() const& noexcept {
        if (ok() && count_ <= inline_dims) [[likely]] return iterator(kept_ + count_);
        return text_iterator(close_, close_);
    }
    // An iterator that reads the dims from the text at p (out of line: the dims kept in the
    // list are what loops over a list walk, and they stay small)
    [[gnu::noinline]] static constexpr iterator text_iterator(const char* p, const char* close) noexcept {
        return iterator(p, close);
    }
    /// First dim of a temporary list: read from the text.
    constexpr iterator begin() const&& noexcept { return ok() ? iterator(open_ + 1, close_) : iterator(close_, close_); }
    /// Past the last dim of a temporary list.
    constexpr iterator end() const&& noexcept { return iterator(close_, close_); }

    /// The product of the dims (1 for `()`); `result_out_of_range` if it overflows `int64_t`,
    /// `invalid_argument` if the list is invalid or a dim is negative.
    constexpr value_result<std::int64_t> element_count() const noexcept {
        if (!ok()) return {0, ptr_, std::errc::invalid_argument};
        std::int64_t n = 1;
        for (std::int64_t d : *this) {
            if (d < 0) return {0, ptr_, std::errc::invalid_argument};
            if (__builtin_mul_overflow(n, d, &n)) return {0, ptr_, std::errc::result_out_of_range};
        }
        return {n, ptr_, std::errc{}};
    }

private:
    constexpr void fail(const char* at, std::errc ec) noexcept {
        ptr_ = at;
        ec_ = ec;
        count_ = 0;
        dtype_ = {};
    }
    // One pass, shaped for the usual `(4, 3, 224, 224)`: after a dim, `,` with one space and
    // the next dim's digit, or the closer, are taken without a blank loop; the count stays
    // in a register until the end. Blanks, signs, a trailing comma go the same loop's
    // slower branches; any other byte ends it invalid.
    LOGSCAN_FORCE_INLINE constexpr void parse(const char* first, const char* last) noexcept {
        using internal::is_blank;
        using internal::is_digit;
        const char* p = first;
        if (p != last && (internal::is_alpha(*p) || *p == '_')) {
            while (p != last && (internal::is_alpha(*p) || is_digit(*p) || *p == '_')) ++p;
            dtype_ = {first, static_cast<std::size_t>(p - first)};
        }
        if (p == last) return fail(p, std::errc::invalid_argument);
        char closer = 0;
        switch (*p) {
        case '(': closer = ')'; break;
        case '[': closer = ']'; break;
        case '{': closer = '}'; break;
        default: return fail(p, std::errc::invalid_argument);
        }
        open_ = p++;
        if (parse_plain(p, last, closer)) [[likely]] return;
        std::size_t n = 0;
        p = internal::skip_blanks(p, last);
        if (p != last && *p == closer) return finish(p, n);
        for (;;) { // at a dim, `[+-]digits`
            const char* q = p;
            bool negative = false;
            if (LOGSCAN_UNLIKELY(q == last || !is_digit(*q))) { // a sign, or no dim
                if (q != last && (*q == '-' || *q == '+')) negative = *q++ == '-';
                if (q == last || !is_digit(*q)) return fail(p, std::errc::invalid_argument);
            }
            const char* const digits = q;
            std::uint64_t acc = internal::digit_value(*q++);
            while (q != last && is_digit(*q)) acc = acc * 10u + internal::digit_value(*q++);
            std::int64_t dim = 0;
            if (LOGSCAN_LIKELY(q - digits <= 18)) { // (18 digits cannot overflow)
                dim = negative ? -static_cast<std::int64_t>(acc) : static_cast<std::int64_t>(acc);
            } else { // (acc may have wrapped: read again with the overflow test)
                const value_result<std::int64_t> d = internal::accumulate_integer<std::int64_t>(digits, q, negative);
                if (!d.ok()) return fail(p, std::errc::result_out_of_range);
                dim = d.value;
            }
            if (n < inline_dims) kept_[n] = dim;
            ++n;
            if (q == last) return fail(q, std::errc::invalid_argument);
            if (*q == closer) return finish(q, n);
            if (*q != ',') { // blanks before the comma or the closer
                p = internal::skip_blanks(q, last);
                if (p == last) return fail(p, std::errc::invalid_argument);
                if (*p == closer) return finish(p, n);
                if (*p != ',') return fail(p, std::errc::invalid_argument);
                q = p;
            }
            p = q + 1; // past the comma
            if (p != last && *p == ' ') ++p;
            if (p != last && is_digit(*p)) continue;
            p = internal::skip_blanks(p, last);
            if (p != last && *p == closer) return finish(p, n); // `(32,)`
        }
    }
    // The usual list, `d, d, d)` or `d,d)` from the byte after the opener: dims of 1 to 18
    // digits (no sign, no blank before a dim or a comma, one space at most after a comma), in
    // one loop with one end test per digit; true when it read the list to its closer. Any
    // other list (empty, signed, blanks, a trailing comma, a 19-digit dim, a bad byte, cut)
    // is false, and the general loop reads it from the start (the kept dims it wrote are
    // written again).
    LOGSCAN_FORCE_INLINE constexpr bool parse_plain(const char* p, const char* last, char closer) noexcept {
        using internal::is_digit;
        std::size_t n = 0;
        for (;;) {
            const char* const limit = last - p > 18 ? p + 18 : last; // (18 digits cannot overflow)
            if (p == limit || !is_digit(*p)) return false;
            std::uint64_t acc = internal::digit_value(*p++);
            while (p != limit && is_digit(*p)) acc = acc * 10u + internal::digit_value(*p++);
            if (p == last) return false;
            if (n < inline_dims) kept_[n] = static_cast<std::int64_t>(acc);
            ++n;
            if (*p == closer) {
                finish(p, n);
                return true;
            }
            if (*p != ',') return false; // (a 19th digit, a blank, another byte)
            ++p;
            if (p != last && *p == ' ') ++p;
        }
    }
    constexpr void finish(const char* close, std::size_t n) noexcept {
        count_ = n;
        close_ = close;
        ptr_ = close + 1;
        ec_ = std::errc{};
    }
    friend class shape_memo;
    // The same list read from a copy of its text at `to` (its text was at `from`).
    constexpr void rebase(const char* from, const char* to) noexcept {
        const auto moved = [&](const char* q) { return q == nullptr ? q : to + (q - from); };
        open_ = moved(open_);
        close_ = moved(close_);
        ptr_ = moved(ptr_);
        if (!dtype_.empty()) dtype_ = std::string_view(moved(dtype_.data()), dtype_.size());
    }

    const char* open_ = nullptr;
    const char* close_ = nullptr;
    const char* ptr_ = nullptr;
    std::string_view dtype_{};
    std::size_t count_ = 0;
    std::errc ec_ = std::errc::invalid_argument;
    std::int64_t kept_[inline_dims]{}; // the first dims
};


/// The last well-formed shape list read, with a copy of its text (up to `capacity` bytes):
/// the same text again is not parsed again. What the lines of a shape dump print one after
/// another, the same shape for every replica of a var (`conv1@0: (4, 64, 112, 112)`,
/// `conv1@1: (4, 64, 112, 112)`, ...), costs one compare. `assign(list, first, last)` gives
/// `list` what `list.assign(first, last)` does (a well-formed list is decided by its bytes up
/// to its closer, whatever follows them); a memo belongs to one reader (it is not shared
/// between threads).
class shape_memo {
public:
    /// The longest text remembered.
    static constexpr std::size_t capacity = 48;
    constexpr shape_memo() noexcept = default;
    /// A copy remembers the same text (its list then points into the copy's own text).
    constexpr shape_memo(const shape_memo& o) noexcept { *this = o; }
    constexpr shape_memo& operator=(const shape_memo& o) noexcept {
        if (this == &o) return *this;
        for (std::size_t i = 0; i < o.size_; ++i) text_[i] = o.text_[i];
        size_ = o.size_;
        kept_ = o.kept_;
        if (size_ != 0) kept_.rebase(o.text_, text_);
        return *this;
    }
    /// `list.assign(first, last)`, from the memo when [first, last) begins with its text.
    LOGSCAN_FORCE_INLINE constexpr void assign(shape_list& list, const char* first, const char* last) noexcept {
        if (size_ != 0 && static_cast<std::size_t>(last - first) >= size_ && same(first)) {
            list = kept_;
            list.rebase(text_, first);
            return;
        }
        list.assign(first, last);
        size_ = 0;
        if (!list.ok() || static_cast<std::size_t>(list.ptr() - first) > capacity) return;
        size_ = static_cast<std::size_t>(list.ptr() - first);
        for (std::size_t i = 0; i < size_; ++i) text_[i] = first[i];
        kept_ = list;
        kept_.rebase(first, text_);
    }
    /// Forgets the text remembered.
    constexpr void clear() noexcept { size_ = 0; }

private:
    constexpr bool same(const char* p) const noexcept {
        if (std::is_constant_evaluated()) {
            for (std::size_t i = 0; i < size_; ++i)
                if (p[i] != text_[i]) return false;
            return true;
        }
        return internal::same_bytes(p, text_, size_);
    }
    char text_[capacity]{};
    std::size_t size_ = 0;
    shape_list kept_{};
};

/// Parses a shape list at the start of [first, last) (see `shape_list`); `ptr()` of the
/// result is one past its closing bracket, e.g. at the `,` in
/// `"float32[1, 1, 56, 56, 64], float32[2, 1, 3, 3]"`.
constexpr shape_list parse_shape_prefix(const char* first, const char* last) noexcept {
    return shape_list(first, last);
}

/// Parses the whole of `text` as a shape list (see `shape_list`); trailing bytes make it
/// invalid (`ptr()` at the first of them).
/// \code
/// for (std::int64_t d : logscan::shape_dims("(32,)")) ...   // one dim: 32
/// logscan::shape_dims("float32[1, 784]").dtype()             // "float32"
/// logscan::shape_dims("(1,,2)").ok()                         // false
/// \endcode
constexpr shape_list shape_dims(std::string_view text) noexcept {
    const char* last = text.data() + text.size();
    shape_list s(text.data(), last); // (one object, returned in place)
    if (s.ok() && s.ptr() != last) s = shape_list(s.ptr(), s.ptr()); // invalid at the first trailing byte
    return s;
}

/// Several shape lists separated by `,` (spaces or tabs around it allowed), as TVM prints
/// argument shapes: `"float32[1, 1, 56, 56, 64], float32[2, 1, 3, 3, 64, 32]"`. Validated
/// once, iterated lazily as `shape_list`s, no storage. An empty text is a valid, empty
/// sequence; a malformed one has `ok() == false`, `ptr()` at the offending byte, and iterates
/// as empty.
/// \code
/// for (const logscan::shape_list& s : logscan::shape_lists(cell))
///     std::printf("%.*s with %zu dims\n", int(s.dtype().size()), s.dtype().data(), s.size());
/// \endcode
class shape_sequence {
    friend struct internal::shape_builder;
public:
    /// Input iterator over the shape lists.
    class iterator : public internal::iterator_ops<iterator> {
    public:
        using iterator_category = std::input_iterator_tag;
        using iterator_concept = std::forward_iterator_tag;
        using value_type = shape_list;
        using difference_type = std::ptrdiff_t;
        using reference = shape_list;
        using pointer = void;

        /// A singular iterator.
        constexpr iterator() noexcept = default;
        /// The current shape list.
        constexpr shape_list operator*() const noexcept { return cur_; }
        /// Advances to the next shape list.
        constexpr iterator& operator++() noexcept {
            load(cur_.ptr());
            return *this;
        }
        /// Same position in the same sequence.
        friend constexpr bool operator==(const iterator& a, const iterator& b) noexcept {
            return a.pos_ == b.pos_;
        }

    private:
        friend class shape_sequence;
        constexpr iterator(const char* p, const char* last) noexcept : last_(last) { load(p); }
        constexpr void load(const char* p) noexcept {
            p = internal::skip_blanks(p, last_);
            if (p != last_ && *p == ',') p = internal::skip_blanks(p + 1, last_);
            pos_ = p;
            if (p != last_) {
                cur_ = shape_list(p, last_);
                if (!cur_.ok()) pos_ = last_; // (none in a checked sequence; one made unchecked ends there, never loops)
            }
        }
        const char* pos_ = nullptr;
        const char* last_ = nullptr;
        shape_list cur_{};
    };

    /// An empty, valid sequence.
    constexpr shape_sequence() noexcept = default;
    /// Validates `text` (see the class comment).
    constexpr explicit shape_sequence(std::string_view text) noexcept
        : first_(text.data()), last_(text.data() + text.size()) {
        const char* p = internal::skip_blanks(first_, last_);
        while (p != last_) {
            const shape_list s(p, last_);
            if (!s.ok()) {
                fail(s.ptr(), s.error());
                return;
            }
            ++count_;
            p = internal::skip_blanks(s.ptr(), last_);
            if (p == last_) break;
            if (*p != ',') {
                fail(p, std::errc::invalid_argument);
                return;
            }
            p = internal::skip_blanks(p + 1, last_);
            if (p == last_) {
                fail(p, std::errc::invalid_argument); // a trailing ','
                return;
            }
        }
        ptr_ = last_;
    }
    /// True when every shape list is well formed and correctly separated.
    constexpr bool ok() const noexcept { return ec_ == std::errc{}; }
    /// Same as `ok()`.
    constexpr explicit operator bool() const noexcept { return ok(); }
    /// `std::errc{}`, `invalid_argument` or `result_out_of_range`.
    constexpr std::errc error() const noexcept { return ec_; }
    /// The end of the text when `ok()`, else the offending byte.
    constexpr const char* ptr() const noexcept { return ptr_; }
    /// Number of shape lists (0 when not `ok()`).
    constexpr std::size_t size() const noexcept { return ok() ? count_ : 0; }
    /// True when there is no shape list.
    constexpr bool empty() const noexcept { return size() == 0; }
    /// First shape list.
    constexpr iterator begin() const noexcept {
        return ok() ? iterator(first_, last_) : iterator(last_, last_);
    }
    /// Past the last shape list.
    constexpr iterator end() const noexcept { return iterator(last_, last_); }

private:
    constexpr void fail(const char* at, std::errc ec) noexcept {
        ptr_ = at;
        ec_ = ec;
        count_ = 0;
    }
    const char* first_ = nullptr;
    const char* last_ = nullptr;
    const char* ptr_ = nullptr;
    std::size_t count_ = 0;
    std::errc ec_{};
};

/// Parses `text` as a sequence of shape lists separated by `,` (see `shape_sequence`).
constexpr shape_sequence shape_lists(std::string_view text) noexcept {
    return shape_sequence(text);
}

namespace internal {
/// Shape lists whose dims were read elsewhere (json_project's integer arrays), made without
/// reading their text again.
struct shape_builder {
    /// A list: `brackets` is its compact text, its two brackets at least (`[1,2,3]`, `[]`: what
    /// a list of more than `inline_dims` dims is iterated from), and `dims` its first
    /// `min(n, inline_dims)` dims, `n` in all.
    static constexpr shape_list of(std::string_view brackets, const std::int64_t* dims, std::size_t n) noexcept {
        shape_list s;
        s.open_ = brackets.data();
        s.close_ = brackets.data() + brackets.size() - 1;
        s.ptr_ = brackets.data() + brackets.size();
        s.count_ = n;
        s.ec_ = std::errc{};
        for (std::size_t i = 0; i < n && i < shape_list::inline_dims; ++i) s.kept_[i] = dims[i];
        return s;
    }
    /// A sequence of `n` lists known valid: `text` is their compact texts joined by `,`
    /// (`[1,2],[3]`; empty for none), each dim an integer that fits `int64_t`.
    static constexpr shape_sequence sequence(std::string_view text, std::size_t n) noexcept {
        shape_sequence s;
        s.first_ = text.data();
        s.last_ = s.ptr_ = text.data() + text.size();
        s.count_ = n;
        return s;
    }
};
} // namespace internal

// ---------------------------------------------------------------------------------------
// A cursor for one-pass hand readers
// ---------------------------------------------------------------------------------------

/// A cursor over one line for one-pass hand readers (the readers of assisted rules, the
/// small fixed grammars of a format's lines): each step checks the piece at the cursor and
/// consumes it, or returns false. A step that returns false may have moved the cursor: a
/// reader gives up on the line then. Numbers are converted in the same pass that finds them.
/// The character classes are the regex engine's (`\d`: ASCII digits; `\s`: space, tab,
/// `\n`, `\r`, `\f`, `\v`), so a reader written with it says exactly what its pattern says.
/// \code
/// logscan::text_cursor c("12 4096 conv1/W");           // `(\d+)\s+(\d+)\s+(\S.*)`
/// std::uint64_t id, size;
/// std::string_view name;
/// bool ok = c.unsigned_integer(id) && c.whitespace() && c.unsigned_integer(size) && c.whitespace() &&
///           c.rest(name);                              // name == "conv1/W"
/// \endcode
class text_cursor {
public:
    /// At the start of `text`.
    constexpr explicit text_cursor(std::string_view text) noexcept
        : p_(text.data()), e_(text.data() + text.size()) {}
    /// True when all of the text is consumed.
    constexpr bool at_end() const noexcept { return p_ == e_; }
    /// The unconsumed text.
    constexpr std::string_view rest_view() const noexcept { return {p_, static_cast<std::size_t>(e_ - p_)}; }
    /// The exact bytes `s` (`literal("MiB(")`).
    LOGSCAN_FORCE_INLINE constexpr bool literal(std::string_view s) noexcept {
        if (static_cast<std::size_t>(e_ - p_) < s.size()) return false;
        if (std::is_constant_evaluated() ? std::string_view(p_, s.size()) != s : !internal::same_bytes(p_, s.data(), s.size()))
            return false;
        p_ += s.size();
        return true;
    }
    /// `\d+` as an unsigned integer (false when there is no digit, or the value does not fit).
    LOGSCAN_FORCE_INLINE constexpr bool unsigned_integer(std::uint64_t& v) noexcept {
        const char* const b = p_;
        std::uint64_t acc = 0;
        while (p_ != e_ && internal::is_digit(*p_)) acc = acc * 10u + internal::digit_value(*p_++);
        if (p_ == b) return false;
        if (p_ - b > 19) { // (up to 19 digits cannot overflow; past that acc may have wrapped)
            const value_result<std::uint64_t> r = internal::accumulate_integer<std::uint64_t>(b, p_, false);
            if (!r.ok()) return false;
            acc = r.value;
        }
        v = acc;
        return true;
    }
    /// `[0-9a-fA-F]+`, its text.
    LOGSCAN_FORCE_INLINE constexpr bool hex_digits(std::string_view& out) noexcept {
        const char* const b = p_;
#if LOGSCAN_SSE2
        if (!std::is_constant_evaluated()) // (16 bytes at a time: an address's dozen digits in one look)
            while (e_ - p_ >= 16) {
                const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p_));
                const __m128i d = _mm_sub_epi8(v, _mm_set1_epi8('0')),
                              l = _mm_sub_epi8(_mm_or_si128(v, _mm_set1_epi8(0x20)), _mm_set1_epi8('a'));
                const __m128i hex = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d),
                                                 _mm_cmpeq_epi8(_mm_min_epu8(l, _mm_set1_epi8(5)), l));
                const auto other = ~static_cast<unsigned>(_mm_movemask_epi8(hex)) & 0xFFFFu;
                if (other != 0) {
                    p_ += std::countr_zero(other);
                    out = std::string_view(b, static_cast<std::size_t>(p_ - b));
                    return p_ != b;
                }
                p_ += 16;
            }
#endif
        while (p_ != e_ && (internal::is_digit(*p_) || static_cast<unsigned>((*p_ | 0x20) - 'a') < 6u)) ++p_;
        out = std::string_view(b, static_cast<std::size_t>(p_ - b));
        return p_ != b;
    }
    /// `[^STOPS]*`: the bytes up to the first of `stops` (or the end), possibly none (always
    /// true); the cursor stays at that byte.
    LOGSCAN_FORCE_INLINE constexpr bool until(std::string_view stops, std::string_view& out) noexcept {
        const char* const b = p_;
        while (p_ != e_ && stops.find(*p_) == std::string_view::npos) ++p_;
        out = std::string_view(b, static_cast<std::size_t>(p_ - b));
        return true;
    }
    /// `until(stops, out)` with the stops known at compile time (one table load per byte).
    template <fixed_string Stops>
    LOGSCAN_FORCE_INLINE constexpr bool until(std::string_view& out) noexcept {
        const char* const b = p_;
        p_ = internal::find_stop<Stops>(p_, e_);
        out = std::string_view(b, static_cast<std::size_t>(p_ - b));
        return true;
    }
    /// `\d+`, its text.
    LOGSCAN_FORCE_INLINE constexpr bool digits(std::string_view& out) noexcept {
        const char* const b = p_;
        while (p_ != e_ && internal::is_digit(*p_)) ++p_;
        out = std::string_view(b, static_cast<std::size_t>(p_ - b));
        return p_ != b;
    }
    /// `\d+(?:\.\d+)?`, its text (a `.` not followed by a digit is left where it is).
    LOGSCAN_FORCE_INLINE constexpr bool decimal(std::string_view& out) noexcept {
        const char* const b = p_;
        while (p_ != e_ && internal::is_digit(*p_)) ++p_;
        if (p_ == b) return false;
        if (e_ - p_ >= 2 && p_[0] == '.' && internal::is_digit(p_[1])) {
            p_ += 2;
            while (p_ != e_ && internal::is_digit(*p_)) ++p_;
        }
        out = std::string_view(b, static_cast<std::size_t>(p_ - b));
        return true;
    }
    /// `[ \t]*`: any number of blanks (always true).
    LOGSCAN_FORCE_INLINE constexpr bool blanks() noexcept {
        p_ = internal::skip_blanks(p_, e_);
        return true;
    }
    /// `\s+`: at least one whitespace byte, all of them consumed.
    LOGSCAN_FORCE_INLINE constexpr bool whitespace() noexcept {
        const char* const b = p_;
        while (p_ != e_ && internal::is_regex_space(*p_)) ++p_;
        return p_ != b;
    }
    /// `\S+`: at least one non-whitespace byte, all of them consumed.
    LOGSCAN_FORCE_INLINE constexpr bool word(std::string_view& out) noexcept {
        const char* const b = p_;
        while (p_ != e_ && !internal::is_regex_space(*p_)) ++p_;
        out = std::string_view(b, static_cast<std::size_t>(p_ - b));
        return p_ != b;
    }
    /// `\S.*` to the end of the text (a line holds no `\n`): the rest, which must not start
    /// with whitespace or be empty.
    LOGSCAN_FORCE_INLINE constexpr bool rest(std::string_view& out) noexcept {
        if (p_ == e_ || internal::is_regex_space(*p_)) return false;
        out = rest_view();
        p_ = e_;
        return true;
    }

private:
    const char* p_;
    const char* e_;
};

// ---------------------------------------------------------------------------------------
// printf forms
// ---------------------------------------------------------------------------------------

/// The values `scan_form` read, in the order of their conversions.
struct form_values {
    std::uint64_t u[4];  ///< the `%u` values
    double f[6];         ///< the `%f` values (NaN or +-infinity for a non-finite word)
    std::string_view s;  ///< the `%s` text
    std::size_t nu, nf;  ///< how many `%u` and `%f` were read
    /// All zero (none read).
    constexpr form_values() noexcept : u(), f(), s(), nu(0), nf(0) {
        if (!std::is_constant_evaluated()) internal::zero_bytes(*this); // (the same bytes, without `rep stos`)
    }
};

namespace internal {
// `%f` at p: `[-]digits[.digits]`, or a non-finite word (the longest of `infinity`, `inf`,
// `nan` after an optional sign; what follows may touch it, `-nanms`). Null when neither.
constexpr const char* scan_f(const char* p, const char* const e, double& v) noexcept {
    const char* q = p;
    if (q != e && *q == '-') ++q;
    if (q != e && is_digit(*q)) {
        // (what logs print, a short plain decimal: read in one pass; it ends where the scan
        // below does, `\d+(?:\.\d+)?`, and its value is the general parser's)
        if (const char* const s = short_decimal(q, e, false, q != p, v)) return s;
        while (q != e && is_digit(*q)) ++q;
        if (e - q >= 2 && q[0] == '.' && is_digit(q[1])) {
            q += 2;
            while (q != e && is_digit(*q)) ++q;
        }
        const value_result<double> r = parse_at<double>(p, q, false);
        if (!r.ok() || r.ptr != q) return nullptr;
        v = r.value;
        return q;
    }
    const char* w = p;
    if (w != e && (*w == '-' || *w == '+')) ++w;
    for (const std::string_view word : {std::string_view("infinity"), std::string_view("inf"), std::string_view("nan")}) {
        if (static_cast<std::size_t>(e - w) < word.size()) continue;
        bool same = true;
        for (std::size_t i = 0; i < word.size() && same; ++i) same = (w[i] | 0x20) == word[i];
        if (same && non_finite_word(std::string_view(p, static_cast<std::size_t>(w - p) + word.size()), v)) return w + word.size();
    }
    return nullptr;
}
} // namespace internal

/// Reads the whole of `text` against a printf-like `form`, at once: `%u` is one or more
/// digits (an unsigned integer that fits `uint64_t`); `%f` a value as `%f` or `%.Nf` prints
/// it, `[-]digits[.digits]`, or a non-finite number word (`nan`, `-nan`, `inf`, `-inf`, `+inf`,
/// `infinity`, `-infinity`, any letter case; what the form prints next may touch it: `-nanms`);
/// `%s` the rest of the text, possibly empty (last in a form); `%%` a `%`; any other byte of
/// `form` stands for itself. True when all of `text` fits, its values in `out` (at most 4
/// `%u` and 6 `%f`; a form with more, or another conversion, fits nothing). A `%f` value is
/// read in one pass when it is a short plain decimal (up to 15 digits, as logs print them),
/// else by the run-time parser (not in constant expressions).
/// \code
/// logscan::form_values v;
/// if (logscan::scan_form("iter 3/20: 12.004ms (exec=2.118,device=11.870)",
///                        "iter %u/%u: %fms (exec=%f,device=%f)", v))
///     use(v.u[0], v.u[1], v.f[0]);                       // 3, 20, 12.004
/// \endcode
constexpr bool scan_form(std::string_view text, std::string_view form, form_values& out) noexcept {
    out = form_values{};
    const char* p = text.data();
    const char* const e = p + text.size();
    for (std::size_t i = 0; i < form.size(); ++i) {
        const char c = form[i];
        if (c == '%' && i + 1 < form.size() && form[i + 1] != '%') {
            const char k = form[++i];
            if (k == 'u') {
                const char* const b = p;
                std::uint64_t v = 0;
                while (p != e && internal::is_digit(*p)) {
                    const unsigned d = internal::digit_value(*p++);
                    if (v > (std::numeric_limits<std::uint64_t>::max() - d) / 10u) return false;
                    v = v * 10u + d;
                }
                if (p == b || out.nu == 4) return false;
                out.u[out.nu++] = v;
            } else if (k == 'f') {
                double v = 0;
                const char* const q = internal::scan_f(p, e, v);
                if (q == nullptr || out.nf == 6) return false;
                p = q;
                out.f[out.nf++] = v;
            } else if (k == 's') {
                out.s = std::string_view(p, static_cast<std::size_t>(e - p));
                p = e;
            } else {
                return false;
            }
            continue;
        }
        if (c == '%') ++i; // `%%`
        if (p == e || *p != c) return false;
        ++p;
    }
    return p == e;
}

/// Printf-like forms (`scan_form`) tried in their order, each only where the text's first
/// byte can begin it: a line that is none of many forms costs a table lookup, not a try of
/// each (MegEngine's `load_and_run` prints two dozen). At most 64 forms.
/// \code
/// constexpr logscan::form_list<2> forms({"warmup %u: %fms", "avg time: %fms"});
/// logscan::form_values v;
/// if (const int i = forms.scan("avg time: 2.5ms", v); i >= 0) use(i, v.f[0]); // 1, 2.5
/// \endcode
template <std::size_t N>
class form_list {
    static_assert(N >= 1 && N <= 64, "logscan::form_list: 1 to 64 forms");

public:
    constexpr explicit form_list(const std::array<std::string_view, N>& forms) noexcept : forms_(forms) {
        for (std::size_t i = 0; i < N; ++i) {
            const std::string_view f = forms[i];
            // the bytes a text this form fits may begin with: its own first byte, or those a
            // first conversion's value may begin with (`%u` a digit; `%f` a digit, a sign, or
            // the `i` or `n` of a non-finite word; `%s` any)
            const auto may_begin = [&](unsigned char b) {
                const bool is_digit_byte = b >= '0' && b <= '9';
                if (f.empty() || (f[0] == '%' && f.size() == 1)) return true;
                if (f[0] != '%') return b == static_cast<unsigned char>(f[0]);
                switch (f[1]) {
                case '%': return b == '%';
                case 'u': return is_digit_byte;
                case 'f': return is_digit_byte || b == '-' || b == '+' || (b | 0x20) == 'i' || (b | 0x20) == 'n';
                default: return true;
                }
            };
            for (std::size_t b = 0; b < 256; ++b)
                if (may_begin(static_cast<unsigned char>(b))) by_first_[b] |= std::uint64_t{1} << i;
            prefixes_[i] = f.substr(0, f.find('%')); // (all of it without a `%`)
            for (std::size_t j = 0; j < 8 && j < prefixes_[i].size(); ++j) {
                head_[i] |= std::uint64_t{static_cast<unsigned char>(prefixes_[i][j])} << (8 * j);
                head_mask_[i] |= std::uint64_t{0xFF} << (8 * j);
            }
        }
    }
    /// The index of the first form all of `text` fits (`scan_form`, its values in `out`), or
    /// -1 when it fits none (`out` then holds nothing to read).
    constexpr int scan(std::string_view text, form_values& out) const noexcept {
        // (a form that begins with a byte of its own fits only a text that begins with it, and
        // only one that begins with all of its bytes before its first conversion: compared at
        // once, before the form is read byte by byte)
        // (a text of 8 bytes or more: each form's first 8 bytes compared with one load of the
        // text's, the rest of its prefix only when they are the same; the form is then read
        // from its first conversion on)
        std::uint64_t m = text.empty() ? ~std::uint64_t{0} >> (64 - N) : by_first_[static_cast<unsigned char>(text[0])];
        std::uint64_t head = 0;
        const bool word = std::endian::native == std::endian::little && text.size() >= 8 && !std::is_constant_evaluated();
        if (word) std::memcpy(&head, text.data(), 8);
        const auto begins_with = [&](std::size_t i, std::string_view prefix) {
            if (!word) return text.starts_with(prefix);
            return (head & head_mask_[i]) == head_[i] &&
                   (prefix.size() <= 8 ||
                    (text.size() >= prefix.size() && internal::same_bytes(text.data() + 8, prefix.data() + 8, prefix.size() - 8)));
        };
        for (; m != 0; m &= m - 1) {
            const auto i = static_cast<std::size_t>(std::countr_zero(m));
            const std::string_view prefix = prefixes_[i];
            if (begins_with(i, prefix) && scan_form(text.substr(prefix.size()), forms_[i].substr(prefix.size()), out))
                return static_cast<int>(i);
        }
        return -1;
    }
    /// The forms, in their order.
    constexpr const std::array<std::string_view, N>& forms() const noexcept { return forms_; }

private:
    std::array<std::string_view, N> forms_;
    std::array<std::string_view, N> prefixes_{}; // each form's bytes before its first `%`
    std::array<std::uint64_t, N> head_{}, head_mask_{}; // each prefix's first 8 bytes (fewer: masked), little-endian
    std::array<std::uint64_t, 256> by_first_{}; // per first byte: the forms it may begin (bit i: forms_[i])
};

namespace internal {
/// The value of eight decimal digits already reduced to 0..9 per byte, the first (most
/// significant) digit in the lowest byte (a little-endian load of the text, minus `0`s): the
/// pairs, then both halves' pairs of pairs at once, in lanes that cannot carry into the next.
LOGSCAN_FORCE_INLINE constexpr std::uint32_t eight_digits_value(std::uint64_t v) noexcept {
    v = v * 10 + (v >> 8); // pairs: byte 2k = 10 * d[2k] + d[2k+1]
    v = (((v & 0x000000FF000000FFull) * 0x000F424000000064ull) +
         (((v >> 16) & 0x000000FF000000FFull) * 0x0000271000000001ull)) >> 32;
    return static_cast<std::uint32_t>(v);
}
} // namespace internal

/// A row printed with fixed field widths (MegEngine's memory table row,
/// `"%9s %9.2fMiB(%10zubytes)..."`), checked against its column template at once and its
/// numbers read eight digits at a time, for the rows a printf table is made of; a row that
/// does not fit (a value wider than its field shifts the columns) is for a general reader.
///
/// `Template` has one byte per column of the row: `9` a digit; `_` a pad of the number it
/// leads to (a space or a digit, the spaces first: `   12` and `12345` fit `____9`, `1 2`
/// does not); `*` a byte that is not a blank (space or tab) and `>` a pad of the word it
/// leads to (a space or such a byte, the spaces first: `%9s` is `>>>>>>>>*`); `?` any byte;
/// every other byte stands for itself. `fits(text)` is true when
/// `text` has the template's length and every byte fits its column (with SSE2, 16 columns at
/// a step). `digits<B, E>(text)` reads columns [B, E) of a text that fits as one unsigned
/// integer: its pads (spaces count as nothing) and digits, and at most one `.` of the
/// template, skipped (`  196.00` is 19600, the value in hundredths); at most 19 digits, in
/// parts of at most 16 between the bounds and the `.`.
/// \code
/// using row = logscan::printf_row<"?????????_____9.99MiB(">;
/// if (row::fits(text)) cents = row::digits<9, 18>(text);   // "   gpu0:0   196.00MiB(" -> 19600
/// \endcode
template <fixed_string Template>
class printf_row {
public:
    /// The row's length in bytes.
    static constexpr std::size_t size = Template.size();

    /// True when `text` has the template's length and each byte fits its column.
    static constexpr bool fits(std::string_view text) noexcept { return text.size() == size && fits_at(text); }
    /// True when `text` begins with bytes that fit the template (a fixed-width line head:
    /// `[99 99:99:99 `).
    static constexpr bool starts(std::string_view text) noexcept { return text.size() >= size && fits_at(text); }

    /// Columns [B, E) of a text that `fits`, as one integer (see the class).
    template <std::size_t B, std::size_t E>
    static constexpr std::uint64_t digits(std::string_view text) noexcept {
        static_assert(B < E && E <= size, "printf_row::digits: columns out of the template");
        constexpr std::size_t d = column_of('.', B, E);
        if constexpr (d == E) {
            return part<B, E>(text.data());
        } else {
            static_assert(column_of('.', d + 1, E) == E, "printf_row::digits: one `.` at most");
            static_assert(E - B - 1 <= 19, "printf_row::digits: at most 19 digits");
            return part<B, d>(text.data()) * pow10(E - d - 1) + part<d + 1, E>(text.data());
        }
    }

private:
    // The first `size` bytes of `text` (it has as many) against the template: 16 at a time
    // where 16 bytes can be read, else byte by byte.
    LOGSCAN_FORCE_INLINE static constexpr bool fits_at(std::string_view text) noexcept {
#if LOGSCAN_SSE2
        if (!std::is_constant_evaluated() && text.size() >= 16) return fits_blocks(text.data(), std::make_index_sequence<blocks>{});
#endif
        bool filled_before = false; // (the column before was a pad holding a digit or a word's byte)
        for (std::size_t i = 0; i < size; ++i) {
            const char t = Template.chars[i], c = text[i];
            const bool is_digit_byte = internal::is_digit(c), word = !internal::is_blank(c);
            if (t == '_' || t == '>') {
                const bool filled = t == '_' ? is_digit_byte : word;
                if (c == ' ' ? filled_before : !filled) return false;
                filled_before = filled;
                continue;
            }
            filled_before = false;
            if (t == '?') continue;
            if (t == '9' ? !is_digit_byte : t == '*' ? !word : c != t) return false;
        }
        return true;
    }
    // The first column in [b, e) whose template byte is c, or e. (A loop over the bytes: GCC
    // with sanitizers does not take string_view's search on a template argument as constant.)
    static constexpr std::size_t column_of(char c, std::size_t b, std::size_t e) noexcept {
        while (b != e && Template.chars[b] != c) ++b;
        return b;
    }
    static constexpr std::uint64_t pow10(std::size_t n) noexcept {
        std::uint64_t p = 1;
        for (std::size_t i = 0; i < n; ++i) p *= 10u;
        return p;
    }
    // Columns [B, E) (pads and digits only) as an integer: eight at a time from the right
    // (a load ending at E; columns before B set to `0`), or byte by byte for a few columns
    // and near the row's start.
    template <std::size_t B, std::size_t E>
    static constexpr std::uint64_t part(const char* p) noexcept {
        static_assert(E - B <= 16, "printf_row::digits: at most 16 digits between the bounds and the `.`");
        if constexpr (E < 8 || E - B <= 3) { // (a few columns: each one's low four bits, a space's 0)
            std::uint64_t v = 0;
            for (std::size_t i = B; i < E; ++i) v = v * 10u + (static_cast<unsigned char>(p[i]) & 0x0Fu);
            return v;
        } else if constexpr (E - B > 8) {
            return part<B, E - 8>(p) * 100000000u + part<E - 8, E>(p);
        } else {
            if (std::is_constant_evaluated()) {
                std::uint64_t v = 0;
                for (std::size_t i = B; i < E; ++i) v = v * 10u + (static_cast<unsigned char>(p[i]) & 0x0Fu);
                return v;
            }
            constexpr std::uint64_t outside = E - B == 8 ? 0u : ~std::uint64_t{0} >> (8 * (E - B)); // lanes before B
            std::uint64_t w;
            std::memcpy(&w, p + E - 8, 8);
            w = (w & ~outside) | (0x3030303030303030u & outside); // (columns before B: `0`)
            return internal::eight_digits_value((w | 0x1010101010101010u) - 0x3030303030303030u); // (a space | 0x10 is `0`; digits stay)
        }
    }

#if LOGSCAN_SSE2
    // The template as 16-byte blocks (the last one ending at the row's end, so it may overlap
    // the one before; a template shorter than 16 is one block whose columns past it are
    // free): per block the byte each column must be (literals), and which columns are
    // literals, digits, number pads, word bytes, word pads or free; and the pad columns as
    // bits, for the order check.
    static constexpr std::size_t blocks = (size + 15) / 16;
    static constexpr bool words = column_of('*', 0, size) != size || column_of('>', 0, size) != size;
    struct block_t {
        char lit[16]{}, is_lit[16]{}, is_digit[16]{}, is_npad[16]{}, is_word[16]{}, is_wpad[16]{}, is_any[16]{};
        unsigned npads = 0, wpads = 0; // bit i: column i of the block is a number's pad, a word's pad
        unsigned pad_pairs = 0;        // bit i: columns i and i + 1 are both pads
        bool joins = false;            // the column before the block is a pad, and so is its first
        std::size_t start = 0;
    };
    static constexpr std::array<block_t, blocks> table = [] {
        std::array<block_t, blocks> t{};
        for (std::size_t k = 0; k < blocks; ++k) {
            block_t& b = t[k];
            b.start = k + 1 < blocks || size < 16 ? 16 * k : size - 16;
            for (std::size_t i = 0; i < 16; ++i) {
                const char c = b.start + i < size ? Template.chars[b.start + i] : '?';
                const auto on = static_cast<char>(0xFF);
                if (c == '_') b.is_npad[i] = on, b.npads |= 1u << i;
                else if (c == '>') b.is_wpad[i] = on, b.wpads |= 1u << i;
                else if (c == '9') b.is_digit[i] = on;
                else if (c == '*') b.is_word[i] = on;
                else if (c == '?') b.is_any[i] = on;
                else b.is_lit[i] = on, b.lit[i] = c;
            }
            const unsigned pads = b.npads | b.wpads;
            b.pad_pairs = pads & (pads >> 1);
            const auto pad = [](char c) { return c == '_' || c == '>'; };
            b.joins = k > 0 && b.start == 16 * k && pad(Template.chars[b.start - 1]) && (pads & 1u) != 0;
        }
        return t;
    }();
    template <std::size_t... K>
    LOGSCAN_FORCE_INLINE static bool fits_blocks(const char* p, std::index_sequence<K...>) noexcept {
        unsigned carry = 0; // the previous block's last column: a pad holding a digit or a word's byte
        return (block_fits(p, table[K], carry) && ...);
    }
    // One block of the row at p (see `table`); `carry` as fits_blocks keeps it. Inlined: six
    // calls per row were a third of a memory table's reading.
    LOGSCAN_FORCE_INLINE static bool block_fits(const char* p, const block_t& b, unsigned& carry) noexcept {
        const auto load = [](const char* q) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(q)); };
        const __m128i v = load(p + b.start);
        const __m128i digits_v = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)), _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
        const __m128i space = _mm_cmpeq_epi8(v, _mm_set1_epi8(' '));
        __m128i ok = _mm_or_si128(
            _mm_or_si128(_mm_and_si128(_mm_cmpeq_epi8(v, load(b.lit)), load(b.is_lit)), _mm_and_si128(digits_v, load(b.is_digit))),
            _mm_or_si128(_mm_and_si128(_mm_or_si128(digits_v, space), load(b.is_npad)), load(b.is_any)));
        auto filled = static_cast<unsigned>(_mm_movemask_epi8(digits_v)) & b.npads;
        if constexpr (words) {
            const __m128i tab = _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'));
            const __m128i word = _mm_andnot_si128(_mm_or_si128(space, tab), _mm_set1_epi8(-1));
            ok = _mm_or_si128(ok, _mm_or_si128(_mm_and_si128(word, load(b.is_word)), _mm_andnot_si128(tab, load(b.is_wpad))));
            filled |= static_cast<unsigned>(_mm_movemask_epi8(word)) & b.wpads;
        }
        if (_mm_movemask_epi8(ok) != 0xFFFF) return false;
        const auto s = static_cast<unsigned>(_mm_movemask_epi8(space)) & (b.npads | b.wpads);
        if ((filled & (s >> 1) & b.pad_pairs) != 0 || (b.joins && carry != 0 && (s & 1u) != 0)) return false; // filled, then a space
        carry = filled >> 15;
        return true;
    }
#endif
};

// ---------------------------------------------------------------------------------------
// Exact decimal arithmetic on number texts
// ---------------------------------------------------------------------------------------

/// The longest result `decimal_difference` writes, and the most digits it aligns (a
/// difference of numbers whose exponents lie further apart has no result).
inline constexpr std::size_t decimal_difference_digits = 400;

/// `a - b` computed exactly in decimal from two JSON number texts (`1103.5`, `-0`,
/// `1712195495519689.047`, `1.50e3`), written into `out` in plain notation: no exponent, no
/// trailing fraction zeros, no fraction when whole, no `-0` (`1103.5 - 1001.25` is
/// `102.25`). None when either text is not a JSON number, when aligning the two needs more
/// than `decimal_difference_digits` digits (exponents far apart; an exponent of 10^8 or more),
/// or when `out` is too small.
/// (chrome-trace: the `dur_us` of a B/E span, from the two `ts` tokens.)
constexpr std::optional<std::string_view> decimal_difference(std::string_view a, std::string_view b,
                                                              std::span<char> out) noexcept {
    constexpr std::size_t cap = decimal_difference_digits;
    struct dec {
        bool negative = false;
        std::string_view digits; // without leading zeros (empty: zero); the fraction's digits follow the integer's
        std::string_view frac;
        std::string_view whole;
        std::int64_t exp = 0; // value = digits (whole then frac) x 10^(exp - frac.size())
    };
    const auto read = [](std::string_view t, dec& d) {
        std::size_t i = 0;
        if (i < t.size() && t[i] == '-') {
            d.negative = true;
            ++i;
        }
        const std::size_t w = i;
        if (i < t.size() && t[i] == '0') ++i;
        else if (i < t.size() && t[i] >= '1' && t[i] <= '9')
            while (i < t.size() && internal::is_digit(t[i])) ++i;
        else return false;
        d.whole = t.substr(w, i - w);
        if (i < t.size() && t[i] == '.') {
            const std::size_t f = ++i;
            while (i < t.size() && internal::is_digit(t[i])) ++i;
            if (i == f) return false;
            d.frac = t.substr(f, i - f);
        }
        if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
            ++i;
            bool neg = false;
            if (i < t.size() && (t[i] == '+' || t[i] == '-')) neg = t[i++] == '-';
            const std::size_t x = i;
            std::int64_t e = 0;
            while (i < t.size() && internal::is_digit(t[i])) {
                if (e >= 100000000) return false; // (an exponent no difference of 400 digits can hold)
                e = e * 10 + (t[i] - '0');
                ++i;
            }
            if (i == x) return false;
            d.exp = neg ? -e : e;
        }
        return i == t.size();
    };
    dec x, y;
    if (!read(a, x) || !read(b, y)) return std::nullopt;
    // the digits of each, most significant first, and the power of ten of the last one
    char dx[cap], dy[cap];
    std::size_t nx = 0, ny = 0;
    const auto digits_of = [&](const dec& d, char* dst, std::size_t& n, std::int64_t& low) {
        for (std::string_view part : {d.whole, d.frac})
            for (char c : part) {
                if (n == 0 && c == '0') continue; // (leading zeros)
                if (n == cap) return false;
                dst[n++] = c;
            }
        low = d.exp - static_cast<std::int64_t>(d.frac.size());
        return true;
    };
    std::int64_t lx = 0, ly = 0;
    if (!digits_of(x, dx, nx, lx) || !digits_of(y, dy, ny, ly)) return std::nullopt;
    if (nx == 0) lx = ly; // (zero: aligned with the other)
    if (ny == 0) ly = lx;
    const std::int64_t low = lx < ly ? lx : ly;
    // both aligned to 10^low, as digit strings of equal length (zeros appended, then prepended)
    const auto span_of = [&](std::size_t n, std::int64_t l) { return static_cast<std::int64_t>(n) + (l - low); };
    std::int64_t len = span_of(nx, lx) > span_of(ny, ly) ? span_of(nx, lx) : span_of(ny, ly);
    if (low < 0 && len < -low) len = -low; // (every digit after the point has its place)
    if (len + 1 > static_cast<std::int64_t>(cap)) return std::nullopt;
    const auto n = static_cast<std::size_t>(len);
    char ax[cap], ay[cap];
    const auto align = [&](const char* src, std::size_t m, std::int64_t l, char* dst) {
        const auto tail = static_cast<std::size_t>(l - low);
        const std::size_t lead = n - m - tail;
        for (std::size_t i = 0; i < lead; ++i) dst[i] = '0';
        for (std::size_t i = 0; i < m; ++i) dst[lead + i] = src[i];
        for (std::size_t i = 0; i < tail; ++i) dst[lead + m + i] = '0';
    };
    align(dx, nx, lx, ax);
    align(dy, ny, ly, ay);
    // |x| against |y|, then the sum or the difference of the magnitudes, and its sign
    int cmp = 0;
    for (std::size_t i = 0; i < n && cmp == 0; ++i) cmp = ax[i] < ay[i] ? -1 : ax[i] > ay[i] ? 1 : 0;
    const bool xneg = x.negative && nx != 0, yneg = y.negative && ny != 0;
    char r[cap + 1];
    std::size_t rn = n + 1; // (one more digit for a carry)
    bool negative = false;
    if (xneg != yneg) { // x - y = +-(|x| + |y|)
        unsigned carry = 0;
        for (std::size_t i = n; i-- > 0;) {
            const unsigned d = static_cast<unsigned>(ax[i] - '0') + static_cast<unsigned>(ay[i] - '0') + carry;
            r[i + 1] = static_cast<char>('0' + d % 10);
            carry = d / 10;
        }
        r[0] = static_cast<char>('0' + carry);
        negative = xneg;
    } else { // x - y = +-(|x| - |y|), the larger magnitude first
        const char* big = cmp >= 0 ? ax : ay;
        const char* small = cmp >= 0 ? ay : ax;
        int borrow = 0;
        for (std::size_t i = n; i-- > 0;) {
            int d = (big[i] - '0') - (small[i] - '0') - borrow;
            borrow = d < 0;
            if (d < 0) d += 10;
            r[i + 1] = static_cast<char>('0' + d);
        }
        r[0] = '0';
        negative = cmp != 0 && (cmp > 0 ? xneg : !xneg);
    }
    // plain notation: r x 10^low
    std::size_t first = 0;
    while (first < rn && r[first] == '0') ++first;
    std::size_t w = 0;
    const auto put = [&](char c) {
        if (w == out.size()) return false;
        out[w++] = c;
        return true;
    };
    if (first == rn) {
        if (!put('0')) return std::nullopt;
        return std::string_view(out.data(), w);
    }
    if (negative && !put('-')) return std::nullopt;
    if (low >= 0) {
        for (std::size_t i = first; i < rn; ++i)
            if (!put(r[i])) return std::nullopt;
        for (std::int64_t i = 0; i < low; ++i)
            if (!put('0')) return std::nullopt;
        return std::string_view(out.data(), w);
    }
    const auto frac_n = static_cast<std::size_t>(-low); // digits after the point
    std::size_t last = rn; // without the fraction's trailing zeros
    std::size_t keep_frac = frac_n;
    while (keep_frac > 0 && r[last - 1] == '0') {
        --last;
        --keep_frac;
    }
    const std::size_t int_end = rn - frac_n; // r[first, int_end): the integer part (when first < int_end)
    if (first < int_end) {
        for (std::size_t i = first; i < int_end; ++i)
            if (!put(r[i])) return std::nullopt;
    } else if (!put('0')) {
        return std::nullopt;
    }
    if (keep_frac > 0) {
        if (!put('.')) return std::nullopt;
        for (std::size_t i = int_end; i < int_end + keep_frac; ++i)
            if (!put(r[i])) return std::nullopt;
    }
    return std::string_view(out.data(), w);
}

} // namespace logscan

#endif // LOGSCAN_NUM_HPP_INCLUDED
