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

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "support/chunking.hpp"

namespace ct = logscan::chrome_trace;

namespace {

// The text in pieces of `piece` bytes, then (when `fail`) a read error instead of its end.
struct pieces_source {
    std::string_view text;
    std::size_t piece = 1;
    bool fail = false;
    std::size_t at = 0;
    logscan::chunk next() {
        if (at == text.size()) return fail ? logscan::chunk{{}, logscan::error_code::io_error, 5} : logscan::chunk{};
        const std::size_t n = std::min(piece, text.size() - at);
        at += n;
        return logscan::chunk{text.substr(at - n, n)};
    }
};

ct::rank_rows one_reader(std::string_view text, logscan::error& result, std::uint64_t* records = nullptr,
                         std::size_t piece = std::string_view::npos, bool fail = false) {
    ct::rank_reader reader{"f"};
    ct::records::counting<ct::rank_reader> counted{reader};
    pieces_source src{text, piece == std::string_view::npos ? std::max<std::size_t>(text.size(), 1) : piece, fail};
    result = ct::parse(src, counted);
    if (records != nullptr) *records = counted.records;
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
    if (!a.rows.empty()) { // (bit for bit: -0 and 0 told apart)
        CHECK(std::memcmp(&a.least_ts, &b.least_ts, sizeof(double)) == 0);
        CHECK(std::memcmp(&a.least_ts_rounded, &b.least_ts_rounded, sizeof(double)) == 0);
    }
    CHECK(a.tids == b.tids);
    REQUIRE(a.errors.size() == b.errors.size());
    for (std::size_t i = 0; i < a.errors.size(); ++i) CHECK(same_error(a.errors[i], b.errors[i]));
}

// The input read in parts of `part` bytes on `threads` threads, against one reader (both
// from a source giving `piece` bytes at a time, then maybe failing); the driver's count of
// parts kept and read again.
logscan::parts_count check_parts(std::string_view text, std::size_t part, unsigned threads = 2,
                                 std::size_t piece = std::string_view::npos, bool fail = false) {
    logscan::error one;
    std::uint64_t records = 0;
    const ct::rank_rows expected = one_reader(text, one, &records, piece, fail);
    pieces_source src{text, piece == std::string_view::npos ? std::max<std::size_t>(text.size(), 1) : piece, fail};
    const ct::parts_read got = ct::read_rank_in_parts(src, "f", {.threads = threads, .part_bytes = part});
    check_same(got.rows, expected);
    CHECK(same_error(got.result, one));
    CHECK(got.records == records);
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

TEST_CASE("chrome parts: events inside an event's args, which a part's own reading takes for rows, are no one's rows") {
    // (a part cut at the inner lines reads fake rows, then an error: its reading is dropped;
    // the slot that read it reads later parts, and its names must not reach the rows)
    std::string text = "{\"traceEvents\":[\n" + events(40);
    for (int i = 0; i < 6; ++i) {
        text += "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"holder\",\"pid\":0,\"tid\":7,\"ts\":1,\"dur\":2,\"args\":{\"list\":[\n";
        for (int j = 0; j < 3; ++j)
            text += R"({"ph":"X","cat":"cpu_op","name":"fake)" + std::to_string(i * 3 + j) + R"(","pid":1,"tid":1,"ts":5,"dur":1},)" "\n";
        text += R"({"ph":"X","cat":"cpu_op","name":"fake_last","pid":1,"tid":1,"ts":5,"dur":1}]}},)" "\n";
        text += events(40, 40 * (i + 1));
    }
    text += R"({"ph":"X","cat":"cpu_op","name":"last","pid":1,"tid":1,"ts":99999,"dur":1})" "\n]}\n";
    for (const std::size_t part : std::initializer_list<std::size_t>{60, 150, 400, 1000}) {
        for (const unsigned threads : {1u, 2u, 3u}) {
            CAPTURE(part);
            CAPTURE(threads);
            const logscan::parts_count c = check_parts(text, part, threads);
            CHECK(c.redone > 0); // (the inner lines' parts were read again)
        }
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

TEST_CASE("chrome parts: a trace on one line, read in pieces: a part cut inside the line is read again") {
    // (json.dump's layout: no line end, so a part ends where the pieces did; an error's
    // column counts from the line's start, not from the part's)
    std::string one_line = "{\"traceEvents\":[";
    for (int i = 0; i < 60; ++i) one_line += R"({"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":)" + std::to_string(i) + R"(,"dur":1},)";
    for (const std::string& text : {one_line + "{\"ph\":\"X\"", one_line + "{\"ph\":\"i\",\"ts\":1}]}", one_line + "{\"ph\" 1}]}"}) {
        for (const std::size_t piece : {std::size_t{1}, std::size_t{7}, std::size_t{64}, std::size_t{1000}})
            for (const std::size_t part : {std::size_t{1}, std::size_t{50}, std::size_t{500}}) {
                CAPTURE(piece);
                CAPTURE(part);
                check_parts(text, part, 2, piece);
            }
    }
}

TEST_CASE("chrome parts: a read that fails, before or after the document breaks") {
    const std::string good = "{\"traceEvents\":[\n" + events(40);
    const std::string broken = good + "{\"ph\":\"X\",}\n," + events(40, 40);
    for (const std::size_t piece : {std::size_t{8}, std::size_t{100}, std::size_t{100000}})
        for (const std::size_t part : {std::size_t{10}, std::size_t{300}}) {
            CAPTURE(piece);
            CAPTURE(part);
            check_parts(good, part, 2, piece, true);   // (the failure is the outcome; the rows before it kept)
            check_parts(broken, part, 2, piece, true); // (the break is: one parser reads no further)
            check_parts(broken, part, 2, piece, false);
            check_parts(good + "{\"ph\":\"X\",}\n,{", part, 2, piece, true); // (the failure read with the break's part)
        }
    logscan::error one;
    (void)one_reader(broken, one, nullptr, 8, true);
    CHECK(one.code == logscan::error_code::syntax); // (the case is what it says: the break comes first)
}

TEST_CASE("chrome parts: blanks past the first 64 KiB before the document: one parser reads it") {
    const std::string text = std::string(70000, ' ') + "[\n" + events(200) + "{\"ph\":\"i\",\"ts\":1}\n]";
    const logscan::parts_count c = check_parts(text, 1000, 2, 4096);
    CHECK(c.kept == 1); // (the form unknown when the parts were made: every later part read again)
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
        CHECK(same_error(got.result, one));
        CHECK(got.parts.kept > 1);
    }
}
#endif
