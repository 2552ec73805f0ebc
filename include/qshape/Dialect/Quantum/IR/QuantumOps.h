//===- QuantumOps.h - quantum dialect ops, types, attributes ----*- C++ -*-===//

#ifndef QSHAPE_DIALECT_QUANTUM_IR_QUANTUMOPS_H
#define QSHAPE_DIALECT_QUANTUM_IR_QUANTUMOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "qshape/Dialect/Quantum/IR/QuantumDialect.h"

#define GET_TYPEDEF_CLASSES
#include "qshape/Dialect/Quantum/IR/QuantumOpsTypes.h.inc"

#include "qshape/Dialect/Quantum/IR/QuantumEnums.h.inc"
#define GET_ATTRDEF_CLASSES
#include "qshape/Dialect/Quantum/IR/QuantumAttrs.h.inc"

#define GET_OP_CLASSES
#include "qshape/Dialect/Quantum/IR/QuantumOps.h.inc"

#endif
