// The same program is built twice (tests/CMakeLists.txt): with the SSE2 paths x86-64 takes by
// default, and without them (-U__SSE2__: the word and byte loops of every other target). For
// each input it prints the format it detects, its record count and an FNV-1a hash of its
// NDJSON, read whole and in chunks of 1 to 7 bytes; ctest holds the two programs' outputs equal
// (portable/compare.cmake), so the scans' two paths give the same records.
#include <logscan/formats/detect.hpp>
#include <logscan/formats/registry.hpp>
#include <logscan/ndjson.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>

#include "support/string_writer.hpp"

namespace {
using logscan::test::string_sink;
using writer = logscan::test::string_writer;

std::uint64_t fnv1a(std::string_view s) noexcept {
    std::uint64_t h = 14695981039346656037ull;
    for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return h;
}

// The NDJSON of `in` read with F, fed whole (`step` 0) or in chunks of `step` bytes.
template <class F>
std::string ndjson(std::string_view in, std::size_t step, std::uint64_t& records) {
    std::string out;
    char buf[4096];
    writer w(string_sink{&out}, buf);
    typename F::template ndjson_visitor<writer> v{w};
    typename F::template parser<decltype(v)> p(v);
    for (std::size_t at = 0; at < in.size();) {
        const std::size_t n = step == 0 ? in.size() : std::min(step, in.size() - at);
        if (p.feed(in.substr(at, n)) == logscan::flow::stop) break;
        at += n;
    }
    (void)p.finish();
    w.flush();
    records = v.records;
    return out;
}
} // namespace

int main(int argc, char** argv) {
    int failures = 0;
    for (int i = 1; i < argc; ++i) {
        std::ifstream f(argv[i], std::ios::binary);
        const std::string in((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        const logscan::detection d = logscan::detect_format(in, false);
        bool found = false;
        logscan::for_each_format(logscan::all_formats{}, [&]<class F>() {
            if (found || F::name != d.format) return;
            found = true;
            std::uint64_t records = 0;
            const std::string whole = ndjson<F>(in, 0, records);
            std::printf("%s %.*s %llu %016llx\n", argv[i], static_cast<int>(d.format.size()), d.format.data(),
                        static_cast<unsigned long long>(records), static_cast<unsigned long long>(fnv1a(whole)));
            for (std::size_t step = 1; step <= 7; ++step) {
                std::uint64_t again = 0;
                if (ndjson<F>(in, step, again) != whole) {
                    std::printf("%s: chunks of %zu bytes give other records\n", argv[i], step);
                    ++failures;
                }
            }
        });
        if (!found) std::printf("%s none\n", argv[i]);
    }
    return failures == 0 ? 0 : 1;
}
