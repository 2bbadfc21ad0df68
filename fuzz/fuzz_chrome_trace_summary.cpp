// SPDX-License-Identifier: MIT
// Fuzz target for the summary of Chrome traces (formats/chrome_trace_summary.hpp, formats.md
// 6B). Invariants (abort on violation): no crash, hang or undefined behaviour (ASan+UBSan) in
// the reading of a rank or in summarize and summary_json, on the input as one rank and on it
// twice as the two ranks of one job; the same JSON whole and split at an input-chosen
// position, with small parser storage (so events too large and B spans past the store happen).
#include <logscan/formats/chrome_trace_summary.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "split_input.hpp"

namespace {
namespace ct = logscan::chrome_trace;

std::vector<std::string> run(std::string_view in, std::size_t split) {
    const fuzz::two_chunks halves(in, split);
    std::vector<std::string> out;
    std::vector<ct::rank_rows> ranks;
    for (int i = 0; i < 2; ++i) {
        ct::rank_reader reader{"fuzz.json"};
        ct::parser<ct::rank_reader> p(reader, ct::options{.scratch_capacity = 256, .open_capacity = 128});
        p.feed(halves.first());
        p.feed(halves.second());
        p.finish();
        ranks.push_back(reader.take());
        out.push_back(ct::summary_json(ct::summarize(std::vector<ct::rank_rows>{ranks.back()})));
    }
    out.push_back(ct::summary_json(ct::summarize(std::move(ranks), {.top_cpu_ops = 3})));
    return out;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::check_split(data, size, run);
}
