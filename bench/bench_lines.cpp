// SPDX-License-Identifier: MIT
// Line framing throughput: logscan's file_source + line_splitter against a plain page-aligned
// read() + memchr loop (the reference, ratio 1.00), std::getline and fgets, streaming a file
// built from a sample repeated to --mb MB (default 200) that sits in the page cache; then the
// same on an in-memory buffer. Every contender counts lines and line bytes, and the counts
// must agree.
//
//   bench_lines [--mb 200] [--runs 5]
#include <logscan/lines.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "bench_util.hpp"

namespace {
using counts = bench::line_counts;
struct counting_visitor {
    counts c;
    void on_line(const logscan::line& l) {
        ++c.lines;
        c.bytes += l.text.size();
    }
};

counts logscan_file(const char* path) {
    logscan::file_source src(path);
    logscan::line_buffer carry;
    counting_visitor v;
    (void)logscan::for_each_line(src, v, carry);
    return v.c;
}

counts getline_file(const char* path) {
    counts c;
    std::ifstream in(path, std::ios::binary);
    std::string l;
    while (std::getline(in, l)) {
        ++c.lines;
        c.bytes += l.size() - (!l.empty() && l.back() == '\r');
    }
    return c;
}

counts fgets_file(const char* path) {
    counts c;
    std::FILE* f = std::fopen(path, "rb");
    static char buf[1 << 16];
    bool continued = false;
    while (std::fgets(buf, sizeof buf, f)) {
        std::size_t n = std::strlen(buf);
        const bool complete = n && buf[n - 1] == '\n';
        if (complete) --n;
        if (complete && n && buf[n - 1] == '\r') --n;
        c.bytes += n;
        if (!continued) ++c.lines;
        continued = !complete;
    }
    std::fclose(f);
    return c;
}

counts memchr_memory(std::string_view text) {
    counts c;
    const char* p = text.data();
    const char* end = p + text.size();
    while (const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)))) {
        c.bytes += static_cast<std::uint64_t>(nl - p);
        ++c.lines;
        p = nl + 1;
    }
    if (p != end) {
        ++c.lines;
        c.bytes += static_cast<std::uint64_t>(end - p);
    }
    return c;
}

counts logscan_memory(std::string_view text) {
    counting_visitor v;
    (void)logscan::for_each_line(text, v);
    return v.c;
}

void run(const char* title, const std::string& unit, const bench::options& o) {
    const std::string text = bench::repeat_to(unit, o.mb);
    const std::string file_path = bench::temp_file(text, "logscan_bench_lines");
    const char* path = file_path.c_str();
    const counts expect = memchr_memory(text);
    bool agree = true;
    auto timed = [&](auto&& f) {
        counts got;
        const double s = bench::best_seconds(o.runs, [&] { got = f(); });
        agree = agree && got == expect;
        if (!(got == expect))
            std::fprintf(stderr, "MISMATCH: %llu lines / %llu bytes, expected %llu / %llu\n",
                         static_cast<unsigned long long>(got.lines), static_cast<unsigned long long>(got.bytes),
                         static_cast<unsigned long long>(expect.lines), static_cast<unsigned long long>(expect.bytes));
        return s;
    };
    (void)bench::memchr_file(path); // warm the page cache
    bench::table file(std::string(title) + ", streamed from a file in the page cache", text.size());
    file.add("read()+memchr loop (256 KiB aligned)", timed([&] { return bench::memchr_file(path); }), true);
    file.add("logscan file_source + line_splitter", timed([&] { return logscan_file(path); }));
    file.add("std::getline (ifstream)", timed([&] { return getline_file(path); }));
    file.add("fgets (64 KiB buffer)", timed([&] { return fgets_file(path); }));
    file.print();
    bench::table mem(std::string(title) + ", in memory", text.size());
    mem.add("memchr loop", timed([&] { return memchr_memory(text); }), true);
    mem.add("logscan for_each_line(string_view)", timed([&] { return logscan_memory(text); }));
    mem.print();
    std::remove(path);
    if (!agree) std::exit(1);
}
} // namespace

int main(int argc, char** argv) {
    const bench::options o = bench::parse_args(argc, argv, 200);
    run("megengine-log sample repeated", bench::sample("000_cf8afa6c099f806b.txt"), o);
    run("paddle-log sample repeated", bench::sample("003_1c776201c8b5b83e.txt"), o);
    return 0;
}
