// logscan — header-only C++20 toolkit for the logs and tables deep-learning tools print.
// SPDX-License-Identifier: MIT
//
/// \file huge_pages.hpp
/// Large buffers of our own backed by transparent huge pages: `internal::huge_pages_wanted`,
/// `internal::advise_huge_pages`, `internal::grown_block` / `internal::grown_array<T>` (grown
/// by doubling without copying past 64 KiB). Used by the summary's rows and kernel intervals
/// (formats/chrome_trace_summary.hpp) and the Python module's columns and string pools; not
/// meant for callers. On Linux it includes `<sys/mman.h>`; elsewhere the advice is nothing and
/// a grown block comes from `realloc`.
#ifndef LOGSCAN_HUGE_PAGES_HPP_INCLUDED
#define LOGSCAN_HUGE_PAGES_HPP_INCLUDED

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "config.hpp"

namespace logscan::internal {

/// What `LOGSCAN_HUGEPAGES` says (`value` its text, or null where it is not set): yes unless "0".
inline bool huge_pages_wanted_by(const char* value) noexcept { return value == nullptr || value[0] != '0' || value[1] != '\0'; }
/// Whether memory of our own asks for transparent huge pages (`advise_huge_pages`): yes,
/// unless the environment's `LOGSCAN_HUGEPAGES` is `0` (read once per process). Each first
/// write to a 4 KiB page is a fault; where faults are dear they are much of the time of what
/// fills memory: on a Firecracker guest (2026-12-07) 10-15 us a page, 64,000 of them in the
/// Python module's frames() of a 107 MB Chainer graph (0.6-0.9 s of 1.2-1.8 s; 25,000 with
/// huge pages) and 11,500 in `logscan summary` of a 500 MB trace. On a host whose memory must
/// be compacted to find huge pages a first call can be slower instead (the 2026-12-05 Xeon
/// host: 1.2-2x): there, say 0.
inline bool huge_pages_wanted() noexcept {
#if defined(__linux__)
    static const bool on = huge_pages_wanted_by(std::getenv("LOGSCAN_HUGEPAGES"));
    return on;
#else
    return false;
#endif
}
/// Asks that [p, p + bytes) be backed by transparent huge pages where the kernel offers them
/// so (Linux `madvise(MADV_HUGEPAGE)`; elsewhere, or with `huge_pages_wanted()` false,
/// nothing): for a large buffer of our own that is filled from its start.
inline void advise_huge_pages(void* p, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (huge_pages_wanted()) (void)::madvise(p, bytes, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

/// No memory, said as `new` says it: std::bad_alloc, or without exceptions std::abort.
[[noreturn]] inline void out_of_memory() {
#if defined(__cpp_exceptions) && __cpp_exceptions
    throw std::bad_alloc();
#else
    std::abort();
#endif
}

/// A buffer grown by doubling, its bytes kept (`grow`): up to 64 KiB from malloc (`realloc`);
/// past that, on Linux, an anonymous mapping of its own in whole 2 MiB units, asking for huge
/// pages and grown by `mremap`, which moves the pages without copying them and leaves the new
/// ones untouched until written. (glibc's realloc copies a large block once its dynamic mmap
/// threshold has risen above it: a twelfth of the Python module's frames() on megengine-log.)
/// A plain value of two words: its owner frees it (`free`), or hands it over (numpy's array
/// owns a column's values).
struct grown_block {
    void* data = nullptr;
    std::size_t bytes = 0; ///< the mapping's length; 0: from malloc (or none)

    /// Gives the memory back; the block is then empty.
    void free() noexcept {
#if defined(__linux__)
        if (bytes != 0) (void)::munmap(data, bytes);
        else
#endif
            std::free(data);
        data = nullptr;
        bytes = 0;
    }
    /// The first `keep` bytes kept, the rest given back where the block lets go of it (a
    /// mapping shrinks in place, by whole 4 KiB pages).
    void shrink(std::size_t keep) noexcept {
        if (data == nullptr) return;
#if defined(__linux__)
        if (bytes != 0) {
            constexpr std::size_t page = 4096;
            std::size_t len = (keep + page - 1) & ~(page - 1);
            if (len == 0) len = page;
            if (len < bytes && ::mremap(data, bytes, len, 0) != MAP_FAILED) bytes = len; // (in place: no move)
            return;
        }
#endif
        if (void* p = std::realloc(data, keep == 0 ? 1 : keep); p != nullptr) data = p;
    }
    /// Room for `want` bytes at least, where the block holds `capacity` now (doubled from 2
    /// KiB; the first `capacity` bytes kept): the new capacity. No memory: `out_of_memory`.
    std::size_t grow(std::size_t capacity, std::size_t want) {
        std::size_t cap = capacity == 0 ? 2048 : capacity;
        while (cap < want) cap *= 2;
#if defined(__linux__)
        constexpr std::size_t unit = std::size_t{2} << 20, mapped_from = std::size_t{64} << 10;
        if (cap > mapped_from || bytes != 0) { // (a mapping stays one, shrunk or not)
            const std::size_t len = (cap + unit - 1) & ~(unit - 1);
            void* p = MAP_FAILED;
            if (bytes != 0) {
                p = ::mremap(data, bytes, len, MREMAP_MAYMOVE);
            } else {
                p = ::mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                if (p != MAP_FAILED) {
                    advise_huge_pages(p, len); // (kept by mremap)
                    if (data != nullptr) std::memcpy(p, data, capacity);
                    free();
                }
            }
            if (p == MAP_FAILED) out_of_memory();
            data = p;
            bytes = len;
            return len;
        }
#endif
        void* p = std::realloc(data, cap);
        if (p == nullptr) out_of_memory();
        data = p;
        return cap;
    }
};

/// Values of a trivially copyable T end to end in a `grown_block` (no copy of them as they
/// grow past 64 KiB: the pages are remapped, huge ones where the kernel gives them): a vector
/// for many values appended, kept until the array is gone. A copy holds the values alone.
template <class T>
class grown_array {
    static_assert(std::is_trivially_copyable_v<T>);

public:
    grown_array() = default;
    grown_array(const grown_array& o) { append(o.data(), o.size()); }
    grown_array& operator=(const grown_array& o) {
        if (this == &o) return *this;
        if (o.size() > capacity_) { // (a new block first: no memory leaves this one as it was)
            grown_array copy(o);
            swap(copy);
        } else {
            size_ = 0;
            append(o.data(), o.size());
        }
        return *this;
    }
    grown_array(grown_array&& o) noexcept { swap(o); }
    grown_array& operator=(grown_array&& o) noexcept {
        if (this != &o) {
            grown_array gone(std::move(*this)); // (this one's block freed with it)
            swap(o);
        }
        return *this;
    }
    ~grown_array() { block_.free(); }
    void swap(grown_array& o) noexcept {
        std::swap(block_, o.block_);
        std::swap(size_, o.size_);
        std::swap(capacity_, o.capacity_);
    }
    T* data() noexcept { return static_cast<T*>(block_.data); }
    const T* data() const noexcept { return static_cast<const T*>(block_.data); }
    std::size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    T* begin() noexcept { return data(); }
    T* end() noexcept { return data() + size_; }
    const T* begin() const noexcept { return data(); }
    const T* end() const noexcept { return data() + size_; }
    T& operator[](std::size_t i) noexcept { return data()[i]; }
    const T& operator[](std::size_t i) const noexcept { return data()[i]; }
    LOGSCAN_FORCE_INLINE void append(const T* v, std::size_t n) {
        if (n > capacity_ - size_) [[unlikely]]
            capacity_ = block_.grow(capacity_ * sizeof(T), (size_ + n) * sizeof(T)) / sizeof(T);
        if (n != 0) std::memcpy(data() + size_, v, n * sizeof(T));
        size_ += n;
    }
    LOGSCAN_FORCE_INLINE void push_back(const T& v) { append(&v, 1); }
    /// The first `n` values kept (n <= size()).
    void resize_down(std::size_t n) noexcept { size_ = n; }
    /// No value (the memory kept).
    void clear() noexcept { size_ = 0; }

private:
    grown_block block_;
    std::size_t size_ = 0, capacity_ = 0;
};

} // namespace logscan::internal

#endif // LOGSCAN_HUGE_PAGES_HPP_INCLUDED
