// SPDX-License-Identifier: MIT
// megengine_top_ops: from a MegEngine profiler dump, the operators that took the most device
// time (end - start of their device records) with their names and types, and the device time
// per operator type with its share of the total — what MegEngine's profile_analyze prints,
// streamed: the document is never loaded (one custom visitor on the megengine-profile format).
//
//   megengine_top_ops FILE [K]      (- for standard input; K: how many operators, default 5)
#include <logscan/formats/megengine_profile.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

struct top_ops {
    struct op {
        double device_s = 0;
        bool timed = false;
        std::string name, type;
    };
    std::map<std::string, op, std::less<>> ops; // by operator id; the profiler comes before the graph

    void on_opr_time(const logscan::megengine_profile::opr_time& t) {
        if (t.source != "device" || !t.start || !t.end) return;
        op& o = ops[std::string(t.opr_id)];
        o.device_s += *t.end - *t.start;
        o.timed = true;
    }
    void on_opr(const logscan::megengine_profile::opr& r) {
        if (!r.id) return;
        op& o = ops[std::string(*r.id)];
        o.name = r.name.value_or("?");
        o.type = r.opr_type.value_or("?");
    }
};

} // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: megengine_top_ops FILE [K]   (- for standard input)\n");
        return 2;
    }
    const std::size_t k = argc == 3 ? static_cast<std::size_t>(std::strtoul(argv[2], nullptr, 10)) : 5;
    top_ops v;
    const logscan::error e = logscan::with_input(argv[1], [&](auto& src) { return logscan::megengine_profile::parse(src, v); });
    if (!e.ok()) {
        std::fprintf(stderr, "megengine_top_ops: %s: %.*s", argv[1], static_cast<int>(e.message.size()), e.message.data());
        if (e.line != 0) std::fprintf(stderr, " at line %llu, column %llu", static_cast<unsigned long long>(e.line),
                                      static_cast<unsigned long long>(e.column));
        if (e.sys_errno != 0) std::fprintf(stderr, " (%s)", std::strerror(e.sys_errno));
        std::fprintf(stderr, "\n");
        return 1;
    }
    std::vector<std::pair<std::string, const top_ops::op*>> timed;
    double total = 0;
    std::map<std::string, double> by_type;
    for (const auto& [id, o] : v.ops)
        if (o.timed) {
            timed.emplace_back(id, &o);
            total += o.device_s;
            by_type[o.type.empty() ? "?" : o.type] += o.device_s;
        }
    std::sort(timed.begin(), timed.end(), [](const auto& a, const auto& b) { return a.second->device_s > b.second->device_s; });
    std::printf("device time: %.3f ms over %zu operators\n", total * 1e3, timed.size());
    std::printf("top %zu operators:\n", std::min(k, timed.size()));
    for (std::size_t i = 0; i < k && i < timed.size(); ++i)
        std::printf("%2zu. %8.3f ms  %-20s %s (id %s)\n", i + 1, timed[i].second->device_s * 1e3, timed[i].second->type.c_str(),
                    timed[i].second->name.c_str(), timed[i].first.c_str());
    std::vector<std::pair<std::string, double>> types(by_type.begin(), by_type.end());
    std::sort(types.begin(), types.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::printf("by operator type:\n");
    for (const auto& [type, s] : types)
        std::printf("  %-24s %8.3f ms %6.2f%%\n", type.c_str(), s * 1e3, total > 0 ? 100 * s / total : 0.0);
    return 0;
}
