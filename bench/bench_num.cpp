// SPDX-License-Identifier: MIT
// bench_num [--mb N] [--runs N]: parses every number of a number-heavy text, one per line,
// built from the numbers of the TVM and Paddle samples (default 20 MB).
//
// Rows: logscan::parse_prefix<double> (fast_float underneath), std::strtod, std::from_chars
// <double> (libstdc++), std::istringstream >> double, all on the same text with the thousands
// separators removed; then logscan::parse_grouped_prefix<double> on the text as printed (with
// separators), and logscan::parse_prefix<int64_t> vs std::from_chars<int64_t> on integers.
// Every contender's sum of values is checked against the reference so no row skips work.
#include <logscan/num.hpp>

#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <string_view>
#include <cstdint>

#include "bench_util.hpp"

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The number tokens of a text: maximal runs of [0-9.,] starting with a digit, accepted when
// logscan's grouped grammar accepts them whole (their exact form matters little here).
std::string number_lines(std::string_view text, bool keep_commas, bool integers_only) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        if (!is_digit(text[i]) ||
            (i > 0 &&
             (std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_'))) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < text.size() && (is_digit(text[j]) || text[j] == '.' || text[j] == ',')) ++j;
        std::string_view tok = text.substr(i, j - i);
        while (!tok.empty() && !is_digit(tok.back())) tok.remove_suffix(1);
        const auto kind = logscan::classify_grouped(tok);
        if (kind != logscan::number_kind::none &&
            (!integers_only || kind == logscan::number_kind::integer)) {
            for (char c : tok)
                if (keep_commas || c != ',') out.push_back(c);
            out.push_back('\n');
        }
        i = j;
    }
    return out;
}

} // namespace

int main(int argc, char** argv) {
    const bench::options opt = bench::parse_args(argc, argv, 20);
    const std::string samples =
        bench::sample("004_d73c77cb3fb2895c.txt") + bench::sample("003_1c776201c8b5b83e.txt");
    const std::string plain = bench::repeat_to(number_lines(samples, false, false), opt.mb);
    const std::string grouped = bench::repeat_to(number_lines(samples, true, false), opt.mb);
    const std::string ints = bench::repeat_to(number_lines(samples, false, true), opt.mb);

    double ref_sum = 0;
    {
        const char* p = plain.c_str();
        const char* last = p + plain.size();
        while (p < last) {
            char* end = nullptr;
            ref_sum += std::strtod(p, &end);
            p = end + 1;
        }
    }
    double ref_sum_grouped = 0; // strtod of each line of the grouped text with ',' removed
    {
        std::string line;
        for (char c : grouped) {
            if (c == '\n') {
                ref_sum_grouped += std::strtod(line.c_str(), nullptr);
                line.clear();
            } else if (c != ',') {
                line.push_back(c);
            }
        }
    }
    auto check = [&](const char* who, double sum, double ref) {
        if (std::fabs(sum - ref) > 1e-9 * std::fabs(ref)) {
            std::fprintf(stderr, "%s: sum %.17g differs from reference %.17g\n", who, sum, ref);
            std::exit(1);
        }
    };

    bench::table t("doubles, one per line, no separators", plain.size());
    {
        double sum = 0;
        const double s = bench::best_seconds(opt.runs, [&] {
            sum = 0;
            const char* p = plain.data();
            const char* last = p + plain.size();
            while (p < last) {
                const auto r = logscan::parse_prefix<double>(p, last);
                sum += r.value;
                p = r.ptr + 1;
            }
            bench::keep(sum);
        });
        check("logscan", sum, ref_sum);
        t.add("logscan::parse_prefix<double>", s, false);
    }
    {
        double sum = 0;
        const double s = bench::best_seconds(opt.runs, [&] {
            sum = 0;
            const char* p = plain.data();
            const char* last = p + plain.size();
            while (p < last) {
                const char* nl = static_cast<const char*>(
                    std::memchr(p, '\n', static_cast<std::size_t>(last - p)));
                sum += logscan::parse_number<double>(
                           std::string_view(p, static_cast<std::size_t>(nl - p)))
                           .value;
                p = nl + 1;
            }
            bench::keep(sum);
        });
        check("logscan whole", sum, ref_sum);
        t.add("memchr + logscan::parse_number<double>", s);
    }
    {
        double sum = 0;
        const double s = bench::best_seconds(opt.runs, [&] {
            sum = 0;
            const char* p = plain.c_str();
            const char* last = p + plain.size();
            while (p < last) {
                char* end = nullptr;
                sum += std::strtod(p, &end);
                p = end + 1;
            }
            bench::keep(sum);
        });
        check("strtod", sum, ref_sum);
        t.add("std::strtod", s, true);
    }
    {
        double sum = 0;
        const double s = bench::best_seconds(opt.runs, [&] {
            sum = 0;
            const char* p = plain.data();
            const char* last = p + plain.size();
            while (p < last) {
                double v = 0;
                const auto r = std::from_chars(p, last, v);
                sum += v;
                p = r.ptr + 1;
            }
            bench::keep(sum);
        });
        check("from_chars", sum, ref_sum);
        t.add("std::from_chars<double>", s);
    }
    {
        double sum = 0;
        const double s = bench::best_seconds(opt.runs, [&] {
            sum = 0;
            std::istringstream in(plain);
            double v = 0;
            while (in >> v) sum += v;
            bench::keep(sum);
        });
        check("istringstream", sum, ref_sum);
        t.add("std::istringstream >> double", s);
    }
    t.print();

    bench::table g("doubles as printed, with thousands separators", grouped.size());
    {
        double sum = 0;
        const double s = bench::best_seconds(opt.runs, [&] {
            sum = 0;
            const char* p = grouped.data();
            const char* last = p + grouped.size();
            while (p < last) {
                const auto r = logscan::parse_grouped_prefix<double>(p, last);
                sum += r.value;
                p = r.ptr + 1;
            }
            bench::keep(sum);
        });
        check("parse_grouped_prefix", sum, ref_sum_grouped);
        g.add("logscan::parse_grouped_prefix<double>", s, true,
              "(no standard function reads separators)");
    }
    {
        double sum = 0;
        const double s = bench::best_seconds(opt.runs, [&] {
            sum = 0;
            const char* p = grouped.data();
            const char* last = p + grouped.size();
            while (p < last) {
                const char* nl = static_cast<const char*>(
                    std::memchr(p, '\n', static_cast<std::size_t>(last - p)));
                const auto r = logscan::parse_grouped_value(
                    std::string_view(p, static_cast<std::size_t>(nl - p)));
                sum += r.value.as_double();
                p = nl + 1;
            }
            bench::keep(sum);
        });
        check("parse_grouped_value", sum, ref_sum_grouped);
        g.add("memchr + logscan::parse_grouped_value", s, false,
              "(int64 or double, as the text says)");
    }
    g.print();

    bench::table it("integers, one per line", ints.size());
    long long isum_ref = 0;
    {
        long long sum = 0;
        const double s = bench::best_seconds(opt.runs, [&] {
            sum = 0;
            const char* p = ints.data();
            const char* last = p + ints.size();
            while (p < last) {
                std::int64_t v = 0;
                const auto r = std::from_chars(p, last, v);
                sum += v;
                p = r.ptr + 1;
            }
            bench::keep(sum);
        });
        isum_ref = sum;
        it.add("std::from_chars<int64_t>", s, true);
    }
    {
        long long sum = 0;
        const double s = bench::best_seconds(opt.runs, [&] {
            sum = 0;
            const char* p = ints.data();
            const char* last = p + ints.size();
            while (p < last) {
                const auto r = logscan::parse_prefix<std::int64_t>(p, last);
                sum += r.value;
                p = r.ptr + 1;
            }
            bench::keep(sum);
        });
        if (sum != isum_ref) {
            std::fprintf(stderr, "integer sums differ\n");
            return 1;
        }
        it.add("logscan::parse_prefix<int64_t>", s);
    }
    {
        long long sum = 0;
        const double s = bench::best_seconds(opt.runs, [&] {
            sum = 0;
            const char* p = ints.c_str();
            const char* last = p + ints.size();
            while (p < last) {
                char* end = nullptr;
                sum += std::strtoll(p, &end, 10);
                p = end + 1;
            }
            bench::keep(sum);
        });
        if (sum != isum_ref) {
            std::fprintf(stderr, "strtoll sum differs\n");
            return 1;
        }
        it.add("std::strtoll", s);
    }
    it.print();
    return 0;
}
