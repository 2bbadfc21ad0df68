// SPDX-License-Identifier: MIT
// Fuzz target for line framing. Invariants checked (abort on violation):
// - the lines and errors are identical for the whole buffer and for the input split into
//   chunks whose sizes come from the input itself;
// - with a carry buffer larger than the input, the lines equal a naive split of the input;
// - line numbers are consecutive and offsets point at the line's bytes.
#include <logscan/lines.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {
struct recorder {
    std::string_view input;
    std::vector<std::string> events;
    std::uint64_t expected_number = 1;
    void on_line(const logscan::line& l) {
        if (l.number != expected_number++) std::abort();
        // the text is the input's bytes at the offset (the carry copy must be faithful)
        if (l.offset + l.text.size() > input.size()) std::abort();
        if (input.substr(l.offset, l.text.size()) != l.text) std::abort();
        events.push_back(std::to_string(l.number) + "@" + std::to_string(l.offset) + ":" +
                         std::string(l.text));
    }
    void on_error(const logscan::error& e) {
        if (e.line != expected_number++) std::abort();
        events.push_back("E" + std::to_string(e.line) + "@" + std::to_string(e.offset));
    }
};

std::vector<std::string> run(std::string_view in, const std::vector<std::size_t>& sizes,
                             std::size_t carry_size) {
    recorder r{in, {}, 1};
    std::vector<char> carry(carry_size);
    logscan::line_splitter<recorder> s(r, carry);
    std::size_t pos = 0, i = 0;
    while (pos < in.size()) {
        const std::size_t n = sizes.empty() ? in.size() : std::min(sizes[i++ % sizes.size()], in.size() - pos);
        // each chunk in its own exactly-sized block, so over-reads are caught by ASan
        std::vector<char> block(in.begin() + static_cast<std::ptrdiff_t>(pos),
                                in.begin() + static_cast<std::ptrdiff_t>(pos + n));
        s.feed(std::string_view(block.data(), block.size()));
        pos += n;
    }
    s.finish();
    return r.events;
}

std::vector<std::string> naive(std::string_view in) {
    std::vector<std::string> out;
    std::size_t start = 0, n = 0;
    while (start < in.size()) {
        std::size_t nl = in.find('\n', start);
        if (nl == std::string_view::npos) nl = in.size();
        std::string_view l = in.substr(start, nl - start);
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
        out.push_back(std::to_string(++n) + "@" + std::to_string(start) + ":" + std::string(l));
        start = nl + 1;
    }
    return out;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    // first byte: chunk-size pattern; second byte: carry size for the bounded run
    std::vector<std::size_t> sizes;
    const unsigned pattern = data[0];
    for (unsigned k = 0; k < 4; ++k) sizes.push_back(1 + ((pattern >> (2 * k)) & 3u) * ((k + 1) * 3));
    const std::size_t small_carry = data[1] % 64;
    const std::string_view in(reinterpret_cast<const char*>(data + 2), size - 2);

    const auto whole_big = run(in, {}, in.size() + 1);
    if (whole_big != naive(in)) std::abort();
    if (run(in, sizes, in.size() + 1) != whole_big) std::abort();
    if (run(in, {1}, in.size() + 1) != whole_big) std::abort();
    // a small carry: errors appear, but chunking still must not change anything
    const auto whole_small = run(in, {}, small_carry);
    if (run(in, sizes, small_carry) != whole_small) std::abort();
    if (run(in, {1}, small_carry) != whole_small) std::abort();
    return 0;
}
