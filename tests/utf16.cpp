// SPDX-License-Identifier: MIT
// utf16.hpp: UTF-16 text with its byte order mark read as UTF-8 (what Windows PowerShell 5.1
// writes for a redirection), whatever the chunks; surrogate pairs, halves of pairs and an odd
// last byte; other input as it is; no allocation while reading. The expected UTF-8 bytes are
// the Unicode standard's encodings of the code points written.
#include <logscan/utf16.hpp>

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "support/alloc_counter.hpp"
#include "support/chunking.hpp"

namespace {

// A source handing out the given chunks, then the end.
struct chunks_source {
    logscan::test::chunk_list chunks;
    std::size_t k = 0;
    logscan::chunk next() {
        while (k < chunks.size() && chunks[k].empty()) ++k;
        if (k == chunks.size()) return {};
        return {chunks[k++], logscan::error_code::none, 0};
    }
};

using logscan::test::drain;

std::string through(std::string_view input, std::size_t buffer = logscan::maybe_utf16_source<chunks_source>::default_buffer_size) {
    std::string out;
    logscan::test::check_chunk_invariance(input, [&](logscan::test::chunk_list chunks) {
        chunks_source c{chunks};
        logscan::maybe_utf16_source<chunks_source> s(c, buffer);
        logscan::chunk end;
        out = drain(s, &end);
        CHECK(end.code == logscan::error_code::none);
        return out;
    });
    return out;
}

// Code units as little- or big-endian bytes, after the mark.
std::string utf16(const std::vector<unsigned>& units, bool little) {
    std::string s = little ? "\xFF\xFE" : "\xFE\xFF";
    for (const unsigned u : units) {
        const char lo = static_cast<char>(u & 0xFF), hi = static_cast<char>(u >> 8);
        s += little ? lo : hi;
        s += little ? hi : lo;
    }
    return s;
}

} // namespace

TEST_CASE("utf16::UTF-16 with its mark is read as UTF-8, little and big endian, under any chunking") {
    // `[09/20 12:00:35] é 中 😀` then a line: ASCII, U+00E9, U+4E2D, U+1F600 (a surrogate pair)
    const std::vector<unsigned> units = {'[', '0', '9', ']', ' ', 0xE9, ' ', 0x4E2D, ' ', 0xD83D, 0xDE00, '\r', '\n', 'x', '\n'};
    const std::string want = "[09] \xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80\r\nx\n";
    for (const bool little : {true, false}) {
        INFO("little endian: " << little);
        CHECK(through(utf16(units, little)) == want);
        CHECK(through(utf16(units, little), 16) == want); // (a small output buffer too)
    }
    const std::string mark_only = "\xFF\xFE";
    CHECK(through(mark_only).empty());
}

TEST_CASE("utf16::halves of surrogate pairs and an odd last byte are U+FFFD") {
    const std::string fffd = "\xEF\xBF\xBD";
    CHECK(through(utf16({'a', 0xD83D, 'b'}, true)) == "a" + fffd + "b");          // (a high one, then no low one)
    CHECK(through(utf16({'a', 0xDE00, 'b'}, true)) == "a" + fffd + "b");          // (a low one alone)
    CHECK(through(utf16({'a', 0xD83D}, true)) == "a" + fffd);                     // (a high one last)
    CHECK(through(utf16({0xD83D, 0xD83D, 0xDE00}, false)) == fffd + "\xF0\x9F\x98\x80"); // (two highs: the second pairs)
    CHECK(through(utf16({'a'}, true) + "b") == "a" + fffd);                       // (an odd last byte)
    CHECK(through(utf16({0xFEFF, 'a'}, true)) == "\xEF\xBB\xBF" "a");             // (a second mark is text: U+FEFF)
}

TEST_CASE("utf16::any other input is handed out as it is, whatever its first chunks") {
    for (const std::string_view plain : {std::string_view("[09/20 12:00:35] ppdet INFO: x\n"), std::string_view("\xFF"),
                                         std::string_view("\xFE"), std::string_view("\xFF\xFF\xFE"), std::string_view("\xFE\xFE"),
                                         std::string_view("\xEF\xBB\xBFx"), std::string_view("")}) {
        INFO(std::string(plain));
        CHECK(through(plain) == plain);
        const std::vector<std::string_view> one{plain};
        chunks_source d{one};
        logscan::maybe_utf16_source<chunks_source> s(d);
        (void)drain(s);
        CHECK(!s.utf16());
    }
    const std::string le = utf16({'o', 'k'}, true);
    const std::vector<std::string_view> one{le};
    chunks_source c{one};
    logscan::maybe_utf16_source<chunks_source> s(c);
    CHECK(drain(s) == "ok");
    CHECK(s.utf16());
}

TEST_CASE("utf16::a failure of the inner source is handed on; no allocation while reading") {
    struct failing {
        std::string_view first;
        int calls = 0;
        logscan::chunk next() {
            if (calls++ == 0) return {first, logscan::error_code::none, 0};
            return {{}, logscan::error_code::io_error, 5};
        }
    };
    const std::string le = utf16({'a', 'b'}, true);
    failing f{le};
    logscan::maybe_utf16_source<failing> s(f);
    logscan::chunk end;
    CHECK(drain(s, &end) == "ab");
    CHECK(end.code == logscan::error_code::io_error);
    CHECK(end.sys_errno == 5);
    CHECK(s.next().code == logscan::error_code::io_error); // (and stays so)

    std::vector<unsigned> units;
    for (int i = 0; i < 100000; ++i) units.push_back(i % 50 == 49 ? '\n' : static_cast<unsigned>(0x4E00 + i % 100));
    const std::string big = utf16(units, true);
    const std::vector<std::string_view> pieces{std::string_view(big).substr(0, 4097), std::string_view(big).substr(4097)};
    chunks_source c{pieces};
    logscan::maybe_utf16_source<chunks_source> t(c, 1000);
    std::size_t n = 0;
    LOGSCAN_CHECK_NO_ALLOC(for (logscan::chunk x = t.next(); !x.data.empty(); x = t.next()) n += x.data.size());
    CHECK(n == 2000 + 98000 * 3); // (every 50th unit a newline, the others 3 bytes each)
}
