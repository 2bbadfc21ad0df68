# SPDX-License-Identifier: MIT
# bench_formats_compile_time: times the compiler (-O2) on one translation unit that parses all
# five formats into NDJSON (formats_compile_time.cpp); the budget is 15 s with g++.
# `cmake --build <dir> --target bench_formats_compile_time` prints the time.
get_target_property(_ff_inc_formats logscan_fast_float INTERFACE_INCLUDE_DIRECTORIES)
set(_inc_formats -I${PROJECT_SOURCE_DIR}/include)
foreach(d IN LISTS _ff_inc_formats)
  if(d AND NOT d MATCHES "^\\$<")
    list(APPEND _inc_formats -I${d})
  endif()
endforeach()
add_custom_target(bench_formats_compile_time
  COMMAND ${CMAKE_COMMAND} -E time ${CMAKE_CXX_COMPILER} -std=c++20 -O2 ${_inc_formats}
          -c ${CMAKE_CURRENT_LIST_DIR}/formats_compile_time.cpp -o ${CMAKE_CURRENT_BINARY_DIR}/formats_compile_time.o
  VERBATIM USES_TERMINAL)
