// The headers compile beside <Python.h> with the project's warnings (errors here): a C
// extension includes it first, through `python3-config --includes` (-I: not a system
// directory, so a local named as one of its globals, `digit` of longintrepr.h, is a -Wshadow
// warning). Every format's parser and NDJSON visitor instantiated, the JSON reader's with them.
#include <Python.h>

#include <logscan.hpp>
#include <logscan/formats/chrome_trace_summary.hpp>
#include <logscan/formats/registry.hpp>

#include <cstdio>
#include <string_view>

namespace {
struct count_bytes {
    std::size_t* n;
    bool operator()(std::string_view s) const {
        *n += s.size();
        return true;
    }
};
} // namespace

int main() {
    std::size_t written = 0;
    logscan::for_each_format(logscan::all_formats{}, [&]<class F>() {
        char buf[4096];
        logscan::ndjson_writer<count_bytes> w{count_bytes{&written}, buf};
        typename F::template ndjson_visitor<logscan::ndjson_writer<count_bytes>> v{w};
        (void)F::parse(std::string_view("x\n"), v);
        (void)w.flush();
    });
    std::printf("%zu bytes of NDJSON\n", written);
    return written == 0 ? 1 : 0; // (each format wrote its record of the line)
}
