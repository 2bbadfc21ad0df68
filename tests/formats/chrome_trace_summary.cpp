// SPDX-License-Identifier: MIT
// The summary of Chrome traces (formats.md section 6B): the contract's worked example with the
// figures its text gives; HTA's kernel types (6B.5) on names the text names; hand-written
// traces for the window with rounding, B/E spans, a skipped event and HTA's Event Sync join
// (figures derived by hand in the comments), the MTIA rules, and a job of two ranks, one
// without kernels. The public traces against HTA's figures, and every hand-written trace
// against the independent reference (tests/reference/chrome_summary.py), are the command's
// tests (examples/logscan/CMakeLists.txt: logscan.summary.chrome.*).
#include <logscan/formats/chrome_trace_summary.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "support/chunking.hpp"

namespace ct = logscan::chrome_trace;

namespace {

ct::rank_rows read_rank(const std::string& name, logscan::test::chunk_list chunks) {
    ct::rank_reader reader{name};
    ct::parser<ct::rank_reader> p(reader);
    for (auto ch : chunks) p.feed(ch);
    p.finish();
    return reader.take();
}
ct::rank_rows read_rank(const std::string& name) {
    const std::string text = logscan::test::read_file(std::string(LOGSCAN_SOURCE_DIR) + "/tests/data/" + name);
    const logscan::test::chunked_input whole(text, {});
    return read_rank(name, whole.chunks());
}
ct::job_summary summary_of(std::vector<std::string> files) {
    std::vector<ct::rank_rows> ranks;
    for (const std::string& f : files) ranks.push_back(read_rank(f));
    return ct::summarize(std::move(ranks));
}
std::vector<std::pair<std::string, std::int64_t>> type_times(const std::vector<ct::type_time>& v) {
    std::vector<std::pair<std::string, std::int64_t>> r;
    for (const auto& t : v) r.emplace_back(t.label, t.sum_us);
    return r;
}
using times = std::vector<std::pair<std::string, std::int64_t>>;

// `t` (a compact JSON text) with blanks around its tokens outside strings, as a
// pretty-printer writes them: a space after each ':', a line feed and an indent after each
// ',', '{' and '[', a line feed before each '}' and ']'.
std::string spaced(std::string_view t) {
    std::string out;
    bool in_string = false, escaped = false;
    for (const char c : t) {
        if (in_string) {
            out += c;
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '}' || c == ']') out += "\n  ";
        out += c;
        if (c == '"') in_string = true;
        else if (c == ':') out += ' ';
        else if (c == ',' || c == '{' || c == '[') out += "\n\t  ";
    }
    return out;
}

} // namespace

TEST_CASE("chrome summary: a rank's least ts, as read and rounded up, kept as rows are added (the shift of 6B.2)") {
    ct::rank_rows r;
    const auto add = [&](double ts) { r.add({ts, 1, -1, 0, 0}); };
    add(5.5);
    CHECK(r.least_ts == 5.5);
    CHECK(r.least_ts_rounded == 6);
    add(3.9); // (the least now, in the middle of the rows)
    add(3.2); // (less again; rounded up, equal to 3.9's 4)
    add(7);
    CHECK(r.least_ts == 3.2);
    CHECK(r.least_ts_rounded == 4);
    CHECK(r.rows.size() == 4);
    // equal values: the first kept, as `ts < least` over the rows in order keeps it (0 before -0)
    ct::rank_rows z;
    z.add({0.0, 1, -1, 0, 0});
    z.add({-0.5, 1, -1, 0, 0}); // (rounded up: -0, equal to 0: 0 stays)
    CHECK(z.least_ts == -0.5);
    CHECK(!std::signbit(z.least_ts_rounded));
    ct::rank_rows y;
    y.add({-0.5, 1, -1, 0, 0}); // (rounded up: -0 first)
    y.add({0.0, 1, -1, 0, 0});
    CHECK(std::signbit(y.least_ts_rounded));
}

TEST_CASE("chrome summary: the note on error records (error_note): the first one's place and words, events too large") {
    CHECK(ct::error_note({}, "--max-event BYTES").empty());
    logscan::error a{logscan::error_code::syntax, 0, 0, 0, "E without an open B on its thread", 0};
    a.index = 11;
    logscan::error b{logscan::error_code::too_long, 0, 0, 0, "event too large for the scratch buffer", 0};
    b.index = 12;
    logscan::error cut{logscan::error_code::unexpected_end, 9, 26, 200, "unterminated string", 0};
    cut.index = 5;
    CHECK(ct::error_note({a, b, b}, "--max-event BYTES") ==
          "3 error record(s); the first at event index 11: E without an open B on its thread; 2 event(s) larger than the scratch "
          "buffer, not read (--max-event BYTES reads them)");
    CHECK(ct::error_note({cut}, "x") == "1 error record(s); the first at event index 5 (9:26): unterminated string");
}

TEST_CASE("chrome summary: HTA's kernel types (formats.md 6B.5)") {
    using k = ct::kernel_type;
    CHECK(ct::kernel_type_of("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)") == k::communication);
    CHECK(ct::kernel_type_of("void foo<ncclKernel>()") == k::communication);      // contains ncclKernel
    CHECK(ct::kernel_type_of("hipMemcpyAsync") == k::communication);              // ^hip before MEMORY
    CHECK(ct::kernel_type_of("hccl_allreduce") == k::communication);
    CHECK(ct::kernel_type_of("Memcpy HtoD (Pageable -> Device)") == k::memory);
    CHECK(ct::kernel_type_of("Memset (Device)") == k::memory);
    CHECK(ct::kernel_type_of("dmaCopyIn") == k::memory);
    CHECK(ct::kernel_type_of("Event Sync") == k::other);                          // ^.*Sync
    CHECK(ct::kernel_type_of("Stream Wait Event") == k::other);
    CHECK(ct::kernel_type_of("cudaLaunchKernel") == k::other);                    // cuda.*LaunchKernel
    CHECK(ct::kernel_type_of("void copy_dma_kernel()") == k::other);              // .*dma
    CHECK(ct::kernel_type_of("job_exe_step") == k::other);
    CHECK(ct::kernel_type_of("runFunction - job_prep_and_submit_for_execution") == k::other);
    CHECK(ct::kernel_type_of("ampere_sgemm_32x32_sliced1x4_tn") == k::computation);
    CHECK(ct::kernel_type_of("void at::native::vectorized_elementwise_kernel<4>()") == k::computation);
    CHECK(ct::kernel_type_of("gemm\nSync") == k::computation); // (`.` does not match a newline)
    CHECK(ct::kernel_type_of("gemm\nncclKernel") == k::computation);
    CHECK(ct::name_of(k::communication) == "COMMUNICATION");
    CHECK(ct::profiler_step_digits("ProfilerStep#12") == "12");
    CHECK(ct::profiler_step_digits("ProfilerStep#3abc") == "3"); // (re.match: a prefix)
    CHECK(ct::profiler_step_digits("ProfilerStep#") == "");
    CHECK(ct::profiler_step_digits("xProfilerStep#1") == "");
}

TEST_CASE("chrome summary: the worked example of formats.md 6B.11, its figures") {
    const ct::job_summary job = summary_of({"chrome_summary_example.json"});
    REQUIRE(job.ranks.size() == 1);
    const ct::rank_summary& r = job.ranks[0];
    CHECK(job.profiler_steps == std::vector<std::string>{"1", "2", "3"});
    CHECK(r.window_rule == "cpu_correlation");
    CHECK(r.last_step_start_us == 200);
    CHECK(r.kept_rows == 13);
    CHECK_FALSE(r.rounded);
    CHECK(type_times(r.kernel_type_time) == times{{"COMPUTATION", 48},
                                                  {"COMMUNICATION", 18},
                                                  {"COMPUTATION overlapping COMMUNICATION", 12},
                                                  {"COMMUNICATION overlapping MEMORY", 10},
                                                  {"MEMORY", 10}});
    std::vector<double> pct;
    for (const auto& t : job.kernel_type_breakdown) pct.push_back(t.percentage);
    CHECK(pct == std::vector<double>{49.0, 18.4, 12.2, 10.2, 10.2});
    CHECK(r.temporal.kernel_time_us == 168);
    CHECK(r.temporal.idle_us == 70);
    CHECK(r.temporal.compute_us == 60);
    CHECK(r.temporal.non_compute_us == 38);
    CHECK(r.temporal.idle_pctg == 41.67);
    CHECK(r.temporal.compute_pctg == 35.71);
    CHECK(r.temporal.non_compute_pctg == 22.62);
    REQUIRE(r.top_cpu_ops.size() == 2);
    CHECK(r.top_cpu_ops[0].name == "aten::mm");
    CHECK(r.top_cpu_ops[0].count == 2);
    CHECK(r.top_cpu_ops[0].total_us == 40);
    CHECK(r.top_cpu_ops[1].name == "aten::add");
    CHECK(r.top_cpu_ops[1].total_us == 10);
}

// window_round.json, by hand: a ts with a fraction, so every row is rounded (ts' = ceil(ts),
// end' = floor(ts + dur)); three step names; the string ts of aten::bad is skipped.
// last_start = ceil(1200.5) = 1201; kept CPU-side rows (ts' < 1201): Step#10, Step#11, mm,
// launches 1 and 2, the aten::add B/E span, launch 3, the memcpy call, the sync call = 9, five
// of them without a correlation (-1); kept GPU-side rows: kernels 1-4 once each, Event Sync
// (correlation -1, GPU-side by its name) once per kept CPU-side row of correlation -1 = 5;
// 18 rows. Kernels (stream != -1): gemm [1013, 1042], tiny [1044, 1043] (dur -1), nccl
// [1107, 1147] (stream "20"), memcpy [1151, 1171], Event Sync [1165, 1175] x 5.
TEST_CASE("chrome summary: the window, rounding, B/E spans, skipped events (window_round.json)") {
    const ct::job_summary job = summary_of({"chrome_summary/window_round.json"});
    REQUIRE(job.ranks.size() == 1);
    const ct::rank_summary& r = job.ranks[0];
    CHECK(job.device_type == "NVIDIA GPU");
    CHECK(job.profiler_steps == std::vector<std::string>{"10", "11", "12"});
    CHECK(r.events == 21);
    CHECK(r.rounded);
    CHECK(r.skipped == 1);
    CHECK(r.rows == 18); // 17 X events with ts, dur and cat, and the B/E span
    CHECK(r.last_step_start_us == 1201);
    CHECK(r.kept_rows == 18);
    CHECK(r.kernel_count == 9);
    CHECK(r.streams == std::vector<std::int64_t>{7, 20});
    CHECK(r.by_type_count == std::array<std::uint64_t, 4>{2, 1, 1, 5});
    // marks +1@1013 -1@1042 -1@1043 +1@1044 +2@1107 -2@1147 +4@1151 -4@1171
    CHECK(type_times(r.kernel_type_time) == times{{"COMMUNICATION", 40}, {"COMPUTATION", 29}, {"MEMORY", 20}});
    // groups [1013,1042] [1044,1043] [1107,1147] [1151,1175]: 162 us, busy 92, compute 29 - 1
    CHECK(r.temporal.kernel_time_us == 162);
    CHECK(r.temporal.idle_us == 70);
    CHECK(r.temporal.compute_us == 28);
    CHECK(r.temporal.non_compute_us == 64);
    CHECK(r.temporal.idle_pctg == 43.21);
    CHECK(r.temporal.compute_pctg == 17.28);
    CHECK(r.temporal.non_compute_pctg == 39.51);
    REQUIRE(r.kernels_by_name.size() == 5);
    CHECK(r.kernels_by_name[0].name == "gemm_kernel");
    CHECK(r.kernels_by_name[0].sum_us == 29);
    CHECK(r.kernels_by_name[0].share_pct == 100.0 * 29 / 28);
    CHECK(r.kernels_by_name[1].name == "tiny_kernel");
    CHECK(r.kernels_by_name[1].sum_us == -1);
    CHECK(r.kernels_by_name[4].name == "Event Sync");
    CHECK(r.kernels_by_name[4].type == ct::kernel_type::other);
    CHECK(r.kernels_by_name[4].count == 5);
    CHECK(r.kernels_by_name[4].sum_us == 50);
    CHECK(r.kernels_by_name[4].stddev_us == 0);
    CHECK(r.kernel_breakdown_hta.size() == 4); // (no OTHER in HTA's table)
    // mm: ceil(1005.25) = 1006, floor(1025.75) = 1025; add: 1105 .. floor(1117.5)
    REQUIRE(r.top_cpu_ops.size() == 2);
    CHECK(r.top_cpu_ops[0].name == "aten::mm");
    CHECK(r.top_cpu_ops[0].total_us == 19);
    CHECK(r.top_cpu_ops[1].name == "aten::add");
    CHECK(r.top_cpu_ops[1].total_us == 12);
}

// mtia.json, by hand: the backend says MTIA; CPU events (cpu_op, user_annotation, *_runtime)
// within the steps [100, 300]: the two steps, two mm, two runFunction calls (aten::late ends at
// 310); their correlations 1 and 2 bring gemm@120 and job_exe_step@220; dmaCopyIn@150 lies in
// step 0 and takes its tid 6 as its stream; 9 rows.
TEST_CASE("chrome summary: the MTIA rules (mtia.json)") {
    const ct::job_summary job = summary_of({"chrome_summary/mtia.json"});
    REQUIRE(job.ranks.size() == 1);
    const ct::rank_summary& r = job.ranks[0];
    CHECK(job.device_type == "MTIA");
    CHECK(r.window_rule == "mtia");
    CHECK(r.step_start_us == 100);
    CHECK(r.step_end_us == 300);
    CHECK(r.kept_rows == 9);
    CHECK(r.streams == std::vector<std::int64_t>{5, 6});
    CHECK(r.by_type_count == std::array<std::uint64_t, 4>{1, 0, 1, 1});
    CHECK(type_times(r.kernel_type_time) == times{{"COMPUTATION", 30}, {"MEMORY", 10}});
    CHECK(r.temporal.kernel_time_us == 110);
    CHECK(r.temporal.idle_us == 60);
    CHECK(r.temporal.compute_us == 30);
    CHECK(r.temporal.non_compute_us == 20);
    CHECK(r.temporal.idle_pctg == 54.55);
    REQUIRE(r.top_cpu_ops.size() == 1);
    CHECK(r.top_cpu_ops[0].count == 2);
    CHECK(r.top_cpu_ops[0].total_us == 40);
}

// rank1.json then rank0.json: the ranks by rank; rank 0 (hipLaunchKernel) decides the device
// type; rank 0 has no kernel; rank 1: nccl [5010, 5060] and gemm [5040, 5080].
TEST_CASE("chrome summary: a job of two ranks, one without kernels") {
    const ct::job_summary job = summary_of({"chrome_summary/rank1.json", "chrome_summary/rank0.json"});
    REQUIRE(job.ranks.size() == 2);
    CHECK(job.device_type == "AMD GPU");
    CHECK(job.ranks[0].rank == 0);
    CHECK(job.ranks[0].file == "chrome_summary/rank0.json");
    CHECK_FALSE(job.ranks[0].temporal.kernel_time_us.has_value());
    CHECK_FALSE(job.ranks[0].temporal.idle_pctg.has_value());
    CHECK(job.ranks[0].kernel_count == 0);
    const ct::rank_summary& r = job.ranks[1];
    CHECK(r.rank == 1);
    CHECK(type_times(r.kernel_type_time) ==
          times{{"COMMUNICATION", 30}, {"COMPUTATION", 20}, {"COMPUTATION overlapping COMMUNICATION", 20}});
    CHECK(r.temporal.kernel_time_us == 70);
    CHECK(r.temporal.idle_us == 0);
    CHECK(r.temporal.compute_pctg == 57.14);
    CHECK(r.temporal.non_compute_pctg == 42.86);
    std::vector<double> pct;
    for (const auto& t : job.kernel_type_breakdown) pct.push_back(t.percentage);
    CHECK(pct == std::vector<double>{42.9, 28.6, 28.6});
    const std::string json = ct::summary_json(job);
    CHECK(json.find(R"("file":"rank0.json")") != std::string::npos);
    CHECK(json.find(R"("temporal_breakdown":{"idle_time_us":null,)") != std::string::npos);
    CHECK(json.find(R"("profiler_steps":[])") != std::string::npos);
    // said beside the figures, not in them: rank 1 launches with cudaLaunchKernel, where the
    // lowest rank's type decides (no step: no window, no rank emptied by one)
    CHECK(job.notes == std::vector<std::string>{
                           "the files' device types differ: rank 1 (chrome_summary/rank1.json) NVIDIA GPU; the lowest rank's, AMD GPU, "
                           "decides for all (HTA's Trace.get_device_type): are they one job's ranks?"});
    CHECK(json.find("device types") == std::string::npos);
    // mtia.json, rank 0 too and of two profiler steps (a window for every rank: rank 0 and rank 1,
    // of no step, keep none of their 2 and 3 rows), first among the notes: the rank two files claim
    const ct::job_summary three = summary_of({"chrome_summary/rank0.json", "chrome_summary/rank1.json", "chrome_summary/mtia.json"});
    REQUIRE(three.notes.size() == 4);
    CHECK(three.notes[0] == "2 files claim rank 0 (distributedInfo.rank; 0 when absent or not a non-negative integer): "
                            "chrome_summary/rank0.json, chrome_summary/mtia.json; each is summarised as a rank of that number (HTA "
                            "would keep one of them)");
    CHECK(three.notes[2] == "rank 0 (chrome_summary/rank0.json): none of its 2 rows is in the job's window (formats.md 6B.4: before "
                            "the last of the job's 2 profiler steps), so its figures are empty: are the files one job's ranks?");
    CHECK(three.notes[3].starts_with("rank 1 (chrome_summary/rank1.json): none of its 3 rows is in the job's window"));
}

TEST_CASE("chrome summary: the same figures under any chunking") {
    const std::string text = logscan::test::read_file(std::string(LOGSCAN_SOURCE_DIR) + "/tests/data/chrome_summary/window_round.json");
    logscan::test::check_chunk_invariance(text, [](logscan::test::chunk_list chunks) {
        std::vector<ct::rank_rows> ranks;
        ranks.push_back(read_rank("window_round.json", chunks));
        return ct::summary_json(ct::summarize(std::move(ranks)));
    });
}

TEST_CASE("chrome summary: a rank pretty-printed has the rows of the same rank compact") {
    // (each file with blanks in and around every token, as a pretty-printer writes it, against
    // the compact file: the same rows, the same figures)
    std::size_t streams = 0, correlations = 0;
    for (const char* name : {"chrome_summary/window_round.json", "chrome_summary/mtia.json", "chrome_summary/rank0.json",
                             "chrome_summary/rank1.json"}) {
        CAPTURE(name);
        const std::string text = logscan::test::read_file(std::string(LOGSCAN_SOURCE_DIR) + "/tests/data/" + name);
        const std::string wide = spaced(text);
        REQUIRE(wide.size() > text.size() + text.size() / 4);
        const logscan::test::chunked_input compact_in(text, {}), wide_in(wide, {});
        std::vector<ct::rank_rows> compact, spaced_rows;
        compact.push_back(read_rank(name, compact_in.chunks()));
        spaced_rows.push_back(read_rank(name, wide_in.chunks()));
        const ct::rank_rows &a = compact[0], &b = spaced_rows[0];
        CHECK(a.events == b.events);
        CHECK(a.skipped == b.skipped);
        CHECK(a.round == b.round);
        CHECK(a.errors.size() == b.errors.size());
        REQUIRE(a.rows.size() == b.rows.size());
        CHECK(a.symbols == b.symbols);
        REQUIRE(a.classes.size() == b.classes.size());
        for (std::size_t i = 0; i < a.classes.size(); ++i) {
            CHECK(a.classes[i].cat == b.classes[i].cat);
            CHECK(a.classes[i].stream == b.classes[i].stream);
            streams += a.classes[i].stream != -1;
        }
        for (std::size_t i = 0; i < a.rows.size(); ++i) {
            CHECK(a.rows[i].ts == b.rows[i].ts);
            CHECK(a.rows[i].dur == b.rows[i].dur);
            CHECK(a.rows[i].correlation == b.rows[i].correlation);
            CHECK(a.rows[i].name == b.rows[i].name);
            CHECK(a.rows[i].cls == b.rows[i].cls);
            correlations += a.rows[i].correlation != -1;
        }
        CHECK(a.tids == b.tids);
        CHECK(ct::summary_json(ct::summarize(std::move(compact))) == ct::summary_json(ct::summarize(std::move(spaced_rows))));
    }
    CHECK(streams >= 3);       // (the args were read: streams, one of them a string "20", and correlations found)
    CHECK(correlations >= 10);
}
