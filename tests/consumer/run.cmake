# Builds and runs tests/consumer/project against logscan, either installed (MODE=find_package:
# install this build tree into a prefix first) or as a subdirectory (MODE=add_subdirectory).
file(REMOVE_RECURSE ${WORK_DIR})
set(gen_args -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release)
if(MODE STREQUAL "find_package")
  execute_process(COMMAND ${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${WORK_DIR}/prefix
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install failed")
  endif()
  list(APPEND gen_args -DLOGSCAN_CONSUMER_MODE=find_package -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
  if(INSTALLED_COMMAND)
    # the installed command runs from the prefix
    execute_process(COMMAND ${WORK_DIR}/prefix/bin/logscan --version RESULT_VARIABLE rc OUTPUT_VARIABLE out)
    if(NOT rc EQUAL 0 OR NOT out STREQUAL "logscan ${VERSION}\n")
      message(FATAL_ERROR "the installed command: exit ${rc}, printed '${out}' (expected 'logscan ${VERSION}')")
    endif()
    message("installed command: ${out}")
  endif()
else()
  list(APPEND gen_args -DLOGSCAN_CONSUMER_MODE=add_subdirectory -DLOGSCAN_SOURCE=${SOURCE_DIR})
endif()
# Configures and builds the consumer project in WORK_DIR/DIR with the generator's arguments and
# any more given (`what`: the words of a failure's message).
function(build_consumer dir what)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer/project -B ${WORK_DIR}/${dir} ${gen_args} ${ARGN}
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configuring the consumer${what} failed")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/${dir} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "building the consumer${what} failed")
  endif()
endfunction()
build_consumer(build "")
execute_process(COMMAND ${WORK_DIR}/build/consumer ${SOURCE_DIR}/samples/004_d73c77cb3fb2895c.txt
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the consumer failed")
endif()
if(MODE STREQUAL "find_package")
  # gzip is optional: a project that links logscan::logscan alone configures and builds where
  # zlib is not found, and one that asks for the gzip component is told it is missing
  build_consumer(build_no_zlib " where zlib is not found" -DCMAKE_DISABLE_FIND_PACKAGE_ZLIB=ON)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer/project -B ${WORK_DIR}/build_gzip_no_zlib ${gen_args}
                          -DCMAKE_DISABLE_FIND_PACKAGE_ZLIB=ON -DLOGSCAN_CONSUMER_GZIP=ON RESULT_VARIABLE rc
                          OUTPUT_QUIET ERROR_VARIABLE err)
  if(rc EQUAL 0 OR NOT err MATCHES "gzip")
    message(FATAL_ERROR "asking for the gzip component where zlib is not found: exit ${rc}, said '${err}'")
  endif()
endif()
