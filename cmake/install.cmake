# The install tree and the Debian package (issue 25), included from the top-level
# CMakeLists.txt when not built by scikit-build-core (pip installs the Python
# module alone). `cmake --install build --prefix P` gives:
#   P/bin/ocl_sp                        the command line (kernels embedded)
#   P/lib/libocl_sp.so.0.1.0 (+ .so.0, .so)   the C++ library, SONAME libocl_sp.so.0
#   P/include/ocl_sp/*.hpp              its public API
#   P/lib/cmake/ocl_sp/                 find_package(ocl_sp CONFIG) -> ocl_sp::ocl_sp
#   P/lib/pkgconfig/ocl_sp.pc           pkg-config ocl_sp (relocatable: ${pcfiledir})
#   P/share/man/man1/ocl_sp.1           generated from the binary's own --help (help2man)
#   P/share/bash-completion/completions/ocl_sp
# and `cpack -G DEB` (in the build folder) the package ocl-sp_<version>_<arch>.deb.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# libocl_sp.so: the whole core (the API in host/api/ and everything under it),
# from the same objects as the executable; only the public headers are installed.
set(OCL_SP_LIB_STUB ${CMAKE_BINARY_DIR}/generated/libocl_sp_stub.cpp)
file(WRITE ${OCL_SP_LIB_STUB} "// libocl_sp.so is ocl_sp_core linked whole (cmake/install.cmake).\n")
add_library(ocl_sp_lib SHARED ${OCL_SP_LIB_STUB})
target_link_libraries(ocl_sp_lib PRIVATE -Wl,--whole-archive ocl_sp_core -Wl,--no-whole-archive)
target_include_directories(ocl_sp_lib INTERFACE
  $<BUILD_INTERFACE:${CMAKE_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(ocl_sp_lib INTERFACE cxx_std_17)
set_target_properties(ocl_sp_lib PROPERTIES
  OUTPUT_NAME ocl_sp EXPORT_NAME ocl_sp
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
add_library(ocl_sp::ocl_sp ALIAS ocl_sp_lib)

install(TARGETS ocl_sp RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ocl_sp_lib EXPORT ocl_spTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/ocl_sp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(OCL_SP_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/ocl_sp)
install(EXPORT ocl_spTargets NAMESPACE ocl_sp:: DESTINATION ${OCL_SP_CMAKE_DIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/ocl_spConfig.cmake.in
  ${CMAKE_BINARY_DIR}/ocl_spConfig.cmake INSTALL_DESTINATION ${OCL_SP_CMAKE_DIR})
# 0.x: a new minor version may change the API.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/ocl_spConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/ocl_spConfig.cmake ${CMAKE_BINARY_DIR}/ocl_spConfigVersion.cmake
        DESTINATION ${OCL_SP_CMAKE_DIR})

# pkg-config: the prefix relative to the .pc file, so any --prefix works.
file(RELATIVE_PATH OCL_SP_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
configure_file(${CMAKE_SOURCE_DIR}/cmake/ocl_sp.pc.in ${CMAKE_BINARY_DIR}/ocl_sp.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/ocl_sp.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# Man page ocl_sp(1) from the built binary's --help and its subcommands' (never
# drifts from the options). help2man: Debian package help2man (scripts/setup.sh);
# without it the page is not built and the install test fails (tests/install/).
find_program(HELP2MAN help2man)
if(HELP2MAN)
  set(OCL_SP_MAN ${CMAKE_BINARY_DIR}/man/ocl_sp.1)
  add_custom_command(
    OUTPUT ${OCL_SP_MAN}
    COMMAND ${CMAKE_COMMAND} -DBIN=$<TARGET_FILE:ocl_sp> -DHELP2MAN=${HELP2MAN} -DOUT=${OCL_SP_MAN}
            -P ${CMAKE_SOURCE_DIR}/cmake/man_page.cmake
    DEPENDS ocl_sp ${CMAKE_SOURCE_DIR}/cmake/man_page.cmake
    COMMENT "Generating the man page ocl_sp(1) with help2man"
    VERBATIM)
  add_custom_target(ocl_sp_man ALL DEPENDS ${OCL_SP_MAN})
  install(FILES ${OCL_SP_MAN} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(WARNING "ocl_sp: help2man not found, no man page (apt-get install help2man); "
                  "the install test will fail")
endif()
install(FILES ${CMAKE_SOURCE_DIR}/cmake/ocl_sp.bash-completion
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME ocl_sp)

# cpack -G DEB: Depends from dpkg-shlibdeps plus the ICD loader (the library
# links libOpenCL.so.1, which ocl-icd-libopencl1 provides) and libgomp1; PoCL is
# recommended so that a machine without a GPU driver has a device.
set(CPACK_PACKAGE_NAME ocl-sp)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "ocl_sp maintainers <ocl-sp@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "all-pairs shortest paths on any OpenCL device (GPUs, CPUs via PoCL), OpenMP and serial")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "ocl-icd-libopencl1 | libopencl1, libgomp1")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pocl-opencl-icd | opencl-icd")
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
include(CPack)
