# Driver of one compile-fail case (see tests/CMakeLists.txt). Exits with an error (so that the
# WILL_FAIL test passes) only when building TARGET failed AND the output contains each of the
# texts of EXPECT (separated by `|`).
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY_DIR} --target ${TARGET}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
  message("${TARGET} compiled, but it must not")
  return()
endif()
string(REPLACE "|" ";" expects "${EXPECT}")
foreach(expect IN LISTS expects)
  string(FIND "${out}" "${expect}" pos)
  if(pos EQUAL -1)
    message("${TARGET} failed to compile, but without the expected message '${expect}':\n${out}")
    return()
  endif()
endforeach()
message(FATAL_ERROR "${TARGET} was rejected as expected: ${EXPECT}")
