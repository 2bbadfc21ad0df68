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
///             use(m.template get<3>());
///             if (m.template get<3>().ends_with("shapes of var nodes:")) ctx.mode = 1; // continuation lines follow
///         }),
///     logscan::rule<R"( (\w+): \((.*)\))">(on_shape).in_modes(1 << 1));           // only in mode 1
/// logscan::rule_reader reader(rules, [](const logscan::line& l, logscan::rule_context&) { text(l); });
/// // for every line (e.g. from a line_splitter): reader.feed(line);
/// \endcode
///
/// - **Dispatch is cheap.** Each rule knows at compile time what a matching line must start
///   with (its literal prefix, or the set of possible first bytes); a line that cannot match
///   is rejected with a byte compare, so a typical line runs one or two matchers.
///   `rule_reader::matcher_calls()` counts how many ran.
/// - **Modes** for multi-line records: `rule_context::mode` (0 at the start) selects which
///   rules apply: a rule applies when bit `mode` of its mask is set (default: mode 0 only;
///   `in_modes(mask)` changes it, `in_all_modes()` for rules such as a header line that
///   apply everywhere). A handler switches modes by assigning `ctx.mode`.
/// - **Sample lines** given after the pattern are matched against it at compile time: a
///   sample the pattern does not match is a compile error, so documentation and code cannot
///   drift apart.
/// - **Handlers** take `(const regex_result<P>&, rule_context&)` (or just the result) and may
///   return void, bool (false = stop) or `logscan::flow`. The fallback takes
///   `(const line&, rule_context&)` (or just the line).
/// - **ANSI colours.** With `strip_ansi` on, SGR sequences (`ESC [ ... m`) are removed before
///   matching; a line without ESC is used in place, one with ESC is copied once into the
///   reader's scratch buffer (a line longer than that is matched unstripped and counted in
///   `ansi_unstripped()`).
///
/// Nothing allocates; the reader holds the rules, the mode and the scratch buffer.
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
};

namespace internal {

/// Removes ANSI SGR sequences (`ESC [ params m`) from `in` into `out`; returns the length,
/// or `out.size() + 1` if `out` is too small.
constexpr std::size_t strip_sgr(std::string_view in, std::span<char> out) noexcept {
    std::size_t n = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] == '\x1b' && i + 1 < in.size() && in[i + 1] == '[') {
            std::size_t j = i + 2;
            while (j < in.size() && ((in[j] >= '0' && in[j] <= '9') || in[j] == ';')) ++j;
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
            return text.size() >= start.prefix_len &&
                   std::char_traits<char>::compare(text.data(), start.prefix.data(), start.prefix_len) == 0;
        } else if constexpr (start.has_first) {
            return !text.empty() && start.first.test(static_cast<unsigned char>(text[0]));
        } else {
            return true;
        }
    }
};

template <fixed_string P, fixed_string... Samples>
constexpr bool samples_match() noexcept {
    return (logscan::match<P>(Samples.view()).matched() && ...);
}

} // namespace internal

/// One rule: a pattern (a template argument), the modes it applies in, and its handler.
template <fixed_string P, class Handler>
struct line_rule {
    Handler handler;                ///< called with the match (and the context)
    std::uint32_t modes = 1u;       ///< bit m set: the rule applies in mode m

    /// The same rule, applying in the modes whose bits are set in `mask`.
    constexpr line_rule in_modes(std::uint32_t mask) const {
        line_rule r = *this;
        r.modes = mask;
        return r;
    }
    /// The same rule, applying in every mode.
    constexpr line_rule in_all_modes() const { return in_modes(~0u); }

    /// Runs the rule on `text`: `matched` tells whether it matched; the handler's flow is returned.
    template <class Counter>
    LOGSCAN_FORCE_INLINE flow try_line(std::string_view text, rule_context& ctx, bool& matched, Counter& calls) {
        matched = false;
        if (!(modes >> ctx.mode & 1u)) return flow::proceed;
        if (!internal::prefilter<P>::may_match(text)) return flow::proceed;
        ++calls;
        const auto m = logscan::match<P>(text);
        if (!m) return flow::proceed;
        matched = true;
        if constexpr (std::is_invocable_v<Handler&, const regex_result<P>&, rule_context&>)
            return internal::call_as_flow(handler, m, ctx);
        else
            return internal::call_as_flow(handler, m);
    }
};

/// Makes a rule for pattern `P`; `Samples` are lines the pattern must match (checked at
/// compile time). The handler receives `(const regex_result<P>&, rule_context&)` or just the
/// result.
template <fixed_string P, fixed_string... Samples, class Handler>
constexpr line_rule<P, Handler> rule(Handler h) {
    static_assert(internal::samples_match<P, Samples...>(),
                  "logscan::rule: a sample line does not match its rule's pattern");
    return {std::move(h), 1u};
}

/// An ordered list of rules (the first that matches wins).
template <class... Rules>
struct rule_set {
    std::tuple<Rules...> rules; ///< the rules, in priority order
    constexpr explicit rule_set(Rules... r) : rules(std::move(r)...) {}
};

/// Options of a `rule_reader`.
struct rule_options {
    bool strip_ansi = false; ///< remove ANSI SGR colour sequences before matching
};

/// Dispatches lines to the first matching rule of a `rule_set`, or to the fallback.
/// `ScratchCapacity` bounds the length of a line that ANSI stripping can copy.
template <class RuleSet, class Fallback, std::size_t ScratchCapacity = 4096>
class rule_reader {
public:
    rule_reader(RuleSet rules, Fallback fallback, rule_options options = {})
        : rules_(std::move(rules)), fallback_(std::move(fallback)), options_(options) {}

    /// Dispatches one line. Returns `flow::stop` when a handler stopped.
    flow feed(const line& l) {
        std::string_view text = l.text;
        if (options_.strip_ansi && text.find('\x1b') != std::string_view::npos) {
            const std::size_t n = internal::strip_sgr(text, scratch_);
            if (n <= scratch_.size()) text = std::string_view(scratch_.data(), n);
            else ++unstripped_; // matched as it is; counted, never dropped
        }
        const line current{text, l.number, l.offset};
        rule_context ctx{current, mode_};
        bool matched = false;
        const flow f = dispatch(text, ctx, matched, std::make_index_sequence<rule_count>{});
        mode_ = ctx.mode < 32 ? ctx.mode : 0;
        if (matched) return f;
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

    /// The current mode.
    std::uint32_t mode() const noexcept { return mode_; }
    /// Sets the mode (e.g. to reset it at the start of an input).
    void set_mode(std::uint32_t m) noexcept { mode_ = m < 32 ? m : 0; }
    /// Number of full matcher runs so far (lines rejected by the prefilter cost none).
    std::uint64_t matcher_calls() const noexcept { return calls_; }
    /// Number of lines that went to the fallback.
    std::uint64_t unmatched() const noexcept { return unmatched_; }
    /// Lines holding ANSI sequences that were longer than the scratch buffer, and so were
    /// matched with their sequences in place.
    std::uint64_t ansi_unstripped() const noexcept { return unstripped_; }
    /// The fallback object (e.g. to read state it gathered).
    Fallback& fallback() noexcept { return fallback_; }

private:
    static constexpr std::size_t rule_count = std::tuple_size_v<decltype(RuleSet::rules)>;

    template <std::size_t... I>
    flow dispatch(std::string_view text, rule_context& ctx, bool& matched, std::index_sequence<I...>) {
        flow f = flow::proceed;
        // the rules in order, up to the first that matched (or stopped)
        (void)((std::get<I>(rules_.rules).try_line(text, ctx, matched, calls_) == flow::stop ? (f = flow::stop, true)
                                                                                         : matched) ||
               ...);
        return f;
    }

    RuleSet rules_;
    Fallback fallback_;
    rule_options options_;
    std::uint32_t mode_ = 0;
    std::uint64_t calls_ = 0;
    std::uint64_t unmatched_ = 0;
    std::uint64_t unstripped_ = 0;
    std::array<char, ScratchCapacity> scratch_{};
};

} // namespace logscan

#endif // LOGSCAN_RULES_HPP_INCLUDED
