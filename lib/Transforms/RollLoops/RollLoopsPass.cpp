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
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/Debug.h"

#include <limits>

#define DEBUG_TYPE "qshape-roll-loops"

namespace qshape {
#define GEN_PASS_DEF_QSHAPEROLLLOOPS
#include "qshape/Transforms/Passes.h.inc"
} // namespace qshape

using namespace mlir;
using namespace qshape;

namespace {

struct QShapeRollLoopsPass : qshape::impl::QShapeRollLoopsBase<QShapeRollLoopsPass> {
  using QShapeRollLoopsBase::QShapeRollLoopsBase;

  void runOnOperation() override;
};

/// Whether the pass rolls the ops of `block`: straight-line code in a
/// function body or in the body of a loop, branch, adjoint or control region.
static bool isRolledBlock(Block *block, Operation *func) {
  Operation *parent = block->getParentOp();
  return parent == func || parent->getName().getStringRef() == "scf.for" ||
         parent->getName().getStringRef() == "scf.if" || classify(parent) == QOpKind::Adjoint ||
         classify(parent) == QOpKind::Ctrl;
}

/// Region::cloneInto, op by op where that is sound. cloneInto creates
/// every op without operands and sets them afterwards (a later block may
/// define what an earlier one uses), which allocates each op's operand
/// storage twice; in one block of SSA code every operand is defined, and
/// mapped, before its user, so each op is cloned whole.
static void cloneRegion(Region &from, Region &to, IRMapping &mapper) {
  if (mayBeGraphRegion(from) || !from.hasOneBlock()) {
    from.cloneInto(&to, mapper);
    return;
  }
  Block &source = from.front();
  auto *block = new Block();
  to.push_back(block);
  for (BlockArgument arg : source.getArguments())
    mapper.map(arg, block->addArgument(arg.getType(), arg.getLoc()));
  for (Operation &op : source)
    block->push_back(op.clone(mapper));
}

/// func->clone() with the mapper's tables sized first: cloning maps every
/// value and op of the function, and on a large one growing those tables
/// rehashes them all several times (each insert a cache miss, each new
/// table a fresh allocation the size of the last).
static Operation *cloneFunction(Operation *func) {
  size_t ops = 0, values = 0;
  func->walk([&](Operation *op) {
    ++ops;
    values += op->getNumResults();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        values += block.getNumArguments();
  });
  IRMapping mapper;
  // IRMapping has no reserve(); its tables are its own, not const.
  const_cast<DenseMap<Value, Value> &>(mapper.getValueMap()).reserve(values);
  const_cast<DenseMap<Operation *, Operation *> &>(mapper.getOperationMap()).reserve(ops);
  Operation *copy = func->cloneWithoutRegions(mapper);
  for (auto [from, to] : llvm::zip(func->getRegions(), copy->getRegions()))
    cloneRegion(from, to, mapper);
  return copy;
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
  CanonicalizeOptions copts;
  // Angles mostly end up in tables: their order is left to the last
  // canonicalization.
  CanonicalizeOptions firstCopts;
  firstCopts.sortFloatConstants = false;
  roll::RollOptions options;
  options.minTripCount = minTripCount;
  // 0: no bound.
  options.maxPeriod = maxPeriod ? unsigned(maxPeriod) : std::numeric_limits<unsigned>::max();
  options.minSavings = minSavings;
  options.paramTables = paramTables;
  options.emitRemarks = emitRemarks;
  roll::RollStats stats;
  roll::BlockRoller roller(options, stats);
  for (Operation *func : funcs) {
    // The work is done on a copy: a function in which nothing rolls stays
    // exactly as it came in (it would otherwise be canonicalized for
    // nothing), and the function itself is the reference of
    // verify-roundtrip.
    Operation *work = cloneFunction(func);
    // The canonical form keeps every op a barrier pins on its side of it
    // (qshape::isBarrier, isPinnedByBarriers: the rule the roller uses too).
    auto normalForm = [&](const CanonicalizeOptions &opts, CanonicalizeStats *stats,
                          BlockOrder &order) {
      roller.forgetOps(); // the canonical form creates and erases ops
      return canonicalize(work, opts, stats, &order);
    };
    CanonicalizeStats firstStats;
    BlockOrder order; // the blocks, innermost first, with their ops
    if (failed(normalForm(firstCopts, &firstStats, order))) {
      work->erase();
      return signalPassFailure();
    }
    numOpsBefore += firstStats.opsBefore;
    // Roll every block of straight-line code, innermost structure first;
    // with `nest`, loops of identical loops then roll again.
    unsigned loops = 0;
    for (int round = 0; round < 8; ++round) {
      unsigned created = 0;
      for (auto [block, ops] : llvm::zip(order.blocks, order.ops))
        if (isRolledBlock(block, work))
          // The recorded ops are current until a loop is built (rolling a
          // block may erase constants of an enclosing one).
          created += roller.rollBlock(*block, created ? nullptr : &ops);
      loops += created;
      LLVM_DEBUG(llvm::dbgs() << "qshape-roll-loops: round " << round << ": " << created
                              << " loops\n");
      if (!created || !nest)
        break;
      order = BlockOrder();
      if (failed(normalForm(copts, nullptr, order))) {
        work->erase();
        return signalPassFailure();
      }
    }
    numLoops += loops;
    if (!loops) {
      numOpsAfter += firstStats.opsBefore;
      work->erase();
      continue;
    }
    order = BlockOrder();
    if (failed(normalForm(copts, nullptr, order))) {
      work->erase();
      return signalPassFailure();
    }
    // Catalyst's value semantics: reads before consumers, extracts from the
    // live register (the canonical form reads past inserts).
    for (Block *block : order.blocks)
      roll::linearizeReads(*block);
    uint64_t afterCount = 0;
    work->walk([&](Operation *) { ++afterCount; });
    numOpsAfter += afterCount - 1;
    if (verifyRoundtrip && failed(roll::verifyRoundTrip(func, work))) {
      work->erase();
      return signalPassFailure();
    }
    work->walk([&](scf::ForOp f) { f->removeAttr(roll::kRolledMarker); });
    for (auto [mine, rolled] : llvm::zip(func->getRegions(), work->getRegions()))
      mine.takeBody(rolled);
    work->erase();
  }
  numRejectedUnprofitable += stats.rejectedUnprofitable;
  numRejectedSideEffects += stats.rejectedSideEffects;
  numRejectedOperands += stats.rejectedOperands;
  numRejectedReplay += stats.rejectedReplay;
}

} // namespace
