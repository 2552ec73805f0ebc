//===- Passes.h - qshape's passes to native code ----------------*- C++ -*-===//

#ifndef QSHAPE_CONVERSION_PASSES_H
#define QSHAPE_CONVERSION_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace qshape {

#define GEN_PASS_DECL
#include "qshape/Conversion/Passes.h.inc"

/// Options of the `qshape-lower-to-llvm` pipeline.
struct LowerToLLVMPipelineOptions : public mlir::PassPipelineOptions<LowerToLLVMPipelineOptions> {
  PassOptions::Option<bool> canonicalize{
      *this, "canonicalize",
      llvm::cl::desc("Run qshape-canonicalize first (the canonical form rolling starts from)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> roll{
      *this, "roll",
      llvm::cl::desc("Run qshape-roll-loops: re-roll unrolled repetitions into scf.for loops"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> verifyRoundtrip{
      *this, "verify-roundtrip",
      llvm::cl::desc("Pass verify-roundtrip to qshape-roll-loops (unroll every new loop again "
                     "and compare fingerprints)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> lowerArgumentReads{
      *this, "lower-argument-reads",
      llvm::cl::desc("Run qshape-lower-argument-reads before one-shot-bufferize (off: the "
                     "analysis is quadratic in the reads of one argument)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> genericAllocFunctions{
      *this, "generic-alloc-functions",
      llvm::cl::desc("Allocate buffers through _mlir_memref_to_llvm_alloc/_free (Catalyst's "
                     "runtime defines them) instead of libc malloc/free, and return every "
                     "result in such a buffer (qshape-copy-unowned-results)"),
      llvm::cl::init(false)};
};

/// The passes of `qshape-lower-to-llvm`, in order (docs/native.md).
void buildLowerToLLVMPipeline(mlir::OpPassManager &pm, const LowerToLLVMPipelineOptions &options);

/// Registers the passes of this library and the `qshape-lower-to-llvm`
/// pipeline (called by qshape::registerAllPasses).
void registerConversionPasses();

} // namespace qshape

#endif // QSHAPE_CONVERSION_PASSES_H
