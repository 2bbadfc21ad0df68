// SPDX-License-Identifier: MIT
// A hand reader against the pattern it stands in for (a rule's `read_by`, the reader of an
// `assisted_match`): texts made to fall on both sides of the pattern, and the check that the
// reader decides each one as the pattern does, with the same groups.
#ifndef LOGSCAN_TESTS_READER_VS_PATTERN_HPP_INCLUDED
#define LOGSCAN_TESTS_READER_VS_PATTERN_HPP_INCLUDED

#include <doctest/doctest.h>

#include <logscan/regex.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "random_text.hpp"

namespace test_support {

/// A line's slots in order, each one of its forms or, where the generator's pick out of `of`
/// reaches `keep`, any of `pieces` (advanced once per slot): a well-formed line now and then,
/// and its near misses.
inline std::string slots_text(std::uint64_t& seed, const std::vector<std::vector<const char*>>& slots,
                              std::span<const char* const> pieces, std::uint64_t keep, std::uint64_t of) {
    std::string t;
    for (const auto& slot : slots) {
        seed = lcg_next(seed);
        const std::uint64_t pick = (seed >> 33) % of;
        t += pick < keep ? slot[pick % slot.size()] : pieces[(seed >> 45) % pieces.size()];
    }
    return t;
}

/// Whether `read(t, groups)` takes `t` (groups: a std::array of N string_views). Fails the test
/// case (FAIL_CHECK, naming the text) where the reader does not decide as
/// logscan::match<Pattern>(t): one takes the text and the other declines it, or one of the
/// first N groups lies elsewhere in the text or has another length.
template <auto Pattern, std::size_t N, class Read>
bool decides_as_pattern(std::string_view t, Read&& read) {
    std::array<std::string_view, N> g{};
    const bool hand = read(t, g);
    const auto m = logscan::match<Pattern>(t);
    if (hand != static_cast<bool>(m)) {
        FAIL_CHECK(std::string(hand ? "taken, not the pattern's: '" : "declined, the pattern's: '") << std::string(t) << "'");
    } else if (hand) {
        for (std::size_t i = 0; i < N; ++i)
            if (g[i].data() != m[i].data() || g[i].size() != m[i].size()) FAIL_CHECK("group " << i << " of '" << std::string(t) << "'");
    }
    return hand;
}

} // namespace test_support

#endif
