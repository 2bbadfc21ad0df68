// SPDX-License-Identifier: MIT
// record.hpp: a record list gives the types, the visitor check and the NDJSON writer; every
// kind of field is written as the file comment says (expected lines written by hand).
#include <logscan/ndjson.hpp>
#include <logscan/record.hpp>

#include <doctest/doctest.h>

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "support/alloc_counter.hpp"
#include "support/string_writer.hpp"

namespace rec_test {

struct part {
    std::uint64_t id;
    std::optional<std::string_view> role;
};
logscan::record_fields<logscan::field<"id", &part::id>, logscan::field<"role", &part::role>> describe(const part&);

struct thing {
    std::uint64_t line;
    std::string_view name;
    std::optional<double> score;
    std::span<const part> parts;
    std::span<const std::uint64_t> ids;
    logscan::shape_list shape;
    std::string_view json;
    std::string_view pairs; // "a=1 b=x"
};

// a map: `a=1 b=x` as entries, numbers as numbers
struct pair_map {
    std::string_view text;
    template <class F>
    void for_each_entry(F&& f) const {
        std::string_view t = text;
        while (!t.empty()) {
            const std::size_t sp = t.find(' ');
            const std::string_view kv = t.substr(0, sp);
            const std::size_t eq = kv.find('=');
            f(kv.substr(0, eq), logscan::loose_number{kv.substr(eq + 1)});
            if (sp == std::string_view::npos) break;
            t.remove_prefix(sp + 1);
        }
    }
};
// a sequence: 1, 2, 3 up to n, null after
struct counting {
    int n;
    template <class F>
    void for_each_item(F&& f) const {
        for (int i = 1; i <= n; ++i) f(i);
        f(nullptr);
    }
};
constexpr pair_map pairs_of(const thing& t) noexcept { return {t.pairs}; }
constexpr logscan::json_text json_of(const thing& t) noexcept { return {t.json}; }
constexpr counting count_of(const thing&) noexcept { return {2}; }

struct doc { // a record without a line (a JSON document's)
    std::optional<std::string_view> id;
};

LOGSCAN_EVENT(on_thing, "void on_thing(const rec_test::thing&)");
LOGSCAN_EVENT(on_doc, "void on_doc(const rec_test::doc&)");

using records = logscan::record_list<
    logscan::record_kind<"thing", thing, on_thing_event, logscan::field<"name", &thing::name>,
                         logscan::field<"score", &thing::score>, logscan::field<"parts", &thing::parts>,
                         logscan::field<"ids", &thing::ids>, logscan::field<"shape", &thing::shape>,
                         logscan::field<"json", json_of>, logscan::field<"count", count_of>,
                         logscan::entries<pairs_of>>,
    logscan::record_kind<"doc", doc, on_doc_event, logscan::field<"id", &doc::id>>, logscan::text_kind,
    logscan::error_kind>;

struct only_things {
    int n = 0;
    void on_thing(const thing&) { ++n; }
};
struct only_errors {
    void on_error(const logscan::error&) {}
};
struct misspelt {
    void on_thnig(const thing&) {}
};
struct quiet : logscan::validate_only {};

} // namespace rec_test

TEST_CASE("record_list: the types in order, the visitor check") {
    using R = rec_test::records;
    static_assert(R::types.size() == 4);
    CHECK(R::types[0] == "thing");
    CHECK(R::types[1] == "doc");
    CHECK(R::types[2] == "text");
    CHECK(R::types[3] == "error");
    CHECK(R::callbacks.view() == "on_thing, on_doc, on_text, on_error");
    static_assert(R::accepted_by<rec_test::only_things>);
    static_assert(R::accepted_by<rec_test::only_errors>);
    static_assert(R::accepted_by<rec_test::quiet>);
    static_assert(!R::accepted_by<rec_test::misspelt>);
}

TEST_CASE("record_list::ndjson: every field, in order, each kind as record.hpp says") {
    using namespace rec_test;
    std::string out;
    out.reserve(4096); // (the test's sink appends to a string: room made before)
    char buf[128]; // smaller than a record: written in pieces
    logscan::test::string_writer w(logscan::test::string_sink{&out}, buf);
    records::ndjson<logscan::test::string_writer> v{w};

    const part parts[] = {{7, "input"}, {9, std::nullopt}};
    const std::uint64_t ids[] = {3, 4};
    const std::string_view dims = "(4, 64)";
    const thing t{12, "conv\"1", 0.5, parts, ids, logscan::shape_list(dims.data(), dims.data() + dims.size()),
                  R"({"k":[1,2]})", "a=1 b=x c=2.50"};
    LOGSCAN_CHECK_NO_ALLOC(v.on_thing(t)); // the writer allocates nothing
    const thing u{13, "", std::nullopt, {}, {}, logscan::shape_list(), "null", ""};
    v.on_thing(u);
    v.on_doc(doc{"x"});
    v.on_doc(doc{std::nullopt});
    v.on_text(logscan::line{"hello", 5, 40});
    v.on_error(logscan::error{logscan::error_code::line_too_long, 6, 3, 50, "too long"});
    v.on_error(logscan::error{logscan::error_code::syntax, 7, 0, 60, "record cut short"}); // (a line, no column: null)
    v.on_error(logscan::error{logscan::error_code::syntax, 0, 0, 77, "cut"});
    v.on_error(logscan::error{logscan::error_code::syntax, 1, 9, 8, "expected ','", 0, true}); // (a document's)
    const thing z{0, "from a document", 1.5, {}, {}, logscan::shape_list(), "null", ""}; // (line 0: none)
    v.on_thing(z);
    CHECK(w.flush());
    CHECK(v.records == 10);
    CHECK(v.errors == 4);
    CHECK(out ==
          "{\"type\":\"thing\",\"line\":12,\"name\":\"conv\\\"1\",\"score\":0.5,"
          "\"parts\":[{\"id\":7,\"role\":\"input\"},{\"id\":9,\"role\":null}],\"ids\":[3,4],\"shape\":[4,64],"
          "\"json\":{\"k\":[1,2]},\"count\":[1,2,null],\"a\":1,\"b\":\"x\",\"c\":2.5}\n"
          "{\"type\":\"thing\",\"line\":13,\"name\":\"\",\"score\":null,\"parts\":[],\"ids\":[],\"shape\":null,"
          "\"json\":null,\"count\":[1,2,null]}\n"
          "{\"type\":\"doc\",\"id\":\"x\"}\n"
          "{\"type\":\"doc\",\"id\":null}\n"
          "{\"type\":\"text\",\"line\":5,\"text\":\"hello\"}\n"
          "{\"type\":\"error\",\"line\":6,\"column\":3,\"message\":\"too long\"}\n"
          "{\"type\":\"error\",\"line\":7,\"column\":null,\"message\":\"record cut short\"}\n"
          "{\"type\":\"error\",\"message\":\"cut\"}\n"
          "{\"type\":\"error\",\"message\":\"invalid JSON document\"}\n"
          "{\"type\":\"thing\",\"name\":\"from a document\",\"score\":1.5,\"parts\":[],\"ids\":[],\"shape\":null,"
          "\"json\":null,\"count\":[1,2,null]}\n");
}

TEST_CASE("record_list::counting: every record counted, each handed on when the inner visitor has its callback") {
    rec_test::only_things inner;
    rec_test::records::counting<rec_test::only_things> c{inner};
    const rec_test::thing t{};
    CHECK(c.on_thing(t) == logscan::flow::proceed);
    CHECK(c.on_thing(t) == logscan::flow::proceed);
    CHECK(c.on_doc(rec_test::doc{}) == logscan::flow::proceed); // the inner visitor has no on_doc
    CHECK(c.on_text(logscan::line{"x", 1, 0}) == logscan::flow::proceed);
    CHECK(c.on_error(logscan::error{}) == logscan::flow::proceed);
    CHECK(inner.n == 2);
    CHECK(c.records == 3);
    CHECK(c.text == 1);
    CHECK(c.errors == 1);
    // the inner callback's flow comes back (a stop ends the parse)
    struct stopper {
        int n = 0;
        logscan::flow on_doc(const rec_test::doc&) { return ++n == 2 ? logscan::flow::stop : logscan::flow::proceed; }
    } s;
    rec_test::records::counting<stopper> d{s};
    CHECK(d.on_doc(rec_test::doc{}) == logscan::flow::proceed);
    CHECK(d.on_doc(rec_test::doc{}) == logscan::flow::stop);
    CHECK(d.records == 2);
}

TEST_CASE("keys_clash: a key given twice, or an entry named as one of the record's own keys") {
    using namespace std::string_view_literals;
    using keys = std::array<std::string_view, 4>;
    // no two keys alike, though some share a length and a last byte (`ab`/`cb`, `x`/`x_`-less)
    CHECK(logscan::keys_clash(keys{"ab", "cb", "x", "abc"}) == false);
    CHECK(logscan::keys_clash(keys{"ab", "cb", "x", "ab"}));
    CHECK(logscan::keys_clash(keys{"", "a", "b", ""}));        // (empty keys compare too)
    CHECK(logscan::keys_clash(std::array<std::string_view, 0>{}) == false);
    // `thing`'s own keys are type, line and each of its fields, before its entries or after them
    using thing_kind = logscan::record_kind<"thing", rec_test::thing, rec_test::on_thing_event,
                                            logscan::field<"name", &rec_test::thing::name>,
                                            logscan::field<"count", rec_test::count_of>, logscan::entries<rec_test::pairs_of>,
                                            logscan::field<"score", &rec_test::thing::score>>;
    for (const std::string_view own : {"type"sv, "line"sv, "name"sv, "count"sv, "score"sv}) {
        CAPTURE(own);
        CHECK(logscan::keys_clash<thing_kind>(keys{"a", "b", own, "c"}));
        CHECK(logscan::keys_clash(keys{"a", "b", own, "c"}) == false); // (no kind: only repeats count)
    }
    CHECK(logscan::keys_clash<thing_kind>(keys{"names", "lines", "scores", "typ"}) == false);
    // a key taken from each item: pairs `k=v`, the key before the `=`
    const std::array<std::string_view, 3> pairs{"a=1", "b=2", "a=3"};
    const auto key = [](std::string_view p) { return p.substr(0, p.find('=')); };
    CHECK(logscan::keys_clash(pairs, key));
    CHECK(logscan::keys_clash(std::span(pairs).first(2), key) == false);
    static_assert(logscan::keys_clash(std::array<std::string_view, 2>{"x", "x"}));
    // past the 32 keys kept as they come: 40 keys k0 ... k39, all distinct, then one of them
    // given again at place 35 (a kept key, k3; a key past them, k33), or two past them alike
    std::vector<std::string> names;
    for (int i = 0; i < 40; ++i) names.push_back("k" + std::to_string(i));
    const auto views = [&] { return std::vector<std::string_view>(names.begin(), names.end()); };
    CHECK(logscan::keys_clash(views()) == false);
    for (const int again : {3, 33, 0, 31, 32}) {
        CAPTURE(again);
        std::vector<std::string_view> v = views();
        v[35] = v[static_cast<std::size_t>(again)];
        CHECK(logscan::keys_clash(v));
    }
    for (const std::size_t at : {std::size_t{31}, std::size_t{32}, std::size_t{33}}) { // (the last key compared with the kept ones, the first past them)
        CAPTURE(at);
        for (const std::size_t again : {std::size_t{0}, std::size_t{5}, at - 1}) {
            CAPTURE(again);
            std::vector<std::string_view> v = views();
            v[at] = v[again];
            CHECK(logscan::keys_clash(v));
        }
    }
    std::vector<std::string_view> late = views();
    late[39] = late[36];
    CHECK(logscan::keys_clash(late));
}
