//===- LoopBuilder.h - qshape-roll-loops: building the loop -----*- C++ -*-===//
//
// Carries out a RunPlan in two steps. build() makes the tables before the
// run and one scf.for whose body is copy 0 with every operand slot obtained
// as the plan says; the run is untouched, so the replay check can compare
// the two. commit() then rewires the uses after the run to the loop and
// erases the copies; abandon() erases what build() made instead.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TRANSFORMS_ROLLLOOPS_LOOPBUILDER_H
#define QSHAPE_TRANSFORMS_ROLLLOOPS_LOOPBUILDER_H

#include "ReplayCheck.h"
#include "RunPlan.h"

#include "qshape/GateView/GateView.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <tuple>

namespace qshape::roll {

using llvm::ArrayRef;
using llvm::DenseMap;
using llvm::SmallVector;
using mlir::Location;
using mlir::OpBuilder;
using mlir::Operation;
using mlir::Type;
using mlir::Value;

class LoopBuilder {
public:
  LoopBuilder(ArrayRef<Operation *> ops, RunPlan &plan) : ops(ops), plan(plan) {}
  /// Builds the loop just before the run, which stays as it is.
  mlir::scf::ForOp build();
  /// What the replay check reads of the loop (after build()).
  BuiltLoop built() const { return {forOp, clones, writeBackOps, liveOutResults, finalReg}; }
  /// Rewires the uses after the run to the loop and erases the run.
  void commit();
  /// Erases the loop and the tables made for it; the run stays.
  void abandon();

private:
  Operation *at(unsigned c, unsigned j) const { return ops[plan.start + c * plan.period + j]; }
  /// Moves the producers of the loop's inputs that stand inside the run
  /// (extracts sunk to their first use) to just before it.
  void hoistInputs();
  void makeTables(Location loc);
  void makeLoop(Location loc);
  /// The value of operand slot m of body op j in the body (operands first,
  /// then the values the op's regions capture).
  Value slotValue(OpBuilder &bb, Location loc, unsigned j, unsigned m);
  Operation *cloneBodyOp(OpBuilder &bb, Location loc, unsigned j);
  /// The wire a WireRead slot reads in the body (shared with its write-back).
  qshape::IndexSpec wireIndex(OpBuilder &bb, Location loc, unsigned j, unsigned m);
  /// By wire: inserts each qubit of `clone` (body op j) back at its wire.
  void writeBackByWire(OpBuilder &bb, Location loc, unsigned j, Operation *clone);
  /// A Recompute plan's value, made in the body with its parts.
  Value recomputeValue(OpBuilder &bb, Location loc, const OperandPlan &op);
  void writeBackAndYield(OpBuilder &bb, Location loc);
  /// The register a wire read before the run is read from in the body.
  Value liveRegisterFor(Value reg);
  Value indexValue(OpBuilder &b, Location loc, Value iv, Type type, int64_t base, int64_t stride);
  Value tableValue(OpBuilder &b, Location loc, Value iv, Value table);
  /// The constant table of `op`'s per-copy constants before the loop, one
  /// per distinct contents.
  Value constantTable(Location loc, const OperandPlan &op);
  /// An i64 table before the loop.
  Value indexTable(Location loc, ArrayRef<int64_t> values);
  unsigned carriedIndex(std::pair<unsigned, unsigned> key) const;

  ArrayRef<Operation *> ops;
  RunPlan &plan;
  /// Builds before the run and records what it makes, for abandon().
  std::optional<OpBuilder> outer;
  SmallVector<Operation *> made;
  mlir::scf::ForOp forOp;
  Value iv;
  SmallVector<Operation *> clones;
  DenseMap<std::pair<unsigned, unsigned>, Value> tables; // (j, m) -> tensor
  DenseMap<unsigned, Value> indexTables;                 // j -> tensor<kxi64>
  DenseMap<unsigned, Value> writeBackTables;             // write-back # -> tensor<kxi64>
  // One iter_arg per (producer j, result #), in body order, then the
  // register carried only for write-backs.
  SmallVector<std::pair<unsigned, unsigned>> carriedKeys;
  SmallVector<Value> inits;
  DenseMap<Value, Value> liveReg; // register read before the run -> live value
  std::optional<unsigned> chain;  // the iter_arg of the write-backs' chain
  std::optional<unsigned> finalReg;
  SmallVector<Operation *> writeBackOps;
  SmallVector<unsigned> liveOutResults; // aligned with plan.liveOut
  // One value per distinct affine expression of the induction variable.
  DenseMap<std::tuple<Type, int64_t, int64_t>, Value> affineValues;
  // Constant tables by contents, and each table's extract in the body.
  DenseMap<mlir::Attribute, Value> constantTables;
  DenseMap<Value, Value> tableExtracts;
};

} // namespace qshape::roll

#endif // QSHAPE_TRANSFORMS_ROLLLOOPS_LOOPBUILDER_H
