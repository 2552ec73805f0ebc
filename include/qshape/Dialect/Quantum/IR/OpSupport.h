//===- OpSupport.h - syntax and rules shared by quantum and qref -*- C++ -*-===//
//
// The `quantum` and `qref` dialects print Catalyst's `operator` op alike and
// check the same rules on gates, matrices and measurements; both dialects'
// QuantumOps.cpp / QRefOps.cpp use these so the two cannot drift apart.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_DIALECT_QUANTUM_IR_OPSUPPORT_H
#define QSHAPE_DIALECT_QUANTUM_IR_OPSUPPORT_H

#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/SmallVector.h"

namespace qshape::quantum {

//===----------------------------------------------------------------------===//
// `operator` syntax
//===----------------------------------------------------------------------===//

/// `(%v: type, ...)`, possibly empty.
void printTypedValues(mlir::OpAsmPrinter &p, mlir::ValueRange values);

/// `keyword = {name = [0, 1], ...}` for `param_map` / `qubit_map`.
void printPositionMap(mlir::OpAsmPrinter &p, llvm::StringRef keyword, mlir::DictionaryAttr map);

/// `{name = [0, 1], ...}` with bare or quoted names.
mlir::ParseResult parsePositionMap(mlir::OpAsmParser &parser, mlir::DictionaryAttr &map);

/// Operands parsed with their types, `(%v: type, ...)`, resolved later in
/// segment order.
struct TypedOperands {
  llvm::SmallVector<mlir::OpAsmParser::UnresolvedOperand> operands;
  llvm::SmallVector<mlir::Type> types;

  mlir::ParseResult parse(mlir::OpAsmParser &parser);
  /// `(%v: type)`: exactly one.
  mlir::ParseResult parseOne(mlir::OpAsmParser &parser);
  mlir::ParseResult resolve(mlir::OpAsmParser &parser, llvm::SMLoc loc,
                            mlir::OperationState &state);
};

//===----------------------------------------------------------------------===//
// Shared verifier rules (Catalyst's messages)
//===----------------------------------------------------------------------===//

/// `operator`'s register controls: index and value tensors of one length (a
/// dynamic length compares as ShapedType::kDynamic, as in Catalyst).
mlir::LogicalResult verifyRegisterControls(mlir::Operation *op, mlir::Value indices,
                                           mlir::Value values);

/// `operator`'s `param_map` and `qubit_map`: when present, they name every
/// parameter and every target (qubit, or index array in register mode), and
/// nothing out of range.
mlir::LogicalResult verifyOperatorMaps(mlir::Operation *op, mlir::DictionaryAttr paramMap,
                                       size_t numParams, mlir::DictionaryAttr qubitMap,
                                       size_t numTargets, bool registerMode);

/// A matrix acting on `n` qubits must be a static 2^n x 2^n tensor or memref.
bool isGateMatrix(mlir::Type type, size_t n);

/// Catalyst's MeasurementProcess interface: expval, var, probs, state,
/// sample and counts of the `quantum` dialect.
bool isMeasurementProcess(mlir::Operation *op);

} // namespace qshape::quantum

#endif // QSHAPE_DIALECT_QUANTUM_IR_OPSUPPORT_H
