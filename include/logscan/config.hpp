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

namespace logscan {
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
