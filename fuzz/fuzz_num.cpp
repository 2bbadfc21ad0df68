// SPDX-License-Identifier: MIT
// Fuzz target for num.hpp. Every line of the input (and the whole input) is fed to every
// parser, and the results are checked against references written independently here:
// - a whole-text grammar check (plain and grouped) decides validity;
// - parse_number<double|float> agrees bit for bit with strtod/strtof on valid texts, and
//   reports result_out_of_range exactly on overflow to infinity;
// - parse_number<int64_t> agrees with std::from_chars;
// - parse_grouped equals parse_number of the text with its ',' removed when the grouping is
//   valid (ints and doubles);
// - prefix parsers consume a valid number, and no longer prefix is a valid number;
// - shape_dims agrees with a split-on-',' reference;
// - percent / time / byte size / clock results are consistent with the plain parsers.
// Any violated invariant calls abort(). Reads outside the input are caught by ASan (the input
// buffer is exactly sized).
#include <logscan/num.hpp>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace {

[[noreturn]] void fail(const char* what, std::string_view text) {
    std::fprintf(stderr, "fuzz_num invariant violated: %s on [%.*s]\n", what,
                 static_cast<int>(text.size() > 200 ? 200 : text.size()), text.data());
    std::abort();
}
#define CHECK_OR_DIE(cond, what, text)                                                             \
    do {                                                                                           \
        if (!(cond)) fail(what, text);                                                             \
    } while (0)

bool digit(char c) { return c >= '0' && c <= '9'; }

// Whole-text grammar of formats.md, written independently of num.hpp.
bool valid_decimal(std::string_view s, bool grouped, bool allow_fraction = true) {
    std::size_t i = 0, n = s.size();
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t j = i;
    while (j < n && digit(s[j])) ++j;
    if (j == i) return false;
    if (grouped && j < n && s[j] == ',') {
        if (j - i > 3 || s[i] == '0') return false;
        while (j < n && s[j] == ',') {
            for (std::size_t k = 1; k <= 3; ++k)
                if (j + k >= n || !digit(s[j + k])) return false;
            j += 4;
            if (j < n && digit(s[j])) return false;
        }
    }
    if (!allow_fraction) return j == n;
    if (j < n && s[j] == '.') {
        const std::size_t k = ++j;
        while (j < n && digit(s[j])) ++j;
        if (j == k) return false;
    }
    if (j < n && (s[j] == 'e' || s[j] == 'E')) {
        ++j;
        if (j < n && (s[j] == '+' || s[j] == '-')) ++j;
        const std::size_t k = j;
        while (j < n && digit(s[j])) ++j;
        if (j == k) return false;
    }
    return j == n;
}

std::string strip_commas(std::string_view s) {
    std::string out;
    for (char c : s)
        if (c != ',') out.push_back(c);
    return out;
}

template <class T>
bool same_bits(T a, T b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

void check_floats(std::string_view t) {
    const bool valid = valid_decimal(t, false);
    const auto d = logscan::parse_number<double>(t);
    const auto f = logscan::parse_number<float>(t);
    if (!valid) {
        CHECK_OR_DIE(d.ec == std::errc::invalid_argument, "double: invalid text accepted", t);
        CHECK_OR_DIE(f.ec == std::errc::invalid_argument, "float: invalid text accepted", t);
        CHECK_OR_DIE(d.ptr >= t.data() && d.ptr <= t.data() + t.size(), "double: ptr out of range",
                     t);
        CHECK_OR_DIE(logscan::classify_number(t) == logscan::number_kind::none, "classify", t);
        return;
    }
    const std::string z(t);
    const double rd = std::strtod(z.c_str(), nullptr);
    const float rf = std::strtof(z.c_str(), nullptr);
    CHECK_OR_DIE(same_bits(d.value, rd), "double differs from strtod", t);
    CHECK_OR_DIE(same_bits(f.value, rf), "float differs from strtof", t);
    CHECK_OR_DIE((d.ec == std::errc::result_out_of_range) == std::isinf(rd), "double ec", t);
    CHECK_OR_DIE((f.ec == std::errc::result_out_of_range) == std::isinf(rf), "float ec", t);
    CHECK_OR_DIE(d.ptr == t.data() + t.size(), "double ptr", t);
    const bool floating = t.find_first_of(".eE") != std::string_view::npos;
    CHECK_OR_DIE(logscan::classify_number(t) ==
                     (floating ? logscan::number_kind::floating : logscan::number_kind::integer),
                 "classify", t);
}

void check_ints(std::string_view t) {
    const auto r = logscan::parse_number<std::int64_t>(t);
    const auto u = logscan::parse_number<std::uint32_t>(t);
    if (!valid_decimal(t, false, false)) {
        CHECK_OR_DIE(r.ec == std::errc::invalid_argument, "int: invalid text accepted", t);
        CHECK_OR_DIE(u.ec == std::errc::invalid_argument, "uint: invalid text accepted", t);
        return;
    }
    const char* b = t.data() + (t[0] == '+' ? 1 : 0);
    std::int64_t ref = 0;
    const auto fr = std::from_chars(b, t.data() + t.size(), ref);
    CHECK_OR_DIE(fr.ec == r.ec && (fr.ec != std::errc{} || ref == r.value), "int vs from_chars", t);
    if (t[0] != '-') {
        std::uint32_t ru = 0;
        const auto fu = std::from_chars(b, t.data() + t.size(), ru);
        CHECK_OR_DIE(fu.ec == u.ec && (fu.ec != std::errc{} || ru == u.value), "uint vs from_chars",
                     t);
    } else {
        CHECK_OR_DIE(u.ec == std::errc::invalid_argument, "uint accepted '-'", t);
    }
    // the grouped digit loop agrees with from_chars on plain digits too (same text)
    const auto g = logscan::parse_grouped<std::int64_t>(t);
    CHECK_OR_DIE(g.ec == r.ec && g.value == r.value, "grouped int on plain text", t);
}

void check_grouped(std::string_view t) {
    const bool valid = valid_decimal(t, true);
    const auto g = logscan::parse_grouped<double>(t);
    const auto gf = logscan::parse_grouped<float>(t);
    const auto gi = logscan::parse_grouped<std::int64_t>(t);
    const auto gv = logscan::parse_grouped_value(t);
    if (!valid) {
        CHECK_OR_DIE(g.ec == std::errc::invalid_argument, "grouped: invalid text accepted", t);
        CHECK_OR_DIE(gf.ec == std::errc::invalid_argument, "grouped float: invalid accepted", t);
        CHECK_OR_DIE(gi.ec == std::errc::invalid_argument, "grouped int: invalid accepted", t);
        CHECK_OR_DIE(gv.ec == std::errc::invalid_argument, "grouped value: invalid accepted", t);
        CHECK_OR_DIE(logscan::classify_grouped(t) == logscan::number_kind::none, "classify_grouped",
                     t);
        return;
    }
    const std::string plain = strip_commas(t);
    const auto p = logscan::parse_number<double>(plain);
    CHECK_OR_DIE(p.ec == g.ec && same_bits(p.value, g.value), "grouped double != plain", t);
    const auto pf = logscan::parse_number<float>(plain);
    CHECK_OR_DIE(pf.ec == gf.ec && same_bits(pf.value, gf.value), "grouped float != plain", t);
    const auto pi = logscan::parse_number<std::int64_t>(plain);
    CHECK_OR_DIE(pi.ec == gi.ec && pi.value == gi.value, "grouped int != plain", t);
    const bool floating = t.find_first_of(".eE") != std::string_view::npos;
    CHECK_OR_DIE(gv.value.kind ==
                     (floating ? logscan::number_kind::floating : logscan::number_kind::integer),
                 "grouped value kind", t);
    if (floating)
        CHECK_OR_DIE(gv.ec == g.ec && same_bits(gv.value.floating, g.value), "value double", t);
    else
        CHECK_OR_DIE(gv.ec == gi.ec && (!gi.ok() || gv.value.integer == gi.value), "value int", t);
}

template <class T>
void check_prefix(std::string_view t, bool grouped) {
    const char* first = t.data();
    const char* last = first + t.size();
    const auto r = grouped ? logscan::parse_grouped_prefix<T>(first, last)
                           : logscan::parse_prefix<T>(first, last);
    CHECK_OR_DIE(r.ptr >= first && r.ptr <= last, "prefix ptr out of range", t);
    constexpr bool is_float = std::is_floating_point_v<T>;
    if (r.ec == std::errc::invalid_argument) {
        CHECK_OR_DIE(r.ptr == first, "prefix invalid ptr", t);
        // no prefix at all is a number (a number starts with a digit or a sign and a digit)
        CHECK_OR_DIE(t.empty() || !(digit(t[0]) ||
                                    (t.size() > 1 && (t[0] == '+' || t[0] == '-') && digit(t[1]))),
                     "prefix missed a number", t);
        return;
    }
    const std::string_view num(first, static_cast<std::size_t>(r.ptr - first));
    CHECK_OR_DIE(valid_decimal(num, grouped, is_float), "prefix consumed a non-number", t);
    const auto whole = grouped ? logscan::parse_grouped<T>(num) : logscan::parse_number<T>(num);
    CHECK_OR_DIE(whole.ec == r.ec && same_bits(whole.value, r.value), "prefix != whole", t);
    // The number never ends right before a digit ("1,2345" gives 1, not 1,234 and a stray 5).
    CHECK_OR_DIE(r.ptr == last || !digit(*r.ptr), "prefix ends before a digit", t);
    if (t.size() <=
        100) { // longest match: no longer prefix that ends before a non-digit is a number
        for (std::size_t k = num.size() + 1; k <= t.size(); ++k)
            CHECK_OR_DIE(!(valid_decimal(t.substr(0, k), grouped, is_float) &&
                           (k == t.size() || !digit(t[k]))),
                         "prefix not longest", t);
    }
}

// Reference shape parser: optional dtype, brackets, split on ','.
void check_shape(std::string_view t) {
    const auto s = logscan::shape_dims(t);
    std::size_t i = 0;
    while (i < t.size() && (std::isalnum(static_cast<unsigned char>(t[i])) || t[i] == '_')) ++i;
    bool ok = i == 0 || !digit(t[0]);
    const std::string_view dtype = t.substr(0, i);
    std::vector<std::int64_t> dims;
    bool range_error = false;
    if (ok && i < t.size() && t.size() - i >= 2) {
        const char open = t[i], close = t.back();
        ok = (open == '(' && close == ')') || (open == '[' && close == ']') ||
             (open == '{' && close == '}');
        std::string_view inner = t.substr(i + 1, t.size() - i - 2);
        auto trim = [](std::string_view x) {
            while (!x.empty() && (x.front() == ' ' || x.front() == '\t')) x.remove_prefix(1);
            while (!x.empty() && (x.back() == ' ' || x.back() == '\t')) x.remove_suffix(1);
            return x;
        };
        inner = trim(inner);
        if (ok && !inner.empty()) {
            if (inner.back() == ',') inner = trim(inner.substr(0, inner.size() - 1));
            std::size_t start = 0;
            for (;;) {
                const std::size_t c = inner.find(',', start);
                const std::string_view part = trim(inner.substr(
                    start, c == std::string_view::npos ? std::string_view::npos : c - start));
                if (!valid_decimal(part, false, false)) {
                    ok = false;
                    break;
                }
                std::int64_t v = 0;
                const char* b = part.data() + (part[0] == '+' ? 1 : 0);
                if (std::from_chars(b, part.data() + part.size(), v).ec != std::errc{})
                    range_error = true;
                dims.push_back(v);
                if (c == std::string_view::npos) break;
                start = c + 1;
            }
        }
    } else {
        ok = false;
    }
    // num.hpp reports the first problem from the left; the reference only knows whether there
    // is one. A range error counts as invalid in both.
    const bool ref_ok = ok && !range_error;
    CHECK_OR_DIE(s.ok() == ref_ok, "shape validity differs from reference", t);
    if (!s.ok()) {
        CHECK_OR_DIE(s.size() == 0 && s.begin() == s.end(), "invalid shape iterates", t);
        CHECK_OR_DIE(s.ptr() >= t.data() && s.ptr() <= t.data() + t.size(), "shape ptr", t);
        return;
    }
    CHECK_OR_DIE(s.dtype() == dtype, "shape dtype", t);
    CHECK_OR_DIE(s.size() == dims.size(), "shape size", t);
    std::size_t k = 0;
    for (std::int64_t d : s) {
        CHECK_OR_DIE(k < dims.size() && d == dims[k], "shape dim", t);
        ++k;
    }
    CHECK_OR_DIE(k == dims.size(), "shape iteration count", t);
}

// Sequences of shape lists: a single valid list is a one-element sequence; the elements of a
// valid sequence are valid lists whose texts, re-parsed alone, agree.
void check_shape_sequence(std::string_view t) {
    const auto seq = logscan::shape_lists(t);
    if (logscan::shape_dims(t).ok())
        CHECK_OR_DIE(seq.ok() && seq.size() == 1, "single shape as sequence", t);
    if (!seq.ok()) {
        CHECK_OR_DIE(seq.begin() == seq.end() && seq.size() == 0, "invalid sequence iterates", t);
        CHECK_OR_DIE(seq.ptr() >= t.data() && seq.ptr() <= t.data() + t.size(), "sequence ptr", t);
        return;
    }
    std::size_t n = 0;
    for (const logscan::shape_list& s : seq) {
        CHECK_OR_DIE(s.ok(), "sequence element invalid", t);
        const char* start = s.dtype().empty() ? s.brackets().data() : s.dtype().data();
        const std::string_view alone(start, static_cast<std::size_t>(s.ptr() - start));
        const auto again = logscan::shape_dims(alone);
        CHECK_OR_DIE(again.ok() && again.size() == s.size() && again.dtype() == s.dtype(),
                     "element re-parse", t);
        ++n;
    }
    CHECK_OR_DIE(n == seq.size(), "sequence count", t);
}

void check_units(std::string_view t) {
    const char* first = t.data();
    const char* last = first + t.size();
    // percent: the text before '%' (blanks trimmed) is a grouped number with that value
    const auto p = logscan::parse_percent(t);
    if (p.ec != std::errc::invalid_argument) {
        CHECK_OR_DIE(!t.empty() && t.back() == '%', "percent without %", t);
        std::string_view n = t.substr(0, t.size() - 1);
        while (!n.empty() && (n.back() == ' ' || n.back() == '\t')) n.remove_suffix(1);
        const auto g = logscan::parse_grouped<double>(n);
        CHECK_OR_DIE(g.ec == p.ec && same_bits(g.value, p.value), "percent value", t);
    }
    const auto pp = logscan::parse_percent_prefix(first, last);
    CHECK_OR_DIE(pp.ptr >= first && pp.ptr <= last, "percent prefix ptr", t);

    const auto tm = logscan::parse_time(t);
    if (tm.ec != std::errc::invalid_argument) {
        const auto num = logscan::parse_grouped_prefix<double>(first, last);
        CHECK_OR_DIE(num.ec == tm.ec && same_bits(num.value, tm.value.value), "time value", t);
        std::string_view unit(num.ptr, static_cast<std::size_t>(last - num.ptr));
        while (!unit.empty() && (unit.front() == ' ' || unit.front() == '\t'))
            unit.remove_prefix(1);
        const auto u = logscan::parse_time_unit(unit);
        CHECK_OR_DIE(u.ok() && u.value == tm.value.unit, "time unit", t);
    }
    const auto tp = logscan::parse_time_prefix(first, last);
    CHECK_OR_DIE(tp.ptr >= first && tp.ptr <= last, "time prefix ptr", t);

    const auto by = logscan::parse_byte_size(t);
    if (by.ec != std::errc::invalid_argument) {
        const auto num = logscan::parse_grouped_prefix<double>(first, last);
        CHECK_OR_DIE(num.ec == by.ec && same_bits(num.value, by.value.value), "byte value", t);
        std::string_view unit(num.ptr, static_cast<std::size_t>(last - num.ptr));
        while (!unit.empty() && (unit.front() == ' ' || unit.front() == '\t'))
            unit.remove_prefix(1);
        const auto u = logscan::parse_byte_unit(unit);
        CHECK_OR_DIE(u.ok() && u.value == by.value.unit, "byte unit", t);
    }
    const auto bp = logscan::parse_byte_size_prefix(first, last);
    CHECK_OR_DIE(bp.ptr >= first && bp.ptr <= last, "byte prefix ptr", t);

    // clock: the integer form agrees with the double form when there is no fraction
    const auto cd = logscan::parse_clock_duration(t);
    const auto ci = logscan::parse_clock_duration<std::int64_t>(t);
    const bool has_frac = t.find('.') != std::string_view::npos;
    if (!has_frac) {
        CHECK_OR_DIE(cd.ec == ci.ec, "clock ec int vs double", t);
        if (ci.ok()) CHECK_OR_DIE(cd.value == static_cast<double>(ci.value), "clock value", t);
    }
    if (ci.ok()) { // reference for the day-less form H:MM:SS
        const std::size_t c1 = t.find(':');
        if (t.find(' ') == std::string_view::npos && c1 != std::string_view::npos) {
            CHECK_OR_DIE(t.size() == c1 + 6 && t[c1 + 3] == ':', "clock syntax", t);
            std::int64_t h = 0;
            std::from_chars(t.data(), t.data() + c1, h);
            const std::int64_t m = (t[c1 + 1] - '0') * 10 + (t[c1 + 2] - '0');
            const std::int64_t s = (t[c1 + 4] - '0') * 10 + (t[c1 + 5] - '0');
            CHECK_OR_DIE(m < 60 && s < 60, "clock fields", t);
            CHECK_OR_DIE(ci.value == h * 3600 + m * 60 + s, "clock reference", t);
        }
    }
    const auto cp = logscan::parse_clock_duration_prefix(first, last);
    CHECK_OR_DIE(cp.ptr >= first && cp.ptr <= last, "clock prefix ptr", t);
}

void check_all(std::string_view t) {
    check_floats(t);
    check_ints(t);
    check_grouped(t);
    check_prefix<double>(t, false);
    check_prefix<double>(t, true);
    check_prefix<std::int64_t>(t, false);
    check_prefix<std::int64_t>(t, true);
    check_prefix<float>(t, true);
    check_shape(t);
    check_shape_sequence(t);
    check_units(t);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view all(reinterpret_cast<const char*>(data), size);
    if (all.size() <= 8192) check_all(all);
    // each line separately, as its own exactly-sized buffer so ASan sees overreads
    std::size_t start = 0;
    while (start < all.size()) {
        std::size_t nl = all.find('\n', start);
        if (nl == std::string_view::npos) nl = all.size();
        if (start != 0 || nl != all.size()) {
            const std::size_t len = nl - start;
            std::vector<char> exact(all.begin() + static_cast<std::ptrdiff_t>(start),
                                    all.begin() + static_cast<std::ptrdiff_t>(nl));
            check_all(std::string_view(exact.data(), len));
        }
        start = nl + 1;
    }
    return 0;
}
