//===- RegionLowering.h - helpers of the adjoint and ctrl lowerings -*- C++ -*-===//
//
// What qshape-lower-adjoint and qshape-lower-ctrl share: whether an op
// takes part in the quantum program, and how to rebuild a quantum op by
// name with other operands.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_LIB_CONVERSION_REGIONLOWERING_H
#define QSHAPE_LIB_CONVERSION_REGIONLOWERING_H

#include "qshape/GateView/GateView.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"

namespace qshape {

/// True when `op`, or an op nested in it, is a quantum op or takes or
/// yields a quantum value; such ops cannot be copied as classical code.
inline bool touchesQuantum(mlir::Operation *op) {
  mlir::WalkResult r = op->walk([](mlir::Operation *inner) {
    bool quantum = inner->getName().getStringRef().starts_with("quantum.") ||
                   llvm::any_of(inner->getOperandTypes(), isQuantumType) ||
                   llvm::any_of(inner->getResultTypes(), isQuantumType);
    for (mlir::Region &region : inner->getRegions())
      for (mlir::Block &block : region)
        quantum |= llvm::any_of(block.getArgumentTypes(), isQuantumType);
    return quantum ? mlir::WalkResult::interrupt() : mlir::WalkResult::advance();
  });
  return r.wasInterrupted();
}

/// A copy of `op` (same name and attributes, by OperationState so that it
/// works for every op class) with `operands` and `resultTypes`. Segment
/// sizes are recomputed from `operandGroups`/`resultGroups` (one size per
/// group of the op's table row) when the op has groups.
inline mlir::Operation *rebuildQuantumOp(mlir::OpBuilder &b, mlir::Operation *op,
                                         mlir::ValueRange operands,
                                         mlir::TypeRange resultTypes,
                                         llvm::ArrayRef<int32_t> operandGroups,
                                         llvm::ArrayRef<int32_t> resultGroups) {
  mlir::OperationState state(op->getLoc(), op->getName());
  state.addOperands(operands);
  state.addTypes(resultTypes);
  for (mlir::NamedAttribute attr : op->getAttrs())
    if (attr.getName() != "operandSegmentSizes" && attr.getName() != "resultSegmentSizes")
      state.addAttribute(attr.getName(), attr.getValue());
  if (operandGroups.size() > 1)
    state.addAttribute("operandSegmentSizes", b.getDenseI32ArrayAttr(operandGroups));
  if (resultGroups.size() > 1)
    state.addAttribute("resultSegmentSizes", b.getDenseI32ArrayAttr(resultGroups));
  return b.create(state);
}

/// Deletes the ops of a detached block that was built and not used.
inline void discardBlock(mlir::Block *block) {
  for (mlir::Operation &op : *block)
    op.dropAllReferences();
  for (mlir::Operation &op : llvm::make_early_inc_range(llvm::reverse(*block)))
    op.erase();
  delete block;
}

} // namespace qshape

#endif // QSHAPE_LIB_CONVERSION_REGIONLOWERING_H
