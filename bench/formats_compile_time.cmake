# SPDX-License-Identifier: MIT
# bench_formats_compile_time: times the compiler (-O2) on one translation unit that parses all
# five formats into NDJSON (formats_compile_time.cpp); the budget is 15 s with g++.
# `cmake --build <dir> --target bench_formats_compile_time` prints the time.
add_custom_target(bench_formats_compile_time
  COMMAND ${CMAKE_COMMAND} -E time ${CMAKE_CXX_COMPILER} -std=c++20 -O2 ${LOGSCAN_BENCH_COMPILE_INCLUDES}
          -c ${CMAKE_CURRENT_LIST_DIR}/formats_compile_time.cpp -o ${CMAKE_CURRENT_BINARY_DIR}/formats_compile_time.o
  VERBATIM USES_TERMINAL)
