// SPDX-License-Identifier: MIT
// Checks that a visitor with only some of a format's callbacks receives exactly those records
// of a full visitor's run (a format leaves out the rules, blocks and tables whose records a
// visitor does not want: that must change nothing in what it does receive).
//
//   LOGSCAN_TEST_ONLY(recorder, on_log, ml::log)     // struct only_on_log { recorder r; on_log -> r }
//   logscan::test::check_wanted<only_on_log>(input, full.out, {"log"}, [](auto in, auto& v) {...parse...});
#ifndef LOGSCAN_TEST_WANTED_HPP
#define LOGSCAN_TEST_WANTED_HPP

#include <doctest/doctest.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "chunking.hpp"

// A visitor with the one callback NAME of RECORDER (whose `out` lists every record as a string
// that starts with its type).
#define LOGSCAN_TEST_ONLY(RECORDER, NAME, TYPE)                \
    struct only_##NAME {                                       \
        RECORDER r;                                            \
        void NAME(const TYPE& x) { r.NAME(x); }                \
    }

namespace logscan::test {

// `Only`'s records of `in` (through `Parser<Only>` and every chunking for a short input, once
// through `parse` for a long one) are the records of `full` whose string starts with one of
// `prefixes` and a space, in order.
template <class Only, template <class> class Parser, class Parse>
void check_wanted(std::string_view in, const std::vector<std::string>& full, std::initializer_list<std::string_view> prefixes,
                  Parse parse) {
    std::vector<std::string> want;
    for (const std::string& rec : full)
        for (std::string_view t : prefixes)
            if (rec.starts_with(std::string(t) + " ")) want.push_back(rec);
    if (in.size() < 20000) { // (hand-written inputs: every chunking; samples once)
        const auto got = check_chunk_invariance(std::string(in), [&](chunk_list chunks) {
            Only w;
            Parser<Only> p(w, {.max_line = 4096});
            for (auto c : chunks) p.feed(c);
            p.finish();
            return w.r.out;
        });
        CHECK(got == want);
    }
    Only v;
    const bool ok = parse(in, v);
    CHECK(ok);
    CHECK(v.r.out == want);
}

} // namespace logscan::test

#endif
