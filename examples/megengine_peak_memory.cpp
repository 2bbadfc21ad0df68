// SPDX-License-Identifier: MIT
// megengine_peak_memory: per comp node, the largest static memory allocation of a MegEngine
// training log and the line it was reported on — one custom visitor on the megengine-log
// format, in constant memory.
//
//   megengine_peak_memory FILE      (- for standard input)
#include <logscan/formats/megengine_log.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace {

struct peak {
    char comp_node[32];
    std::uint64_t bytes;
    double mib;
    std::uint64_t line;
};

struct peak_memory {
    std::array<peak, 64> nodes{};  // comp nodes in order of appearance
    std::size_t n = 0, dropped = 0; // (more than 64 comp nodes: counted, reported)

    void on_mem_alloc(const logscan::megengine_log::mem_alloc& r) {
        for (std::size_t i = 0; i < n; ++i)
            if (r.comp_node == nodes[i].comp_node) {
                if (r.alloc_bytes > nodes[i].bytes) nodes[i] = make(r);
                return;
            }
        if (n == nodes.size() || r.comp_node.size() >= sizeof nodes[0].comp_node) {
            ++dropped;
            return;
        }
        nodes[n++] = make(r);
    }
    static peak make(const logscan::megengine_log::mem_alloc& r) {
        peak p{{}, r.alloc_bytes, r.alloc_mib, r.line};
        r.comp_node.copy(p.comp_node, r.comp_node.size());
        return p;
    }
};

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: megengine_peak_memory FILE   (- for standard input)\n");
        return 2;
    }
    peak_memory v;
    const logscan::error e = logscan::with_input(argv[1], [&](auto& src) { return logscan::megengine_log::parse(src, v); });
    if (!e.ok()) {
        std::fprintf(stderr, "megengine_peak_memory: %s: %.*s%s%s\n", argv[1], static_cast<int>(e.message.size()),
                     e.message.data(), e.sys_errno ? ": " : "", e.sys_errno ? std::strerror(e.sys_errno) : "");
        return 1;
    }
    std::printf("%-12s %16s %12s %8s\n", "comp_node", "peak bytes", "MiB", "line");
    for (std::size_t i = 0; i < v.n; ++i)
        std::printf("%-12s %16llu %12.2f %8llu\n", v.nodes[i].comp_node, static_cast<unsigned long long>(v.nodes[i].bytes),
                    v.nodes[i].mib, static_cast<unsigned long long>(v.nodes[i].line));
    if (v.dropped != 0) std::printf("(%zu rows of further comp nodes not shown)\n", v.dropped);
    return 0;
}
