// SPDX-License-Identifier: MIT
// `logscan summary`: one human report per format, from one custom visitor per format, with
// charts when --svg DIR is given. A report has the callbacks of the records it uses; the
// command counts every record around it (the format's `records::counting`).
// - megengine-log: the peak static memory allocation per physical comp node (and its line);
//   load_and_run's timed iterations (mean, min, max, sd) beside the tool's own summary lines;
// - megengine-profile: the top operators by device time (end - start of their device
//   records) and the device time per operator type with its share;
// - chainer-memtrace: the peak of live buffer bytes over the functions in execution order
//   (forward ones by rank, then backward ones by rank descending, as Chainer runs them: a
//   backward function has its forward one's rank; a buffer is live from its first to its
//   last use), and the functions at the peak;
// - paddle-log: the training curve (first, min, last loss; last learning rate; mean ips) and
//   the top operators of the profiler's Operator Summary by GPU total;
// - tvm-profile: per report (model, device, mean time), the top fused kernels by duration
//   with their share of the report's Sum row;
// - chrome-trace: over all the files given (the ranks of one job: a `whole_job` report, read
//   file by file and printed once at the end), HTA's figures (formats.md 6B, computed by
//   <logscan/formats/chrome_trace_summary.hpp>): per rank the kernel-type time, the kernels by
//   name, the temporal breakdown and the top CPU ops; `--json` prints 6B.11's object.
// Memory: proportional to what is summarised (operators, buffers, steps), never to the
// input's size in bytes.
#ifndef LOGSCAN_COMMAND_SUMMARY_HPP
#define LOGSCAN_COMMAND_SUMMARY_HPP

#include <logscan/formats/chrome_trace_parts.hpp>
#include <logscan/formats/chrome_trace_summary.hpp>
#include <logscan/formats/detect.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>
#include <numeric>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "svg.hpp"
#include "writers.hpp"

namespace logscan_cli::summary {

namespace ls = logscan;

struct settings {
    std::size_t top = 10;   // how many operators / kernels
    std::size_t top_cpu_ops = 20; // how many CPU ops (chrome-trace)
    std::string svg_dir;    // empty: no charts
    std::string stem;       // chart file names: <svg_dir>/<stem>.<chart>.svg
};

// A file name part: bytes outside [A-Za-z0-9._-] become '_' (a model name may hold '/').
inline std::string file_part(std::string_view s) {
    std::string o;
    for (char c : s)
        o += (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ? c : '_';
    return o;
}

inline bool write_chart(const settings& s, const std::string& chart, const std::string& text) {
    if (s.svg_dir.empty()) return true;
    const std::string path = s.svg_dir + "/" + file_part(s.stem) + "." + file_part(chart) + ".svg";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) {
        std::fprintf(stderr, "logscan: cannot write %s: %s\n", path.c_str(), std::strerror(errno));
        return false;
    }
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    return (std::fclose(f) == 0) && ok;
}

// A share `v` as `12.34%` right-aligned in `w` bytes, `-` when it is not a number (a type whose
// sum is 0: the JSON's null), not a `-nan%` that reads as data.
inline std::string percent(double v, int w) {
    char b[64];
    if (std::isfinite(v)) std::snprintf(b, sizeof b, "%*.2f%%", w - 1, v);
    else std::snprintf(b, sizeof b, "%*s", w, "-");
    return b;
}

// `s` in at most `w` code points: cut with "..." at its end when longer (a column of a report).
inline std::string fit(std::string_view s, std::size_t w) {
    auto starts = [&](std::size_t i) { return (static_cast<unsigned char>(s[i]) & 0xC0u) != 0x80u; };
    std::size_t cps = 0, keep = s.size(); // keep: bytes of the first w - 3 code points
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (!starts(i)) continue;
        if (cps == w - 3) keep = i;
        if (++cps > w) return std::string(s.substr(0, keep)) + "...";
    }
    return std::string(s);
}

// The K largest of (name, value) pairs, largest first (stable for ties).
inline std::vector<std::pair<std::string, double>> top_k(std::vector<std::pair<std::string, double>> v, std::size_t k) {
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    if (v.size() > k) v.resize(k);
    return v;
}

inline void chart_bars(const settings& s, const std::string& chart, const std::string& title,
                       const std::vector<std::pair<std::string, double>>& rows, const std::string& unit, bool& ok) {
    std::vector<std::string> labels;
    std::vector<double> values;
    for (const auto& [n, v] : rows) {
        labels.push_back(n);
        values.push_back(v);
    }
    ok = write_chart(s, chart, svg::bars(title, labels, values, unit)) && ok;
}

// --- megengine-log ---------------------------------------------------------------------
struct megengine_log_summary {
    static constexpr const char* what =
        "the peak static allocation per (physical) comp node; load_and_run's iteration times";
    struct peak {
        std::uint64_t bytes = 0, line = 0;
        double mib = 0;
    };
    std::map<std::string, peak, std::less<>> nodes;
    std::size_t tables = 0, rows = 0;
    std::uint64_t last_row = 0; // a table's rows are consecutive lines: a gap starts another
    void on_mem_alloc(const ls::megengine_log::mem_alloc& r) {
        ++rows;
        if (r.line != last_row + 1) ++tables;
        last_row = r.line;
        // (per physical device: `CompNode("gpu0:0" from "xpux:0")` is gpu0:0's, whatever logical name a graph gave it)
        auto it = nodes.find(r.physical);
        if (it == nodes.end()) it = nodes.emplace(std::string(r.physical), peak{r.alloc_bytes, r.line, r.alloc_mib}).first;
        else if (r.alloc_bytes > it->second.bytes) it->second = {r.alloc_bytes, r.line, r.alloc_mib};
    }
    // A row cut off inside a table is an error on the line after a row: the table goes on past it.
    std::size_t cut_rows = 0;      // (rows cut off: said beside the figures, which lack them)
    std::uint64_t first_cut = 0;
    void on_error(const ls::error& e) {
        if (e.message == "memory table row cut off" && cut_rows++ == 0) first_cut = e.line;
        if (last_row != 0 && e.line == last_row + 1) last_row = e.line;
    }
    // load_and_run: the timed iterations' wall times (finite ones), and the tool's own summary lines
    std::size_t iterations = 0, unprinted = 0;
    double sum = 0, sum_sq = 0, lo = 0, hi = 0;
    std::vector<ls::megengine_log::lar_summary> summaries;
    void on_lar_iteration(const ls::megengine_log::lar_iteration& r) {
        if (!r.time_ms || !std::isfinite(*r.time_ms)) {
            ++unprinted;
            return;
        }
        const double t = *r.time_ms;
        lo = iterations == 0 ? t : std::min(lo, t);
        hi = iterations == 0 ? t : std::max(hi, t);
        ++iterations;
        sum += t;
        sum_sq += t * t;
    }
    void on_lar_summary(const ls::megengine_log::lar_summary& r) { summaries.push_back(r); }
    void print_lar() const {
        if (iterations == 0 && summaries.empty()) return;
        const double n = static_cast<double>(iterations);
        const double mean = iterations ? sum / n : 0;
        // (the sample standard deviation, as load_and_run prints it)
        const double sd = iterations > 1 ? std::sqrt(std::max(0.0, (sum_sq - n * mean * mean) / (n - 1))) : 0;
        std::printf("  load_and_run: %zu timed iterations", iterations);
        if (iterations) std::printf(": mean %.3f ms, min %.3f, max %.3f, sd %.3f", mean, lo, hi, sd);
        if (unprinted) std::printf(" (%zu without a finite time)", unprinted);
        std::printf("\n");
        // (a value the tool's line does not print, or prints non-finite, is left out: not a nan that reads as data)
        const auto value = [](const char* name, const std::optional<double>& v, bool& first, const char* unit = "") {
            if (!v || !std::isfinite(*v)) return;
            std::printf("%s%s %.3f%s", first ? ": " : ", ", name, *v, unit);
            first = false;
        };
        for (const auto& r : summaries) {
            std::printf("    the tool's summary, line %llu", static_cast<unsigned long long>(r.line));
            if (r.test) std::printf(", test #%llu", static_cast<unsigned long long>(*r.test));
            bool first = true;
            value("avg", r.avg_ms, first, " ms");
            value("sd", r.sd_ms, first);
            value("min", r.min_ms, first);
            value("max", r.max_ms, first);
            std::printf("\n");
        }
    }
    bool print(const settings& s) const {
        print_lar();
        const std::string cut = cut_rows == 0 ? std::string()
                                              : "; " + std::to_string(cut_rows) + (cut_rows == 1 ? " row" : " rows") +
                                                    " cut off (the first at line " + std::to_string(first_cut) + "), not counted";
        if (rows == 0 && cut_rows == 0 && iterations + summaries.size() != 0) return true; // (a load_and_run log without tables)
        if (rows == 0) { // (no heading over an empty table)
            std::printf("  static memory allocation: %s%s\n", cut_rows == 0 ? "no memory tables" : "no complete row", cut.c_str());
            return true;
        }
        std::printf("  static memory allocation: %zu %s in %zu %s%s; peak per comp node:\n", rows, rows == 1 ? "row" : "rows", tables,
                    tables == 1 ? "table" : "tables", cut.c_str());
        std::printf("    %-12s %12s %14s %8s\n", "comp node", "peak MiB", "bytes", "line");
        std::vector<std::pair<std::string, double>> bars;
        for (const auto& [n, p] : nodes) {
            std::printf("    %-12s %12.2f %14llu %8llu\n", n.c_str(), p.mib, static_cast<unsigned long long>(p.bytes),
                        static_cast<unsigned long long>(p.line));
            bars.emplace_back(n, p.mib);
        }
        bool ok = true;
        chart_bars(s, "peak-memory", "Peak static allocation per comp node", bars, "MiB", ok);
        return ok;
    }
};

// --- megengine-profile -------------------------------------------------------------------
struct megengine_profile_summary {
    static constexpr const char* what = "the top operators by device time and the time per operator type";
    struct op {
        double device_s = 0;
        bool timed = false, listed = false; // (listed: an `opr` record of it was read)
        std::string name, type;
    };
    std::map<std::string, op, std::less<>> ops;
    op& get(std::string_view id) {
        auto it = ops.find(id);
        if (it == ops.end()) it = ops.emplace(std::string(id), op{}).first;
        return it->second;
    }
    void on_opr_time(const ls::megengine_profile::opr_time& t) {
        if (t.source != "device" || !t.start || !t.end) return;
        op& o = get(t.opr_id);
        o.device_s += *t.end - *t.start;
        o.timed = true;
    }
    void on_opr(const ls::megengine_profile::opr& r) {
        if (!r.id) return;
        op& o = get(*r.id);
        o.listed = true;
        if (r.name) o.name = std::string(*r.name);
        if (r.opr_type) o.type = std::string(*r.opr_type);
    }
    bool print(const settings& s) const {
        std::vector<std::pair<std::string, double>> all;
        std::map<std::string, double> by_type;
        double total = 0;
        std::size_t unnamed = 0;
        for (const auto& [id, o] : ops) {
            if (!o.timed) continue;
            total += o.device_s;
            all.emplace_back(id, o.device_s);
            by_type[!o.type.empty() ? o.type : o.listed ? "(no type)" : "(not in the operator list read)"] += o.device_s;
            unnamed += !o.listed;
        }
        std::printf("  device time: %.3f ms in %zu operators\n  top operators:\n", total * 1e3, all.size());
        std::printf("    %-6s %-44s %-24s %10s %7s\n", "id", "name", "type", "ms", "share");
        std::vector<std::pair<std::string, double>> bars;
        for (const auto& [id, t] : top_k(all, s.top)) {
            const op& o = ops.find(id)->second;
            std::printf("    %-6s %-44s %-24s %10.3f %6.2f%%\n", id.c_str(), fit(o.name, 44).c_str(), fit(o.type, 24).c_str(), t * 1e3,
                        total > 0 ? 100 * t / total : 0.0);
            bars.emplace_back(o.name.empty() ? id : o.name, t * 1e3);
        }
        if (unnamed != 0) // (a document cut before its operator list, or one that lacks them: said, not left as blank columns)
            std::printf("    (%zu of them not in the operator list read: no name or type)\n", unnamed);
        std::printf("  time per operator type:\n");
        std::vector<std::pair<std::string, double>> types(by_type.begin(), by_type.end());
        // (the top --top types, then the rest in one row: the shares still add up to 100%)
        const std::vector<std::pair<std::string, double>> ranked = top_k(types, types.size());
        double rest = 0;
        for (std::size_t i = 0; i < ranked.size(); ++i) {
            const auto& [type, t] = ranked[i];
            if (i < s.top) std::printf("    %-32s %10.3f ms %6.2f%%\n", type.c_str(), t * 1e3, total > 0 ? 100 * t / total : 0.0);
            else rest += t;
        }
        if (ranked.size() > s.top) {
            const std::size_t n = ranked.size() - s.top;
            const std::string others = "(" + std::to_string(n) + (n == 1 ? " other type)" : " other types)");
            std::printf("    %-32s %10.3f ms %6.2f%%\n", others.c_str(), rest * 1e3, total > 0 ? 100 * rest / total : 0.0);
        }
        bool ok = true;
        chart_bars(s, "top-operators", "Top operators by device time", bars, "ms", ok);
        return ok;
    }
};

// --- chainer-memtrace --------------------------------------------------------------------
struct chainer_memtrace_summary {
    static constexpr const char* what = "the peak of live buffer bytes over the functions in execution order";
    struct fn {
        std::uint64_t index;
        std::int64_t rank;
        bool ranked;
        std::string type, direction;
        std::vector<std::uint64_t> uses;
    };
    std::map<std::uint64_t, std::uint64_t> sizes; // buffer id -> bytes
    std::vector<fn> fns;
    void on_buffer(const ls::chainer_memtrace::buffer& b) { sizes[b.id] = b.size; }
    void on_function(const ls::chainer_memtrace::function& f) {
        fn x{f.index, f.rank.value_or(0), f.rank.has_value(), std::string(f.func_type), std::string(f.direction), {}};
        for (const auto& in : f.inputs) x.uses.push_back(in.id);
        for (std::uint64_t o : f.outputs) x.uses.push_back(o);
        fns.push_back(std::move(x));
    }
    bool print(const settings& s) const {
        std::vector<const fn*> order;
        for (const fn& f : fns) order.push_back(&f);
        std::stable_sort(order.begin(), order.end(), [](const fn* a, const fn* b) {
            if (a->ranked != b->ranked) return a->ranked; // ranked ones first, in execution order:
            if (!a->ranked) return false;
            const bool ab = a->direction == "backward", bb = b->direction == "backward";
            if (ab != bb) return bb;                                // the forward pass, then the backward pass
            return ab ? a->rank > b->rank : a->rank < b->rank; // (backward: highest rank first, as Chainer pops them)
        });
        std::map<std::uint64_t, std::pair<std::size_t, std::size_t>> span; // buffer -> first, last position
        for (std::size_t i = 0; i < order.size(); ++i)
            for (std::uint64_t id : order[i]->uses) {
                auto [it, fresh] = span.emplace(id, std::pair<std::size_t, std::size_t>{i, i});
                if (!fresh) it->second.second = i;
            }
        std::vector<double> live(order.size() + 1, 0);
        for (const auto& [id, fl] : span) {
            const auto sz = sizes.find(id);
            const double b = sz == sizes.end() ? 0 : static_cast<double>(sz->second);
            live[fl.first] += b;
            live[fl.second + 1] -= b;
        }
        double cur = 0, peak = 0;
        std::vector<double> xs, ys;
        std::vector<std::size_t> at;
        for (std::size_t i = 0; i < order.size(); ++i) {
            cur += live[i];
            xs.push_back(static_cast<double>(i));
            ys.push_back(cur / 1048576.0);
            if (cur > peak + 0.5) {
                peak = cur;
                at.assign(1, i);
            } else if (std::fabs(cur - peak) <= 0.5 && peak > 0) {
                at.push_back(i);
            }
        }
        std::uint64_t total = 0;
        std::size_t unused = 0;
        for (const auto& [id, b] : sizes) {
            total += b;
            unused += span.find(id) == span.end();
        }
        std::printf("  %zu buffers, %.2f MiB in all (%zu never used); %zu functions\n", sizes.size(),
                    static_cast<double>(total) / 1048576.0, unused, fns.size());
        std::printf("  peak of live buffers: %.0f bytes (%.2f MiB), at %zu position(s) of the execution order:\n", peak,
                    peak / 1048576.0, at.size());
        for (std::size_t i : at)
            std::printf("    #%-4zu function %-4llu rank %-4lld %-9s %s\n", i, static_cast<unsigned long long>(order[i]->index),
                        static_cast<long long>(order[i]->rank), order[i]->direction.c_str(), order[i]->type.c_str());
        return write_chart(s, "live-memory", svg::lines("Live buffer memory over the function sequence", "function (execution order)",
                                                        xs, "live MiB", ys));
    }
};

// --- paddle-log --------------------------------------------------------------------------
struct paddle_log_summary {
    static constexpr const char* what =
        "the loss curve (first, min, last; a step is epoch x iters + iter where the log prints its iteration count, "
        "else the printed iteration, else its place among the steps), learning rate, mean ips, top operators by GPU "
        "time; the legacy profiler report's top events by total time";
    std::vector<double> step, loss, lr, ips;
    std::size_t bad_loss = 0; // steps whose loss is printed but not a finite number
    std::vector<std::pair<std::string, double>> ops; // Operator Summary, top level, GPU total
    // the same of a table with only per-thread sections (no `All threads merged`): each
    // operator summed over the threads, in the order first met, and the threads
    std::vector<std::pair<std::string, double>> thread_ops;
    std::unordered_map<std::string, std::size_t> thread_op_at; // an operator's place in thread_ops
    std::set<std::string> op_threads;
    std::string time_unit = "ms";
    std::map<std::string, double> events; // the last legacy Profiling Report: top-level event rows' Total, summed over threads
    std::string event_unit = "ms";
    std::size_t legacy_reports = 0; // legacy reports (events: the last one's)
    std::string legacy_title;       // the first report's banner title: a legacy table of that title opens a report, another is a section
    double legacy_total = NAN;      // the last one's Total time (the shares' whole, as its Ratio. column's)
    std::size_t op_tables = 0; // Operator Summary tables (ops: the last one's)
    std::size_t restarts = 0;  // steps whose x is below the one before (a restarted job, or logs joined)
    std::uint64_t restart_line = 0;
    double restart_from = 0, restart_to = 0;
    void on_train_step(const ls::paddle_log::train_step& t) {
        double l = NAN, r = NAN, i = NAN;
        for (const auto& m : t.metrics()) {
            const auto n = m.number();
            if (m.key == "loss" && !(n.ok() && std::isfinite(n.value))) ++bad_loss; // (nan, inf, no number: said, not skipped silently)
            if (!n.ok()) continue;
            if (m.key == "loss") l = n.value;
            else if (m.key == "learning_rate" || m.key == "lr") r = n.value;
            else if (m.key == "ips") i = n.value;
        }
        // x: the step across epochs; without the iteration count, the printed iteration when
        // there are no epochs (`iter: 40`), else the step's ordinal
        const auto x = static_cast<double>(t.iters ? t.step() : !t.epoch ? t.iter : step.size());
        if (!step.empty() && x < step.back() && restarts++ == 0) {
            restart_line = t.line;
            restart_from = step.back();
            restart_to = x;
        }
        step.push_back(x);
        loss.push_back(l);
        lr.push_back(r);
        ips.push_back(i);
    }
    void on_table(const ls::paddle_log::table& t) {
        if (t.title == "Operator Summary") { // (a log of several runs or reports holds a table each: the last one's operators are listed, once each)
            ++op_tables;
            ops.clear();
            thread_ops.clear();
            thread_op_at.clear();
            op_threads.clear();
            if (t.time_unit) time_unit = std::string(*t.time_unit);
        }
        if (t.merged && t.time_unit) event_unit = std::string(*t.time_unit); // (a legacy report's)
        // (a legacy report's banner; its sections' banners have other titles: `Event Summary`, ...)
        if (t.merged && (legacy_title.empty() || t.title == legacy_title)) {
            legacy_title = std::string(t.title);
            ++legacy_reports;
            events.clear();
            legacy_total = NAN;
        }
    }
    void on_total(const ls::paddle_log::total& t) { // (a legacy report's `Total time:`; not another banner's)
        if (t.kind != "Total time" || t.table != legacy_title) return;
        const auto v = ls::parse_number_value(t.value);
        legacy_total = v.ok() ? v.value.as_double() : NAN;
    }
    void on_table_row(const ls::paddle_log::table_row& r) {
        if (r.legacy) { // a top-level event row of a legacy report (overhead and memcpy rows have no `Event` column;
                        // a nested row's time is inside its parent's)
            if (r.columns.empty() || r.columns[0].text() != "Event" || r.depth != 0) return;
            const ls::cell* total = r.find("Total");
            const auto v = total ? total->number<double>() : ls::value_result<double>{};
            if (total && v.ok() && std::isfinite(v.value)) events[std::string(r.name)] += v.value;
            return;
        }
        if (r.table != "Operator Summary" || r.depth != 0) return;
        const bool merged = !r.thread || *r.thread == "All threads merged";
        if (!merged) op_threads.emplace(*r.thread);
        const ls::cell* gpu = r.find_prefix("GPU Total");
        if (gpu == nullptr) return;
        const auto v = ls::multi_values(gpu->text()).front().number<double>();
        if (!v.ok()) return;
        if (merged) return (void)ops.emplace_back(std::string(r.name), v.value);
        // (a per-thread section repeats the operators of the merged one, where there is one)
        std::string name(r.name);
        if (const auto at = thread_op_at.find(name); at != thread_op_at.end()) return (void)(thread_ops[at->second].second += v.value);
        thread_ops.emplace_back(name, v.value); // (then its place: never a place past the end)
        thread_op_at.emplace(std::move(name), thread_ops.size() - 1);
    }
    void print_tables(const settings& s, bool& ok) const {
        const bool by_thread = ops.empty() && !thread_ops.empty(); // (no merged section: the threads' sums)
        const auto& rows = by_thread ? thread_ops : ops;
        if (!rows.empty()) {
            double total = 0;
            for (const auto& [name, t] : rows) total += t;
            const std::string threads =
                by_thread ? ", summed over its " + std::to_string(op_threads.size()) + " thread section" + (op_threads.size() == 1 ? "" : "s") +
                                " (it has no All threads merged section)"
                          : std::string();
            if (op_tables > 1)
                std::printf("  top operators by GPU total (%s) of the last of %zu Operator Summary tables%s, of %zu:\n", time_unit.c_str(),
                            op_tables, threads.c_str(), rows.size());
            else
                std::printf("  top operators by GPU total (%s)%s, of %zu:\n", time_unit.c_str(), threads.c_str(), rows.size());
            const auto top = top_k(rows, s.top);
            for (const auto& [name, t] : top)
                std::printf("    %-48s %12.2f %6.2f%%\n", fit(name, 48).c_str(), t, total > 0 ? 100 * t / total : 0.0);
            chart_bars(s, "top-operators", "Top operators by GPU total", top, time_unit, ok);
        }
        if (!events.empty()) {
            // (shares of the report's Total time, as its Ratio. column has them; without one, of
            // the top-level events' sum)
            double total = 0;
            for (const auto& [name, t] : events) total += t;
            const bool of_report = std::isfinite(legacy_total) && legacy_total > 0;
            if (of_report) total = legacy_total;
            std::printf("  legacy profiler report%s: top events by total time (%s), of %zu top-level events; share of %s:\n",
                        legacy_reports > 1 ? (" (the last of " + std::to_string(legacy_reports) + ")").c_str() : "",
                        event_unit.c_str(), events.size(), of_report ? "its Total time" : "their sum");
            const auto top = top_k(std::vector<std::pair<std::string, double>>(events.begin(), events.end()), s.top);
            for (const auto& [name, t] : top)
                std::printf("    %-48s %12.4f %6.2f%%\n", fit(name, 48).c_str(), t, total > 0 ? 100 * t / total : 0.0);
            chart_bars(s, "top-events", "Legacy profiler report: top events by total time", top, event_unit, ok);
        }
    }
    bool print(const settings& s) const {
        bool ok = true;
        std::size_t n = 0, imin = 0, ilast = 0;
        double ips_sum = 0;
        std::size_t ips_n = 0;
        for (std::size_t i = 0; i < loss.size(); ++i) {
            if (std::isfinite(ips[i])) ips_sum += ips[i], ++ips_n;
            if (!std::isfinite(loss[i])) continue;
            if (n == 0 || loss[i] < loss[imin]) imin = i;
            ilast = i;
            ++n;
        }
        if (step.empty() && (!ops.empty() || !thread_ops.empty() || !events.empty())) { // (a profiler report alone: its tables, no training line)
            print_tables(s, ok);
            return ok;
        }
        std::printf("  training: %zu steps", step.size());
        if (n > 0) {
            std::size_t ifirst = 0;
            while (!std::isfinite(loss[ifirst])) ++ifirst;
            std::printf("; loss first %.6g (step %.0f), min %.6g (step %.0f), last %.6g (step %.0f)", loss[ifirst], step[ifirst],
                        loss[imin], step[imin], loss[ilast], step[ilast]);
        }
        if (!lr.empty() && std::isfinite(lr.back())) std::printf("; learning rate %.6g", lr.back());
        if (ips_n > 0) std::printf("; mean ips %.4g", ips_sum / static_cast<double>(ips_n));
        if (bad_loss != 0) std::printf("; %zu step%s with a loss that is not a finite number (nan, inf, or no number)", bad_loss, bad_loss == 1 ? "" : "s");
        if (restarts != 0)
            std::printf("; the steps go back %zu time%s, first at line %llu (step %.0f after step %.0f): a restarted job, or logs "
                        "joined? The figures are of all of them",
                        restarts, restarts == 1 ? "" : "s", static_cast<unsigned long long>(restart_line), restart_to, restart_from);
        std::printf("\n");
        print_tables(s, ok);
        if (!step.empty())
            ok = write_chart(s, "loss", svg::lines("Training loss and learning rate", "step", step, "loss", loss, "learning rate", lr)) && ok;
        return ok;
    }
};

// --- tvm-profile -------------------------------------------------------------------------
struct tvm_profile_summary {
    static constexpr const char* what =
        "per report, the top fused kernels by duration with their share of the Sum row; per graph debug executor or "
        "original VM profiler table, its top operators with their share of its total; of a Report.json() document, "
        "its top kernels (the calls of one name summed) with their share of the devices' total";
    struct report {
        std::string model, device;
        double mean_ms = NAN, sum_us = NAN;
        std::vector<std::pair<std::string, double>> kernels;
        std::vector<std::size_t> calls;              // (Report.json(): the calls summed in each of kernels)
        std::map<std::string, std::size_t> by_name; // (Report.json(): each name's place in kernels)
        std::vector<std::string> untimed; // (calls whose duration is not printed or not finite: said, not ranked as 0)
        ls::tvm_profile::table_form form = ls::tvm_profile::table_form::report;
        void add(std::string name, std::optional<double> us, bool once) {
            if (once) // (the graph debug executor prints a node once per output: count it once)
                for (const auto& k : kernels)
                    if (k.first == name) return;
            if (!us || !std::isfinite(*us)) {
                if (!once || std::find(untimed.begin(), untimed.end(), name) == untimed.end()) untimed.push_back(std::move(name));
                return;
            }
            if (once) // (a node timed on another of its rows is ranked, not said as untimed)
                untimed.erase(std::remove(untimed.begin(), untimed.end(), name), untimed.end());
            kernels.emplace_back(std::move(name), *us);
        }
        // A call of a Report.json() document: its duration added to its name's (a kernel called
        // many times is one row each call: ranked by its calls' sum, as the tables' rows are).
        void add_call(std::string name, std::optional<double> us) {
            if (!us || !std::isfinite(*us)) {
                if (std::find(untimed.begin(), untimed.end(), name) == untimed.end()) untimed.push_back(std::move(name));
                return;
            }
            const auto [at, fresh] = by_name.try_emplace(name, kernels.size());
            if (fresh) {
                kernels.emplace_back(std::move(name), 0.0);
                calls.push_back(0);
            }
            kernels[at->second].second += *us;
            ++calls[at->second];
        }
    };
    std::vector<report> reports;
    report& cur() {
        if (reports.empty()) reports.emplace_back();
        return reports.back();
    }
    void on_run(const ls::tvm_profile::run& r) {
        report& n = reports.emplace_back();
        n.model = std::string(r.model);
        n.device = std::string(r.device);
    }
    void on_mean_time(const ls::tvm_profile::mean_time& m) { cur().mean_ms = m.mean_ms; }
    void on_call(const ls::tvm_profile::call& c) {
        using ls::tvm_profile::table_form;
        if (c.form == table_form::report) {
            if (c.name.starts_with("vm_mod_fused")) cur().add(std::string(c.name), c.duration_us(), false);
            return;
        }
        // a graph debug or VM table: a report of its own (after a run line's, or the previous table's total)
        if (reports.empty() || (reports.back().form != c.form && (!reports.back().kernels.empty() || std::isfinite(reports.back().sum_us))))
            reports.emplace_back();
        report& r = reports.back();
        r.form = c.form;
        if (c.form == table_form::json) { // (a document's calls are each one call: summed by name)
            r.add_call(c.name.data() == nullptr ? std::string("(no Name)") : std::string(c.name), c.duration_us());
            return;
        }
        r.add(std::string(c.name), c.duration_us(), true);
    }
    void on_total(const ls::tvm_profile::total& t) {
        if (t.form == ls::tvm_profile::table_form::json) { // each device's metrics: their durations add up
            report& r = cur();
            r.form = t.form;
            if (t.duration_us()) r.sum_us = (std::isfinite(r.sum_us) ? r.sum_us : 0) + *t.duration_us();
            return;
        }
        if ((t.kind == "Sum" || t.kind == "Total_time" || t.kind == "Total Duration") && t.duration_us()) cur().sum_us = *t.duration_us();
        if (t.kind == "Total_time" || t.kind == "Total Duration") reports.emplace_back(); // (the next table is another report)
    }
    bool print(const settings& s) const {
        bool ok = true;
        std::size_t k = 0;
        for (const report& r : reports) {
            char mean[32] = "-";
            if (std::isfinite(r.mean_ms)) std::snprintf(mean, sizeof mean, "%.2f ms", r.mean_ms);
            if (r.kernels.empty() && r.untimed.empty() && !std::isfinite(r.sum_us) && r.model.empty()) continue; // (an empty one after a table)
            if (r.form == ls::tvm_profile::table_form::graph_debug)
                std::printf("  graph debug executor table: top operators (share of Total_time):\n");
            else if (r.form == ls::tvm_profile::table_form::vm_tabs)
                std::printf("  VM profiler table: top operators by summed duration (share of Total Duration):\n");
            else if (r.form == ls::tvm_profile::table_form::json)
                std::printf("  Report.json(): top kernels by summed duration, the calls of one name together (share of the devices' total):\n");
            else
                std::printf("  %s on %s: mean %s; top fused kernels (share of the Sum row):\n",
                            r.model.empty() ? "?" : r.model.c_str(), r.device.empty() ? "?" : r.device.c_str(), mean);
            const auto top = top_k(r.kernels, s.top);
            for (const auto& [name, us] : top) {
                std::string times; // (Report.json(): how many calls the sum holds)
                if (const auto at = r.by_name.find(name); at != r.by_name.end())
                    times = "  x" + std::to_string(r.calls[at->second]);
                std::printf("    %-60s %12.2f us %s%s\n", fit(name, 60).c_str(), us, // (no Sum row: `-`, not 0.00%)
                            percent(std::isfinite(r.sum_us) && r.sum_us > 0 ? 100 * us / r.sum_us : std::nan(""), 7).c_str(),
                            times.c_str());
            }
            if (!r.untimed.empty())
                std::printf("    (%zu more without a finite duration, not ranked: %s%s)\n", r.untimed.size(), fit(r.untimed.front(), 60).c_str(),
                            r.untimed.size() > 1 ? ", ..." : "");
            // (a chart per report: its model's name where a run line gave one; its form's title)
            const std::string title = r.form == ls::tvm_profile::table_form::graph_debug ? "Graph debug executor: top operators"
                                      : r.form == ls::tvm_profile::table_form::vm_tabs   ? "VM profiler table: top operators"
                                      : r.form == ls::tvm_profile::table_form::json      ? "Report.json(): top kernels"
                                                                                         : "Top fused kernels: " + r.model + " on " + r.device;
            chart_bars(s, "top-kernels-" + std::to_string(k++) + (r.model.empty() ? "" : "-" + r.model), title, top, "us", ok);
        }
        return ok;
    }
};

// --- chrome-trace ------------------------------------------------------------------------
// A whole-job report: each file is a rank, read by the library's rank_reader (this report is
// that visitor); the figures are computed once every file is read.
struct chrome_trace_summary : ls::chrome_trace::rank_reader {
    static constexpr const char* what =
        "over all the files given (the ranks of one job), the figures Holistic Trace Analysis computes: per rank the GPU "
        "kernel-type time, the kernels by name, the temporal breakdown (idle / compute / non-compute) and the top CPU "
        "ops; --json prints them as one JSON object (formats.md 6B.11)";
    static constexpr bool whole_job = true;
    std::vector<ls::chrome_trace::rank_rows> ranks;
    std::optional<ls::chrome_trace::rank_rows> parted; // (the file read in parts: its rows)
    void begin_file(const char* path) { start(path); }
    void end_file() {
        ranks.push_back(parted ? std::move(*parted) : take());
        parted.reset();
    }
    // A file that is no rank (nothing of a trace read from it): its rows let go.
    void drop_file() {
        (void)take();
        parted.reset();
    }
    // The file's error records said for the command's note on standard error (the first, and
    // events too large: the option that reads them).
    std::string error_note() const {
        return ls::chrome_trace::error_note(parted ? parted->errors : errors(), "--max-event BYTES");
    }
    // --threads: the file read in parts on several threads (chrome_trace_parts.hpp: the rows
    // one thread reads); the parse's outcome, the records and the error records read.
    std::tuple<logscan::error, std::uint64_t, std::uint64_t> read_in_parts(logscan::source_ref src, const logscan::parts_options& po,
                                                                           const logscan::format_options& fo, const char* path) {
        ls::chrome_trace::parts_read r = ls::chrome_trace::read_rank_in_parts(src, path, po, fo);
        const std::uint64_t errors = r.rows.errors.size();
        parted = std::move(r.rows);
        return {r.result, r.records, errors};
    }
    std::size_t files() const noexcept { return ranks.size(); }

    // (once: the ranks' rows are handed over; the job's notes said, files that claim one rank first)
    ls::chrome_trace::job_summary compute(const settings& s) {
        ls::chrome_trace::job_summary job = ls::chrome_trace::summarize(std::move(ranks), {.top_cpu_ops = s.top_cpu_ops});
        for (const std::string& n : job.notes) std::fprintf(stderr, "logscan: note: %s\n", n.c_str());
        return job;
    }
    std::string json(const settings& s) { return ls::chrome_trace::summary_json(compute(s)); }
    bool print(const settings& s) {
        namespace ct = ls::chrome_trace;
        const ct::job_summary job = compute(s);
        bool ok = true;
        const auto us = [](const std::optional<double>& v) { return v ? *v : 0.0; };
        std::vector<std::string> labels;
        std::vector<double> values;
        std::printf("  device type %s; profiler steps:", job.device_type.c_str());
        if (job.profiler_steps.empty()) std::printf(" none");
        for (const std::string& d : job.profiler_steps) std::printf(" %s", d.c_str());
        std::printf("\n");
        std::map<std::string, double> kernel_sums; // over the ranks, for the chart
        for (const ct::rank_summary& r : job.ranks) {
            std::printf("  rank %lld (%s): %llu events, %llu rows, window %s (%llu rows kept)%s, %llu %s\n",
                        static_cast<long long>(r.rank), r.file.c_str(), static_cast<unsigned long long>(r.events),
                        static_cast<unsigned long long>(r.rows), r.window_rule.c_str(), static_cast<unsigned long long>(r.kept_rows),
                        r.rounded ? ", times rounded to whole us" : "", static_cast<unsigned long long>(r.kernel_count),
                        r.kernel_count == 1 ? "kernel" : "kernels");
            if (r.skipped != 0) std::printf("    %llu events skipped (ts or dur not a number)\n", static_cast<unsigned long long>(r.skipped));
            if (r.temporal.kernel_time_us) {
                std::printf("    temporal: idle %.0f us (%.2f%%), compute %.0f us (%.2f%%), non-compute %.0f us (%.2f%%) of %.0f us\n",
                            us(r.temporal.idle_us), us(r.temporal.idle_pctg), us(r.temporal.compute_us), us(r.temporal.compute_pctg),
                            us(r.temporal.non_compute_us), us(r.temporal.non_compute_pctg), us(r.temporal.kernel_time_us));
                const std::string rank = "rank " + std::to_string(r.rank) + " ";
                labels.insert(labels.end(), {rank + "idle", rank + "compute", rank + "non-compute"});
                values.insert(values.end(), {us(r.temporal.idle_pctg), us(r.temporal.compute_pctg), us(r.temporal.non_compute_pctg)});
            }
            if (!r.kernel_type_time.empty()) std::printf("    kernel type time (alone or overlapping):\n");
            for (const ct::type_time& t : r.kernel_type_time) std::printf("      %-43s %12lld us\n", t.label.c_str(), static_cast<long long>(t.sum_us));
            std::vector<ct::kernel_stats> top = r.kernels_by_name;
            std::stable_sort(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.sum_us > b.sum_us; });
            if (top.size() > s.top) top.resize(s.top);
            // (share: of its kernel type's time, HTA's `kernels by name` figure, so named)
            if (!top.empty()) std::printf("    top kernels: %-53s %6s %12s %10s %7s\n", "", "count", "sum us", "mean us", "of type");
            for (const ct::kernel_stats& k : top)
                std::printf("    %-13s %-53s %6llu %12.0f %10.1f %s\n", std::string(ct::name_of(k.type)).c_str(), fit(k.name, 53).c_str(),
                            static_cast<unsigned long long>(k.count), k.sum_us, k.mean_us, percent(k.share_pct, 7).c_str());
            for (const ct::kernel_stats& k : r.kernels_by_name) kernel_sums[k.name] += k.sum_us;
            if (!r.top_cpu_ops.empty()) std::printf("    top CPU ops: %-53s %6s %12s %10s %10s\n", "", "count", "total us", "mean us", "max us");
            for (const ct::cpu_op_stats& c : r.top_cpu_ops)
                std::printf("    %-66s %6llu %12.0f %10.1f %10.0f\n", fit(c.name, 66).c_str(), static_cast<unsigned long long>(c.count),
                            c.total_us, c.mean_us, c.max_us);
        }
        if (!job.kernel_type_breakdown.empty()) std::printf("  kernel type breakdown over the ranks:\n");
        for (const ct::type_time& t : job.kernel_type_breakdown)
            std::printf("    %-45s %12lld us %6.1f%%\n", t.label.c_str(), static_cast<long long>(t.sum_us), t.percentage);
        if (!labels.empty()) ok = write_chart(s, "temporal-breakdown", svg::bars("Temporal breakdown per rank (% of kernel time)", labels, values, "%")) && ok;
        std::vector<std::pair<std::string, double>> sums(kernel_sums.begin(), kernel_sums.end());
        chart_bars(s, "top-kernels", "Top GPU kernels by time, all ranks", top_k(sums, s.top), "us", ok);
        return ok;
    }
};

// The report of each format (a format without one has no `of<F>::type`). A `whole_job`
// report reads every file of its format given to the command (begin_file, the parse,
// end_file per file) and prints once, at the end.
template <class Format>
struct of {};
template <> struct of<ls::megengine_log::format> { using type = megengine_log_summary; };
template <> struct of<ls::megengine_profile::format> { using type = megengine_profile_summary; };
template <> struct of<ls::chainer_memtrace::format> { using type = chainer_memtrace_summary; };
template <> struct of<ls::paddle_log::format> { using type = paddle_log_summary; };
template <> struct of<ls::tvm_profile::format> { using type = tvm_profile_summary; };
template <> struct of<ls::chrome_trace::format> { using type = chrome_trace_summary; };

template <class F>
concept whole_job = requires { typename of<F>::type; } && of<F>::type::whole_job;

// One whole-job report per format that has one (empty slots for the others).
template <class F>
struct no_job {};
template <class F>
struct job_slot {
    using type = no_job<F>;
};
template <class F>
    requires whole_job<F>
struct job_slot<F> {
    using type = typename of<F>::type;
};
template <class List>
struct job_reports;
template <class... F>
struct job_reports<ls::format_list<F...>> {
    std::tuple<typename job_slot<F>::type...> slots;
    template <class G>
    auto& of() noexcept { return std::get<typename job_slot<G>::type>(slots); }
};

} // namespace logscan_cli::summary

#endif
