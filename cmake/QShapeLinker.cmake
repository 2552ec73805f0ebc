# Included by lib/CMakeLists.txt: the linker and C library that
# QShapeArtifactCache records in compile keys and QShapeCompile links with.
#
# qshape-compile links the shared libraries it compiles with
# Debian's ld.lld (lld-22; `make deps` installs it), against the C library
# the C compiler reports. Both are found here, once, and the linker's
# version text is recorded for the compile key; qshape-compile --linker and
# $QSHAPE_LINKER can name another linker at run time.
find_program(QSHAPE_LLD NAMES ld.lld-22 ld.lld
  HINTS ${LLVM_TOOLS_BINARY_DIR} DOC "ld.lld that links qshape-compile's libraries")
set(QSHAPE_LLD_VERSION "")
if(QSHAPE_LLD)
  execute_process(COMMAND ${QSHAPE_LLD} --version OUTPUT_VARIABLE text ERROR_QUIET)
  string(REGEX MATCH "^[^\n]*" QSHAPE_LLD_VERSION "${text}")
  string(REPLACE "\"" "'" QSHAPE_LLD_VERSION "${QSHAPE_LLD_VERSION}")
  message(STATUS "qshape-compile links with ${QSHAPE_LLD}: ${QSHAPE_LLD_VERSION}")
else()
  message(WARNING "qshape-compile: ld.lld not found (Debian: lld-22; `make deps`): "
                  "qshape-compile --emit=so will need --linker")
  set(QSHAPE_LLD "")
endif()
# The linker in the compiler's own process: lld's ELF driver from Debian's
# liblld-22-dev (static archives only: they link into the static and the
# shared configuration alike). The default link then starts no process
# (docs/native.md, "The linker"); without the package, the configured
# ld.lld runs as a child. The identity in the key is lld's version: its code
# is in qshape-compile-full, whose build id the key holds too.
option(QSHAPE_LINK_IN_PROCESS "Link qshape-compile's libraries with lld's library, in process" ON)
set(QSHAPE_LLD_LIBRARIES "")
set(QSHAPE_LLD_LIBRARY_VERSION "")
if(QSHAPE_LINK_IN_PROCESS)
  find_package(LLD CONFIG QUIET HINTS "${LLVM_LIBRARY_DIR}/cmake/lld" NO_DEFAULT_PATH)
  if(LLD_FOUND AND TARGET lldELF AND TARGET lldCommon AND EXISTS "${LLD_INCLUDE_DIRS}/lld/Common/Driver.h")
    # By their files: the imported targets' interface names the LLVM dylib,
    # which the static compiler must not load.
    get_target_property(elf lldELF LOCATION)
    get_target_property(common lldCommon LOCATION)
    set(QSHAPE_LLD_LIBRARIES ${elf} ${common})
    set(QSHAPE_LLD_LIBRARY_VERSION "LLD ${LLD_VERSION}")
    message(STATUS "qshape-compile links in process with lld's library ${LLD_VERSION}")
  else()
    message(WARNING "qshape-compile: lld's library not found (Debian: liblld-22-dev; `make deps`): "
                    "libraries are linked by running ${QSHAPE_LLD}")
  endif()
endif()

set(QSHAPE_LINK_LIBRARIES "")
foreach(lib libm.so.6 libc.so.6)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=${lib}
                  OUTPUT_VARIABLE path OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(IS_ABSOLUTE "${path}" AND EXISTS "${path}")
    list(APPEND QSHAPE_LINK_LIBRARIES "${path}")
  else()
    message(WARNING "qshape-compile: ${CMAKE_C_COMPILER} does not know where ${lib} is")
  endif()
endforeach()
message(STATUS "qshape-compile links against: ${QSHAPE_LINK_LIBRARIES}")
string(REPLACE ";" ":" link_libraries_text "${QSHAPE_LINK_LIBRARIES}")
