// SPDX-License-Identifier: MIT
// json_project.hpp: records declared by their paths, assembled from a streamed document; and
// json.hpp's action::capture (a value's text as it is in the input). Expected records are
// read off the documents written here; every case is also run under every chunking.
#include <logscan/json_project.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/alloc_counter.hpp"
#include "support/chunking.hpp"
#include "support/random_text.hpp"

namespace json = logscan::json;
using logscan::test::chunk_list;
using logscan::test::chunked_input;

namespace {

// ---- the reader's capture ----

// Captures the value of every key named "raw"; records every other event as text.
struct capturer {
    std::string events, text;
    int parts_last = 0;
    json::action on_key(std::string_view k) {
        events += "k:" + std::string(k) + ";";
        return k == "raw" ? json::action::capture : json::action::proceed;
    }
    void on_value_text(std::string_view part, bool last) {
        text += part;
        if (last) {
            ++parts_last;
            events += "raw<" + text + ">;";
            text.clear();
        }
    }
    void on_string(std::string_view s) { events += "s:" + std::string(s) + ";"; }
    void on_number(const json::number& n) { events += "n:" + std::string(n.text()) + ";"; }
    void on_object_end() { events += "}"; }
};

std::string capture_events(chunk_list chunks) {
    capturer c;
    json::reader<capturer> r(c);
    for (auto ch : chunks) r.feed(ch);
    r.finish();
    return c.events + (r.ok() ? "" : "ERROR");
}

TEST_CASE("json reader: action::capture hands a value's bytes as they are, whatever the chunking") {
    // each value written out below is exactly the bytes between the ':' (and its blanks)
    // and the value's end
    const std::string value = "{ \"a\" : [1, 2.5e3,\n  {\"b\": \"x}]\\\" y\"} ], \"c\": null, \"d\": \"\\u00e9\" }";
    const std::string doc = "{\"x\": 1, \"raw\" :\n   " + value + " , \"y\": \"after\", \"raw\":-12.5e-3, \"z\": [\"raw\"], \"raw\": \"s\\\"}\"}";
    const std::string expected = "k:x;n:1;k:raw;raw<" + value + ">;k:y;s:after;k:raw;raw<-12.5e-3>;k:z;s:raw;k:raw;raw<\"s\\\"}\">;}";
    const std::string got = logscan::test::check_chunk_invariance(doc, capture_events, 32);
    CHECK(got == expected);
}

TEST_CASE("json reader: a captured number at the very end of the input, and true/false/null") {
    json::options o;
    o.multiple_values = false;
    for (const char* lit : {"true", "false", "null", "0", "123"}) {
        const std::string doc = std::string("{\"raw\":") + lit + "}";
        const std::string got = logscan::test::check_chunk_invariance(doc, capture_events, 8);
        CHECK(got == std::string("k:raw;raw<") + lit + ">;}");
    }
}

TEST_CASE("json reader: a broken document inside a captured value ends the parse without a last part") {
    capturer c;
    json::reader<capturer> r(c);
    r.feed("{\"raw\": {\"a\": [1, 2}");
    r.finish();
    CHECK_FALSE(r.ok());
    CHECK(c.parts_last == 0);
}

// Without on_value_text, capture is skip.
struct no_text {
    std::string keys;
    json::action on_key(std::string_view k) {
        keys += std::string(k) + ";";
        return k == "raw" ? json::action::capture : json::action::proceed;
    }
};
TEST_CASE("json reader: capture without on_value_text skips the value") {
    no_text v;
    CHECK(json::parse(R"({"raw": {"inner": 1}, "b": 2})", v).ok());
    CHECK(v.keys == "raw;b;");
}

// ---- the projection ----

struct item {
    std::string_view section;                  // the a|b key
    std::string_view name;                     // the * key
    std::optional<std::string_view> label;
    std::optional<std::uint64_t> count;
    std::optional<std::int64_t> delta;
    std::optional<double> time;
    std::optional<json::string_list> tags;
    std::optional<logscan::shape_list> shape;
    std::optional<logscan::shape_sequence> shapes;
    std::optional<std::string_view> deep;
    std::optional<std::string_view> param;
};
struct step {
    std::uint64_t index;
    std::optional<std::string_view> value;
};
LOGSCAN_EVENT(on_item, "void on_item(const item&)");
LOGSCAN_EVENT(on_step, "void on_step(const step&)");

using routes = json::projection<
    json::route<item, on_item_event, "doc.left|right.*", json::take_key<&item::section>, json::take_key<&item::name>,
                json::take<"label", &item::label>, json::take<"count", &item::count>,
                json::take<"delta", &item::delta>, json::take<"time", &item::time>, json::take<"tags", &item::tags>,
                json::take<"shape", &item::shape>, json::take<"shapes", &item::shapes>,
                json::take<"x.y.z", &item::deep>, json::take_text<"param", &item::param>>,
    json::route<step, on_step_event, "doc.steps[]", json::take_key<&step::index>, json::take<"", &step::value>>>;

std::string opt(const std::optional<std::string_view>& s) { return s ? "\"" + std::string(*s) + "\"" : "null"; }
template <class T>
std::string num(const std::optional<T>& v) {
    if (!v) return "null";
    if constexpr (std::is_same_v<T, double>) {
        char b[64];
        std::snprintf(b, sizeof b, "%g", *v);
        return b;
    } else {
        return std::to_string(*v);
    }
}

struct both {
    std::vector<std::string> out;
    void on_item(const item& r) {
        std::string s = "item " + std::string(r.section) + "/" + std::string(r.name) + " label=" + opt(r.label) +
                        " count=" + num(r.count) + " delta=" + num(r.delta) + " time=" + num(r.time) + " tags=";
        if (r.tags) {
            s += "[";
            for (std::string_view t : *r.tags) s += std::string(t) + ",";
            s += "]";
        } else {
            s += "null";
        }
        s += " shape=";
        if (r.shape) {
            for (std::int64_t d : *r.shape) s += std::to_string(d) + "x";
        } else {
            s += "null";
        }
        s += " shapes=";
        if (r.shapes) {
            for (const logscan::shape_list& l : *r.shapes) {
                s += "(";
                for (std::int64_t d : l) s += std::to_string(d) + ",";
                s += ")";
            }
        } else {
            s += "null";
        }
        s += " deep=" + opt(r.deep) + " param=" + opt(r.param);
        out.push_back(s);
    }
    void on_step(const step& r) { out.push_back("step " + std::to_string(r.index) + " " + opt(r.value)); }
    void on_error(const logscan::error& e) { out.push_back("error " + std::string(e.message)); }
};
struct steps_only {
    std::vector<std::string> out;
    void on_step(const step& r) { out.push_back("step " + std::to_string(r.index) + " " + opt(r.value)); }
};

template <class V>
std::vector<std::string> project(chunk_list chunks, std::size_t scratch = 4096) {
    V v;
    std::vector<char> buf(scratch);
    json::projector<V, routes> p(v, buf);
    json::reader<json::projector<V, routes>> r(p);
    for (auto ch : chunks) {
        p.offset = r.bytes();
        r.feed(ch);
    }
    r.finish();
    if (!r.ok()) v.out.push_back("document error");
    return v.out;
}

const std::string doc = R"({
  "skip": {"left": {"a": {"label": "never"}}},
  "doc": {
    "left": {
      "a": {"label": "A", "count": 3, "delta": -4, "time": 0.5, "tags": ["t1", "t 2"], "shape": [2, 3],
            "shapes": [[1], [4, 5]], "x": {"y": {"z": "deep", "w": 1}}, "param": { "k" : [1, "a b", -2.5E+3, true, null, "x\" y"], "e": {"t": false} },
            "unknown": {"label": "not this"}},
      "b": {"label": 7, "count": -1, "delta": 1.5, "time": "x", "tags": ["t", 1], "shape": [2, "3"],
            "shapes": [[1], 2], "x": null, "param": 5},
      "c": [1, 2],
      "d": {"label": "first", "label": "second"}
    },
    "middle": {"e": {"label": "never"}},
    "steps": ["s0", 1, {"x": "y"}, null, "s4"],
    "right": {"e": {"count": 18446744073709551615, "tags": [], "shape": [], "shapes": [], "param": []}}
  }
})";

TEST_CASE("json projection: records at their paths, fields by their members' types, under every chunking") {
    const std::vector<std::string> expected = {
        "item left/a label=\"A\" count=3 delta=-4 time=0.5 tags=[t1,t 2,] shape=2x3x shapes=(1,)(4,5,) deep=\"deep\" "
        "param=\"{\"k\":[1,\"a b\",-2.5E+3,true,null,\"x\\\" y\"],\"e\":{\"t\":false}}\"",
        "item left/b label=null count=null delta=null time=null tags=null shape=null shapes=null deep=null param=null",
        "item left/d label=\"second\" count=null delta=null time=null tags=null shape=null shapes=null deep=null "
        "param=null",
        "step 0 \"s0\"",
        "step 1 null",
        "step 2 null",
        "step 3 null",
        "step 4 \"s4\"",
        "item right/e label=null count=18446744073709551615 delta=null time=null tags=[] shape= shapes= deep=null "
        "param=\"[]\"",
    };
    const auto got = logscan::test::check_chunk_invariance(doc, [](chunk_list c) { return project<both>(c); }, 24);
    CHECK(got == expected);
}

namespace {
// The shape field alone: its dims, size and text.
struct shapes_only {
    std::vector<std::string> out;
    void on_item(const item& r) {
        std::string s = std::string(r.name) + ":";
        if (!r.shape) {
            out.push_back(s + " null");
            return;
        }
        for (std::int64_t d : *r.shape) s += " " + std::to_string(d);
        out.push_back(s + " size=" + std::to_string(r.shape->size()) + " " + std::string(r.shape->brackets()));
    }
};
} // namespace

TEST_CASE("json projection: an integer array becomes a shape_list of its integers, past the dims kept inline too") {
    // (a list keeps its first 8 dims as integers, read once by the reader; a longer one is
    // iterated from its compact text: both must give the document's integers, in order)
    const std::string d = R"({"doc": {"left": {
        "a": {"shape": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -1]},
        "b": {"shape": [ 224 , -3 ]},
        "c": {"shape": [1, 9223372036854775808]},
        "d": {"shape": [1, 2.5]},
        "e": {"shape": [-9223372036854775808, 9223372036854775807, 0, 1, 2, 3, 4, 5]},
        "f": {"shape": [7]}, "g": {"shape": []}}}})";
    const auto got = logscan::test::check_chunk_invariance(d, [](chunk_list c) { return project<shapes_only>(c); }, 16);
    CHECK(got == std::vector<std::string>{
                     "a: 1 2 3 4 5 6 7 8 9 10 -1 size=11 [1,2,3,4,5,6,7,8,9,10,-1]",
                     "b: 224 -3 size=2 [224,-3]",
                     "c: null",
                     "d: null",
                     "e: -9223372036854775808 9223372036854775807 0 1 2 3 4 5 size=8 "
                     "[-9223372036854775808,9223372036854775807,0,1,2,3,4,5]",
                     "f: 7 size=1 [7]",
                     "g: size=0 []",
                 });
}

TEST_CASE("json projection: a visitor that wants one route gets it alone, the other sections unread") {
    const auto got = logscan::test::check_chunk_invariance(doc, [](chunk_list c) { return project<steps_only>(c); }, 8);
    CHECK(got == std::vector<std::string>{"step 0 \"s0\"", "step 1 null", "step 2 null", "step 3 null", "step 4 \"s4\""});
}

TEST_CASE("json projection: a record too large for the scratch buffer is an error record, and the parse goes on") {
    // item a's strings, tags and param need more than 60 bytes; the keys and b's fit
    const std::string d = R"({"doc": {"left": {"a": {"label": "0123456789012345678901234567890123456789",
        "tags": ["0123456789", "0123456789"]}, "b": {"label": "short"}}}})";
    const auto got = logscan::test::check_chunk_invariance(d, [](chunk_list c) { return project<both>(c, 60); }, 8);
    REQUIRE(got.size() == 2);
    CHECK(got[0] == "error object too large for the scratch buffer");
    CHECK(got[1].starts_with("item left/b label=\"short\""));
}

TEST_CASE("json projection: a document that breaks keeps the records before the break") {
    const std::string d = R"({"doc": {"steps": ["a", "b", )";
    const auto got = project<both>(chunked_input(d, {}).chunks());
    CHECK(got == std::vector<std::string>{"step 0 \"a\"", "step 1 \"b\"", "error expected a value after ','",
                                          "document error"});
}

TEST_CASE("json projection: nothing allocates while parsing") {
    both v;
    v.out.reserve(64);
    std::vector<char> buf(4096);
    json::projector<both, routes> p(v, buf);
    json::reader<json::projector<both, routes>> r(p);
    const auto n = logscan::test::count_allocations([&] {
        for (std::size_t i = 0; i < doc.size(); i += 5) r.feed(std::string_view(doc).substr(i, 5));
        r.finish();
    });
    // (the visitor's own strings allocate: count them apart by a visitor that does not)
    struct quiet {
        std::size_t n = 0;
        void on_item(const item& x) { n += x.name.size(); }
        void on_step(const step& x) { n += x.index; }
    } q;
    json::projector<quiet, routes> pq(q, buf);
    json::reader<json::projector<quiet, routes>> rq(pq);
    const auto m = logscan::test::count_allocations([&] {
        for (std::size_t i = 0; i < doc.size(); i += 5) rq.feed(std::string_view(doc).substr(i, 5));
        rq.finish();
    });
    CHECK(rq.ok());
    CHECK(q.n == 1 + 1 + 1 + 1 + (0 + 1 + 2 + 3 + 4));
    CHECK(m == 0);
    CHECK(n > 0); // (the collecting visitor's strings: the counter counts)
}


// ---- a container captured from its begin event; records whose own value is captured ----

// Captures every container that opens inside the top-level array; records the rest.
struct element_capturer {
    std::string events, text;
    std::size_t depth = 0;
    json::action on_array_begin() { return ++depth == 1 ? json::action::proceed : json::action::capture; }
    json::action on_object_begin() { return ++depth == 1 ? json::action::proceed : json::action::capture; }
    void on_array_end() { --depth, events += "]"; }
    void on_object_end() { --depth, events += "}"; }
    void on_value_text(std::string_view part, bool last) {
        text += part;
        if (last) {
            --depth;
            events += "raw<" + text + ">;";
            text.clear();
        }
    }
    void on_number(const json::number& n) { events += "n:" + std::string(n.text()) + ";"; }
};
std::string element_events(chunk_list chunks) {
    element_capturer c;
    json::reader<element_capturer> r(c);
    for (auto ch : chunks) r.feed(ch);
    r.finish();
    return c.events + (r.ok() ? "" : "ERROR");
}

TEST_CASE("json reader: action::capture from a begin event hands the container's bytes, no end event") {
    // the elements written out below are exactly the bytes from each opening bracket to its
    // closing one; the scalar between them is an event; the outer array's end is one
    const std::string a = "{\"k\": [1, {\"b\": \"]}\\\"\"}], \"e\": {}}", b = "[ ]", c = "[[2], {\"x\": [3]}]";
    const std::string input = "[" + a + ", 7,\n" + b + "," + c + "]";
    const std::string want = "raw<" + a + ">;n:7;raw<" + b + ">;raw<" + c + ">;]";
    CHECK(logscan::test::check_chunk_invariance(input, element_events, 32) == want);
    // a document that breaks inside a captured element: no last part, the error
    CHECK(element_events(chunked_input("[" + a.substr(0, 10), {}).chunks()) == "ERROR");
}

TEST_CASE("json text helpers: string_text resolves escapes, for_each_member splits a compact object") {
    char buf[64];
    CHECK(json::string_text("\"plain\"", buf) == std::optional<std::string_view>("plain"));
    CHECK(json::string_text("\"a\\\"b\\\\c\\/d\\n\\t\\u00e9\\ud83d\\ude00\"", buf) ==
          std::optional<std::string_view>("a\"b\\c/d\n\t\xc3\xa9\xf0\x9f\x98\x80"));
    CHECK(!json::string_text("12", buf));
    char small[4];
    CHECK(!json::string_text("\"\\u00e9\\u00e9\\u00e9\"", small)); // (6 bytes do not fit 4)
    std::vector<std::string> got;
    CHECK(json::for_each_member(R"({"a":1,"b\"}":{"c":[1,"]",{}]},"d":"x,y","e":null,"f":-2.5e3})",
                                [&](std::string_view k, std::string_view v) { got.push_back(std::string(k) + "=" + std::string(v)); }));
    CHECK(got == std::vector<std::string>{R"("a"=1)", R"("b\"}"={"c":[1,"]",{}]})", R"("d"="x,y")", R"("e"=null)",
                                          R"("f"=-2.5e3)"});
    // keys and strings past 16 bytes (read 16 at a time): an escaped quote or backslash at
    // each place around a block's end, the escaped byte in the next block
    for (std::size_t at = 10; at < 40; ++at) {
        const std::string key = "\"" + std::string(at, 'k') + "\\\"" + std::string(20, 'q') + "\"";       // "kk..\"qq.."
        const std::string value = "\"" + std::string(at, 'v') + "\\\\" + std::string(20, ',') + "\"";    // "vv..\\,,..": a backslash escaped, then commas
        const std::string text = "{" + key + ":" + value + "," + key + ":[" + value + "]}";
        got.clear();
        CAPTURE(text);
        CHECK(json::for_each_member(text, [&](std::string_view k, std::string_view v) { got.push_back(std::string(k) + "=" + std::string(v)); }));
        CHECK(got == std::vector<std::string>{key + "=" + value, key + "=[" + value + "]"});
    }
    got.clear();
    CHECK(json::for_each_member("{}", [&](std::string_view, std::string_view) { got.push_back("?"); }));
    CHECK(got.empty());
    CHECK(!json::for_each_member("[1]", [](std::string_view, std::string_view) {}));
}

struct whole {
    std::optional<std::string_view> text;
    std::string_view key;
    std::size_t size = 0; // set by the hook
    char first = 0;       // (the hook's spare bytes: the text's first byte written there)
    std::string_view copy;
};
struct keyed : whole {};
LOGSCAN_EVENT(on_whole, "void on_whole(const whole&)");
LOGSCAN_EVENT(on_keyed, "void on_keyed(const keyed&)");
void measure(whole& w, std::span<char> spare) {
    w.size = w.text ? w.text->size() : 0;
    if (w.text && !w.text->empty() && !spare.empty()) {
        spare[0] = w.text->front();
        w.copy = std::string_view(spare.data(), 1);
    }
}
void measure_keyed(keyed& w, std::span<char> spare) { measure(w, spare); }
using whole_routes =
    json::projection<json::route<whole, on_whole_event, "list[]", json::take_text<"", &whole::text>, json::complete_with<measure>>,
                     json::route<keyed, on_keyed_event, "map.*", json::take_key<&keyed::key>,
                                 json::take_text<"", &keyed::text>, json::complete_with<measure_keyed>>>;
struct whole_visitor {
    std::vector<std::string> out;
    void on_whole(const whole& w) {
        out.push_back("whole " + (w.text ? std::string(*w.text) : "none") + " " + std::to_string(w.size) + " " + std::string(w.copy));
    }
    void on_keyed(const keyed& w) {
        out.push_back("keyed " + std::string(w.key) + "=" + (w.text ? std::string(*w.text) : "none") + " " +
                      std::to_string(w.size) + " " + std::string(w.copy));
    }
    void on_error(const logscan::error& e) { out.push_back("error " + std::string(e.message)); }
};
// The records of whole_routes on a document in chunks, with `scratch` bytes for the texts.
std::vector<std::string> project_with(chunk_list chunks, std::size_t scratch) {
    whole_visitor v;
    std::vector<char> buf(scratch);
    json::options o;
    o.non_finite_words = true;
    using P = json::projector<whole_visitor, whole_routes>;
    P p(v, buf);
    json::reader<P> r(p, o);
    for (auto ch : chunks) r.feed(ch);
    r.finish();
    if (!r.ok()) v.out.push_back("document error");
    return v.out;
}
std::vector<std::string> project_whole(chunk_list chunks) { return project_with(chunks, 256); }

TEST_CASE("json projection: take_text<\"\"> gives a record its whole value, compact; complete_with runs before delivery") {
    // each element of list and each value of map, blanks outside strings removed, a bare
    // non-finite word null; a scalar element has no text; the hook saw each text's size
    const std::string d = "{\"list\": [ {\"a\" : [1, \"x y\"], \"b\": -nan} , [ ], 5, {}],\n"
                          " \"map\": {\"n\": 8, \"s\": \"V M\", \"o\": {\"p\": {\"q\": inf}}, \"t\": true}, \"other\": [1]}";
    const std::vector<std::string> want = {
        "whole {\"a\":[1,\"x y\"],\"b\":null} 24 {", "whole [] 2 [", "whole none 0 ", "whole {} 2 {",
        "keyed n=8 1 8", "keyed s=\"V M\" 5 \"", "keyed o={\"p\":{\"q\":null}} 16 {", "keyed t=true 4 t",
    };
    CHECK(logscan::test::check_chunk_invariance(d, project_whole, 24) == want);
    // a document breaking inside a record's value: the records before it, then the error
    const auto got = project_whole(chunked_input(d.substr(0, 46), {}).chunks()); // (cut after "[ ]")
    REQUIRE(got.size() == 4);
    CHECK(got[0] == want[0]);
    CHECK(got[1] == want[1]);
    CHECK(got[3] == "document error");
}

} // namespace

// ---- non-finite number words (json::options::non_finite_words) ----
namespace {

struct numbers {
    std::vector<std::string> out;
    void on_number(const json::number& n) {
        const double d = n.to_double();
        std::string v = std::isnan(d) ? (std::signbit(d) ? "-NaN" : "NaN") : std::isinf(d) ? (d < 0 ? "-Inf" : "Inf") : std::to_string(d);
        out.push_back(std::string(n.text()) + "=" + v + (n.is_finite() ? "" : "!") + (n.to_int64() || n.to_uint64() ? "i" : ""));
    }
    void on_null() { out.push_back("null"); }
};
std::vector<std::string> words(chunk_list chunks) {
    numbers v;
    json::options o;
    o.non_finite_words = true;
    json::reader<numbers> r(v, o);
    for (auto ch : chunks) r.feed(ch);
    r.finish();
    if (!r.ok()) v.out.push_back(std::string("error ") + std::to_string(r.result().offset) + " " + std::string(r.result().message));
    return v.out;
}

TEST_CASE("json reader: bare non-finite number words with options::non_finite_words, however split") {
    const std::string text = "[nan, -nan, NaN, -NAN, inf, -inf, +inf, Infinity, -infinity, INF, null, -5, 7, -0.5e1]";
    const std::vector<std::string> expected = {"nan=NaN!", "-nan=-NaN!", "NaN=NaN!", "-NAN=-NaN!", "inf=Inf!",
                                               "-inf=-Inf!", "+inf=Inf!", "Infinity=Inf!", "-infinity=-Inf!",
                                               "INF=Inf!", "null", "-5=-5.000000i", "7=7.000000i", "-0.5e1=-5.000000"};
    CHECK(logscan::test::check_chunk_invariance(text, words, 32) == expected);
    // a word alone, ending the input
    CHECK(logscan::test::check_chunk_invariance("-Infinity", words, 8) == std::vector<std::string>{"-Infinity=-Inf!"});
}

TEST_CASE("json reader: other words stay errors, at the word's first byte") {
    for (const auto& c : std::vector<std::pair<std::string, int>>{
             {"[nanx]", 1}, {"[+nan]", 1}, {"[infinit]", 1}, {"[Null]", 1}, {"[1, nul]", 4}, {"[+infinity]", 1}}) {
        INFO(c.first);
        const auto got = logscan::test::check_chunk_invariance(c.first, words, 8);
        REQUIRE(!got.empty());
        CHECK(got.back().starts_with("error " + std::to_string(c.second) + " invalid literal"));
    }
    CHECK(words(chunked_input("[+]", {}).chunks()).back() == "error 2 expected a number word after '+'");
    // `null` then letters: null, then an error at the first letter after it, however split
    // (found by fuzz_json: split inside `null`, the word path read `nullq` as one word)
    CHECK(logscan::test::check_chunk_invariance("[nullq]", words, 8) ==
          std::vector<std::string>{"null", "error 5 expected ',' or ']' after an array element"});
    CHECK(words(chunked_input("[-", {}).chunks()).back().starts_with("error 2 "));
    // without the option, the reader stays strict
    numbers v;
    CHECK_FALSE(json::parse("[nan]", v).ok());
    CHECK_FALSE(json::parse("[-inf]", v).ok());
}

} // namespace

TEST_CASE("copy_bytes (config.hpp): every length from 0 to 300 copies exactly those bytes, no more") {
    // (the projection keeps its strings with it: short ones as two overlapping fixed-size copies;
    // a held title or header line up to 128 bytes 16 at a time, the last 16 overlapping; longer
    // ones by memcpy; the source in a block of exactly n bytes: a read past it trips ASan)
    for (std::size_t n = 0; n <= 300; ++n) {
        const std::unique_ptr<char[]> src(new char[n == 0 ? 1 : n]);
        for (std::size_t i = 0; i < n; ++i) src[i] = static_cast<char>('!' + i % 90);
        std::string dst(n + 20, '.');
        logscan::internal::copy_bytes(dst.data() + 2, src.get(), n);
        CHECK(dst.substr(0, 2) == "..");
        CHECK(dst.substr(2, n) == std::string_view(src.get(), n));
        CHECK(dst.substr(2 + n) == std::string(18, '.'));
    }
}

TEST_CASE("reset_value (config.hpp): a record is its T{} again, whatever it held, zero bytes or not") {
    // (a projection resets its record for each one it reads: by zero bytes when T{} is all
    // zero bytes, else by assignment; a record whose T{} is not, or that is no plain bytes)
    struct zeros {
        std::uint64_t n;
        std::string_view s;
        std::optional<double> d;
        bool b;
    };
    struct set {
        std::uint64_t n = 7;
        std::string_view s = "x";
        bool b = true;
    };
    struct owning {
        std::string s = "y";
        int n = 3;
    };
    zeros z{42, "text", 2.5, true};
    logscan::internal::reset_value(z);
    CHECK((z.n == 0 && z.s.data() == nullptr && !z.d && !z.b));
    set t{1, "other", false};
    logscan::internal::reset_value(t);
    CHECK((t.n == 7 && t.s == "x" && t.b));
    owning o{"changed", 9};
    logscan::internal::reset_value(o);
    CHECK((o.s == "y" && o.n == 3));
    logscan::internal::reset_value(z); // (the second time, the answer kept)
    CHECK(z.n == 0);
}

TEST_CASE("same_bytes (config.hpp): every length from 0 to 80, a difference at every place is seen") {
    // (text_cursor's literals and shape_memo's texts: runs up to 32 bytes compared a few words
    // at a time, longer ones by memcmp)
    std::string a;
    for (int i = 0; i < 80; ++i) a.push_back(static_cast<char>('0' + i));
    for (std::size_t n = 0; n <= 80; ++n) {
        const std::unique_ptr<char[]> x(new char[n == 0 ? 1 : n]), y(new char[n == 0 ? 1 : n]); // (exact size: an over-read trips ASan)
        std::memcpy(x.get(), a.data(), n);
        std::memcpy(y.get(), a.data(), n);
        CHECK(logscan::internal::same_bytes(x.get(), y.get(), n));
        for (std::size_t at = 0; at < n; ++at) {
            y[at] = static_cast<char>(y[at] ^ 0x20);
            CHECK_FALSE(logscan::internal::same_bytes(x.get(), y.get(), n));
            y[at] = x[at];
        }
    }
}

TEST_CASE("begins_with (config.hpp): a literal prefix, as string_view::starts_with says, at compile time and at run time") {
    static_assert(logscan::internal::begins_with("Total Duration 5 us", "Total Duration"));
    static_assert(!logscan::internal::begins_with("Total", "Total Duration"));
    static_assert(logscan::internal::begins_with("", ""));
    // Every text of 0 to 40 bytes, each in a block of its exact size (an over-read trips ASan):
    // a copy of the literal's start (a prefix when long enough), then with each byte changed.
    const auto check = [](const auto& lit) {
        const std::string_view l(lit, sizeof lit - 1);
        for (std::size_t n = 0; n <= 40; ++n) {
            const std::unique_ptr<char[]> x(new char[n == 0 ? 1 : n]);
            for (std::size_t i = 0; i < n; ++i) x[i] = i < l.size() ? l[i] : '.';
            const std::string_view t(x.get(), n);
            CHECK(logscan::internal::begins_with(t, lit) == (n >= l.size()));
            for (std::size_t at = 0; at < n; ++at) {
                x[at] = static_cast<char>(x[at] ^ 0x20);
                CHECK(logscan::internal::begins_with(t, lit) == t.starts_with(l));
                x[at] = static_cast<char>(x[at] ^ 0x20);
            }
        }
    };
    check("");
    check("#");
    check("::");
    check("Mean ");
    check("#OpName");
    check("Time unit: ");
    check("Total Duration");
    check("Evaluate vm inference cost of ");
    check("\tTotal Packed Functions: (more than 32 bytes)");
}

namespace {
// A random JSON value printed two ways: with random blanks between its tokens (`pretty`), and
// as the projection's compact text must read (`compact`: blanks outside strings removed,
// strings byte for byte, a bare non-finite word null).
struct printed {
    std::string pretty, compact;
};
struct value_maker {
    std::uint64_t seed;
    std::uint64_t next(std::uint64_t n) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return (seed >> 33) % n;
    }
    std::string blanks() {
        static const char* const b[] = {"", "", " ", "\n", "\t", "\r\n", "   ", "                    "};
        return b[next(8)];
    }
    std::string string_token() {
        static const char* const parts[] = {"a", "x y", "\\\"", "\\\\", "\\u00e9", "\xc3\xa9", "/", "\\n", "{[,:]}", "-1e5", "null"};
        std::string s = "\"";
        const std::uint64_t n = next(6);
        for (std::uint64_t i = 0; i < n; ++i) {
            if (next(3) == 0) s += std::string(next(40), 'a'); // (runs longer than 16 bytes)
            else s += parts[next(std::size(parts))];
        }
        return s + "\"";
    }
    printed scalar() {
        static const char* const numbers[] = {"0", "-12.5e-3", "1E+5", "12345678901234567890.25", "7", "-0"};
        switch (next(4)) {
        case 0: {
            const std::string n = numbers[next(std::size(numbers))];
            return {n, n};
        }
        case 1: {
            static const char* const w[] = {"true", "false", "null"};
            const std::string t = w[next(3)];
            return {t, t};
        }
        case 2: {
            static const char* const w[] = {"nan", "-inf", "Infinity", "-NaN"};
            return {w[next(4)], "null"};
        }
        default: {
            const std::string s = string_token();
            return {s, s};
        }
        }
    }
    printed value(int depth) {
        if (depth == 0 || next(3) == 0) return scalar();
        const bool object = next(2) == 0;
        printed p{object ? "{" : "[", object ? "{" : "["};
        const std::uint64_t n = next(5);
        for (std::uint64_t i = 0; i < n; ++i) {
            if (i != 0) {
                p.pretty += blanks() + "," + blanks();
                p.compact += ",";
            }
            if (object) {
                const std::string k = string_token();
                p.pretty += k + blanks() + ":" + blanks();
                p.compact += k + ":";
            }
            const printed v = value(depth - 1);
            p.pretty += v.pretty;
            p.compact += v.compact;
        }
        p.pretty += blanks() + (object ? "}" : "]");
        p.compact += object ? "}" : "]";
        return p;
    }
};
std::vector<std::string> project_list(chunk_list chunks) { return project_with(chunks, 1 << 16); }
} // namespace

TEST_CASE("json projection: take_text<\"\"> compacts random values as printed, whatever the chunking") {
    // containers of strings with escapes, long runs and UTF-8, numbers, words and non-finite
    // words, blanks of every kind between the tokens: each element's text is its compact form
    value_maker m{42};
    for (int round = 0; round < 200; ++round) {
        std::string text = "{\"list\":" + m.blanks() + "[";
        std::vector<std::string> want;
        const std::uint64_t n = 1 + m.next(4);
        for (std::uint64_t i = 0; i < n; ++i) {
            printed v = m.value(4);
            if (v.compact.front() != '{' && v.compact.front() != '[') v = {"[" + v.pretty + "]", "[" + v.compact + "]"};
            text += (i != 0 ? "," : "") + m.blanks() + v.pretty;
            want.push_back("whole " + v.compact + " " + std::to_string(v.compact.size()) + " " + v.compact.substr(0, 1));
        }
        text += m.blanks() + "]}";
        CAPTURE(text);
        CHECK(logscan::test::check_chunk_invariance(text, project_list, 3) == want);
    }
}

// ---- records' objects read in one pass (projector::on_whole_object) ----

namespace {
// `both`, with each error's position, stopping the parse after `stop_after` records.
struct both_at : both {
    std::size_t stop_after = ~std::size_t{0};
    logscan::flow on_item(const item& r) {
        both::on_item(r);
        return out.size() >= stop_after ? logscan::flow::stop : logscan::flow::proceed;
    }
    void on_error(const logscan::error& e) { // (a record too large: offset = the start of its last chunk)
        out.push_back("error " + std::string(e.message) + " at " + std::to_string(e.line) + ":" +
                      std::to_string(e.column) + (e.line != 0 ? " @" + std::to_string(e.offset) : ""));
    }
};
// The limits of a run: the reader's options, the projector's scratch bytes, a stop.
struct one_pass_limits {
    json::options reader{};
    std::size_t scratch = 4096;
    std::size_t stop_after = ~std::size_t{0};
};
struct one_pass_run {
    std::vector<std::string> out;
    std::uint64_t whole = 0;
};
// The records of `routes` (reader options `o`), objects read in one pass or through the events.
one_pass_run project_fused(chunk_list chunks, bool fuse, const one_pass_limits& l) {
    both_at v;
    v.stop_after = l.stop_after;
    std::vector<char> buf(l.scratch);
    using P = json::projector<both_at, routes>;
    P p(v, buf);
    p.fuse_objects = fuse;
    json::reader<P> r(p, l.reader);
    for (auto ch : chunks) {
        p.offset = r.bytes();
        r.feed(ch);
    }
    r.finish();
    v.out.push_back("result " + std::string(r.result().message) + " at " + std::to_string(r.result().line) + ":" +
                    std::to_string(r.result().column));
    return {v.out, p.whole_objects};
}
// A random document of `routes`'s shape: records under doc.left|right (and a few values that
// are no object) whose members are every field's key, unknown keys and near misses, with
// values of the field's kind or of any other, blanks and line feeds between the tokens.
std::string random_document(value_maker& m) {
    static const char* const keys[] = {"label", "count", "delta", "time", "tags", "shape", "shapes", "x",
                                       "param", "unknown", "lab\\u0065l", "labe", "labelx", "y", "z"};
    const auto b = [&] { return m.blanks(); };
    const auto ints = [&](std::uint64_t n) {
        // (common dims first; then the edges of an integer read in one pass: 18 and 19 digits,
        // int64's ends and past them, -0, and what is no integer)
        static const char* const d[] = {"1", "-3", "0", "12", "255", "99999999999999999999", "2.5", "1e2", "\"4\"", "null",
                                        "-0", "999999999999999999", "1234567890123456789", "9223372036854775807",
                                        "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "0.0", "-"};
        std::string s = "[" + b();
        for (std::uint64_t i = 0; i < n; ++i) s += (i ? "," + b() : "") + d[m.next(m.next(4) == 0 ? std::size(d) : 5)];
        return s + b() + "]";
    };
    const auto value_for = [&](std::string_view key) -> std::string {
        if (m.next(4) == 0) return m.value(3).pretty;
        if (key == "tags") {
            std::string s = "[";
            const std::uint64_t n = m.next(4);
            for (std::uint64_t i = 0; i < n; ++i) s += (i ? "," : "") + b() + (m.next(6) == 0 ? m.scalar().pretty : m.string_token());
            return s + "]";
        }
        if (key == "shape") return ints(m.next(5));
        if (key == "shapes") {
            std::string s = "[";
            const std::uint64_t n = m.next(4);
            for (std::uint64_t i = 0; i < n; ++i) s += (i ? "," : "") + b() + (m.next(8) == 0 ? m.scalar().pretty : ints(m.next(4)));
            return s + "]";
        }
        if (key == "x") return "{" + b() + "\"y\"" + b() + ":" + b() + "{\"z\":" + b() + m.string_token() + ", \"w\": 1}}";
        if (key == "param") return m.value(4).pretty;
        return m.scalar().pretty;
    };
    std::string d = "{" + b() + "\"skip\": [1, {\"a\": 2}]," + b() + "\"doc\"" + b() + ":" + b() + "{";
    bool first = true;
    for (const char* section : {"left", "middle", "right"}) {
        d += std::string(first ? "" : ",") + b() + "\"" + section + "\":" + b() + "{";
        first = false;
        const std::uint64_t records = m.next(5);
        for (std::uint64_t i = 0; i < records; ++i) {
            d += (i ? "," : "") + b() + "\"r" + std::to_string(i) + "\"" + b() + ":" + b();
            if (m.next(8) == 0) {
                d += m.value(2).pretty;
                continue;
            }
            d += "{";
            const std::uint64_t members = m.next(9);
            for (std::uint64_t j = 0; j < members; ++j) {
                const std::string_view key = keys[m.next(std::size(keys))];
                d += (j ? "," : "") + b() + "\"" + std::string(key) + "\"" + b() + ":" + b() + value_for(key) + b();
            }
            d += "}";
        }
        d += b() + "}";
    }
    return d + "," + b() + "\"steps\": [\"s0\", {\"x\": 1}]" + b() + "}" + b() + "}";
}
} // namespace

TEST_CASE("json projection: a record's object read in one pass gives what the reader's events give, damaged or not") {
    // random documents and damaged copies, with and without non-finite words, with short
    // limits (the reader's token length and depth, the projector's scratch bytes) and callbacks
    // that stop the parse: records, errors and their positions (line feeds inside objects read
    // in one pass counted) are the same with objects read in one pass (whole, or in random
    // chunks) as with the events alone
    value_maker m{7};
    std::uint64_t whole = 0, documents = 0;
    for (int round = 0; round < 1500; ++round) {
        const std::string d = random_document(m);
        for (int copy = 0; copy < 4; ++copy) {
            const std::string text = copy == 0 ? d : test_support::damaged_json([&](std::uint64_t n) { return m.next(n); }, d);
            one_pass_limits l;
            l.reader.non_finite_words = round % 2 == 0;
            if (round % 3 == 1) {
                static const std::size_t tokens[] = {6, 9, 12, 20, 64};
                static const std::size_t depths[] = {3, 4, 5, 6, 8};
                static const std::size_t scratch[] = {16, 24, 40, 64, 120, 400};
                l.reader.scratch_capacity = tokens[m.next(std::size(tokens))];
                l.reader.max_depth = depths[m.next(std::size(depths))];
                l.scratch = scratch[m.next(std::size(scratch))];
            }
            if (round % 5 == 2) l.stop_after = 1 + m.next(4);
            const chunked_input one(text, {});
            const one_pass_run events = project_fused(one.chunks(), false, l);
            const one_pass_run fused = project_fused(one.chunks(), true, l);
            CAPTURE(text);
            CAPTURE(l.reader.scratch_capacity);
            CAPTURE(l.reader.max_depth);
            CAPTURE(l.scratch);
            REQUIRE(fused.out == events.out);
            CHECK(events.whole == 0);
            const chunked_input parts = chunked_input::random(text, m.next(1000), 1 + m.next(400));
            CHECK(project_fused(parts.chunks(), true, l).out == events.out);
            whole += fused.whole;
            ++documents;
        }
    }
    // (a share of the records is read in one pass: the others hold escapes, non-finite words,
    // damage... and go through the events)
    CHECK(whole > documents / 4);
}

TEST_CASE("json projection: in one pass as through the events, a take_text scalar needs room only for a moment, a list's stray number keeps the reader's limit") {
    // (review findings) a scalar at a take_text field is empty: its compact text needs room
    // while it is read, then gives it back; the record's captured keys take 5 bytes ("left",
    // "r"), the scalar's text 12 ("\"0123456789\"")
    const auto both_ways = [](std::string_view text, one_pass_limits l) {
        const chunked_input one(text, {});
        const one_pass_run events = project_fused(one.chunks(), false, l);
        const one_pass_run fused = project_fused(one.chunks(), true, l);
        CHECK(fused.out == events.out);
        return events.out;
    };
    const std::string scalar = R"({"doc": {"left": {"r": {"param": "0123456789", "label": "abcd"}}}})";
    one_pass_limits l;
    l.scratch = 16; // 5 + 12 > 16: too large
    CHECK(both_ways(scalar, l)[0] == "error object too large for the scratch buffer at 0:0");
    l.scratch = 20; // 5 + 12 <= 20, given back, then 5 + 4 for the label
    CHECK(both_ways(scalar, l)[0] ==
          "item left/r label=\"abcd\" count=null delta=null time=null tags=null shape=null shapes=null deep=null "
          "param=null");
    // a number in a list of strings is read (the list's field is then empty), not skipped: the
    // reader's length limit holds (the number at offset 38, column 39)
    one_pass_limits t;
    t.reader.scratch_capacity = 8;
    const std::string too_long = R"({"doc": {"left": {"r": {"tags": ["a", 1234567890123]}}}})";
    CHECK(both_ways(too_long, t)[0] == "error number longer than options::scratch_capacity at 1:39 @38");
    const std::string fits = R"({"doc": {"left": {"r": {"tags": ["a", 12345678]}}}})";
    CHECK(both_ways(fits, t)[0] ==
          "item left/r label=null count=null delta=null time=null tags=null shape=null shapes=null deep=null param=null");
}
