// SPDX-License-Identifier: MIT
// megengine-log parse throughput: the format module reading a file (sample 000 repeated to
// --mb MB, default 200, in the page cache) with a visitor that takes every record and reads
// every field, against the streaming limit on the same file (page-aligned read() + memchr,
// ratio 1.00) and the straightforward Python script doing the same extraction with `re`
// (tests/reference/megengine_log.py --count, run once: it is slow). The record counts of
// logscan and Python must agree. A hand-written loop that reads only the var_shape lines of
// blocks (85 % of the lines) shows what the goal (0.40 of the limit) asks of a whole parser.
// The first three take turns (bench::best_seconds_turns).
//
//   bench_megengine_log [--mb 200] [--runs 5] [--no-python]
#include <logscan/formats/megengine_log.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "bench_util.hpp"

namespace {
namespace ml = logscan::megengine_log;

// Every record, every field used (so nothing is skipped as unwanted).
struct everything {
    std::uint64_t log = 0, fprop_start = 0, var_shape = 0, graph_opt = 0, opr_seq = 0, mem_alloc = 0,
                  workspace_bound = 0, mem_alloc_stats = 0, text = 0, error = 0,
                  other = 0; // (static_storage and load_and_run's records: none in sample 000)
    std::uint64_t sum = 0;
    double fsum = 0;
    void on_log(const ml::log& r) {
        ++log;
        sum += static_cast<std::uint64_t>(r.day.value_or(0)) + r.src_line.value_or(0) + r.form.size() + r.time.size() +
               r.func.value_or("").size() + r.file.value_or("").size() + r.logger.value_or("").size() +
               r.level.size() + r.message.size();
    }
    void on_fprop_start(const ml::fprop_start& r) {
        ++fprop_start;
        sum += r.env.size() + r.var.size() + r.opr_type.size() + r.addr.size();
    }
    void on_var_shape(const ml::var_shape& r) {
        ++var_shape;
        sum += r.var.size() + r.replica.value_or(0);
        for (std::int64_t d : r.shape) sum += static_cast<std::uint64_t>(d);
    }
    void on_graph_opt(const ml::graph_opt& r) {
        ++graph_opt;
        sum += r.passes + r.vars_replaced;
        fsum += r.time_ms;
    }
    void on_opr_seq(const ml::opr_seq& r) {
        ++opr_seq;
        sum += r.length;
        for (const auto& p : r.pairs()) sum += p.get<1>().size() + logscan::parse_number<std::uint64_t>(p.get<2>()).value;
    }
    void on_mem_alloc(const ml::mem_alloc& r) {
        ++mem_alloc;
        sum += r.comp_node.size() + r.alloc_bytes;
        fsum += r.alloc_mib + r.lower_bound_mib + r.lower_bound_pct + r.upper_bound_mib + r.upper_bound_pct;
    }
    void on_workspace_bound(const ml::workspace_bound& r) {
        ++workspace_bound;
        sum += r.comp_node.size();
        fsum += r.mib;
    }
    void on_mem_alloc_stats(const ml::mem_alloc_stats& r) {
        ++mem_alloc_stats;
        sum += r.nr_opr + r.nr_var;
        fsum += r.realtime_ms + r.si_ms.value_or(0) + r.mp_re_ms.value_or(0) + r.omp_ms.value_or(0) + r.alloc_ms +
                r.plan_ms.value_or(0);
    }
    void on_static_storage(const ml::static_storage& r) {
        ++other;
        sum += r.comp_node.size() + r.addr_begin.size() + r.addr_end.size();
        fsum += r.size_mib;
    }
    void on_lar_iteration(const ml::lar_iteration& r) {
        ++other;
        sum += r.iter.value_or(0) + r.iters.value_or(0);
        fsum += r.time_ms.value_or(0) + r.exec_ms.value_or(0) + r.device_ms.value_or(0);
    }
    void on_lar_summary(const ml::lar_summary& r) {
        ++other;
        sum += r.test.value_or(0);
        fsum += r.time_ms.value_or(0) + r.avg_ms.value_or(0) + r.sd_ms.value_or(0) + r.min_ms.value_or(0) + r.max_ms.value_or(0);
    }
    void on_lar_warmup(const ml::lar_warmup& r) {
        ++other;
        sum += r.iter;
        fsum += r.time_ms;
    }
    void on_lar_phase(const ml::lar_phase& r) {
        ++other;
        sum += r.phase.size();
        fsum += r.time_ms;
    }
    void on_lar_run(const ml::lar_run& r) {
        ++other;
        sum += r.test.value_or(0) + r.testcases.value_or(0) + r.iters.value_or(0) + r.output_vars.value_or("").size();
    }
    void on_text(const logscan::line& l) {
        ++text;
        sum += l.text.size();
    }
    void on_error(const logscan::error&) { ++error; }
    std::string counts() const {
        char b[512];
        std::snprintf(b, sizeof b,
                      "fprop_start=%llu graph_opt=%llu log=%llu mem_alloc=%llu mem_alloc_stats=%llu opr_seq=%llu "
                      "var_shape=%llu workspace_bound=%llu",
                      (unsigned long long)fprop_start, (unsigned long long)graph_opt, (unsigned long long)log,
                      (unsigned long long)mem_alloc, (unsigned long long)mem_alloc_stats, (unsigned long long)opr_seq,
                      (unsigned long long)var_shape, (unsigned long long)workspace_bound);
        return b;
    }
};
// A floor for the goal, not a contender for the contract: the loop a user would write by
// hand for the lines that are 85 % of this input, ` VAR@R: (d, d, ...)` (var name, replica and
// dims read; the dims summed), every other line only framed. Same reads and framing as the
// streaming limit; no line numbers, no header fields, no memory table, no text records.
struct hand_counts {
    std::uint64_t var_shapes = 0, sum = 0;
};
inline bool hand_var_shape(const char* p, const char* e, hand_counts& c) {
    if (p == e || *p++ != ' ') return false;
    const char* v = p;
    while (p < e && *p != '@' && *p != ':' && *p != ' ') ++p;
    if (p == v) return false;
    std::uint64_t sum = static_cast<std::uint64_t>(p - v);
    if (p < e && *p == '@') {
        const char* d = ++p;
        while (p < e && *p >= '0' && *p <= '9') sum += static_cast<std::uint64_t>(*p++ - '0');
        if (p == d) return false;
    }
    if (e - p < 3 || p[0] != ':' || p[1] != ' ' || p[2] != '(') return false;
    p += 3;
    while (p < e && *p != ')') {
        std::uint64_t x = 0;
        const char* d = p;
        while (p < e && *p >= '0' && *p <= '9') x = x * 10 + static_cast<std::uint64_t>(*p++ - '0');
        if (p == d) return false;
        sum += x;
        if (p < e && *p == ',') ++p;
        while (p < e && *p == ' ') ++p;
    }
    if (p == e || p + 1 != e) return false;
    c.sum += sum;
    ++c.var_shapes;
    return true;
}
// One record type wanted: the memory tables' rows (the format leaves out the rules and
// blocks of the others).
struct only_mem_alloc {
    std::uint64_t rows = 0, bytes = 0;
    void on_mem_alloc(const ml::mem_alloc& r) {
        ++rows;
        bytes += r.alloc_bytes;
    }
};
hand_counts hand_written(const char* path) {
    hand_counts c;
    bench::each_file_line(path, [&](const char* p, const char* nl) {
        if (*p == ' ') hand_var_shape(p, nl, c);
    });
    return c;
}
} // namespace

int main(int argc, char** argv) {
    const bench::options o = bench::parse_args(argc, argv, 200);
    bool python = true;
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--no-python") == 0) python = false;
    const std::string text = bench::repeat_to(bench::sample("000_cf8afa6c099f806b.txt"), o.mb);
    const std::string path = bench::temp_file(text, "logscan_bench_megengine_log");
    (void)bench::memchr_file(path.c_str()); // warm the page cache

    bench::table t("megengine-log: sample 000 repeated, parsed from a file in the page cache", text.size());
    bench::line_counts lc;
    everything v;
    hand_counts hc;
    only_mem_alloc ma;
    const auto secs = bench::best_seconds_turns(
        o.runs, [&] { lc = bench::memchr_file(path.c_str()); },
        [&] {
            v = everything{};
            logscan::file_source src(path.c_str());
            if (!ml::parse(src, v).ok()) std::exit(1);
        },
        [&] { hc = hand_written(path.c_str()); },
        [&] {
            ma = only_mem_alloc{};
            bench::parse_file(path, ml::parse, ma);
        },
        [&] {
            bench::nothing n;
            bench::parse_file(path, ml::parse, n);
        });
    t.add("read()+memchr loop (the streaming limit)", secs[0], true);
    t.add("logscan megengine_log::parse, every record", secs[1]);
    t.add("hand-written loop, var_shape lines only", secs[2], false, "(a floor: see the comment)");
    t.add("logscan, only on_mem_alloc", secs[3]);
    t.add("logscan, validate_only (nothing wanted)", secs[4]);
    if (!bench::same_count("only on_mem_alloc", ma.rows, v.mem_alloc)) return 1;
    bench::keep(ma.bytes);
    bench::keep(v.sum);
    bench::keep(v.fsum);
    int status = 0;
    if (v.text != 0 || v.error != 0) {
        std::fprintf(stderr, "unexpected text/error records: %llu / %llu\n", (unsigned long long)v.text, (unsigned long long)v.error);
        status = 1;
    }
    if (python) {
        std::string got;
        t.add("python3 re (tests/reference/megengine_log.py)", bench::python_reference("megengine_log.py", path, got));
        if (got != v.counts()) {
            std::fprintf(stderr, "record counts differ:\n  logscan: %s\n  python:  %s\n", v.counts().c_str(), got.c_str());
            status = 1;
        }
    }
    t.print();
    std::printf("  records: %s (%llu lines)\n", v.counts().c_str(), (unsigned long long)lc.lines);
    std::printf("  hand-written loop: %llu var_shape lines of blocks\n", (unsigned long long)hc.var_shapes);
    bench::keep(hc.sum);
    std::remove(path.c_str());
    return status;
}
