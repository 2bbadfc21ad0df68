// SPDX-License-Identifier: MIT
// Fuzz target of logscan::regex: a fixed set of patterns (one-pass, backtracked and Pike VM
// ones) runs on the fuzzed input; match and search agree with the Pike VM alone on every
// input; on inputs up to 64 bytes every group span of match and search is
// compared with std::regex (ECMAScript, on patterns where ECMAScript and Python agree:
// no `$`, no `.`, no groups inside repetitions). Longer inputs check the structural
// invariants only (views inside the input, search_all ordered and non-overlapping).
// Any difference aborts.
#include <logscan/regex.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <string>
#include <string_view>

namespace {

template <logscan::fixed_string P>
void check(std::string_view in) {
    const auto m = logscan::match<P>(in);
    const auto s = logscan::search<P>(in);
    auto inside = [&](std::string_view v) {
        if (v.data() == nullptr) return;
        if (v.data() < in.data() || v.data() + v.size() > in.data() + in.size()) std::abort();
    };
    for (std::size_t g = 0; g < m.size(); ++g) inside(m[g]), inside(s[g]);
    if (m && m[0].size() != in.size()) std::abort();
    std::size_t last_end = 0, count = 0;
    for (const auto& h : logscan::search_all<P>(in)) {
        const auto b = static_cast<std::size_t>(h[0].data() - in.data());
        if (b < last_end) std::abort();
        last_end = b + h[0].size();
        if (++count == 1 && (!s || h[0].data() != s[0].data() || h[0].size() != s[0].size())) std::abort();
        if (count > in.size() + 1) std::abort();
    }
    if (count == 0 && s) std::abort();
    // whatever engine the facade chose (one-pass, backtracker), the Pike VM alone agrees
    using C = logscan::regex_internal::compiled<P>;
    std::size_t slots[C::nslots];
    auto same_slots = [&](const auto& ours, bool found) {
        if (static_cast<bool>(ours) != found) return false;
        if (!found) return true;
        const auto pike = logscan::regex_result<P>::from_slots(in, slots);
        for (std::size_t g = 0; g < ours.size(); ++g)
            if (ours[g].data() != pike[g].data() || ours[g].size() != pike[g].size()) return false;
        return true;
    };
    if (!same_slots(m, logscan::regex_internal::pike_run<C>(in.data(), in.size(), 0, true, true, false, slots, nullptr)) ||
        !same_slots(s, logscan::regex_internal::pike_run<C>(in.data(), in.size(), 0, false, false, false, slots, nullptr))) {
        std::fprintf(stderr, "differs from the Pike VM: %s\n", P.chars);
        std::abort();
    }
    if (in.size() > 64) return;

    static const std::regex re(std::string(P.view()), std::regex::ECMAScript);
    std::cmatch rm;
    auto same = [&](const auto& ours, bool found) {
        if (static_cast<bool>(ours) != found) return false;
        if (!found) return true;
        for (std::size_t g = 0; g < ours.size(); ++g) {
            const std::string_view v = ours[g];
            if (!rm[g].matched) {
                if (v.data() != nullptr) return false;
                continue;
            }
            if (v.data() != rm[g].first || v.size() != static_cast<std::size_t>(rm[g].length()))
                return false;
        }
        return true;
    };
    const bool fm = std::regex_match(in.data(), in.data() + in.size(), rm, re);
    if (!same(m, fm)) {
        std::fprintf(stderr, "match differs from std::regex: %s\n", P.chars);
        std::abort();
    }
    const bool fs = std::regex_search(in.data(), in.data() + in.size(), rm, re);
    if (!same(s, fs)) {
        std::fprintf(stderr, "search differs from std::regex: %s\n", P.chars);
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view in(reinterpret_cast<const char*>(data), size);
    check<R"(\[(\d+) (\d\d:\d\d:\d\d) (\d+)@([^:]*):([^\]]*)\] ([^\n]*))">(in);
    check<R"((a|ab)(c|bcd)(d*))">(in);
    check<R"((\w+)=([^ ,]+))">(in);
    check<R"(\d{1,3}(?:,\d{3})+(?:\.\d+)?)">(in);
    check<R"((a+)(a*)b|c)">(in);
    check<R"(\b(\w+)\s+(\w+)\b)">(in);
    check<R"((x*?)(x+)y)">(in);
    check<R"(([a-c]*)(b|c{2,3}))">(in);
    check<R"((?:a|ab)*c)">(in);
    check<R"(([0-9]+)(?:[.]([0-9]+))?(ms|s)?)">(in);
    check<R"([ab]*a[ab]b)">(in);         // Pike VM behind the bit-parallel filter
    check<R"(a[ab]*c)">(in);            // one-pass search that hands over to the Pike VM
    check<R"(\d+(?:,\d{3})*\.\d+)">(in); // group-0-only one-pass walk
    // bounded backtracker: runs backed off to a literal, lazy loops, possessive runs
    check<R"(([^\n]*) loss: (\S+)( [^\n]*)?)">(in);
    check<R"(([^,]*?),([^\n]*))">(in);
    check<R"((\S+)\s+([\d,.]+)\s+([^\n]*\]))">(in);
    check<R"((\w+?)(\d*)x)">(in);
    return 0;
}
