// SPDX-License-Identifier: MIT
// parallel.hpp: an input parsed in parts by several threads gives the one-thread output,
// byte for byte, whatever the part size, for each splittable format's sample repeated.
#include <logscan/parallel.hpp>

#include <logscan/formats/registry.hpp>
#include <logscan/ndjson.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "support/chunking.hpp"
#include "support/string_writer.hpp"

namespace {

using logscan::test::string_sink;
using logscan::test::string_writer;

// A part's NDJSON, in memory (what the driver's Out is: writer() and clear()).
struct ndjson_out {
    std::string text;
    std::unique_ptr<char[]> buf = std::make_unique<char[]>(4096);
    string_writer w{string_sink{&text}, std::span<char>(buf.get(), 4096)};
    string_writer& writer() { return w; }
    void clear() {
        w.flush();
        text.clear();
    }
};

// The error records' count and the first of them.
struct error_seen {
    std::uint64_t count = 0;
    logscan::error first{};
};

template <class F>
std::string one_thread(std::string_view in, error_seen& errors) {
    std::string out;
    char buf[4096];
    string_writer w(string_sink{&out}, buf);
    typename F::template ndjson_visitor<string_writer> v{w};
    REQUIRE(F::parse(in, v, {.max_line = 4096}).ok());
    w.flush();
    errors = {v.errors, v.first_error};
    return out;
}

template <class F>
std::string in_parts(std::string_view in, unsigned threads, std::size_t part, logscan::parts_count& count, error_seen& errors) {
    using slot = logscan::part_slot<F::template parser, F::template ndjson_visitor, ndjson_out>;
    std::string out;
    logscan::memory_source src(in);
    const logscan::error e = logscan::parse_in_parts<slot>(
        src, {threads, part}, [](std::string_view a, std::string_view b) { return F::split_point(a, b); },
        [] {
            auto s = std::make_unique<slot>();
            s->options.max_line = 4096;
            return s;
        },
        [&](slot& s) {
            s.out.w.flush();
            out += s.out.text;
            s.out.text.clear();
        },
        errors.count, count, &errors.first);
    CHECK(e.ok());
    return out;
}

} // namespace

TEST_CASE("parallel::parse_in_parts gives the one-thread output for every splittable format and part size") {
    const char* samples[] = {"000_cf8afa6c099f806b.txt", "002_925085f7148f0ebf.txt", "003_1c776201c8b5b83e.txt", "004_d73c77cb3fb2895c.txt"};
    std::size_t formats = 0;
    logscan::for_each_format(logscan::all_formats{}, [&]<class F>() {
        if constexpr (F::splittable) {
            ++formats;
            for (const char* name : samples) {
                const std::string text = logscan::test::read_file(logscan::test::sample_path(name));
                if (F::detect(text.substr(0, 16384), true) == 0) continue; // (its own sample)
                // a copy cut short between, and a line longer than the parsers' limit in the last
                // copy (an error record; its first, counted from the input, said alike by both)
                const std::string before = text + text.substr(0, text.size() / 3) + "\n" + text;
                const std::string in = before + std::string(5000, 'x') + "\n" + text;
                error_seen want_errors;
                const std::string want = one_thread<F>(in, want_errors);
                REQUIRE(!want.empty());
                CHECK(want_errors.count != 0);
                // (a Chainer graph repeated is broken where its copies meet: its first error is there)
                if (F::name != "chainer-memtrace")
                    CHECK(want_errors.first.line == static_cast<std::uint64_t>(std::count(before.begin(), before.end(), '\n')) + 1);
                logscan::parts_count total;
                for (const std::size_t part : {std::size_t{64}, std::size_t{1000}, std::size_t{9000}, in.size() / 3, in.size() * 2}) {
                    INFO(F::name << ", part size " << part);
                    logscan::parts_count count;
                    error_seen errors;
                    CHECK(in_parts<F>(in, part == 64 ? 2 : 3, part, count, errors) == want);
                    CHECK(errors.count == want_errors.count);
                    CHECK(errors.first.line == want_errors.first.line);
                    CHECK(errors.first.column == want_errors.first.column);
                    CHECK(errors.first.message == want_errors.first.message);
                    total.kept += count.kept;
                    total.redone += count.redone;
                }
                CHECK(total.kept > 10); // parts kept as parsed in parallel ...
                CHECK(total.redone > 0); // ... and parts read again after a record across a cut
            }
        }
    });
    CHECK(formats == 4); // megengine-log, chainer-memtrace (resumed: format.hpp's resume), paddle-log, tvm-profile
}

TEST_CASE("parallel: a part's newlines counted in blocks equal a count byte by byte") {
    // (lengths around the 16-byte blocks and the 255-block sums; all newlines, none, a mix)
    std::string all(255 * 16 * 2 + 37, '\n'), mix;
    for (std::size_t i = 0; i < all.size(); ++i) mix += (i * 7919 % 13 < 4) ? '\n' : 'x';
    for (const std::string* s : {&all, &mix})
        for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{17}, std::size_t{255 * 16 - 1},
                                    std::size_t{255 * 16}, std::size_t{255 * 16 + 1}, std::size_t{255 * 16 * 2 + 5}, s->size()}) {
            const std::string_view v = std::string_view(*s).substr(0, n);
            CHECK(logscan::internal::newlines(v) == static_cast<std::uint64_t>(std::count(v.begin(), v.end(), '\n')));
            CHECK(logscan::internal::newlines(v.substr(std::min<std::size_t>(3, v.size()))) ==
                  static_cast<std::uint64_t>(std::count(v.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(3, v.size())), v.end(), '\n')));
        }
    CHECK(logscan::internal::newlines(all) == all.size());
}

namespace {
// A slot whose parse throws on the part holding "boom" (and counts its lines otherwise).
struct throwing_slot {
    std::string bytes;
    std::uint64_t lines_before = 0, offset = 0;
    bool starts_line = true, parsed = false, at_rest = true;
    std::uint64_t lines = 0;
    void parse() {
        if (bytes.find("boom") != std::string::npos) throw std::runtime_error("boom");
        lines = logscan::internal::newlines(bytes);
    }
    void read(std::string_view more) { lines += logscan::internal::newlines(more); }
    bool takes_over() const noexcept { return true; }
    void finish() {}
    std::uint64_t errors() const noexcept { return 0; }
    void release() { lines = 0; }
};
} // namespace

TEST_CASE("parallel: an exception in a worker or in drain reaches the caller, the workers joined") {
    std::string text;
    for (int i = 0; i < 2000; ++i) text += "line " + std::to_string(i) + "\n";
    const std::string with_boom = text.substr(0, 9000) + "boom\n" + text.substr(9000);
    const auto split = [](std::string_view, std::string_view) { return true; };
    const auto make = [] { return std::make_unique<throwing_slot>(); };
    std::uint64_t errors = 0, lines = 0;
    logscan::parts_count count;
    {
        logscan::memory_source src(text);
        const logscan::error e = logscan::parse_in_parts<throwing_slot>(src, {.threads = 2, .part_bytes = 500}, split, make,
                                                                        [&](throwing_slot& s) { lines = s.lines; }, errors, count);
        CHECK(e.ok());
        CHECK(count.kept > 10);
    }
    for (const bool in_drain : {false, true}) {
        CAPTURE(in_drain);
        logscan::memory_source src(in_drain ? text : with_boom);
        std::uint64_t drained = 0;
        bool threw = false;
        try {
            (void)logscan::parse_in_parts<throwing_slot>(src, {.threads = 2, .part_bytes = 500}, split, make,
                                                         [&](throwing_slot&) {
                                                             if (in_drain && ++drained == 5) throw std::runtime_error("drain");
                                                         },
                                                         errors, count);
        } catch (const std::runtime_error& x) {
            threw = true;
            CHECK(std::string(x.what()) == (in_drain ? "drain" : "boom"));
        }
        CHECK(threw);
    }
}

namespace {
// A slot that counts its part's lines (at rest after every line: each part kept).
struct counting_slot {
    std::string bytes;
    std::uint64_t lines_before = 0, offset = 0;
    bool starts_line = true, parsed = false, at_rest = true;
    std::uint64_t lines = 0, drained = 0;
    void parse() {
        lines = logscan::internal::newlines(bytes);
        drained = 0;
    }
    void read(std::string_view more) { lines += logscan::internal::newlines(more); }
    bool takes_over() const noexcept { return true; }
    void finish() {}
    std::uint64_t errors() const noexcept { return 0; }
    void release() { lines = drained = 0; }
};
} // namespace

TEST_CASE("parallel: drain is called one part at a time, in input order, whichever thread calls it") {
    std::string text;
    for (int i = 0; i < 3000; ++i) text += "line " + std::to_string(i) + "\n";
    const auto split = [](std::string_view, std::string_view) { return true; };
    for (const unsigned threads : {1u, 2u, 4u})
        for (int round = 0; round < 20; ++round) {
            CAPTURE(threads);
            logscan::memory_source src(text);
            std::atomic<int> inside{0};
            bool overlapped = false, out_of_order = false;
            std::uint64_t lines = 0, last_offset = 0, errors = 0;
            logscan::parts_count count;
            const logscan::error e = logscan::parse_in_parts<counting_slot>(
                src, {.threads = threads, .part_bytes = 64}, split, [] { return std::make_unique<counting_slot>(); },
                [&](counting_slot& s) {
                    if (inside.fetch_add(1) != 0) overlapped = true;
                    if (s.offset < last_offset) out_of_order = true;
                    last_offset = s.offset;
                    CHECK(s.lines_before == lines - s.drained); // (the lines of the parts before it, drained already)
                    lines += s.lines - s.drained;
                    s.drained = s.lines;
                    inside.fetch_sub(1);
                },
                errors, count);
            CHECK(e.ok());
            CHECK_FALSE(overlapped);
            CHECK_FALSE(out_of_order);
            CHECK(lines == 3000);
            CHECK(count.kept > 100);
            CHECK(count.redone == 0);
        }
}

namespace {
// A counting slot whose parser ends (`stopped()`) once the input's first 500 lines are read
// (its part's and those before it): a visitor that stopped the parse.
struct stopping_slot : counting_slot {
    bool stopped() const noexcept { return lines_before + lines >= 500; }
};
} // namespace

TEST_CASE("parallel: once the parser that read everything kept so far stops, nothing more is kept, drained or read") {
    std::string text;
    for (int i = 0; i < 20000; ++i) text += "line " + std::to_string(i) + "\n";
    const auto split = [](std::string_view, std::string_view) { return true; };
    for (const unsigned threads : {1u, 2u, 4u}) {
        CAPTURE(threads);
        struct counted_source { // (pieces of 1000 bytes, counted)
            std::string_view rest;
            std::size_t bytes = 0;
            logscan::chunk next() {
                const std::string_view c = rest.substr(0, 1000);
                rest.remove_prefix(c.size());
                bytes += c.size();
                return {c};
            }
        } src{text};
        std::uint64_t lines = 0, errors = 0, drains_after = 0;
        bool stopped_seen = false;
        logscan::parts_count count;
        const logscan::error e = logscan::parse_in_parts<stopping_slot>(
            src, {.threads = threads, .part_bytes = 2000}, split, [] { return std::make_unique<stopping_slot>(); },
            [&](stopping_slot& s) {
                if (stopped_seen && s.lines != s.drained) ++drains_after;
                lines += s.lines - s.drained;
                s.drained = s.lines;
                stopped_seen = stopped_seen || s.stopped();
            },
            errors, count);
        CHECK(e.ok());
        CHECK(stopped_seen);
        CHECK(drains_after == 0);         // (no line after the stop)
        CHECK(lines >= 500);
        CHECK(lines < 500 + 2 * 200);     // (the part that stopped, at most: parts of about 2000 bytes, 11-12 bytes a line)
        CHECK(src.bytes < text.size() / 2); // (the reading ended soon after)
    }
}
