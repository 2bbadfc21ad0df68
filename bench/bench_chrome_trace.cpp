// SPDX-License-Identifier: MIT
// chrome-trace: a Kineto-shaped trace of --mb MB (default 1024) built from the public trace
// samples/chrome/benchmark_result_...json.gz (its events repeated, each copy's `ts` moved past
// the one before and its correlation ids renumbered), read from a file in the page cache by:
// the JSON reader alone with an empty visitor (ratio 1.00); chrome_trace::parse with a visitor
// that reads every field of every record; simdjson On-Demand (when found) loading the file and
// walking every member of every event (strings read, numbers as their text, objects walked); and
// Python's ijson reading the events, once (it is slow). Then `logscan summary --json` on that
// trace (HTA's figures, formats.md 6B), and with --threads N (N the hardware threads, at least
// 2: the file read in parts, which must print the same JSON), against Python's json.load alone,
// the three taking turns --runs times, the best of each kept, with the peak resident memory of
// each (/usr/bin/time -f %M). The goals (issue: the
// chrome-trace format): parse >= 0.75 of the reader alone and >= 1.0x simdjson On-Demand;
// summary >= 30x faster than json.load; summary under 128 MB.
//
//   bench_chrome_trace [--mb 1024] [--runs 3] [--no-python]
#include <logscan/formats/chrome_trace.hpp>
#include <logscan/gzip.hpp>

#include <spawn.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "bench_util.hpp"


extern char** environ;

#if LOGSCAN_BENCH_SIMDJSON
// bench/chrome_trace_simdjson.cpp (built for this machine's CPU: simdjson On-Demand picks its
// kernel at compile time, and the portable one has no SIMD)
std::uint64_t simdjson_walk(const std::string& path, std::uint64_t& events, double& walk_seconds);
#endif

namespace {
namespace ct = logscan::chrome_trace;
namespace json = logscan::json;

// The text of each element of `traceEvents`, as it stands in the document.
struct splitter {
    std::vector<std::string>* out;
    int depth = 0;
    bool events_next = false, in_events = false;
    std::string cur;
    json::action on_key(std::string_view k) {
        events_next = depth == 1 && k == "traceEvents";
        return json::action::proceed;
    }
    json::action on_array_begin() {
        ++depth;
        in_events = depth == 2 && events_next;
        return json::action::proceed;
    }
    void on_array_end() {
        --depth;
        in_events = false;
    }
    json::action on_object_begin() {
        if (in_events && depth == 2) return json::action::capture;
        ++depth;
        return json::action::proceed;
    }
    void on_object_end() { --depth; }
    void on_value_text(std::string_view part, bool last) {
        cur += part;
        if (last) {
            out->push_back(std::move(cur));
            cur.clear();
        }
    }
};

// The number token at t[i] (after a key's colon and blanks): [begin, end).
std::size_t number_end(const std::string& t, std::size_t i) {
    while (i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '.' || t[i] == '-' || t[i] == 'e' ||
                            t[i] == 'E' || t[i] == '+'))
        ++i;
    return i;
}
// `ev` with the integer part of every `"KEY": N` moved by `add` (a fraction kept as written).
std::string moved(const std::string& ev, std::string_view key, std::uint64_t add) {
    std::string out;
    std::size_t p = 0;
    for (;;) {
        const std::size_t k = ev.find(key, p);
        if (k == std::string::npos) break;
        std::size_t v = k + key.size();
        while (v < ev.size() && (ev[v] == ' ' || ev[v] == ':')) ++v;
        const std::size_t e = number_end(ev, v);
        std::size_t int_end = v;
        while (int_end < e && std::isdigit(static_cast<unsigned char>(ev[int_end]))) ++int_end;
        out.append(ev, p, v - p);
        if (int_end == v || (e > int_end && ev[int_end] != '.')) { // (not a plain non-negative number: as it is)
            out.append(ev, v, e - v);
        } else {
            out += std::to_string(std::strtoull(ev.c_str() + v, nullptr, 10) + add);
            out.append(ev, int_end, e - int_end);
        }
        p = e;
    }
    out.append(ev, p, std::string::npos);
    return out;
}

std::string build_trace(double mb) {
    logscan::file_source file((std::string(LOGSCAN_SOURCE_DIR) + "/samples/chrome/benchmark_result_2869224_1695835535_trace.json.gz").c_str());
    logscan::maybe_gzip_source src(file);
    std::vector<std::string> events;
    splitter s{&events, 0, false, false, {}};
    if (!json::parse(src, s).ok() || events.empty()) {
        std::fprintf(stderr, "cannot read the sample trace\n");
        std::exit(2);
    }
    // one copy's time span and correlation ids, so that copies follow each other
    double lo = 1e300, hi = 0;
    std::uint64_t max_corr = 0;
    for (const std::string& e : events) {
        const std::size_t t = e.find("\"ts\"");
        if (t != std::string::npos) {
            const double ts = std::strtod(e.c_str() + e.find(':', t) + 1, nullptr);
            const std::size_t d = e.find("\"dur\"");
            const double dur = d == std::string::npos ? 0 : std::strtod(e.c_str() + e.find(':', d) + 1, nullptr);
            lo = std::min(lo, ts);
            hi = std::max(hi, ts + dur);
        }
        const std::size_t c = e.find("\"correlation\"");
        if (c != std::string::npos) max_corr = std::max<std::uint64_t>(max_corr, std::strtoull(e.c_str() + e.find(':', c) + 1, nullptr, 10));
    }
    const auto period = static_cast<std::uint64_t>(hi - lo) + 1;
    const auto target = static_cast<std::size_t>(mb * 1e6);
    std::string out = "{\n  \"schemaVersion\": 1,\n  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 1},\n  \"traceEvents\": [\n";
    bool first = true;
    for (std::uint64_t copy = 0; out.size() < target; ++copy)
        for (const std::string& e : events) {
            if (!first) out += ",\n";
            first = false;
            out += copy == 0 ? e : moved(moved(e, "\"ts\"", copy * period), "\"correlation\"", copy * (max_corr + 1));
        }
    out += "\n  ],\n  \"traceName\": \"bench\"\n}\n";
    return out;
}

// Every field of every record read.
struct everything {
    std::uint64_t n = 0, sum = 0;
    double fsum = 0;
    static std::size_t len(const ct::json_value& v) { return v ? v->text.size() : 0; }
    void on_span(const ct::span& r) {
        ++n;
        sum += r.index + len(r.name) + len(r.cat) + len(r.ph) + len(r.pid) + len(r.tid) + len(r.args) + len(r.extra);
        fsum += ct::number_of(r.ts_us).value_or(0) + ct::number_of(r.dur_us).value_or(0);
    }
    void on_instant(const ct::instant& r) {
        ++n;
        sum += len(r.name) + len(r.cat) + len(r.ph) + len(r.scope) + len(r.pid) + len(r.tid) + len(r.args) + len(r.extra);
        fsum += ct::number_of(r.ts_us).value_or(0);
    }
    void on_counter(const ct::counter& r) {
        ++n;
        sum += len(r.name) + len(r.cat) + len(r.id) + len(r.pid) + len(r.tid) + len(r.values) + len(r.extra);
        fsum += ct::number_of(r.ts_us).value_or(0);
    }
    void on_meta(const ct::meta& r) {
        ++n;
        sum += len(r.name) + len(r.pid) + len(r.tid) + len(r.value) + len(r.args) + len(r.extra);
        fsum += ct::number_of(r.ts_us).value_or(0);
    }
    void on_flow(const ct::flow_event& r) {
        ++n;
        sum += len(r.ph) + len(r.name) + len(r.cat) + len(r.id) + len(r.bp) + len(r.pid) + len(r.tid) + len(r.args) + len(r.extra);
        fsum += ct::number_of(r.ts_us).value_or(0);
    }
    void on_event(const ct::event& r) {
        ++n;
        sum += len(r.ph) + len(r.name) + len(r.cat) + len(r.id) + len(r.pid) + len(r.tid) + len(r.args) + len(r.extra);
        fsum += ct::number_of(r.ts_us).value_or(0) + ct::number_of(r.dur_us).value_or(0);
    }
    void on_trace_info(const ct::trace_info& r) { sum += r.key.size() + len(r.value); }
    void on_error(const logscan::error&) { std::exit(3); }
};
struct empty_visitor : logscan::validate_only {};


// Runs argv to its end (stdout to /dev/null) under /usr/bin/time -f %M: wall seconds and the
// peak resident KiB time reports. (Not this process's wait4: a child spawned from a process
// holding a large heap reports that heap as its own peak, the exec's old address space.)
struct measured {
    double seconds;
    long max_rss_kib;
    int status;
};
measured run_measured(std::vector<std::string> args, const std::string& out = "/dev/null") {
    const std::string rss_file = bench::temp_file("", "logscan_bench_rss");
    args.insert(args.begin(), {"/usr/bin/time", "-f", "%M", "-o", rss_file});
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const auto t0 = std::chrono::steady_clock::now();
    pid_t pid = 0;
    int status = 0;
    const bool spawned = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ) == 0;
    if (spawned) ::waitpid(pid, &status, 0);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    posix_spawn_file_actions_destroy(&fa);
    const std::string rss = bench::read_file(rss_file);
    std::remove(rss_file.c_str());
    // (time's output: the KiB, after a line saying the command's exit status when it failed)
    const std::size_t last = rss.find_last_of("0123456789");
    const std::size_t first = last == std::string::npos ? 0 : rss.find_last_not_of("0123456789", last) + 1;
    return {secs, last == std::string::npos ? 0 : std::atol(rss.c_str() + first),
            !spawned ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

} // namespace

int main(int argc, char** argv) {
    const bench::options o = bench::parse_args(argc, argv, 1024);
    bool python = true;
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--no-python") == 0) python = false;
    const std::string path = bench::temp_file(build_trace(o.mb), "logscan_bench_chrome_trace");
    const std::size_t bytes = bench::read_file(path).size();
    (void)bench::memchr_file(path.c_str());

    bench::table t("chrome-trace: a Kineto trace (samples/chrome/benchmark_result_..., its events repeated), from a file in the page cache",
                   bytes);
    everything v;
#if LOGSCAN_BENCH_SIMDJSON
    std::uint64_t simd_events = 0, simd_sum = 0;
    double simd_walk = 1e300; // (the walk's part of its best turn)
#endif
    const auto secs = bench::best_seconds_turns( // (they take turns)
        o.runs,
        [&] {
            empty_visitor e;
            logscan::file_source src(path.c_str());
            if (!logscan::json::parse(src, e).ok()) std::exit(1);
        },
        [&] {
            v = everything{};
            logscan::file_source src(path.c_str());
            if (!ct::parse(src, v).ok()) std::exit(1);
        }
#if LOGSCAN_BENCH_SIMDJSON
        ,
        [&] {
            double w = 0;
            simd_sum = simdjson_walk(path, simd_events, w);
            simd_walk = std::min(simd_walk, w);
        }
#endif
    );
    t.add("logscan json::reader, empty visitor", secs[0], true);
    t.add("logscan chrome_trace::parse, every field", secs[1]);
#if LOGSCAN_BENCH_SIMDJSON
    t.add("simdjson On-Demand (load + every member)", secs[2]);
    t.add("  the walk alone (document in memory)", simd_walk, false, "(load: padded_string::load of the file)");
    bench::keep(simd_sum);
#endif
    bench::keep(v.sum);
    bench::keep(v.fsum);
    int status = 0;
    double json_load = 0;
    long json_load_rss = 0;
    // (Debian's Python, where its python3-ijson is: /usr/bin/python3 when there is one)
    const std::string py = ::access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
    // json.load and the summary take turns too, the best of each kept (one slow turn of
    // either, the host's, would move their ratio by a third)
    measured s{1e300, 0, 0}, sp{1e300, 0, 0}; // (sp: with --threads, the file read in parts)
    const unsigned threads = std::max(2u, std::thread::hardware_concurrency());
    const std::string one_out = bench::temp_file("", "logscan_bench_summary1"), parts_out = bench::temp_file("", "logscan_bench_summaryN");
    for (int turn = 0; turn < std::max(1, o.runs); ++turn) {
        if (python) {
            const measured j = run_measured({py, "-c",
                                             "import json, sys\nd = json.load(open(sys.argv[1], 'rb'))\nprint(len(d['traceEvents']))", path});
            if (json_load == 0 || j.seconds < json_load) json_load = j.seconds;
            json_load_rss = std::max(json_load_rss, j.max_rss_kib);
        }
        const measured one = run_measured({LOGSCAN_BENCH_CLI, "summary", "--json", path}, turn == 0 ? one_out : "/dev/null");
        if (one.status != 0) s.status = one.status;
        s.seconds = std::min(s.seconds, one.seconds);
        s.max_rss_kib = std::max(s.max_rss_kib, one.max_rss_kib);
        const measured parted = run_measured({LOGSCAN_BENCH_CLI, "summary", "--json", "--threads", std::to_string(threads), path},
                                             turn == 0 ? parts_out : "/dev/null");
        if (parted.status != 0) sp.status = parted.status;
        sp.seconds = std::min(sp.seconds, parted.seconds);
        sp.max_rss_kib = std::max(sp.max_rss_kib, parted.max_rss_kib);
    }
    const bool same_summary = bench::read_file(one_out) == bench::read_file(parts_out) && !bench::read_file(one_out).empty();
    std::remove(one_out.c_str());
    std::remove(parts_out.c_str());
    if (python) {
        t.add("python3 json.load", json_load, false, "peak " + std::to_string(json_load_rss / 1024) + " MiB");
        const measured i = run_measured({py, "-c",
                                         "import ijson, sys\nprint(sum(1 for _ in ijson.items(open(sys.argv[1], 'rb'), 'traceEvents.item')), ijson.backend)",
                                         path});
        if (i.status == 0) t.add("python3 ijson (items of traceEvents, yajl2_c)", i.seconds);
        else std::printf("  (python3 ijson not found: Debian python3-ijson)\n");
    }
    if (s.status != 0) {
        std::fprintf(stderr, "logscan summary failed (%d)\n", s.status);
        status = 1;
    }
    t.add("logscan summary --json (HTA's figures)", s.seconds, false, "peak " + std::to_string(s.max_rss_kib / 1024) + " MiB");
    t.add("logscan summary --json --threads " + std::to_string(threads), sp.seconds, false,
          "peak " + std::to_string(sp.max_rss_kib / 1024) + " MiB" + (same_summary ? ", the same JSON" : ", OTHER JSON"));
    if (sp.status != 0 || !same_summary) {
        std::fprintf(stderr, "logscan summary --threads %u failed (%d) or printed other figures than one thread\n", threads, sp.status);
        status = 1;
    }
    t.print();
#if LOGSCAN_BENCH_SIMDJSON
    std::printf("  records: %llu (simdjson: %llu events)\n", static_cast<unsigned long long>(v.n),
                static_cast<unsigned long long>(simd_events));
    if (simd_events != v.n) { // (the trace has no B/E pair: one record per event)
        std::fprintf(stderr, "logscan read %llu records, simdjson %llu events\n", static_cast<unsigned long long>(v.n),
                     static_cast<unsigned long long>(simd_events));
        status = 1;
    }
#else
    std::printf("  records: %llu (simdjson not found: Debian libsimdjson-dev, scripts/install-deps --bench)\n",
                static_cast<unsigned long long>(v.n));
#endif
    if (python && json_load > 0)
        std::printf("  summary: %.1fx faster than json.load alone (--threads %u: %.1fx); peak memory %ld MiB (--threads %u: %ld MiB; "
                    "json.load: %ld MiB)\n",
                    json_load / s.seconds, threads, json_load / sp.seconds, s.max_rss_kib / 1024, threads, sp.max_rss_kib / 1024,
                    json_load_rss / 1024);
    std::remove(path.c_str());
    return status;
}
