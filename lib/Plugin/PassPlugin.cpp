//===- PassPlugin.cpp - QShapePassPlugin.so entry points ------------------===//
//
// Loadable by upstream mlir-opt and by Catalyst's tools. Catalyst loads a
// plugin path with both --load-pass-plugin and --load-dialect-plugin, so
// this library exports both entry points; the dialect one registers no
// `quantum` dialect (the host already has one, and a second aborts it).
//
//===----------------------------------------------------------------------===//

#include "qshape/InitAll.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_VISIBILITY_DEFAULT LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "QShapePassPlugin", LLVM_VERSION_STRING,
          []() { qshape::registerAllPasses(); }};
}

extern "C" LLVM_ATTRIBUTE_VISIBILITY_DEFAULT LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "QShapePassPlugin", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) { qshape::registerDependentDialects(*registry); }};
}
