// SPDX-License-Identifier: MIT
// logscan: the command-line tool. Detects the format of a log, converts it to NDJSON or CSV
// records (docs/formats.md), and counts what it holds.
//
//   logscan detect FILE...
//   logscan convert [--format ID] [--to ndjson|csv] [--type T,...] [--out-dir DIR]
//                   [--with-filename] [--threads N] FILE...   (FILE may be - for standard input)
//   logscan stats [--format ID] [--threads N] FILE...
//   logscan summary [--format ID] [--top K] [--svg DIR] FILE...
//   logscan --help | --version | COMMAND --help
//
// Exit status: 0 on success; 1 when an input could not be read, its format was not
// recognised, it yielded error records (everything parseable is still written), or it yielded
// no record of its format, only text; 2 on a usage error. An empty or blank input needs no
// format: no records, exit 0.
#include <logscan/formats/detect.hpp>
#include <logscan/ndjson.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parts.hpp"
#include "summary.hpp"
#include "writers.hpp"

namespace {

using logscan_cli::type_filter;

constexpr const char* usage_text =
    "usage: logscan detect FILE...\n"
    "       logscan convert [--format ID] [--to ndjson|csv] [--type T,...] [--out-dir DIR]\n"
    "                       [--with-filename] [--threads N] FILE...\n"
    "       logscan stats [--format ID] [--threads N] FILE...\n"
    "       logscan summary [--format ID] [--top K] [--svg DIR] FILE...\n"
    "       (convert, stats and summary also take --max-line BYTES)\n"
    "       logscan --help | --version | COMMAND --help\n"
    "\n"
    "FILE may be - for standard input. Formats (ID): megengine-log, megengine-profile,\n"
    "chainer-memtrace, paddle-log, tvm-profile; without --format each input's format is\n"
    "detected from its first 16 KiB.\n"
    "Exit status: 0 success; 1 unreadable or unrecognised input, error records (the rest is\n"
    "still written), or no record of the format at all, only text; 2 usage error. An empty or\n"
    "blank input has no records (exit 0).\n";

constexpr const char* detect_help =
    "usage: logscan detect FILE...\n"
    "Prints each FILE's name and format ID, or `unknown`, decided from its first 16 KiB:\n"
    "  megengine-profile  a JSON object with the dump's keys (\"profiler\", \"graph_exec\", ...)\n"
    "  chainer-memtrace   a `B F` line followed by buffer lines `ID SIZE NAME` or function records\n"
    "  tvm-profile        `Evaluate vm inference cost of ...`, `Mean ... time (std dev)`, `Name ... Duration (us)`\n"
    "  paddle-log         `[MM/DD HH:MM:SS] LOGGER LEVEL: ...` lines, profiler titles `---...Summary---`\n"
    "  megengine-log      `[DD HH:MM:SS N@FILE:LOGGER] ...` lines (colours allowed)\n"
    "The format with the most signal lines wins; other lines (warnings, commands) do not count.\n"
    "Exit status 1 when a FILE cannot be read or is unknown.\n";

constexpr const char* convert_help =
    "usage: logscan convert [--format ID] [--to ndjson|csv] [--type T,...] [--out-dir DIR]\n"
    "                       [--with-filename] [--threads N] [--part-size BYTES] [--max-line BYTES] FILE...\n"
    "Converts each FILE (- for standard input), one after another, to records.\n"
    "  --format ID       the format (default: detected per FILE)\n"
    "  --to ndjson       one JSON object a line on standard output (the default)\n"
    "  --to csv          one CSV table per record type: --type T writes T's table to standard\n"
    "                    output; --out-dir DIR writes DIR/<type>.csv for each type. Nested\n"
    "                    values are dotted columns (cells.Duration (us)), arrays JSON text.\n"
    "  --type T,...      only records of these types (text and error included if named)\n"
    "  --with-filename   each record says which FILE it came from (\"input\")\n"
    "  --threads N       NDJSON: parse each FILE in parts, N at a time (megengine-log, paddle-log,\n"
    "                    tvm-profile; the output is the same as with one thread; default 1)\n"
    "  --part-size BYTES the size of a part with --threads (default 262144)\n"
    "  --max-line BYTES  the longest line read (default 1048576); a longer one is an error record\n"
    "                    and reading goes on with the next line\n";

constexpr const char* summary_help =
    "usage: logscan summary [--format ID] [--top K] [--svg DIR] [--max-line BYTES] FILE...\n"
    "A report per FILE: megengine-log: the peak static allocation per comp node;\n"
    "megengine-profile: the top operators by device time and the time per operator type;\n"
    "chainer-memtrace: the peak of live buffer bytes over the functions in rank order;\n"
    "paddle-log: the loss curve (first, min, last), learning rate, ips, top operators by GPU time;\n"
    "tvm-profile: per report, the top fused kernels by duration with their share of the Sum row.\n"
    "  --top K    how many operators or kernels (default 10)\n"
    "  --svg DIR  also write charts as DIR/<file name>.<chart>.svg\n"
    "  --max-line BYTES  the longest line read (default 1048576)\n";

constexpr const char* stats_help =
    "usage: logscan stats [--format ID] [--threads N] [--part-size BYTES] [--max-line BYTES] FILE...\n"
    "Parses each FILE without writing records and prints the records per type, the text\n"
    "and error counts, bytes, elapsed time and throughput: the parse speed on your logs.\n"
    "  --threads N       parse each FILE in parts, N at a time (megengine-log, paddle-log,\n"
    "                    tvm-profile; the counts are the same as with one thread; default 1)\n"
    "  --part-size BYTES the size of a part with --threads (default 262144)\n"
    "  --max-line BYTES  the longest line read (default 1048576); a longer one is an error record\n"
    "                    and reading goes on with the next line\n";

int usage_error(const std::string& what) {
    std::fprintf(stderr, "logscan: %s\n%s", what.c_str(), usage_text);
    return 2;
}

bool known_format(std::string_view f) {
    for (const auto& d : logscan::detectors)
        if (d.name == f) return true;
    return false;
}

// Empty when some format (`format`, or any when empty) has records of type `t`; else the
// types there are, for the usage error.
std::string unknown_type(std::string_view t, std::string_view format) {
    std::vector<std::string_view> known;
    for (const auto& d : logscan::detectors) {
        if (!format.empty() && d.name != format) continue;
        for (std::string_view k : d.types) {
            if (k == t) return {};
            if (std::find(known.begin(), known.end(), k) == known.end()) known.push_back(k);
        }
    }
    std::string list = "types:";
    for (std::string_view k : known) list += (list.size() > 6 ? ", " : " ") + std::string(k);
    return list;
}

// A source that hands out the bytes already read for detection, then the rest of `inner`.
template <class Source>
struct replay_source {
    std::string_view head;
    Source& inner;
    bool head_done = false;
    bool inner_done = false;
    logscan::chunk next() {
        if (!head_done) {
            head_done = true;
            if (!head.empty()) return {head, logscan::error_code::none, 0};
        }
        if (inner_done) return {};
        return inner.next();
    }
};

// Progress on stderr when it is a terminal: bytes, percent of a known size, MB/s, ETA.
struct progress {
    bool on = false;
    std::uint64_t total = 0, done = 0;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now(), last = start;
    void add(std::size_t n) {
        done += n;
        if (!on) return;
        const auto now = std::chrono::steady_clock::now();
        if (now - last < std::chrono::milliseconds(250)) return;
        last = now;
        const double s = std::chrono::duration<double>(now - start).count();
        const double rate = s > 0 ? static_cast<double>(done) / s : 0;
        if (total > 0) {
            const double left = rate > 0 ? static_cast<double>(total - (done < total ? done : total)) / rate : 0;
            std::fprintf(stderr, "\r  %.1f / %.1f MB (%.0f%%)  %.0f MB/s  ETA %.0f s   ", static_cast<double>(done) / 1e6,
                         static_cast<double>(total) / 1e6, 100.0 * static_cast<double>(done) / static_cast<double>(total),
                         rate / 1e6, left);
        } else {
            std::fprintf(stderr, "\r  %.1f MB  %.0f MB/s   ", static_cast<double>(done) / 1e6, rate / 1e6);
        }
    }
    void end() {
        if (on && last != start) std::fprintf(stderr, "\r%60s\r", "");
    }
};

template <class Source>
struct counted_source {
    Source& inner;
    progress& p;
    logscan::chunk next() {
        logscan::chunk c = inner.next();
        p.add(c.data.size());
        return c;
    }
};

// Reads the head of `src` for detection (at most logscan::detect_bytes bytes, copied).
template <class Source>
logscan::error read_head(Source& src, std::string& head, bool& more) {
    more = true;
    while (head.size() < logscan::detect_bytes) {
        const logscan::chunk c = src.next();
        if (c.code != logscan::error_code::none) return {c.code, 0, 0, 0, logscan::to_string(c.code), c.sys_errno};
        if (c.data.empty()) {
            more = false;
            break;
        }
        head.append(c.data);
    }
    return {};
}

// Runs the format's ndjson_visitor over `src` into writer `w`; counts error records.
template <class Writer, class Source>
logscan::error run_format(std::string_view format, Source& src, Writer& w, std::uint64_t& errors, std::size_t max_line) {
    namespace ls = logscan;
    logscan::error e{};
    auto go = [&](auto& v, auto parse) {
        e = parse(src, v);
        errors = v.errors;
    };
    if (format == ls::megengine_log::format_name) {
        ls::megengine_log::ndjson_visitor<Writer> v{w};
        go(v, [&](auto& s, auto& vis) { return ls::megengine_log::parse(s, vis, max_line); });
    } else if (format == ls::megengine_profile::format_name) {
        ls::megengine_profile::ndjson_visitor<Writer> v{w};
        go(v, [](auto& s, auto& vis) { return ls::megengine_profile::parse(s, vis); });
        if (e.code != ls::error_code::io_error && e.code != ls::error_code::open_failed)
            e = {}; // (errors in the document are records; counted)
    } else if (format == ls::chainer_memtrace::format_name) {
        ls::chainer_memtrace::ndjson_visitor<Writer> v{w};
        go(v, [&](auto& s, auto& vis) { return ls::chainer_memtrace::parse(s, vis, {.max_line = max_line}); });
    } else if (format == ls::paddle_log::format_name) {
        ls::paddle_log::ndjson_visitor<Writer> v{w};
        go(v, [&](auto& s, auto& vis) { return ls::paddle_log::parse(s, vis, max_line); });
    } else {
        ls::tvm_profile::ndjson_visitor<Writer> v{w};
        go(v, [&](auto& s, auto& vis) { return ls::tvm_profile::parse(s, vis, max_line); });
    }
    return e;
}

// --threads: the formats whose inputs can be cut into parts parsed in parallel.
bool splittable(std::string_view format) {
    namespace ls = logscan;
    return format == ls::megengine_log::format_name || format == ls::paddle_log::format_name ||
           format == ls::tvm_profile::format_name;
}

// Runs the format's ndjson_visitor over `src` in parts (parts.hpp), each writing to an Out
// made from `ctx`; `drain(out)` takes a kept part's output, in input order.
template <class Out, class Source, class Drain>
logscan::error run_format_parts(std::string_view format, Source& src, const logscan_cli::parts_options& po,
                                const typename Out::context& ctx, Drain drain, std::uint64_t& errors,
                                logscan_cli::parts_count& count, std::size_t max_line) {
    namespace ls = logscan;
    auto go = [&]<template <class> class P, template <class> class V>(auto point) {
        using slot = logscan_cli::part_slot<P, V, Out>;
        return logscan_cli::parse_in_parts<slot>(
            src, po, point,
            [&] {
                auto s = std::make_unique<slot>(ctx);
                s->max_line = max_line;
                return s;
            },
            [&](slot& s) { drain(s.out); }, errors, count);
    };
    if (format == ls::megengine_log::format_name)
        return go.template operator()<ls::megengine_log::parser, ls::megengine_log::ndjson_visitor>(ls::megengine_log::split_point);
    if (format == ls::paddle_log::format_name)
        return go.template operator()<ls::paddle_log::parser, ls::paddle_log::ndjson_visitor>(ls::paddle_log::split_point);
    return go.template operator()<ls::tvm_profile::parser, ls::tvm_profile::ndjson_visitor>(ls::tvm_profile::split_point);
}

// A part's NDJSON, in memory until the part is kept.
struct ndjson_part {
    struct context {
        const type_filter* types;
        std::string file; // for --with-filename (empty: no "input")
    };
    using writer_t = logscan::ndjson_writer<logscan_cli::string_sink>;
    std::string text;
    std::unique_ptr<char[]> buf = std::make_unique<char[]>(buf_size);
    writer_t w{logscan_cli::string_sink{&text}, std::span<char>(buf.get(), buf_size)};
    logscan_cli::filter_writer<writer_t> fw;
    explicit ndjson_part(const context& c) : fw(w, *c.types) { fw.set_file(c.file); }
    logscan_cli::filter_writer<writer_t>& writer() { return fw; }
    void clear() {
        w.flush();
        text.clear();
        fw.seen = {};
    }
    // Writes what the part holds to `f`; false when that failed.
    bool drain(std::FILE* f) {
        w.flush();
        const bool ok = text.empty() || std::fwrite(text.data(), 1, text.size(), f) == text.size();
        text.clear();
        return ok;
    }
    static constexpr std::size_t buf_size = 1 << 16;
};

// A part's record counts (logscan stats).
struct count_part {
    struct context {};
    logscan_cli::count_writer c;
    explicit count_part(const context&) {}
    logscan_cli::count_writer& writer() { return c; }
    void clear() { c.clear(); }
};

void report_failure(const char* path, const logscan::error& e) {
    std::fprintf(stderr, "logscan: %s: %.*s", path, static_cast<int>(e.message.size()), e.message.data());
    if (e.sys_errno != 0) std::fprintf(stderr, " (%s)", std::strerror(e.sys_errno));
    std::fprintf(stderr, "\n");
}

// A non-empty input that yielded nothing of its format, only `text` (a file of another kind
// given with --format, or detected from a few lines): said on standard error, status 1.
int check_yield(const char* path, std::string_view format, const logscan_cli::tally& t) {
    if (t.records != 0 || t.text == 0) return 0;
    std::fprintf(stderr, "logscan: %s: no %.*s records; %llu non-blank line%s text\n", path,
                 static_cast<int>(format.size()), format.data(), static_cast<unsigned long long>(t.text),
                 t.text == 1 ? " was" : "s were");
    return 1;
}

std::uint64_t file_size(const char* path) {
    struct stat st{};
    if (std::strcmp(path, "-") == 0) return ::fstat(0, &st) == 0 && S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
    return ::stat(path, &st) == 0 && S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
}

// One input: open, detect (unless `forced`), then `f(format, source)`. Returns 1 when the
// input could not be read or its format is unknown (reported), else what f returns.
template <class F>
int with_format(const char* path, std::string_view forced, progress& prog, F&& f) {
    int status = 0;
    prog.total = file_size(path);
    prog.done = 0;
    prog.start = prog.last = std::chrono::steady_clock::now();
    const logscan::error e = logscan::with_input(path, [&](auto& src) -> logscan::error {
        std::string head;
        bool more = true;
        if (const logscan::error h = read_head(src, head, more); !h.ok()) return h;
        std::string_view format = forced;
        if (format.empty()) {
            format = logscan::detect_format(std::string_view(head).substr(0, logscan::detect_bytes),
                                            more || head.size() > logscan::detect_bytes)
                         .format;
            if (format.empty() && !more && head.find_first_not_of(" \t\r\n") == std::string::npos) {
                // nothing but blank lines: no format to tell, and no record in any
                std::fprintf(stderr, "logscan: %s: empty input, no records\n", path);
                return {};
            }
            if (format.empty()) {
                std::fprintf(stderr, "logscan: %s: format not recognised (give --format; see logscan detect --help)\n", path);
                status = 1;
                return {};
            }
        }
        using S = std::remove_reference_t<decltype(src)>;
        replay_source<S> replay{head, src};
        replay.inner_done = !more;
        counted_source<replay_source<S>> counted{replay, prog};
        status = f(format, counted);
        return {};
    });
    prog.end();
    if (!e.ok()) {
        report_failure(path, e);
        return 1;
    }
    return status;
}

struct options {
    std::string format;
    std::string to = "ndjson";
    type_filter types;
    std::string out_dir;
    bool with_filename = false;
    std::string svg_dir;
    std::size_t top = 10;
    logscan_cli::parts_options parts{1, std::size_t{256} << 10};
    std::vector<const char*> files;
    std::size_t max_line = logscan::line_buffer::default_capacity; // --max-line
};

// Parses the options of convert and stats; returns 0, or the usage error status (2) after
// reporting it, or -1 after printing the command's help.
int parse_options(int argc, char** argv, options& o, const char* help, bool convert, bool summary = false) {
    for (int i = 2; i < argc; ++i) {
        const std::string_view a = argv[i];
        auto value = [&](std::string_view name, std::string& out) -> bool {
            if (a == name) {
                if (i + 1 == argc) return false;
                out = argv[++i];
                return true;
            }
            out = std::string(a.substr(name.size() + 1));
            return true;
        };
        auto is = [&](std::string_view name) { return a == name || (a.starts_with(name) && a.size() > name.size() && a[name.size()] == '='); };
        if (a == "--help" || a == "-h") {
            std::fputs(help, stdout);
            return -1;
        } else if (is("--format")) {
            if (!value("--format", o.format)) return usage_error("--format needs a value");
            if (!known_format(o.format)) return usage_error("unknown format '" + o.format + "'");
        } else if (convert && is("--to")) {
            if (!value("--to", o.to)) return usage_error("--to needs a value");
            if (o.to != "ndjson" && o.to != "csv") return usage_error("--to is ndjson or csv");
        } else if (convert && is("--type")) {
            std::string list;
            if (!value("--type", list)) return usage_error("--type needs a value");
            for (std::size_t p = 0; p <= list.size();) {
                std::size_t c = list.find(',', p);
                if (c == std::string::npos) c = list.size();
                if (c > p) o.types.types.push_back(list.substr(p, c - p));
                p = c + 1;
            }
        } else if (!summary && is("--threads")) {
            std::string n;
            if (!value("--threads", n)) return usage_error("--threads needs a number");
            const auto v = logscan::parse_number<unsigned>(n);
            if (!v.ok() || v.value == 0 || v.value > 256) return usage_error("--threads needs a number from 1 to 256");
            o.parts.threads = v.value;
        } else if (!summary && is("--part-size")) {
            std::string n;
            if (!value("--part-size", n)) return usage_error("--part-size needs a number of bytes");
            const auto v = logscan::parse_number<std::size_t>(n);
            if (!v.ok() || v.value == 0 || v.value > (std::size_t{1} << 30)) return usage_error("--part-size needs a number of bytes from 1 to 2^30");
            o.parts.part_bytes = v.value;
        } else if (is("--max-line")) {
            std::string n;
            if (!value("--max-line", n)) return usage_error("--max-line needs a number of bytes");
            const auto v = logscan::parse_number<std::size_t>(n);
            if (!v.ok() || v.value == 0 || v.value > (std::size_t{1} << 31)) return usage_error("--max-line needs a number of bytes from 1 to 2^31");
            o.max_line = v.value;
        } else if (convert && is("--out-dir")) {
            if (!value("--out-dir", o.out_dir)) return usage_error("--out-dir needs a value");
        } else if (convert && a == "--with-filename") {
            o.with_filename = true;
        } else if (summary && is("--svg")) {
            if (!value("--svg", o.svg_dir)) return usage_error("--svg needs a directory");
        } else if (summary && is("--top")) {
            std::string k;
            if (!value("--top", k)) return usage_error("--top needs a number");
            const auto n = logscan::parse_number<std::size_t>(k);
            if (!n.ok() || n.value == 0) return usage_error("--top needs a positive number");
            o.top = n.value;
        } else if (a.size() > 1 && a[0] == '-') {
            return usage_error("unknown option '" + std::string(a) + "'");
        } else {
            o.files.push_back(argv[i]);
        }
    }
    if (o.files.empty()) return usage_error("no FILE given (- reads standard input)");
    for (const std::string& t : o.types.types) // a misspelt type would select nothing, in silence
        if (std::string known = unknown_type(t, o.format); !known.empty())
            return usage_error("--type: '" + t + "' is no record type of " + (o.format.empty() ? std::string("any format") : o.format) +
                               " (" + known + ")");
    if (o.parts.threads > 1 && o.to == "csv") return usage_error("--threads is for NDJSON output (and stats); CSV is written by one thread");
    return 0;
}

// The note for --threads on a format that one thread reads.
void one_thread_note(const options& o, const char* path, std::string_view format) {
    if (o.parts.threads > 1 && !splittable(format))
        std::fprintf(stderr, "logscan: %s: %.*s is read by one thread (--threads applies to megengine-log, paddle-log and tvm-profile)\n",
                     path, static_cast<int>(format.size()), format.data());
}

int cmd_detect(int argc, char** argv) {
    std::vector<const char*> files;
    for (int i = 2; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--help" || a == "-h") {
            std::fputs(detect_help, stdout);
            return 0;
        }
        if (a.size() > 1 && a[0] == '-') return usage_error("unknown option '" + std::string(a) + "'");
        files.push_back(argv[i]);
    }
    if (files.empty()) return usage_error("no FILE given (- reads standard input)");
    int status = 0;
    for (const char* path : files) {
        std::string head;
        bool more = true;
        const logscan::error e = logscan::with_input(path, [&](auto& src) { return read_head(src, head, more); });
        if (!e.ok()) {
            report_failure(path, e);
            status = 1;
            continue;
        }
        const logscan::detection d = logscan::detect_format(std::string_view(head).substr(0, logscan::detect_bytes),
                                                            more || head.size() > logscan::detect_bytes);
        std::printf("%s: %s\n", path, d.format.empty() ? "unknown" : std::string(d.format).c_str());
        if (d.format.empty()) status = 1;
    }
    return status;
}

int cmd_convert_ndjson(const options& o) {
    logscan::ndjson_file out(stdout);
    logscan_cli::filter_writer<logscan::ndjson_file> w(out, o.types);
    progress prog;
    prog.on = ::isatty(2) != 0;
    int status = 0;
    for (const char* path : o.files) {
        if (o.with_filename) w.set_file(path);
        status |= with_format(path, o.format, prog, [&](std::string_view format, auto& src) {
            std::uint64_t errors = 0;
            logscan::error e{};
            one_thread_note(o, path, format);
            logscan_cli::tally seen;
            if (o.parts.threads > 1 && splittable(format)) {
                logscan_cli::parts_count count;
                bool written = out.flush();
                e = run_format_parts<ndjson_part>(format, src, o.parts, {&o.types, o.with_filename ? std::string(path) : std::string()},
                                                  [&](ndjson_part& p) { // (what the part holds so far)
                                                      seen.add(p.fw.seen);
                                                      p.fw.seen = {};
                                                      written = p.drain(stdout) && written;
                                                  },
                                                  errors, count, o.max_line);
                if (!written) {
                    std::fprintf(stderr, "logscan: writing the output failed\n");
                    return 1;
                }
            } else {
                w.seen = {};
                e = run_format(format, src, w, errors, o.max_line);
                seen = w.seen;
            }
            if (!e.ok()) {
                report_failure(path, e);
                return 1;
            }
            if (errors != 0) {
                std::fprintf(stderr, "logscan: %s: %llu error record(s)\n", path, static_cast<unsigned long long>(errors));
                return 1;
            }
            return check_yield(path, format, seen);
        });
    }
    if (!out.flush() || std::fflush(stdout) != 0) {
        std::fprintf(stderr, "logscan: writing the output failed\n");
        return 1;
    }
    return status;
}

// CSV: a first pass gathers the columns of every type, a second writes the rows (standard
// input is spooled to a temporary file for the second pass).
int cmd_convert_csv(options& o) {
    if (o.out_dir.empty() && o.types.types.size() != 1)
        return usage_error("--to csv writes one table per record type: give --type T (one type) or --out-dir DIR");
    // inputs that cannot be read twice (standard input, pipes, FIFOs) are copied to temporary files
    struct spool {
        std::vector<std::string> names;
        ~spool() {
            for (const std::string& n : names) std::remove(n.c_str());
        }
    } spooled;
    std::vector<std::string> paths;
    for (const char* p : o.files) {
        const bool is_stdin = std::strcmp(p, "-") == 0;
        struct stat st{};
        if (!is_stdin && (::stat(p, &st) != 0 || S_ISREG(st.st_mode))) { // (a missing file is reported later)
            paths.emplace_back(p);
            continue;
        }
        const int in = is_stdin ? 0 : ::open(p, O_RDONLY | O_CLOEXEC);
        if (in < 0) {
            paths.emplace_back(p);
            continue;
        }
        char name[] = "/tmp/logscan-input-XXXXXX";
        const int fd = ::mkstemp(name);
        if (fd < 0) {
            std::fprintf(stderr, "logscan: cannot create a temporary file (%s)\n", std::strerror(errno));
            if (!is_stdin) ::close(in);
            return 1;
        }
        spooled.names.emplace_back(name);
        char buf[1 << 16];
        ssize_t n = 0;
        while ((n = ::read(in, buf, sizeof buf)) > 0)
            if (::write(fd, buf, static_cast<std::size_t>(n)) != n) {
                n = -1;
                break;
            }
        const int err = errno;
        ::close(fd);
        if (!is_stdin) ::close(in);
        if (n < 0) {
            std::fprintf(stderr, "logscan: %s: copying it to a temporary file failed (%s)\n", p, std::strerror(err));
            return 1;
        }
        paths.emplace_back(name);
    }
    int status = 0;
    progress prog; // no progress bar for the first pass
    logscan_cli::csv_columns cols(o.types, o.with_filename);
    for (const std::string& p : paths)
        status |= with_format(p.c_str(), o.format, prog, [&](std::string_view format, auto& src) {
            std::uint64_t errors = 0;
            return run_format(format, src, cols, errors, o.max_line).ok() ? 0 : 1;
        });
    logscan_cli::csv_writer w;
    std::vector<std::FILE*> opened;
    for (auto& [type, columns] : cols.columns) {
        logscan_cli::csv_writer::table t;
        t.columns = columns;
        if (o.out_dir.empty()) {
            t.out = stdout;
        } else {
            const std::string name = o.out_dir + "/" + type + ".csv";
            t.out = std::fopen(name.c_str(), "wb");
            if (t.out == nullptr) {
                std::fprintf(stderr, "logscan: cannot write %s (%s)\n", name.c_str(), std::strerror(errno));
                return 1;
            }
            opened.push_back(t.out);
        }
        w.tables.emplace(type, std::move(t));
    }
    w.headers();
    prog.on = ::isatty(2) != 0;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        const char* shown = o.files[i];
        if (o.with_filename) w.set_file(shown);
        status |= with_format(paths[i].c_str(), o.format, prog, [&](std::string_view format, auto& src) {
            std::uint64_t errors = 0;
            w.seen = {};
            const logscan::error e = run_format(format, src, w, errors, o.max_line);
            if (!e.ok()) {
                report_failure(shown, e);
                return 1;
            }
            if (errors != 0) {
                std::fprintf(stderr, "logscan: %s: %llu error record(s)\n", shown, static_cast<unsigned long long>(errors));
                return 1;
            }
            return check_yield(shown, format, w.seen);
        });
    }
    bool ok = true;
    for (auto& [type, t] : w.tables) ok = ok && t.ok;
    for (std::FILE* f : opened) ok = (std::fclose(f) == 0) && ok;
    if (std::fflush(stdout) != 0) ok = false;
    if (!ok) {
        std::fprintf(stderr, "logscan: writing the output failed\n");
        return 1;
    }
    return status;
}

int cmd_stats(const options& o) {
    int status = 0;
    progress prog;
    prog.on = ::isatty(2) != 0;
    for (const char* path : o.files) {
        logscan_cli::count_writer w;
        std::uint64_t errors = 0;
        std::string_view used;
        logscan_cli::parts_count parts;
        const auto t0 = std::chrono::steady_clock::now();
        const int s = with_format(path, o.format, prog, [&](std::string_view format, auto& src) {
            used = format;
            one_thread_note(o, path, format);
            const logscan::error e = o.parts.threads > 1 && splittable(format)
                                         ? run_format_parts<count_part>(format, src, o.parts, {},
                                                                        [&](count_part& p) {
                                                                            w.add(p.c);
                                                                            p.clear();
                                                                        },
                                                                        errors, parts, o.max_line)
                                         : run_format(format, src, w, errors, o.max_line);
            if (!e.ok()) {
                report_failure(path, e);
                return 1;
            }
            return errors != 0 ? 1 : check_yield(path, format, w.seen());
        });
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        status |= s;
        if (used.empty()) continue;
        std::uint64_t records = 0;
        for (const auto& [type, n] : w.counts) records += n;
        std::printf("%s: %.*s\n", path, static_cast<int>(used.size()), used.data());
        std::printf("  records  %llu\n", static_cast<unsigned long long>(records));
        for (const auto& [type, n] : w.counts)
            std::printf("    %-18s %llu\n", type.c_str(), static_cast<unsigned long long>(n));
        const auto find = [&](const char* t) {
            const auto it = w.counts.find(std::string_view(t));
            return it == w.counts.end() ? 0ull : static_cast<unsigned long long>(it->second);
        };
        std::printf("  text     %llu\n  errors   %llu\n", find("text"), find("error"));
        if (o.parts.threads > 1 && splittable(used)) 
            std::printf("  threads  %u (%llu %s in parallel, %llu read again after a record across a cut)\n", o.parts.threads,
                        static_cast<unsigned long long>(parts.kept), parts.kept == 1 ? "part" : "parts",
                        static_cast<unsigned long long>(parts.redone));
        std::printf("  bytes    %llu\n  elapsed  %.3f s\n  speed    %.1f MB/s\n", static_cast<unsigned long long>(prog.done), secs,
                    secs > 0 ? static_cast<double>(prog.done) / secs / 1e6 : 0.0);
    }
    return status;
}

int cmd_summary(const options& o) {
    namespace sm = logscan_cli::summary;
    int status = 0;
    progress prog;
    prog.on = ::isatty(2) != 0;
    for (const char* path : o.files) {
        sm::settings set{o.top, o.svg_dir, {}};
        const std::string_view base = std::string_view(path).substr(std::string_view(path).find_last_of('/') + 1);
        set.stem = std::strcmp(path, "-") == 0 ? "stdin" : std::string(base);
        status |= with_format(path, o.format, prog, [&](std::string_view format, auto& src) {
            auto go = [&](auto v) {
                const logscan::error e = v.parse(src, o.max_line);
                const bool io = e.code == logscan::error_code::io_error || e.code == logscan::error_code::open_failed;
                if (!e.ok() && (io || format != logscan::megengine_profile::format_name)) {
                    report_failure(path, e);
                    return 1;
                }
                prog.end();
                if (v.errors == 0 && check_yield(path, format, v.seen) != 0) return 1; // (no report of nothing)
                std::printf("%s: %.*s\n", path, static_cast<int>(format.size()), format.data());
                const bool printed = v.print(set);
                if (v.errors != 0)
                    std::fprintf(stderr, "logscan: %s: %llu error record(s)\n", path, static_cast<unsigned long long>(v.errors));
                return printed && v.errors == 0 ? 0 : 1;
            };
            if (format == logscan::megengine_log::format_name) return go(sm::megengine_log_summary{});
            if (format == logscan::megengine_profile::format_name) return go(sm::megengine_profile_summary{});
            if (format == logscan::chainer_memtrace::format_name) return go(sm::chainer_memtrace_summary{});
            if (format == logscan::paddle_log::format_name) return go(sm::paddle_log_summary{});
            return go(sm::tvm_profile_summary{});
        });
    }
    return status;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) return usage_error("no command given");
    const std::string_view cmd = argv[1];
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        std::fputs(usage_text, stdout);
        return 0;
    }
    if (cmd == "--version") {
        std::printf("logscan %s\n", LOGSCAN_VERSION_STRING);
        return 0;
    }
    if (cmd == "detect") return cmd_detect(argc, argv);
    if (cmd == "convert" || cmd == "stats" || cmd == "summary") {
        options o;
        const int r = parse_options(argc, argv, o,
                                    cmd == "convert" ? convert_help : cmd == "stats" ? stats_help : summary_help,
                                    cmd == "convert", cmd == "summary");
        if (r == -1) return 0;
        if (r != 0) return r;
        if (cmd == "stats") return cmd_stats(o);
        if (cmd == "summary") return cmd_summary(o);
        if (o.to == "csv") return cmd_convert_csv(o);
        if (!o.out_dir.empty()) return usage_error("--out-dir is for --to csv");
        return cmd_convert_ndjson(o);
    }
    return usage_error("unknown command '" + std::string(cmd) + "' (commands: detect, convert, stats, summary)");
}
