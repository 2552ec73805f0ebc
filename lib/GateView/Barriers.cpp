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

bool decideDeep(Operation *op, function_ref<Inherent(Operation *)> inherent) {
  switch (inherent(op)) {
  case Inherent::Yes:
    return true;
  case Inherent::No:
    return false;
  case Inherent::Body:
    // An op at any depth decides: one walk, each op asked about itself only.
    return anyNestedOp(op, [&](Operation *x) { return inherent(x) == Inherent::Yes; });
  }
  return true;
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

bool isPinnedByBarriers(Operation *op) {
  return classify(op) != QOpKind::NotQuantum || isQRefOp(op) || isOrdered(op) ||
         (op->getNumRegions() && anyNestedOp(op, pinnedItself));
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
  Inherent self = inherent(op);
  return self == Inherent::Yes || (self == Inherent::Body && inside(op));
}

bool DeepFacts::isOrdered(Operation *op) { return decideWith(op, orderOf, orderedInside); }

bool DeepFacts::isBarrier(Operation *op) { return decideWith(op, barrierOf, barrierInside); }

bool DeepFacts::isPinnedByBarriers(Operation *op) {
  return classify(op) != QOpKind::NotQuantum || isQRefOp(op) || isOrdered(op) || pinnedInside(op);
}

void DeepFacts::clear() {
  orderedInside.clear();
  barrierInside.clear();
  pinnedInside.clear();
}

} // namespace qshape
