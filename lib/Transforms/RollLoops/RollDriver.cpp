//===- RollDriver.cpp - qshape-roll-loops: the greedy driver --------------===//

#include "RollDriver.h"

#include "LoopBuilder.h"
#include "RegisterNormalForm.h"
#include "RepeatFinder.h"
#include "RunAnalyzer.h"
#include "Support.h"

#include "qshape/GateView/GateView.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"

#include <limits>
#include <map>

using namespace mlir;

namespace qshape::roll {

unsigned BlockRoller::rollBlock(Block &block, const std::vector<Operation *> *knownOps) {
  // Each op is read once, by the normal form's first sweep: what the token
  // loop needs (its token, or why it has none) is taken there.
  enum : uint8_t { kConstant = 1, kExtract = 2, kUnrollable = 4 };
  SmallVector<uint8_t> flags;
  SmallVector<uint64_t> opTokens;
  if (knownOps) {
    flags.reserve(knownOps->size());
    opTokens.reserve(knownOps->size());
  }
  tokenizer.reset();
  SmallVector<unsigned> before;
  SmallVector<Operation *> blockOps = normalizeRegisters(
      block, knownOps,
      [&](Operation *op) {
        uint8_t f = isConstant(op)                             ? kConstant
                    : qshape::classify(op) == QOpKind::Extract ? kExtract
                    : isRollable(op)                           ? 0
                                                               : kUnrollable;
        flags.push_back(f);
        opTokens.push_back(f ? 0 : tokenizer.token(op));
      },
      before);
  // Sized once: on a large block each reallocation is a malloc that may
  // first sort thousands of chunks the parser freed.
  SmallVector<Operation *> ops;
  SmallVector<uint64_t> tokens;
  ops.reserve(blockOps.size());
  tokens.reserve(blockOps.size());
  bool leading = true;
  for (unsigned i = 0, e = blockOps.size(); i < e; ++i) {
    uint8_t f = flags[before[i]];
    // The constants the canonical form put at the top of the block are
    // left out: they are never in a run (any other constant is, below, a
    // unique token that ends runs).
    if (leading && (f & kConstant))
      continue;
    leading = false;
    // Extracts are not part of runs: a copy's qubit read is classified as
    // an operand (WireRead), so a run may start after its extracts.
    if (f & kExtract)
      continue;
    ops.push_back(blockOps[i]);
    // Constants, terminators and unknown ops never repeat into a loop: give
    // them unique tokens so runs stop there.
    tokens.push_back((f & (kConstant | kUnrollable)) ? mix(0xDEAD, ops.size())
                                                     : opTokens[before[i]]);
  }

  SmallVector<Candidate> candidates = findRepeats(tokens, opts.minTripCount, opts.maxPeriod);
  // Accepted runs as disjoint [start, end) intervals keyed by start.
  std::map<unsigned, unsigned> taken;
  auto overlaps = [&](unsigned s, unsigned e) {
    auto it = taken.lower_bound(s);
    if (it != taken.end() && it->first < e)
      return true;
    return it != taken.begin() && std::prev(it)->second > s;
  };
  std::vector<RunPlan> accepted;
  OpPositions index;
  index.assign(ops);
  RunAnalyzer analyzer(ops, index, opts.paramTables);
  for (const Candidate &c : candidates) {
    unsigned p = c.period, span = c.span;
    // A candidate inside an accepted run (e.g. a multiple of its period)
    // has nothing left to give.
    if (overlaps(c.start, c.start + std::min(span, p * opts.minTripCount)) &&
        overlaps(c.start + span - std::min(span, p * opts.minTripCount), c.start + span))
      continue;
    // Left to right through the stretch: at each position, the most copies
    // at any phase of the period (where a copy starts decides what is
    // carried); then on after the accepted run, since one token stretch can
    // hold several loops (e.g. one per controlled block). Classification
    // attempts are bounded per stretch.
    unsigned pos = c.start, end = c.start + span;
    int64_t budget = 16 * int64_t(p) + 64;
    // Classifies k copies from s; records the plan when valid.
    auto attempt = [&](unsigned s, unsigned k, RunPlan &plan) -> Reject {
      --budget;
      Reject r = analyzer.classify(s, p, k, plan);
      if (r == Reject::SideEffects)
        ++stats.rejectedSideEffects;
      else if (r == Reject::Operands)
        ++stats.rejectedOperands;
      return r;
    };
    while (pos + p * opts.minTripCount <= end && budget > 0) {
      // The phase that saves the most; ties go to the earliest.
      RunPlan bestPlan;
      unsigned bestS = 0;
      int64_t bestSaved = std::numeric_limits<int64_t>::min();
      for (unsigned rot = 0; rot < p && budget > 0; ++rot) {
        unsigned s = pos + rot;
        unsigned kmax = (end - s) / p;
        if (kmax < opts.minTripCount || overlaps(s, s + kmax * p))
          continue;
        // The largest valid k, assuming that fewer copies from the same
        // start stay valid: try all, then the fewest, then bisect.
        RunPlan best;
        unsigned bestK = 0;
        if (attempt(s, kmax, best) == Reject::None) {
          bestK = kmax;
        } else if (kmax > opts.minTripCount &&
                   attempt(s, opts.minTripCount, best) == Reject::None) {
          unsigned lo = opts.minTripCount, hi = kmax; // lo valid, hi invalid
          while (hi - lo > 1 && budget > 0) {
            unsigned mid = lo + (hi - lo) / 2;
            RunPlan plan;
            if (attempt(s, mid, plan) == Reject::None) {
              lo = mid;
              best = std::move(plan);
            } else {
              hi = mid;
            }
          }
          bestK = lo;
          if (best.copies != lo) // re-derive the plan of the chosen size
            attempt(s, lo, best);
        }
        if (!bestK)
          continue;
        int64_t saved = int64_t(bestK - 1) * p - best.overhead;
        if (saved > bestSaved) {
          bestSaved = saved;
          bestS = s;
          bestPlan = std::move(best);
        }
        if (bestK == kmax)
          break; // later phases cannot hold more copies
      }
      if (bestSaved == std::numeric_limits<int64_t>::min())
        break;
      if (bestSaved < opts.minSavings) {
        ++stats.rejectedUnprofitable;
        break;
      }
      unsigned e = bestS + bestPlan.copies * p;
      taken[bestS] = e;
      accepted.push_back(std::move(bestPlan));
      pos = e;
    }
  }
  // Build from the back so earlier indices stay valid.
  llvm::sort(accepted, [](const RunPlan &a, const RunPlan &b) { return a.start > b.start; });
  for (RunPlan &plan : accepted) {
    scf::ForOp loop = LoopBuilder(ops, plan).build();
    if (opts.emitRemarks)
      mlir::emitRemark(loop.getLoc())
          << "qshape-roll-loops: rolled " << plan.copies << " copies of a " << plan.period
          << "-op body into a loop, saving "
          << int64_t(plan.copies - 1) * plan.period - plan.overhead << " ops";
  }
  return accepted.size();
}

} // namespace qshape::roll
