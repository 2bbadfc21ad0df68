// SPDX-License-Identifier: MIT
// Fuzz target for a Chrome trace read for the summary in parts, in parallel
// (formats/chrome_trace_parts.hpp, `logscan summary --threads`). Invariants (abort on
// violation): no crash, hang, data race's corruption or undefined behaviour (ASan+UBSan); the
// rank's summary JSON (its figures, errors with their positions and indices, events counted)
// read in parts of an input-chosen size (1 to 256 bytes) on 2 threads equals the one read by
// one reader, with small parser storage (events too large, B spans past the store).
#include <logscan/formats/chrome_trace_parts.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {
namespace ct = logscan::chrome_trace;

constexpr ct::options small{.scratch_capacity = 256, .open_capacity = 128};

std::string summary_of(ct::rank_rows rows) {
    std::vector<ct::rank_rows> ranks;
    ranks.push_back(std::move(rows));
    return ct::summary_json(ct::summarize(std::move(ranks)));
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::string_view in(reinterpret_cast<const char*>(data + 1), size - 1);
    const std::size_t part = std::size_t{data[0]} + 1;

    ct::rank_reader reader{"fuzz.json"};
    ct::parser<ct::rank_reader> p(reader, small);
    p.feed(in);
    p.finish();
    const logscan::error one = p.result();
    const std::string expected = summary_of(reader.take());

    logscan::memory_source src(in);
    ct::parts_read got = ct::read_rank_in_parts(src, "fuzz.json", {.threads = 2, .part_bytes = part}, small);
    const logscan::error& two = got.result;
    if (two.code != one.code || two.line != one.line || two.column != one.column || two.offset != one.offset ||
        two.message != one.message || two.index != one.index)
        std::abort();
    if (summary_of(std::move(got.rows)) != expected) std::abort();
    return 0;
}
