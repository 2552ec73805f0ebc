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

/// The one statement of a deep rule: `self` is the op's own answer, and
/// `nestedYes` says whether an op at any depth inside it answers Yes (asked
/// only when the op's regions decide).
static bool decide(Inherent self, function_ref<bool()> nestedYes) {
  return self == Inherent::Yes || (self == Inherent::Body && nestedYes());
}

bool decideDeep(Operation *op, function_ref<Inherent(Operation *)> inherent) {
  // An op at any depth decides: one walk, each op asked about itself only.
  return decide(inherent(op), [&] {
    return anyNestedOp(op, [&](Operation *x) { return inherent(x) == Inherent::Yes; });
  });
}

/// isBarrier without looking into the op's regions (see decideDeep).
static Inherent barrierOf(Operation *op) {
  if (const QuantumOpInfo *info = lookupQuantumOp(op))
    return info->effect == OpEffect::WholeDevice  ? Inherent::Yes
           : info->effect == OpEffect::FromRegion ? Inherent::Body
                                                  : Inherent::No;
  if (classify(op) == QOpKind::OtherQuantum || !op->isRegistered())
    return Inherent::Yes;
  if (op->hasTrait<OpTrait::IsTerminator>())
    return Inherent::No; // stays last anyway
  bool recursive = op->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
  if (auto iface = dyn_cast<MemoryEffectOpInterface>(op)) {
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (const MemoryEffects::EffectInstance &e : effects)
      if (!isa<MemoryEffects::Read, MemoryEffects::Allocate>(e.getEffect()))
        return Inherent::Yes; // a write or a free
  } else if (!recursive) {
    return Inherent::Yes; // effects unknown (a call, an op without the interface)
  }
  return recursive ? Inherent::Body : Inherent::No;
}

bool isBarrier(Operation *op) { return decideDeep(op, barrierOf); }

/// A quantum op, or an op ordered by itself.
static bool pinnedItself(Operation *x) {
  return classify(x) != QOpKind::NotQuantum || isQRefOp(x) || orderOf(x) == Inherent::Yes;
}

/// isPinnedByBarriers, given how to answer isOrdered and "an op nested in
/// it is pinned by itself".
static bool decidePinned(Operation *op, function_ref<bool(Operation *)> ordered,
                         function_ref<bool(Operation *)> pinnedInside) {
  return classify(op) != QOpKind::NotQuantum || isQRefOp(op) || ordered(op) || pinnedInside(op);
}

bool isPinnedByBarriers(Operation *op) {
  return decidePinned(op, isOrdered, [](Operation *x) {
    return x->getNumRegions() && anyNestedOp(x, pinnedItself);
  });
}

bool NestedRule::operator()(Operation *op) {
  if (!op->getNumRegions())
    return false;
  if (auto it = memo.find(op); it != memo.end())
    return it->second;
  bool any = scan(op);
  memo[op] = any; // (the recursion may have grown the map)
  return any;
}

bool NestedRule::scan(Operation *op) {
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &inner : block)
        if (pred(&inner) || (*this)(&inner))
          return true;
  return false;
}

static auto yesOf(Inherent (*inherent)(Operation *)) {
  return [inherent](Operation *x) { return inherent(x) == Inherent::Yes; };
}

DeepFacts::DeepFacts()
    : orderedInside(yesOf(orderOf)), barrierInside(yesOf(barrierOf)), pinnedInside(pinnedItself) {}

/// decideDeep, with `inside` for the nested ops.
static bool decideWith(Operation *op, Inherent (*inherent)(Operation *), NestedRule &inside) {
  return decide(inherent(op), [&] { return inside(op); });
}

bool DeepFacts::isOrdered(Operation *op) { return decideWith(op, orderOf, orderedInside); }

bool DeepFacts::isBarrier(Operation *op) { return decideWith(op, barrierOf, barrierInside); }

bool DeepFacts::isPinnedByBarriers(Operation *op) {
  return decidePinned(
      op, [this](Operation *x) { return isOrdered(x); },
      [this](Operation *x) { return pinnedInside(x); });
}

void DeepFacts::clear() {
  orderedInside.clear();
  barrierInside.clear();
  pinnedInside.clear();
}

} // namespace qshape
