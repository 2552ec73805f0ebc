//===- RollDriver.cpp - qshape-roll-loops: the greedy driver --------------===//

#include "RollDriver.h"

#include "GivenOrder.h"
#include "LoopBuilder.h"
#include "RegisterNormalForm.h"
#include "RepeatFinder.h"
#include "RunAnalyzer.h"
#include "Support.h"
#include "qshape/GateView/Barriers.h"

#include "qshape/GateView/GateView.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/Debug.h"

#include <limits>
#include <map>

using namespace mlir;

#define DEBUG_TYPE "qshape-roll-loops"

namespace qshape::roll {

/// Phases (rotations) of the period tried at a position before a stretch is
/// given up: a loop usually starts where the stretch starts, or a few ops in.
static constexpr unsigned kMaxPhases = 16;

/// Loops that differ only in what they capture roll into an outer loop
/// when they stand next to each other. Between two loops with the same
/// token (the same body), the ops the second one does not depend on move
/// past it, keeping their order: gates on other wires commute with the
/// loop. Nothing moves across a barrier or an op it cannot be in a loop
/// with (`stop` flags), and ordered ops (global phases, measurements, which
/// the loops may hold too) stay. `before` and `flags`/`tokens` (by position
/// before the normal form) follow the new order.
static void gatherAlikeLoops(Block &block, SmallVectorImpl<Operation *> &ops,
                             SmallVectorImpl<unsigned> &before, ArrayRef<uint8_t> flags,
                             ArrayRef<uint64_t> tokens, uint8_t stop, DeepFacts &facts) {
  constexpr unsigned kWindow = 64; // ops looked at between two loops
  unsigned n = ops.size();
  unsigned regionOps = 0;
  for (Operation *op : ops)
    regionOps += op->getNumRegions() != 0;
  if (regionOps < 2)
    return;
  for (unsigned i = 0; i < n; ++i) {
    Operation *loop = ops[i];
    if (!loop->getNumRegions() || (flags[before[i]] & stop))
      continue;
    uint64_t token = tokens[before[i]];
    unsigned j = i + 1;
    while (j < n && j <= i + kWindow && !(flags[before[j]] & stop) &&
           !(ops[j]->getNumRegions() && tokens[before[j]] == token))
      ++j;
    if (j >= n || j == i + 1 || j > i + kWindow || !ops[j]->getNumRegions() ||
        tokens[before[j]] != token)
      continue;
    // What the second loop needs of the ops in between stays before it.
    DenseSet<Operation *> needed;
    auto markOperands = [&](Operation *op) {
      SmallVector<Value> used(op->getOperands());
      used.append(capturedValues(op));
      for (Value v : used)
        if (Operation *def = v.getDefiningOp(); def && def->getBlock() == &block)
          needed.insert(def);
    };
    markOperands(ops[j]);
    SmallVector<unsigned> move;
    for (unsigned x = j - 1; x > i; --x) {
      Operation *op = ops[x];
      if (needed.contains(op) || facts.isOrdered(op) || op->getNumRegions()) {
        markOperands(op);
      } else {
        move.push_back(x);
      }
    }
    if (move.empty())
      continue;
    // An op that stays may not use one that moves (it would then come
    // before its producer): those stay too.
    DenseSet<Operation *> moved;
    for (unsigned x : move)
      moved.insert(ops[x]);
    bool changed = true;
    while (changed) {
      changed = false;
      for (unsigned x = i + 1; x < j; ++x) {
        if (moved.contains(ops[x]))
          continue;
        SmallVector<Value> used(ops[x]->getOperands());
        if (ops[x]->getNumRegions())
          used.append(capturedValues(ops[x]));
        for (Value v : used)
          if (Operation *def = v.getDefiningOp(); def && moved.erase(def))
            changed = true;
      }
    }
    if (moved.empty())
      continue;
    SmallVector<Operation *> newOps;
    SmallVector<unsigned> newBefore;
    for (unsigned x = i + 1; x < j; ++x)
      if (!moved.contains(ops[x])) {
        newOps.push_back(ops[x]);
        newBefore.push_back(before[x]);
      }
    newOps.push_back(ops[j]);
    newBefore.push_back(before[j]);
    for (unsigned x = i + 1; x < j; ++x)
      if (moved.contains(ops[x])) {
        newOps.push_back(ops[x]);
        newBefore.push_back(before[x]);
      }
    Operation *prev = ops[i];
    for (unsigned x = 0; x < newOps.size(); ++x) {
      ops[i + 1 + x] = newOps[x];
      before[i + 1 + x] = newBefore[x];
      if (prev->getNextNode() != newOps[x])
        newOps[x]->moveAfter(prev);
      prev = newOps[x];
    }
  }
}

/// An extract from a register an insert made: in the given order (the
/// chained register form, where each gate extracts its wire from the last
/// insert's register) it is part of the copy, not a read before the run.
static bool readsThreadedRegister(Operation *extract) {
  std::optional<RegisterAccess> a = RegisterAccess::get(extract);
  Operation *def = a ? a->reg.getDefiningOp() : nullptr;
  return def && classify(def) == QOpKind::Insert;
}

BlockRoller::BlockScan BlockRoller::scanBlock(Block &block,
                                              const std::vector<Operation *> *knownOps) {
  // Each op is read once, by the normal form's first sweep: what the token
  // loop needs (its token, or why it has none) is taken there.
  enum : uint8_t { kConstant = 1, kExtract = 2, kUnrollable = 4, kBarrier = 8 };
  bool barriers = false;
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
        bool read =
            qshape::classify(op) == QOpKind::Extract && !(opts.byWire && readsThreadedRegister(op));
        uint8_t f = isConstant(op)         ? kConstant
                    : read                 ? kExtract
                    : facts.isRollable(op) ? 0
                                           : kUnrollable;
        // Only an op that cannot be in a loop can be a barrier.
        bool barrier = f == kUnrollable && facts.deep.isBarrier(op);
        barriers |= barrier;
        flags.push_back(f | (barrier ? kBarrier : 0));
        opTokens.push_back(f ? 0 : tokenizer.token(op));
        return barrier;
      },
      before);
  if (opts.gatherLoops)
    gatherAlikeLoops(block, blockOps, before, flags, opTokens, kUnrollable | kBarrier, facts.deep);
  // Sized once: on a large block each reallocation is a malloc that may
  // first sort thousands of chunks the parser freed.
  BlockScan scan;
  SmallVector<Operation *> &ops = scan.ops;
  SmallVector<uint64_t> &tokens = scan.tokens;
  ops.reserve(blockOps.size());
  tokens.reserve(blockOps.size());
  // Between which barriers each op of the scan, and each extract, stands:
  // a loop does not read a wire extracted before a barrier.
  std::optional<Segments> &segments = scan.segments;
  if (barriers)
    segments.emplace();
  unsigned segment = 0;
  bool leading = true;
  for (unsigned i = 0, e = blockOps.size(); i < e; ++i) {
    uint8_t f = flags[before[i]];
    segment += bool(f & kBarrier);
    // The constants the canonical form put at the top of the block are
    // left out: they are never in a run (any other constant is, below, a
    // unique token that ends runs).
    if (leading && (f & kConstant))
      continue;
    leading = false;
    // Extracts are not part of runs: a copy's qubit read is classified as
    // an operand (WireRead), so a run may start after its extracts. (In the
    // given order, reads of a register an insert made are: see
    // readsThreadedRegister.)
    if (f & kExtract) {
      if (segments)
        segments->ofExtract[blockOps[i]] = segment;
      continue;
    }
    ops.push_back(blockOps[i]);
    if (segments)
      segments->ofOp.push_back(segment);
    // Constants, terminators and unknown ops never repeat into a loop: give
    // them unique tokens so runs stop there.
    tokens.push_back((f & (kConstant | kUnrollable)) ? mix(0xDEAD, ops.size())
                                                     : opTokens[before[i]]);
  }
  return scan;
}

void BlockRoller::countRejection(const Verdict &v) {
  if (v.reason == Reject::SideEffects)
    ++stats.rejectedSideEffects;
  else if (v.reason == Reject::Operands)
    ++stats.rejectedOperands;
}

bool BlockRoller::tryRunAt(RunAnalyzer &analyzer, unsigned s, unsigned p, unsigned limit,
                           uint64_t budget, RunPlan &plan) {
  unsigned k = (limit - s) / p;
  Verdict v = analyzer.classify(s, p, k, plan);
  while (!v && analyzer.work < budget) {
    countRejection(v);
    if (!v.late) {
      if (v.copiesOk < opts.minTripCount)
        return false;
      k = v.copiesOk;
      v = analyzer.classify(s, p, k, plan);
      continue;
    }
    // Fewer copies, assuming that fewer from the same start stay valid:
    // one less, then the fewest, then bisect.
    if (k == opts.minTripCount)
      return false;
    v = analyzer.classify(s, p, k - 1, plan);
    if (v)
      break;
    if (!v.late) {
      k = std::min(k - 1, v.copiesOk);
      if (k < opts.minTripCount)
        return false;
      v = analyzer.classify(s, p, k, plan);
      continue;
    }
    unsigned lo = opts.minTripCount, hi = k - 1; // hi invalid
    RunPlan best;
    if (!analyzer.classify(s, p, lo, best))
      return false;
    while (hi - lo > 1 && analyzer.work < budget) {
      unsigned mid = lo + (hi - lo) / 2;
      if (analyzer.classify(s, p, mid, plan)) {
        lo = mid;
        best = std::move(plan);
      } else {
        hi = mid;
      }
    }
    plan = std::move(best);
    return true;
  }
  if (!v)
    countRejection(v);
  return bool(v);
}

SmallVector<RunPlan, 0> BlockRoller::chooseRuns(const BlockScan &scan, RunAnalyzer &analyzer) {
  SmallVector<Candidate> candidates = findRepeats(scan.tokens, opts.minTripCount, opts.maxPeriod);
  // Accepted runs as disjoint [start, end) intervals keyed by start.
  std::map<unsigned, unsigned> taken;
  // (A SmallVector grows by moving; std::vector copied every plan's
  // tables, as SmallVector's move constructor is not noexcept.)
  SmallVector<RunPlan, 0> accepted;
  // Work spent on each run, over all the periods it offers.
  DenseMap<std::pair<unsigned, unsigned>, uint64_t> runWork;
  for (const Candidate &c : candidates) {
    unsigned p = c.period, end = c.start + c.span;
    // The work on a run, over all its candidate periods (a run of period 2
    // over 800 ops offers 133), is bounded by a multiple of its length:
    // the runs of a string have lengths that sum to O(n), so the whole
    // search stays linear after finding them.
    uint64_t &spent = runWork[{c.start, c.span}];
    uint64_t limit = 64 * uint64_t(c.span) + 4096;
    if (spent >= limit)
      continue;
    uint64_t startWork = analyzer.work;
    llvm::scope_exit charge([&] { spent += analyzer.work - startWork; });
    uint64_t budget = analyzer.work + (limit - spent);
    // Left to right through the stretch's free parts (a stretch may hold
    // several loops, e.g. one per controlled block, or overlap a run
    // accepted before). Where a copy starts decides what is carried, so a
    // few phases of the period are tried before the stretch is given up.
    unsigned pos = c.start;
    while (pos + p * opts.minTripCount <= end && analyzer.work < budget) {
      // Skip accepted runs; stop at the next one.
      auto next = taken.upper_bound(pos);
      if (next != taken.begin() && std::prev(next)->second > pos) {
        pos = std::prev(next)->second;
        continue;
      }
      unsigned limit = next == taken.end() ? end : std::min(end, next->first);
      RunPlan plan;
      bool found = false;
      unsigned s = pos;
      for (unsigned rot = 0; rot < std::min(p, kMaxPhases) && s + p * opts.minTripCount <= limit &&
                             analyzer.work < budget;
           ++rot, ++s)
        if (tryRunAt(analyzer, s, p, limit, budget, plan)) {
          found = true;
          break;
        }
      if (!found) {
        if (limit == end)
          break;
        pos = limit; // past the accepted run in the way
        continue;
      }
      int64_t saved = int64_t(plan.copies - 1) * plan.bodyOps - plan.overhead;
      if (saved < opts.minSavings) {
        ++stats.rejectedUnprofitable;
        break;
      }
      LLVM_DEBUG(llvm::dbgs() << "qshape-roll-loops: accepted " << plan.copies << " x " << p
                              << " ops at " << plan.start << " (stretch " << c.start << "+"
                              << c.span << "), saving " << saved << "\n");
      unsigned e = plan.start + plan.copies * p;
      taken[plan.start] = e;
      accepted.push_back(std::move(plan));
      pos = e;
    }
  }
  return accepted;
}

unsigned BlockRoller::buildLoops(ArrayRef<Operation *> ops, const OpPositions &index,
                                 SmallVector<RunPlan, 0> &accepted) {
  // Build from the back so earlier indices stay valid.
  llvm::sort(accepted, [](const RunPlan &a, const RunPlan &b) { return a.start > b.start; });
  unsigned built = 0;
  for (RunPlan &plan : accepted) {
    // Only the canonical order's loops decide whether to try the other.
    bool straddles = !opts.byWire && straddlesIterations(plan, ops);
    // The loop replaces the run only once it is shown to replay it.
    LoopBuilder builder(ops, plan);
    scf::ForOp loop = builder.build();
    std::string why;
    if (failed(checkReplay(builder.built(), ops, index, plan, why))) {
      builder.abandon();
      ++stats.rejectedReplay;
      mlir::emitRemark(ops[plan.start]->getLoc())
          << "qshape-roll-loops: left " << plan.copies << " copies of a " << plan.period
          << "-op body unrolled: the loop would not replay them (" << why << ")";
      continue;
    }
    builder.commit();
    ++built;
    stats.straddling += straddles;
    if (opts.emitRemarks)
      mlir::emitRemark(loop.getLoc())
          << "qshape-roll-loops: rolled " << plan.copies << " copies of a " << plan.period
          << "-op body into a loop, saving "
          << int64_t(plan.copies - 1) * plan.bodyOps - plan.overhead << " ops";
  }
  return built;
}

unsigned BlockRoller::rollBlock(Block &block, const std::vector<Operation *> *knownOps) {
  BlockScan scan = scanBlock(block, knownOps);
  index.assign(scan.ops);
  RunAnalyzer analyzer(scan.ops, index, opts.paramTables, scan.segments ? &*scan.segments : nullptr,
                       facts);
  analyzer.byWire = opts.byWire;
  SmallVector<RunPlan, 0> accepted = chooseRuns(scan, analyzer);
  if (accepted.empty())
    return 0;
  unsigned built = buildLoops(scan.ops, index, accepted);
  forgetOps(); // (a loop that fails its check is built and erased too)
  return built;
}

void BlockRoller::forgetOps() {
  facts.clear();
  tokenizer.clearRegionTokens();
}

} // namespace qshape::roll
