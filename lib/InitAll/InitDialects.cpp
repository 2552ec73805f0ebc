//===- InitDialects.cpp - register qshape's quantum dialect ---------------===//

#include "qshape/InitAll.h"
#include "qshape/Dialect/Quantum/IR/QuantumDialect.h"

#include "mlir/IR/DialectRegistry.h"

void qshape::registerQuantumDialect(mlir::DialectRegistry &registry) {
  registry.insert<qshape::quantum::QuantumDialect>();
}
