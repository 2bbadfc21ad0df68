// SPDX-License-Identifier: MIT
/// \file formats/detect.hpp
/// Which of the formats (formats/registry.hpp) an input is, decided from its first bytes by the detectors the
/// format modules carry next to their rules (`megengine_log::detect`, ...): each counts the
/// signal lines (or, for the JSON dump, the keys) of its format in the head of the input;
/// the highest count wins, ties going to the earlier format in `detectors`; none at all is
/// "unknown" (an empty name).
///
/// \code
/// #include <logscan/formats/detect.hpp>
/// const logscan::detection d = logscan::detect_format(first_16_kib, /*cut=*/true);
/// if (d.format.empty()) ...unknown...; else use(d.format, d.score);   // "paddle-log", 43
/// \endcode
///
/// Signals, per format (see each `detect` for the details):
/// - `megengine-profile`: the first non-blank byte is `{` and at least two of the dump's own
///   keys (`"profiler"`, `"graph_exec"`, `"opr_footprint"`, ...) appear, in any order or layout;
/// - `chrome-trace`: an object with a `"traceEvents"` key (or, before the events, Kineto's
///   `"schemaVersion"` and `"deviceProperties"`), or a bare array of event objects with
///   `"ph"`; a PyTorch execution trace (`"nodes"`, no `"traceEvents"`) is not claimed;
/// - `chainer-memtrace`: a `B F` counts line followed by buffer lines `ID SIZE NAME` or by
///   function records (`forward`/`backward`, then `NIN NOUT`);
/// - `tvm-profile`: `Evaluate vm inference cost of ...`, `Mean ... time (std dev): ...` and
///   table header lines (`Name  ...  Duration (us) ...`, `Node Name  Ops ...`, `#OpName<TAB>...`);
///   or, when the first non-blank byte is `{`, `Report.json()`'s keys (`"calls"` and another);
/// - `paddle-log`: log lines of either form (`[MM/DD HH:MM:SS] LOGGER LEVEL: ...`, and
///   `YYYY-MM-DD HH:MM:SS,mmm-LEVEL: ...`: Python logging's `asctime` joined to the level by
///   a `-`, as older PaddleDetection prints it; a `... - INFO - ...` log is not one), profiler
///   titles (`---...Summary---`, `===Perf Summary===`) and legacy report banners
///   (`---->  Profiling Report  <----`), each possibly indented;
/// - `megengine-log`: `[DD HH:MM:SS N@FILE:LOGGER] ...` lines, colour sequences allowed.
/// Lines that are none of these (warnings, a shell command, compiler debug prints) count for
/// nothing, so a file that starts with some is still recognised by the lines that follow. A
/// UTF-8 byte order mark that begins the head is passed over before the detectors see it, as
/// the line formats, tvm-profile and chrome-trace drop it (a megengine-profile document may
/// not begin with one: formats.md section 2; it breaks there).
#ifndef LOGSCAN_FORMATS_DETECT_HPP_INCLUDED
#define LOGSCAN_FORMATS_DETECT_HPP_INCLUDED

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "../source.hpp"
#include "registry.hpp"

namespace logscan {

/// How many bytes of an input the detectors are meant to see.
inline constexpr std::size_t detect_bytes = 16384;

/// The outcome of `detect_format`.
struct detection {
    std::string_view format; ///< the format's name (`"tvm-profile"`), empty when unknown
    std::size_t score;       ///< the winning detector's count (0 when unknown)
};

/// One format's name and detector.
struct format_detector {
    std::string_view name;                          ///< e.g. `"paddle-log"`
    std::size_t (*detect)(std::string_view, bool);  ///< its detector
    std::span<const std::string_view> types;        ///< its record types (`record_types`)
};

/// The detectors of a list of formats (formats/registry.hpp), in its order.
template <class... F>
constexpr std::array<format_detector, sizeof...(F)> detectors_of(format_list<F...>) noexcept {
    return {{{F::name, &F::detect, F::record_types}...}};
}

/// The detectors of logscan's formats, in the order that breaks ties.
inline constexpr auto detectors = detectors_of(all_formats{});

/// The format of an input whose first bytes are `head` (`cut`: the input goes on after
/// them, so a last partial line is ignored), among the formats of `List`; see the file comment.
template <class List = all_formats>
detection detect_format(std::string_view head, bool cut = true) noexcept {
    head = without_byte_order_mark(head);
    detection best{{}, 0};
    for (const format_detector& d : detectors_of(List{})) {
        const std::size_t s = d.detect(head, cut);
        if (s > best.score) best = {d.name, s};
    }
    return best;
}

/// Whether `head` (as `detect_format` takes it) shows any signal of `format`: its detector's
/// count is not 0. (An input that does may hold no record of it: an empty JSON document of the
/// format, `{"traceEvents": []}`.)
template <class List = all_formats>
bool shows_format(std::string_view head, std::string_view format, bool cut = true) noexcept {
    for (const format_detector& d : detectors_of(List{}))
        if (d.name == format) return d.detect(without_byte_order_mark(head), cut) != 0;
    return false;
}

/// The format an input looks like when it is to be read as `format` (given, not detected) and
/// looks nothing like it: `format`'s detector finds none of its signals in `head` (as
/// `detect_format` takes it) and another format's detector does: that one's name. Empty when
/// `head` looks like `format`, or like no format. What the command and the Python module say
/// of a `--format` or `format=` that does not fit its input, before they read it as asked.
template <class List = all_formats>
std::string_view looks_like_instead(std::string_view head, std::string_view format, bool cut = true) noexcept {
    if (shows_format<List>(head, format, cut)) return {};
    const detection other = detect_format<List>(head, cut);
    return other.format == format ? std::string_view{} : other.format;
}

/// A compression an input's first bytes show that logscan does not undo (gzip it does:
/// gzip.hpp): its name and the command that writes the data out (`xz -dc`), for a message
/// that says how to read it; empty names when the bytes show none of them.
struct compression {
    std::string_view name;    ///< `xz`, `zstd`, `bzip2`, `lz4`, `zip`, `7z`; empty: none
    std::string_view command; ///< `xz -dc FILE` writes it out: `xz -dc`, ..., `unzip -p`, `7z x -so`
    /// What it is, in the words the command and the Python module say it.
    std::string what() const { return std::string(name) + "-compressed data, which logscan does not decompress (it reads gzip)"; }
};
constexpr compression unread_compression(std::string_view head) noexcept {
    using namespace std::string_view_literals;
    if (head.starts_with("\xFD" "7zXZ\x00"sv)) return {"xz", "xz -dc"};
    if (head.starts_with("\x28\xB5\x2F\xFD"sv)) return {"zstd", "zstd -dc"};
    if (head.size() >= 4 && head.starts_with("BZh"sv) && head[3] >= '1' && head[3] <= '9') return {"bzip2", "bzip2 -dc"};
    if (head.starts_with("\x04\x22\x4D\x18"sv)) return {"lz4", "lz4 -dc"};
    if (head.starts_with("PK\x03\x04"sv)) return {"zip", "unzip -p"};
    if (head.starts_with("7z\xBC\xAF\x27\x1C"sv)) return {"7z", "7z x -so"};
    return {};
}

/// True when `head`, the whole of an input, holds only blanks (spaces, tabs, CR, LF), a UTF-8
/// byte order mark before them aside: an empty input, with no format to tell and no record in
/// any (what Notepad saves for an empty file is the mark alone).
constexpr bool blank_input(std::string_view head) noexcept {
    return without_byte_order_mark(head).find_first_not_of(" \t\r\n") == std::string_view::npos;
}

/// True when `head`, the first bytes of an input, begins a JSON document (a byte order mark and
/// blanks aside): `{`, or `[` that an object or its `]` follows (a Chrome trace's bare array of
/// events; a log line's `[06 15:13:35 ...` is not one). Such an input ends with its document,
/// not with a line: a document cut short is said as its break.
constexpr bool json_document(std::string_view head) noexcept {
    const std::string_view t = without_byte_order_mark(head);
    const std::size_t b = t.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return false;
    if (t[b] == '{') return true;
    if (t[b] != '[') return false;
    const std::size_t n = t.find_first_not_of(" \t\r\n", b + 1);
    return n == std::string_view::npos || t[n] == '{' || t[n] == ']';
}

/// How far past an input's first byte `read_head` reads when everything before is blank, to
/// find the lines the detectors are to see (an input that begins with more blanks than this
/// is told by the blank lines alone: no format).
inline constexpr std::size_t blank_lead_limit = std::size_t{1} << 20;

/// What the detectors read of a head that `read_head` gave (`more`: the input goes on after
/// it): `detect_bytes` bytes from the line that holds the first byte that is not blank (a
/// byte order mark and the blank lines before it passed over), and whether the input goes on
/// after them (`detect_format`'s `cut`).
struct detect_view {
    std::string_view window;
    bool cut;
};
constexpr detect_view detect_window(std::string_view head, bool more) noexcept {
    const std::string_view t = without_byte_order_mark(head);
    const std::size_t b = t.find_first_not_of(" \t\r\n");
    std::size_t from = 0; // (where the line of that byte starts: the blank lines before it passed over)
    if (b == std::string_view::npos) from = t.size();
    else if (const std::size_t nl = t.rfind('\n', b); nl != std::string_view::npos) from = nl + 1;
    const std::string_view w = from == 0 ? head : t.substr(from); // (no blank line first: the head as it is, its mark too)
    return {w.substr(0, detect_bytes), more || w.size() > detect_bytes};
}

/// Reads the head of `src` for `detect_format`: chunks appended to `head` until it holds
/// `detect_bytes` bytes past its leading blank lines (at most `blank_lead_limit` of them) or
/// the input ends (`more` false then). Returns the source's error, if any. Hand `head` and the
/// source to a `replay_source` (source.hpp) to parse the whole input afterwards. Allocates
/// (`head` grows to about 16 KiB, more after blank lines): it runs once per input, before a
/// parse, never during one.
/// \code
/// std::string head; bool more = true;
/// if (const logscan::error e = logscan::read_head(file, head, more); !e.ok()) fail(e);
/// const logscan::detect_view v = logscan::detect_window(head, more);
/// const auto d = logscan::detect_format(v.window, v.cut);
/// logscan::replay_source<logscan::file_source> all{head, file, false, !more};
/// \endcode
/// A failure of `src` is returned with the bytes read before it in `head` and `more` false:
/// a caller that keeps them (no silent loss of what a cut gzip stream did give) detects on
/// them and hands the failure out after them (`replay_source::end`, `head_failure`).
template <byte_source Source>
error read_head(Source& src, std::string& head, bool& more) {
    more = true;
    const auto full = [&head] { // (the detectors' window full, or blanks alone up to the limit)
        const std::string_view w = detect_window(head, true).window;
        return w.size() == detect_bytes || (w.empty() && head.size() >= blank_lead_limit);
    };
    while (!full()) {
        const chunk c = src.next();
        if (c.code != error_code::none) {
            more = false;
            return chunk_error(c, head.size());
        }
        if (c.data.empty()) {
            more = false;
            break;
        }
        head.append(c.data);
    }
    return {};
}

/// The chunk a `replay_source` hands out after a head that `read_head` ended with `e`: the
/// end when `e` is no error, else `e` as the source's failure.
constexpr chunk head_failure(const error& e) noexcept {
    return e.ok() ? chunk{} : chunk{{}, e.code, e.sys_errno, e.message};
}

} // namespace logscan

#endif // LOGSCAN_FORMATS_DETECT_HPP_INCLUDED
