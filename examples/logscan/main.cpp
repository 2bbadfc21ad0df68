// SPDX-License-Identifier: MIT
// logscan: the command-line tool. Converts a log of a known format into NDJSON records
// (formats.md), one JSON object a line, on standard output.
//
//   logscan convert --format FORMAT FILE      FILE may be - for standard input
//   logscan --help
//
// Exit status: 0 on success; 1 when an input could not be read or yielded error records
// (everything parseable is still written); 2 on a usage error.
#include <logscan/formats/chainer_memtrace.hpp>
#include <logscan/formats/megengine_log.hpp>
#include <logscan/formats/megengine_profile.hpp>
#include <logscan/formats/paddle_log.hpp>
#include <logscan/formats/tvm_profile.hpp>
#include <logscan/ndjson.hpp>

#include <cstdio>
#include <cstring>
#include <string_view>

namespace {

constexpr const char* usage_text =
    "usage: logscan convert --format FORMAT FILE\n"
    "       logscan --help\n"
    "\n"
    "Converts FILE (- for standard input) to NDJSON records on standard output.\n"
    "FORMAT: megengine-log, megengine-profile, chainer-memtrace, paddle-log, tvm-profile\n"
    "Exit status: 0 success; 1 unreadable input or error records (the rest is still written);\n"
    "2 usage error.\n";

int usage_error(const char* what) {
    std::fprintf(stderr, "logscan: %s\n%s", what, usage_text);
    return 2;
}

// Converts one input; returns the exit status.
template <class Parse>
int convert(const char* path, Parse&& parse) {
    logscan::ndjson_file out(stdout);
    std::uint64_t errors = 0;
    const logscan::error e = logscan::with_input(path, [&](auto& src) { return parse(src, out, errors); });
    const bool written = out.flush();
    if (!e.ok()) {
        std::fprintf(stderr, "logscan: %s: %.*s", path, static_cast<int>(e.message.size()), e.message.data());
        if (e.sys_errno != 0) std::fprintf(stderr, " (%s)", std::strerror(e.sys_errno));
        std::fprintf(stderr, "\n");
        return 1;
    }
    if (!written) {
        std::fprintf(stderr, "logscan: writing the output failed\n");
        return 1;
    }
    if (errors != 0) {
        std::fprintf(stderr, "logscan: %s: %llu error record(s)\n", path, static_cast<unsigned long long>(errors));
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
        std::fputs(usage_text, stdout);
        return 0;
    }
    if (argc < 2) return usage_error("no command given");
    if (std::strcmp(argv[1], "convert") != 0) return usage_error("unknown command (the command is 'convert')");
    std::string_view format;
    const char* path = nullptr;
    for (int i = 2; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--format") {
            if (i + 1 == argc) return usage_error("--format needs a value");
            format = argv[++i];
        } else if (a.starts_with("--format=")) {
            format = a.substr(9);
        } else if (a == "--help" || a == "-h") {
            std::fputs(usage_text, stdout);
            return 0;
        } else if (a.size() > 1 && a[0] == '-') {
            std::fprintf(stderr, "logscan: unknown option '%s'\n%s", argv[i], usage_text);
            return 2;
        } else if (path != nullptr) {
            return usage_error("give one FILE");
        } else {
            path = argv[i];
        }
    }
    if (path == nullptr) return usage_error("no FILE given (- reads standard input)");
    if (format.empty()) return usage_error("--format is required");
    if (format == logscan::megengine_log::format_name) {
        return convert(path, [](auto& src, logscan::ndjson_file& out, std::uint64_t& errors) {
            logscan::megengine_log::ndjson_visitor<logscan::ndjson_file> v{out};
            const logscan::error e = logscan::megengine_log::parse(src, v);
            errors = v.errors;
            return e;
        });
    }
    if (format == logscan::megengine_profile::format_name) {
        return convert(path, [](auto& src, logscan::ndjson_file& out, std::uint64_t& errors) {
            logscan::megengine_profile::ndjson_visitor<logscan::ndjson_file> v{out};
            logscan::error e = logscan::megengine_profile::parse(src, v);
            errors = v.errors;
            if (e.code != logscan::error_code::io_error && e.code != logscan::error_code::open_failed)
                e = {}; // (errors in the document are records; counted above)
            return e;
        });
    }
    if (format == logscan::chainer_memtrace::format_name) {
        return convert(path, [](auto& src, logscan::ndjson_file& out, std::uint64_t& errors) {
            logscan::chainer_memtrace::ndjson_visitor<logscan::ndjson_file> v{out};
            const logscan::error e = logscan::chainer_memtrace::parse(src, v);
            errors = v.errors;
            return e;
        });
    }
    if (format == logscan::paddle_log::format_name) {
        return convert(path, [](auto& src, logscan::ndjson_file& out, std::uint64_t& errors) {
            logscan::paddle_log::ndjson_visitor<logscan::ndjson_file> v{out};
            const logscan::error e = logscan::paddle_log::parse(src, v);
            errors = v.errors;
            return e;
        });
    }
    if (format == logscan::tvm_profile::format_name) {
        return convert(path, [](auto& src, logscan::ndjson_file& out, std::uint64_t& errors) {
            logscan::tvm_profile::ndjson_visitor<logscan::ndjson_file> v{out};
            const logscan::error e = logscan::tvm_profile::parse(src, v);
            errors = v.errors;
            return e;
        });
    }
    std::fprintf(stderr, "logscan: unknown FORMAT '%.*s'\n%s", static_cast<int>(format.size()), format.data(), usage_text);
    return 2;
}
