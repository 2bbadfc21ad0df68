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
/// Branch-prediction hints.
#define LOGSCAN_LIKELY(x) __builtin_expect(!!(x), 1)
#define LOGSCAN_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define LOGSCAN_FORCE_INLINE inline
#define LOGSCAN_LIKELY(x) (x)
#define LOGSCAN_UNLIKELY(x) (x)
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace logscan {
namespace internal {
/// Copies `n` bytes from `src` to `dst` (not overlapping), the short copies that keep a word
/// or a name (up to 16 bytes) without a call: two fixed-size copies that may overlap each
/// other, as a compiler inlines them; longer ones by `memcpy`.
LOGSCAN_FORCE_INLINE void copy_bytes(char* dst, const char* src, std::size_t n) noexcept {
    if (n >= 8) {
        if (n > 16) {
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
