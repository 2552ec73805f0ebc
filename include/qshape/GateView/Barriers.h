//===- Barriers.h - ops nothing moves across ---------------------*- C++ -*-===//
//
// The one statement of qshape's barrier rule, for every pass that reorders
// ops (the canonical form, and so the fingerprints; the loop roller). An op
// whose effects qshape cannot know, or whose effects include a write, is a
// barrier: no op it pins may move across it, in either direction. Reading
// the ops by name through the op table (OpTable.h) and MLIR's effect
// interfaces, never through qshape's op classes, the rule gives the same
// answer in qshape-opt, in Catalyst and in upstream mlir-opt.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_GATEVIEW_BARRIERS_H
#define QSHAPE_GATEVIEW_BARRIERS_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>

namespace qshape {

/// True when `op`'s effects are unknown or include a write or a free, or when
/// it rewrites wires it does not take as operands:
/// - a quantum op the op table marks WholeDevice (`quantum.set_state`,
///   `quantum.set_basis_state`: every wire they do not list becomes |0>);
/// - an unregistered op (e.g. `"catalyst.print"` in generic form, a callback);
/// - a `quantum.*` op the op table lacks;
/// - a registered op without MemoryEffectOpInterface (e.g. `func.call`), unless
///   it has RecursiveMemoryEffects and no barrier in its regions;
/// - an op whose effects write or free (e.g. `memref.store`);
/// - an op whose regions hold a barrier (a loop around a print; adjoint/ctrl
///   around an unknown op).
/// The other quantum ops of the op table are never barriers themselves (their
/// effects are known, and on their operands' wires only), nor are
/// terminators, pure ops and ops that only read or allocate (`arith.*`,
/// `tensor.extract`, `memref.load`).
bool isBarrier(mlir::Operation *op);

/// True when a barrier pins `op`, i.e. `op` must stay on its side of every
/// barrier of its block: a quantum op (`qref.*` included, so that a qref
/// program keeps the order its value-semantics twin has), an op with effects
/// (qshape::isOrdered), or an op whose regions hold one of these (a loop of
/// gates). Other ops
/// (pure, not quantum) may move across barriers as their operands allow.
bool isPinnedByBarriers(mlir::Operation *op);

/// True when an op nested in `op` (not `op` itself) satisfies `pred`.
bool anyNestedOp(mlir::Operation *op, llvm::function_ref<bool(mlir::Operation *)> pred);

/// What an op says about a rule by itself, without its regions: yes, no,
/// or that its regions decide (a loop, an adjoint region).
enum class Inherent { No, Yes, Body };

/// A rule on `op` and what it holds: Yes on `op`, or Body on `op` and Yes
/// on an op nested at any depth. One walk asks each nested op about itself
/// only; asking the whole rule of each nested op instead walked every region
/// once more per level of nesting (2^depth). isBarrier and isOrdered are
/// decided so.
bool decideDeep(mlir::Operation *op, llvm::function_ref<Inherent(mlir::Operation *)> inherent);

/// qshape::isOrdered of `op` by itself (GateView.h): Body where its regions
/// decide.
Inherent orderOf(mlir::Operation *op);

/// "An op nested in X, at any depth, satisfies `pred`", asked of many X of
/// one IR. Each X's answer is kept, so each nested op is asked once however
/// deep the nest (decideDeep asked of every op of a nest walks each body
/// once per enclosing level). The answers hold while nothing is created or
/// erased under an X already asked: clear() after such a rewrite.
class NestedRule {
public:
  explicit NestedRule(std::function<bool(mlir::Operation *)> pred) : pred(std::move(pred)) {}
  bool operator()(mlir::Operation *op);
  void clear() { memo.clear(); }

private:
  bool scan(mlir::Operation *op);

  std::function<bool(mlir::Operation *)> pred;
  llvm::DenseMap<mlir::Operation *, bool> memo;
};

/// isOrdered, isBarrier and isPinnedByBarriers for a pass that asks them of
/// every op of a nest: the same answers, each body walked once (NestedRule,
/// whose validity rule holds here too).
class DeepFacts {
public:
  DeepFacts();
  bool isOrdered(mlir::Operation *op);
  bool isBarrier(mlir::Operation *op);
  bool isPinnedByBarriers(mlir::Operation *op);
  void clear();

private:
  NestedRule orderedInside, barrierInside, pinnedInside;
};

} // namespace qshape

#endif // QSHAPE_GATEVIEW_BARRIERS_H
