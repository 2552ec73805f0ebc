//===- BufferizeQuantum.cpp - qshape-bufferize-quantum --------------------===//
//
// Catalyst bufferizes its quantum ops by implementing
// BufferizableOpInterface on its op classes. qshape's passes must work on
// ops they did not define, and an interface attached to qshape's classes
// would not exist for Catalyst's classes or unregistered ops. So this pass
// rewrites the ops by name into their memref forms, with only the two
// bridge ops one-shot bufferization understands: `bufferization.to_buffer`
// for a tensor the op reads and `bufferization.to_tensor` of a fresh
// `memref.alloc` for a tensor it produces. One-shot bufferization then
// folds the bridges away as it converts their producers and users.
//
//===----------------------------------------------------------------------===//

#include "QuantumRewriting.h"

#include "qshape/Conversion/Passes.h"
#include "qshape/GateView/OpTable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "qshape-bufferize-quantum"

namespace qshape {
#define GEN_PASS_DEF_QSHAPEBUFFERIZEQUANTUM
#include "qshape/Conversion/Passes.h.inc"
} // namespace qshape

using namespace mlir;
using namespace qshape;

namespace {

MemRefType bufferType(RankedTensorType t) {
  return MemRefType::get(t.getShape(), t.getElementType());
}

/// The operand role holding a tensor the op only reads, if any.
std::optional<OpRole> readOperand(QOp id) {
  switch (id) {
  case QOp::Unitary:
  case QOp::Hermitian:
    return OpRole::Matrix;
  case QOp::Hamiltonian:
    return OpRole::Coeffs;
  case QOp::SetState:
  case QOp::SetBasisState:
    return OpRole::State;
  default:
    return std::nullopt;
  }
}

struct BufferizeQuantumPass : qshape::impl::QShapeBufferizeQuantumBase<BufferizeQuantumPass> {
  /// One-shot bufferization, which always follows this pass, converts only
  /// ops whose dialects registered their interface models; not every host
  /// (qshape-opt, a compile driver) has done so, so this pass does.
  void getDependentDialects(DialectRegistry &registry) const override {
    QShapeBufferizeQuantumBase::getDependentDialects(registry);
    arith::registerBufferizableOpInterfaceExternalModels(registry);
    bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(registry);
    cf::registerBufferizableOpInterfaceExternalModels(registry);
    linalg::registerBufferizableOpInterfaceExternalModels(registry);
    scf::registerBufferizableOpInterfaceExternalModels(registry);
    tensor::registerBufferizableOpInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (lookupQuantumOp(op))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      if (failed(bufferize(op)))
        return signalPassFailure();
  }

  LogicalResult bufferize(Operation *op) {
    const QuantumOpInfo &info = *lookupQuantumOp(op);
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": " << info.name << " at " << op->getLoc() << "\n");
    OpBuilder b(op);
    Location loc = op->getLoc();

    if (std::optional<OpRole> role = readOperand(info.id)) {
      OperandRange group = getOperandGroup(op, *role);
      if (group.size() != 1)
        return success();
      auto tensor = dyn_cast<RankedTensorType>(group.front().getType());
      if (!tensor)
        return success();
      auto buffer = bufferization::ToBufferOp::create(b, loc, bufferType(tensor), group.front(),
                                                      /*read_only=*/true);
      op->setOperand(group.getBeginOperandIndex(), buffer);
      ++numOperands;
      return success();
    }

    bool isCounts = info.id == QOp::Counts;
    if (!isCounts && info.id != QOp::Probs && info.id != QOp::State && info.id != QOp::Sample)
      return success();
    if (op->getNumResults() == 0)
      return success(); // already in memref form
    SmallVector<RankedTensorType> tensors;
    for (Type t : op->getResultTypes()) {
      auto tensor = dyn_cast<RankedTensorType>(t);
      if (!tensor)
        return op->emitOpError() << "has a result of type " << t << "; expected ranked tensors";
      tensors.push_back(tensor);
    }

    // Dynamic sizes come from the op's i64 shape operands, in order.
    SmallVector<Value> shape;
    for (Value v : getOperandGroup(op, OpRole::Shape))
      shape.push_back(arith::IndexCastOp::create(b, loc, b.getIndexType(), v));
    SmallVector<Value> buffers;
    for (RankedTensorType t : tensors) {
      // Both results of counts are sized by its one shape operand.
      unsigned dynamic = t.getNumDynamicDims();
      if (dynamic > shape.size())
        return op->emitOpError() << "has a result of type " << t
                                 << " with more dynamic sizes than shape operands";
      buffers.push_back(memref::AllocOp::create(b, loc, bufferType(t),
                                                ArrayRef<Value>(shape).take_front(dynamic)));
    }

    // The same op with the buffers as operands and no results:
    // (obs, no shape, buffers...).
    OperationState state(loc, op->getName());
    state.addOperands(op->getOperand(0));
    state.addOperands(buffers);
    for (NamedAttribute attr : allAttributes(op))
      if (attr.getName() != "operandSegmentSizes" && attr.getName() != "resultSegmentSizes")
        state.addAttribute(attr.getName(), attr.getValue());
    SmallVector<int32_t> segments = {1, 0, 1};
    if (isCounts)
      segments.push_back(1);
    state.addAttribute("operandSegmentSizes", b.getDenseI32ArrayAttr(segments));
    b.create(state);

    for (auto [result, buffer] : llvm::zip_equal(op->getResults(), buffers)) {
      auto tensor = bufferization::ToTensorOp::create(b, loc, result.getType(), buffer,
                                                      /*restrict=*/true, /*writable=*/true);
      result.replaceAllUsesWith(tensor.getResult());
    }
    op->erase();
    ++numResults;
    return success();
  }
};

} // namespace
