//===- CopyUnownedResults.cpp - qshape-copy-unowned-results ---------------===//
//
// Catalyst's CompiledFunction takes each result buffer of an entry point
// with _mlir_memory_transfer, which succeeds only for a buffer the runtime
// allocated (finalize-memref-to-llvm{use-generic-functions}). A constant
// result (memref.get_global, whose descriptor carries allocated =
// 0xdeadbeef), an argument returned as it is, or a buffer that comes through
// control flow is not provably such a buffer, so the entry returns a fresh
// copy of it instead, as Catalyst's cp-global-memref does. The test is
// static: a copy costs one result-sized memcpy, a missing one a wrong free.
//
//===----------------------------------------------------------------------===//

#include "qshape/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace qshape {
#define GEN_PASS_DEF_QSHAPECOPYUNOWNEDRESULTS
#include "qshape/Conversion/Passes.h.inc"
} // namespace qshape

using namespace mlir;

namespace {

/// A buffer this function allocated on the heap (through casts), which the
/// runtime owns under the generic alloc functions.
bool isOwnAllocation(Value v) {
  while (auto cast = v.getDefiningOp<memref::CastOp>())
    v = cast.getSource();
  return v.getDefiningOp<memref::AllocOp>() != nullptr;
}

/// A new buffer of `v`'s type (its dynamic sizes read from `v`) holding
/// `v`'s elements.
Value copyOf(OpBuilder &b, Location loc, Value v) {
  auto type = cast<MemRefType>(v.getType());
  SmallVector<Value> dynamicSizes;
  for (auto [dim, size] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(size))
      dynamicSizes.push_back(memref::DimOp::create(b, loc, v, dim));
  Value copy = memref::AllocOp::create(b, loc, type, dynamicSizes);
  memref::CopyOp::create(b, loc, v, copy);
  return copy;
}

struct CopyUnownedResultsPass : qshape::impl::QShapeCopyUnownedResultsBase<CopyUnownedResultsPass> {
  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) {
      // The entry points: the functions with a C interface (jit_<qnode>).
      if (func.isExternal() || !func->hasAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName()))
        return;
      func.walk([&](func::ReturnOp ret) { copyResults(ret); });
    });
  }

  void copyResults(func::ReturnOp ret) {
    OpBuilder b(ret);
    for (OpOperand &result : ret->getOpOperands()) {
      if (!isa<MemRefType>(result.get().getType()) || isOwnAllocation(result.get()))
        continue;
      result.set(copyOf(b, ret.getLoc(), result.get()));
      ++numCopied;
    }
  }
};

} // namespace
