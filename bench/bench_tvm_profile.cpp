// SPDX-License-Identifier: MIT
// tvm-profile parse throughput: the format module reading a file (sample 004 repeated to
// --mb MB, default 200, in the page cache) with a visitor that takes every record and reads
// every field (every cell of every row, the numeric columns parsed as numbers), against the
// streaming limit on the same file (page-aligned read() + memchr, ratio 1.00) and two
// straightforward Python implementations of the same extraction, each run once (they are
// slow): tests/reference/tvm_profile.py --count (`re`, cell by cell) and, when
// `python3` (or Debian's /usr/bin/python3) imports pandas, bench/tvm_profile_pandas.py --count (one
// pandas.read_fwf per report table); without pandas that row is skipped with a note. The
// record counts of logscan and Python must agree (exit 1 otherwise).
//
//   bench_tvm_profile [--mb 200] [--runs 5] [--no-python]
#include <logscan/formats/tvm_profile.hpp>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "bench_util.hpp"

namespace {
namespace tp = logscan::tvm_profile;

// Every record, every field used (so nothing is skipped as unwanted).
struct everything {
    std::uint64_t run = 0, mean_time = 0, call = 0, total = 0, config = 0, text = 0, error = 0;
    std::uint64_t sum = 0;
    double fsum = 0;

    void on_run(const tp::run& r) {
        ++run;
        sum += r.line + r.model.size() + r.device.size();
    }
    void on_mean_time(const tp::mean_time& r) {
        ++mean_time;
        fsum += r.mean_ms + r.std_ms;
    }
    void on_call(const tp::call& r) {
        ++call;
        sum += r.name.size();
        cells(r);
    }
    void on_total(const tp::total& r) {
        ++total;
        sum += r.kind.size();
        cells(r);
    }
    void on_config(const tp::config& r) {
        ++config;
        sum += r.key.size() + r.value.size();
    }
    void on_text(const logscan::line& l) {
        ++text;
        sum += l.text.size();
    }
    void on_error(const logscan::error&) { ++error; }

    // As tests/reference/tvm_profile.py --count prints them: by type name, types seen only.
    std::string counts() const {
        std::string s;
        const std::pair<const char*, std::uint64_t> by_name[] = {{"call", call}, {"config", config}, {"error", error},
                                                                 {"mean_time", mean_time}, {"run", run}, {"text", text},
                                                                 {"total", total}};
        for (const auto& [name, n] : by_name)
            if (n != 0) s += (s.empty() ? "" : " ") + std::string(name) + "=" + std::to_string(n);
        return s;
    }

private:
    // Which columns of the current table are numeric: looked up again when a row does not
    // follow the previous one (two tables are always apart by at least their header line).
    std::array<bool, 64> numeric_{};
    std::uint64_t next_line_ = 0;

    void cells(const tp::report_row& r) {
        if (r.line != next_line_)
            for (std::size_t i = 0; i < r.columns.size() && i < numeric_.size(); ++i)
                numeric_[i] = tp::numeric_column(r.columns[i].text());
        next_line_ = r.line + 1;
        for (std::size_t i = 1; i < r.cells.size() && i < numeric_.size(); ++i) {
            const std::string_view t = r.cells[i].text();
            if (t.empty()) continue;
            if (numeric_[i]) {
                const auto v = logscan::parse_grouped<double>(t);
                if (v.ok()) fsum += v.value;
                else sum += t.size();
            } else {
                sum += t.size();
            }
        }
    }
};

// Like bench::python_reference, for a script of bench/: `python3 bench/<script> --count
// <path>` once; returns its wall time, `counts` its output line.
bool agree(const char* who, const std::string& got, const std::string& want) {
    if (got == want) return true;
    std::fprintf(stderr, "record counts differ:\n  logscan: %s\n  %s: %s\n", want.c_str(), who, got.c_str());
    return false;
}
} // namespace

int main(int argc, char** argv) {
    const bench::options o = bench::parse_args(argc, argv, 200);
    bool python = true;
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--no-python") == 0) python = false;
    const std::string text = bench::repeat_to(bench::sample("004_d73c77cb3fb2895c.txt"), o.mb);
    const std::string path = bench::temp_file(text, "logscan_bench_tvm_profile");
    (void)bench::memchr_file(path.c_str()); // warm the page cache

    bench::table t("tvm-profile: sample 004 repeated, parsed from a file in the page cache", text.size());
    bench::line_counts lc;
    everything v;
    // one record type wanted: the reports' run lines (the tables are not started)
    struct only_run {
        std::uint64_t n = 0, bytes = 0;
        void on_run(const tp::run& r) {
            ++n;
            bytes += r.model.size();
        }
    } runs;
    bench::nothing nothing;
    const auto secs = bench::best_seconds_turns( // (they take turns)
        o.runs, [&] { lc = bench::memchr_file(path.c_str()); },
        [&] {
            v = everything{};
            bench::parse_file(path, tp::parse, v);
        },
        [&] {
            runs = {};
            bench::parse_file(path, tp::parse, runs);
        },
        [&] { bench::parse_file(path, tp::parse, nothing); });
    t.add("read()+memchr loop (the streaming limit)", secs[0], true);
    t.add("logscan tvm_profile::parse, every record", secs[1]);
    t.add("logscan, only on_run", secs[2]);
    t.add("logscan, validate_only (nothing wanted)", secs[3]);
    if (!bench::same_count("only on_run", runs.n, v.run)) return 1;
    bench::keep(runs.bytes);
    bench::keep(v.sum);
    bench::keep(v.fsum);
    int status = 0;
    if (v.error != 0) {
        std::fprintf(stderr, "unexpected error records: %llu\n", (unsigned long long)v.error);
        status = 1;
    }
    const char* pandas_note = nullptr;
    if (python) {
        std::string got;
        t.add("python3 re (reference/tvm_profile.py)", bench::python_reference("tvm_profile.py", path, got));
        if (!agree("python re", got, v.counts())) status = 1;
        // python3 on the PATH, or Debian's own (python3-pandas installs for /usr/bin/python3)
        const char* with_pandas = std::system("python3 -c 'import pandas' >/dev/null 2>&1") == 0 ? "python3"
                                  : std::system("/usr/bin/python3 -c 'import pandas' >/dev/null 2>&1") == 0 ? "/usr/bin/python3"
                                                                                                           : nullptr;
        if (with_pandas != nullptr) {
            t.add("pandas read_fwf (bench/tvm_profile_pandas.py)",
                  bench::python_script(with_pandas, std::string(LOGSCAN_SOURCE_DIR) + "/bench/tvm_profile_pandas.py", path, got));
            if (!agree("pandas", got, v.counts())) status = 1;
        } else {
            pandas_note = "  (pandas.read_fwf row skipped: neither python3 nor /usr/bin/python3 imports pandas)\n";
        }
    }
    t.print();
    if (pandas_note) std::printf("%s", pandas_note);
    std::printf("  records: %s (%llu lines)\n", v.counts().c_str(), (unsigned long long)lc.lines);
    std::remove(path.c_str());
    return status;
}
