// SPDX-License-Identifier: MIT
// Fuzz target for the rule reader: a MegEngine-style rule set with modes and ANSI stripping.
// Invariants (abort on violation): every line is handled by exactly one rule or the
// fallback; results are identical whole and split at an input-chosen position.
#include <logscan/rules.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "split_input.hpp"

namespace {
struct counts {
    std::vector<std::string> events;
    std::uint64_t lines = 0, handled = 0;
};

std::vector<std::string> run(std::string_view in, std::size_t split) {
    counts c;
    auto rules = logscan::rule_set(
        logscan::rule<R"(\[(\d\d) (\d\d:\d\d:\d\d) (\d+)@([^:]*):([^\]]*)\] (.*))">([&c](const auto& m, logscan::rule_context& ctx) {
            ++c.handled;
            ctx.mode = m.template get<6>().ends_with(":") ? 1u : 0u;
            c.events.push_back("H" + std::string(m.template get<4>()) + "|" + std::string(m.template get<6>()));
        }).in_all_modes(),
        logscan::rule<R"( ([^@: ]+)(?:@(\d+))?: \(([\d, ]*)\))">([&c](const auto& m) {
            ++c.handled;
            std::string e = "S" + std::string(m.template get<1>());
            for (auto d : logscan::search_all<R"(\d+)">(m.template get<3>())) e += "," + std::string(d.template get<0>());
            c.events.push_back(e);
        }).in_modes(2u));
    logscan::rule_reader reader(rules, [&c](const logscan::line& l) {
        ++c.handled;
        c.events.push_back("T" + std::to_string(l.number));
    }, logscan::rule_options{true});
    struct feeder {
        decltype(reader)& r;
        counts& c;
        void on_line(const logscan::line& l) {
            ++c.lines;
            r.feed(l);
        }
    } f{reader, c};
    std::vector<char> carry(4096);
    logscan::line_splitter<feeder> s(f, carry);
    const fuzz::two_chunks halves(in, split);
    s.feed(halves.first());
    s.feed(halves.second());
    s.finish();
    if (c.handled != c.lines) std::abort();
    return c.events;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::check_split(data, size, run);
}
