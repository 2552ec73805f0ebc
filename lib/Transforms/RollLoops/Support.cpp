//===- Support.cpp - qshape-roll-loops: shared predicates and helpers -----===//

#include "Support.h"

#include "qshape/Fingerprint/CanonicalForm.h"
#include "qshape/GateView/GateView.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace qshape::roll {

bool isConstant(Operation *op) { return canonical::isConstantOp(op); }

Attribute constantValue(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || def->getNumOperands() != 0)
    return {};
  if (auto c = dyn_cast<arith::ConstantOp>(def))
    return c.getValue();
  Attribute a;
  matchPattern(v, m_Constant(&a));
  return a;
}

bool isFloatingPure(Operation *op) {
  // The cheap test first: isMergeable asks the op for its memory effects.
  return !canonical::isConstantOp(op) && canonical::isMergeable(op);
}

bool sameOpShape(Operation *a, Operation *b) {
  if (a->getName() != b->getName() || a->getResultTypes() != b->getResultTypes() ||
      a->getNumOperands() != b->getNumOperands() || a->getNumRegions() != b->getNumRegions() ||
      a->getRawDictionaryAttrs() != b->getRawDictionaryAttrs())
    return false;
  return !a->getPropertiesStorage() ||
         a->getName().compareOpProperties(a->getPropertiesStorage(), b->getPropertiesStorage());
}

/// An op nested in a loop or branch that a loop body may not hold. Ordered
/// quantum ops (a global phase, a measurement) keep their order, since the
/// copies run in order; a registered op with recursive effects is decided
/// by what it holds.
static bool unfitInLoop(Operation *inner, DeepFacts &deep) {
  if (inner->hasTrait<OpTrait::IsTerminator>())
    return false;
  if (inner->getNumRegions() && inner->isRegistered() &&
      inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return false;
  QOpKind k = classify(inner);
  return !(k == QOpKind::GlobalPhase || k == QOpKind::Measure ||
           (inner->isRegistered() && !deep.isOrdered(inner)));
}

RollFacts::RollFacts() : unfitInside([this](Operation *x) { return unfitInLoop(x, deep); }) {}

bool RollFacts::isRollable(Operation *op) {
  if (op->hasTrait<OpTrait::IsTerminator>())
    return false;
  QOpKind kind = classify(op);
  if (kind == QOpKind::GlobalPhase || kind == QOpKind::Measure)
    return true;
  if (kind != QOpKind::NotQuantum)
    return !deep.isOrdered(op);
  if (!op->isRegistered())
    return false; // never move or duplicate what we do not understand
  if (!deep.isOrdered(op))
    return true;
  // A loop (or branch) whose effects are its body's, and whose body holds
  // only what a loop body may hold.
  if (!op->getNumRegions() || !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return false;
  return !unfitInside(op);
}

void RollFacts::clear() {
  deep.clear();
  unfitInside.clear();
}

SmallVector<Value> capturedValues(Operation *op, int64_t *nested) {
  SmallVector<Value> captured;
  if (nested)
    *nested = 0;
  if (!op->getNumRegions())
    return captured;
  llvm::SmallDenseSet<Value, 16> seen;
  op->walk<WalkOrder::PreOrder>([&](Operation *inner) {
    if (inner == op)
      return;
    if (nested)
      ++*nested;
    for (Value v : inner->getOperands()) {
      // Defined inside: in one of op's regions or nested deeper.
      Region *defRegion = v.getParentRegion();
      if (defRegion && op->isAncestor(defRegion->getParentOp()))
        continue;
      if (seen.insert(v).second)
        captured.push_back(v);
    }
  });
  return captured;
}

void prefetchAhead(ArrayRef<Operation *> ops, size_t i, int step) {
  auto at = [&](int64_t k) -> Operation * {
    int64_t j = int64_t(i) + k * step;
    return j >= 0 && j < int64_t(ops.size()) ? ops[j] : nullptr;
  };
  if (Operation *far = at(2 * int64_t(kAhead)))
    __builtin_prefetch(far);
  if (Operation *near = at(kAhead))
    for (OpOperand &operand : near->getOpOperands())
      __builtin_prefetch(operand.get().getAsOpaquePointer());
}

void OpPositions::assign(ArrayRef<Operation *> ops) {
  size_t capacity = llvm::NextPowerOf2(2 * ops.size() + 1);
  shift = 64 - llvm::Log2_64(capacity);
  slots.assign(capacity, {nullptr, 0});
  for (size_t i = 0; i < ops.size(); ++i) {
    if (i + kAhead < ops.size())
      __builtin_prefetch(&slots[slotOf(ops[i + kAhead])]);
    size_t h = slotOf(ops[i]);
    while (slots[h].first)
      h = (h + 1) & (capacity - 1);
    slots[h] = {ops[i], unsigned(i)};
  }
}

} // namespace qshape::roll
