//===- QuantumDialect.h - quantum dialect -----------------------*- C++ -*-===//

#ifndef QSHAPE_DIALECT_QUANTUM_IR_QUANTUMDIALECT_H
#define QSHAPE_DIALECT_QUANTUM_IR_QUANTUMDIALECT_H

#include "mlir/IR/Dialect.h"

#include "qshape/Dialect/Quantum/IR/QuantumOpsDialect.h.inc"

#endif
