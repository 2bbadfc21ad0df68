// SPDX-License-Identifier: MIT
// line_stats: line statistics of log files, streamed with logscan's file source and line
// framing (no allocation while reading, constant memory for any file size).
//
//   line_stats [--max-line BYTES] FILE...     ("-" reads standard input)
//
// For each file: lines, blank lines, bytes, the longest line and its number, lines holding
// ANSI colour sequences, and lines longer than the line buffer (reported with their numbers).
// On a terminal, progress is shown on stderr for inputs over 64 MiB.
#include <logscan/lines.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <unistd.h>

namespace {

struct stats {
    std::uint64_t lines = 0, blank = 0, bytes = 0, coloured = 0, too_long = 0;
    std::uint64_t longest = 0, longest_line = 0;
    std::uint64_t next_progress = std::uint64_t{64} << 20;
    bool progress = false;

    void on_line(const logscan::line& l) {
        ++lines;
        bytes += l.text.size();
        if (l.text.find_first_not_of(" \t") == std::string_view::npos) ++blank;
        if (l.text.find("\x1b[") != std::string_view::npos) ++coloured;
        if (l.text.size() > longest) {
            longest = l.text.size();
            longest_line = l.number;
        }
        if (progress && l.offset >= next_progress) {
            std::fprintf(stderr, "\r  %llu MiB, %llu lines...", static_cast<unsigned long long>(l.offset >> 20),
                         static_cast<unsigned long long>(l.number));
            next_progress += std::uint64_t{64} << 20;
        }
    }
    void on_error(const logscan::error& e) {
        ++lines;
        ++too_long;
        std::fprintf(stderr, "line %llu: %.*s\n", static_cast<unsigned long long>(e.line),
                     static_cast<int>(e.message.size()), e.message.data());
    }
};

int scan(const char* path, std::size_t max_line) {
    const bool use_stdin = std::strcmp(path, "-") == 0;
    logscan::file_source file(use_stdin ? "/dev/null" : path);
    logscan::fd_source in(STDIN_FILENO);
    logscan::line_buffer carry(max_line);
    stats s;
    s.progress = ::isatty(STDERR_FILENO) != 0;
    const logscan::error e = use_stdin ? logscan::for_each_line(in, s, carry)
                                       : logscan::for_each_line(file, s, carry);
    if (s.progress && s.next_progress > (std::uint64_t{64} << 20)) std::fprintf(stderr, "\r\033[K");
    if (!e.ok()) {
        std::fprintf(stderr, "line_stats: %s: %.*s (%s)\n", path, static_cast<int>(e.message.size()),
                     e.message.data(), std::strerror(e.sys_errno));
        return 1;
    }
    std::printf("file: %s\n", path);
    std::printf("lines: %llu\n", static_cast<unsigned long long>(s.lines));
    std::printf("blank lines: %llu\n", static_cast<unsigned long long>(s.blank));
    std::printf("bytes: %llu\n", static_cast<unsigned long long>(e.offset));
    std::printf("longest line: %llu bytes (line %llu)\n", static_cast<unsigned long long>(s.longest),
                static_cast<unsigned long long>(s.longest_line));
    std::printf("lines with ANSI colour: %llu\n", static_cast<unsigned long long>(s.coloured));
    std::printf("lines too long to read: %llu\n", static_cast<unsigned long long>(s.too_long));
    return 0;
}

} // namespace

#ifndef LOGSCAN_TEST
int main(int argc, char** argv) {
    std::size_t max_line = logscan::line_buffer::default_capacity;
    int status = 0, files = 0;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--max-line") == 0 && i + 1 < argc) {
            max_line = static_cast<std::size_t>(std::strtoull(argv[++i], nullptr, 10));
        } else if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
            std::printf("usage: line_stats [--max-line BYTES] FILE...   (\"-\" = standard input)\n");
            return 0;
        } else {
            if (files++) std::printf("\n");
            status |= scan(argv[i], max_line);
        }
    }
    if (files == 0) {
        std::fprintf(stderr, "usage: line_stats [--max-line BYTES] FILE...   (\"-\" = standard input)\n");
        return 2;
    }
    return status;
}
#endif
