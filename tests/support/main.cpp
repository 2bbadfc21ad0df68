// SPDX-License-Identifier: MIT
// The one doctest main of the test binary, plus file helpers of tests/support.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "chunking.hpp"

namespace logscan::test {
std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE_MESSAGE(in.good(), "cannot open " << path);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}
std::string sample_path(std::string_view name) {
    return std::string(LOGSCAN_SOURCE_DIR) + "/samples/" + std::string(name);
}
} // namespace logscan::test
