// SPDX-License-Identifier: MIT
// Deterministic random inputs for the tests: the one linear congruential step every
// generated-input test takes, and a text made of pieces picked by it.
#ifndef LOGSCAN_TESTS_RANDOM_TEXT_HPP_INCLUDED
#define LOGSCAN_TESTS_RANDOM_TEXT_HPP_INCLUDED

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace test_support {

/// The next state of the tests' generator (Knuth's MMIX constants).
constexpr std::uint64_t lcg_next(std::uint64_t s) noexcept { return s * 6364136223846793005ull + 1442695040888963407ull; }

/// A text of fewer than `max_count` pieces, each picked from `pieces` by the generator at `seed`
/// (advanced once for the count, once per piece).
inline std::string pieces_text(std::uint64_t& seed, std::span<const char* const> pieces, std::size_t max_count) {
    std::string t;
    seed = lcg_next(seed);
    const std::size_t n = (seed >> 40) % max_count;
    for (std::size_t i = 0; i < n; ++i) {
        seed = lcg_next(seed);
        t += pieces[(seed >> 33) % pieces.size()];
    }
    return t;
}

} // namespace test_support

#endif // LOGSCAN_TESTS_RANDOM_TEXT_HPP_INCLUDED
