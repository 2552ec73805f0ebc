//===- GivenOrder.cpp - qshape-roll-loops: when to roll in the given order ===//

#include "GivenOrder.h"

#include "Support.h"

#include "qshape/GateView/GateView.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"

using namespace mlir;

namespace qshape::roll {

/// A gate's token with its wires and angles left out: its op, its gate
/// name, adjointness and operand and result counts.
static uint64_t gateToken(const GateView &g) {
  Operation *op = g.getOperation();
  return llvm::hash_combine(op->getName().getAsOpaquePointer(), g.getGateName(), g.isAdjoint(),
                            op->getNumOperands(), op->getNumResults());
}

/// The constant each copy of a table reads, compared by value.
static Attribute constantIn(Value v) {
  Attribute a;
  matchPattern(v, m_Constant(&a));
  return a;
}

/// 1 when table `b` holds in each copy what `a` holds in the next, 0 when
/// the tables are equal, -1 otherwise.
static int tableShift(const OperandPlan &a, const OperandPlan &b) {
  size_t n = a.perCopy.size();
  if (n != b.perCopy.size() || n < 2)
    return -1;
  bool equal = true, next = true;
  for (size_t c = 0; c < n && (equal || next); ++c) {
    Attribute x = constantIn(a.perCopy[c]), y = constantIn(b.perCopy[c]);
    if (!x || !y)
      return -1; // not a table of constants: nothing to compare
    equal &= x == y;
    next &= c + 1 == n || y == constantIn(a.perCopy[c + 1]);
  }
  return equal ? 0 : next ? 1 : -1;
}

/// Compares the data two body ops read, slot by slot, through the values
/// the body recomputes: `shifted` counts the affine slots where b's base is
/// one stride past a's, or tables where b holds in each copy what a holds in
/// the next. Values that flow through the body (qubits, gathers) are not
/// compared.
static bool sameDataButShifts(llvm::ArrayRef<OperandPlan> a, llvm::ArrayRef<OperandPlan> b,
                              unsigned &shifted) {
  if (a.size() != b.size())
    return false;
  auto isData = [](const OperandPlan &p) {
    return p.kind != OperandPlan::Internal && p.kind != OperandPlan::Carried &&
           p.kind != OperandPlan::WireRead && p.kind != OperandPlan::Gather;
  };
  for (auto [x, y] : llvm::zip(a, b)) {
    if (!isData(x) || !isData(y))
      continue;
    if (x.kind != y.kind)
      return false;
    switch (x.kind) {
    case OperandPlan::Invariant:
      if (x.invariant != y.invariant)
        return false;
      break;
    case OperandPlan::AffineInt:
      if (x.stride != y.stride || (x.base != y.base && y.base - x.base != x.stride))
        return false;
      shifted += x.stride != 0 && x.base != y.base;
      break;
    case OperandPlan::IntTable:
    case OperandPlan::FloatTable: {
      int shift = tableShift(x, y);
      if (shift < 0)
        return false;
      shifted += shift;
      break;
    }
    case OperandPlan::Recompute:
      if (x.recipe->getName() != y.recipe->getName() ||
          !sameDataButShifts(x.parts, y.parts, shifted))
        return false;
      break;
    default:
      break;
    }
  }
  return true;
}

static bool readsNextIteration(llvm::ArrayRef<OperandPlan> a, llvm::ArrayRef<OperandPlan> b) {
  unsigned shifted = 0;
  return sameDataButShifts(a, b, shifted) && shifted;
}

bool straddlesIterations(const RunPlan &plan, llvm::ArrayRef<mlir::Operation *> ops) {
  // Each op is compared with the last few alike before it: the same gate of
  // the next layer is at most a layer's worth of its kind away, and a body
  // of thousands of gates of one kind must not cost their square.
  constexpr size_t kWindow = 16;
  llvm::DenseMap<OperationName, llvm::SmallVector<unsigned, 4>> byName;
  for (unsigned j = 0; j < plan.period; ++j) {
    Operation *op = ops[plan.start + j];
    if (op->getNumRegions() || op->getNumOperands() == 0)
      continue;
    llvm::SmallVector<unsigned, 4> &named = byName[op->getName()];
    for (unsigned k : llvm::ArrayRef(named).take_back(kWindow))
      if (sameOpShape(ops[plan.start + k], op) &&
          (readsNextIteration(plan.operands[k], plan.operands[j]) ||
           readsNextIteration(plan.operands[j], plan.operands[k])))
        return true;
    named.push_back(j);
  }
  return false;
}

/// The gates directly in the body of the largest loop the canonical order
/// made at the top of `rolled` (0 when there is none).
static unsigned largestRolledBody(Operation *rolled) {
  unsigned most = 0;
  for (Region &region : rolled->getRegions())
    for (Block &block : region)
      for (Operation &op : block) {
        if (!isa<scf::ForOp>(op) || !op.hasAttr(kRolledMarker))
          continue;
        unsigned gates = 0;
        for (Operation &inner : cast<scf::ForOp>(op).getBody()->getOperations())
          gates += GateView::get(&inner).has_value();
        most = std::max(most, gates);
      }
  return most;
}

unsigned gatesLeftUnrolled(Operation *rolled) {
  unsigned left = 0;
  rolled->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<scf::ForOp>(op) && op->hasAttr(kRolledMarker))
      return WalkResult::skip();
    left += GateView::get(op).has_value();
    return WalkResult::advance();
  });
  return left;
}

bool givenOrderRepeatsFiner(Operation *func, Operation *rolled) {
  unsigned body = largestRolledBody(rolled);
  if (body < 2)
    return false;
  llvm::SmallVector<uint64_t> gates;
  for (Region &region : func->getRegions())
    for (Block &block : region)
      for (Operation &op : block)
        if (std::optional<GateView> g = GateView::get(&op))
          gates.push_back(gateToken(*g));
  // Only the places where the gate changes are compared: a period must
  // carry each change to the same change. (Inside a long run of one gate,
  // a layer of Hadamards, every shift matches.)
  llvm::SmallVector<size_t> changes;
  for (size_t i = 0; i + 1 < gates.size(); ++i)
    if (gates[i] != gates[i + 1])
      changes.push_back(i);
  for (unsigned p = 1; p < body; ++p) {
    if (body % p)
      continue;
    size_t same = 0, compared = 0;
    for (size_t i : changes) {
      if (i + p + 1 >= gates.size())
        break;
      ++compared;
      same += gates[i] == gates[i + p] && gates[i + 1] == gates[i + p + 1];
    }
    if (compared >= 4 && 10 * same >= 9 * compared)
      return true;
  }
  return false;
}

} // namespace qshape::roll
