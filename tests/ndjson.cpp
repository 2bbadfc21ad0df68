// SPDX-License-Identifier: MIT
#include <logscan/ndjson.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "support/alloc_counter.hpp"

namespace {
struct string_sink {
    std::string* out;
    std::size_t fail_after = static_cast<std::size_t>(-1); // writes allowed before failing
    bool operator()(std::string_view s) {
        if (fail_after == 0) return false;
        --fail_after;
        out->append(s);
        return true;
    }
};

template <std::size_t N = 256, class F>
std::string render(F&& f) {
    std::string out;
    char buf[N];
    logscan::ndjson_writer<string_sink> w(string_sink{&out}, buf);
    f(w);
    CHECK(w.flush());
    return out;
}
} // namespace

TEST_CASE("ndjson::type first, then line, then fields; one object a line") {
    const std::string s = render([](auto& w) {
        w.begin("log", 12);
        w.field("day", 6);
        w.field("level", "WRN");
        w.end();
        w.begin("exec");
        w.field("index", std::uint64_t{0});
        w.end();
    });
    CHECK(s == "{\"type\":\"log\",\"line\":12,\"day\":6,\"level\":\"WRN\"}\n{\"type\":\"exec\",\"index\":0}\n");
}

TEST_CASE("ndjson::numbers: integers exact, doubles shortest and still doubles, non-finite as null") {
    const std::string s = render([](auto& w) {
        w.begin("n");
        w.field("a", std::int64_t{-9223372036854775807 - 1});
        w.field("b", std::uint64_t{18446744073709551615u});
        w.field("c", 196.0);          // integral double: keeps ".0"
        w.field("d", 832.06);         // shortest round trip
        w.field("e", 0.1 + 0.2);      // 0.30000000000000004
        w.field("f", 1e300 * 10);     // 1e+301
        w.field("g", std::nan(""));
        w.field("h", std::numeric_limits<double>::infinity());
        w.field("i", -0.0);
        w.end();
    });
    CHECK(s == "{\"type\":\"n\",\"a\":-9223372036854775808,\"b\":18446744073709551615,\"c\":196.0,\"d\":832.06,"
               "\"e\":0.30000000000000004,\"f\":1e+301,\"g\":null,\"h\":null,\"i\":-0.0}\n");
}

TEST_CASE("ndjson::number_or_string follows formats.md's number rule") {
    const std::string s = render([](auto& w) {
        w.begin("n");
        w.key("a"); w.number_or_string("533");
        w.key("b"); w.number_or_string("1.50");
        w.key("c"); w.number_or_string("123456789012345678901234"); // beyond 64 bits: exact digits
        w.key("d"); w.number_or_string("-007");
        w.key("e"); w.number_or_string("+0001,234", true);  // not grouped (leading zeros): a string
        w.key("f"); w.number_or_string("12,424.27", true);
        w.key("g"); w.number_or_string("12,424.27");        // commas not allowed: a string
        w.key("h"); w.number_or_string("nan");
        w.key("i"); w.number_or_string("1e400");             // beyond double
        w.key("j"); w.number_or_string("+99999999999999999999");
        w.end();
    });
    CHECK(s == "{\"type\":\"n\",\"a\":533,\"b\":1.5,\"c\":123456789012345678901234,\"d\":-7,\"e\":\"+0001,234\","
               "\"f\":12424.27,\"g\":\"12,424.27\",\"h\":\"nan\",\"i\":null,\"j\":99999999999999999999}\n");
}

TEST_CASE("ndjson::strings: escapes, and invalid UTF-8 as one \\ufffd per maximal subpart") {
    const std::string s = render([](auto& w) {
        w.begin("s");
        w.field("a", std::string_view("q\"b\\n\nr\rt\tz\x01\x1f\x7f"));
        w.field("b", std::string_view("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80")); // é € 😀 pass through
        w.field("c", std::string_view("x\xffy"));            // a byte that starts nothing
        w.field("d", std::string_view("x\xe2\x82y"));        // a 3-byte sequence cut after 2: one U+FFFD
        w.field("e", std::string_view("x\xed\xa0\x80y"));    // a surrogate: ED then A0 is out of range -> 3 of them
        w.field("f", std::string_view("x\xc0\xafy"));        // overlong: C0 cannot start, AF alone: 2
        w.field("g", std::string_view("\xf0\x9f\x98"));      // cut at the end of the string
        w.end();
    });
    CHECK(s == "{\"type\":\"s\",\"a\":\"q\\\"b\\\\n\\nr\\rt\\tz\\u0001\\u001f\x7f\","
               "\"b\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\",\"c\":\"x\\ufffdy\",\"d\":\"x\\ufffdy\","
               "\"e\":\"x\\ufffd\\ufffd\\ufffdy\",\"f\":\"x\\ufffd\\ufffdy\",\"g\":\"\\ufffd\"}\n");
}

TEST_CASE("ndjson::nested arrays, objects, shapes and null") {
    const std::string s = render([](auto& w) {
        w.begin("v", 3);
        w.field("shape", logscan::shape_dims("(4, 64, 224, 224)"));
        w.field("empty", logscan::shape_dims("()"));
        w.field("bad", logscan::shape_dims("(1,,2)"));
        w.key("in_shapes");
        w.begin_array();
        w.begin_array(); w.value(std::int64_t{1}); w.value(std::int64_t{2}); w.end_array();
        w.begin_array(); w.end_array();
        w.end_array();
        w.key("param");
        w.begin_object();
        w.field("k", nullptr);
        w.key("o"); w.begin_object(); w.end_object();
        w.key("r"); w.raw_value("{\"x\":[1,2]}");
        w.end_object();
        w.field("t", true);
        w.end();
    });
    CHECK(s == "{\"type\":\"v\",\"line\":3,\"shape\":[4,64,224,224],\"empty\":[],\"bad\":null,"
               "\"in_shapes\":[[1,2],[]],\"param\":{\"k\":null,\"o\":{},\"r\":{\"x\":[1,2]}},\"t\":true}\n");
}

TEST_CASE("ndjson::raw JSON text: a lone surrogate's escape is \\ufffd (formats.md), a pair and other escapes as written") {
    const auto raw = [](std::string_view j) {
        return render([&](auto& w) {
            w.begin("r", 1);
            w.key("v");
            w.raw_value(j);
            w.end();
        });
    };
    const auto line = [](std::string_view v) { return "{\"type\":\"r\",\"line\":1,\"v\":" + std::string(v) + "}\n"; };
    CHECK(raw(R"({"k":"x\ud800y"})") == line(R"({"k":"x\ufffdy"})"));           // a high one alone
    CHECK(raw(R"({"\udc00":1})") == line(R"({"\ufffd":1})"));                   // a low one alone, in a key
    CHECK(raw(R"(["\uD83D\uDE00","\ud83d\ude00"])") == line(R"(["\uD83D\uDE00","\ud83d\ude00"])")); // pairs
    CHECK(raw(R"(["\ud800\u0041","\udbff\ud800\udc00"])") == line(R"(["\ufffd\u0041","\ufffd\ud800\udc00"])"));
    CHECK(raw(R"(["\\ud800","\\\ud800","a\"\ud800"])") == line(R"(["\\ud800","\\\ufffd","a\"\ufffd"])"));
    CHECK(raw(R"(["\ud800"])") == line(R"(["\ufffd"])"));
    CHECK(raw("[\"\xff\\ud800\"]") == line(R"(["\ufffd\ufffd"])")); // with invalid UTF-8 before it
    CHECK(raw(R"(["\u00e9\t"])") == line(R"(["\u00e9\t"])"));
    // no allocation: the text is written through the writer's own buffer, piece by piece
    std::string out;
    out.reserve(1 << 12);
    char buf[64];
    logscan::ndjson_writer<string_sink> w(string_sink{&out}, buf);
    constexpr std::string_view text = "{\"k\":\"x\\ud800y\xff\",\"p\":\"\\ud83d\\ude00\"}";
    LOGSCAN_CHECK_NO_ALLOC(for (int i = 0; i < 20; ++i) {
        w.begin("r", 1);
        w.key("v");
        w.raw_value(text);
        w.end();
    } w.flush());
    CHECK(out.size() == 20 * line(R"({"k":"x\ufffdy\ufffd","p":"\ud83d\ude00"})").size());
}

TEST_CASE("ndjson::a buffer smaller than a record; a failing sink; no allocation") {
    const std::string small = render<8>([](auto& w) {
        w.begin("long", 1);
        w.field("text", std::string_view("a string longer than the eight-byte buffer"));
        w.end();
    });
    CHECK(small == "{\"type\":\"long\",\"line\":1,\"text\":\"a string longer than the eight-byte buffer\"}\n");

    std::string out;
    char buf[16];
    logscan::ndjson_writer<string_sink> w(string_sink{&out, 1}, buf);
    w.begin("x", 1);
    w.field("text", std::string_view("more than sixteen bytes, twice over"));
    w.end();
    CHECK_FALSE(w.flush());
    CHECK_FALSE(w.ok());
    CHECK(out.size() == 16); // the first buffer went out, nothing after the failure

    std::string sink_out;
    sink_out.reserve(1 << 16);
    char b2[4096];
    logscan::ndjson_writer<string_sink> w2(string_sink{&sink_out}, b2);
    LOGSCAN_CHECK_NO_ALLOC(for (int i = 0; i < 100; ++i) {
        w2.begin("r", static_cast<std::uint64_t>(i));
        w2.field("v", 1.25);
        w2.field("s", std::string_view("x\xff"));
        w2.end();
    } w2.flush());
    CHECK(sink_out.size() == 100 * std::string("{\"type\":\"r\",\"line\":0,\"v\":1.25,\"s\":\"x\\ufffd\"}\n").size() + 90);
}

TEST_CASE("ndjson::numbers written in place at every place in the buffer, and through buffers smaller than a number") {
    // (a number is formatted straight into the buffer where it can hold the longest, after a
    // flush where it cannot; a smaller buffer formats it on the stack and copies it)
    const auto records = [](auto& w) {
        for (std::uint64_t i = 0; i < 40; ++i) {
            w.begin("n", i);
            w.key("a");
            w.begin_array();
            w.value(std::numeric_limits<std::int64_t>::min());
            w.value(std::numeric_limits<std::uint64_t>::max());
            w.value(std::int64_t{0});
            w.value(196.0);
            w.value(0.1);
            w.value(-1.5e300);
            w.value(1e-7);
            w.end_array();
            w.end();
        }
    };
    std::string want;
    for (int i = 0; i < 40; ++i)
        want += "{\"type\":\"n\",\"line\":" + std::to_string(i) +
                ",\"a\":[-9223372036854775808,18446744073709551615,0,196.0,0.1,-1.5e+300,1e-07]}\n";
    // the writer's buffer of n bytes, with guard bytes after it that nothing may touch
    const auto guarded = [&](std::size_t n, std::size_t fail_after = static_cast<std::size_t>(-1)) {
        std::string out;
        std::vector<char> buf(n + 64, '#');
        logscan::ndjson_writer<string_sink> w(string_sink{&out, fail_after}, std::span<char>(buf.data(), n));
        records(w);
        const bool ok = w.flush();
        CHECK(std::all_of(buf.begin() + static_cast<std::ptrdiff_t>(n), buf.end(), [](char c) { return c == '#'; }));
        return std::pair{ok, out};
    };
    for (std::size_t n : {4096u, 100u, 65u, 64u, 41u, 40u, 39u, 24u, 23u, 22u, 21u, 20u, 8u, 1u}) {
        CAPTURE(n);
        CHECK(guarded(n) == std::pair{true, want});
        // a sink that fails after its third write: what went out before stands, nothing after
        const auto [ok, out] = guarded(n, 3);
        CHECK(want.starts_with(out));
        CHECK(ok == (out.size() == want.size()));
        if (n <= 100) CHECK_FALSE(ok);
    }
}

TEST_CASE("ndjson::calls out of order turn ok() false instead of writing text that is not JSON") {
    using writer = logscan::ndjson_writer<string_sink>;
    auto misused = [](void (*f)(writer&)) {
        std::string out;
        char buf[256];
        writer w(string_sink{&out}, buf);
        f(w);
        return !w.ok() && w.misused() && !w.flush() && out.empty(); // nothing reaches the sink
    };
    CHECK(misused([](writer& w) { w.begin("a"); w.value(std::int64_t{1}); w.end(); }));            // {"type":"a",1}
    CHECK(misused([](writer& w) { w.begin("a"); w.key("x"); w.key("y"); w.value(true); w.end(); })); // "x":"y":true
    CHECK(misused([](writer& w) { w.begin("a"); w.key("x"); w.begin_array(); w.value(std::int64_t{1}); w.end(); })); // [1}
    CHECK(misused([](writer& w) { w.begin("a"); w.key("x"); w.begin_array(); w.key("k"); }));       // a key in an array
    CHECK(misused([](writer& w) { w.begin("a"); w.key("x"); w.begin_array(); w.end_object(); }));   // [}
    CHECK(misused([](writer& w) { w.begin("a"); w.end_object(); }));                                // closes the record
    CHECK(misused([](writer& w) { w.begin("a"); w.key("x"); w.end(); }));                           // a key with no value
    CHECK(misused([](writer& w) { w.begin("a"); w.begin("b"); }));                                  // no end() between
    CHECK(misused([](writer& w) { w.key("x"); }));                                                  // a key outside any object
    CHECK(misused([](writer& w) { w.end_array(); }));                                               // nothing open
    // nesting: 64 levels (the record and 63 arrays) are written, the 65th is refused
    auto nested = [](int arrays) {
        std::string out;
        char buf[256];
        writer w(string_sink{&out}, buf);
        w.begin("n");
        w.key("a");
        for (int i = 0; i < arrays; ++i) w.begin_array();
        for (int i = 0; i < arrays; ++i) w.end_array();
        w.end();
        w.flush();
        return std::make_pair(w.ok(), out);
    };
    const auto [ok63, text63] = nested(63);
    CHECK(ok63);
    CHECK(text63 == "{\"type\":\"n\",\"a\":" + std::string(63, '[') + std::string(63, ']') + "}\n");
    CHECK_FALSE(nested(64).first);
    CHECK_FALSE(nested(70).first);
    // a standalone value (not a record) stays allowed: the writer also renders JSON fragments
    const std::string frag = [] {
        std::string out;
        char buf[64];
        writer w(string_sink{&out}, buf);
        w.begin_object();
        w.field("k", std::int64_t{2});
        w.end_object();
        CHECK(w.flush());
        return out;
    }();
    CHECK(frag == "{\"k\":2}");
}

TEST_CASE("ndjson::a decimal written as it stands is what the conversion writes (random decimals)") {
    // number_or_string writes a short plain decimal as it is; the double it reads as, written
    // by value(double), must be the same text, whatever the digits
    std::uint64_t seed = 12345;
    const auto next = [&] { return seed = seed * 6364136223846793005ull + 1442695040888963407ull, seed >> 33; };
    int fast = 0;
    for (int k = 0; k < 200000; ++k) {
        std::string t = next() % 4 == 0 ? "-" : "";
        const unsigned int_digits = static_cast<unsigned>(next() % 9), frac_digits = 1 + static_cast<unsigned>(next() % 12);
        if (int_digits == 0) t += "0";
        for (unsigned i = 0; i < int_digits; ++i) t += static_cast<char>('0' + (i == 0 ? 1 + next() % 9 : next() % 10));
        t += '.';
        for (unsigned i = 0; i < frac_digits; ++i) t += static_cast<char>('0' + (next() % 3 == 0 ? 0 : next() % 10));
        CAPTURE(t);
        const std::string direct = render([&](auto& w) { w.number_or_string(t); });
        const std::string converted = render([&](auto& w) { w.value(std::strtod(t.c_str(), nullptr)); });
        CHECK(direct == converted);
        fast += logscan::ndjson_writer<string_sink>::shortest_decimal(t) != 0;
    }
    CHECK(fast > 100000); // (the fast path was taken for many of them)
    using w = logscan::ndjson_writer<string_sink>;
    CHECK(w::shortest_decimal("0.0001") == 0); // (1e-04 is shorter)
    CHECK(w::shortest_decimal("1.0") == 3);
    CHECK(w::shortest_decimal("1.50") == 3);     // 1.5
    CHECK(w::shortest_decimal("-0.000") == 4);   // -0.0
    CHECK(w::shortest_decimal("10000.00") == 7); // 10000.0
    CHECK(w::shortest_decimal("100000.00") == 0); // (1e+05 is shorter)
    CHECK(w::shortest_decimal("0.00100") == 5);   // 0.001 (as long as 1e-03: fixed)
    CHECK(w::shortest_decimal("0.000100") == 0);  // (1e-04 is shorter)
    CHECK(w::shortest_decimal("0.0100") == 4);    // 0.01
    CHECK(w::shortest_decimal("01.5") == 0);
    CHECK(w::shortest_decimal("1.2345678901234567") == 0); // 17 digits
    CHECK(w::shortest_decimal("1.23456789012345000") == 16); // 15 digits once its zeros go
    // every integer part of up to 6 digits with a fraction of zeros, against the conversion
    for (int d = 0; d < 1000000; d += (d < 2000 ? 1 : 997)) {
        for (const char* sign : {"", "-"}) {
            const std::string t = sign + std::to_string(d) + ".000";
            CAPTURE(t);
            CHECK(render([&](auto& x) { x.number_or_string(t); }) == render([&](auto& x) { x.value(std::strtod(t.c_str(), nullptr)); }));
        }
    }
}

TEST_CASE("ndjson::strings: a byte to escape found at every position of long runs") {
    // (runs are scanned eight bytes at a time: each special byte at each offset of a 40-byte
    // string, written as the escape formats.md's JSON needs, every other byte as it is)
    const std::pair<char, std::string_view> specials[] = {{'"', "\\\""}, {'\\', "\\\\"}, {'\n', "\\n"}, {'\x01', "\\u0001"},
                                                          {'\x1f', "\\u001f"}};
    for (const auto& [c, escaped] : specials) {
        for (std::size_t at = 0; at < 40; ++at) {
            std::string in(40, 'a');
            in[at] = c;
            std::string want = "\"" + std::string(at, 'a') + std::string(escaped) + std::string(39 - at, 'a') + "\"";
            CAPTURE(at);
            CHECK(render([&](auto& w) { w.value(std::string_view(in)); }) == want);
        }
    }
    for (std::size_t at = 0; at < 40; ++at) { // an invalid UTF-8 byte, and a valid é, at each offset
        std::string in(40, 'b');
        in[at] = '\xff';
        CHECK(render([&](auto& w) { w.value(std::string_view(in)); }) ==
              "\"" + std::string(at, 'b') + "\\ufffd" + std::string(39 - at, 'b') + "\"");
        std::string ok(40, 'b');
        ok.replace(at, 1, "\xc3\xa9");
        CHECK(render([&](auto& w) { w.value(std::string_view(ok)); }) == "\"" + ok + "\"");
    }
}
