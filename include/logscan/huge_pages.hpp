// logscan — header-only C++20 toolkit for the logs and tables deep-learning tools print.
// SPDX-License-Identifier: MIT
//
/// \file huge_pages.hpp
/// Large buffers of our own backed by transparent huge pages: `internal::huge_pages_wanted`,
/// `internal::advise_huge_pages` and `internal::huge_block` (2 MiB, aligned). Used by the
/// summary's row blocks (formats/chrome_trace_summary.hpp) and the Python module's columns;
/// not meant for callers. On Linux it includes `<sys/mman.h>`; elsewhere the advice is nothing
/// and a block comes from aligned `operator new`.
#ifndef LOGSCAN_HUGE_PAGES_HPP_INCLUDED
#define LOGSCAN_HUGE_PAGES_HPP_INCLUDED

#include <cstddef>
#include <cstdint>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>

#include <cstdlib>
#include <string_view>
#endif

#include "config.hpp"

namespace logscan::internal {

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
    static const bool on = [] {
        const char* v = std::getenv("LOGSCAN_HUGEPAGES");
        return v == nullptr || std::string_view(v) != "0";
    }();
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

/// A block of `huge_block::bytes` (2 MiB) aligned to its size, asking for a huge page:
/// on Linux a mapping of its own (over-mapped, then trimmed to the aligned 2 MiB: the
/// advice is not left on memory the allocator hands out again), elsewhere aligned
/// `operator new`. Its bytes are uninitialised (on Linux: zero); `release` gives it back.
struct huge_block {
    static constexpr std::size_t bytes = std::size_t{2} << 20;
    /// A new block (std::bad_alloc where there is none; without exceptions, std::abort).
    static void* allocate() {
#if defined(__linux__)
        void* const m = ::mmap(nullptr, 2 * bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) {
#if defined(__cpp_exceptions) && __cpp_exceptions
            throw std::bad_alloc();
#else
            std::abort(); // (as `new` does without exceptions)
#endif
        }
        const auto at = reinterpret_cast<std::uintptr_t>(m);
        const std::uintptr_t aligned = (at + bytes - 1) & ~std::uintptr_t{bytes - 1};
        if (aligned != at) (void)::munmap(m, aligned - at);                                // (the head)
        (void)::munmap(reinterpret_cast<void*>(aligned + bytes), at + bytes - aligned);   // (the tail: never empty)
        void* const p = reinterpret_cast<void*>(aligned);
        advise_huge_pages(p, bytes);
        return p;
#else
        return ::operator new(bytes, std::align_val_t{bytes});
#endif
    }
    /// Gives back a block `allocate` gave.
    static void release(void* p) noexcept {
#if defined(__linux__)
        (void)::munmap(p, bytes);
#else
        ::operator delete(p, std::align_val_t{bytes});
#endif
    }
};

} // namespace logscan::internal

#endif // LOGSCAN_HUGE_PAGES_HPP_INCLUDED
