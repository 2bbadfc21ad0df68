// SPDX-License-Identifier: MIT
#include <logscan/source.hpp>
#include <logscan/lines.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

#include "support/alloc_counter.hpp"
#include "support/chunking.hpp"

namespace {
struct collect {
    std::string joined; // every line followed by '\n'
    std::uint64_t lines = 0;
    void on_line(const logscan::line& l) {
        joined.append(l.text);
        joined.push_back('\n');
        ++lines;
    }
};
struct count_only {
    std::uint64_t lines = 0, bytes = 0;
    void on_line(const logscan::line& l) {
        ++lines;
        bytes += l.text.size();
    }
};
// Writes `text` into a fresh temporary file and returns its path.
std::string temp_file(const std::string& text) {
    char name[] = "/tmp/logscan_test_XXXXXX";
    const int fd = ::mkstemp(name);
    REQUIRE(fd >= 0);
    REQUIRE(::write(fd, text.data(), text.size()) == static_cast<::ssize_t>(text.size()));
    ::close(fd);
    return name;
}
} // namespace

TEST_CASE("source::memory_source hands out the buffer once") {
    logscan::memory_source m("abc");
    const logscan::chunk c = m.next();
    CHECK(c.data == "abc");
    CHECK(m.next().at_end());
    CHECK(m.next().at_end());
}

TEST_CASE("source::file_source reads a sample through an aligned buffer") {
    const std::string path = logscan::test::sample_path("000_cf8afa6c099f806b.txt");
    const std::string text = logscan::test::read_file(path);
    for (std::size_t buf : {std::size_t{1}, std::size_t{4096}, std::size_t{10000}, std::size_t{1} << 20}) {
        INFO("buffer " << buf);
        logscan::file_source src(path.c_str(), buf);
        REQUIRE(src.is_open());
        CHECK(src.buffer_size() % 4096 == 0);
        std::string all;
        for (;;) {
            const logscan::chunk c = src.next();
            REQUIRE(c.code == logscan::error_code::none);
            if (c.at_end()) break;
            CHECK(reinterpret_cast<std::uintptr_t>(c.data.data()) % 4096 == 0);
            CHECK(c.data.size() <= src.buffer_size());
            all.append(c.data);
        }
        CHECK(all == text);
    }
}

TEST_CASE("source::for_each_line over a file equals the whole-buffer lines, allocation-free") {
    for (const char* name : {"000_cf8afa6c099f806b.txt", "003_1c776201c8b5b83e.txt", "004_d73c77cb3fb2895c.txt"}) {
        INFO(name);
        const std::string path = logscan::test::sample_path(name);
        const std::string text = logscan::test::read_file(path);
        collect whole;
        logscan::for_each_line(std::string_view(text), whole);

        logscan::file_source src(path.c_str(), 4096); // many chunk boundaries
        logscan::line_buffer carry;
        collect streamed;
        streamed.joined.reserve(whole.joined.size() + 1); // so the visitor itself does not allocate
        logscan::error e;
        LOGSCAN_CHECK_NO_ALLOC(e = logscan::for_each_line(src, streamed, carry));
        CHECK(e.ok());
        CHECK(e.line == whole.lines);
        CHECK(e.offset == text.size());
        CHECK(streamed.joined == whole.joined);
    }
}

TEST_CASE("source::source_ref reads any source through one type: the same lines, errors and errno") {
    static_assert(logscan::byte_source<logscan::source_ref>);
    const std::string path = logscan::test::sample_path("003_1c776201c8b5b83e.txt");
    const std::string text = logscan::test::read_file(path);
    collect whole;
    logscan::for_each_line(std::string_view(text), whole);
    // a file, through a reference (and a reference copied: it refers to the file still)
    logscan::file_source file(path.c_str(), 4096);
    const logscan::source_ref ref = file;
    logscan::source_ref copy = ref;
    logscan::line_buffer carry;
    collect streamed;
    streamed.joined.reserve(whole.joined.size() + 1);
    logscan::error e;
    LOGSCAN_CHECK_NO_ALLOC(e = logscan::for_each_line(copy, streamed, carry));
    CHECK(e.ok());
    CHECK(e.line == whole.lines);
    CHECK(streamed.joined == whole.joined);
    // memory, and a source that fails: its code and errno come through
    logscan::memory_source mem("a\nb");
    logscan::source_ref mref = mem;
    collect two;
    logscan::line_buffer carry2(64);
    CHECK(logscan::for_each_line(mref, two, carry2).ok());
    CHECK(two.joined == "a\nb\n");
    logscan::fd_source bad(-1);
    logscan::source_ref bref = bad;
    const logscan::chunk c = bref.next();
    CHECK(c.code == logscan::error_code::io_error);
    CHECK(c.sys_errno == EBADF);
}

TEST_CASE("source::file_source reports a file that cannot be opened") {
    logscan::file_source src("/nonexistent/logscan/file.log");
    CHECK_FALSE(src.is_open());
    const logscan::chunk c = src.next();
    CHECK(c.code == logscan::error_code::open_failed);
    CHECK(c.sys_errno == ENOENT);
    count_only v;
    logscan::line_buffer carry(64);
    const logscan::error e = logscan::for_each_line(src, v, carry);
    CHECK(e.code == logscan::error_code::open_failed);
    CHECK(e.sys_errno == ENOENT);
    CHECK(v.lines == 0);
}

TEST_CASE("source::pump: a source that fails before its first byte leaves the consumer unfinished") {
    // (a JSON parser finished on nothing says `expected a JSON value`: a document never read)
    struct consumer {
        int fed = 0, finished = 0;
        logscan::flow feed(std::string_view) { return ++fed, logscan::flow::proceed; }
        logscan::flow finish() { return ++finished, logscan::flow::proceed; }
    };
    logscan::file_source missing("/nonexistent/logscan/trace.json");
    consumer c;
    CHECK(logscan::pump(missing, c).code == logscan::error_code::open_failed);
    CHECK(c.fed == 0);
    CHECK(c.finished == 0);
    // one that fails after some bytes is finished, so that nothing read is lost
    struct failing_after_one {
        int n = 0;
        logscan::chunk next() {
            if (n++ == 0) return {"[1,", logscan::error_code::none, 0, {}};
            return {{}, logscan::error_code::io_error, EIO, "read failed"};
        }
    } late;
    consumer d;
    CHECK(logscan::pump(late, d).code == logscan::error_code::io_error);
    CHECK(d.fed == 1);
    CHECK(d.finished == 1);
}

TEST_CASE("source::fd_source reads a pipe, delivering a last line without newline") {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    const std::string text = "first\r\nsecond\nthird";
    REQUIRE(::write(fds[1], text.data(), text.size()) == static_cast<::ssize_t>(text.size()));
    ::close(fds[1]);
    logscan::fd_source src(fds[0], 4096);
    logscan::line_buffer carry(64);
    collect v;
    CHECK(logscan::for_each_line(src, v, carry).ok());
    ::close(fds[0]);
    CHECK(v.joined == "first\nsecond\nthird\n");
}

TEST_CASE("source::a read error ends the parse with io_error, after the lines read before it") {
    logscan::fd_source src(-1); // EBADF
    count_only v;
    logscan::line_buffer carry(64);
    const logscan::error e = logscan::for_each_line(src, v, carry);
    CHECK(e.code == logscan::error_code::io_error);
    CHECK(e.sys_errno == EBADF);
    CHECK(logscan::source_failed(e));
    CHECK(e.offset == 0);

    // after two lines and a part of a third: every line read is delivered, and the failure
    // stays the source's (no line: source_failed tells it), at the bytes read before it
    struct failing_after_lines {
        int n = 0;
        logscan::chunk next() {
            if (n++ == 0) return {"one\ntwo\nthr", logscan::error_code::none, 0, {}};
            return {{}, logscan::error_code::io_error, EIO, "read failed"};
        }
    } late;
    collect w;
    const logscan::error f = logscan::for_each_line(late, w, carry);
    CHECK(w.joined == "one\ntwo\nthr\n");
    CHECK(f.code == logscan::error_code::io_error);
    CHECK(f.sys_errno == EIO);
    CHECK(f.line == 0);
    CHECK(f.offset == 11); // ("one\ntwo\nthr")
    CHECK(logscan::source_failed(f));
}

TEST_CASE("source::temp file with CRLF and a long line streamed through small buffers") {
    std::string text;
    for (int i = 0; i < 2000; ++i) text += "row " + std::to_string(i) + "\r\n";
    text += std::string(9000, 'x') + "\n"; // longer than the 4096-byte read buffer
    text += "tail";
    const std::string path = temp_file(text);
    collect whole;
    logscan::for_each_line(std::string_view(text), whole);
    logscan::file_source src(path.c_str(), 4096);
    logscan::line_buffer carry(16384);
    collect v;
    CHECK(logscan::for_each_line(src, v, carry).ok());
    CHECK(v.joined == whole.joined);
    CHECK(v.lines == 2002);
    std::remove(path.c_str());
}

TEST_CASE("source_failed: the source's failure, not the input's own break") {
    using logscan::error;
    using logscan::error_code;
    CHECK(logscan::source_failed(error{error_code::io_error, 0, 0, 10, "read error", 5}));
    CHECK(logscan::source_failed(error{error_code::open_failed, 0, 0, 0, "cannot open file", 2}));
    CHECK(logscan::source_failed(error{error_code::unexpected_end, 0, 0, 0, "unexpected end of input", 0})); // (a cut gzip stream)
    CHECK(logscan::source_failed(error{error_code::syntax, 0, 0, 0, "corrupt", 84}));                     // (corrupt gzip: EILSEQ)
    CHECK_FALSE(logscan::source_failed(error{}));
    CHECK_FALSE(logscan::source_failed(error{error_code::stopped, 0, 0, 0, "stopped by visitor", 0}));
    CHECK_FALSE(logscan::source_failed(error{error_code::syntax, 3, 7, 40, "expected ','", 0}));          // (a document's break: its line)
    CHECK_FALSE(logscan::source_failed(error{error_code::unexpected_end, 9, 1, 80, "unexpected end", 0}));
    CHECK_FALSE(logscan::source_failed(error{error_code::syntax, 0, 0, 0, "traceEvents is not an array", 0})); // (chrome-trace's shape)
}

TEST_CASE("source::byte_order_mark drops a UTF-8 mark that begins the input, whatever the chunks; other bytes pass as they were") {
    // (input, what passes on, whether a mark was dropped)
    const struct {
        std::string_view in, out;
        bool dropped;
    } cases[] = {{"\xEF\xBB\xBF[06 15:13:35] x\n", "[06 15:13:35] x\n", true},
                 {"\xEF\xBB\xBF", "", true},
                 {"\xEF\xBB\xBF\xEF\xBB\xBFz", "\xEF\xBB\xBFz", true}, // (one mark: the first)
                 {"\xEF\xBBx", "\xEF\xBBx", false},
                 {"\xEF\xBB", "\xEF\xBB", false}, // (the input ends inside: given at finish)
                 {"\xEF", "\xEF", false},
                 {"x\xEF\xBB\xBF", "x\xEF\xBB\xBF", false}, // (only at the start)
                 {"", "", false},
                 {"abc", "abc", false}};
    for (const auto& c : cases) {
        INFO(std::string(c.in));
        logscan::test::check_chunk_invariance(c.in, [&](logscan::test::chunk_list chunks) {
            logscan::byte_order_mark bom;
            std::string out;
            int marks = 0;
            std::size_t at_mark = 0; // (bytes passed on when the mark was dropped: none)
            const auto give = [&](std::string_view s) {
                CHECK(!s.empty());
                out.append(s);
                return logscan::flow::proceed;
            };
            for (std::string_view ch : chunks) {
                CHECK(bom.feed(ch, give, [&] {
                    ++marks;
                    at_mark = out.size();
                }) == logscan::flow::proceed);
            }
            CHECK(bom.finish(give) == logscan::flow::proceed);
            CHECK(bom.settled());
            CHECK(marks == (c.dropped ? 1 : 0));
            CHECK(bom.dropped() == c.dropped);
            CHECK(at_mark == 0);
            return out;
        });
        logscan::byte_order_mark bom;
        std::string out;
        const auto give = [&](std::string_view s) {
            out.append(s);
            return logscan::flow::proceed;
        };
        (void)bom.feed(c.in, give, [] {});
        (void)bom.finish(give);
        CHECK(out == c.out);
    }
    // a later part of an input: nothing dropped; a stop from `give` is returned
    logscan::byte_order_mark later;
    CHECK(later.at_start());
    later.settle();
    CHECK((later.settled() && !later.at_start() && !later.dropped()));
    logscan::byte_order_mark stopping;
    CHECK(stopping.feed("\xEF\xBBx", [](std::string_view) { return logscan::flow::stop; }, [] {}) == logscan::flow::stop);
}

TEST_CASE("source::input_tail: an input that ends inside its last line, in pieces of every size") {
    // expected from the whole text: a byte not blank (space, tab, CR) after its last '\n'
    const auto cut_inside = [](std::string_view t) {
        const std::size_t nl = t.rfind('\n');
        const std::string_view last = nl == std::string_view::npos ? t : t.substr(nl + 1);
        return last.find_first_not_of(" \t\r") != std::string_view::npos;
    };
    const std::string_view inputs[] = {"", "\n", "a", "a\n", "a\nb", "a\nb\n", "a\n  \t\r", "a\n  x ", "  \n\n", "x\r\n", "12 3\n4 5 6", "\n\n\t"};
    for (const std::string_view text : inputs) {
        for (std::size_t piece = 1; piece <= text.size() + 1; ++piece) { // (chunks of `piece` bytes: 1 byte to the whole)
            CAPTURE(text);
            CAPTURE(piece);
            logscan::input_tail tail;
            for (std::size_t at = 0; at < text.size(); at += piece) {
                tail.see(logscan::chunk{text.substr(at, piece), logscan::error_code::none, 0});
                CHECK_FALSE(tail.ends_inside_line()); // (not before the input's end)
            }
            tail.see(logscan::chunk{});
            CHECK(tail.ends_inside_line() == cut_inside(text));
        }
    }
    // a source that fails: not an input that ended (its failure is what is said)
    logscan::input_tail failed;
    failed.see(logscan::chunk{"a\nb", logscan::error_code::none, 0});
    failed.see(logscan::chunk{{}, logscan::error_code::io_error, 5});
    CHECK_FALSE(failed.ends_inside_line());
}

TEST_CASE("source::tail_watch: a parse through it, then whether the input ended inside its last line") {
    struct lines_seen {
        std::size_t n = 0;
        void on_line(const logscan::line&) { ++n; }
    };
    for (const auto& c : {std::pair<std::string_view, bool>{"a\nb", true}, {"a\nb\n", false}, {"a\n  ", false}, {"", false}}) {
        const std::string_view text = c.first; // (not a structured binding: CAPTURE's lambda takes it)
        const bool cut = c.second;
        CAPTURE(text);
        logscan::memory_source m(text);
        logscan::tail_watch src{m};
        lines_seen v;
        logscan::line_buffer carry(64);
        CHECK(logscan::for_each_line(src, v, carry).ok());
        CHECK(src.ends_inside_line() == cut);
        // (every line, the last one without its newline too)
        CHECK(v.n == static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + (!text.empty() && text.back() != '\n'));
    }
}
