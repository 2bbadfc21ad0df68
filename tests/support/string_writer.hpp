// SPDX-License-Identifier: MIT
// An NDJSON writer into a std::string (test helper).
#ifndef LOGSCAN_TEST_STRING_WRITER_HPP
#define LOGSCAN_TEST_STRING_WRITER_HPP

#include <logscan/ndjson.hpp>

#include <string>
#include <string_view>

namespace logscan::test {

struct string_sink {
    std::string* out;
    bool operator()(std::string_view s) const {
        out->append(s);
        return true;
    }
};
using string_writer = logscan::ndjson_writer<string_sink>;

} // namespace logscan::test

#endif
