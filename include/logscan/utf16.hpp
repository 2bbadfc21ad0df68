// SPDX-License-Identifier: MIT
/// \file utf16.hpp
/// A byte source that reads UTF-16 text as UTF-8. Windows PowerShell 5.1 writes what a
/// redirection gives it as UTF-16 (`python tools/train.py ... > train.log`, `Out-File`: little
/// endian, with the byte order mark `FF FE` first); every reader of logscan reads UTF-8.
/// `maybe_utf16_source` hands out its inner source's bytes transcoded to UTF-8 when they begin
/// with a UTF-16 byte order mark (`FF FE` little endian, `FE FF` big endian; the mark itself
/// is dropped), and as they are otherwise: the first two bytes decide, as ripgrep decides for
/// its searches. UTF-16 without a mark is not guessed.
///
/// \code
/// #include <logscan/utf16.hpp>
/// logscan::file_source file("train.log");
/// logscan::maybe_utf16_source src(file);         // (any byte source: a pipe, gzip_source)
/// logscan::paddle_log::parse(src, visitor);
/// \endcode
///
/// A code unit that is half of a surrogate pair without its other half, and a last odd byte,
/// become U+FFFD (what a UTF-16 decoder that replaces gives). Line numbers are the text's;
/// offsets count the UTF-8 bytes handed out. Allocation: the output buffer, once, at
/// construction; nothing while reading.
#ifndef LOGSCAN_UTF16_HPP_INCLUDED
#define LOGSCAN_UTF16_HPP_INCLUDED

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <utility>

#include "source.hpp"
#include "utf8.hpp"

namespace logscan {

/// The encoding a UTF-16 byte order mark at the start of `head` names: 1 little endian
/// (`FF FE`), 2 big endian (`FE FF`), 0 none (or too few bytes to tell).
constexpr int utf16_mark(std::string_view head) noexcept {
    if (head.size() < 2) return 0;
    const auto a = static_cast<unsigned char>(head[0]), b = static_cast<unsigned char>(head[1]);
    return a == 0xFF && b == 0xFE ? 1 : a == 0xFE && b == 0xFF ? 2 : 0;
}

/// A source that hands out `inner`'s bytes transcoded from UTF-16 to UTF-8 when they begin
/// with a UTF-16 byte order mark, as they are otherwise (see the file comment; a first chunk
/// of one byte `FF` or `FE` waits for the next).
template <byte_source Inner>
class maybe_utf16_source {
public:
    /// Default size of the output buffer.
    static constexpr std::size_t default_buffer_size = std::size_t{64} << 10;
    explicit maybe_utf16_source(Inner& inner, std::size_t buffer_size = default_buffer_size) noexcept
        : inner_(inner), size_(buffer_size < min_buffer ? min_buffer : buffer_size),
          out_(static_cast<char*>(std::malloc(size_))) {}
    maybe_utf16_source(const maybe_utf16_source&) = delete;
    maybe_utf16_source& operator=(const maybe_utf16_source&) = delete;
    ~maybe_utf16_source() { std::free(out_); }

    /// True once the input has been found to be UTF-16 (after the first `next()`).
    bool utf16() const noexcept { return mode_ == mode::little || mode_ == mode::big; }

    /// The next piece of input (UTF-8), empty at the end, or an error.
    chunk next() noexcept {
        switch (mode_) {
        case mode::plain: return inner_.next();
        case mode::undecided: return decide();
        case mode::after_held: // (the chunk after a held first byte)
            mode_ = mode::plain;
            return std::exchange(after_, chunk{});
        default: return transcode();
        }
    }

private:
    static constexpr std::size_t min_buffer = 16;
    enum class mode : unsigned char { undecided, plain, after_held, little, big };

    // The first bytes say; a lone first byte that may begin a mark waits for the next chunk.
    chunk decide() noexcept {
        for (;;) {
            const chunk c = inner_.next();
            if (c.code != error_code::none || c.data.empty()) return plain_from(c);
            if (!held_ && c.data.size() == 1) { // (one byte: a mark's first waits for the next chunk)
                const auto b0 = static_cast<unsigned char>(c.data[0]);
                if (b0 != 0xFF && b0 != 0xFE) return plain_from(c);
                first_ = c.data[0];
                held_ = true;
                continue;
            }
            const char two[2] = {held_ ? first_ : c.data[0], held_ ? c.data[0] : c.data[1]};
            const int mark = utf16_mark(std::string_view(two, 2));
            if (mark == 0) return plain_from(c);
            if (out_ == nullptr) { // (no buffer: the input cannot be read, now or later)
                mode_ = mode::little;
                return failed_ = chunk{{}, error_code::io_error, ENOMEM};
            }
            mode_ = mark == 1 ? mode::little : mode::big;
            pending_ = c.data.substr(held_ ? 1 : 2); // (the mark dropped)
            held_ = false;
            return transcode();
        }
    }
    // Not UTF-16: the held byte first (then `c`), else `c`.
    chunk plain_from(const chunk& c) noexcept {
        if (!held_) {
            mode_ = mode::plain;
            return c;
        }
        held_ = false;
        after_ = c;
        mode_ = mode::after_held;
        return {std::string_view(&first_, 1), error_code::none, 0};
    }
    // UTF-8 of the next code units, as many as the buffer holds.
    chunk transcode() noexcept {
        if (failed_.code != error_code::none) return failed_;
        for (;;) {
            if (pending_.empty()) {
                if (inner_done_) { // (a half pair or an odd byte left: U+FFFD each)
                    std::size_t n = 0;
                    if (high_ != 0) n += internal::encode_utf8(0xFFFD, out_ + n);
                    if (odd_held_) n += internal::encode_utf8(0xFFFD, out_ + n);
                    high_ = 0;
                    odd_held_ = false;
                    return {std::string_view(out_, n), error_code::none, 0};
                }
                const chunk c = inner_.next();
                if (c.code != error_code::none) return failed_ = c;
                if (c.data.empty()) {
                    inner_done_ = true;
                    continue;
                }
                pending_ = c.data;
            }
            const std::size_t n = convert();
            if (n != 0) return {std::string_view(out_, n), error_code::none, 0};
        }
    }
    // Converts code units from `pending_` into the buffer; the bytes written.
    std::size_t convert() noexcept {
        const bool little = mode_ == mode::little;
        const auto* p = reinterpret_cast<const unsigned char*>(pending_.data());
        const auto* const e = p + pending_.size();
        char* o = out_;
        char* const stop = out_ + size_ - 8; // (room for a pair and a U+FFFD)
        while (o < stop) {
            unsigned lo, hi;
            if (odd_held_) {
                if (p == e) break;
                lo = little ? odd_ : *p;
                hi = little ? *p : odd_;
                ++p;
                odd_held_ = false;
            } else if (e - p >= 2) {
                lo = little ? p[0] : p[1];
                hi = little ? p[1] : p[0];
                p += 2;
            } else {
                if (p != e) {
                    odd_ = *p++;
                    odd_held_ = true;
                }
                break;
            }
            const std::uint32_t u = hi << 8 | lo;
            if (high_ != 0) { // (after a high surrogate: its low one, or U+FFFD for it)
                const std::uint32_t h = std::exchange(high_, 0u);
                if (u >= 0xDC00 && u <= 0xDFFF) {
                    o += internal::encode_utf8(0x10000 + ((h - 0xD800) << 10) + (u - 0xDC00), o);
                    continue;
                }
                o += internal::encode_utf8(0xFFFD, o);
            }
            if (u < 0x80) {
                *o++ = static_cast<char>(u);
            } else if (u >= 0xD800 && u <= 0xDBFF) {
                high_ = u;
            } else {
                o += internal::encode_utf8(u >= 0xDC00 && u <= 0xDFFF ? 0xFFFD : u, o); // (a low one alone)
            }
        }
        pending_.remove_prefix(static_cast<std::size_t>(p - reinterpret_cast<const unsigned char*>(pending_.data())));
        return static_cast<std::size_t>(o - out_);
    }

    Inner& inner_;
    std::size_t size_;
    char* out_;
    std::string_view pending_{};
    chunk failed_{};
    chunk after_{};
    std::uint32_t high_ = 0; // (a high surrogate waiting for its low one)
    mode mode_ = mode::undecided;
    unsigned char odd_ = 0;  // (the first byte of a code unit split between chunks)
    char first_ = 0;         // (a lone first chunk's byte, held while the mark is told)
    bool held_ = false, odd_held_ = false, inner_done_ = false;
};

} // namespace logscan

#endif // LOGSCAN_UTF16_HPP_INCLUDED
