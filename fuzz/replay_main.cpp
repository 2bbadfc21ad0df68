// SPDX-License-Identifier: MIT
// A main for fuzz targets built without libFuzzer: runs LLVMFuzzerTestOneInput on every file
// named on the command line (directories are walked), so the corpus doubles as a regression
// test under any compiler and sanitizer.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

static int run_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot open %s\n", p.string().c_str());
        return 1;
    }
    const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // copy into an exactly-sized block so out-of-bounds reads are caught by ASan
    std::vector<std::uint8_t> exact(bytes.begin(), bytes.end());
    LLVMFuzzerTestOneInput(exact.data(), exact.size());
    return 0;
}

int main(int argc, char** argv) {
    int failures = 0;
    std::size_t n = 0;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path p(argv[i]);
        if (std::filesystem::is_directory(p)) {
            for (const auto& e : std::filesystem::recursive_directory_iterator(p))
                if (e.is_regular_file()) {
                    failures += run_file(e.path());
                    ++n;
                }
        } else {
            failures += run_file(p);
            ++n;
        }
    }
    std::printf("replayed %zu inputs\n", n);
    return failures == 0 && n > 0 ? 0 : 1;
}
