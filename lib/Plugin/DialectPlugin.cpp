//===- DialectPlugin.cpp - QShapeQuantumDialectPlugin.so entry point ------===//
//
// Gives upstream mlir-opt the `quantum` and `qref` dialects. Not for
// Catalyst's tools, which have their own.
//
//===----------------------------------------------------------------------===//

#include "qshape/InitAll.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_VISIBILITY_DEFAULT LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "QShapeQuantumDialectPlugin", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) { qshape::registerQRefDialect(*registry); }};
}
