# SPDX-License-Identifier: MIT
# bench_paddle_log: the paddle-log module vs the read()+memchr limit and Python re.
add_executable(bench_paddle_log ${CMAKE_CURRENT_LIST_DIR}/bench_paddle_log.cpp)
target_link_libraries(bench_paddle_log PRIVATE logscan_dev)
target_compile_definitions(bench_paddle_log PRIVATE LOGSCAN_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
