# bench_table: the table readers against std::getline + std::regex / std::istringstream.
add_executable(bench_table ${CMAKE_CURRENT_LIST_DIR}/bench_table.cpp)
target_link_libraries(bench_table PRIVATE logscan_dev)
target_compile_definitions(bench_table PRIVATE LOGSCAN_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
