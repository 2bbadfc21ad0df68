# ctest's `portable` check (tests/CMakeLists.txt): the program built with the SSE2 paths and
# built without them print the same line for every input (its format, record count and NDJSON
# hash), each input read the same in chunks of 1 to 7 bytes, and every input has records.
foreach(program SSE2 PLAIN)
  execute_process(COMMAND ${${program}} ${INPUTS} OUTPUT_VARIABLE out_${program} RESULT_VARIABLE rc_${program})
  if(NOT rc_${program} EQUAL 0)
    message(FATAL_ERROR "${${program}} failed (${rc_${program}}):\n${out_${program}}")
  endif()
endforeach()
if(NOT out_SSE2 STREQUAL out_PLAIN)
  message(FATAL_ERROR "the scans' two paths read the inputs otherwise:\nSSE2:\n${out_SSE2}\nwithout SSE2:\n${out_PLAIN}")
endif()
list(LENGTH INPUTS n)
string(REGEX MATCHALL "[^\n]+ [a-z-]+ [1-9][0-9]* [0-9a-f]+\n" read "${out_SSE2}")
list(LENGTH read m)
if(n LESS 20 OR NOT m EQUAL n)
  message(FATAL_ERROR "${m} of ${n} inputs read with records (expected all, at least 20):\n${out_SSE2}")
endif()
message(STATUS "${n} inputs read alike with and without SSE2")
