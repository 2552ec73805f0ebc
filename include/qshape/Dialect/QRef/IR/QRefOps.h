//===- QRefOps.h - qref dialect ops and types -------------------*- C++ -*-===//

#ifndef QSHAPE_DIALECT_QREF_IR_QREFOPS_H
#define QSHAPE_DIALECT_QREF_IR_QREFOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "qshape/Dialect/QRef/IR/QRefDialect.h"
// `!quantum.obs` and the named-observable and Pauli-word attributes.
#include "qshape/Dialect/Quantum/IR/QuantumOps.h"

#define GET_TYPEDEF_CLASSES
#include "qshape/Dialect/QRef/IR/QRefOpsTypes.h.inc"

#define GET_OP_CLASSES
#include "qshape/Dialect/QRef/IR/QRefOps.h.inc"

#endif
