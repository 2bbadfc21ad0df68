// SPDX-License-Identifier: MIT
// Fuzz target for utf16.hpp's maybe_utf16_source. Invariants checked (abort on violation):
// - the bytes handed out are identical for the whole input and for the input split into
//   chunks whose sizes come from the input itself (and for 1-byte chunks), with a small and
//   the default output buffer;
// - an input that begins with a UTF-16 byte order mark comes out as a naive decoder of this
//   file gives it (code units read after the mark, a surrogate pair joined, any other half of
//   a pair and an odd last byte U+FFFD), which is valid UTF-8; any other input comes out as it
//   is.
#include <logscan/utf16.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct chunks_source {
    std::string_view in;
    std::vector<std::size_t> sizes;
    std::size_t pos = 0, i = 0;
    std::vector<char> block; // (each chunk in its own exactly-sized block: over-reads trip ASan)
    logscan::chunk next() {
        if (pos == in.size()) return {};
        const std::size_t n = sizes.empty() ? in.size() : std::min(sizes[i++ % sizes.size()], in.size() - pos);
        block.assign(in.begin() + static_cast<std::ptrdiff_t>(pos), in.begin() + static_cast<std::ptrdiff_t>(pos + n));
        pos += n;
        return {std::string_view(block.data(), block.size()), logscan::error_code::none, 0};
    }
};

std::string run(std::string_view in, const std::vector<std::size_t>& sizes, std::size_t buffer) {
    chunks_source c{in, sizes, 0, 0, {}};
    logscan::maybe_utf16_source<chunks_source> s(c, buffer);
    std::string out;
    for (;;) {
        const logscan::chunk x = s.next();
        if (x.code != logscan::error_code::none) std::abort();
        if (x.data.empty()) return out;
        out.append(x.data);
    }
}

void put(std::string& out, std::uint32_t cp) {
    char b[4];
    out.append(b, logscan::internal::encode_utf8(cp, b));
}

std::string naive(std::string_view in) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned>(static_cast<unsigned char>(in[i])); };
    if (in.size() < 2 || !((byte(0) == 0xFF && byte(1) == 0xFE) || (byte(0) == 0xFE && byte(1) == 0xFF))) return std::string(in);
    const bool little = byte(0) == 0xFF;
    std::vector<std::uint32_t> units;
    std::size_t i = 2;
    for (; i + 1 < in.size(); i += 2) units.push_back(little ? byte(i) | byte(i + 1) << 8 : byte(i) << 8 | byte(i + 1));
    std::string out;
    for (std::size_t k = 0; k < units.size(); ++k) {
        const std::uint32_t u = units[k];
        if (u >= 0xD800 && u <= 0xDBFF && k + 1 < units.size() && units[k + 1] >= 0xDC00 && units[k + 1] <= 0xDFFF) {
            put(out, 0x10000 + ((u - 0xD800) << 10) + (units[k + 1] - 0xDC00));
            ++k;
        } else {
            put(out, u >= 0xD800 && u <= 0xDFFF ? 0xFFFD : u);
        }
    }
    if (i < in.size()) put(out, 0xFFFD); // (an odd last byte)
    return out;
}

bool valid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = static_cast<unsigned char>(s[i]) < 0x80 ? 1 : logscan::internal::utf8_complete(s.data() + i, s.data() + s.size());
        if (n == 0) return false;
        i += n;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    // first byte: chunk-size pattern
    std::vector<std::size_t> sizes;
    for (unsigned k = 0; k < 4; ++k) sizes.push_back(1 + ((data[0] >> (2 * k)) & 3u) * (k + 2));
    const std::string_view in(reinterpret_cast<const char*>(data + 1), size - 1);
    const std::string whole = run(in, {}, logscan::maybe_utf16_source<chunks_source>::default_buffer_size);
    if (whole != naive(in)) std::abort();
    if (logscan::utf16_mark(in) != 0 && !valid_utf8(whole)) std::abort();
    if (run(in, sizes, 16) != whole || run(in, {1}, 16) != whole || run(in, sizes, 4096) != whole) std::abort();
    return 0;
}
