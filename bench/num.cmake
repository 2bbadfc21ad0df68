# SPDX-License-Identifier: MIT
# bench_num: decimal number parsing on number-heavy text built from the samples:
# logscan (fast_float) vs strtod vs std::from_chars<double> vs std::istringstream.
# Needs nothing beyond the C++ standard library and fast_float.
add_executable(bench_num ${CMAKE_CURRENT_LIST_DIR}/bench_num.cpp)
target_link_libraries(bench_num PRIVATE logscan_dev)
target_compile_definitions(bench_num PRIVATE LOGSCAN_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
