//===- LowerArgumentReads.cpp - qshape-lower-argument-reads ---------------===//
//
// One-shot bufferization analyses each tensor operand against every read of
// the values it may alias, so an argument read by N `tensor.extract`s costs
// N^2 (an unrolled circuit with runtime angles reads each angle once). Read
// through one `bufferization.to_buffer read_only`, the argument has a single
// use left for the analysis, and the loads are no tensor ops at all.
//
//===----------------------------------------------------------------------===//

#include "qshape/Conversion/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#define DEBUG_TYPE "qshape-lower-argument-reads"

namespace qshape {
#define GEN_PASS_DEF_QSHAPELOWERARGUMENTREADS
#include "qshape/Conversion/Passes.h.inc"
} // namespace qshape

using namespace mlir;

namespace {

/// A use that cannot write the argument's buffer. With any other use the
/// argument is left alone: an op the analysis lets write in place would
/// change what loads after it read, and the analysis does not see loads.
bool onlyReads(Operation *user) {
  if (isa<tensor::ExtractOp>(user))
    return true;
  auto toBuffer = dyn_cast<bufferization::ToBufferOp>(user);
  return toBuffer && toBuffer.getReadOnly();
}

/// The number of reads of `arg` turned into loads of one buffer, which
/// `entry` creates (at the function's entry, in argument order).
unsigned lowerReads(BlockArgument arg, OpBuilder &entry) {
  auto type = dyn_cast<RankedTensorType>(arg.getType());
  if (!type || !llvm::all_of(arg.getUsers(), onlyReads))
    return 0;
  SmallVector<tensor::ExtractOp> reads;
  for (Operation *user : arg.getUsers())
    if (auto read = dyn_cast<tensor::ExtractOp>(user))
      reads.push_back(read);
  if (reads.empty())
    return 0;

  // The identity layout, as qshape-bufferize-quantum's buffers: the
  // pipeline bufferizes function boundaries to it, so the bridge folds.
  auto bufferType = MemRefType::get(type.getShape(), type.getElementType());
  Value buffer = bufferization::ToBufferOp::create(entry, arg.getLoc(), bufferType, arg,
                                                   /*read_only=*/true);
  OpBuilder b(arg.getContext());
  for (tensor::ExtractOp read : reads) {
    b.setInsertionPoint(read);
    Value load = memref::LoadOp::create(b, read.getLoc(), buffer, read.getIndices());
    read.replaceAllUsesWith(load);
    read.erase();
  }
  return reads.size();
}

struct LowerArgumentReadsPass : qshape::impl::QShapeLowerArgumentReadsBase<LowerArgumentReadsPass> {
  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) {
      if (func.isExternal())
        return;
      OpBuilder entry = OpBuilder::atBlockBegin(&func.front());
      for (BlockArgument arg : func.getArguments()) {
        unsigned reads = lowerReads(arg, entry);
        numArguments += reads != 0;
        numReads += reads;
      }
    });
  }
};

} // namespace
