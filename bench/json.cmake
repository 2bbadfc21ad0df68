# SPDX-License-Identifier: MIT
# bench_json: logscan::json::reader against RapidJSON's Reader (SAX), simdjson On-Demand and
# DOM, nlohmann::json::sax_parse and yajl, each only when found (Debian: rapidjson-dev,
# libsimdjson-dev, nlohmann-json3-dev, libyajl-dev). Without them only logscan's rows run.
add_executable(bench_json ${CMAKE_CURRENT_LIST_DIR}/bench_json.cpp)
target_link_libraries(bench_json PRIVATE logscan_dev)
target_compile_definitions(bench_json PRIVATE LOGSCAN_SOURCE_DIR="${PROJECT_SOURCE_DIR}")

find_path(LOGSCAN_BENCH_RAPIDJSON_INCLUDE rapidjson/reader.h)
if(LOGSCAN_BENCH_RAPIDJSON_INCLUDE)
  target_include_directories(bench_json SYSTEM PRIVATE ${LOGSCAN_BENCH_RAPIDJSON_INCLUDE})
  target_compile_definitions(bench_json PRIVATE LOGSCAN_BENCH_RAPIDJSON=1)
endif()

logscan_bench_simdjson(bench_json)

find_path(LOGSCAN_BENCH_NLOHMANN_INCLUDE nlohmann/json.hpp)
if(LOGSCAN_BENCH_NLOHMANN_INCLUDE)
  target_include_directories(bench_json SYSTEM PRIVATE ${LOGSCAN_BENCH_NLOHMANN_INCLUDE})
  target_compile_definitions(bench_json PRIVATE LOGSCAN_BENCH_NLOHMANN=1)
endif()

find_path(LOGSCAN_BENCH_YAJL_INCLUDE yajl/yajl_parse.h)
find_library(LOGSCAN_BENCH_YAJL_LIB yajl)
if(LOGSCAN_BENCH_YAJL_INCLUDE AND LOGSCAN_BENCH_YAJL_LIB)
  target_include_directories(bench_json SYSTEM PRIVATE ${LOGSCAN_BENCH_YAJL_INCLUDE})
  target_link_libraries(bench_json PRIVATE ${LOGSCAN_BENCH_YAJL_LIB})
  target_compile_definitions(bench_json PRIVATE LOGSCAN_BENCH_YAJL=1)
endif()
