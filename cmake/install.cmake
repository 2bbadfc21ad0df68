# install(): headers, the exported target logscan::logscan and logscanConfig.cmake + version file,
# so that find_package(logscan) works.
include(CMakePackageConfigHelpers)
install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(_logscan_targets logscan logscan_parallel logscan_fast_float)
if(LOGSCAN_WITH_GZIP) # (logscan::gzip, where zlib was found)
  list(APPEND _logscan_targets logscan_gzip)
endif()
install(TARGETS ${_logscan_targets} EXPORT logscanTargets)
install(EXPORT logscanTargets NAMESPACE logscan:: DESTINATION ${CMAKE_INSTALL_DATADIR}/cmake/logscan)
configure_package_config_file(cmake/logscanConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/logscanConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_DATADIR}/cmake/logscan)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/logscanConfigVersion.cmake
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/logscanConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/logscanConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_DATADIR}/cmake/logscan)
