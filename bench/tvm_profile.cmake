# SPDX-License-Identifier: MIT
# bench_tvm_profile: the tvm-profile module vs the read()+memchr limit, Python re and (when
# python3 has it) pandas.read_fwf.
add_executable(bench_tvm_profile ${CMAKE_CURRENT_LIST_DIR}/bench_tvm_profile.cpp)
target_link_libraries(bench_tvm_profile PRIVATE logscan_dev)
target_compile_definitions(bench_tvm_profile PRIVATE LOGSCAN_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
