//===- ConvertQuantumToLLVM.cpp - qshape-convert-quantum-to-llvm ----------===//
//
// The pass: check that every quantum op can be lowered (a located error
// naming the op otherwise, before anything changes), then one full
// conversion with the quantum patterns and, as in Catalyst's
// convert-quantum-to-llvm, the func and cf patterns, because qubits and
// registers cross function signatures and block arguments.
//
//===----------------------------------------------------------------------===//

#include "qshape/Conversion/Passes.h"
#include "qshape/Conversion/QuantumToLLVM/QuantumToLLVM.h"

#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "qshape-convert-quantum-to-llvm"

namespace qshape {
#define GEN_PASS_DEF_QSHAPECONVERTQUANTUMTOLLVM
#include "qshape/Conversion/Passes.h.inc"
} // namespace qshape

using namespace mlir;
using namespace qshape;

namespace {

struct ConvertQuantumToLLVMPass
    : qshape::impl::QShapeConvertQuantumToLLVMBase<ConvertQuantumToLLVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    bool lowerable = true;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (succeeded(checkLowerable(op)))
        return WalkResult::advance();
      lowerable = false;
      // One error per unlowered region, not one per op in it.
      return WalkResult::skip();
    });
    if (!lowerable)
      return signalPassFailure();

    QuantumTypeConverter converter(ctx);
    RewritePatternSet patterns(ctx);
    populateFuncToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    cf::populateAssertToLLVMConversionPattern(converter, patterns);
    populateQuantumToLLVMPatterns(converter, patterns);

    LLVMConversionTarget target(*ctx);
    target.addLegalOp<ModuleOp>();
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    numRuntimeCalls = 0;
    module.walk([&](LLVM::CallOp call) {
      if (auto callee = call.getCallee(); callee && callee->starts_with("__catalyst__"))
        ++numRuntimeCalls;
    });
    numScratchMerged = finalizeQuantumToLLVM(module);
    LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": " << numRuntimeCalls << " runtime calls, "
                            << numScratchMerged << " stack slots merged\n");
  }
};

} // namespace
