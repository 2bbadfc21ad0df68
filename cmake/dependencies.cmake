# fast_float: Debian's libfast-float-dev ships a CMake package (FastFloat) and the header in
# /usr/include; accept either. The result is the INTERFACE target logscan_fast_float.
include(GNUInstallDirs)
add_library(logscan_fast_float INTERFACE)
find_package(FastFloat CONFIG QUIET)
if(TARGET FastFloat::fast_float)
  target_link_libraries(logscan_fast_float INTERFACE FastFloat::fast_float)
  set(LOGSCAN_FAST_FLOAT_PACKAGE ON)
else()
  find_path(LOGSCAN_FAST_FLOAT_INCLUDE_DIR fast_float/fast_float.h)
  if(NOT LOGSCAN_FAST_FLOAT_INCLUDE_DIR)
    message(FATAL_ERROR "logscan needs fast_float: install the Debian package 'libfast-float-dev' "
                        "(apt-get install libfast-float-dev) or set CMAKE_PREFIX_PATH to a fast_float install.")
  endif()
  target_include_directories(logscan_fast_float SYSTEM INTERFACE $<BUILD_INTERFACE:${LOGSCAN_FAST_FLOAT_INCLUDE_DIR}>)
  set(LOGSCAN_FAST_FLOAT_PACKAGE OFF)
endif()
