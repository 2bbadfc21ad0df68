// SPDX-License-Identifier: MIT
// Random-chunking helper: feeds an input to a streaming consumer in chunks of many sizes and
// checks that the result equals the whole-buffer result.
//
//   logscan::test::check_chunk_invariance(text, [](logscan::test::chunk_list chunks) {
//       std::vector<std::string> out;  ... feed every chunk, finish ...
//       return out;                     // anything comparable with ==
//   });
//
// Every chunk is copied into its own exactly-sized heap block, so a reader that reads past
// the end of a chunk is caught by AddressSanitizer.
#ifndef LOGSCAN_TEST_CHUNKING_HPP
#define LOGSCAN_TEST_CHUNKING_HPP

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include <logscan/source.hpp>

// doctest prints vectors of strings (event traces) in failure messages.
namespace doctest {
template <>
struct StringMaker<std::vector<std::string>> {
    static String convert(const std::vector<std::string>& v) {
        std::string s = "{";
        for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", \"" : "\"") + v[i] + "\"";
        s += "}";
        return String(s.c_str());
    }
};
} // namespace doctest

namespace logscan::test {

/// The lines of a text, split on `\n` only (no framing rules): for the counts a test makes
/// from its input independently of the code under test.
inline std::vector<std::string_view> lines_of(std::string_view t) {
    std::vector<std::string_view> v;
    for (std::size_t p = 0; p < t.size();) {
        std::size_t nl = t.find('\n', p);
        if (nl == std::string_view::npos) nl = t.size();
        v.push_back(t.substr(p, nl - p));
        p = nl + 1;
    }
    return v;
}

using chunk_list = std::span<const std::string_view>;

/// Owns copies of an input split into chunks.
class chunked_input {
public:
    /// Splits `input` at the given cut points (ascending, each in (0, size)).
    chunked_input(std::string_view input, const std::vector<std::size_t>& cuts) {
        std::size_t start = 0;
        for (std::size_t i = 0; i <= cuts.size(); ++i) {
            const std::size_t end = i < cuts.size() ? cuts[i] : input.size();
            add(input.substr(start, end - start));
            start = end;
        }
    }
    /// Splits `input` into chunks of `size` bytes (the last may be shorter).
    static chunked_input fixed(std::string_view input, std::size_t size) {
        std::vector<std::size_t> cuts;
        for (std::size_t p = size; p < input.size(); p += size) cuts.push_back(p);
        return chunked_input(input, cuts);
    }
    /// Splits `input` into chunks of random sizes in [1, max_size], from `seed`.
    static chunked_input random(std::string_view input, std::uint64_t seed, std::size_t max_size) {
        std::mt19937_64 rng(seed);
        std::uniform_int_distribution<std::size_t> len(1, max_size);
        std::vector<std::size_t> cuts;
        for (std::size_t p = len(rng); p < input.size(); p += len(rng)) cuts.push_back(p);
        return chunked_input(input, cuts);
    }
    chunk_list chunks() const noexcept { return views_; }

private:
    void add(std::string_view part) {
        // an exactly-sized block per chunk (at least 1 byte so empty inputs have a pointer)
        auto block = std::make_unique<char[]>(part.size() ? part.size() : 1);
        if (!part.empty()) std::memcpy(block.get(), part.data(), part.size());
        views_.emplace_back(block.get(), part.size());
        blocks_.push_back(std::move(block));
    }
    std::vector<std::unique_ptr<char[]>> blocks_;
    std::vector<std::string_view> views_;
};

/// Runs `run(chunks)` for the whole input, 1-byte and 7-byte chunks, and `random_rounds`
/// random splittings (chunk sizes 1..max, max varying per round), and CHECKs every result
/// equals the whole-buffer one. Returns the whole-buffer result.
template <class Run>
auto check_chunk_invariance(std::string_view input, Run&& run, int random_rounds = 16,
                            std::uint64_t seed = 0x5eed) {
    const chunked_input whole(input, {});
    auto expected = run(whole.chunks());
    {
        INFO("1-byte chunks");
        CHECK(run(chunked_input::fixed(input, 1).chunks()) == expected);
    }
    {
        INFO("7-byte chunks");
        CHECK(run(chunked_input::fixed(input, 7).chunks()) == expected);
    }
    for (int r = 0; r < random_rounds; ++r) {
        const std::size_t max = std::size_t{1} << (r % 14); // 1 .. 8192
        INFO("random chunks, round " << r << ", max size " << max);
        CHECK(run(chunked_input::random(input, seed + static_cast<std::uint64_t>(r), max).chunks()) ==
              expected);
    }
    return expected;
}

/// Reads a file of the repository's samples/ or tests/data/ into a string (test helper).
std::string read_file(const std::string& path);
/// Path of a bundled sample by its file name, e.g. sample_path("000_cf8afa6c099f806b.txt").
std::string sample_path(std::string_view name);

/// Everything a byte source hands out, to its end or failure; `last` (if given) gets the
/// chunk that ended it.
template <class Source>
std::string drain(Source& s, logscan::chunk* last = nullptr) {
    std::string out;
    for (;;) {
        const logscan::chunk c = s.next();
        if (c.code != logscan::error_code::none || c.data.empty()) {
            if (last) *last = c;
            return out;
        }
        out.append(c.data);
    }
}

} // namespace logscan::test

#endif
