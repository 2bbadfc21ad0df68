// SPDX-License-Identifier: MIT
// Tests examples/custom_format.cpp (its main is left out with LOGSCAN_TEST) on the PyTorch
// table it ships; expected values are read off examples/data/pytorch_key_averages.txt.
#define LOGSCAN_TEST 1
#include "../../examples/custom_format.cpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "support/chunking.hpp"

TEST_CASE("examples::custom_format parses PyTorch's key_averages table") {
    const std::string path = std::string(LOGSCAN_SOURCE_DIR) + "/examples/data/pytorch_key_averages.txt";
    logscan::file_source src(path.c_str(), 4096);
    pytorch::top_ops<3> top;
    REQUIRE(pytorch::parse(src, top).ok());
    CHECK(top.rows == 12);
    CHECK(top.bad == 0);
    // Self CPU column, summed by hand: 473+18+40+29+6002+13+24+974+1+405+67+195 us = 8241 us
    CHECK(std::fabs(top.self_total_s - 8241e-6) < 1e-9);
    CHECK(std::fabs(top.reported_total_s - 8.586e-3) < 1e-12);
    REQUIRE(top.n == 3);
    CHECK(std::string(top.best[0].name) == "aten::mkldnn_convolution");
    CHECK(std::fabs(top.best[0].self_s - 6.002e-3) < 1e-12);
    CHECK(top.best[0].calls == 20);
    CHECK(std::string(top.best[1].name) == "aten::native_batch_norm");
    CHECK(std::string(top.best[2].name) == "model_inference");
    CHECK(top.best[2].calls == 1);
}
