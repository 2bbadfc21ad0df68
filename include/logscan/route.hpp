// SPDX-License-Identifier: MIT
/// \file route.hpp
/// Lines shared between table readers and line rules: `line_router` — the one way to read a
/// log with tables embedded in it (Paddle profiler summaries, MegEngine memory tables, TVM
/// reports), so that no program writes its own feeder and gets the hand-over wrong.
///
/// \code
/// struct my_visitor { void on_table_row(const logscan::table_row& r); /* ... */ } vis;
/// logscan::rule_table<my_visitor> table(vis);
/// logscan::pipe_table<my_visitor> pipes(vis);
/// logscan::rule_reader rules(logscan::rule_set(/* ... */), [&](const logscan::line& l) { text(l); });
/// logscan::line_router router(rules, pipes, table);   // the rules, then the tables in order
/// logscan::line_buffer carry;
/// logscan::error e = logscan::for_each_line(src, router, carry);  // the router is a line visitor
/// router.finish();                                                // ends open tables
/// \endcode
///
/// For every line:
/// 1. Each table reader, in the order given, is fed the line (with `offer::loose_lines`). A
///    reader that takes it as structure — a title, a rule line, a header, a row, a banner —
///    consumes it, and the line is done. A reader in a loose part of its region (after a
///    title, after a closing rule, a note between rows) *offers* the line instead of taking
///    it as a note.
/// 2. Otherwise the line rules are tried. When a rule matches, every table that offered the
///    line is closed first (`on_table_end` with this line's number), then the rule's
///    handler runs: an ordinary log line right after a table is the log line it is, never
///    table text.
/// 3. Otherwise the first table that offered the line keeps it (a note, `on_table_text`, or
///    a new section's header candidate), and if none did, the rule reader's fallback gets it.
/// When a reader consumes a line, every other reader with an open region is closed (one
/// table region at a time): e.g. a pipe table right after a title that a `rule_table` holds.
///
/// `rules_first()` puts the rules before step 1 for formats whose rule lines may appear
/// anywhere (a PaddleDetection log line printed right below a profiler table's last row,
/// with no closing rule): a line a rule matches closes every open table and goes to its
/// handler; the other lines go through steps 1 and 3 as above. The rules' prefilters make
/// this cheap for table lines (one byte compare each, for rules with a literal start).
///
/// A line that every table, at rest, says it declines (`declines(char first)`, or
/// `indented_table::declines_line`) goes to the rules alone, the tables not called.
///
/// A table reader is any object with `feed(const line&, offer)`, `keep(const line&)`,
/// `close(std::uint64_t)`, `active()`, `at_rest()` and `finish()` (the three readers of table.hpp); tables a rule's
/// handler starts (an `aligned_table`'s `start`) are fed here too once started. Nothing
/// allocates.
#ifndef LOGSCAN_ROUTE_HPP_INCLUDED
#define LOGSCAN_ROUTE_HPP_INCLUDED

#include <array>
#include <cstddef>
#include <tuple>
#include <utility>

#include "config.hpp"
#include "lines.hpp"
#include "rules.hpp"
#include "table.hpp"
#include "visit.hpp"

namespace logscan {

/// Routes lines between table readers and a rule reader; see the file comment. Holds
/// references: the readers must outlive it.
template <class Rules, class... Tables>
class line_router {
    static_assert(sizeof...(Tables) >= 1, "logscan::line_router: give at least one table reader");

public:
    /// `rules` is a `rule_reader`; `tables` are table readers, in priority order.
    explicit line_router(Rules& rules, Tables&... tables) noexcept : rules_(rules), tables_(tables...) {}

    /// With `on`, the rules see every line first (see the file comment): a line a rule
    /// matches is the rule's even inside a table's rows, and ends the open tables.
    void rules_first(bool on = true) noexcept { rules_first_ = on; }

    /// Routes one line. Returns `flow::stop` when a callback stopped.
    flow feed(const line& l) {
        if (rules_first_) return feed_rules_first(l);
        if (all_decline(l)) // (nothing to offer, take or close: the rules' alone)
            return rules_.feed(l, [] { return flow::proceed; }, [](const line&) { return false; });
        std::array<bool, sizeof...(Tables)> offered{};
        std::size_t taken_by = npos;
        flow f = flow::proceed;
        for_each_table([&](auto& t, std::size_t i) {
            if (taken_by != npos || f == flow::stop) return;
            switch (t.feed(l, offer::loose_lines)) {
            case table_feed::consumed: taken_by = i; break;
            case table_feed::stop: f = flow::stop; break;
            case table_feed::offered: offered[i] = true; break;
            case table_feed::not_mine: break;
            }
        });
        if (f == flow::stop) return f;
        if (taken_by != npos) { // one table region at a time: the others end here
            for_each_table([&](auto& t, std::size_t i) {
                if (i != taken_by && t.active() && t.close(l.number) == flow::stop) f = flow::stop;
            });
            return f;
        }
        auto on_match = [&] { return close_offered(offered, l.number); };
        auto on_unmatched = [&](const line& current) {
            bool kept = false;
            for_each_table([&](auto& t, std::size_t i) {
                if (kept || !offered[i]) return;
                kept = true;
                if (t.keep(current) == table_feed::stop) f = flow::stop;
            });
            return kept;
        };
        const flow g = rules_.feed(l, on_match, on_unmatched);
        return f == flow::stop ? f : g;
    }

    /// A router is a line visitor: `for_each_line(src, router, carry)`.
    flow on_line(const line& l) { return feed(l); }

    /// Ends the input: every table reader finishes (a table still open ends).
    flow finish() {
        flow f = flow::proceed;
        for_each_table([&](auto& t, std::size_t) {
            if (t.finish() == flow::stop) f = flow::stop;
        });
        return f;
    }

    /// Ends every open table region at `line` (`on_table_end(line)`, after the lines a table
    /// still holds), for a line the router never sees: one the line splitter reports as too
    /// long cannot belong to a table, and the records after it keep their line order.
    flow close(std::uint64_t line) {
        flow f = flow::proceed;
        for_each_table([&](auto& t, std::size_t) {
            if (!t.at_rest() && t.close(line) == flow::stop) f = flow::stop;
        });
        return f;
    }

private:
    static constexpr std::size_t npos = ~std::size_t{0};

    // rules_first: the rules, then (for a line none matched) the tables as in feed().
    flow feed_rules_first(const line& l) {
        flow f = flow::proceed;
        auto on_match = [&] { return close(l.number); };
        auto on_unmatched = [&](const line& current) {
            if (all_decline(current)) return false;
            std::array<bool, sizeof...(Tables)> offered{};
            std::size_t taken_by = npos;
            for_each_table([&](auto& t, std::size_t i) {
                if (taken_by != npos || f == flow::stop) return;
                switch (t.feed(current, offer::loose_lines)) {
                case table_feed::consumed: taken_by = i; break;
                case table_feed::stop: f = flow::stop; break;
                case table_feed::offered: offered[i] = true; break;
                case table_feed::not_mine: break;
                }
            });
            if (f == flow::stop) return true;
            if (taken_by != npos) {
                for_each_table([&](auto& t, std::size_t i) {
                    if (i != taken_by && t.active() && t.close(current.number) == flow::stop) f = flow::stop;
                });
                return true;
            }
            bool kept = false;
            for_each_table([&](auto& t, std::size_t i) {
                if (kept || !offered[i]) return;
                kept = true;
                if (t.keep(current) == table_feed::stop) f = flow::stop;
            });
            return kept;
        };
        const flow g = rules_.feed(l, on_match, on_unmatched);
        return f == flow::stop ? f : g;
    }

    // True when every table is at rest and declines the line (`indented_table::declines_line`,
    // which sets its `indent()` as its `feed` would): feeding them would return `not_mine` from
    // each and change nothing else.
    LOGSCAN_FORCE_INLINE bool all_decline(const line& l) noexcept {
        return [&]<std::size_t... I>(std::index_sequence<I...>) { // (all at rest first: one look each)
            return (std::get<I>(tables_).at_rest() && ...) && (declines_line(std::get<I>(tables_), l) && ...);
        }(std::index_sequence_for<Tables...>{});
    }
    template <class T>
    static bool declines_line(T& t, const line& l) noexcept {
        if constexpr (requires { t.declines_line(l); }) return t.declines_line(l);
        else if constexpr (requires { t.declines(' '); })
            return t.at_rest() && t.declines(l.text.empty() ? '\n' : l.text[0]);
        else return false;
    }

    template <class F>
    void for_each_table(F&& f) {
        [&]<std::size_t... I>(std::index_sequence<I...>) { (f(std::get<I>(tables_), I), ...); }(
            std::index_sequence_for<Tables...>{});
    }

    // Closes the regions of the tables that offered the line.
    flow close_offered(const std::array<bool, sizeof...(Tables)>& offered, std::uint64_t number) {
        flow f = flow::proceed;
        for_each_table([&](auto& t, std::size_t i) {
            if (offered[i] && t.close(number) == flow::stop) f = flow::stop;
        });
        return f;
    }

    Rules& rules_;
    std::tuple<Tables&...> tables_;
    bool rules_first_ = false;
};

} // namespace logscan

#endif // LOGSCAN_ROUTE_HPP_INCLUDED
