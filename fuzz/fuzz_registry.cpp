// SPDX-License-Identifier: MIT
// Fuzz target for the registry of formats (formats/registry.hpp) and the generic NDJSON
// writer every format's record list gives (record.hpp). Invariants (abort on violation): no
// crash or hang; for every format of `all_formats`, its `ndjson_visitor` writes the same
// bytes whole and split at an input-chosen position, one line per record, each a JSON object
// `{"type":"T",...}` with T one of the format's `record_types`; `with_format` finds every
// registered name and no other (a name taken from the input).
#include <logscan/formats/registry.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "split_input.hpp"

namespace {

struct string_sink {
    std::string* out;
    bool operator()(std::string_view s) const {
        out->append(s);
        return true;
    }
};

template <class F>
std::string run(std::string_view in, std::size_t at) {
    std::string out;
    std::array<char, 256> buf{};
    logscan::ndjson_writer<string_sink> w(string_sink{&out}, buf);
    typename F::template ndjson_visitor<logscan::ndjson_writer<string_sink>> v{w};
    typename F::template parser<decltype(v)> p(v, logscan::format_options{.max_line = 4096});
    const fuzz::two_chunks c(in, at);
    (void)p.feed(c.first());
    (void)p.feed(c.second());
    (void)p.finish();
    (void)w.flush();
    // one line per record, each a record of the format's types
    std::uint64_t lines = 0;
    for (std::size_t b = 0; b < out.size();) {
        const std::size_t nl = out.find('\n', b);
        if (nl == std::string::npos) std::abort();
        const std::string_view l(out.data() + b, nl - b);
        constexpr std::string_view head = "{\"type\":\"";
        if (!l.starts_with(head) || !l.ends_with("}")) std::abort();
        const std::string_view rest = l.substr(head.size());
        const std::string_view type = rest.substr(0, rest.find('"'));
        if (std::find(F::record_types.begin(), F::record_types.end(), type) == F::record_types.end()) std::abort();
        ++lines;
        b = nl + 1;
    }
    if (lines != v.records) std::abort();
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    logscan::for_each_format(logscan::all_formats{}, [&]<class F>() {
        (void)fuzz::check_split(data, size, [](std::string_view in, std::size_t at) { return run<F>(in, at); });
        if (!logscan::with_format(logscan::all_formats{}, F::name, []<class>() {})) std::abort();
    });
    // a name from the input: found exactly when it is a registered one
    const std::string_view name(reinterpret_cast<const char*>(data), std::min<std::size_t>(size, 24));
    bool registered = false;
    logscan::for_each_format(logscan::all_formats{}, [&]<class F>() { registered = registered || F::name == name; });
    if (logscan::with_format(logscan::all_formats{}, name, []<class>() {}) != registered) std::abort();
    return 0;
}
