# SPDX-License-Identifier: MIT
# bench_forms: each generation's output form (samples/today/) against the seed form of its
# format, every record written as NDJSON (issue 23's speed bar).
add_executable(bench_forms ${CMAKE_CURRENT_LIST_DIR}/bench_forms.cpp)
target_link_libraries(bench_forms PRIVATE logscan_dev)
target_compile_definitions(bench_forms PRIVATE LOGSCAN_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
