# bench_lines: line framing vs a plain aligned read()+memchr loop, std::getline and fgets.
add_executable(bench_lines ${CMAKE_CURRENT_LIST_DIR}/bench_lines.cpp)
target_link_libraries(bench_lines PRIVATE logscan_dev)
target_compile_definitions(bench_lines PRIVATE LOGSCAN_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
