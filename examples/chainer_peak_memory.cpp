// SPDX-License-Identifier: MIT
// chainer_peak_memory: the peak of live buffer bytes of a Chainer computational graph dump
// (chainer-memtrace) over its function records in the order of their rank — one custom
// visitor on the chainer-memtrace format.
//
//   chainer_peak_memory FILE      (- for standard input)
//
// Order: the functions with a rank (the integer `rank` key of their parameters, as the
// format reads it) by rank, equal ranks in file order; then the functions without a rank, in
// file order. (So a forward record and a backward record of the same rank are neighbours, in
// file order.) A buffer is live from the position of its first use to that of its last use,
// as input or output, both included; its size is that of its buffer line (a buffer id that no
// buffer line lists counts 0 bytes, and is reported). The live bytes at a position are the
// sum of the sizes of the buffers live there; the peak is their largest value, and every
// position where it is reached is listed with its function (file index, direction, type,
// rank). Also printed: the total bytes of the buffer list and how many listed buffers no
// function uses.
//
// The order is known only at the end, so the function records (their buffer ids) are kept:
// memory is O(functions + inputs + outputs + buffers).
#include <logscan/formats/chainer_memtrace.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace cm = logscan::chainer_memtrace;

struct function {
    std::uint64_t index;
    std::optional<std::int64_t> rank;
    std::string direction, type;
    std::vector<std::uint64_t> buffers; // inputs, then outputs
};

struct graph {
    std::map<std::uint64_t, std::uint64_t> sizes; // buffer id -> bytes (a repeated id: its last line)
    std::vector<function> functions;              // file order
    std::size_t errors = 0;                       // broken records, lines too long

    void on_buffer(const cm::buffer& b) { sizes[b.id] = b.size; }
    void on_function(const cm::function& f) {
        function& g = functions.emplace_back(function{f.index, f.rank, std::string(f.direction), std::string(f.func_type), {}});
        for (const cm::input& in : f.inputs) g.buffers.push_back(in.id);
        g.buffers.insert(g.buffers.end(), f.outputs.begin(), f.outputs.end());
    }
    void on_error(const logscan::error&) { ++errors; }
};

constexpr double mib(std::uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: chainer_peak_memory FILE   (- for standard input)\n");
        return 2;
    }
    graph g;
    const logscan::error e = logscan::with_input(argv[1], [&](auto& src) { return cm::parse(src, g); });
    if (!e.ok()) { // where it stopped, and the system's reason for I/O errors
        std::fprintf(stderr, "chainer_peak_memory: %s: %.*s", argv[1], static_cast<int>(e.message.size()), e.message.data());
        if (e.line != 0)
            std::fprintf(stderr, " at line %llu, column %llu", static_cast<unsigned long long>(e.line),
                         static_cast<unsigned long long>(e.column));
        if (e.sys_errno != 0) std::fprintf(stderr, " (%s)", std::strerror(e.sys_errno));
        std::fprintf(stderr, "\n");
        return 1;
    }

    // the order: ranked first, by rank; stable, so ties and the unranked keep file order
    std::vector<function>& fs = g.functions;
    std::stable_sort(fs.begin(), fs.end(), [](const function& a, const function& b) {
        if (a.rank.has_value() != b.rank.has_value()) return a.rank.has_value();
        return a.rank.has_value() && *a.rank < *b.rank;
    });
    // each used buffer's first and last position
    std::map<std::uint64_t, std::pair<std::size_t, std::size_t>> span;
    for (std::size_t pos = 0; pos < fs.size(); ++pos)
        for (const std::uint64_t id : fs[pos].buffers) {
            const auto [it, fresh] = span.try_emplace(id, pos, pos);
            if (!fresh) it->second.second = pos;
        }
    // live bytes by position: a buffer's size comes in at its first position, goes after its last
    std::vector<std::uint64_t> comes(fs.size()), goes(fs.size()), live(fs.size());
    std::size_t unlisted = 0;
    for (const auto& [id, first_last] : span) {
        const auto s = g.sizes.find(id);
        if (s == g.sizes.end()) {
            ++unlisted;
            continue;
        }
        comes[first_last.first] += s->second;
        goes[first_last.second] += s->second;
    }
    std::uint64_t now = 0, peak = 0;
    for (std::size_t pos = 0; pos < fs.size(); ++pos) {
        now += comes[pos];
        live[pos] = now;
        peak = std::max(peak, now);
        now -= goes[pos];
    }

    std::uint64_t total = 0;
    std::size_t unused = 0;
    for (const auto& [id, size] : g.sizes) {
        total += size;
        if (!span.contains(id)) ++unused;
    }
    const auto ranked = std::count_if(fs.begin(), fs.end(), [](const function& f) { return f.rank.has_value(); });
    std::printf("functions: %zu (%td with a rank), buffers: %zu\n", fs.size(), ranked, g.sizes.size());
    std::printf("total buffer bytes: %llu (%.2f MiB), buffers never used: %zu\n", static_cast<unsigned long long>(total),
                mib(total), unused);
    const auto at_peak = std::count(live.begin(), live.end(), peak);
    std::printf("peak live bytes: %llu (%.2f MiB) at %td position%s\n", static_cast<unsigned long long>(peak), mib(peak),
                fs.empty() ? 0 : at_peak, at_peak == 1 ? "" : "s");
    if (!fs.empty()) {
        std::printf("%8s  %6s  %6s  %-9s  %s\n", "position", "rank", "index", "direction", "type");
        for (std::size_t pos = 0; pos < fs.size(); ++pos) {
            if (live[pos] != peak) continue;
            const function& f = fs[pos];
            const std::string rank = f.rank ? std::to_string(*f.rank) : "-";
            std::printf("%8zu  %6s  %6llu  %-9s  %s\n", pos, rank.c_str(), static_cast<unsigned long long>(f.index),
                        f.direction.c_str(), f.type.c_str());
        }
    }
    if (unlisted != 0) std::printf("(%zu buffer ids used but not listed, counted as 0 bytes)\n", unlisted);
    if (g.errors != 0) std::printf("(%zu errors in the input; broken records are left out)\n", g.errors);
    return 0;
}
