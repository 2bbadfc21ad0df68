// SPDX-License-Identifier: MIT
// Unit tests of logscan/regex.hpp: API, semantics corner cases, linear time (step counts),
// constant stack, no allocation. The large differential test against Python's re is in
// tests/regex/diff_*.cpp.
#include <logscan/regex.hpp>

#include <pthread.h>

#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include "support/alloc_counter.hpp"
#include "support/chunking.hpp"

namespace rxi = logscan::regex_internal;

namespace {

// Steps taken by a search / whole match, through the internal entry points.
template <logscan::fixed_string P>
std::size_t search_steps(std::string_view text, bool& found) {
    using C = rxi::compiled<P>;
    std::size_t slots[C::nslots];
    std::size_t steps = 0;
    found = rxi::search_from<C>(text.data(), text.size(), 0, false, slots, &steps);
    return steps;
}
template <logscan::fixed_string P>
std::size_t match_steps(std::string_view text, bool& found) {
    using C = rxi::compiled<P>;
    std::size_t slots[C::nslots];
    std::size_t steps = 0;
    found = rxi::full_match<C>(text.data(), text.size(), slots, &steps);
    return steps;
}

} // namespace

TEST_CASE("regex::match_and_groups") {
    const std::string_view line = "[06 15:13:35] FpropEnv(val): start";
    auto m = logscan::match<R"(\[(\d+) (?<time>\d\d:\d\d:\d\d)\] (.*))">(line);
    REQUIRE(m);
    CHECK(m.get<0>() == line);
    CHECK(m.get<1>() == "06");
    CHECK(m.get<"time">() == "15:13:35");
    CHECK(m.get<2>() == "15:13:35");
    CHECK(m.get<3>() == "FpropEnv(val): start");
    CHECK(m.get<3>().data() == line.data() + 14); // views into the input
    CHECK(m.size() == 4);
    CHECK(m.offset() == 0);
    // the whole input must match
    CHECK_FALSE(logscan::match<R"(\d+)">("12a"));
    CHECK(logscan::match<R"(\d+)">("12"));
    CHECK_FALSE(logscan::match<"a">(""));
    CHECK(logscan::match<"">(""));
    // failed match: every group is a null view
    auto f = logscan::match<"(a)(b)">("ac");
    CHECK_FALSE(f);
    CHECK(f.get<0>().data() == nullptr);
    CHECK(f.get<1>().data() == nullptr);
}

TEST_CASE("regex::non_participating_groups") {
    auto m = logscan::match<"(a)|(b)">("b");
    REQUIRE(m);
    CHECK(m.get<1>().data() == nullptr);
    CHECK(m.get<2>() == "b");
    // a group that matched empty is not null
    auto e = logscan::match<"(a*)b">("b");
    REQUIRE(e);
    CHECK(e.get<1>().data() != nullptr);
    CHECK(e.get<1>().empty());
    // a group keeps the text of an earlier iteration (Python / PCRE)
    auto k = logscan::match<"(?:(a)|b)+">("ab");
    REQUIRE(k);
    CHECK(k.get<1>() == "a");
    // (?P<name>) spelling
    auto p = logscan::search<"(?P<num>[0-9]+)">("ab 123 cd");
    CHECK(p.get<"num">() == "123");
    CHECK(p.offset() == 3);
}

TEST_CASE("regex::a new result is empty whatever its storage held before") {
    // (its bytes are zeroed by 16-byte stores at run time: every group null, no offset, not
    // matched, in storage filled with other bytes first, for results of 1 to 13 groups)
    const auto check = [](auto tag) {
        using R = decltype(tag);
        alignas(R) unsigned char storage[sizeof(R)];
        std::memset(storage, 0xA5, sizeof storage);
        const R* r = ::new (static_cast<void*>(storage)) R();
        CHECK_FALSE(r->matched());
        CHECK(r->offset() == 0);
        for (std::size_t i = 0; i < R::size(); ++i) {
            CHECK((*r)[i].data() == nullptr);
            CHECK((*r)[i].empty());
        }
    };
    check(logscan::regex_result<"a">{});
    check(logscan::regex_result<"(a)(b)">{});
    check(logscan::regex_result<"(a)(b)(c)(d)(e)(f)(g)(h)">{});
    check(logscan::regex_result<"(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)(l)">{});
    constexpr logscan::regex_result<"(a)(b)"> c{}; // (and in a constant expression)
    static_assert(!c.matched() && c.get<2>().data() == nullptr);
}

TEST_CASE("regex::structured_bindings_and_constexpr") {
    auto [all, a, b] = logscan::match<"(x+)(y)?">("xx");
    CHECK(all == "xx");
    CHECK(a == "xx");
    CHECK(b.data() == nullptr);
    static constexpr char text[] = "id=42;";
    constexpr auto c = logscan::search<R"(id=(\d+))">(std::string_view(text, 6));
    static_assert(c.matched());
    static_assert(c.get<1>() == "42");
    static_assert(!logscan::match<"(a|b)*c">("abx"));
    static_assert(logscan::match<"(a|aa)*b">("aaab").get<1>() == "a");
    static_assert(std::tuple_size_v<decltype(c)> == 2);
}

TEST_CASE("regex::typed_captures") {
    auto m = logscan::match<R"((\d+) (\S+) (\S+))">("3983 12,424.27 x");
    REQUIRE(m);
    auto i = m.to<1, int>();
    CHECK(i.ec == std::errc{});
    CHECK(i.value == 3983);
    auto d = m.to<2, double>();
    CHECK(d.ec == std::errc{});
    CHECK(d.value == doctest::Approx(12424.27));
    CHECK(m.to<3, int>().ec == std::errc::invalid_argument);
    auto n = logscan::match<R"((?<n>\d+)|(?<w>[a-z]+))">("abc");
    CHECK(n.to<"n", int>().ec == std::errc::invalid_argument); // did not take part
    CHECK(logscan::search<R"(\d{1,3}(?:,\d{3})+)">("total 1,577,000 B").to<long>().value == 1577000);
}

TEST_CASE("regex::search_and_search_all") {
    const std::string_view text = "a1 b22 c333 d";
    std::vector<std::string_view> hits;
    for (auto h : logscan::search_all<R"(\d+)">(text)) hits.push_back(h.get<0>());
    REQUIRE(hits.size() == 3);
    CHECK(hits[0] == "1");
    CHECK(hits[1] == "22");
    CHECK(hits[2] == "333");
    // Python finditer rules for empty matches: '' at 0, '12', '' at 3 (after a non-empty
    // match), '' at 4
    std::vector<std::pair<std::size_t, std::size_t>> sp;
    const std::string_view t2 = "a12b";
    for (auto h : logscan::search_all<R"(\d*)">(t2))
        sp.emplace_back(static_cast<std::size_t>(h.get<0>().data() - t2.data()), h.get<0>().size());
    REQUIRE(sp.size() == 4);
    CHECK(sp[0] == std::pair<std::size_t, std::size_t>{0, 0});
    CHECK(sp[1] == std::pair<std::size_t, std::size_t>{1, 2});
    CHECK(sp[2] == std::pair<std::size_t, std::size_t>{3, 0});
    CHECK(sp[3] == std::pair<std::size_t, std::size_t>{4, 0});
    // search from an offset: \b sees the byte before it
    CHECK_FALSE(logscan::search<R"(\bcd)">("abcd", 2));
    CHECK(logscan::search<R"(\bcd)">("ab cd", 2).offset() == 3);
    CHECK_FALSE(logscan::search<"x">("abc", 9));
    // rare literal, prefix literal, inner literal with a bounded lead
    const std::string big = std::string(5000, 'x') + "static mem alloc: 12 bytes)" + std::string(100, 'y');
    CHECK(logscan::search<"static mem alloc">(big).offset() == 5000);
    CHECK(logscan::search<R"((\d+) bytes\))">(big).get<1>() == "12");
    CHECK(logscan::search<R"(\d{1,4} bytes\))">(big).get<0>() == "12 bytes)");
    CHECK(logscan::search<R"([a-z]+ bytes\))">(big).get<0>().data() == nullptr);
}

TEST_CASE("regex::anchors_and_boundaries") {
    CHECK(logscan::search<"a$">("xa\n").offset() == 1); // $ before a final newline
    CHECK_FALSE(logscan::search<"a$">("a\nx"));
    CHECK_FALSE(logscan::match<"a$">("a\n")); // the whole input must be consumed
    CHECK(logscan::search<"^b">("ab").matched() == false);
    CHECK(logscan::search<R"(\bis\b)">("this is").offset() == 5);
    CHECK(logscan::search<R"(\Bis\b)">("this is").offset() == 2);
    // \B on an empty text: matches, as in PCRE and Python 3.14 (older Python re differs)
    CHECK(logscan::match<R"(\B)">(""));
    CHECK_FALSE(logscan::match<R"(\b)">(""));
    // bytes in, bytes out
    const std::string_view utf8 = "x\xc3\xa9y";
    CHECK(logscan::match<"x..y">(utf8));
    CHECK(logscan::match<R"(x[\x80-\xff]+y)">(utf8));
    CHECK(logscan::match<R"(\x41\t\.)">("A\t."));
}

TEST_CASE("regex::engines_chosen") {
    // log-line patterns are one-pass (table-driven); ambiguous ones run on the Pike VM
    static_assert(rxi::onepass<rxi::compiled<R"(\[(\d+) (\d\d:\d\d:\d\d) (\d+)@([^:]*):([^\]]*)\] (.*))">>::ok);
    static_assert(rxi::onepass<rxi::compiled<R"(\d{1,3}(?:,\d{3})+(?:\.\d+)?)">>::ok);
    static_assert(!rxi::onepass<rxi::compiled<"(a|aa)*b">>::ok);
    static_assert(!rxi::onepass<rxi::compiled<"(a*)*b">>::ok);
    static_assert(rxi::info<rxi::compiled<"static mem alloc">>::start.prefix_len == 16);
    static_assert(rxi::info<rxi::compiled<R"(\d+ bytes\))">>::inner.len == 7);
}

TEST_CASE("regex::linear_time_by_step_count") {
    // the issue's examples over 1,000,000 'a's
    const std::string a(1000000, 'a');
    bool found = true;
    const std::size_t s1 = search_steps<"(a|aa)*b">(a, found);
    CHECK_FALSE(found);
    CHECK(s1 <= 40 * a.size());
    const std::size_t s2 = match_steps<"(a*)*b">(a, found);
    CHECK_FALSE(found);
    CHECK(s2 <= 40 * a.size());
    // no 'b' anywhere: the bit-parallel filter says so reading each byte once, and the
    // Pike VM never runs
    CHECK(s1 <= a.size());
    CHECK(s2 <= a.size());
    CHECK(logscan::match<"(a*)*">(std::string_view(a).substr(0, 100000)).get<1>().size() == 0); // last iteration empty
    // scaling: doubling the input at most doubles the work (plus a constant)
    const std::string h(20000, 'a'), d(40000, 'a');
    std::size_t sh = 0, sd = 0;
    sh = search_steps<"(a|aa)*b">(h, found);
    sd = search_steps<"(a|aa)*b">(d, found);
    CHECK(sd <= 2 * sh + 1000);
    // one-pass searches that would be quadratic hand over to the Pike VM
    sh = search_steps<"a[ab]*c">(h, found);
    CHECK_FALSE(found);
    sd = search_steps<"a[ab]*c">(d, found);
    CHECK(sd <= 2 * sh + 1000);
    CHECK(sd <= 20 * d.size());
    sh = search_steps<R"(a.*\d)">(h, found);
    sd = search_steps<R"(a.*\d)">(d, found);
    CHECK(sd <= 2 * sh + 1000);
    CHECK(sd <= 20 * d.size());
    // nested repetition of empty-matchable groups
    sh = search_steps<"((a*)*|b)*c">(h, found);
    sd = search_steps<"((a*)*|b)*c">(d, found);
    CHECK(sd <= 2 * sh + 1000);
    // inputs that do match get past the filter: the Pike VM's work stays linear too
    const std::string hb = h + "b", db = d + "b", hc = h + "c", dc = d + "c";
    sh = search_steps<"(a|aa)*b">(hb, found);
    CHECK(found);
    sd = search_steps<"(a|aa)*b">(db, found);
    CHECK(found);
    CHECK(sh >= hb.size()); // the Pike VM did run over the whole input
    CHECK(sd <= 2 * sh + 1000);
    CHECK(sd <= 40 * db.size());
    sh = match_steps<"(a*)*b">(hb, found);
    CHECK(found);
    sd = match_steps<"(a*)*b">(db, found);
    CHECK(found);
    CHECK(sd <= 2 * sh + 1000);
    CHECK(sd <= 40 * db.size());
    sh = search_steps<"((a*)*|b)*c">(hc, found);
    CHECK(found);
    sd = search_steps<"((a*)*|b)*c">(dc, found);
    CHECK(found);
    CHECK(sd <= 2 * sh + 1000);
    CHECK(logscan::search<"(a|aa)*b">(db).get<0>().size() == db.size());
    CHECK(logscan::match<"(a*)*b">(db).get<1>().size() == 0); // Python: the last iteration is empty
}

TEST_CASE("regex::filter_is_exact_when_it_rejects") {
    // the bit-parallel filter ignores assertions and empty-loop checks: it may let through
    // inputs that do not match, never turn away inputs that do
    const std::string t = "xx ab ab";
    CHECK(logscan::search<R"(\bab\b|(a|aa)*c)">(t).offset() == 3);
    CHECK_FALSE(logscan::search<R"(^ab|(a|aa)*c)">(t));
    CHECK(logscan::search<R"(ab$|(a|aa)*c)">(t).offset() == 6);
    CHECK_FALSE(logscan::match<R"((a|aa)*\b)">(std::string_view("aaa ")));
    CHECK(logscan::match<R"((a|aa)*\b)">(std::string_view("aaa")).get<1>() == "a");
    CHECK(logscan::match<R"((a*)*)">(std::string_view("")));
}

namespace {
struct stack_job {
    std::string_view text;
    bool found = true;
    std::size_t len = 0;
};
void* run_on_small_stack(void* p) {
    auto* j = static_cast<stack_job*>(p);
    j->found = logscan::search<"(a|aa)*b">(j->text).matched();
    j->len = logscan::search<"a[ab]*c|(a+)$">(j->text).get<1>().size();
    return nullptr;
}
} // namespace

TEST_CASE("regex::constant_stack_on_long_input") {
    // a 1 MiB line searched on a thread with a 512 KiB stack (recursion per byte, or a stack
    // growing with the input, would overflow it)
    const std::string a(1u << 20, 'a');
    stack_job job{a};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 512u << 10);
    pthread_t th;
    REQUIRE(pthread_create(&th, &attr, run_on_small_stack, &job) == 0);
    pthread_join(th, nullptr);
    pthread_attr_destroy(&attr);
    CHECK_FALSE(job.found);
    CHECK(job.len == a.size());
}

TEST_CASE("regex::no_allocation") {
    const std::string text = logscan::test::read_file(logscan::test::sample_path("000_cf8afa6c099f806b.txt"));
    std::size_t lines = 0, headers = 0, numbers = 0, shapes = 0, bridged = 0, lazy = 0;
    LOGSCAN_CHECK_NO_ALLOC({
        std::size_t start = 0;
        while (start < text.size()) {
            std::size_t end = text.find('\n', start);
            if (end == std::string::npos) end = text.size();
            const std::string_view line(text.data() + start, end - start);
            ++lines;
            if (logscan::match<R"(\[(\d+) (\d\d:\d\d:\d\d) (\d+)@([^:]*):([^\]]*)\] (.*))">(line)) ++headers;
            if (logscan::search<R"(shape:  (\w+): \(([\d, ]*)\))">(line)) ++shapes;
            for (auto h : logscan::search_all<R"(\d+)">(line)) numbers += h.get<0>().empty() ? 0u : 1u;
            (void)logscan::search<"((a*)*|b)*c(x|y|z|w|v|u|t|s|r|q|p|o|n|m|l|k|j|i){3,9}">(line);
            (void)logscan::search<"(a|aa)*b">(line);       // bit-parallel filter, then Pike VM
            (void)logscan::match<"(a*)*b">(line);
            // the bounded backtracker, anchored and searching (its bits and jobs are on the stack)
            if (logscan::match<R"(\[(.*) (\d+)@(.*):(.*)\] (.*))">(line)) ++bridged;
            if (logscan::search<R"((\w+)\b.*:(.*?) )">(line)) ++lazy;
            start = end + 1;
        }
    });
    // expected counts from Python's re over the same lines (fullmatch / search / findall)
    CHECK(lines == 4601);
    CHECK(headers == 276);
    CHECK(shapes == 21);
    CHECK(numbers == 31884);
    CHECK(bridged == 276);
    CHECK(lazy == 4559);
    static_assert(logscan::regex_info<R"(\[(.*) (\d+)@(.*):(.*)\] (.*))">::engine == logscan::regex_engine::backtrack);
    static_assert(logscan::regex_info<R"((\w+)\b.*:(.*?) )">::engine == logscan::regex_engine::backtrack);
}

namespace {
// True when pattern C's byte classes are exactly its bytes' equivalence classes: two bytes
// share a class when, and only when, every byte and set instruction accepts both or neither
// (the tables are indexed by class, so a class that mixed two such bytes would lose a
// transition, and one split without need would only cost table size). Each byte's
// signature is the set of instructions that accept it.
template <class C>
bool byte_classes_exact() {
    const auto& bc = rxi::onepass_builder<C>::bc;
    std::vector<std::vector<bool>> sig(256, std::vector<bool>(C::size, false));
    for (unsigned c = 0; c < 256; ++c)
        for (std::size_t pc = 0; pc < C::size; ++pc) {
            const rxi::inst& in = C::code[pc];
            if (in.o == rxi::op::byte) sig[c][pc] = in.b == c;
            else if (in.o == rxi::op::set) sig[c][pc] = C::sets[in.arg].test(c);
        }
    std::vector<bool> used(256, false);
    for (unsigned c = 0; c < 256; ++c) {
        if (static_cast<int>(bc.map[c]) >= bc.count) return false;
        used[bc.map[c]] = true;
        for (unsigned d = 0; d < c; ++d)
            if ((bc.map[c] == bc.map[d]) != (sig[c] == sig[d])) return false;
    }
    for (int k = 0; k < bc.count; ++k)
        if (!used[static_cast<std::size_t>(k)]) return false; // (no empty class)
    return true;
}
} // namespace

TEST_CASE("regex::byte classes are exactly the pattern's equivalence classes of bytes") {
    std::size_t patterns = 0, exact = 0;
#define LOGSCAN_RX(i, p)                                                    \
    ++patterns;                                                             \
    exact += byte_classes_exact<rxi::compiled<p>>() ? 1u : 0u;
#include "data/regex/patterns_0.inc"
#include "data/regex/patterns_1.inc"
#undef LOGSCAN_RX
    CHECK(patterns > 150);
    CHECK(exact == patterns);
    // every byte used, and sets that split every class: the most classes there can be
    CHECK(byte_classes_exact<rxi::compiled<R"([\x00-\x7f]\x41\x42[a-z0-9][^a]x)">>());
    CHECK(rxi::onepass_builder<rxi::compiled<R"(abc)">>::bc.count == 4); // a, b, c, the rest
    CHECK(rxi::onepass_builder<rxi::compiled<R"([a-c]x)">>::bc.count == 3);
}

namespace {
// The longest literal run in the one-pass tables of P (0: none), so that a test of the runs
// cannot pass with none built.
template <logscan::fixed_string P>
constexpr std::size_t longest_literal_run() {
    using O = rxi::onepass<rxi::compiled<P>>;
    std::size_t m = 0;
    for (const auto& s : O::loops.states) m = s.lit_len > m ? s.lit_len : m;
    return m;
}

// Every input made from `base` (each byte changed, each prefix, with text before and after of
// several lengths, so that runs meet their bytes with and without 16 readable bytes) gives
// the one-pass matcher's whole match and search the Pike VM's groups.
template <logscan::fixed_string P>
void same_as_pike_vm(const std::string& base) {
    using C = rxi::compiled<P>;
    static_assert(rxi::onepass<C>::ok);
    std::vector<std::string> inputs;
    for (std::size_t i = 0; i <= base.size(); ++i) {
        inputs.push_back(base.substr(0, i));
        if (i < base.size()) {
            std::string t = base;
            t[i] = static_cast<char>(t[i] == 'x' ? 'y' : 'x');
            inputs.push_back(t);
        }
    }
    const std::size_t n0 = inputs.size();
    for (std::size_t k = 0; k < n0; ++k)
        for (const char* pad : {"", "z", "0123456789abcdef0123", " \n"})
            for (const char* pre : {"", "q ", "graph optimization: graph "}) inputs.push_back(pre + inputs[k] + pad);
    std::size_t matched = 0;
    for (const std::string& t : inputs) {
        std::size_t a[C::nslots], b[C::nslots];
        for (std::size_t k = 0; k < C::nslots; ++k) a[k] = b[k] = 0;
        const bool full = rxi::full_match<C>(t.data(), t.size(), a, nullptr);
        const bool full_pike = rxi::pike_run<C>(t.data(), t.size(), 0, true, true, false, b, nullptr);
        REQUIRE(full == full_pike);
        if (full)
            for (std::size_t k = 0; k < C::nslots; ++k) CHECK(a[k] == b[k]);
        const bool found = rxi::search_from<C>(t.data(), t.size(), 0, false, a, nullptr);
        const bool found_pike = rxi::pike_run<C>(t.data(), t.size(), 0, false, false, false, b, nullptr);
        INFO(t);
        REQUIRE(found == found_pike);
        if (found) {
            ++matched;
            for (std::size_t k = 0; k < C::nslots; ++k) CHECK(a[k] == b[k]);
        }
    }
    CHECK(matched >= 13); // (the base matched, alone and with each text around it)
}
} // namespace

TEST_CASE("regex::literal runs of one-pass patterns match as the Pike VM does") {
    // with groups (the general one-pass run), runs of 4 to 16 bytes and longer ones chained
    constexpr logscan::fixed_string p1 = R"(graph optimization: applied (\d+) passes, total (\d+) var\(s\) replaced; time=(\d+(?:\.\d+)?)ms)";
    static_assert(longest_literal_run<p1>() == 16);
    same_as_pike_vm<p1>("graph optimization: applied 8 passes, total 5757 var(s) replaced; time=74.64ms");
    // group 0 only (the plain DFA walk), a run that begins the pattern, one after a loop
    constexpr logscan::fixed_string p2 = R"(static memory allocation:[^;]*; done now)";
    static_assert(longest_literal_run<p2>() == 16);
    static_assert(rxi::onepass<rxi::compiled<p2>>::loops.states[0].lit_len == 16); // (from the start: no slots to set)
    same_as_pike_vm<p2>("static memory allocation: 3 nodes; done now");
    // a run inside a repetition and after an alternative; an optional part ends runs
    constexpr logscan::fixed_string p3 = R"((?:iter |run )(\d+)(?:, checked:ok)+ of (?:the )?literal tail)";
    static_assert(longest_literal_run<p3>() >= 10);
    same_as_pike_vm<p3>("run 12, checked:ok, checked:ok of the literal tail");
    same_as_pike_vm<p3>("iter 3, checked:ok of literal tail");
}
