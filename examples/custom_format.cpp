// SPDX-License-Identifier: MIT
// custom_format: a complete parser for a format logscan does not ship — PyTorch's
// `prof.key_averages().table()` — built from the toolkit's parts: line framing, the
// rule-line table reader and the number/unit parsers. Prints the operators by self CPU time.
//
//   custom_format [FILE]     (default: examples/data/pytorch_key_averages.txt)
#include <logscan/lines.hpp>
#include <logscan/num.hpp>
#include <logscan/table.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace pytorch {

struct op { char name[96]; double self_s; long calls; };

// The visitor: keeps the `Top` operators by self CPU time, in constant memory.
template <std::size_t Top = 5>
struct top_ops {
    std::array<op, Top> best{};
    std::size_t n = 0, rows = 0, bad = 0;
    double self_total_s = 0, reported_total_s = 0;

    void on_table_row(const logscan::table_row& r) {
        const logscan::cell *name = r.find("Name"), *self = r.find("Self CPU"), *calls = r.find("# of Calls");
        if (!name || !self || !calls) return;
        const auto t = logscan::parse_time(self->text());
        const auto c = logscan::parse_number<long>(calls->text());
        if (!t.ok() || !c.ok()) { ++bad; return; }  // never silently: counted and reported
        ++rows;
        self_total_s += t.value.seconds();
        op o{{}, t.value.seconds(), c.value};
        const std::string_view nm = name->text();
        nm.copy(o.name, std::min(nm.size(), sizeof o.name - 1));
        if (n < Top) best[n++] = o;
        else if (o.self_s > best[Top - 1].self_s) best[Top - 1] = o;
        std::sort(best.begin(), best.begin() + static_cast<std::ptrdiff_t>(n),
                  [](const op& a, const op& b) { return a.self_s > b.self_s; });
    }
    void on_table_text(const logscan::line& l) {  // "Self CPU time total: 8.586ms" after the table
        constexpr std::string_view key = "Self CPU time total: ";
        if (l.text.starts_with(key)) reported_total_s = logscan::parse_time(l.text.substr(key.size())).value.seconds();
    }
};

// Streams every line of a source (file, stdin, memory) through the table reader.
template <class Source, class V>
logscan::error parse(Source& src, V& vis) {
    logscan::rule_table<V> table(vis, logscan::position_unit::code_points);
    struct feeder { logscan::rule_table<V>& t; void on_line(const logscan::line& l) { t.feed(l); } } f{table};
    logscan::line_buffer carry;
    const logscan::error e = logscan::for_each_line(src, f, carry);
    table.finish();
    return e;
}

} // namespace pytorch

#ifndef LOGSCAN_TEST
int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : LOGSCAN_EXAMPLE_DATA "/pytorch_key_averages.txt";
    logscan::file_source src(path);
    pytorch::top_ops<5> top;
    if (const logscan::error e = pytorch::parse(src, top); !e.ok()) { std::perror(path); return 1; }
    std::printf("%zu operators, self CPU %.3f ms (profiler total %.3f ms), %zu unreadable rows\n", top.rows,
                top.self_total_s * 1e3, top.reported_total_s * 1e3, top.bad);
    for (std::size_t i = 0; i < top.n; ++i)
        std::printf("%2zu. %-32s %9.3f ms %5ld calls\n", i + 1, top.best[i].name, top.best[i].self_s * 1e3, top.best[i].calls);
    return top.bad == 0 ? 0 : 1;
}
#endif
