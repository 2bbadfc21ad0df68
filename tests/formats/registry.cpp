// SPDX-License-Identifier: MIT
// formats/registry.hpp: the list of formats, looked up by name, iterated in order, extended.
#include <logscan/formats/registry.hpp>

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

TEST_CASE("registry::every format by its name, in the order that breaks detection ties; unknown names are no format") {
    std::vector<std::string_view> names;
    logscan::for_each_format(logscan::all_formats{}, [&]<class F>() { names.push_back(F::name); });
    // the six formats of formats.md, the JSON dump, the Chrome trace and the Chainer graph first (README, detect.hpp)
    CHECK(names == std::vector<std::string_view>{"megengine-profile", "chrome-trace", "chainer-memtrace", "tvm-profile",
                                                 "paddle-log", "megengine-log"});
    for (std::string_view n : names) {
        std::string_view found;
        CHECK(logscan::with_format(logscan::all_formats{}, n, [&]<class F>() { found = F::name; }));
        CHECK(found == n);
        CHECK(logscan::has_format(logscan::all_formats{}, n));
    }
    int calls = 0;
    CHECK_FALSE(logscan::with_format(logscan::all_formats{}, "tvm_profile", [&]<class F>() { ++calls; })); // (a misspelling)
    CHECK_FALSE(logscan::with_format(logscan::all_formats{}, "", [&]<class F>() { ++calls; }));
    CHECK(calls == 0);
    // --threads: the line formats whose parsers tell when they are at rest
    std::vector<std::string_view> splittable;
    logscan::for_each_format(logscan::all_formats{}, [&]<class F>() {
        if constexpr (F::splittable) splittable.push_back(F::name);
    });
    CHECK(splittable == std::vector<std::string_view>{"tvm-profile", "paddle-log", "megengine-log"});
    // every format's record types end with its text (line formats) and error records
    logscan::for_each_format(logscan::all_formats{}, [&]<class F>() { CHECK(F::record_types.back() == "error"); });
    // a program's own list: logscan's formats and one more, after them
    using mine = logscan::formats_plus<logscan::all_formats, logscan::tvm_profile::format>;
    static_assert(mine::size == logscan::all_formats::size + 1);
}
