//===- LowerToLLVMPipeline.cpp - the qshape-lower-to-llvm pipeline --------===//
//
// A Catalyst-shaped module at the tensor level in, an LLVM-dialect module
// that calls Catalyst's runtime C ABI out (mlir-translate --mlir-to-llvmir
// takes it). The order follows Catalyst's quantum-compilation, bufferization
// and llvm-dialect-lowering stages, minus what Catalyst-shaped QNodes do
// not contain (stablehlo, gradients, async). Passes are created through
// their C++ entry points, so the pipeline does not depend on which passes a
// host registered.
//
//===----------------------------------------------------------------------===//

#include "qshape/Conversion/Passes.h"
#include "qshape/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace qshape {
namespace {
#define GEN_PASS_REGISTRATION
#include "qshape/Conversion/Passes.h.inc"
} // namespace

void buildLowerToLLVMPipeline(OpPassManager &pm, const LowerToLLVMPipelineOptions &options) {
  // Catalyst's capture frontend writes qref: value semantics first (a
  // module without qref passes through untouched).
  pm.addPass(createQShapeToValueSemantics());
  // qshape's own stage: the canonical form, then loop rolling.
  if (options.canonicalize)
    pm.addPass(createQShapeCanonicalize());
  if (options.roll) {
    QShapeRollLoopsOptions roll;
    roll.verifyRoundtrip = options.verifyRoundtrip;
    pm.addPass(createQShapeRollLoops(roll));
  }

  // Catalyst's quantum compilation stage: one flat module with the entry
  // points, and no quantum.ctrl / quantum.adjoint regions.
  pm.addPass(createQShapeFlattenModules());
  pm.addPass(createQShapeCatalystEntryPoints());
  pm.addPass(createQShapeLowerCtrl());
  pm.addPass(createQShapeLowerAdjoint());

  // Bufferization stage (Catalyst's one-shot-bufferize options).
  pm.addPass(createQShapeBufferizeQuantum());
  // Reads of arguments through one buffer each: one-shot's analysis is
  // quadratic in the tensor reads of one value.
  if (options.lowerArgumentReads)
    pm.addPass(createQShapeLowerArgumentReads());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.functionBoundaryTypeConversion = bufferization::LayoutMapOption::IdentityLayoutMap;
  bufferize.unknownTypeConversion = bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createQShapeFreeLocalBuffers());
  // A host that takes results from the runtime (Catalyst's) needs each one
  // in a runtime-owned buffer.
  if (options.genericAllocFunctions)
    pm.addPass(createQShapeCopyUnownedResults());

  // LLVM dialect lowering stage.
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(arith::createArithExpandOpsPass());
  pm.addPass(createConvertComplexToStandardPass());
  pm.addPass(createConvertComplexToLLVMPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  FinalizeMemRefToLLVMConversionPassOptions memref;
  memref.useGenericFunctions = options.genericAllocFunctions;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memref));
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  // Quantum, func (with the C interfaces) and cf, in one conversion.
  pm.addPass(createQShapeConvertQuantumToLLVM());
  pm.addPass(createQShapeEmitCatalystPyface());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void registerConversionPasses() {
  registerQShapeConversionPasses();
  PassPipelineRegistration<LowerToLLVMPipelineOptions>(
      "qshape-lower-to-llvm",
      "Lower a Catalyst-shaped quantum module (tensor level) to the LLVM dialect, calling "
      "Catalyst's runtime C ABI: qshape-canonicalize and qshape-roll-loops (optional), "
      "qshape-flatten-modules, qshape-catalyst-entry-points, qshape-lower-ctrl, "
      "qshape-lower-adjoint, qshape-bufferize-quantum, qshape-lower-argument-reads, "
      "one-shot-bufferize, "
      "qshape-free-local-buffers, the upstream conversions to LLVM, "
      "qshape-convert-quantum-to-llvm, qshape-emit-catalyst-pyface, reconcile-unrealized-casts "
      "(docs/native.md)",
      buildLowerToLLVMPipeline);
}

} // namespace qshape
