// SPDX-License-Identifier: MIT
// paddle-log parse throughput: the format module reading a file (sample 003 repeated to --mb
// MB, default 200, in the page cache) with a visitor that takes every record and reads every
// field (every log field; every training step's metrics with their numbers and units and
// the eta; every table title and time unit; every table row's table, thread, depth, name and
// every cell's `multi_values` parts, each the `-` placeholder, a number or other text), against the streaming limit on the same file
// (page-aligned read() + memchr, ratio 1.00) and the straightforward Python script doing the
// same extraction with `re` (tests/reference/paddle_log.py --count, run once: it is slow).
// The record counts of logscan and Python must agree, and logscan must yield no error
// records on this input (exit 1 otherwise).
//
//   bench_paddle_log [--mb 200] [--runs 5] [--no-python]
#include <logscan/formats/paddle_log.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "bench_util.hpp"

namespace {
namespace pl = logscan::paddle_log;

// Every record, every field used (so nothing is skipped as unwanted).
struct everything {
    std::uint64_t log = 0, train_step = 0, table = 0, table_row = 0, text = 0, error = 0;
    std::uint64_t sum = 0;
    double fsum = 0;

    void on_log(const pl::log& r) {
        ++log;
        sum += r.line + r.date.size() + r.time.size() + r.logger.value_or(std::string_view{}).size() + r.level.size() + r.message.size();
    }
    void on_train_step(const pl::train_step& r) {
        ++train_step;
        sum += r.line + r.epoch.value_or(0) + r.iter + r.iters.value_or(0) + r.eta_s.value_or(0) + r.pairs.size();
        for (const pl::metric& m : r.metrics()) {
            sum += m.key.size() + m.value.size() + m.unit.size();
            if (m.number_text.empty()) continue;
            const auto v = m.number();
            if (v.ok()) fsum += v.value;
        }
    }
    void on_table(const pl::table& r) {
        ++table;
        sum += r.line + r.title.size() + (r.time_unit ? r.time_unit->size() : 0);
    }
    void on_table_row(const pl::table_row& r) {
        ++table_row;
        // (summed locally, added once: no store-to-load chain through the members per cell)
        std::uint64_t s = r.line + r.table.size() + (r.thread ? r.thread->size() : 0) + r.depth + r.name.size();
        double f = 0;
        for (std::size_t i = 1; i < r.cells.size(); ++i) {
            for (const logscan::value_part& p : logscan::multi_values(r.cells[i].raw)) {
                if (p.placeholder()) {
                    ++s;
                    continue;
                }
                const auto v = p.number<double>();
                if (v.ok()) f += v.value;
                else s += p.text.size();
            }
        }
        sum += s;
        fsum += f;
    }
    void on_text(const logscan::line& l) {
        ++text;
        sum += l.text.size();
    }
    void on_error(const logscan::error&) { ++error; }

    // As tests/reference/paddle_log.py --count prints them: by type name, types seen only.
    std::string counts() const {
        std::string s;
        const std::pair<const char*, std::uint64_t> by_name[] = {{"error", error}, {"log", log},
                                                                 {"table", table}, {"table_row", table_row},
                                                                 {"text", text}, {"train_step", train_step}};
        for (const auto& [name, n] : by_name)
            if (n != 0) s += (s.empty() ? "" : " ") + std::string(name) + "=" + std::to_string(n);
        return s;
    }

};
} // namespace

int main(int argc, char** argv) {
    const bench::options o = bench::parse_args(argc, argv, 200);
    bool python = true;
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--no-python") == 0) python = false;
    const std::string text = bench::repeat_to(bench::sample("003_1c776201c8b5b83e.txt"), o.mb);
    const std::string path = bench::temp_file(text, "logscan_bench_paddle_log");
    (void)bench::memchr_file(path.c_str()); // warm the page cache

    bench::table t("paddle-log: sample 003 repeated, parsed from a file in the page cache", text.size());
    bench::line_counts lc;
    everything v;
    // one record type wanted: the training lines (the tables are left out)
    struct only_train_step {
        std::uint64_t n = 0, iters = 0;
        void on_train_step(const pl::train_step& r) {
            ++n;
            iters += r.iter;
        }
    } ts;
    bench::nothing nothing;
    const auto secs = bench::best_seconds_turns( // (they take turns)
        o.runs, [&] { lc = bench::memchr_file(path.c_str()); },
        [&] {
            v = everything{};
            bench::parse_file(path, pl::parse, v);
        },
        [&] {
            ts = {};
            bench::parse_file(path, pl::parse, ts);
        },
        [&] { bench::parse_file(path, pl::parse, nothing); });
    t.add("read()+memchr loop (the streaming limit)", secs[0], true);
    t.add("logscan paddle_log::parse, every record", secs[1]);
    t.add("logscan, only on_train_step", secs[2]);
    t.add("logscan, validate_only (nothing wanted)", secs[3]);
    if (!bench::same_count("only on_train_step", ts.n, v.train_step)) return 1;
    bench::keep(ts.iters);
    bench::keep(v.sum);
    bench::keep(v.fsum);
    int status = 0;
    if (v.error != 0) {
        std::fprintf(stderr, "unexpected error records: %llu\n", (unsigned long long)v.error);
        status = 1;
    }
    if (python) {
        std::string got;
        t.add("python3 re (reference/paddle_log.py)", bench::python_reference("paddle_log.py", path, got));
        if (got != v.counts()) {
            std::fprintf(stderr, "record counts differ:\n  logscan: %s\n  python:  %s\n", v.counts().c_str(), got.c_str());
            status = 1;
        }
    }
    t.print();
    std::printf("  records: %s (%llu lines)\n", v.counts().c_str(), (unsigned long long)lc.lines);
    std::remove(path.c_str());
    return status;
}
