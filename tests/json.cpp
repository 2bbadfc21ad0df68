// SPDX-License-Identifier: MIT
// Tests of include/logscan/json.hpp: RFC 8259 conformance (documents and expected events from
// tests/data/json/, generated with Python's json module), chunk invariance, errors and their
// positions, limits, numbers, key paths, skipping, stopping, and allocation freedom.
#include <logscan/json.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "support/alloc_counter.hpp"
#include "support/chunking.hpp"

namespace {

namespace json = logscan::json;

std::string hex(std::string_view s) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}
std::string unhex(std::string_view h) {
    std::string out;
    for (std::size_t i = 0; i + 1 < h.size(); i += 2)
        out += static_cast<char>(std::stoi(std::string(h.substr(i, 2)), nullptr, 16));
    return out;
}

// Records every event as text (strings and keys in hex, as in conformance.txt) and the error.
struct recorder {
    std::vector<std::string> ev;
    logscan::error err{};
    int errors = 0;
    void on_object_begin() { ev.emplace_back("{"); }
    void on_object_end() { ev.emplace_back("}"); }
    void on_array_begin() { ev.emplace_back("["); }
    void on_array_end() { ev.emplace_back("]"); }
    void on_key(std::string_view k) { ev.push_back("k:" + hex(k)); }
    void on_string(std::string_view s) { ev.push_back("s:" + hex(s)); }
    void on_number(const json::number& n) { ev.push_back("n:" + std::string(n.text())); }
    void on_bool(bool b) { ev.emplace_back(b ? "t" : "f"); }
    void on_null() { ev.emplace_back("null"); }
    void on_error(const logscan::error& e) {
        err = e;
        ++errors;
    }
};

struct outcome {
    std::vector<std::string> ev;
    logscan::error_code code = logscan::error_code::none;
    std::uint64_t offset = 0, line = 0, column = 0;
    std::string message;
    bool operator==(const outcome&) const = default;
};

template <class V = recorder>
outcome run_chunks(logscan::test::chunk_list chunks, const json::options& opt = {}) {
    V v;
    json::reader<V> r(v, opt);
    for (const auto c : chunks)
        if (r.feed(c) == logscan::flow::stop) break;
    (void)r.finish();
    const logscan::error& e = r.result();
    outcome o{v.ev, e.code, e.offset, e.line, e.column, std::string(e.message)};
    if (e.code != logscan::error_code::none && e.code != logscan::error_code::stopped) {
        // on_error got the same record, exactly once
        CHECK(v.errors == 1);
        CHECK(v.err.code == e.code);
        CHECK(v.err.offset == e.offset);
    }
    return o;
}


outcome check_invariant(std::string_view doc, const json::options& opt = {}, int rounds = 6) {
    return logscan::test::check_chunk_invariance(
        doc, [&](logscan::test::chunk_list c) { return run_chunks(c, opt); }, rounds);
}

std::string data_path(const char* name) { return std::string(LOGSCAN_SOURCE_DIR) + "/tests/data/json/" + name; }

logscan::error_code code_named(std::string_view s) {
    using logscan::error_code;
    if (s == "syntax") return error_code::syntax;
    if (s == "unexpected_end") return error_code::unexpected_end;
    if (s == "too_deep") return error_code::too_deep;
    if (s == "invalid_utf8") return error_code::invalid_utf8;
    FAIL("unknown code " << s);
    return error_code::none;
}

struct conformance_case {
    bool valid;
    std::string name, doc;
    logscan::error_code code;
    std::vector<std::string> ev;
};

std::vector<conformance_case> load_conformance() {
    std::ifstream in(data_path("conformance.txt"));
    REQUIRE(in.good());
    std::vector<conformance_case> cases;
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("case ", 0) == 0) {
            std::istringstream ss(line.substr(5));
            std::string kind, name, doc, code;
            ss >> kind >> name >> doc >> code;
            cases.push_back({kind == "y", name, unhex(doc), logscan::error_code::none, {}});
            if (kind == "n") cases.back().code = code_named(code);
            if (doc == "-") cases.back().doc.clear();
        } else if (line.rfind("ev ", 0) == 0) {
            cases.back().ev.push_back(line.substr(3));
        }
    }
    return cases;
}

} // namespace

TEST_CASE("json::conformance") {
    const auto cases = load_conformance();
    REQUIRE(cases.size() > 300);
    int valid = 0, invalid = 0;
    for (const auto& c : cases) {
        INFO(c.name);
        const outcome o = check_invariant(c.doc, {}, 4);
        if (c.valid) {
            ++valid;
            CHECK(o.code == logscan::error_code::none);
            CHECK(o.ev == c.ev);
        } else {
            ++invalid;
            CHECK(o.code == c.code);
            CHECK(!o.message.empty());
            CHECK(o.offset <= c.doc.size());
        }
    }
    CHECK(valid > 180);
    CHECK(invalid > 150);
}

TEST_CASE("json::errors name what was expected, with line, column and offset") {
    struct expect {
        std::string_view doc;
        logscan::error_code code;
        std::uint64_t offset, line, column;
        std::string_view message;
    };
    using logscan::error_code;
    const expect cases[] = {
        {R"({"a": 1, "hello" 2})", error_code::syntax, 17, 1, 18, "expected ':' after object key"},
        {"{\n  \"a\": 1,\n  \"b\" 2}", error_code::syntax, 18, 3, 7, "expected ':' after object key"},
        {"[1, 2,]", error_code::syntax, 6, 1, 7, "expected a value after ','"},
        {"[1 2]", error_code::syntax, 3, 1, 4, "expected ',' or ']' after an array element"},
        {R"({"a":1 "b":2})", error_code::syntax, 7, 1, 8, "expected ',' or '}' after an object member"},
        {"{,}", error_code::syntax, 1, 1, 2, "expected a string key or '}'"},
        {R"({"a":1,})", error_code::syntax, 7, 1, 8, "expected a string key after ','"},
        {"[01]", error_code::syntax, 2, 1, 3, "leading zeros are not allowed"},
        {"[1.]", error_code::syntax, 3, 1, 4, "expected a digit after the decimal point"},
        {"[-x]", error_code::syntax, 2, 1, 3, "expected a digit after '-'"},
        {"[1e]", error_code::syntax, 3, 1, 4, "expected a digit or sign in the exponent"},
        {"[1e+]", error_code::syntax, 4, 1, 5, "expected a digit in the exponent"},
        {"[\"a\tb\"]", error_code::syntax, 3, 1, 4, "control character in string (it must be escaped)"},
        {R"(["\q"])", error_code::syntax, 3, 1, 4,
         "invalid escape in string (expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)"},
        {R"(["\u12x4"])", error_code::syntax, 6, 1, 7, "expected 4 hex digits after \\u"},
        {R"(["ab\uDC00"])", error_code::syntax, 4, 1, 5, "lone low surrogate in \\u escape"},
        {R"(["\uD800x"])", error_code::syntax, 8, 1, 9, "lone high surrogate: expected a \\u low surrogate escape"},
        {R"(["\uD800\u0041"])", error_code::syntax, 8, 1, 9,
         "expected a low surrogate \\uDC00-\\uDFFF after a high surrogate"},
        {"[\"\xc3\x28\"]", error_code::invalid_utf8, 3, 1, 4, "invalid UTF-8 in string"},
        {"[\"\xff\"]", error_code::invalid_utf8, 2, 1, 3, "invalid UTF-8 in string"},
        {"[trux]", error_code::syntax, 4, 1, 5, "invalid literal (expected 'true')"},
        {"[nil]", error_code::syntax, 2, 1, 3, "invalid literal (expected 'null')"},
        {"{} {}", error_code::syntax, 3, 1, 4, "expected the end of the input after the JSON value"},
        {"", error_code::unexpected_end, 0, 1, 1, "expected a JSON value"},
        {"[1,\n2", error_code::unexpected_end, 5, 2, 2, "expected ',' or ']' after an array element"},
        {"{\"a\":", error_code::unexpected_end, 5, 1, 6, "expected a value after ':'"},
        {"\"abc", error_code::unexpected_end, 4, 1, 5, "unterminated string"},
        {"[-", error_code::unexpected_end, 2, 1, 3, "expected a digit after '-'"},
        {"fals", error_code::unexpected_end, 4, 1, 5, "input ends inside true, false or null"},
        {"\r\n\r\n  @", error_code::syntax, 6, 3, 3, "expected a JSON value"},
        {"[}", error_code::syntax, 1, 1, 2, "expected a value or ']'"},
    };
    for (const auto& c : cases) {
        INFO(c.doc);
        const outcome o = check_invariant(c.doc, {}, 4);
        CHECK(o.code == c.code);
        CHECK(o.offset == c.offset);
        CHECK(o.line == c.line);
        CHECK(o.column == c.column);
        CHECK(o.message == c.message);
    }
}

TEST_CASE("json::events of a small document, by hand") {
    const std::string doc = R"({"a": [1, -2.5e3, "x\ty\u00e9\ud83d\ude00", true, false, null], "": {}, "b": []})";
    const outcome o = check_invariant(doc);
    const std::vector<std::string> expected = {
        "{", "k:" + hex("a"), "[", "n:1", "n:-2.5e3", "s:" + hex("x\ty\xc3\xa9\xf0\x9f\x98\x80"), "t", "f", "null", "]",
        "k:", "{", "}", "k:" + hex("b"), "[", "]", "}"};
    CHECK(o.code == logscan::error_code::none);
    CHECK(o.ev == expected);
}

TEST_CASE("json::numbers keep their text and convert lazily") {
    struct nums {
        std::vector<json::number> n;
        std::vector<std::string> text;
        void on_number(const json::number& x) {
            text.emplace_back(x.text());
            n.push_back(x);
        }
    };
    // the numbers' views point into this buffer (fed whole, no scratch copies)
    const std::string doc =
        "[0, -0, 42, -7, 9223372036854775807, -9223372036854775808, 9223372036854775808, "
        "18446744073709551615, 18446744073709551616, -9223372036854775809, 1.5, 1e3, 2E-2, "
        "123456789012345678901234567890, 0.1, 1e400, -1e400]";
    nums v;
    REQUIRE(json::parse(doc, v).ok());
    REQUIRE(v.n.size() == 17);
    const auto& n = v.n;
    CHECK(v.text[4] == "9223372036854775807");
    CHECK(n[0].is_integer());
    CHECK(*n[0].to_int64() == 0);
    CHECK(*n[1].to_int64() == 0);
    CHECK(*n[1].to_uint64() == 0);
    CHECK(n[1].is_negative());
    CHECK(*n[2].to_int64() == 42);
    CHECK(*n[2].to_uint64() == 42);
    CHECK(*n[3].to_int64() == -7);
    CHECK(!n[3].to_uint64());
    CHECK(*n[4].to_int64() == INT64_MAX);
    CHECK(*n[5].to_int64() == INT64_MIN);
    CHECK(!n[6].to_int64());
    CHECK(*n[6].to_uint64() == 9223372036854775808ull);
    CHECK(!n[6].is_big_integer());
    CHECK(*n[7].to_uint64() == UINT64_MAX);
    CHECK(!n[8].to_uint64());
    CHECK(n[8].is_big_integer());
    CHECK(n[9].is_big_integer());
    CHECK(!n[10].is_integer());
    CHECK(!n[10].to_int64());
    CHECK(n[10].to_double() == 1.5);
    CHECK(!n[11].is_integer());
    CHECK(n[11].to_double() == 1000.0);
    CHECK(n[12].to_double() == 0.02);
    CHECK(n[13].is_big_integer());
    CHECK(n[13].text() == "123456789012345678901234567890");
    CHECK(n[13].to_double() == 1.2345678901234568e29);
    CHECK(n[14].to_double() == 0.1);
    CHECK(std::isinf(n[15].to_double()));
    CHECK(n[16].to_double() < 0);
    CHECK(!n[4].is_big_integer());
}

TEST_CASE("json::number::to_double agrees with strtod") {
    // strtod (glibc: correctly rounded) is the oracle; numbers of every shape the fast path
    // and the fallback take: short and long mantissas, fractions, exponents near the limits
    std::mt19937_64 rng(12345);
    const auto digits = [&](int n, bool lead_nonzero) {
        std::string s;
        for (int i = 0; i < n; ++i)
            s += static_cast<char>('0' + ((i == 0 && lead_nonzero) ? 1 + rng() % 9 : rng() % 10));
        return s;
    };
    int checked = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string t;
        if (rng() % 4 == 0) t += '-';
        const int int_digits = 1 + static_cast<int>(rng() % (i % 3 == 0 ? 25 : 10));
        t += int_digits == 1 ? digits(1, false) : digits(int_digits, true);
        if (rng() % 2) t += "." + digits(1 + static_cast<int>(rng() % (i % 5 == 0 ? 25 : 8)), false);
        if (rng() % 3 == 0) {
            t += (rng() % 2) ? 'e' : 'E';
            const int r = static_cast<int>(rng() % 4);
            if (r == 1) t += '+';
            if (r == 2) t += '-';
            t += std::to_string(rng() % (i % 7 == 0 ? 400 : 30));
        }
        const json::number n(t, false);
        const double want = std::strtod(t.c_str(), nullptr);
        INFO(t);
        const double got = n.to_double();
        REQUIRE(std::memcmp(&want, &got, sizeof(double)) == 0);
        ++checked;
    }
    CHECK(checked == 20000);
    CHECK(json::number("-0", true).to_double() == 0.0);
    CHECK(std::signbit(json::number("-0", true).to_double()));
    CHECK(json::number("9007199254740993", true).to_double() == 9007199254740992.0);
    CHECK(json::number("1e23", false).to_double() == 1e23);
    CHECK(json::number("4.9e-324", false).to_double() == 4.9e-324);
    CHECK(json::number("1e-400", false).to_double() == 0.0);
}

// Every number's text and conversions (a local class cannot default operator== with g++ 12).
struct converted {
    std::vector<std::string> text;
    std::vector<std::uint64_t> bits;
    std::vector<std::optional<std::int64_t>> i64;
    std::vector<std::optional<std::uint64_t>> u64;
    void on_number(const json::number& n) {
        text.emplace_back(n.text());
        const double d = n.to_double();
        std::uint64_t b;
        std::memcpy(&b, &d, sizeof b);
        bits.push_back(b);
        i64.push_back(n.to_int64());
        u64.push_back(n.to_uint64());
    }
    bool operator==(const converted&) const = default;
};

TEST_CASE("json::numbers delivered by the reader convert exactly like fast_float, strtod and from_chars") {
    // The reader accumulates each number's digits while scanning it (eight at a time) and
    // number::to_double / to_int64 / to_uint64 use that; differential test against the text
    // converters on random numbers of every shape, in JSON, fed whole and in random chunks
    // (numbers cut by a chunk boundary take the text-only path: the results must not change).
    std::mt19937_64 rng(20261122);
    const auto digits = [&](std::size_t n, bool lead_nonzero) {
        std::string s;
        for (std::size_t i = 0; i < n; ++i)
            s += static_cast<char>('0' + ((i == 0 && lead_nonzero) ? 1 + rng() % 9 : rng() % 10));
        return s;
    };
    std::vector<std::string> texts;
    for (int i = 0; i < 30000; ++i) {
        std::string t;
        if (rng() % 3 == 0) t += '-';
        const int shape = static_cast<int>(rng() % 8);
        // integer part: 1..24 digits, lengths around the 8-digit blocks and the 19-digit limit
        const std::size_t int_digits = shape == 0 ? 1 : 1 + rng() % (shape == 1 ? 24 : 9);
        t += int_digits == 1 ? digits(1, false) : digits(int_digits, true);
        if (shape >= 3 && rng() % 4 != 0) t += "." + digits(1 + rng() % (shape == 3 ? 26 : 17), false);
        if (shape >= 5 && rng() % 2) {
            t += (rng() % 2) ? 'e' : 'E';
            const int r = static_cast<int>(rng() % 4);
            if (r == 1) t += '+';
            if (r == 2) t += '-';
            if (rng() % 8 == 0) t += "00";
            t += std::to_string(rng() % (shape == 5 ? 400 : 40));
        }
        texts.push_back(std::move(t));
    }
    // hand-picked edges: integer limits, 19 and 20 digits, the 2^53 boundary, zeros
    for (const char* t : {"0", "-0", "0.0", "-0.0", "0e5", "-0E-5", "9223372036854775807", "-9223372036854775808",
                          "9223372036854775808", "-9223372036854775809", "18446744073709551615",
                          "18446744073709551616", "9999999999999999999", "10000000000000000000",
                          "-9999999999999999999", "9007199254740992", "9007199254740993", "-9007199254740993",
                          "12345678", "123456781", "1234567812345678", "0.12345678", "1.2345678e22",
                          "12345678e-22", "1e22", "1e23", "1e-22", "1e-23", "4.9e-324", "1.7976931348623157e308",
                          "1e400", "-1e-400", "0.00000000000000000000000000001", "1000000000000000000000e-10"})
        texts.emplace_back(t);

    std::string doc = "[";
    for (std::size_t i = 0; i < texts.size(); ++i) {
        if (i) doc += (i % 3 == 0) ? ",\n" : (i % 3 == 1 ? ", " : ",");
        doc += texts[i];
    }
    doc += "]";
    converted whole;
    REQUIRE(json::parse(doc, whole).ok());
    REQUIRE(whole.text == texts);
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const std::string& t = texts[i];
        INFO(t);
        const bool integer = t.find_first_of(".eE") == std::string::npos;
        double ff = 0;
        (void)fast_float::from_chars(t.data(), t.data() + t.size(), ff);
        const double sd = std::strtod(t.c_str(), nullptr);
        std::uint64_t ffb, sdb;
        std::memcpy(&ffb, &ff, sizeof ffb);
        std::memcpy(&sdb, &sd, sizeof sdb);
        REQUIRE(whole.bits[i] == ffb);
        REQUIRE(whole.bits[i] == sdb);
        std::optional<std::int64_t> want_i;
        std::optional<std::uint64_t> want_u;
        if (integer) {
            std::int64_t iv = 0;
            std::uint64_t uv = 0;
            const auto ri = std::from_chars(t.data(), t.data() + t.size(), iv);
            if (ri.ec == std::errc{} && ri.ptr == t.data() + t.size()) want_i = iv;
            if (t == "-0") {
                want_u = 0;
            } else {
                const auto ru = std::from_chars(t.data(), t.data() + t.size(), uv);
                if (ru.ec == std::errc{} && ru.ptr == t.data() + t.size()) want_u = uv;
            }
        }
        REQUIRE(whole.i64[i] == want_i);
        REQUIRE(whole.u64[i] == want_u);
        // the text-only path (what a number cut by a chunk boundary gets) agrees too
        const json::number n(t, integer);
        const double td = n.to_double();
        std::uint64_t tb;
        std::memcpy(&tb, &td, sizeof tb);
        REQUIRE(tb == ffb);
        REQUIRE(n.to_int64() == want_i);
        REQUIRE(n.to_uint64() == want_u);
    }
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        INFO("random chunks, seed " << seed);
        converted chunked;
        json::reader<converted> r(chunked);
        const auto input = logscan::test::chunked_input::random(doc, seed, std::size_t{1} << (2 * seed));
        for (const auto c : input.chunks()) (void)r.feed(c);
        (void)r.finish();
        REQUIRE(r.ok());
        CHECK(chunked == whole);
    }
}

TEST_CASE("json::strings without escapes in one chunk are views into it") {
    struct where {
        const char* key = nullptr;
        const char* str = nullptr;
        void on_key(std::string_view k) { key = k.data(); }
        void on_string(std::string_view s) { str = s.data(); }
    };
    const std::string doc = R"({"key": "value"})";
    where v;
    REQUIRE(json::parse(doc, v).ok());
    CHECK(v.key == doc.data() + 2);
    CHECK(v.str == doc.data() + 9);
}

TEST_CASE("json: a bare word (NaN, Infinity: what Python's json.dump writes) is said as such, however the input is split") {
    using logscan::error_code;
    // (the offset is the word's first byte; the message names the words and why they are there)
    const std::string nan = "expected a JSON value, not a word (NaN and Infinity are not JSON: Python's json.dump writes them "
                            "unless allow_nan=False)";
    const std::string word = "expected a JSON value, not a word (JSON's words are true, false and null)";
    // (the first byte decides, as every chunking must decide alike: `None` is said as `NaN` is)
    for (const auto& c : {std::pair<std::string, std::uint64_t>{R"({"v": NaN})", 6}, {"[1, Infinity]", 4}, {"NaN", 0},
                          {R"({"a": None})", 6}}) {
        INFO(c.first); // (clang 14: a structured binding cannot be captured by INFO)
        const outcome o = check_invariant(c.first, json::options{});
        CHECK(o.code == error_code::syntax);
        CHECK(o.offset == c.second);
        CHECK(o.message == nan);
    }
    for (const auto& c : {std::pair<std::string, std::uint64_t>{"[True]", 1}, {"[inf]", 1}, {"prose", 0}}) {
        INFO(c.first);
        const outcome o = check_invariant(c.first, json::options{});
        CHECK(o.offset == c.second);
        CHECK(o.message == word);
    }
    // a byte of another kind, and a non-finite word the reader is asked to take, are not
    const outcome other = check_invariant("[1, *]", json::options{});
    CHECK(other.message == "expected a value after ','");
    json::options words;
    words.non_finite_words = true;
    CHECK(check_invariant("[NaN, -Infinity]", words).code == error_code::none);
}

TEST_CASE("json::scratch capacity limits keys, strings and numbers however the input is split") {
    json::options opt;
    opt.scratch_capacity = 8;
    using logscan::error_code;
    SUBCASE("fits exactly") {
        const outcome o = check_invariant(R"({"12345678": ["abcdefgh", 12345678, "\n\n\n\n\n\n\n\n"]})", opt);
        CHECK(o.code == error_code::none);
        CHECK(o.ev.size() == 8);
    }
    SUBCASE("string one byte too long") {
        const outcome o = check_invariant(R"([1, "abcdefghi"])", opt);
        CHECK(o.code == error_code::too_long);
        CHECK(o.offset == 4); // the opening quote
        CHECK(o.message == "string longer than options::scratch_capacity");
    }
    SUBCASE("escaped string too long when decoded") {
        const outcome o = check_invariant(R"(["\u00e9\u00e9\u00e9\u00e9x"])", opt);
        CHECK(o.code == error_code::too_long);
        CHECK(o.offset == 1);
    }
    SUBCASE("key too long") {
        const outcome o = check_invariant(R"({"abcdefghi": 1})", opt);
        CHECK(o.code == error_code::too_long);
        CHECK(o.offset == 1);
        CHECK(o.message == "object key longer than options::scratch_capacity");
    }
    SUBCASE("number too long") {
        const outcome o = check_invariant("[123456789]", opt);
        CHECK(o.code == error_code::too_long);
        CHECK(o.offset == 1);
        CHECK(o.message == "number longer than options::scratch_capacity");
    }
    SUBCASE("number too long at the end of the input") {
        CHECK(check_invariant("123456789", opt).code == error_code::too_long);
        CHECK(check_invariant("12345678", opt).code == error_code::none);
    }
    SUBCASE("a syntax error past the limit is reported as too long, however split") {
        CHECK(check_invariant("[\"abcdefghij\x01\"]", opt).code == error_code::too_long);
        CHECK(check_invariant("[\"abcdefgh\x01\"]", opt).code == error_code::syntax);
        CHECK(check_invariant("[1234567890x]", opt).code == error_code::too_long);
        CHECK(check_invariant("[12345678x]", opt).code == error_code::syntax);
    }
    SUBCASE("skipped values have no limit") {
        struct skipper : recorder {
            json::action on_key(std::string_view k) {
                recorder::on_key(k);
                return k == "skip" ? json::action::skip : json::action::proceed;
            }
        };
        const std::string doc = R"({"skip": ["a very long string", 12345678901234567890], "b": 1})";
        const auto run = [&](logscan::test::chunk_list c) { return run_chunks<skipper>(c, opt); };
        const outcome o = logscan::test::check_chunk_invariance(doc, run, 4);
        CHECK(o.code == error_code::none);
        CHECK(o.ev == std::vector<std::string>{"{", "k:" + hex("skip"), "k:" + hex("b"), "n:1", "}"});
    }
}

namespace {
// Receives string values in parts.
struct part_recorder : recorder {
    std::string pending;
    std::vector<std::size_t> part_sizes;
    void on_string_part(std::string_view s, bool last) {
        ev.push_back(std::string(last ? "P:" : "p:") + hex(s));
        pending += s;
        if (last) {
            ev.push_back("s:" + hex(pending));
            pending.clear();
        }
    }
};
} // namespace

TEST_CASE("json::on_string_part delivers long strings in parts, without a length limit") {
    json::options opt;
    opt.scratch_capacity = 4;
    std::string long_value(23, 'x');
    for (std::size_t i = 0; i < long_value.size(); ++i) long_value[i] = static_cast<char>('a' + i % 26);
    const std::string doc = "[\"" + long_value + "\", \"ab\\n\\u00e9cd\", \"\", \"abcd\"]";
    const auto run = [&](logscan::test::chunk_list c) { return run_chunks<part_recorder>(c, opt); };
    // parts are cut at the same places however the input is split
    const outcome o = logscan::test::check_chunk_invariance(doc, run, 8);
    CHECK(o.code == logscan::error_code::none);
    std::vector<std::string> expected = {"["};
    for (std::size_t at = 0; at < 20; at += 4) expected.push_back("p:" + hex(long_value.substr(at, 4)));
    expected.push_back("P:" + hex(long_value.substr(20)));
    expected.push_back("s:" + hex(long_value));
    const std::string decoded = "ab\n\xc3\xa9" "cd";
    expected.push_back("p:" + hex(decoded.substr(0, 4)));
    expected.push_back("P:" + hex(decoded.substr(4)));
    expected.push_back("s:" + hex(decoded));
    expected.push_back("P:");
    expected.push_back("s:");
    expected.push_back("P:" + hex("abcd"));
    expected.push_back("s:" + hex("abcd"));
    expected.push_back("]");
    CHECK(o.ev == expected);
    // keys are still limited
    CHECK(check_invariant(R"({"abcde": 1})", opt).code == logscan::error_code::too_long);
}

TEST_CASE("json::an empty chunk changes nothing, its pointer null or not, inside any token or between") {
    // (found by chrome-trace's fuzzer: a null empty chunk inside a string made feed() stop
    // without an error, so the cut string's error never came)
    for (std::string_view doc : {R"({"a": "str\u00e9ing", "b": [12.5e3, true, null, -0]})", R"([{"ph.,)", R"({"k": 123)",
                                 R"(["abc", tru)", R"({"x": {"y": [1, 2]}} )"}) {
        const logscan::test::chunked_input whole(doc, {});
        const outcome want = run_chunks(whole.chunks());
        for (std::size_t at = 0; at <= doc.size(); ++at) {
            INFO(doc << " with an empty chunk at " << at);
            const std::string head(doc.substr(0, at)), tail(doc.substr(at));
            for (bool null : {true, false}) {
                const std::string_view empty = null ? std::string_view() : std::string_view(tail.data(), 0);
                const std::string_view chunks[] = {head, empty, empty, tail, empty};
                CHECK(run_chunks(chunks) == want);
            }
        }
    }
}

TEST_CASE("json::same_string compares string tokens by their decoded text, whatever their length") {
    using json::same_string;
    CHECK(same_string(R"("a")", R"("\u0061")"));
    CHECK(same_string(R"("\u00e9t\u00E9")", "\"\xC3\xA9t\xC3\xA9\""));             // (é as an escape and as UTF-8)
    CHECK(same_string(R"("\ud83d\ude00")", "\"\xF0\x9F\x98\x80\""));               // (a surrogate pair)
    CHECK(same_string(R"("x\ud800")", R"("x\udc00")"));                        // (both lone: U+FFFD)
    CHECK(same_string(R"("x\ud800")", "\"x\xEF\xBF\xBD\""));
    CHECK(same_string(R"("\n\t\"\\\/")", "\"\n\t\\\"\\\\/\""));
    CHECK(!same_string(R"("a")", R"("b")"));
    CHECK(!same_string(R"("a")", R"("ab")"));
    CHECK(!same_string(R"("\u0061b")", R"("a")"));
    CHECK(!same_string("\"\xFF\"", "\"\xFE\""));                               // (bytes of no UTF-8: as they are)
    CHECK(!same_string(R"("a")", "a"));                                          // (not a token)
    const std::string long_a = "\"" + std::string(5000, 'a') + "\"";
    std::string escaped = "\"" + std::string(4999, 'a') + "\\u0061\"";
    CHECK(same_string(long_a, escaped));
    escaped[3] = 'b';
    CHECK(!same_string(long_a, escaped));
}

TEST_CASE("json::is_text: a key token against a literal key, escaped or not") {
    using json::is_text;
    CHECK(is_text(R"("stream")", R"("stream")"));
    CHECK(is_text(R"("\u0073tream")", R"("stream")")); // (longer: an escape, read decoded)
    CHECK(is_text(R"("strea\u006d")", R"("stream")"));
    CHECK(is_text(R"("\/")", R"("/")"));
    CHECK(!is_text(R"("streak")", R"("stream")"));     // (as long, other bytes)
    CHECK(!is_text(R"("strea")", R"("stream")"));      // (shorter)
    CHECK(!is_text(R"("streams")", R"("stream")"));    // (longer, no escape)
    CHECK(!is_text(R"("\u0073treak")", R"("stream")"));
    CHECK(!is_text(R"("xstream")", R"("stream")"));    // (longer, another first byte: told at once)
    CHECK(is_text(R"("\u00e9")", "\"\xC3\xA9\""));           // (an escape of the same point)
    CHECK(!is_text(R"("\u00e8")", "\"\xC3\xA9\""));          // (an escape of another point)
    CHECK(is_text(R"("\u00e9x")", "\"\xC3\xA9x\""));         // (the first byte an escape: decoded)
    CHECK(is_text("\"\xC3\xA9\\u0078\"", "\"\xC3\xA9x\""));         // (the first byte the same: decoded)
    CHECK(!is_text(R"("\u0078")", R"("")"));           // (a text against the empty key)
    CHECK(!is_text("stream", R"("stream")"));          // (not a token)
}

TEST_CASE("json::max_depth") {
    json::options opt;
    opt.max_depth = 3;
    CHECK(check_invariant("[[[]]]", opt).code == logscan::error_code::none);
    CHECK(check_invariant(R"({"a":{"b":[1]}})", opt).code == logscan::error_code::none);
    const outcome o = check_invariant("[[[[]]]]", opt);
    CHECK(o.code == logscan::error_code::too_deep);
    CHECK(o.offset == 3);
    CHECK(o.message == "nesting deeper than options::max_depth");
    CHECK(o.ev == std::vector<std::string>{"[", "[", "["});
}

TEST_CASE("json::a million nested brackets are rejected at max_depth, with constant stack") {
    const std::string doc(1000000, '[');
    logscan::null_visitor v;
    json::reader<logscan::null_visitor> r(v);
    std::size_t allocs = 0;
    allocs = logscan::test::count_allocations([&] {
        (void)r.feed(doc);
        (void)r.finish();
    });
    CHECK(allocs == 0);
    CHECK(r.result().code == logscan::error_code::too_deep);
    CHECK(r.result().offset == 1024);
    CHECK(r.depth() == 1024);
    // the default max_depth of 1024 itself is accepted
    const std::string ok = std::string(1024, '[') + std::string(1024, ']');
    CHECK(json::parse(ok, v).ok());
}

TEST_CASE("json::multiple_values") {
    json::options opt;
    opt.multiple_values = true;
    const outcome o = check_invariant("{\"a\":1}\n{\"a\":2}{}[] 3 \"s\"true null\n", opt);
    CHECK(o.code == logscan::error_code::none);
    CHECK(o.ev == std::vector<std::string>{"{", "k:" + hex("a"), "n:1", "}", "{", "k:" + hex("a"), "n:2", "}", "{",
                                           "}", "[", "]", "n:3", "s:" + hex("s"), "t", "null"});
    CHECK(check_invariant("", opt).code == logscan::error_code::none);
    CHECK(check_invariant(" \n ", opt).code == logscan::error_code::none);
    CHECK(check_invariant("{} {", opt).code == logscan::error_code::unexpected_end);
    CHECK(check_invariant("{} ]", opt).code == logscan::error_code::syntax);
    CHECK(check_invariant("1 2", {}).code == logscan::error_code::syntax);
}

TEST_CASE("json::validate_utf8 off passes bytes through") {
    json::options opt;
    opt.validate_utf8 = false;
    const outcome o = check_invariant("[\"\xff\xc0\xaf\xed\xa0\x80\"]", opt);
    CHECK(o.code == logscan::error_code::none);
    CHECK(o.ev == std::vector<std::string>{"[", "s:ffc0afeda080", "]"});
    CHECK(check_invariant("[\"\xff\"]").code == logscan::error_code::invalid_utf8);
}

namespace {
// Records "path = value" using path-taking callbacks.
struct path_recorder {
    std::vector<std::string> ev;
    static std::string str(const json::path& p) {
        std::string s;
        for (std::size_t i = 0; i < p.size(); ++i) {
            if (i) s += '.';
            const json::path_segment seg = p[i];
            s += seg.is_key() ? std::string(seg.key) : std::to_string(seg.index);
        }
        return s;
    }
    void on_object_begin(const json::path& p) { ev.push_back("{ " + str(p)); }
    void on_object_end(const json::path& p) { ev.push_back("} " + str(p)); }
    void on_array_begin(const json::path& p) { ev.push_back("[ " + str(p)); }
    void on_array_end(const json::path& p) { ev.push_back("] " + str(p)); }
    void on_key(std::string_view k, const json::path& p) { ev.push_back("k " + std::string(k) + " " + str(p)); }
    void on_string(std::string_view s, const json::path& p) { ev.push_back("s " + std::string(s) + " " + str(p)); }
    void on_number(const json::number& n, const json::path& p) { ev.push_back("n " + std::string(n.text()) + " " + str(p)); }
    void on_bool(bool b, const json::path& p) { ev.push_back(std::string(b ? "t " : "f ") + str(p)); }
    void on_null(const json::path& p) { ev.push_back("null " + str(p)); }
};
} // namespace

TEST_CASE("json::key paths") {
    static_assert(json::reader<path_recorder>::tracks_path);
    static_assert(!json::reader<recorder>::tracks_path);
    const std::string doc = R"({"a": {"b": [10, {"c": null}, [true]], "d\"e": "x"}, "f": false})";
    const auto run = [](logscan::test::chunk_list chunks) {
        path_recorder v;
        json::reader<path_recorder> r(v);
        for (const auto c : chunks) (void)r.feed(c);
        (void)r.finish();
        CHECK(r.ok());
        return v.ev;
    };
    const auto ev = logscan::test::check_chunk_invariance(doc, run, 8);
    const std::vector<std::string> expected = {
        "{ ",          "k a a",        "{ a",         "k b a.b",        "[ a.b",       "n 10 a.b.0",
        "{ a.b.1",     "k c a.b.1.c",  "null a.b.1.c", "} a.b.1",        "[ a.b.2",     "t a.b.2.0",
        "] a.b.2",     "] a.b",        "k d\"e a.d\"e", "s x a.d\"e",     "} a",         "k f f",
        "f f",         "} "};
    CHECK(ev == expected);
}

namespace {
struct router {
    static constexpr bool wants_path = true;
    json::reader<router>* r = nullptr;
    std::vector<std::string> types;
    int ids = 0, ops = 0, ends = 0;
    void on_object_begin() {
        if (r->path().matches("graph_exec.operator.*")) ++ops;
    }
    void on_array_end() {
        if (r->path().matches("graph_exec.operator.*.input")) ++ends;
    }
    void on_string(std::string_view s) {
        const json::path p = r->path();
        if (p.matches("graph_exec.operator.*.type")) types.emplace_back(s);
        if (p.matches("graph_exec.operator.*.input.*")) ++ids;
    }
};
} // namespace

TEST_CASE("json::path::matches and reader::path()") {
    const std::string doc = R"({"graph_exec": {"operator": {"7": {"type": "Conv", "input": ["1", "2"]},
        "8": {"input": [], "type": "Relu"}}, "type": "no"}, "type": "no"})";
    router v;
    json::reader<router> r(v);
    v.r = &r;
    (void)r.feed(doc);
    (void)r.finish();
    CHECK(r.ok());
    CHECK(v.types == std::vector<std::string>{"Conv", "Relu"});
    CHECK(v.ids == 2);
    CHECK(v.ops == 2);
    CHECK(v.ends == 2);

    // matches() on its own
    const json::internal::path_slot slots[3] = {{0, 1, 0}, {1, 0, 12}, {1, 2, 0}};
    const unsigned char kinds[3] = {json::internal::kind_object, json::internal::kind_array,
                                    json::internal::kind_object};
    const char keys[] = "abc";
    const json::path p(slots, kinds, keys, 3);
    CHECK(p.matches("a.12.bc"));
    CHECK(p.matches("*.*.*"));
    CHECK(p.matches("a.*.bc"));
    CHECK(!p.matches("a.12"));
    CHECK(!p.matches("a.12.bc.d"));
    CHECK(!p.matches("a.012.bc"));
    CHECK(!p.matches("a.13.bc"));
    CHECK(!p.matches("b.12.bc"));
    CHECK(!p.matches(""));
    CHECK(json::path(slots, kinds, keys, 0).matches(""));
    CHECK(p.back().key == "bc");
    CHECK(p[1].index == 12);
}

TEST_CASE("json::path capacity") {
    json::options opt;
    opt.path_capacity = 6;
    const auto run = [&](std::string_view doc) {
        path_recorder v;
        return json::parse(doc, v, opt).code;
    };
    CHECK(run(R"({"abc": {"def": 1}, "abcdef": 2})") == logscan::error_code::none);
    CHECK(run(R"({"abc": {"defg": 1}})") == logscan::error_code::too_long);
}

TEST_CASE("json::skipping values and container contents") {
    struct skipper : recorder {
        json::action on_key(std::string_view k) {
            recorder::on_key(k);
            return k == "skip" ? json::action::skip : json::action::proceed;
        }
        json::action on_array_begin() {
            recorder::on_array_begin();
            return ev.size() > 1 && ev[ev.size() - 2] == "k:" + hex("inner") ? json::action::skip
                                                                              : json::action::proceed;
        }
    };
    const std::string doc =
        R"({"skip": {"a": [1, 2, {"skip": 3}]}, "b": 1, "skip": "s", "inner": [1, [2], {"x": 3}], "c": [4], "skip": [], "d": null})";
    const auto run = [&](logscan::test::chunk_list c) { return run_chunks<skipper>(c); };
    const outcome o = logscan::test::check_chunk_invariance(doc, run, 8);
    CHECK(o.code == logscan::error_code::none);
    const std::vector<std::string> expected = {"{",       "k:" + hex("skip"), "k:" + hex("b"), "n:1",
                                               "k:" + hex("skip"), "k:" + hex("inner"), "[",
                                               "]",       "k:" + hex("c"),    "[",             "n:4",
                                               "]",       "k:" + hex("skip"), "k:" + hex("d"), "null",
                                               "}"};
    CHECK(o.ev == expected);
    // skipped input is still validated
    CHECK(check_invariant(R"({"skip": [1, 2,]})").code == logscan::error_code::syntax);
}

TEST_CASE("json::a callback can stop the parse") {
    struct stopper : recorder {
        bool on_number(const json::number& n) {
            recorder::on_number(n);
            return n.text() != "2";
        }
        logscan::flow on_key(std::string_view k) {
            recorder::on_key(k);
            return k == "stop" ? logscan::flow::stop : logscan::flow::proceed;
        }
    };
    const auto run = [](std::string_view doc) {
        return logscan::test::check_chunk_invariance(
            doc, [](logscan::test::chunk_list c) { return run_chunks<stopper>(c); }, 4);
    };
    const outcome a = run("[1, 2, 3]");
    CHECK(a.code == logscan::error_code::stopped);
    CHECK(a.offset == 4);
    CHECK(a.ev == std::vector<std::string>{"[", "n:1", "n:2"});
    const outcome b = run(R"({"x": 1, "stop": 2})");
    CHECK(b.code == logscan::error_code::stopped);
    CHECK(b.offset == 9);
    CHECK(b.ev.back() == "k:" + hex("stop"));
    // the top-level number at the very end is delivered by finish(), which reports the stop
    const outcome c = run("2");
    CHECK(c.code == logscan::error_code::stopped);
    // after a stop, feed() keeps returning stop
    stopper v;
    json::reader<stopper> r(v);
    CHECK(r.feed("[2,") == logscan::flow::stop);
    CHECK(r.feed("3]") == logscan::flow::stop);
    CHECK(r.finish() == logscan::flow::stop);
    CHECK(v.ev.size() == 2);
}

TEST_CASE("json::pump, sources and the caller-storage constructor") {
    const std::string doc = R"({"a": [1, 2, "three"]})";
    logscan::memory_source src(doc);
    recorder v;
    json::reader<recorder> r(v);
    CHECK(logscan::pump(src, r).ok());
    CHECK(r.result().ok());
    CHECK(v.ev.size() == 8);

    logscan::memory_source bad_src(std::string_view("[1,"));
    recorder v2;
    const logscan::error e = json::parse(bad_src, v2);
    CHECK(e.code == logscan::error_code::unexpected_end);

    logscan::file_source missing("/nonexistent/logscan/file.json");
    recorder v3;
    CHECK(json::parse(missing, v3).code == logscan::error_code::open_failed);
    CHECK(v3.errors == 0); // a source error is not a document error

    logscan::file_source file(logscan::test::sample_path("001_825e28a4f520ddc2.txt").c_str(), 4096);
    logscan::null_visitor nv;
    CHECK(json::parse(file, nv).ok());

    // no allocation at all with caller storage
    json::options opt;
    opt.scratch_capacity = 64;
    opt.max_depth = 8;
    std::vector<std::byte> storage(json::reader<recorder>::storage_size(opt));
    recorder v4;
    bool r4_ok = false;
    const std::size_t n = logscan::test::count_allocations([&] {
        json::reader<logscan::null_visitor> r4(nv, opt, storage);
        (void)r4.feed(doc);
        (void)r4.finish();
        r4_ok = r4.result().ok();
    });
    CHECK(n == 0);
    CHECK(r4_ok);
    json::reader<recorder> small(v4, opt, std::span<std::byte>(storage.data(), 8));
    CHECK(small.feed(doc) == logscan::flow::stop);
    CHECK(small.result().code == logscan::error_code::io_error);
    // feeding after finish is an error
    recorder v5;
    json::reader<recorder> r5(v5);
    (void)r5.feed("1 ");
    CHECK(r5.finish() == logscan::flow::proceed);
    CHECK(r5.feed("2") == logscan::flow::stop);
    CHECK(r5.result().code == logscan::error_code::syntax);
}

namespace {
// A visitor that counts without allocating.
struct counter {
    std::uint64_t objects = 0, arrays = 0, keys = 0, strings = 0, numbers = 0, integers = 0, trues = 0,
                  falses = 0, nulls = 0, depth = 0, max_depth = 0, events = 0;
    std::uint64_t hash = 0xcbf29ce484222325ull;
    double number_sum = 0;
    void mix(std::string_view s) {
        for (const char ch : s) {
            hash ^= static_cast<unsigned char>(ch);
            hash *= 0x100000001b3ull;
        }
        hash ^= '\n';
        hash *= 0x100000001b3ull;
        ++events;
    }
    void mix2(std::string_view prefix, std::string_view s) {
        for (const char ch : prefix) {
            hash ^= static_cast<unsigned char>(ch);
            hash *= 0x100000001b3ull;
        }
        mix(s);
    }
    void open() {
        if (++depth > max_depth) max_depth = depth;
    }
    void on_object_begin() {
        ++objects;
        open();
        mix("{");
    }
    void on_object_end() {
        --depth;
        mix("}");
    }
    void on_array_begin() {
        ++arrays;
        open();
        mix("[");
    }
    void on_array_end() {
        --depth;
        mix("]");
    }
    void on_key(std::string_view k) {
        ++keys;
        mix2("k:", k);
    }
    void on_string(std::string_view s) {
        ++strings;
        mix2("s:", s);
    }
    void on_number(const json::number& n) {
        ++numbers;
        integers += n.is_integer();
        number_sum += n.to_double();
        mix2("n:", n.text());
    }
    void on_bool(bool b) {
        if (b) ++trues;
        else ++falses;
        mix(b ? "t" : "f");
    }
    void on_null() {
        ++nulls;
        mix("null");
    }
    bool operator==(const counter&) const = default;
};
} // namespace

TEST_CASE("json::sample 001 (MegEngine profile) matches Python's json module") {
    const std::string doc = logscan::test::read_file(logscan::test::sample_path("001_825e28a4f520ddc2.txt"));
    std::map<std::string, std::string> want;
    {
        std::ifstream in(data_path("sample001_counts.txt"));
        REQUIRE(in.good());
        std::string k, v;
        while (in >> k) {
            std::getline(in, v);
            if (k[0] == '#') continue;
            want[k] = v.substr(1);
        }
    }
    const auto u = [&](const char* k) { return std::stoull(want.at(k)); };
    const auto run = [&](logscan::test::chunk_list chunks) {
        counter c;
        json::reader<counter> r(c);
        const std::size_t allocs = logscan::test::count_allocations([&] {
            for (const auto ch : chunks) (void)r.feed(ch);
            (void)r.finish();
        });
        CHECK(allocs == 0);
        CHECK(r.result().ok());
        return c;
    };
    // whole, 1-byte and 7-byte chunks (the helper), then random chunks of up to 64 KiB
    const counter c = logscan::test::check_chunk_invariance(doc, run, 0);
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        INFO("random chunks, seed " << seed);
        CHECK(run(logscan::test::chunked_input::random(doc, seed, std::size_t{1} << (6 + 4 * seed)).chunks()) == c);
    }
    CHECK(c.objects == u("objects"));
    CHECK(c.arrays == u("arrays"));
    CHECK(c.keys == u("keys"));
    CHECK(c.strings == u("strings"));
    CHECK(c.numbers == u("numbers"));
    CHECK(c.integers == u("integers"));
    CHECK(c.trues == u("trues"));
    CHECK(c.falses == u("falses"));
    CHECK(c.nulls == u("nulls"));
    CHECK(c.max_depth == u("max_depth"));
    CHECK(c.events == u("events"));
    CHECK(c.hash == std::stoull(want.at("fnv1a"), nullptr, 16));
    const double sum = std::stod(want.at("number_sum"));
    CHECK(std::fabs(c.number_sum - sum) <= 1e-12 * std::fabs(sum));

    // routing on key paths: graph_exec.operator.*.type
    struct types {
        std::uint64_t n = 0, conv = 0;
        std::string t621;
        void on_string(std::string_view s, const json::path& p) {
            if (!p.matches("graph_exec.operator.*.type")) return;
            ++n;
            conv += s == "ConvolutionForward";
            if (p[2].key == "621") t621 = s;
        }
    } t;
    CHECK(json::parse(doc, t).ok());
    CHECK(t.n == u("operator_types"));
    CHECK(t.conv == u("conv_ops"));
    CHECK(t.t621 == want.at("operator_type_621"));
}

TEST_CASE("json::feed and finish allocate nothing") {
    const std::string doc = logscan::test::read_file(logscan::test::sample_path("001_825e28a4f520ddc2.txt"));
    const std::string escaped = R"(["\u00e9\ud83d\ude00 \n\t", "plain", 12.5e-3, {"k\u0041": [true, null]}])";
    SUBCASE("counting visitor, 64 KiB and 1-byte chunks") {
        counter c;
        json::reader<counter> r(c);
        LOGSCAN_CHECK_NO_ALLOC({
            for (std::size_t at = 0; at < doc.size(); at += 65536) (void)r.feed(std::string_view(doc).substr(at, 65536));
            (void)r.finish();
        });
        CHECK(r.ok());
        counter c2;
        json::reader<counter> r2(c2);
        LOGSCAN_CHECK_NO_ALLOC({
            for (const char ch : escaped) (void)r2.feed(std::string_view(&ch, 1));
            (void)r2.finish();
        });
        CHECK(r2.ok());
        CHECK(c2.strings == 2);
    }
    SUBCASE("path-tracking, skipping and part visitors") {
        struct pv {
            std::uint64_t n = 0;
            json::action on_key(std::string_view k, const json::path& p) {
                n += p.size();
                return k == "host" ? json::action::skip : json::action::proceed;
            }
            void on_string_part(std::string_view s, bool) { n += s.size(); }
        } v;
        json::options opt;
        opt.scratch_capacity = 24; // the longest key of the sample has 17 bytes; strings are longer
        json::reader<pv> r(v, opt);
        LOGSCAN_CHECK_NO_ALLOC({
            for (std::size_t at = 0; at < doc.size(); at += 1000) (void)r.feed(std::string_view(doc).substr(at, 1000));
            (void)r.finish();
        });
        CHECK(r.ok());
        CHECK(v.n > 0);
    }
}

TEST_CASE("json::on_number(double) is a convenient form that is called, with or without a path") {
    struct plain {
        double sum = 0;
        void on_number(double d) { sum += d; }
    } a;
    CHECK(logscan::json::parse("[1.5, 2, -0.25e1]", a).ok());
    CHECK(a.sum == 1.5 + 2 - 2.5);
    struct with_path {
        double at_b = 0;
        int calls = 0;
        void on_number(double d, const logscan::json::path& p) {
            ++calls;
            if (p.matches("b")) at_b = d;
        }
    } b;
    CHECK(logscan::json::parse(R"({"a": 1, "b": 7.25})", b).ok());
    CHECK(b.calls == 2);
    CHECK(b.at_b == 7.25);
}

TEST_CASE("json::number_token: a whole token read as the reader reads it, nothing else") {
    using logscan::json::number_token;
    CHECK(number_token("12")->to_int64() == 12);
    CHECK(number_token("-0.5e3")->to_double() == -500.0);
    CHECK(number_token("1712195495519689.047")->to_double() == 1712195495519689.047);
    CHECK(number_token("1712195495519689.047")->text() == "1712195495519689.047");
    CHECK_FALSE(number_token("2.5")->to_int64());
    CHECK(number_token("-0")->to_int64() == 0);
    CHECK(number_token("1e400")->to_double() == std::numeric_limits<double>::infinity());
    for (const char* bad : {"", "-", "01", "1.", ".5", "1e", "1e+", "+1", "1 ", " 1", "1,2", "\"1\"", "nan", "0x10"})
        CHECK_MESSAGE(!number_token(bad), bad);
}

namespace replay_test {
// An emitter of json::replay that writes each call down (the replay tests').
struct recorder {
    std::string calls;
    void begin_object() { calls += "{"; }
    void end_object() { calls += "}"; }
    void begin_array() { calls += "["; }
    void end_array() { calls += "]"; }
    void key(std::string_view k) { calls += "k:" + std::string(k) + " "; }
    void value(std::string_view s) { calls += "s:" + std::string(s) + " "; }
    void value(bool b) { calls += b ? "true " : "false "; }
    void value(std::nullptr_t) { calls += "null "; }
    void json_number(std::string_view t) { calls += "n:" + std::string(t) + " "; }
};
} // namespace replay_test

TEST_CASE("json::replay: a JSON text as an emitter's calls, numbers as written, strings decoded") {
    using replay_test::recorder;
    recorder r;
    const std::string text = R"({"a\u0062": [1.50, 18446744073709551616, -0, 1e400], "s": "x\ty", "o": {"t": true, "f": false, "n": null}})";
    CHECK(logscan::json::replay(text, r).ok());
    CHECK(r.calls == "{k:ab [n:1.50 n:18446744073709551616 n:-0 n:1e400 ]k:s s:x\ty k:o {k:t true k:f false k:n null }}");
    recorder bad;
    const logscan::error e = logscan::json::replay(R"({"a": [1, )", bad);
    CHECK_FALSE(e.ok());
    CHECK(bad.calls == "{k:a [n:1 "); // (the calls before the break stand)
}

TEST_CASE("json::replay: a key or string without an escape is a view into the text, one with an escape decoded") {
    struct places {
        std::string_view text;
        std::vector<std::pair<std::string, bool>> seen; // (each key and string, and whether it lies in the text)
        bool in(std::string_view s) const {
            return !s.empty() && s.data() >= text.data() && s.data() + s.size() <= text.data() + text.size();
        }
        void begin_object() {}
        void end_object() {}
        void begin_array() {}
        void end_array() {}
        void key(std::string_view k) { seen.emplace_back(std::string(k), in(k)); }
        void value(std::string_view s) { seen.emplace_back(std::string(s), in(s)); }
        void value(bool) {}
        void value(std::nullptr_t) {}
        void json_number(std::string_view) {}
    };
    const std::string text = R"j({"name": "aten::mm", "a\u0062": "x\ty", "cells": {"Total (ms)": [1, "s"]}})j";
    places p{text, {}};
    CHECK(logscan::json::replay(text, p).ok());
    const std::vector<std::pair<std::string, bool>> want = {
        {"name", true}, {"aten::mm", true}, {"ab", false}, {"x\ty", false}, {"cells", true}, {"Total (ms)", true}, {"s", true}};
    CHECK(p.seen == want);
}

TEST_CASE("json::replay: a text that is one scalar gives the calls the reader gives it, without a reader") {
    using replay_test::recorder;
    logscan::json::replayer<recorder> many;
    // each text alone (the scalar path where it is one) against the same text as an array's
    // element (the reader's path): the same calls; the texts the scalar path leaves to the reader
    // (an escape, non-ASCII, blanks, a non-finite word, a bad token) too, and the bad ones fail alike
    for (const std::string t : {"12", "-0", "-0.5e3", "1712195495519689.047", "18446744073709551616", "1e400", "\"\"",
                                "\"aten::mm\"", "\"a b: (c) [d]\"", "\"x\\ty\"", "\"\\u00e9\"", "\"\xC3\xA9\"", "true", "false",
                                "null", " 7", "7 ", "NaN", "-Infinity", "01", "-", "\"open", "tru", "nul", "[]", "{}"}) {
        recorder alone, again, element;
        const logscan::error a = logscan::json::replay(t, alone);
        const logscan::error b = many(t, again);
        const logscan::error c = logscan::json::replay("[" + t + "]", element);
        CHECK_MESSAGE(a.ok() == c.ok(), t);
        CHECK_MESSAGE(b.ok() == c.ok(), t);
        if (!c.ok()) continue;
        CHECK_MESSAGE("[" + alone.calls + "]" == element.calls, t);
        CHECK_MESSAGE(again.calls == alone.calls, t);
    }
    recorder r;
    CHECK(logscan::json::replay("\"aten::mm\"", r).ok());
    CHECK(r.calls == "s:aten::mm ");

    // an emitter that takes a number as read gets its value, alone or inside a text
    struct numbers {
        std::vector<std::pair<std::string, double>> seen;
        std::vector<std::optional<std::int64_t>> ints;
        void begin_object() {}
        void end_object() {}
        void begin_array() {}
        void end_array() {}
        void key(std::string_view) {}
        void value(std::string_view) {}
        void value(bool) {}
        void value(std::nullptr_t) {}
        void json_number(std::string_view t) { seen.emplace_back("text:" + std::string(t), 0.0); }
        void json_number(const logscan::json::number& n) {
            seen.emplace_back(std::string(n.text()), n.to_double());
            ints.push_back(n.to_int64());
        }
    };
    numbers n;
    logscan::json::replayer<numbers> rn;
    CHECK(rn("1712195495519689.047", n).ok());
    CHECK(rn("18446744073709551616", n).ok());
    CHECK(rn(R"({"a": [-12, 2.5]})", n).ok());
    REQUIRE(n.seen.size() == 4);
    CHECK(n.seen[0] == std::pair<std::string, double>("1712195495519689.047", 1712195495519689.047));
    CHECK_FALSE(n.ints[0]);
    CHECK(n.seen[1].first == "18446744073709551616");
    CHECK_FALSE(n.ints[1]); // (beyond 64 bits: the emitter keeps the token)
    CHECK(n.ints[2] == -12);
    CHECK(n.seen[3].second == 2.5);
    // (a non-finite word, which only the reader's replay_options accept, comes as a number too)
    numbers w;
    CHECK(rn("[NaN]", w).ok());
    REQUIRE(w.seen.size() == 1);
    CHECK(w.seen[0].first == "NaN");
}
