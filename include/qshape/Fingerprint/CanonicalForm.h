//===- CanonicalForm.h - qshape's normal form of quantum modules -*- C++ -*-===//
//
// The normal form that makes equal programs print equally: it is what
// `qshape-canonicalize` applies and what fingerprints are computed on. The
// rules are described for users in the pass's documentation (Passes.td,
// `qshape-canonicalize`) and listed, in the order they run, in one table
// (lib/Fingerprint/CanonicalRules.def) that drives the engine, its fixpoint
// and its statistics. There is one engine: the rules run on a compact view
// of the IR (lib/Fingerprint/CanonicalView.h), which fingerprints encode
// directly and canonicalize() writes back to the IR.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_FINGERPRINT_CANONICALFORM_H
#define QSHAPE_FINGERPRINT_CANONICALFORM_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <vector>

namespace qshape {

struct EncoderTexts;

struct CanonicalizeOptions {
  /// Sort floating-point constants by value (the constants rule). Off, they
  /// keep the order they were found in: for a pass that canonicalizes again
  /// before it finishes and would sort them for nothing (qshape-roll-loops
  /// moves most angles into tables). Fingerprints do not depend on it.
  bool sortFloatConstants = true;
  /// Printed types and attributes to reuse, for a caller that canonicalizes
  /// in one context again and again (null: the view prints its own).
  EncoderTexts *texts = nullptr;
};

/// A rule of the canonical form, as the rule table lists it.
struct CanonicalRuleInfo {
  /// What its count is called: the statistic of qshape-canonicalize.
  llvm::StringLiteral statistic;
  /// What it counts, for `--mlir-pass-statistics`.
  llvm::StringLiteral description;
};

/// Every rule, in the order the rules run (CanonicalRules.def).
llvm::ArrayRef<CanonicalRuleInfo> canonicalRules();

/// What canonicalization changed, for pass statistics.
struct CanonicalizeStats {
  /// Rewrites per rule, indexed as canonicalRules() (empty until a run).
  llvm::SmallVector<uint64_t, 8> rewrites;
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

/// Canonicalizes every function-like op nested in (or equal to) `root`:
/// the rules run on the canonical view and the result is written back to the
/// IR, which changes only where it differs. With `order`, also records the
/// resulting blocks. Fails (with a diagnostic at `root`) only when the tree
/// exceeds the view's limits (2^31 ops or values).
mlir::LogicalResult canonicalize(mlir::Operation *root, const CanonicalizeOptions &options = {},
                                 CanonicalizeStats *stats = nullptr, BlockOrder *order = nullptr);

/// True if `op` is a constant whose value is floating point (scalar or dense).
bool isFloatConstant(mlir::Operation *op);

/// Predicates of the rules, on the IR. The view computes them once per op
/// when it is built; passes that move ops themselves (qshape-roll-loops) use
/// them to agree with the canonical form. The barrier rule the schedule
/// obeys is qshape::isBarrier / qshape::isPinnedByBarriers
/// (qshape/GateView/Barriers.h).
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
bool placeInOrder(mlir::Block &block, size_t n, llvm::function_ref<mlir::Operation *(size_t)> opAt,
                  mlir::Operation *end);
} // namespace canonical

} // namespace qshape

#endif // QSHAPE_FINGERPRINT_CANONICALFORM_H
