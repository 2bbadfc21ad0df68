// SPDX-License-Identifier: MIT
// bench_chrome_trace's simdjson On-Demand contender, in a translation unit of its own built
// with -march=native: On-Demand chooses its implementation when it is compiled, and without
// the machine's instruction sets that is simdjson's portable fallback, without SIMD.
#include <simdjson.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace {
// A value walked: a string read, a number as its text, an object's or array's members walked
// (what logscan's records give: args and the other objects as their text).
std::uint64_t walk(simdjson::ondemand::value v) {
    std::uint64_t sum = 0;
    switch (v.type()) {
    case simdjson::ondemand::json_type::object:
        for (auto f : v.get_object()) sum += std::string_view(f.unescaped_key()).size() + walk(f.value());
        return sum;
    case simdjson::ondemand::json_type::array:
        for (auto e : v.get_array()) sum += walk(e.value());
        return sum;
    case simdjson::ondemand::json_type::string: return std::string_view(v.get_string()).size();
    default: return v.raw_json_token().size();
    }
}
} // namespace

namespace {
std::uint64_t walk_document(const simdjson::padded_string& doc, std::uint64_t& events) {
    static simdjson::ondemand::parser parser; // (one for all the runs, as a program reading many files keeps it)
    simdjson::ondemand::document d = parser.iterate(doc);
    std::uint64_t sum = 0;
    events = 0;
    for (auto member : d.get_object()) {
        if (std::string_view(member.unescaped_key()) != "traceEvents") {
            sum += walk(member.value());
            continue;
        }
        for (simdjson::ondemand::object ev : member.value().get_array()) {
            ++events;
            for (auto f : ev) {
                sum += std::string_view(f.unescaped_key()).size();
                sum += walk(f.value());
            }
        }
    }
    return sum;
}
} // namespace

// The file loaded (simdjson's padded_string::load), then every member of every event walked
// (see walk); `walk_seconds`: the walk's part.
std::uint64_t simdjson_walk(const std::string& path, std::uint64_t& events, double& walk_seconds);
std::uint64_t simdjson_walk(const std::string& path, std::uint64_t& events, double& walk_seconds) {
    const simdjson::padded_string doc = simdjson::padded_string::load(path);
    const auto t0 = std::chrono::steady_clock::now();
    const std::uint64_t sum = walk_document(doc, events);
    walk_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return sum;
}
