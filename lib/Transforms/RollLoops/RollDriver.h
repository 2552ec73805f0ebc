//===- RollDriver.h - qshape-roll-loops: the greedy driver ------*- C++ -*-===//
//
// Rolls one block: normal form, tokens, candidate runs, then greedily the
// runs that save the most ops, each classified and built into a loop.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TRANSFORMS_ROLLLOOPS_ROLLDRIVER_H
#define QSHAPE_TRANSFORMS_ROLLLOOPS_ROLLDRIVER_H

#include "Tokenizer.h"

#include "mlir/IR/Block.h"

#include <cstdint>
#include <vector>

namespace qshape::roll {

/// The pass options the driver reads.
struct RollOptions {
  unsigned minTripCount = 3;
  unsigned maxPeriod = ~0u; ///< no bound
  int64_t minSavings = 1;
  bool paramTables = true;
  bool emitRemarks = false;
  /// Move ops that commute with a loop past it when that brings two alike
  /// loops together (for loops of loops).
  bool gatherLoops = true;
};

/// Why candidate runs were not rolled, for the pass statistics.
struct RollStats {
  uint64_t rejectedUnprofitable = 0;
  uint64_t rejectedSideEffects = 0;
  uint64_t rejectedOperands = 0;
  /// Built, but the replay check found that the loop differs from the run.
  uint64_t rejectedReplay = 0;
};

class BlockRoller {
public:
  BlockRoller(const RollOptions &opts, RollStats &stats) : opts(opts), stats(stats) {}
  /// Rolls what it can in `block`, whose ops are `knownOps` when given;
  /// returns the number of loops created.
  unsigned rollBlock(mlir::Block &block, const std::vector<mlir::Operation *> *knownOps);

private:
  const RollOptions &opts;
  RollStats &stats;
  Tokenizer tokenizer;
};

} // namespace qshape::roll

#endif // QSHAPE_TRANSFORMS_ROLLLOOPS_ROLLDRIVER_H
