# SPDX-License-Identifier: MIT
# bench_regex: logscan::regex against std::regex and, when found, Boost.Regex, RE2 and
# PCRE2 (with JIT). Also bench_regex_compile_time: times g++/clang++ -O2 on one translation
# unit holding 50 log-line patterns (bench_regex.cpp built with LOGSCAN_BENCH_COMPILE_50).
add_executable(bench_regex ${CMAKE_CURRENT_LIST_DIR}/bench_regex.cpp)
target_link_libraries(bench_regex PRIVATE logscan_dev)
target_compile_definitions(bench_regex PRIVATE LOGSCAN_SOURCE_DIR="${PROJECT_SOURCE_DIR}")

find_path(LOGSCAN_PCRE2_INCLUDE_DIR pcre2.h)
find_library(LOGSCAN_PCRE2_LIBRARY pcre2-8)
if(LOGSCAN_PCRE2_INCLUDE_DIR AND LOGSCAN_PCRE2_LIBRARY)
  target_compile_definitions(bench_regex PRIVATE LOGSCAN_BENCH_PCRE2)
  target_include_directories(bench_regex SYSTEM PRIVATE ${LOGSCAN_PCRE2_INCLUDE_DIR})
  target_link_libraries(bench_regex PRIVATE ${LOGSCAN_PCRE2_LIBRARY})
endif()

find_path(LOGSCAN_RE2_INCLUDE_DIR re2/re2.h)
find_library(LOGSCAN_RE2_LIBRARY re2)
if(LOGSCAN_RE2_INCLUDE_DIR AND LOGSCAN_RE2_LIBRARY)
  find_package(Threads QUIET)
  target_compile_definitions(bench_regex PRIVATE LOGSCAN_BENCH_RE2)
  target_include_directories(bench_regex SYSTEM PRIVATE ${LOGSCAN_RE2_INCLUDE_DIR})
  target_link_libraries(bench_regex PRIVATE ${LOGSCAN_RE2_LIBRARY})
  if(TARGET Threads::Threads)
    target_link_libraries(bench_regex PRIVATE Threads::Threads)
  endif()
endif()

find_path(LOGSCAN_BOOST_REGEX_INCLUDE_DIR boost/regex.hpp)
find_library(LOGSCAN_BOOST_REGEX_LIBRARY boost_regex)
if(LOGSCAN_BOOST_REGEX_INCLUDE_DIR AND LOGSCAN_BOOST_REGEX_LIBRARY)
  target_compile_definitions(bench_regex PRIVATE LOGSCAN_BENCH_BOOST)
  target_include_directories(bench_regex SYSTEM PRIVATE ${LOGSCAN_BOOST_REGEX_INCLUDE_DIR})
  target_link_libraries(bench_regex PRIVATE ${LOGSCAN_BOOST_REGEX_LIBRARY})
endif()

# Compile cost: `cmake --build <dir> --target bench_regex_compile_time` prints the time.
add_custom_target(bench_regex_compile_time
  COMMAND ${CMAKE_COMMAND} -E time ${CMAKE_CXX_COMPILER} -std=c++20 -O2 ${LOGSCAN_BENCH_COMPILE_INCLUDES}
          -DLOGSCAN_BENCH_COMPILE_50 -c ${CMAKE_CURRENT_LIST_DIR}/bench_regex.cpp -o ${CMAKE_CURRENT_BINARY_DIR}/regex_compile_50.o
  VERBATIM USES_TERMINAL)
