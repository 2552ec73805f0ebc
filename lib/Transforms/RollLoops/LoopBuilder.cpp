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

Value LoopBuilder::constantTable(OpBuilder &b, Location loc, const OperandPlan &op) {
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
    table = arith::ConstantOp::create(b, loc, cast<TypedAttr>(contents));
  return table;
}

scf::ForOp LoopBuilder::build() {
  Operation *first = at(0, 0);
  Location loc = first->getLoc();
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
  for (unsigned j = 0; j < p; ++j)
    for (OperandPlan &op : plan.operands[j]) {
      if (op.kind == OperandPlan::Carried || op.kind == OperandPlan::Invariant)
        hoist(op.invariant);
      if (op.kind == OperandPlan::Gather)
        for (Value v : op.perCopy)
          hoist(v);
      if (op.kind == OperandPlan::Recompute)
        for (OperandPlan &part : op.parts)
          if (part.kind == OperandPlan::Invariant)
            hoist(part.invariant);
      if (op.kind == OperandPlan::WireRead)
        hoist(op.reg);
    }
  if (plan.writeBackReg)
    hoist(plan.writeBackReg);
  OpBuilder b(first);

  // Tables live before the loop.
  DenseMap<std::pair<unsigned, unsigned>, Value> tables; // (j, m) -> tensor
  for (unsigned j = 0; j < p; ++j)
    for (unsigned m = 0; m < plan.operands[j].size(); ++m) {
      OperandPlan &op = plan.operands[j][m];
      Type type = op.perCopy[0].getType();
      auto tensorType = RankedTensorType::get({int64_t(k)}, type);
      if (op.kind == OperandPlan::IntTable || op.kind == OperandPlan::FloatTable) {
        tables[{j, m}] = constantTable(b, loc, op);
      } else if (op.kind == OperandPlan::Recompute) {
        for (OperandPlan &part : op.parts)
          if (part.kind != OperandPlan::Invariant)
            (void)constantTable(b, loc, part);
      } else if (op.kind == OperandPlan::Gather) {
        tables[{j, m}] = tensor::FromElementsOp::create(b, loc, tensorType, op.perCopy);
      }
    }
  for (unsigned j = 0; j < p; ++j)
    for (unsigned m = 0; m < plan.operands[j].size(); ++m) {
      OperandPlan &op = plan.operands[j][m];
      if (op.kind == OperandPlan::WireRead && op.base < 0) {
        auto tensorType = RankedTensorType::get({int64_t(k)}, b.getI64Type());
        tables[{j, m}] = arith::ConstantOp::create(
            b, loc, DenseElementsAttr::get(tensorType, ArrayRef<int64_t>(op.wires)));
      }
    }
  DenseMap<unsigned, Value> indexTables; // j -> tensor<kxi64>
  for (unsigned j = 0; j < p; ++j) {
    IndexPlan &ip = plan.indices[j];
    if (ip.varies && !ip.affine) {
      auto tensorType = RankedTensorType::get({int64_t(k)}, b.getI64Type());
      indexTables[j] = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(tensorType, ArrayRef<int64_t>(ip.values)));
    }
  }

  // Carried values: one iter_arg per (producer j, result #), in body order.
  SmallVector<std::pair<unsigned, unsigned>> carriedKeys;
  SmallVector<Value> inits;
  for (unsigned j = 0; j < p; ++j)
    for (OperandPlan &op : plan.operands[j])
      if (op.kind == OperandPlan::Carried) {
        auto key = std::make_pair(op.defOp, op.defResult);
        if (!llvm::is_contained(carriedKeys, key)) {
          carriedKeys.push_back(key);
          inits.push_back(op.invariant);
        }
      }

  // A register the loop carries only for the qubits it writes back.
  constexpr std::pair<unsigned, unsigned> kWriteBackCarry{~0u, ~0u};
  if (plan.newCarry) {
    carriedKeys.push_back(kWriteBackCarry);
    inits.push_back(plan.writeBackReg);
  }
  DenseMap<unsigned, Value> writeBackTables; // write-back # -> tensor<kxi64>
  for (auto [w, wb] : llvm::enumerate(plan.writeBacks))
    if (!wb.affine) {
      auto tensorType = RankedTensorType::get({int64_t(k)}, b.getI64Type());
      writeBackTables[w] = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(tensorType, ArrayRef<int64_t>(wb.wires)));
    }
  Value lb = arith::ConstantIndexOp::create(b, loc, 0);
  Value ub = arith::ConstantIndexOp::create(b, loc, k);
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  // The empty body builder keeps scf.for from adding its own terminator to
  // a loop that carries nothing (a run of gphase ops): the yield is ours.
  auto forOp = scf::ForOp::create(b, loc, lb, ub, step, inits,
                                  [](OpBuilder &, Location, Value, ValueRange) {});
  Block *body = forOp.getBody();
  OpBuilder bb = OpBuilder::atBlockBegin(body);
  Value iv = forOp.getInductionVar();

  // Wires read before the run are read inside the loop from the register
  // live at that point (linear use, as Catalyst emits and expects): the
  // carried register of the same chain, or what this copy's inserts made
  // of it so far. Reading it there gives the qubit the unrolled copy read
  // from the older register, since the canonical form only reads past an
  // insert at another wire.
  DenseMap<Value, Value> liveReg; // register read before the run -> live value
  auto liveRegisterFor = [&](Value reg) -> Value {
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
  };

  SmallVector<Operation *> clones(p, nullptr);
  for (unsigned j = 0; j < p; ++j) {
    Operation *orig = at(0, j);
    IRMapping map;
    // Operands, then the values the regions capture (the analyzer's order).
    SmallVector<Value> slots(orig->getOperands());
    if (orig->getNumRegions())
      slots.append(capturedValues(orig));
    for (unsigned m = 0; m < slots.size(); ++m) {
      OperandPlan &op = plan.operands[j][m];
      Value v;
      switch (op.kind) {
      case OperandPlan::Internal:
        v = clones[op.defOp]->getResult(op.defResult);
        break;
      case OperandPlan::Carried: {
        unsigned idx =
            llvm::find(carriedKeys, std::make_pair(op.defOp, op.defResult)) - carriedKeys.begin();
        v = forOp.getRegionIterArgs()[idx];
        break;
      }
      case OperandPlan::Invariant:
        v = op.invariant;
        break;
      case OperandPlan::AffineInt:
        v = indexValue(bb, loc, iv, op.perCopy[0].getType(), op.base, op.stride);
        break;
      case OperandPlan::IntTable:
      case OperandPlan::FloatTable:
      case OperandPlan::Gather:
        v = tableValue(bb, loc, iv, tables[{j, m}]);
        break;
      case OperandPlan::Recompute: {
        // The table of each varying operand exists already (by contents).
        IRMapping args;
        for (auto [x, part] : llvm::enumerate(op.parts))
          args.map(op.recipe->getOperand(x),
                   part.kind == OperandPlan::Invariant
                       ? part.invariant
                       : tableValue(bb, loc, iv, constantTable(b, loc, part)));
        v = bb.clone(*op.recipe, args)->getResult(0);
        break;
      }
      case OperandPlan::WireRead: {
        Value idx = op.base >= 0 ? indexValue(bb, loc, iv, bb.getI64Type(), op.base, op.stride)
                                 : tableValue(bb, loc, iv, tables[{j, m}]);
        v = buildExtract(bb, orig->getLoc(), liveRegisterFor(op.reg), IndexSpec::ofDynamic(idx))
                ->getResult(0);
        break;
      }
      }
      map.map(slots[m], v);
    }
    IndexPlan &ip = plan.indices[j];
    Operation *clone;
    if (ip.varies) {
      Value idx = ip.affine ? indexValue(bb, loc, iv, bb.getI64Type(), ip.base, ip.stride)
                            : tableValue(bb, loc, iv, indexTables[j]);
      std::optional<RegisterAccess> a = RegisterAccess::get(orig);
      Value reg = map.lookup(a->reg);
      clone = a->isInsert ? buildInsert(bb, orig->getLoc(), reg, IndexSpec::ofDynamic(idx),
                                        map.lookup(a->qubit))
                          : buildExtract(bb, orig->getLoc(), reg, IndexSpec::ofDynamic(idx));
      // Keep any other attributes the op carried.
      for (NamedAttribute na : orig->getDiscardableAttrs())
        clone->setAttr(na.getName(), na.getValue());
    } else {
      clone = bb.clone(*orig, map);
    }
    clones[j] = clone;
    // An insert into the live register makes its result the live one.
    if (std::optional<RegisterAccess> a = RegisterAccess::get(clone); a && a->isInsert)
      for (auto &[read, live] : liveReg)
        if (live == a->reg)
          live = a->result;
  }
  // Write-backs: at the end of the copy, into the live register of their
  // chain, which is then what the loop carries on.
  std::optional<unsigned> chain;
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
      Value idx =
          wb.affine
              ? indexValue(bb, loc, iv, bb.getI64Type(), wb.wires[0],
                           k > 1 ? wb.wires[1] - wb.wires[0] : 0)
              : tableValue(bb, loc, iv, writeBackTables[w]);
      live = buildInsert(bb, loc, live, IndexSpec::ofDynamic(idx), clones[wb.j]->getResult(wb.result))
                 ->getResult(0);
    }
    liveReg[plan.writeBackReg] = live;
  }
  SmallVector<Value> yields;
  for (auto [a, key] : llvm::enumerate(carriedKeys)) {
    if (chain && a == *chain) {
      yields.push_back(liveReg[plan.writeBackReg]);
      continue;
    }
    yields.push_back(clones[key.first]->getResult(key.second));
  }
  scf::YieldOp::create(bb, loc, yields);
  forOp->setAttr(kRolledMarker, UnitAttr::get(forOp->getContext()));

  // Uses after the run.
  OpBuilder after(forOp->getContext());
  after.setInsertionPointAfter(forOp);
  for (auto [j, res] : plan.liveOut) {
    unsigned idx = llvm::find(carriedKeys, std::make_pair(j, res)) - carriedKeys.begin();
    at(k - 1, j)->getResult(res).replaceAllUsesWith(forOp.getResult(idx));
  }
  if (plan.newCarry) {
    // What consumed the register after the run takes the loop's.
    Value result = forOp.getResult(*chain);
    Block *block = forOp->getBlock();
    plan.writeBackReg.replaceUsesWithIf(result, [&](OpOperand &use) {
      Operation *anc = block->findAncestorOpInBlock(*use.getOwner());
      return anc && anc != forOp && forOp->isBeforeInBlock(anc);
    });
  }
  if (!plan.externalized.empty()) {
    Value finalReg;
    if (chain)
      finalReg = forOp.getResult(*chain);
    else
      for (auto [j, res] : plan.liveOut)
        if (classify(at(k - 1, j)) == QOpKind::Insert) {
          unsigned idx = llvm::find(carriedKeys, std::make_pair(j, res)) - carriedKeys.begin();
          finalReg = forOp.getResult(idx);
        }
    for (auto &e : plan.externalized) {
      Operation *ext = buildExtract(after, loc, finalReg, IndexSpec::ofStatic(e.wire));
      at(e.copy, e.j)->getResult(e.result).replaceAllUsesWith(ext->getResult(0));
    }
  }
  // The run is dead now, with each constant whose last use it was (angles
  // now in a table), which the canonical form would otherwise erase after
  // rebuilding its view of them all. Ops leave the block last op first
  // (their neighbours in the list are the ops just visited); then they are
  // freed in address order, which the allocator handles faster (freeing in
  // list order made the phase 0.52 s instead of 0.42-0.45 s on W3 10^6).
  ArrayRef<Operation *> run = ops.slice(plan.start, k * p);
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
  return forOp;
}

} // namespace qshape::roll
