// SPDX-License-Identifier: MIT
// gzip.hpp: the public Kineto traces as published (.json.gz) decompressed to the sizes
// Python's gzip module gives, under any chunking of the compressed bytes; concatenated
// members, a cut stream, corrupt data; no allocation while reading; maybe_gzip_source on plain
// and gzip input, whatever its first chunk.
#if LOGSCAN_TEST_GZIP
#include <logscan/gzip.hpp>

#include <doctest/doctest.h>

#include <cerrno>
#include <random>
#include <string>
#include <vector>

#include "support/alloc_counter.hpp"
#include "support/chunking.hpp"

namespace {

// A source handing out a buffer in pieces of the given sizes (cycled), then the end.
struct pieces_source {
    std::string_view data;
    std::vector<std::size_t> sizes;
    std::size_t at = 0, k = 0;
    logscan::chunk next() {
        if (at == data.size()) return {};
        const std::size_t n = std::min(sizes[k++ % sizes.size()], data.size() - at);
        const logscan::chunk c{data.substr(at, n), logscan::error_code::none, 0};
        at += n;
        return c;
    }
};

using logscan::test::drain;

constexpr std::size_t gzip_default = logscan::gzip_source<logscan::memory_source>::default_buffer_size;

std::string compressed(std::string_view name) {
    return logscan::test::read_file(logscan::test::sample_path("chrome/" + std::string(name)));
}

} // namespace

TEST_CASE("gzip::the published traces decompress to their sizes, under any chunking of the compressed bytes") {
    // sizes: len(gzip.open(f).read()) in Python
    const struct {
        const char* file;
        std::size_t size;
    } cases[] = {{"benchmark_result_2869224_1695835535_trace.json.gz", 319512},
                 {"event_sync_trace.json.gz", 22635},
                 {"mi250_minitoy_train_ROCm6_2_kineto.json.gz", 66897}};
    for (const auto& c : cases) {
        INFO(std::string(c.file));
        const std::string gz = compressed(c.file);
        CHECK(logscan::is_gzip(gz));
        logscan::memory_source whole(gz);
        logscan::gzip_source<logscan::memory_source> src(whole);
        logscan::chunk end;
        const std::string text = drain(src, &end);
        CHECK(end.code == logscan::error_code::none);
        CHECK(text.size() == c.size);
        CHECK(text.starts_with("\n{\n  \"schemaVersion\": 1,")); // (each file begins with a newline)
        CHECK(text.find("\"traceEvents\"") != std::string::npos);
        std::mt19937 rng(7);
        for (std::vector<std::size_t> sizes : {std::vector<std::size_t>{1}, {7, 1, 300}, {4096}}) {
            pieces_source p{gz, sizes};
            logscan::gzip_source<pieces_source> s(p, 1000); // (a small output buffer too)
            CHECK(drain(s) == text);
        }
    }
}

TEST_CASE("gzip::concatenated members, a cut stream, corrupt data, an empty input") {
    const std::string gz = compressed("event_sync_trace.json.gz");
    std::string text;
    {
        logscan::memory_source m(gz);
        logscan::gzip_source<logscan::memory_source> s(m);
        text = drain(s);
    }
    { // `cat a.gz a.gz`: both members
        const std::string two = gz + gz;
        logscan::memory_source m(two);
        logscan::gzip_source<logscan::memory_source> s(m);
        logscan::chunk end;
        CHECK(drain(s, &end) == text + text);
        CHECK(end.code == logscan::error_code::none);
    }
    { // cut in the middle: the bytes before the cut, then unexpected_end
        const std::string cut = gz.substr(0, gz.size() / 2);
        logscan::memory_source m(cut);
        logscan::gzip_source<logscan::memory_source> s(m);
        logscan::chunk end;
        const std::string got = drain(s, &end);
        CHECK(end.code == logscan::error_code::unexpected_end);
        CHECK(logscan::chunk_error(end, 0).message == "gzip stream cut short"); // (its words, not the code's name)
        CHECK(!got.empty());
        CHECK(text.starts_with(got));
    }
    { // the same cut through pump (what a format's parse returns): at the decompressed bytes read before it
        const std::string cut = gz.substr(0, gz.size() / 2);
        logscan::memory_source m(cut);
        logscan::gzip_source<logscan::memory_source> s(m);
        struct counter {
            std::uint64_t bytes = 0;
            logscan::flow feed(std::string_view d) {
                bytes += d.size();
                return logscan::flow::proceed;
            }
            logscan::flow finish() { return logscan::flow::proceed; }
        } k;
        const logscan::error e = logscan::pump(s, k);
        CHECK(e.code == logscan::error_code::unexpected_end);
        CHECK(e.line == 0);
        CHECK(k.bytes > 0);
        CHECK(e.offset == k.bytes);
        CHECK(text.size() > k.bytes);
    }
    { // corrupt data after a valid header: syntax, EILSEQ
        std::string bad = gz;
        for (std::size_t i = 20; i < 60; ++i) bad[i] = static_cast<char>(0xFF);
        logscan::memory_source m(bad);
        logscan::gzip_source<logscan::memory_source> s(m);
        logscan::chunk end;
        (void)drain(s, &end);
        CHECK(end.code == logscan::error_code::syntax);
        CHECK(end.sys_errno == EILSEQ);
        CHECK(logscan::chunk_error(end, 0).message == "corrupt gzip data");
        CHECK(s.next().code == logscan::error_code::syntax); // (and stays so)
    }
    { // a member whose check fails (its CRC-32 changed): every byte it holds, then corrupt
        // data (the last bytes and the failed check come from one inflate call: they were lost)
        for (const std::size_t at : {gz.size() - 8, gz.size() - 5, gz.size() - 1}) { // (CRC-32, then the length)
            std::string bad = gz;
            bad[at] = static_cast<char>(bad[at] ^ 0x5a);
            for (const std::size_t out : {gzip_default, std::size_t{1000}}) {
                INFO("byte " << at << ", output buffer " << out);
                logscan::memory_source m(bad);
                logscan::gzip_source<logscan::memory_source> s(m, out);
                logscan::chunk end;
                CHECK(drain(s, &end) == text);
                CHECK(end.code == logscan::error_code::syntax);
                CHECK(logscan::chunk_error(end, 0).message == "corrupt gzip data");
                CHECK(s.next().code == logscan::error_code::syntax); // (and stays so)
            }
        }
    }
    { // rest_failure: what a source ends with, the rest of it read
        logscan::memory_source m(gz);
        logscan::gzip_source<logscan::memory_source> s(m, 1000);
        CHECK(!s.next().data.empty()); // (a parse that stopped early)
        CHECK(logscan::rest_failure(s).ok());
        CHECK(logscan::rest_failure(s).ok()); // (at its end: nothing more)
        std::string bad = gz;
        bad[gz.size() - 8] = static_cast<char>(bad[gz.size() - 8] ^ 0x5a);
        logscan::memory_source b(bad);
        logscan::gzip_source<logscan::memory_source> t(b, 1000);
        const std::size_t first = t.next().data.size(); // (the parse's part)
        CHECK(first > 0);
        const logscan::error e = logscan::rest_failure(t);
        CHECK(e.code == logscan::error_code::syntax);
        CHECK(e.message == "corrupt gzip data");
        CHECK(logscan::source_failed(e));
        CHECK(e.offset == text.size() - first); // (its check is at the end: the rest read whole, counted from the parse's end)
    }
    { // nothing at all: nothing
        logscan::memory_source m("");
        logscan::gzip_source<logscan::memory_source> s(m);
        logscan::chunk end;
        CHECK(drain(s, &end).empty());
        CHECK(end.code == logscan::error_code::none);
    }
}

TEST_CASE("gzip::no allocation while reading (after construction)") {
    const std::string gz = compressed("benchmark_result_2869224_1695835535_trace.json.gz");
    pieces_source p{gz, {3000}};
    logscan::gzip_source<pieces_source> s(p);
    std::size_t n = 0;
    LOGSCAN_CHECK_NO_ALLOC(for (logscan::chunk c = s.next(); !c.data.empty(); c = s.next()) n += c.data.size());
    CHECK(n == 319512);
}

TEST_CASE("gzip::maybe_gzip_source: plain input as it is, gzip decompressed, whatever the first chunk") {
    const std::string gz = compressed("event_sync_trace.json.gz");
    std::string text;
    {
        logscan::memory_source m(gz);
        logscan::gzip_source<logscan::memory_source> s(m);
        text = drain(s);
    }
    for (std::vector<std::size_t> sizes : {std::vector<std::size_t>{1}, {2}, {1, 5000}, {100000}}) {
        INFO("first chunk " << sizes[0]);
        pieces_source p{gz, sizes};
        logscan::maybe_gzip_source<pieces_source> s(p);
        CHECK(drain(s) == text);
        CHECK(s.gzip());
        pieces_source q{text, sizes};
        logscan::maybe_gzip_source<pieces_source> t(q);
        CHECK(drain(t) == text);
        CHECK(!t.gzip());
    }
    // a first byte 1f not followed by 8b is plain text; so is 1f alone
    for (std::string plain : {std::string("\x1f" "abc"), std::string("\x1f")}) {
        for (std::size_t first : {std::size_t{1}, std::size_t{8}}) {
            pieces_source p{plain, {first}};
            logscan::maybe_gzip_source<pieces_source> s(p);
            CHECK(drain(s) == plain);
            CHECK(!s.gzip());
        }
    }
}
#endif
