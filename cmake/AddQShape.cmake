# How qshape's targets are made, installed and exported.
#
# Every library, tool and plugin of qshape is created through one of the three
# functions below, so that `cmake --install` puts it into the prefix and the
# CMake package (lib/cmake/QShape/QShapeConfig.cmake) exports it, with no
# second list to keep up to date:
#
#   qshape_add_library(<name> [STATIC|SHARED] [OWN_TARGET_ONLY] <sources>... [HOST_LIBS MLIR LLVM])
#   qshape_tool_link(<target> [SYSTEM_MALLOC])  after add_executable(<target> ...)
#   qshape_add_plugin(<name> <sources>... LINK <libraries>...)
#
# A configure-time check (end of this file) stops with an error naming any
# executable or library under lib/ or tools/ that was made with a bare
# add_library/add_executable; a target that must not be installed (a
# benchmark driver) says so with qshape_not_installed(<target> <reason>).
#
# Install layout (the Python package and the docs rely on it; build/ has the
# same bin/ and lib/ for tools, plugins and shared libraries):
#   bin/                  tools
#   libexec/qshape/       programs that tools start (qshape-compile-full)
#   lib/                  plugins, shared and static libraries
#   include/qshape/       public headers and the generated .inc files
#   lib/cmake/QShape/     QShapeConfig.cmake, QShapeConfigVersion.cmake, targets

include(CMakePackageConfigHelpers)

set(QSHAPE_INSTALL_BINDIR bin)
set(QSHAPE_INSTALL_LIBDIR lib)
set(QSHAPE_INSTALL_INCLUDEDIR include)
set(QSHAPE_INSTALL_LIBEXECDIR libexec/qshape)
set(QSHAPE_INSTALL_CMAKEDIR ${QSHAPE_INSTALL_LIBDIR}/cmake/QShape)
set(QSHAPE_EXPORT_SET QShapeTargets)

# Installed tools find qshape's shared libraries next to themselves
# ($ORIGIN/../lib, so the prefix can move) and libMLIR.so/libLLVM.so where the
# MLIR build that qshape was configured with keeps them.
set(QSHAPE_TOOL_INSTALL_RPATH "$ORIGIN/../${QSHAPE_INSTALL_LIBDIR}" "${LLVM_LIBRARY_DIR}")

# QShape::QShape: every qshape library (qshape_add_library adds each one but
# the runtime).
add_library(QShapeAll INTERFACE)
set_target_properties(QShapeAll PROPERTIES EXPORT_NAME QShape)
add_library(QShape::QShape ALIAS QShapeAll)
install(TARGETS QShapeAll EXPORT ${QSHAPE_EXPORT_SET})

# Marks a target made by the functions here; the check at the end reads it.
function(_qshape_mark target kind)
  set_property(TARGET ${target} PROPERTY QSHAPE_TARGET_KIND ${kind})
endfunction()

# qshape_add_library(<name> [STATIC|SHARED] [OWN_TARGET_ONLY] <sources>... [HOST_LIBS MLIR LLVM])
#
# Every qshape library is made with this function (not add_library): it is
# installed into lib/, exported as QShape::<name>, and part of QShape::QShape
# unless OWN_TARGET_ONLY says it is not a library of the compiler (the runtime
# that compiled programs call: an MLIR tool linking QShape::QShape must not
# carry Catalyst's runtime ABI).
# Libraries are static by default (lib/CMakeLists.txt makes them
# position-independent), so they link into the tools and the plugins alike.
#
# HOST_LIBS names what the library calls in MLIR/LLVM without linking it: in
# this build the host provides it (qshape's tools link libMLIR.so themselves,
# the plugins take MLIR from mlir-opt or Catalyst, and linking it here would
# put a second copy into the plugins). Downstream projects get it through the
# package: the installed target links QShape::MLIR and/or QShape::LLVM, which
# QShapeConfig.cmake defines from find_dependency(MLIR) (libMLIR.so/libLLVM.so
# with their include directories).
# Use target_link_libraries as usual for everything else.
function(qshape_add_library name)
  cmake_parse_arguments(ARG "STATIC;SHARED;OWN_TARGET_ONLY" "" "HOST_LIBS" ${ARGN})
  set(type STATIC)
  if(ARG_SHARED)
    set(type SHARED)
  endif()
  add_library(${name} ${type} ${ARG_UNPARSED_ARGUMENTS})
  add_library(QShape::${name} ALIAS ${name})
  _qshape_mark(${name} library)
  target_include_directories(${name} INTERFACE
    $<INSTALL_INTERFACE:${QSHAPE_INSTALL_INCLUDEDIR}>)
  foreach(host IN LISTS ARG_HOST_LIBS)
    if(NOT host MATCHES "^(MLIR|LLVM)$")
      message(FATAL_ERROR "qshape_add_library(${name}): HOST_LIBS takes MLIR and/or LLVM, not '${host}'")
    endif()
    target_link_libraries(${name} INTERFACE $<INSTALL_INTERFACE:QShape::${host}>)
  endforeach()
  if(type STREQUAL "SHARED")
    # Shared libraries sit in lib/ in the build as in the prefix, where the
    # tools' rpath and the Python package look for them.
    set_target_properties(${name} PROPERTIES
      LIBRARY_OUTPUT_DIRECTORY "${QSHAPE_LIB_DIR}"
      INSTALL_RPATH "$ORIGIN")
  endif()
  if(NOT ARG_OWN_TARGET_ONLY)
    target_link_libraries(QShapeAll INTERFACE ${name})
  endif()
  install(TARGETS ${name} EXPORT ${QSHAPE_EXPORT_SET}
    ARCHIVE DESTINATION ${QSHAPE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${QSHAPE_INSTALL_LIBDIR})
endfunction()

# qshape_tool_link(<target> [SYSTEM_MALLOC] [LIBEXEC])
#
# Every qshape command-line tool calls this right after its add_executable:
# the allocator, the output directory (build/bin), the install rule (bin/)
# with an rpath that works from the prefix, and the export as QShape::<target>.
# SYSTEM_MALLOC keeps the system's malloc (qshape-run: mimalloc's operator
# new aborts where the runtime expects std::bad_alloc). LIBEXEC puts a
# program that another tool starts into libexec/qshape/ (build and prefix
# alike) instead of bin/.
function(qshape_tool_link target)
  cmake_parse_arguments(ARG "SYSTEM_MALLOC;LIBEXEC" "" "" ${ARGN})
  if(QSHAPE_TOOL_ALLOCATOR STREQUAL "mimalloc" AND NOT ARG_SYSTEM_MALLOC)
    # Kept although nothing names it: it comes before libc in the search
    # order, so its malloc/free serve the whole process, libMLIR.so included.
    target_link_libraries(${target} PRIVATE -Wl,--push-state,--no-as-needed mimalloc
                          -Wl,--pop-state)
  endif()
  if(ARG_LIBEXEC)
    set_target_properties(${target} PROPERTIES
      RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/${QSHAPE_INSTALL_LIBEXECDIR}"
      INSTALL_RPATH "$ORIGIN/../../${QSHAPE_INSTALL_LIBDIR};${LLVM_LIBRARY_DIR}")
    set(destination ${QSHAPE_INSTALL_LIBEXECDIR})
  else()
    set_target_properties(${target} PROPERTIES
      RUNTIME_OUTPUT_DIRECTORY "${QSHAPE_TOOLS_DIR}"
      INSTALL_RPATH "${QSHAPE_TOOL_INSTALL_RPATH}")
    set(destination ${QSHAPE_INSTALL_BINDIR})
  endif()
  get_target_property(static ${target} QSHAPE_STATIC_MLIR)
  if(static)
    # MLIR and LLVM are in the program (qshape_link_mlir_llvm): it loads
    # nothing by a run path.
    set_target_properties(${target} PROPERTIES INSTALL_RPATH "")
  endif()
  # The build tree has the prefix's layout (bin/, lib/, libexec/qshape/), so
  # it runs with the prefix's run path: the one CMake computes for the build
  # tree has empty entries, and an empty entry is the working directory.
  set_target_properties(${target} PROPERTIES BUILD_WITH_INSTALL_RPATH ON)
  _qshape_mark(${target} tool)
  install(TARGETS ${target} EXPORT ${QSHAPE_EXPORT_SET}
    RUNTIME DESTINATION ${destination})
endfunction()

# qshape_add_plugin(<name> <sources>... LINK <qshape libraries>...)
#
# Every MLIR plugin of qshape is made with this function: a MODULE library
# named <name>.so in build/lib and lib/, exported as QShape::<name> (an
# imported module: downstream CMake gets its path with $<TARGET_FILE:...>).
# Plugins link qshape's static libraries only; every MLIR/LLVM symbol stays
# undefined and resolves from the host tool at load time (no second copy).
function(qshape_add_plugin name)
  cmake_parse_arguments(ARG "" "" "LINK" ${ARGN})
  add_library(${name} MODULE ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ${ARG_LINK})
  set_target_properties(${name} PROPERTIES
    PREFIX ""
    LIBRARY_OUTPUT_DIRECTORY "${QSHAPE_LIB_DIR}"
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  _qshape_mark(${name} plugin)
  install(TARGETS ${name} EXPORT ${QSHAPE_EXPORT_SET}
    LIBRARY DESTINATION ${QSHAPE_INSTALL_LIBDIR})
endfunction()

# qshape_not_installed(<target> <reason>): the one way to keep an executable or
# library under lib/ or tools/ out of the prefix (the check below asks for it).
function(qshape_not_installed target reason)
  _qshape_mark(${target} "not installed: ${reason}")
endfunction()

# The package: QShapeConfig.cmake, its version file and the exported targets.
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/QShapeConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/QShapeConfig.cmake
  INSTALL_DESTINATION ${QSHAPE_INSTALL_CMAKEDIR}
  PATH_VARS QSHAPE_INSTALL_BINDIR QSHAPE_INSTALL_LIBDIR QSHAPE_INSTALL_INCLUDEDIR)
# 0.x: a minor release may change the C++ API.
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/cmake/QShapeConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${CMAKE_BINARY_DIR}/cmake/QShapeConfig.cmake
  ${CMAKE_BINARY_DIR}/cmake/QShapeConfigVersion.cmake
  DESTINATION ${QSHAPE_INSTALL_CMAKEDIR})
install(EXPORT ${QSHAPE_EXPORT_SET}
  NAMESPACE QShape::
  FILE QShapeTargets.cmake
  DESTINATION ${QSHAPE_INSTALL_CMAKEDIR})

# The guard: after the whole tree is configured, every executable and library
# under lib/ and tools/ must have come from the functions above.
function(_qshape_collect_targets dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _qshape_collect_targets(${sub} more)
    list(APPEND targets ${more})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

function(_qshape_check_targets)
  set(unmarked)
  foreach(top lib tools)
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/${top}/CMakeLists.txt)
      continue()
    endif()
    _qshape_collect_targets(${PROJECT_SOURCE_DIR}/${top} targets)
    foreach(t IN LISTS targets)
      get_target_property(type ${t} TYPE)
      get_target_property(kind ${t} QSHAPE_TARGET_KIND)
      if(type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$"
         AND NOT kind)
        get_target_property(srcdir ${t} SOURCE_DIR)
        file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${srcdir})
        list(APPEND unmarked "${t} (${type}, ${rel}/CMakeLists.txt)")
      endif()
    endforeach()
  endforeach()
  if(unmarked)
    list(JOIN unmarked "\n  " lines)
    message(SEND_ERROR
      "Targets left out of `cmake --install` and the QShape package:\n"
      "  ${lines}\n"
      "Make libraries with qshape_add_library(), tools with add_executable() + "
      "qshape_tool_link(), plugins with qshape_add_plugin(), or say why a target is not "
      "installed with qshape_not_installed(<target> <reason>) (cmake/AddQShape.cmake).")
  endif()
endfunction()
cmake_language(DEFER CALL _qshape_check_targets)
