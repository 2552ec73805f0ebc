//===- qshape-opt.cpp - qshape's mlir-opt-style driver --------------------===//
//
// mlir-opt with qshape's `quantum` dialect, the upstream dialects Catalyst
// circuits contain, qshape's passes and the upstream passes. Plugins load
// with --load-pass-plugin / --load-dialect-plugin as in mlir-opt.
//
//===----------------------------------------------------------------------===//

#include "qshape/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect, mlir::complex::ComplexDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::index::IndexDialect, mlir::LLVM::LLVMDialect,
                  mlir::linalg::LinalgDialect, mlir::math::MathDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::tensor::TensorDialect>();
  qshape::registerQuantumDialect(registry);
  qshape::registerDependentDialects(registry);
  mlir::registerAllPasses();
  qshape::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "qshape optimizer driver: canonicalize, fingerprint, roll and cache "
                  "quantum programs (Catalyst's `quantum` dialect)\n",
      registry));
}
