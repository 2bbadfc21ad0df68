// SPDX-License-Identifier: MIT
// Fuzz target for format detection (formats/detect.hpp). Invariants (abort on violation): no
// crash or hang on any head; a result names one of the five formats exactly when its score is
// positive; the winner's own detector gives that score; a head detected as cut never counts
// its partial last line, so appending bytes after the last newline cannot change the result.
#include <logscan/formats/detect.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view head(reinterpret_cast<const char*>(data), size < logscan::detect_bytes ? size : logscan::detect_bytes);
    for (const bool cut : {false, true}) {
        const logscan::detection d = logscan::detect_format(head, cut);
        if (d.format.empty() != (d.score == 0)) std::abort();
        if (!d.format.empty()) {
            bool found = false;
            for (const auto& x : logscan::detectors)
                if (x.name == d.format) found = x.detect(head, cut) == d.score;
            if (!found) std::abort();
        }
    }
    // a cut head: bytes after the last newline do not count (megengine-profile reads keys, not lines)
    const std::size_t nl = head.rfind('\n');
    if (nl != std::string_view::npos) {
        const std::string_view whole = head.substr(0, nl + 1);
        const logscan::detection a = logscan::detect_format(head, true), b = logscan::detect_format(whole, true);
        if (a.format != b.format && a.format != "megengine-profile" && b.format != "megengine-profile") std::abort();
    }
    return 0;
}
