# bench_megengine_log: the megengine-log module vs the read()+memchr limit and Python re.
add_executable(bench_megengine_log ${CMAKE_CURRENT_LIST_DIR}/bench_megengine_log.cpp)
target_link_libraries(bench_megengine_log PRIVATE logscan_dev)
target_compile_definitions(bench_megengine_log PRIVATE LOGSCAN_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
