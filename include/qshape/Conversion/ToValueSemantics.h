//===- ToValueSemantics.h - qref input for qshape's tools -------*- C++ -*-===//
//
// The tools that read a program (qshape-sim, qshape-fingerprint,
// qshape-compile) take Catalyst's reference-semantics `qref` text as well as
// `quantum`: they run qshape-to-value-semantics first when the module holds a
// qref op, so that one program has one meaning and one fingerprint whichever
// frontend wrote it.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_CONVERSION_TOVALUESEMANTICS_H
#define QSHAPE_CONVERSION_TOVALUESEMANTICS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LogicalResult.h"

namespace qshape {

/// Whether `module` holds an op of the qref dialect.
bool holdsQRef(mlir::ModuleOp module);

/// Runs qshape-to-value-semantics on `module` when it holds qref ops; a
/// failure has been reported (located) through the context's handler.
mlir::LogicalResult convertQRefInput(mlir::ModuleOp module);

/// For the analyses that must not change their input: a converted copy of
/// `module` when it holds qref ops, null when it does not (use `module`
/// itself); failure, reported, when the conversion fails.
mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>> valueSemanticsCopy(mlir::ModuleOp module);

} // namespace qshape

#endif // QSHAPE_CONVERSION_TOVALUESEMANTICS_H
