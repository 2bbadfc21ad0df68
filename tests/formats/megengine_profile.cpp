// SPDX-License-Identifier: MIT
// megengine-profile (formats.md section 2). Counts and every record of sample 001 are also
// checked against an independent Python reference by ctest (logscan.convert.megengine_profile.*);
// here: individual records read off the sample by hand, chunking, allocation, bounded scratch,
// and damaged documents.
#include <logscan/formats/megengine_profile.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/alloc_counter.hpp"
#include "support/chunking.hpp"

namespace mp = logscan::megengine_profile;

namespace {

// Every record as its NDJSON line (the writer is tested on its own in tests/ndjson.cpp).
struct collect_sink {
    std::string* out;
    bool operator()(std::string_view s) const {
        out->append(s);
        return true;
    }
};
struct collected {
    std::string text;
    std::vector<std::string> lines() const {
        std::vector<std::string> v;
        std::size_t p = 0;
        while (p < text.size()) {
            const std::size_t nl = text.find('\n', p);
            v.push_back(text.substr(p, nl - p));
            p = nl + 1;
        }
        return v;
    }
};

std::vector<std::string> run_chunks(logscan::test::chunk_list chunks, std::size_t scratch = 64 << 10) {
    collected c;
    char buf[4096];
    logscan::ndjson_writer<collect_sink> w(collect_sink{&c.text}, buf);
    mp::ndjson_visitor<decltype(w)> v{w};
    mp::parser<decltype(v)> p(v, mp::options{.scratch_capacity = scratch});
    for (auto ch : chunks) p.feed(ch);
    p.finish();
    w.flush();
    return c.lines();
}
std::vector<std::string> run(std::string_view doc, std::size_t scratch = 64 << 10) {
    const logscan::test::chunked_input whole(doc, {});
    return run_chunks(whole.chunks(), scratch);
}
const std::string& sample() {
    static const std::string s = logscan::test::read_file(logscan::test::sample_path("001_825e28a4f520ddc2.txt"));
    return s;
}
std::vector<std::string> of_type(const std::vector<std::string>& v, std::string_view type) {
    std::vector<std::string> r;
    const std::string head = "{\"type\":\"" + std::string(type) + "\"";
    for (const auto& s : v)
        if (s.starts_with(head)) r.push_back(s);
    return r;
}

} // namespace

TEST_CASE("megengine_profile::sample 001: first and last record of each type, read off the sample") {
    const auto r = run(sample());
    // counts: the number of keys of each object / elements of comp_seq (json.load in Python:
    // operator 240, var 299, mem_chunk 104, comp_seq 234, host 234 x 1 unit, device 234 x 1
    // unit, opr_footprint 234)
    CHECK(of_type(r, "opr").size() == 240);
    CHECK(of_type(r, "var").size() == 299);
    CHECK(of_type(r, "mem_chunk").size() == 104);
    CHECK(of_type(r, "exec").size() == 234);
    CHECK(of_type(r, "opr_time").size() == 468);
    CHECK(of_type(r, "opr_footprint").size() == 234);
    CHECK(r.size() == 240 + 299 + 104 + 234 + 468 + 234);
    // the host section comes first in the document: "517": { "interpreter": { "end": 0.146449, "kern": 0.146445, "start": 0.146443
    CHECK(r.front() == "{\"type\":\"opr_time\",\"opr_id\":\"517\",\"source\":\"host\",\"unit\":\"interpreter\",\"start\":0.146443,"
                       "\"kern\":0.146445,\"end\":0.146449}");
    CHECK(of_type(r, "opr_footprint").front() ==
          "{\"type\":\"opr_footprint\",\"opr_id\":\"517\",\"computation\":null,\"memory\":8192000,\"in_shapes\":[],"
          "\"out_shapes\":[[1000,2048]],\"param\":{}}");
    CHECK(of_type(r, "exec").front() == "{\"type\":\"exec\",\"index\":0,\"opr_id\":\"536\"}");
    CHECK(of_type(r, "exec").back() == "{\"type\":\"exec\",\"index\":233,\"opr_id\":\"859\"}");
    // "chk200": { "dev_ptr": 139947709161472, "owner_var": "200", "size": 512, "id": "chk200", ...} (id last)
    CHECK(of_type(r, "mem_chunk").front() ==
          "{\"type\":\"mem_chunk\",\"id\":\"chk200\",\"owner_var\":\"200\",\"size\":512,\"dev_ptr\":139947709161472}");
    CHECK(of_type(r, "mem_chunk").back() ==
          "{\"type\":\"mem_chunk\",\"id\":\"chk396\",\"owner_var\":\"396\",\"size\":1048576,\"dev_ptr\":139947732369408}");
    CHECK(of_type(r, "var").front() ==
          "{\"type\":\"var\",\"id\":\"783\",\"name\":\"conv(FUSE_ADD_RELU[780],const{512,512,3,3}[425])[782]\","
          "\"comp_node\":\"gpu0:0\",\"flags\":[\"RT_FORCE_DYNAMIC_MEM_ALLOC\"],\"shape\":[10,512,7,7],\"dtype\":null,"
          "\"mem_chunk\":null,\"offset\":null,\"dev_ptr\":null}");
    CHECK(of_type(r, "opr").front() == "{\"type\":\"opr\",\"id\":\"517\",\"name\":\"const{1000,2048}[517]\","
                                       "\"opr_type\":\"ImmutableTensor\",\"inputs\":[],\"outputs\":[\"518\"]}");
    CHECK(of_type(r, "opr").back() == "{\"type\":\"opr\",\"id\":\"393\",\"name\":\"const{1,256,1,1}[393]\","
                                      "\"opr_type\":\"ImmutableTensor\",\"inputs\":[],\"outputs\":[\"394\"]}");
    CHECK(of_type(r, "opr_time").back() ==
          "{\"type\":\"opr_time\",\"opr_id\":\"560\",\"source\":\"device\",\"unit\":\"gpu0:0\",\"start\":0.143821670532227,"
          "\"kern\":0.143823715209961,\"end\":0.1441298828125}");
}

TEST_CASE("megengine_profile::identical records under any chunking, down to 1 byte") {
    logscan::test::check_chunk_invariance(sample(), [](logscan::test::chunk_list c) { return run_chunks(c); }, 6);
}

TEST_CASE("megengine_profile::records' objects read in one pass: the sample's records exactly as through the reader's events") {
    // every record that is an object (all but exec) is read in one pass, under any chunking
    const auto through = [](logscan::test::chunk_list chunks, bool fuse, std::uint64_t* whole) {
        collected c;
        char buf[4096];
        logscan::ndjson_writer<collect_sink> w(collect_sink{&c.text}, buf);
        mp::ndjson_visitor<decltype(w)> v{w};
        mp::parser<decltype(v)> p(v);
        p.fuse_objects(fuse);
        for (auto ch : chunks) p.feed(ch);
        p.finish();
        w.flush();
        if (whole) *whole = p.whole_objects();
        return c.lines();
    };
    const logscan::test::chunked_input one(sample(), {});
    std::uint64_t whole = 0, none = 0;
    const std::vector<std::string> events = through(one.chunks(), false, &none);
    CHECK(through(one.chunks(), true, &whole) == events);
    CHECK(none == 0);
    CHECK(whole == events.size() - of_type(events, "exec").size());
    const logscan::test::chunked_input parts = logscan::test::chunked_input::random(sample(), 5, 3000);
    CHECK(through(parts.chunks(), true, nullptr) == events);
}

TEST_CASE("megengine_profile::no allocation while parsing (after construction)") {
    struct totals {
        std::uint64_t bytes = 0, dims = 0, strings = 0;
        double device = 0;
        void on_mem_chunk(const mp::mem_chunk& c) { bytes += c.size.value_or(0); }
        void on_var(const mp::var& v) {
            if (v.shape)
                for (std::int64_t d : *v.shape) dims += static_cast<std::uint64_t>(d);
            if (v.flags) strings += v.flags->size();
        }
        void on_opr(const mp::opr& o) {
            if (o.inputs)
                for (std::string_view s : *o.inputs) strings += s.size();
        }
        void on_opr_time(const mp::opr_time& t) {
            if (t.source == "device" && t.start && t.end) device += *t.end - *t.start;
        }
        void on_opr_footprint(const mp::opr_footprint& f) { strings += f.param ? f.param->size() : 0; }
    } t;
    mp::parser<totals> p(t);
    const std::string& text = sample();
    LOGSCAN_CHECK_NO_ALLOC(for (std::size_t i = 0; i < text.size(); i += 4096) p.feed(std::string_view(text).substr(i, 4096));
                           p.finish());
    CHECK(p.result().ok());
    CHECK(t.bytes > 0);
    CHECK(t.device > 0);
}

TEST_CASE("megengine_profile::an object too large for the scratch buffer is an error, and the parse goes on") {
    const std::string long_name(300, 'n');
    const std::string doc = "{\"graph_exec\":{\"operator\":{"
                            "\"1\":{\"id\":\"1\",\"name\":\"" + long_name + "\",\"type\":\"A\",\"input\":[],\"output\":[]},"
                            "\"2\":{\"id\":\"2\",\"name\":\"short\",\"type\":\"B\",\"input\":[\"1\"],\"output\":[]}}}}";
    const auto r = run(doc, 128);
    REQUIRE(r.size() == 2);
    // (a document's error record has no line, formats.md's common rules; this one is no break
    // of the document, so it says what happened)
    CHECK(r[0] == "{\"type\":\"error\",\"message\":\"object too large for the scratch buffer\"}");
    CHECK(r[1] == "{\"type\":\"opr\",\"id\":\"2\",\"name\":\"short\",\"opr_type\":\"B\",\"inputs\":[\"1\"],\"outputs\":[]}");
    // with room enough, both
    CHECK(run(doc).size() == 2);
    CHECK(of_type(run(doc), "opr").size() == 2);
}

TEST_CASE("megengine_profile::keys in any order at every level, id first or last") {
    const auto a = run(R"({"graph_exec":{"var":{"6":{"id":"6","name":"y","comp_node":"c","flag":["A"],"dev_ptr":7,
        "static_infer_tags":{"SHAPE":{"inferred_result":[4,2]}},"mem_plan":{"mem_chunk_id":"k","offset_byte":1,"layout":{"dtype":"F"}}}}}})");
    const auto b = run(R"({"graph_exec":{"var":{"6":{"mem_plan":{"layout":{"dtype":"F"},"offset_byte":1,"mem_chunk_id":"k"},
        "static_infer_tags":{"SHAPE":{"inferred_result":[4,2]}},"dev_ptr":7,"flag":["A"],"comp_node":"c","name":"y","id":"6"}}}})");
    REQUIRE(a.size() == 1);
    CHECK(a == b);
    CHECK(a[0] == "{\"type\":\"var\",\"id\":\"6\",\"name\":\"y\",\"comp_node\":\"c\",\"flags\":[\"A\"],\"shape\":[4,2],"
                  "\"dtype\":\"F\",\"mem_chunk\":\"k\",\"offset\":1,\"dev_ptr\":7}");
}

TEST_CASE("megengine_profile::damaged documents: records before the damage, then one error; never a crash") {
    const std::string& s = sample();
    for (std::size_t cut : {std::size_t{0}, std::size_t{1}, std::size_t{100}, s.size() / 3, s.size() / 2, s.size() - 1}) {
        INFO("cut at " << cut);
        const auto r = run(std::string_view(s).substr(0, cut));
        REQUIRE_FALSE(r.empty());
        CHECK(r.back() == "{\"type\":\"error\",\"message\":\"invalid JSON document\"}"); // (formats.md section 2)
        CHECK(of_type(r, "error").size() == 1);
    }
    // binary garbage
    std::string junk;
    for (int i = 0; i < 5000; ++i) junk += static_cast<char>((i * 7919 + i / 13) & 0xff);
    const auto g = run(junk);
    CHECK(of_type(g, "error").size() == 1);
}

namespace {
// The errors a parse gives, as the C++ visitor receives them (where and why).
struct errors_seen {
    std::vector<logscan::error> got;
    void on_error(const logscan::error& e) { got.push_back(e); }
};
} // namespace

TEST_CASE("megengine_profile::formats.md section 2's cut document: its records, then the document's error") {
    // the example of the contract, character for character, and its records
    const std::string doc =
        R"({"graph_exec":{"comp_seq":["12","15"],"operator":{"12":{"id":"12","name":"data","type":"Host2DeviceCopy","input":[],"output":["13"]},"15":{"id":"15","name":"conv)";
    CHECK(run(doc) == std::vector<std::string>{
                          R"({"type":"exec","index":0,"opr_id":"12"})", R"({"type":"exec","index":1,"opr_id":"15"})",
                          R"({"type":"opr","id":"12","name":"data","opr_type":"Host2DeviceCopy","inputs":[],"outputs":["13"]})",
                          R"({"type":"error","message":"invalid JSON document"})"});
    // the C++ record keeps where and why
    errors_seen v;
    (void)mp::parse(doc, v);
    REQUIRE(v.got.size() == 1);
    CHECK(v.got[0].line == 1);
    CHECK(v.got[0].column == doc.size() + 1); // (the end of the input, inside the string)
    CHECK(v.got[0].code == logscan::error_code::unexpected_end);
}

TEST_CASE("megengine_profile::a document that begins with a UTF-8 byte order mark breaks there, and says so") {
    // (formats.md section 2: a JSON text as RFC 8259 has it, no byte order mark)
    const std::string doc = "\xEF\xBB\xBF" + sample();
    CHECK(run(doc) == std::vector<std::string>{R"({"type":"error","message":"invalid JSON document"})"});
    errors_seen v;
    (void)mp::parse(doc, v);
    REQUIRE(v.got.size() == 1);
    CHECK((v.got[0].line == 1 && v.got[0].column == 1));
    CHECK(v.got[0].message == "the byte EF where the JSON value begins (a UTF-8 byte order mark begins so; a JSON text may not begin with one)");
    logscan::test::check_chunk_invariance(doc.substr(0, 400), [](logscan::test::chunk_list c) { return run_chunks(c); }, 4);
}

TEST_CASE("megengine_profile::a visitor of one callback: the other sections are skipped, its records all come") {
    struct execs {
        std::size_t n = 0, named = 0;
        void on_exec(const mp::exec& e) {
            ++n;
            named += e.opr_id.has_value();
        }
    } v;
    REQUIRE(mp::parse(sample(), v).ok());
    CHECK(v.n == 234); // the elements of graph_exec.comp_seq
    CHECK(v.named == 234);
}

TEST_CASE("megengine_profile::shapes lists holding something else than lists of integers are null (fuzz finding)") {
    struct fp {
        std::vector<std::string> out;
        void on_opr_footprint(const logscan::megengine_profile::opr_footprint& r) {
            std::string s = std::string(r.opr_id) + ":";
            s += r.in_shapes ? std::to_string(r.in_shapes->size()) : std::string("null");
            s += ",";
            s += r.out_shapes ? std::to_string(r.out_shapes->size()) : std::string("null");
            out.push_back(s);
        }
    } v;
    REQUIRE(logscan::megengine_profile::parse(std::string_view(
                R"({"profiler": {"opr_footprint": {)"
                R"("1": {"in_shapes": [[10, 512, 28, 28], "6"], "out_shapes": [[1, 2]]},)"
                R"("2": {"in_shapes": [[1], 7], "out_shapes": [[3], null]},)"
                R"("3": {"in_shapes": [true], "out_shapes": [[1, 2], [3]]}}}})"),
            v)
                .ok());
    CHECK(v.out == std::vector<std::string>{"1:null,1", "2:null,null", "3:null,2"});
}

TEST_CASE("megengine_profile::bare non-finite numbers (MegEngine before 1.7) are null, strings stay strings") {
    // formats.md section 2: a non-finite number may stand bare where a value belongs
    const std::string doc = R"({"profiler": {"host": {"7": {"cpu0": {"start": nan, "kern": -Infinity, "end": 0.5}}},
        "opr_footprint": {"7": {"computation": NaN, "memory": "nan", "in_shapes": [[1, nan]], "out_shapes": [], "param": {"p": -nan}}}}})";
    const auto lines = logscan::test::check_chunk_invariance(doc, [](logscan::test::chunk_list c) { return run_chunks(c); }, 16);
    CHECK(lines == std::vector<std::string>{
                       R"({"type":"opr_time","opr_id":"7","source":"host","unit":"cpu0","start":null,"kern":null,"end":0.5})",
                       R"({"type":"opr_footprint","opr_id":"7","computation":null,"memory":null,"in_shapes":null,"out_shapes":[],"param":{"p":null}})"});
}
