// First of two translation units that include every public header and instantiate the same
// templates and inline functions as the second (ODR: they must link into one program and
// behave the same).
#include "all_headers.hpp"

#include <string_view>

unsigned long long tu2_lines(std::string_view text);

static unsigned long long tu1_lines(std::string_view text) {
    logscan::null_visitor v;
    logscan::line_splitter<logscan::null_visitor> s(v);
    s.feed(text);
    s.finish();
    return s.lines();
}

int main() {
    constexpr std::string_view text = "a\nb\r\nc";
    if (tu1_lines(text) != 3 || tu2_lines(text) != 3) return 1;
    if (logscan::version.major != LOGSCAN_VERSION_MAJOR) return 1;
    return logscan::to_string(logscan::error_code::line_too_long) == "line too long" ? 0 : 1;
}
