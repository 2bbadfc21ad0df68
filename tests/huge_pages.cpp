// SPDX-License-Identifier: MIT
// huge_pages.hpp: what LOGSCAN_HUGEPAGES says, a grown block (its bytes kept through every
// growth, malloc below 64 KiB and a mapping of whole 2 MiB units past it, the advice where it
// is wanted, shrunk in place, unmapped when freed) and a grown array (append, index, move,
// swap, clear, copy).
#include <logscan/huge_pages.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using logscan::internal::grown_array;
using logscan::internal::grown_block;

constexpr std::size_t mib2 = std::size_t{2} << 20;

// The byte a test writes at offset i: not 0 (the value fresh pages read) and not periodic in
// powers of two (a block moved by a page, or a copy from the wrong offset, reads differently).
unsigned char pattern(std::size_t i) { return static_cast<unsigned char>(1 + (i * 7 + i / 251) % 253); }

#if defined(__linux__)
// The VmFlags line of /proc/self/smaps for the mapping that holds `p` ("" where none is read).
std::string vm_flags_of(const void* p) {
    std::ifstream in("/proc/self/smaps");
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    std::string line;
    bool inside = false;
    while (std::getline(in, line)) {
        unsigned long long lo = 0, hi = 0;
        if (std::sscanf(line.c_str(), "%llx-%llx ", &lo, &hi) == 2 && line.find('-') < line.find(' ')) {
            inside = lo <= at && at < hi;
            continue;
        }
        if (inside && line.rfind("VmFlags:", 0) == 0) return line;
    }
    return {};
}
bool has_flag(const std::string& flags, const char* f) {
    std::istringstream words(flags);
    std::string w;
    while (words >> w)
        if (w == f) return true;
    return false;
}
// Whether this kernel has transparent huge pages at all (else madvise(MADV_HUGEPAGE) fails).
bool kernel_has_thp() { return std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled").good(); }
#endif

} // namespace

TEST_CASE("huge_pages::wanted_by: only the exact text 0 says no") {
    using logscan::internal::huge_pages_wanted_by;
    CHECK(huge_pages_wanted_by(nullptr));
    CHECK_FALSE(huge_pages_wanted_by("0"));
    CHECK(huge_pages_wanted_by("1"));
    CHECK(huge_pages_wanted_by(""));
    CHECK(huge_pages_wanted_by("00"));
    CHECK(huge_pages_wanted_by("0 "));
    CHECK(huge_pages_wanted_by("no")); // (only 0 is documented as no)
}

TEST_CASE("huge_pages::grown_block keeps its bytes through every growth; malloc below 64 KiB, a mapping past it") {
    grown_block b;
    std::size_t cap = b.grow(0, 1);
    CHECK(cap == 2048);
    CHECK(b.bytes == 0); // (from malloc)
    std::size_t filled = 0;
    const auto fill_to = [&](std::size_t n) {
        auto* d = static_cast<unsigned char*>(b.data);
        for (; filled < n; ++filled) d[filled] = pattern(filled);
    };
    const auto kept = [&] {
        const auto* d = static_cast<const unsigned char*>(b.data);
        for (std::size_t i = 0; i < filled; ++i)
            if (d[i] != pattern(i)) return false;
        return true;
    };
    fill_to(cap);
    std::vector<std::size_t> caps{cap};
    while (cap < (std::size_t{9} << 20)) { // (past 64 KiB, then through several mappings' growth)
        cap = b.grow(cap, cap + 1);
        caps.push_back(cap);
        REQUIRE(kept());
        fill_to(cap);
        if (cap <= (std::size_t{64} << 10)) {
            CHECK(b.bytes == 0);
        } else {
#if defined(__linux__)
            CHECK(b.bytes == cap);      // (the whole mapping is the capacity)
            CHECK(cap % mib2 == 0);     // (whole 2 MiB units)
#endif
        }
    }
    CHECK(caps.front() == 2048);
    CHECK(caps[1] == 4096);
    CHECK(caps.back() >= (std::size_t{9} << 20));
#if defined(__linux__)
    CHECK(b.bytes != 0);
    if (kernel_has_thp()) CHECK(has_flag(vm_flags_of(b.data), "hg") == logscan::internal::huge_pages_wanted()); // (kept by mremap)
#endif
    // a growth asked for more than double: straight to it
    const std::size_t big = b.grow(cap, 5 * cap);
    CHECK(big >= 5 * cap);
    CHECK(kept());
    // shrink: the first bytes kept, the mapping cut in place to whole pages
    void* const before = b.data;
    b.shrink(10000);
    filled = 10000;
    CHECK(kept());
#if defined(__linux__)
    CHECK(b.data == before);
    CHECK(b.bytes == 12288);
    // grown again: still a mapping (never realloc'd), the bytes kept
    const std::size_t regrown = b.grow(12288, 3 * mib2);
    CHECK(regrown >= 3 * mib2);
    CHECK(b.bytes == regrown);
    CHECK(kept());
#else
    (void)before;
#endif
    void* const mapped = b.data;
    b.free();
    CHECK(b.data == nullptr);
    CHECK(b.bytes == 0);
#if defined(__linux__)
    CHECK(vm_flags_of(mapped).empty()); // (unmapped: nothing holds it)
#else
    (void)mapped;
#endif
    b.free(); // (an empty block frees nothing)
}

TEST_CASE("huge_pages::grown_block from malloc: shrunk and freed") {
    grown_block b;
    const std::size_t cap = b.grow(0, 5000);
    CHECK(cap == 8192);
    auto* d = static_cast<unsigned char*>(b.data);
    for (std::size_t i = 0; i < cap; ++i) d[i] = pattern(i);
    b.shrink(100);
    CHECK(b.bytes == 0);
    bool same = true;
    for (std::size_t i = 0; i < 100; ++i) same = same && static_cast<unsigned char*>(b.data)[i] == pattern(i);
    CHECK(same);
    b.free();
    CHECK(b.data == nullptr);
}

TEST_CASE("huge_pages::grown_array appends, indexes, moves, swaps and clears") {
    struct pair {
        std::int64_t a;
        double b;
    };
    grown_array<pair> v;
    CHECK(v.empty());
    CHECK(v.begin() == v.end());
    constexpr std::size_t n = 300000; // (4.8 MB: past the 64 KiB of malloc, into a mapping)
    for (std::size_t i = 0; i < n; ++i) v.push_back({static_cast<std::int64_t>(i) * 3 - 7, static_cast<double>(i) / 4});
    const pair three[3] = {{-1, -1.5}, {-2, -2.5}, {-3, -3.5}};
    v.append(three, 3);
    v.append(three, 0);
    REQUIRE(v.size() == n + 3);
    bool same = true;
    for (std::size_t i = 0; i < n; ++i) same = same && v[i].a == static_cast<std::int64_t>(i) * 3 - 7 && v[i].b == static_cast<double>(i) / 4;
    CHECK(same);
    CHECK(v[n + 2].a == -3);
    CHECK(v[n + 2].b == -3.5);
    std::size_t walked = 0;
    for (const pair& p : v) walked += p.a == static_cast<std::int64_t>(walked) * 3 - 7 || walked >= n;
    CHECK(walked == n + 3);

    grown_array<pair> w(std::move(v));
    CHECK(v.size() == 0); // NOLINT(bugprone-use-after-move): a moved-from array is empty
    CHECK(v.data() == nullptr);
    CHECK(w.size() == n + 3);
    CHECK(w[n].a == -1);

    grown_array<pair> x;
    x.push_back({42, 0.5});
    x.swap(w);
    CHECK(x.size() == n + 3);
    CHECK(w.size() == 1);
    CHECK(w[0].a == 42);
    w = std::move(x); // (w's old block freed)
    CHECK(w.size() == n + 3);
    CHECK(w[1].a == -4);
    grown_array<pair>& itself = w;
    w = std::move(itself); // (onto itself: unchanged)
    CHECK(w.size() == n + 3);
    CHECK(w[n + 2].a == -3);

    w.resize_down(2);
    CHECK(w.size() == 2);
    CHECK(w[1].a == -4);
    w.clear();
    CHECK(w.empty());
    w.push_back({7, 7.0}); // (the memory kept: a value again from the start)
    CHECK(w.size() == 1);
    CHECK(w[0].a == 7);
}

TEST_CASE("huge_pages::grown_array copies its values into a block of its own") {
    grown_array<std::uint64_t> v;
    constexpr std::size_t n = 700000; // (5.6 MB: a mapping)
    for (std::size_t i = 0; i < n; ++i) v.push_back(i * 3 + 1);
    const grown_array<std::uint64_t> copy = v;
    REQUIRE(copy.size() == n);
    CHECK(copy.data() != v.data());
    v[0] = 99; // (the copy's values its own)
    CHECK(copy[0] == 1);
    bool same = true;
    for (std::size_t i = 1; i < n; ++i) same = same && copy[i] == v[i];
    CHECK(same);
    grown_array<std::uint64_t> small;
    small.push_back(5);
    small = copy; // (copy assignment into less room: a block of its own, the values before it replaced)
    CHECK(small.size() == n);
    CHECK(small[n - 1] == (n - 1) * 3 + 1);
    grown_array<std::uint64_t> three;
    for (std::uint64_t i = 0; i < 3; ++i) three.push_back(i + 7);
    const std::uint64_t* const room = small.data();
    small = three; // (into room enough: the block kept)
    CHECK(small.data() == room);
    CHECK(small.size() == 3);
    CHECK(small[2] == 9);
    v = copy;
    CHECK(v[0] == 1);
    grown_array<std::uint64_t>& same_one = v;
    v = same_one; // (onto itself: unchanged)
    CHECK(v.size() == n);
    CHECK(v[n - 1] == (n - 1) * 3 + 1);
    grown_array<std::uint64_t> none;
    const grown_array<std::uint64_t> none_copy = none; // (an empty array's copy: empty, no block)
    CHECK(none_copy.empty());
    CHECK(none_copy.data() == nullptr);
}
