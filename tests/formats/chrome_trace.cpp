// SPDX-License-Identifier: MIT
// chrome-trace (formats.md section 6A): the contract's worked example and cut example record
// for record, each rule of 6A on hand-written traces (expected records written from the
// contract's text), the public Kineto traces (counts from the events' `ph`, records read off
// the files by hand), chunking down to 1 byte, allocation, bounded storage.
#include <logscan/formats/chrome_trace.hpp>
#include <logscan/formats/detect.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "support/alloc_counter.hpp"
#include "support/chunking.hpp"
#include "support/random_text.hpp"
#if LOGSCAN_TEST_GZIP
#include <logscan/gzip.hpp>
#endif

namespace ct = logscan::chrome_trace;

namespace {

struct collect_sink {
    std::string* out;
    bool operator()(std::string_view s) const {
        out->append(s);
        return true;
    }
};
std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> v;
    std::size_t p = 0;
    while (p < text.size()) {
        const std::size_t nl = text.find('\n', p);
        v.push_back(text.substr(p, nl - p));
        p = nl + 1;
    }
    return v;
}
// Every record as its NDJSON line, an error's free-text message as `M` (formats.md 6A.3:
// "comparators use type and index only").
std::vector<std::string> run_chunks(logscan::test::chunk_list chunks, ct::options o = {}) {
    std::string text;
    char buf[4096];
    logscan::ndjson_writer<collect_sink> w(collect_sink{&text}, buf);
    ct::ndjson_visitor<decltype(w)> v{w};
    ct::parser<decltype(v)> p(v, o);
    for (auto ch : chunks) p.feed(ch);
    p.finish();
    w.flush();
    std::vector<std::string> out = lines_of(text);
    for (auto& l : out)
        if (l.starts_with("{\"type\":\"error\"")) l = l.substr(0, l.find(",\"message\":")) + ",\"message\":M}";
    return out;
}
std::vector<std::string> run(std::string_view doc, ct::options o = {}) {
    const logscan::test::chunked_input whole(doc, {});
    return run_chunks(whole.chunks(), o);
}
logscan::error outcome(std::string_view doc) {
    logscan::null_visitor v;
    return ct::parse(doc, v);
}
std::vector<std::string> of_type(const std::vector<std::string>& v, std::string_view type) {
    std::vector<std::string> r;
    const std::string head = "{\"type\":\"" + std::string(type) + "\"";
    for (const auto& s : v)
        if (s.starts_with(head)) r.push_back(s);
    return r;
}

// formats.md 6A.4, the document and the records it yields, as the contract writes them
constexpr std::string_view example = R"({"schemaVersion": 1,
 "distributedInfo": {"backend": "nccl", "rank": 2, "world_size": 4},
 "traceEvents": [
  {"ph": "M", "name": "thread_name", "pid": 31, "tid": 31, "args": {"name": "main"}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#7", "pid": 31, "tid": 31, "ts": 1000.000, "dur": 900.5},
  {"ph": "B", "cat": "op", "name": "Conv", "pid": 31, "tid": 31, "ts": 1001.25, "args": {"id": 4}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 31, "tid": 31, "ts": 1010, "dur": 6, "args": {"correlation": 88}},
  {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 88, "pid": 31, "tid": 31, "ts": 1010},
  {"ph": "E", "name": "Conv", "pid": 31, "tid": 31, "ts": 1103.5, "args": {"id": 5, "device": "gpu0"}},
  {"ph": "X", "cat": "kernel", "name": "conv_fwd_kernel", "pid": 0, "tid": 7, "ts": 1020.5, "dur": 70.25, "args": {"stream": 7, "correlation": 88}, "cname": "good"},
  {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 88, "bp": "e", "pid": 0, "tid": 7, "ts": 1020.5},
  {"ph": "C", "name": "gpu_mem", "pid": 0, "ts": 1100, "args": {"allocated": 1536, "reserved": 2048}},
  {"ph": "i", "s": "p", "name": "checkpoint", "pid": 31, "tid": 31, "ts": 1200},
  {"ph": "n", "cat": "io", "name": "read", "id": "0x2a", "pid": 31, "tid": 31, "ts": 1201},
  {"ph": "E", "pid": 31, "tid": 32, "ts": 1202},
  7,
  {"ph": "B", "name": "Backward", "pid": 31, "tid": 31, "ts": 1300}
 ],
 "displayTimeUnit": "ms",
 "baseTimeNanoseconds": 1700000000000000000}
)";
const std::vector<std::string> example_records = {
    R"({"type":"trace_info","key":"schemaVersion","value":1})",
    R"({"type":"trace_info","key":"distributedInfo","value":{"backend":"nccl","rank":2,"world_size":4}})",
    R"({"type":"meta","name":"thread_name","pid":31,"tid":31,"ts_us":null,"value":"main","args":{"name":"main"},"extra":null})",
    R"({"type":"span","name":"ProfilerStep#7","cat":"user_annotation","ph":"X","pid":31,"tid":31,"ts_us":1000.000,"dur_us":900.5,"args":null,"extra":null})",
    R"({"type":"span","name":"cudaLaunchKernel","cat":"cuda_runtime","ph":"X","pid":31,"tid":31,"ts_us":1010,"dur_us":6,"args":{"correlation":88},"extra":null})",
    R"({"type":"flow","ph":"s","name":"ac2g","cat":"ac2g","id":88,"bp":null,"pid":31,"tid":31,"ts_us":1010,"args":null,"extra":null})",
    R"({"type":"span","name":"Conv","cat":"op","ph":"B","pid":31,"tid":31,"ts_us":1001.25,"dur_us":102.25,"args":{"id":5,"device":"gpu0"},"extra":null})",
    R"({"type":"span","name":"conv_fwd_kernel","cat":"kernel","ph":"X","pid":0,"tid":7,"ts_us":1020.5,"dur_us":70.25,"args":{"stream":7,"correlation":88},"extra":{"cname":"good"}})",
    R"({"type":"flow","ph":"f","name":"ac2g","cat":"ac2g","id":88,"bp":"e","pid":0,"tid":7,"ts_us":1020.5,"args":null,"extra":null})",
    R"({"type":"counter","name":"gpu_mem","cat":null,"id":null,"pid":0,"tid":null,"ts_us":1100,"values":{"allocated":1536,"reserved":2048},"extra":null})",
    R"({"type":"instant","name":"checkpoint","cat":null,"ph":"i","scope":"p","pid":31,"tid":31,"ts_us":1200,"args":null,"extra":null})",
    R"({"type":"event","ph":"n","name":"read","cat":"io","id":"0x2a","pid":31,"tid":31,"ts_us":1201,"dur_us":null,"args":null,"extra":null})",
    R"({"type":"error","index":11,"message":M})",
    R"({"type":"error","index":12,"message":M})",
    R"({"type":"trace_info","key":"displayTimeUnit","value":"ms"})",
    R"({"type":"trace_info","key":"baseTimeNanoseconds","value":1700000000000000000})",
    R"({"type":"error","index":13,"message":M})",
};

#if LOGSCAN_TEST_GZIP
// A public trace as published (.json.gz), decompressed by gzip.hpp's source.
std::string trace(std::string_view name) {
    const std::string path = logscan::test::sample_path("chrome/" + std::string(name));
    logscan::file_source file(path.c_str());
    logscan::gzip_source<logscan::file_source> gz(file);
    std::string text;
    for (logscan::chunk c = gz.next(); !c.data.empty(); c = gz.next()) text.append(c.data);
    return text;
}
#endif

} // namespace

TEST_CASE("chrome_trace::formats.md 6A.4's example, record for record") {
    CHECK(run(example) == example_records);
    CHECK(outcome(example).ok());
}

TEST_CASE("chrome_trace::the example cut inside an event: the records before, the break, the B never closed") {
    // "Cut the same document inside the E of Conv ... the records stop after the s flow,
    // followed by {"type":"error","index":5,...} and {"type":"error","index":2,...}"
    const std::string_view cut = example.substr(0, example.find("{\"ph\": \"E\", \"name\": \"Co") + 23);
    REQUIRE(cut.ends_with("\"name\": \"Co"));
    std::vector<std::string> want(example_records.begin(), example_records.begin() + 6);
    want.push_back(R"({"type":"error","index":5,"message":M})");
    want.push_back(R"({"type":"error","index":2,"message":M})");
    CHECK(run(cut) == want);
    CHECK(outcome(cut).code == logscan::error_code::unexpected_end);
}

TEST_CASE("chrome_trace::a bare array: every element an event; a missing ] after a complete event is a normal end") {
    const std::string x = R"({"ph":"X","name":"a","ts":1,"dur":2})";
    const std::string want_x = R"({"type":"span","name":"a","cat":null,"ph":"X","pid":null,"tid":null,"ts_us":1,"dur_us":2,"args":null,"extra":null})";
    for (const std::string& doc : {"[" + x + "]", "[" + x, "[" + x + ",", "[" + x + " ,\n  ", "\n[ " + x + "\n"}) {
        INFO(doc);
        CHECK(run(doc) == std::vector<std::string>{want_x});
        CHECK(outcome(doc).ok());
    }
    // a non-object element counts as complete; nothing complete yet does not
    CHECK(run("[" + x + ",7") == std::vector<std::string>{want_x, R"({"type":"error","index":1,"message":M})"});
    CHECK(outcome("[" + x + ",7").ok());
    CHECK(run("[" + x + ",\"s\"  ").size() == 2);
    CHECK(outcome("[" + x + ",\"s\"  ").ok());
    CHECK(run("[") == std::vector<std::string>{R"({"type":"error","index":0,"message":M})"});
    CHECK(!outcome("[").ok());
    CHECK(run("[" + x + ",\"a\\\"") == std::vector<std::string>{want_x, R"({"type":"error","index":1,"message":M})"}); // (a string cut after an escaped quote)
    CHECK(run("[" + x + ",-") == std::vector<std::string>{want_x, R"({"type":"error","index":1,"message":M})"});
    CHECK(run("[" + x + ",tr") == std::vector<std::string>{want_x, R"({"type":"error","index":1,"message":M})"});
    // cut inside an event, or inside a value after the last comma: a break at that event's index
    CHECK(run("[" + x + ",{\"ph\":\"i\",\"na") == std::vector<std::string>{want_x, R"({"type":"error","index":1,"message":M})"});
    CHECK(run("[" + x + ",\"ab") == std::vector<std::string>{want_x, R"({"type":"error","index":1,"message":M})"});
    CHECK(run("[" + x + ",[1,") == std::vector<std::string>{want_x, R"({"type":"error","index":1,"message":M})"});
    // the object form has no such ending: a missing ] or } is a break
    CHECK(run("{\"traceEvents\":[" + x) == std::vector<std::string>{want_x, R"({"type":"error","index":1,"message":M})"});
    CHECK(run("{\"traceEvents\":[" + x + "]") == std::vector<std::string>{want_x, R"({"type":"error","index":null,"message":M})"});
}

TEST_CASE("chrome_trace::values: numbers byte for byte, strings decoded, objects compact, last occurrence wins, the rest in extra") {
    // formats.md 6A.2
    const auto r = run(R"({"traceEvents": [
      {"ph": "X", "name": "a", "name": "b\u0021", "ts": 1712195495519689.047, "dur": 1.50e3, "pid": "Spans", "tid": -0,
       "tts": 5, "args": { "k": [1, 2.0, {"x" : null}], "k": "dup", "s": "\u00e9\"" }, "tts": 6, "cname" : "good"},
      {"ph": "X", "ts": "1500", "dur": "2", "pid": null, "p\u0068": "Y"},
      {"name": "no ph", "ts": 123456789012345678901, "s": "t", "bp": "e"},
      {"ph": 5, "name": 7, "cat": true},
      {"ph": "i", "name": "x", "dur": 9, "cat": "c", "s": "g", "args": null}
    ]})");
    CHECK(r == std::vector<std::string>{
                   R"({"type":"span","name":"b!","cat":null,"ph":"X","pid":"Spans","tid":-0,"ts_us":1712195495519689.047,"dur_us":1.50e3,"args":{"k":[1,2.0,{"x":null}],"k":"dup","s":"\u00e9\""},"extra":{"tts":5,"tts":6,"cname":"good"}})",
                   // the escaped key names ph: its last occurrence, `Y`, is the record's phase (the
                   // earlier one, a mapped key's, is dropped: not in extra)
                   R"({"type":"event","ph":"Y","name":null,"cat":null,"id":null,"pid":null,"tid":null,"ts_us":"1500","dur_us":"2","args":null,"extra":null})",
                   R"({"type":"event","ph":null,"name":"no ph","cat":null,"id":null,"pid":null,"tid":null,"ts_us":123456789012345678901,"dur_us":null,"args":null,"extra":{"s":"t","bp":"e"}})",
                   R"({"type":"event","ph":5,"name":7,"cat":true,"id":null,"pid":null,"tid":null,"ts_us":null,"dur_us":null,"args":null,"extra":null})",
                   R"({"type":"instant","name":"x","cat":"c","ph":"i","scope":"g","pid":null,"tid":null,"ts_us":null,"args":null,"extra":{"dur":9}})",
               });
}

TEST_CASE("chrome_trace::the C++ records: values as text, numbers readable, raw members") {
    // (records are views, valid during the call: everything is read there)
    struct v_t {
        std::vector<std::string> texts;
        std::optional<double> ts;
        std::optional<std::int64_t> pid, ts_int;
        bool args_json = false;
        std::uint64_t index = 99;
        void on_span(const ct::span& s) {
            texts.push_back(std::string(s.ts_us->text) + "|" + std::string(s.name->text) + "|" + (s.args ? std::string(s.args->text) : "-"));
            ts = ct::number_of(s.ts_us);
            ts_int = ct::integer_of(s.ts_us);
            pid = ct::integer_of(s.pid);
            args_json = s.args && s.args->json;
            index = s.index;
        }
    } v;
    const std::string doc = R"([{"ph":"X","name":"k\u00e9","ts":1712195495519689.047,"dur":3,"pid":2,"args":{"a" : 1}}])";
    REQUIRE(ct::parse(doc, v).ok());
    REQUIRE(v.texts.size() == 1);
    CHECK(v.texts[0] == "1712195495519689.047|k\xC3\xA9|{\"a\":1}");
    CHECK(v.ts == doctest::Approx(1712195495519689.047));
    CHECK(v.pid == 2);
    CHECK(!v.ts_int); // (a fraction)
    CHECK(!ct::number_of(ct::json_value{logscan::string_or_json{"1500", false}})); // (a string is no number)
    // plain integers read at once up to 16 digits below 2^53, the others as any number: the
    // same doubles (2^53 = 9007199254740992; 2^53 + 1 rounds to it, to even)
    const auto num = [](std::string_view t) { return ct::number_of(ct::json_value{logscan::string_or_json{t, true}}); };
    CHECK(num("0") == 0.0);
    CHECK(num("7") == 7.0);
    CHECK(num("1695835542514261") == 1695835542514261.0);
    CHECK(num("9007199254740992") == 9007199254740992.0);
    CHECK(num("9007199254740993") == 9007199254740992.0);
    CHECK(num("9999999999999999") == 1e16);
    CHECK(num("12345678901234567") == 12345678901234568.0);
    CHECK(num("-12") == -12.0);
    CHECK(num("12.5") == 12.5);
    CHECK(num("1e3") == 1000.0);
    CHECK(!num("12a"));  // (no number token)
    CHECK(!num("012"));  // (a leading zero: no JSON number)
    CHECK(!num("1e400")); // (beyond the double range)
    CHECK(v.args_json);
    CHECK(v.index == 0);
}

TEST_CASE("chrome_trace::B/E: per thread a stack, the span at the E, exact durations, merged members, the errors") {
    // formats.md 6A.3: E pops the most recent open B of its thread (pid and tid as JSON text),
    // whatever its name; the span has the B's values; dur = E.ts - B.ts exactly
    const auto r = run(R"({"traceEvents":[
      {"ph":"B","name":"outer","cat":"c","pid":1,"tid":1,"ts":10.5,"args":{"a":1,"b":2},"x":1},
      {"ph":"B","name":"other thread","pid":1,"tid":"1","ts":11},
      {"ph":"B","name":"inner","pid":1,"tid":1,"ts":12,"args":{"k":1}},
      {"ph":"E","pid":1,"tid":1,"ts":"13"},
      {"ph":"E","name":"","pid":1,"tid":1,"ts":20.25,"args":{"b":3,"c":4},"x":2,"y":3},
      {"ph":"E","name":"renamed","pid":1,"tid":"1","ts":1e1},
      {"ph":"E","pid":2,"tid":1,"ts":1},
      {"ph":"B","name":"args not objects","pid":3,"ts":1,"args":{"a":1}},
      {"ph":"E","pid":3,"ts":1.000,"args":[1]},
      {"ph":"B","pid":4,"tid":4,"args":null},
      {"ph":"E","pid":4,"tid":4,"ts":5},
      {"ph":"B","name":"open 1","pid":5,"tid":5,"ts":0},
      {"ph":"B","name":"open 2","pid":6,"tid":6,"ts":0}
    ]})");
    CHECK(r == std::vector<std::string>{
                   // the E with a string ts: no duration; its B is inner (the most recent of pid 1 tid 1)
                   R"({"type":"span","name":"inner","cat":null,"ph":"B","pid":1,"tid":1,"ts_us":12,"dur_us":null,"args":{"k":1},"extra":null})",
                   // an E named "" is no other name; args: the B's a, then the E's b and c; extra alike
                   R"({"type":"span","name":"outer","cat":"c","ph":"B","pid":1,"tid":1,"ts_us":10.5,"dur_us":9.75,"args":{"a":1,"b":3,"c":4},"extra":{"x":2,"y":3}})",
                   // tid "1" is another thread than tid 1; the E's name differs: an error first
                   R"({"type":"error","index":5,"message":M})",
                   R"({"type":"span","name":"other thread","cat":null,"ph":"B","pid":1,"tid":"1","ts_us":11,"dur_us":-1,"args":null,"extra":null})",
                   R"({"type":"error","index":6,"message":M})", // (no open B on pid 2 tid 1)
                   // both have args, not both objects: the E's
                   R"({"type":"span","name":"args not objects","cat":null,"ph":"B","pid":3,"tid":null,"ts_us":1,"dur_us":0,"args":[1],"extra":null})",
                   // the B's args null and no ts: args null (the B's, the only one), no duration
                   R"({"type":"span","name":null,"cat":null,"ph":"B","pid":4,"tid":4,"ts_us":null,"dur_us":null,"args":null,"extra":null})",
                   R"({"type":"error","index":11,"message":M})", // the B's never closed, in ascending index
                   R"({"type":"error","index":12,"message":M})",
               });
}

TEST_CASE("chrome_trace::meta values, counters, flows, instants") {
    const auto r = run(R"({"traceEvents":[
      {"ph":"M","name":"process_name","pid":7,"args":{"name":"python"}},
      {"ph":"M","name":"process_labels","pid":7,"args":{"labels":"GPU 0"}},
      {"ph":"M","name":"thread_sort_index","pid":7,"tid":8,"args":{"sort_index":3,"sort_index":4}},
      {"ph":"M","name":"process_uptime_seconds","pid":7,"args":{"uptime":5}},
      {"ph":"M","name":"thread_name","pid":7,"tid":8,"cat":"x","args":{"n\u0061me":"esc"}},
      {"ph":"C","name":"mem","id":3,"cat":"c","pid":1,"tid":2,"ts":5,"args":{"a":1,"a":2}},
      {"ph":"t","name":"fl","id":"0x1","pid":1,"tid":2,"ts":6,"bp":"e"},
      {"ph":"I","name":"mark","pid":1,"tid":2,"ts":7}
    ]})");
    CHECK(r == std::vector<std::string>{
                   R"({"type":"meta","name":"process_name","pid":7,"tid":null,"ts_us":null,"value":"python","args":{"name":"python"},"extra":null})",
                   R"({"type":"meta","name":"process_labels","pid":7,"tid":null,"ts_us":null,"value":"GPU 0","args":{"labels":"GPU 0"},"extra":null})",
                   R"({"type":"meta","name":"thread_sort_index","pid":7,"tid":8,"ts_us":null,"value":4,"args":{"sort_index":3,"sort_index":4},"extra":null})",
                   R"({"type":"meta","name":"process_uptime_seconds","pid":7,"tid":null,"ts_us":null,"value":null,"args":{"uptime":5},"extra":null})",
                   R"({"type":"meta","name":"thread_name","pid":7,"tid":8,"ts_us":null,"value":"esc","args":{"n\u0061me":"esc"},"extra":{"cat":"x"}})",
                   R"({"type":"counter","name":"mem","cat":"c","id":3,"pid":1,"tid":2,"ts_us":5,"values":{"a":1,"a":2},"extra":null})",
                   R"({"type":"flow","ph":"t","name":"fl","cat":null,"id":"0x1","bp":"e","pid":1,"tid":2,"ts_us":6,"args":null,"extra":null})",
                   R"({"type":"instant","name":"mark","cat":null,"ph":"I","scope":null,"pid":1,"tid":2,"ts_us":7,"args":null,"extra":null})",
               });
}

TEST_CASE("chrome_trace::the document: members in place, two traceEvents, breaks, a byte order mark") {
    // every member other than traceEvents a trace_info at its place; a second traceEvents
    // continues the numbering
    CHECK(run(R"({"a":[1, 2],"traceEvents":[5],"b":"x","traceEvents":[{"ph":"X"},6],"c":null})") ==
          std::vector<std::string>{R"({"type":"trace_info","key":"a","value":[1,2]})", R"({"type":"error","index":0,"message":M})",
                                   R"({"type":"trace_info","key":"b","value":"x"})",
                                   R"({"type":"span","name":null,"cat":null,"ph":"X","pid":null,"tid":null,"ts_us":null,"dur_us":null,"args":null,"extra":null})",
                                   R"({"type":"error","index":2,"message":M})", R"({"type":"trace_info","key":"c","value":null})"});
    // an object without traceEvents: trace_info only (a PyTorch execution trace)
    CHECK(run(R"({"schema":"1.0","nodes":[{"id":1}]})") ==
          std::vector<std::string>{R"({"type":"trace_info","key":"schema","value":"1.0"})",
                                   R"({"type":"trace_info","key":"nodes","value":[{"id":1}]})"});
    // breaks: one error (index null outside the events), reading stops; a member complete
    // before the break stands
    CHECK(run(R"({"a":1,})") == std::vector<std::string>{R"({"type":"trace_info","key":"a","value":1})",
                                                         R"({"type":"error","index":null,"message":M})"});
    CHECK(run(R"({"a":12)") == std::vector<std::string>{R"({"type":"trace_info","key":"a","value":12})",
                                                        R"({"type":"error","index":null,"message":M})"});
    for (std::string_view doc : {R"({"traceEvents":{"ph":"X"}})", R"({"traceEvents":3})", R"(7)", R"("x")",
                                 R"({"traceEvents":[]} x)", R"({"a":NaN})", R"({"a":[1,]})"}) {
        INFO(doc);
        CHECK(run(doc) == std::vector<std::string>{R"({"type":"error","index":null,"message":M})"});
        CHECK(!outcome(doc).ok());
    }
    // inside the events: the index of the event being read, or of the next one between events
    CHECK(run(R"([{"ph":"X"}, {"ph": NaN}])").back() == R"({"type":"error","index":1,"message":M})");
    CHECK(run(R"([{"ph":"X"} {"ph":"X"}])").back() == R"({"type":"error","index":1,"message":M})");
    // a UTF-8 byte order mark at the start is skipped (whole, or cut in any chunking: below)
    CHECK(run("\xEF\xBB\xBF[{\"ph\":\"i\"}]").size() == 1);
    CHECK(outcome("\xEF\xBB\xBF[]").ok());
    CHECK(!outcome("\xEF\xBB[]").ok()); // (part of a mark is no mark)
    // an error's position counts the mark's bytes (offset 8 is the `}` after `, `; column 9)
    const logscan::error after_mark = outcome("\xEF\xBB\xBF[{}, }");
    CHECK(after_mark.line == 1);
    CHECK(after_mark.offset == 8);
    CHECK(after_mark.column == 9);
    CHECK(run("\xEF") == std::vector<std::string>{R"({"type":"error","index":null,"message":M})"}); // (once: fuzz finding)
}

TEST_CASE("chrome_trace::identical records under any chunking, down to 1 byte") {
    logscan::test::check_chunk_invariance(example, [](logscan::test::chunk_list c) { return run_chunks(c); });
    logscan::test::check_chunk_invariance(std::string("\xEF\xBB\xBF") + std::string(example),
                                          [](logscan::test::chunk_list c) { return run_chunks(c); }, 4);
#if LOGSCAN_TEST_GZIP
    logscan::test::check_chunk_invariance(trace("event_sync_trace.json.gz"), [](logscan::test::chunk_list c) { return run_chunks(c); }, 6);
#endif
}

namespace {
// Records (NDJSON lines, messages kept) and the outcome of a parse, events read in one pass
// or through the reader's events alone; `whole`: the events read in one pass.
struct fused_run {
    std::vector<std::string> out;
    std::uint64_t whole = 0;
};
// The NDJSON visitor `v`, stopping the parse at its `at`-th record.
template <class V>
struct stopping {
    V& v;
    std::uint64_t at = ~std::uint64_t{0}, n = 0;
    logscan::flow step() { return ++n >= at ? logscan::flow::stop : logscan::flow::proceed; }
    logscan::flow on_span(const ct::span& r) { return v.on_span(r), step(); }
    logscan::flow on_instant(const ct::instant& r) { return v.on_instant(r), step(); }
    logscan::flow on_counter(const ct::counter& r) { return v.on_counter(r), step(); }
    logscan::flow on_meta(const ct::meta& r) { return v.on_meta(r), step(); }
    logscan::flow on_flow(const ct::flow_event& r) { return v.on_flow(r), step(); }
    logscan::flow on_event(const ct::event& r) { return v.on_event(r), step(); }
    logscan::flow on_trace_info(const ct::trace_info& r) { return v.on_trace_info(r), step(); }
    logscan::flow on_error(const logscan::error& e) { return v.on_error(e), step(); }
};
using fused_writer = logscan::ndjson_writer<collect_sink>;
using fused_visitor = stopping<ct::ndjson_visitor<fused_writer>>;
// Buffers made once per pair of capacities, for parsers made one after another (as a parse in
// parts does: each run also checks that nothing a parser before left in them is read)
struct fused_buffers {
    std::vector<std::pair<ct::options, std::unique_ptr<ct::parser<fused_visitor>::buffers>>> made;
    ct::parser<fused_visitor>::buffers& operator()(const ct::options& o) {
        for (auto& [opt, b] : made)
            if (opt.scratch_capacity == o.scratch_capacity && opt.open_capacity == o.open_capacity) return *b;
        made.emplace_back(o, std::make_unique<ct::parser<fused_visitor>::buffers>(o));
        return *made.back().second;
    }
};
fused_run run_fused(logscan::test::chunk_list chunks, bool fuse, ct::options o, std::uint64_t stop_at = ~std::uint64_t{0},
                    fused_buffers* buffers = nullptr) {
    std::string text;
    char buf[4096];
    fused_writer w(collect_sink{&text}, buf);
    ct::ndjson_visitor<fused_writer> nd{w};
    fused_visitor v{nd, stop_at};
    std::optional<ct::parser<fused_visitor>> made;
    ct::parser<fused_visitor>& p = buffers != nullptr ? made.emplace(v, (*buffers)(o)) : made.emplace(v, o);
    p.fuse_objects(fuse);
    for (auto ch : chunks) p.feed(ch);
    p.finish();
    w.flush();
    fused_run r{lines_of(text), p.whole_objects()};
    const logscan::error& e = p.result();
    r.out.push_back("result " + std::to_string(static_cast<int>(e.code)) + " " + std::to_string(e.offset) + " " +
                    std::to_string(e.line) + ":" + std::to_string(e.column) + " " + std::string(e.message));
    return r;
}
struct rng {
    std::uint64_t s;
    std::uint64_t next(std::uint64_t n) {
        s += 0x9E3779B97F4A7C15u;
        std::uint64_t z = s;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
        return (z ^ (z >> 31)) % n;
    }
};
// A random trace: events of random members (mapped keys, escaped keys, other keys; strings
// with escapes, numbers, literals, objects and arrays with blanks and line feeds), B/E pairs
// and strays, non-objects.
std::string random_trace(rng& m) {
    static const char* const blanks[] = {"", "", " ", "\n  ", "\t", " \r\n"};
    const auto b = [&] { return std::string(blanks[m.next(std::size(blanks))]); };
    static const char* const keys[] = {"ph", "name", "cat", "pid", "tid", "ts", "dur", "args", "s", "id", "bp",
                                       "cname", "x\\u0070h", "p\\u0068", "", "na\\\"me"};
    static const char* const phases[] = {"\"X\"", "\"B\"", "\"E\"", "\"i\"", "\"C\"", "\"M\"", "\"s\"", "\"f\"",
                                         "\"n\"", "\"\\u0058\"", "7", "null", "\"XX\""};
    static const char* const scalars[] = {"\"a\"", "\"\"", "\"k\\u00e9\\n\"", "\"\xc3\xa9\"", "12", "-0.5e3",
                                          "1712195495519689.047", "true", "false", "null", "\"process_name\"",
                                          "\"thread_name\"", "0", "\"x\\\"y\""};
    std::function<std::string(int)> value = [&](int depth) -> std::string {
        const std::uint64_t k = depth > 2 ? 0 : m.next(4);
        if (k == 0 || k == 1) return scalars[m.next(std::size(scalars))];
        if (k == 2) {
            std::string o = "{" + b();
            const std::uint64_t n = m.next(4);
            for (std::uint64_t i = 0; i < n; ++i)
                o += (i ? "," + b() : "") + "\"" + keys[m.next(std::size(keys))] + "\"" + b() + ":" + b() + value(depth + 1);
            return o + b() + "}";
        }
        std::string a = "[" + b();
        const std::uint64_t n = m.next(4);
        for (std::uint64_t i = 0; i < n; ++i) a += (i ? "," + b() : "") + value(depth + 1);
        return a + b() + "]";
    };
    std::string d = m.next(4) == 0 ? "[" : "{\"schemaVersion\":" + b() + "1," + b() + "\"traceEvents\":" + b() + "[";
    const std::uint64_t events = 1 + m.next(12);
    for (std::uint64_t e = 0; e < events; ++e) {
        d += (e ? "," : "") + b();
        if (m.next(15) == 0) {
            d += value(1);
            continue;
        }
        std::string ev = "{" + b();
        const std::uint64_t members = m.next(9);
        for (std::uint64_t j = 0; j < members; ++j) {
            // (ph first in half the events, elsewhere or absent in the others)
            const std::string key = (j == 0 && m.next(2) == 0) || m.next(3) == 0 ? "ph" : keys[m.next(std::size(keys))];
            const std::string v = key == "ph"     ? phases[m.next(std::size(phases))]
                                  : key == "args" ? value(1)
                                  : key == "pid" || key == "tid" ? std::string(m.next(2) ? "1" : "\"a\"")
                                                                 : value(2);
            ev += (j ? "," + b() : "") + "\"" + key + "\"" + b() + ":" + b() + v;
        }
        d += ev + b() + "}";
    }
    d += b() + "]";
    if (d.front() == '{') d += "," + b() + "\"displayTimeUnit\":" + b() + "\"ms\"}";
    return d;
}
} // namespace

TEST_CASE("chrome_trace::an event read in one pass gives what the reader's events give, damaged or not, any limits") {
    // random traces and damaged copies, with small limits (the scratch buffer, the open-span
    // store): records, errors and the outcome (its position, line feeds inside events read in
    // one pass counted) are the same with events read in one pass (whole, or in random chunks)
    // as through the reader's events alone
    // (the parsers on buffers made once for each pair of limits: a parser with its own, 11 MiB
    // by default, took 86 of this case's 88 s under clang's ASan, which maps and poisons them
    // anew each time; the parser that makes its own is the one of every other case)
    rng m{11};
    std::uint64_t whole = 0, events = 0;
    fused_buffers buffers;
    for (int round = 0; round < 1500; ++round) {
        const std::string d = random_trace(m);
        for (int copy = 0; copy < 3; ++copy) {
            const std::string text = copy == 0 ? d : test_support::damaged_json([&](std::uint64_t n) { return m.next(n); }, d);
            ct::options o;
            if (round % 3 == 1) {
                static const std::size_t scratch[] = {8, 24, 40, 64, 120, 400};
                static const std::size_t open[] = {1, 16, 64, 256};
                o.scratch_capacity = scratch[m.next(std::size(scratch))];
                o.open_capacity = open[m.next(std::size(open))];
            }
            // (a stop at a record, in a round of four: where it stops is compared too)
            const std::uint64_t stop_at = round % 4 == 3 ? 1 + m.next(8) : ~std::uint64_t{0};
            const logscan::test::chunked_input one(text, {});
            const fused_run slow = run_fused(one.chunks(), false, o, stop_at, &buffers);
            const fused_run fused = run_fused(one.chunks(), true, o, stop_at, &buffers);
            CAPTURE(text);
            CAPTURE(o.scratch_capacity);
            CAPTURE(stop_at);
            REQUIRE(fused.out == slow.out);
            // (with small limits, where a parser's own buffers cost little: against one with
            // its own, which no parser before it has written)
            if (round % 3 == 1) REQUIRE(run_fused(one.chunks(), false, o, stop_at).out == slow.out);
            CHECK(slow.whole == 0);
            const auto parts = logscan::test::chunked_input::random(text, m.next(1000), 1 + m.next(200));
            CHECK(run_fused(parts.chunks(), true, o, stop_at, &buffers).out == slow.out);
            whole += fused.whole;
            events += static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '{'));
        }
    }
    // (a share of the events is read in one pass: the others hold escapes, damage... and go
    // through the events)
    CHECK(whole > events / 8);
}

TEST_CASE("chrome_trace::an event read in one pass: its record whether or not every member is one it maps") {
    // formats.md 6A.2: the last occurrence of a key wins; members the record does not map go
    // to extra in input order; the last ph says which record. Each event alone, read in one
    // pass (whole_objects) and through the reader's events, the same records.
    const auto one = [](const std::string& ev) {
        const std::string doc = "[" + ev + "]";
        const logscan::test::chunked_input in(doc, {});
        const fused_run fused = run_fused(in.chunks(), true, {}), slow = run_fused(in.chunks(), false, {});
        CHECK(fused.out == slow.out);
        return fused;
    };
    // every member mapped: ph after the others, a key given twice
    fused_run r = one(R"({"name":"a","ts":1,"ph":"X","dur":2,"name":"b"})");
    CHECK(r.whole == 1);
    CHECK(r.out.front() == R"({"type":"span","name":"b","cat":null,"ph":"X","pid":null,"tid":null,"ts_us":1,"dur_us":2,"args":null,"extra":null})");
    r = one(R"({"ph":"i","ph":"X","ts":1,"ts":3,"dur":2})"); // (the last ph, the last ts)
    CHECK(r.out.front() == R"({"type":"span","name":null,"cat":null,"ph":"X","pid":null,"tid":null,"ts_us":3,"dur_us":2,"args":null,"extra":null})");
    // no ph: an event, its members all mapped by it
    r = one(R"({"name":"a","cat":"c","id":7})");
    CHECK(r.whole == 1);
    CHECK(r.out.front() == R"({"type":"event","ph":null,"name":"a","cat":"c","id":7,"pid":null,"tid":null,"ts_us":null,"dur_us":null,"args":null,"extra":null})");
    // a key another record maps (dur on an instant), an unknown key: in extra, in input order
    r = one(R"({"cname":"good","ph":"i","ts":5,"dur":9})");
    CHECK(r.whole == 1);
    CHECK(r.out.front() == R"({"type":"instant","name":null,"cat":null,"ph":"i","scope":null,"pid":null,"tid":null,"ts_us":5,"args":null,"extra":{"cname":"good","dur":9}})");
    // 64 members are read in one pass, 65 through the events: the same record
    std::string ts64 = R"({"ph":"X","dur":3)", ts65 = ts64;
    for (int i = 1; i <= 62; ++i) ts64 += ",\"ts\":" + std::to_string(i);
    for (int i = 1; i <= 63; ++i) ts65 += ",\"ts\":" + std::to_string(i);
    const std::string want64 = R"({"type":"span","name":null,"cat":null,"ph":"X","pid":null,"tid":null,"ts_us":62,"dur_us":3,"args":null,"extra":null})";
    r = one(ts64 + "}");
    CHECK(r.whole == 1);
    CHECK(r.out.front() == want64);
    r = one(ts65 + "}");
    CHECK(r.whole == 0);
    CHECK(r.out.front() == R"({"type":"span","name":null,"cat":null,"ph":"X","pid":null,"tid":null,"ts_us":63,"dur_us":3,"args":null,"extra":null})");
}

TEST_CASE("chrome_trace::no allocation while parsing (after construction)") {
    struct totals {
        double dur = 0;
        std::uint64_t n = 0, bytes = 0;
        void on_span(const ct::span& s) {
            dur += ct::number_of(s.dur_us).value_or(0);
            bytes += s.args ? s.args->text.size() : 0;
        }
        void on_meta(const ct::meta&) { ++n; }
        void on_flow(const ct::flow_event&) { ++n; }
        void on_error(const logscan::error&) { ++n; }
        void on_trace_info(const ct::trace_info& t) { bytes += t.key.size(); }
    } t;
    ct::parser<totals> p(t);
    const std::string text(example);
    LOGSCAN_CHECK_NO_ALLOC(for (std::size_t i = 0; i < text.size(); i += 7) p.feed(std::string_view(text).substr(i, 7)); p.finish());
    CHECK(p.result().ok());
    CHECK(t.dur == doctest::Approx(900.5 + 6 + 102.25 + 70.25));
    CHECK(t.n == 1 + 2 + 3); // (a meta, two flows, three errors)
    // the same fed whole: its events read in one pass (on_whole_object), still no allocation
    totals u;
    ct::parser<totals> q(u);
    LOGSCAN_CHECK_NO_ALLOC(q.feed(text); q.finish());
    CHECK(q.result().ok());
    CHECK(q.whole_objects() > 0);
    CHECK(u.dur == t.dur);
    CHECK(u.n == t.n);
    // a parser made on buffers made before (a parse in parts' parser per part): not even its
    // construction allocates (where malloc is counted, a parser making its own does), and one
    // made after a parser left them mid-document (a B open, inside a string, another
    // document's bytes in them) reads as a parser with buffers of its own
    if (logscan::test::counts_malloc()) {
        totals own;
        CHECK(logscan::test::count_allocations([&] { ct::parser<totals> r(own); }) > 0);
    }
    ct::parser<totals>::buffers mem;
    REQUIRE(mem.ok());
    for (const char* left : {R"({"traceEvents":[{"ph":"B","name":"open","cat":"c","pid":1,"tid":1,"ts":5,"args":{"k":"cut in a str)",
                             R"([{"ph":"X","name":"a long name, longer than the example's","ts":1,"dur":77,"args":{"n":[1,2,3]}},{"ph":"B","pid":2,"tid":2,"ts":9,"name":"b"},{"ph")"}) {
        totals before;
        {
            ct::parser<totals> r(before, mem);
            r.feed(left); // (and no finish: left as it was)
        }
        totals w;
        logscan::error result;
        const std::size_t allocations = logscan::test::count_allocations([&] {
            ct::parser<totals> r(w, mem);
            r.feed(text);
            r.finish();
            result = r.result();
        });
        CHECK(allocations == 0);
        CHECK(result.ok());
        CHECK(w.dur == t.dur);
        CHECK(w.n == t.n);
        CHECK(w.bytes == t.bytes);
    }
}

TEST_CASE("chrome_trace::buffers: one parser at a time, and capacities that cannot be allocated") {
    struct none {
        void on_span(const ct::span&) {}
    };
    ct::parser<none>::buffers mem;
    REQUIRE(mem.ok());
    none v;
    {
        ct::parser<none> first(v, mem);
        CHECK(first.result().ok());
        ct::parser<none> second(v, mem); // (refused: the first holds them)
        CHECK(second.result().code == logscan::error_code::io_error);
        CHECK(second.result().message == "the parser's buffers are in use by another parser");
        CHECK(second.feed(R"([{"ph":"X","ts":1,"dur":2}])") == logscan::flow::stop);
        CHECK(first.feed(R"([{"ph":"X","ts":1,"dur":2}])") == logscan::flow::proceed); // (the first reads on)
        CHECK(first.finish() == logscan::flow::proceed);
    }
    ct::parser<none> third(v, mem); // (free again once the first is gone)
    CHECK(third.feed(R"([{"ph":"X","ts":1,"dur":2}])") == logscan::flow::proceed);
    CHECK(third.finish() == logscan::flow::proceed);
    // capacities whose sum overflows: no buffers (nothing asked of malloc), an io_error, nothing read
    for (const bool scratch : {true, false}) {
        ct::options o;
        (scratch ? o.scratch_capacity : o.open_capacity) = ~std::size_t{0};
        ct::parser<none>::buffers huge(o);
        CHECK_FALSE(huge.ok());
        ct::parser<none> on_huge(v, huge), own(v, o);
        for (ct::parser<none>* p : {&on_huge, &own}) {
            CHECK(p->result().code == logscan::error_code::io_error);
            CHECK(p->result().message == "cannot allocate the parser's buffers");
            CHECK(p->feed("[]") == logscan::flow::stop);
            CHECK(p->finish() == logscan::flow::stop);
        }
    }
}

TEST_CASE("chrome_trace::no allocation past the open-span store: marks, and past the room kept for them") {
    // 20 threads each open a B too large for a store of 64 bytes: 16 leave a mark (mark_entries),
    // 4 do not; each thread's E is then an error too. Thread 99's small B fits and closes as a
    // span. 20 + 20 errors (the E's of the 16 marked threads close their marks, the other 4
    // find no open B), 1 span; counted from the input, not from a run.
    struct counts {
        std::uint64_t spans = 0, errors = 0, unmarked = 0, marked_e = 0, lone_e = 0;
        void on_span(const ct::span&) { ++spans; }
        void on_error(const logscan::error& e) {
            ++errors;
            unmarked += e.message.find("nor does a mark") != std::string_view::npos;
            marked_e += e.message.starts_with("E closes a B event that did not fit");
            lone_e += e.message.starts_with("E without an open B");
        }
    };
    const std::string big(100, 'b');
    std::string doc = "[";
    for (int t = 0; t < 20; ++t)
        doc += R"({"ph":"B","name":")" + big + R"(","pid":1,"tid":)" + std::to_string(t) + R"(,"ts":1},)";
    doc += R"({"ph":"B","name":"s","pid":1,"tid":99,"ts":1},{"ph":"E","pid":1,"tid":99,"ts":2},)";
    for (int t = 0; t < 20; ++t) doc += R"({"ph":"E","pid":1,"tid":)" + std::to_string(t) + R"(,"ts":2})" + (t < 19 ? "," : "]");
    for (const std::size_t piece : {std::size_t{1}, std::size_t{7}, doc.size()}) {
        CAPTURE(piece);
        counts c;
        ct::parser<counts> p(c, ct::options{.open_capacity = 64});
        LOGSCAN_CHECK_NO_ALLOC(for (std::size_t i = 0; i < doc.size(); i += piece) p.feed(std::string_view(doc).substr(i, piece));
                               p.finish());
        CHECK(p.result().ok());
        CHECK(c.spans == 1);
        CHECK(c.errors == 40);
        CHECK(c.unmarked == 4); // (the B's of threads 16 to 19: past mark_entries)
        CHECK(c.marked_e == 16);
        CHECK(c.lone_e == 4);
    }
}

TEST_CASE("chrome_trace::bounded storage: an event too large, B events past the open-span store") {
    std::string big = R"({"ph":"X","name":")" + std::string(300, 'n') + R"("})";
    const std::string doc = "[{\"ph\":\"i\"}," + big + ",{\"ph\":\"i\"}]";
    const auto r = run(doc, ct::options{.scratch_capacity = 256});
    REQUIRE(r.size() == 3);
    CHECK(r[1] == R"({"type":"error","index":1,"message":M})");
    CHECK(of_type(r, "instant").size() == 2);
    struct codes { // (its code says which limit: too_long, as the line formats' long lines)
        std::vector<logscan::error_code> seen;
        void on_error(const logscan::error& e) { seen.push_back(e.code); }
    } c;
    (void)ct::parse(std::string_view(doc), c, ct::options{.scratch_capacity = 256});
    CHECK(c.seen == std::vector<logscan::error_code>{logscan::error_code::too_long});
    // B events: a B keeps its pid, tid, name, cat, ts, args and other members' text: here
    // 1 + 1 + 16 (`"block number N"`) + 1 = 19 bytes, so a store of 64 holds three; the others
    // are errors at their index, and so are the E's that close them (the innermost: the first
    // three E's), which close no B that was kept
    std::string bs = "[";
    for (int i = 0; i < 6; ++i) bs += R"({"ph":"B","name":"block number )" + std::to_string(i) + R"(","pid":1,"tid":1,"ts":1},)";
    for (int i = 0; i < 6; ++i) bs += std::string(R"({"ph":"E","pid":1,"tid":1,"ts":2})") + (i < 5 ? "," : "]");
    const auto b = run(bs, ct::options{.open_capacity = 64});
    CHECK(b == std::vector<std::string>{
                   R"({"type":"error","index":3,"message":M})", R"({"type":"error","index":4,"message":M})",
                   R"({"type":"error","index":5,"message":M})", R"({"type":"error","index":6,"message":M})",
                   R"({"type":"error","index":7,"message":M})", R"({"type":"error","index":8,"message":M})",
                   R"({"type":"span","name":"block number 2","cat":null,"ph":"B","pid":1,"tid":1,"ts_us":1,"dur_us":1,"args":null,"extra":null})",
                   R"({"type":"span","name":"block number 1","cat":null,"ph":"B","pid":1,"tid":1,"ts_us":1,"dur_us":1,"args":null,"extra":null})",
                   R"({"type":"span","name":"block number 0","cat":null,"ph":"B","pid":1,"tid":1,"ts_us":1,"dur_us":1,"args":null,"extra":null})"});
    // a B kept after one that was dropped (room made by another thread's E) is closed first,
    // then the dropped one (an error, no span), then the one before it; a dropped B never
    // closed has its error at the B only, one kept has "never closed" at the end. Bytes kept
    // (pid, tid, name, ts): x 1 + 1 + 42 + 1 = 45, a 6, b 25 (does not fit beside x and a), c 6
    const std::string x(40, 'x'), bb(20, 'b');
    const auto b_on = [](int tid, const std::string& name) {
        return R"({"ph":"B","name":")" + name + R"(","pid":1,"tid":)" + std::to_string(tid) + R"(,"ts":1})";
    };
    const auto e_on = [](int tid) { return R"({"ph":"E","pid":1,"tid":)" + std::to_string(tid) + R"(,"ts":2})"; };
    const std::string mixed = "[" + b_on(2, x) + "," + b_on(1, "a") + "," + b_on(1, bb) + "," + e_on(2) + "," + b_on(1, "c") +
                              "," + e_on(1) + "," + e_on(1) + "," + e_on(1) + "," + b_on(1, bb) + "," + b_on(3, x) + "," +
                              e_on(1) + "," + b_on(4, "d") + "]";
    const auto span_of = [](const std::string& name, int tid) {
        return R"({"type":"span","name":")" + name + R"(","cat":null,"ph":"B","pid":1,"tid":)" + std::to_string(tid) +
               R"(,"ts_us":1,"dur_us":1,"args":null,"extra":null})";
    };
    // (index 9: x on thread 3 does not fit beside the b of index 8; index 10's E closes that
    // b; d of index 11 is never closed)
    CHECK(run(mixed, ct::options{.open_capacity = 64}) ==
          std::vector<std::string>{R"({"type":"error","index":2,"message":M})", span_of(x, 2), span_of("c", 1),
                                   R"({"type":"error","index":6,"message":M})", span_of("a", 1),
                                   R"({"type":"error","index":9,"message":M})", span_of(bb, 1),
                                   R"({"type":"error","index":11,"message":M})"});
    // a mark takes none of the store's room: x (45 bytes) kept, y (its args 110 bytes) dropped
    // and marked, then z (19 bytes: 45 + 19 = 64) still fits, and closes as a span
    const std::string y_args = R"({"a":")" + std::string(100, 'a') + R"("})";
    const std::string beside = "[" + b_on(1, x) + R"(,{"ph":"B","name":"y","pid":1,"tid":2,"ts":1,"args":)" + y_args + "}," +
                               b_on(3, "block number 0") + "," + e_on(3) + "," + e_on(2) + "," + e_on(1) + "]";
    CHECK(run(beside, ct::options{.open_capacity = 64}) ==
          std::vector<std::string>{R"({"type":"error","index":1,"message":M})", span_of("block number 0", 3),
                                   R"({"type":"error","index":4,"message":M})", span_of(x, 1)});
    // nor any of its entries: a store of 200 bytes holds 200 / 32 + 16 = 22 B's; 21 kept, one
    // dropped (a mark), one more kept: 22, all closed as spans, the mark's E an error
    std::string many = "[";
    for (int i = 0; i < 21; ++i) many += b_on(1, "b") + ",";
    many += R"({"ph":"B","name":"big","pid":1,"tid":1,"ts":1,"args":{"a":")" + std::string(300, 'a') + R"("}},)";
    many += b_on(1, "last") + ",";
    for (int i = 0; i < 23; ++i) many += e_on(1) + (i < 22 ? "," : "]");
    const auto m = run(many, ct::options{.open_capacity = 200});
    REQUIRE(m.size() == 24);
    CHECK(m[0] == R"({"type":"error","index":21,"message":M})");
    CHECK(m[1] == span_of("last", 1));
    CHECK(m[2] == R"({"type":"error","index":24,"message":M})");
    for (std::size_t i = 3; i < m.size(); ++i) CHECK(m[i] == span_of("b", 1));
}

TEST_CASE("chrome_trace::review findings: escaped ph, long strings and keys, merged members too large, a stop on a break") {
    // an escaped phase is the phase it spells (\u0058 = X, \u0042 = B, \u0045 = E)
    CHECK(run(R"([{"ph":"\u0058","name":"a","dur":1},{"ph":"\u0042","name":"b","ts":1},{"ph":"\u0045","ts":3}])") ==
          std::vector<std::string>{
              R"({"type":"span","name":"a","cat":null,"ph":"X","pid":null,"tid":null,"ts_us":null,"dur_us":1,"args":null,"extra":null})",
              R"({"type":"span","name":"b","cat":null,"ph":"B","pid":null,"tid":null,"ts_us":1,"dur_us":2,"args":null,"extra":null})"});
    // a string element longer than the scratch buffer is an event that is no object, not a break
    const std::string z(70000, 'z');
    CHECK(run("[{\"ph\":\"i\"},\"" + z + "\",{\"ph\":\"i\"}]") ==
          std::vector<std::string>{
              R"({"type":"instant","name":null,"cat":null,"ph":"i","scope":null,"pid":null,"tid":null,"ts_us":null,"args":null,"extra":null})",
              R"({"type":"error","index":1,"message":M})",
              R"({"type":"instant","name":null,"cat":null,"ph":"i","scope":null,"pid":null,"tid":null,"ts_us":null,"args":null,"extra":null})"});
    // a top-level key of any length (up to the reader's scratch) is a trace_info's key
    const std::string k(300, 'k');
    CHECK(run("{\"" + k + "\":1}") == std::vector<std::string>{R"({"type":"trace_info","key":")" + k + R"(","value":1})"});
    // threads and args keys compare decoded whatever their length; so does a meta event's args key
    const std::string pid(300, 'a');
    CHECK(run("[{\"ph\":\"B\",\"pid\":\"" + pid + "\",\"ts\":1},{\"ph\":\"E\",\"pid\":\"" + pid.substr(1) + "\\u0061\",\"ts\":2}]").size() == 1);
    CHECK(run(R"([{"ph":"M","name":"thread_sort_index","args":{"\u0073\u006f\u0072\u0074\u005f\u0069\u006e\u0064\u0065\u0078":3}}])") ==
          std::vector<std::string>{
              R"({"type":"meta","name":"thread_sort_index","pid":null,"tid":null,"ts_us":null,"value":3,"args":{"\u0073\u006f\u0072\u0074\u005f\u0069\u006e\u0064\u0065\u0078":3},"extra":null})"});
    // exponents past what a difference of 400 digits holds: no duration (not a wrong one)
    CHECK(run(R"([{"ph":"B","ts":1e1000000001},{"ph":"E","ts":1e1000000000}])") ==
          std::vector<std::string>{
              R"({"type":"span","name":null,"cat":null,"ph":"B","pid":null,"tid":null,"ts_us":1e1000000001,"dur_us":null,"args":null,"extra":null})"});
    // merged args that do not fit the scratch buffer, each event fitting it: an error at the E,
    // no half-made record
    const std::string ka(40, 'a'), kb(40, 'b');
    const auto m = run("[{\"ph\":\"B\",\"args\":{\"" + ka + "\":1}},{\"ph\":\"E\",\"args\":{\"" + kb + "\":2}}]",
                       ct::options{.scratch_capacity = 90});
    CHECK(m == std::vector<std::string>{R"({"type":"error","index":1,"message":M})"});
    // the visitor's stop on a break's record ends the parse there: no B-never-closed after it
    struct stopper {
        int errors = 0;
        logscan::flow on_error(const logscan::error&) {
            ++errors;
            return logscan::flow::stop;
        }
    } st;
    CHECK(ct::parse(std::string_view(R"({"traceEvents":[{"ph":"B","pid":1,"tid":1}],"traceEvents":5})"), st).code ==
          logscan::error_code::stopped);
    CHECK(st.errors == 1);
}

#if LOGSCAN_TEST_GZIP
TEST_CASE("chrome_trace::the public Kineto traces: counts from the events' ph, records read off the files") {
    // counted with Python's json module: traceEvents 1408 (X 868, s/f 500, M 38, i 2), 4 other
    // top-level members; 92 (33, 21, 36, 2) and 5; 220 (113, 45, 60, 2) and 6
    const struct {
        const char* file;
        std::size_t span, flow, meta, instant, info;
    } cases[] = {{"benchmark_result_2869224_1695835535_trace.json.gz", 868, 500, 38, 2, 4},
                 {"event_sync_trace.json.gz", 33, 21, 36, 2, 5},
                 {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", 113, 45, 60, 2, 6}};
    for (const auto& c : cases) {
        INFO(c.file);
        const auto r = run(trace(c.file));
        CHECK(of_type(r, "span").size() == c.span);
        CHECK(of_type(r, "flow").size() == c.flow);
        CHECK(of_type(r, "meta").size() == c.meta);
        CHECK(of_type(r, "instant").size() == c.instant);
        CHECK(of_type(r, "trace_info").size() == c.info);
        CHECK(r.size() == c.span + c.flow + c.meta + c.instant + c.info);
    }
    // the first event and the last, as the files print them
    const auto b = run(trace("benchmark_result_2869224_1695835535_trace.json.gz"));
    CHECK(of_type(b, "span").front() ==
          R"({"type":"span","name":"[param|cuda]","cat":"user_annotation","ph":"X","pid":2869224,"tid":2869224,"ts_us":1695835542514261,"dur_us":43425283,"args":{"External id":1,"Ev Idx":0},"extra":null})");
    CHECK(b.back() == R"({"type":"trace_info","key":"traceName","value":"benchmark_result_2869224_1695835535_trace.json"})");
    CHECK(of_type(b, "instant").back() ==
          R"({"type":"instant","name":"Record Window End","cat":null,"ph":"i","scope":"g","pid":"","tid":"","ts_us":1695835585940062,"args":null,"extra":null})");
    const auto m = run(trace("mi250_minitoy_train_ROCm6_2_kineto.json.gz"));
    CHECK(of_type(m, "span").front() ==
          R"({"type":"span","name":"autograd::engine::evaluate_function: MseLossBackward0","cat":"cpu_op","ph":"X","pid":597913,"tid":598009,"ts_us":4203669604595.407,"dur_us":340.024,"args":{"External id":513,"Record function id":35,"Sequence number":7,"Fwd thread id":1,"Ev Idx":0},"extra":null})");
}
#endif

TEST_CASE("chrome_trace::detection: an object with traceEvents, Kineto's head, a bare array of events; not an execution trace") {
    CHECK(ct::detect(R"({"traceEvents": [{"ph": "X"}]})") == 4);
    CHECK(ct::detect("{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [") == 2);
    CHECK(ct::detect("[{\"name\": \"a\", \"ph\": \"B\", \"ts\": 1}") == 3);
    // (a byte order mark first: detect_format passes over it before the detectors see the head)
    CHECK(logscan::detect_format("\xEF\xBB\xBF[{\"name\": \"a\", \"ph\": \"B\", \"ts\": 1}", false).format == "chrome-trace");
    CHECK(ct::detect(R"([{"name": "a", "ph": "B"}])") == 2);
    CHECK(ct::detect(R"({"schema": "1.0.2-chakra.0.0.4", "pid": 1, "nodes": [{"id": 1}]})") == 0);
    CHECK(ct::detect(R"([1, 2, {"ph": "X"}])") == 0);
    CHECK(ct::detect(R"({"calls": [], "device_metrics": {}})") == 0);
    CHECK(ct::detect("") == 0);
}
