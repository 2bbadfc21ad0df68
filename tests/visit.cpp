// SPDX-License-Identifier: MIT
#include <logscan/visit.hpp>

#include <doctest/doctest.h>

#include <string>

namespace {
LOGSCAN_EVENT(on_thing, "void on_thing(int)");

struct has_void {
    int calls = 0;
    void on_thing(int x) { calls += x; }
};
struct has_bool {
    bool on_thing(int x) { return x < 5; }
};
struct has_flow {
    logscan::flow on_thing(int) { return logscan::flow::stop; }
};
struct has_nothing {};

int evaluated = 0;
int side_effect() { return ++evaluated; }

template <class V>
logscan::flow deliver(V& v, int x) {
    return LOGSCAN_VISIT(v, on_thing, x);
}
template <class V>
logscan::flow deliver_lazy(V& v) {
    return LOGSCAN_VISIT(v, on_thing, side_effect());
}
} // namespace

TEST_CASE("visit::optional callbacks return a flow") {
    has_void a;
    CHECK(deliver(a, 3) == logscan::flow::proceed);
    CHECK(a.calls == 3);
    has_bool b;
    CHECK(deliver(b, 1) == logscan::flow::proceed);
    CHECK(deliver(b, 9) == logscan::flow::stop);
    has_flow c;
    CHECK(deliver(c, 0) == logscan::flow::stop);
    has_nothing d;
    CHECK(deliver(d, 0) == logscan::flow::proceed);
}

TEST_CASE("visit::arguments of an absent callback are not evaluated") {
    evaluated = 0;
    has_nothing d;
    deliver_lazy(d);
    CHECK(evaluated == 0);
    has_void a;
    deliver_lazy(a);
    CHECK(evaluated == 1);
}

TEST_CASE("visit::errors reach on_error when present") {
    struct with_error {
        logscan::error last;
        void on_error(const logscan::error& e) { last = e; }
    } v;
    const logscan::error e{logscan::error_code::syntax, 3, 7, 42, "expected ':'", 0};
    CHECK(logscan::report_error(v, e) == logscan::flow::proceed);
    CHECK(v.last.line == 3);
    CHECK(v.last.column == 7);
    CHECK(v.last.offset == 42);
    CHECK(v.last.message == "expected ':'");
    CHECK_FALSE(v.last.ok());
    CHECK(logscan::has_on_error<decltype(v)>);
    CHECK_FALSE(logscan::has_on_error<logscan::null_visitor>);
    logscan::null_visitor n;
    CHECK(logscan::report_error(n, e) == logscan::flow::proceed);
}

namespace user_code { // a program's own function of the same name, called unqualified
int own_calls = 0;
[[maybe_unused]] void report_error(const char*, const logscan::error&) { ++own_calls; }
void use(char* path, const logscan::error& e) { report_error(path, e); } // (char*: a template's V& would match it better)
} // namespace user_code

TEST_CASE("visit::a user's own report_error is the one called (the library's is never found by argument-dependent lookup)") {
    char path[] = "train.log";
    const logscan::error e{logscan::error_code::open_failed, 0, 0, 0, "cannot open file", 2};
    user_code::use(path, e);
    CHECK(user_code::own_calls == 1);
}

TEST_CASE("error::every code has a distinct name") {
    using logscan::error_code;
    const error_code all[] = {error_code::none, error_code::line_too_long, error_code::io_error,
                              error_code::open_failed, error_code::syntax, error_code::unexpected_end,
                              error_code::too_deep, error_code::too_long, error_code::too_many_columns,
                              error_code::invalid_utf8, error_code::stopped};
    for (auto a : all)
        for (auto b : all)
            if (a != b) CHECK(logscan::to_string(a) != logscan::to_string(b));
    CHECK(logscan::error{}.ok());
}

namespace {
struct overloaded {
    void on_thing(int) {}
    void on_thing(const char*) {}
};
struct templated {
    template <class T>
    void on_thing(T) {}
};
struct data_member {
    int on_thing = 0;
};
struct other_name {
    void on_thing2(int) {}
};
struct derived_from_visitor : has_void {};
struct final_visitor final {
    void on_thing(int) {}
};
} // namespace

TEST_CASE("visit::an event's name is detected whatever the member's kind or signature") {
    CHECK(on_thing_event::named<has_void>());
    CHECK(on_thing_event::named<overloaded>());
    CHECK(on_thing_event::named<templated>());
    CHECK(on_thing_event::named<data_member>());
    CHECK(on_thing_event::named<derived_from_visitor>());
    CHECK(on_thing_event::named<final_visitor>());
    CHECK(on_thing_event::named<const has_void&>());
    CHECK_FALSE(on_thing_event::named<other_name>());
    CHECK_FALSE(on_thing_event::named<has_nothing>());
    CHECK_FALSE(on_thing_event::named<int>());
    // a lambda is a class: it has no on_thing
    auto lambda = [](int) {};
    CHECK_FALSE(on_thing_event::named<decltype(lambda)>());
}

TEST_CASE("visit::a visitor with none of the callbacks is told apart from a validate-only one") {
    CHECK(logscan::has_some_callback<has_void, on_thing_event>);
    CHECK(logscan::has_some_callback<data_member, on_thing_event>); // named, so checked at the call
    CHECK_FALSE(logscan::has_some_callback<other_name, on_thing_event>);
    CHECK_FALSE(logscan::has_some_callback<has_nothing, on_thing_event, logscan::on_error_event>);
    CHECK(logscan::has_some_callback<logscan::null_visitor, on_thing_event>);
    struct counted : logscan::validate_only {};
    CHECK(logscan::has_some_callback<counted, on_thing_event>);
    struct only_errors {
        void on_error(const logscan::error&) {}
    };
    CHECK(logscan::has_some_callback<only_errors, on_thing_event, logscan::on_error_event>);
}
