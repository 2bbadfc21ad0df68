# Development-only settings: the strict-warnings target every test, example, fuzz target and
# benchmark of this repository links, sanitizers, and doctest.

# logscan_dev: the library with non-SYSTEM includes (so our own headers are warned about)
# and warnings as errors.
set(CMAKE_CXX_EXTENSIONS OFF)
set(LOGSCAN_WARNINGS -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror)
# Known false positives, switched off deliberately and only where they occur:
# g++ 12 and 13 at -O3 (Release) report -Wrestrict inside libstdc++'s std::string code that
# the tests use (GCC bugs 105329 and 105651, fixed in g++ 14), e.g. for `std::string + "x"`.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 14)
  list(APPEND LOGSCAN_WARNINGS -Wno-restrict)
endif()
# The headers reach every development target as -I, never as -isystem: a directory given as
# both is a system one to g++ and clang, and its warnings are silenced (so it was, for every
# target linking logscan::parallel or logscan::gzip, until 2026-12-07: CMakeLists.txt).
get_target_property(_logscan_system_dirs logscan INTERFACE_SYSTEM_INCLUDE_DIRECTORIES)
if(_logscan_system_dirs MATCHES "BUILD_INTERFACE")
  message(FATAL_ERROR "logscan's headers are a SYSTEM include directory of its own build: their warnings "
                      "would be silenced in the targets that link logscan::parallel or logscan::gzip")
endif()
add_library(logscan_dev INTERFACE)
target_compile_features(logscan_dev INTERFACE cxx_std_20)
target_include_directories(logscan_dev INTERFACE ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(logscan_dev INTERFACE logscan_fast_float)
target_compile_options(logscan_dev INTERFACE ${LOGSCAN_WARNINGS})
# Debug builds (the sanitizer runs) check each line an assisted rule's reader takes against its pattern
target_compile_definitions(logscan_dev INTERFACE $<$<CONFIG:Debug>:LOGSCAN_CHECK_ASSISTS>)
if(LOGSCAN_SANITIZE)
  # (-g1: line tables, what a sanitizer's report needs for file:line, not full debug information:
  # 10 % of clang's compile time of the heaviest test files, 2-3 % of g++'s, 2026-12-07)
  target_compile_options(logscan_dev INTERFACE -fsanitize=${LOGSCAN_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer -g1)
  target_link_options(logscan_dev INTERFACE -fsanitize=${LOGSCAN_SANITIZE} -fno-sanitize-recover=all)
endif()

# All public headers, for the one-TU-per-header and ODR checks.
file(GLOB_RECURSE LOGSCAN_PUBLIC_HEADERS CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}/include
     ${PROJECT_SOURCE_DIR}/include/*.hpp)
if(NOT LOGSCAN_WITH_GZIP) # (gzip.hpp needs zlib's header)
  list(REMOVE_ITEM LOGSCAN_PUBLIC_HEADERS logscan/gzip.hpp)
endif()

if(LOGSCAN_BUILD_TESTS)
  find_package(doctest CONFIG QUIET)
  if(NOT TARGET doctest::doctest)
    find_path(LOGSCAN_DOCTEST_INCLUDE_DIR doctest/doctest.h)
    if(NOT LOGSCAN_DOCTEST_INCLUDE_DIR)
      message(FATAL_ERROR "logscan's tests need doctest: install the Debian package 'doctest-dev' "
                          "(apt-get install doctest-dev), or configure with -DLOGSCAN_BUILD_TESTS=OFF.")
    endif()
    add_library(doctest::doctest INTERFACE IMPORTED)
    target_include_directories(doctest::doctest INTERFACE ${LOGSCAN_DOCTEST_INCLUDE_DIR})
  endif()
endif()
