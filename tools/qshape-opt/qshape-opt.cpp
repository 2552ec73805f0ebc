//===- qshape-opt.cpp - qshape's mlir-opt-style driver --------------------===//
//
// mlir-opt with qshape's `quantum` dialect, the upstream dialects Catalyst
// circuits contain, qshape's passes and the upstream passes. Plugins load
// with --load-pass-plugin / --load-dialect-plugin as in mlir-opt.
//
//===----------------------------------------------------------------------===//

#include "qshape/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  qshape::registerToolDialects(registry);
  qshape::registerDependentDialects(registry);
  mlir::registerAllPasses();
  qshape::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv,
      "qshape optimizer driver: canonicalize, fingerprint, roll and cache quantum "
      "programs written in Catalyst's `quantum` dialect\n",
      registry));
}
