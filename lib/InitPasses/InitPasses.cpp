//===- InitPasses.cpp - register qshape passes ----------------------------===//
//
// Kept apart from InitDialects.cpp so the pass plugin, which must not carry
// a `quantum` dialect, links no dialect code.
//
//===----------------------------------------------------------------------===//

#include "qshape/Conversion/Passes.h"
#include "qshape/InitAll.h"
#include "qshape/ModuleCache/Passes.h"
#include "qshape/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

void qshape::registerDependentDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect, mlir::scf::SCFDialect,
                  mlir::tensor::TensorDialect>();
}

void qshape::registerAllPasses() {
  registerQShapePasses();
  registerQShapeModuleCachePasses();
  registerConversionPasses();
}
