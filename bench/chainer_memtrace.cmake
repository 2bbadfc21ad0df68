# SPDX-License-Identifier: MIT
# bench_chainer_memtrace: the chainer-memtrace module vs the read()+memchr limit and Python re
# + json, on a graph generated from sample 002 (header + buffers + functions, ids remapped).
add_executable(bench_chainer_memtrace ${CMAKE_CURRENT_LIST_DIR}/bench_chainer_memtrace.cpp)
target_link_libraries(bench_chainer_memtrace PRIVATE logscan_dev)
target_compile_definitions(bench_chainer_memtrace PRIVATE LOGSCAN_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
