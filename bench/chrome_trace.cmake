# bench_chrome_trace: chrome_trace::parse against the JSON reader alone, simdjson On-Demand
# (when found) and Python's json.load and ijson on a Kineto trace of --mb MB; `logscan summary`
# against json.load, with peak memory. Needs gzip (the sample is .json.gz) and the command.
if(LOGSCAN_WITH_GZIP AND TARGET logscan_cli)
  add_executable(bench_chrome_trace ${CMAKE_CURRENT_LIST_DIR}/bench_chrome_trace.cpp)
  target_link_libraries(bench_chrome_trace PRIVATE logscan_dev logscan_gzip)
  target_compile_definitions(bench_chrome_trace PRIVATE LOGSCAN_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                                                        LOGSCAN_BENCH_CLI="$<TARGET_FILE:logscan_cli>")
  add_dependencies(bench_chrome_trace logscan_cli)
  logscan_bench_simdjson(bench_chrome_trace)
  get_target_property(_defs bench_chrome_trace COMPILE_DEFINITIONS)
  if("LOGSCAN_BENCH_SIMDJSON=1" IN_LIST _defs) # (its contender: built for this CPU, see the file)
    target_sources(bench_chrome_trace PRIVATE ${CMAKE_CURRENT_LIST_DIR}/chrome_trace_simdjson.cpp)
    set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/chrome_trace_simdjson.cpp PROPERTIES COMPILE_OPTIONS -march=native)
  endif()
endif()
