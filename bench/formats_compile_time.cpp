// SPDX-License-Identifier: MIT
// The compile-time budget of the format layer: one translation unit that parses all five
// formats into NDJSON (<logscan.hpp>, every format's ndjson_visitor, both parse entry
// points). `cmake --build <dir> --target bench_formats_compile_time` prints how long g++ -O2
// takes on it (the budget is 15 s). Built, not run.
#include <logscan.hpp>

#include <cstdio>
#include <string>

namespace {
struct sink {
    std::size_t* n;
    bool operator()(std::string_view t) const {
        *n += t.size();
        return true;
    }
};
template <class F>
std::size_t one(const std::string& text) {
    std::size_t bytes = 0;
    char buf[4096];
    logscan::ndjson_writer<sink> w(sink{&bytes}, buf);
    typename F::template ndjson_visitor<logscan::ndjson_writer<sink>> v{w};
    (void)F::parse(text, v);
    logscan::file_source src(text.data()); // (a path: both entry points instantiated)
    (void)F::parse(src, v);
    return v.records + bytes;
}
} // namespace

int main(int argc, char** argv) {
    std::string text = argc > 1 ? argv[1] : "";
    std::size_t n = one<logscan::megengine_log::format>(text) + one<logscan::megengine_profile::format>(text) +
                    one<logscan::chainer_memtrace::format>(text) + one<logscan::paddle_log::format>(text) +
                    one<logscan::tvm_profile::format>(text);
    std::printf("%zu\n", n);
}
