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
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace qshape {

struct CanonicalizeOptions {
  /// Replace every location with `loc(unknown)`.
  bool stripLocations = false;
  /// Reorder independent ops into the canonical order (rule 6).
  bool reorder = true;
  /// Apply the rules one by one to the IR (the reference implementation)
  /// instead of computing the result on the canonical view and writing it
  /// back. Same result, several times slower on large modules; tests compare
  /// the two.
  bool reference = false;
  /// Sort floating-point constants by value (rule 2). Off, they keep the
  /// order they were found in: for a pass that canonicalizes again before
  /// it finishes and would sort them for nothing (qshape-roll-loops moves
  /// most angles into tables). Only the view applies it.
  bool sortFloatConstants = true;
};

/// What canonicalization changed, for pass statistics.
struct CanonicalizeStats {
  uint64_t staticIndices = 0;
  uint64_t constantsMerged = 0;
  uint64_t opsMerged = 0;
  uint64_t accessesForwarded = 0;
  uint64_t deadOpsErased = 0;
  uint64_t blocksReordered = 0;
  /// Ops nested in the root when canonicalization started.
  uint64_t opsBefore = 0;
};

/// The blocks nested in a root after canonicalize(), in Operation::walk's
/// post-order (inner blocks first), each with its ops in order: for a pass
/// that goes on to visit them, which would otherwise walk the IR again (on a
/// large block every step of a walk is a cache miss).
struct BlockOrder {
  llvm::SmallVector<mlir::Block *> blocks;
  llvm::SmallVector<std::vector<mlir::Operation *>> ops; ///< ops[i]: blocks[i]'s
};

/// Canonicalizes every function-like op nested in (or equal to) `root`.
/// Computed on the fingerprint's canonical view and written back to the IR
/// (lib/Fingerprint/CanonicalView.h); the rule-by-rule implementation runs
/// with `options.reference`, without reordering, or when the view cannot
/// represent `root`.
/// With `order`, also records the resulting blocks.
mlir::LogicalResult canonicalize(mlir::Operation *root, const CanonicalizeOptions &options,
                                 CanonicalizeStats *stats = nullptr,
                                 BlockOrder *order = nullptr);

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
/// Puts the `n` ops `opAt(0) .. opAt(n - 1)` (all of `block`, or moving into
/// it) in that order right before `end` (null: the end of `block`), moving
/// only those not already right before their successor. Walks from the back
/// over the caller's array, never over the block's list (on large blocks each
/// step of a list walk is a cache miss), prefetching a few ops ahead.
/// Returns whether an op moved.
bool placeInOrder(mlir::Block &block, size_t n,
                  llvm::function_ref<mlir::Operation *(size_t)> opAt, mlir::Operation *end);
} // namespace canonical

} // namespace qshape

#endif // QSHAPE_FINGERPRINT_CANONICALFORM_H
