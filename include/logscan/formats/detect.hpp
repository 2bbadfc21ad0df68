// SPDX-License-Identifier: MIT
/// \file formats/detect.hpp
/// Which of the five formats an input is, decided from its first bytes by the detectors the
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
/// - `chainer-memtrace`: a `B F` counts line followed by buffer lines `ID SIZE NAME` or by
///   function records (`forward`/`backward`, then `NIN NOUT`);
/// - `tvm-profile`: `Evaluate vm inference cost of ...`, `Mean ... time (std dev): ...` and
///   report header lines (`Name  ...  Duration (us) ...`);
/// - `paddle-log`: `[MM/DD HH:MM:SS] LOGGER LEVEL: ...` lines and profiler titles
///   (`---...Summary---`, `===Perf Summary===`);
/// - `megengine-log`: `[DD HH:MM:SS N@FILE:LOGGER] ...` lines, colour sequences allowed.
/// Lines that are none of these (warnings, a shell command, compiler debug prints) count for
/// nothing, so a file that starts with some is still recognised by the lines that follow.
#ifndef LOGSCAN_FORMATS_DETECT_HPP_INCLUDED
#define LOGSCAN_FORMATS_DETECT_HPP_INCLUDED

#include <array>
#include <cstddef>
#include <span>
#include <string_view>

#include "chainer_memtrace.hpp"
#include "megengine_log.hpp"
#include "megengine_profile.hpp"
#include "paddle_log.hpp"
#include "tvm_profile.hpp"

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

/// The five detectors, in the order that breaks ties.
inline constexpr std::array<format_detector, 5> detectors = {{
    {megengine_profile::format_name, [](std::string_view h, bool c) { return megengine_profile::detect(h, c); }, megengine_profile::record_types},
    {chainer_memtrace::format_name, [](std::string_view h, bool c) { return chainer_memtrace::detect(h, c); }, chainer_memtrace::record_types},
    {tvm_profile::format_name, [](std::string_view h, bool c) { return tvm_profile::detect(h, c); }, tvm_profile::record_types},
    {paddle_log::format_name, [](std::string_view h, bool c) { return paddle_log::detect(h, c); }, paddle_log::record_types},
    {megengine_log::format_name, [](std::string_view h, bool c) { return megengine_log::detect(h, c); }, megengine_log::record_types},
}};

/// The format of an input whose first bytes are `head` (`cut`: the input goes on after
/// them, so a last partial line is ignored); see the file comment.
inline detection detect_format(std::string_view head, bool cut = true) noexcept {
    detection best{{}, 0};
    for (const format_detector& d : detectors) {
        const std::size_t s = d.detect(head, cut);
        if (s > best.score) best = {d.name, s};
    }
    return best;
}

} // namespace logscan

#endif // LOGSCAN_FORMATS_DETECT_HPP_INCLUDED
