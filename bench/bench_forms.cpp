// SPDX-License-Identifier: MIT
// Each generation's output form against the seed form of its format (issue 23's speed bar:
// a new form parses at no less than the seed's form, in the same run): every public sample
// of samples/today/ and the seed sample of its format, each repeated to --mb MB (default 200;
// a Report.json() document grows by repeating its calls inside the one document), written to
// a file in the page cache and parsed with the format's NDJSON visitor (every record, every
// field written, to a sink that drops the bytes: what `logscan convert` does less the
// output), and with a visitor that takes every record and only counts it (what the reading
// costs before any field is converted). Ratio: the form's MB/s over the seed form's,
// measured in turns in the same run.
//
//   bench_forms [--mb 200] [--runs 3]
#include <logscan/formats/megengine_log.hpp>
#include <logscan/formats/paddle_log.hpp>
#include <logscan/formats/tvm_profile.hpp>
#include <logscan/ndjson.hpp>

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_util.hpp"

namespace {

struct drop {
    std::uint64_t* bytes;
    bool operator()(std::string_view s) const {
        *bytes += s.size();
        return true;
    }
};
using writer = logscan::ndjson_writer<drop>;

// Parses the file with the format's NDJSON visitor: the records written.
template <class Format>
std::uint64_t convert_file(const std::string& path, std::uint64_t& bytes) {
    char buf[1 << 16];
    writer w{drop{&bytes}, buf};
    typename Format::template ndjson_visitor<writer> v{w};
    bench::parse_file(path, Format::parse, v);
    (void)w.flush();
    return v.records;
}
// Parses the file with a visitor that takes every record and counts it.
template <class Format>
std::uint64_t count_file(const std::string& path) {
    struct none {} n;
    typename Format::records::template counting<none> v{n};
    bench::parse_file(path, Format::parse, v);
    return v.records + v.text + v.errors;
}

// A floor for the fluid report, not a contender for the contract: the loop a user would write
// by hand for this form, counting what `count_file` counts (a `table` per banner, a `total`,
// a row or a text per overhead and event line; no field converted). Each line trimmed of its
// trailing spaces; a banner's title found between its dashes; `Place:`, `Time unit:` and the
// note kept; an overhead row's `K: V` values checked as numbers (a row, else a text); an event
// row's cells cut at runs of spaces (`X (R)` one cell) and counted against the header's (a
// row, else a text). Same reads and framing as the streaming limit; no line numbers, no indent,
// no binary check, no other form's lines (this input has none).
struct hand_fluid {
    std::uint64_t records = 0, bytes = 0;
    int phase = 0; // 0 idle, 1 head, 2 events
    std::size_t columns = 0, calls_at = 0;
    std::string_view place, unit;
    bool merged = false;

    static bool number(std::string_view v) {
        double d = 0;
        const auto r = fast_float::from_chars(v.data(), v.data() + v.size(), d);
        return r.ec == std::errc() && r.ptr == v.data() + v.size();
    }
    // A banner's title (`---->  T  <----` or `----  T  ----`); empty when none.
    static std::string_view title(std::string_view s, bool& report) {
        std::size_t b = 0, e = s.size();
        while (b < e && s[b] == '-') ++b;
        while (e > b && s[e - 1] == '-') --e;
        report = b < e && s[b] == '>' && s[e - 1] == '<';
        if (report) ++b, --e;
        while (b < e && s[b] == ' ') ++b;
        while (e > b && s[e - 1] == ' ') --e;
        return s.substr(b, e - b);
    }
    void line(const char* p, const char* nl) {
        std::string_view s(p, static_cast<std::size_t>(nl - p));
        while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.remove_suffix(1);
        if (!s.empty() && s[0] == '-') {
            bool report = false;
            const std::string_view t = title(s, report);
            if (!t.empty() && (report || phase != 0)) {
                phase = 1;
                bytes += t.size();
                ++records;
            }
            return;
        }
        if (phase == 0) return;
        if (s.empty()) {
            if (phase == 2) phase = 0;
            return;
        }
        ++records; // (every other line of a report is a record: a row, a total or a text)
        if (phase == 2) {
            std::size_t n = 0, q = calls_at;
            while (q < s.size()) {
                while (q < s.size() && s[q] == ' ') ++q;
                if (q == s.size()) break;
                while (q < s.size() && s[q] != ' ') ++q;
                if (q + 1 < s.size() && s[q + 1] == '(') q = std::min(s.find(')', q), s.size() - 1) + 1;
                ++n;
            }
            bytes += n == columns;
            return;
        }
        if (s.starts_with("Note! ")) merged = true, --records;
        else if (s.starts_with("Place: ")) place = s.substr(7), --records;
        else if (s.starts_with("Time unit: ")) unit = s.substr(11), --records;
        else if (s.starts_with("Sorted by ")) --records;
        else if (s.starts_with("Total time:")) bytes += number(s.substr(std::min(s.find_first_not_of(' ', 11), s.size())));
        else if (s.starts_with("Event  ")) { // the header: its columns, and where `Calls` starts
            --records;
            columns = 0;
            for (std::size_t q = 5; q < s.size();) {
                while (q < s.size() && s[q] == ' ') ++q;
                if (columns++ == 0) calls_at = q;
                while (q < s.size() && !(s[q] == ' ' && (q + 1 == s.size() || s[q + 1] == ' '))) ++q;
            }
            phase = 2;
        } else { // `NAME  K: V  K: V ...`
            std::size_t q = s.find("  ", s.find_first_not_of(' '));
            bool ok = q != std::string_view::npos;
            while (ok && q < s.size()) {
                while (q < s.size() && s[q] == ' ') ++q;
                const std::size_t colon = s.find(": ", q);
                if (colon == std::string_view::npos) {
                    ok = false;
                    break;
                }
                const std::size_t v = colon + 2, e = std::min(s.find(' ', v), s.size());
                ok = number(s.substr(v, e - v - (s[e - 1] == '%')));
                q = e;
            }
            bytes += ok;
        }
    }
};
std::uint64_t hand_fluid_file(const std::string& path) {
    hand_fluid h;
    bench::each_file_line(path.c_str(), [&](const char* p, const char* nl) { h.line(p, nl); });
    bench::keep(h.bytes + h.place.size() + h.unit.size() + h.merged);
    return h.records;
}

// A Report.json() document grown to `mb` MB: its `calls` elements repeated inside it.
std::string grow_document(const std::string& doc, double mb) {
    const std::size_t a = doc.find("\"calls\":[");
    const std::size_t b = doc.find("],\"device_metrics\"");
    if (a == std::string::npos || b == std::string::npos) {
        std::fprintf(stderr, "bench_forms: not a Report.json() document with calls before device_metrics\n");
        std::exit(1);
    }
    const std::string head = doc.substr(0, a + 9), calls = doc.substr(a + 9, b - a - 9), tail = doc.substr(b);
    std::string out = head + calls;
    while (static_cast<double>(out.size()) < mb * 1e6) out += "," + calls;
    return out + tail;
}

template <class Format>
void compare(const char* format, const char* seed, const std::vector<std::pair<const char*, const char*>>& forms,
             const bench::options& o) {
    std::printf("\n%s: each form repeated to %.0f MB; MB/s writing every record as NDJSON and counting every\n"
                "record, each beside the seed form (%s) in the same turns; ratio: the form's MB/s over the seed's\n",
                format, o.mb, seed);
    std::printf("  %-52s %9s %9s %6s %9s %9s %6s\n", "form (sample)", "NDJSON", "seed", "ratio", "counted", "seed", "ratio");
    const std::string seed_text = bench::repeat_to(bench::sample(seed), o.mb);
    const std::string seed_path = bench::temp_file(seed_text, "logscan_bench_forms_seed");
    for (const auto& [name, file] : forms) {
        const std::string one = bench::sample(std::string("today/") + file);
        const bool document = one.find_first_not_of(" \t\r\n") != std::string::npos && one[one.find_first_not_of(" \t\r\n")] == '{';
        const std::string text = document ? grow_document(one, o.mb) : bench::repeat_to(one, o.mb);
        const std::string path = bench::temp_file(text, "logscan_bench_forms");
        (void)bench::memchr_file(path.c_str()); // warm the page cache
        std::uint64_t seed_records = 0, records = 0, seed_counted = 0, counted = 0, bytes = 0;
        const auto secs = bench::best_seconds_turns(
            o.runs, [&] { seed_records = convert_file<Format>(seed_path, bytes); },
            [&] { records = convert_file<Format>(path, bytes); }, [&] { seed_counted = count_file<Format>(seed_path); },
            [&] { counted = count_file<Format>(path); });
        bench::keep(bytes);
        bench::keep(seed_records + seed_counted);
        const auto mbs = [](const std::string& t, double s) { return static_cast<double>(t.size()) / 1e6 / s; };
        const double a = mbs(text, secs[1]), sa = mbs(seed_text, secs[0]), b = mbs(text, secs[3]), sb = mbs(seed_text, secs[2]);
        std::printf("  %-52s %9.1f %9.1f %6.2f %9.1f %9.1f %6.2f   (%llu records)\n", name, a, sa, a / sa, b, sb, b / sb,
                    static_cast<unsigned long long>(records));
        if (counted < records) std::fprintf(stderr, "bench_forms: %s: fewer records counted than written\n", name);
        std::remove(path.c_str());
    }
    std::remove(seed_path.c_str());
    std::fflush(stdout);
}

// The fluid report's floor beside logscan on the same input and the seed, in turns.
void fluid_floor(const bench::options& o) {
    using Format = logscan::paddle_log::format;
    const std::string text = bench::repeat_to(bench::sample("today/paddle_pr22590_old_profiling_report.txt"), o.mb);
    const std::string seed_text = bench::repeat_to(bench::sample("003_1c776201c8b5b83e.txt"), o.mb);
    const std::string path = bench::temp_file(text, "logscan_bench_forms"), seed_path = bench::temp_file(seed_text, "logscan_bench_forms_seed");
    (void)bench::memchr_file(path.c_str());
    (void)bench::memchr_file(seed_path.c_str());
    std::uint64_t hand = 0, counted = 0, seed = 0;
    const auto secs = bench::best_seconds_turns(
        o.runs, [&] { seed = count_file<Format>(seed_path); }, [&] { counted = count_file<Format>(path); },
        [&] { hand = hand_fluid_file(path); });
    bench::keep(seed);
    const auto mbs = [](const std::string& t, double s) { return static_cast<double>(t.size()) / 1e6 / s; };
    const double sd = mbs(seed_text, secs[0]), lg = mbs(text, secs[1]), hd = mbs(text, secs[2]);
    std::printf("\npaddle-log, the legacy fluid report's floor (counted, MB/s): the seed %.1f; the fluid report %.1f (%.2f of\n"
                "the seed); a hand-written loop for the fluid report %.1f (%.2f of the seed; logscan at %.2f of it)\n",
                sd, lg, lg / sd, hd, hd / sd, lg / hd);
    if (hand != counted)
        std::fprintf(stderr, "bench_forms: the fluid floor counted %llu records, logscan %llu\n", static_cast<unsigned long long>(hand),
                     static_cast<unsigned long long>(counted));
    std::remove(path.c_str());
    std::remove(seed_path.c_str());
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    const bench::options o = bench::parse_args(argc, argv, 200);
    compare<logscan::megengine_log::format>(
        "megengine-log", "000_cf8afa6c099f806b.txt",
        {{"C++ log (form B) and load_and_run", "mge_docs_lar_tensorrt_nchw4_warn.txt"},
         {"CompNode memory table, C++ debug log", "mge_documentation_lar_debug_static_mem_compnode_wide.txt"},
         {"Python console log (form C)", "mge_issue37_console_wrn_distributed_truncated.txt"}},
        o);
    compare<logscan::paddle_log::format>(
        "paddle-log", "003_1c776201c8b5b83e.txt",
        {{"legacy fluid Profiling Report", "paddle_pr22590_old_profiling_report.txt"},
         {"2020 log: YYYY-MM-DD ...-LEVEL: lines, iter: steps", "ppdet_repo_dy_loss_log_2020.txt"},
         {"log pasted from a notebook, indented", "sharpiless_yolov5_readme_notebook_indented.txt"}},
        o);
    fluid_floor(o);
    compare<logscan::tvm_profile::format>(
        "tvm-profile", "004_d73c77cb3fb2895c.txt",
        {{"graph debug executor table", "arachne_readme_jetson_tensorrt_debug_table.txt"},
         {"original VM profiler tab table", "tvm_pr3727_old_vm_profiler_tabs.txt"},
         {"Report.json() document (calls repeated inside it)", "semcomm_tvm_report_json_text_tuned_top2.json.txt"}},
        o);
    return 0;
}
