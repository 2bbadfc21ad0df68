// SPDX-License-Identifier: MIT
// A toy seventh format, `toy-kv`, to show (and test) what adding a format takes: this header,
// one registry line (main.cpp) and one line that compiles the command's work with it (ops.cpp,
// apart from logscan's formats, which are linked); the command's generic code then gives it detection,
// NDJSON, CSV, `stats`, `convert --threads`, `--type` and the usage texts.
//
//   TOY key=value      -> {"type":"pair","line":N,"key":"key","value":"value","number":V}
//                         (`number`: the value as a number, null when it is none)
//   any other line     -> text; blank lines yield nothing
#ifndef LOGSCAN_TESTS_TOY_FORMAT_HPP
#define LOGSCAN_TESTS_TOY_FORMAT_HPP

#include <logscan/format.hpp>
#include <logscan/ndjson.hpp>
#include <logscan/record.hpp>
#include <logscan/num.hpp>
#include <logscan/regex.hpp>

#include <optional>
#include <string_view>

namespace toy {

inline constexpr std::string_view format_name = "toy-kv";

struct pair {
    std::uint64_t line;
    std::string_view key, value;
    std::optional<double> number;
};
LOGSCAN_EVENT(on_pair, "void on_pair(const toy::pair&)");

// The records, described once: the command's NDJSON, CSV, `stats` and `--type` come from here.
using records = logscan::record_list<logscan::record_kind<"pair", pair, on_pair_event, logscan::field<"key", &pair::key>,
                                                          logscan::field<"value", &pair::value>,
                                                          logscan::field<"number", &pair::number>>,
                                     logscan::text_kind, logscan::error_kind>;

template <class Visitor>
struct core {
    Visitor& vis;
    static_assert(records::accepts<Visitor>());
    core(Visitor& v, const logscan::format_options&) : vis(v) {}
    logscan::flow read_line(const logscan::line& l) {
        if (const auto m = logscan::match<R"(TOY (\w+)=(\S*) *)">(l.text)) {
            const auto n = logscan::parse_number<double>(m.template get<2>());
            return LOGSCAN_VISIT(vis, on_pair, pair{l.number, m.template get<1>(), m.template get<2>(),
                                                    n.ok() ? std::optional<double>(n.value) : std::nullopt});
        }
        return logscan::text_record(vis, l);
    }
    logscan::flow line_too_long(const logscan::error& e) { return logscan::report_error(vis, e); }
    auto readers() const noexcept { return std::tuple<>(); } // no state across lines
};
template <class Visitor>
using parser = logscan::line_parser<core<Visitor>>;

inline constexpr std::string_view detect_signals = "`TOY key=value` lines";
constexpr std::size_t detect(std::string_view head, bool cut) noexcept {
    std::size_t n = 0;
    logscan::internal::for_each_head_line(head, cut, 64, [&](std::string_view l) { n += l.starts_with("TOY "); });
    return n;
}
constexpr bool split_point(std::string_view, std::string_view) noexcept { return true; }

LOGSCAN_FORMAT_MODULE(format_name, records, detect, detect_signals, parser, split_point); // (format.hpp: `format`, `parse`, ...)

} // namespace toy

#endif
