// SPDX-License-Identifier: MIT
// An NDJSON writer into a std::string (test helper).
#ifndef LOGSCAN_TEST_STRING_WRITER_HPP
#define LOGSCAN_TEST_STRING_WRITER_HPP

#include <logscan/ndjson.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace logscan::test {

struct string_sink {
    std::string* out;
    bool operator()(std::string_view s) const {
        out->append(s);
        return true;
    }
};
using string_writer = logscan::ndjson_writer<string_sink>;

// Every record of `input` as the command's NDJSON, one string per record, through a format's
// `ndjson_visitor` and `parse`; `ok` says whether the parse returned no error.
template <template <class> class NdjsonVisitor, class Parse>
std::vector<std::string> ndjson_lines(std::string_view input, const Parse& parse, bool& ok) {
    std::string out;
    char buf[4096];
    string_writer w{string_sink{&out}, buf};
    NdjsonVisitor<string_writer> v{w};
    ok = parse(input, v).ok();
    w.flush();
    std::vector<std::string> lines;
    for (std::size_t b = 0; b < out.size();) {
        const std::size_t e = out.find('\n', b);
        lines.push_back(out.substr(b, e - b));
        b = e + 1;
    }
    return lines;
}

} // namespace logscan::test

#endif
