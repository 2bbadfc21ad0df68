// SPDX-License-Identifier: MIT
// tvm-profile (formats.md section 5) on sample 004 and on hand-written reports printed the way
// TVM prints them (right-aligned by bytes, trailing spaces on every row). Expected values come
// from the input: counted and summed in this file with plain string operations that share
// nothing with the module, or read off the sample by hand (line numbers given).
#include <logscan/formats/tvm_profile.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "support/alloc_counter.hpp"
#include "support/chunking.hpp"
#include "support/random_text.hpp"
#include "support/reader_vs_pattern.hpp"
#include "support/string_writer.hpp"
#include "support/wanted.hpp"

namespace tp = logscan::tvm_profile;

namespace {

std::string sv(std::string_view s) { return std::string(s); }

// Every record as one string, in order (cells as `column=text` for the non-empty ones).
struct recorder {
    std::vector<std::string> out;
    std::size_t runs = 0, means = 0, calls = 0, totals = 0, configs = 0, texts = 0, errors = 0;

    static std::string cells(const tp::report_row& r) {
        std::string s = r.metrics ? " " + sv(*r.metrics) : "";
        for (std::size_t i = 1; i < r.cells.size(); ++i)
            if (!r.cells[i].empty()) s += " " + sv(r.columns[i].text()) + "=" + sv(r.cells[i].text());
        return s;
    }
    void on_run(const tp::run& r) {
        ++runs;
        out.push_back("run " + std::to_string(r.line) + " " + sv(r.model) + " " + sv(r.device));
    }
    void on_mean_time(const tp::mean_time& r) {
        ++means;
        char b[96];
        std::snprintf(b, sizeof b, "mean_time %llu %g %g", static_cast<unsigned long long>(r.line), r.mean_ms, r.std_ms);
        out.push_back(b);
    }
    void on_call(const tp::call& r) {
        ++calls;
        out.push_back("call " + std::to_string(r.line) + " " + sv(r.name) + " |" + cells(r));
    }
    void on_total(const tp::total& r) {
        ++totals;
        out.push_back("total " + std::to_string(r.line) + " " + sv(r.kind) + " |" + cells(r));
    }
    void on_config(const tp::config& r) {
        ++configs;
        out.push_back("config " + std::to_string(r.line) + " " + sv(r.key) + "=" + sv(r.value) + (r.json ? " " + sv(*r.json) : ""));
    }
    void on_text(const logscan::line& l) {
        ++texts;
        out.push_back("text " + std::to_string(l.number) + " " + sv(l.text));
    }
    void on_error(const logscan::error& e) {
        ++errors;
        out.push_back("error " + std::to_string(e.line) + " " + sv(e.message));
    }
};

std::vector<std::string> run_chunks(logscan::test::chunk_list chunks) {
    recorder r;
    tp::parser<recorder> p(r, {.max_line = 4096});
    for (auto c : chunks) p.feed(c);
    p.finish();
    return r.out;
}

recorder run(std::string_view text) {
    recorder r;
    REQUIRE(tp::parse(text, r).ok());
    return r;
}

const std::string& sample() {
    static const std::string s = logscan::test::read_file(logscan::test::sample_path("004_d73c77cb3fb2895c.txt"));
    return s;
}

// The text of a right-aligned field of a sample line: the run of non-blank bytes (single
// spaces inside) that ends at `end` (exclusive).
std::string_view field_ending_at(std::string_view l, std::size_t end) {
    std::size_t b = end;
    while (b > 0 && !(l[b - 1] == ' ' && (b < 2 || l[b - 2] == ' '))) --b;
    return l.substr(b, end - b);
}

double plain_number(std::string_view s) {
    std::string t;
    for (char c : s)
        if (c != ',') t += c;
    return std::strtod(t.c_str(), nullptr);
}

// A report printed the way TVM prints it: the header's columns right-aligned, every row
// padded to the header's width (trailing spaces included).
struct report_printer {
    std::vector<std::string> names;
    std::vector<std::size_t> widths;
    std::string out;
    void header(std::vector<std::string> n, std::vector<std::size_t> w) {
        names = std::move(n);
        widths = std::move(w);
        std::vector<std::string> h(names.begin(), names.end());
        row(h);
    }
    void row(const std::vector<std::string>& cells) {
        std::string s = cells[0];
        s.resize(widths[0], ' ');
        for (std::size_t i = 1; i < widths.size(); ++i) {
            const std::string c = i < cells.size() ? cells[i] : "";
            s += "  " + std::string(widths[i] - c.size(), ' ') + c;
        }
        out += s + "  \n";
    }
    void line(const std::string& s) { out += s + "\n"; }
};

} // namespace

TEST_CASE("tvm_profile::sample 004: every record type, counts and sums computed from the text") {
    const std::string& s = sample();
    const recorder r = run(s);
    // counts from the text
    std::size_t runs = 0, means = 0, calls = 0, prints = 0, configs = 0, sums = 0, totals = 0;
    for (std::string_view l : logscan::test::lines_of(s)) {
        runs += l.starts_with("Evaluate vm inference cost of ");
        means += l.starts_with("Mean vm inference time (std dev): ");
        calls += l.starts_with("vm_mod_") || l.starts_with("VM::");
        prints += l.starts_with("hellow minjae") || l.starts_with("this is lower hello");
        configs += l.starts_with("Number of threads: ") || l.starts_with("Executor: ");
        sums += l.starts_with("Sum ");
        totals += l.starts_with("Total ");
    }
    CHECK(runs == 11);
    CHECK(r.runs == runs);
    CHECK(r.means == means);
    CHECK(r.calls == calls);
    CHECK(r.texts == prints);
    CHECK(r.configs == configs);
    CHECK(r.totals == sums + totals);
    CHECK(r.errors == 0);

    // first and last records of each type, read off the sample
    const auto& o = r.out;
    CHECK(o[0] == "text 1 hellow minjae this is compiler.cc line 911");
    CHECK(o[2] == "run 3 resnet18 cpu(0)");
    CHECK(o[3] == "mean_time 4 13.13 1.8");
    CHECK(o[4] == "call 6 vm_mod_fused_nn_contrib_conv2d_NCHWc_add_nn_relu_1 | Duration (us)=1,577.51 Percent=1.29 "
                  "Device=cpu0 Count=2 Argument Shapes=float32[1, 1, 56, 56, 64], float32[2, 1, 3, 3, 64, 32], "
                  "float32[1, 2, 1, 1, 32], float32[1, 2, 56, 56, 32] Hash=35b19e27a40f9b21 data_layout=NCHW64c "
                  "kernel_layout=OIHW64i32o out_layout=NCHW32c perf::CACHE-MISSES=57,602 perf::CYCLES=97,226,683 "
                  "perf::INSTRUCTIONS=266,406,311 perf::STALLED-CYCLES-BACKEND=54,590,609 "
                  "perf::STALLED-CYCLES-FRONTEND=710,191");
    CHECK(o[o.size() - 1] == "config 738 Executor=VM");
    CHECK(o[o.size() - 2] == "config 737 Number of threads=32");
    const std::string perf = " perf::CACHE-MISSES=6,106,994 perf::CYCLES=1,182,997,531 perf::INSTRUCTIONS=2,235,630,015 "
                             "perf::STALLED-CYCLES-BACKEND=727,039,905 perf::STALLED-CYCLES-FRONTEND=15,963,373";
    CHECK(o[o.size() - 3] == "total 733 Total | Duration (us)=36,154.27 Device=cpu0 Count=1" + perf);
    CHECK(o[o.size() - 4] == "total 732 Sum | Duration (us)=23,217.08 Percent=64.22 Count=27 perf::CACHE-MISSES=6,085,302 "
                             "perf::CYCLES=1,106,734,771 perf::INSTRUCTIONS=2,212,066,818 "
                             "perf::STALLED-CYCLES-BACKEND=708,710,563 perf::STALLED-CYCLES-FRONTEND=12,653,146");
    CHECK(o[o.size() - 5] == "call 730 VM::AllocTensor | Duration (us)=0.70 Percent=0.00 Device=cpu0 Count=1 "
                             "Argument Shapes=float32[1, 512, 8, 8] perf::CACHE-MISSES=104 perf::CYCLES=2,456,593 "
                             "perf::INSTRUCTIONS=769,857 perf::STALLED-CYCLES-BACKEND=584,998 "
                             "perf::STALLED-CYCLES-FRONTEND=102,002");
}

TEST_CASE("tvm_profile::sample 004: in every report the calls add up to its Sum row") {
    // sums computed from the text (each row's fields cut at the header's right edges) and,
    // separately, from the records' numbers
    struct sums {
        struct report {
            double dur = 0, sum_dur = -1;
            std::uint64_t count = 0, sum_count = 0;
            std::size_t calls = 0;
        };
        std::vector<report> reports;
        void on_run(const tp::run&) { reports.emplace_back(); }
        void on_call(const tp::call& c) {
            REQUIRE(c.duration_us());
            REQUIRE(c.count());
            reports.back().dur += *c.duration_us();
            reports.back().count += *c.count();
            ++reports.back().calls;
            CHECK(c.device() == "cpu0");
        }
        void on_total(const tp::total& t) {
            if (t.kind != "Sum") return;
            reports.back().sum_dur = *t.duration_us();
            reports.back().sum_count = *t.count();
            CHECK(t.device().empty());
        }
    } v;
    REQUIRE(tp::parse(sample(), v).ok());
    REQUIRE(v.reports.size() == 11);

    // the same from the text
    std::vector<sums::report> text;
    std::size_t dur_end = 0, count_end = 0;
    bool rows = false;
    for (std::string_view l : logscan::test::lines_of(sample())) {
        if (l.starts_with("Name ") && l.find("Duration (us)") != std::string_view::npos) {
            text.emplace_back();
            dur_end = l.find("Duration (us)") + 13;
            count_end = l.find("Count") + 5;
            rows = true;
        } else if (rows && l.starts_with("----------")) {
            rows = false;
        } else if (rows && (l.starts_with("vm_mod_") || l.starts_with("VM::"))) {
            text.back().dur += plain_number(field_ending_at(l, dur_end));
            text.back().count += std::strtoull(std::string(field_ending_at(l, count_end)).c_str(), nullptr, 10);
            ++text.back().calls;
        } else if (l.starts_with("Sum ")) {
            text.back().sum_dur = plain_number(field_ending_at(l, dur_end));
            text.back().sum_count = std::strtoull(std::string(field_ending_at(l, count_end)).c_str(), nullptr, 10);
        }
    }
    REQUIRE(text.size() == v.reports.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        INFO("report " << i);
        const auto& a = v.reports[i];
        CHECK(a.calls == text[i].calls);
        CHECK(std::fabs(a.dur - text[i].dur) < 1e-6);
        CHECK(a.sum_dur == text[i].sum_dur);
        CHECK(a.count == a.sum_count);              // counts add up exactly
        CHECK(a.sum_count == text[i].sum_count);
        // durations are printed rounded to 0.01: the sum of n rounded values is within n * 0.005
        CHECK(std::fabs(a.dur - a.sum_dur) <= 0.005 * static_cast<double>(a.calls) + 1e-6);
    }
}

namespace { // (each test file's own: they hold its recorder)
// Visitors with one of the recorder's callbacks (tests/support/wanted.hpp).
LOGSCAN_TEST_ONLY(recorder, on_run, tp::run);
LOGSCAN_TEST_ONLY(recorder, on_mean_time, tp::mean_time);
LOGSCAN_TEST_ONLY(recorder, on_call, tp::call);
LOGSCAN_TEST_ONLY(recorder, on_total, tp::total);
LOGSCAN_TEST_ONLY(recorder, on_config, tp::config);
LOGSCAN_TEST_ONLY(recorder, on_text, logscan::line);
LOGSCAN_TEST_ONLY(recorder, on_error, logscan::error);
} // namespace

TEST_CASE("tvm_profile::a visitor that wants some records gets exactly those, whatever the format leaves out") {
    const std::string hand = logscan::test::read_file(std::string(LOGSCAN_SOURCE_DIR) + "/tests/data/tvm_profile_hand.txt");
    for (const std::string* in : {&sample(), &hand}) {
        recorder full;
        REQUIRE(tp::parse(*in, full, {.max_line = 4096}).ok());
        REQUIRE(full.out.size() > 20);
        const auto parse = [](std::string_view t, auto& v) { return tp::parse(t, v, {.max_line = 4096}).ok(); };
        logscan::test::check_wanted<only_on_run, tp::parser>(*in, full.out, {"run"}, parse);
        logscan::test::check_wanted<only_on_mean_time, tp::parser>(*in, full.out, {"mean_time"}, parse);
        logscan::test::check_wanted<only_on_call, tp::parser>(*in, full.out, {"call"}, parse);
        logscan::test::check_wanted<only_on_total, tp::parser>(*in, full.out, {"total"}, parse);
        logscan::test::check_wanted<only_on_config, tp::parser>(*in, full.out, {"config"}, parse);
        logscan::test::check_wanted<only_on_text, tp::parser>(*in, full.out, {"text"}, parse);
        logscan::test::check_wanted<only_on_error, tp::parser>(*in, full.out, {"error"}, parse);
    }
}

TEST_CASE("tvm_profile::identical records under any chunking, down to 1 byte") {
    logscan::test::check_chunk_invariance(sample(), run_chunks, 4);
    const std::string hand = "debug\r\nName  Duration (us)  Count  \r\nk        1,234.50      2  \r\ncut_off_na\r\n"
                             "----------\r\nSum      1,234.50      2  \r\nConfiguration\r\n-------------\r\nExecutor: VM";
    logscan::test::check_chunk_invariance(hand, run_chunks);
}

TEST_CASE("tvm_profile::no allocation while parsing (after construction)") {
    struct top {
        double best = 0;
        std::size_t n = 0;
        void on_call(const tp::call& c) {
            const double d = c.duration_us().value_or(0);
            if (d > best) best = d;
        }
        void on_total(const tp::total&) { ++n; }
        void on_config(const tp::config&) { ++n; }
        void on_text(const logscan::line&) { ++n; }
    } v;
    tp::parser<top> p(v, {.max_line = 4096});
    const std::string& text = sample();
    LOGSCAN_CHECK_NO_ALLOC(for (std::size_t i = 0; i < text.size(); i += 1000) p.feed(std::string_view(text).substr(i, 1000)); p.finish());
    CHECK(v.best == 26794.66); // line 239, the largest duration of the sample
    CHECK(v.n == 22 + 22 + 22);
}

TEST_CASE("tvm_profile::hand-written: other columns and devices, large durations, digit hashes, several reports") {
    report_printer p;
    p.line("hellow minjae this is compiler.cc line 911");
    p.line("Evaluate vm inference cost of bert on cuda0");
    p.line("Mean vm inference time (std dev): 1234.5 ms (0.25 ms)");
    p.header({"Name", "Duration (us)", "Percent", "Device", "Count", "Argument Shapes", "Hash"}, {40, 13, 7, 6, 5, 30, 16});
    p.row({"vm_mod_fused_nn_dense_add", "2,290,805.04", "95.10", "cuda0", "12", "float32[1, 768], float32[768]", "1234567890123456"});
    p.row({"vm_mod_fused_take", "40309.18", "1.67", "cuda0", "1", "int64[1, 128]", "0000000000000042"});
    p.line("[12:00:01] debug print inside the rows");
    p.line("vm_mod_fused_cut_off_mid_na");
    p.row({"VM::AllocStorage", "12.00", "0.00", "cuda0", "3", "", ""});
    p.line(std::string(10, '-') + std::string(130, ' '));
    p.row({"Sum", "2,331,126.22", "96.77", "", "16", "", ""});
    p.row({"Total", "2,408,912.00", "", "cuda0", "1", "", ""});
    p.line("Configuration");
    p.line("-------------");
    p.line("Number of threads: 4");
    p.line("Executor: VM");
    p.line("");
    p.line("Evaluate vm inference cost of mobilenet on hexagon0");
    p.line("Mean vm inference time (std dev): 3.5 ms (0.01 ms)");
    p.header({"Name", "Duration (us)", "Percent", "Device", "Count", "perf::CYCLES"}, {30, 13, 7, 8, 5, 12});
    p.row({"vm_mod_fused_conv2d", "100.00", "50.00", "hexagon0", "1", "1,000"});
    p.line("----------");
    p.row({"Sum", "100.00", "50.00", "", "1", "1,000"});
    p.line("Configuration");
    p.line("not dashes: so the line above was text");
    std::string in = p.out;
    in.pop_back(); // no newline at the end of the file

    const recorder r = run(in);
    const std::vector<std::string> want = {
        "text 1 hellow minjae this is compiler.cc line 911",
        "run 2 bert cuda0",
        "mean_time 3 1234.5 0.25",
        "call 5 vm_mod_fused_nn_dense_add | Duration (us)=2,290,805.04 Percent=95.10 Device=cuda0 Count=12 "
        "Argument Shapes=float32[1, 768], float32[768] Hash=1234567890123456",
        "call 6 vm_mod_fused_take | Duration (us)=40309.18 Percent=1.67 Device=cuda0 Count=1 Argument Shapes=int64[1, 128] "
        "Hash=0000000000000042",
        "text 7 [12:00:01] debug print inside the rows",
        "text 8 vm_mod_fused_cut_off_mid_na",
        "call 9 VM::AllocStorage | Duration (us)=12.00 Percent=0.00 Device=cuda0 Count=3",
        "total 11 Sum | Duration (us)=2,331,126.22 Percent=96.77 Count=16",
        "total 12 Total | Duration (us)=2,408,912.00 Device=cuda0 Count=1",
        "config 15 Number of threads=4",
        "config 16 Executor=VM",
        "run 18 mobilenet hexagon0",
        "mean_time 19 3.5 0.01",
        "call 21 vm_mod_fused_conv2d | Duration (us)=100.00 Percent=50.00 Device=hexagon0 Count=1 perf::CYCLES=1,000",
        "total 23 Sum | Duration (us)=100.00 Percent=50.00 Count=1 perf::CYCLES=1,000",
        "text 24 Configuration",
        "text 25 not dashes: so the line above was text",
    };
    CHECK(r.out == want);

    // numbers: separators, millions, no separators; the all-digit hash stays text
    struct nums {
        std::vector<double> d;
        std::vector<std::string> hash;
        void on_call(const tp::call& c) {
            d.push_back(c.duration_us().value_or(-1));
            hash.push_back(sv(c.text("Hash")));
        }
    } v;
    REQUIRE(tp::parse(in, v).ok());
    CHECK(v.d == std::vector<double>{2290805.04, 40309.18, 12.0, 100.0});
    CHECK(v.hash == std::vector<std::string>{"1234567890123456", "0000000000000042", "", ""});
}

TEST_CASE("tvm_profile::CRLF and a blank line end the table; a second dashes line too") {
    const recorder r = run("Name       Duration (us)  Count  \r\n"
                           "k                   1.50      2  \r\n"
                           "\r\n"
                           "k                   1.50      2  \r\n"
                           "Name       Duration (us)  Count  \r\n"
                           "----------\r\n"
                           "Sum                 1.50      2  \r\n"
                           "----------\r\n"
                           "Sum                 1.50      2  \r\n");
    const std::vector<std::string> want = {
        "call 2 k | Duration (us)=1.50 Count=2",
        "text 4 k                   1.50      2",
        "total 7 Sum | Duration (us)=1.50 Count=2",
        "text 8 ----------",
        "text 9 Sum                 1.50      2",
    };
    CHECK(r.out == want);
}

TEST_CASE("tvm_profile::damaged input never crashes and accounts for every non-blank line") {
    auto accounted = [](std::string_view in) {
        recorder r;
        tp::parser<recorder> p(r, {.max_line = 4096});
        p.feed(in);
        p.finish();
        std::vector<bool> seen(logscan::test::lines_of(in).size() + 2, false);
        for (const auto& s : r.out) seen[std::strtoull(s.c_str() + s.find(' ') + 1, nullptr, 10)] = true;
        std::size_t missing = 0, n = 0;
        bool config_heading = false;
        for (std::string_view l : logscan::test::lines_of(in)) {
            ++n;
            const std::string_view t = logscan::internal::trim(l);
            // structure: a table header, dashes, a Configuration heading followed by dashes
            const bool structural = (t.starts_with("Name ") && t.find("Duration (us)") != std::string_view::npos) ||
                                    t.starts_with("---") || (t == "Configuration");
            if (!t.empty() && !seen[n] && !structural) ++missing;
            config_heading = t == "Configuration";
        }
        (void)config_heading;
        return missing;
    };
    const std::string& s = sample();
    for (std::size_t cut : {std::size_t{1}, std::size_t{300}, s.size() / 7, s.size() / 3, s.size() / 2, s.size() - 2}) {
        INFO("cut at " << cut);
        CHECK(accounted(std::string_view(s).substr(0, cut)) == 0);
    }
    std::string junk;
    for (int i = 0; i < 20000; ++i) junk += static_cast<char>((i * 7919 + i / 13) & 0xff);
    CHECK(accounted(junk) == 0);
    CHECK(run("").out.empty());
    std::string big = "Evaluate vm inference cost of a on b\n" + std::string(10u << 20, 'x') + "\nExecutor: VM\n";
    const recorder r = run(big);
    REQUIRE(r.out.size() == 3);
    CHECK(r.out[0] == "run 1 a b");
    CHECK(r.out[1].starts_with("error 2 line longer than the line buffer"));
    CHECK(r.out[2] == "text 3 Executor: VM");
}

TEST_CASE("tvm_profile::before the dashes, a line that is no row is text even when it looks like a report line") {
    const recorder r = run("Name       Duration (us)  Count  \n"
                           "a                   1.50      2  \n"
                           "Mean vm inference time (std dev): 1.00 ms (0.10 ms)\n"
                           "Configuration\n"
                           "----------\n"
                           "Sum                 1.50      2  \n"
                           "Configuration\n"
                           "-------------\n"
                           "Executor: VM\n");
    const std::vector<std::string> want = {
        "call 2 a | Duration (us)=1.50 Count=2",
        "text 3 Mean vm inference time (std dev): 1.00 ms (0.10 ms)",
        "text 4 Configuration",
        "total 6 Sum | Duration (us)=1.50 Count=2",
        "config 9 Executor=VM",
    };
    CHECK(r.out == want);
}

namespace {
// Every record of `input` as the command's NDJSON (one line each).
std::vector<std::string> ndjson_lines(const std::string& input) {
    bool ok = false;
    std::vector<std::string> lines = logscan::test::ndjson_lines<tp::ndjson_visitor>(input, tp::parse, ok);
    REQUIRE(ok);
    return lines;
}
} // namespace

namespace {
// the contract's two example rows under the header they need (cells left-aligned, each
// column as wide as its widest cell plus two spaces, trailing spaces kept), indented by
// two spaces; then a second table right after (no blank line) whose row has an empty
// cell and so ends it; a unicode node name (columns count code points); a nan
std::pair<std::string, std::vector<std::string>> debug_example() {
    const std::string input =
        "  Node Name     Ops                      Time(us)  Time(%)  Shape            Inputs  Outputs  Measurements(us)  \n"
        "  ---------     ---                      --------  -------  -----            ------  -------  ----------------  \n"
        "  conv_block_3  fused_conv2d_add_relu_3  812.406   64.52    (1, 32, 28, 28)  2       1        [812.406]         \n"
        "  Total_time    -                        1259.2    -        -                -       -        -                 \n"
        "Node Name  Ops    Time(us)  Shape  Inputs\n"
        "---------  ---    --------  -----  ------\n"
        "卷积_1       conv   nan       (4,)   1\n"
        "relu_2     relu   0.5       ()     1\n"
        "x          y      1.0              2\n"
        "Node Name  Ops    Time(us)\n"
        "not the dash line\n";
    const std::vector<std::string> want = {
        R"J({"type":"call","line":3,"name":"conv_block_3","cells":{"Ops":"fused_conv2d_add_relu_3","Time(us)":812.406,"Time(%)":64.52,"Shape":[1,32,28,28],"Inputs":2,"Outputs":1,"Measurements(us)":[812.406]}})J",
        R"J({"type":"total","line":4,"kind":"Total_time","device":null,"cells":{"Time(us)":1259.2}})J",
        R"J({"type":"call","line":7,"name":"卷积_1","cells":{"Ops":"conv","Time(us)":null,"Shape":[4],"Inputs":1}})J",
        R"J({"type":"call","line":8,"name":"relu_2","cells":{"Ops":"relu","Time(us)":0.5,"Shape":[],"Inputs":1}})J",
        R"J({"type":"text","line":9,"text":"x          y      1.0              2"})J",
        R"J({"type":"text","line":10,"text":"Node Name  Ops    Time(us)"})J",
        R"J({"type":"text","line":11,"text":"not the dash line"})J",
    };
    return {input, want};
}
} // namespace

TEST_CASE("tvm_profile::the graph debug executor's table: formats.md section 5's examples record for record") {
    const auto [input, want] = debug_example();
    CHECK(ndjson_lines(input) == want);
}

namespace {
// the contract's row and both summary forms (the later one after a blank line, which does
// not end the table); a row with too few cells is text; a run line ends a table
std::pair<std::string, std::vector<std::string>> vm_example() {
    const std::string input = "#OpName                       \t#InvokeCount\t#Duration(us): Sum/Mean/Min/Max\n"
                              "fused_dense_add_2             \t3         \t96.3/32.1/30.8/33.9\n"
                              "fused_softmax                 \t1         \t96.3/nan/30.8/33.9\n"
                              "cut short\t1\n"
                              "\n"
                              "Total Duration: 2048.5 us.\tTotal Packed Functions: 37\n"
                              "#OpName\t#InvokeCount\t#Duration(us): Sum/Mean/Min/Max\n"
                              "fused_add\t2\t1.0796e+06/x/1/2\n"
                              "Total Duration 107960 us\n"
                              "Total Duration 5 us\n"
                              "#OpName\t#InvokeCount\n"
                              "Evaluate vm inference cost of resnet18 on cpu(0)\n";
    const std::vector<std::string> want = {
        R"J({"type":"call","line":2,"name":"fused_dense_add_2","cells":{"InvokeCount":3,"Duration(us): Sum/Mean/Min/Max":[96.3,32.1,30.8,33.9]}})J",
        R"J({"type":"call","line":3,"name":"fused_softmax","cells":{"InvokeCount":1,"Duration(us): Sum/Mean/Min/Max":[96.3,null,30.8,33.9]}})J",
        R"J({"type":"text","line":4,"text":"cut short\t1"})J",
        R"J({"type":"total","line":6,"kind":"Total Duration","device":null,"cells":{"Duration (us)":2048.5,"Total Packed Functions":37}})J",
        R"J({"type":"call","line":8,"name":"fused_add","cells":{"InvokeCount":2,"Duration(us): Sum/Mean/Min/Max":"1.0796e+06/x/1/2"}})J",
        R"J({"type":"total","line":9,"kind":"Total Duration","device":null,"cells":{"Duration (us)":107960}})J",
        R"J({"type":"text","line":10,"text":"Total Duration 5 us"})J",
        R"J({"type":"run","line":12,"model":"resnet18","device":"cpu(0)"})J",
    };
    return {input, want};
}
} // namespace

TEST_CASE("tvm_profile::a debug table's row indented deeper than its header, or by a tab: its name trimmed") {
    // formats.md section 5: a cell is its text, spaces trimmed; `Total_time` is the total
    // whatever the row's indent (a row that starts with its name is trimmed at its end only)
    const std::string input = "Node Name       Ops  Time(us)\n"
                              "---------       ---  --------\n"
                              "fused_add       op   2.0\n"
                              "  Total_time    op   1.0\n"
                              "\tTotal_time     op   3.0\n"
                              "   relu_1       op   4.0\n";
    const std::vector<std::string> want = {
        R"J({"type":"call","line":3,"name":"fused_add","cells":{"Ops":"op","Time(us)":2.0}})J",
        R"J({"type":"total","line":4,"kind":"Total_time","device":null,"cells":{"Ops":"op","Time(us)":1.0}})J",
        R"J({"type":"total","line":5,"kind":"Total_time","device":null,"cells":{"Ops":"op","Time(us)":3.0}})J",
        R"J({"type":"call","line":6,"name":"relu_1","cells":{"Ops":"op","Time(us)":4.0}})J",
    };
    CHECK(ndjson_lines(input) == want);
    logscan::test::check_chunk_invariance(input, run_chunks, 3);
}

TEST_CASE("tvm_profile::a debug table's line whose name cell holds only tabs is no row: the table ends, the line is text") {
    // formats.md section 5: a cell is its text, spaces trimmed, and a line in which any cell is
    // empty is not a row: it ends the table and is read as any other line. Tabs are trimmed as
    // spaces are (the reference, tests/reference/tvm_profile.py, strips ' \t'; a row indented by
    // a tab keeps its name, the test above), so a cell of tabs is empty (a fuzzer's input gave a
    // call with an empty name)
    const std::string input = "Node Name  Ops\n"
                              "---------  ---\n"
                              "\t\t\t\t\t\t\t\t\t\t\top\n"
                              "relu_1     op\n";
    const std::vector<std::string> want = {
        R"J({"type":"text","line":3,"text":"\t\t\t\t\t\t\t\t\t\t\top"})J",
        R"J({"type":"text","line":4,"text":"relu_1     op"})J",
    };
    CHECK(ndjson_lines(input) == want);
    logscan::test::check_chunk_invariance(input, run_chunks, 3);
}

TEST_CASE("tvm_profile::a report table's line whose name holds only tabs is text, and the rows go on") {
    // formats.md section 5: `Name` is left-aligned at column 0, and a line with no cell in the
    // `Name` column is no row (a cell of tabs is empty, as one of spaces is: the reference strips
    // ' \t'); a fuzzer's input gave a call with an empty name
    const std::string input = "Name  Duration (us)\n"
                              "\t\t\t\t\t\t  55555Ns 5Ns\n"
                              "relu            1.5\n";
    const std::vector<std::string> want = {
        R"J({"type":"text","line":2,"text":"\t\t\t\t\t\t  55555Ns 5Ns"})J",
        R"J({"type":"call","line":3,"name":"relu","cells":{"Duration (us)":1.5}})J",
    };
    CHECK(ndjson_lines(input) == want);
    logscan::test::check_chunk_invariance(input, run_chunks, 3);
}

TEST_CASE("tvm_profile::the original VM profiler's tab table: formats.md section 5's examples record for record") {
    const auto [input, want] = vm_example();
    CHECK(ndjson_lines(input) == want);
}

TEST_CASE("tvm_profile::the tables' rows read straight from the bytes: CRLF lines, a stop, rows in one chunk or many") {
    // the rows of both tables are taken in runs from the chunk (lines.hpp's take_run), not
    // line by line: with CRLF endings the records are the contract's examples' (the `\\r`
    // dropped, as from every line); a visitor that stops at a call gets no record after it
    const auto crlf = [](std::string s) {
        for (std::size_t i = s.find('\n'); i != std::string::npos; i = s.find('\n', i + 2)) s.insert(i, "\r");
        return s;
    };
    // (the report's own table, sample 004, is taken in runs too: its calls counted in the text)
    const std::string report = logscan::test::read_file(logscan::test::sample_path("004_d73c77cb3fb2895c.txt"));
    const std::vector<std::string_view> report_lines = logscan::test::lines_of(report);
    const auto sample_calls = static_cast<std::size_t>(std::count_if(report_lines.begin(), report_lines.end(), [](std::string_view l) {
        return l.starts_with("vm_mod_") || l.starts_with("VM::");
    }));
    REQUIRE(sample_calls > 10);
    for (const auto& [input, want] : {debug_example(), vm_example(), std::pair<std::string, std::vector<std::string>>{report, {}}}) {
        if (!want.empty()) CHECK(ndjson_lines(crlf(input)) == want);
        else CHECK(ndjson_lines(crlf(input)) == ndjson_lines(input));
        logscan::test::check_chunk_invariance(crlf(input), run_chunks, 3);
        for (const std::size_t stop_at : {std::size_t{1}, std::size_t{2}, std::size_t{3}, want.empty() ? sample_calls : std::size_t{3}}) {
            struct stopper {
                std::size_t stop_at, calls = 0, after = 0;
                logscan::flow on_call(const tp::call&) { return ++calls == stop_at ? logscan::flow::stop : logscan::flow::proceed; }
                void on_total(const tp::total&) { after += calls >= stop_at; }
                void on_text(const logscan::line&) { after += calls >= stop_at; }
            } v{stop_at};
            logscan::memory_source src(input);
            const logscan::error e = tp::parse(src, v);
            CHECK(e.code == logscan::error_code::stopped);
            CHECK(v.calls == stop_at);
            CHECK(v.after == 0);
        }
    }
}

TEST_CASE("tvm_profile::every table: no allocation while parsing, identical records under any chunking") {
    for (const char* path : {"/tests/data/tvm_profile_today_hand.txt", "/samples/today/arachne_readme_jetson_tensorrt_debug_table.txt",
                             "/samples/today/tvm_pr3727_old_vm_profiler_tabs.txt", "/tests/data/tvm_profile_report_hand.json",
                             "/tests/data/tvm_profile_report_broken.json",
                             "/samples/today/semcomm_tvm_report_json_text_tuned_top2.json.txt"}) {
        CAPTURE(std::string(path));
        const std::string text = logscan::test::read_file(std::string(LOGSCAN_SOURCE_DIR) + path);
        struct all {
            double sum = 0;
            std::size_t n = 0;
            void on_call(const tp::call& c) { sum += c.duration_us().value_or(0); }
            void on_total(const tp::total& t) { n += t.cells.size(); }
            void on_text(const logscan::line& l) { n += l.text.size(); }
            void on_error(const logscan::error&) { ++n; }
        } v;
        tp::parser<all> p(v, {.max_line = 4096});
        LOGSCAN_CHECK_NO_ALLOC(for (std::size_t i = 0; i < text.size(); i += 97) p.feed(std::string_view(text).substr(i, 97)); p.finish());
        CHECK(v.sum > 0);
        logscan::test::check_chunk_invariance(text, run_chunks, 3);
    }
}

namespace {
// The records of a document through a visitor that keeps every C++ field it reads.
struct doc_recorder {
    std::vector<std::string> out;
    std::vector<logscan::error> errors;
    void on_call(const tp::call& c) {
        char b[256];
        std::snprintf(b, sizeof b, "call %llu %s dur=%g pct=%g count=%llu device=%s hash=%s json=%d",
                      static_cast<unsigned long long>(c.line), c.name.data() ? sv(c.name).c_str() : "(none)",
                      c.duration_us().value_or(-1), c.percent().value_or(-1),
                      static_cast<unsigned long long>(c.count().value_or(0)), sv(c.device()).c_str(),
                      sv(c.text("Hash")).c_str(), c.form == tp::table_form::json);
        out.push_back(b);
    }
    void on_total(const tp::total& t) {
        out.push_back("total " + (t.kind.data() ? sv(t.kind) : "(none)") + " device=" + sv(t.device_entry.value_or("-")) +
                      " dur=" + std::to_string(t.duration_us().value_or(-1)));
    }
    void on_config(const tp::config& c) { out.push_back("config " + sv(c.key) + "=" + sv(c.value) + " json=" + sv(c.json.value_or("-"))); }
    void on_text(const logscan::line& l) { out.push_back("text " + sv(l.text)); }
    void on_error(const logscan::error& e) {
        errors.push_back(e);
        out.push_back("error");
    }
};
} // namespace

TEST_CASE("tvm_profile::Report.json(): formats.md section 5's example record for record") {
    // the contract's document (after two blank lines: still a document) and its five records
    const std::string input =
        "\n  \n"
        R"J({"calls":[{"Name":{"string":"fused_matmul_add"},"Duration (us)":{"microseconds":734.25000000000000000},"Percent":{"percent":61.50000000000000000},"Count":{"count":4},"Device":{"string":"cuda0"},"Hash":{"string":"0042"}},{"Name":{"string":"fused_softmax_cast"},"Duration (us)":{"microseconds":0.00000000000000000},"Percent":{"percent":-nan},"Count":{"count":1},"Device":{"string":"cuda0"}}],"device_metrics":{"cuda0":{"Name":{"string":"Total"},"Duration (us)":{"microseconds":1193.90000000000009095},"Count":{"count":1},"Device":{"string":"cuda0"}}},"configuration":{"Number of threads":{"count":8},"Executor":{"string":"VM"}}})J";
    const std::vector<std::string> want = {
        R"J({"type":"call","name":"fused_matmul_add","cells":{"Duration (us)":734.25,"Percent":61.5,"Count":4,"Device":"cuda0","Hash":"0042"}})J",
        R"J({"type":"call","name":"fused_softmax_cast","cells":{"Duration (us)":0.0,"Percent":null,"Count":1,"Device":"cuda0"}})J",
        R"J({"type":"total","kind":"Total","device":"cuda0","cells":{"Duration (us)":1193.9,"Count":1,"Device":"cuda0"}})J",
        R"J({"type":"config","key":"Number of threads","value":8})J",
        R"J({"type":"config","key":"Executor","value":"VM"})J",
    };
    CHECK(ndjson_lines(input) == want);
    CHECK(tp::detect(input, false) >= 2);

    // the same through the C++ records: the accessors read the metrics, wrappers removed
    doc_recorder r;
    REQUIRE(tp::parse(input, r).ok());
    CHECK(r.out == std::vector<std::string>{
                       "call 0 fused_matmul_add dur=734.25 pct=61.5 count=4 device=cuda0 hash=0042 json=1",
                       "call 0 fused_softmax_cast dur=0 pct=-1 count=1 device=cuda0 hash= json=1",
                       "total Total device=cuda0 dur=1193.900000",
                       "config Number of threads=8 json=8",
                       "config Executor=VM json=\"VM\"",
                   });
}

TEST_CASE("tvm_profile::Report.json(): the first generation, other shapes, escapes, a broken document") {
    // bare metrics (2021: no wrappers, %f numbers, no configuration); a wrapper of another
    // type or with two keys kept as is; a call without Name; escapes in a name and a key
    const std::string first = R"J({"calls":[{"Name":"fused_add","Duration (us)":734.250000,"Count":2,"Device":"cpu0"},)J"
                              R"J({"Name":"a\"b\u00e9","Bytes":{"bytes":512},"Shape":{"string":"x","n":1},"k\tey":{"ratio":0.5}},)J"
                              R"J({"Count":{"count":3}}],"device_metrics":{"cpu0":{"Duration (us)":INF}}})J";
    CHECK(ndjson_lines(first) == std::vector<std::string>{
        R"J({"type":"call","name":"fused_add","cells":{"Duration (us)":734.25,"Count":2,"Device":"cpu0"}})J",
        R"J({"type":"call","name":"a\"bé","cells":{"Bytes":{"bytes":512},"Shape":{"string":"x","n":1},"k\tey":0.5}})J",
        R"J({"type":"call","name":null,"cells":{"Count":3}})J",
        R"J({"type":"total","kind":null,"device":"cpu0","cells":{"Duration (us)":null}})J",
    });
    doc_recorder r;
    REQUIRE(tp::parse(first, r).ok());
    REQUIRE(r.out.size() == 4);
    CHECK(r.out[1].starts_with("call 0 a\"b\xc3\xa9 "));
    CHECK(r.out[2].starts_with("call 0 (none) dur=-1 pct=-1 count=3 "));

    // a document that breaks (a name holding an unescaped quote, as TVM prints it): the
    // records before the break, one error (the reader's position in C++; formats.md's
    // document error in NDJSON), nothing after
    const std::string broken = R"J({"calls":[{"Name":{"string":"ok"},"Count":{"count":1}},{"Name":{"string":"say "hi""}},)J"
                               R"J({"Name":{"string":"never"}}],"configuration":{"Executor":{"string":"VM"}}})J";
    doc_recorder b;
    CHECK(tp::parse(broken, b).code == logscan::error_code::syntax);
    CHECK(b.out == std::vector<std::string>{"call 0 ok dur=-1 pct=-1 count=1 device= hash= json=1", "error"});
    REQUIRE(b.errors.size() == 1);
    CHECK(b.errors[0].document);
    CHECK(b.errors[0].line == 1);
    CHECK(b.errors[0].column == broken.find("hi") + 1);
    bool ok = true;
    CHECK(logscan::test::ndjson_lines<tp::ndjson_visitor>(broken, tp::parse, ok) ==
          std::vector<std::string>{R"J({"type":"call","name":"ok","cells":{"Count":1}})J",
                                   R"J({"type":"error","message":"invalid JSON document"})J"});
    CHECK(!ok);

    // a call too large for the scratch buffer: an error record, and the next call comes
    const std::string big = R"J({"calls":[{"Name":{"string":")J" + std::string(300, 'x') + R"J("}},{"Name":{"string":"small"}}]})J";
    doc_recorder g;
    CHECK(tp::parse(big, g, {.scratch_capacity = 128}).ok());
    CHECK(g.out == std::vector<std::string>{"error", "call 0 small dur=-1 pct=-1 count=0 device= hash= json=1"});
    CHECK(!g.errors.at(0).document);

    // an input of blanks only is lines (nothing); text that merely holds a brace is lines
    doc_recorder e;
    REQUIRE(tp::parse(std::string_view(" \n\t\r\n"), e).ok());
    CHECK(e.out.empty());
    REQUIRE(tp::parse(std::string_view("note: {\"calls\":[]}\n"), e).ok());
    CHECK(e.out == std::vector<std::string>{"text note: {\"calls\":[]}"});
}

TEST_CASE("tvm_profile::Report.json() detection: calls beside another of its keys; megengine's dump is not one") {
    CHECK(tp::detect(R"J({"calls":[{"Name":{"string":"a"},"Duration (us)":{"microseconds":1.0}}],)J", true) >= 2);
    CHECK(tp::detect(R"J( {"calls":[], "device_metrics":{}})J", false) >= 2);
    CHECK(tp::detect(R"J({"calls":[1,2,3]})J", false) == 0);                          // calls alone: any JSON
    CHECK(tp::detect(R"J({"device_metrics":{}, "configuration":{}})J", false) == 0);   // no calls
    CHECK(tp::detect(R"J({"profiler":{"device":{}},"graph_exec":{"operator":{}}})J", false) == 0);
}

TEST_CASE("tvm_profile::Report.json() public sample: records read off the document by hand") {
    const std::string text = logscan::test::read_file(std::string(LOGSCAN_SOURCE_DIR) +
                                                      "/samples/today/semcomm_tvm_report_json_text_tuned_top2.json.txt");
    doc_recorder r;
    REQUIRE(tp::parse(text, r).ok());
    // 165 "Name": keys in the document: 164 calls and the cpu0 device; two configuration entries
    REQUIRE(r.out.size() == 164 + 1 + 2);
    // the first call and the last (the document's own text, wrappers removed)
    CHECK(r.out[0] == "call 0 vm.builtin.check_tensor_info dur=8.14 pct=0.000533519 count=1 device=cpu0 hash= json=1");
    CHECK(r.out[163] == "call 0 fused_conv2d3_add15 dur=281568 pct=18.4548 count=1 device=cpu0 hash= json=1");
    CHECK(r.out[164] == "total Total device=cpu0 dur=1525719.387000");
    CHECK(r.out[165] == "config Number of threads=2 json=2");
    CHECK(r.out[166] == "config Executor=VM json=\"VM\"");
    // every call has its Argument Shapes and a duration; their shares add up to about 100 %
    struct shares {
        double pct = 0, dur = 0;
        std::size_t shapes = 0;
        void on_call(const tp::call& c) {
            pct += c.percent().value_or(0);
            dur += c.duration_us().value_or(0);
            shapes += !c.text("Argument Shapes").empty();
        }
    } s;
    REQUIRE(tp::parse(text, s).ok());
    CHECK(s.shapes == 164);
    CHECK(s.pct == doctest::Approx(100).epsilon(0.01));
    CHECK(s.dur == doctest::Approx(1525719.387).epsilon(0.01));
}

TEST_CASE("tvm_profile::Report.json(): what is no record, an escaped Name key, spare bytes too few, too large in NDJSON") {
    // a call or a device that is no object yields nothing; `N\u0061me` is Name
    const std::string odd = R"J({"calls":[1,"x",[{"Name":"in an array"}],null,{"N\u0061me":{"string":"named"},"Count":2}],)J"
                            R"J("device_metrics":{"cpu0":7,"gpu0":{"Name":"Total"}}})J";
    CHECK(ndjson_lines(odd) == std::vector<std::string>{
        R"J({"type":"call","name":"named","cells":{"Count":2}})J",
        R"J({"type":"total","kind":"Total","device":"gpu0","cells":{}})J",
    });
    // an object that fits the scratch buffer but whose escaped Name does not fit what is left
    // of it is too large (never a name written with its escapes)
    const std::string escaped = R"J({"calls":[{"Name":"a\"b\"c\"d\"e\"f\"g","P":")J" + std::string(60, 'x') + R"J("},{"Name":"ok"}]})J";
    doc_recorder r;
    CHECK(tp::parse(escaped, r, {.scratch_capacity = 100}).ok());
    CHECK(r.out == std::vector<std::string>{"error", "call 0 ok dur=-1 pct=-1 count=0 device= hash= json=1"});
    // in NDJSON that error has no position (its offset would depend on the chunking)
    const std::string big = R"J({"calls":[{"Name":{"string":")J" + std::string(70000, 'x') + R"J("}},{"Name":{"string":"small"}}]})J";
    const auto lines = logscan::test::check_chunk_invariance(big, [](logscan::test::chunk_list chunks) {
        std::string out;
        char buf[4096];
        logscan::test::string_writer w{logscan::test::string_sink{&out}, buf};
        tp::ndjson_visitor<logscan::test::string_writer> v{w};
        tp::parser<decltype(v)> p(v);
        for (auto c : chunks) p.feed(c);
        p.finish();
        w.flush();
        return out;
    }, 2);
    CHECK(lines == "{\"type\":\"error\",\"message\":\"object too large for the scratch buffer\"}\n"
                   "{\"type\":\"call\",\"name\":\"small\",\"cells\":{}}\n");
}

TEST_CASE("tvm_profile::a part of lines that starts with '{' is lines; a document is never cut into parts") {
    // a later part (start_at) of a text input whose first line begins with '{' is read as lines
    recorder a;
    tp::parser<recorder> p(a);
    p.start_at(41, 4096);
    p.feed("{'opt_level': 3}\nEvaluate vm inference cost of m on cpu(0)\n");
    p.finish();
    CHECK(a.out == std::vector<std::string>{"text 42 {'opt_level': 3}", "run 43 m cpu(0)"});
    // no cut before the first byte that tells, nor inside a document; lines at rest are
    recorder b;
    tp::parser<recorder> q(b);
    CHECK(!q.at_rest());
    q.feed("\n  \n");
    CHECK(!q.at_rest());
    q.feed("{\"calls\":[]}\n");
    CHECK(!q.at_rest());
    recorder c;
    tp::parser<recorder> t(c);
    t.feed("\nEvaluate vm inference cost of m on cpu(0)\n");
    CHECK(t.at_rest());
}

TEST_CASE("tvm_profile::blank lines before a document or lines: held without allocation, the same records under any chunking") {
    // leading blank lines (one holding a '\r', one a tab) are held until the first non-blank
    // byte tells a document from lines; fed a byte at a time, nothing is allocated
    const std::string blanks = " \r\n\n\t \r\n";
    const std::string doc = blanks + R"J({"calls":[{"Name":{"string":"a"},"Count":{"count":2}},{"Name":{"string":"b"},"Count":{"count":3}}]})J";
    const std::string lines = blanks + "note one\nEvaluate vm inference cost of m on cpu(0)\n";
    struct counter {
        std::size_t calls = 0, texts = 0, runs = 0, errors = 0;
        std::uint64_t count_sum = 0, first_text_line = 0, run_line = 0;
        void on_call(const tp::call& c) {
            ++calls;
            count_sum += c.count().value_or(0);
        }
        void on_run(const tp::run& r) {
            ++runs;
            run_line = r.line;
        }
        void on_text(const logscan::line& l) {
            if (texts++ == 0) first_text_line = l.number;
        }
        void on_error(const logscan::error&) { ++errors; }
    };
    counter d;
    tp::parser<counter> pd(d);
    LOGSCAN_CHECK_NO_ALLOC(for (char c : doc) pd.feed(std::string_view(&c, 1)); pd.finish());
    CHECK(d.calls == 2);     // the two elements of "calls"
    CHECK(d.count_sum == 5); // 2 + 3
    CHECK(d.texts == 0);
    CHECK(d.errors == 0);
    counter l;
    tp::parser<counter> pl(l);
    LOGSCAN_CHECK_NO_ALLOC(for (char c : lines) pl.feed(std::string_view(&c, 1)); pl.finish());
    CHECK(l.texts == 1);           // "note one"; the blank lines are no record
    CHECK(l.first_text_line == 4); // after the three blank lines
    CHECK(l.runs == 1);
    CHECK(l.run_line == 5);
    CHECK(l.errors == 0);
    logscan::test::check_chunk_invariance(doc, run_chunks);
    logscan::test::check_chunk_invariance(lines, run_chunks);
}

TEST_CASE("tvm_profile::the report's first line read by hand decides as its pattern does") {
    // read_run implements its rule's pattern whole (`read_by`): on texts built from the line's
    // slots, each now and then another piece, and on texts of random pieces, it takes a text
    // exactly when the pattern matches it, with the same groups
    const char* pieces[] = {"Evaluate vm inference cost of ", "Evaluate vm", " on ", " on", "on ", " ", "  ", "\t", "\v",
                            "resnet18", "cpu(0)", "é", "\x01", "x"};
    const std::vector<std::vector<const char*>> slots = {
        {"Evaluate vm inference cost of "}, {"resnet18", "mobilenet_v2", "a"}, {" on "}, {"cpu(0)", "cuda(1)", "x"},
        {"", "", " ", "   "}};
    std::uint64_t seed = 20261204;
    std::size_t taken = 0;
    for (int round = 0; round < 30000; ++round) {
        const std::string t = round % 2 == 0 ? test_support::pieces_text(seed, pieces, 8)
                                             : test_support::slots_text(seed, slots, pieces, 32, 40);
        taken += test_support::decides_as_pattern<logscan::tvm_profile::detail::run_pattern, 3>(t, logscan::tvm_profile::detail::read_run);
    }
    CHECK(taken > 1000);
}
