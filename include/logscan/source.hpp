// SPDX-License-Identifier: MIT
/// \file source.hpp
/// Byte sources: where the input comes from, one chunk at a time.
///
/// A source has one member, `chunk next()`, which returns the next piece of input: a view
/// that stays valid until the following call, empty at the end of the input, or an error.
/// Sources never allocate after construction:
///
/// | source          | memory                                              |
/// |-----------------|-----------------------------------------------------|
/// | `memory_source` | none: hands out the caller's buffer (one chunk)     |
/// | `fd_source`     | one page-aligned buffer, allocated when constructed |
/// | `file_source`   | an `fd_source` on a file it opens and closes        |
///
/// `read()` always targets the page-aligned start of the buffer: reading from the page
/// cache into a buffer that starts a few bytes past a page boundary is several times slower.
///
/// `replay_source` hands out bytes read ahead (to detect the format) before the rest.
///
/// `pump(source, consumer)` drives any streaming consumer (an object with
/// `flow feed(std::string_view)` and `flow finish()`, like `line_splitter` or the JSON reader)
/// from a source.
#ifndef LOGSCAN_SOURCE_HPP_INCLUDED
#define LOGSCAN_SOURCE_HPP_INCLUDED

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <string_view>
#include <type_traits>
#include <utility>

#include "config.hpp"
#include "error.hpp"
#include "visit.hpp"

#if __has_include(<unistd.h>) && __has_include(<fcntl.h>)
#include <fcntl.h>
#include <unistd.h>
#define LOGSCAN_HAS_POSIX_IO 1
#else
#define LOGSCAN_HAS_POSIX_IO 0
#endif

namespace logscan {

/// One piece of input handed out by a source.
struct chunk {
    std::string_view data{};          ///< the bytes; empty at the end of the input or on error
    error_code code = error_code::none; ///< `io_error` / `open_failed` on failure
    int sys_errno = 0;                ///< errno of a failure
    /// What failed, where the code's name says too little ("gzip stream cut short"): a static
    /// string; empty: the code's name (`to_string`).
    std::string_view message{};

    /// True at the end of the input (no error, no bytes).
    constexpr bool at_end() const noexcept { return data.empty() && code == error_code::none; }
};

/// The end of an input, seen chunk by chunk as a parse reads it: whether the input ended (no
/// failure) inside a line, with bytes after its last `\n` that are not all blanks (spaces, tabs,
/// CR): a killed job's log is cut there, a running job's is still being written. What the
/// command and the Python module say of a line format's input whose last record may be cut
/// short (registry.hpp's `cut_line_message`).
/// \code
/// logscan::input_tail tail;
/// for (logscan::chunk c = src.next(); tail.see(c), !c.data.empty();) { ...; c = src.next(); }
/// if (tail.ends_inside_line()) say_it();
/// \endcode
class input_tail {
public:
    constexpr void see(const chunk& c) noexcept {
        if (c.data.empty()) {
            ended_ = c.code == error_code::none;
            return;
        }
        const std::size_t nl = c.data.rfind('\n');
        if (nl != std::string_view::npos) open_ = false;
        if (!open_) open_ = c.data.find_first_not_of(" \t\r", nl == std::string_view::npos ? 0 : nl + 1) != std::string_view::npos;
    }
    /// True once the input has ended, not failed, with a byte that is not a blank after its last `\n`.
    constexpr bool ends_inside_line() const noexcept { return ended_ && open_; }

private:
    bool open_ = false, ended_ = false; // (open_: a byte not blank since the last `\n`)
};

/// A source that hands out `inner`'s chunks as they are and sees how the input ends
/// (`input_tail`): after a parse, `ends_inside_line()` tells whether the input ended inside
/// its last line, whose record may then hold only part of it (a killed job's log). What the
/// command says then is `cut_line_message` (formats/registry.hpp); it is no error.
/// \code
/// logscan::file_source file{path};
/// logscan::tail_watch src{file};
/// const logscan::error e = logscan::paddle_log::parse(src, v);
/// if (e.ok() && src.ends_inside_line()) warn("the last line may be cut short");
/// \endcode
template <class Source>
class tail_watch {
public:
    constexpr explicit tail_watch(Source& inner) noexcept : inner_(inner) {}
    /// The inner source's next chunk, seen.
    chunk next() {
        chunk c = inner_.next();
        tail_.see(c);
        return c;
    }
    /// True once the input has ended, not failed, with a byte not blank after its last `\n`.
    constexpr bool ends_inside_line() const noexcept { return tail_.ends_inside_line(); }

private:
    Source& inner_;
    input_tail tail_;
};

/// The error of a failed chunk `c` (a source's failure: no line), at byte `offset` of the input.
constexpr error chunk_error(const chunk& c, std::uint64_t offset) noexcept {
    return {c.code, 0, 0, offset, c.message.empty() ? to_string(c.code) : c.message, c.sys_errno};
}

/// A buffer already in memory, handed out whole as a single chunk.
class memory_source {
public:
    constexpr explicit memory_source(std::string_view bytes) noexcept : bytes_(bytes) {}
    /// The whole buffer on the first call, then the end.
    constexpr chunk next() noexcept {
        if (done_) return {};
        done_ = true;
        return {bytes_, error_code::none, 0};
    }

private:
    std::string_view bytes_;
    bool done_ = false;
};

#if LOGSCAN_HAS_POSIX_IO
/// Reads a file descriptor (a file, a pipe, standard input) through a fixed, page-aligned
/// buffer allocated once at construction. Does not close the descriptor.
class fd_source {
public:
    /// Default size of the read buffer.
    static constexpr std::size_t default_buffer_size = std::size_t{256} << 10;
    static constexpr std::size_t page_size = 4096;

    /// `buffer_size` is rounded up to whole pages. If the buffer cannot be allocated,
    /// `next()` reports `io_error` with `ENOMEM`.
    explicit fd_source(int fd, std::size_t buffer_size = default_buffer_size) noexcept
        : fd_(fd), size_((buffer_size + page_size - 1) / page_size * page_size) {
        if (size_ == 0) size_ = page_size;
        buffer_ = static_cast<char*>(std::aligned_alloc(page_size, size_));
    }
    fd_source(const fd_source&) = delete;
    fd_source& operator=(const fd_source&) = delete;
    fd_source(fd_source&& o) noexcept
        : fd_(o.fd_), size_(o.size_), buffer_(std::exchange(o.buffer_, nullptr)) {}
    fd_source& operator=(fd_source&&) = delete;
    ~fd_source() { std::free(buffer_); }

    /// Up to one buffer of bytes from one `read()` (retried on EINTR).
    chunk next() noexcept {
        if (!buffer_) return {{}, error_code::io_error, ENOMEM};
        for (;;) {
            const ::ssize_t n = ::read(fd_, buffer_, size_);
            if (n >= 0) return {{buffer_, static_cast<std::size_t>(n)}, error_code::none, 0};
            if (errno != EINTR) return {{}, error_code::io_error, errno};
        }
    }
    /// The size of the read buffer in bytes.
    std::size_t buffer_size() const noexcept { return size_; }

protected:
    int fd_;

private:
    std::size_t size_;
    char* buffer_;
};

/// Reads a file by path through an `fd_source`. A file that cannot be opened reports
/// `open_failed` (with errno) from the first `next()`.
class file_source : public fd_source {
public:
    explicit file_source(const char* path,
                         std::size_t buffer_size = fd_source::default_buffer_size) noexcept
        : fd_source(::open(path, O_RDONLY | O_CLOEXEC), buffer_size), open_errno_(fd_ < 0 ? errno : 0) {
#if defined(POSIX_FADV_SEQUENTIAL)
        if (fd_ >= 0) (void)::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    }
    file_source(file_source&& o) noexcept : fd_source(std::move(o)), open_errno_(o.open_errno_) {
        o.fd_ = -1;
    }
    ~file_source() {
        if (fd_ >= 0) ::close(fd_);
    }
    /// True when the file was opened.
    bool is_open() const noexcept { return fd_ >= 0; }
    chunk next() noexcept {
        if (fd_ < 0) return {{}, error_code::open_failed, open_errno_};
        return fd_source::next();
    }

private:
    int open_errno_;
};

/// Calls `f(source)` with standard input when `path` is `-`, else with the file `path`, and
/// returns what `f` returns — the usual FILE argument of a command-line tool.
template <class F>
decltype(auto) with_input(const char* path, F&& f) {
    if (path[0] == '-' && path[1] == '\0') {
        fd_source src(0);
        return std::forward<F>(f)(src);
    }
    file_source src(path);
    return std::forward<F>(f)(src);
}
#endif // LOGSCAN_HAS_POSIX_IO

/// A source: anything with `chunk next()`.
template <class S>
concept byte_source = requires(S& s) {
    { s.next() } -> std::same_as<chunk>;
};

/// Any byte source, by reference, behind one indirect call per chunk: code that reads
/// sources of several types (a file, standard input, a gzip stream over either) is compiled
/// once rather than once per type, and can live in a translation unit of its own. The
/// source must outlive the reference.
/// \code
/// logscan::file_source file("train.log");
/// logscan::source_ref any = file;           // a byte_source too
/// logscan::megengine_log::parse(any, visitor);
/// \endcode
class source_ref {
public:
    template <byte_source S>
        requires(!std::is_same_v<std::remove_cv_t<S>, source_ref>)
    source_ref(S& s) noexcept // NOLINT(google-explicit-constructor): a reference to any source
        : source_(&s), next_([](void* p) -> chunk { return static_cast<S*>(p)->next(); }) {}
    /// The source's next chunk.
    chunk next() { return next_(source_); }

private:
    void* source_;
    chunk (*next_)(void*);
};

/// A streaming consumer: `feed` chunks in order, then `finish` once.
template <class C>
concept chunk_consumer = requires(C& c, std::string_view sv) {
    { c.feed(sv) } -> std::same_as<flow>;
    { c.finish() } -> std::same_as<flow>;
};

/// A source that hands out `head` (bytes already read from `inner`, to detect the input's
/// format: `read_head` in formats/detect.hpp) as its first chunk, then the rest of `inner`
/// (nothing more when `inner_done`: the head was all of it, or `inner` failed while the head
/// was read, and `end` says how).
template <byte_source Source>
struct replay_source {
    std::string_view head;   ///< the bytes read first (empty: none)
    Source& inner;           ///< where the rest comes from
    bool head_done = false;  ///< the head was handed out
    bool inner_done = false; ///< `inner` is at its end
    chunk end{};             ///< after the head when `inner_done`: the end, or the failure that cut the head short
    /// The head, then `inner`'s chunks.
    chunk next() {
        if (!head_done) {
            head_done = true;
            if (!head.empty()) return {head, error_code::none, 0};
        }
        if (inner_done) return end;
        return inner.next();
    }
};

/// `text` without the UTF-8 byte order mark that begins it, if one does (see `byte_order_mark`).
constexpr std::string_view without_byte_order_mark(std::string_view text) noexcept {
    return internal::begins_with(text, "\xEF\xBB\xBF") ? text.substr(3) : text;
}

/// A UTF-8 byte order mark (`EF BB BF`, what Windows editors and PowerShell's
/// `Set-Content -Encoding UTF8` put first) at the start of an input fed in chunks, dropped.
/// The input's first chunks go through `feed(chunk, give, on_mark)`: `give(bytes)` (a
/// `flow`) takes what follows the mark; `on_mark()` runs once a whole mark was dropped, before
/// anything after it is given (positions after it count its 3 bytes). A mark may be split
/// between chunks; bytes that begin like one and are not one are given as they were, and
/// `finish(give)` gives those of an input that ended inside them. Once `settled()` (the first
/// byte that is not the mark's is past, or `settle()`: the input does not start here) it
/// only passes chunks on, and a caller feeds its own reader directly.
class byte_order_mark {
public:
    /// True once nothing more is held or dropped.
    constexpr bool settled() const noexcept { return state_ >= done; }
    /// True when a whole mark was dropped.
    constexpr bool dropped() const noexcept { return state_ == mark_dropped; }
    /// True before the first byte (nothing fed, not settled).
    constexpr bool at_start() const noexcept { return state_ == 0; }
    /// The input does not start here (a later part of it): nothing is dropped.
    constexpr void settle() noexcept {
        if (state_ < done) state_ = done;
    }
    /// Feeds the next chunk (see the class comment).
    template <class Give, class OnMark>
    flow feed(std::string_view chunk, Give&& give, OnMark&& on_mark) {
        while (state_ < done && !chunk.empty()) {
            if (chunk.front() != mark[state_]) { // (not a mark: the bytes held so far, then the rest)
                const std::size_t held = state_;
                state_ = done;
                if (held != 0 && give(std::string_view(mark, held)) == flow::stop) return flow::stop;
                break;
            }
            chunk.remove_prefix(1);
            if (++state_ == done) {
                state_ = mark_dropped;
                on_mark();
            }
        }
        return chunk.empty() ? flow::proceed : give(chunk);
    }
    /// Ends the input: the bytes of a mark begun and not finished are given.
    template <class Give>
    flow finish(Give&& give) {
        const std::size_t held = state_ < done ? state_ : 0;
        settle();
        return held != 0 ? give(std::string_view(mark, held)) : flow::proceed;
    }

private:
    static constexpr char mark[3] = {'\xEF', '\xBB', '\xBF'};
    static constexpr unsigned char done = 3, mark_dropped = 4;
    unsigned char state_ = 0; // (0-2: the bytes of a mark seen so far)
};

/// True when `e`, as a format's `parse` returns it, is its source's failure (a read, an open,
/// a corrupt or cut gzip stream: gzip.hpp) rather than the input's own (a JSON document's
/// break has its line; a format's break of the document's shape, such as chrome-trace's
/// "traceEvents is not an array", is `syntax` without an errno): no line, and an I/O code,
/// a cut stream or an errno.
constexpr bool source_failed(const error& e) noexcept {
    return e.line == 0 && e.code != error_code::none && e.code != error_code::stopped &&
           (e.sys_errno != 0 || e.code == error_code::io_error || e.code == error_code::open_failed ||
            e.code == error_code::unexpected_end);
}

/// Reads what is left of `src`, discarding it, and returns the failure the source ends with
/// (no error at a clean end; a source already at its end reads nothing). For a parse that
/// stopped before the end of its input, where the input checks its data as it is read: a
/// gzip stream's corrupt data may decompress to bytes that break a JSON document, and only
/// the stream's check, at its end, says that it was corrupt (gzip.hpp).
/// `go_on()` is asked every 64 chunks whether to go on (false: the reading ends there with a
/// `stopped` error; a caller that checks for an interrupt). The failure's offset counts the
/// bytes this call read before it, from where the parse left the source (what the parse read
/// is not known here: add it to place the failure in the whole input).
template <byte_source Source, class GoOn>
error rest_failure(Source& src, GoOn&& go_on) {
    std::uint64_t bytes_read = 0;
    for (unsigned n = 1;; ++n) {
        const chunk c = src.next();
        if (c.code != error_code::none) return chunk_error(c, bytes_read);
        if (c.data.empty()) return {};
        bytes_read += c.data.size();
        if (n % 64 == 0 && !go_on()) return {error_code::stopped, 0, 0, 0, to_string(error_code::stopped), 0};
    }
}
/// The same, to the end.
template <byte_source Source>
error rest_failure(Source& src) {
    return rest_failure(src, [] { return true; });
}

/// Feeds every chunk of `src` to `consumer` and finishes it. Returns an error with code
/// `none`; the source's error (`io_error`, `open_failed`, with errno), after finishing the
/// consumer so that nothing already read is lost (a source that fails before its first byte,
/// a file that cannot be opened, leaves the consumer unfinished: it read nothing, and a JSON
/// parser finished on nothing would report an empty document that was never read); or
/// `stopped` when the consumer stopped. Errors inside the input are the consumer's to report
/// (to its visitor). A source's error has no line; its `offset` is the bytes read before it
/// (a cut gzip stream: the decompressed bytes it gave).
template <byte_source Source, chunk_consumer Consumer>
error pump(Source& src, Consumer& consumer) {
    std::uint64_t bytes_read = 0;
    for (bool fed = false;; fed = true) {
        const chunk c = src.next();
        if (c.code != error_code::none) {
            if (fed) (void)consumer.finish();
            return chunk_error(c, bytes_read);
        }
        if (c.data.empty()) break;
        bytes_read += c.data.size();
        if (consumer.feed(c.data) == flow::stop) return {error_code::stopped, 0, 0, 0, to_string(error_code::stopped), 0};
    }
    if (consumer.finish() == flow::stop) return {error_code::stopped, 0, 0, 0, to_string(error_code::stopped), 0};
    return {};
}

} // namespace logscan

#endif // LOGSCAN_SOURCE_HPP_INCLUDED
