// SPDX-License-Identifier: MIT
// The command's work with one format: `format_ops<F>` parses an input of format F into one of
// the command's writers, in parts (--threads), or into F's summary report. Its definitions
// (format_ops_impl.hpp) are compiled once per format, each in a translation unit of its own
// (ops/*.cpp: `template struct logscan_cli::format_ops<F>;`), so the formats' parsers build
// in parallel, and a program that adds a format to the command (tests/toy_format/) compiles
// only its own and links the others'. The command (command.hpp) sees these declarations only.
// Inputs come as a `logscan::source_ref`: the parsers are compiled once for files, standard
// input and gzip streams alike.
#ifndef LOGSCAN_COMMAND_FORMAT_OPS_HPP
#define LOGSCAN_COMMAND_FORMAT_OPS_HPP

#include <logscan/ndjson.hpp>
#include <logscan/parallel.hpp>
#include <logscan/source.hpp>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>

#include "summary.hpp"
#include "writers.hpp"

namespace logscan_cli {

// A part's NDJSON, in memory until the part is kept.
struct ndjson_part {
    struct context {
        const type_filter* types;
        std::string file; // for --with-filename (empty: no "input")
    };
    using writer_t = logscan_cli::ndjson_out; // (the type one thread writes with: the parsers compiled once)
    std::string text;
    std::unique_ptr<char[]> buf = std::make_unique<char[]>(buf_size);
    writer_t w{logscan_cli::out_sink{nullptr, &text}, std::span<char>(buf.get(), buf_size)};
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

// F's summary report (summary.hpp's `of<F>`); `no_report` for a format without one.
struct no_report {};
template <class F>
struct report_of {
    using type = no_report;
};
template <class F>
    requires requires { typename summary::of<F>::type; }
struct report_of<F> {
    using type = typename summary::of<F>::type;
};

// What the parse of a summary saw: the parse's error, and the records counted (`text` and
// `error` apart).
struct summary_parse {
    logscan::error e{};
    std::uint64_t records = 0, text = 0, errors = 0;
    logscan::error first{}; // the first error record
};

template <class F>
struct format_ops {
    using report = typename report_of<F>::type;
    // Every record of the input, through F's ndjson_visitor into `w`; `errors` is set to the
    // error records written, `first` to the first of them. Returns the parse's error.
    // (the CSV passes, csv_columns and csv_writer, as their base: the parsers compiled once for both)
    static logscan::error records(logscan::source_ref src, filter_writer<ndjson_out>& w, std::uint64_t& errors,
                                  logscan::error& first, const logscan::format_options& fo);
    static logscan::error records(logscan::source_ref src, flattener& w, std::uint64_t& errors, logscan::error& first,
                                  const logscan::format_options& fo);
    static logscan::error records(logscan::source_ref src, count_writer& w, std::uint64_t& errors, logscan::error& first,
                                  const logscan::format_options& fo);
    // The same in parts parsed in parallel (logscan/parallel.hpp), each writing to an Out made
    // from `ctx`; `drain(out)` takes a kept part's output, in input order. Adds the error
    // records to `errors` (`first`: the first, when none came before). F is splittable
    // (otherwise nothing is read).
    static logscan::error parts(logscan::source_ref src, const logscan::parts_options& po, const ndjson_part::context& ctx,
                                const std::function<void(ndjson_part&)>& drain, std::uint64_t& errors,
                                logscan::error& first, logscan::parts_count& count, const logscan::format_options& fo);
    static logscan::error parts(logscan::source_ref src, const logscan::parts_options& po, const count_part::context& ctx,
                                const std::function<void(count_part&)>& drain, std::uint64_t& errors,
                                logscan::error& first, logscan::parts_count& count, const logscan::format_options& fo);
    // The records `r` wants, into it (F's `records::counting`: every record is counted).
    static summary_parse summarize(logscan::source_ref src, report& r, const logscan::format_options& fo);
};

} // namespace logscan_cli

#endif
