// SPDX-License-Identifier: MIT
// formats/registry.hpp: the list of formats, looked up by name, iterated in order, extended.
#include <logscan/formats/registry.hpp>

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "support/chunking.hpp"
#include "support/string_writer.hpp"

namespace {
// The NDJSON of an input fed in `chunks` to format F's parser, one string per record.
template <class F>
std::vector<std::string> ndjson_of(logscan::test::chunk_list chunks) {
    std::string out;
    char buf[4096];
    logscan::test::string_writer w{logscan::test::string_sink{&out}, buf};
    typename F::template ndjson_visitor<logscan::test::string_writer> v{w};
    typename F::template parser<decltype(v)> p(v);
    for (std::string_view c : chunks)
        if (p.feed(c) == logscan::flow::stop) break;
    (void)p.finish();
    w.flush();
    std::vector<std::string> lines;
    for (std::string_view l : logscan::test::lines_of(out))
        if (!l.empty()) lines.emplace_back(l);
    return lines;
}
} // namespace

TEST_CASE("registry::every format by its name, in the order that breaks detection ties; unknown names are no format") {
    std::vector<std::string_view> names;
    logscan::for_each_format(logscan::all_formats{}, [&]<class F>() { names.push_back(F::name); });
    // the six formats of formats.md, the JSON dump, the Chrome trace and the Chainer graph first (README, detect.hpp)
    CHECK(names == std::vector<std::string_view>{"megengine-profile", "chrome-trace", "chainer-memtrace", "tvm-profile",
                                                 "paddle-log", "megengine-log"});
    for (std::string_view n : names) {
        std::string_view found;
        CHECK(logscan::with_format(logscan::all_formats{}, n, [&]<class F>() { found = F::name; }));
        CHECK(found == n);
        CHECK(logscan::has_format(logscan::all_formats{}, n));
    }
    int calls = 0;
    CHECK_FALSE(logscan::with_format(logscan::all_formats{}, "tvm_profile", [&]<class F>() { ++calls; })); // (a misspelling)
    CHECK_FALSE(logscan::with_format(logscan::all_formats{}, "", [&]<class F>() { ++calls; }));
    CHECK(calls == 0);
    // --threads: the line formats whose parsers tell when they are at rest (chainer-memtrace's
    // resumed after the records before: format.hpp's resume)
    std::vector<std::string_view> splittable;
    logscan::for_each_format(logscan::all_formats{}, [&]<class F>() {
        if constexpr (F::splittable) splittable.push_back(F::name);
    });
    CHECK(splittable == std::vector<std::string_view>{"chainer-memtrace", "tvm-profile", "paddle-log", "megengine-log"});
    // every format's record types end with its text (line formats) and error records
    logscan::for_each_format(logscan::all_formats{}, [&]<class F>() { CHECK(F::record_types.back() == "error"); });
    // a program's own list: logscan's formats and one more, after them
    using mine = logscan::formats_plus<logscan::all_formats, logscan::tvm_profile::format>;
    static_assert(mine::size == logscan::all_formats::size + 1);
}

TEST_CASE("registry::every line format reads an input that begins with a UTF-8 byte order mark as the same input without it") {
    // (Windows editors and PowerShell's Set-Content -Encoding UTF8 put one first; the first
    // line's record was text, and a Chainer graph's counts line lost the whole graph)
    const struct {
        std::string_view format;
        const char* sample;
    } cases[] = {{"megengine-log", "000_cf8afa6c099f806b.txt"},
                 {"chainer-memtrace", "002_925085f7148f0ebf.txt"},
                 {"paddle-log", "003_1c776201c8b5b83e.txt"},
                 {"tvm-profile", "004_d73c77cb3fb2895c.txt"}};
    for (const auto& c : cases) {
        INFO(std::string(c.sample));
        const std::string text = logscan::test::read_file(logscan::test::sample_path(c.sample));
        const std::string marked = "\xEF\xBB\xBF" + text;
        CHECK(logscan::with_format(logscan::all_formats{}, c.format, [&]<class F>() {
            const logscan::test::chunked_input plain(text, {}), bom(marked, {});
            const std::vector<std::string> want = ndjson_of<F>(plain.chunks());
            REQUIRE(want.size() > 100);
            CHECK(ndjson_of<F>(bom.chunks()) == want);
            // the mark split anywhere: its first lines, under any chunking
            const std::size_t cut = text.find('\n', 2000) + 1;
            const logscan::test::chunked_input head(text.substr(0, cut), {});
            const std::vector<std::string> head_records = ndjson_of<F>(head.chunks());
            logscan::test::check_chunk_invariance(std::string_view(marked).substr(0, cut + 3), [&](logscan::test::chunk_list chunks) {
                const std::vector<std::string> got = ndjson_of<F>(chunks);
                CHECK(got == head_records);
                return got;
            }, 4);
        }));
    }
}

namespace {
// The text records' line numbers and offsets.
struct text_positions {
    std::vector<std::string> seen;
    void on_text(const logscan::line& l) {
        seen.push_back(std::to_string(l.number) + "@" + std::to_string(l.offset) + ":" + std::string(l.text));
    }
};
} // namespace

TEST_CASE("registry::after a dropped byte order mark, offsets count its bytes; a part that does not start the input drops none; at rest only past it") {
    namespace ml = logscan::megengine_log;
    {
        text_positions v;
        ml::parser<text_positions> p(v);
        CHECK(p.at_rest());
        (void)p.feed("\xEF");
        CHECK(!p.at_rest()); // (a piece of a mark held)
        (void)p.feed("\xBB\xBFhello\nworld\n");
        CHECK(p.at_rest());
        (void)p.finish();
        CHECK(v.seen == std::vector<std::string>{"1@3:hello", "2@9:world"});
    }
    {
        text_positions v;
        ml::parser<text_positions> p(v);
        p.start_at(4, 100); // (a later part of the input: its bytes as they are)
        (void)p.feed("\xEF\xBB\xBFhello\n");
        (void)p.finish();
        CHECK(v.seen == std::vector<std::string>{"5@100:\xEF\xBB\xBFhello"});
    }
}
