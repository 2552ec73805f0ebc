//===- Barriers.cpp - qshape-roll-loops: ops nothing moves across ---------===//

#include "Barriers.h"

#include "Support.h"

#include "qshape/GateView/Barriers.h"
#include "qshape/GateView/GateView.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Debug.h"

#include <algorithm>

#define DEBUG_TYPE "qshape-roll-loops"

using namespace mlir;

namespace qshape::roll {

void BarrierGuard::record() {
  segment.clear();
  for (Block *block : blocks) {
    unsigned barriers = 0;
    for (Operation &op : *block) {
      bool barrier = qshape::isBarrier(&op);
      segment[&op] = 2 * barriers + barrier;
      barriers += barrier;
    }
  }
}

unsigned BarrierGuard::restore(BlockOrder &order) {
  unsigned repaired = 0;
  for (auto [block, ops] : llvm::zip(order.blocks, order.ops)) {
    if (!blocks.contains(block))
      continue;
    // A pinned op keeps its segment; any other op goes with its latest
    // producer in the block (it may move earlier, never past a user); the
    // terminator stays last. A stable sort by that key keeps the canonical
    // order within each segment and every producer before its users.
    llvm::DenseMap<Operation *, unsigned> key;
    bool ordered = true;
    unsigned last = 0, top = 0;
    for (Operation *op : ops) {
      unsigned k = 0;
      auto it = segment.find(op);
      if (it != segment.end() && (qshape::isPinnedByBarriers(op) || it->second % 2))
        k = it->second;
      else
        canonical::forEachOperandDeep(op, [&](Value v) {
          if (Operation *def = v.getDefiningOp())
            if (Operation *anc = block->findAncestorOpInBlock(*def))
              if (auto kt = key.find(anc); kt != key.end())
                k = std::max(k, kt->second);
        });
      if (op->hasTrait<OpTrait::IsTerminator>())
        k = std::max(k, top);
      key[op] = k;
      top = std::max(top, k);
      if (qshape::isPinnedByBarriers(op) || k % 2) {
        ordered &= k >= last;
        last = std::max(last, k);
      }
    }
    if (ordered)
      continue;
    ++repaired;
    LLVM_DEBUG(llvm::dbgs() << "qshape-roll-loops: the canonical form moved ops across a "
                               "barrier; putting them back\n");
    llvm::stable_sort(ops, [&](Operation *a, Operation *b) { return key[a] < key[b]; });
    canonical::placeInOrder(
        *block, ops.size(), [&](size_t i) { return ops[i]; }, nullptr);
  }
  return repaired;
}

} // namespace qshape::roll
