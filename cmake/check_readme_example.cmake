# SPDX-License-Identifier: MIT
# Checks that the README's worked example is the code that is built and tested: the cpp block
# after "<!-- worked example: FILE -->" in README must equal FILE's lines between
# "// README:begin" and "// README:end".
#   cmake -DREADME=README.md -DSOURCE_DIR=<repo> -P check_readme_example.cmake
file(READ ${README} readme)
string(REGEX MATCH "<!-- worked example: ([^ ]+) -->\n```cpp\n" head "${readme}")
if(NOT head)
  message(FATAL_ERROR "README: no '<!-- worked example: FILE -->' followed by a ```cpp block")
endif()
set(example ${CMAKE_MATCH_1})
string(FIND "${readme}" "${head}" at)
string(LENGTH "${head}" len)
math(EXPR at "${at} + ${len}")
string(SUBSTRING "${readme}" ${at} -1 rest)
string(FIND "${rest}" "```\n" end)
string(SUBSTRING "${rest}" 0 ${end} block)

file(READ ${SOURCE_DIR}/${example} src)
string(FIND "${src}" "// README:begin\n" b)
string(FIND "${src}" "// README:end\n" e)
if(b EQUAL -1 OR e EQUAL -1)
  message(FATAL_ERROR "${example}: no '// README:begin' / '// README:end' markers")
endif()
math(EXPR b "${b} + 16")
math(EXPR n "${e} - ${b}")
string(SUBSTRING "${src}" ${b} ${n} code)
if(NOT block STREQUAL code)
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/readme_block.txt "${block}")
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/example_block.txt "${code}")
  message(FATAL_ERROR "README's worked example differs from ${example} (between the README markers); "
                      "compare ${CMAKE_CURRENT_BINARY_DIR}/readme_block.txt and example_block.txt")
endif()
message(STATUS "README's worked example is ${example}")
