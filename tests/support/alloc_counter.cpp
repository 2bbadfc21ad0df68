// SPDX-License-Identifier: MIT
// Replaces the global allocation functions with counting ones (see alloc_counter.hpp).
#include "alloc_counter.hpp"

#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(__SANITIZE_MEMORY__)
#define LOGSCAN_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                     \
    __has_feature(memory_sanitizer)
#define LOGSCAN_TEST_SANITIZED 1
#endif
#endif

namespace {
thread_local bool counting = false;
thread_local std::size_t count = 0;
inline void note() noexcept {
    if (counting) ++count;
}
} // namespace

namespace logscan::test {
std::size_t allocation_count() noexcept { return count; }
bool set_counting(bool on) noexcept {
    const bool was = counting;
    counting = on;
    return was;
}
bool counts_malloc() noexcept {
#ifdef LOGSCAN_TEST_SANITIZED
    return false;
#else
    return true;
#endif
}
} // namespace logscan::test

#ifndef LOGSCAN_TEST_SANITIZED
// glibc exports its allocator under these names; our malloc forwards to them.
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void __libc_free(void*);

void* malloc(std::size_t n) {
    note();
    return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t m) {
    note();
    return __libc_calloc(n, m);
}
void* realloc(void* p, std::size_t n) {
    note();
    return __libc_realloc(p, n);
}
void* aligned_alloc(std::size_t a, std::size_t n) {
    note();
    return __libc_memalign(a, n);
}
void* memalign(std::size_t a, std::size_t n) {
    note();
    return __libc_memalign(a, n);
}
int posix_memalign(void** out, std::size_t a, std::size_t n) {
    note();
    void* p = __libc_memalign(a, n);
    if (!p) return 12; // ENOMEM
    *out = p;
    return 0;
}
void free(void* p) { __libc_free(p); }
}
namespace {
// operator new counts once itself, so it takes memory uncounted.
inline void* raw_malloc(std::size_t n) noexcept { return __libc_malloc(n); }
inline void* raw_aligned(std::size_t a, std::size_t n) noexcept { return __libc_memalign(a, n); }
} // namespace
#else
namespace {
inline void* raw_malloc(std::size_t n) noexcept { return std::malloc(n); }
inline void* raw_aligned(std::size_t a, std::size_t n) noexcept { return std::aligned_alloc(a, n); }
} // namespace
#endif

// operator new/delete: counted in every build.
void* operator new(std::size_t n) {
    note();
    if (void* p = raw_malloc(n ? n : 1)) return p;
    throw std::bad_alloc{};
}
void* operator new[](std::size_t n) {
    note();
    if (void* p = raw_malloc(n ? n : 1)) return p;
    throw std::bad_alloc{};
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    note();
    return raw_malloc(n ? n : 1);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
    note();
    return raw_malloc(n ? n : 1);
}
void* operator new(std::size_t n, std::align_val_t a) {
    note();
    std::size_t al = static_cast<std::size_t>(a);
    if (void* p = raw_aligned(al, (n + al - 1) / al * al)) return p;
    throw std::bad_alloc{};
}
void* operator new[](std::size_t n, std::align_val_t a) {
    note();
    std::size_t al = static_cast<std::size_t>(a);
    if (void* p = raw_aligned(al, (n + al - 1) / al * al)) return p;
    throw std::bad_alloc{};
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
