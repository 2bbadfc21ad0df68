// SPDX-License-Identifier: MIT
#include <logscan/num.hpp>

#include <doctest/doctest.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <new>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/alloc_counter.hpp"
#include "support/chunking.hpp"

namespace {

using logscan::number_kind;

std::uint64_t bits(double d) {
    std::uint64_t u;
    std::memcpy(&u, &d, sizeof u);
    return u;
}
std::uint32_t bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

// The reference conversion: strtod in the C locale (the test binary never calls setlocale).
double ref_strtod(const std::string& s, bool* range_error = nullptr) {
    errno = 0;
    char* end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    REQUIRE(end == s.c_str() + s.size());
    if (range_error) *range_error = errno == ERANGE;
    return d;
}
float ref_strtof(const std::string& s) {
    char* end = nullptr;
    const float f = std::strtof(s.c_str(), &end);
    REQUIRE(end == s.c_str() + s.size());
    return f;
}
std::string strip_commas(std::string_view s) {
    std::string out;
    for (char c : s)
        if (c != ',') out.push_back(c);
    return out;
}

// Random decimal strings of many shapes: sign, leading zeros, long and short integer and
// fraction parts, exponents from tiny to huge, a few very long ones.
class decimal_generator {
public:
    explicit decimal_generator(std::uint64_t seed) : rng_(seed) {}
    std::string next(bool allow_long = true) {
        std::string s;
        switch (pick(4)) {
        case 0: s += '-'; break;
        case 1: s += '+'; break;
        default: break;
        }
        const int shape = pick(10);
        std::size_t int_len = 1 + static_cast<std::size_t>(pick(shape < 6 ? 6 : 25));
        std::size_t frac_len =
            pick(3) == 0 ? 0 : 1 + static_cast<std::size_t>(pick(shape < 6 ? 8 : 30));
        if (allow_long && pick(200) == 0) { // long: hundreds of digits
            int_len = 1 + static_cast<std::size_t>(pick(400));
            frac_len = static_cast<std::size_t>(pick(900));
        }
        if (pick(8) == 0) s.append(1 + static_cast<std::size_t>(pick(4)), '0'); // leading zeros
        digits(s, int_len);
        if (frac_len) {
            s += '.';
            if (pick(6) == 0) s.append(static_cast<std::size_t>(pick(30)), '0');
            digits(s, frac_len);
        }
        if (pick(3) == 0) {
            s += pick(2) ? 'e' : 'E';
            switch (pick(3)) {
            case 0: s += '-'; break;
            case 1: s += '+'; break;
            default: break;
            }
            int e = pick(4) == 0 ? pick(400) : pick(40); // up to beyond the double range
            if (pick(50) == 0) e = pick(100000);
            s += std::to_string(e);
        }
        return s;
    }
    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
    void digits(std::string& s, std::size_t n) {
        const int style = pick(5);
        for (std::size_t i = 0; i < n; ++i) {
            char c = static_cast<char>('0' + pick(10));
            if (style == 0) c = pick(4) ? '9' : c; // runs of 9s (rounding carries)
            if (style == 1) c = pick(4) ? '0' : c; // sparse digits (halfway cases)
            s += c;
        }
    }

private:
    std::mt19937_64 rng_;
};

// Inserts ',' thousands separators into the integer part of a plain decimal text.
std::string group(const std::string& s) {
    std::size_t b = (s[0] == '-' || s[0] == '+') ? 1 : 0;
    std::size_t e = b;
    while (e < s.size() && s[e] >= '0' && s[e] <= '9') ++e;
    // a first group may not start with 0: drop leading zeros (keep one digit)
    std::string intpart = s.substr(b, e - b);
    std::size_t z = 0;
    while (z + 1 < intpart.size() && intpart[z] == '0') ++z;
    intpart = intpart.substr(z);
    std::string g;
    for (std::size_t i = 0; i < intpart.size(); ++i) {
        if (i && (intpart.size() - i) % 3 == 0) g += ',';
        g += intpart[i];
    }
    return s.substr(0, b) + g + s.substr(e);
}

} // namespace

// ---------------------------------------------------------------------------------------

TEST_CASE("num::parse_number integers") {
    CHECK(logscan::parse_number<int>("0").value == 0);
    CHECK(logscan::parse_number<int>("-42").value == -42);
    CHECK(logscan::parse_number<int>("+42").value == 42);
    CHECK(logscan::parse_number<int>("007").value == 7);
    CHECK(logscan::parse_number<std::int64_t>("205520896").value == 205520896);
    CHECK(logscan::parse_number<std::uint64_t>("18446744073709551615").value ==
          18446744073709551615ull);
    CHECK(logscan::parse_number<std::int64_t>("-9223372036854775808").value ==
          std::numeric_limits<std::int64_t>::min());
    CHECK(logscan::parse_number<std::int8_t>("-128").value == -128);
    CHECK(logscan::parse_number<std::uint8_t>("255").value == 255);

    // ptr is the end on success
    const std::string_view t = "12345";
    CHECK(logscan::parse_number<int>(t).ptr == t.data() + t.size());

    // overflow
    for (auto r :
         {logscan::parse_number<std::int8_t>("128"), logscan::parse_number<std::int8_t>("-129")})
        CHECK(r.ec == std::errc::result_out_of_range);
    CHECK(logscan::parse_number<std::uint8_t>("256").ec == std::errc::result_out_of_range);
    CHECK(logscan::parse_number<std::int64_t>("9223372036854775808").ec ==
          std::errc::result_out_of_range);
    CHECK(logscan::parse_number<std::uint64_t>("18446744073709551616").ec ==
          std::errc::result_out_of_range);
    CHECK(logscan::parse_number<int>("99999999999999999999999999999").ec ==
          std::errc::result_out_of_range);

    // invalid
    const std::string_view bad[] = {"",     "-",   "+",   " 1",    "1 ",  "1.0", "1e3", "12abc",
                                    "0x10", "--1", "+-1", "1,234", "nan", "inf", "١"};
    for (std::string_view b : bad) {
        INFO(b);
        const auto r = logscan::parse_number<int>(b);
        CHECK(r.ec == std::errc::invalid_argument);
        CHECK(!r.ok());
    }
    // invalid: ptr at the first byte that does not fit
    const std::string_view abc = "12abc";
    CHECK(logscan::parse_number<int>(abc).ptr == abc.data() + 2);
    const std::string_view sp = " 1";
    CHECK(logscan::parse_number<int>(sp).ptr == sp.data());
    CHECK(logscan::parse_number<unsigned>("-1").ec == std::errc::invalid_argument);
    CHECK(logscan::parse_number<unsigned>("-0").ec == std::errc::invalid_argument);
    CHECK(logscan::parse_number<unsigned>("+7").value == 7u);
}

TEST_CASE("num::parse_number integers are constexpr") {
    static_assert(logscan::parse_number<int>("-42").value == -42);
    static_assert(logscan::parse_number<std::int64_t>("-9223372036854775808").value ==
                  std::numeric_limits<std::int64_t>::min());
    static_assert(logscan::parse_number<std::uint8_t>("256").ec == std::errc::result_out_of_range);
    static_assert(logscan::parse_grouped<long>("97,226,683").value == 97226683);
    static_assert(!logscan::parse_grouped<long>("1,23").ok());
    static_assert(logscan::classify_grouped("12,424.27") == number_kind::floating);
    static_assert(logscan::parse_clock_duration<std::int64_t>("5:05:37").value == 18337);
    static_assert(logscan::shape_dims("(4, 64, 224, 224)").size() == 4);
    static_assert(logscan::parse_time_unit("msec").value == logscan::time_unit::ms);
    // the same calls at run time (from_chars path) give the same results
    CHECK(logscan::parse_number<int>("-42").value == -42);
    CHECK(logscan::parse_grouped<long>("97,226,683").value == 97226683);
}

TEST_CASE("num::integers agree with from_chars (runtime and constexpr paths)") {
    // The runtime path uses std::from_chars; grouped texts and constant evaluation use a digit
    // loop. Both must agree with from_chars on random integer texts, including overflow.
    std::mt19937_64 rng(42);
    std::uniform_int_distribution<int> len(1, 22), dig(0, 9), sign(0, 2);
    for (int i = 0; i < 20000; ++i) {
        std::string s = sign(rng) == 0 ? "-" : "";
        const int n = len(rng);
        for (int k = 0; k < n; ++k) s += static_cast<char>('0' + dig(rng));
        const char* b = s.data();
        const char* e = b + s.size();
        std::int64_t ref = 0;
        const auto fr = std::from_chars(b, e, ref);
        const auto ours = logscan::parse_number<std::int64_t>(s);
        const auto loop = logscan::internal::accumulate_integer<std::int64_t>(
            s[0] == '-' ? b + 1 : b, e, s[0] == '-');
        INFO(s);
        REQUIRE(fr.ptr == e);
        CHECK(ours.ec == fr.ec);
        CHECK(loop.ec == fr.ec);
        if (fr.ec == std::errc{}) {
            CHECK(ours.value == ref);
            CHECK(loop.value == ref);
        }
        std::int32_t ref32 = 0;
        const auto fr32 = std::from_chars(b, e, ref32);
        const auto loop32 = logscan::internal::accumulate_integer<std::int32_t>(
            s[0] == '-' ? b + 1 : b, e, s[0] == '-');
        CHECK(loop32.ec == fr32.ec);
        if (fr32.ec == std::errc{}) CHECK(loop32.value == ref32);
    }
}

TEST_CASE("num::skip_digits (8 bytes at a time) agrees with a byte loop") {
    // every byte value at every position of a 16-byte window of digits, several lengths
    for (int len = 0; len <= 16; ++len) {
        for (int pos = 0; pos < 16; ++pos) {
            for (int b = 0; b < 256; ++b) {
                std::string s(16, '7');
                s[static_cast<std::size_t>(pos)] = static_cast<char>(b);
                const char* first = s.data();
                const char* last = first + len;
                const char* ref = first;
                while (ref != last && *ref >= '0' && *ref <= '9') ++ref;
                if (logscan::internal::skip_digits(first, last) != ref)
                    FAIL_CHECK("len " << len << " pos " << pos << " byte " << b);
            }
        }
    }
}

TEST_CASE("num::parse_number doubles") {
    CHECK(logscan::parse_number<double>("74.64").value == 74.64);
    CHECK(logscan::parse_number<double>("0.637474").value == 0.637474);
    CHECK(logscan::parse_number<double>("-2.5e-3").value == -0.0025);
    CHECK(logscan::parse_number<double>("+1E2").value == 100.0);
    CHECK(logscan::parse_number<double>("3").value == 3.0);
    CHECK(logscan::parse_number<double>("00012.50").value == 12.5);
    CHECK(logscan::parse_number<float>("0.1").value == 0.1f);
    CHECK(std::signbit(logscan::parse_number<double>("-0").value));
    CHECK(std::signbit(logscan::parse_number<double>("-0.0e5").value));

    // overflow: result_out_of_range with +-infinity, like strtod's HUGE_VAL
    const auto big = logscan::parse_number<double>("1e400");
    CHECK(big.ec == std::errc::result_out_of_range);
    CHECK(big.value == std::numeric_limits<double>::infinity());
    CHECK(logscan::parse_number<double>("-1e400").value ==
          -std::numeric_limits<double>::infinity());
    CHECK(logscan::parse_number<double>("1.7976931348623159e308").ec ==
          std::errc::result_out_of_range);
    CHECK(logscan::parse_number<double>("1.7976931348623157e308").ok());
    CHECK(logscan::parse_number<float>("3.5e38").ec == std::errc::result_out_of_range);
    CHECK(logscan::parse_number<double>("1e99999999999999999999999").ec ==
          std::errc::result_out_of_range);
    // underflow: correctly rounded, not an error
    const auto tiny = logscan::parse_number<double>("1e-400");
    CHECK(tiny.ok());
    CHECK(tiny.value == 0.0);
    CHECK(logscan::parse_number<double>("4.9406564584124654e-324").value ==
          std::numeric_limits<double>::denorm_min());

    // rejected: not decimal numbers by the contract
    const std::string_view bad[] = {"",    "-",    "+",     ".",        "1.",    ".5",
                                    "-.5", "1e",   "1e+",   "1e-",      "e5",    "nan",
                                    "NaN", "inf",  "-inf",  "infinity", "0x1p3", " 1",
                                    "1 ",  "1.5x", "1.2.3", "1,5",      "1_000", "1e5.5"};
    for (std::string_view b : bad) {
        INFO(b);
        CHECK(logscan::parse_number<double>(b).ec == std::errc::invalid_argument);
        CHECK(logscan::parse_number<float>(b).ec == std::errc::invalid_argument);
    }
    const std::string_view x = "1.5x";
    CHECK(logscan::parse_number<double>(x).ptr == x.data() + 3);
    const std::string_view e = "1e+";
    CHECK(logscan::parse_number<double>(e).ptr == e.data() + 1);
}

TEST_CASE("num::parse_prefix") {
    const std::string_view t = "time=74.64ms;";
    const auto r = logscan::parse_prefix<double>(t.data() + 5, t.data() + t.size());
    CHECK(r.value == 74.64);
    CHECK(r.ptr == t.data() + 10);

    const std::string_view i = "12.5";
    const auto ri = logscan::parse_prefix<int>(i);
    CHECK(ri.value == 12);
    CHECK(ri.ptr == i.data() + 2);

    const std::string_view d = "1.x";
    const auto rd = logscan::parse_prefix<double>(d);
    CHECK(rd.value == 1.0);
    CHECK(rd.ptr == d.data() + 1);

    // fast_float alone would take "1." and "1.e5"; the contract does not
    for (std::string_view dot : {"1.", "1.e5", "-1.E+5", "1.,", "1.."}) {
        INFO(dot);
        const auto r2 = logscan::parse_prefix<double>(dot);
        CHECK(r2.ok());
        CHECK(r2.value == (dot[0] == '-' ? -1.0 : 1.0));
        CHECK(r2.ptr == dot.data() + (dot[0] == '-' ? 2 : 1));
        CHECK(logscan::parse_number<double>(dot).ec == std::errc::invalid_argument);
    }
    const std::string_view ex = "2e+q";
    CHECK(logscan::parse_prefix<double>(ex).ptr == ex.data() + 1);
    const std::string_view ex2 = "2e+3q";
    CHECK(logscan::parse_prefix<double>(ex2).value == 2000.0);
    CHECK(logscan::parse_prefix<double>(ex2).ptr == ex2.data() + 4);

    const std::string_view none = "abc";
    const auto rn = logscan::parse_prefix<double>(none);
    CHECK(rn.ec == std::errc::invalid_argument);
    CHECK(rn.ptr == none.data());
    const std::string_view empty;
    CHECK(logscan::parse_prefix<int>(empty.data(), empty.data()).ec == std::errc::invalid_argument);

    // si3.31 mp+re7.10: parse after the letters
    const std::string_view m = "mp+re7.10 omp0.03";
    CHECK(logscan::parse_prefix<double>(m.substr(5)).value == 7.1);

    // prefix overflow still reports the end of the number
    const std::string_view o = "300 x";
    const auto ro = logscan::parse_prefix<std::uint8_t>(o);
    CHECK(ro.ec == std::errc::result_out_of_range);
    CHECK(ro.ptr == o.data() + 3);
}

TEST_CASE("num::parse_grouped on real strings") {
    CHECK(logscan::parse_grouped<double>("1,577.51").value == 1577.51);
    CHECK(logscan::parse_grouped<double>("12,424.27").value == 12424.27);
    CHECK(logscan::parse_grouped<int>("3,983").value == 3983);
    CHECK(logscan::parse_grouped<std::int64_t>("97,226,683").value == 97226683);
    CHECK(logscan::parse_grouped<std::int64_t>("17,938,119,012").value == 17938119012);
    CHECK(logscan::parse_grouped<std::int64_t>("-1,234").value == -1234);
    CHECK(logscan::parse_grouped<double>("856.38").value == 856.38); // no separator
    CHECK(logscan::parse_grouped<int>("570").value == 570);
    CHECK(logscan::parse_grouped<double>("1,000e-3").value == 1.0);
    CHECK(logscan::parse_grouped<double>("-1,234,567.5").value == -1234567.5);

    const std::string_view bad[] = {"1,23",  "1,2345", "1234,567", "0,123",     ",123",
                                    "1,",    "1,,234", "1,234,",   "12,34,567", "1.234,5",
                                    "1 234", "-,1",    "1,234.",   "nan"};
    for (std::string_view b : bad) {
        INFO(b);
        CHECK(logscan::parse_grouped<double>(b).ec == std::errc::invalid_argument);
        CHECK(logscan::parse_grouped<std::int64_t>(b).ec == std::errc::invalid_argument);
    }
    // overflow through the separator path
    CHECK(logscan::parse_grouped<std::int32_t>("2,147,483,648").ec ==
          std::errc::result_out_of_range);
    CHECK(logscan::parse_grouped<std::int32_t>("-2,147,483,648").value ==
          std::numeric_limits<std::int32_t>::min());
    CHECK(logscan::parse_grouped<std::uint32_t>("-1,000").ec == std::errc::invalid_argument);

    // prefix: a ',' that does not start a group of exactly three digits ends the number
    const std::string_view list = "1,2,3";
    const auto p = logscan::parse_grouped_prefix<int>(list);
    CHECK(p.value == 1);
    CHECK(p.ptr == list.data() + 1);
    const std::string_view gd = "1,577.51     1.29";
    const auto pd = logscan::parse_grouped_prefix<double>(gd);
    CHECK(pd.value == 1577.51);
    CHECK(pd.ptr == gd.data() + 8);
    const std::string_view gd2 = "1577.5,123";
    CHECK(logscan::parse_grouped_prefix<double>(gd2).ptr == gd2.data() + 6);
    const std::string_view cell = "57,602     97,226,683";
    const auto c = logscan::parse_grouped_prefix<std::int64_t>(cell);
    CHECK(c.value == 57602);
    CHECK(c.ptr == cell.data() + 6);
}

TEST_CASE("num::classify and parse_number_value") {
    CHECK(logscan::classify_number("12") == number_kind::integer);
    CHECK(logscan::classify_number("-12") == number_kind::integer);
    CHECK(logscan::classify_number("1.5") == number_kind::floating);
    CHECK(logscan::classify_number("1e3") == number_kind::floating);
    CHECK(logscan::classify_number("1,234") == number_kind::none);
    CHECK(logscan::classify_number("nan") == number_kind::none);
    CHECK(logscan::classify_number("") == number_kind::none);
    CHECK(logscan::classify_number("-") == number_kind::none);
    CHECK(logscan::classify_number("35b19e27a40f9b21") == number_kind::none);
    CHECK(logscan::classify_grouped("1,234") == number_kind::integer);
    CHECK(logscan::classify_grouped("1,577.51") == number_kind::floating);
    CHECK(logscan::classify_grouped("1,23") == number_kind::none);

    auto n = logscan::parse_number_value("570");
    REQUIRE(n.ok());
    CHECK(n.value.is_integer());
    CHECK(n.value.integer == 570);
    CHECK(n.value.as_double() == 570.0);
    n = logscan::parse_number_value("0.38");
    REQUIRE(n.ok());
    CHECK(n.value.kind == number_kind::floating);
    CHECK(n.value.floating == 0.38);
    n = logscan::parse_grouped_value("97,226,683");
    CHECK(n.value.integer == 97226683);
    n = logscan::parse_grouped_value("1,577.51");
    CHECK(n.value.floating == 1577.51);
    CHECK(logscan::parse_number_value("139947715854336").value.integer == 139947715854336);
    // an integer beyond int64: out of range, nearest double available
    n = logscan::parse_number_value("123456789012345678901234");
    CHECK(n.ec == std::errc::result_out_of_range);
    CHECK(n.value.kind == number_kind::integer);
    CHECK(n.value.floating == 123456789012345678901234.0);
    n = logscan::parse_number_value("1e400");
    CHECK(n.ec == std::errc::result_out_of_range);
    CHECK(n.value.kind == number_kind::floating);
    CHECK(logscan::parse_number_value("1.2.3").ec == std::errc::invalid_argument);
    // the one-pass path's edges: what it leaves to the general path gets that path's answer
    CHECK(logscan::parse_number_value("-0").value.integer == 0);
    CHECK(logscan::parse_number_value("-0").value.kind == number_kind::integer);
    CHECK(std::signbit(logscan::parse_number_value("-0.0").value.floating));
    CHECK(logscan::parse_number_value("+7").value.integer == 7);
    CHECK(logscan::parse_number_value("007").value.integer == 7);
    CHECK(logscan::parse_number_value("999999999999999").value.integer == 999999999999999);    // 15 digits
    CHECK(logscan::parse_number_value("9999999999999999").value.integer == 9999999999999999);  // 16
    CHECK(logscan::parse_number_value("1.5e3").value.floating == 1500.0);
    CHECK(logscan::parse_number_value("1.").ptr == std::string_view("1.").data() + 1);
    CHECK(logscan::parse_number_value("1.").ec == std::errc::invalid_argument);
    CHECK(logscan::parse_number_value("5,000").ec == std::errc::invalid_argument);
    CHECK(logscan::parse_grouped_value("-1,234").value.integer == -1234);
    CHECK(logscan::parse_grouped_value("0,123").ec == std::errc::invalid_argument);
    const std::string_view ends = "12 ";
    CHECK(logscan::parse_number_value(ends).ptr == ends.data() + 2);
    CHECK(logscan::parse_number_value(ends).ec == std::errc::invalid_argument);
    CHECK(logscan::parse_number_value("").ec == std::errc::invalid_argument);
    CHECK(logscan::parse_number_value(std::string_view{}).ec == std::errc::invalid_argument); // (null data)
    CHECK(logscan::parse_grouped_value(std::string_view{}).ec == std::errc::invalid_argument);
    CHECK(logscan::parse_number_value("-").ec == std::errc::invalid_argument);
    CHECK(logscan::parse_grouped_value("1,2345").ec == std::errc::invalid_argument);
}

TEST_CASE("num::doubles agree bit for bit with strtod on random decimal strings") {
    decimal_generator gen(0xC0FFEE);
    int n_range = 0, n_long = 0;
    for (int i = 0; i < 120000; ++i) {
        const std::string s = gen.next();
        bool range = false;
        const double ref = ref_strtod(s, &range);
        const auto r = logscan::parse_number<double>(s);
        if (s.size() > 100) ++n_long;
        if (bits(ref) != bits(r.value) || r.ptr != s.data() + s.size()) {
            FAIL_CHECK("mismatch on " << s << ": strtod " << ref << " ours " << r.value);
            continue;
        }
        // result_out_of_range exactly when strtod overflowed to infinity
        const bool overflow = std::isinf(ref);
        n_range += overflow;
        if (overflow != (r.ec == std::errc::result_out_of_range) || (!overflow && !r.ok()))
            FAIL_CHECK("bad ec on " << s);
        (void)range;
        // classification follows the syntax
        const bool has_frac_or_exp = s.find_first_of(".eE") != std::string::npos;
        CHECK(logscan::classify_number(s) ==
              (has_frac_or_exp ? number_kind::floating : number_kind::integer));
    }
    CHECK(n_range > 100); // the generator does reach overflow
    CHECK(n_long > 100);  // and very long texts
}

TEST_CASE("num::short decimals (read as m / 10^k) agree with strtod at the 15-digit edge") {
    // 15 digits are read in one pass, 16 and more by fast_float: both sides of the edge,
    // with the values where rounding is hardest (runs of 9s, halfway-looking tails)
    std::mt19937_64 rng(0x5EED);
    int checked = 0;
    for (std::size_t total = 1; total <= 17; ++total) {
        for (std::size_t point = 0; point <= total; ++point) {
            for (int k = 0; k < 300; ++k) {
                std::string s = (k % 3 == 0) ? "-" : "";
                for (std::size_t i = 0; i < total; ++i) {
                    if (i == point && point != 0) s += '.';
                    const int style = k % 4;
                    s += style == 0 ? '9' : style == 1 ? (i + 1 == total ? '5' : '0') : static_cast<char>('0' + rng() % 10);
                }
                const double ref = std::strtod(s.c_str(), nullptr);
                const auto r = logscan::parse_number<double>(s);
                REQUIRE(r.ok());
                if (bits(ref) != bits(r.value)) FAIL_CHECK("mismatch on " << s << ": strtod " << ref << " ours " << r.value);
                // formats.md's "number" (one pass up to 15 digits too): an integer's text is
                // the integer from_chars reads, any other the double strtod gives
                const auto v = logscan::parse_number_value(s);
                REQUIRE(v.ok());
                REQUIRE(v.ptr == s.data() + s.size());
                if (s.find('.') == std::string::npos) {
                    std::int64_t want = 0;
                    REQUIRE(std::from_chars(s.data(), s.data() + s.size(), want).ec == std::errc{});
                    CHECK(v.value.kind == number_kind::integer);
                    if (v.value.integer != want) FAIL_CHECK("integer mismatch on " << s << ": " << v.value.integer);
                } else {
                    CHECK(v.value.kind == number_kind::floating);
                    if (bits(ref) != bits(v.value.floating)) FAIL_CHECK("number mismatch on " << s << ": " << v.value.floating);
                }
                ++checked;
            }
        }
    }
    CHECK(checked > 40000);
    // the prefix form stops where the number does; an exponent goes the long way
    const std::string_view t = "196.00MiB(";
    const auto p = logscan::parse_prefix<double>(t);
    CHECK(p.value == 196.0);
    CHECK(p.ptr == t.data() + 6);
    CHECK(logscan::parse_number<double>("2.5e-3").value == std::strtod("2.5e-3", nullptr));
    const std::string_view u = "1.5e";
    CHECK(logscan::parse_prefix<double>(u).ptr == u.data() + 3);
    CHECK(logscan::parse_number<double>("0.000000000000001").value == std::strtod("0.000000000000001", nullptr));
    CHECK(std::signbit(logscan::parse_number<double>("-0.0").value));
    CHECK(logscan::parse_number<double>("+12.25").value == 12.25);
    // grouped: 15 digits in one pass, 16 by the slow path; a group must be three digits
    CHECK(logscan::parse_grouped<double>("123,456,789,012.345").value == std::strtod("123456789012.345", nullptr));
    CHECK(logscan::parse_grouped<double>("-999,999,999,999,999").value == -999999999999999.0);
    CHECK(logscan::parse_grouped<double>("9,999,999,999,999,999.5").value == std::strtod("9999999999999999.5", nullptr));
    CHECK(logscan::parse_grouped<double>("3,983.23").value == std::strtod("3983.23", nullptr));
    const std::string_view g = "1,234,56";
    const auto gp = logscan::parse_grouped_prefix<double>(g.data(), g.data() + g.size());
    CHECK(gp.value == 1234.0);
    CHECK(gp.ptr == g.data() + 5);
    CHECK_FALSE(logscan::parse_grouped<double>("0,123").ok());
    CHECK_FALSE(logscan::parse_grouped<double>("1,234.").ok());
    CHECK(logscan::parse_grouped<double>("1,234e2").value == 123400.0);
}

TEST_CASE("num::floats agree bit for bit with strtof") {
    decimal_generator gen(7);
    for (int i = 0; i < 20000; ++i) {
        const std::string s = gen.next(false);
        const float ref = ref_strtof(s);
        const auto r = logscan::parse_number<float>(s);
        if (bits(ref) != bits(r.value)) FAIL_CHECK("mismatch on " << s);
        if (std::isinf(ref) != (r.ec == std::errc::result_out_of_range))
            FAIL_CHECK("bad ec on " << s);
    }
}

TEST_CASE("num::parse_grouped equals strtod of the text without separators") {
    decimal_generator gen(99);
    int n_grouped = 0, n_huge = 0;
    for (int i = 0; i < 30000; ++i) {
        std::string plain = gen.next();
        if (i % 500 == 0) { // texts longer than the stack buffer: the normalizing path
            plain = std::string(i % 1000 == 0 ? "-" : "") + "1" +
                    std::string(static_cast<std::size_t>(300 + i % 700), '0') + "." +
                    std::string(static_cast<std::size_t>(1 + i % 900), '3') + "e-" +
                    std::to_string(i % 1000);
        }
        const std::string g = group(plain);
        const std::string stripped = strip_commas(g);
        n_grouped += g != stripped;
        n_huge += g.size() > logscan::internal::grouped_buffer;
        const double ref = ref_strtod(stripped);
        const auto r = logscan::parse_grouped<double>(g);
        if (bits(ref) != bits(r.value) || r.ptr != g.data() + g.size() ||
            std::isinf(ref) != (r.ec == std::errc::result_out_of_range)) {
            FAIL_CHECK("mismatch on " << g << ": strtod " << ref << " ours " << r.value);
        }
        const auto f = logscan::parse_grouped<float>(g);
        if (bits(ref_strtof(stripped)) != bits(f.value)) FAIL_CHECK("float mismatch on " << g);
        if (logscan::classify_grouped(g) == number_kind::integer) {
            std::int64_t iv = 0;
            const char* b = stripped.data() + (stripped[0] == '+' ? 1 : 0);
            const auto fr = std::from_chars(b, stripped.data() + stripped.size(), iv);
            const auto ri = logscan::parse_grouped<std::int64_t>(g);
            CHECK(ri.ec == fr.ec);
            if (fr.ec == std::errc{}) CHECK(ri.value == iv);
        }
    }
    CHECK(n_grouped > 10000);
    CHECK(n_huge > 40);
}

TEST_CASE("num::long grouped numbers round correctly (sticky digits)") {
    // 2^53 + 1 is halfway between two doubles; digits far beyond the buffer decide the rounding
    std::string base = "9,007,199,254,740,993";
    for (const char* tail : {"", "0", "1"}) {
        std::string g = base + "." + std::string(2000, '0') + tail;
        const double ref = ref_strtod(strip_commas(g));
        CHECK(bits(logscan::parse_grouped<double>(g).value) == bits(ref));
    }
    // many groups: 1,000,000,...,000 (400 groups) times 10^-1100
    std::string g = "1";
    for (int i = 0; i < 400; ++i) g += ",000";
    g += "e-1100";
    CHECK(logscan::parse_grouped<double>(g).value == ref_strtod(strip_commas(g)));
    std::string z = "0." + std::string(3000, '0') + "1e3000";
    CHECK(logscan::parse_grouped<double>(z).value == 0.1);
    std::string zero = "-0." + std::string(3000, '0');
    CHECK(std::signbit(logscan::parse_grouped<double>(zero).value));
    CHECK(logscan::parse_grouped<double>(zero).value == 0.0);
}

TEST_CASE("num::every number of the samples (Python reference)") {
    // tests/data/num/sample_numbers.tsv is made by gen_sample_numbers.py: every distinct
    // number token of samples/, its kind, and Python's value (exact int, or float.hex()).
    std::istringstream in(logscan::test::read_file(std::string(LOGSCAN_SOURCE_DIR) +
                                                   "/tests/data/num/sample_numbers.tsv"));
    std::string line;
    int n = 0, grouped = 0;
    while (std::getline(in, line)) {
        const auto t1 = line.find('\t'), t2 = line.find('\t', t1 + 1);
        REQUIRE(t2 != std::string::npos);
        const std::string tok = line.substr(0, t1), kind = line.substr(t1 + 1, t2 - t1 - 1),
                          val = line.substr(t2 + 1);
        INFO(tok);
        const auto r = logscan::parse_grouped_value(tok);
        grouped += tok.find(',') != std::string::npos;
        if (kind == "int") {
            const std::uint64_t mag = std::stoull(val[0] == '-' ? val.substr(1) : val);
            if (mag > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
                CHECK(r.ec == std::errc::result_out_of_range);
            } else {
                REQUIRE(r.ok());
                CHECK(r.value.kind == number_kind::integer);
                CHECK(r.value.integer == std::stoll(val));
            }
        } else {
            REQUIRE(r.ok());
            CHECK(r.value.kind == number_kind::floating);
            CHECK(bits(r.value.floating) == bits(std::strtod(val.c_str(), nullptr)));
        }
        ++n;
    }
    CHECK(n > 5000);
    CHECK(grouped > 2000);
}

TEST_CASE("num::percent") {
    CHECK(logscan::parse_percent("424.52%").value == 424.52);
    CHECK(logscan::parse_percent("100.00%").value == 100.0);
    CHECK(logscan::parse_percent("0.106%").value == 0.106);
    CHECK(logscan::parse_percent("12 %").value == 12.0);
    CHECK(logscan::parse_percent("-1,234.5%").value == -1234.5);
    for (std::string_view b : {"", "%", "12", "12%%", "12% ", " 12%", "abc%", "1,23%"}) {
        INFO(b);
        CHECK(logscan::parse_percent(b).ec == std::errc::invalid_argument);
    }
    const std::string_view cell = "832.06MiB(424.52%)";
    const auto r = logscan::parse_percent_prefix(cell.data() + 10, cell.data() + cell.size());
    CHECK(r.value == 424.52);
    CHECK(r.ptr == cell.data() + cell.size() - 1);
    const std::string_view no = "12 x";
    CHECK(logscan::parse_percent_prefix(no.data(), no.data() + no.size()).ptr == no.data() + 3);
    CHECK(logscan::parse_percent("1e999%").ec == std::errc::result_out_of_range);
    // trailing bytes after an out-of-range value are still rejected (found by fuzz_num)
    CHECK(logscan::parse_percent("1,577.5199e41009%9999)").ec == std::errc::invalid_argument);
}

TEST_CASE("num::time units and durations") {
    using logscan::time_unit;
    auto t = logscan::parse_time("74.64 ms");
    REQUIRE(t.ok());
    CHECK(t.value.value == 74.64);
    CHECK(t.value.unit == time_unit::ms);
    CHECK(t.value.seconds() == 74.64 / 1000);
    t = logscan::parse_time("26.04msec");
    CHECK(t.value.value == 26.04);
    CHECK(t.value.unit == time_unit::ms);
    t = logscan::parse_time("13.13 ms");
    CHECK(t.value.in(time_unit::us) == 13.13 * 1000);
    CHECK(logscan::parse_time("3 s").value.unit == time_unit::s);
    CHECK(logscan::parse_time("3 sec").value.unit == time_unit::s);
    CHECK(logscan::parse_time("2min").value.seconds() == 120.0);
    CHECK(logscan::parse_time("1.5 h").value.seconds() == 5400.0);
    CHECK(logscan::parse_time("7\tus").value.unit == time_unit::us);
    CHECK(logscan::parse_time("7usec").value.unit == time_unit::us);
    CHECK(logscan::parse_time("7\xC2\xB5s").value.unit == time_unit::us);
    CHECK(logscan::parse_time("7\xCE\xBCs").value.unit == time_unit::us);
    CHECK(logscan::parse_time("9ns").value.in(time_unit::s) == 9e-9);
    CHECK(logscan::parse_time("9nsec").value.unit == time_unit::ns);
    CHECK(logscan::parse_time("1,577.51 us").value.in(time_unit::ms) == 1577.51 / 1000);
    for (std::string_view b : {"", "ms", "12", "12 ", "12 ms ", "12 Ms", "12 mss", "12 m",
                               "12 hours", "12ms5", "nan ms", "12 \xC2\xB5"}) {
        INFO(b);
        CHECK(logscan::parse_time(b).ec == std::errc::invalid_argument);
    }
    CHECK(logscan::parse_time("1e400 s").ec == std::errc::result_out_of_range);
    CHECK(logscan::parse_time("1e400 s;").ec == std::errc::invalid_argument);

    // inside a line, as MegEngine prints it
    const std::string_view l = "realtime=26.04msec(si3.31 mp+re7.10 omp0.03 alloc15.60)";
    const auto p = logscan::parse_time_prefix(l.data() + 9, l.data() + l.size());
    CHECK(p.value.value == 26.04);
    CHECK(p.ptr == l.data() + 18);
    CHECK(*p.ptr == '(');
    const std::string_view g = "time=74.64ms";
    CHECK(logscan::parse_time_prefix(g.data() + 5, g.data() + g.size()).ptr == g.data() + g.size());

    // units and conversions
    CHECK(logscan::parse_time_unit("min").value == time_unit::min);
    CHECK(logscan::parse_time_unit("hr").ec == std::errc::invalid_argument);
    CHECK(logscan::to_string(time_unit::us) == "us");
    CHECK(logscan::convert(1.0, time_unit::h, time_unit::ms) == 3600000.0);
    CHECK(logscan::convert(90.0, time_unit::s, time_unit::min) == 1.5);
    CHECK(logscan::convert(1577.51, time_unit::us, time_unit::ms) == 1577.51 / 1000);
}

TEST_CASE("num::clock durations") {
    CHECK(logscan::parse_clock_duration("1:31:44").value == 5504.0);           // 3600+1860+44
    CHECK(logscan::parse_clock_duration("5:05:37").value == 18337.0);          // 18000+300+37
    CHECK(logscan::parse_clock_duration("2 days, 1:31:44").value == 178304.0); // 172800+5504
    CHECK(logscan::parse_clock_duration("1 day, 0:00:01").value == 86401.0);
    CHECK(logscan::parse_clock_duration("0:00:00").value == 0.0);
    CHECK(logscan::parse_clock_duration("-1 day, 23:59:59").value == -1.0);
    CHECK(logscan::parse_clock_duration("123:00:00").value == 442800.0);
    CHECK(logscan::parse_clock_duration("0:00:01.5").value == 1.5);
    CHECK(logscan::parse_clock_duration("1:00:00.250000").value == 3600.25);
    CHECK(logscan::parse_clock_duration("-1 day, 23:59:59.5").value == -0.5);
    CHECK(logscan::parse_clock_duration<std::int64_t>("2 days, 1:31:44").value == 178304);
    CHECK(logscan::parse_clock_duration<std::int64_t>("0:00:01.5").ec ==
          std::errc::invalid_argument);

    for (std::string_view b :
         {"", "1:31", "1:3:44", "1:31:4", "1:60:00", "1:00:60", "1:31:444", ":31:44", "-1:00:00",
          "1 day 1:00:00", "1 days,1:00:00", "1 day,", "2 weeks, 1:00:00", "1:31:44 ", " 1:31:44",
          "1:31:44.", "a:bc:de", "+1:00:00", "1 day, -1:00:00"}) {
        INFO(b);
        CHECK(logscan::parse_clock_duration(b).ec == std::errc::invalid_argument);
        CHECK(logscan::parse_clock_duration<std::int64_t>(b).ec == std::errc::invalid_argument);
    }
    CHECK(logscan::parse_clock_duration("99999999999999999999:00:00").ec ==
          std::errc::result_out_of_range);
    CHECK(logscan::parse_clock_duration("99999999999999999999:00:00x").ec ==
          std::errc::invalid_argument);
    CHECK(logscan::parse_clock_duration("106751991167301 days, 0:00:00").ec ==
          std::errc::result_out_of_range);
    CHECK(logscan::parse_clock_duration("106751991167300 days, 0:00:00").ok());

    const std::string_view l = "eta: 5:05:37 batch_cost: 1.4670";
    const auto p = logscan::parse_clock_duration_prefix(l.data() + 5, l.data() + l.size());
    CHECK(p.value == 18337.0);
    CHECK(p.ptr == l.data() + 12);
}

TEST_CASE("num::byte sizes") {
    using logscan::byte_unit;
    auto b = logscan::parse_byte_size("196.00MiB");
    REQUIRE(b.ok());
    CHECK(b.value.value == 196.0);
    CHECK(b.value.unit == byte_unit::MiB);
    CHECK(b.value.bytes() == 205520896.0); // the sample prints "196.00MiB( 205520896bytes)"
    CHECK(logscan::parse_byte_size("784.00MiB").value.bytes() == 822083584.0);
    b = logscan::parse_byte_size("205520896bytes");
    CHECK(b.value.unit == byte_unit::B);
    CHECK(b.value.bytes() == 205520896.0);
    CHECK(logscan::parse_byte_size("1 byte").value.bytes() == 1.0);
    CHECK(logscan::parse_byte_size("1234 MB").value.bytes() == 1234e6);
    CHECK(logscan::parse_byte_size("1 KB").value.bytes() == 1000.0);
    CHECK(logscan::parse_byte_size("1 kB").value.bytes() == 1000.0);
    CHECK(logscan::parse_byte_size("1 KiB").value.bytes() == 1024.0);
    CHECK(logscan::parse_byte_size("2GiB").value.bytes() == 2147483648.0);
    CHECK(logscan::parse_byte_size("2GB").value.bytes() == 2e9);
    CHECK(logscan::parse_byte_size("1TiB").value.bytes() == 1099511627776.0);
    CHECK(logscan::parse_byte_size("1TB").value.bytes() == 1e12);
    CHECK(logscan::parse_byte_size("1PiB").value.bytes() == 1125899906842624.0);
    CHECK(logscan::parse_byte_size("1PB").value.bytes() == 1e15);
    CHECK(logscan::parse_byte_size("8,397.50 MiB").value.value == 8397.5);
    CHECK(logscan::parse_byte_size("1 GiB").value.in(byte_unit::MiB) == 1024.0);
    CHECK(logscan::parse_byte_size("1 GB").value.in(byte_unit::MB) == 1000.0);
    CHECK(logscan::parse_byte_size("1 KiB").value.in(byte_unit::kB) == 1.024);
    CHECK(logscan::parse_byte_size("512 MiB").value.in(byte_unit::GiB) == 0.5);
    CHECK(logscan::to_string(byte_unit::KiB) == "KiB");
    CHECK(logscan::parse_byte_size("1e400 MiB").ec == std::errc::result_out_of_range);
    CHECK(logscan::parse_byte_size("1e400 MiB)").ec == std::errc::invalid_argument);
    for (std::string_view b2 :
         {"", "MiB", "12", "12 mib", "12 Mb", "12 MiB ", "12 K", "12 bits", "12 kiB", "12MiB2"}) {
        INFO(b2);
        CHECK(logscan::parse_byte_size(b2).ec == std::errc::invalid_argument);
    }
    const std::string_view row = "   gpu0:0    196.00MiB( 205520896bytes)";
    const auto p = logscan::parse_byte_size_prefix(row.data() + 13, row.data() + row.size());
    CHECK(p.value.value == 196.0);
    CHECK(*p.ptr == '(');
    const auto q = logscan::parse_byte_size_prefix(p.ptr + 2, row.data() + row.size());
    CHECK(q.value.value == 205520896.0);
    CHECK(*q.ptr == ')');
}

TEST_CASE("num::byte sizes in the MegEngine sample agree with their byte counts") {
    // Rows "COMP  A MiB( B bytes) ...": A is B / 2^20 rounded to two decimals, so
    // |A * 2^20 - B| <= 0.005 * 2^20. Rows are found by plain string search.
    const std::string text =
        logscan::test::read_file(logscan::test::sample_path("000_cf8afa6c099f806b.txt"));
    std::size_t pos = 0;
    int rows = 0;
    while ((pos = text.find("bytes)", pos)) != std::string::npos) {
        const std::size_t open = text.rfind('(', pos);
        const std::size_t start = text.rfind(' ', open) + 1;
        const char* last = text.data() + text.size();
        const auto mib = logscan::parse_byte_size_prefix(text.data() + start, last);
        REQUIRE(mib.ok());
        CHECK(mib.value.unit == logscan::byte_unit::MiB);
        REQUIRE(mib.ptr == text.data() + open);
        const char* b = mib.ptr + 1;
        while (*b == ' ') ++b;
        const auto bytes = logscan::parse_byte_size_prefix(b, last);
        REQUIRE(bytes.ok());
        CHECK(bytes.value.unit == logscan::byte_unit::B);
        CHECK(bytes.ptr == text.data() + pos + 5);
        CHECK(std::fabs(mib.value.bytes() - bytes.value.bytes()) <= 0.005 * 1048576);
        ++rows;
        pos += 6;
    }
    CHECK(rows > 50);
}

TEST_CASE("num::clock durations in the Paddle sample") {
    // every "eta: X " parses whole and the H:MM:SS parts add up (checked by hand-split here)
    const std::string text =
        logscan::test::read_file(logscan::test::sample_path("003_1c776201c8b5b83e.txt"));
    std::size_t pos = 0;
    int n = 0;
    while ((pos = text.find("eta: ", pos)) != std::string::npos) {
        pos += 5;
        const std::size_t end = text.find(' ', pos);
        const std::string eta = text.substr(pos, end - pos);
        const auto c1 = eta.find(':'), c2 = eta.rfind(':');
        const long long h = std::stoll(eta.substr(0, c1)), m = std::stoll(eta.substr(c1 + 1, 2)),
                        s = std::stoll(eta.substr(c2 + 1));
        const auto r = logscan::parse_clock_duration<std::int64_t>(eta);
        INFO(eta);
        REQUIRE(r.ok());
        CHECK(r.value == h * 3600 + m * 60 + s);
        ++n;
    }
    CHECK(n > 20);
}

TEST_CASE("num::shape lists") {
    auto s = logscan::shape_dims("(4, 64, 224, 224)");
    REQUIRE(s.ok());
    CHECK(s.size() == 4);
    CHECK(s.dtype().empty());
    std::vector<std::int64_t> d(s.begin(), s.end());
    CHECK(d == std::vector<std::int64_t>{4, 64, 224, 224});
    CHECK(s.element_count().value == 4 * 64 * 224 * 224);

    s = logscan::shape_dims("(32,)");
    REQUIRE(s.ok());
    CHECK(s.size() == 1);
    CHECK(std::vector<std::int64_t>(s.begin(), s.end()) == std::vector<std::int64_t>{32});

    s = logscan::shape_dims("()");
    REQUIRE(s.ok());
    CHECK(s.empty());
    CHECK(s.begin() == s.end());
    CHECK(s.element_count().value == 1);

    s = logscan::shape_dims("float32[1, 784]");
    REQUIRE(s.ok());
    CHECK(s.dtype() == "float32");
    CHECK(s.brackets() == "[1, 784]");
    CHECK(std::vector<std::int64_t>(s.begin(), s.end()) == std::vector<std::int64_t>{1, 784});

    s = logscan::shape_dims("{128,128,3,3}");
    CHECK(std::vector<std::int64_t>(s.begin(), s.end()) ==
          std::vector<std::int64_t>{128, 128, 3, 3});
    s = logscan::shape_dims("[ -1 ,3 , 224,\t224 , ]");
    REQUIRE(s.ok());
    CHECK(std::vector<std::int64_t>(s.begin(), s.end()) ==
          std::vector<std::int64_t>{-1, 3, 224, 224});
    CHECK(s.element_count().ec == std::errc::invalid_argument);
    CHECK(logscan::shape_dims("[]").ok());
    CHECK(logscan::shape_dims("[9223372036854775807]").ok());
    // dims at the edges of one-pass reading (up to 18 digits) and of int64_t
    s = logscan::shape_dims("(999999999999999999, -999999999999999999, +7, -0)");
    REQUIRE(s.ok());
    CHECK(std::vector<std::int64_t>(s.begin(), s.end()) ==
          std::vector<std::int64_t>{999999999999999999, -999999999999999999, 7, 0});
    s = logscan::shape_dims("(9223372036854775807, -9223372036854775808, 0000000000000000000000012)");
    REQUIRE(s.ok());
    CHECK(std::vector<std::int64_t>(s.begin(), s.end()) ==
          std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min(), 12});
    CHECK(logscan::shape_dims("(9223372036854775808)").error() == std::errc::result_out_of_range);
    CHECK(logscan::shape_dims("(-9223372036854775809)").error() == std::errc::result_out_of_range);
    CHECK(logscan::shape_dims("(18446744073709551616)").error() == std::errc::result_out_of_range); // 2^64: wraps to 0
    CHECK(logscan::shape_dims("(1, 36893488147419103232)").error() == std::errc::result_out_of_range);
    CHECK(logscan::shape_dims("(4294967296, 4294967296)").element_count().ec ==
          std::errc::result_out_of_range);

    for (std::string_view b :
         {"",        "(",           ")",      "(,)",         "(1,,2)", "(1 2)", "(1,2",
          "(1;2)",   "((1,2))",     "(1.5)",  "(None, 3)",   "(?, 3)", "(1]",   "[1)",
          "float32", "float32 [1]", "(1,2) ", " (1,2)",      "(1,2)x", "(1e3)", "32",
          "(+)",     "(1, 2,,)",    "3d[1]",  "(1,234,567)x"}) {
        INFO(b);
        const auto bad = logscan::shape_dims(b);
        CHECK(!bad.ok());
        CHECK(bad.error() == std::errc::invalid_argument);
        CHECK(bad.size() == 0);
        CHECK(bad.begin() == bad.end());
        CHECK(bad.dtype().empty());
    }
    CHECK(logscan::shape_dims("(99999999999999999999)").error() == std::errc::result_out_of_range);
    const std::string_view where = "(1, x)";
    CHECK(logscan::shape_dims(where).ptr() == where.data() + 4);
    // where an invalid list stops: the offending byte
    for (const auto& [text, at] : {std::pair<std::string_view, std::size_t>{"(1,,2)", 3}, {"(1 2)", 3}, {"(1, 2 x)", 6},
                                   {"(1,  ;)", 5}, {"(1, -x)", 4}, {"(1, 2", 5}, {"(1,", 3}}) {
        const std::string_view t = text; // (clang 14: no binding in INFO's lambda)
        INFO(t);
        const auto bad = logscan::shape_dims(t);
        CHECK(bad.error() == std::errc::invalid_argument);
        CHECK(bad.ptr() == t.data() + at);
    }

    // several shapes in one TVM cell, by prefix parsing
    const std::string_view cell =
        "float32[1, 1, 56, 56, 64], float32[2, 1, 3, 3, 64, 32], float32[1, 2]";
    const char* p = cell.data();
    const char* last = p + cell.size();
    std::vector<std::size_t> sizes;
    for (;;) {
        const auto one = logscan::parse_shape_prefix(p, last);
        REQUIRE(one.ok());
        CHECK(one.dtype() == "float32");
        sizes.push_back(one.size());
        p = one.ptr();
        if (p == last) break;
        REQUIRE(last - p > 2);
        CHECK(p[0] == ',');
        p += 2;
    }
    CHECK(sizes == std::vector<std::size_t>{5, 6, 2});
}

TEST_CASE("num::scan_form's %f reads every decimal as the general parser does") {
    // Decimals of 1 to 20 digits, with and without a fraction and a sign, followed by what a
    // form prints next: the value and the end are parse_number's on the number's own text.
    std::mt19937 rng(20261204);
    for (int round = 0; round < 20000; ++round) {
        std::string num = rng() % 4 == 0 ? "-" : "";
        const std::size_t whole = 1 + rng() % 12, fraction = rng() % 3 == 0 ? 0 : 1 + rng() % 9;
        for (std::size_t i = 0; i < whole; ++i) num += static_cast<char>('0' + rng() % 10);
        if (fraction != 0) num += '.';
        for (std::size_t i = 0; i < fraction; ++i) num += static_cast<char>('0' + rng() % 10);
        const std::string_view after[] = {"ms", "", " ms", ",", ")", "e", ".", "x"};
        const std::string text = num + std::string(after[rng() % std::size(after)]);
        INFO(text);
        logscan::form_values v;
        const std::string form = "%f" + text.substr(num.size());
        REQUIRE(logscan::scan_form(text, form, v));
        const auto want = logscan::parse_number<double>(num);
        REQUIRE(want.ok());
        CHECK(std::memcmp(&v.f[0], &want.value, sizeof(double)) == 0); // (the same double, -0.0 too)
    }
}

TEST_CASE("num::scan_form reads a line against the printf form that printed it") {
    logscan::form_values v;
    REQUIRE(logscan::scan_form("iter 3/20: 12.004ms (exec=2.118,device=11.870)", "iter %u/%u: %fms (exec=%f,device=%f)", v));
    CHECK(v.nu == 2);
    CHECK(v.nf == 3);
    CHECK(v.u[0] == 3);
    CHECK(v.u[1] == 20);
    CHECK(v.f[0] == 12.004);
    CHECK(v.f[1] == 2.118);
    CHECK(v.f[2] == 11.870);
    // a non-finite word touching what follows it; any case; a sign
    REQUIRE(logscan::scan_form("sd=-nanms x=INFms y=-Infinity z=+inf", "sd=%fms x=%fms y=%f z=%f", v));
    CHECK(std::isnan(v.f[0]));
    CHECK(v.f[1] == std::numeric_limits<double>::infinity());
    CHECK(v.f[2] == -std::numeric_limits<double>::infinity());
    CHECK(v.f[3] == std::numeric_limits<double>::infinity());
    CHECK_FALSE(logscan::scan_form("x=+nan", "x=%f", v)); // (no such word)
    CHECK_FALSE(logscan::scan_form("x=nanx", "x=%f", v));
    CHECK_FALSE(logscan::scan_form("x=1.", "x=%f", v)); // `1` then `.` the form does not print
    CHECK(logscan::scan_form("x=1.", "x=%f.", v));
    CHECK(logscan::scan_form("x=-0.5", "x=%f", v));
    CHECK(v.f[0] == -0.5);
    CHECK_FALSE(logscan::scan_form("x=+0.5", "x=%f", v)); // %f prints no `+`
    CHECK_FALSE(logscan::scan_form("x=1e3", "x=%f", v));  // nor an exponent
    // %u: digits that fit uint64_t; %s: the rest, possibly empty; %%
    CHECK(logscan::scan_form("n=18446744073709551615", "n=%u", v));
    CHECK(v.u[0] == 18446744073709551615ull);
    CHECK_FALSE(logscan::scan_form("n=18446744073709551616", "n=%u", v));
    CHECK_FALSE(logscan::scan_form("n=-1", "n=%u", v));
    REQUIRE(logscan::scan_form("vars: a{1} b", "vars: %s", v));
    CHECK(v.s == "a{1} b");
    REQUIRE(logscan::scan_form("vars: ", "vars: %s", v));
    CHECK(v.s.empty());
    CHECK(logscan::scan_form("100% done", "%u%% done", v));
    // the whole text, exactly
    CHECK_FALSE(logscan::scan_form("iter 3/20: 12.004ms (exec=2.118, device=11.870)", "iter %u/%u: %fms (exec=%f,device=%f)", v));
    CHECK_FALSE(logscan::scan_form("iter 3/20: 1ms x", "iter %u/%u: %fms", v));
    CHECK_FALSE(logscan::scan_form("iter 3/20", "iter %u/%u: %fms", v));
    CHECK_FALSE(logscan::scan_form("a", "%d", v)); // an unknown conversion fits nothing
    CHECK_FALSE(logscan::scan_form("1 2 3 4 5", "%u %u %u %u %u", v)); // more than 4 %u
    static_assert([] { // (%u, %s and literals in constant expressions too)
        logscan::form_values c;
        return logscan::scan_form("run test #2: x y", "run test #%u: %s", c) && c.u[0] == 2 && c.s == "x y";
    }());
}

TEST_CASE("num::shape lists: every spacing, sign and closer reads the dims it was written with") {
    // Shapes written from known dims with each separator the grammar allows (the usual `, `
    // read without a blank loop, the others by the slower branches), read back.
    std::mt19937 rng(20261127);
    const std::string_view seps[] = {", ", ",", " , ", ",\t", " ,", ",  ", "\t,\t"};
    const std::string_view opens[] = {"(", "[", "{", "float32[", "(  "};
    for (int round = 0; round < 3000; ++round) {
        const std::size_t n = rng() % 12;
        std::vector<std::int64_t> dims;
        std::string text(opens[rng() % std::size(opens)]);
        const char closer = text.front() == '(' ? ')' : text.back() == '[' ? ']' : '}';
        for (std::size_t i = 0; i < n; ++i) {
            std::int64_t d = static_cast<std::int64_t>(rng() % 100000);
            if (rng() % 8 == 0) d = -d;
            if (rng() % 16 == 0) d = static_cast<std::int64_t>(rng()) * 1000003LL; // long dims
            dims.push_back(d);
            if (i != 0) text += seps[rng() % std::size(seps)];
            if (d >= 0 && rng() % 10 == 0) text += '+';
            text += std::to_string(d);
        }
        if (n != 0 && rng() % 4 == 0) text += rng() % 2 ? "," : ", "; // a trailing comma
        if (rng() % 4 == 0) text += ' ';
        text += closer;
        INFO(text);
        const auto s = logscan::shape_dims(text);
        REQUIRE(s.ok());
        CHECK(s.size() == n);
        CHECK(std::vector<std::int64_t>(s.begin(), s.end()) == dims);
        CHECK(s.ptr() == text.data() + text.size());
    }
}

TEST_CASE("num::shape lists: a cut list is invalid and nothing past its end is read; long dims at the overflow edge") {
    // Lists written from known dims (the usual `, ` and `,` most of the time: the one-loop
    // path; other separators, signs and long dims: the general loop), each parsed whole and
    // cut at every length. The text is a view followed by bytes that would complete it
    // (`5, 6)`), so a read past its end shows as a list that parses.
    std::mt19937 rng(20261202);
    const std::string_view seps[] = {", ", ", ", ", ", ",", ",", ",  ", " ,", ",\t"};
    const std::int64_t edge[] = {999999999999999999LL, 1000000000000000000LL, 9223372036854775807LL, 0, 7};
    for (int round = 0; round < 2000; ++round) {
        const std::size_t n = 1 + rng() % 9;
        std::vector<std::int64_t> dims;
        std::string text = rng() % 4 == 0 ? "[" : "(";
        const char closer = text[0] == '(' ? ')' : ']';
        for (std::size_t i = 0; i < n; ++i) {
            std::int64_t d = static_cast<std::int64_t>(rng() % 1000);
            if (rng() % 6 == 0) d = edge[rng() % std::size(edge)];
            if (rng() % 20 == 0) d = -d;
            dims.push_back(d);
            if (i != 0) text += seps[rng() % std::size(seps)];
            text += std::to_string(d);
        }
        text += closer;
        const std::string stored = text + "5, 6)]";
        const std::string_view whole(stored.data(), text.size());
        INFO(text);
        const logscan::shape_list s(whole.data(), whole.data() + whole.size());
        REQUIRE(s.ok());
        CHECK(std::vector<std::int64_t>(s.begin(), s.end()) == dims);
        CHECK(s.ptr() == whole.data() + whole.size());
        for (std::size_t k = 0; k < whole.size(); ++k) {
            const logscan::shape_list cut(whole.data(), whole.data() + k);
            INFO("cut at " << k);
            CHECK(!cut.ok());
            CHECK(cut.size() == 0);
        }
    }
    // a dim of 19 digits past int64_t, and of 20 digits: out of range, not wrapped
    for (std::string_view t : {"(1, 9223372036854775808)", "(12345678901234567890, 1)", "(99999999999999999999)"}) {
        INFO(t);
        const auto s = logscan::shape_dims(t);
        CHECK(!s.ok());
        CHECK(s.error() == std::errc::result_out_of_range);
    }
}

TEST_CASE("num::decimal_difference is exact in decimal, in plain notation") {
    __extension__ typedef __int128 i128;
    __extension__ typedef unsigned __int128 u128;
    char buf[512];
    const auto diff = [&](std::string_view a, std::string_view b) {
        const auto r = logscan::decimal_difference(a, b, buf);
        return r ? std::string(*r) : std::string("none");
    };
    // formats.md 6A.3's example, and the forms its numbers take
    CHECK(diff("1103.5", "1001.25") == "102.25");
    CHECK(diff("1712195495519689.047", "1712195495519600") == "89.047"); // (a double holds neither)
    CHECK(diff("1000.000", "999") == "1");
    CHECK(diff("-0", "0") == "0");
    CHECK(diff("0", "0.001") == "-0.001");
    CHECK(diff("1.50e3", "1") == "1499");
    CHECK(diff("1e2", "1E-2") == "99.99");
    CHECK(diff("123456789012345678901", "1") == "123456789012345678900");
    CHECK(diff("-5", "-7") == "2");
    CHECK(diff("5", "-7") == "12");
    CHECK(diff("1e300", "0") == "1" + std::string(300, '0'));
    CHECK(diff("1e500", "1") == "none"); // (aligned, past decimal_difference_digits)
    char small[4];
    CHECK(!logscan::decimal_difference("12345", "0", small)); // (no room in the output)
    for (std::string_view bad : {"", "-", "1.", ".5", "01", "1e", "1e+", "+1", "1x", "NaN", "\"1\""}) {
        INFO(bad);
        CHECK(diff(bad, "1") == "none");
        CHECK(diff("1", bad) == "none");
    }
    // random numbers a / 10^ka written plain or with an exponent, against integer arithmetic on
    // the values scaled to a common power of ten
    std::mt19937_64 rng(20261202);
    const auto text = [&](std::int64_t v, int k) {
        const bool neg = v < 0;
        std::string digits = std::to_string(neg ? -v : v);
        std::string t;
        if (rng() % 3 == 0) { // digits and an exponent: v x 10^-k
            t = digits + (rng() % 2 ? "e" : "E") + std::to_string(-k);
        } else {
            while (static_cast<int>(digits.size()) <= k) digits.insert(digits.begin(), '0');
            t = k == 0 ? digits : digits.substr(0, digits.size() - static_cast<std::size_t>(k)) + "." + digits.substr(digits.size() - static_cast<std::size_t>(k));
            if (k > 0 && rng() % 4 == 0) t += "00"; // (trailing zeros, as printed)
        }
        return (neg ? "-" : "") + t;
    };
    for (int i = 0; i < 20000; ++i) {
        const auto a = static_cast<std::int64_t>(rng() % 2000000000000000ull) - 1000000000000000;
        const auto b = static_cast<std::int64_t>(rng() % 2000000000000000ull) - 1000000000000000;
        const int ka = static_cast<int>(rng() % 7), kb = static_cast<int>(rng() % 7);
        const int k = std::max(ka, kb);
        i128 p = 1, q = 1;
        for (int j = ka; j < k; ++j) p *= 10;
        for (int j = kb; j < k; ++j) q *= 10;
        const i128 d = static_cast<i128>(a) * p - static_cast<i128>(b) * q;
        // the expected text: |d| / 10^k, no trailing fraction zeros
        u128 m = static_cast<u128>(d < 0 ? -d : d);
        std::string digits;
        do {
            digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
            m /= 10;
        } while (m != 0);
        while (static_cast<int>(digits.size()) <= k) digits.insert(digits.begin(), '0');
        std::string want = digits.substr(0, digits.size() - static_cast<std::size_t>(k));
        std::string frac = digits.substr(digits.size() - static_cast<std::size_t>(k));
        while (!frac.empty() && frac.back() == '0') frac.pop_back();
        if (!frac.empty()) want += "." + frac;
        if (d < 0) want = "-" + want;
        const std::string ta = text(a, ka), tb = text(b, kb);
        INFO(ta << " - " << tb);
        REQUIRE(diff(ta, tb) == want);
    }
}

// The first of `forms` all of `t` fits, each read by scan_form in order (what form_list::scan
// must answer), or -1.
static int first_form_in_order(std::string_view t, std::span<const std::string_view> forms, logscan::form_values& v) {
    for (std::size_t i = 0; i < forms.size(); ++i)
        if (logscan::scan_form(t, forms[i], v)) return static_cast<int>(i);
    return -1;
}

TEST_CASE("num::form_list gives the first form that fits, as trying each in order does") {
    // Forms that begin with a literal byte, with a conversion (%u: a digit; %f: a digit, a sign,
    // `i` or `n` in either case; %s: any first byte), with `%%`; forms that share their bytes
    // before the first conversion; texts printed with them, cut, or changed at one byte. The
    // answer must be the first form scan_form fits, with the same values.
    // (two lists: without `%s`, where a text may fit no form; with `%s` last, which fits the rest)
    constexpr std::array<std::string_view, 9> all = {"iter %u/%u: %fms", "%fms  %fms (device=%f)", "=== total time: %fms",
                                                     "%% done: %u", "=== prepare: %fms; going to warmup", "warmup %u: %fms",
                                                     "%u items", "", "%s"};
    constexpr std::array<std::string_view, 8> some = {all[0], all[1], all[2], all[3], all[4], all[5], all[6], all[7]};
    constexpr logscan::form_list<all.size()> with_s(all);
    constexpr logscan::form_list<some.size()> without_s(some);
    static_assert(with_s.forms()[3] == "%% done: %u");
    const std::string_view printed[] = {"iter 3/20: 12.004ms", "1.5ms  2.5ms (device=3.5)", "=== total time: 7.25ms",
                                        "% done: 42", "=== prepare: 0.109ms; going to warmup", "warmup 2: 1.0ms",
                                        "12 items", "", "nanms  -infms (device=nan)", "x", "+infms  1ms (device=2)",
                                        "INFms  -NaNms (device=inf)", "-2.5ms  Infinityms (device=+nan)", "=== total"};
    std::mt19937 rng(20261204);
    std::array<std::size_t, 10> seen{}; // (how often each answer, -1 to 8, came)
    for (int round = 0; round < 3000; ++round) {
        std::string t(printed[rng() % std::size(printed)]);
        if (!t.empty() && rng() % 3 == 0) t.resize(rng() % t.size());
        if (!t.empty() && rng() % 3 == 0) t[rng() % t.size()] = "%=ix1 +-nNI"[rng() % 11]; // (first bytes a %f may begin with too)
        INFO(t);
        const auto check = [&](const auto& list, std::span<const std::string_view> forms) {
            logscan::form_values wv;
            const int want = first_form_in_order(t, forms, wv);
            logscan::form_values gv;
            const int got = list.scan(t, gv);
            REQUIRE(got == want);
            ++seen[static_cast<std::size_t>(got + 1)];
            if (got < 0) return;
            CHECK(gv.nu == wv.nu);
            CHECK(gv.nf == wv.nf);
            for (std::size_t i = 0; i < gv.nu; ++i) CHECK(gv.u[i] == wv.u[i]);
            for (std::size_t i = 0; i < gv.nf; ++i) CHECK((gv.f[i] == wv.f[i] || (gv.f[i] != gv.f[i] && wv.f[i] != wv.f[i])));
            CHECK(gv.s == wv.s);
        };
        check(with_s, all);
        check(without_s, some);
    }
    for (std::size_t i = 0; i < seen.size(); ++i) CHECK_MESSAGE(seen[i] > 10, "answer " << static_cast<int>(i) - 1 << " seldom seen");
    // the forms' own examples, read by the contract's text: which form and which values
    logscan::form_values v;
    CHECK(with_s.scan("=== total time: 7.25ms", v) == 2);
    CHECK(v.f[0] == 7.25);
    CHECK(with_s.scan("% done: 42", v) == 3);
    CHECK(v.u[0] == 42);
    CHECK(with_s.scan("12 items", v) == 6);
    CHECK(v.u[0] == 12);
    CHECK(with_s.scan("", v) == 7);
    CHECK(with_s.scan("x", v) == 8);
    CHECK(v.s == "x");
    CHECK(without_s.scan("x", v) == -1);
    CHECK(without_s.scan("warmup 2: 1.0ms", v) == 5);
}

TEST_CASE("num::form_list: forms whose first 8 bytes are alike, texts of every length, against scan_form in order") {
    // (the list compares a form's first 8 bytes at once, then the rest of its prefix, then
    // reads the form from its first conversion: forms alike in their first 8 bytes and after,
    // prefixes shorter and longer than 8, texts cut at every length and changed at every place)
    constexpr std::array<std::string_view, 9> forms = {
        "=== going to run %u testcases", "=== going to run for %u times", "=== going to run test #%u for %u times",
        "=== goal %u", "warm up %u  %fms", "warmup %u: %fms", "warm up %u time %f ms", "load model: %fms", "w%u"};
    constexpr logscan::form_list<forms.size()> list(forms);
    const std::string_view printed[] = {"=== going to run 3 testcases", "=== going to run for 10 times",
                                        "=== going to run test #2 for 5 times", "=== goal 7", "warm up 1  2.5ms",
                                        "warmup 1: 2.5ms", "warm up 1 time 2.5 ms", "load model: 5.730ms", "w12"};
    std::array<int, forms.size() + 1> seen{};
    for (const std::string_view whole : printed) {
        for (std::size_t n = 0; n <= whole.size(); ++n) {
            for (std::size_t at = 0; at <= n; ++at) { // (at == n: unchanged)
                std::string t(whole.substr(0, n));
                if (at < n) t[at] = t[at] == 'x' ? 'y' : 'x';
                logscan::form_values wv;
                const int want = first_form_in_order(t, forms, wv);
                logscan::form_values gv;
                const int got = list.scan(t, gv);
                if (got != want || (got >= 0 && (gv.nu != wv.nu || gv.nf != wv.nf || gv.u[0] != wv.u[0] || gv.u[1] != wv.u[1] ||
                                                 gv.f[0] != wv.f[0]))) {
                    FAIL_CHECK("text `" << t << "`: form " << got << ", scan_form in order: " << want);
                    return;
                }
                ++seen[static_cast<std::size_t>(got + 1)];
            }
        }
    }
    for (std::size_t i = 0; i < seen.size(); ++i) CHECK_MESSAGE(seen[i] > 0, "answer " << static_cast<int>(i) - 1 << " never seen");
    // the values, read by the forms' text
    logscan::form_values v;
    CHECK(list.scan("=== going to run test #2 for 5 times", v) == 2);
    CHECK((v.nu == 2 && v.u[0] == 2 && v.u[1] == 5));
    CHECK(list.scan("warm up 4 time 1.25 ms", v) == 6);
    CHECK((v.u[0] == 4 && v.f[0] == 1.25));
}

TEST_CASE("num::form_values: new values are zero whatever their storage held before") {
    alignas(logscan::form_values) unsigned char storage[sizeof(logscan::form_values)];
    std::memset(storage, 0xA5, sizeof storage);
    const auto* v = ::new (static_cast<void*>(storage)) logscan::form_values();
    CHECK((v->nu == 0 && v->nf == 0 && v->s.data() == nullptr && v->s.empty()));
    for (const std::uint64_t u : v->u) CHECK(u == 0);
    for (const double f : v->f) CHECK(f == 0.0);
    constexpr logscan::form_values c{};
    static_assert(c.nu == 0 && c.u[3] == 0 && c.f[5] == 0.0);
}

TEST_CASE("num::shape_memo gives what shape_list::assign gives, its text repeated or not") {
    // Lines of a shape dump: each list in a buffer of its own (freed after its step: the memo
    // keeps a copy of the text, never a pointer into the input), often the list before again,
    // followed by other bytes; valid and invalid lists, dtypes, long lists, lists longer than
    // the memo keeps. Every figure of the memo's list must be the plain parse's, at the new text.
    std::mt19937 rng(20261204);
    const std::string_view lists[] = {"(4, 3, 224, 224)", "(4, 512, 28, 28)", "(32,)", "()", "(1,,2)", "(4, 1000)",
                                      "float32[1, 784]", "{128,128,3,3}", "(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)",
                                      "(123456789, 123456789, 123456789, 123456789, 123456789, 1)", "(-1, 3)",
                                      "(99999999999999999999)", "(4, 3", "[1, 2)"};
    const std::string_view after[] = {"\n", "", ", float32[2]", "\n data@1: (4, 3, 224, 224)\n", " x"};
    logscan::shape_memo memo;
    std::string before(lists[0]);
    std::size_t hits = 0;
    for (int round = 0; round < 4000; ++round) {
        const std::string list = rng() % 3 != 0 ? before : std::string(lists[rng() % std::size(lists)]);
        hits += list == before;
        const std::string text = std::string(rng() % 2 ? "  " : "") + list + std::string(after[rng() % std::size(after)]);
        const std::size_t at = text.find_first_not_of(' ');
        const char* first = text.data() + at;
        const char* last = text.data() + text.size();
        INFO(text);
        logscan::shape_list got, want;
        memo.assign(got, first, last);
        want.assign(first, last);
        REQUIRE(got.ok() == want.ok());
        CHECK(got.error() == want.error());
        CHECK(got.ptr() == want.ptr());
        CHECK(got.size() == want.size());
        CHECK(got.brackets().data() == want.brackets().data());
        CHECK(got.brackets() == want.brackets());
        CHECK(got.dtype().data() == want.dtype().data());
        CHECK(got.dtype() == want.dtype());
        CHECK(std::vector<std::int64_t>(got.begin(), got.end()) == std::vector<std::int64_t>(want.begin(), want.end()));
        before = list;
    }
    CHECK(hits > 1000); // (the repeats were exercised)

    // a list of the same length and the same last bytes as the one remembered, another head;
    // the remembered list cut at the end of its buffer (exact-size heap blocks: an over-read
    // trips ASan); a copy of a memo answers from its own text
    const auto check = [](logscan::shape_memo& m, std::string_view t, std::vector<std::int64_t> dims, bool ok) {
        INFO(t);
        const std::unique_ptr<char[]> block(new char[t.size() + 1]);
        std::memcpy(block.get(), t.data(), t.size());
        logscan::shape_list got;
        m.assign(got, block.get(), block.get() + t.size());
        REQUIRE(got.ok() == ok);
        if (!ok) return;
        CHECK(std::vector<std::int64_t>(got.begin(), got.end()) == dims);
        CHECK(got.brackets().data() == block.get());
        CHECK(got.ptr() == block.get() + t.find(')') + 1);
    };
    logscan::shape_memo m;
    check(m, "(4, 3, 224, 224)", {4, 3, 224, 224}, true);
    check(m, "(8, 3, 224, 224)", {8, 3, 224, 224}, true);
    check(m, "(8, 3, 224, 224)\n", {8, 3, 224, 224}, true);
    check(m, "(8, 3, 224, 22", {}, false);
    check(m, "(8, 3, 224, 224)", {8, 3, 224, 224}, true);
    check(m, "(8, 3, 224, 224", {}, false);
    check(m, "(8, 3, 224, 224)", {8, 3, 224, 224}, true);
    logscan::shape_memo copy = m;
    check(copy, "(8, 3, 224, 224)", {8, 3, 224, 224}, true);
    logscan::shape_memo assigned;
    assigned = copy;
    check(assigned, "(8, 3, 224, 224) x", {8, 3, 224, 224}, true);
    check(m, "(9, 3, 224, 224)", {9, 3, 224, 224}, true);

    // in a constant expression too (the memo's compare without memcmp)
    static_assert([] {
        constexpr std::string_view a = "(2, 3)\n", b = "(2, 3), (5, 7)";
        logscan::shape_memo mm;
        logscan::shape_list l;
        mm.assign(l, a.data(), a.data() + a.size());
        mm.assign(l, b.data(), b.data() + b.size());
        std::int64_t sum = 0;
        for (const std::int64_t d : l) sum = sum * 10 + d;
        return l.ok() && sum == 23 && l.ptr() == b.data() + 6;
    }());
}

TEST_CASE("num::shape lists keep their first dims; longer ones and copies iterate the same") {
    static_assert(logscan::shape_list::inline_dims == 8);
    for (std::string_view t : {"(1, 2, 3, 4, 5, 6, 7, 8)", "(1, 2, 3, 4, 5, 6, 7, 8, 9)",
                               "[10,20,30,40,50,60,70,80,90,100,110,120]"}) {
        INFO(t);
        // the dims read off the text by hand: the numbers between the brackets
        std::vector<std::int64_t> want;
        std::int64_t x = 0;
        bool in = false;
        for (char c : t) {
            if (c >= '0' && c <= '9') {
                x = x * 10 + (c - '0');
                in = true;
            } else if (in) {
                want.push_back(x);
                x = 0;
                in = false;
            }
        }
        const logscan::shape_list s = logscan::shape_dims(t);
        REQUIRE(s.ok());
        CHECK(s.size() == want.size());
        CHECK(std::vector<std::int64_t>(s.begin(), s.end()) == want);
        const logscan::shape_list copy = s; // a copy iterates its own kept dims
        CHECK(std::vector<std::int64_t>(copy.begin(), copy.end()) == want);
        std::size_t n = 0;
        for (auto it = copy.begin(); it != copy.end(); it++) ++n;
        CHECK(n == want.size());
    }
    // iterators outlive a temporary list, as they did when they read the text: begin() and
    // end() of two temporaries of one text delimit its dims
    const std::string_view t = "(7, 8, 9)";
    CHECK(std::vector<std::int64_t>(logscan::shape_dims(t).begin(), logscan::shape_dims(t).end()) ==
          std::vector<std::int64_t>{7, 8, 9});
    const auto first = logscan::shape_dims(t).begin(); // (the list is gone: the iterator reads the text;
    CHECK(*first == 7);                                 // one into its kept dims is a use after scope)
    // a named list's iterators walk its kept dims, a temporary's the text: the same dims
    const logscan::shape_list named = logscan::shape_dims(t);
    CHECK(std::vector<std::int64_t>(named.begin(), named.end()) ==
          std::vector<std::int64_t>(std::move(named).begin(), std::move(named).end()));
    const logscan::shape_sequence seq = logscan::shape_lists("float32[1, 2], float32[3]");
    std::vector<std::vector<std::int64_t>> lists;
    for (auto it = seq.begin(); it != seq.end(); ++it) lists.emplace_back((*it).begin(), (*it).end());
    CHECK(lists == std::vector<std::vector<std::int64_t>>{{1, 2}, {3}});
    constexpr logscan::shape_list c = logscan::shape_dims("(3, 4)"); // usable in constant expressions
    static_assert(c.size() == 2 && *c.begin() == 3 && c.element_count().value == 12);
}

TEST_CASE("num::is_regex_space: the regex engine's \\s, every byte") {
    for (int c = 0; c < 256; ++c) {
        const char b = static_cast<char>(c);
        CAPTURE(c);
        CHECK(logscan::internal::is_regex_space(b) == (std::string_view(" \t\n\r\f\v").find(b) != std::string_view::npos));
    }
}

TEST_CASE("num::printf_row: heads of lines, 9 a digit, anything else itself") {
    using head = logscan::printf_row<"[99 99:99:99 ">;
    CHECK(head::starts("[06 15:13:35 330@")); // (17 bytes: 16 looked at at once)
    CHECK(!head::starts("[6  15:13:35 330@"));
    CHECK(!head::starts("[06-15:13:35 330@"));
    CHECK(!head::starts("[06 15:1a:35 330@"));
    CHECK(!head::starts("[06 15:13:35330@x"));
    CHECK(head::starts("[06 15:13:35 "));     // (13 bytes: one by one)
    CHECK(!head::starts("[06 15:13:35"));
    CHECK(!head::fits("[06 15:13:35 330@"));
    CHECK(head::fits("[06 15:13:35 "));
    CHECK(logscan::printf_row<"[99/99 99:99:99] ">::starts("[09/20 12:00:35] x"));
    CHECK(!logscan::printf_row<"[99/99 99:99:99] ">::starts("[09/20 12:00:35]"));
    static_assert(logscan::printf_row<"99">::fits("12") && !logscan::printf_row<"99">::fits("1x"));
    static_assert(logscan::printf_row<"__9.99">::fits(" 12.50") && !logscan::printf_row<"__9.99">::fits("1 2.50"));
    static_assert(logscan::printf_row<"__9.99">::digits<0, 6>("  2.05") == 205);
    using row = logscan::printf_row<"?????????_____9.99MiB(">; // (the class comment's example)
    CHECK(row::fits("   gpu0:0   196.00MiB("));
    CHECK(row::digits<9, 18>("   gpu0:0   196.00MiB(") == 19600);
}

namespace {
// printf_row's definition, byte by byte (the test's own reading of its comment)
bool row_fits(std::string_view tmpl, std::string_view text, bool head) {
    if (head ? text.size() < tmpl.size() : text.size() != tmpl.size()) return false;
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    for (std::size_t i = 0; i < tmpl.size(); ++i) {
        const char t = tmpl[i], c = text[i];
        if (t == '9' && !digit(c)) return false;
        if (t == '_' && !(c == ' ' || digit(c))) return false;
        const auto word = [](char b) { return b != ' ' && b != '\t'; };
        if (t == '*' && !word(c)) return false;
        if (t == '>' && c == '\t') return false;
        const auto filled_pad = [&](std::size_t j) {
            return (tmpl[j] == '_' && digit(text[j])) || (tmpl[j] == '>' && word(text[j]));
        };
        if ((t == '_' || t == '>') && c == ' ' && i > 0 && (tmpl[i - 1] == '_' || tmpl[i - 1] == '>') && filled_pad(i - 1))
            return false; // a space after a pad's digit or word byte
        if (t != '9' && t != '_' && t != '?' && t != '*' && t != '>' && c != t) return false;
    }
    return true;
}
std::uint64_t row_digits(std::string_view text, std::size_t b, std::size_t e) {
    std::uint64_t v = 0;
    for (std::size_t i = b; i < e; ++i)
        if (text[i] != '.') v = v * 10u + (text[i] == ' ' ? 0u : static_cast<std::uint64_t>(text[i] - '0'));
    return v;
}
// Texts for a template: mostly rows that fit (pads as right-aligned numbers), and rows with
// one byte changed (to a neighbour class: a space, a digit, a letter, NUL, 0xFF, the literal).
std::string row_text(std::string_view tmpl, std::mt19937_64& rng) {
    std::string t(tmpl.size(), ' ');
    for (std::size_t i = 0; i < tmpl.size();) {
        if (tmpl[i] == '_' || tmpl[i] == '>') { // a pad run (and the digit or byte after it): spaces, then digits or bytes
            const char kind = tmpl[i];
            const auto fill = [&] {
                if (kind == '_') return static_cast<char>('0' + rng() % 10);
                const char c = static_cast<char>(rng() % 256);
                return c == ' ' || c == '\t' ? 'x' : c;
            };
            std::size_t j = i;
            while (j < tmpl.size() && tmpl[j] == kind) ++j;
            const std::size_t end = j < tmpl.size() && tmpl[j] == (kind == '_' ? '9' : '*') ? j + 1 : j;
            const std::size_t spaces = rng() % (end - i + 1);
            for (std::size_t k = i; k < end; ++k) t[k] = k < i + spaces ? ' ' : fill();
            if (end > j) t[j] = fill();
            i = end;
            continue;
        }
        if (tmpl[i] == '9') t[i] = static_cast<char>('0' + rng() % 10);
        else if (tmpl[i] == '*') t[i] = static_cast<char>('!' + rng() % 90);
        else if (tmpl[i] == '?') t[i] = static_cast<char>(rng() % 256);
        else t[i] = tmpl[i];
        ++i;
    }
    if (rng() % 2 == 0) {
        const char swaps[] = {' ', '0', '9', '/', ':', 'a', '\0', static_cast<char>(0xFF), '\t', '.', ' ', '\t'};
        t[rng() % t.size()] = swaps[rng() % sizeof swaps];
    }
    if (rng() % 8 == 0) t += static_cast<char>('a' + rng() % 26);
    return t;
}
template <logscan::fixed_string Tmpl, std::size_t... Bounds>
void check_rows(std::mt19937_64& rng) {
    using row = logscan::printf_row<Tmpl>;
    [[maybe_unused]] static constexpr std::size_t bounds[] = {Bounds..., 0};
    std::size_t fitting = 0;
    for (int n = 0; n < 20000; ++n) {
        const std::string text = row_text(Tmpl.view(), rng);
        CAPTURE(text);
        REQUIRE(row::fits(text) == row_fits(Tmpl.view(), text, false));
        REQUIRE(row::starts(text) == row_fits(Tmpl.view(), text, true));
        if (!row::fits(text)) continue;
        ++fitting;
        const bool same = [&]<std::size_t... K>(std::index_sequence<K...>) {
            return ((row::template digits<bounds[2 * K], bounds[2 * K + 1]>(text) == row_digits(text, bounds[2 * K], bounds[2 * K + 1])) && ...);
        }(std::make_index_sequence<sizeof...(Bounds) / 2>{});
        REQUIRE(same);
    }
    CHECK(fitting > 5000); // (both kinds were tried)
}
} // namespace

TEST_CASE("printf_row: random rows against the definition (16 columns at a time, overlapping blocks, pads across them)") {
    std::mt19937_64 rng(0x9A11);
    // MegEngine's memory table row (83 columns: the last block overlaps the one before)
    check_rows<">>>>>>>>*" " _____9.99" "MiB(" "_________9" "bytes)" "______9.99" "MiB(" "__9.99" "%)" "______9.99" "MiB("
               "__9.99" "%)", 10, 19, 23, 33, 39, 49, 53, 59, 61, 71, 75, 81>(rng);
    // a pad run across a block boundary (columns 12..20), a 16-digit field, a field at the row's start
    check_rows<"x?__9 ab_______________9;", 2, 5, 8, 24>(rng);
    check_rows<"_______9|____________9", 0, 8, 9, 22>(rng);
    check_rows<"__9.9", 0, 5>(rng);        // (shorter than a block: byte by byte)
    check_rows<"?>>>*|>>>>>>>>>>>>>>>*__9>>*x__>>*", 22, 25>(rng); // words: a pad run across blocks; a number's pads, then a word's
    check_rows<">>*">(rng);
    check_rows<"_____________9.9", 0, 16>(rng); // (exactly one block)
}

TEST_CASE("num::shape sequences") {
    const std::string_view cell =
        "float32[1, 1, 56, 56, 64], float32[2, 1, 3, 3, 64, 32],float32[1, 2]";
    const auto seq = logscan::shape_lists(cell);
    REQUIRE(seq.ok());
    CHECK(seq.size() == 3);
    std::vector<std::size_t> sizes;
    std::vector<std::int64_t> all;
    for (const logscan::shape_list& s : seq) {
        CHECK(s.dtype() == "float32");
        sizes.push_back(s.size());
        for (std::int64_t d : s) all.push_back(d);
    }
    CHECK(sizes == std::vector<std::size_t>{5, 6, 2});
    CHECK(all == std::vector<std::int64_t>{1, 1, 56, 56, 64, 2, 1, 3, 3, 64, 32, 1, 2});
    CHECK(logscan::shape_lists("").ok());
    CHECK(logscan::shape_lists("").empty());
    CHECK(logscan::shape_lists("(1,) , [2]").size() == 2);
    for (std::string_view b : {"float32[1], ", ", float32[1]", "float32[1] float32[2]",
                               "float32[1],,[2]", "float32[1], x", "[1], (2"}) {
        INFO(b);
        const auto bad = logscan::shape_lists(b);
        CHECK(!bad.ok());
        CHECK(bad.size() == 0);
        CHECK(bad.begin() == bad.end());
    }
    const std::string_view where = "[1], [2] [3]";
    CHECK(logscan::shape_lists(where).ptr() == where.data() + 9);
    // a sequence made unchecked from lists read elsewhere (json_project's) that holds a bad
    // one anyway ends at it: the walk yields the lists before it and stops, never loops
    std::vector<std::size_t> walked;
    for (const logscan::shape_list& s : logscan::internal::shape_builder::sequence("[1,2],[x],[3]", 3)) walked.push_back(s.size());
    CHECK(walked == std::vector<std::size_t>{2});
    LOGSCAN_CHECK_NO_ALLOC(for (const logscan::shape_list& s
                                : logscan::shape_lists(cell)) all.back() +=
                           static_cast<std::int64_t>(s.size()));
}

TEST_CASE("num::shapes in the samples") {
    // MegEngine var shapes: every "(...)" after ": " on a continuation line parses, with as
    // many dims as the text has numbers (counted here by splitting on ',').
    const std::string text =
        logscan::test::read_file(logscan::test::sample_path("000_cf8afa6c099f806b.txt"));
    std::istringstream in(text);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] != ' ') continue;
        const auto colon = line.find(": (");
        if (colon == std::string::npos) continue;
        const std::string tuple = line.substr(colon + 2);
        std::size_t numbers = 0;
        bool in_digits = false;
        for (char c : tuple) {
            const bool dg = c >= '0' && c <= '9';
            if (dg && !in_digits) ++numbers;
            in_digits = dg;
        }
        const auto s = logscan::shape_dims(tuple);
        INFO(tuple);
        REQUIRE(s.ok());
        CHECK(s.size() == numbers);
        ++n;
    }
    CHECK(n > 100);

    // TVM argument shapes: the cell runs from the first "float32[" to the last ']'; it has as
    // many shapes as "float32[" occurrences and as many dims as numbers.
    const std::string tvm =
        logscan::test::read_file(logscan::test::sample_path("004_d73c77cb3fb2895c.txt"));
    std::istringstream tin(tvm);
    int cells = 0;
    while (std::getline(tin, line)) {
        const auto b = line.find("float32[");
        if (b == std::string::npos) continue;
        const auto e = line.rfind(']');
        const std::string cell = line.substr(b, e + 1 - b);
        std::size_t shapes = 0, numbers = 0;
        for (std::size_t k = 0; (k = cell.find("float32[", k)) != std::string::npos; k += 8)
            ++shapes;
        bool in_digits = false;
        for (std::size_t k = 0; k < cell.size(); ++k) {
            const bool dg = cell[k] >= '0' && cell[k] <= '9' &&
                            !(k >= 5 && cell.compare(k - 5, 5, "float") == 0) &&
                            !(k >= 6 && cell.compare(k - 6, 6, "float3") == 0);
            if (dg && !in_digits) ++numbers;
            in_digits = dg;
        }
        const auto seq = logscan::shape_lists(cell);
        INFO(cell);
        REQUIRE(seq.ok());
        CHECK(seq.size() == shapes);
        std::size_t dims = 0;
        for (const logscan::shape_list& s : seq) dims += s.size();
        CHECK(dims == numbers);
        ++cells;
    }
    CHECK(cells > 50);
}

TEST_CASE("num::no heap allocation") {
    std::string long_grouped = "1";
    for (int i = 0; i < 400; ++i) long_grouped += ",000";
    long_grouped += ".5e-1000";
    const std::string long_plain = "0." + std::string(2000, '0') + "17e2000";
    double sink = 0;
    std::int64_t isink = 0;
    LOGSCAN_CHECK_NO_ALLOC(sink += logscan::parse_number<double>("1.5e3").value);
    LOGSCAN_CHECK_NO_ALLOC(sink += logscan::parse_number<double>(long_plain).value);
    LOGSCAN_CHECK_NO_ALLOC(sink += logscan::parse_grouped<double>("12,424.27").value);
    LOGSCAN_CHECK_NO_ALLOC(sink += logscan::parse_grouped<double>(long_grouped).value);
    LOGSCAN_CHECK_NO_ALLOC(isink += logscan::parse_number<std::int64_t>("-12345").value);
    LOGSCAN_CHECK_NO_ALLOC(isink += logscan::parse_grouped<std::int64_t>("97,226,683").value);
    LOGSCAN_CHECK_NO_ALLOC(sink += logscan::parse_grouped_value("1,577.51").value.as_double());
    LOGSCAN_CHECK_NO_ALLOC(sink += logscan::parse_percent("424.52%").value);
    LOGSCAN_CHECK_NO_ALLOC(sink += logscan::parse_time("26.04msec").value.seconds());
    LOGSCAN_CHECK_NO_ALLOC(sink += logscan::parse_clock_duration("2 days, 1:31:44.5").value);
    LOGSCAN_CHECK_NO_ALLOC(sink += logscan::parse_byte_size("196.00MiB").value.bytes());
    LOGSCAN_CHECK_NO_ALLOC(for (std::int64_t d
                                : logscan::shape_dims("float32[1, 784]")) isink += d);
    CHECK(sink > 0);
    CHECK(isink != 0);
}

TEST_CASE("num::text_cursor reads what the regex classes say, numbers converted as read") {
    // `(\d+)\s+(\d+)\s+(\S.*)`
    logscan::text_cursor c("12 \t4096\f\vconv1/W b");
    std::uint64_t a = 0, b = 0;
    std::string_view name;
    CHECK((c.unsigned_integer(a) && c.whitespace() && c.unsigned_integer(b) && c.whitespace() && c.rest(name)));
    CHECK(a == 12);
    CHECK(b == 4096);
    CHECK(name == "conv1/W b");
    CHECK(c.at_end());
    // the uint64 edge: 20 digits fit up to 2^64 - 1; leading zeros do not count
    logscan::text_cursor m("18446744073709551615");
    CHECK(m.unsigned_integer(a));
    CHECK(a == std::numeric_limits<std::uint64_t>::max());
    logscan::text_cursor o("18446744073709551616");
    CHECK_FALSE(o.unsigned_integer(a));
    logscan::text_cursor z("0000000000000000000000042x");
    CHECK(z.unsigned_integer(a));
    CHECK(a == 42);
    CHECK(z.rest_view() == "x");
    CHECK_FALSE(z.unsigned_integer(a)); // no digit
    // words, blanks, literals
    logscan::text_cursor w("  7 _\r");
    std::string_view word, d;
    CHECK(w.blanks());
    CHECK(w.digits(d));
    CHECK(d == "7");
    CHECK_FALSE(w.word(word)); // at a space
    CHECK(w.whitespace());
    CHECK(w.word(word));
    CHECK(word == "_");
    CHECK_FALSE(w.at_end()); // `\r` is whitespace, not part of the word
    CHECK(w.whitespace());
    CHECK(w.at_end());
    CHECK_FALSE(w.whitespace()); // at least one
    logscan::text_cursor r(" x");
    CHECK_FALSE(r.rest(name)); // `\S.*`: not from a space
    logscan::text_cursor l("MiB(12");
    CHECK_FALSE(l.literal("MiB)"));
    CHECK(l.literal("MiB("));
    CHECK(l.unsigned_integer(a));
    CHECK(a == 12);
    logscan::text_cursor e("");
    CHECK_FALSE(e.rest(name));
    CHECK(e.at_end());
    // `[^STOPS]*` and hex digits
    logscan::text_cursor u("val): x{T@0x7f3A9g");
    std::string_view part, hex;
    CHECK(u.until(")", part));
    CHECK(part == "val");
    CHECK(u.literal("): x{"));
    CHECK(u.until("{}@", part));
    CHECK(part == "T");
    CHECK(u.until("@", part)); // none before the stop: empty, still true
    CHECK(part.empty());
    CHECK(u.literal("@0x"));
    CHECK(u.hex_digits(hex));
    CHECK(hex == "7f3A9");
    CHECK_FALSE(u.hex_digits(hex)); // `g`
    CHECK(u.until("", part));       // no stop: the rest
    CHECK(part == "g");
    CHECK(u.at_end());
    // the same stops known at compile time: one table load per byte
    logscan::text_cursor t("val): x{T@0x7f");
    CHECK(t.until<")">(part));
    CHECK(part == "val");
    CHECK(t.literal("): x{"));
    CHECK(t.until<"{}@">(part));
    CHECK(part == "T");
    CHECK(t.until<"@">(part));
    CHECK(part.empty());
    CHECK(t.literal("@"));
    CHECK(t.until<"">(part));
    CHECK(part == "0x7f");
    CHECK(t.at_end());
    for (int v = 0; v < 256; ++v) { // every byte: a stop exactly when in the set (NUL and bytes >= 0x80 too)
        const char bytes[] = {'a', static_cast<char>(v), 'b'};
        const std::string_view in(bytes, 3);
        const bool want = v == '@' || v == ':' || v == ' ' || v == 0 || v == 0xB5;
        const char* const at = logscan::internal::find_stop<"@: \0\xB5">(in.data(), in.data() + in.size());
        if ((at == in.data() + 1) != want || (!want && at != in.data() + 3)) FAIL_CHECK("byte " << v);
    }
    // eight bytes at a time (up to four stops): every byte at every place of a 24-byte input,
    // and inputs of random bytes (stops, their neighbours, bytes >= 0x80), against a byte loop
    const auto naive = [](std::string_view in, std::string_view stops) {
        std::size_t i = 0;
        while (i < in.size() && stops.find(in[i]) == std::string_view::npos) ++i;
        return i;
    };
    for (int v = 0; v < 256; ++v)
        for (std::size_t at = 0; at < 24; ++at) {
            std::string in(24, 'a');
            in[at] = static_cast<char>(v);
            const std::string_view stops("@: \n", 4);
            const char* const got = logscan::internal::find_stop<"@: \n">(in.data(), in.data() + in.size());
            if (static_cast<std::size_t>(got - in.data()) != naive(in, stops)) FAIL_CHECK("byte " << v << " at " << at);
        }
    std::uint64_t seed = 0x9E3779B97F4A7C15ull;
    const char pool[] = {'@', 'A', '?', ':', ';', '9', ' ', '!', '\x1f', '\n', '\v', '\x0b', 'a', '\x80', '\xff', '\xc0', 0};
    for (int round = 0; round < 20000; ++round) {
        std::string in;
        const std::size_t n = (seed >> 7) % 40;
        for (std::size_t i = 0; i < n; ++i) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            in += pool[(seed >> 33) % sizeof pool];
        }
        const char* const bytes = in.data();
        if (static_cast<std::size_t>(logscan::internal::find_stop<"@: \n">(bytes, bytes + in.size()) - bytes) != naive(in, std::string_view("@: \n", 4)) ||
            static_cast<std::size_t>(logscan::internal::find_stop<":">(bytes, bytes + in.size()) - bytes) != naive(in, ":") ||
            static_cast<std::size_t>(logscan::internal::find_stop<"{}@">(bytes, bytes + in.size()) - bytes) != naive(in, "{}@"))
            FAIL_CHECK("input of " << in.size() << " bytes, round " << round);
    }
    for (int v = 0; v < 256; ++v) { // every byte: a hex digit exactly when in [0-9a-fA-F]
        const char ch = static_cast<char>(v);
        logscan::text_cursor x(std::string_view(&ch, 1));
        const bool want = (v >= '0' && v <= '9') || (v >= 'a' && v <= 'f') || (v >= 'A' && v <= 'F');
        if (x.hex_digits(hex) != want) FAIL_CHECK("byte " << v);
        // the byte at each place of a run of 40 hex digits (the 16-byte looks and the bytes
        // after them): the run ends there exactly when it is no hex digit
        for (std::size_t k = 0; k < 40; ++k) {
            std::string run = std::string("0123456789abcdefABCDEF0123456789abcdefAB").substr(0, 40);
            run[k] = ch;
            logscan::text_cursor y(run);
            const bool some = y.hex_digits(hex);
            if (hex.size() != (want ? run.size() : k) || some != (hex.size() != 0)) {
                FAIL_CHECK("byte " << v << " at " << k);
                break;
            }
        }
    }
}

TEST_CASE("num::find_space_or: the first regex blank or given byte, against a loop byte by byte") {
    // every byte value around the blanks' range (8 and 14 are none), at each place of texts of
    // up to 40 bytes, read from every start with and without the bytes before it to look at
    const std::string bytes = std::string("ab=\x08\x09\x0a\x0b\x0c\x0d\x0e \x80\xff", 13);
    std::mt19937 rng(20261207);
    const auto first = [](const char* p, const char* e, bool eq) {
        while (p != e && !logscan::internal::is_regex_space(*p) && !(eq && *p == '=')) ++p;
        return p;
    };
    std::size_t hits = 0;
    for (int round = 0; round < 20000; ++round) {
        std::string t(rng() % 41, 'x');
        for (char& c : t) c = rng() % 4 == 0 ? bytes[rng() % bytes.size()] : 'k';
        const char* const b = t.data();
        const char* const e = b + t.size();
        for (std::size_t from = 0; from <= t.size(); ++from) {
            for (const char* begin : {b, b + from}) {
                REQUIRE(logscan::internal::find_space_or<'='>(b + from, e, begin) == first(b + from, e, true));
                REQUIRE(logscan::internal::find_space_or<>(b + from, e, begin) == first(b + from, e, false));
            }
            hits += first(b + from, e, true) != e ? 1u : 0u;
        }
    }
    CHECK(hits > 10000);
    // in a constant expression too (byte by byte there): `k=v w`'s key ends at the `=`, its
    // value at the blank; a text with neither ends at its end
    constexpr auto at = [](std::string_view t, bool eq) {
        const char* const e = t.data() + t.size();
        return (eq ? logscan::internal::find_space_or<'='>(t.data(), e, t.data()) : logscan::internal::find_space_or<>(t.data(), e, t.data())) - t.data();
    };
    static_assert(at("key=v w", true) == 3 && at("key=v w", false) == 5 && at("kv", true) == 2 && at("\tk", false) == 0);
}
