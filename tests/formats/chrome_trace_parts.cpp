// SPDX-License-Identifier: MIT
// One rank's Chrome trace read for the summary in parts, in parallel
// (formats/chrome_trace_parts.hpp, `logscan summary --threads N`): the rows, tables, counts
// and errors must be exactly those of one rank_reader over the whole input, whatever the
// cuts. Checked with parts small enough to cut the input at almost every event, on the
// hand-written traces, the public traces, and inputs made to defeat the cuts: a B open across
// a cut, events broken over lines with objects inside (split points inside an event), an
// element that is no object, a document that breaks, a bare array with and without its `]`,
// `distributedInfo` after the events, a byte order mark. The expected rows come from one
// reader of the whole input; that the parts were really read in parallel is checked from the
// driver's count.
#include <logscan/formats/chrome_trace_parts.hpp>
#if LOGSCAN_TEST_GZIP
#include <logscan/gzip.hpp>
#endif

#include <doctest/doctest.h>

#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "support/chunking.hpp"

namespace ct = logscan::chrome_trace;

namespace {

ct::rank_rows one_reader(std::string_view text, logscan::error& result) {
    ct::rank_reader reader{"f"};
    result = ct::parse(text, reader);
    return reader.take();
}

bool same_error(const logscan::error& a, const logscan::error& b) {
    return a.code == b.code && a.line == b.line && a.column == b.column && a.offset == b.offset && a.message == b.message &&
           a.index == b.index;
}

// Every member of the two, compared (doubles bit for bit: they come from the same tokens).
void check_same(const ct::rank_rows& a, const ct::rank_rows& b) {
    CHECK(a.file == b.file);
    CHECK(a.rank == b.rank);
    CHECK(a.mtia_backend == b.mtia_backend);
    CHECK(a.events == b.events);
    CHECK(a.skipped == b.skipped);
    CHECK(a.round == b.round);
    CHECK(a.symbols == b.symbols);
    REQUIRE(a.classes.size() == b.classes.size());
    for (std::size_t i = 0; i < a.classes.size(); ++i) {
        CHECK(a.classes[i].cat == b.classes[i].cat);
        CHECK(a.classes[i].stream == b.classes[i].stream);
    }
    REQUIRE(a.rows.size() == b.rows.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < a.rows.size(); ++i)
        if (std::memcmp(&a.rows[i], &b.rows[i], sizeof(ct::rank_rows::row)) != 0) ++differ;
    CHECK(differ == 0);
    CHECK(a.tids == b.tids);
    REQUIRE(a.errors.size() == b.errors.size());
    for (std::size_t i = 0; i < a.errors.size(); ++i) CHECK(same_error(a.errors[i], b.errors[i]));
}

// The input read in parts of `part` bytes on `threads` threads, against one reader; the
// driver's count of parts kept and read again.
logscan::parts_count check_parts(std::string_view text, std::size_t part, unsigned threads = 2) {
    logscan::error one;
    const ct::rank_rows expected = one_reader(text, one);
    logscan::memory_source src(text);
    const ct::parts_read got = ct::read_rank_in_parts(src, "f", {.threads = threads, .part_bytes = part});
    check_same(got.rows, expected);
    CHECK(same_error(got.result, one));
    return got.parts;
}

std::string data(const std::string& name) {
    return logscan::test::read_file(std::string(LOGSCAN_SOURCE_DIR) + "/tests/data/" + name);
}

// `n` Kineto-shaped events a line each: X rows with names from a few, kernels with args.
std::string events(int n, int from = 0) {
    std::string s;
    for (int i = from; i < from + n; ++i) {
        const std::string ts = std::to_string(1000 + 10 * i);
        if (i % 3 == 0)
            s += R"({"ph":"X","cat":"kernel","name":"k)" + std::to_string(i % 7) + R"(","pid":0,"tid":7,"ts":)" + ts +
                 R"(,"dur":4,"args":{"stream":7,"correlation":)" + std::to_string(i) + "}},\n";
        else
            s += R"({"ph":"X","cat":"cpu_op","name":"op)" + std::to_string(i % 5) + R"(","pid":1,"tid":1,"ts":)" + ts +
                 R"(,"dur":3},)" + "\n";
    }
    return s;
}

} // namespace

TEST_CASE("chrome parts: the split point is a line beginning an event after a line ending with a comma") {
    CHECK(ct::split_point("  },", "  {"));
    CHECK(ct::split_point(R"({"ph":"X"},)", R"({"ph":"X"})"));
    CHECK(ct::split_point("},\t ", "\t{"));
    CHECK_FALSE(ct::split_point("}", "{"));
    CHECK_FALSE(ct::split_point("},", R"("ph": "X",)"));
    CHECK_FALSE(ct::split_point("", "{"));
    CHECK_FALSE(ct::split_point(",", ""));
}

TEST_CASE("chrome parts: many parts of a trace read in parallel give one reader's rows") {
    const std::string text = "{\"schemaVersion\":1,\"distributedInfo\":{\"rank\":3},\"traceEvents\":[\n" + events(400) +
                             R"({"ph":"X","cat":"cpu_op","name":"last","pid":1,"tid":1,"ts":99999,"dur":1})" + "\n]}\n";
    for (const std::size_t part : std::initializer_list<std::size_t>{64, 300, 1000, 4096}) {
        CAPTURE(part);
        const logscan::parts_count c = check_parts(text, part);
        // (the parts were read apart: every cut falls between two events, none is read again)
        CHECK(c.kept > 5);
        CHECK(c.redone == 0);
    }
    check_parts(text, 256, 1);
    check_parts(text, 256, 5);
}

TEST_CASE("chrome parts: the hand-written traces") {
    for (const char* name : {"chrome_trace_example.json", "chrome_trace_hand.json", "chrome_trace_cut.json",
                             "chrome_summary_example.json", "chrome_summary/window_round.json", "chrome_summary/mtia.json",
                             "chrome_summary/rank0.json", "chrome_summary/rank1.json"}) {
        CAPTURE(name);
        const std::string text = data(name);
        for (const std::size_t part : std::initializer_list<std::size_t>{1, 40, 200, 1000}) {
            CAPTURE(part);
            check_parts(text, part);
        }
    }
}

TEST_CASE("chrome parts: a B open across a cut, objects inside an event over lines, an element that is no object") {
    std::string text = "{\"traceEvents\":[\n" + events(50);
    text += R"({"ph":"B","name":"step","cat":"cpu_op","pid":1,"tid":1,"ts":5000},)" "\n";
    text += events(50, 50);
    text += R"({"ph":"E","name":"step","pid":1,"tid":1,"ts":9000.5},)" "\n";
    text += "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":1,\"dur\":2,\"args\":{\"list\":[\n";
    text += "{\"a\":1},\n{\"b\":[\n{\"c\":2},\n{\"d\":3}]},\n{\"e\":4}]}},\n";
    text += "17,\n";
    text += events(50, 100);
    text += R"({"ph":"E","pid":9,"tid":9,"ts":1})" "\n]}";
    for (const std::size_t part : std::initializer_list<std::size_t>{1, 50, 200, 700}) {
        CAPTURE(part);
        const logscan::parts_count c = check_parts(text, part);
        if (part <= 200) CHECK(c.redone > 0); // (the B's, the list's and the 17's parts are read again)
    }
}

TEST_CASE("chrome parts: a document that breaks in a later part; a bare array with and without its ]") {
    const std::string head = "{\"traceEvents\":[\n" + events(60);
    check_parts(head + "{\"ph\":\"X\",\"name\":\"cut\",\"ts\":1,\n" + events(30, 60), 100);   // (a key expected: the break)
    check_parts(head + "{\"ph\":\"X\",\"name\":\"ok\",\"ts\":1,\"dur\":1}\n]", 100);          // (the object's } missing)
    check_parts(head + "{\"ph\":\"X\",\"name\":\"ok\",\"ts\":1,\"dur\":1}\n]}\n]", 100);     // (something after the document)
    check_parts(head.substr(0, head.size() - 2) + "\n]}", 100);                                // (a trailing comma kept out)
    check_parts("[\n" + events(80) + "{\"ph\":\"X\",\"cat\":\"c\",\"name\":\"end\",\"ts\":1,\"dur\":1}\n]\n", 100);
    check_parts("[\n" + events(80), 100);                // (the ] missing after a `,`: ends normally)
    check_parts("[\n" + events(80) + "]", 100);          // (a trailing comma before the ])
    check_parts("[\n" + events(80) + "{\"ph\":", 100);   // (cut inside an event)
    check_parts("{\"traceEvents\":[\n" + events(80), 100); // (an object cut in its events)
}

TEST_CASE("chrome parts: distributedInfo after the events, a byte order mark, blanks before the document") {
    check_parts("{\"traceEvents\":[\n" + events(60) + "{\"ph\":\"i\",\"ts\":1}\n],\n\"distributedInfo\":{\"rank\":5,\"backend\":\"mtia:hccl\"}}", 100);
    check_parts("\xEF\xBB\xBF{\"distributedInfo\":{\"rank\":2},\"traceEvents\":[\n" + events(60) + "{\"ph\":\"i\",\"ts\":1}]}", 100);
    check_parts("\n\n  \t[\n" + events(60) + "{\"ph\":\"i\",\"ts\":1}]", 100);
    check_parts("", 100);
    check_parts("   ", 100);
    check_parts("\xEF\xBB", 100);
}

#if LOGSCAN_TEST_GZIP
TEST_CASE("chrome parts: the public traces, read from their .gz as the command does") {
    for (const char* name : {"benchmark_result_2869224_1695835535_trace.json.gz", "event_sync_trace.json.gz",
                             "mi250_minitoy_train_ROCm6_2_kineto.json.gz"}) {
        CAPTURE(name);
        const std::string path = logscan::test::sample_path("chrome/" + std::string(name));
        std::string text;
        {
            logscan::file_source file(path.c_str());
            logscan::gzip_source<logscan::file_source> gz(file);
            for (logscan::chunk c = gz.next(); !c.data.empty(); c = gz.next()) text.append(c.data);
        }
        for (const std::size_t part : std::initializer_list<std::size_t>{500, 4096, 65536}) {
            CAPTURE(part);
            check_parts(text, part);
        }
        logscan::error one;
        const ct::rank_rows expected = one_reader(text, one);
        logscan::file_source file(path.c_str());
        logscan::gzip_source<logscan::file_source> gz(file);
        const ct::parts_read got = ct::read_rank_in_parts(gz, "f", {.threads = 2, .part_bytes = 2048});
        check_same(got.rows, expected);
        CHECK(got.parts.kept > 1);
    }
}
#endif
