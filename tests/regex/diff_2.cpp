// SPDX-License-Identifier: MIT
// Differential test, part 2 of 4: patterns from tests/data/regex/patterns_2.inc against the
// spans Python's re gives (tests/data/regex/cases.txt).
#include "diff_common.hpp"

TEST_CASE("regex::differential_vs_python_re_part_2") {
    std::size_t patterns = 0, inputs = 0;
    const std::size_t backtracked_before = logscan::test::rx::backtracked_cases();
#define LOGSCAN_RX(i, p)                                                                       \
    inputs += logscan::test::rx::check_pattern<p>(i);                                        \
    ++patterns;
#include "data/regex/patterns_2.inc"
#undef LOGSCAN_RX
    CHECK(patterns == 85);
    CHECK(inputs >= patterns * 30);
    // most patterns can run on the bounded backtracker: it was checked alone on their cases
    CHECK(logscan::test::rx::backtracked_cases() - backtracked_before >= inputs / 2);
}
