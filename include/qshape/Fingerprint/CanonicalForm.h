//===- CanonicalForm.h - qshape's normal form of quantum modules -*- C++ -*-===//
//
// The normal form that makes equal programs print equally: it is what
// `qshape-canonicalize` applies and what fingerprints are computed on.
// Rules, in order (each is idempotent; the whole is applied to a fixpoint):
//   1. constant index/size operands of extract/insert/alloc become static;
//   2. constants move to the top of the function, de-duplicated and sorted;
//   3. identical pure non-quantum ops in the same block are merged (CSE);
//   4. extract(insert(r, i, q), i) -> q; an extract at another static index
//      reads past the insert; insert(r, i, extract(r, i)) -> r;
//   5. dead ops without side effects are erased;
//   6. each block is put in one topological order derived from structure
//      alone (see scheduleBlock), keeping every side-effecting op in place
//      relative to the others.
// Ops the rules do not know are never moved across side effects, and the
// regions of unknown ops are left untouched.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_FINGERPRINT_CANONICALFORM_H
#define QSHAPE_FINGERPRINT_CANONICALFORM_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace qshape {

struct CanonicalizeOptions {
  /// Replace every location with `loc(unknown)`.
  bool stripLocations = false;
  /// Reorder independent ops into the canonical order (rule 6).
  bool reorder = true;
};

/// What canonicalization changed, for pass statistics.
struct CanonicalizeStats {
  uint64_t staticIndices = 0;
  uint64_t constantsMerged = 0;
  uint64_t opsMerged = 0;
  uint64_t accessesForwarded = 0;
  uint64_t deadOpsErased = 0;
  uint64_t blocksReordered = 0;
};

/// Canonicalizes every function-like op nested in (or equal to) `root`.
mlir::LogicalResult canonicalize(mlir::Operation *root, const CanonicalizeOptions &options,
                                 CanonicalizeStats *stats = nullptr);

/// True if `op` is a constant whose value is floating point (scalar or dense).
bool isFloatConstant(mlir::Operation *op);

/// Predicates of the rules, shared by canonicalize() and the fingerprint's
/// read-only canonical view (lib/Fingerprint/CanonicalView.cpp), which
/// mirrors every rule of CanonicalForm.cpp without cloning the IR: a change
/// to a rule there must be made in the view too (`qshape-fingerprint
/// --verify-reference` compares the two).
namespace canonical {
/// splitmix64 finalizer: a fixed, unseeded bijection (process-stable).
uint64_t mix64(uint64_t x);
/// Regions whose op order the rules may change.
bool mayEditRegionsOf(mlir::Operation *op);
/// Registered constant-like op without operands or regions and one result.
bool isConstantOp(mlir::Operation *op);
/// Pure, region-free, registered and not quantum: safe to merge when equal.
bool isMergeable(mlir::Operation *op);
/// Calls `fn` on every operand of `op` and of the ops nested in its regions
/// (what a block-level schedule must treat as `op`'s inputs).
void forEachOperandDeep(mlir::Operation *op, llvm::function_ref<void(mlir::Value)> fn);
} // namespace canonical

} // namespace qshape

#endif // QSHAPE_FINGERPRINT_CANONICALFORM_H
