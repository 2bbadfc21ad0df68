// logscan — header-only C++20 toolkit for the logs and tables deep-learning tools print.
// SPDX-License-Identifier: MIT
//
/// \file config.hpp
/// Version, compiler-portability macros and feature checks shared by every logscan header.
///
/// Nothing here is meant to be used by callers except the version macros.
#ifndef LOGSCAN_CONFIG_HPP_INCLUDED
#define LOGSCAN_CONFIG_HPP_INCLUDED

#define LOGSCAN_VERSION_MAJOR 0
#define LOGSCAN_VERSION_MINOR 1
#define LOGSCAN_VERSION_PATCH 0
#define LOGSCAN_VERSION_STRING "0.1.0"

#if __cplusplus < 202002L && !defined(_MSVC_LANG)
#error "logscan requires C++20 (-std=c++20)"
#endif

#if defined(__GNUC__) || defined(__clang__)
/// Forces inlining of small hot-path functions.
#define LOGSCAN_FORCE_INLINE inline __attribute__((always_inline))
/// The same for a lambda, after its parameter list (`[&](int x) LOGSCAN_INLINE_LAMBDA {...}`):
/// a rule's action on the lines that make most of an input, inlined where the rule set runs
/// it in every unit (in one as large as the command's, g++'s budget for the unit stops
/// inlining it).
#define LOGSCAN_INLINE_LAMBDA __attribute__((always_inline))
/// Branch-prediction hints.
#define LOGSCAN_LIKELY(x) __builtin_expect(!!(x), 1)
#define LOGSCAN_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define LOGSCAN_FORCE_INLINE inline
#define LOGSCAN_INLINE_LAMBDA
#define LOGSCAN_LIKELY(x) (x)
#define LOGSCAN_UNLIKELY(x) (x)
#endif

/// 1 where SSE2 is there to use (x86-64 always): the byte scans that look at 16 bytes at a
/// time (lines, JSON strings, numbers, printable ASCII) take it, else their word or byte loops.
#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define LOGSCAN_SSE2 1
#else
#define LOGSCAN_SSE2 0
#endif
/// 1 where a 16-byte register can be hidden from the optimiser (x86 with g++ or clang: an empty
/// `asm` with an `x` operand): `zero_bytes` and `copy_bytes` store such a register, which the
/// compiler cannot turn back into the `rep stos` or `rep movs` of a memset or memcpy.
#if LOGSCAN_SSE2 && (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define LOGSCAN_OPAQUE_SSE2 1
#else
#define LOGSCAN_OPAQUE_SSE2 0
#endif

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>
#include <type_traits>
#include <utility>

namespace logscan {
namespace internal {
/// How many of the 8 bytes at `p` are `c` before the first other byte (`Last`: from the end,
/// before the last other byte), 0 to 8, in one look (little-endian; elsewhere a loop).
template <bool Last>
inline std::size_t run8(const char* p, char c) noexcept {
    if constexpr (std::endian::native == std::endian::little) {
        std::uint64_t v = 0;
        std::memcpy(&v, p, 8);
        v ^= 0x0101010101010101ull * static_cast<unsigned char>(c); // (a c: a zero byte)
        if (v == 0) return 8;
        return static_cast<std::size_t>(Last ? std::countl_zero(v) : std::countr_zero(v)) / 8;
    } else {
        std::size_t n = 0;
        while (n < 8 && p[Last ? 7 - n : n] == c) ++n;
        return n;
    }
}
/// `run8` of spaces: lines.hpp's trimming and indents, json.hpp's indentation.
template <bool Last>
inline std::size_t spaces8(const char* p) noexcept {
    return run8<Last>(p, ' ');
}
/// Zeroes all the bytes of `t` (trivially copyable) with 16-byte stores, where its `{}`
/// would: a constructor's job for the results and value sets built on every line (a
/// `regex_result` of a rule, a printf form's values). g++ -O3 zeroes an object of more
/// than 64 bytes with `rep stos`, whose start costs tens of cycles per line; the zero
/// here is a register the compiler cannot see is zero, so the stores stay stores. Elsewhere
/// (no SSE2, or another compiler) `memset`.
template <class T>
LOGSCAN_FORCE_INLINE void zero_bytes(T& t) noexcept {
    static_assert(std::is_trivially_copyable_v<T>);
    auto* const p = reinterpret_cast<unsigned char*>(&t);
#if LOGSCAN_OPAQUE_SSE2
    __m128i z = _mm_setzero_si128();
    __asm__("" : "+x"(z)); // (opaque: no memset is made of the stores)
    for (std::size_t i = 0; i + 16 <= sizeof(T); i += 16) _mm_storeu_si128(reinterpret_cast<__m128i*>(p + i), z);
    if constexpr (sizeof(T) % 16 != 0) std::memset(p + sizeof(T) / 16 * 16, 0, sizeof(T) % 16);
#else
    std::memset(p, 0, sizeof(T));
#endif
}
/// Sets `t` to `T{}`: by `zero_bytes` when `T` is trivially copyable and its `T{}` is all zero
/// bytes (told once, at the first call), else by assignment. (A record reset for each record of
/// a stream: what `T{}`'s `rep stos` costs, see `zero_bytes`, on every record.)
template <class T>
inline void reset_value(T& t) noexcept(std::is_nothrow_default_constructible_v<T> && std::is_nothrow_move_assignable_v<T>) {
    if constexpr (std::is_trivially_copyable_v<T>) {
        static const bool zero = [] { // (a value-initialised object's padding is zero bits too)
            const T v{};
            unsigned char bytes[sizeof(T)];
            std::memcpy(bytes, &v, sizeof(T));
            for (const unsigned char b : bytes)
                if (b != 0) return false;
            return true;
        }();
        if (zero) return zero_bytes(t);
    }
    t = T{};
}
/// Copies `n` bytes from `src` to `dst` (not overlapping), the short copies that keep a word
/// or a name (up to 16 bytes) without a call: two fixed-size copies that may overlap each
/// other, as a compiler inlines them; up to 128 bytes (a title, a header line) 16 at a time
/// (with SSE2), the last 16 overlapping; longer ones by `memcpy`. (g++ -O3 makes `rep movs` of
/// a `memcpy` whose size it knows is under 8 KiB, as a held line's capacity tells it: tens of
/// cycles to start, per line; the size is made unknown to it before the call.)
LOGSCAN_FORCE_INLINE void copy_bytes(char* dst, const char* src, std::size_t n) noexcept {
    if (n >= 8) {
        if (n > 16) {
#if LOGSCAN_OPAQUE_SSE2
            if (n <= 128) {
                const auto copy16 = [](char* d, const char* s16) {
                    __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s16));
                    __asm__("" : "+x"(v)); // (opaque: no memcpy is made of the loop)
                    _mm_storeu_si128(reinterpret_cast<__m128i*>(d), v);
                };
                for (std::size_t i = 0; i + 16 < n; i += 16) copy16(dst + i, src + i);
                copy16(dst + n - 16, src + n - 16);
                return;
            }
            __asm__("" : "+r"(n));
#endif
            std::memcpy(dst, src, n);
            return;
        }
        std::uint64_t a, b;
        std::memcpy(&a, src, 8);
        std::memcpy(&b, src + n - 8, 8);
        std::memcpy(dst, &a, 8);
        std::memcpy(dst + n - 8, &b, 8);
    } else if (n >= 4) {
        std::uint32_t a, b;
        std::memcpy(&a, src, 4);
        std::memcpy(&b, src + n - 4, 4);
        std::memcpy(dst, &a, 4);
        std::memcpy(dst + n - 4, &b, 4);
    } else if (n != 0) {
        dst[0] = src[0];
        dst[n / 2] = src[n / 2];
        dst[n - 1] = src[n - 1];
    }
}

/// Whether the `n` bytes at `a` and at `b` are the same: up to 32 compared a few words at a
/// time, the first and last words overlapping (no call for the short literals and texts the
/// readers compare), a longer run by memcmp.
LOGSCAN_FORCE_INLINE bool same_bytes(const char* a, const char* b, std::size_t n) noexcept {
    const auto w8 = [](const char* q) {
        std::uint64_t w;
        std::memcpy(&w, q, 8);
        return w;
    };
    if (n >= 8) {
        if (n > 32) return std::memcmp(a, b, n) == 0;
        std::uint64_t d = (w8(a) ^ w8(b)) | (w8(a + n - 8) ^ w8(b + n - 8));
        if (n > 16) d |= (w8(a + 8) ^ w8(b + 8)) | (w8(a + n - 16) ^ w8(b + n - 16));
        return d == 0;
    }
    if (n >= 4) {
        std::uint32_t x, y, u, v;
        std::memcpy(&x, a, 4);
        std::memcpy(&y, b, 4);
        std::memcpy(&u, a + n - 4, 4);
        std::memcpy(&v, b + n - 4, 4);
        return ((x ^ y) | (u ^ v)) == 0;
    }
    return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1]);
}

/// Whether `s` begins with the literal `lit`: `s.starts_with("...")`, a compare of a few words
/// inlined in every unit. (`string_view::starts_with` is a call of `strlen` and of `memcmp`
/// once the compiler's budget for a large unit, like the command's, stops inlining it.)
template <std::size_t N>
LOGSCAN_FORCE_INLINE constexpr bool begins_with(std::string_view s, const char (&lit)[N]) noexcept {
    if (std::is_constant_evaluated()) return s.starts_with(std::string_view(lit, N - 1));
    return s.size() >= N - 1 && same_bytes(s.data(), lit, N - 1);
}

/// Whether `s` is the literal `lit`: `s == "..."` as `begins_with` compares. (g++ -O3 passes
/// the view to `operator==` through the stack: two 8-byte stores read back in one 16-byte
/// load, which waits for them to retire, on every line that asks.)
template <std::size_t N>
LOGSCAN_FORCE_INLINE constexpr bool equals(std::string_view s, const char (&lit)[N]) noexcept {
    if (std::is_constant_evaluated()) return s == std::string_view(lit, N - 1);
    return s.size() == N - 1 && same_bytes(s.data(), lit, N - 1);
}

/// A non-finite number word, one rule for every format (formats.md, common rules): `nan`,
/// `-nan`, `inf`, `-inf`, `+inf`, `infinity`, `-infinity`, in any letter case, sets `v` to NaN
/// or +-infinity and is true; any other text (`+nan`, `nanx`, ``) is false.
constexpr bool non_finite_word(std::string_view w, double& v) noexcept {
    if (w.empty() || w.size() > 9) return false;
    const char first = (w[0] == '-' || w[0] == '+') && w.size() > 1 ? w[1] : w[0];
    if (first != 'n' && first != 'N' && first != 'i' && first != 'I') return false; // (a number: the usual case)
    char low[9] = {};
    for (std::size_t i = 0; i < w.size(); ++i) low[i] = static_cast<char>(w[i] >= 'A' && w[i] <= 'Z' ? w[i] + ('a' - 'A') : w[i]);
    const std::string_view l(low, w.size());
    const bool neg = l[0] == '-', plus = l[0] == '+';
    const std::string_view body = neg || plus ? l.substr(1) : l;
    if (body == "nan" && !plus) v = neg ? -std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::quiet_NaN();
    else if (body == "inf" || (body == "infinity" && !plus)) v = neg ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    else return false;
    return true;
}
/// What a forward iterator `D` has of its prefix `++` and its `*` alone, as a base
/// (`class iterator : public internal::iterator_ops<iterator>`): `it++` (a copy kept, then
/// `++it`) and, where `*it` is a reference, `it->`.
template <class D>
class iterator_ops {
public:
    friend constexpr D operator++(D& it, int) noexcept { // (every prefix ++ of ours is noexcept)
        D was = it;
        ++it;
        return was;
    }
    template <class I = D> // (looked at where used: D is complete there)
    constexpr auto operator->() const noexcept
        requires std::is_reference_v<decltype(*std::declval<const I&>())>
    {
        return &**static_cast<const I*>(this);
    }
};
} // namespace internal

/// The library version as numbers, for run-time checks.
struct version_info {
    int major; ///< incompatible API changes
    int minor; ///< compatible additions
    int patch; ///< fixes
};
/// The version of the headers in use.
inline constexpr version_info version{LOGSCAN_VERSION_MAJOR, LOGSCAN_VERSION_MINOR,
                                      LOGSCAN_VERSION_PATCH};
} // namespace logscan

#endif // LOGSCAN_CONFIG_HPP_INCLUDED
