// SPDX-License-Identifier: MIT
/// \file formats/chrome_trace_summary.hpp
/// The summary of a job's Chrome traces (formats.md section 6B): per rank, the GPU kernel-type
/// time breakdown, the kernels by name, the temporal breakdown (idle / compute / non-compute)
/// and the top CPU ops, with the figures Holistic Trace Analysis (HTA) computes on the same
/// files; over the ranks, HTA's kernel type breakdown and kernel table. What `logscan summary
/// --format chrome-trace` prints, and its `--json`.
///
/// \code
/// #include <logscan/formats/chrome_trace_summary.hpp>   // (not in <logscan.hpp>: it allocates)
/// namespace ct = logscan::chrome_trace;
/// std::vector<ct::rank_rows> ranks;
/// for (const char* path : files) {                       // the files are the ranks of one job
///     ct::rank_reader reader{path};                      // (its name goes to the output)
///     logscan::file_source src{path};                    // (a .json.gz: gzip.hpp's gzip_source)
///     const logscan::error e = ct::parse(src, reader);   // (the document's break is also
///     if (logscan::source_failed(e)) return fail(path, e); //  kept, in document_errors; the
///     ranks.push_back(reader.take());                    //  source's failure, a missing file or
/// }                                                      //  a cut .gz, is this return only)
/// const ct::job_summary s = ct::summarize(std::move(ranks));
/// std::string json = ct::summary_json(s);               // formats.md 6B.11's object
/// for (const auto& r : s.ranks)
///     if (r.temporal.kernel_time_us) std::printf("rank %lld idle %.2f %%\n", (long long)r.rank, *r.temporal.idle_pctg);
/// \endcode
///
/// Memory (unlike the format modules, this is an analysis: it allocates): `rank_reader` keeps
/// 32 bytes per row (formats.md 6B.1: the events with `ts`, `dur` and `cat`; in a grown array:
/// 2 KiB at first, doubled, past 64 KiB a mapping grown without copying), its names,
/// categories and (category, stream) pairs once each, and nothing of the other events;
/// `summarize` then needs, for one rank at a time, 8 bytes per CPU-side row with a
/// correlation (the window's join) and 16 per kernel. Rows are kept because the window
/// (6B.4), the rounding (6B.2) and the device type are known only when every file is read.
///
/// Rules kept as HTA has them, and the few deliberate differences, are formats.md 6B.12's:
/// equal `ts` sort in document order; the rank comes from `distributedInfo.rank`; B/E spans
/// are rows; events whose `ts` or `dur` is no number are skipped and counted; a rank without
/// kernels has `null` temporal figures. Names are matched as HTA's Python `re.match` would,
/// except that `\d` in `^ProfilerStep#(\d+)` is the ASCII digits (Python also takes other
/// scripts' digits).
#ifndef LOGSCAN_FORMATS_CHROME_TRACE_SUMMARY_HPP_INCLUDED
#define LOGSCAN_FORMATS_CHROME_TRACE_SUMMARY_HPP_INCLUDED

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "../huge_pages.hpp"
#include "../json.hpp"
#include "../ndjson.hpp"
#include "chrome_trace.hpp"

namespace logscan::chrome_trace {

/// HTA's kernel types (formats.md 6B.5), in its order; OTHER is logscan's name for the rest.
enum class kernel_type : unsigned char { computation, communication, memory, other };
/// `"COMPUTATION"`, `"COMMUNICATION"`, `"MEMORY"`, `"OTHER"`.
constexpr std::string_view name_of(kernel_type t) noexcept {
    constexpr std::string_view names[] = {"COMPUTATION", "COMMUNICATION", "MEMORY", "OTHER"};
    return names[static_cast<unsigned>(t)];
}

namespace summary_detail {
// The text before the first newline (Python's `.` does not match one).
constexpr std::string_view first_line(std::string_view s) noexcept { return s.substr(0, s.find('\n')); }
constexpr bool starts(std::string_view s, std::string_view p) noexcept { return s.starts_with(p); }
// `re.match(".*P", s)`: P in the first line.
constexpr bool has(std::string_view s, std::string_view p) noexcept {
    return first_line(s).find(p) != std::string_view::npos;
}
// A memory kernel's name (HTA's MEMORY type; 6B.4's names of memory rows).
constexpr bool memory_name(std::string_view n) noexcept {
    return internal::begins_with(n, "Memcpy") || internal::begins_with(n, "hipMemcpy") || internal::begins_with(n, "Memset") || internal::begins_with(n, "hipMemset") ||
           internal::begins_with(n, "dma");
}
// A std::string key looked up by a string_view.
struct text_hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

} // namespace summary_detail

/// The kernel type of a kernel's name, HTA's `get_kernel_type` (formats.md 6B.5).
constexpr kernel_type kernel_type_of(std::string_view name) noexcept {
    using namespace summary_detail;
    if (starts(name, "nccl") || starts(name, "hip") || starts(name, "hccl") || has(name, "ncclKernel"))
        return kernel_type::communication;
    if (memory_name(name)) return kernel_type::memory;
    const std::string_view line = first_line(name);
    const bool not_compute =
        starts(name, "nccl") || has(name, "Memcpy") || has(name, "Memset") || has(name, "dma") || has(name, "Sync") ||
        starts(name, "Stream Wait Event") ||
        (starts(name, "cuda") && line.find("LaunchKernel", 4) != std::string_view::npos) ||
        starts(name, "runFunction") || starts(name, "hip") || starts(name, "job_exe") || starts(name, "packet") ||
        starts(name, "pe_exe") || starts(name, "cpum_exe_subgraph") || starts(name, "hccl") ||
        starts(name, "collective_subgraph_execution");
    return not_compute ? kernel_type::other : kernel_type::computation;
}

/// The step number's digits when `s` matches `^ProfilerStep#(\d+)` (ASCII digits), else empty.
constexpr std::string_view profiler_step_digits(std::string_view s) noexcept {
    constexpr std::string_view head = "ProfilerStep#";
    if (!s.starts_with(head)) return {};
    std::size_t n = head.size();
    while (n < s.size() && s[n] >= '0' && s[n] <= '9') ++n;
    return s.substr(head.size(), n - head.size());
}

/// One rank's rows and what the summary needs besides (see `rank_reader`).
struct rank_rows {
    /// A row (formats.md 6B.1): `ts` and `dur` as read (doubles), correlation as 6B.3
    /// normalises it, name as an index in `symbols`, category and stream as an index in
    /// `classes` (32 bytes: `stream(w)`, `cat(w)` read them).
    struct row {
        double ts, dur;
        double correlation; ///< the number, or -1
        std::uint32_t name, cls;
    };
    /// A row's category (an index in `symbols`) and stream (as 6B.3 normalises it, -1: none).
    struct row_class {
        std::uint32_t cat;
        std::int64_t stream;
    };
    std::string file;                 ///< as given to the reader (its base name is written)
    std::int64_t rank = 0;            ///< `distributedInfo.rank`, or 0
    bool mtia_backend = false;        ///< `distributedInfo.backend` holds `mtia:hccl`
    std::uint64_t events = 0;         ///< elements of `traceEvents`
    std::uint64_t skipped = 0;        ///< row candidates whose `ts` or `dur` is no number
    bool round = false;               ///< some event has a fractional `ts`, or none (6B.2)
    std::vector<logscan::error> errors{}; ///< the error records (messages are static text)
    std::vector<std::string> symbols{};   ///< the rows' names and categories, once each
    std::vector<row_class> classes{};     ///< the rows' (category, stream) pairs, once each
    internal::grown_array<row> rows{}; ///< (no copy of them as they grow); added by `add`
    std::vector<std::pair<std::size_t, std::int64_t>> tids{}; ///< (row, integer tid) of memory-named rows on stream -1 (6B.4, MTIA)
    /// The least `ts` of `rows`, and the least of their `ts` rounded up (6B.2's times: the
    /// first of equal ones, as a walk of the rows finds it); meaningless while `rows` is empty.
    /// `add` keeps them: the summary's shift (6B.2) without a walk of every row.
    double least_ts = 0, least_ts_rounded = 0;

    std::int64_t stream(const row& w) const noexcept { return classes[w.cls].stream; }
    std::uint32_t cat(const row& w) const noexcept { return classes[w.cls].cat; }
    /// Appends a row (the way rows are added: `least_ts` follows).
    void add(const row& w) {
        const double up = std::ceil(w.ts);
        if (rows.empty() || w.ts < least_ts) least_ts = w.ts;
        if (rows.empty() || up < least_ts_rounded) least_ts_rounded = up;
        rows.push_back(w);
    }
};

/// One rank's rows gathered from the readers of its input's parts, in input order
/// (`rank_reader::hand_over`): the same `rank_rows` as one reader of the whole input gives.
struct rank_parts {
    rank_rows rows; ///< what was handed over so far
    std::unordered_map<std::string, std::uint32_t, summary_detail::text_hash, std::equal_to<>> symbol_ids{}; ///< (rows.symbols' indices)
    std::map<std::pair<std::uint32_t, std::int64_t>, std::uint32_t> class_ids{};                              ///< (rows.classes' indices)
};

/// The visitor that reads one rank's trace for the summary (`chrome_trace::parse(src,
/// reader)`), then `take()`. Allocates as it reads (see the file comment).
class rank_reader {
public:
    /// `file`: the name the output gives the rank's file.
    explicit rank_reader(std::string file = {}) { r_.file = std::move(file); }
    /// Starts another file (what was read and not taken is dropped).
    void start(std::string file) {
        r_ = rank_rows{};
        r_.file = std::move(file);
        forget();
    }

    void on_span(const span& s) { row(s.index, s.name, s.cat, s.tid, s.ts_us, s.dur_us, s.args, s.ph && !s.ph->json && internal::equals(s.ph->text, "B")); }
    void on_event(const event& e) { row(e.index, e.name, e.cat, e.tid, e.ts_us, e.dur_us, e.args, false); }
    void on_instant(const instant& e) { seen(e.index, e.ts_us); }
    void on_counter(const counter& e) { seen(e.index, e.ts_us); }
    void on_meta(const meta& e) { seen(e.index, e.ts_us); }
    void on_flow(const flow_event& e) { seen(e.index, e.ts_us); }
    void on_trace_info(const trace_info& t) {
        if (t.key != "distributedInfo" || !t.value || !t.value->json) return;
        (void)json::for_each_member(t.value->text, [&](std::string_view key, std::string_view value) {
            if (json::is_text(key, "\"rank\"")) {
                const auto n = parse_number<std::int64_t>(value);
                r_.rank = n.ok() && n.value >= 0 ? n.value : 0;
                rank_seen_ = true;
            } else if (json::is_text(key, "\"backend\"")) {
                backend_seen_ = true;
                char buf[256];
                const auto s = json::string_text(value, buf);
                r_.mtia_backend = s ? s->find("mtia:hccl") != std::string_view::npos
                                    : value.size() >= 2 && value.front() == '"' && value.find("mtia:hccl") != std::string_view::npos;
            }
        });
    }
    void on_error(const logscan::error& e) {
        r_.errors.push_back(e);
        // (an element's error counts it as an event; a break of the JSON text, which keeps its
        // line, is at the element being read, which is none)
        if (e.index && e.line == 0) r_.events = std::max(r_.events, *e.index + 1);
    }

    /// A parse in parts: starts this reader on another part of the same input, every row it
    /// read handed over (`hand_over`): its names and classes stay, with what they are in the
    /// gathered rows (a reader that reads many parts looks each name up once).
    void next_part() {
        r_.rows.clear();
        r_.tids.clear();
        r_.errors.clear();
        r_.events = r_.skipped = 0;
        r_.round = false;
        rank_seen_ = backend_seen_ = false;
    }

    /// The error records read so far (until `take`).
    const std::vector<logscan::error>& errors() const noexcept { return r_.errors; }
    /// What was read (then `start` the next file).
    rank_rows take() {
        forget();
        return std::move(r_);
    }

    /// A parse in parts (chrome_trace_parts.hpp): moves what was read since the last call into
    /// `to`, which holds the rows of the input before this reader's, whose events this reader's
    /// indices do not count (`index_base` of them): names and (category, stream) classes
    /// become `to`'s, error indices and the event count are offset, the other figures added.
    /// This reader reads on (its tables stay: they name its rows until the next call).
    void hand_over(rank_parts& to, std::uint64_t index_base) {
        rank_rows& t = to.rows;
        for (std::size_t i = to_symbol_.size(); i < r_.symbols.size(); ++i) {
            const auto [it, added] = to.symbol_ids.try_emplace(r_.symbols[i], static_cast<std::uint32_t>(t.symbols.size()));
            if (added) t.symbols.push_back(r_.symbols[i]);
            to_symbol_.push_back(it->second);
        }
        for (std::size_t i = to_class_.size(); i < r_.classes.size(); ++i) {
            const rank_rows::row_class c{to_symbol_[r_.classes[i].cat], r_.classes[i].stream};
            const auto [it, added] = to.class_ids.try_emplace({c.cat, c.stream}, static_cast<std::uint32_t>(t.classes.size()));
            if (added) t.classes.push_back(c);
            to_class_.push_back(it->second);
        }
        const std::size_t before = t.rows.size();
        for (const rank_rows::row& w : r_.rows) t.add({w.ts, w.dur, w.correlation, to_symbol_[w.name], to_class_[w.cls]});
        for (const auto& [at, tid] : r_.tids) t.tids.emplace_back(before + at, tid);
        for (logscan::error e : r_.errors) {
            if (e.index) *e.index += index_base;
            t.errors.push_back(e);
        }
        if (r_.events != 0) t.events = std::max(t.events, index_base + r_.events);
        t.skipped += r_.skipped;
        t.round = t.round || r_.round;
        if (rank_seen_) t.rank = r_.rank;
        if (backend_seen_) t.mtia_backend = r_.mtia_backend;
        r_.rows.clear();
        r_.tids.clear();
        r_.errors.clear();
        r_.skipped = 0;
        rank_seen_ = backend_seen_ = false;
    }

private:
    // What the reader keeps beside the rows it gives (dropped with them)
    void forget() noexcept {
        ids_.clear();
        class_ids_.clear();
        memory_.clear();
        last_class_ = UINT32_MAX;
        recent_.fill(0);
        to_symbol_.clear();
        to_class_.clear();
        rank_seen_ = backend_seen_ = false;
    }
    void seen(std::uint64_t index, const json_value& ts) {
        r_.events = std::max(r_.events, index + 1);
        // (a number's token with a fraction or an exponent; `true` is no number)
        const bool number = ts && ts->json && !ts->text.empty() && (ts->text[0] == '-' || (ts->text[0] >= '0' && ts->text[0] <= '9'));
        if (!r_.round && (!ts || (number && fraction_or_exponent(ts->text)))) r_.round = true;
    }
    // Whether a number's token has a fraction or an exponent (num.hpp's classification).
    static bool fraction_or_exponent(std::string_view token) noexcept {
        return classify_number(token) == number_kind::floating;
    }
    std::uint32_t symbol(const json_value& v) {
        const std::string_view s = v ? v->text : std::string_view{};
        // (most texts are one of the few seen last: a slot of `recent_` by a cheap hash of
        // the length and the first and last 8 bytes, checked, before the map's whole hash)
        std::uint32_t& slot = recent_[recent_slot(s)]; // (the symbol + 1; 0: none)
        if (slot != 0) {
            const std::string& t = r_.symbols[slot - 1];
            if (t.size() == s.size() && (s.empty() || std::memcmp(t.data(), s.data(), s.size()) == 0)) return slot - 1;
        }
        const auto it = ids_.find(s);
        if (it != ids_.end()) {
            slot = it->second + 1;
            return it->second;
        }
        const auto id = static_cast<std::uint32_t>(r_.symbols.size());
        r_.symbols.emplace_back(s);
        memory_.push_back(summary_detail::memory_name(s) ? 1 : 0);
        ids_.emplace(r_.symbols.back(), id);
        slot = id + 1;
        return id;
    }
    static std::size_t recent_slot(std::string_view s) noexcept {
        std::uint64_t h = s.size();
        if (s.size() >= 8) {
            std::uint64_t a, b;
            std::memcpy(&a, s.data(), 8);
            std::memcpy(&b, s.data() + s.size() - 8, 8);
            h ^= a * 0x9E3779B97F4A7C15ull ^ b * 0xC2B2AE3D27D4EB4Full;
        } else {
            for (const char c : s) h = h * 131 + static_cast<unsigned char>(c);
            h *= 0x9E3779B97F4A7C15ull;
        }
        return static_cast<std::size_t>(h >> 54); // (the top 10 bits: recent_'s 1024 slots)
    }
    // A stream number truncated to an integer (saturated beyond 64 bits; NaN: -1).
    static std::int64_t truncated(double d) noexcept {
        if (d != d) return -1;
        if (d >= 9.2e18) return INT64_MAX;
        if (d <= -9.2e18) return INT64_MIN;
        return static_cast<std::int64_t>(d);
    }
    void row(std::uint64_t index, const json_value& name, const json_value& cat, const json_value& tid,
             const json_value& ts, const json_value& dur, const json_object& args, bool begin_end) {
        seen(index, ts);
        if (begin_end && dur && !r_.round && fraction_or_exponent(dur->text)) r_.round = true; // (the E's ts)
        if (!cat || !dur || !ts) return; // (not a row: 6B.1)
        if (!cat->json && internal::equals(cat->text, "Trace")) return;
        const auto t = number_of(ts), d = number_of(dur);
        if (!t || !d) {
            ++r_.skipped;
            return;
        }
        std::int64_t stream = -1;
        double correlation = -1;
        if (args && args->json)
            (void)json::for_each_member(args->text, [&](std::string_view key, std::string_view value) {
                if (json::is_text(key, "\"stream\"")) {
                    stream = -1;
                    if (!value.empty() && value.front() == '"') { // a string holding a decimal number
                        char buf[64];
                        const auto s = json::string_text(value, buf);
                        const auto n = s ? parse_number<double>(*s) : value_result<double>{};
                        if (s && n.ok()) stream = truncated(n.value);
                    } else if (const auto n = parse_number<double>(value); n.ok()) {
                        stream = truncated(n.value);
                    }
                } else if (json::is_text(key, "\"correlation\"")) {
                    const auto n = parse_number<double>(value);
                    correlation = n.ok() ? n.value : -1;
                }
            });
        const std::uint32_t n = symbol(name), c = row_class_of(symbol(cat), stream);
        r_.add({*t, *d, correlation, n, c});
        if (stream == -1 && memory_[n] != 0)
            if (const auto k = integer_of(tid)) r_.tids.emplace_back(r_.rows.size() - 1, *k);
    }

    std::uint32_t row_class_of(std::uint32_t cat, std::int64_t stream) {
        // (rows come in runs of one class: the previous row's answers most)
        if (last_class_ < r_.classes.size() && r_.classes[last_class_].cat == cat && r_.classes[last_class_].stream == stream)
            return last_class_;
        const auto [it, added] = class_ids_.try_emplace({cat, stream}, static_cast<std::uint32_t>(r_.classes.size()));
        if (added) r_.classes.push_back({cat, stream});
        return last_class_ = it->second;
    }

    rank_rows r_;
    std::unordered_map<std::string, std::uint32_t, summary_detail::text_hash, std::equal_to<>> ids_;
    std::map<std::pair<std::uint32_t, std::int64_t>, std::uint32_t> class_ids_; // (few: the categories and streams)
    std::uint32_t last_class_ = UINT32_MAX; // the class of the previous row
    std::array<std::uint32_t, 1024> recent_{}; // symbols + 1 by recent_slot (0: none)
    std::vector<unsigned char> memory_;     // per symbol: a memory row's name (summary_detail::memory_name)
    std::vector<std::uint32_t> to_symbol_, to_class_; // (hand_over: this reader's symbols and classes as the gathered rows')
    bool rank_seen_ = false, backend_seen_ = false;   // (hand_over: distributedInfo's members read since the last)
};

/// The figures of one kernel name (formats.md 6B.8), or of one entry of HTA's table.
struct kernel_stats {
    kernel_type type = kernel_type::other;
    std::string name;
    std::uint64_t count = 0;
    double sum_us = 0, mean_us = 0, min_us = 0, max_us = 0, stddev_us = 0;
    double share_pct = 0; ///< of the type's sum on the rank (kernels by name only)
    std::int64_t rank = 0; ///< (HTA's table only)
    std::uint64_t first = 0; ///< the position of the name's first kernel among the window's rows
};
/// A top CPU op (formats.md 6B.10).
struct cpu_op_stats {
    std::string name;
    std::uint64_t count = 0;
    double total_us = 0, mean_us = 0, max_us = 0;
};
/// A label of the kernel-type time (`COMPUTATION overlapping COMMUNICATION`, ...) and its sum.
struct type_time {
    std::string label;
    std::int64_t sum_us = 0;
    double percentage = 0; ///< (the job's breakdown only)
};
/// The temporal breakdown of a rank (formats.md 6B.9): all empty when it has no kernel.
struct temporal_breakdown {
    std::optional<double> idle_us, compute_us, non_compute_us, kernel_time_us;
    std::optional<double> idle_pctg, compute_pctg, non_compute_pctg;
};
/// One rank's summary.
struct rank_summary {
    std::int64_t rank = 0;
    std::string file;
    std::uint64_t events = 0, skipped = 0, rows = 0, kept_rows = 0;
    std::vector<logscan::error> errors;
    bool rounded = false;
    std::string window_rule; ///< `cpu_correlation`, `mtia`, or `none (...)`
    std::optional<double> last_step_start_us, step_start_us, step_end_us;
    std::uint64_t kernel_count = 0;
    std::vector<std::int64_t> streams;
    std::array<std::uint64_t, 4> by_type_count{};
    std::vector<type_time> kernel_type_time; ///< per label, largest first
    temporal_breakdown temporal;
    std::vector<kernel_stats> kernels_by_name, kernel_breakdown_hta;
    std::vector<cpu_op_stats> top_cpu_ops;
};
/// The job's summary (formats.md 6B.11).
struct job_summary {
    std::string device_type;
    std::vector<std::string> profiler_steps; ///< the step numbers, as digits, ascending
    std::vector<rank_summary> ranks;         ///< by rank
    std::vector<type_time> kernel_type_breakdown;
    std::vector<kernel_stats> kernel_breakdown_hta;
    /// What a caller says to its user beside the figures (not part of 6B.11's JSON): files that
    /// claim one rank (`shared_ranks`), and files that look like no single job's ranks, whose
    /// figures the job's rules empty or set (their device types differ, the lowest rank's
    /// deciding; a rank keeps none of its rows in the job's window, its steps not the job's).
    /// The command prints each as a note, the Python module warns each.
    std::vector<std::string> notes;
};

namespace summary_detail {

// The sample standard deviation as pandas' `std` gives it here (two passes: the mean, then
// the squared deviations summed in row order; 0 for one value).
inline double sample_stddev(const std::vector<double>& v) noexcept {
    if (v.size() < 2) return 0.0;
    double sum = 0, ssd = 0;
    for (double x : v) sum += x;
    const double mean = sum / static_cast<double>(v.size());
    for (double x : v) ssd += (x - mean) * (x - mean);
    return std::sqrt(ssd / static_cast<double>(v.size() - 1));
}

// numpy's round(x, d) for d = 1, 2: rint(x * 10^d) / 10^d.
inline double numpy_round(double x, double scale) noexcept { return std::nearbyint(x * scale) / scale; }

struct interval {
    double ts, end;
};
// Intervals appended in the thousands per rank: grown without copying them (huge_pages.hpp).
using intervals = internal::grown_array<interval>;
// HTA's merge_kernel_intervals, in place: `k` sorted by ts (equal ts in their order), then
// grouped; the groups are its first values, in order (each written where a value was read).
inline void merge_in_place(intervals& k) {
    const auto by_ts = [](const interval& a, const interval& b) { return a.ts < b.ts; };
    if (!std::is_sorted(k.begin(), k.end(), by_ts)) // (no sort where the trace wrote them in order)
        std::stable_sort(k.begin(), k.end(), by_ts);
    std::size_t groups = 0;
    double max_end = 0;
    for (std::size_t i = 0; i < k.size(); ++i) {
        const interval v = k[i];
        if (i == 0 || v.ts > max_end) k[groups++] = v;
        else k[groups - 1].end = std::max(k[groups - 1].end, v.end);
        max_end = i == 0 ? v.end : std::max(max_end, v.end);
    }
    k.resize_down(groups);
}
inline double span_sum(const intervals& g) noexcept {
    double ends = 0, starts = 0;
    for (const interval& i : g) {
        ends += i.end;
        starts += i.ts;
    }
    return ends - starts;
}

// A row of the window: the rank's row, its times as the summary reads them.
struct kept {
    const rank_rows::row* row; // (its row, read in document order: no index into the list)
    double ts, dur;
    std::int64_t stream;
};

// a += b, saturated at the ends of int64 (a sum of absurd durations is not undefined behaviour).
inline void add_saturated(std::int64_t& a, std::int64_t b) noexcept {
    if (__builtin_add_overflow(a, b, &a)) a = b > 0 ? INT64_MAX : INT64_MIN;
}

// numpy's linear quantile at q of the values `c`, sorted.
inline double quantile(const std::vector<double>& c, double q) noexcept {
    const double index = static_cast<double>(c.size() - 1) * q;
    const auto lo = static_cast<std::size_t>(std::floor(index));
    const std::size_t hi = std::min(lo + 1, c.size() - 1);
    const double t = index - static_cast<double>(lo), a = c[lo], b = c[hi], diff = b - a;
    return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

inline bool cpu_event_cat(std::string_view cat) noexcept {
    return internal::begins_with(cat, "cpu_op") || cat == "user_annotation" || cat == "user_annotation\n" ||
           first_line(cat).find("_runtime", 1) != std::string_view::npos;
}
inline bool kernel_cat(std::string_view cat) noexcept {
    return internal::begins_with(cat, "kernel") || (internal::begins_with(cat, "gpu_mem") && cat.size() > 7 && cat[7] != '\n') ||
           internal::begins_with(cat, "mtia_ccp_events");
}

// Sorted, largest first, then by name.
template <class T, class Sum>
void by_sum_then_name(std::vector<T>& v, Sum sum) {
    std::sort(v.begin(), v.end(), [&](const T& a, const T& b) {
        if (sum(a) != sum(b)) return sum(a) > sum(b);
        return a.name < b.name;
    });
}

inline std::string device_type_of(const rank_rows& r) {
    if (r.mtia_backend) return "MTIA";
    const auto has_symbol = [&](std::string_view s) { return std::find(r.symbols.begin(), r.symbols.end(), s) != r.symbols.end(); };
    if (has_symbol("cudaLaunchKernel")) return "NVIDIA GPU";
    if (has_symbol("hipLaunchKernel")) return "AMD GPU";
    if (has_symbol("runFunction - job_prep_and_submit_for_execution")) return "MTIA";
    return "UNKNOWN GPU";
}

} // namespace summary_detail

/// The ranks that more than one file claims (`distributedInfo.rank`, 0 when a file has
/// none or it is not a non-negative integer: two traces of a job written without it are both
/// rank 0), each with its files in the
/// given order, by rank. `summarize` keeps such files as ranks of the same number; HTA
/// (`create_rank_to_trace_dict`) keeps one file per rank; `summarize` says so among the job's
/// `notes` (the command's note, the Python module's warning).
inline std::vector<std::pair<std::int64_t, std::vector<std::string>>> shared_ranks(const std::vector<rank_rows>& ranks) {
    std::map<std::int64_t, std::vector<std::string>> files;
    for (const rank_rows& r : ranks) files[r.rank].push_back(r.file);
    std::vector<std::pair<std::int64_t, std::vector<std::string>>> out;
    for (auto& [rank, f] : files)
        if (f.size() > 1) out.emplace_back(rank, std::move(f));
    return out;
}

/// The options of `summarize`.
struct summary_options {
    std::size_t top_cpu_ops = 20; ///< how many CPU ops per rank (6B.10)
};

/// Computes the job's summary from its ranks' rows (formats.md 6B), the ranks ordered by rank
/// (equal ranks in the given order).
inline job_summary summarize(std::vector<rank_rows> ranks, const summary_options& o = {}) {
    using namespace summary_detail;
    job_summary job;
    for (const auto& [rank, files] : shared_ranks(ranks)) {
        std::string names;
        for (const std::string& f : files) names += (names.empty() ? "" : ", ") + f;
        job.notes.push_back(std::to_string(files.size()) + " files claim rank " + std::to_string(rank) +
                            " (distributedInfo.rank; 0 when absent or not a non-negative integer): " + names +
                            "; each is summarised as a rank of that number (HTA would keep one of them)");
    }
    std::stable_sort(ranks.begin(), ranks.end(), [](const rank_rows& a, const rank_rows& b) { return a.rank < b.rank; });
    job.device_type = ranks.empty() ? "UNKNOWN GPU" : device_type_of(ranks.front());
    const bool mtia = job.device_type == "MTIA";
    std::string other_devices; // (ranks of another device type than the lowest rank's)
    for (const rank_rows& r : ranks)
        if (const std::string t = device_type_of(r); t != job.device_type)
            other_devices += (other_devices.empty() ? "" : ", ") + ("rank " + std::to_string(r.rank) + " (" + r.file + ") " + t);
    if (!other_devices.empty())
        job.notes.push_back("the files' device types differ: " + other_devices + "; the lowest rank's, " + job.device_type +
                            ", decides for all (HTA's Trace.get_device_type): are they one job's ranks?");

    // step names over all ranks (6B.4), and the rounding and shift of times (6B.2)
    std::vector<std::string> steps;
    for (const rank_rows& r : ranks)
        for (const std::string& s : r.symbols)
            if (!profiler_step_digits(s).empty() && std::find(steps.begin(), steps.end(), s) == steps.end()) steps.push_back(s);
    for (const std::string& s : steps) {
        std::string_view d = profiler_step_digits(s);
        while (d.size() > 1 && d.front() == '0') d.remove_prefix(1);
        job.profiler_steps.emplace_back(d);
    }
    std::sort(job.profiler_steps.begin(), job.profiler_steps.end(), [](const std::string& a, const std::string& b) {
        return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    job.profiler_steps.erase(std::unique(job.profiler_steps.begin(), job.profiler_steps.end()), job.profiler_steps.end()); // (#1 and #01)
    const auto times = [](const rank_rows& r, const rank_rows::row& w) -> std::pair<double, double> {
        if (!r.round) return {w.ts, w.dur};
        const double ts = std::ceil(w.ts), end = std::floor(w.ts + w.dur);
        return {ts, end - ts};
    };
    double shift = 0; // (the least of the rows' times: each rank's, kept as its rows were added)
    bool any = false;
    for (const rank_rows& r : ranks) {
        if (r.rows.empty()) continue;
        const double ts = r.round ? r.least_ts_rounded : r.least_ts;
        if (!any || ts < shift) shift = ts;
        any = true;
    }

    std::map<std::string, std::int64_t> job_types; // label -> sum over ranks
    for (rank_rows& r : ranks) {
        rank_summary s;
        s.rank = r.rank;
        s.file = r.file;
        s.events = r.events;
        s.skipped = r.skipped;
        s.rows = r.rows.size();
        s.errors = r.errors;
        s.rounded = r.round;
        const auto sym = [&](std::uint32_t id) -> std::string_view { return r.symbols[id]; };
        const auto is_step = [&](std::uint32_t id) { return !profiler_step_digits(sym(id)).empty(); };

        // the window (6B.4): the kept rows, in HTA's order (document order, each row
        // `times_kept(i)` times), with the streams the MTIA rule gives memory rows
        enum class window { every_row, cpu_correlation, mtia_rule } how = window::every_row;
        std::unordered_map<std::size_t, std::int64_t> stream_set;
        std::vector<double> kept_cpu;          // (cpu_correlation) the kept CPU-side rows' correlations, sorted
        std::uint64_t kept_cpu_uncorrelated = 0; // (and how many of them have none)
        double last_start = 0;
        std::vector<char> take; // (mtia) each row's verdict
        std::vector<char> sync_name(r.symbols.size(), 0);
        for (std::size_t i = 0; i < r.symbols.size(); ++i) sync_name[i] = r.symbols[i] == "Event Sync" || r.symbols[i] == "Context Sync";
        const auto gpu_side = [&](const rank_rows::row& w) { return (r.stream(w) >= 0 && w.correlation >= 0) || sync_name[w.name] != 0; };
        const auto times_kept = [&](std::size_t i, const rank_rows::row& w) -> std::uint64_t {
            switch (how) {
            case window::every_row: return 1;
            case window::mtia_rule: return take[i] != 0 ? 1 : 0;
            case window::cpu_correlation: break;
            }
            if (!gpu_side(w)) return times(r, w).first - shift < last_start ? 1 : 0; // a CPU-side row before the last step: once
            if (w.correlation == -1) return kept_cpu_uncorrelated; // a GPU-side row: once per kept CPU-side row of its correlation
            const auto [lo, hi] = std::equal_range(kept_cpu.begin(), kept_cpu.end(), w.correlation);
            return static_cast<std::uint64_t>(hi - lo);
        };
        const auto all_rows = [&](const char* rule) { s.window_rule = rule; };
        if (steps.size() < 2) {
            all_rows(steps.empty() ? "none (0 ProfilerStep names)" : "none (1 ProfilerStep name)");
        } else if (!mtia) {
            std::optional<double> last, first;
            for (const auto& w : r.rows) {
                if (gpu_side(w)) continue;
                const double ts = times(r, w).first - shift;
                if (!first || ts < *first) first = ts;
                if (is_step(w.name) && (!last || ts > *last)) last = ts;
            }
            if (!first) {
                all_rows("none (no CPU-side rows)");
            } else {
                last_start = last ? *last : *first;
                how = window::cpu_correlation;
                s.window_rule = "cpu_correlation";
                s.last_step_start_us = last_start + shift;
                for (const auto& w : r.rows)
                    if (!gpu_side(w) && times(r, w).first - shift < last_start) {
                        if (w.correlation == -1) ++kept_cpu_uncorrelated;
                        else kept_cpu.push_back(w.correlation);
                    }
                std::sort(kept_cpu.begin(), kept_cpu.end());
                kept_cpu.shrink_to_fit();
            }
        } else {
            // MTIA: the CPU events within the steps, the kernels they launched, the memory rows in a step
            std::optional<double> t0, t1;
            for (const auto& w : r.rows) {
                if (!cpu_event_cat(sym(r.cat(w))) || !is_step(w.name)) continue;
                const auto [ts, dur] = times(r, w);
                if (!t0 || ts - shift < *t0) t0 = ts - shift;
                if (!t1 || ts - shift + dur > *t1) t1 = ts - shift + dur;
            }
            how = window::mtia_rule;
            s.window_rule = "mtia";
            if (t0) s.step_start_us = *t0 + shift;
            if (t1) s.step_end_us = *t1 + shift;
            take.assign(r.rows.size(), 0);
            std::unordered_map<double, bool> launched;
            for (std::size_t i = 0; i < r.rows.size(); ++i) {
                const auto& w = r.rows[i];
                if (!t0 || !cpu_event_cat(sym(r.cat(w)))) continue;
                const auto [ts, dur] = times(r, w);
                if (ts - shift >= *t0 && ts - shift + dur <= *t1) {
                    take[i] = 1;
                    if (w.correlation != -1) launched[w.correlation] = true;
                }
            }
            for (std::size_t i = 0; i < r.rows.size(); ++i)
                if (kernel_cat(sym(r.cat(r.rows[i]))) && launched.count(r.rows[i].correlation) != 0) take[i] = 1;
            std::vector<interval> step_spans; // every row named ProfilerStep#N
            for (const auto& w : r.rows)
                if (is_step(w.name)) {
                    const auto [ts, dur] = times(r, w);
                    step_spans.push_back({ts - shift, ts - shift + dur});
                }
            std::size_t t = 0;
            for (std::size_t i = 0; i < r.rows.size(); ++i) {
                if (!memory_name(sym(r.rows[i].name))) continue;
                const double ts = times(r, r.rows[i]).first - shift;
                bool in = false;
                for (const interval& st : step_spans) in = in || (ts >= st.ts && ts <= st.end);
                if (!in) continue;
                take[i] = 1;
                if (r.stream(r.rows[i]) == -1) { // the row's tid becomes its stream
                    while (t < r.tids.size() && r.tids[t].first < i) ++t;
                    if (t < r.tids.size() && r.tids[t].first == i) stream_set[i] = r.tids[t].second;
                }
            }
        }
        // f(kept row) for the kept rows in order
        // (the rows walked in order, with their index: the list's iterator, not its indexing)
        const auto for_each_kept = [&](auto&& f) {
            std::size_t i = 0;
            for (const rank_rows::row& w : r.rows) {
                const std::uint64_t n = times_kept(i, w);
                if (n != 0) {
                    const auto [ts, dur] = times(r, w);
                    const auto it = stream_set.empty() ? stream_set.end() : stream_set.find(i);
                    const kept k{&w, ts - shift, dur, it == stream_set.end() ? r.stream(w) : it->second};
                    for (std::uint64_t j = 0; j < n; ++j) f(k);
                }
                ++i;
            }
        };
        s.kept_rows = 0; // (counted in the first walk of the kept rows)

        // kernels (6B.3): the kept rows on a stream
        std::array<intervals, 3> by_type; // (COMPUTATION, COMMUNICATION, MEMORY)
        intervals all;
        // per name (by its symbol): the kernels' figures and squared deviations, the CPU ops'
        std::vector<std::pair<double, kernel_stats>> names(r.symbols.size());
        std::vector<cpu_op_stats> ops(r.symbols.size());
        std::vector<signed char> types(r.symbols.size(), -1);
        const auto type_of = [&](std::uint32_t id) {
            if (types[id] < 0) types[id] = static_cast<signed char>(kernel_type_of(sym(id)));
            return static_cast<kernel_type>(types[id]);
        };
        for_each_kept([&](const kept& k) {
            const auto& w = *k.row;
            ++s.kept_rows; // (the row's position among the window's)
            if (sym(r.cat(w)) == "cpu_op") {
                cpu_op_stats& c = ops[w.name];
                c.max_us = c.count == 0 ? k.dur : std::max(c.max_us, k.dur);
                ++c.count;
                c.total_us += k.dur;
            }
            if (k.stream == -1) return;
            const kernel_type t = type_of(w.name);
            ++s.kernel_count;
            ++s.by_type_count[static_cast<unsigned>(t)];
            if (std::find(s.streams.begin(), s.streams.end(), k.stream) == s.streams.end()) s.streams.push_back(k.stream);
            if (t != kernel_type::other) by_type[static_cast<unsigned>(t)].push_back({k.ts, k.ts + k.dur}); // (OTHER's are not merged)
            all.push_back({k.ts, k.ts + k.dur});
            kernel_stats& st = names[w.name].second;
            if (st.count == 0) st.first = s.kept_rows;
            st.min_us = st.count == 0 ? k.dur : std::min(st.min_us, k.dur);
            st.max_us = st.count == 0 ? k.dur : std::max(st.max_us, k.dur);
            ++st.count;
            st.sum_us += k.dur;
        });
        for (auto& [ssd, st] : names)
            if (st.count != 0) st.mean_us = st.sum_us / static_cast<double>(st.count);
        for_each_kept([&](const kept& k) { // (the deviations from each name's mean: a second pass, as pandas)
            if (k.stream == -1) return;
            auto& [ssd, st] = names[k.row->name];
            ssd += (k.dur - st.mean_us) * (k.dur - st.mean_us);
        });
        r.rows = {}; // (read: freed before the merges)
        kept_cpu = {};
        take = {};
        std::sort(s.streams.begin(), s.streams.end());

        // kernel-type time (6B.7): COMPUTATION 1, COMMUNICATION 2, MEMORY 4
        {
            std::vector<std::pair<double, int>> marks;
            std::array<std::size_t, 4> run{}; // (where each type's marks begin: each run is in order when no duration is negative)
            for (int b = 0; b < 3; ++b) merge_in_place(by_type[static_cast<std::size_t>(b)]); // (the temporal breakdown reads COMPUTATION's)
            marks.reserve(2 * (by_type[0].size() + by_type[1].size() + by_type[2].size()));
            for (int b = 0; b < 3; ++b) {
                const auto& groups = by_type[static_cast<std::size_t>(b)];
                for (const interval& g : groups) {
                    marks.emplace_back(g.ts, 1 << b);
                    marks.emplace_back(g.end, -(1 << b));
                }
                run[static_cast<std::size_t>(b) + 1] = marks.size();
            }
            // sorted by time, equal times in their order: the three runs merged, each stably
            // (what a stable sort of them all gives), or sorted where a run is out of order
            const auto by_time = [](const auto& a, const auto& b) { return a.first < b.first; };
            const auto at = [&](std::size_t i) { return marks.begin() + static_cast<std::ptrdiff_t>(run[i]); };
            if (std::is_sorted(at(0), at(1), by_time) && std::is_sorted(at(1), at(2), by_time) && std::is_sorted(at(2), at(3), by_time)) {
                std::inplace_merge(at(0), at(1), at(2), by_time);
                std::inplace_merge(at(0), at(2), at(3), by_time);
            } else {
                std::stable_sort(marks.begin(), marks.end(), by_time);
            }
            // (summed per set of types open, the label's bits; labelled once each, in the
            // labels' order)
            std::array<std::int64_t, 8> by_set{};
            std::array<bool, 8> seen_set{};
            int running = 0;
            for (std::size_t i = 0; i + 1 < marks.size(); ++i) {
                running += marks[i].second;
                if (running <= 0) continue;
                const double d = std::trunc(marks[i + 1].first - marks[i].first);
                const std::int64_t len = d != d ? 0 : d >= 9.2e18 ? INT64_MAX : d <= -9.2e18 ? INT64_MIN : static_cast<std::int64_t>(d);
                const auto set = static_cast<std::size_t>(running & 7);
                add_saturated(by_set[set], len);
                seen_set[set] = true;
            }
            std::map<std::string, std::int64_t> sums;
            for (std::size_t set = 0; set < 8; ++set) {
                if (!seen_set[set]) continue;
                std::string label;
                for (unsigned b = 0; b < 3; ++b)
                    if (set & (1u << b)) label += (label.empty() ? "" : " overlapping ") + std::string(name_of(static_cast<kernel_type>(b)));
                sums[label] = by_set[set];
            }
            for (const auto& [label, sum] : sums) {
                if (sum == 0) continue;
                s.kernel_type_time.push_back({label, sum, 0});
                add_saturated(job_types[label], sum);
            }
            std::stable_sort(s.kernel_type_time.begin(), s.kernel_type_time.end(), [](const type_time& a, const type_time& b) { return a.sum_us > b.sum_us; });
        }

        // temporal breakdown (6B.9)
        if (!all.empty()) {
            merge_in_place(all);
            const intervals& g = all;
            const double kernel_time = g[g.size() - 1].end - g[0].ts;
            const double idle = kernel_time - span_sum(g);
            const double compute = span_sum(by_type[0]); // (merged above)
            const double non_compute = kernel_time - compute - idle;
            temporal_breakdown& t = s.temporal;
            t.kernel_time_us = kernel_time;
            t.idle_us = idle;
            t.compute_us = compute;
            t.non_compute_us = non_compute;
            t.idle_pctg = numpy_round(100 * (idle / kernel_time), 100);
            t.compute_pctg = numpy_round(100 * (compute / kernel_time), 100);
            t.non_compute_pctg = numpy_round(100 * (non_compute / kernel_time), 100);
        }

        // kernels by name (6B.8), and HTA's table of the rank; a type's sum: its names' sums
        // in the order the window first has them
        std::array<double, 4> type_sum{};
        {
            std::vector<std::pair<std::uint64_t, std::uint32_t>> by_first;
            for (std::uint32_t id = 0; id < names.size(); ++id)
                if (names[id].second.count != 0) by_first.emplace_back(names[id].second.first, id);
            std::sort(by_first.begin(), by_first.end());
            for (const auto& [first, id] : by_first) type_sum[static_cast<std::size_t>(type_of(id))] += names[id].second.sum_us;
        }

        for (int t = 0; t < 4; ++t) {
            std::vector<kernel_stats> list;
            for (std::uint32_t id = 0; id < names.size(); ++id) {
                const auto& [ssd, figures] = names[id];
                if (figures.count == 0 || type_of(id) != static_cast<kernel_type>(t)) continue;
                kernel_stats st = figures;
                st.type = static_cast<kernel_type>(t);
                st.name = std::string(sym(id));
                st.stddev_us = st.count < 2 ? 0.0 : std::sqrt(ssd / static_cast<double>(st.count - 1));
                st.share_pct = 100 * st.sum_us / type_sum[static_cast<std::size_t>(t)];
                st.rank = r.rank;
                list.push_back(std::move(st));
            }
            by_sum_then_name(list, [](const kernel_stats& k) { return k.sum_us; });
            s.kernels_by_name.insert(s.kernels_by_name.end(), list.begin(), list.end());
            if (t == 3) break; // (HTA's table: COMPUTATION, COMMUNICATION, MEMORY)
            // HTA's table: by sum, equal sums in the order the window first has them (as
            // the expected figures of the public traces have them: HTA's sort is not stable)
            std::stable_sort(list.begin(), list.end(), [](const kernel_stats& a, const kernel_stats& b) {
                return a.sum_us != b.sum_us ? a.sum_us > b.sum_us : a.first < b.first;
            });
            if (list.size() <= 10) {
                s.kernel_breakdown_hta.insert(s.kernel_breakdown_hta.end(), list.begin(), list.end());
                continue;
            }
            std::vector<double> cumsum;
            for (const kernel_stats& k : list) cumsum.push_back((cumsum.empty() ? 0 : cumsum.back()) + k.sum_us);
            std::vector<double> sorted = cumsum; // (a quantile of the values in order: a negative sum makes them fall)
            std::sort(sorted.begin(), sorted.end());
            const double q = quantile(sorted, 0.8);
            kernel_stats others;
            std::vector<double> folded;
            others.type = static_cast<kernel_type>(t);
            others.name = "others";
            others.rank = r.rank;
            for (std::size_t i = 0; i < list.size(); ++i) {
                const kernel_stats& k = list[i];
                if (k.sum_us < 0 || (cumsum[i] <= q && i < 10)) {
                    kernel_stats one = k; // (regrouped alone: each figure its sum)
                    one.max_us = one.min_us = one.mean_us = one.sum_us;
                    one.stddev_us = 0;
                    s.kernel_breakdown_hta.push_back(std::move(one));
                    continue;
                }
                others.min_us = others.count == 0 ? k.sum_us : std::min(others.min_us, k.sum_us);
                others.max_us = others.count == 0 ? k.sum_us : std::max(others.max_us, k.sum_us);
                ++others.count;
                others.sum_us += k.sum_us;
                folded.push_back(k.sum_us);
            }
            if (others.count != 0) {
                others.mean_us = others.sum_us / static_cast<double>(others.count);
                others.stddev_us = sample_stddev(folded);
                s.kernel_breakdown_hta.push_back(std::move(others));
            }
        }
        for (const kernel_stats& k : s.kernel_breakdown_hta) job.kernel_breakdown_hta.push_back(k);

        // top CPU ops (6B.10)
        for (std::uint32_t id = 0; id < ops.size(); ++id) {
            cpu_op_stats& c = ops[id];
            if (c.count == 0) continue;
            c.name = std::string(sym(id));
            c.mean_us = c.total_us / static_cast<double>(c.count);
            s.top_cpu_ops.push_back(c);
        }
        by_sum_then_name(s.top_cpu_ops, [](const cpu_op_stats& c) { return c.total_us; });
        if (s.top_cpu_ops.size() > o.top_cpu_ops) s.top_cpu_ops.resize(o.top_cpu_ops);

        r.symbols = {};
        if (s.rows != 0 && s.kept_rows == 0 && how != window::every_row)
            job.notes.push_back("rank " + std::to_string(s.rank) + " (" + s.file + "): none of its " + std::to_string(s.rows) +
                                " rows is in the job's window (formats.md 6B.4: " +
                                (how == window::mtia_rule ? "the span of the job's " : "before the last of the job's ") +
                                std::to_string(job.profiler_steps.size()) +
                                " profiler steps), so its figures are empty: are the files one job's ranks?");
        job.ranks.push_back(std::move(s));
    }

    // over the ranks (6B.7, 6B.8)
    std::int64_t total = 0;
    for (const auto& [label, sum] : job_types) {
        if (sum == 0) continue;
        job.kernel_type_breakdown.push_back({label, sum, 0});
        add_saturated(total, sum);
    }
    std::stable_sort(job.kernel_type_breakdown.begin(), job.kernel_type_breakdown.end(),
                     [](const type_time& a, const type_time& b) { return a.sum_us > b.sum_us; });
    for (type_time& t : job.kernel_type_breakdown)
        t.percentage = numpy_round(static_cast<double>(t.sum_us) / static_cast<double>(total) * 100, 10);
    std::stable_sort(job.kernel_breakdown_hta.begin(), job.kernel_breakdown_hta.end(), [](const kernel_stats& a, const kernel_stats& b) {
        const std::string_view ta = name_of(a.type), tb = name_of(b.type);
        if (ta != tb) return ta < tb;
        if (a.name != b.name) return a.name < b.name;
        return a.rank < b.rank;
    });
    return job;
}

/// A rank's error records said for people (a note on standard error, a warning), empty when
/// there is none: `N error record(s); the first at event index K (LINE:COLUMN): MESSAGE`, the
/// place as the record has it (an index in `traceEvents`, 0 first; a line and column where the
/// JSON text broke, `at line LINE:COLUMN` without an index; logscan::error_records_note); then, when events were larger than the parser's scratch buffer (code
/// `too_long`: they were left out), `; N event(s) larger than the scratch buffer, not read
/// (SETTING reads them)`, `setting` saying how to raise it (`--max-event BYTES`). (Not
/// "skipped": the JSON's `skipped_events` are the rows whose `ts` or `dur` is no number, B.1;
/// these are among its `document_errors`.)
inline std::string error_note(const std::vector<logscan::error>& errors, std::string_view setting) {
    if (errors.empty()) return {};
    std::string s = error_records_note(errors.size(), errors.front());
    const auto large = static_cast<std::size_t>(
        std::count_if(errors.begin(), errors.end(), [](const logscan::error& e) { return e.code == error_code::too_long; }));
    if (large != 0)
        s += "; " + std::to_string(large) + " event(s) larger than the scratch buffer, not read (" + std::string(setting) + " reads them)";
    return s;
}

/// The job's summary as formats.md 6B.11's JSON object (one line, no newline at its end).
inline std::string summary_json(const job_summary& job) {
    std::string out;
    struct string_sink {
        std::string* s;
        bool operator()(std::string_view t) const {
            s->append(t);
            return true;
        }
    };
    char buffer[4096];
    ndjson_writer<string_sink> w(string_sink{&out}, buffer);
    const auto number = [&](double v) {
        if (std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < 9e15) w.value(static_cast<std::int64_t>(v));
        else w.value(v);
    };
    const auto optional = [&](std::string_view key, const std::optional<double>& v) {
        w.key(key);
        if (v) number(*v);
        else w.value(nullptr);
    };
    const auto hta_entry = [&](const kernel_stats& k) {
        w.begin_object();
        w.field("kernel_type", name_of(k.type));
        w.field("name", std::string_view(k.name));
        w.key("sum_us"), number(k.sum_us);
        w.key("max_us"), number(k.max_us);
        w.key("min_us"), number(k.min_us);
        w.key("mean_us"), number(k.mean_us);
        w.key("stddev_us"), number(k.stddev_us);
        w.field("rank", k.rank);
        w.end_object();
    };
    w.begin_object();
    w.key("profiler_steps");
    w.begin_array();
    for (const std::string& d : job.profiler_steps) w.raw_value(d);
    w.end_array();
    w.key("ranks");
    w.begin_array();
    for (const rank_summary& r : job.ranks) {
        w.begin_object();
        w.field("rank", r.rank);
        const std::string_view file = r.file;
        w.field("file", file.substr(file.find_last_of('/') + 1));
        w.field("device_type", std::string_view(job.device_type));
        w.field("events", r.events);
        w.key("document_errors");
        w.begin_array();
        for (const logscan::error& e : r.errors) {
            w.begin_object();
            w.key("index");
            if (e.index) w.value(*e.index);
            else w.value(nullptr);
            w.field("message", e.message);
            w.end_object();
        }
        w.end_array();
        w.field("rounded_to_us", r.rounded);
        w.field("skipped_events", r.skipped);
        w.field("rows", r.rows);
        w.key("window");
        w.begin_object();
        w.field("rule", std::string_view(r.window_rule));
        if (r.last_step_start_us) optional("last_step_start_us", r.last_step_start_us);
        if (r.window_rule == "mtia") {
            optional("step_start_us", r.step_start_us);
            optional("step_end_us", r.step_end_us);
        }
        w.field("kept_rows", r.kept_rows);
        w.end_object();
        w.key("kernels");
        w.begin_object();
        w.field("count", r.kernel_count);
        w.key("streams");
        w.begin_array();
        for (std::int64_t s : r.streams) w.value(s);
        w.end_array();
        w.key("by_type_count");
        w.begin_object();
        for (unsigned t = 0; t < 4; ++t) w.field(name_of(static_cast<kernel_type>(t)), r.by_type_count[t]);
        w.end_object();
        w.end_object();
        w.key("kernel_type_time_us");
        w.begin_object();
        for (const type_time& t : r.kernel_type_time) w.field(std::string_view(t.label), t.sum_us);
        w.end_object();
        w.key("temporal_breakdown");
        w.begin_object();
        optional("idle_time_us", r.temporal.idle_us);
        optional("compute_time_us", r.temporal.compute_us);
        optional("non_compute_time_us", r.temporal.non_compute_us);
        optional("kernel_time_us", r.temporal.kernel_time_us);
        optional("idle_time_pctg", r.temporal.idle_pctg);
        optional("compute_time_pctg", r.temporal.compute_pctg);
        optional("non_compute_time_pctg", r.temporal.non_compute_pctg);
        w.end_object();
        w.key("kernels_by_name");
        w.begin_array();
        for (const kernel_stats& k : r.kernels_by_name) {
            w.begin_object();
            w.field("kernel_type", name_of(k.type));
            w.field("name", std::string_view(k.name));
            w.field("count", k.count);
            w.key("sum_us"), number(k.sum_us);
            w.key("mean_us"), number(k.mean_us);
            w.key("min_us"), number(k.min_us);
            w.key("max_us"), number(k.max_us);
            w.key("stddev_us"), number(k.stddev_us);
            w.key("share_pct"), number(k.share_pct);
            w.end_object();
        }
        w.end_array();
        w.key("kernel_breakdown_hta");
        w.begin_array();
        for (const kernel_stats& k : r.kernel_breakdown_hta) hta_entry(k);
        w.end_array();
        w.key("top_cpu_ops");
        w.begin_array();
        for (const cpu_op_stats& c : r.top_cpu_ops) {
            w.begin_object();
            w.field("name", std::string_view(c.name));
            w.field("count", c.count);
            w.key("total_us"), number(c.total_us);
            w.key("mean_us"), number(c.mean_us);
            w.key("max_us"), number(c.max_us);
            w.end_object();
        }
        w.end_array();
        w.end_object();
    }
    w.end_array();
    w.key("kernel_type_breakdown");
    w.begin_array();
    for (const type_time& t : job.kernel_type_breakdown) {
        w.begin_object();
        w.field("kernel_type", std::string_view(t.label));
        w.field("sum_us", t.sum_us);
        w.key("percentage"), number(t.percentage);
        w.end_object();
    }
    w.end_array();
    w.key("kernel_breakdown_hta");
    w.begin_array();
    for (const kernel_stats& k : job.kernel_breakdown_hta) hta_entry(k);
    w.end_array();
    w.end_object();
    w.flush();
    return out;
}

} // namespace logscan::chrome_trace

#endif // LOGSCAN_FORMATS_CHROME_TRACE_SUMMARY_HPP_INCLUDED
