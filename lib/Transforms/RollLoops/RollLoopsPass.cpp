//===- RollLoopsPass.cpp - qshape-roll-loops ------------------------------===//
//
// Structural loop rolling: the pass is a thin driver over the roller's
// components in lib/Transforms/RollLoops/:
//  - RegisterNormalForm: one re-scheduling of a block that makes the copies
//    of a repeated body contiguous and alike;
//  - Tokenizer: each op becomes a token with wire indices, constant values
//    and operand identities abstracted;
//  - RepeatFinder: the stretches of the token string that repeat;
//  - RunAnalyzer: whether a candidate run can be one loop, operand by
//    operand (a RunPlan);
//  - LoopBuilder: the scf.for of a plan;
//  - ReplayCheck: the proof, before a loop replaces its run, that it
//    replays it;
//  - RollDriver: one block, greedily by ops saved;
//  - RoundTrip: verify-roundtrip.
// This file puts each function in canonical form, rolls its blocks
// innermost first (again on the result with `nest`) and reports.
//
//===----------------------------------------------------------------------===//

#include "FunctionCopy.h"
#include "GivenOrder.h"
#include "RegisterNormalForm.h"
#include "RollDriver.h"
#include "RoundTrip.h"
#include "Support.h"

#include "qshape/Fingerprint/CanonicalForm.h"
#include "qshape/GateView/GateView.h"
#include "qshape/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/Debug.h"

#include <limits>
#include <vector>

#define DEBUG_TYPE "qshape-roll-loops"

namespace qshape {
#define GEN_PASS_DEF_QSHAPEROLLLOOPS
#include "qshape/Transforms/Passes.h.inc"
} // namespace qshape

using namespace mlir;
using namespace qshape;

namespace {

/// One attempt at rolling a function: its rolled copy (null when nothing
/// rolled, or on failure), the loops made, the ops the copy holds, and its
/// remarks, held back until it is chosen (the other attempt's loops, and
/// what it said about them, are thrown away).
struct Attempt {
  Operation *work = nullptr;
  unsigned loops = 0;
  uint64_t opsAfter = 0;
  roll::RollStats stats;
  std::vector<Diagnostic> remarks;
  bool tried = false;
};

struct QShapeRollLoopsPass : qshape::impl::QShapeRollLoopsBase<QShapeRollLoopsPass> {
  using QShapeRollLoopsBase::QShapeRollLoopsBase;

  void runOnOperation() override;
  /// Rolls `func` in one order or both, each into its attempt. `texts` is
  /// the run's: every tokenizer and canonical view prints each type once.
  LogicalResult rollFunction(Operation *func, Attempt &canonicalOrder, Attempt &givenOrder,
                             uint64_t &opsBefore, EncoderTexts &texts);
  /// Rolls a copy of `func` into `attempt`: in canonical order, or, with
  /// `asGiven`, in the order it came in and with register-addressed bodies.
  /// Sets `opsBefore`: the ops of `func`, itself excluded.
  LogicalResult rollCopy(Operation *func, Attempt &attempt, bool asGiven, uint64_t &opsBefore,
                         EncoderTexts &texts);
};

/// Whether the pass rolls the ops of `block`: straight-line code in a
/// function body or in the body of a loop, branch, adjoint or control region.
static bool isRolledBlock(Block *block, Operation *func) {
  Operation *parent = block->getParentOp();
  return parent == func || parent->getName().getStringRef() == "scf.for" ||
         parent->getName().getStringRef() == "scf.if" || classify(parent) == QOpKind::Adjoint ||
         classify(parent) == QOpKind::Ctrl;
}

/// A roll that leaves at most 1/kLittle of a function's ops leaves too
/// little for another to be worth its time (a second roll could save at most
/// that much more).
constexpr unsigned kLittle = 16;

/// Whether a rolled `attempt` leaves too little for the other order to be
/// worth its time: at most 1/kLittle of the function's ops; too few gates
/// outside its loops to make one more loop; or so few that those gates,
/// with the ops only they use, make less than a quarter of its ops (the
/// other order could save at most those: Grover's first layer of
/// Hadamards, which neither order rolls).
static bool leavesLittle(const Attempt &attempt, uint64_t opsBefore, unsigned minTripCount) {
  if (attempt.opsAfter * kLittle <= opsBefore)
    return true;
  roll::LeftUnrolled left = roll::leftUnrolled(attempt.work);
  return left.gates < minTripCount || 4 * uint64_t(left.ops) < attempt.opsAfter;
}

/// Whether the given order may roll `func` better than the canonical one
/// did: nothing rolled; a canonical loop's body reads what its next
/// iteration reads too (a loop that cuts layers, roll::straddlesIterations);
/// the given order repeats with a shorter period than the body of a
/// canonical loop (layers the canonical order interleaved); or the
/// canonical attempt does not leave little.
static bool wantsSecondAttempt(Operation *func, const Attempt &canonicalOrder, uint64_t opsBefore,
                               unsigned minTripCount) {
  if (!canonicalOrder.work || canonicalOrder.stats.straddling ||
      roll::givenOrderRepeatsFiner(func, canonicalOrder.work))
    return true;
  return !leavesLittle(canonicalOrder, opsBefore, minTripCount);
}

/// Which attempt to keep: the canonical one unless the other is at least a
/// quarter smaller, or smaller at all where a canonical loop straddled
/// layers. The canonical order nests loops as users write them (a loop
/// over controlled blocks around the Trotter steps); the given order wins
/// where it rolls layers the canonical order interleaves or cuts.
static Attempt *chooseAttempt(Attempt &canonicalOrder, Attempt &givenOrder) {
  if (!givenOrder.work)
    return &canonicalOrder;
  if (!canonicalOrder.work || givenOrder.opsAfter * 4 <= canonicalOrder.opsAfter * 3 ||
      (canonicalOrder.stats.straddling && givenOrder.opsAfter < canonicalOrder.opsAfter))
    return &givenOrder;
  return &canonicalOrder;
}

/// Whether another round may roll more in `block`, where this round made
/// loops: it holds min-trip-count loops (copies of a loop of loops), or a
/// new loop's body holds min-trip-count ops (the ops of one copy, which roll
/// among themselves only in the next round). Otherwise the round, and the
/// normal form before it, would find nothing.
static bool mayRollAgain(Block &block, unsigned minTripCount) {
  unsigned loops = 0;
  for (Operation &op : block) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop)
      continue;
    if (++loops >= minTripCount)
      return true;
    // (the body's terminator is not a copy)
    if (loop->hasAttr(roll::kRolledMarker) &&
        llvm::hasNItemsOrMore(*loop.getBody(), minTripCount + 1))
      return true;
  }
  return false;
}

/// The ops of `func`, itself excluded (what the canonical form counts).
static uint64_t countOps(Operation *func) {
  uint64_t ops = 0;
  func->walk([&](Operation *) { ++ops; });
  return ops - 1;
}

LogicalResult QShapeRollLoopsPass::rollCopy(Operation *func, Attempt &attempt, bool asGiven,
                                            uint64_t &opsBefore, EncoderTexts &texts) {
  // The work is done on a copy: a function in which nothing rolls stays
  // exactly as it came in (it would otherwise be canonicalized for
  // nothing), and the function itself is the reference of
  // verify-roundtrip. In the given order the copy comes with its constants
  // first and its blocks recorded.
  attempt.tried = true;
  BlockOrder order; // the blocks, innermost first, with their ops
  roll::FunctionCopy copy = roll::copyFunction(func, asGiven ? &order : nullptr);
  Operation *work = copy.func;
  ScopedDiagnosticHandler holdRemarks(func->getContext(), [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Remark)
      return failure(); // to the handlers before this one
    attempt.remarks.push_back(std::move(diag));
    return success();
  });
  roll::RollOptions options;
  options.minTripCount = minTripCount;
  // 0: no bound.
  options.maxPeriod = maxPeriod ? unsigned(maxPeriod) : std::numeric_limits<unsigned>::max();
  options.minSavings = minSavings;
  options.paramTables = paramTables;
  options.emitRemarks = emitRemarks;
  options.byWire = asGiven;
  options.texts = &texts;
  roll::BlockRoller roller(options, attempt.stats);
  // The canonical form keeps every op a barrier pins on its side of it
  // (qshape::isBarrier, isPinnedByBarriers: the rule the roller uses too).
  auto normalForm = [&](const CanonicalizeOptions &opts, CanonicalizeStats *stats,
                        BlockOrder &order) {
    roller.forgetOps(); // the canonical form creates and erases ops
    return canonicalize(work, opts, stats, &order);
  };
  auto fail = [&] {
    work->erase();
    return failure();
  };
  // Angles mostly end up in tables: their order is left to the last
  // canonicalization.
  CanonicalizeOptions firstCopts, copts;
  firstCopts.sortFloatConstants = false;
  firstCopts.texts = copts.texts = &texts;
  CanonicalizeStats firstStats;
  if (asGiven) {
    opsBefore = copy.ops;
  } else {
    if (failed(normalForm(firstCopts, &firstStats, order)))
      return fail();
    opsBefore = firstStats.opsBefore;
  }
  // Roll every block of straight-line code, innermost structure first;
  // with `nest`, loops of identical loops then roll again.
  for (int round = 0; round < 8; ++round) {
    // In the bodies the given order built by wire, read each wire from the
    // register its layer's inserts end in, so their gates roll too.
    if (asGiven && round > 0) {
      bool moved = false;
      for (Block *block : order.blocks)
        if (block->getParentOp()->hasAttr(roll::kRolledMarker))
          moved |= roll::readLatestRegisters(*block);
      if (moved)
        order = roll::blocksAsGiven(work);
    }
    unsigned created = 0;
    bool again = false;
    for (auto [block, ops] : llvm::zip(order.blocks, order.ops)) {
      if (!isRolledBlock(block, work))
        continue;
      // The recorded ops are current until a loop is built (rolling a
      // block may erase constants of an enclosing one).
      unsigned made = roller.rollBlock(*block, created ? nullptr : &ops);
      created += made;
      again |= made && mayRollAgain(*block, minTripCount);
    }
    attempt.loops += created;
    LLVM_DEBUG(llvm::dbgs() << "qshape-roll-loops: round " << round << ": " << created
                            << " loops\n");
    if (!again || !nest)
      break;
    order = BlockOrder();
    if (failed(normalForm(copts, nullptr, order)))
      return fail();
  }
  if (!attempt.loops) {
    work->erase();
    return success();
  }
  order = BlockOrder();
  if (failed(normalForm(copts, nullptr, order)))
    return fail();
  // Catalyst's value semantics: reads before consumers, extracts from the
  // live register (the canonical form reads past inserts).
  for (Block *block : order.blocks)
    roll::linearizeReads(*block);
  attempt.opsAfter = countOps(work);
  attempt.work = work;
  return success();
}

LogicalResult QShapeRollLoopsPass::rollFunction(Operation *func, Attempt &canonicalOrder,
                                                Attempt &givenOrder, uint64_t &opsBefore,
                                                EncoderTexts &texts) {
  // Layers that differ only in their angles, or in which wires their gates
  // pair, roll whole in the order they came in: that order goes first, and
  // where it leaves little the canonical one is not tried (its normal form
  // alone costs a third of a parse of the function).
  bool givenFirst = wireOrder && roll::givenOrderGoesFirst(func, kLittle, minTripCount);
  if (givenFirst) {
    if (failed(rollCopy(func, givenOrder, /*asGiven=*/true, opsBefore, texts)))
      return failure();
    if (givenOrder.work && leavesLittle(givenOrder, opsBefore, minTripCount))
      return success();
  }
  // Otherwise canonical order first; then, where that leaves much unrolled,
  // the order the function came in, with register-addressed bodies (layers
  // that differ in which wires their gates pair, which the canonical order
  // interleaves). The smaller result is kept.
  if (failed(rollCopy(func, canonicalOrder, /*asGiven=*/false, opsBefore, texts)))
    return failure();
  if (givenFirst || !wireOrder ||
      !wantsSecondAttempt(func, canonicalOrder, opsBefore, minTripCount))
    return success();
  return rollCopy(func, givenOrder, /*asGiven=*/true, opsBefore, texts);
}

/// The remark that says which orders were tried and which was kept.
static void remarkOnOrders(Operation *func, const Attempt &canonicalOrder,
                           const Attempt &givenOrder, const Attempt *best, uint64_t opsBefore) {
  auto size = [&](const Attempt &a) { return a.work ? a.opsAfter : opsBefore; };
  InFlightDiagnostic remark = mlir::emitRemark(func->getLoc()) << "qshape-roll-loops: ";
  if (canonicalOrder.tried)
    remark << "canonical order: " << size(canonicalOrder) << " ops; ";
  if (givenOrder.tried)
    remark << "given order: " << size(givenOrder) << " ops; ";
  if (!canonicalOrder.tried)
    remark << "the canonical order was not tried (the given order rolled whole layers, and "
              "left little); ";
  remark << "kept "
         << (best->work ? (best == &givenOrder ? "the given order" : "the canonical order")
                        : "the function as it was")
         << " (" << opsBefore << " ops before)";
}

void QShapeRollLoopsPass::runOnOperation() {
  ModuleOp module = getOperation();
  // A function is a symbol, whose parent must be a symbol table, so no
  // function body holds one: the walk skips the bodies (on a large function
  // walking it costs as much as a phase of the pass).
  SmallVector<Operation *> funcs;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<FunctionOpInterface>(op) || op->getName().getStringRef() == "func.func") {
      funcs.push_back(op);
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  EncoderTexts texts;
  for (Operation *func : funcs) {
    Attempt canonicalOrder, givenOrder;
    uint64_t opsBefore = 0;
    if (failed(rollFunction(func, canonicalOrder, givenOrder, opsBefore, texts))) {
      for (Attempt *attempt : {&canonicalOrder, &givenOrder})
        if (attempt->work)
          attempt->work->erase();
      return signalPassFailure();
    }
    Attempt *best = chooseAttempt(canonicalOrder, givenOrder);
    if (emitRemarks)
      remarkOnOrders(func, canonicalOrder, givenOrder, best, opsBefore);
    for (Diagnostic &remark : best->remarks)
      getContext().getDiagEngine().emit(std::move(remark));
    for (Attempt *other : {&canonicalOrder, &givenOrder})
      if (other != best && other->work)
        other->work->erase();
    numOpsBefore += opsBefore;
    numLoops += best->loops;
    numRejectedUnprofitable += best->stats.rejectedUnprofitable;
    numRejectedSideEffects += best->stats.rejectedSideEffects;
    numRejectedOperands += best->stats.rejectedOperands;
    numRejectedReplay += best->stats.rejectedReplay;
    Operation *work = best->work;
    if (!work) {
      numOpsAfter += opsBefore;
      continue;
    }
    numOpsAfter += best->opsAfter;
    if (verifyRoundtrip && failed(roll::verifyRoundTrip(func, work))) {
      work->erase();
      return signalPassFailure();
    }
    work->walk([&](scf::ForOp f) { f->removeAttr(roll::kRolledMarker); });
    for (auto [mine, rolled] : llvm::zip(func->getRegions(), work->getRegions()))
      mine.takeBody(rolled);
    work->erase();
  }
}

} // namespace
