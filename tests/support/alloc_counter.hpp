// SPDX-License-Identifier: MIT
// Allocation counting for tests: the test binary replaces global operator new/delete and
// (outside sanitizer builds) the malloc family with counting versions, see alloc_counter.cpp.
//
//   auto n = logscan::test::count_allocations([&] { parse(...); });
//   CHECK(n == 0);
//   LOGSCAN_CHECK_NO_ALLOC(parse(...));
#ifndef LOGSCAN_TEST_ALLOC_COUNTER_HPP
#define LOGSCAN_TEST_ALLOC_COUNTER_HPP

#include <cstddef>

namespace logscan::test {

/// Number of allocations (operator new, malloc, calloc, realloc, aligned variants) made by
/// this thread while counting was on.
std::size_t allocation_count() noexcept;
/// Turns counting on or off for this thread; returns the previous state.
bool set_counting(bool on) noexcept;
/// True when malloc/calloc/realloc are counted too (false in sanitizer builds, where the
/// sanitizer runtime owns them; operator new is counted in every build).
bool counts_malloc() noexcept;

/// Runs `f` and returns how many heap allocations it made on this thread.
template <class F>
std::size_t count_allocations(F&& f) {
    const std::size_t before = allocation_count();
    const bool was = set_counting(true);
    f();
    set_counting(was);
    return allocation_count() - before;
}

} // namespace logscan::test

/// Asserts (doctest CHECK) that `expr` makes no heap allocation.
#define LOGSCAN_CHECK_NO_ALLOC(...)                                                            \
    CHECK(::logscan::test::count_allocations([&] { __VA_ARGS__; }) == 0u)

#endif
