// SPDX-License-Identifier: MIT
// fixed_string: a string literal as a template argument, its size without the NUL, its view;
// a default one is empty (all NUL) and fillable in a constant expression.
#include <logscan/fixed_string.hpp>

#include <doctest/doctest.h>

#include <string_view>

namespace {
template <logscan::fixed_string S>
constexpr std::string_view named() noexcept {
    return S.view();
}
constexpr logscan::fixed_string<4> filled() noexcept {
    logscan::fixed_string<4> f{};
    f.chars[0] = 'a';
    f.chars[1] = 'b';
    f.chars[2] = 'c';
    return f;
}
} // namespace

TEST_CASE("fixed_string: a literal as a template argument, its size and view") {
    static_assert(named<"a+b">() == "a+b");
    static_assert(logscan::fixed_string("run").size() == 3);
    static_assert(logscan::fixed_string("").view().empty());
    static_assert(filled().view() == "abc");
    CHECK(named<"on_run, on_call">() == "on_run, on_call");
    CHECK(named<"on_run, on_call">().size() == 15); // 6 + 2 + 7, counted by hand
}
