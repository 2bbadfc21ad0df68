// SPDX-License-Identifier: MIT
// The logscan command, for any list of formats (formats/registry.hpp): main.cpp runs it with
// logscan's formats; a program with a format of its own runs it with a longer list
// (tests/toy_format/ does). Detects the format of a log, converts it to NDJSON or CSV records
// (docs/formats.md), and counts what it holds. Nothing here names a format: every subcommand
// iterates the list.
//
//   logscan detect FILE...
//   logscan convert [--format ID] [--to ndjson|csv] [--type T,...] [--out-dir DIR]
//                   [--with-filename] [--threads N] FILE...   (FILE may be - for standard input)
//   logscan stats [--format ID] [--threads N] FILE...
//   logscan summary [--format ID] [--top K] [--top-cpu-ops N] [--json] [--svg DIR] [--threads N] FILE...
//   logscan --help | --version | COMMAND --help
//
// Exit status: 0 on success; 1 when an input could not be read, its format was not
// recognised, it yielded error records (everything parseable is still written), or it yielded
// no record of its format (only text, or nothing from an input that is not blank); 2 on a
// usage error. An empty or blank input needs no
// format: no records, exit 0.
#ifndef LOGSCAN_COMMAND_COMMAND_HPP
#define LOGSCAN_COMMAND_COMMAND_HPP

#include <logscan/formats/detect.hpp>
#include <logscan/formats/registry.hpp>
#include <logscan/ndjson.hpp>
#include <logscan/parallel.hpp>
#include <logscan/utf16.hpp>
#if LOGSCAN_CLI_GZIP
#include <logscan/gzip.hpp>
#endif

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format_ops.hpp"
#include "summary.hpp"
#include "writers.hpp"

namespace logscan_cli {

// The formats' names, "a, b, c".
template <class Formats>
std::string format_names() {
    std::string s;
    logscan::for_each_format(Formats{}, [&]<class F>() { s += (s.empty() ? "" : ", ") + std::string(F::name); });
    return s;
}

// The names of the formats whose inputs --threads cuts into parts.
template <class Formats>
std::string splittable_names() {
    std::string s;
    logscan::for_each_format(Formats{}, [&]<class F>() {
        if constexpr (F::splittable) s += (s.empty() ? "" : ", ") + std::string(F::name);
    });
    return s;
}

template <class Formats>
std::string usage_text() {
    return "usage: logscan detect FILE...\n"
           "       logscan convert [--format ID] [--to ndjson|csv] [--type T,...] [--out-dir DIR]\n"
           "                       [--with-filename] [--threads N] FILE...\n"
           "       logscan stats [--format ID] [--threads N] FILE...\n"
           "       logscan summary [--format ID] [--top K] [--top-cpu-ops N] [--json] [--svg DIR] [--threads N] FILE...\n"
           "       (convert, stats and summary also take --part-size BYTES with --threads N, --max-line BYTES\n"
           "        and --max-event BYTES: COMMAND --help says more)\n"
           "       logscan --help | --version | COMMAND --help\n"
           "\n"
           "FILE may be - for standard input. Formats (ID): " + format_names<Formats>() + ";\n"
           "without --format each input's format is detected from its first 16 KiB (past blank lines).\n"
           "Exit status: 0 success; 1 unreadable or unrecognised input, error records (the rest is\n"
           "still written), or no record of the format at all (only text, or nothing); 2 usage error.\n"
           "An empty or blank input has no records (convert, stats, summary: exit 0; detect names it\n"
           "unknown, exit 1). With --format, an input that looks like\n"
           "another format is said on standard error, and read as asked.\n";
}

template <class Formats>
std::string detect_help() {
    std::string s = "usage: logscan detect FILE...\n"
                    "Prints each FILE's name and format ID, or `unknown`, decided from its first 16 KiB\n"
                    "(past the blank lines it begins with, up to 1 MiB):\n";
    logscan::for_each_format(Formats{}, [&]<class F>() {
        std::string name(F::name);
        name.resize(name.size() < 18 ? 18 : name.size(), ' ');
        s += "  " + name + " " + std::string(F::detect_signals) + "\n";
    });
    return s + "The format with the most signal lines wins; other lines (warnings, commands) do not count.\n"
               "Exit status 1 when a FILE cannot be read or is unknown, or fails after the bytes that told its\n"
               "format (a .gz cut short: its format is printed, the failure said on standard error).\n";
}

// The help of --max-event (the JSON formats' scratch_capacity).
inline constexpr const char* max_event_help =
    "  --max-event BYTES the largest event (chrome-trace) or object (megengine-profile, tvm-profile's\n"
    "                    Report.json) read whole (default 65536); a larger one is an error record\n"
    "                    and reading goes on\n";

// The help of --threads, --part-size, --max-line and --max-event.
template <class Formats>
std::string parts_help(const char* threads, const char* what) {
    return std::string("  --threads N       ") + threads + " each FILE in parts, N at a time (" + splittable_names<Formats>() +
           ";\n                    the " + what + " are the same as with one thread; default 1)\n"
           "  --part-size BYTES the size of a part with --threads N, N > 1 (default 262144)\n"
           "  --max-line BYTES  the longest line read (default 1048576); a longer one is an error record\n"
           "                    and reading goes on with the next line\n"
           + max_event_help;
}

template <class Formats>
std::string convert_help() {
    return
    "usage: logscan convert [--format ID] [--to ndjson|csv] [--type T,...] [--out-dir DIR]\n"
    "                       [--with-filename] [--threads N] [--part-size BYTES] [--max-line BYTES]\n"
    "                       [--max-event BYTES] FILE...\n"
    "Converts each FILE (- for standard input), one after another, to records.\n"
    "  --format ID       the format (default: detected per FILE)\n"
    "  --to ndjson       one JSON object a line on standard output (the default)\n"
    "  --to csv          one CSV table per record type: --type T writes T's table to standard\n"
    "                    output; --out-dir DIR writes DIR/<type>.csv for each type. Nested\n"
    "                    values are dotted columns (cells.Duration (us)), arrays JSON text.\n"
    "  --type T,...      only records of these types (text and error included if named)\n"
    "  --with-filename   each record says which FILE it came from (\"input\")\n"
    + parts_help<Formats>("NDJSON: parse", "records");
}

// Says, once, that the output could not be written; the exit status 1.
inline int output_failed() {
    static bool said = false;
    if (!said) std::fprintf(stderr, "logscan: writing the output failed\n");
    said = true;
    return 1;
}

// A summary's part with --threads: larger than a conversion's, as its parts are read by a
// parser and a reader's tables each (1 MiB: 1.2x faster than 256 KiB on a 1 GB trace).
inline constexpr std::size_t summary_part_bytes = std::size_t{1} << 20;

// The formats whose summary reads a file in parts with --threads.
template <class Formats>
std::string parted_summaries() {
    std::string s;
    logscan::for_each_format(Formats{}, [&]<class F>() {
        if constexpr (requires { typename summary::of<F>::type; }) // (clang: a missing type in a requires' parameters is an error)
            if constexpr (requires(typename summary::of<F>::type& v, logscan::source_ref src, const logscan::parts_options& po) {
                              v.read_in_parts(src, po, logscan::format_options{}, "");
                          })
                s += (s.empty() ? "" : ", ") + std::string(F::name);
    });
    return s;
}

template <class Formats>
std::string summary_help() {
    std::string s = "usage: logscan summary [--format ID] [--top K] [--top-cpu-ops N] [--json] [--svg DIR] [--threads N]\n"
                    "                      [--part-size BYTES] [--max-line BYTES] [--max-event BYTES] FILE...\n"
                    "A report per FILE (per job: every FILE of a whole-job format together):\n";
    logscan::for_each_format(Formats{}, [&]<class F>() {
        if constexpr (requires { summary::of<F>::type::what; })
            s += "  " + std::string(F::name) + ": " + summary::of<F>::type::what + "\n";
        else
            s += "  " + std::string(F::name) + ": no report (its records: logscan convert)\n";
    });
    return s + "  --top K    how many operators, operator types or kernels (default 10)\n"
               "  --top-cpu-ops N  how many CPU ops per rank (chrome-trace; default 20)\n"
               "  --json     the report as one JSON object: chrome-trace only (formats.md 6B.11; the other formats' reports are text)\n"
               "  --svg DIR  also write charts as DIR/<file name>.<chart>.svg (a whole job: DIR/<format>.<chart>.svg)\n"
               "  --threads N       " + parted_summaries<Formats>() + ": each FILE read in parts, N at a time (the figures\n"
               "                    are the same as with one thread; default 1)\n"
               "  --part-size BYTES the size of a part with --threads N, N > 1 (default " + std::to_string(summary_part_bytes) + ")\n"
               "  --max-line BYTES  the longest line read (default 1048576)\n" + max_event_help;
}

template <class Formats>
std::string stats_help() {
    return
    "usage: logscan stats [--format ID] [--threads N] [--part-size BYTES] [--max-line BYTES]\n"
    "                    [--max-event BYTES] FILE...\n"
    "Parses each FILE without writing records and prints the records per type, the text\n"
    "and error counts, bytes, elapsed time and throughput: the parse speed on your logs.\n"
    + parts_help<Formats>("parse", "counts");
}

template <class Formats>
int usage_error(const std::string& what) {
    std::fprintf(stderr, "logscan: %s\n%s", what.c_str(), usage_text<Formats>().c_str());
    return 2;
}

// Empty when some format (`format`, or any when empty) has records of type `t`; else the
// types there are, for the usage error.
template <class Formats>
std::string unknown_type(std::string_view t, std::string_view format) {
    std::vector<std::string_view> known;
    bool found = false;
    logscan::for_each_format(Formats{}, [&]<class F>() {
        if (!format.empty() && F::name != format) return;
        for (std::string_view k : F::record_types) {
            if (k == t) found = true;
            if (std::find(known.begin(), known.end(), k) == known.end()) known.push_back(k);
        }
    });
    if (found) return {};
    std::string list = "types:";
    for (std::string_view k : known) list += (list.size() > 6 ? ", " : " ") + std::string(k);
    return list;
}

// True, said on stderr, when --type names no record type of `format` (an input detected as a
// format the types are not of: `--type span` on a paddle log would write nothing, in silence).
template <class Formats>
bool selects_nothing(const type_filter& types, const char* path, std::string_view format) {
    if (types.types.empty()) return false;
    for (const std::string& t : types.types)
        if (unknown_type<Formats>(t, format).empty()) return false;
    std::fprintf(stderr, "logscan: %s: --type selects no record type of %.*s (%s)\n", path, static_cast<int>(format.size()),
                 format.data(), unknown_type<Formats>(types.types.front(), format).c_str());
    return true;
}

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
    bool gzip = false;  // (the input is decompressed: its data is checked at its end)
    bool may_be_empty = false; // (blank, or its head shows its format's signals: no record need come of it)
    bool blank = false;        // (the whole input is blanks: no document in it began)
    logscan::input_tail tail;  // (whether the input ends inside a line)
    bool document = false;     // (the input is a JSON document: read on one thread, its break said)
    logscan::chunk next() {
        logscan::chunk c = inner.next();
        p.add(c.data.size());
        tail.see(c);
        return c;
    }
};

// Where a JSON document of a gzip input broke (`e`, at a line or in its shape): the rest of
// the stream is read (not counted as read for the parse), and its failure returned: corrupt
// data decompresses to bytes that may break the document, and only the stream's check, at
// its end, finds it (logscan::rest_failure). No error for any other input or outcome, or a
// stream that ends clean.
template <class Source>
logscan::error failure_after_break(counted_source<Source>& src, const logscan::error& e) {
    if (!src.gzip || e.ok() || e.code == logscan::error_code::stopped || logscan::source_failed(e)) return {};
    return logscan::rest_failure(src.inner);
}

// An input as the command reads it: decompressed when its first bytes are gzip's (1f 8b), files
// and pipes alike (logscan/gzip.hpp, when the command is built with zlib: LOGSCAN_CLI_GZIP),
// and read as UTF-8 when it is UTF-16 with its byte order mark (logscan/utf16.hpp: what
// Windows PowerShell 5.1 writes for `... > train.log`). Not movable: made in place.
template <class Source>
struct cli_input {
#if LOGSCAN_CLI_GZIP
    using bytes_source = logscan::maybe_gzip_source<Source>;
    explicit cli_input(Source& file) : bytes(file), text(bytes) {}
    bool gzip() const noexcept { return bytes.gzip(); }
#else
    using bytes_source = logscan::replay_source<Source>;
    explicit cli_input(Source& file) : bytes{{}, file, true, false}, text(bytes) {}
    bool gzip() const noexcept { return false; }
#endif
    cli_input(const cli_input&) = delete;
    cli_input& operator=(const cli_input&) = delete;
    logscan::chunk next() { return text.next(); }
    bytes_source bytes;
    logscan::maybe_utf16_source<bytes_source> text;
};
template <class Source>
cli_input<Source> input_of(Source& file) {
    return cli_input<Source>(file);
}
template <class Source>
bool is_gzip(const cli_input<Source>& src) {
    return src.gzip();
}

// What a JSON document's break adds: when a token was longer than the scratch buffer (the JSON
// reader's words name its option), the command's option that raises it; when the input ends
// inside the document, that it ends there (a killed job's dump is cut short), unless the input
// is blank (`blank`: no document began).
inline const char* break_hint(const logscan::error& e, bool blank) {
    if (e.code == logscan::error_code::unexpected_end) return blank ? "" : "; the input ends there, inside the document: cut short?";
    return e.code == logscan::error_code::too_long ? "; --max-event BYTES reads longer ones" : "";
}

// Runs the format's ndjson_visitor over `src` into writer `w`; counts error records (`first`:
// the first of them). Errors
// in the input are records (counted): the returned error is the source's (I/O) only. Where a
// JSON document breaks, its record says only that (formats.md: `invalid JSON document`), so
// where and why is said on stderr, for input `shown` (nullptr: quiet).
template <class Formats, class Writer, class Source>
logscan::error run_format(std::string_view format, Source& src, Writer& w, std::uint64_t& errors, logscan::error& first,
                          const logscan::format_options& fo, const char* shown) {
    logscan::error e{};
    logscan::with_format(Formats{}, format, [&]<class F>() { e = format_ops<F>::records(src, w, errors, first, fo); });
    // the source's failure (a read, a cut or corrupt gzip stream: no line) fails the input; a
    // JSON document's own break (its line) is a record, said below
    if (logscan::source_failed(e) || shown == nullptr) return logscan::source_failed(e) ? e : logscan::error{};
    if (e.line != 0 && e.code != logscan::error_code::stopped)
        std::fprintf(stderr, "logscan: %s:%llu:%llu: %.*s (the document breaks there; the records before it are written%s)\n",
                     shown, static_cast<unsigned long long>(e.line), static_cast<unsigned long long>(e.column),
                     static_cast<int>(e.message.size()), e.message.data(), break_hint(e, src.blank));
    return failure_after_break(src, e); // (a corrupt gzip stream: what broke the document)
}

// --threads: the formats whose inputs can be cut into parts parsed in parallel.
template <class Formats>
bool splittable(std::string_view format) {
    bool yes = false;
    logscan::with_format(Formats{}, format, [&]<class F>() { yes = F::splittable; });
    return yes;
}

// Runs the format's ndjson_visitor over `src` in parts (logscan/parallel.hpp), each writing to an Out made
// from `ctx`; `drain(out)` takes a kept part's output, in input order. The format is
// splittable.
template <class Formats, class Out>
logscan::error run_format_parts(std::string_view format, logscan::source_ref src, const logscan::parts_options& po,
                                const typename Out::context& ctx, const std::function<void(Out&)>& drain,
                                std::uint64_t& errors, logscan::error& first, logscan::parts_count& count,
                                const logscan::format_options& fo) {
    logscan::error e{};
    logscan::with_format(Formats{}, format,
                         [&]<class F>() { e = format_ops<F>::parts(src, po, ctx, drain, errors, first, count, fo); });
    return e;
}

// A source's failure in words: its message, with the errno's words where the message is
// only the code's name (a read, an open).
inline std::string failure_text(const logscan::error& e) {
    std::string t(e.message);
    if (e.sys_errno != 0 && e.message == logscan::to_string(e.code)) t += std::string(" (") + std::strerror(e.sys_errno) + ")";
    return t;
}

// Why no format was told from an input's head, in words: compressed data logscan does not
// undo (with the command that writes it out), or no format's signals.
inline std::string not_recognised(std::string_view head, const char* shown) {
    const logscan::compression c = logscan::unread_compression(head);
    if (c.name.empty()) return "format not recognised (give --format; see logscan detect --help)";
    return c.what() + ": " + std::string(c.command) + " " + shown + " | logscan ... -";
}

inline void report_failure(const char* path, const logscan::error& e) {
    std::fprintf(stderr, "logscan: %s: %s\n", path, failure_text(e).c_str());
}
// The same for a read that may have ended early after `bytes` bytes of data (a cut gzip
// stream): where, and what became of the records before it (`kept`: "written", "counted").
// (Corrupt data is found by the stream's check at its end: no place to say.)
inline void report_failure(const char* path, const logscan::error& e, std::uint64_t bytes, const char* kept) {
    if (!logscan::source_failed(e) || e.code != logscan::error_code::unexpected_end || bytes == 0) return report_failure(path, e);
    std::fprintf(stderr, "logscan: %s: %s after %llu bytes of data; the records before it are %s\n", path,
                 failure_text(e).c_str(), static_cast<unsigned long long>(bytes), kept);
}

// An input that yielded nothing of its format, only `text`, or nothing at all where something
// was to be expected (a file of another kind given with --format, or detected from a few
// lines; `may_be_empty`: see yield_tally::none_of_format): said on standard error, status 1.
inline int check_yield(const char* path, std::string_view format, const logscan_cli::tally& t, bool may_be_empty) {
    if (!t.none_of_format(may_be_empty)) return 0;
    std::fprintf(stderr, "logscan: %s\n", t.none_message(path, format).c_str());
    return 1;
}

inline std::uint64_t file_size(const char* path) {
    struct stat st{};
    if (std::strcmp(path, "-") == 0) return ::fstat(0, &st) == 0 && S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
    return ::stat(path, &st) == 0 && S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
}

// Creates the directory `dir` and each parent it lacks, as `mkdir -p`, unless it exists; false,
// said, when it cannot.
inline bool make_dir(const std::string& dir) {
    struct stat st{};
    const auto made = [&](const std::string& d) {
        return ::mkdir(d.c_str(), 0777) == 0 || (errno == EEXIST && ::stat(d.c_str(), &st) == 0 && S_ISDIR(st.st_mode));
    };
    const auto fail = [](const std::string& d) {
        if (errno == EEXIST) errno = ENOTDIR;
        std::fprintf(stderr, "logscan: cannot create %s: %s\n", d.c_str(), std::strerror(errno));
        return false;
    };
    for (std::size_t at = dir.find('/', 1); at != std::string::npos; at = dir.find('/', at + 1))
        if (dir[at - 1] != '/' && !made(dir.substr(0, at))) return fail(dir.substr(0, at)); // (the parent that cannot be made, named)
    return made(dir) || fail(dir);
}

// One input: open, detect (unless `forced`), then `f(format, source)`. Returns 1 when the
// input could not be read or its format is unknown (reported as `shown`, the name the user
// gave: `path` may be a spooled copy; not at all when `quiet`), else what f returns.
template <class Formats, class F>
int with_format(const char* path, std::string_view forced, progress& prog, F&& f, const char* shown = nullptr,
                bool quiet = false) {
    if (shown == nullptr) shown = path;
    int status = 0;
    prog.total = file_size(path);
    prog.done = 0;
    prog.start = prog.last = std::chrono::steady_clock::now();
    const logscan::error e = logscan::with_input(path, [&](auto& opened) -> logscan::error {
        logscan::source_ref file = opened; // (one source type for files and standard input)
        auto src = input_of(file);         // (decompressed when it is gzip)
        std::string head;
        bool more = true;
        // (a failure after some bytes, a cut gzip stream: those bytes are read, then the failure)
        const logscan::error h = logscan::read_head(src, head, more);
        if (!h.ok() && head.empty()) return h;
        if (is_gzip(src) || src.text.utf16()) prog.total = 0; // (the file's size is not the bytes read)
        // (what detection reads of the head, and whether more of the input follows it)
        const logscan::detect_view view = logscan::detect_window(head, more);
        const std::string_view window = view.window;
        const bool cut = view.cut;
        std::string_view format = forced;
        if (format.empty()) {
            format = logscan::detect_format<Formats>(window, cut)
                         .format;
            if (format.empty() && !h.ok()) return h; // (no format in what it gave: its failure is what to say)
            if (format.empty() && !more && logscan::blank_input(head)) {
                // nothing but blank lines: no format to tell, and no record in any
                if (!quiet) std::fprintf(stderr, "logscan: %s\n", logscan::empty_input_message(shown).c_str());
                return {};
            }
            if (format.empty()) {
                if (!quiet)
                    std::fprintf(stderr, "logscan: %s: %s\n", shown, not_recognised(head, shown).c_str());
                status = 1;
                return {};
            }
        } else if (!quiet) { // (read as asked; said when it looks like another format)
            const std::string_view other = logscan::looks_like_instead<Formats>(
                window, format, cut);
            if (!other.empty())
                std::fprintf(stderr, "logscan: %s: read as %.*s as asked, but it looks like %.*s\n", shown,
                             static_cast<int>(format.size()), format.data(), static_cast<int>(other.size()), other.data());
        }
        using S = std::remove_reference_t<decltype(src)>;
        logscan::replay_source<S> replay{head, src};
        replay.inner_done = !more;
        replay.end = logscan::head_failure(h);
        const bool blank = !more && h.ok() && logscan::blank_input(head); // (an empty input, the whole of it read)
        counted_source<logscan::replay_source<S>> counted{replay, prog, is_gzip(src),
                                                          logscan::blank_input(head) || logscan::shows_format<Formats>(window, format, cut),
                                                          blank, {}, logscan::json_document(head)};
        status = f(format, counted);
        // (an empty input read as asked: said as without --format, unless it gave an error
        // record, as a JSON format's blank input does: its break is what is said)
        if (!quiet && blank && status == 0) std::fprintf(stderr, "logscan: %s\n", logscan::empty_input_message(shown).c_str());
        // (a log cut inside its last line: the record read from it may be cut short, said)
        if (!quiet && !blank && counted.tail.ends_inside_line() && !logscan::json_document(head))
            std::fprintf(stderr, "logscan: %s\n", logscan::cut_line_message(shown).c_str());
        return {};
    });
    prog.end();
    if (!e.ok()) {
        if (!quiet) report_failure(shown, e);
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
    std::size_t top_cpu_ops = 20; // (summary, chrome-trace)
    bool json = false;            // (summary: --json)
    logscan::parts_options parts{1, std::size_t{256} << 10};
    std::vector<const char*> files;
    logscan::format_options parse{}; // the parsers' settings: --max-line, --max-event
};

// Parses the options of convert and stats; returns 0, or the usage error status (2) after
// reporting it, or -1 after printing the command's help.
template <class Formats>
int parse_options(int argc, char** argv, options& o, const std::string& help, bool convert, bool summary = false) {
    if (summary) o.parts.part_bytes = summary_part_bytes;
    bool part_size_given = false;
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
            std::fputs(help.c_str(), stdout);
            return -1;
        } else if (is("--format")) {
            if (!value("--format", o.format)) return usage_error<Formats>("--format needs a value");
            if (!logscan::has_format(Formats{}, o.format))
                return usage_error<Formats>("unknown format '" + o.format + "' (formats: " + format_names<Formats>() + ")");
        } else if (convert && is("--to")) {
            if (!value("--to", o.to)) return usage_error<Formats>("--to needs a value");
            if (o.to != "ndjson" && o.to != "csv") return usage_error<Formats>("--to is ndjson or csv");
        } else if (convert && is("--type")) {
            std::string list;
            if (!value("--type", list)) return usage_error<Formats>("--type needs a value");
            for (std::size_t p = 0; p <= list.size();) {
                std::size_t c = list.find(',', p);
                if (c == std::string::npos) c = list.size();
                if (c > p) o.types.types.push_back(list.substr(p, c - p));
                p = c + 1;
            }
        } else if (is("--threads")) {
            std::string n;
            if (!value("--threads", n)) return usage_error<Formats>("--threads needs a number");
            const auto v = logscan::parse_number<unsigned>(n);
            if (!v.ok() || v.value == 0 || v.value > 256) return usage_error<Formats>("--threads needs a number from 1 to 256");
            o.parts.threads = v.value;
        } else if (is("--part-size")) {
            std::string n;
            if (!value("--part-size", n)) return usage_error<Formats>("--part-size needs a number of bytes");
            const auto v = logscan::parse_number<std::size_t>(n);
            if (!v.ok() || v.value == 0 || v.value > (std::size_t{1} << 30)) return usage_error<Formats>("--part-size needs a number of bytes from 1 to 2^30");
            o.parts.part_bytes = v.value;
            part_size_given = true;
        } else if (is("--max-line")) {
            std::string n;
            if (!value("--max-line", n)) return usage_error<Formats>("--max-line needs a number of bytes");
            const auto v = logscan::parse_number<std::size_t>(n);
            if (!v.ok() || v.value == 0 || v.value > (std::size_t{1} << 31)) return usage_error<Formats>("--max-line needs a number of bytes from 1 to 2^31");
            o.parse.max_line = v.value;
        } else if (is("--max-event")) {
            std::string n;
            if (!value("--max-event", n)) return usage_error<Formats>("--max-event needs a number of bytes");
            const auto v = logscan::parse_number<std::size_t>(n);
            if (!v.ok() || v.value == 0 || v.value > (std::size_t{1} << 30)) return usage_error<Formats>("--max-event needs a number of bytes from 1 to 2^30");
            o.parse.scratch_capacity = v.value;
        } else if (convert && is("--out-dir")) {
            if (!value("--out-dir", o.out_dir)) return usage_error<Formats>("--out-dir needs a value");
        } else if (convert && a == "--with-filename") {
            o.with_filename = true;
        } else if (summary && is("--svg")) {
            if (!value("--svg", o.svg_dir)) return usage_error<Formats>("--svg needs a directory");
        } else if (summary && a == "--json") {
            o.json = true;
        } else if (summary && (is("--top-cpu-ops") || is("--top"))) {
            const std::string_view name = is("--top") ? "--top" : "--top-cpu-ops";
            std::string k;
            if (!value(name, k)) return usage_error<Formats>(std::string(name) + " needs a number");
            const auto n = logscan::parse_number<std::size_t>(k);
            if (!n.ok() || n.value == 0) return usage_error<Formats>(std::string(name) + " needs a positive number");
            (name == "--top" ? o.top : o.top_cpu_ops) = n.value;
        } else if (a.size() > 1 && a[0] == '-') {
            return usage_error<Formats>("unknown option '" + std::string(a) + "'");
        } else {
            o.files.push_back(argv[i]);
        }
    }
    if (o.files.empty()) return usage_error<Formats>("no FILE given (- reads standard input)");
    for (const std::string& t : o.types.types) // a misspelt type would select nothing, in silence
        if (std::string known = unknown_type<Formats>(t, o.format); !known.empty())
            return usage_error<Formats>("--type: '" + t + "' is no record type of " + (o.format.empty() ? std::string("any format") : o.format) +
                               " (" + known + ")");
    if (part_size_given && o.parts.threads == 1) // (ignored, not in silence; not an error: --threads "$(nproc)" may be 1)
        std::fprintf(stderr, "logscan: note: --part-size applies with --threads N (N > 1); one thread reads each input whole\n");
    if (o.parts.threads > 1 && o.to == "csv") return usage_error<Formats>("--threads is for NDJSON output (and stats); CSV is written by one thread");
    return 0;
}

// The note on an input's error records (convert, stats, summary): `N error record(s); the
// first at line L:C: MESSAGE` (logscan::error_records_note), and the option that reads a line
// or an object too long for the defaults.
inline std::string error_note(std::uint64_t errors, const logscan::error& first) {
    std::string s = logscan::error_records_note(errors, first);
    if (first.code == logscan::error_code::line_too_long) s += " (--max-line BYTES reads longer lines)";
    else if (first.code == logscan::error_code::too_long) s += " (--max-event BYTES reads larger objects)";
    return s;
}

// The note for --threads on a format that one thread reads.
template <class Formats>
void one_thread_note(const options& o, const char* path, std::string_view format) {
    if (o.parts.threads > 1 && !splittable<Formats>(format))
        std::fprintf(stderr, "logscan: %s: %.*s is read by one thread (--threads applies to %s)\n", path,
                     static_cast<int>(format.size()), format.data(), splittable_names<Formats>().c_str());
}

template <class Formats>
int cmd_detect(int argc, char** argv) {
    std::vector<const char*> files;
    for (int i = 2; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--help" || a == "-h") {
            std::fputs(detect_help<Formats>().c_str(), stdout);
            return 0;
        }
        if (a.size() > 1 && a[0] == '-') return usage_error<Formats>("unknown option '" + std::string(a) + "'");
        files.push_back(argv[i]);
    }
    if (files.empty()) return usage_error<Formats>("no FILE given (- reads standard input)");
    int status = 0;
    for (const char* path : files) {
        std::string head;
        bool more = true;
        const logscan::error e = logscan::with_input(path, [&](auto& opened) {
            logscan::source_ref file = opened;
            auto src = input_of(file);
            return logscan::read_head(src, head, more);
        });
        // (an input that fails after some bytes, a cut gzip stream: its format told from them
        // when they show it, and the failure said; status 1 either way)
        const logscan::detect_view view = logscan::detect_window(head, more);
        const logscan::detection d = head.empty() ? logscan::detection{} : logscan::detect_format<Formats>(view.window, view.cut);
        if (!e.ok() && d.format.empty()) {
            report_failure(path, e);
            status = 1;
            continue;
        }
        std::printf("%s: %s\n", path, d.format.empty() ? "unknown" : std::string(d.format).c_str());
        if (d.format.empty() && e.ok() && !more && logscan::blank_input(head)) { // (as convert, stats and summary say it)
            std::fflush(stdout);
            std::fprintf(stderr, "logscan: %s: empty input, no format to tell\n", path);
        }
        if (d.format.empty() && !logscan::unread_compression(head).name.empty()) {
            std::fflush(stdout);
            std::fprintf(stderr, "logscan: %s: %s\n", path, not_recognised(head, path).c_str());
        }
        if (!e.ok()) {
            std::fflush(stdout);
            std::fprintf(stderr, "logscan: %s: %s after %zu bytes (the format is told from them)\n", path,
                         failure_text(e).c_str(), head.size());
        }
        if (d.format.empty() || !e.ok()) status = 1;
    }
    return status;
}

template <class Formats>
int cmd_convert_ndjson(const options& o) {
    logscan_cli::ndjson_file_out out(stdout);
    logscan_cli::filter_writer<logscan_cli::ndjson_out> w(out, o.types);
    progress prog;
    prog.on = ::isatty(2) != 0;
    int status = 0;
    for (const char* path : o.files) {
        if (o.with_filename) w.set_file(path);
        status |= with_format<Formats>(path, o.format, prog, [&](std::string_view format, auto& src) {
            if (selects_nothing<Formats>(o.types, path, format)) return 1;
            std::uint64_t errors = 0;
            logscan::error e{}, first{};
            one_thread_note<Formats>(o, path, format);
            logscan_cli::tally seen;
            // (a JSON document is one part whatever the threads: read on one, where its break is said)
            if (o.parts.threads > 1 && splittable<Formats>(format) && !src.document) {
                logscan::parts_count count;
                bool written = out.flush();
                e = run_format_parts<Formats, ndjson_part>(format, src, o.parts, {&o.types, o.with_filename ? std::string(path) : std::string()},
                                                  [&](ndjson_part& p) { // (what the part holds so far)
                                                      seen.add(p.fw.seen);
                                                      p.fw.seen = {};
                                                      written = p.drain(stdout) && written;
                                                  },
                                                  errors, first, count, o.parse);
                if (!written) return output_failed();
            } else {
                w.seen = {};
                e = run_format<Formats>(format, src, w, errors, first, o.parse, path);
                seen = w.seen;
            }
            if (!e.ok()) {
                report_failure(path, e, prog.done, "written");
                // (the error records of what was read before it, said as summary says them)
                if (errors != 0) std::fprintf(stderr, "logscan: %s: %s\n", path, error_note(errors, first).c_str());
                return 1;
            }
            if (errors != 0) {
                std::fprintf(stderr, "logscan: %s: %s\n", path, error_note(errors, first).c_str());
                return 1;
            }
            return check_yield(path, format, seen, src.may_be_empty);
        });
    }
    if (!out.flush() || std::fflush(stdout) != 0) return output_failed();
    return status;
}

// CSV: a first pass gathers the columns of every type, a second writes the rows (standard
// input is spooled to a temporary file for the second pass).
template <class Formats>
int cmd_convert_csv(options& o) {
    if (o.out_dir.empty() && o.types.types.size() != 1)
        return usage_error<Formats>("--to csv writes one table per record type: give --type T (one type) or --out-dir DIR");
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
    for (const std::string& p : paths) // (quiet: the second pass says what there is to say)
        (void)with_format<Formats>(
            p.c_str(), o.format, prog,
            [&](std::string_view format, auto& src) {
                std::uint64_t errors = 0;
                logscan::error first{}; // (said by the second pass)
                return run_format<Formats>(format, src, cols, errors, first, o.parse, nullptr).ok() ? 0 : 1;
            },
            nullptr, true);
    logscan_cli::csv_writer w;
    std::vector<std::FILE*> opened;
    if (!o.out_dir.empty() && !make_dir(o.out_dir)) return 1;
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
        status |= with_format<Formats>(paths[i].c_str(), o.format, prog, [&](std::string_view format, auto& src) {
            if (selects_nothing<Formats>(o.types, shown, format)) return 1;
            std::uint64_t errors = 0;
            w.seen = {};
            w.given_twice = 0;
            logscan::error first{};
            const logscan::error e = run_format<Formats>(format, src, w, errors, first, o.parse, shown);
            if (w.given_twice != 0) // (no value lost unseen: the last of them is written)
                std::fprintf(stderr,
                             "logscan: %s: %llu cell(s) given twice in a row (a key repeated in an object, or dotted names that "
                             "meet: \"a.b\" and \"a\": {\"b\"}); the last is written; the first: %s\n",
                             shown, static_cast<unsigned long long>(w.given_twice), w.first_twice.c_str());
            if (!e.ok()) {
                report_failure(shown, e, prog.done, "written");
                // (the error records of what was read before it, said as summary says them)
                if (errors != 0) std::fprintf(stderr, "logscan: %s: %s\n", shown, error_note(errors, first).c_str());
                return 1;
            }
            if (errors != 0) {
                std::fprintf(stderr, "logscan: %s: %s\n", shown, error_note(errors, first).c_str());
                return 1;
            }
            return check_yield(shown, format, w.seen, src.may_be_empty);
        }, shown);
    }
    bool ok = true;
    for (auto& [type, t] : w.tables) ok = ok && t.ok;
    for (std::FILE* f : opened) ok = (std::fclose(f) == 0) && ok;
    if (std::fflush(stdout) != 0) ok = false;
    if (!ok) return output_failed();
    return status;
}

template <class Formats>
int cmd_stats(const options& o) {
    int status = 0;
    progress prog;
    prog.on = ::isatty(2) != 0;
    for (const char* path : o.files) {
        logscan_cli::count_writer w;
        std::uint64_t errors = 0;
        logscan::error first{};
        std::string_view used;
        logscan::parts_count parts;
        const auto t0 = std::chrono::steady_clock::now();
        const int s = with_format<Formats>(path, o.format, prog, [&](std::string_view format, auto& src) {
            used = format;
            one_thread_note<Formats>(o, path, format);
            const logscan::error e = o.parts.threads > 1 && splittable<Formats>(format) && !src.document
                                         ? run_format_parts<Formats, count_part>(format, src, o.parts, {},
                                                                        [&](count_part& p) {
                                                                            w.add(p.c);
                                                                            p.clear();
                                                                        },
                                                                        errors, first, parts, o.parse)
                                         : run_format<Formats>(format, src, w, errors, first, o.parse, path);
            if (!e.ok()) {
                report_failure(path, e, prog.done, "counted");
                // (the error records of what was read before it, said as summary says them)
                if (errors != 0) std::fprintf(stderr, "logscan: %s: %s\n", path, error_note(errors, first).c_str());
                return 1;
            }
            if (errors != 0) { // (counted below; the first said here, as convert says it)
                std::fprintf(stderr, "logscan: %s: %s\n", path, error_note(errors, first).c_str());
                return 1;
            }
            return check_yield(path, format, w.seen(), src.may_be_empty);
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
        if (o.parts.threads > 1 && splittable<Formats>(used)) 
            std::printf("  threads  %u (%llu %s read in parallel; %llu %s read again by the parser before, a record across the cut)\n",
                        o.parts.threads, static_cast<unsigned long long>(parts.kept), parts.kept == 1 ? "part" : "parts",
                        static_cast<unsigned long long>(parts.redone), parts.redone == 1 ? "part" : "parts");
        std::printf("  bytes    %llu\n  elapsed  %.3f s\n  speed    %.1f MB/s\n", static_cast<unsigned long long>(prog.done), secs,
                    secs > 0 ? static_cast<double>(prog.done) / secs / 1e6 : 0.0);
    }
    return status;
}

template <class Formats>
int cmd_summary(const options& o) {
    namespace sm = logscan_cli::summary;
    int status = 0;
    progress prog;
    prog.on = ::isatty(2) != 0;
    sm::job_reports<Formats> jobs; // the reports over every file of their format
    std::vector<std::string> job_files;
    if (!o.svg_dir.empty() && !make_dir(o.svg_dir)) return 1;
    std::set<std::string, std::less<>> stems; // the charts' names so far (two runs' train.log: train.log, train.log-2)
    for (const char* path : o.files) {
        sm::settings set{o.top, o.top_cpu_ops, o.svg_dir, {}};
        const std::string_view base = std::string_view(path).substr(std::string_view(path).find_last_of('/') + 1);
        set.stem = std::strcmp(path, "-") == 0 ? "stdin" : std::string(base);
        set.stem = sm::file_part(set.stem); // (as the charts are named)
        for (int n = 2; stems.count(set.stem) != 0; ++n) // (taken: `-2`, `-3`, ... until a free one)
            if (stems.count(set.stem + "-" + std::to_string(n)) == 0) set.stem += "-" + std::to_string(n);
        stems.insert(set.stem);
        status |= with_format<Formats>(path, o.format, prog, [&](std::string_view format, auto& src) {
            // the format's report reads the records it wants; every record is counted (an
            // input that yielded none but text has no report; error records fail the run)
            bool rejected = false; // (nothing of its format read: said, and no part of a job's report)
            auto go = [&]<class F>(typename format_ops<F>::report& v, bool whole_job) {
                summary_parse seen;
                bool parted = false; // (a report that reads a file in parts, with --threads)
                if constexpr (requires { v.read_in_parts(src, o.parts, o.parse, path); }) {
                    if (o.parts.threads > 1) {
                        std::tie(seen.e, seen.records, seen.errors) = v.read_in_parts(src, o.parts, o.parse, path);
                        parted = true;
                    }
                } else if (o.parts.threads > 1) {
                    std::fprintf(stderr, "logscan: %s: %.*s's summary is read by one thread (--threads applies to %s)\n", path,
                                 static_cast<int>(format.size()), format.data(), parted_summaries<Formats>().c_str());
                }
                if (!parted) seen = format_ops<F>::summarize(src, v, o.parse);
                // (a JSON document's break: said; in a gzip input, the rest of the stream is
                // read, whose check may find the corrupt data that broke it)
                if (!logscan::source_failed(seen.e) && seen.e.line != 0 && seen.e.code != logscan::error_code::stopped)
                    std::fprintf(stderr, "logscan: %s:%llu:%llu: %.*s (the document breaks there; the summary is of the records before it%s)\n",
                                 path, static_cast<unsigned long long>(seen.e.line), static_cast<unsigned long long>(seen.e.column),
                                 static_cast<int>(seen.e.message.size()), seen.e.message.data(), break_hint(seen.e, src.blank));
                if (const logscan::error rest = failure_after_break(src, seen.e); !rest.ok()) seen.e = rest;
                // (a read failed, a gzip stream was cut or corrupt: reported, and the report is
                // of the records read before it, as convert and stats keep them; errors in the
                // input are records: counted)
                const bool failed = logscan::source_failed(seen.e);
                prog.end();
                if (failed) {
                    report_failure(path, seen.e);
                    if (seen.records == 0) {
                        rejected = true;
                        return 1;
                    }
                    // (corrupt gzip data is found by zlib late, at an invalid code or the
                    // member's check: records before that may hold some of it, said)
#if LOGSCAN_CLI_GZIP
                    const bool corrupt = seen.e.code == logscan::error_code::syntax &&
                                         seen.e.message == logscan::gzip_source<logscan::memory_source>::corrupt_message;
#else
                    const bool corrupt = false;
#endif
                    std::fprintf(stderr, "logscan: %s: the summary is of the %llu record(s) read before that%s\n", path,
                                 static_cast<unsigned long long>(seen.records),
                                 corrupt ? " (gzip finds corrupt data late: some of those may hold bytes of it)" : "");
                }
                if (!failed && seen.errors == 0 && check_yield(path, format, tally{seen.records, seen.text}, src.may_be_empty) != 0) {
                    rejected = true;
                    return 1;
                }
                if (seen.errors != 0) {
                    // (the first one's place and words, where the report keeps them)
                    std::string note;
                    if constexpr (requires { v.error_note(); }) note = v.error_note();
                    if (note.empty()) note = error_note(seen.errors, seen.first);
                    std::fprintf(stderr, "logscan: %s: %s\n", path, note.c_str());
                }
                const bool clean = !failed && seen.errors == 0;
                if (whole_job) return clean ? 0 : 1; // (printed once every file is read)
                std::printf("%s: %.*s\n", path, static_cast<int>(format.size()), format.data());
                const bool printed = v.print(set);
                return printed && clean ? 0 : 1;
            };
            int r = 1;
            logscan::with_format(Formats{}, format, [&]<class F>() {
                if constexpr (sm::whole_job<F>) {
                    auto& job = jobs.template of<F>();
                    job.begin_file(path);
                    r = go.template operator()<F>(job, true);
                    if (rejected) { // (nothing of it read: no rank of the job)
                        job.drop_file();
                    } else {
                        job.end_file();
                        job_files.emplace_back(path);
                    }
                } else if constexpr (requires { typename sm::of<F>::type; }) {
                    if (o.json) {
                        std::fprintf(stderr, "logscan: %s: %.*s's summary has no --json form (the report is text)\n", path,
                                     static_cast<int>(format.size()), format.data());
                        return;
                    }
                    typename sm::of<F>::type v{};
                    r = go.template operator()<F>(v, false);
                } else {
                    std::fprintf(stderr, "logscan: %s: %.*s has no summary report (its records: logscan convert)\n", path,
                                 static_cast<int>(format.size()), format.data());
                }
            });
            return r;
        });
    }
    // the whole-job reports, once every file is read
    logscan::for_each_format(Formats{}, [&]<class F>() {
        if constexpr (sm::whole_job<F>) {
            auto& job = jobs.template of<F>();
            if (job.files() == 0) return;
            sm::settings set{o.top, o.top_cpu_ops, o.svg_dir, std::string(F::name)};
            if (o.json) {
                std::printf("%s\n", job.json(set).c_str());
                return;
            }
            std::string names;
            for (const std::string& f : job_files) names += (names.empty() ? "" : ", ") + f;
            std::printf("%s: %.*s (%zu %s of one job)\n", names.c_str(), static_cast<int>(F::name.size()), F::name.data(),
                        job.files(), job.files() == 1 ? "file" : "files");
            if (!job.print(set)) status |= 1;
        }
    });
    return status;
}

// The command, its output not yet known to be written (run).
template <class Formats>
int run_command(int argc, char** argv) {
    if (argc < 2) return usage_error<Formats>("no command given");
    const std::string_view cmd = argv[1];
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        std::fputs(usage_text<Formats>().c_str(), stdout);
        return 0;
    }
    if (cmd == "--version") {
        std::printf("logscan %s\n", LOGSCAN_VERSION_STRING);
        return 0;
    }
    if (cmd == "detect") return cmd_detect<Formats>(argc, argv);
    if (cmd == "convert" || cmd == "stats" || cmd == "summary") {
        options o;
        const int r = parse_options<Formats>(argc, argv, o,
                                             cmd == "convert" ? convert_help<Formats>()
                                             : cmd == "stats" ? stats_help<Formats>()
                                                              : summary_help<Formats>(),
                                             cmd == "convert", cmd == "summary");
        if (r == -1) return 0;
        if (r != 0) return r;
        if (cmd == "stats") return cmd_stats<Formats>(o);
        if (cmd == "summary") return cmd_summary<Formats>(o);
        if (o.to == "csv") return cmd_convert_csv<Formats>(o);
        if (!o.out_dir.empty()) return usage_error<Formats>("--out-dir is for --to csv");
        return cmd_convert_ndjson<Formats>(o);
    }
    return usage_error<Formats>("unknown command '" + std::string(cmd) + "' (commands: detect, convert, stats, summary)");
}

// The command: `logscan_cli::run<logscan::all_formats>(argc, argv)` is logscan's main. Whatever
// the command (--help too), output that could not be written — a full disk, a closed
// descriptor — is said and exits 1 (or the usage error's 2), never a silent success.
template <class Formats>
int run(int argc, char** argv) {
    const int status = run_command<Formats>(argc, argv);
    if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
        (void)output_failed();
        return status == 0 ? 1 : status;
    }
    return status;
}

} // namespace logscan_cli

#endif // LOGSCAN_COMMAND_COMMAND_HPP
