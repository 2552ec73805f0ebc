//===- Barriers.h - qshape-roll-loops: ops nothing moves across -*- C++ -*-===//
//
// Barriers follow qshape's one rule (qshape/GateView/Barriers.h, shared with
// the canonical form): rolling never moves an op the rule pins across a
// barrier, and no loop holds one. This file adds only the guard the roller
// keeps around rescheduling it does not control.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TRANSFORMS_ROLLLOOPS_BARRIERS_H
#define QSHAPE_TRANSFORMS_ROLLLOOPS_BARRIERS_H

#include "qshape/Fingerprint/CanonicalForm.h"
#include "qshape/GateView/Barriers.h"

#include "mlir/IR/Block.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

namespace qshape::roll {

/// Keeps the pinned ops of the blocks that hold barriers where they stood
/// relative to those barriers across a rescheduling the roller does not
/// control (the canonical form): before it, record() notes where each op
/// stands; after it, restore() moves back what crossed a barrier and tells
/// how many blocks it had to repair.
class BarrierGuard {
public:
  /// A block of the function that holds a barrier.
  void noteBlock(mlir::Block *block) { blocks.insert(block); }
  bool empty() const { return blocks.empty(); }
  void record();
  unsigned restore(BlockOrder &order);

private:
  llvm::SetVector<mlir::Block *> blocks;
  /// 2 * (barriers before the op), + 1 for a barrier itself.
  llvm::DenseMap<mlir::Operation *, unsigned> segment;
};

} // namespace qshape::roll

#endif // QSHAPE_TRANSFORMS_ROLLLOOPS_BARRIERS_H
