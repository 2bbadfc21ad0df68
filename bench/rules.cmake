# bench_rules: the rule reader (MegEngine-log rules) vs std::getline + std::regex.
add_executable(bench_rules ${CMAKE_CURRENT_LIST_DIR}/bench_rules.cpp)
target_link_libraries(bench_rules PRIVATE logscan_dev)
target_compile_definitions(bench_rules PRIVATE LOGSCAN_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
