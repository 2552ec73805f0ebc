//===- Support.cpp - qshape-roll-loops: shared predicates and helpers -----===//

#include "Support.h"

#include "qshape/Fingerprint/CanonicalForm.h"
#include "qshape/GateView/GateView.h"

#include "mlir/IR/OpDefinition.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace qshape::roll {

bool isConstant(Operation *op) { return canonical::isConstantOp(op); }

bool isFloatingPure(Operation *op) {
  // The cheap test first: isMergeable asks the op for its memory effects.
  return !canonical::isConstantOp(op) && canonical::isMergeable(op);
}

bool isRollable(Operation *op) {
  if (op->hasTrait<OpTrait::IsTerminator>())
    return false;
  QOpKind kind = classify(op);
  if (kind == QOpKind::GlobalPhase || kind == QOpKind::Measure)
    return true;
  if (kind != QOpKind::NotQuantum)
    return !isOrdered(op);
  if (!op->isRegistered())
    return false; // never move or duplicate what we do not understand
  return !isOrdered(op);
}

void prefetchAhead(ArrayRef<Operation *> ops, size_t i, int step) {
  auto at = [&](int64_t k) -> Operation * {
    int64_t j = int64_t(i) + k * step;
    return j >= 0 && j < int64_t(ops.size()) ? ops[j] : nullptr;
  };
  if (Operation *far = at(2 * kAhead))
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
