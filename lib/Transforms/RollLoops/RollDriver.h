//===- RollDriver.h - qshape-roll-loops: the greedy driver ------*- C++ -*-===//
//
// Rolls one block: normal form, tokens, candidate runs, then greedily the
// runs that save the most ops, each classified and built into a loop.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TRANSFORMS_ROLLLOOPS_ROLLDRIVER_H
#define QSHAPE_TRANSFORMS_ROLLLOOPS_ROLLDRIVER_H

#include "RunAnalyzer.h"
#include "Support.h"
#include "Tokenizer.h"

#include "mlir/IR/Block.h"

#include <cstdint>
#include <optional>
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
  /// The given-order attempt: try register-addressed bodies
  /// (RunAnalyzer::classifyByWire) on runs refused for their operands, and
  /// keep an extract from a register an insert made in the copy it stands
  /// in (the chained register form: the first round of this order has no
  /// canonical form to read past the inserts).
  bool byWire = false;
  /// Printed types and attributes shared with the caller's other encoders.
  EncoderTexts *texts = nullptr;
};

/// Why candidate runs were not rolled, for the pass statistics.
struct RollStats {
  uint64_t rejectedUnprofitable = 0;
  uint64_t rejectedSideEffects = 0;
  uint64_t rejectedOperands = 0;
  /// Built, but the replay check found that the loop differs from the run.
  uint64_t rejectedReplay = 0;
  /// Built loops whose body reads in one iteration what the next reads
  /// too (straddlesIterations): the layers may roll whole in another order.
  uint64_t straddling = 0;
};

class BlockRoller {
public:
  BlockRoller(const RollOptions &opts, RollStats &stats) : opts(opts), stats(stats) {
    if (opts.texts)
      tokenizer.shareTexts(*opts.texts);
  }
  /// Rolls what it can in `block`, whose ops are `knownOps` when given;
  /// returns the number of loops created.
  unsigned rollBlock(mlir::Block &block, const std::vector<mlir::Operation *> *knownOps);
  /// Forgets what it learnt of ops with regions, which it keeps across
  /// blocks: call after the IR changed other than through rollBlock (which
  /// forgets after building loops).
  void forgetOps();

private:
  /// The block as the repeat finder sees it: the ops that may be in runs,
  /// their tokens, and where the barriers split them.
  struct BlockScan {
    llvm::SmallVector<mlir::Operation *> ops;
    llvm::SmallVector<uint64_t> tokens;
    std::optional<Segments> segments;
  };
  BlockScan scanBlock(mlir::Block &block, const std::vector<mlir::Operation *> *knownOps);
  /// The runs to roll: disjoint, each saving at least opts.minSavings.
  llvm::SmallVector<RunPlan, 0> chooseRuns(const BlockScan &scan, RunAnalyzer &analyzer);
  /// The most copies of period `p` from `s` within [s, limit) that the
  /// analyzer accepts, searching until its work reaches `budget`.
  bool tryRunAt(RunAnalyzer &analyzer, unsigned s, unsigned p, unsigned limit, uint64_t budget,
                RunPlan &plan);
  /// Builds each accepted run's loop, keeping those that replay their run.
  unsigned buildLoops(llvm::ArrayRef<mlir::Operation *> ops, const OpPositions &index,
                      llvm::SmallVector<RunPlan, 0> &accepted);
  void countRejection(const Verdict &v);

  const RollOptions &opts;
  RollStats &stats;
  Tokenizer tokenizer;
  RollFacts facts;
  /// The scanned block's op positions; kept for its table, which the next
  /// block reuses (the first touch of a fresh table costs more than filling
  /// it).
  OpPositions index;
};

} // namespace qshape::roll

#endif // QSHAPE_TRANSFORMS_ROLLLOOPS_ROLLDRIVER_H
