// SPDX-License-Identifier: MIT
// Tests examples/paddle_summary.cpp, the README's worked example (its main is left out with
// LOGSCAN_TEST), on the Paddle sample, fed whole and in chunks, and without allocating.
// Expected values are read off samples/003_1c776201c8b5b83e.txt by hand: the 40 lines
// "[..] ppdet.engine INFO: Epoch: [0] [ N/12500] ... loss: X ..." (steps 0..39) and the 87
// rows at column 0 of the "Operator Summary" table (lines 105-680).
#define LOGSCAN_TEST 1
#include "../../examples/paddle_summary.cpp"

#include <doctest/doctest.h>

#include <string>
#include <tuple>

#include "support/alloc_counter.hpp"
#include "support/chunking.hpp"

namespace {

// Hands out the test's chunks one by one: a source as a pipe would deliver them.
struct chunks_source {
    logscan::test::chunk_list chunks;
    std::size_t i = 0;
    logscan::chunk next() noexcept { return i < chunks.size() ? logscan::chunk{chunks[i++]} : logscan::chunk{}; }
};

using result = std::tuple<std::size_t, double, double, long, double, long, std::size_t, std::string>;

result run(logscan::test::chunk_list ch) {
    chunks_source src{ch};
    paddle::summary s;
    REQUIRE(paddle::read(src, s).ok());
    std::string top;
    for (const paddle::op& o : s.top) top += std::string(o.name) + "=" + std::to_string(o.gpu_ms) + ";";
    return {s.points, s.first_loss, s.last_loss, s.last_step, s.min_loss, s.min_step, s.ops, top};
}

} // namespace

TEST_CASE("examples::paddle_summary: loss curve and top operators of the Paddle sample") {
    const std::string text = logscan::test::read_file(logscan::test::sample_path("003_1c776201c8b5b83e.txt"));
    const result r = logscan::test::check_chunk_invariance(text, run, 8);
    CHECK(std::get<0>(r) == 40);            // training lines
    CHECK(std::get<1>(r) == 0.922204);      // line 10: step 0
    CHECK(std::get<2>(r) == 1.028492);      // the last training line: step 39
    CHECK(std::get<3>(r) == 39);
    CHECK(std::get<4>(r) == 0.826456);      // the smallest loss of the 40 ...
    CHECK(std::get<5>(r) == 35);            // ... at step 35
    CHECK(std::get<6>(r) == 87);            // top-level rows of "Operator Summary"

    logscan::memory_source src(text);
    paddle::summary s;
    REQUIRE(paddle::read(src, s).ok());
    CHECK(s.unreadable == 0);
    // the five largest GPU totals of those rows (column "GPU Total / Avg / ...", first value)
    std::array<paddle::op, 5> top = s.top;
    std::sort(top.begin(), top.end(), [](const paddle::op& a, const paddle::op& b) { return a.gpu_ms > b.gpu_ms; });
    CHECK(top[0].name == "conv2d dygraph");
    CHECK(top[0].gpu_ms == 566.98);
    CHECK(top[1].name == "Conv2dGradNodeFinal");
    CHECK(top[1].gpu_ms == 548.76);
    CHECK(top[2].name == "RoiAlignGradNode");
    CHECK(top[2].gpu_ms == 239.72);
    CHECK(top[3].name == "batch_norm dygraph");
    CHECK(top[3].gpu_ms == 206.30);
    CHECK(top[4].name == "roi_align dygraph");
    CHECK(top[4].gpu_ms == 203.66);
}

TEST_CASE("examples::paddle_summary: one allocation (the carry buffer, before reading), whatever the input size") {
    const std::string text = logscan::test::read_file(logscan::test::sample_path("003_1c776201c8b5b83e.txt"));
    std::string thrice = text + text + text;
    paddle::summary s1, s3;
    logscan::memory_source src1(text), src3(thrice);
    // (the carry buffer is malloc'd: counted only where the test counts malloc, not under ASan)
    const std::size_t setup = logscan::test::counts_malloc() ? 1u : 0u;
    CHECK(logscan::test::count_allocations([&] { std::ignore = paddle::read(src1, s1); }) == setup);
    CHECK(logscan::test::count_allocations([&] { std::ignore = paddle::read(src3, s3); }) == setup);
    CHECK(s1.points == 40);
    CHECK(s3.points == 120);
}
