// SPDX-License-Identifier: MIT
/// \file error.hpp
/// Error codes and the error record every logscan reader reports through `on_error`.
///
/// Nothing in logscan throws. Parsers of single values return `{ptr, ec}` results
/// (see num.hpp); readers report problems as `logscan::error` records carrying the
/// line, column and byte offset where the problem was found, and then continue
/// where the input allows it.
#ifndef LOGSCAN_ERROR_HPP_INCLUDED
#define LOGSCAN_ERROR_HPP_INCLUDED

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "config.hpp"

namespace logscan {

/// What went wrong. Every reader documents which codes it reports.
enum class error_code : std::uint8_t {
    none = 0,            ///< no error
    line_too_long,       ///< a line is longer than the line buffer; the line is skipped
    io_error,            ///< reading from a file or descriptor failed (errno in `error::sys_errno`)
    open_failed,         ///< a file could not be opened (errno in `error::sys_errno`)
    syntax,              ///< input does not follow the grammar the reader expects
    unexpected_end,      ///< input ended inside a construct (a string, a table row, ...)
    too_deep,            ///< nesting deeper than the configured maximum
    too_long,            ///< a token is longer than the reader's scratch buffer
    too_many_columns,    ///< a table row has more columns than the reader's fixed maximum
    invalid_utf8,        ///< bytes that are not valid UTF-8 where UTF-8 is required
    stopped,             ///< a visitor callback returned `flow::stop`
};

/// A short, stable English name for an error code ("line too long", ...).
constexpr std::string_view to_string(error_code c) noexcept {
    switch (c) {
    case error_code::none: return "no error";
    case error_code::line_too_long: return "line too long";
    case error_code::io_error: return "read error";
    case error_code::open_failed: return "cannot open file";
    case error_code::syntax: return "syntax error";
    case error_code::unexpected_end: return "unexpected end of input";
    case error_code::too_deep: return "nesting too deep";
    case error_code::too_long: return "token too long";
    case error_code::too_many_columns: return "too many columns";
    case error_code::invalid_utf8: return "invalid UTF-8";
    case error_code::stopped: return "stopped by visitor";
    }
    return "unknown error";
}

/// A problem found in the input, with its position.
///
/// `line` and `column` are 1-based (0 when not applicable, e.g. an open failure);
/// `column` counts bytes. `offset` is the 0-based byte offset of the problem in the
/// whole input. `message` is a static string describing what was expected; it
/// never points into the input and never allocates.
struct error {
    error_code code = error_code::none; ///< what went wrong
    std::uint64_t line = 0;             ///< 1-based line number, 0 if unknown
    std::uint64_t column = 0;           ///< 1-based byte column, 0 if unknown
    std::uint64_t offset = 0;           ///< 0-based byte offset in the whole input (a source's failure, with no line: the bytes read before it)
    std::string_view message{};         ///< static description, e.g. "expected ':' after object key"
    int sys_errno = 0;                  ///< errno for io_error / open_failed, else 0
    /// True for an error of a JSON document's own text (json.hpp's reader: a syntax error, a
    /// truncated document, ...): formats.md writes it `{"type":"error","message":"invalid
    /// JSON document"}`, its position staying in this C++ record.
    bool document = false;
    /// The position of the element the error is about in a stream of events (chrome-trace:
    /// the index in `traceEvents`), or none (record.hpp's `indexed_error_kind` writes it).
    std::optional<std::uint64_t> index{};

    /// True when this holds no error.
    constexpr bool ok() const noexcept { return code == error_code::none; }
};

/// An input's error records said for people (a command's note on standard error, a Python
/// warning): `N error record(s); the first at line L:C: MESSAGE`, or for an error of a stream
/// of events `... the first at event index K (L:C): MESSAGE`, the place as the record has it
/// (no place: `the first: MESSAGE`); `first` not kept (`ok()`): the count alone.
inline std::string error_records_note(std::uint64_t count, const error& first) {
    std::string s = std::to_string(count) + " error record(s)";
    if (first.ok()) return s;
    const auto place = [&] { return std::to_string(first.line) + (first.column != 0 ? ":" + std::to_string(first.column) : ""); };
    s += "; the first";
    if (first.index) {
        s += " at event index " + std::to_string(*first.index);
        if (first.line != 0) s += " (" + place() + ")";
    } else if (first.line != 0) {
        s += " at line " + place();
    }
    s += ": ";
    s += first.message;
    return s;
}

} // namespace logscan

#endif // LOGSCAN_ERROR_HPP_INCLUDED
