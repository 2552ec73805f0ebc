//===- RepeatFinder.h - qshape-roll-loops: repeats in a token string -*- C++ -*-===//
//
// Finds the stretches of a block's token string that repeat with a period:
// the candidate runs that the greedy driver then tries to roll.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TRANSFORMS_ROLLLOOPS_REPEATFINDER_H
#define QSHAPE_TRANSFORMS_ROLLLOOPS_REPEATFINDER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace qshape::roll {

/// [start, start + span) repeats with `period`, at least minTripCount times.
struct Candidate {
  unsigned start, period, span;
  int64_t gain; ///< ops removed before overhead: (span / period - 1) * period
};

/// Every candidate of at least `minTripCount` copies with a period of at most
/// `maxPeriod`, best gain first (ties in the order found).
llvm::SmallVector<Candidate> findRepeats(llvm::ArrayRef<uint64_t> tokens, unsigned minTripCount,
                                         unsigned maxPeriod);

} // namespace qshape::roll

#endif // QSHAPE_TRANSFORMS_ROLLLOOPS_REPEATFINDER_H
