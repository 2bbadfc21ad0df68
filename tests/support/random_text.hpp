// SPDX-License-Identifier: MIT
// Deterministic random inputs for the tests: the one linear congruential step every
// generated-input test takes, and a text made of pieces picked by it.
#ifndef LOGSCAN_TESTS_RANDOM_TEXT_HPP_INCLUDED
#define LOGSCAN_TESTS_RANDOM_TEXT_HPP_INCLUDED

#include <cstddef>
#include <cstdint>
#include <iterator>
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

/// A copy of the JSON text `d` with one byte deleted, replaced or inserted (a structural byte,
/// a blank, a letter, a digit, a control byte, bytes that are no UTF-8), or cut short, where
/// `pick(n)` (a number below n) says.
template <class Pick>
std::string damaged_json(Pick&& pick, std::string d) {
    static const char bytes[] = {'"', '\\', ',', ':', '{', '}', '[', ']', '\n', ' ', 'x', '1', '-', '.', 'e', 'n',
                                 '\x01', '\xff', '\xc3'};
    if (d.empty()) return d;
    const std::size_t at = static_cast<std::size_t>(pick(d.size()));
    switch (pick(4)) {
    case 0: d.erase(at, 1); break;
    case 1: d[at] = bytes[pick(std::size(bytes))]; break;
    case 2: d.insert(d.begin() + static_cast<std::ptrdiff_t>(at), bytes[pick(std::size(bytes))]); break;
    default: d.resize(at); break;
    }
    return d;
}

} // namespace test_support

#endif // LOGSCAN_TESTS_RANDOM_TEXT_HPP_INCLUDED
