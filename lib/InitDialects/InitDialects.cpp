//===- InitDialects.cpp - register qshape's quantum and qref dialects -----===//

#include "qshape/Dialect/QRef/IR/QRefDialect.h"
#include "qshape/Dialect/Quantum/IR/QuantumDialect.h"
#include "qshape/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
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

void qshape::registerQuantumDialect(mlir::DialectRegistry &registry) {
  registry.insert<qshape::quantum::QuantumDialect>();
}

void qshape::registerQRefDialect(mlir::DialectRegistry &registry) {
  registerQuantumDialect(registry);
  registry.insert<qshape::qref::QRefDialect>();
}

void qshape::registerToolDialects(mlir::DialectRegistry &registry) {
  // bufferization: qshape-lift-parameters reads its table through
  // bufferization.to_tensor, and lifted modules must parse in every tool.
  registry.insert<mlir::arith::ArithDialect, mlir::bufferization::BufferizationDialect,
                  mlir::complex::ComplexDialect, mlir::cf::ControlFlowDialect,
                  mlir::func::FuncDialect, mlir::index::IndexDialect, mlir::LLVM::LLVMDialect,
                  mlir::linalg::LinalgDialect, mlir::math::MathDialect, mlir::memref::MemRefDialect,
                  mlir::scf::SCFDialect, mlir::tensor::TensorDialect>();
  registerQRefDialect(registry);
}
