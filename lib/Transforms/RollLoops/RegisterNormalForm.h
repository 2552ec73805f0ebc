//===- RegisterNormalForm.h - qshape-roll-loops: register normal form -*- C++ -*-===//
//
// The first component of the roller: one linear re-scheduling of a block
// that makes the copies of a repeated body contiguous and alike.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TRANSFORMS_ROLLLOOPS_REGISTERNORMALFORM_H
#define QSHAPE_TRANSFORMS_ROLLLOOPS_REGISTERNORMALFORM_H

#include "mlir/IR/Block.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace qshape::roll {

/// Register normal form: one linear re-scheduling of `block` in which
///  - pure non-quantum ops (runtime angle extraction, arithmetic) and
///    `quantum.insert` go up to just after their operands (ASAP): the former
///    leave the repeated bodies, an insert closes the copy of its wire;
///  - `quantum.extract` and observables go down to just before their first
///    user (ALAP): each copy reads its wire where it starts, and a
///    measurement at the end does not cut a run in two;
///  - every other op keeps its relative order;
///  - no extract, observable or insert crosses a barrier (Barriers.h).
/// All moved ops are free of side effects, so this keeps the meaning.
/// `visit` sees each op once, in the block's order before, while its memory
/// is at hand, and says whether it is a barrier; `before` receives, for
/// each op of the result, its position in that order.
llvm::SmallVector<mlir::Operation *>
normalizeRegisters(mlir::Block &block, const std::vector<mlir::Operation *> *knownOps,
                   llvm::function_ref<bool(mlir::Operation *)> visit,
                   llvm::SmallVectorImpl<unsigned> &before);

/// Makes the reads of `block` linear, as Catalyst's value semantics want
/// them: every read (the register of an extract, an observable's operands)
/// comes before the ops that consume what it reads.
/// Returns whether it changed the block.
bool linearizeReads(mlir::Block &block);

/// Points each extract at the last register of its chain that still holds
/// its wire (past inserts at other wires), moving it after that insert when
/// no user of the extract, no barrier and no op with regions stands in
/// between. The canonical
/// form reads past inserts the other way, to the earliest register: in a
/// layer whose gates are written back one by one, the first read of a wire
/// then names the register of one copy's insert, a use of that copy after
/// its run, and the run does not roll. Returns whether it changed `block`.
bool readLatestRegisters(mlir::Block &block);

} // namespace qshape::roll

#endif // QSHAPE_TRANSFORMS_ROLLLOOPS_REGISTERNORMALFORM_H
