// SPDX-License-Identifier: MIT
/// \file fixed_string.hpp
/// `fixed_string`: a string usable as a template argument (regular expressions,
/// `logscan::match<"a+b">(s)`; record and field names, record.hpp).
#ifndef LOGSCAN_FIXED_STRING_HPP_INCLUDED
#define LOGSCAN_FIXED_STRING_HPP_INCLUDED

#include <cstddef>
#include <string_view>

namespace logscan {

/// A string usable as a template argument: `logscan::match<"a+b">(s)`.
template <std::size_t N>
struct fixed_string {
    char chars[N]{}; ///< the characters, NUL-terminated
    /// Empty (all NUL), to be filled in a constant expression.
    constexpr fixed_string() noexcept = default;
    /// From a string literal.
    constexpr fixed_string(const char (&s)[N]) noexcept {
        for (std::size_t i = 0; i < N; ++i) chars[i] = s[i];
    }
    /// Number of characters without the terminating NUL.
    static constexpr std::size_t size() noexcept { return N - 1; }
    /// The characters as a view.
    constexpr std::string_view view() const noexcept { return {chars, N - 1}; }
};

} // namespace logscan

#endif // LOGSCAN_FIXED_STRING_HPP_INCLUDED
