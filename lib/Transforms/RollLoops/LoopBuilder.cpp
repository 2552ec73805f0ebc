//===- LoopBuilder.cpp - qshape-roll-loops: building the loop -------------===//

#include "LoopBuilder.h"

#include "Support.h"

#include "qshape/Fingerprint/CanonicalForm.h"
#include "qshape/GateView/GateView.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <functional>
#include <vector>

using namespace mlir;

namespace qshape::roll {

/// The key of the register carried only for write-backs.
static constexpr std::pair<unsigned, unsigned> kWriteBackCarry{~0u, ~0u};

Value LoopBuilder::indexValue(OpBuilder &b, Location loc, Value iv, Type type, int64_t base,
                              int64_t stride) {
  auto key = std::make_tuple(type, base, stride);
  if (Value cached = affineValues.lookup(key))
    return cached;
  Value v = iv;
  if (!type.isIndex())
    v = (base == 0 && stride == 1) ? Value(arith::IndexCastOp::create(b, loc, type, iv))
                                   : indexValue(b, loc, iv, type, 0, 1);
  if (stride != 1)
    v = arith::MulIOp::create(b, loc, v,
                              arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, stride)));
  if (base != 0)
    v = arith::AddIOp::create(b, loc, v,
                              arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, base)));
  affineValues[key] = v;
  return v;
}

Value LoopBuilder::tableValue(OpBuilder &b, Location loc, Value iv, Value table) {
  Value &v = tableExtracts[table];
  if (!v)
    v = tensor::ExtractOp::create(b, loc, table, ValueRange{iv});
  return v;
}

Value LoopBuilder::constantTable(Location loc, const OperandPlan &op) {
  unsigned k = op.perCopy.size();
  SmallVector<Attribute> values;
  values.reserve(k);
  for (unsigned c = 0; c < k; ++c) {
    if (c + kAhead < k)
      __builtin_prefetch(op.perCopy[c + kAhead].getAsOpaquePointer());
    Attribute a;
    matchPattern(op.perCopy[c], m_Constant(&a));
    values.push_back(a);
  }
  auto tensorType = RankedTensorType::get({int64_t(k)}, op.perCopy[0].getType());
  Attribute contents = DenseElementsAttr::get(tensorType, values);
  Value &table = constantTables[contents];
  if (!table)
    table = arith::ConstantOp::create(*outer, loc, cast<TypedAttr>(contents));
  return table;
}

Value LoopBuilder::indexTable(Location loc, ArrayRef<int64_t> values) {
  auto tensorType = RankedTensorType::get({int64_t(values.size())}, outer->getI64Type());
  return arith::ConstantOp::create(*outer, loc, DenseElementsAttr::get(tensorType, values));
}

unsigned LoopBuilder::carriedIndex(std::pair<unsigned, unsigned> key) const {
  return llvm::find(carriedKeys, key) - carriedKeys.begin();
}

namespace {
/// Records the ops a builder makes.
struct Recorder : OpBuilder::Listener {
  explicit Recorder(SmallVector<Operation *> &made) : made(made) {}
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    made.push_back(op);
  }
  SmallVector<Operation *> &made;
};
} // namespace

void LoopBuilder::hoistInputs() {
  Operation *first = at(0, 0);
  unsigned k = plan.copies, p = plan.period;
  // Values from before the run that the loop takes (inits, invariants,
  // gathered values, registers read) may be defined by an op left out of
  // the scan that stands inside the run (an extract sunk to its first use
  // in copy 0): such an op, and the ops of the block it needs, move up to
  // just before the run.
  // A producer of a value the run uses stands before `first` or among the
  // ops from `first` to the run's last op, so membership in that stretch
  // says which. (isBeforeInBlock would renumber the whole block after each
  // move: once per hoisted op, quadratic in the block over all loops.)
  Block *block = first->getBlock();
  llvm::SmallPtrSet<Operation *, 32> stretch;
  stretch.reserve(k * p);
  for (Operation *op = first, *last = at(k - 1, p - 1); op; op = op->getNextNode()) {
    stretch.insert(op);
    if (op == last)
      break;
  }
  std::function<void(Value)> hoist = [&](Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != block || def == first || !stretch.contains(def))
      return;
    // Only what the scan leaves out moves: reads and pure ops.
    if (classify(def) != QOpKind::Extract && !isFloatingPure(def) && !isConstant(def))
      return;
    for (Value operand : def->getOperands())
      hoist(operand);
    def->moveBefore(first);
    stretch.erase(def);
  };
  std::function<void(const OperandPlan &)> hoistParts = [&](const OperandPlan &op) {
    for (const OperandPlan &part : op.parts)
      if (part.kind == OperandPlan::Invariant)
        hoist(part.invariant);
      else if (part.kind == OperandPlan::Recompute)
        hoistParts(part);
  };
  for (unsigned j = 0; j < p; ++j)
    for (OperandPlan &op : plan.operands[j]) {
      if (op.kind == OperandPlan::Carried || op.kind == OperandPlan::Invariant)
        hoist(op.invariant);
      if (op.kind == OperandPlan::Gather)
        for (Value v : op.perCopy)
          hoist(v);
      if (op.kind == OperandPlan::Recompute)
        hoistParts(op);
      if (op.kind == OperandPlan::WireRead)
        hoist(op.reg);
    }
  if (plan.writeBackReg)
    hoist(plan.writeBackReg);
}

void LoopBuilder::makeTables(Location loc) {
  unsigned k = plan.copies, p = plan.period;
  for (unsigned j = 0; j < p; ++j)
    for (unsigned m = 0; m < plan.operands[j].size(); ++m) {
      OperandPlan &op = plan.operands[j][m];
      if (op.kind == OperandPlan::IntTable || op.kind == OperandPlan::FloatTable) {
        tables[{j, m}] = constantTable(loc, op);
      } else if (op.kind == OperandPlan::Gather) {
        auto tensorType = RankedTensorType::get({int64_t(k)}, op.perCopy[0].getType());
        tables[{j, m}] = tensor::FromElementsOp::create(*outer, loc, tensorType, op.perCopy);
      }
    }
  for (unsigned j = 0; j < p; ++j)
    for (unsigned m = 0; m < plan.operands[j].size(); ++m) {
      OperandPlan &op = plan.operands[j][m];
      if (op.kind == OperandPlan::WireRead && op.base < 0)
        tables[{j, m}] = indexTable(loc, op.wires);
    }
  for (unsigned j = 0; j < p; ++j) {
    IndexPlan &ip = plan.indices[j];
    if (ip.varies && !ip.affine)
      indexTables[j] = indexTable(loc, ip.values);
  }
  for (auto [w, wb] : llvm::enumerate(plan.writeBacks))
    if (!wb.affine)
      writeBackTables[w] = indexTable(loc, wb.wires);
}

void LoopBuilder::makeLoop(Location loc) {
  for (unsigned j = 0; j < plan.period; ++j)
    for (OperandPlan &op : plan.operands[j])
      if (op.kind == OperandPlan::Carried) {
        auto key = std::make_pair(op.defOp, op.defResult);
        if (!llvm::is_contained(carriedKeys, key)) {
          carriedKeys.push_back(key);
          inits.push_back(op.invariant);
        }
      }
  // A register the loop carries only for the qubits it writes back.
  if (plan.newCarry) {
    carriedKeys.push_back(kWriteBackCarry);
    inits.push_back(plan.writeBackReg);
  }
  Value lb = arith::ConstantIndexOp::create(*outer, loc, 0);
  Value ub = arith::ConstantIndexOp::create(*outer, loc, plan.copies);
  Value step = arith::ConstantIndexOp::create(*outer, loc, 1);
  // The empty body builder keeps scf.for from adding its own terminator to
  // a loop that carries nothing (a run of gphase ops): the yield is ours.
  forOp = scf::ForOp::create(*outer, loc, lb, ub, step, inits,
                             [](OpBuilder &, Location, Value, ValueRange) {});
  iv = forOp.getInductionVar();
}

// Wires read before the run are read inside the loop from the register
// live at that point (linear use, as Catalyst emits and expects): the
// carried register of the same chain, or what this copy's inserts made of
// it so far. Reading it there gives the qubit the unrolled copy read from
// the older register, since the canonical form only reads past an insert
// at another wire.
Value LoopBuilder::liveRegisterFor(Value reg) {
  if (Value live = liveReg.lookup(reg))
    return live;
  for (auto [idx, init] : llvm::enumerate(inits)) {
    if (init.getType() != reg.getType())
      continue;
    // init is reg or made from it by inserts.
    Value v = init;
    for (int steps = 0; v != reg && steps < 4096; ++steps) {
      Operation *def = v.getDefiningOp();
      std::optional<RegisterAccess> a = def ? RegisterAccess::get(def) : std::nullopt;
      if (!a || !a->isInsert)
        break;
      v = a->reg;
    }
    if (v == reg)
      return liveReg[reg] = forOp.getRegionIterArgs()[idx];
  }
  return liveReg[reg] = reg; // not carried: the register itself is live
}

Value LoopBuilder::slotValue(OpBuilder &bb, Location loc, unsigned j, unsigned m) {
  OperandPlan &op = plan.operands[j][m];
  switch (op.kind) {
  case OperandPlan::Internal:
    return clones[op.defOp]->getResult(op.defResult);
  case OperandPlan::Carried:
    return forOp.getRegionIterArgs()[carriedIndex({op.defOp, op.defResult})];
  case OperandPlan::Invariant:
    return op.invariant;
  case OperandPlan::AffineInt:
    return indexValue(bb, loc, iv, op.perCopy[0].getType(), op.base, op.stride);
  case OperandPlan::IntTable:
  case OperandPlan::FloatTable:
  case OperandPlan::Gather:
    return tableValue(bb, loc, iv, tables[{j, m}]);
  case OperandPlan::Recompute:
    return recomputeValue(bb, loc, op);
  case OperandPlan::WireRead:
    return buildExtract(bb, at(0, j)->getLoc(), liveRegisterFor(op.reg), wireIndex(bb, loc, j, m))
        ->getResult(0);
  }
  llvm_unreachable("unknown operand plan");
}

IndexSpec LoopBuilder::wireIndex(OpBuilder &bb, Location loc, unsigned j, unsigned m) {
  const OperandPlan &op = plan.operands[j][m];
  // The same wire in every copy stays static: the canonical form threads
  // static wires, so the next round can roll the body's own repeats.
  if (op.base >= 0 && op.stride == 0)
    return IndexSpec::ofStatic(op.base);
  return IndexSpec::ofDynamic(op.base >= 0
                                  ? indexValue(bb, loc, iv, bb.getI64Type(), op.base, op.stride)
                                  : tableValue(bb, loc, iv, tables[{j, m}]));
}

void LoopBuilder::writeBackByWire(OpBuilder &bb, Location loc, unsigned j, Operation *clone) {
  std::optional<GateView> gate = GateView::get(clone);
  for (auto [m, op] : llvm::enumerate(plan.operands[j])) {
    if (op.kind != OperandPlan::WireRead)
      continue;
    Operation *insert = buildInsert(bb, clone->getLoc(), liveRegisterFor(plan.writeBackReg),
                                    wireIndex(bb, loc, j, m), gate->getOutFor(m));
    writeBackOps.push_back(insert);
    liveReg[plan.writeBackReg] = insert->getResult(0);
  }
}

Value LoopBuilder::recomputeValue(OpBuilder &bb, Location loc, const OperandPlan &op) {
  SmallVector<Value> values;
  for (const OperandPlan &part : op.parts) {
    if (part.kind == OperandPlan::Invariant)
      values.push_back(part.invariant);
    else if (part.kind == OperandPlan::AffineInt)
      values.push_back(indexValue(bb, loc, iv, part.perCopy[0].getType(), part.base, part.stride));
    else if (part.kind == OperandPlan::Recompute)
      values.push_back(recomputeValue(bb, loc, part));
    else // a table of constants, one per distinct contents
      values.push_back(tableValue(bb, loc, iv, constantTable(loc, part)));
  }
  // Operand by operand: one value may fill several of the recipe's slots.
  Operation *clone = bb.clone(*op.recipe);
  for (auto [x, v] : llvm::enumerate(values))
    clone->setOperand(x, v);
  return clone->getResult(0);
}

/// The operand slot of `op` that holds `v`, for values that fill one slot
/// (a register access's register or qubit: their types differ).
static unsigned slotOf(Operation *op, Value v) {
  return llvm::find(op->getOperands(), v) - op->getOperands().begin();
}

Operation *LoopBuilder::cloneBodyOp(OpBuilder &bb, Location loc, unsigned j) {
  Operation *orig = at(0, j);
  // The value of each slot, planned slot by slot: one value may fill
  // several slots with different plans (Rot(%t, %t, %t) where one varies),
  // so operands are set per slot. Only the values the regions capture
  // (distinct by construction) go through a mapping, for the regions' clone.
  unsigned numOperands = orig->getNumOperands();
  SmallVector<Value> slotValues;
  for (unsigned m = 0; m < plan.operands[j].size(); ++m)
    slotValues.push_back(slotValue(bb, loc, j, m));
  IndexPlan &ip = plan.indices[j];
  if (ip.varies) {
    Value idx = ip.affine ? indexValue(bb, loc, iv, bb.getI64Type(), ip.base, ip.stride)
                          : tableValue(bb, loc, iv, indexTables[j]);
    std::optional<RegisterAccess> a = RegisterAccess::get(orig);
    Value reg = slotValues[slotOf(orig, a->reg)];
    Operation *clone = a->isInsert
                           ? buildInsert(bb, orig->getLoc(), reg, IndexSpec::ofDynamic(idx),
                                         slotValues[slotOf(orig, a->qubit)])
                           : buildExtract(bb, orig->getLoc(), reg, IndexSpec::ofDynamic(idx));
    // Keep any other attributes the op carried; not the static index, which
    // an unregistered extract or insert carries among them (it would name
    // copy 0's wire beside the index operand).
    for (NamedAttribute na : orig->getDiscardableAttrs())
      if (na.getName() != kStaticIndexAttr)
        clone->setAttr(na.getName(), na.getValue());
    return clone;
  }
  IRMapping captured;
  if (orig->getNumRegions())
    for (auto [x, v] : llvm::enumerate(capturedValues(orig)))
      captured.map(v, slotValues[numOperands + x]);
  Operation *clone = bb.clone(*orig, captured);
  for (unsigned m = 0; m < numOperands; ++m)
    clone->setOperand(m, slotValues[m]);
  if (plan.byWire)
    writeBackByWire(bb, loc, j, clone);
  return clone;
}

void LoopBuilder::writeBackAndYield(OpBuilder &bb, Location loc) {
  unsigned k = plan.copies;
  // Write-backs: at the end of the copy, into the live register of their
  // chain, which is then what the loop carries on.
  if (!plan.writeBacks.empty()) {
    Value live = liveRegisterFor(plan.writeBackReg);
    // The iter_arg that starts the chain (the analyzer made sure there is one).
    auto args = forOp.getRegionIterArgs();
    Value v = live;
    while (v && !llvm::is_contained(args, v)) {
      Operation *def = v.getDefiningOp();
      std::optional<RegisterAccess> ra = def ? RegisterAccess::get(def) : std::nullopt;
      v = ra && ra->isInsert ? ra->reg : Value();
    }
    assert(v && "write-backs need a carried register");
    chain = llvm::find(args, v) - args.begin();
    for (auto [w, wb] : llvm::enumerate(plan.writeBacks)) {
      Value idx = wb.affine ? indexValue(bb, loc, iv, bb.getI64Type(), wb.wires[0],
                                         k > 1 ? wb.wires[1] - wb.wires[0] : 0)
                            : tableValue(bb, loc, iv, writeBackTables[w]);
      Operation *insert =
          buildInsert(bb, loc, live, IndexSpec::ofDynamic(idx), clones[wb.j]->getResult(wb.result));
      writeBackOps.push_back(insert);
      live = insert->getResult(0);
    }
    liveReg[plan.writeBackReg] = live;
  } else if (plan.byWire) {
    chain = carriedKeys.size() - 1; // the register, carried last (makeLoop)
  }
  SmallVector<Value> yields;
  for (auto [a, key] : llvm::enumerate(carriedKeys))
    yields.push_back(chain && a == *chain ? liveReg[plan.writeBackReg]
                                          : clones[key.first]->getResult(key.second));
  scf::YieldOp::create(bb, loc, yields);
  for (auto key : plan.liveOut)
    liveOutResults.push_back(carriedIndex(key));
  // The register the externalized qubits are read from after the loop.
  if (!plan.externalized.empty()) {
    if (chain)
      finalReg = chain;
    else
      for (auto [j, res] : plan.liveOut)
        if (classify(at(k - 1, j)) == QOpKind::Insert)
          finalReg = carriedIndex({j, res});
  }
}

scf::ForOp LoopBuilder::build() {
  Operation *first = at(0, 0);
  Location loc = first->getLoc();
  hoistInputs();
  outer.emplace(first);
  Recorder recorder(made);
  outer->setListener(&recorder);
  makeTables(loc);
  makeLoop(loc);
  OpBuilder bb = OpBuilder::atBlockBegin(forOp.getBody());
  clones.assign(plan.period, nullptr);
  for (unsigned j = 0; j < plan.period; ++j) {
    Operation *clone = clones[j] = cloneBodyOp(bb, loc, j);
    // An insert into the live register makes its result the live one.
    if (std::optional<RegisterAccess> a = RegisterAccess::get(clone); a && a->isInsert)
      for (auto &[read, live] : liveReg)
        if (live == a->reg)
          live = a->result;
  }
  writeBackAndYield(bb, loc);
  outer->setListener(nullptr);
  forOp->setAttr(kRolledMarker, UnitAttr::get(forOp->getContext()));
  return forOp;
}

void LoopBuilder::abandon() {
  forOp->erase();
  // Last made first: a table's users were made after it.
  for (Operation *op : llvm::reverse(made))
    if (op != forOp.getOperation() && op->use_empty())
      op->erase();
}

void LoopBuilder::commit() {
  unsigned k = plan.copies, p = plan.period;
  for (auto [key, result] : llvm::zip(plan.liveOut, liveOutResults))
    at(k - 1, key.first)->getResult(key.second).replaceAllUsesWith(forOp.getResult(result));
  if (plan.newCarry) {
    // What consumed the register after the run takes the loop's.
    Value result = forOp.getResult(*chain);
    Block *block = forOp->getBlock();
    plan.writeBackReg.replaceUsesWithIf(result, [&](OpOperand &use) {
      Operation *anc = block->findAncestorOpInBlock(*use.getOwner());
      return anc && anc != forOp && forOp->isBeforeInBlock(anc);
    });
  }
  OpBuilder after(forOp->getContext());
  after.setInsertionPointAfter(forOp);
  for (auto &e : plan.externalized) {
    Operation *ext = buildExtract(after, forOp.getLoc(), forOp.getResult(*finalReg),
                                  IndexSpec::ofStatic(e.wire));
    at(e.copy, e.j)->getResult(e.result).replaceAllUsesWith(ext->getResult(0));
  }
  // The run is dead now, with each constant whose last use it was (angles
  // now in a table), which the canonical form would otherwise erase after
  // rebuilding its view of them all. Ops leave the block last op first
  // (their neighbours in the list are the ops just visited); then they are
  // freed in address order, which the allocator handles faster (freeing in
  // list order made the phase 0.52 s instead of 0.42-0.45 s on W3 10^6).
  ArrayRef<Operation *> run = ops.slice(plan.start, size_t(k) * p);
  std::vector<Operation *> dead;
  dead.reserve(2 * run.size());
  SmallVector<Operation *, 4> constants;
  for (int i = int(k * p) - 1; i >= 0; --i) {
    prefetchAhead(run, i, -1);
    Operation *op = run[i];
    constants.clear();
    canonical::forEachOperandDeep(op, [&](Value v) {
      if (Operation *def = v.getDefiningOp();
          def && isConstant(def) && !llvm::is_contained(constants, def))
        constants.push_back(def);
    });
    op->dropAllReferences();
    op->dropAllUses();
    op->remove();
    dead.push_back(op);
    for (Operation *c : constants)
      if (c->use_empty()) {
        c->remove();
        dead.push_back(c);
      }
  }
  llvm::sort(dead);
  for (Operation *op : dead)
    op->destroy();
}

} // namespace qshape::roll
