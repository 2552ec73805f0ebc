# How qshape's programs link MLIR and LLVM.
#
# qshape_link_mlir_llvm(<target>)
#
# The tools that are not MLIR hosts (qshape-run, qshape-sim,
# qshape-fingerprint, qshape-cache; qshape-compile has its own variant of the
# same rule)
# link the static archives when QSHAPE_STATIC_COMPILER is on, and
# libMLIR.so/libLLVM.so otherwise (and in sanitizer builds). A host that
# loads plugins (qshape-opt) must export MLIR's symbols and keeps the shared
# libraries: a plugin carries no copy of MLIR.
#
# qshape_link_static_mlir_llvm(<target> [FULLY_STATIC] [ORDER_FILE <file.order.gz>])
#
# Links <target> against the static archives of MLIR and LLVM (Debian ships
# them next to libMLIR.so and libLLVM.so) instead of the two shared
# libraries. A process that loads libLLVM.so and libMLIR.so pays for
# relocating ~200 MB of code and for every static initializer in them before
# main() (docs/native.md, "How qshape-compile is linked"); linked statically,
# only the archive members the target calls are in the binary.
#
# The archives are the component targets that MLIR's and LLVM's CMake
# packages export (MLIR_ALL_LIBS, LLVM_AVAILABLE_LIBS), by their files: their
# INTERFACE_LINK_LIBRARIES name the LLVM dylib (Debian builds with
# LLVM_LINK_LLVM_DYLIB), which must not come along. One --start-group keeps
# the order free; the linker takes only what is referenced. The system
# libraries are LLVMSupport's own (zlib, zstd, ...), as needed.
#
# FULLY_STATIC links the C and C++ runtimes statically too (-static) and
# none of those system libraries (Debian has no static libzstd): for a
# program that uses no compression, where starting ld.so and mapping
# libstdc++ is most of its run (the front end's hit: 2.2 ms -> 1.6 ms).
#
# ORDER_FILE: the functions a compile runs (utils/profile-compiler-order.sh),
# placed first and together (lld's --symbol-ordering-file), and the static
# initialisers together (-z keep-text-section-prefix). A compile then
# touches 11.5 MB of contiguous text instead of pages spread over
# all of it: qshape-compile-full's peak RSS on a rolled W2 fell from 61 MB
# to 33 MB, --version's from 27 MB to 10 MB (docs/native.md). Only with
# lld as the linker; names it does not find (another LLVM) are skipped.
option(QSHAPE_STATIC_COMPILER
  "Link qshape-compile, qshape-run, qshape-sim, qshape-fingerprint and qshape-cache against MLIR's and LLVM's static archives" ON)
if(QSHAPE_STATIC_COMPILER AND NOT LLVM_USE_SANITIZER)
  set(QSHAPE_STATIC_TOOLS ON)
else()
  set(QSHAPE_STATIC_TOOLS OFF)
endif()

function(qshape_link_mlir_llvm target)
  if(QSHAPE_STATIC_TOOLS)
    qshape_link_static_mlir_llvm(${target})
  else()
    target_link_libraries(${target} PRIVATE ${QSHAPE_MLIR_LIBS} ${QSHAPE_LLVM_LIBS})
  endif()
endfunction()

function(qshape_link_static_mlir_llvm target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "FULLY_STATIC" "ORDER_FILE" "")
  get_property(mlir_libs GLOBAL PROPERTY MLIR_ALL_LIBS)
  set(archives)
  foreach(lib IN LISTS mlir_libs LLVM_AVAILABLE_LIBS)
    # Test libraries, the C API and the dylibs themselves are not components
    # a compiler links.
    if(lib MATCHES "^(MLIR|LLVM|LTO|Remarks)$" OR lib MATCHES "Test|CAPI|^mlir_|^Polly$" OR NOT TARGET ${lib})
      continue()
    endif()
    get_target_property(type ${lib} TYPE)
    if(NOT type STREQUAL "STATIC_LIBRARY")
      continue()
    endif()
    list(APPEND archives "$<TARGET_FILE:${lib}>")
  endforeach()
  get_target_property(system_libs LLVMSupport INTERFACE_LINK_LIBRARIES)
  list(FILTER system_libs EXCLUDE REGEX "^LLVM")
  # Imported targets that LLVMConfig.cmake did not find here (Debian ships
  # libzstd.so.1 without the CMake package): the library by its file.
  set(resolved)
  foreach(lib IN LISTS system_libs)
    if(lib MATCHES "::" AND NOT TARGET ${lib})
      string(REGEX REPLACE "^([A-Za-z0-9]+)::.*" "\\1" name "${lib}")
      string(TOLOWER "${name}" name)
      find_library(QSHAPE_STATIC_${name}_LIBRARY NAMES ${name} lib${name}.so.1)
      if(QSHAPE_STATIC_${name}_LIBRARY)
        list(APPEND resolved ${QSHAPE_STATIC_${name}_LIBRARY})
      else()
        message(FATAL_ERROR "${target} (QSHAPE_STATIC_COMPILER): LLVMSupport needs ${lib}, "
                            "which is not installed; configure with -DQSHAPE_STATIC_COMPILER=OFF")
      endif()
    else()
      list(APPEND resolved ${lib})
    endif()
  endforeach()
  if(ARG_FULLY_STATIC)
    set(resolved)
  endif()
  target_link_libraries(${target} PRIVATE
    -Wl,--start-group ${archives} -Wl,--end-group
    -Wl,--push-state,--as-needed ${resolved} -Wl,--pop-state)
  # Measured on qshape-compile --version (docs/benchmarks.md): static 29 MB
  # RSS, 118 MB file; with --gc-sections 25 MB, 91 MB; and not PIE (no
  # relocation of the ~100k pointers of its tables at start) 23 MB, 89 MB.
  # (lld's --icf=safe saved nothing measurable and is left out.)
  target_link_options(${target} PRIVATE -Wl,--gc-sections $<IF:$<BOOL:${ARG_FULLY_STATIC}>,-static,-no-pie>)
  # Nothing to find at run time but the system's libraries: no run path
  # (CMake would make one of empty entries from the archives, which means
  # the working directory).
  set_target_properties(${target} PROPERTIES SKIP_BUILD_RPATH ON INSTALL_RPATH ""
    QSHAPE_STATIC_MLIR ON)
  # lld reads the ~600 archives of one group in about a second; GNU ld takes
  # far longer and far more memory.
  if(QSHAPE_LLD)
    target_link_options(${target} PRIVATE "--ld-path=${QSHAPE_LLD}")
    if(ARG_ORDER_FILE AND EXISTS "${ARG_ORDER_FILE}")
      # Kept compressed in the source tree (2.5 MB of names as text).
      set(order "${CMAKE_CURRENT_BINARY_DIR}/${target}.order")
      execute_process(COMMAND gzip -dc "${ARG_ORDER_FILE}" OUTPUT_FILE "${order}"
                      RESULT_VARIABLE rc)
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${ARG_ORDER_FILE}")
      if(rc EQUAL 0)
        target_link_options(${target} PRIVATE -Wl,-z,keep-text-section-prefix
          "-Wl,--symbol-ordering-file=${order}" -Wl,--no-warn-symbol-ordering)
        set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${order}")
      else()
        message(WARNING "${target}: cannot decompress ${ARG_ORDER_FILE}; linked without it")
      endif()
    endif()
  endif()
endfunction()
