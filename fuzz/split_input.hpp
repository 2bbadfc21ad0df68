// SPDX-License-Identifier: MIT
// Shared by the fuzz targets that check split invariance: the first input byte chooses where
// to split the rest in two, and each half is copied into a heap block of its own size (so a
// read past a chunk's end trips ASan).
// And a source of pieces of a chosen size, for those that read an input in parts.
#ifndef LOGSCAN_FUZZ_SPLIT_INPUT_HPP
#define LOGSCAN_FUZZ_SPLIT_INPUT_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include <logscan/source.hpp>

namespace fuzz {

/// `in` as two chunks, split at `at`, each in its own exactly-sized block.
struct two_chunks {
    std::vector<char> a, b;
    two_chunks(std::string_view in, std::size_t at)
        : a(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(at)),
          b(in.begin() + static_cast<std::ptrdiff_t>(at), in.end()) {}
    std::string_view first() const noexcept { return {a.data(), a.size()}; }
    std::string_view second() const noexcept { return {b.data(), b.size()}; }
};

/// A source that gives `text` in pieces of `piece` bytes (the last one shorter), then its end.
struct pieces {
    std::string_view text;
    std::size_t piece;
    std::size_t at = 0;
    logscan::chunk next() {
        const std::size_t n = std::min(piece, text.size() - at);
        at += n;
        return logscan::chunk{text.substr(at - n, n)};
    }
};

/// The body of LLVMFuzzerTestOneInput: `run(text, split)` must give the same result for no
/// split and for the split the first byte chooses; aborts otherwise.
template <class Run>
int check_split(const std::uint8_t* data, std::size_t size, Run&& run) {
    if (size < 1) return 0;
    const std::string_view in(reinterpret_cast<const char*>(data + 1), size - 1);
    const std::size_t split = in.empty() ? 0 : data[0] % (in.size() + 1);
    if (run(in, 0) != run(in, split)) std::abort();
    return 0;
}

} // namespace fuzz

#endif
