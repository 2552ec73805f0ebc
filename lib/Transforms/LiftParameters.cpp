//===- LiftParameters.cpp - qshape-lift-parameters ------------------------===//
//
// Float constants (gate angles, Hamiltonian coefficients, any f64 the
// program bakes in) become reads of one table, so that programs which differ
// only in those values become one module: one compile key, one artifact.
//
//===----------------------------------------------------------------------===//

#include "qshape/Transforms/LiftParameters.h"
#include "qshape/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Debug.h"

#include <limits>

#define DEBUG_TYPE "qshape-lift-parameters"

namespace qshape {
#define GEN_PASS_DEF_QSHAPELIFTPARAMETERS
#include "qshape/Transforms/Passes.h.inc"
} // namespace qshape

using namespace mlir;
using namespace qshape;

/// An f64 `arith.constant` the table can hold: a scalar or a statically
/// shaped dense tensor (complex and other widths stay where they are).
static bool isLiftable(Operation *op) {
  auto constant = dyn_cast<arith::ConstantOp>(op);
  if (!constant)
    return false;
  Attribute value = constant.getValue();
  if (auto f = dyn_cast<FloatAttr>(value))
    return f.getType().isF64();
  if (auto dense = dyn_cast<DenseFPElementsAttr>(value))
    return dense.getElementType().isF64() && dense.getType().hasStaticShape();
  return false;
}

static void appendValues(arith::ConstantOp constant, std::vector<double> &out) {
  Attribute value = constant.getValue();
  if (auto f = dyn_cast<FloatAttr>(value)) {
    out.push_back(f.getValueAsDouble());
    return;
  }
  for (const APFloat &v : cast<DenseFPElementsAttr>(value).getValues<APFloat>())
    out.push_back(v.convertToDouble());
}

FailureOr<LiftedParameters> qshape::liftParameters(ModuleOp module, bool abstractValues) {
  LiftedParameters lifted;
  // Slot of each constant, in order of first use inside each function.
  struct Lift {
    arith::ConstantOp op;
    int64_t slot;
  };
  llvm::SmallVector<std::pair<FunctionOpInterface, llvm::SmallVector<Lift>>> perFunction;
  for (auto func : module.getOps<FunctionOpInterface>()) {
    if (func.isExternal())
      continue;
    llvm::SmallVector<Lift> lifts;
    llvm::DenseMap<Operation *, int64_t> slotOf;
    func->walk<WalkOrder::PreOrder>([&](Operation *op) {
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        // Only constants of this function's own body: a nested isolated op
        // (another function) cannot see the function's table.
        if (!def || !isLiftable(def) || slotOf.count(def) ||
            def->getParentWithTrait<OpTrait::IsIsolatedFromAbove>() != func.getOperation())
          continue;
        auto slot = int64_t(lifted.values.size());
        slotOf[def] = slot;
        auto constant = cast<arith::ConstantOp>(def);
        appendValues(constant, lifted.values);
        lifts.push_back({constant, slot});
        auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
        lifted.sources.push_back(
            {def->getLoc(), slot, int64_t(lifted.values.size()) - slot, dense && dense.isSplat()});
      }
    });
    if (!lifts.empty())
      perFunction.emplace_back(func, std::move(lifts));
  }

  Operation *existing = SymbolTable::lookupSymbolIn(module, kParameterTableSymbol);
  if (existing) {
    if (perFunction.empty())
      return lifted; // already lifted: nothing changes
    return existing->emitError() << "qshape-lift-parameters: the module already has @"
                                 << kParameterTableSymbol
                                 << " and constants to lift; lift once, after the last pass "
                                    "that creates float constants";
  }
  if (perFunction.empty())
    return lifted;

  MLIRContext *ctx = module.getContext();
  // Called outside a pass manager too (qshape-compile), where nothing has
  // loaded the pass's dependent dialects.
  ctx->loadDialect<arith::ArithDialect, bufferization::BufferizationDialect, memref::MemRefDialect,
                   tensor::TensorDialect>();
  OpBuilder b(ctx);
  auto size = int64_t(lifted.values.size());
  auto tableType = MemRefType::get({size}, b.getF64Type());
  auto tensorType = RankedTensorType::get({size}, b.getF64Type());
  DenseElementsAttr init =
      abstractValues ? DenseElementsAttr::get(tensorType, std::numeric_limits<double>::quiet_NaN())
                     : DenseElementsAttr::get(tensorType, llvm::ArrayRef<double>(lifted.values));
  b.setInsertionPointToStart(module.getBody());
  // Public and mutable: LLVM may then neither fold the reads nor drop the
  // table, and a host can find it by name.
  memref::GlobalOp::create(b, module.getLoc(), kParameterTableSymbol,
                           /*sym_visibility=*/StringAttr(), tableType, init,
                           /*constant=*/false, b.getI64IntegerAttr(8));

  for (auto &[func, lifts] : perFunction) {
    Block &entry = func.getFunctionBody().front();
    b.setInsertionPointToStart(&entry);
    Location loc = func.getLoc();
    Value memref = memref::GetGlobalOp::create(b, loc, tableType, kParameterTableSymbol);
    // A tensor view, so the reads are tensor.extract at constant indices:
    // the form of runtime arguments, which canonicalization and rolling know.
    Value table = bufferization::ToTensorOp::create(b, loc, tensorType, memref,
                                                    /*restrict=*/true, /*writable=*/false);
    for (Lift &lift : lifts) {
      b.setInsertionPoint(lift.op);
      Location at = lift.op.getLoc();
      auto read = [&](int64_t slot) -> Value {
        Value index = arith::ConstantIndexOp::create(b, at, slot);
        return tensor::ExtractOp::create(b, at, table, ValueRange{index});
      };
      Value replacement;
      if (isa<FloatAttr>(lift.op.getValue())) {
        replacement = read(lift.slot);
      } else {
        auto type = cast<RankedTensorType>(lift.op.getType());
        llvm::SmallVector<Value> elements;
        for (int64_t i = 0, e = type.getNumElements(); i < e; ++i)
          elements.push_back(read(lift.slot + i));
        replacement = tensor::FromElementsOp::create(b, at, type, elements);
      }
      lift.op.getResult().replaceAllUsesWith(replacement);
      lift.op.erase();
      ++lifted.constantsLifted;
    }
  }
  LLVM_DEBUG(llvm::dbgs() << "qshape-lift-parameters: " << lifted.constantsLifted
                          << " constants into " << size << " slots\n");
  return lifted;
}

namespace {
struct QShapeLiftParametersPass : qshape::impl::QShapeLiftParametersBase<QShapeLiftParametersPass> {
  using QShapeLiftParametersBase::QShapeLiftParametersBase;

  void runOnOperation() override {
    FailureOr<LiftedParameters> lifted = liftParameters(getOperation(), abstractValues);
    if (failed(lifted))
      return signalPassFailure();
    numConstantsLifted += lifted->constantsLifted;
    numSlots += lifted->values.size();
  }
};
} // namespace
