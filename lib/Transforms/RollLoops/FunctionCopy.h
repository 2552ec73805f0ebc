//===- FunctionCopy.h - qshape-roll-loops: the copy an attempt rolls -*- C++ -*-===//
//
// Each attempt rolls a copy of the function: one in which nothing rolls
// stays exactly as it came in, and the function is the reference of
// verify-roundtrip. On a function of 10^6 ops the copy is a large share of
// the roll, so it is made in one pass over the function, which also does
// what the attempt in the given order would otherwise walk it again for.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TRANSFORMS_ROLLLOOPS_FUNCTIONCOPY_H
#define QSHAPE_TRANSFORMS_ROLLLOOPS_FUNCTIONCOPY_H

#include "qshape/Fingerprint/CanonicalForm.h"

#include "mlir/IR/Operation.h"

#include <cstdint>

namespace qshape::roll {

/// A copy of a function, outside any block, and the ops it holds (itself
/// excluded: what the canonical form counts).
struct FunctionCopy {
  mlir::Operation *func = nullptr;
  uint64_t ops = 0;
};

/// Copies `func`. With `asGiven`, the copy is the one the attempt in the
/// given order starts from: the constants of every block moved to its start
/// (hoistConstants), and `asGiven` set to its blocks, innermost first, with
/// their ops in order (blocksAsGiven).
FunctionCopy copyFunction(mlir::Operation *func, BlockOrder *asGiven = nullptr);

/// The blocks of `root`, innermost first, with their ops in order: the
/// order the function came in, for the attempt that keeps it.
BlockOrder blocksAsGiven(mlir::Operation *root);

} // namespace qshape::roll

#endif // QSHAPE_TRANSFORMS_ROLLLOOPS_FUNCTIONCOPY_H
