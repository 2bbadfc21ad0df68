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
/// **A mis-declared callback is a compile error, never silence.** Every event a reader
/// delivers is declared once with `LOGSCAN_EVENT(name, "accepted forms")`. When a visitor has
/// a member of an event's name (any kind of member: a function of the wrong signature, an
/// overload set, a template, a data member) that cannot be called with what the reader
/// delivers, compilation stops with
/// `logscan: the visitor's on_table_row cannot be called with what the reader delivers ...`
/// followed by the forms it accepts. A visitor with none of a reader's callbacks at all (a
/// misspelt `on_tabel_row`) is rejected by the reader too; a visitor that deliberately has
/// none (it only validates the input) derives from `logscan::validate_only`, as
/// `null_visitor` does.
///
/// Readers call callbacks through `LOGSCAN_VISIT(visitor, name, args...)`, which expands
/// to nothing when the visitor lacks `name` and yields a `flow` otherwise. A reader (or a
/// format module) declares a new event with one line:
/// \code
/// LOGSCAN_EVENT(on_table_row, "void on_table_row(const logscan::table_row&)");
/// \endcode
#ifndef LOGSCAN_VISIT_HPP_INCLUDED
#define LOGSCAN_VISIT_HPP_INCLUDED

#include <concepts>
#include <string_view>
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
        // (only bool itself: an int would convert too, and a C habit of returning 0 for
        // "fine" would silently stop the parse)
        static_assert(std::is_same_v<std::remove_cvref_t<R>, bool>,
                      "logscan: a visitor callback must return void, bool (false stops) or logscan::flow");
        return static_cast<bool>(std::forward<F>(f)(std::forward<A>(a)...)) ? flow::proceed
                                                                             : flow::stop;
    }
}

/// True when `V` can be derived from (needed by the member-name probe).
template <class V>
concept probe_base = std::is_class_v<V> && !std::is_final_v<V> && !std::is_union_v<V>;
} // namespace internal

/// Declares the visitor event `NAME` in the current namespace as the type `NAME##_event`,
/// with `FORMS`, a string literal listing the declarations a visitor may write for it (shown
/// in the compile error of a mis-declared callback). The type answers:
/// - `named<V>()`: V has a member called NAME, of any kind, whatever its signature (the
///   classic ambiguity probe: a class deriving from V and from a class with a member NAME
///   has an ambiguous NAME exactly when V has one);
/// - `reject<V>()`: a compile error naming the callback and FORMS if `named<V>()`;
/// - `callback`: `"NAME"`;
/// - `forward<D>`: a base giving a generic visitor `D` the member `NAME`, which calls
///   `D::on_record(NAME##_event{}, record)` (how record.hpp's writers have every callback);
/// - `invoke(v, args...)`: `v.NAME(args...)` (how a generic visitor hands an event on).
#define LOGSCAN_EVENT(NAME, FORMS)                                                             \
    struct NAME##_event {                                                                      \
        struct probe_other_ {                                                                  \
            void NAME();                                                                       \
        };                                                                                     \
        template <class V_>                                                                    \
        struct probe_ : V_, probe_other_ {};                                                   \
        template <class V_>                                                                    \
        static constexpr bool named() noexcept {                                               \
            using U_ = std::remove_cvref_t<V_>;                                                \
            if constexpr (::logscan::internal::probe_base<U_>)                                 \
                return !requires { &probe_<U_>::NAME; };                                       \
            else if constexpr (std::is_class_v<U_>)                                            \
                return requires { &U_::NAME; };                                                \
            else                                                                               \
                return false;                                                                  \
        }                                                                                      \
        template <class V_>                                                                    \
        static constexpr bool reject() noexcept {                                              \
            static_assert(!named<V_>(), "logscan: the visitor's " #NAME " cannot be called with what the reader " \
                                        "delivers (wrong parameter types, a non-const reference, a misplaced " \
                                        "argument?); declare it as one of: " FORMS);           \
            return true;                                                                       \
        }                                                                                      \
        [[maybe_unused]] static constexpr std::string_view callback = #NAME;                   \
        template <class V_, class... A_>                                                       \
        static constexpr bool callable() noexcept {                                            \
            return requires(V_& v_, const A_&... a_) { v_.NAME(a_...); };                      \
        }                                                                                      \
        template <class V_, class... A_>                                                       \
        static decltype(auto) invoke(V_& v_, const A_&... a_) {                                \
            return v_.NAME(a_...);                                                             \
        }                                                                                      \
        template <class D_>                                                                    \
        struct forward {                                                                       \
            template <class R_>                                                                \
            decltype(auto) NAME(const R_& r_) {                                                \
                return static_cast<D_&>(*this).on_record(NAME##_event{}, r_);                  \
            }                                                                                  \
        };                                                                                     \
    }

/// Calls `vis.name(args...)` if the visitor has such a member and returns its `flow`;
/// otherwise does nothing and yields `flow::proceed`. Arguments are not evaluated when
/// the callback is absent, so work done only for a callback costs nothing without it.
/// The event must be declared with `LOGSCAN_EVENT(name, ...)` in a namespace the call site
/// sees: a visitor member called `name` that cannot take the arguments is a compile error.
#define LOGSCAN_VISIT(vis, name, ...)                                                          \
    ([&]() -> ::logscan::flow {                                                                \
        if constexpr (requires { (vis).name(__VA_ARGS__); }) {                                 \
            return ::logscan::internal::call_as_flow(                                          \
                [&]() -> decltype(auto) { return (vis).name(__VA_ARGS__); });                  \
        } else {                                                                               \
            static_assert(name##_event::template reject<decltype(vis)>());                     \
        }                                                                                      \
        return ::logscan::flow::proceed; /* (outside the else: g++ 12 -Wreturn-type in generic lambdas) */ \
    }())

/// Like `LOGSCAN_VISIT` for a callback taking one record of type `Record`: the last argument (a
/// callable returning the record) runs only when the visitor has the callback, so a record's parsing
/// costs nothing for a visitor that does not want it. Yields the callback's `flow`.
/// \code
/// return LOGSCAN_VISIT_LAZY(vis, on_graph_opt, graph_opt, [&] { return graph_opt{/* parse */}; });
/// \endcode
#define LOGSCAN_VISIT_LAZY(vis, name, Record, ...)                                            \
    ([&]() -> ::logscan::flow {                                                                \
        if constexpr (requires { (vis).name(std::declval<const Record&>()); }) {               \
            return ::logscan::internal::call_as_flow(                                          \
                [&]() -> decltype(auto) { return (vis).name(static_cast<const Record&>((__VA_ARGS__)())); }); \
        } else {                                                                               \
            static_assert(name##_event::template reject<decltype(vis)>());                     \
        }                                                                                      \
        return ::logscan::flow::proceed; /* (outside the else: g++ 12 -Wreturn-type in generic lambdas) */ \
    }())

/// True when V has a member named after at least one of `Events` (see LOGSCAN_EVENT): what
/// a reader asks at compile time before doing work whose only use is those callbacks (a rule
/// whose record nobody wants is not run, a row nobody wants is not cut).
template <class V, class... Events>
inline constexpr bool wants_any = (Events::template named<V>() || ...);

/// Base of a visitor that deliberately has none of a reader's callbacks (it validates the
/// input, or counts through other means): readers then accept it.
struct validate_only {};

/// True when V has a member named after at least one of `Events` (see LOGSCAN_EVENT), or
/// derives from `validate_only`. Readers use it to reject a visitor with none of their
/// callbacks (a misspelt name would otherwise be ignored in silence).
template <class V, class... Events>
concept has_some_callback = std::is_base_of_v<validate_only, std::remove_cvref_t<V>> ||
                            (Events::template named<V>() || ...);

LOGSCAN_EVENT(on_error, "void on_error(const logscan::error&)");

/// True when `V` has a member callback `on_error(const logscan::error&)`.
template <class V>
concept has_on_error = requires(V& v, const error& e) { v.on_error(e); };

/// `report_error(vis, e)`: delivers an error record to the visitor if it has `on_error`.
/// (A function object, not a function template: argument-dependent lookup never finds it,
/// so a function of the user's own named `report_error`, called with a `logscan::error`, is
/// the one called.)
struct report_error_fn {
    template <class V>
    LOGSCAN_FORCE_INLINE constexpr flow operator()(V& vis, const error& e) const {
        return LOGSCAN_VISIT(vis, on_error, e);
    }
};
inline constexpr report_error_fn report_error{};

/// A visitor with no callbacks: every event is ignored (the input is only validated).
struct null_visitor : validate_only {};

} // namespace logscan

#endif // LOGSCAN_VISIT_HPP_INCLUDED
