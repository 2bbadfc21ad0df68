// SPDX-License-Identifier: MIT
/// \file gzip.hpp
/// A byte source that decompresses gzip (`.json.gz`, what PyTorch's
/// `tensorboard_trace_handler(use_gzip=True)` writes) from another source, with zlib, in
/// bounded memory. Optional: not in `<logscan.hpp>`; it needs zlib (Debian `zlib1g-dev`) where
/// it is included, and CMake's `logscan::gzip` target links it. The rest of logscan depends
/// on fast_float alone.
///
/// \code
/// #include <logscan/gzip.hpp>
/// logscan::file_source file("trace.json.gz");
/// logscan::gzip_source src(file);                       // (any byte source: a pipe, memory)
/// logscan::chrome_trace::parse(src, visitor);
/// // or, when the input may or may not be gzip: its first bytes say (1f 8b)
/// logscan::maybe_gzip_source any(file);
/// \endcode
///
/// Concatenated gzip members (what `cat a.gz b.gz` gives) are read one after the other.
/// Errors, as the source's chunk (so `pump` returns them after finishing the consumer, and the
/// records read before stand): corrupt data is `syntax` (`sys_errno` `EILSEQ`, the message
/// "corrupt gzip data"), a stream that ends inside a member `unexpected_end` ("gzip stream cut
/// short"), the inner source's errors as they are. Every byte decompressed before corrupt
/// data is found is handed out before the error: a member whose check (its CRC-32 and length,
/// at its end) fails has given all its bytes, then "corrupt gzip data". So corrupt data
/// that decompresses to bytes which break a JSON document (chrome-trace, megengine-profile,
/// a TVM `Report.json()`) ends the parse with the document's error (`expected ',' or '}' ...`)
/// before the stream's check is reached: after such a parse, `logscan::rest_failure(src)`
/// (source.hpp) reads the rest of the stream and returns its failure, as the command does:
/// \code
/// logscan::error e = logscan::chrome_trace::parse(src, visitor);
/// if (!e.ok() && !logscan::source_failed(e))
///     if (const logscan::error why = logscan::rest_failure(src); !why.ok()) e = why; // corrupt gzip data
/// \endcode
/// Allocation:
/// the output buffer and an arena for zlib's state and window, once, at construction; nothing
/// while reading.
#ifndef LOGSCAN_GZIP_HPP_INCLUDED
#define LOGSCAN_GZIP_HPP_INCLUDED

#include <cerrno>
#include <climits>
#include <cstddef>
#include <cstdlib>
#include <string_view>
#include <utility>

#include <zlib.h>

#include "source.hpp"

namespace logscan {

/// True when `head` begins a gzip stream (its magic bytes `1f 8b`).
constexpr bool is_gzip(std::string_view head) noexcept {
    return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b;
}

/// Decompresses the gzip stream `inner` hands out (see the file comment). `Inner` is held by
/// reference and must outlive this source.
template <byte_source Inner>
class gzip_source {
public:
    /// The messages of its failures' chunks (and so of the errors `parse` returns).
    static constexpr std::string_view cut_message = "gzip stream cut short", corrupt_message = "corrupt gzip data";
    /// Default size of the output buffer.
    static constexpr std::size_t default_buffer_size = std::size_t{256} << 10;

    explicit gzip_source(Inner& inner, std::size_t buffer_size = default_buffer_size) noexcept
        : inner_(inner), size_(buffer_size ? buffer_size : 1), out_(static_cast<char*>(std::malloc(size_ + arena_size))) {
        // zlib's state and window come from an arena allocated with the output buffer: inflate
        // allocates its window on first use, which would otherwise be while reading
        z_.zalloc = &arena_alloc;
        z_.zfree = &arena_free;
        z_.opaque = this;
        z_.next_in = Z_NULL;
        z_.avail_in = 0;
        ready_ = out_ != nullptr && inflateInit2(&z_, 16 + MAX_WBITS) == Z_OK; // (16: a gzip header, not zlib's)
    }
    gzip_source(const gzip_source&) = delete;
    gzip_source& operator=(const gzip_source&) = delete;
    ~gzip_source() {
        if (ready_) inflateEnd(&z_);
        std::free(out_);
    }

    /// The next piece of decompressed bytes, empty at the end, or an error.
    chunk next() noexcept {
        if (!ready_) return {{}, error_code::io_error, ENOMEM};
        if (failed_.code != error_code::none) return failed_;
        for (;;) {
            if (z_.avail_in == 0 && pending_.empty() && !inner_done_) {
                const chunk c = inner_.next();
                if (c.code != error_code::none) return failed_ = c;
                if (c.data.empty()) {
                    inner_done_ = true;
                } else {
                    pending_ = c.data;
                }
            }
            if (z_.avail_in == 0 && !pending_.empty()) { // (zlib takes at most UINT_MAX bytes a call)
                const std::size_t n = pending_.size() < UINT_MAX ? pending_.size() : UINT_MAX;
                z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(pending_.data()));
                z_.avail_in = static_cast<uInt>(n);
                pending_.remove_prefix(n);
            }
            if (z_.avail_in == 0 && inner_done_) {
                if (in_member_) return failed_ = chunk{{}, error_code::unexpected_end, 0, cut_message}; // (cut inside a member)
                return {};
            }
            if (!in_member_) { // a member begins (the first, or one after another)
                if (member_ended_ && inflateReset(&z_) != Z_OK) return failed_ = chunk{{}, error_code::syntax, EILSEQ, corrupt_message};
                in_member_ = true;
            }
            z_.next_out = reinterpret_cast<Bytef*>(out_);
            z_.avail_out = static_cast<uInt>(size_ < UINT_MAX ? size_ : UINT_MAX);
            const int r = inflate(&z_, Z_NO_FLUSH);
            const std::size_t produced = (size_ < UINT_MAX ? size_ : UINT_MAX) - z_.avail_out;
            if (r == Z_STREAM_END) {
                in_member_ = false;
                member_ended_ = true;
            } else if ((r != Z_OK && r != Z_BUF_ERROR) || (produced == 0 && z_.avail_in != 0 && r == Z_BUF_ERROR)) {
                // (corrupt, or no progress with input left; the bytes this call made before it
                // found that, up to the member's check at its end, are handed out first)
                failed_ = chunk{{}, error_code::syntax, EILSEQ, corrupt_message};
                if (produced != 0) return {{out_, produced}, error_code::none, 0};
                return failed_;
            }
            if (produced != 0) return {{out_, produced}, error_code::none, 0};
        }
    }

private:
    static constexpr std::size_t arena_size = std::size_t{48} << 10; // (inflate's state, ~7 KiB, and its 32 KiB window)
    static voidpf arena_alloc(voidpf self, uInt items, uInt size) noexcept {
        auto* g = static_cast<gzip_source*>(self);
        const std::size_t n = (static_cast<std::size_t>(items) * size + 15) / 16 * 16;
        if (n > arena_size - g->arena_used_) return Z_NULL;
        void* p = g->out_ + g->size_ + g->arena_used_;
        g->arena_used_ += n;
        return p;
    }
    static void arena_free(voidpf, voidpf) noexcept {} // (the arena goes with the buffer)

    Inner& inner_;
    std::size_t size_;
    char* out_;
    std::size_t arena_used_ = 0;
    z_stream z_{};
    std::string_view pending_{};
    chunk failed_{};
    bool ready_ = false, inner_done_ = false, in_member_ = false, member_ended_ = false;
};

/// A source that hands out `inner`'s bytes, decompressed when they begin with gzip's magic
/// bytes (`is_gzip`), as they are otherwise: files and pipes alike (the first chunk decides;
/// a first chunk of one byte `1f` waits for the next).
template <byte_source Inner>
class maybe_gzip_source {
public:
    explicit maybe_gzip_source(Inner& inner) noexcept : inner_(inner), gz_(head_) {}

    /// True once the input has been found to be gzip (after the first `next()`).
    bool gzip() const noexcept { return mode_ == mode::gzip; }

    /// The next piece of input (decompressed when gzip), empty at the end, or an error.
    chunk next() noexcept {
        if (mode_ == mode::plain) return inner_.next();
        if (mode_ == mode::gzip) return gz_.next();
        if (mode_ == mode::plain_after_head) { // (the chunk after a held first byte)
            mode_ = mode::plain;
            return {std::exchange(head_.second, {}), error_code::none, 0};
        }
        // undecided: the first bytes say
        chunk c = inner_.next();
        if (c.code != error_code::none || c.data.empty()) {
            mode_ = mode::plain;
            if (held_ != 0 && c.code == error_code::none) { // (a lone first byte, then the end)
                held_ = 0;
                return {std::string_view(&first_, 1), error_code::none, 0};
            }
            return c;
        }
        if (held_ == 0 && c.data.size() == 1 && static_cast<unsigned char>(c.data[0]) == 0x1f) {
            first_ = c.data[0];
            held_ = 1;
            return next();
        }
        const bool gz = held_ != 0 ? static_cast<unsigned char>(c.data[0]) == 0x8b : is_gzip(c.data);
        if (!gz) {
            mode_ = mode::plain;
            if (held_ != 0) { // (the held byte first; this chunk's bytes next)
                held_ = 0;
                head_.second = c.data;
                mode_ = mode::plain_after_head;
                return {std::string_view(&first_, 1), error_code::none, 0};
            }
            return c;
        }
        mode_ = mode::gzip;
        head_.first = held_ != 0 ? std::string_view(&first_, 1) : std::string_view{};
        head_.second = c.data;
        return gz_.next();
    }

private:
    // The inner source with its first chunk(s) handed back first (what the gzip reader reads).
    struct replay {
        Inner* inner;
        std::string_view first{}, second{};
        chunk next() noexcept {
            if (!first.empty()) return {std::exchange(first, {}), error_code::none, 0};
            if (!second.empty()) return {std::exchange(second, {}), error_code::none, 0};
            return inner->next();
        }
    };
    enum class mode : unsigned char { undecided, plain, plain_after_head, gzip };

    Inner& inner_;
    replay head_{&inner_};
    gzip_source<replay> gz_;
    mode mode_ = mode::undecided;
    char first_ = 0;
    int held_ = 0;
};

} // namespace logscan

#endif // LOGSCAN_GZIP_HPP_INCLUDED
