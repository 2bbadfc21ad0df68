// SPDX-License-Identifier: MIT
// Shared helpers of the benchmark programs: argument parsing, inputs built from the bundled
// samples, best-of-N timers (one contender, or several taking turns), and the result table (MB/s and the ratio to a reference row).
#ifndef LOGSCAN_BENCH_UTIL_HPP
#define LOGSCAN_BENCH_UTIL_HPP

#include <logscan/source.hpp>
#include <logscan/visit.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <cstdint>
#include <string_view>
#include <vector>

namespace bench {

/// Command-line options shared by every benchmark: `--mb N` (input size), `--runs N`.
struct options {
    double mb;
    int runs = 5;
};
inline options parse_args(int argc, char** argv, double default_mb) {
    options o{default_mb};
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--mb") == 0) o.mb = std::atof(argv[++i]);
        else if (std::strcmp(argv[i], "--runs") == 0) o.runs = std::max(1, std::atoi(argv[++i]));
    }
    return o;
}

/// The bytes of a file (exits when it cannot be read).
inline std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot open %s\n", path.c_str());
        std::exit(2);
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// The bytes of samples/<name>.
inline std::string sample(std::string_view name) {
    return read_file(std::string(LOGSCAN_SOURCE_DIR) + "/samples/" + std::string(name));
}

/// `unit` repeated (whole copies, each ending in a newline) until at least `mb` MB.
inline std::string repeat_to(std::string unit, double mb) {
    if (!unit.empty() && unit.back() != '\n') unit.push_back('\n');
    const auto target = static_cast<std::size_t>(mb * 1e6);
    std::string out;
    out.reserve(target + unit.size());
    while (out.size() < target) out += unit;
    return out;
}

/// Writes `text` to a new temporary file and returns its path (the caller removes it).
inline std::string temp_file(std::string_view text, const char* stem = "logscan_bench") {
    std::string path = std::string("/tmp/") + stem + "_XXXXXX";
    const int fd = ::mkstemp(path.data());
    if (fd < 0 || ::write(fd, text.data(), text.size()) != static_cast<::ssize_t>(text.size())) {
        std::fprintf(stderr, "cannot write %s\n", path.c_str());
        std::exit(2);
    }
    ::close(fd);
    return path;
}

/// Lines and line bytes (without `\n`) of a file, by the streaming limit every reader is
/// measured against: page-aligned 256 KiB `read()`s and `memchr` for the newlines.
struct line_counts {
    std::uint64_t lines = 0, bytes = 0;
    bool operator==(const line_counts&) const = default;
};
inline line_counts memchr_file(const char* path) {
    line_counts c;
    const int fd = ::open(path, O_RDONLY);
    constexpr std::size_t size = std::size_t{256} << 10;
    char* buf = static_cast<char*>(std::aligned_alloc(4096, size));
    std::uint64_t line_len = 0;
    for (;;) {
        const ::ssize_t n = ::read(fd, buf, size);
        if (n <= 0) break;
        const char* p = buf;
        const char* end = buf + n;
        while (const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)))) {
            line_len += static_cast<std::uint64_t>(nl - p);
            c.bytes += line_len - (line_len && nl[-1] == '\r'); // approx. CR handling, none in samples
            ++c.lines;
            line_len = 0;
            p = nl + 1;
        }
        line_len += static_cast<std::uint64_t>(end - p);
    }
    if (line_len) {
        ++c.lines;
        c.bytes += line_len;
    }
    std::free(buf);
    ::close(fd);
    return c;
}

/// Calls `f(first, end)` for every whole line of a file (without its `\n`), read like the
/// streaming limit: every `read()` fills the same page-aligned 256 KiB window, and a line begun
/// in one read is moved to just before the window (a read whose target is not page-aligned,
/// `read(buf + kept)`, ran up to 5x slower on one machine): what a hand-written reader over a
/// file does when it is written for speed. A line longer than the window is delivered in
/// pieces (of 256 to 512 KiB).
template <class F>
void each_file_line(const char* path, F&& f) {
    const int fd = ::open(path, O_RDONLY);
    constexpr std::size_t size = std::size_t{256} << 10;
    char* buf = static_cast<char*>(std::aligned_alloc(4096, 2 * size));
    char* const window = buf + size;
    std::size_t kept = 0;
    for (;;) {
        const ::ssize_t n = ::read(fd, window, size);
        if (n <= 0) break;
        const char* p = window - kept;
        const char* end = window + n;
        while (const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)))) {
            f(p, nl);
            p = nl + 1;
        }
        kept = static_cast<std::size_t>(end - p);
        if (kept > size) { // (a line longer than the window: delivered in pieces)
            f(p, end);
            kept = 0;
        }
        std::memmove(window - kept, p, kept);
    }
    std::free(buf);
    ::close(fd);
}

/// Runs the Python reference `tests/reference/<script> --count <path>` once (it is slow) and
/// returns its wall time; `counts` receives its output line (records per type).
inline double python_script(const std::string& python, const std::string& script_path, const std::string& path,
                            std::string& counts) {
    const std::string out = path + ".py";
    const std::string cmd = python + " " + script_path + " --count " + path + " > " + out;
    const auto t0 = std::chrono::steady_clock::now();
    if (std::system(cmd.c_str()) != 0) {
        std::fprintf(stderr, "failed: %s\n", cmd.c_str());
        std::exit(1);
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    counts = read_file(out);
    while (!counts.empty() && counts.back() == '\n') counts.pop_back();
    std::remove(out.c_str());
    return s;
}

/// Runs tests/reference/SCRIPT --count on `path` with python3: seconds; `counts` its output.
inline double python_reference(const std::string& script, const std::string& path, std::string& counts) {
    return python_script("python3", std::string(LOGSCAN_SOURCE_DIR) + "/tests/reference/" + script, path, counts);
}

/// Keeps a value alive so the optimiser cannot drop the work that made it.
template <class T>
inline void keep(const T& v) {
    asm volatile("" : : "g"(&v) : "memory");
}

/// Runs `f` `runs` times and returns the best wall time in seconds.
template <class F>
double best_seconds(int runs, F&& f) {
    double best = 1e300;
    for (int r = 0; r < runs; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        const auto t1 = std::chrono::steady_clock::now();
        best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
    }
    return best;
}

/// Runs the contenders `fs...` in turns, `runs` rounds of one run each, and returns the best
/// wall time of each in seconds (in the order given): a noisy spell of the shared machine
/// then falls on every contender instead of on one, which keeps the ratios of one run honest.
template <class... F>
std::array<double, sizeof...(F)> best_seconds_turns(int runs, F&&... fs) {
    std::array<double, sizeof...(F)> best;
    best.fill(1e300);
    for (int r = 0; r < runs; ++r) {
        std::size_t i = 0;
        ((best[i] = std::min(best[i], best_seconds(1, fs)), ++i), ...);
    }
    return best;
}

/// A result table: rows of (name, seconds) over `bytes`; the first row added with
/// `reference = true` is the ratio's denominator.
class table {
public:
    table(std::string title, std::size_t bytes) : title_(std::move(title)), bytes_(bytes) {}
    void add(std::string name, double seconds, bool reference = false, std::string note = {}) {
        if (reference && ref_ < 0) ref_ = static_cast<int>(rows_.size());
        rows_.push_back({std::move(name), seconds, std::move(note)});
    }
    void print() const {
        std::printf("\n%s (%.1f MB)\n", title_.c_str(), static_cast<double>(bytes_) / 1e6);
        std::printf("  %-40s %10s %10s  %s\n", "contender", "MB/s", "ratio", "");
        const double ref = ref_ >= 0 ? rows_[static_cast<std::size_t>(ref_)].seconds : 0;
        for (const auto& r : rows_) {
            const double mbs = static_cast<double>(bytes_) / 1e6 / r.seconds;
            std::printf("  %-40s %10.1f %10.2f  %s\n", r.name.c_str(), mbs,
                        ref > 0 ? ref / r.seconds : 0.0, r.note.c_str());
        }
        std::fflush(stdout);
    }

private:
    struct row {
        std::string name;
        double seconds;
        std::string note;
    };
    std::string title_;
    std::size_t bytes_;
    std::vector<row> rows_;
    int ref_ = -1;
};

// A visitor that wants no record: the format leaves out every rule and table, and the input
// is only framed (the "validate_only" contender of the format benches).
struct nothing : logscan::validate_only {};

// False (said on stderr) when a contender that wants one record type counted other than
// the full visitor did.
inline bool same_count(const char* who, std::uint64_t got, std::uint64_t full) {
    if (got == full) return true;
    std::fprintf(stderr, "%s: %llu records, every record: %llu\n", who, (unsigned long long)got, (unsigned long long)full);
    return false;
}

// Runs `Format::parse` over the file with visitor `v` (exits on failure).
template <class Parse, class Visitor>
void parse_file(const std::string& path, Parse parse, Visitor& v) {
    logscan::file_source src(path.c_str());
    if (!parse(src, v).ok()) std::exit(1);
}

} // namespace bench

#endif
