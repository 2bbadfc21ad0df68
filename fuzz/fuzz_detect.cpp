// SPDX-License-Identifier: MIT
// Fuzz target for format detection (formats/detect.hpp). Invariants (abort on violation): no
// crash or hang on any head; a result names one of the six formats exactly when its score is
// positive; the winner's own detector gives that score; a head of lines detected as cut never
// counts its partial last line, so appending bytes after the last newline cannot change the
// result (a JSON document, whose first byte other than blanks is `{`, after a byte order mark,
// is detected by its keys: megengine-profile's dump, tvm-profile's Report.json() and a Chrome
// trace may be one line).
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
            for (const auto& x : logscan::detectors) // (detect_format passes over a byte order mark first)
                if (x.name == d.format) found = x.detect(logscan::without_byte_order_mark(head), cut) == d.score;
            if (!found) std::abort();
        }
    }
    // a cut head of lines: bytes after the last newline do not count (a document's keys do)
    const std::size_t nl = head.rfind('\n');
    const std::string_view body = logscan::without_byte_order_mark(head); // (a byte order mark: passed over)
    const std::size_t first = body.find_first_not_of(" \t\r\n");
    const bool document = first != std::string_view::npos && body[first] == '{';
    if (nl != std::string_view::npos && !document) {
        const std::string_view whole = head.substr(0, nl + 1);
        const logscan::detection a = logscan::detect_format(head, true), b = logscan::detect_format(whole, true);
        if (a.format != b.format) std::abort();
    }
    return 0;
}
