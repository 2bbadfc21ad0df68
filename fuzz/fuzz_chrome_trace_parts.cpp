// SPDX-License-Identifier: MIT
// Fuzz target for a Chrome trace read for the summary in parts, in parallel
// (formats/chrome_trace_parts.hpp, `logscan summary --threads`). The first byte chooses the
// part size (1 to 256 bytes), the second the source's piece size (1 to 256 bytes: a part of
// a line with no end is cut where the pieces were). Invariants (abort on violation): no crash,
// hang, deadlock or undefined behaviour (ASan+UBSan); read in parts on 2 threads, with small
// parser storage (events too large, B spans past the store), the outcome, the records
// counted, every error record (message, index, line, column, offset) and the rank's summary
// JSON equal those of one reader of the same pieces.
#include <logscan/formats/chrome_trace_parts.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "split_input.hpp"

namespace {
namespace ct = logscan::chrome_trace;

constexpr ct::options small{.scratch_capacity = 256, .open_capacity = 128};

bool same(const logscan::error& a, const logscan::error& b) {
    return a.code == b.code && a.line == b.line && a.column == b.column && a.offset == b.offset && a.message == b.message &&
           a.index == b.index;
}

std::string summary_of(ct::rank_rows rows) {
    std::vector<ct::rank_rows> ranks;
    ranks.push_back(std::move(rows));
    return ct::summary_json(ct::summarize(std::move(ranks)));
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const std::string_view in(reinterpret_cast<const char*>(data + 2), size - 2);
    const std::size_t part = std::size_t{data[0]} + 1, piece = std::size_t{data[1]} + 1;

    ct::rank_reader reader{"fuzz.json"};
    ct::records::counting<ct::rank_reader> counted{reader};
    fuzz::pieces one_src{in, piece};
    const logscan::error one = ct::parse(one_src, counted, small);
    ct::rank_rows expected = reader.take();

    fuzz::pieces src{in, piece};
    ct::parts_read got = ct::read_rank_in_parts(src, "fuzz.json", {.threads = 2, .part_bytes = part}, small);
    if (!same(got.result, one) || got.records != counted.records) std::abort();
    if (got.rows.errors.size() != expected.errors.size()) std::abort();
    for (std::size_t i = 0; i < expected.errors.size(); ++i)
        if (!same(got.rows.errors[i], expected.errors[i])) std::abort();
    if (got.rows.symbols != expected.symbols || got.rows.tids != expected.tids || got.rows.rows.size() != expected.rows.size())
        std::abort();
    if (summary_of(std::move(got.rows)) != summary_of(std::move(expected))) std::abort();
    return 0;
}
