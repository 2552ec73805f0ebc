//===- FreeLocalBuffers.cpp - qshape-free-local-buffers -------------------===//
//
// After bufferization nothing frees the buffers a function allocates for
// itself (the tables qshape-roll-loops gathers with tensor.from_elements,
// temporaries): ownership-based-buffer-deallocation refuses every op with
// unknown memory effects, and each quantum op has them. This pass frees
// what provably stays local: an allocation whose aliases are only read,
// written or handed to quantum ops (the runtime uses a buffer during the
// call only) or to a function of the module that uses it so itself, is
// released after its last use in its block. Anything else (returned,
// yielded, passed to an external function or to an op the pass does not
// know) is left alone, as before.
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

/// The ops that make a view of `v` (the view aliases the buffer).
Value viewOf(OpOperand &use) {
  auto view = dyn_cast<ViewLikeOpInterface>(use.getOwner());
  if (!view || view.getViewSource() != use.get() || use.getOwner()->getNumResults() != 1)
    return {};
  return use.getOwner()->getResult(0);
}

/// Which uses of a buffer keep no pointer to it past the use.
class LocalUses {
public:
  explicit LocalUses(ModuleOp module) : module(module) {}

  /// Collects the users of `buffer` and of its views into `users`; false
  /// if one of them may keep it (or frees it).
  bool collect(Value buffer, SmallVectorImpl<Operation *> &users) {
    llvm::SetVector<Value> aliases;
    aliases.insert(buffer);
    for (unsigned k = 0; k < aliases.size(); ++k) {
      for (OpOperand &use : aliases[k].getUses()) {
        if (Value view = viewOf(use))
          aliases.insert(view);
        else if (!isLocalUse(use))
          return false;
        users.push_back(use.getOwner());
      }
    }
    return true;
  }

private:
  /// Whether `use` only reads or writes the buffer during the op.
  bool isLocalUse(OpOperand &use) {
    Operation *user = use.getOwner();
    if (user->getName().getStringRef().starts_with("quantum."))
      return true; // runtime calls read or fill the buffer, and keep no pointer
    if (auto store = dyn_cast<memref::StoreOp>(user))
      return use.get() == store.getMemRef();
    if (auto call = dyn_cast<func::CallOp>(user))
      return calleeKeepsNothing(call, use.getOperandNumber());
    return isa<memref::LoadOp, memref::CopyOp, memref::DimOp, memref::RankOp>(user);
  }

  /// Whether the callee of `call`, defined in this module, uses its
  /// argument `index` only locally (a one-shot-bufferized callee reads the
  /// argument it was given, as qshape-roll-loops' tables are).
  bool calleeKeepsNothing(func::CallOp call, unsigned index) {
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
    if (!callee || callee.isExternal())
      return false;
    auto [it, inserted] = calleeMemo.try_emplace({callee, index}, false);
    if (!inserted)
      return it->second; // known, or being decided (recursion: no)
    SmallVector<Operation *> users;
    bool local = collect(callee.getArgument(index), users);
    calleeMemo[{callee, index}] = local;
    return local;
  }

  ModuleOp module;
  llvm::DenseMap<std::pair<Operation *, unsigned>, bool> calleeMemo;
};

struct FreeLocalBuffersPass : qshape::impl::QShapeFreeLocalBuffersBase<FreeLocalBuffersPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    getOperation().walk([&](memref::AllocOp alloc) { allocs.push_back(alloc); });
    LocalUses localUses(getOperation());
    for (memref::AllocOp alloc : allocs)
      if (Operation *last = lastLocalUse(alloc, localUses)) {
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
  Operation *lastLocalUse(memref::AllocOp alloc, LocalUses &localUses) {
    SmallVector<Operation *> users;
    if (!localUses.collect(alloc.getResult(), users))
      return nullptr;
    Block *block = alloc->getBlock();
    Operation *last = alloc;
    for (Operation *use : users) {
      Operation *user = block->findAncestorOpInBlock(*use);
      if (!user)
        return nullptr;
      if (last->isBeforeInBlock(user))
        last = user;
    }
    // A terminator cannot be followed; it only uses the buffer when the
    // buffer leaves the block, which isLocalUse rejected.
    return last->hasTrait<OpTrait::IsTerminator>() ? nullptr : last;
  }
};

} // namespace
