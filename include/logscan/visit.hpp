// SPDX-License-Identifier: MIT
/// \file visit.hpp
/// Visitor conventions shared by every reader: `flow`, optional callbacks, error delivery.
///
/// A visitor is a plain struct. Every callback is optional: a reader calls one only when
/// the visitor has it, which is decided at compile time, so a callback that is not written
/// costs nothing. A callback may return `void`, `bool` (false = stop) or `logscan::flow`.
///
/// \code
/// struct count_lines {
///     std::size_t n = 0;
///     void on_line(const logscan::line& l) { ++n; }          // void: always continue
///     logscan::flow on_error(const logscan::error& e) {       // flow: may stop the parse
///         return logscan::flow::stop;
///     }
/// };
/// \endcode
///
/// Readers call callbacks through `LOGSCAN_VISIT(visitor, name, args...)`, which expands
/// to nothing when the visitor lacks `name` and yields a `flow` otherwise.
#ifndef LOGSCAN_VISIT_HPP_INCLUDED
#define LOGSCAN_VISIT_HPP_INCLUDED

#include <concepts>
#include <type_traits>
#include <utility>

#include "config.hpp"
#include "error.hpp"

namespace logscan {

/// What a callback tells the reader to do next.
enum class flow : unsigned char {
    proceed = 0, ///< go on with the input
    stop = 1,    ///< end the parse now; the reader returns `error_code::stopped`
};

namespace internal {
/// Turns whatever a callback returned into a `flow`.
template <class F, class... A>
LOGSCAN_FORCE_INLINE constexpr flow call_as_flow(F&& f, A&&... a) {
    using R = std::invoke_result_t<F, A...>;
    if constexpr (std::is_void_v<R>) {
        std::forward<F>(f)(std::forward<A>(a)...);
        return flow::proceed;
    } else if constexpr (std::is_same_v<std::remove_cvref_t<R>, flow>) {
        return std::forward<F>(f)(std::forward<A>(a)...);
    } else {
        static_assert(std::is_convertible_v<R, bool>,
                      "logscan: a visitor callback must return void, bool or logscan::flow");
        return static_cast<bool>(std::forward<F>(f)(std::forward<A>(a)...)) ? flow::proceed
                                                                             : flow::stop;
    }
}
} // namespace internal

/// Calls `vis.name(args...)` if the visitor has such a member and returns its `flow`;
/// otherwise does nothing and yields `flow::proceed`. Arguments are not evaluated when
/// the callback is absent, so work done only for a callback costs nothing without it.
#define LOGSCAN_VISIT(vis, name, ...)                                                          \
    ([&]() -> ::logscan::flow {                                                                \
        if constexpr (requires { (vis).name(__VA_ARGS__); })                                   \
            return ::logscan::internal::call_as_flow(                                          \
                [&]() -> decltype(auto) { return (vis).name(__VA_ARGS__); });                  \
        else                                                                                   \
            return ::logscan::flow::proceed;                                                   \
    }())

/// True when `V` has a member callback `on_error(const logscan::error&)`.
template <class V>
concept has_on_error = requires(V& v, const error& e) { v.on_error(e); };

/// Delivers an error record to the visitor if it has `on_error`.
template <class V>
LOGSCAN_FORCE_INLINE constexpr flow report_error(V& vis, const error& e) {
    return LOGSCAN_VISIT(vis, on_error, e);
}

/// A visitor with no callbacks: every event is ignored.
struct null_visitor {};

} // namespace logscan

#endif // LOGSCAN_VISIT_HPP_INCLUDED
