// SPDX-License-Identifier: MIT
/// \file utf8.hpp
/// UTF-8 validation, shared by the JSON reader (which rejects invalid strings) and the NDJSON
/// writer (which replaces invalid bytes with U+FFFD). Internal helpers: the public entry
/// points are those readers' and writers' options.
#ifndef LOGSCAN_UTF8_HPP_INCLUDED
#define LOGSCAN_UTF8_HPP_INCLUDED

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "config.hpp"


namespace logscan::internal {

/// For a UTF-8 lead byte: the number of continuation bytes and the allowed range of the first
/// one (which excludes overlong forms, surrogates and values above U+10FFFF). False for a byte
/// that cannot start a sequence.
LOGSCAN_FORCE_INLINE constexpr bool utf8_lead(unsigned char c, unsigned char& need, unsigned char& lo,
                                              unsigned char& hi) noexcept {
    lo = 0x80;
    hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        need = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
        need = 2;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 3;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        return false;
    }
    return true;
}

/// Length of the complete, valid UTF-8 sequence at `p`, or 0 when it is invalid or runs past
/// `end` (the caller then takes the byte-by-byte path, which reports exactly).
LOGSCAN_FORCE_INLINE constexpr std::size_t utf8_complete(const char* p, const char* end) noexcept {
    unsigned char need = 0, lo = 0, hi = 0;
    if (!utf8_lead(static_cast<unsigned char>(*p), need, lo, hi)) return 0;
    if (end - p <= need) return 0;
    for (std::size_t i = 1; i <= need; ++i) {
        const auto b = static_cast<unsigned char>(p[i]);
        if (b < lo || b > hi) return 0;
        lo = 0x80;
        hi = 0xBF;
    }
    return std::size_t{need} + 1;
}

/// Length of the maximal subpart of an ill-formed sequence at `p` (Unicode's "U+FFFD
/// substitution of maximal subparts"): a valid lead byte and the continuation bytes that
/// still fit it, or the one byte. Call only where `utf8_complete(p, end) == 0`.
constexpr std::size_t utf8_invalid_length(const char* p, const char* end) noexcept {
    unsigned char need = 0, lo = 0, hi = 0;
    if (!utf8_lead(static_cast<unsigned char>(*p), need, lo, hi)) return 1;
    std::size_t n = 1;
    while (n <= need && p + n < end) {
        const auto b = static_cast<unsigned char>(p[n]);
        if (b < lo || b > hi) break;
        lo = 0x80;
        hi = 0xBF;
        ++n;
    }
    return n;
}

/// A hexadecimal digit's value, or -1.
constexpr int hex_value(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// The code unit of a JSON `\uXXXX` escape at `p` (`p[0]` is its backslash), or -1 when the
/// bytes up to `end` are no such escape.
constexpr int u_escape(const char* p, const char* end) noexcept {
    if (end - p < 6 || p[0] != '\\' || p[1] != 'u') return -1;
    int u = 0;
    for (int i = 2; i < 6; ++i) {
        const int h = hex_value(p[i]);
        if (h < 0) return -1;
        u = u * 16 + h;
    }
    return u;
}

/// Where the first `\u` escape of a lone surrogate is in JSON text [p, end) (a high surrogate
/// not followed by a low one's escape, or a low one with no high one before it), or `end`.
/// Escapes are walked from `p`, which must not be inside one (`\\ud800` is a backslash, then
/// text).
constexpr const char* lone_surrogate_escape(const char* p, const char* end) noexcept {
    while (p != end) {
        if (*p != '\\') {
            ++p;
            continue;
        }
        const int u = u_escape(p, end);
        if (u < 0xD800 || u > 0xDFFF) { // (another escape, or no complete one: its two bytes)
            p += end - p >= 2 ? 2 : 1;
            continue;
        }
        if (u <= 0xDBFF) {
            const int low = u_escape(p + 6, end);
            if (low >= 0xDC00 && low <= 0xDFFF) {
                p += 12; // a pair
                continue;
            }
        }
        return p;
    }
    return end;
}

/// True when every byte of `s` is ASCII (then code points and bytes count alike). Sixteen
/// bytes at a time with SSE2 (else eight), the last bytes as the block that ends `s` (looked
/// at twice rather than one by one: a table's row tells in a few loads, whatever its width).
constexpr bool all_ascii(std::string_view s) noexcept {
    if (!std::is_constant_evaluated()) {
        const char* const p = s.data();
        const std::size_t n = s.size();
#if LOGSCAN_SSE2
        if (n >= 16) {
            __m128i any = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - 16));
            for (std::size_t i = 0; i + 16 <= n; i += 16)
                any = _mm_or_si128(any, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)));
            return _mm_movemask_epi8(any) == 0;
        }
#endif
        if (n >= 8) {
            std::uint64_t any = 0, v = 0;
            std::memcpy(&any, p + n - 8, 8);
            for (std::size_t i = 0; i + 8 <= n; i += 8) {
                std::memcpy(&v, p + i, 8);
                any |= v;
            }
            return (any & 0x8080808080808080ull) == 0;
        }
        if (n >= 4) {
            std::uint32_t a = 0, b = 0;
            std::memcpy(&a, p, 4);
            std::memcpy(&b, p + n - 4, 4);
            return ((a | b) & 0x80808080u) == 0;
        }
    }
    unsigned char any = 0;
    for (const char c : s) any = static_cast<unsigned char>(any | static_cast<unsigned char>(c));
    return any < 0x80;
}

/// True when every byte of `s` is printable ASCII (0x20-0x7E): neither a control character
/// nor UTF-8, what nearly every line of a table is. Sixteen bytes at a time with SSE2, then
/// eight, branch-free within them (each eight-byte test is exact as a whole: a borrow starts
/// only at a byte that meets it).
constexpr bool printable_ascii(std::string_view s) noexcept {
    const char* p = s.data();
    const std::size_t n = s.size();
    if (!std::is_constant_evaluated()) {
        // (a text of 8 bytes or more has no tail read byte by byte: its last block or word is
        // the one that ends it, overlapping the one before)
#if LOGSCAN_SSE2
        if (n >= 16) { // 16 bytes at a time: as signed bytes, printable is > 0x1F (0x80-0xFF are negative) and not 0x7F
            const __m128i low = _mm_set1_epi8(0x1F), rubout = _mm_set1_epi8(0x7F);
            __m128i ok = _mm_set1_epi8(-1), dels = _mm_setzero_si128();
            const auto look = [&](const char* q) {
                const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
                ok = _mm_and_si128(ok, _mm_cmpgt_epi8(v, low));
                dels = _mm_or_si128(dels, _mm_cmpeq_epi8(v, rubout));
            };
            for (std::size_t i = 0; n - i > 16; i += 16) look(p + i);
            look(p + n - 16);
            return _mm_movemask_epi8(ok) == 0xFFFF && _mm_movemask_epi8(dels) == 0;
        }
#endif
        if (n >= 8) {
            constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
            const auto bad = [](const char* q) {
                std::uint64_t v = 0;
                std::memcpy(&v, q, 8);
                const std::uint64_t del = v ^ (ones * 0x7F);
                return v                            // a byte >= 0x80
                       | ((v - ones * 0x20) & ~v)   // a byte < 0x20
                       | ((del - ones) & ~del);     // a byte 0x7F
            };
            std::uint64_t any = 0;
            for (std::size_t i = 0; n - i > 8; i += 8) any |= bad(p + i);
            return ((any | bad(p + n - 8)) & highs) == 0;
        }
    }
    for (const char* const end = p + n; p != end; ++p) {
        const auto c = static_cast<unsigned char>(*p);
        if (c < 0x20 || c >= 0x7F) return false;
    }
    return true;
}

/// True when `s` holds a control character (U+0000-U+001F, tab included, or U+007F) or bytes
/// that are not UTF-8: a binary or garbage line (a crashed process's output, a terminal's
/// escape sequences), which the table readers never take as structure or a row. One
/// pass of `printable_ascii` over the usual line; UTF-8 is validated only when a byte >= 0x80 is seen.
constexpr bool is_binary_text(std::string_view s) noexcept {
    if (printable_ascii(s)) return false;
    bool control = false, high = false;
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        control |= (c < 0x20) | (c == 0x7F);
        high |= c >= 0x80;
    }
    if (control) return true;
    if (!high) return false;
    const char* p = s.data();
    const char* const end = p + s.size();
    while (p < end) {
        if (static_cast<unsigned char>(*p) < 0x80) {
            ++p;
            continue;
        }
        const std::size_t k = utf8_complete(p, end);
        if (k == 0) return true;
        p += k;
    }
    return false;
}

/// Code point cp (at most 0x10FFFF) as UTF-8 into out[0, 4): the number of bytes.
constexpr std::size_t encode_utf8(std::uint32_t cp, char* out) noexcept {
    if (cp < 0x80) {
        out[0] = static_cast<char>(cp);
        return 1;
    }
    if (cp < 0x800) {
        out[0] = static_cast<char>(0xC0 | (cp >> 6));
        out[1] = static_cast<char>(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = static_cast<char>(0xE0 | (cp >> 12));
        out[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out[2] = static_cast<char>(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = static_cast<char>(0xF0 | (cp >> 18));
    out[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out[3] = static_cast<char>(0x80 | (cp & 0x3F));
    return 4;
}

} // namespace logscan::internal

#endif // LOGSCAN_UTF8_HPP_INCLUDED
