//===- RoundTrip.h - qshape-roll-loops: the verifier ------------*- C++ -*-===//
//
// verify-roundtrip: the loops the pass created, unrolled again, must give
// back the input (exact fingerprints after the same normalization).
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TRANSFORMS_ROLLLOOPS_ROUNDTRIP_H
#define QSHAPE_TRANSFORMS_ROLLLOOPS_ROUNDTRIP_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

namespace qshape::roll {

/// Compares `before` (the function as it came in) with `after` (rolled) with
/// the loops marked kRolledMarker fully unrolled; emits an error on `after`
/// and fails when they differ.
mlir::LogicalResult verifyRoundTrip(mlir::Operation *before, mlir::Operation *after);

} // namespace qshape::roll

#endif // QSHAPE_TRANSFORMS_ROLLLOOPS_ROUNDTRIP_H
