//===- LoopBuilder.h - qshape-roll-loops: building the loop -----*- C++ -*-===//
//
// Carries out a RunPlan: tables before the loop, one scf.for whose body is
// copy 0 with every operand obtained as the plan says, the uses after the
// run rewired to the loop's results, and the copies erased.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TRANSFORMS_ROLLLOOPS_LOOPBUILDER_H
#define QSHAPE_TRANSFORMS_ROLLLOOPS_LOOPBUILDER_H

#include "RunPlan.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <tuple>

namespace qshape::roll {

using llvm::ArrayRef;
using llvm::DenseMap;
using mlir::Location;
using mlir::OpBuilder;
using mlir::Operation;
using mlir::Type;
using mlir::Value;

class LoopBuilder {
public:
  LoopBuilder(ArrayRef<Operation *> ops, RunPlan &plan) : ops(ops), plan(plan) {}
  mlir::scf::ForOp build();

private:
  Operation *at(unsigned c, unsigned j) const { return ops[plan.start + c * plan.period + j]; }
  Value indexValue(OpBuilder &b, Location loc, Value iv, Type type, int64_t base, int64_t stride);
  Value tableValue(OpBuilder &b, Location loc, Value iv, Value table);
  /// The constant table of `op`'s per-copy constants before the loop, one
  /// per distinct contents.
  Value constantTable(OpBuilder &b, Location loc, const OperandPlan &op);

  ArrayRef<Operation *> ops;
  RunPlan &plan;
  // One value per distinct affine expression of the induction variable.
  DenseMap<std::tuple<Type, int64_t, int64_t>, Value> affineValues;
  // Constant tables by contents, and each table's extract in the body.
  DenseMap<mlir::Attribute, Value> constantTables;
  DenseMap<Value, Value> tableExtracts;
};

} // namespace qshape::roll

#endif // QSHAPE_TRANSFORMS_ROLLLOOPS_LOOPBUILDER_H
