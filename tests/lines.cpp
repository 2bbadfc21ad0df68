// SPDX-License-Identifier: MIT
#include <logscan/lines.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "support/alloc_counter.hpp"
#include "support/chunking.hpp"
#include "support/random_text.hpp"

namespace {

// Records every event as text, for comparisons.
struct recorder {
    std::vector<std::string> events;
    void on_line(const logscan::line& l) {
        events.push_back("L" + std::to_string(l.number) + "@" + std::to_string(l.offset) + ":" +
                         std::string(l.text));
    }
    void on_error(const logscan::error& e) {
        events.push_back("E" + std::to_string(e.line) + ":" + std::to_string(e.column) + "@" +
                         std::to_string(e.offset) + ":" + std::string(logscan::to_string(e.code)));
    }
};

// The reference: a plain split written independently of the splitter, straight from the rules
// (a line ends at \n, one \r before it is dropped, a last line may lack \n).
std::vector<std::string> reference_lines(std::string_view text) {
    std::vector<std::string> out;
    std::size_t start = 0, number = 0;
    while (start < text.size()) {
        std::size_t nl = text.find('\n', start);
        const bool last = nl == std::string_view::npos;
        if (last) nl = text.size();
        std::string_view l = text.substr(start, nl - start);
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
        out.push_back("L" + std::to_string(++number) + "@" + std::to_string(start) + ":" +
                      std::string(l));
        start = nl + 1;
    }
    return out;
}

std::vector<std::string> run_chunks(logscan::test::chunk_list chunks, std::size_t carry_size) {
    recorder r;
    std::vector<char> carry(carry_size);
    logscan::line_splitter<recorder> s(r, carry);
    for (auto c : chunks)
        if (s.feed(c) == logscan::flow::stop) break;
    s.finish();
    return r.events;
}

// FNV-1a over everything a line carries: lets a test compare without allocating.
struct hasher {
    std::uint64_t h = 1469598103934665603ull;
    std::uint64_t lines = 0;
    void mix(std::uint64_t v) {
        for (int i = 0; i < 8; ++i) {
            h ^= (v >> (8 * i)) & 0xff;
            h *= 1099511628211ull;
        }
    }
    void on_line(const logscan::line& l) {
        ++lines;
        mix(l.number);
        mix(l.offset);
        for (char c : l.text) mix(static_cast<unsigned char>(c));
    }
};

const char* const sample_names[] = {"000_cf8afa6c099f806b.txt", "001_825e28a4f520ddc2.txt",
                                    "002_925085f7148f0ebf.txt", "003_1c776201c8b5b83e.txt",
                                    "004_d73c77cb3fb2895c.txt"};

} // namespace

TEST_CASE("lines::rules") {
    struct tcase {
        std::string_view in;
        std::vector<std::string> out;
    };
    const tcase cases[] = {
        {"", {}},
        {"a", {"L1@0:a"}},
        {"a\n", {"L1@0:a"}},
        {"\n", {"L1@0:"}},
        {"\n\n", {"L1@0:", "L2@1:"}},
        {"a\n\nb", {"L1@0:a", "L2@2:", "L3@3:b"}},
        {"a\r\nb\r\n", {"L1@0:a", "L2@3:b"}},
        {"\r\n", {"L1@0:"}},
        {"a\rb\n", {"L1@0:a\rb"}},  // a lone \r inside a line stays
        {"a\r\r\n", {"L1@0:a\r"}},  // only one \r before \n is dropped
        {"last\r", {"L1@0:last"}},  // a \r ending the input is dropped too
        {std::string_view("n\0ul\n", 5), {std::string("L1@0:n\0ul", 9)}},
    };
    for (const auto& c : cases) {
        INFO("input: " << std::string(c.in));
        CHECK(reference_lines(c.in) == c.out); // the reference follows the rules too
        logscan::test::check_chunk_invariance(c.in, [&](logscan::test::chunk_list ch) {
            auto got = run_chunks(ch, 64);
            CHECK(got == c.out);
            return got;
        });
        recorder r; // contiguous mode, no carry buffer
        CHECK(logscan::for_each_line(c.in, r).ok());
        CHECK(r.events == c.out);
    }
}

TEST_CASE("lines::samples whole, 1-byte, 7-byte and random chunks") {
    for (const char* name : sample_names) {
        INFO(name);
        const std::string text = logscan::test::read_file(logscan::test::sample_path(name));
        const auto expected = reference_lines(text);
        // the line count is the number of '\n', plus one for a last line without it
        std::size_t newlines = 0;
        for (char c : text) newlines += c == '\n';
        CHECK(expected.size() == newlines + (!text.empty() && text.back() != '\n' ? 1 : 0));
        const auto got = logscan::test::check_chunk_invariance(
            text, [](logscan::test::chunk_list ch) { return run_chunks(ch, 1 << 20); }, 6);
        CHECK(got == expected);
    }
}

TEST_CASE("lines::zero allocations while parsing the samples") {
    for (const char* name : sample_names) {
        INFO(name);
        const std::string text = logscan::test::read_file(logscan::test::sample_path(name));
        hasher whole;
        logscan::for_each_line(std::string_view(text), whole);

        const logscan::test::chunked_input one = logscan::test::chunked_input::fixed(text, 1);
        const logscan::test::chunked_input seven = logscan::test::chunked_input::fixed(text, 7);
        const logscan::test::chunked_input rnd = logscan::test::chunked_input::random(text, 42, 4096);
        logscan::line_buffer carry; // allocated before the parse
        for (const auto* input : {&one, &seven, &rnd}) {
            hasher h;
            logscan::line_splitter<hasher> s(h, carry);
            LOGSCAN_CHECK_NO_ALLOC({
                for (auto c : input->chunks()) s.feed(c);
                s.finish();
            });
            CHECK(h.h == whole.h);
            CHECK(h.lines == whole.lines);
        }
        hasher h2;
        LOGSCAN_CHECK_NO_ALLOC(logscan::for_each_line(std::string_view(text), h2));
        CHECK(h2.h == whole.h);
    }
}

TEST_CASE("lines::a line longer than the carry buffer is reported and skipped") {
    // line 2 has 20 bytes; the carry buffer holds 16
    const std::string text = "short\n01234567890123456789\nafter\n";
    const std::vector<std::string> expected = {"L1@0:short", "E2:17@22:line too long", "L3@27:after"};
    logscan::test::check_chunk_invariance(text, [&](logscan::test::chunk_list ch) {
        auto got = run_chunks(ch, 16);
        CHECK(got == expected);
        return got;
    });
    // exactly at the limit is fine, one more byte is not (a \r counts, the \n does not)
    CHECK(run_chunks(std::vector<std::string_view>{"0123456789abcdef\n"}, 16) ==
          std::vector<std::string>{"L1@0:0123456789abcdef"});
    CHECK(run_chunks(std::vector<std::string_view>{"0123456789abcdef\r\n"}, 16) ==
          std::vector<std::string>{"E1:17@16:line too long"});
    // a too-long last line without \n, fed in pieces
    CHECK(run_chunks(std::vector<std::string_view>{"ab\n0123456789", "abcdefghij"}, 16) ==
          std::vector<std::string>{"L1@0:ab", "E2:17@19:line too long"});
}

TEST_CASE("lines::without a carry buffer a line may not straddle chunks") {
    recorder r;
    logscan::line_splitter<recorder> s(r);
    s.feed("one\ntw");
    s.feed("o\nthree\n");
    s.finish();
    CHECK(r.events.size() == 3);
    CHECK(r.events[0] == "L1@0:one");
    CHECK(r.events[1].rfind("E2:", 0) == 0); // reported, not cut
    CHECK(r.events[2] == "L3@8:three");
}

TEST_CASE("lines::empty chunks (even with a null data pointer) change nothing") {
    recorder r;
    logscan::line_buffer carry(64);
    logscan::line_splitter<recorder> s(r, carry);
    s.feed(std::string_view{});
    s.feed("ab");
    s.feed(std::string_view{});
    s.feed("c\n");
    s.feed("");
    s.finish();
    CHECK(r.events == std::vector<std::string>{"L1@0:abc"});
}

TEST_CASE("lines::a callback can stop the parse") {
    struct stopper {
        int seen = 0;
        logscan::flow on_line(const logscan::line&) {
            return ++seen == 3 ? logscan::flow::stop : logscan::flow::proceed;
        }
    } v;
    const logscan::error e = logscan::for_each_line(std::string_view("1\n2\n3\n4\n5\n"), v);
    CHECK(v.seen == 3);
    CHECK(e.code == logscan::error_code::stopped);

    struct bool_stopper { // a bool callback: false stops
        int seen = 0;
        bool on_line(const logscan::line&) { return ++seen < 2; }
    } b;
    logscan::line_buffer carry(64);
    logscan::line_splitter<bool_stopper> s(b, carry);
    CHECK(s.feed("a\nb\nc\n") == logscan::flow::stop);
    CHECK(s.feed("d\n") == logscan::flow::stop); // input after a stop is ignored
    CHECK(b.seen == 2);
}

TEST_CASE("lines::a visitor without callbacks compiles and counts") {
    logscan::null_visitor v;
    logscan::line_splitter<logscan::null_visitor> s(v);
    s.feed("a\nb\nc");
    s.finish();
    CHECK(s.lines() == 3);
    CHECK(s.bytes() == 5);
}

TEST_CASE("lines::a callable is a line visitor") {
    std::vector<std::string> got;
    auto collect = [&](const logscan::line& l) { got.push_back(std::to_string(l.number) + ":" + std::string(l.text)); };
    CHECK(logscan::for_each_line(std::string_view("a\r\nb\n\nc"), collect).ok());
    CHECK(got == std::vector<std::string>{"1:a", "2:b", "3:", "4:c"});
    // one returning bool or flow can stop
    std::size_t n = 0;
    auto two = [&](const logscan::line&) { return ++n < 2; };
    CHECK(logscan::for_each_line(std::string_view("a\nb\nc\n"), two).code == logscan::error_code::stopped);
    CHECK(n == 2);
    // a lambda written in the call (a temporary), contiguous and streamed
    std::size_t bytes = 0;
    CHECK(logscan::for_each_line(std::string_view("ab\ncde\n"), [&](const logscan::line& l) { bytes += l.text.size(); }).ok());
    CHECK(bytes == 5);
    logscan::memory_source src(std::string_view("x\nyz"));
    char carry[16];
    std::size_t lines = 0;
    CHECK(logscan::for_each_line(src, [&](const logscan::line&) { ++lines; }, std::span<char>(carry)).ok());
    CHECK(lines == 2);
}

TEST_CASE("lines::trim and trim_right: runs of spaces and tabs of every length around a word") {
    // runs skipped eight spaces at a time, then byte by byte: every length of padding on both
    // sides, with a tab at each place of it, against the byte-by-byte definition
    const auto blank = [](char c) { return c == ' ' || c == '\t'; };
    for (std::size_t left = 0; left < 20; ++left) {
        for (std::size_t right = 0; right < 20; ++right) {
            for (std::size_t tab = 0; tab <= left + right + 1; ++tab) {
                std::string s = std::string(left, ' ') + "a b" + std::string(right, ' ');
                if (tab < left) s[tab] = '\t';
                else if (tab > left && tab - left - 1 < right) s[left + 3 + (tab - left - 1)] = '\t';
                std::size_t b = 0, e = s.size();
                while (b < e && blank(s[b])) ++b;
                while (e > b && blank(s[e - 1])) --e;
                CHECK(logscan::internal::trim(s) == std::string_view(s).substr(b, e - b));
                CHECK(logscan::internal::trim(s) == "a b");
                CHECK(logscan::internal::trim_right(s) == std::string_view(s).substr(0, e));
            }
        }
    }
    for (std::size_t n = 0; n < 30; ++n) { // all blank: empty
        CHECK(logscan::internal::trim(std::string(n, ' ')).empty());
        CHECK(logscan::internal::trim_right(std::string(n, ' ') + "\t").empty());
    }
    static_assert(logscan::internal::trim("          x          ") == "x");
    static_assert(logscan::internal::trim_right("x                 \t") == "x");
    // random texts of blanks and bytes one bit away from a blank (0xA0, 0x89, 0x21, 0x08,
    // 0x28, 0x00): the eight-byte look tells them apart exactly, at every offset
    const char bytes[] = {' ', ' ', ' ', '\t', '\t', 'a', '\xA0', '\x89', '\x21', '\x08', '\x28', '\0'};
    std::uint64_t seed = 88172645463325252ull;
    for (int round = 0; round < 100000; ++round) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        std::uint64_t r = seed;
        std::string s(static_cast<std::size_t>(r % 41), ' ');
        r >>= 6;
        for (char& c : s) {
            if ((r & 3u) != 0) c = bytes[(r >> 2) % 5]; // mostly blanks
            else c = bytes[(r >> 2) % sizeof bytes];
            r = r * 6364136223846793005ull + 1442695040888963407ull;
        }
        std::size_t b = 0, e = s.size();
        while (b < e && blank(s[b])) ++b;
        while (e > b && blank(s[e - 1])) --e;
        std::size_t re = s.size();
        while (re > 0 && blank(s[re - 1])) --re;
        const std::string_view t = logscan::internal::trim(s), tr = logscan::internal::trim_right(s);
        if (t.data() != s.data() + b || t.size() != e - b || tr.data() != s.data() || tr.size() != re) {
            FAIL_CHECK("text of " << s.size() << " bytes, round " << round);
            break;
        }
    }
}

TEST_CASE("lines::trim_end_within and trim_within: the 64 bytes around a range's end, against the byte-by-byte definition") {
    // random texts up to 150 bytes (mostly blanks, bytes one bit away from a blank among them)
    // and every range [b, e) of some of them: the end without trailing spaces and tabs, as
    // trim_end gives it and as a loop over the bytes does, whether the 64 bytes around the end
    // begin before the range, inside it or at the text's start
    const auto blank = [](char c) { return c == ' ' || c == '\t'; };
    const char bytes[] = {' ', ' ', ' ', '\t', '\t', 'a', '\xA0', '\x89', '\x21', '\x08', '\x28', '\0'};
    std::uint64_t seed = 0x9E3779B97F4A7C15ull;
    std::size_t checked = 0;
    for (int round = 0; round < 3000; ++round) {
        seed = test_support::lcg_next(seed);
        std::string s(static_cast<std::size_t>((seed >> 33) % 151), ' ');
        for (char& c : s) {
            seed = test_support::lcg_next(seed);
            c = (seed >> 61) != 0 ? bytes[(seed >> 33) % 5] : bytes[(seed >> 33) % sizeof bytes];
        }
        const std::size_t step = s.size() > 40 ? 7 : 1;
        for (std::size_t b = 0; b <= s.size(); b += step) {
            for (std::size_t e = b; e <= s.size(); e += step) {
                std::size_t want = e;
                while (want > b && blank(s[want - 1])) --want;
                const std::size_t got = logscan::internal::trim_end_within(s.data(), s.size(), b, e);
                ++checked;
                std::size_t from = b; // (trim_within: both ends of the range)
                while (from < want && blank(s[from])) ++from;
                const std::string_view part = logscan::internal::trim_within(s, std::string_view(s).substr(b, e - b));
                if (got != want || logscan::internal::trim_end(s.data(), b, e) != want || part.size() != want - std::min(from, want) ||
                    (!part.empty() && part.data() != s.data() + from)) { // (an empty result: any place)
                    FAIL_CHECK("text of " << s.size() << " bytes, [" << b << ", " << e << "): " << got << ", want " << want);
                    return;
                }
            }
        }
    }
    CHECK(checked > 300000);
}

TEST_CASE("lines::find_byte: each place of the byte, with and without the bytes before the range to read") {
    // a tab at each place of texts of every length to 140 (the 16-byte looks, the tail, memchr
    // past 64 bytes), from every start; `begin` at the text's start lets the tail be read as the
    // 16 bytes that end the range: the first tab at or after the start, or none
    for (std::size_t n = 0; n <= 140; ++n) {
        for (std::size_t tab = 0; tab <= n; ++tab) { // (tab == n: none)
            std::string s(n, 'x');
            if (tab < n) s[tab] = '\t';
            if (tab + 3 < n) s[tab + 3] = '\t'; // (a second one: the first is found)
            for (std::size_t from = 0; from <= n; ++from) {
                const char* want = tab < n && tab >= from ? s.data() + tab : tab + 3 < n && tab + 3 >= from ? s.data() + tab + 3 : nullptr;
                const char* p = s.data() + from;
                const char* e = s.data() + n;
                if (logscan::internal::find_byte<'\t'>(p, e) != want || logscan::internal::find_byte<'\t'>(p, e, s.data()) != want) {
                    FAIL_CHECK("text of " << n << " bytes, tab at " << tab << ", from " << from);
                    return;
                }
            }
        }
    }
    CHECK(logscan::internal::find_newline(nullptr, nullptr) == nullptr);
}

TEST_CASE("lines::find_last: the last place of a needle, against string_view::rfind") {
    // needles of 1 to 7 bytes placed at every place of texts of every length to 90 (the
    // 16-byte looks from the end, the bytes before them one at a time), with their first byte
    // alone at other places (a look that finds the byte but not the needle), and random texts
    // over a few bytes (needles overlapping themselves: `aaa` in `aaaa`)
    const std::string_view needles[] = {":", "MiB(", ": size=", "ab", "aaa", "x\0y", "abcdefg"};
    for (const std::string_view needle : needles) {
        for (std::size_t n = 0; n <= 90; ++n) {
            for (std::size_t at = 0; at <= n; ++at) {
                std::string s(n, '.');
                for (std::size_t i = 1; i < n; i += 7) s[i] = needle[0];
                if (at + needle.size() <= n) s.replace(at, needle.size(), needle);
                const std::string_view t(s);
                if (logscan::internal::find_last(t, needle) != t.rfind(needle)) {
                    FAIL_CHECK("needle `" << needle << "`, text of " << n << " bytes, placed at " << at);
                    return;
                }
            }
        }
    }
    std::uint64_t seed = 20261205;
    for (int round = 0; round < 20000; ++round) {
        seed = test_support::lcg_next(seed);
        const std::size_t n = (seed >> 33) % 70;
        std::string s(n, 'a');
        for (char& c : s) {
            seed = test_support::lcg_next(seed);
            c = "aab:"[(seed >> 40) % 4];
        }
        const std::string_view t(s);
        for (const std::string_view needle : {std::string_view("a"), std::string_view("aa"), std::string_view("ab:"),
                                              std::string_view("b:a"), std::string_view("aaaa")})
            REQUIRE(logscan::internal::find_last(t, needle) == t.rfind(needle));
    }
    CHECK(logscan::internal::find_last("", "a") == std::string_view::npos);
    CHECK(logscan::internal::find_last("abc", "") == 3); // (as rfind: the end)
    static_assert(logscan::internal::find_last("a:b:c", ":") == 3);
}

TEST_CASE("lines::leading_run and trailing_run: the bytes a text begins and ends with, against a count byte by byte") {
    // every text of up to 40 bytes built from runs of the byte and others (the 8-byte looks,
    // a run that ends inside one or at its edge, a text all of the byte), at run time and at
    // compile time
    const auto lead = [](std::string_view s, char c) {
        std::size_t n = 0;
        while (n < s.size() && s[n] == c) ++n;
        return n;
    };
    const auto trail = [](std::string_view s, char c) {
        std::size_t n = 0;
        while (n < s.size() && s[s.size() - 1 - n] == c) ++n;
        return n;
    };
    std::uint64_t seed = 20261205;
    for (int round = 0; round < 20000; ++round) {
        seed = test_support::lcg_next(seed);
        const std::size_t n = (seed >> 33) % 41;
        std::string s;
        while (s.size() < n) {
            seed = test_support::lcg_next(seed);
            s.append(1 + (seed >> 40) % 12, "--- a"[(seed >> 20) % 5]);
        }
        s.resize(n);
        for (const char c : {'-', ' ', 'a'}) {
            REQUIRE(logscan::internal::leading_run(s, c) == lead(s, c));
            REQUIRE(logscan::internal::trailing_run(s, c) == trail(s, c));
        }
    }
    CHECK(logscan::internal::leading_run(std::string(20, '-'), '-') == 20);
    CHECK(logscan::internal::trailing_run(std::string(20, '-') + "x", '-') == 0);
    static_assert(logscan::internal::leading_run("---x--", '-') == 3);
    static_assert(logscan::internal::trailing_run("---x--", '-') == 2);
}

TEST_CASE("lines::count_word_lines: the whole lines that read one of some words, against a count line by line") {
    // a line counts when it is a word, then spaces or tabs, and a `\r` only right before its
    // `\n`; counted line by line here from the text split at each `\n`
    const auto by_line = [](std::string_view s, std::span<const std::string_view> words) {
        std::uint64_t n = 0;
        for (std::size_t b = 0; b <= s.size();) {
            const std::size_t nl = s.find('\n', b);
            std::string_view l = s.substr(b, nl == std::string_view::npos ? std::string_view::npos : nl - b);
            if (nl != std::string_view::npos && l.ends_with('\r')) l.remove_suffix(1);
            while (!l.empty() && (l.back() == ' ' || l.back() == '\t')) l.remove_suffix(1);
            for (const std::string_view w : words) n += !w.empty() && l == w ? 1u : 0u; // (an empty word counts no line)
            if (nl == std::string_view::npos) break;
            b = nl + 1;
        }
        return n;
    };
    static constexpr std::string_view directions[] = {"forward", "backward"}; // (a common ending: `ward`)
    static constexpr std::string_view apart[] = {"ab", "cd"};                 // (none)
    static constexpr std::string_view nested[] = {"ward", "forward"};         // (one the other's ending)
    static constexpr std::string_view overlapping[] = {"baaa", "caa", ""};    // (an ending, `aa`, that overlaps itself; an empty word)
    const std::string_view pieces[] = {"forward", "backward", "ward", "for", "back", "ab", "cd", "c", "\n", "\n", " ", "\t", "\r", "x",
                                       "a", "aa", "b"};
    std::uint64_t seed = 20261207;
    std::uint64_t counted = 0;
    for (int round = 0; round < 20000; ++round) {
        seed = test_support::lcg_next(seed);
        const std::size_t n = (seed >> 33) % 12;
        std::string s;
        for (std::size_t i = 0; i < n; ++i) {
            seed = test_support::lcg_next(seed);
            s += pieces[(seed >> 20) % std::size(pieces)];
        }
        for (const std::span<const std::string_view> words : {std::span<const std::string_view>(directions), std::span<const std::string_view>(apart),
                                                             std::span<const std::string_view>(nested), std::span<const std::string_view>(overlapping)}) {
            const std::uint64_t want = by_line(s, words);
            counted += want;
            REQUIRE(logscan::internal::count_word_lines(s, words) == want);
        }
    }
    CHECK(counted > 1000); // (the texts hold such lines)
    CHECK(logscan::internal::count_word_lines("forward\nbackward  \r\n  forward\nforwards\nx forward\nbackward", directions) == 3);
    CHECK(logscan::internal::count_word_lines("", directions) == 0);
    CHECK(logscan::internal::count_word_lines("forward\r", directions) == 0); // (a `\r` not before a `\n`)
    CHECK(logscan::internal::count_word_lines("baaa\n", overlapping) == 1);     // (`aa` at 1 is no word's; at 2, baaa's)
    CHECK(logscan::internal::count_word_lines("caa\nbaaa", overlapping) == 2);
    static constexpr std::string_view empty_only[] = {""};
    CHECK(logscan::internal::count_word_lines("\n\n", empty_only) == 0);
}
