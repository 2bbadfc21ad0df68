// Second of two translation units that include every public header (see tu1.cpp).
#include "all_headers.hpp"

#include <string_view>

unsigned long long tu2_lines(std::string_view text) {
    logscan::null_visitor v;
    logscan::line_splitter<logscan::null_visitor> s(v);
    s.feed(text);
    s.finish();
    return s.lines();
}
