# bench_megengine_profile: the megengine-profile module vs the JSON reader alone, the
# read()+memchr limit and Python json.
add_executable(bench_megengine_profile ${CMAKE_CURRENT_LIST_DIR}/bench_megengine_profile.cpp)
target_link_libraries(bench_megengine_profile PRIVATE logscan_dev)
target_compile_definitions(bench_megengine_profile PRIVATE LOGSCAN_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
