//===- FreeLocalBuffers.cpp - qshape-free-local-buffers -------------------===//
//
// After bufferization nothing frees the buffers a function allocates for
// itself (the tables qshape-roll-loops gathers with tensor.from_elements,
// temporaries): ownership-based-buffer-deallocation refuses every op with
// unknown memory effects, and each quantum op has them. This pass frees
// what provably stays local: an allocation whose aliases are only read,
// written or handed to quantum ops (the runtime uses a buffer during the
// call only) is released after its last use in its block. Anything else
// (returned, yielded, passed to a call or to an op the pass does not know)
// is left alone, as before.
//
//===----------------------------------------------------------------------===//

#include "qshape/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "qshape-free-local-buffers"

namespace qshape {
#define GEN_PASS_DEF_QSHAPEFREELOCALBUFFERS
#include "qshape/Conversion/Passes.h.inc"
} // namespace qshape

using namespace mlir;

namespace {

/// Whether `use` (of a buffer) only reads or writes it during the op.
bool isLocalUse(OpOperand &use) {
  Operation *user = use.getOwner();
  if (user->getName().getStringRef().starts_with("quantum."))
    return true; // runtime calls read or fill the buffer, and keep no pointer
  if (auto store = dyn_cast<memref::StoreOp>(user))
    return use.get() == store.getMemRef();
  return isa<memref::LoadOp, memref::CopyOp, memref::DimOp, memref::RankOp>(user);
}

/// The ops that make a view of `v` (the view aliases the buffer).
Value viewOf(OpOperand &use) {
  auto view = dyn_cast<ViewLikeOpInterface>(use.getOwner());
  if (!view || view.getViewSource() != use.get() || use.getOwner()->getNumResults() != 1)
    return {};
  return use.getOwner()->getResult(0);
}

struct FreeLocalBuffersPass : qshape::impl::QShapeFreeLocalBuffersBase<FreeLocalBuffersPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    getOperation().walk([&](memref::AllocOp alloc) { allocs.push_back(alloc); });
    for (memref::AllocOp alloc : allocs)
      if (Operation *last = lastLocalUse(alloc)) {
        OpBuilder b(alloc->getContext());
        b.setInsertionPointAfter(last);
        memref::DeallocOp::create(b, alloc.getLoc(), alloc.getResult());
        LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": freeing the buffer of " << alloc.getLoc()
                                << " after " << last->getName() << "\n");
        ++numFreed;
      }
  }

  /// The op of the allocation's block after which it can be freed, or null
  /// when the buffer (or a view of it) may leave the function or outlive
  /// its block.
  Operation *lastLocalUse(memref::AllocOp alloc) {
    Block *block = alloc->getBlock();
    Operation *last = alloc;
    llvm::SetVector<Value> aliases;
    aliases.insert(alloc.getResult());
    for (unsigned k = 0; k < aliases.size(); ++k) {
      for (OpOperand &use : aliases[k].getUses()) {
        if (isa<memref::DeallocOp>(use.getOwner()))
          return nullptr; // someone frees it already
        if (Value view = viewOf(use))
          aliases.insert(view);
        else if (!isLocalUse(use))
          return nullptr;
        Operation *user = block->findAncestorOpInBlock(*use.getOwner());
        if (!user)
          return nullptr;
        if (last->isBeforeInBlock(user))
          last = user;
      }
    }
    // A terminator cannot be followed; it only uses the buffer when the
    // buffer leaves the block, which isLocalUse rejected.
    return last->hasTrait<OpTrait::IsTerminator>() ? nullptr : last;
  }
};

} // namespace
