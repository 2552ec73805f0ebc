//===- QRefDialect.h - qref dialect -----------------------------*- C++ -*-===//

#ifndef QSHAPE_DIALECT_QREF_IR_QREFDIALECT_H
#define QSHAPE_DIALECT_QREF_IR_QREFDIALECT_H

#include "mlir/IR/Dialect.h"

#include "qshape/Dialect/QRef/IR/QRefOpsDialect.h.inc"

#endif
