//===- Barriers.cpp - ops nothing moves across ----------------------------===//
//
// The rule is documented where passes find it: Barriers.h.
//
//===----------------------------------------------------------------------===//

#include "qshape/GateView/Barriers.h"

#include "qshape/GateView/GateView.h"

#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace qshape {

bool anyNestedOp(Operation *op, function_ref<bool(Operation *)> pred) {
  WalkResult r = op->walk([&](Operation *inner) {
    if (inner != op && pred(inner))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return r.wasInterrupted();
}

bool isBarrier(Operation *op) {
  if (const QuantumOpInfo *info = lookupQuantumOp(op))
    return info->effect == OpEffect::WholeDevice ||
           (info->effect == OpEffect::FromRegion && anyNestedOp(op, isBarrier));
  if (classify(op) == QOpKind::OtherQuantum || !op->isRegistered())
    return true;
  if (op->hasTrait<OpTrait::IsTerminator>())
    return false; // stays last anyway
  bool recursive = op->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
  if (auto iface = dyn_cast<MemoryEffectOpInterface>(op)) {
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (const MemoryEffects::EffectInstance &e : effects)
      if (!isa<MemoryEffects::Read, MemoryEffects::Allocate>(e.getEffect()))
        return true; // a write or a free
  } else if (!recursive) {
    return true; // effects unknown (a call, an op without the interface)
  }
  return recursive && anyNestedOp(op, isBarrier);
}

bool isPinnedByBarriers(Operation *op) {
  auto pinned = [](Operation *x) { return classify(x) != QOpKind::NotQuantum || isOrdered(x); };
  return pinned(op) || (op->getNumRegions() && anyNestedOp(op, pinned));
}

} // namespace qshape
