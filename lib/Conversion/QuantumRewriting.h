//===- QuantumRewriting.h - rewriting quantum ops by name -------*- C++ -*-===//
//
// What the passes that rebuild quantum ops by name (the adjoint and ctrl
// lowerings, qshape-bufferize-quantum) share: whether an op takes part in
// the quantum program, and how to copy an op of any class, unregistered ones
// included, with other operands or attributes.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_LIB_CONVERSION_QUANTUMREWRITING_H
#define QSHAPE_LIB_CONVERSION_QUANTUMREWRITING_H

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

/// The ops of `block` without its terminator. Block::without_terminator
/// keeps an unregistered `quantum.yield`, which has no IsTerminator trait.
inline llvm::iterator_range<mlir::Block::iterator> withoutTerminator(mlir::Block &block) {
  if (block.empty())
    return llvm::make_range(block.begin(), block.end());
  mlir::Operation &last = block.back();
  const QuantumOpInfo *info = lookupQuantumOp(&last);
  bool terminator =
      last.hasTrait<mlir::OpTrait::IsTerminator>() || (info && info->id == QOp::Yield);
  return llvm::make_range(block.begin(), terminator ? std::prev(block.end()) : block.end());
}

/// Every attribute of `op` by name, inherent ones included: for an
/// unregistered op parsed with `<{...}>` those live in a dictionary property
/// that getAttrs() does not list.
inline llvm::SmallVector<mlir::NamedAttribute> allAttributes(mlir::Operation *op) {
  llvm::SmallVector<mlir::NamedAttribute> attrs(op->getAttrs());
  if (!op->isRegistered() && op->getPropertiesStorageSize())
    if (auto dict = llvm::dyn_cast_or_null<mlir::DictionaryAttr>(op->getPropertiesAsAttribute()))
      llvm::append_range(attrs, dict.getValue());
  return attrs;
}

/// A copy of `op` (same name and attributes, by OperationState so that it
/// works for every op class) with `operands` and `resultTypes`. Segment
/// sizes are recomputed from `operandGroups`/`resultGroups` (one size per
/// group of the op's table row) when the op has groups.
inline mlir::Operation *rebuildQuantumOp(mlir::OpBuilder &b, mlir::Operation *op,
                                         mlir::ValueRange operands, mlir::TypeRange resultTypes,
                                         llvm::ArrayRef<int32_t> operandGroups,
                                         llvm::ArrayRef<int32_t> resultGroups) {
  mlir::OperationState state(op->getLoc(), op->getName());
  state.addOperands(operands);
  state.addTypes(resultTypes);
  for (mlir::NamedAttribute attr : allAttributes(op))
    if (attr.getName() != "operandSegmentSizes" && attr.getName() != "resultSegmentSizes")
      state.addAttribute(attr.getName(), attr.getValue());
  if (operandGroups.size() > 1)
    state.addAttribute("operandSegmentSizes", b.getDenseI32ArrayAttr(operandGroups));
  if (resultGroups.size() > 1)
    state.addAttribute("resultSegmentSizes", b.getDenseI32ArrayAttr(resultGroups));
  return b.create(state);
}

/// Sets or clears the unit attribute `name` (e.g. `adjoint`). An
/// unregistered op parsed with `<{...}>` keeps its inherent attributes in a
/// dictionary property, from which removeAttr would leave a null entry.
inline void setUnitFlag(mlir::Operation *op, llvm::StringRef name, bool on) {
  mlir::MLIRContext *ctx = op->getContext();
  if (on) {
    op->setAttr(name, mlir::UnitAttr::get(ctx));
    return;
  }
  if (!op->isRegistered() && op->getPropertiesStorageSize()) {
    if (auto dict = llvm::dyn_cast_or_null<mlir::DictionaryAttr>(op->getPropertiesAsAttribute())) {
      mlir::NamedAttrList attrs(dict);
      if (attrs.erase(name))
        (void)op->setPropertiesFromAttribute(attrs.getDictionary(ctx), nullptr);
    }
  }
  op->removeAttr(name);
}

/// Deletes the ops of a detached block that was built and not used.
inline void discardBlock(mlir::Block *block) {
  for (mlir::Operation &op : *block)
    op.dropAllReferences();
  for (mlir::Operation &op : llvm::make_early_inc_range(llvm::reverse(*block)))
    op.erase();
  delete block;
}

/// Replaces `op` by the ops of the detached block `built` (moved in front
/// of it) and its results by `results`; deletes the block.
inline void replaceWithBuiltOps(mlir::Operation *op, mlir::Block *built, mlir::ValueRange results) {
  op->getBlock()->getOperations().splice(mlir::Block::iterator(op), built->getOperations());
  delete built;
  op->replaceAllUsesWith(results);
  op->erase();
}

} // namespace qshape

#endif // QSHAPE_LIB_CONVERSION_QUANTUMREWRITING_H
