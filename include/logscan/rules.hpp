// SPDX-License-Identifier: MIT
/// \file rules.hpp
/// Rule-dispatched lines: an ordered list of (compile-time pattern, handler) rules; for every
/// line the first rule whose pattern matches the whole line runs. Lines no rule matches go
/// to a fallback, so nothing is dropped.
///
/// \code
/// struct state { int records = 0; };
/// auto rules = logscan::rule_set(
///     logscan::rule<R"(\[(\d\d) (\d\d:\d\d:\d\d)\] (.*))",          // the pattern ...
///                   "[06 15:13:35] WRN --fast-run not enabled">(   // ... and sample lines it must match
///         [](const auto& m, logscan::rule_context& ctx) {
///             auto [all, day, time, message] = m;                   // structured bindings: no .template get<>
///             use(day, time, message);
///             if (message.ends_with("shapes of var nodes:")) ctx.mode = 1; // continuation lines follow
///         }),
///     logscan::rule<R"( (\w+): \((.*)\))">(on_shape).in_modes(1 << 1));           // only in mode 1
/// logscan::rule_reader reader(rules, [](const logscan::line& l, logscan::rule_context&) { text(l); });
/// // for every line (e.g. from a line_splitter): reader.feed(line);
/// \endcode
///
/// - **Dispatch is cheap.** Each rule knows at compile time what a matching line must start
///   with (its literal prefix, or the set of possible first bytes); a line that cannot match
///   is rejected with a byte compare. `rule_reader::matcher_calls()` counts the matchers run.
/// - **One header match, then the message.** When many kinds of line share a header (a
///   timestamp, a source location) and differ in the message, write one rule for the header
///   and give it sub-rules on one of its groups: `rule<Header>(on_header).then<6>(rule<A>(on_a),
///   rule<B>(on_b))`. For a line the header matches, its handler runs (the record every such
///   line yields), then the first sub-rule whose pattern matches the whole of group 6 (each
///   sub-rule prefiltered on its own literal prefix): one header match per line instead of
///   one per kind of message, and one line can yield both the header's record and the
///   message's. Sub-rules apply in every mode, may have sub-rules of their own, and their
///   handlers take the sub-match (and the context) like any handler.
/// - **Modes** for multi-line records: `rule_context::mode` (0 at the start) selects which
///   rules apply: a rule applies when bit `mode` of its mask is set (default: mode 0 only;
///   `in_modes(mask)` changes it, `in_all_modes()` for rules such as a header line that
///   apply everywhere). A handler switches modes by assigning `ctx.mode`.
/// - **Only what is wanted.** `rule<P>(h).when(on)` leaves a rule out (its matcher never
///   runs) when `on` is false, typically `logscan::wants_any<Visitor, on_x_event, ...>` of the
///   records it yields: a visitor without those callbacks pays nothing for their lines. Only
///   for rules whose patterns no other rule of the mode shares (the lines go on to the next
///   rules and the fallback) and whose lines the fallback then drops too.
/// - **Checked where they are written.** `rule<P, Samples...>(handler)` checks, at compile
///   time and at that call: the pattern (a bad pattern is an error even in a rule never used);
///   every sample line given after the pattern (one that does not match is an error naming
///   `sample_line_does_not_match<Index, Offset, "the sample">`: which sample, counted from 0,
///   and the byte where matching stopped); and the handler, which must take
///   `(const regex_result<P>&, rule_context&)` or `(const regex_result<P>&)` (`const auto&`
///   works), and may return void, bool (false = stop) or `logscan::flow`. The fallback takes
///   `(const line&, rule_context&)` or `(const line&)`, checked by the reader.
/// - **Assisted rules** for the lines that make most of an input: `rule<P>(h).assisted(fast)`
///   tries `fast(text, groups)` before the pattern (after its prefilter), a hand-written one-pass reader of the
///   common shape of the rule's lines. It returns true only for a line the pattern matches,
///   with `groups` (`std::array<std::string_view, N>`, N the pattern's groups with group 0;
///   a group that does not take part left a null view) exactly as the pattern would set them;
///   false hands the line to the pattern, so it may decline anything unusual. The handler
///   cannot tell the two apart. With `LOGSCAN_CHECK_ASSISTS` defined (the tests, and every
///   Debug build of this project) each line it takes is matched by the pattern too, and a
///   difference aborts with the line.
/// - **Rules read by hand**: `rule<P>(h).read_by(read)` is an assisted rule whose reader
///   implements the pattern whole, for a pattern without choices it could get wrong (each
///   variable part ends at a byte it cannot hold: `graph optimization: applied (\d+) passes`):
///   its false is final, and the pattern is never run (a message that only shares the
///   pattern's first bytes costs the reader's few compares, not a matcher run). The pattern
///   stays the rule's definition: its samples are checked at compile time, and with
///   `LOGSCAN_CHECK_ASSISTS` every line is matched by the pattern too, whichever way the
///   reader decided, and a difference aborts.
/// - **Fused rules** read their lines straight from the input: `rule<P>(h).fused(read)` is an
///   assisted rule whose reader also finds the end of the line, `const char* read(const char* p,
///   const char* e, std::array<std::string_view, N>& groups)`: the line starts at `p` and ends
///   at the first `\n` before `e`, or at `e`; the reader returns that end when it read the whole
///   line and the pattern matches it with `groups`, else null (it declines, as an assist
///   does). Fed a line, the rule uses it as an assist; and `rule_reader::take_line` lets a line
///   splitter hand it the bytes at the start of each line (lines.hpp's `take_line`): in the
///   current mode, the rules before it whose prefilters reject the bytes are passed over, and a
///   line the fused reader takes whole, `\n` found, runs the rule's handler without the line
///   having been framed first — the one pass over the line that finds its end is the one that
///   reads it; the lines after it go the same way in the same call while the mode keeps a fused
///   rule (a block of such lines is read without going back to the splitter). Anything else (an earlier rule that may match, the reader declining, a `\r`
///   before the `\n`, colour sequences to remove) leaves the line to the usual path.
/// - **Lines nobody wants** are passed over unread: a fallback may say in which modes it does
///   nothing with a line (`std::uint32_t idle_modes() const`: bit m for mode m; a format's
///   fallback that only yields `text` records is idle when the visitor wants none). In such a
///   mode, `take_line` passes over a line whose first byte (after the indent, with
///   `trim_lines`) no rule of the mode can begin with: its `\n` is found and nothing else is
///   done, as `feed` would have done nothing with it; a run of such lines is passed over in
///   one call (a shape block whose shapes nobody wants, every line one look at its first byte
///   and its `\n`). A blank line is passed over too when no rule of the mode may match an
///   empty text (`rule_set::empty_rules`), and so is a line whose first byte after the indent
///   is a tab or `\r` (it may be blank once trimmed) when neither those rules nor the rules
///   that may begin with that byte apply. Lines without their `\n` in the bytes given and
///   colour sequences to remove leave the line to the usual path.
/// - **ANSI colours.** With `strip_ansi` on, SGR sequences (`ESC [ params m`, parameters
///   separated by `;` or `:`) are removed before matching; a line without ESC is used in
///   place, one with ESC is copied once into the reader's strip buffer, allocated once at
///   construction with `rule_options::strip_capacity` bytes (default: the default
///   `line_buffer` size, so every line a streamed `line_splitter` delivers fits). Only a
///   longer line, possible with contiguous input, is matched unstripped and counted in
///   `ansi_unstripped()`.
///
/// Nothing allocates after construction; the reader holds the rules, the mode and the strip
/// buffer.
#ifndef LOGSCAN_RULES_HPP_INCLUDED
#define LOGSCAN_RULES_HPP_INCLUDED

#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "config.hpp"
#include "error.hpp"
#include "lines.hpp"
#include "regex.hpp"
#include "visit.hpp"

namespace logscan {

/// What a rule handler can see and change besides its match.
struct rule_context {
    const line& current;    ///< the line being dispatched (ANSI sequences removed if enabled)
    std::uint32_t mode = 0; ///< the reader's mode: assign to switch (0..31)
    std::size_t indent = 0; ///< leading spaces set aside before `current` (`rule_options::trim_lines`)
    /// The line with its indent (what a `text` record holds): `current` when nothing was set aside.
    constexpr line whole() const noexcept {
        return {std::string_view(current.text.data() - indent, current.text.size() + indent), current.number,
                current.offset - indent};
    }
};

namespace internal {

/// Removes ANSI SGR sequences (`ESC [ params m`, params of digits, `;` and `:`) from `in` into `out`; returns the length,
/// or `out.size() + 1` if `out` is too small.
constexpr std::size_t strip_sgr(std::string_view in, std::span<char> out) noexcept {
    std::size_t n = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] == '\x1b' && i + 1 < in.size() && in[i + 1] == '[') {
            std::size_t j = i + 2;
            while (j < in.size() && ((in[j] >= '0' && in[j] <= '9') || in[j] == ';' || in[j] == ':')) ++j;
            if (j < in.size() && in[j] == 'm') {
                i = j;
                continue;
            }
        }
        if (n == out.size()) return out.size() + 1;
        out[n++] = in[i];
    }
    return n;
}

/// Compile-time prefilter of a pattern: its literal prefix and the bytes a match can start
/// with (from the regex engine's own analysis).
template <fixed_string P>
struct prefilter {
    using C = regex_internal::compiled<P>;
    static constexpr regex_internal::start_info start = regex_internal::info<C>::start;
    static constexpr std::string_view prefix{start.prefix.data(), start.prefix_len};

    /// False when `text` certainly does not match the whole pattern.
    static constexpr bool may_match(std::string_view text) noexcept {
        if constexpr (start.prefix_len > 0) {
            if (text.size() < start.prefix_len) return false;
            if (std::is_constant_evaluated())
                return std::char_traits<char>::compare(text.data(), start.prefix.data(), start.prefix_len) == 0;
            return internal::same_bytes(text.data(), start.prefix.data(), start.prefix_len); // (no call up to 32 bytes)
        } else if constexpr (start.has_first) {
            return !text.empty() && start.first.test(static_cast<unsigned char>(text[0]));
        } else {
            return true;
        }
    }
};

template <std::size_t>
inline constexpr bool always_false_index = false;

/// Instantiated (a compile error) for a sample line its rule's pattern does not match: the
/// arguments are the sample's index among the rule's samples (from 0), the byte offset in it
/// where matching stopped (the first byte no path of the pattern could take; the sample's
/// length when the line ended before the pattern did), and the sample itself.
template <std::size_t SampleIndex, std::size_t StoppedAtByte, fixed_string Sample>
struct sample_line_does_not_match {
    static_assert(always_false_index<SampleIndex>,
                  "logscan::rule: a sample line does not match its rule's pattern; the template arguments of "
                  "sample_line_does_not_match are <which sample (from 0), the byte offset where matching "
                  "stopped, the sample>");
    static constexpr bool value = false;
};

template <fixed_string P, std::size_t I, fixed_string Sample>
constexpr bool sample_matches() noexcept {
    if constexpr (logscan::match<P>(Sample.view()).matched())
        return true;
    else
        return sample_line_does_not_match<I, regex_internal::match_stop<regex_internal::compiled<P>>(Sample.view()),
                                          Sample>::value;
}

template <fixed_string P, fixed_string... Samples, std::size_t... I>
constexpr bool samples_match(std::index_sequence<I...>) noexcept {
    return (sample_matches<P, I, Samples>() && ...);
}

/// True when `H` can be a handler of pattern P's matches.
template <class H, fixed_string P>
concept rule_handler = std::is_invocable_v<H&, const regex_result<P>&, rule_context&> ||
                       std::is_invocable_v<H&, const regex_result<P>&>;

/// True when `F` can be a rule reader's fallback.
template <class F>
concept rule_fallback = std::is_invocable_v<F&, const line&, rule_context&> || std::is_invocable_v<F&, const line&>;
/// A fallback that says in which modes it does nothing (see "Lines nobody wants").
template <class F>
concept idle_fallback = requires(const F& f) {
    { f.idle_modes() } -> std::convertible_to<std::uint32_t>;
};

struct no_subrules {};
struct no_assist {};

/// A fused rule's reader (see `line_rule::fused`), usable as an assist on a framed line too.
template <class Read>
struct fused_reader {
    Read read;
    template <std::size_t N>
    constexpr bool operator()(std::string_view text, std::array<std::string_view, N>& groups) {
        const char* const e = text.data() + text.size();
        return read(text.data(), e, groups) == e;
    }
};
template <class A>
inline constexpr bool is_fused = false;
template <class Read>
inline constexpr bool is_fused<fused_reader<Read>> = true;

/// A rule's reader that decides (see `line_rule::read_by`): its false is the pattern's.
template <class Read>
struct deciding_reader {
    Read read;
    template <std::size_t N>
    constexpr bool operator()(std::string_view text, std::array<std::string_view, N>& groups) {
        return read(text, groups);
    }
};
template <class A>
inline constexpr bool is_deciding = false;
template <class Read>
inline constexpr bool is_deciding<deciding_reader<Read>> = true;


/// A hook that does nothing (see rule_reader::feed).
struct no_hook {
    constexpr flow operator()() const noexcept { return flow::proceed; }
};

} // namespace internal

template <class... Rules>
struct rule_set;

/// One rule: a pattern (a template argument), the modes it applies in, its handler and
/// (optionally) sub-rules tried on group `Group` of its matches. Made by `rule<P>(handler)`.
template <fixed_string P, class Handler, std::size_t Group = 0, class Subrules = internal::no_subrules,
          class Assist = internal::no_assist>
struct line_rule {
    Handler handler;                ///< called with the match (and the context)
    std::uint32_t modes = 1u;       ///< bit m set: the rule applies in mode m
    Subrules subrules{};            ///< tried on group Group after the handler ran
    bool enabled = true;            ///< false: the rule is never tried (see `when`)
    Assist assist{};                ///< the hand reader tried before the pattern (see `assisted`)
    using assist_type = Assist;     ///< (a `fused` rule's: `internal::fused_reader`)

    /// The same rule, applying in the modes whose bits are set in `mask`.
    constexpr line_rule in_modes(std::uint32_t mask) const {
        line_rule r = *this;
        r.modes = mask;
        return r;
    }
    /// The same rule, applying in every mode.
    constexpr line_rule in_all_modes() const { return in_modes(~0u); }
    /// The same rule, tried only when `on` (a sub-rule too): for a rule whose only effect is a
    /// record the visitor does not want (`logscan::wants_any<V, on_x_event, ...>`), so that
    /// its matcher never runs. Its lines then go to the rules after it and to the fallback:
    /// only for a rule no later rule could take the lines of (patterns that exclude each
    /// other), and whose lines the fallback then drops too (no `on_text` wanted either).
    constexpr line_rule when(bool on) const {
        line_rule r = *this;
        r.enabled = on;
        return r;
    }

    /// The same rule with sub-rules: after the handler ran on a match, the first of `subs`
    /// whose pattern matches the whole of group G runs too (see the file comment).
    template <std::size_t G, class... Subs>
    constexpr line_rule<P, Handler, G, rule_set<Subs...>, Assist> then(Subs... subs) const {
        static_assert(G < regex_result<P>::groups, "logscan::rule::then: the pattern has no group with this index");
        return {handler, modes, rule_set<Subs...>(std::move(subs)...), enabled, assist};
    }
    /// The same, with sub-rules already gathered in a `rule_set`: several rules whose lines
    /// differ but whose messages are read alike (header forms) share one set, and so one
    /// instantiation of its matchers.
    template <std::size_t G, class... Subs>
    constexpr line_rule<P, Handler, G, rule_set<Subs...>, Assist> then(rule_set<Subs...> subs) const {
        static_assert(G < regex_result<P>::groups, "logscan::rule::then: the pattern has no group with this index");
        return {handler, modes, std::move(subs), enabled, assist};
    }
    /// The same rule with a hand reader tried before the pattern (see the file comment):
    /// `fast(std::string_view text, std::array<std::string_view, N>& groups)` returns true only
    /// when the pattern matches `text` with those groups.
    template <class Fast>
    constexpr line_rule<P, Handler, Group, Subrules, Fast> assisted(Fast fast) const {
        static_assert(std::is_invocable_r_v<bool, Fast&, std::string_view,
                                            std::array<std::string_view, regex_result<P>::groups>&>,
                      "logscan::rule::assisted: the reader must be callable as "
                      "bool(std::string_view text, std::array<std::string_view, N>& groups)");
        return {handler, modes, subrules, enabled, std::move(fast)};
    }

    /// The same rule read by a hand reader that implements its pattern whole (see the file
    /// comment): `read(std::string_view text, std::array<std::string_view, N>& groups)` returns
    /// true, with the groups, exactly when the pattern matches `text`; on false the pattern is
    /// not run. For a pattern without choices a reader can get wrong (each variable part
    /// followed by a byte it cannot hold, as in `opr seq of length (\d+):(.*)`).
    template <class Read>
    constexpr line_rule<P, Handler, Group, Subrules, internal::deciding_reader<Read>> read_by(Read read) const {
        static_assert(std::is_invocable_r_v<bool, Read&, std::string_view,
                                            std::array<std::string_view, regex_result<P>::groups>&>,
                      "logscan::rule::read_by: the reader must be callable as "
                      "bool(std::string_view text, std::array<std::string_view, N>& groups)");
        return {handler, modes, subrules, enabled, internal::deciding_reader<Read>{std::move(read)}};
    }

    /// The same rule with a reader that also finds the end of its line (see the file comment):
    /// `read(const char* p, const char* e, std::array<std::string_view, N>& groups)` returns the
    /// end of the line at `p` (its `\n`, or `e`) when the pattern matches the line with those
    /// groups, else null.
    template <class Read>
    constexpr line_rule<P, Handler, Group, Subrules, internal::fused_reader<Read>> fused(Read read) const {
        static_assert(std::is_invocable_r_v<const char*, Read&, const char*, const char*,
                                            std::array<std::string_view, regex_result<P>::groups>&>,
                      "logscan::rule::fused: the reader must be callable as const char*(const char* p, "
                      "const char* e, std::array<std::string_view, N>& groups)");
        return {handler, modes, subrules, enabled, internal::fused_reader<Read>{std::move(read)}};
    }

    /// False when no line that starts with byte `c` can match the pattern (its prefilter's
    /// first byte), known at compile time: what `rule_set::first_byte_rules` is made of.
    static constexpr bool may_start_with(unsigned char c) noexcept {
        constexpr auto start = internal::prefilter<P>::start;
        if constexpr (start.prefix_len > 0) return static_cast<unsigned char>(start.prefix[0]) == c;
        else if constexpr (start.has_first) return start.first.test(c);
        else return true;
    }
    /// False when the pattern cannot match an empty text (its prefilter rejects one: it wants
    /// a literal prefix or a first byte), known at compile time: what `rule_set::empty_rules`
    /// is made of.
    static constexpr bool may_match_empty() noexcept { return internal::prefilter<P>::may_match(std::string_view{}); }
    /// For `rule_set::take`: whether the rule applies in `mode` and may match a line that
    /// starts with `head` (bytes that may run past the line's end).
    constexpr bool may_take(std::string_view head, std::uint32_t mode) const noexcept {
        return enabled && (modes >> mode & 1u) && internal::prefilter<P>::may_match(head);
    }
    /// A fused rule on the bytes [p, e) at the start of a line (see `rule_set::take`):
    /// `taken.next` set when its reader took the line whole, its `\n` before `e`.
    template <class Counter>
    LOGSCAN_FORCE_INLINE void take(const char* p, const char* e, std::uint64_t number, std::uint64_t offset,
                                   std::uint32_t& mode, Counter& calls, line_taken& taken, bool trim = false,
                                   std::size_t indent = 0)
        requires internal::is_fused<Assist>
    {
        regex_result<P> m;
        const char* const end = assist.read(p, e, m.assist_groups());
        if (end == nullptr || end == e || *end != '\n' || (end != p && end[-1] == '\r')) return;
        if (trim && end != p && (end[-1] == ' ' || end[-1] == '\t')) return; // (feed would trim it)
        if (trim && end == p && indent != 0) return; // (all blanks: feed trims them all, no indent)
        const line current{std::string_view(p, static_cast<std::size_t>(end - p)), number, offset};
#ifdef LOGSCAN_CHECK_ASSISTS
        regex_internal::check_assist<P>(current.text, m.assist_groups());
#endif
        m.assist_matched();
        rule_context ctx{current, mode, indent};
        bool matched = false;
        internal::no_hook none;
        taken.result = matched_line(m, ctx, matched, calls, none);
        taken.next = end + 1;
        mode = ctx.mode < 32 ? ctx.mode : 0;
    }

    /// Runs the rule on `text` if it applies in ctx.mode; see try_text.
    template <class Counter, class Hook>
    LOGSCAN_FORCE_INLINE flow try_line(std::string_view text, rule_context& ctx, bool& matched, Counter& calls,
                                       Hook& hook) {
        matched = false;
        if (!(modes >> ctx.mode & 1u)) return flow::proceed;
        return try_text(text, ctx, matched, calls, hook);
    }

    /// Matches `text` against the whole pattern: `matched` tells whether it matched. On a
    /// match, `hook()` runs first (a flow: stop ends here), then the handler, then the
    /// sub-rules; the handler's flow (or a sub-rule's stop) is returned.
    template <class Counter, class Hook>
    LOGSCAN_FORCE_INLINE flow try_text(std::string_view text, rule_context& ctx, bool& matched, Counter& calls,
                                       Hook& hook) {
        matched = false;
        if (!enabled || !internal::prefilter<P>::may_match(text)) return flow::proceed;
        if constexpr (!std::is_same_v<Assist, internal::no_assist>) {
            regex_result<P> m; // (filled in place: a copy of the groups would cost more than the reader)
            if (assist(text, m.assist_groups())) {
#ifdef LOGSCAN_CHECK_ASSISTS
                regex_internal::check_assist<P>(text, m.assist_groups());
#endif
                m.assist_matched();
                return matched_line(m, ctx, matched, calls, hook);
            }
            if constexpr (internal::is_deciding<Assist>) { // (its false is the pattern's)
#ifdef LOGSCAN_CHECK_ASSISTS
                regex_internal::check_declined<P>(text);
#endif
                return flow::proceed;
            }
        }
        ++calls;
        const auto m = logscan::match<P>(text);
        if (!m) return flow::proceed;
        return matched_line(m, ctx, matched, calls, hook);
    }

private:
    // A line the rule took: the hook, the handler, the sub-rules.
    template <class Counter, class Hook>
    LOGSCAN_FORCE_INLINE flow matched_line(const regex_result<P>& m, rule_context& ctx, bool& matched, Counter& calls,
                                           Hook& hook) {
        matched = true;
        if (hook() == flow::stop) return flow::stop;
        flow f;
        if constexpr (std::is_invocable_v<Handler&, const regex_result<P>&, rule_context&>)
            f = internal::call_as_flow(handler, m, ctx);
        else
            f = internal::call_as_flow(handler, m);
        if constexpr (!std::is_same_v<Subrules, internal::no_subrules>) {
            if (f == flow::stop) return f;
            bool sub_matched = false;
            internal::no_hook none;
            return subrules.try_text(m.template get<Group>(), ctx, sub_matched, calls, none);
        } else {
            return f;
        }
    }
};

/// Makes a rule for pattern `P`; `Samples` are lines the pattern must match. The pattern,
/// the samples and the handler are checked at compile time, here (see the file comment).
template <fixed_string P, fixed_string... Samples, class Handler>
constexpr line_rule<P, Handler> rule(Handler h) {
    static_assert(regex_internal::checked<P>::ok, "logscan::rule: invalid pattern");
    static_assert(internal::rule_handler<Handler, P>,
                  "logscan::rule: the handler cannot be called with the match. Write it as "
                  "[&](const auto& m, logscan::rule_context& ctx) { ... } or [&](const auto& m) { ... } "
                  "(m is a const logscan::regex_result<P>&: auto [all, a, b] = m; or, in a generic lambda, "
                  "m.template get<1>()), "
                  "returning void, bool or logscan::flow");
    static_assert(internal::samples_match<P, Samples...>(std::make_index_sequence<sizeof...(Samples)>{}));
    return {std::move(h), 1u};
}

/// An ordered list of rules (the first that matches wins).
template <class... Rules>
struct rule_set {
    std::tuple<Rules...> rules; ///< the rules, in priority order
    constexpr rule_set() = default;
    constexpr explicit rule_set(Rules... r) : rules(std::move(r)...) {
        std::uint32_t bit = 1;
        enabled_ = 0;
        std::apply([&](const auto&... x) { ((enabled_ |= x.enabled ? bit : 0u, bit <<= 1), ...); }, rules);
    }

    /// The rules in order on a line, up to the first that matched (or stopped), in ctx.mode.
    template <class Counter, class Hook>
    LOGSCAN_FORCE_INLINE flow try_line(std::string_view text, rule_context& ctx, bool& matched, Counter& calls,
                                       Hook& hook) {
        return run<true>(text, ctx, matched, calls, hook, std::index_sequence_for<Rules...>{});
    }
    /// The same, trying only the rules whose bit is set in `mask` (bit i: the i-th rule; see
    /// `first_byte_rules`, `rules_in_mode`): a rule left out must be one that could not match.
    template <class Counter, class Hook>
    LOGSCAN_FORCE_INLINE flow try_line(std::string_view text, rule_context& ctx, bool& matched, Counter& calls,
                                       Hook& hook, std::uint32_t mask) {
        return run<true>(text, ctx, matched, calls, hook, std::index_sequence_for<Rules...>{}, mask);
    }

    /// Whether a set can say which of its rules may take a line by its first byte (32 rules at most).
    static constexpr bool has_masks = sizeof...(Rules) <= 32;
    /// For each first byte, the rules (bit i: the i-th) whose pattern may match a line that
    /// starts with it, by their prefilters, at compile time: a line is dispatched on its first
    /// byte and the current mode at once, the rules that cannot take it never looked at.
    static constexpr std::array<std::uint32_t, 256> first_byte_rules = [] {
        std::array<std::uint32_t, 256> t{};
        if constexpr (has_masks) {
            for (unsigned c = 0; c < 256; ++c) {
                std::uint32_t bit = 1, m = 0;
                ((m |= Rules::may_start_with(static_cast<unsigned char>(c)) ? bit : 0u, bit <<= 1), ...);
                t[c] = m;
            }
        }
        return t;
    }();
    /// The rules (bit i: the i-th) whose pattern may match an empty text (an empty line, or
    /// one of spaces with `trim_lines`): an empty line is dispatched as any other, on what it
    /// begins with (nothing), the rules that need a first byte never looked at.
    static constexpr std::uint32_t empty_rules = [] {
        std::uint32_t m = 0;
        if constexpr (has_masks) {
            std::uint32_t bit = 1;
            ((m |= Rules::may_match_empty() ? bit : 0u, bit <<= 1), ...);
        }
        return m;
    }();
    /// The rules that may match `text` by its first byte (`first_byte_rules`, `empty_rules`).
    static constexpr std::uint32_t rules_for(std::string_view text) noexcept {
        return text.empty() ? empty_rules : first_byte_rules[static_cast<unsigned char>(text[0])];
    }
    /// The rules that may match a line whose bytes (after its indent) begin with `c` (`\n`:
    /// an empty line): a `\t` or `\r` may begin a line that is blank once trimmed (`trim_lines`
    /// takes its trailing blanks; the splitter a `\r` before its `\n`), so `empty_rules` too.
    static constexpr std::uint32_t rules_at_line_start(unsigned char c) noexcept {
        return c == '\n' ? empty_rules : first_byte_rules[c] | (c == '\r' || c == '\t' ? empty_rules : 0u);
    }
    /// The enabled rules (bit i: the i-th) that apply in `mode`.
    constexpr std::uint32_t rules_in_mode(std::uint32_t mode) const noexcept {
        std::uint32_t m = 0, bit = 1;
        std::apply([&](const auto&... r) { ((m |= r.enabled && (r.modes >> mode & 1u) ? bit : 0u, bit <<= 1), ...); }, rules);
        return m;
    }
    /// The same, in every mode (sub-rules): dispatched on the text's first byte as a reader
    /// dispatches lines, the disabled rules and those that cannot begin with it never looked at.
    template <class Counter, class Hook>
    LOGSCAN_FORCE_INLINE flow try_text(std::string_view text, rule_context& ctx, bool& matched, Counter& calls,
                                       Hook& hook) {
        if constexpr (has_masks) {
            const std::uint32_t mask = enabled_ & rules_for(text);
            if (mask == 0) {
                matched = false;
                return flow::proceed;
            }
            return run<false>(text, ctx, matched, calls, hook, std::index_sequence_for<Rules...>{}, mask);
        } else {
            return run<false>(text, ctx, matched, calls, hook, std::index_sequence_for<Rules...>{});
        }
    }

    /// True when a rule is fused (see `line_rule::fused`).
    static constexpr bool has_fused = (internal::is_fused<typename Rules::assist_type> || ...);
    /// The modes (bit m: mode m) with an enabled fused rule: in any other mode `take` takes
    /// no line, so a reader need not offer it one.
    constexpr std::uint32_t fused_modes() const noexcept {
        std::uint32_t m = 0;
        std::apply(
            [&](const auto&... r) {
                ((m |= internal::is_fused<typename std::remove_cvref_t<decltype(r)>::assist_type> && r.enabled ? r.modes : 0u),
                 ...);
            },
            rules);
        return m;
    }

    /// Offers the bytes [p, e) at the start of a line (of number `number`, at `offset`) to the
    /// fused rules of `mode`: the first rule of the mode whose prefilter accepts the bytes
    /// decides; when it is fused and its reader takes the line whole, the line is handled
    /// (`mode` updated) and `next` is one past its `\n`; otherwise nothing is done.
    /// (`trim`: the line's indent, `indent` spaces, was set aside before p, and a line that
    /// ends with a blank is left to `feed`; see `rule_options::trim_lines`)
    template <class Counter>
    LOGSCAN_FORCE_INLINE line_taken take(const char* p, const char* e, std::uint64_t number, std::uint64_t offset,
                                         std::uint32_t& mode, Counter& calls, bool trim = false, std::size_t indent = 0)
        requires has_fused
    {
        line_taken taken;
        const std::string_view head(p, static_cast<std::size_t>(e - p));
        auto one = [&](auto& r) { // true: decided
            if (!r.may_take(head, mode)) return false;
            if constexpr (internal::is_fused<typename std::remove_cvref_t<decltype(r)>::assist_type>)
                r.take(p, e, number, offset, mode, calls, taken, trim, indent);
            return true;
        };
        std::apply([&](auto&... r) { (void)(one(r) || ...); }, rules);
        return taken;
    }

private:
    std::uint32_t enabled_ = ~0u; // (bit i: the i-th rule is enabled; a default-built set: all)
    template <bool Modes, class Counter, class Hook, std::size_t... I>
    LOGSCAN_FORCE_INLINE flow run(std::string_view text, rule_context& ctx, bool& matched, Counter& calls, Hook& hook,
                                  std::index_sequence<I...>, std::uint32_t mask = ~0u) {
        flow f = flow::proceed;
        matched = false;
        auto one = [&](auto& r) { // true: decided (matched, or stopped)
            const flow g = Modes ? r.try_line(text, ctx, matched, calls, hook) : r.try_text(text, ctx, matched, calls, hook);
            if (g == flow::stop) {
                f = flow::stop;
                return true;
            }
            return matched;
        };
        if constexpr (sizeof...(I) <= 32) {
            // the rules the mask leaves, in order, each reached by a jump (a look at every
            // rule's bit cost two dozen rules' worth of tests and branches on each line)
            if constexpr (sizeof...(I) < 32) mask &= (1u << sizeof...(I)) - 1u;
            while (mask != 0) {
                const unsigned i = static_cast<unsigned>(std::countr_zero(mask));
                mask &= mask - 1u;
                bool decided = false;
                switch (i) {
#define LOGSCAN_RULE_CASE(K)                                                                                           \
    case K:                                                                                                            \
        if constexpr (K < sizeof...(I)) decided = one(std::get<K>(rules));                                             \
        break;
#define LOGSCAN_RULE_CASES(K) LOGSCAN_RULE_CASE(K) LOGSCAN_RULE_CASE(K + 1) LOGSCAN_RULE_CASE(K + 2) LOGSCAN_RULE_CASE(K + 3)
                    LOGSCAN_RULE_CASES(0) LOGSCAN_RULE_CASES(4) LOGSCAN_RULE_CASES(8) LOGSCAN_RULE_CASES(12)
                    LOGSCAN_RULE_CASES(16) LOGSCAN_RULE_CASES(20) LOGSCAN_RULE_CASES(24) LOGSCAN_RULE_CASES(28)
#undef LOGSCAN_RULE_CASES
#undef LOGSCAN_RULE_CASE
                default: break;
                }
                if (decided) break;
            }
        } else { // (more rules than mask bits: the first 32 by the mask, the rest all tried)
            (void)(((I >= 32 || (mask >> (I % 32) & 1u)) && one(std::get<I>(rules))) || ...);
        }
        return f;
    }
};

/// Options of a `rule_reader`.
struct rule_options {
    bool strip_ansi = false; ///< remove ANSI SGR colour sequences before matching
    /// Rules see each line without its indent (leading spaces) and its trailing spaces and
    /// tabs, `rule_context::indent` saying how many spaces were set aside; the fallback sees it
    /// with its indent (`text` records keep it). A fused rule then takes only lines that end
    /// without a blank (see `line_rule::fused`).
    bool trim_lines = false;
    /// Size of the strip buffer (allocated once, only with strip_ansi): the longest line that
    /// can be stripped. The default matches line_buffer's, so every streamed line fits.
    std::size_t strip_capacity = line_buffer::default_capacity;
};

/// Dispatches lines to the first matching rule of a `rule_set`, or to the fallback.
/// Movable, not copyable (it owns the strip buffer).
template <class RuleSet, class Fallback>
class rule_reader {
    static_assert(internal::rule_fallback<Fallback>,
                  "logscan::rule_reader: the fallback cannot be called with the line; write it as "
                  "[&](const logscan::line& l, logscan::rule_context& ctx) { ... } or "
                  "[&](const logscan::line& l) { ... }, returning void, bool or logscan::flow");

public:
    rule_reader(RuleSet rules, Fallback fallback, rule_options options = {})
        : rules_(std::move(rules)), fallback_(std::move(fallback)), options_(options) {
        if constexpr (RuleSet::has_fused) fused_modes_ = rules_.fused_modes();
        if constexpr (RuleSet::has_masks)
            for (std::uint32_t m = 0; m < 32; ++m) active_[m] = rules_.rules_in_mode(m);
        if constexpr (RuleSet::has_masks && internal::idle_fallback<Fallback>)
            idle_modes_ = static_cast<std::uint32_t>(fallback_.idle_modes());
        if (options_.strip_ansi && options_.strip_capacity != 0) {
            strip_ = static_cast<char*>(std::malloc(options_.strip_capacity));
            strip_cap_ = strip_ ? options_.strip_capacity : 0;
        }
    }
    rule_reader(const rule_reader&) = delete;
    rule_reader& operator=(const rule_reader&) = delete;
    rule_reader(rule_reader&& o) noexcept
        : rules_(std::move(o.rules_)), fallback_(std::move(o.fallback_)), options_(o.options_), mode_(o.mode_),
          fused_modes_(o.fused_modes_), idle_modes_(o.idle_modes_), active_(o.active_), calls_(o.calls_), unmatched_(o.unmatched_), unstripped_(o.unstripped_),
          escape_free_(o.escape_free_), strip_(o.strip_),
          strip_cap_(o.strip_cap_) {
        o.strip_ = nullptr;
        o.strip_cap_ = 0;
    }
    ~rule_reader() { std::free(strip_); }

    /// Dispatches one line. Returns `flow::stop` when a handler stopped.
    flow feed(const line& l) {
        return feed(l, internal::no_hook{}, [](const line&) { return false; });
    }
    /// A rule reader is a line visitor: `for_each_line(src, reader, carry)`.
    flow on_line(const line& l) { return feed(l); }

    /// Dispatches one line with two hooks, for a caller that shares lines with other readers
    /// (see `line_router`): `on_match()` runs when a rule matched, before its handler, and
    /// returns a flow; `on_unmatched(const line&)` runs when none matched and returns true
    /// if it took the line (the fallback is then not called). The line the hook sees has its
    /// ANSI sequences removed if enabled.
    template <class OnMatch, class OnUnmatched>
    flow feed(const line& l, OnMatch&& on_match, OnUnmatched&& on_unmatched) {
        std::string_view text = l.text;
        if (options_.strip_ansi && !escape_free_ && text.find('\x1b') != std::string_view::npos) {
            const std::size_t n = internal::strip_sgr(text, std::span<char>(strip_, strip_cap_));
            if (n <= strip_cap_) text = std::string_view(strip_, n);
            else ++unstripped_; // matched as it is; counted, never dropped
        }
        std::size_t indent = 0;
        if (options_.trim_lines && !text.empty()) { // (most lines have neither: a look at each end first)
            if (text.back() == ' ' || text.back() == '\t') text = internal::trim_right(text);
            if (!text.empty() && text.front() == ' ') indent = internal::leading_spaces(text); // (a blank line is empty now)
        }
        // (read once into locals: the two lines below would each copy the pair from `l`, which
        // the caller has just stored; at -O2 that was 3 % of the CompNode table's time)
        const std::uint64_t number = l.number, offset = l.offset;
        const line current{text, number, offset};
        const line trimmed{std::string_view(text.data() + indent, text.size() - indent), number, offset + indent};
        rule_context ctx{trimmed, mode_, indent};
        bool matched = false;
        flow f = flow::proceed;
        if constexpr (RuleSet::has_masks) { // (dispatched on the mode and the first byte at once)
            const std::uint32_t candidates = active_[mode_] & RuleSet::rules_for(trimmed.text);
            if (candidates != 0) f = rules_.try_line(trimmed.text, ctx, matched, calls_, on_match, candidates);
        } else {
            f = rules_.try_line(trimmed.text, ctx, matched, calls_, on_match);
        }
        mode_ = ctx.mode < 32 ? ctx.mode : 0;
        if (matched || f == flow::stop) return f;
        if (on_unmatched(current)) return flow::proceed;
        ++unmatched_;
        rule_context fctx{current, mode_};
        flow g;
        if constexpr (std::is_invocable_v<Fallback&, const line&, rule_context&>)
            g = internal::call_as_flow(fallback_, current, fctx);
        else
            g = internal::call_as_flow(fallback_, current);
        mode_ = fctx.mode < 32 ? fctx.mode : 0;
        return g;
    }

    /// A line splitter's `take_line` (lines.hpp) for a rule set with fused rules or a fallback
    /// with idle modes: the line that starts at `p` passed over when nobody wants it, or
    /// handled by a fused rule of the current mode, read straight from the bytes [p, e), when
    /// that rule takes it (see the file comment); declined otherwise, and always while colour
    /// sequences may have to be removed.
    LOGSCAN_FORCE_INLINE line_taken take_line(const char* p, const char* e, std::uint64_t number, std::uint64_t offset)
        requires(RuleSet::has_fused || (RuleSet::has_masks && internal::idle_fallback<Fallback>))
    {
        const std::uint32_t here = (fused_modes_ | idle_modes_) >> mode_ & 1u;
        if (!here || (options_.strip_ansi && !escape_free_)) return {}; // (nothing to do here: no call)
        return take_lines(p, e, number, offset);
    }

    /// Tells the reader whether the lines fed from now on are known to hold no ESC byte
    /// (a caller that checked their whole chunk at once: format.hpp's `line_parser`), so that
    /// `strip_ansi` need not look for one in each line. False (the default) looks.
    void set_escape_free(bool free) noexcept { escape_free_ = free; }
    /// The current mode.
    std::uint32_t mode() const noexcept { return mode_; }
    /// True in mode 0, the mode a new reader starts in: nothing read carries over to the
    /// next line (see format.hpp's `line_parser::at_rest`).
    bool at_rest() const noexcept { return mode_ == 0; }
    /// Sets the mode (e.g. to reset it at the start of an input).
    void set_mode(std::uint32_t m) noexcept { mode_ = m < 32 ? m : 0; }
    /// Number of full matcher runs so far, sub-rules included (lines rejected by a
    /// prefilter cost none).
    std::uint64_t matcher_calls() const noexcept { return calls_; }
    /// Number of lines that went to the fallback.
    std::uint64_t unmatched() const noexcept { return unmatched_; }
    /// Lines holding ANSI sequences that were longer than the strip buffer, and so were
    /// matched with their sequences in place.
    std::uint64_t ansi_unstripped() const noexcept { return unstripped_; }
    /// The fallback object (e.g. to read state it gathered).
    Fallback& fallback() noexcept { return fallback_; }

private:
    // take_line's work, in a mode where a fused rule or the idle fallback may take lines (out
    // of line: a line in any other mode pays one test, not this function's frame).
    line_taken take_lines(const char* p, const char* e, std::uint64_t number, std::uint64_t offset) {
        const char* q = p; // (the indent set aside, as feed does)
        if (options_.trim_lines)
            while (q != e && *q == ' ') ++q;
        if constexpr (RuleSet::has_masks && internal::idle_fallback<Fallback>) {
            if (idle_modes_ >> mode_ & 1u) { // lines no rule of the mode can begin with: nobody's,
                // passed over as a run (each went to the fallback, which did nothing)
                std::uint64_t n = 0;
                const char* next = p;
                for (;;) {
                    const auto c = static_cast<unsigned char>(q != e ? *q : '\n');
                    if ((active_[mode_] & RuleSet::rules_at_line_start(c)) != 0) break;
                    const char* const nl = internal::find_newline(q, e);
                    if (nl == nullptr) break;
                    ++n;
                    next = q = nl + 1;
                    if (options_.trim_lines)
                        while (q != e && *q == ' ') ++q;
                }
                if (n != 0) {
                    unmatched_ += n;
                    return {next, flow::proceed, n};
                }
            }
        }
        if constexpr (RuleSet::has_fused) { // a run of lines the fused rules take, in one call
            std::uint64_t n = 0;
            const char* at = p; // (the start of the next line; q: past its indent)
            while (fused_modes_ >> mode_ & 1u) {
                const line_taken t =
                    rules_.take(q, e, number + n, offset + static_cast<std::uint64_t>(q - p), mode_, calls_,
                                options_.trim_lines, static_cast<std::size_t>(q - at));
                if (t.next == nullptr) break;
                ++n;
                at = q = t.next;
                if (t.result == flow::stop) return {at, flow::stop, n};
                if (options_.trim_lines)
                    while (q != e && *q == ' ') ++q;
            }
            if (n == 0) return {};
            return {at, flow::proceed, n};
        } else {
            (void)number;
            (void)offset;
            return {};
        }
    }

    RuleSet rules_;
    Fallback fallback_;
    rule_options options_;
    std::uint32_t mode_ = 0;
    std::uint32_t fused_modes_ = 0; // (RuleSet::fused_modes, once)
    std::uint32_t idle_modes_ = 0;  // (the fallback's idle_modes, once)
    std::array<std::uint32_t, 32> active_{}; // (per mode: RuleSet::rules_in_mode, once)
    std::uint64_t calls_ = 0;
    std::uint64_t unmatched_ = 0;
    std::uint64_t unstripped_ = 0;
    bool escape_free_ = false;
    char* strip_ = nullptr;
    std::size_t strip_cap_ = 0;
};

} // namespace logscan

#endif // LOGSCAN_RULES_HPP_INCLUDED
