// SPDX-License-Identifier: MIT
// chainer-memtrace (formats.md section 3) on sample 002 and on hand-written graphs. Expected
// values come from the input: counted and summed in this file with plain string operations
// that share nothing with the module, or read off the sample by hand (line numbers given).
#include <logscan/formats/chainer_memtrace.hpp>

#include <doctest/doctest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "support/alloc_counter.hpp"
#include "support/chunking.hpp"

namespace cm = logscan::chainer_memtrace;

namespace {

std::string sv(std::string_view s) { return std::string(s); }

// Every record as one string, in order.
struct recorder {
    std::vector<std::string> out;
    std::size_t headers = 0, buffers = 0, functions = 0, texts = 0, errors = 0;
    unsigned long long bytes = 0;
    std::set<std::uint64_t> ids;       // buffer ids listed
    std::vector<std::uint64_t> used;   // ids named by functions

    void on_header(const cm::header& h) {
        ++headers;
        out.push_back("header " + std::to_string(h.line) + " " + std::to_string(h.buffers) + " " + std::to_string(h.functions));
    }
    void on_buffer(const cm::buffer& b) {
        ++buffers;
        bytes += b.size;
        ids.insert(b.id);
        out.push_back("buffer " + std::to_string(b.line) + " " + std::to_string(b.id) + " " + std::to_string(b.size) + " " +
                      (b.name ? sv(*b.name) : std::string("null")));
    }
    void on_function(const cm::function& f) {
        ++functions;
        std::string s = "function " + std::to_string(f.line) + " #" + std::to_string(f.index) + " " + sv(f.direction) + " " +
                        sv(f.func_type) + " in:";
        for (const cm::input& in : f.inputs) {
            s += " " + std::to_string(in.id) + "/" + (in.role ? sv(*in.role) : std::string("null"));
            used.push_back(in.id);
        }
        s += " out:";
        for (std::uint64_t o : f.outputs) {
            s += " " + std::to_string(o);
            used.push_back(o);
        }
        s += " rank=" + (f.rank ? std::to_string(*f.rank) : std::string("none")) + " " + sv(f.params);
        out.push_back(s);
    }
    void on_text(const logscan::line& l) {
        ++texts;
        out.push_back("text " + std::to_string(l.number) + " " + sv(l.text));
    }
    void on_error(const logscan::error& e) {
        ++errors;
        out.push_back("error " + std::to_string(e.line) + " " + sv(e.message));
    }
};

std::vector<std::string> run_chunks(logscan::test::chunk_list chunks) {
    recorder r;
    cm::parser<recorder> p(r, cm::options{.max_line = 4096});
    for (auto c : chunks) p.feed(c);
    p.finish();
    return r.out;
}

recorder run(std::string_view text) {
    recorder r;
    REQUIRE(cm::parse(text, r).ok());
    return r;
}

const std::string& sample() {
    static const std::string s = logscan::test::read_file(logscan::test::sample_path("002_925085f7148f0ebf.txt"));
    return s;
}

} // namespace

TEST_CASE("chainer_memtrace::sample 002: counts, sums and ids computed from the text") {
    const std::string& s = sample();
    const std::vector<std::string_view> ls = logscan::test::lines_of(s);
    // from the text: line 1 is "86 92"; lines 2..87 the buffers; a record per direction line
    REQUIRE(ls[0] == "86 92");
    unsigned long long bytes = 0;
    for (std::size_t i = 1; i <= 86; ++i) {
        const std::string l(ls[i]);
        bytes += std::strtoull(l.c_str() + l.find(' ') + 1, nullptr, 10);
    }
    std::size_t directions = 0, forward = 0, ranks = 0;
    for (std::string_view l : ls) {
        directions += l == "forward" || l == "backward";
        forward += l == "forward";
        ranks += l.find("\"rank\": ") != std::string_view::npos;
    }
    CHECK(directions == 92);

    const recorder r = run(s);
    CHECK(r.headers == 1);
    CHECK(r.buffers == 86); // the header's count
    CHECK(r.ids.size() == 86);
    CHECK(r.bytes == bytes);
    CHECK(r.functions == directions);
    CHECK(r.texts == 0);
    CHECK(r.errors == 0);
    for (std::uint64_t id : r.used) CHECK(r.ids.count(id) == 1); // every input and output names a listed buffer

    struct dirs {
        std::size_t forward = 0, ranked = 0;
        void on_function(const cm::function& f) {
            forward += f.direction == "forward";
            ranked += f.rank.has_value();
        }
    } d;
    REQUIRE(cm::parse(s, d).ok());
    CHECK(d.forward == forward);
    CHECK(d.ranked == ranks);

    // first and last records, read off the sample (lines 1, 2, 87, 88-93, 801-807)
    CHECK(r.out[0] == "header 1 86 92");
    CHECK(r.out[1] == "buffer 2 0 12845056 null");
    CHECK(r.out[86] == "buffer 87 85 411041792 null");
    CHECK(r.out[87] == "function 88 #0 forward ReLU in: 17/null out: 15 rank=39 {\"_input_indexes_to_retain\": null, "
                       "\"_output_indexes_to_retain\": [0], \"_output_count\": 1, \"rank\": 39, \"lazy_grad_sum\": false}");
    CHECK(r.out.back() == "function 800 #91 backward MaxPooling2D in: 19/gradient 20/input 19/output out: 20 rank=9 "
                          "{\"kh\": 2, \"kw\": 2, \"sy\": 2, \"sx\": 2, \"ph\": 0, \"pw\": 0, \"cover_all\": true, "
                          "\"return_indices\": false, \"_used_cudnn\": true, \"_input_indexes_to_retain\": [0], "
                          "\"_output_indexes_to_retain\": [0], \"_output_count\": 1, \"rank\": 9, \"lazy_grad_sum\": false}");
}

TEST_CASE("chainer_memtrace::identical records under any chunking, down to 1 byte") {
    logscan::test::check_chunk_invariance(sample(), run_chunks, 6);
    const std::string hand = "2 2\r\n0 16 _\r\n1 32 my buffer  \r\nforward\r\n1 1\r\n0 _\r\n1\r\nReLU\r\n{\"rank\": 3}\r\n"
                             "backward\r\n2 1\r\n1 gradient\r\n";
    logscan::test::check_chunk_invariance(hand, run_chunks);
}

TEST_CASE("chainer_memtrace::no allocation while parsing (after construction)") {
    struct peak {
        unsigned long long bytes = 0;
        std::size_t ios = 0;
        std::int64_t rank = 0;
        void on_buffer(const cm::buffer& b) { bytes += b.size; }
        void on_function(const cm::function& f) {
            ios += f.inputs.size() + f.outputs.size();
            rank += f.rank.value_or(0);
        }
    } v;
    cm::parser<peak> p(v, cm::options{.max_line = 4096});
    const std::string& text = sample();
    LOGSCAN_CHECK_NO_ALLOC(for (std::size_t i = 0; i < text.size(); i += 1000) p.feed(std::string_view(text).substr(i, 1000)); p.finish());
    // the inputs and outputs: the counts lines' sums, from the text
    std::size_t ios = 0;
    const std::vector<std::string_view> ls = logscan::test::lines_of(text);
    for (std::size_t i = 0; i + 1 < ls.size(); ++i) {
        if (ls[i] != "forward" && ls[i] != "backward") continue;
        const std::string c(ls[i + 1]);
        char* end = nullptr;
        ios += std::strtoull(c.c_str(), &end, 10);
        ios += std::strtoull(end, nullptr, 10);
    }
    CHECK(v.ios == ios);
    CHECK(v.bytes > 0);
}

TEST_CASE("chainer_memtrace::hand-written: names with spaces, nested params, CRLF, no final newline") {
    const recorder r = run("warming up  \r\n"
                           "3 2\r\n"
                           "0 802816 _\r\n"
                           "1 1728 /predictor/conv1/W\r\n"
                           "2 256 input image batch   \r\n"
                           "\r\n"
                           "forward\r\n"
                           "2 1\r\n"
                           "2 input\r\n"
                           "1 _\r\n"
                           "0\r\n"
                           "Convolution2DFunction\r\n"
                           "{\"meta\": {\"name\": \"conv \\\"1\\\"\", \"path\": \"C:\\\\m\", \"tags\": [\"a\", {\"rank\": 5}, []]}, "
                           "\"note\": \"\\u00e9\\n\", \"eps\": 2e-05, \"rank\": 1}\r\n"
                           "backward\r\n"
                           "0 2\r\n"
                           "0\r\n"
                           "2\r\n"
                           "My Func\r\n"
                           "{}");
    const std::vector<std::string> want = {
        "text 1 warming up",
        "header 2 3 2",
        "buffer 3 0 802816 null",
        "buffer 4 1 1728 /predictor/conv1/W",
        "buffer 5 2 256 input image batch",
        "function 7 #0 forward Convolution2DFunction in: 2/input 1/null out: 0 rank=1 {\"meta\": {\"name\": \"conv "
        "\\\"1\\\"\", \"path\": \"C:\\\\m\", \"tags\": [\"a\", {\"rank\": 5}, []]}, \"note\": \"\\u00e9\\n\", \"eps\": 2e-05, "
        "\"rank\": 1}",
        "function 14 #1 backward My Func in: out: 0 2 rank=none {}",
    };
    CHECK(r.out == want);
}

TEST_CASE("chainer_memtrace::rank: the top-level integer key, the last one winning (json_project's take)") {
    // one function per params line, no inputs, one output
    const std::pair<const char*, const char*> cases[] = {
        {R"({"rank": 3, "rank": 7})", "7"},          {R"({"rank": 7, "rank": "x"})", "none"},
        {R"({"rank": 7, "rank": 1.5})", "none"},     {R"({"rank": 9223372036854775808})", "none"},
        {R"({"rank": -2, "x": {"rank": 4}})", "-2"}, {R"({"rank": {"a": 1}})", "none"},
        {R"({"rank": [1], "b": true})", "none"},     {R"({"rank": null})", "none"},
        {R"({"a": [{"rank": 4}], "r": 1})", "none"}, {R"({"rank": false, "rank": 9223372036854775807})", "9223372036854775807"},
    };
    std::string in = "1 " + std::to_string(std::size(cases) + 1) + "\n0 16 _\n";
    for (const auto& c : cases) in += std::string("forward\n0 1\n0\nF\n") + c.first + "\n";
    in += "forward\n0 1\n0\nF\n[1]\n"; // (no object: an error)
    const recorder r = run(in);
    REQUIRE(r.out.size() == std::size(cases) + 3);
    for (std::size_t i = 0; i < std::size(cases); ++i) {
        CAPTURE(cases[i].first);
        CHECK(r.out[2 + i].find(std::string(" rank=") + cases[i].second + " {") != std::string::npos);
    }
    CHECK(r.out.back().starts_with("error "));
}

TEST_CASE("chainer_memtrace::broken records: an error, then the next direction line") {
    const std::string in = "2 7\n"
                           "0 16 _\n"
                           "forward\n"         // 3: the buffer list is cut short
                           "1 1\n"
                           "0 _\n"
                           "forward\n"         // 6: record 0 was cut short
                           "2 1\n"
                           "0 _\n"
                           "1\n"               // 9: NIN says 2: not an input line; 10, 11 are text
                           "Sum\n"
                           "{}\n"
                           "backward\n"        // 12
                           "1 1\n"
                           "0 _\n"
                           "1\n"
                           "Sum\n"
                           "{'axis': None}\n"  // 17: not JSON
                           "backward\n"        // 18
                           "1 1\n"
                           "0 _\n"
                           "1\n"
                           "Sum\n"
                           "[1, 2]\n"          // 23: JSON but not an object
                           "forward\n"         // 24: a whole record
                           "0 1\n"
                           "1\n"
                           "Id\n"
                           "{}\n"
                           "garbage\n"         // 29: a direction line was expected
                           "forward\n"         // 30: cut short by the end of the input
                           "1 1";
    const std::vector<std::string> want = {
        "header 1 2 7",
        "buffer 2 0 16 null",
        "error 3 buffer list cut short",
        "error 3 function record cut short",
        "error 9 function record: expected an input line `ID ROLE`",
        "text 10 Sum",
        "text 11 {}",
        "error 17 function record: expected a JSON object of parameters",
        "error 23 function record: expected a JSON object of parameters",
        "function 24 #4 forward Id in: out: 1 rank=none {}",
        "error 29 expected a direction line (forward or backward)",
        "error 30 function record cut short",
        "error 1 function count does not match the header", // 6 records for 7
    };
    CHECK(run(in).out == want);
    logscan::test::check_chunk_invariance(in, run_chunks);
}

TEST_CASE("chainer_memtrace::limits: a record larger than the parser's storage is an error, and the parse goes on") {
    std::string in = "1 2\n0 16 _\nforward\n5 0\n";
    for (int i = 0; i < 5; ++i) in += "0 _\n";
    in += "F\n{}\nforward\n1 0\n0 _\nG\n{}\n";
    recorder r;
    cm::parser<recorder> p(r, cm::options{.max_line = 4096, .max_io = 3, .text_capacity = 64});
    p.feed(in);
    p.finish();
    const std::vector<std::string> want = {
        "header 1 1 2",
        "buffer 2 0 16 null",
        "error 8 function record larger than the parser's storage",
        "text 9 0 _",
        "text 10 F",
        "text 11 {}",
        "function 12 #1 forward G in: 0/null out: rank=none {}",
    };
    CHECK(r.out == want);
}

TEST_CASE("chainer_memtrace::damaged input never crashes; every direction line is a record or one error") {
    const std::string& s = sample();
    for (std::size_t cut : {std::size_t{1}, std::size_t{300}, s.size() / 7, s.size() / 3, s.size() / 2, s.size() - 2}) {
        INFO("cut at " << cut);
        const std::string_view part = std::string_view(s).substr(0, cut);
        std::size_t directions = 0;
        for (std::string_view l : logscan::test::lines_of(part)) directions += l == "forward" || l == "backward";
        const recorder r = run(part);
        std::size_t broken = 0; // "function record cut short", "function record: expected ..."
        for (const auto& o : r.out) broken += o.find(" function record") != std::string::npos;
        CHECK(r.functions + broken == directions);
        if (cut > 6) CHECK(r.errors >= 1); // at least: the function count does not match the header
    }
    std::string junk;
    for (int i = 0; i < 20000; ++i) junk += static_cast<char>((i * 7919 + i / 13) & 0xff);
    recorder j;
    cm::parser<recorder> p(j, cm::options{.max_line = 4096});
    p.feed(junk);
    p.finish();
    CHECK(j.functions == 0);
    CHECK(run("").out.empty());
    const std::string big = "1 0\n0 16 _\n" + std::string(10u << 20, 'x') + "\nforward\n";
    const recorder b = run(big);
    REQUIRE(b.out.size() >= 3);
    CHECK(b.out[2].starts_with("error 3 line longer than the line buffer"));
}
