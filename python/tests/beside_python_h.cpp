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
    std::size_t written = 0, silent = 0;
    logscan::for_each_format(logscan::all_formats{}, [&]<class F>() {
        std::size_t n = 0;
        char buf[4096];
        logscan::ndjson_writer<count_bytes> w{count_bytes{&n}, buf};
        typename F::template ndjson_visitor<logscan::ndjson_writer<count_bytes>> v{w};
        (void)F::parse(std::string_view("x\n"), v);
        (void)w.flush();
        if (n == 0) ++silent, std::printf("%.*s wrote nothing\n", int(F::name.size()), F::name.data());
        written += n;
    });
    std::printf("%zu bytes of NDJSON\n", written);
    return silent == 0 ? 0 : 1; // (each format wrote a record of the line: text, or a JSON format's error)
}
