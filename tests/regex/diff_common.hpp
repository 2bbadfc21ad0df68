// SPDX-License-Identifier: MIT
// Differential test support: runs logscan::regex on the cases of tests/data/regex/cases.txt
// (expected spans computed by Python's re, see tests/data/regex/gen.py) and compares.
#ifndef LOGSCAN_TESTS_REGEX_DIFF_COMMON_HPP
#define LOGSCAN_TESTS_REGEX_DIFF_COMMON_HPP

#include <logscan/regex.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

namespace logscan::test::rx {

struct expected_case {
    int pattern;
    std::string input;
    std::string full, search, all;
};

inline std::string unhex(const std::string& h) {
    std::string out;
    if (h == "-") return out;
    for (std::size_t i = 0; i + 1 < h.size(); i += 2) out.push_back(static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16)));
    return out;
}

/// Calls `f(fields)` for every line of tests/data/regex/`name`, with `fields` a stream over
/// the line's space-separated fields.
template <class F>
void each_data_line(const char* name, F&& f) {
    std::ifstream in(std::string(LOGSCAN_SOURCE_DIR) + "/tests/data/regex/" + name);
    REQUIRE(in.good());
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        f(fields);
    }
}

/// All cases, grouped by pattern index.
inline const std::vector<std::vector<expected_case>>& cases() {
    static const std::vector<std::vector<expected_case>> all = [] {
        std::vector<std::vector<expected_case>> v;
        each_data_line("cases.txt", [&](std::istringstream& ls) {
            expected_case c;
            std::string hex;
            ls >> c.pattern >> hex >> c.full >> c.search >> c.all;
            c.input = unhex(hex);
            if (static_cast<std::size_t>(c.pattern) >= v.size()) v.resize(static_cast<std::size_t>(c.pattern) + 1);
            v[static_cast<std::size_t>(c.pattern)].push_back(std::move(c));
        });
        return v;
    }();
    return all;
}

template <fixed_string P>
std::string spans(const regex_result<P>& m, std::string_view input) {
    if (!m) return "n";
    std::string out;
    for (std::size_t g = 0; g < m.size(); ++g) {
        if (g) out += ',';
        const std::string_view v = m[g];
        if (v.data() == nullptr) {
            out += 'x';
        } else {
            const auto b = static_cast<std::size_t>(v.data() - input.data());
            out += std::to_string(b) + ":" + std::to_string(b + v.size());
        }
    }
    return out;
}

/// Cases the bounded backtracker was checked on (over every part run so far).
inline std::size_t& backtracked_cases() {
    static std::size_t n = 0;
    return n;
}

inline std::string escaped(std::string_view s) {
    std::string o;
    for (char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        if (c >= 0x20 && c < 0x7f) o += ch;
        else {
            char b[8];
            std::snprintf(b, sizeof b, "\\x%02x", c);
            o += b;
        }
    }
    return o;
}

/// Checks pattern P against every case of pattern index `idx`; returns the number of cases.
template <fixed_string P>
std::size_t check_pattern(int idx) {
    const auto& all = cases();
    REQUIRE(static_cast<std::size_t>(idx) < all.size());
    std::size_t n = 0;
    for (const expected_case& c : all[static_cast<std::size_t>(idx)]) {
        const std::string_view in = c.input;
        const std::string full = spans(logscan::match<P>(in), in);
        const std::string srch = spans(logscan::search<P>(in), in);
        std::string alls;
        for (const auto& m : logscan::search_all<P>(in)) {
            if (!alls.empty()) alls += '/';
            alls += spans(m, in);
        }
        if (alls.empty()) alls = "n";
        // the Pike VM alone (for one-pass patterns the facade uses the one-pass matcher)
        using C = logscan::regex_internal::compiled<P>;
        std::size_t slots[C::nslots];
        const bool pf = logscan::regex_internal::pike_run<C>(in.data(), in.size(), 0, true, true, false, slots, nullptr);
        const std::string pike_full = pf ? spans(regex_result<P>::from_slots(in, slots), in) : "n";
        const bool ps = logscan::regex_internal::pike_run<C>(in.data(), in.size(), 0, false, false, false, slots, nullptr);
        const std::string pike_search = ps ? spans(regex_result<P>::from_slots(in, slots), in) : "n";
        // the bounded backtracker alone (the facade also uses it for the patterns it can run)
        std::string bt_full = c.full, bt_search = c.search;
        using B = logscan::regex_internal::backtrack<C>;
        if constexpr (B::ok) {
            using logscan::regex_internal::run_status;
            REQUIRE(in.size() <= B::max_input);
            const run_status bf = logscan::regex_internal::backtrack_run<C>(in.data(), in.size(), 0, true, true, false, slots, nullptr);
            bt_full = bf == run_status::match ? spans(regex_result<P>::from_slots(in, slots), in) : bf == run_status::no_match ? "n" : "gave up";
            const run_status bs = logscan::regex_internal::backtrack_run<C>(in.data(), in.size(), 0, false, false, false, slots, nullptr);
            bt_search = bs == run_status::match ? spans(regex_result<P>::from_slots(in, slots), in) : bs == run_status::no_match ? "n" : "gave up";
            ++backtracked_cases();
        }
        INFO("pattern #" << idx << " " << P.view() << "  input \"" << escaped(in) << "\"");
        CHECK(full == c.full);
        CHECK(srch == c.search);
        CHECK(alls == c.all);
        CHECK(pike_full == c.full);
        CHECK(pike_search == c.search);
        CHECK(bt_full == c.full);
        CHECK(bt_search == c.search);
        ++n;
    }
    return n;
}

} // namespace logscan::test::rx

#endif
