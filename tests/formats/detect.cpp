// SPDX-License-Identifier: MIT
// Format detection (formats/detect.hpp) on the samples, their variants and non-logs; each
// sample is recognised by its own detector only.
#include <logscan/formats/detect.hpp>
#include <logscan/formats/megengine_log.hpp>

#include <doctest/doctest.h>

#include <string>

#include "support/chunking.hpp"

namespace {
std::string head_of(const char* sample) {
    return logscan::test::read_file(logscan::test::sample_path(sample)).substr(0, logscan::detect_bytes);
}
} // namespace

TEST_CASE("detect::each sample by its own detector, the others score 0") {
    const struct {
        const char* file;
        std::string_view format;
    } cases[] = {{"000_cf8afa6c099f806b.txt", "megengine-log"},
                 {"001_825e28a4f520ddc2.txt", "megengine-profile"},
                 {"002_925085f7148f0ebf.txt", "chainer-memtrace"},
                 {"003_1c776201c8b5b83e.txt", "paddle-log"},
                 {"004_d73c77cb3fb2895c.txt", "tvm-profile"}};
    for (const auto& c : cases) {
        INFO(c.file);
        const std::string h = head_of(c.file);
        CHECK(logscan::detect_format(h).format == c.format);
        for (const auto& d : logscan::detectors) CHECK((d.detect(h, true) > 0) == (d.name == c.format));
        // a UTF-8 byte order mark first is passed over (the line formats drop it; a
        // megengine-profile document that begins with one breaks there, formats.md section 2)
        CHECK(logscan::detect_format("\xEF\xBB\xBF" + h).format == c.format);
    }
}

TEST_CASE("detect::unknown: prose, empty, random bytes, a lone counts line") {
    CHECK(logscan::detect_format("").format.empty());
    CHECK(logscan::detect_format("This is prose.\n12 apples and 3 pears\n[note] see the README\n", false).format.empty());
    std::string junk;
    for (int i = 0; i < 8192; ++i) junk += static_cast<char>((i * 7919 + i / 13) & 0xff);
    CHECK(logscan::detect_format(junk).format.empty());
    CHECK(logscan::detect_format("3 4\nnothing else\n", false).format.empty());
    CHECK(logscan::detect_format("{\"profiler\": 1}", false).format.empty()); // one key is not enough
}

TEST_CASE("detect::megengine-log's header forms: what evidence each needs") {
    namespace ml = logscan::megengine_log;
    // forms A and B count by themselves, a form-C line when MegEngine marks it ([mgb] or a
    // level word), plain `DD HH:MM:SS message` lines only beside those (formats.md section 1)
    CHECK(ml::detect("[05 19:40:02 init@server.cpp:120] up\n[37.512 f@x.cpp:8][WARN] w\n", false) == 2);
    CHECK(ml::detect("  02 11:07:18 init\n\x1b[32m02 11:07:25\x1b[0m WRN devkit missing\n02 11:07:26[mgb] x\n", false) == 3);
    CHECK(ml::detect("02 11:07:18 starting the nightly backup\n02 11:07:19 copying\n02 11:09:41 done\n", false) == 0);
    CHECK(ml::detect("02 11:07:18 starting\n02 11:07:19 WRN disk almost full\n", false) == 2);
    CHECK(ml::detect("**05 19:40:02 WRN pasted\n[5 19:40:02 f@x.cpp:7] one-digit day\n", false) == 0);
    CHECK(logscan::detect_format("02 11:07:18 starting the nightly backup\n02 11:09:41 done\n", false).format.empty());
    CHECK(logscan::detect_format("05 19:40:03[mgb] ERR worker 3 lost connection\n", false).format == "megengine-log");
}

TEST_CASE("detect::variants: unrelated lines first, colours and CRLF, a cut last line") {
    CHECK(logscan::detect_format("$ python3 train.py\nWARNING: x\n\x1b[32m[06 15:13:35 330@env.py:meghair.train.env]\x1b[0m hi\r\n",
                                 false)
              .format == "megengine-log");
    CHECK(logscan::detect_format("g++ -O2 x.cc\nEvaluate vm inference cost of bert on cuda0\n", false).format == "tvm-profile");
    CHECK(logscan::detect_format("{\n  \"graph_exec\": {\n    \"comp_seq\": []\n  }\n}\n", false).format == "megengine-profile");
    CHECK(logscan::detect_format("UserWarning: cuDNN is not enabled.\n2 1\n0 16 _\n1 32 w\nforward\n1 1\n", false).format ==
          "chainer-memtrace");
    // a cut head: the partial last line does not count
    CHECK(logscan::detect_format("[09/20 12:00:35] reader WARNING: Shared memory", true).format.empty());
    CHECK(logscan::detect_format("[09/20 12:00:35] reader WARNING: Shared memory", false).format == "paddle-log");
}

TEST_CASE("detect::read_head keeps the bytes a source gave before it failed; replay_source hands them out, then the failure") {
    // (a gzip stream cut inside the head: its records must not be lost, formats' "no silent
    // data loss"; a parse of the replay yields the lines, then returns the failure)
    struct cut_source { // "[09/20 12:00:35] a INFO: x\n", "[09/20 12:00:36] a", then a cut stream
        int n = 0;
        logscan::chunk next() {
            switch (n++) {
            case 0: return {"[09/20 12:00:35] a INFO: x\n"};
            case 1: return {"[09/20 12:00:36] a"};
            default: return {{}, logscan::error_code::unexpected_end, 0};
            }
        }
    } src;
    std::string head;
    bool more = true;
    const logscan::error e = logscan::read_head(src, head, more);
    CHECK(e.code == logscan::error_code::unexpected_end);
    CHECK(head == "[09/20 12:00:35] a INFO: x\n[09/20 12:00:36] a");
    CHECK(e.offset == 27 + 18); // (the bytes read before the failure, as pump places a source's failure)
    CHECK(e.line == 0);
    CHECK_FALSE(more);
    logscan::replay_source<cut_source> all{head, src, false, !more, logscan::head_failure(e)};
    const logscan::chunk first = all.next();
    CHECK(first.data == head);
    const logscan::chunk then = all.next();
    CHECK(then.code == logscan::error_code::unexpected_end);
    CHECK(then.data.empty());
    CHECK(all.next().code == logscan::error_code::unexpected_end); // (and stays failed)
    CHECK(src.n == 3);                                             // (nothing read from it again)
    // with no failure, the end
    CHECK(logscan::head_failure(logscan::error{}).at_end());
}

TEST_CASE("detect::a head past leading blank lines: read_head reads on, detect_window starts at the first line that is not blank") {
    const std::string log = logscan::test::read_file(logscan::test::sample_path("003_1c776201c8b5b83e.txt")); // paddle-log
    REQUIRE(log.size() > 2 * logscan::detect_bytes);
    const auto head_of = [](const std::string& in, std::size_t piece, std::string& head, bool& more) {
        struct pieces {
            std::string_view rest;
            std::size_t n;
            logscan::chunk next() {
                const std::string_view c = rest.substr(0, n);
                rest.remove_prefix(c.size());
                return {c};
            }
        } src{in, piece};
        head.clear();
        return logscan::read_head(src, head, more);
    };
    for (const std::size_t blanks : {std::size_t{0}, std::size_t{100}, logscan::detect_bytes, 5 * logscan::detect_bytes + 7})
        for (const std::size_t piece : {std::size_t{1000}, std::size_t{65536}}) {
            CAPTURE(blanks);
            CAPTURE(piece);
            std::string lead; // (blank lines of spaces, tabs, CRs)
            while (lead.size() < blanks) lead += lead.size() % 3 == 0 ? " \t \r\n" : "\n";
            const std::string in = lead + log;
            std::string head;
            bool more = false;
            CHECK(head_of(in, piece, head, more).ok());
            CHECK(more);
            CHECK(head == std::string_view(in).substr(0, head.size())); // (the bytes as read, for the replay)
            CHECK(head.size() >= lead.size() + logscan::detect_bytes);  // (the window full past the blanks)
            const logscan::detect_view v = logscan::detect_window(head, more);
            CHECK(v.window == std::string_view(log).substr(0, logscan::detect_bytes));
            CHECK(v.cut);
            CHECK(logscan::detect_format(v.window, v.cut).format == "paddle-log");
        }
    // a line that holds blanks and then text begins the window whole (its indent kept)
    const logscan::detect_view v = logscan::detect_window("\n\n   x\ny\n", false);
    CHECK(v.window == "   x\ny\n");
    CHECK_FALSE(v.cut);
    // no blank line first: the head as it is, a byte order mark too
    CHECK(logscan::detect_window("\xEF\xBB\xBFx\n", false).window == "\xEF\xBB\xBFx\n");
    CHECK(logscan::detect_window("\xEF\xBB\xBF\n\nx\n", false).window == "x\n");
    // blanks alone: read to the end when shorter than blank_lead_limit (then blank_input tells
    // an empty input), else up to the limit, and the window is empty: no format
    for (const std::size_t n : {std::size_t{3 * logscan::detect_bytes}, logscan::blank_lead_limit + 5000}) {
        const std::string in(n, '\n');
        std::string head;
        bool more = false;
        CHECK(head_of(in, 4096, head, more).ok());
        const bool whole = n < logscan::blank_lead_limit;
        CHECK(more == !whole);
        CHECK(head.size() == (whole ? n : logscan::blank_lead_limit));
        CHECK(logscan::blank_input(head));
        CHECK(logscan::detect_window(head, more).window.empty());
    }
}

TEST_CASE("detect::compressed data logscan does not undo is named, with the command that writes it out") {
    // the magic numbers of each format's specification (xz file format 1.1, RFC 8878, bzip2's
    // `BZh` and block size, the LZ4 frame format, PKWARE's APPNOTE, 7-Zip's signature)
    const struct {
        std::string_view head, name, command;
    } cases[] = {{std::string_view("\xFD" "7zXZ\x00\x00\x04", 9), "xz", "xz -dc"},
                 {std::string_view("\x28\xB5\x2F\xFD\x24\x00", 6), "zstd", "zstd -dc"},
                 {"BZh91AY&SY", "bzip2", "bzip2 -dc"},
                 {std::string_view("\x04\x22\x4D\x18\x64\x40", 6), "lz4", "lz4 -dc"},
                 {std::string_view("PK\x03\x04\x14\x00", 6), "zip", "unzip -p"},
                 {std::string_view("7z\xBC\xAF\x27\x1C\x00\x04", 8), "7z", "7z x -so"}};
    for (const auto& c : cases) {
        INFO(std::string(c.name));
        const logscan::compression got = logscan::unread_compression(c.head);
        CHECK(got.name == c.name);
        CHECK(got.command == c.command);
        CHECK(logscan::detect_format(c.head, false).format.empty());
    }
    // none: text, gzip (read), a cut magic number, bzip2's letters without a block size
    for (std::string_view none : {std::string_view("[06 15:13:35 1@a.py:b] x\n"), std::string_view("\x1f\x8b\x08\x00", 4),
                                  std::string_view("\xFD" "7zX", 4), std::string_view("BZh"), std::string_view("BZhx"), std::string_view("")})
        CHECK(logscan::unread_compression(none).name.empty());
}
