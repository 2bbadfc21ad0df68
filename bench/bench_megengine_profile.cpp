// SPDX-License-Identifier: MIT
// megengine-profile parse throughput on a larger dump of the same shape as sample 001 (every
// section's members repeated with unique keys, comp_seq repeated, to --mb MB, default 200),
// read from a file in the page cache: the format module with a visitor that takes every
// record and reads every field, against the JSON reader alone with an empty visitor (the
// goal: >= 0.75 of it), the streaming read()+memchr limit, and the straightforward Python
// script doing the same extraction with `json` (tests/reference/megengine_profile.py --count,
// run once). The record counts of logscan and Python must agree.
//
//   bench_megengine_profile [--mb 200] [--runs 5] [--no-python]
#include <logscan/formats/megengine_profile.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "bench_util.hpp"

namespace {
namespace mp = logscan::megengine_profile;

// Index one past the container (object or array) opening at `open`; strings are skipped.
std::size_t close_of(const std::string& t, std::size_t open) {
    int depth = 0;
    for (std::size_t i = open; i < t.size(); ++i) {
        const char c = t[i];
        if (c == '"') {
            for (++i; t[i] != '"'; ++i)
                if (t[i] == '\\') ++i;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return i + 1;
        }
    }
    return t.size();
}

// The members of an object's inner text with every key given the suffix `#r`.
std::string suffixed(const std::string& inner, int r) {
    std::string out;
    int depth = 0;
    bool expect_key = true;
    for (std::size_t i = 0; i < inner.size(); ++i) {
        const char c = inner[i];
        if (c == '"') {
            std::size_t j = i + 1;
            for (; inner[j] != '"'; ++j)
                if (inner[j] == '\\') ++j;
            out.append(inner, i, j - i);
            if (depth == 0 && expect_key) out += "#" + std::to_string(r);
            out += '"';
            expect_key = false;
            i = j;
            continue;
        }
        if (c == '{' || c == '[') ++depth;
        if (c == '}' || c == ']') --depth;
        if (depth == 0 && c == ',') expect_key = true;
        out += c;
    }
    return out;
}

// Sample 001 with each section (the containers three levels down) repeated `copies` times.
std::string enlarge(const std::string& t, int copies) {
    std::string out;
    int depth = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const char c = t[i];
        if (c == '"') {
            std::size_t j = i + 1;
            for (; t[j] != '"'; ++j)
                if (t[j] == '\\') ++j;
            out.append(t, i, j - i + 1);
            i = j;
            continue;
        }
        if ((c == '{' || c == '[') && depth == 2) { // a section: profiler.host, graph_exec.var, ...
            const std::size_t end = close_of(t, i);
            const std::string inner = t.substr(i + 1, end - i - 2);
            out += c;
            bool any = false;
            for (int r = 0; r < copies; ++r) {
                if (inner.find_first_not_of(" \t\n") == std::string::npos) break;
                if (any) out += ',';
                out += c == '{' ? suffixed(inner, r) : inner;
                any = true;
            }
            out += t[end - 1];
            i = end - 1;
            continue;
        }
        if (c == '{' || c == '[') ++depth;
        if (c == '}' || c == ']') --depth;
        out += c;
    }
    return out;
}

struct everything {
    std::uint64_t n[6] = {};
    std::uint64_t sum = 0;
    double fsum = 0;
    static std::size_t len(const mp::opt_string& s) { return s ? s->size() : 0; }
    void on_opr(const mp::opr& r) {
        ++n[0];
        sum += len(r.id) + len(r.name) + len(r.opr_type);
        if (r.inputs) for (std::string_view s : *r.inputs) sum += s.size();
        if (r.outputs) for (std::string_view s : *r.outputs) sum += s.size();
    }
    void on_var(const mp::var& r) {
        ++n[1];
        sum += len(r.id) + len(r.name) + len(r.comp_node) + len(r.dtype) + len(r.mem_chunk) + r.offset.value_or(0) +
               r.dev_ptr.value_or(0);
        if (r.flags) for (std::string_view s : *r.flags) sum += s.size();
        if (r.shape) for (std::int64_t d : *r.shape) sum += static_cast<std::uint64_t>(d);
    }
    void on_mem_chunk(const mp::mem_chunk& r) {
        ++n[2];
        sum += len(r.id) + len(r.owner_var) + r.size.value_or(0) + r.dev_ptr.value_or(0);
    }
    void on_exec(const mp::exec& r) {
        ++n[3];
        sum += r.index + len(r.opr_id);
    }
    void on_opr_time(const mp::opr_time& r) {
        ++n[4];
        sum += r.opr_id.size() + r.unit.size();
        fsum += r.start.value_or(0) + r.kern.value_or(0) + r.end.value_or(0);
    }
    void on_opr_footprint(const mp::opr_footprint& r) {
        ++n[5];
        sum += r.opr_id.size() + r.computation.value_or(0) + r.memory.value_or(0) + len(r.param);
        if (r.in_shapes) for (const auto& s : *r.in_shapes) sum += s.size();
        if (r.out_shapes) for (const auto& s : *r.out_shapes) sum += s.size();
    }
    std::string counts() const {
        char b[256];
        std::snprintf(b, sizeof b, "exec=%llu mem_chunk=%llu opr=%llu opr_footprint=%llu opr_time=%llu var=%llu",
                      (unsigned long long)n[3], (unsigned long long)n[2], (unsigned long long)n[0],
                      (unsigned long long)n[5], (unsigned long long)n[4], (unsigned long long)n[1]);
        return b;
    }
};

struct empty_visitor : logscan::validate_only {};

} // namespace

int main(int argc, char** argv) {
    const bench::options o = bench::parse_args(argc, argv, 200);
    bool python = true;
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--no-python") == 0) python = false;
    const std::string sample = bench::sample("001_825e28a4f520ddc2.txt");
    const int copies = std::max(1, static_cast<int>(o.mb * 1e6 / static_cast<double>(sample.size()) + 0.5));
    const std::string text = enlarge(sample, copies);
    const std::string path = bench::temp_file(text, "logscan_bench_megengine_profile");
    (void)bench::memchr_file(path.c_str());

    bench::table t("megengine-profile: sample 001 enlarged x" + std::to_string(copies) + ", from a file in the page cache",
                   text.size());
    everything v;
    const auto secs = bench::best_seconds_turns( // (they take turns)
        o.runs, [&] { bench::keep(bench::memchr_file(path.c_str())); },
        [&] {
            empty_visitor e;
            logscan::file_source src(path.c_str());
            if (!logscan::json::parse(src, e).ok()) std::exit(1);
        },
        [&] {
            v = everything{};
            logscan::file_source src(path.c_str());
            if (!mp::parse(src, v).ok()) std::exit(1);
        },
        [&] {
            bench::nothing n;
            bench::parse_file(path, mp::parse, n);
        });
    t.add("read()+memchr loop (the streaming limit)", secs[0]);
    t.add("logscan json::reader, empty visitor", secs[1], true);
    t.add("logscan megengine_profile::parse, every record", secs[2]);
    t.add("logscan, validate_only (nothing wanted)", secs[3]);
    bench::keep(v.sum);
    bench::keep(v.fsum);
    int status = 0;
    if (python) {
        std::string got;
        t.add("python3 json (tests/reference/megengine_profile.py)", bench::python_reference("megengine_profile.py", path, got));
        if (got != v.counts()) {
            std::fprintf(stderr, "record counts differ:\n  logscan: %s\n  python:  %s\n", v.counts().c_str(), got.c_str());
            status = 1;
        }
    }
    t.print();
    std::printf("  records: %s\n", v.counts().c_str());
    std::remove(path.c_str());
    return status;
}
