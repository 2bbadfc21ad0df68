// SPDX-License-Identifier: MIT
// paddle_summary: the loss curve and the top operators by GPU time of a PaddleDetection
// training log that ends with the Paddle profiler's summary tables — line framing, one line
// rule and a rule-line table, composed with line_router. The README's worked example is the
// part between the README markers, copied verbatim (a test checks that they are the same).
//
//   paddle_summary FILE      (- for standard input)
#include <logscan.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace paddle {

// README:begin
struct op { std::string_view name; double gpu_ms; };   // a view into op_names

struct summary {
    // the loss curve: every training line's (step, loss), summarised in constant memory
    std::size_t points = 0, unreadable = 0;
    double first_loss = 0, last_loss = 0, min_loss = 0;
    long min_step = 0, last_step = 0;
    // the operators of the profiler's "Operator Summary" (top level), by GPU total
    std::array<op, 5> top{};
    std::size_t ops = 0;
    char op_names[5][64] = {};

    void loss(long step, double value) {
        if (points == 0) first_loss = value;
        if (points == 0 || value < min_loss) { min_loss = value; min_step = step; }
        last_loss = value; last_step = step; ++points;
    }
    void on_table_row(const logscan::table_row& r) {     // one call per table row
        if (r.title != "Operator Summary") return;
        const logscan::cell* name = r.find("Name");
        const logscan::cell* gpu = r.find_prefix("GPU Total");  // "GPU Total / Avg / Max / Min / Ratio(%)"
        if (!name || !gpu || name->depth() != 0) return;       // indented rows are an operator's parts
        const auto total = logscan::multi_values(gpu->text()).front().number<double>();
        if (!total.ok()) { ++unreadable; return; }
        ++ops;
        // keep the 5 largest: replace the smallest kept one when this one is larger
        auto smallest = std::min_element(top.begin(), top.end(), [](const op& a, const op& b) {
            return a.name.empty() != b.name.empty() ? a.name.empty() : a.gpu_ms < b.gpu_ms;  // free slots first
        });
        if (smallest->name.empty() || total.value > smallest->gpu_ms) {
            char* buf = op_names[smallest - top.begin()];
            const std::size_t n = name->text().copy(buf, sizeof op_names[0] - 1);
            buf[n] = '\0';
            *smallest = {std::string_view(buf, n), total.value};
        }
    }
};

// Reads a whole log: training lines by a rule, the profiler tables by a rule_table, every
// other line to the fallback (ignored here). Nothing is allocated while reading.
template <class Source>
logscan::error read(Source& src, summary& s) {
    auto rules = logscan::rule_set(logscan::rule<
        R"(\[[^\]]*\] ppdet\.engine INFO: Epoch: \[(\d+)\] \[ *(\d+)/\d+\].* loss: (\S+) .*)",
        "[09/20 12:00:42] ppdet.engine INFO: Epoch: [0] [    0/12500] learning_rate: 0.000000 "
        "loss_mask: 0.637474 loss: 0.922204 eta: 5:05:37 batch_cost: 1.4670">(
        [&](const auto& m) {
            auto [all, epoch, step, loss] = m;                // the groups, as string_views
            const auto st = logscan::parse_number<long>(step);
            const auto lo = logscan::parse_number<double>(loss);
            if (st.ok() && lo.ok()) s.loss(st.value, lo.value); else ++s.unreadable;
        }));
    logscan::rule_reader lines(rules, [](const logscan::line&) { /* any other line */ });
    logscan::rule_table<summary> tables(s);
    logscan::line_router router(lines, tables);  // tables first; a log line ends a table
    logscan::line_buffer carry;
    const logscan::error e = logscan::for_each_line(src, router, carry);
    router.finish();
    return e;
}
// README:end

void print(const summary& s) {
    std::printf("loss: %zu points, first %.6f, last %.6f at step %ld, min %.6f at step %ld\n", s.points,
                s.first_loss, s.last_loss, s.last_step, s.min_loss, s.min_step);
    std::array<op, 5> top = s.top;
    std::sort(top.begin(), top.end(), [](const op& a, const op& b) { return a.gpu_ms > b.gpu_ms; });
    std::printf("operators: %zu, top by GPU total (ms):\n", s.ops);
    for (std::size_t i = 0; i < top.size() && !top[i].name.empty(); ++i)
        std::printf("%zu. %.*s %.2f\n", i + 1, static_cast<int>(top[i].name.size()), top[i].name.data(), top[i].gpu_ms);
    if (s.unreadable != 0) std::printf("unreadable values: %zu\n", s.unreadable);
}

} // namespace paddle

#ifndef LOGSCAN_TEST
int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: paddle_summary FILE   (- for standard input)\n");
        return 2;
    }
    paddle::summary s;
    const logscan::error e = logscan::with_input(argv[1], [&](auto& src) { return paddle::read(src, s); });
    if (!e.ok()) {  // where it stopped, and the system's reason for I/O errors
        std::fprintf(stderr, "paddle_summary: %s: %.*s", argv[1], static_cast<int>(e.message.size()), e.message.data());
        if (e.line != 0)
            std::fprintf(stderr, " at line %llu, column %llu", static_cast<unsigned long long>(e.line),
                         static_cast<unsigned long long>(e.column));
        if (e.sys_errno != 0) std::fprintf(stderr, " (%s)", std::strerror(e.sys_errno));
        std::fprintf(stderr, "\n");
        return 1;
    }
    paddle::print(s);
    return s.unreadable == 0 ? 0 : 1;
}
#endif
