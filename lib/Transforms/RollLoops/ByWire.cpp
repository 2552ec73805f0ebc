//===- ByWire.cpp - qshape-roll-loops: register-addressed runs ------------===//
//
// RunAnalyzer::classifyByWire. In StronglyEntanglingLayers the CNOT from
// wire i hits wire (i + r) mod n, with r changing per layer, so the gate of
// one layer that leaves a wire's qubit for the next is another body op in
// each copy: no iter_arg per body position can carry it. The register can:
// the loop carries it, each gate reads its qubits at their wires and writes
// them back there, and the wires of each slot are an affine expression or a
// table of the copy number. The replay check proves every read.
//
//===----------------------------------------------------------------------===//

#include "RunAnalyzer.h"

#include "qshape/GateView/GateView.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace qshape::roll {

bool RunAnalyzer::byWireBodyOp(unsigned j, SmallVectorImpl<bool> &qubitSlots) {
  Operation *op = at(0, j);
  qubitSlots.assign(op->getNumOperands(), false);
  if (op->getNumRegions() || RegisterAccess::get(op))
    return false;
  std::optional<GateView> gate = GateView::get(op);
  if (!qubitType) // parsed once: qshape's, Catalyst's or an opaque type
    qubitType = getQubitType(op->getContext());
  unsigned carried = 0;
  for (unsigned m = 0; m < op->getNumOperands(); ++m) {
    Value v = op->getOperand(m);
    if (v.getType() != qubitType) {
      if (isQuantumType(v.getType()))
        return false; // a register or an observable
      continue;
    }
    if (!gate || !gate->getOutFor(m))
      return false;
    qubitSlots[m] = true;
    ++carried;
  }
  // Every quantum result carries a qubit operand through the gate.
  unsigned quantumResults = llvm::count_if(op->getResultTypes(), isQuantumType);
  return quantumResults == carried;
}

std::optional<int64_t> RunAnalyzer::wireOfQubit(Value v, unsigned near, Value &reg) {
  if (auto it = wireOfValue.find(v); it != wireOfValue.end())
    return it->second;
  // Not made by an earlier op of the run: extracted before it, at a static
  // wire of the one register, and not before a barrier.
  Operation *def = v.getDefiningOp();
  std::optional<RegisterAccess> a = def ? RegisterAccess::get(def) : std::nullopt;
  if (!a || a->isInsert || !a->staticIdx || inRun(v, near) || inRun(a->reg, near) ||
      (reg && a->reg != reg) ||
      (segments && segments->ofExtract.lookup(def) != segments->ofOp[start]))
    return std::nullopt;
  reg = a->reg;
  return a->staticIdx;
}

bool RunAnalyzer::scanCopyByWire(unsigned c, unsigned j, ArrayRef<bool> qubitSlots,
                                 MutableArrayRef<OperandScan> scans, Value &reg) {
  unsigned i = posOf(c, j);
  prefetchAhead(ops, i);
  Operation *o = ops[i];
  if (c > 0 && !sameOpShape(at(0, j), o))
    return false;
  std::optional<GateView> gate = GateView::get(o);
  for (unsigned m = 0; m < o->getNumOperands(); ++m) {
    Value v = o->getOperand(m);
    OperandScan &scan = scans[m];
    if (!qubitSlots[m]) {
      if (!scanOperand(scan, c, j, v))
        return false;
      continue;
    }
    bool fromBefore = !wireOfValue.count(v);
    std::optional<int64_t> wire = wireOfQubit(v, i, reg);
    if (!wire)
      return false;
    scan.wires.push_back(*wire);
    if (fromBefore) // its extract dies with the run (loopOverhead)
      scan.vals.push_back(v);
    wireOfValue[gate->getOutFor(m)] = *wire;
  }
  return true;
}

LogicalResult RunAnalyzer::planUsesAfterRunByWire(RunPlan &plan) {
  Block *block = ops[start]->getBlock();
  // The loop writes every qubit back into the register, where the uses after
  // the run read it: as if their inserts moved into the loop, which must not
  // take them across a barrier. So every use, of a qubit or of the register,
  // stands before the next barrier.
  auto beforeBarrier = [&](std::optional<unsigned> pos) {
    return !segments || (pos && segments->ofOp[*pos] == segments->ofOp[start]);
  };
  for (Operation *user : plan.writeBackReg.getUsers()) {
    Operation *anc = user->getBlock() == block ? user : block->findAncestorOpInBlock(*user);
    std::optional<RegisterAccess> a = anc ? RegisterAccess::get(anc) : std::nullopt;
    if (anc && !(a && !a->isInsert) && !beforeBarrier(positionOf(anc, end)))
      return failure();
  }
  DenseSet<Value> reread;
  for (unsigned c = 0; c < copies; ++c) {
    work += period;
    for (unsigned j = 0; j < period; ++j)
      for (OpResult r : at(c, j)->getResults())
        for (Operation *user : r.getUsers()) {
          Operation *anc = user->getBlock() == block ? user : block->findAncestorOpInBlock(*user);
          std::optional<unsigned> pos = anc ? positionOf(anc, posOf(c, j)) : std::nullopt;
          if (pos && *pos >= start && *pos < end)
            continue;
          // Only qubits leave the loop: re-read from its register.
          auto wire = wireOfValue.find(r);
          if (wire == wireOfValue.end() || !beforeBarrier(pos))
            return failure();
          if (reread.insert(r).second)
            plan.externalized.push_back({c, j, r.getResultNumber(), wire->second});
        }
  }
  return success();
}

Verdict RunAnalyzer::classifyByWire(unsigned s, unsigned p, unsigned k, RunPlan &plan) {
  beginRun(s, p, k, plan);
  plan.byWire = true;
  plan.bodyOps = p;
  wireOfValue.clear();
  SmallVector<SmallVector<bool>> qubitSlots(p);
  SmallVector<unsigned> firstScan(p + 1, 0);
  for (unsigned j = 0; j < p; ++j) {
    if (!byWireBodyOp(j, qubitSlots[j]))
      return refuse(Reject::Operands, 0);
    firstScan[j + 1] = firstScan[j] + qubitSlots[j].size();
  }
  std::vector<OperandScan> scans(firstScan[p]);
  Value reg;
  for (unsigned c = 0; c < k; ++c) {
    work += p;
    // Only qubits leave the loop (planUsesAfterRunByWire).
    if (classicalUseAfter(c) != ~0u)
      return refuse(Reject::Operands, c);
    for (unsigned j = 0; j < p; ++j)
      if (!scanCopyByWire(c, j, qubitSlots[j],
                          MutableArrayRef<OperandScan>(scans).drop_front(firstScan[j]), reg))
        return refuse(Reject::Operands, c);
  }
  if (!reg) // no qubit at all: classify() covers it
    return refuse(Reject::Operands, 0);
  unsigned supported = k;
  for (unsigned j = 0; j < p; ++j)
    for (unsigned m = 0; m < qubitSlots[j].size(); ++m) {
      OperandScan &scan = scans[firstScan[j] + m];
      if (qubitSlots[j][m]) { // a wire read of the carried register
        scan.reg = reg;
        scan.allEqual = false;
      }
      OperandPlan op;
      supported = std::min(supported, finishOperand(scan, op));
      plan.operands[j].push_back(std::move(op));
    }
  if (supported < k)
    return refuse(Reject::Operands, supported);
  plan.writeBackReg = reg; // set first: the uses after the run read it
  CarriedInits carried;
  if (failed(collectCarriedInits(plan, carried)) || failed(planUsesAfterRunByWire(plan)) ||
      failed(carryRegister(plan)))
    return refuse(Reject::Operands, k, /*late=*/true);
  plan.overhead = loopOverhead(plan);
  Verdict verdict;
  verdict.copiesOk = k;
  return verdict;
}

} // namespace qshape::roll
