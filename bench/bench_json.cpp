// SPDX-License-Identifier: MIT
// JSON SAX throughput: logscan::json::reader (fed whole, in 64 KiB chunks, and from a file via
// file_source) against RapidJSON's Reader (SAX), simdjson On-Demand (iterating every value) and
// DOM, nlohmann::json::sax_parse and yajl, on
//   1. samples/001_825e28a4f520ddc2.txt (MegEngine profiler JSON, 382 KB), parsed repeatedly;
//   2. the same sample one parse at a time, 300 x --runs parses per contender, interleaved,
//      reporting the median parse (steadier than 1. on a shared machine);
//   3. a document of --mb MB (default 100) of the same shape: `[doc, doc, ...]`, copies of
//      sample 001 in one JSON array.
// Every contender visits every value: it counts values, adds up the bytes of keys and strings
// (decoded) and converts every number to double and adds it up. The checksums must agree
// (numbers within 1e-9 relative: RapidJSON's default number parsing is not exactly rounded).
// The reference row (ratio 1.00) is RapidJSON's SAX Reader. Runs of the contenders are interleaved
// and the best of --runs is kept.
//
//   bench_json [--mb 100] [--runs 5]
#include <logscan/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

#include "bench_util.hpp"

#if LOGSCAN_BENCH_RAPIDJSON
#include <rapidjson/reader.h>
#endif
#if LOGSCAN_BENCH_SIMDJSON
#include <simdjson.h>
#endif
#if LOGSCAN_BENCH_NLOHMANN
#include <nlohmann/json.hpp>
#endif
#if LOGSCAN_BENCH_YAJL
#include <yajl/yajl_parse.h>
#endif

namespace {

struct sums {
    std::uint64_t values = 0;    // scalars + containers
    std::uint64_t text = 0;      // bytes of keys and strings
    double numbers = 0;          // sum of all numbers as doubles
    bool ok = true;
};

bool agree(const sums& a, const sums& b) {
    return a.ok && b.ok && a.values == b.values && a.text == b.text &&
           std::fabs(a.numbers - b.numbers) <= 1e-9 * std::fabs(b.numbers);
}

// ---- logscan ----
struct logscan_visitor {
    sums s;
    void on_object_begin() { ++s.values; }
    void on_array_begin() { ++s.values; }
    void on_key(std::string_view k) { s.text += k.size(); }
    void on_string(std::string_view v) {
        ++s.values;
        s.text += v.size();
    }
    void on_number(const logscan::json::number& n) {
        ++s.values;
        s.numbers += n.to_double();
    }
    void on_bool(bool) { ++s.values; }
    void on_null() { ++s.values; }
};
// Events only: numbers are not converted (their text is still delimited and validated).
struct logscan_events_visitor {
    sums s;
    void on_object_begin() { ++s.values; }
    void on_array_begin() { ++s.values; }
    void on_key(std::string_view k) { s.text += k.size(); }
    void on_string(std::string_view v) {
        ++s.values;
        s.text += v.size();
    }
    void on_number(const logscan::json::number& n) {
        ++s.values;
        s.numbers += static_cast<double>(n.text().size());
    }
    void on_bool(bool) { ++s.values; }
    void on_null() { ++s.values; }
};

template <class V>
sums logscan_whole(std::string_view doc) {
    V v;
    logscan::json::reader<V> r(v);
    (void)r.feed(doc);
    (void)r.finish();
    v.s.ok = r.ok();
    return v.s;
}
sums logscan_chunks(std::string_view doc, std::size_t chunk) {
    logscan_visitor v;
    logscan::json::reader<logscan_visitor> r(v);
    for (std::size_t at = 0; at < doc.size(); at += chunk) (void)r.feed(doc.substr(at, chunk));
    (void)r.finish();
    v.s.ok = r.ok();
    return v.s;
}
sums logscan_file(const char* path) {
    logscan_visitor v;
    logscan::file_source src(path);
    v.s.ok = logscan::json::parse(src, v).ok();
    return v.s;
}

#if LOGSCAN_BENCH_RAPIDJSON
struct rapid_handler : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, rapid_handler> {
    sums s;
    bool Null() { return ++s.values, true; }
    bool Bool(bool) { return ++s.values, true; }
    bool Int(int i) { return num(i); }
    bool Uint(unsigned u) { return num(u); }
    bool Int64(std::int64_t i) { return num(static_cast<double>(i)); }
    bool Uint64(std::uint64_t u) { return num(static_cast<double>(u)); }
    bool Double(double d) { return num(d); }
    bool num(double d) {
        ++s.values;
        s.numbers += d;
        return true;
    }
    bool String(const char*, rapidjson::SizeType n, bool) {
        ++s.values;
        s.text += n;
        return true;
    }
    bool Key(const char*, rapidjson::SizeType n, bool) {
        s.text += n;
        return true;
    }
    bool StartObject() { return ++s.values, true; }
    bool EndObject(rapidjson::SizeType) { return true; }
    bool StartArray() { return ++s.values, true; }
    bool EndArray(rapidjson::SizeType) { return true; }
};
sums rapidjson_sax(const std::string& doc) {
    rapid_handler h;
    rapidjson::Reader reader;
    rapidjson::StringStream ss(doc.c_str());
    h.s.ok = !reader.Parse(ss, h).IsError();
    return h.s;
}
#endif

#if LOGSCAN_BENCH_SIMDJSON
void simd_walk(simdjson::ondemand::value v, sums& s) {
    ++s.values;
    switch (v.type()) {
    case simdjson::ondemand::json_type::object:
        for (auto field : v.get_object()) {
            s.text += std::string_view(field.unescaped_key()).size();
            simd_walk(field.value(), s);
        }
        break;
    case simdjson::ondemand::json_type::array:
        for (auto element : v.get_array()) simd_walk(element.value(), s);
        break;
    case simdjson::ondemand::json_type::number: s.numbers += double(v.get_double()); break;
    case simdjson::ondemand::json_type::string: s.text += std::string_view(v.get_string()).size(); break;
    case simdjson::ondemand::json_type::boolean: (void)bool(v.get_bool()); break;
    case simdjson::ondemand::json_type::null: (void)v.is_null(); break;
    }
}
sums simdjson_ondemand(simdjson::ondemand::parser& parser, const simdjson::padded_string& doc) {
    sums s;
    try {
        simdjson::ondemand::document d = parser.iterate(doc);
        simd_walk(d.get_value(), s);
    } catch (const simdjson::simdjson_error&) {
        s.ok = false;
    }
    return s;
}
void dom_walk(simdjson::dom::element e, sums& s) {
    ++s.values;
    switch (e.type()) {
    case simdjson::dom::element_type::OBJECT:
        for (auto field : simdjson::dom::object(e)) {
            s.text += field.key.size();
            dom_walk(field.value, s);
        }
        break;
    case simdjson::dom::element_type::ARRAY:
        for (auto x : simdjson::dom::array(e)) dom_walk(x, s);
        break;
    case simdjson::dom::element_type::INT64: s.numbers += static_cast<double>(std::int64_t(e)); break;
    case simdjson::dom::element_type::UINT64: s.numbers += static_cast<double>(std::uint64_t(e)); break;
    case simdjson::dom::element_type::DOUBLE: s.numbers += double(e); break;
    case simdjson::dom::element_type::STRING: s.text += std::string_view(e).size(); break;
    case simdjson::dom::element_type::BOOL:
    case simdjson::dom::element_type::NULL_VALUE: break;
    }
}
sums simdjson_dom(simdjson::dom::parser& parser, const simdjson::padded_string& doc) {
    sums s;
    try {
        dom_walk(parser.parse(doc), s);
    } catch (const simdjson::simdjson_error&) {
        s.ok = false;
    }
    return s;
}
#endif

#if LOGSCAN_BENCH_NLOHMANN
struct nlohmann_sax {
    using json = nlohmann::json;
    sums s;
    bool null() { return ++s.values, true; }
    bool boolean(bool) { return ++s.values, true; }
    bool number_integer(json::number_integer_t i) { return num(static_cast<double>(i)); }
    bool number_unsigned(json::number_unsigned_t u) { return num(static_cast<double>(u)); }
    bool number_float(json::number_float_t d, const json::string_t&) { return num(d); }
    bool num(double d) {
        ++s.values;
        s.numbers += d;
        return true;
    }
    bool string(json::string_t& v) {
        ++s.values;
        s.text += v.size();
        return true;
    }
    bool binary(json::binary_t&) { return true; }
    bool start_object(std::size_t) { return ++s.values, true; }
    bool key(json::string_t& k) {
        s.text += k.size();
        return true;
    }
    bool end_object() { return true; }
    bool start_array(std::size_t) { return ++s.values, true; }
    bool end_array() { return true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
        s.ok = false;
        return false;
    }
};
sums nlohmann_sax_parse(const std::string& doc) {
    nlohmann_sax h;
    const bool ok = nlohmann::json::sax_parse(doc.begin(), doc.end(), &h);
    h.s.ok = h.s.ok && ok;
    return h.s;
}
#endif

#if LOGSCAN_BENCH_YAJL
sums& yajl_sums(void* ctx) { return *static_cast<sums*>(ctx); }
int yajl_null_cb(void* c) { return ++yajl_sums(c).values, 1; }
int yajl_bool_cb(void* c, int) { return ++yajl_sums(c).values, 1; }
int yajl_int_cb(void* c, long long i) {
    ++yajl_sums(c).values;
    yajl_sums(c).numbers += static_cast<double>(i);
    return 1;
}
int yajl_double_cb(void* c, double d) {
    ++yajl_sums(c).values;
    yajl_sums(c).numbers += d;
    return 1;
}
int yajl_string_cb(void* c, const unsigned char*, size_t n) {
    ++yajl_sums(c).values;
    yajl_sums(c).text += n;
    return 1;
}
int yajl_key_cb(void* c, const unsigned char*, size_t n) {
    yajl_sums(c).text += n;
    return 1;
}
int yajl_start_cb(void* c) { return ++yajl_sums(c).values, 1; }
int yajl_end_cb(void*) { return 1; }
sums yajl_parse_all(std::string_view doc) {
    static const yajl_callbacks cbs = {yajl_null_cb,   yajl_bool_cb, yajl_int_cb,   yajl_double_cb,
                                       nullptr,        yajl_string_cb, yajl_start_cb, yajl_key_cb,
                                       yajl_end_cb,    yajl_start_cb, yajl_end_cb};
    sums s;
    yajl_handle h = yajl_alloc(&cbs, nullptr, &s);
    s.ok = yajl_parse(h, reinterpret_cast<const unsigned char*>(doc.data()), doc.size()) == yajl_status_ok &&
           yajl_complete_parse(h) == yajl_status_ok;
    yajl_free(h);
    return s;
}
#endif

// The contenders of one table. Runs are interleaved (run 1 of every contender, then run 2,
// ...) and the best time of each is kept, so a burst of load on a shared machine does not
// favour whichever contender ran at a quiet moment.
struct contender {
    std::string name;
    sums expected;
    std::function<sums()> parse;
    bool reference = false;
    double best = 1e300;
    sums got{};
};

// median: keep each contender's median run instead of its best (with reps == 1 and many
// runs: the typical time of one parse, robust against the load phases of a shared machine).
void run_all(const char* title, const std::string& doc, int reps, int runs, const char* file_path,
             bool median = false) {
    const std::size_t bytes = doc.size() * static_cast<std::size_t>(reps);
    const sums expected = logscan_whole<logscan_visitor>(doc);
    if (!expected.ok) {
        std::fprintf(stderr, "logscan rejected the input\n");
        std::exit(1);
    }
    const sums events_expected = logscan_whole<logscan_events_visitor>(doc);
    std::vector<contender> cs;
#if LOGSCAN_BENCH_RAPIDJSON
    cs.push_back({"RapidJSON Reader (SAX)", expected, [&] { return rapidjson_sax(doc); }, true});
#endif
    cs.push_back({"logscan json, whole", expected, [&] { return logscan_whole<logscan_visitor>(doc); }});
    cs.push_back({"logscan json, 64 KiB chunks", expected, [&] { return logscan_chunks(doc, 65536); }});
    cs.push_back({"logscan json, 4 KiB chunks", expected, [&] { return logscan_chunks(doc, 4096); }});
    if (file_path)
        cs.push_back({"logscan json, file_source 256 KiB", expected, [=] { return logscan_file(file_path); }});
    cs.push_back({"logscan json, whole, no number conv.", events_expected,
                  [&] { return logscan_whole<logscan_events_visitor>(doc); }});
#if LOGSCAN_BENCH_SIMDJSON
    const simdjson::padded_string padded(doc);
    simdjson::ondemand::parser od;
    simdjson::dom::parser dom;
    cs.push_back({"simdjson On-Demand (every value)", expected, [&] { return simdjson_ondemand(od, padded); }});
    cs.push_back({"simdjson DOM (parse + walk)", expected, [&] { return simdjson_dom(dom, padded); }});
#endif
#if LOGSCAN_BENCH_YAJL
    cs.push_back({"yajl 2", expected, [&] { return yajl_parse_all(doc); }});
#endif
#if LOGSCAN_BENCH_NLOHMANN
    cs.push_back({"nlohmann::json::sax_parse", expected, [&] { return nlohmann_sax_parse(doc); }});
#endif
    std::vector<std::vector<double>> times(cs.size());
    for (int r = 0; r < runs; ++r) {
        for (std::size_t k = 0; k < cs.size(); ++k) {
            auto& c = cs[k];
            const double sec = bench::best_seconds(1, [&] {
                for (int i = 0; i < reps; ++i) {
                    c.got = c.parse();
                    bench::keep(c.got);
                }
            });
            c.best = std::min(c.best, sec);
            if (median) times[k].push_back(sec);
        }
    }
    if (median)
        for (std::size_t k = 0; k < cs.size(); ++k) {
            std::sort(times[k].begin(), times[k].end());
            cs[k].best = times[k][times[k].size() / 2];
        }
    bench::table t(title, bytes);
    for (const auto& c : cs) {
        std::string note;
        if (!agree(c.got, c.expected)) {
            char buf[200];
            std::snprintf(buf, sizeof buf, "CHECKSUM MISMATCH (ok=%d values=%llu text=%llu numbers=%.17g)", c.got.ok,
                          static_cast<unsigned long long>(c.got.values), static_cast<unsigned long long>(c.got.text),
                          c.got.numbers);
            note = buf;
        }
        t.add(c.name, c.best, c.reference, note);
    }
    t.print();
}

} // namespace

int main(int argc, char** argv) {
    const bench::options o = bench::parse_args(argc, argv, 100);
    const std::string sample = bench::sample("001_825e28a4f520ddc2.txt");

    // 1. the sample itself, parsed repeatedly (each repetition is timed as part of one run)
    run_all("samples/001_825e28a4f520ddc2.txt (MegEngine profile), x40", sample, 40, o.runs, nullptr);

    // 2. the sample again, one parse at a time, contenders interleaved: median of 300 parses
    //    per run asked for (short parses dodge the load phases that move the totals above)
    run_all("samples/001_825e28a4f520ddc2.txt, one parse at a time (median)", sample, 1, 300 * o.runs, nullptr,
            true);

    // 3. one big document of the same shape: [sample, sample, ...]
    std::string big = "[";
    const auto target = static_cast<std::size_t>(o.mb * 1e6);
    while (big.size() < target) {
        if (big.size() > 1) big += ",\n";
        big += sample;
    }
    big += "]\n";
    char path[] = "/tmp/logscan_bench_json_XXXXXX";
    const int fd = ::mkstemp(path);
    bool have_file = false;
    if (fd >= 0) {
        have_file = ::write(fd, big.data(), big.size()) == static_cast<::ssize_t>(big.size());
        ::close(fd);
    }
    char title[128];
    std::snprintf(title, sizeof title, "[sample 001, ...] generated to %.0f MB, one document", o.mb);
    run_all(title, big, 1, o.runs, have_file ? path : nullptr);
    if (fd >= 0) ::unlink(path);
    return 0;
}
