//===- Barriers.h - qshape-roll-loops: ops nothing moves across -*- C++ -*-===//
//
// An op whose effects are unknown or include a write (an unregistered op,
// an op without MemoryEffectOpInterface such as a call, `catalyst.print`,
// an op whose interface reports a write) is a barrier: rolling never moves
// a quantum op or any other effectful op across it, and no loop holds it.
// Pure ops may still move.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TRANSFORMS_ROLLLOOPS_BARRIERS_H
#define QSHAPE_TRANSFORMS_ROLLLOOPS_BARRIERS_H

#include "qshape/Fingerprint/CanonicalForm.h"

#include "mlir/IR/Block.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

namespace qshape::roll {

/// Whether `op` is a barrier (see above). Quantum ops qshape knows by name
/// are not: their order follows from the values they use and produce, and
/// the ordered ones among them (measurements, global phases) keep their
/// order anyway.
bool isBarrier(mlir::Operation *op);

/// Whether `op` must stay between the barriers it stands between: quantum
/// ops, and ops that are not free of memory effects.
bool isPinned(mlir::Operation *op);

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
