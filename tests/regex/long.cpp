// SPDX-License-Identifier: MIT
// The engines of logscan::regex on long inputs, against the spans Python's re gives
// (tests/data/regex/long_cases.txt, written by tests/data/regex/long_gen.py): for each
// pattern run by the bounded backtracker, inputs of exactly its length limit (the last the
// backtracker takes) and one byte more (the first the Pike VM takes), plus short ones; the
// backtracker alone is checked too, and its hand-over to the Pike VM when its job stack
// overflows.
#include "diff_common.hpp"

namespace {

using logscan::regex_engine;
using logscan::regex_info;
namespace rxi = logscan::regex_internal;
namespace rx = logscan::test::rx;

struct long_case {
    int pattern;
    std::string head, unit, tail;
    std::size_t count;
    std::string full, search;
    std::string input() const {
        std::string s = head;
        s.reserve(head.size() + unit.size() * count + tail.size());
        for (std::size_t k = 0; k < count; ++k) s += unit;
        return s + tail;
    }
    std::size_t size() const { return head.size() + unit.size() * count + tail.size(); }
};

const std::vector<long_case>& long_cases() {
    static const std::vector<long_case> all = [] {
        std::vector<long_case> v;
        rx::each_data_line("long_cases.txt", [&](std::istringstream& ls) {
            long_case c;
            std::string h, u, t;
            ls >> c.pattern >> h >> u >> c.count >> t >> c.full >> c.search;
            c.head = rx::unhex(h);
            c.unit = rx::unhex(u);
            c.tail = rx::unhex(t);
            v.push_back(std::move(c));
        });
        return v;
    }();
    return all;
}

struct tally {
    std::size_t cases = 0, at_limit = 0, past_limit = 0, gave_up = 0;
};

template <logscan::fixed_string P>
tally check_long(int idx) {
    using C = rxi::compiled<P>;
    using I = regex_info<P>;
    tally n;
    for (const long_case& c : long_cases()) {
        if (c.pattern != idx) continue;
        const std::size_t len = c.size();
        const bool at = I::engine == regex_engine::backtrack && len == I::backtrack_limit;
        const bool past = I::engine == regex_engine::backtrack && len == I::backtrack_limit + 1;
        if (len > 100 && !at && !past) continue; // lengths straddling other patterns' limits
        const std::string s = c.input();
        INFO("pattern #" << idx << " " << P.view() << "  length " << len << " (" << c.count << " x \"" << rx::escaped(c.unit) << "\")");
        CHECK(rx::spans(logscan::match<P>(s), s) == c.full);
        CHECK(rx::spans(logscan::search<P>(s), s) == c.search);
        if (at) {
            CHECK(I::engine_for(len) == regex_engine::backtrack);
            ++n.at_limit;
        }
        if (past) {
            CHECK(I::engine_for(len) == regex_engine::pike_vm);
            ++n.past_limit;
        }
        if constexpr (rxi::backtrack<C>::ok) {
            if (len <= rxi::backtrack<C>::max_input) { // the backtracker alone
                std::size_t slots[C::nslots];
                for (const bool anchored : {true, false}) {
                    const rxi::run_status r = rxi::backtrack_run<C>(s.data(), s.size(), 0, anchored, anchored, false, slots, nullptr);
                    if (r == rxi::run_status::gave_up) {
                        ++n.gave_up;
                        continue;
                    }
                    const std::string got = r == rxi::run_status::match ? rx::spans(logscan::regex_result<P>::from_slots(s, slots), s) : "n";
                    CHECK(got == (anchored ? c.full : c.search));
                }
            }
        }
        ++n.cases;
    }
    return n;
}

} // namespace

TEST_CASE("regex::engine_choice_is_visible") {
    // one-pass: every log-line header of the formats
    static_assert(regex_info<R"(\[(\d+) (\d\d:\d\d:\d\d) (\d+)@([^:]*):([^\]]*)\] (.*))">::engine == regex_engine::one_pass);
    static_assert(regex_info<R"(\[(\d+) (\d\d:\d\d:\d\d) (\d+)@([^:]*):([^\]]*)\] (.*))">::backtrack_limit == 0);
    // the issue's pattern: `.*` before a literal is not one-pass
    using paddle = regex_info<R"(\[[^\]]*\] \S+ INFO: Epoch: \[(\d+)\] \[ *(\d+)/(\d+)\] .* loss: (\S+) .*)">;
    static_assert(paddle::engine == regex_engine::backtrack);
    static_assert(paddle::groups == 5);
    // log lines are far below the limit (131072 bits / rows with a visited bit)
    static_assert(paddle::backtrack_limit >= 4096);
    static_assert(paddle::engine_for(paddle::backtrack_limit) == regex_engine::backtrack);
    static_assert(paddle::engine_for(paddle::backtrack_limit + 1) == regex_engine::pike_vm);
    // a loop whose body may match empty: the Pike VM
    static_assert(regex_info<"(a*)*b">::engine == regex_engine::pike_vm);
    static_assert(regex_info<"(a|b?)+c">::engine == regex_engine::pike_vm);
    static_assert(regex_info<"(a|aa)*b">::engine == regex_engine::backtrack);
    // docs/regex.md, "Fast patterns": the unambiguous spelling is one-pass, the `.*` one is not
    static_assert(regex_info<R"(\[([^\]]*)\])">::engine == regex_engine::one_pass);
    static_assert(regex_info<R"(\[(.*)\])">::engine == regex_engine::backtrack);
    static_assert(regex_info<R"((\d+)\.(\d+))">::engine == regex_engine::one_pass);
    static_assert(regex_info<R"((.*)\.(.*))">::engine == regex_engine::backtrack);
    using epoch = regex_info<R"(Epoch: \[(\d+)\] .* loss: (\S+) .*)">;
    static_assert(epoch::engine == regex_engine::backtrack && epoch::backtrack_limit > 4096);
    // the generator's lengths straddle limits computed from this many bits
    static_assert(rxi::bt_words * 64 == 131072, "regenerate tests/data/regex/long_cases.txt");
}

TEST_CASE("regex::long_inputs_both_sides_of_the_backtracker_limit") {
    std::size_t patterns = 0, backtracked = 0, gave_up = 0;
#define LOGSCAN_RX_LONG(i, p)                                                                  \
    {                                                                                          \
        const tally t = check_long<p>(i);                                                      \
        CHECK(t.cases >= 5);                                                                   \
        if (regex_info<p>::engine == regex_engine::backtrack) {                                \
            CHECK(t.at_limit >= 1);                                                            \
            CHECK(t.past_limit >= 1);                                                          \
            ++backtracked;                                                                     \
        }                                                                                      \
        gave_up += t.gave_up;                                                                  \
        ++patterns;                                                                            \
    }
#include "data/regex/long_patterns.inc"
#undef LOGSCAN_RX_LONG
    CHECK(patterns == 7);
    CHECK(backtracked >= 5);
    // `(?:(a)|b)*c` over thousands of bytes keeps a choice per byte: the job stack overflows
    // and the Pike VM finishes the match (the spans above were still right)
    CHECK(gave_up >= 1);
}

namespace {
template <logscan::fixed_string P>
std::size_t backtrack_steps(const std::string& text, bool search, std::string& spans_out) {
    using C = rxi::compiled<P>;
    std::size_t slots[C::nslots];
    std::size_t steps = 0;
    const rxi::run_status r = rxi::backtrack_run<C>(text.data(), text.size(), 0, !search, !search, false, slots, &steps);
    REQUIRE(r != rxi::run_status::gave_up);
    spans_out = r == rxi::run_status::match ? rx::spans(logscan::regex_result<P>::from_slots(text, slots), text) : "n";
    return steps;
}
} // namespace

TEST_CASE("regex::backtracker_linear_time") {
    // inputs that make a plain backtracker exponential or quadratic: each (instruction,
    // position) is explored once, so doubling the input at most doubles the work (short
    // inputs: these patterns keep a choice per byte, and past ~1000 bytes the job stack
    // overflows and the Pike VM takes over)
    std::string sp;
    for (const std::size_t k : {50u, 100u, 200u}) {
        // every start fails at the 'c', then the match is the lone 'b' at the end
        const std::string t = std::string(k, 'a') + "cb";
        REQUIRE(regex_info<"(a|aa)*b">::engine_for(t.size()) == regex_engine::backtrack);
        const std::size_t s1 = backtrack_steps<"(a|aa)*b">(t, true, sp);
        CHECK(sp == std::to_string(k + 1) + ":" + std::to_string(k + 2) + ",x"); // re.search: (k+1, k+2), group unset
        const std::string t2 = std::string(2 * k, 'a') + "cb";
        const std::size_t s2 = backtrack_steps<"(a|aa)*b">(t2, true, sp);
        CHECK(s2 <= 2 * s1 + 64);
        CHECK(s2 <= 2 * rxi::compiled<"(a|aa)*b">::size * (t2.size() + 1)); // the bound: 2 x program x input
        // nested loops, no match: anchored, the full input read a bounded number of times
        const std::string u = std::string(k, 'a') + "c";
        const std::size_t m1 = backtrack_steps<"(a+)+ab">(u + "b", false, sp);
        CHECK(sp == "n");
        const std::size_t m2 = backtrack_steps<"(a+)+ab">(std::string(2 * k, 'a') + "cb", false, sp);
        CHECK(m2 <= 2 * m1 + 64);
        CHECK(m2 <= 2 * rxi::compiled<"(a+)+ab">::size * (2 * k + 3));
    }
    // review findings: a lazy loop re-entering a greedy run (marks must stay on once the
    // first choice was made), and greedy runs entered at descending positions (a run reads
    // the text only up to the first state explored before); the step count includes every
    // byte a run reads
    for (const std::size_t k : {1000u, 2000u}) {
        const std::string a(k, 'a'), a2(2 * k, 'a');
        const std::size_t l1 = backtrack_steps<"(?:a*a)+?">(a + "b", false, sp);
        CHECK(sp == "n");
        const std::size_t l2 = backtrack_steps<"(?:a*a)+?">(a2 + "b", false, sp);
        CHECK(l2 <= 2 * l1 + 64);
        const std::size_t w1 = backtrack_steps<R"((\w*)(\w*))">(a + " ", false, sp);
        const std::size_t w2 = backtrack_steps<R"((\w*)(\w*))">(a2 + " ", false, sp);
        CHECK(sp == "n");
        CHECK(w2 <= 2 * w1 + 64);
        const std::string d(k, '1'), d2(2 * k, '1');
        const std::size_t e1 = backtrack_steps<R"((.*)(\d+)$)">(d + "a", true, sp);
        const std::size_t e2 = backtrack_steps<R"((.*)(\d+)$)">(d2 + "a", true, sp);
        CHECK(sp == "n");
        CHECK(e2 <= 2 * e1 + 64);
        CHECK(e2 <= 2 * rxi::compiled<R"((.*)(\d+)$)">::size * (d2.size() + 2));
    }
}
