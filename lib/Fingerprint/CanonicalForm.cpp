//===- CanonicalForm.cpp - qshape's normal form of quantum modules --------===//
//
// The rules' predicates on the IR, and canonicalize(): the canonical view
// (CanonicalView.h) built, canonicalized and written back.
//
//===----------------------------------------------------------------------===//

#include "qshape/Fingerprint/CanonicalForm.h"

#include "CanonicalView.h"
#include "qshape/GateView/GateView.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace qshape {

namespace canonical {

/// splitmix64 finalizer: a fixed, unseeded bijection (process-stable).
uint64_t mix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// Regions whose op order we may change: those of known ops with SSA-CFG
/// semantics. Regions of unregistered ops (other than quantum.adjoint/ctrl,
/// which we know) are left untouched.
bool mayEditRegionsOf(Operation *op) {
  QOpKind kind = classify(op);
  if (kind == QOpKind::Adjoint || kind == QOpKind::Ctrl)
    return true;
  if (!op->isRegistered())
    return false;
  for (Region &r : op->getRegions())
    if (mayBeGraphRegion(r))
      return false;
  return true;
}

bool isConstantOp(Operation *op) {
  return op->isRegistered() && op->hasTrait<OpTrait::ConstantLike>() && op->getNumOperands() == 0 &&
         op->getNumRegions() == 0 && op->getNumResults() == 1;
}

/// Pure, region-free, registered and not quantum: safe to merge when equal.
bool isMergeable(Operation *op) {
  return op->isRegistered() && op->getNumRegions() == 0 && op->getNumResults() > 0 &&
         classify(op) == QOpKind::NotQuantum && isMemoryEffectFree(op) &&
         !op->hasTrait<OpTrait::IsTerminator>();
}

void forEachOperandDeep(Operation *op, function_ref<void(Value)> fn) {
  for (Value v : op->getOperands())
    fn(v);
  if (op->getNumRegions())
    op->walk([&](Operation *inner) {
      if (inner != op)
        for (Value v : inner->getOperands())
          fn(v);
    });
}

bool placeInOrder(Block &block, size_t n, function_ref<Operation *(size_t)> opAt, Operation *end) {
  constexpr size_t kAhead = 8;
  bool moved = false;
  Operation *next = end;
  for (size_t i = n; i-- > 0;) {
    if (i >= kAhead)
      __builtin_prefetch(opAt(i - kAhead));
    Operation *op = opAt(i);
    if (op->getNextNode() != next || op->getBlock() != &block) {
      if (next)
        op->moveBefore(next);
      else
        op->moveBefore(&block, block.end());
      moved = true;
    }
    next = op;
  }
  return moved;
}

} // namespace canonical

bool isFloatConstant(Operation *op) {
  if (!canonical::isConstantOp(op))
    return false;
  Attribute value = op->getAttr("value");
  if (isa_and_nonnull<FloatAttr>(value))
    return true;
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(value)) {
    Type elt = dense.getElementType();
    return isa<FloatType>(elt) ||
           (isa<ComplexType>(elt) && isa<FloatType>(cast<ComplexType>(elt).getElementType()));
  }
  return false;
}

ArrayRef<CanonicalRuleInfo> canonicalRules() { return fpview::CanonicalView::rules(); }

LogicalResult canonicalize(Operation *root, const CanonicalizeOptions &options,
                           CanonicalizeStats *stats, BlockOrder *order) {
  std::unique_ptr<fpview::CanonicalView> view = fpview::CanonicalView::build(root, options.texts);
  if (!view)
    return failure(); // diagnosed by build
  view->canonicalize();
  CanonicalizeStats local;
  if (failed(view->materialize(stats ? *stats : local, options.sortFloatConstants)))
    return failure();
  if (order)
    view->blockOrder(*order);
  return success();
}

} // namespace qshape
