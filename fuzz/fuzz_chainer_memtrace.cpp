// SPDX-License-Identifier: MIT
// Fuzz target for the chainer-memtrace format. Invariants (abort on violation): no crash or
// hang; the same records whole and split at an input-chosen position; every direction line
// after the header is one function record or one "function record ..." error; text never
// ends in a space; a function's params are a JSON object.
#include <logscan/formats/chainer_memtrace.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "split_input.hpp"

namespace {
namespace cm = logscan::chainer_memtrace;

struct out {
    std::vector<std::string> events;
    std::size_t functions = 0, broken = 0;
    std::uint64_t header_line = 0;
    void on_header(const cm::header& h) {
        header_line = h.line;
        events.push_back("H" + std::to_string(h.buffers) + "/" + std::to_string(h.functions));
    }
    void on_buffer(const cm::buffer& b) {
        events.push_back("B" + std::to_string(b.id) + (b.name ? "|" + std::string(*b.name) : std::string("_")));
    }
    void on_function(const cm::function& f) {
        ++functions;
        if (f.params.empty() || f.params.back() != '}') std::abort();
        std::string e = "F" + std::to_string(f.line) + std::string(f.direction) + std::string(f.func_type);
        for (const cm::input& in : f.inputs) e += " " + std::to_string(in.id) + (in.role ? std::string(*in.role) : "_");
        for (std::uint64_t o : f.outputs) e += " >" + std::to_string(o);
        events.push_back(e + std::string(f.params));
    }
    void on_text(const logscan::line& l) {
        if (l.text.empty() || l.text.back() == ' ' || l.text.back() == '\t') std::abort(); // trailing spaces removed
        events.push_back("T" + std::to_string(l.number) + std::string(l.text));
    }
    void on_error(const logscan::error& e) {
        if (std::string_view(e.message).starts_with("function record")) ++broken;
        events.push_back("X" + std::to_string(e.line) + std::string(e.message));
    }
};

std::vector<std::string> run(std::string_view in, std::size_t split) {
    out o;
    cm::parser<out> p(o, cm::options{.max_line = 512, .max_io = 64, .text_capacity = 256});
    const fuzz::two_chunks halves(in, split);
    p.feed(halves.first());
    p.feed(halves.second());
    p.finish();
    // direction lines after the header (a line too long is an error, not a direction line)
    std::uint64_t n = 0;
    std::size_t directions = 0;
    for (std::size_t pos = 0; pos <= in.size();) {
        std::size_t nl = in.find('\n', pos);
        if (nl == std::string_view::npos) {
            if (pos == in.size()) break;
            nl = in.size();
        }
        std::string_view l = in.substr(pos, nl - pos);
        ++n;
        if (l.ends_with('\r')) l.remove_suffix(1);
        while (!l.empty() && (l.back() == ' ' || l.back() == '\t')) l.remove_suffix(1);
        if (o.header_line != 0 && n > o.header_line && (l == "forward" || l == "backward")) ++directions;
        pos = nl + 1;
    }
    if (o.functions + o.broken != directions) std::abort();
    return o.events;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::check_split(data, size, run);
}
