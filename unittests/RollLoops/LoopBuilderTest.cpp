//===- LoopBuilderTest.cpp - slot-by-slot loops and their replay check ----===//
//
// One value filling two operand slots of an op, one slot varying and one
// not, must give a loop whose clone sets each slot from its own plan; the
// replay check must accept that loop, refuse it once a slot is wrong, and
// abandon() must leave the block as it was. The run analyzer must refuse
// a run whose first copy makes a value used after it, at once. A table of
// constant angles must hold each copy's bits, to the last one.
//
//===----------------------------------------------------------------------===//

#include "RollLoops/LoopBuilder.h"
#include "RollLoops/ReplayCheck.h"
#include "RollLoops/RunAnalyzer.h"
#include "RollLoops/Support.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir;
using namespace qshape::roll;

namespace {

// Four reads a[i, 0]: in the first, %c0 fills both index slots.
constexpr const char *kRows = R"mlir(
func.func @rows(%a: tensor<4x1xf64>) -> (f64, f64, f64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %x0 = tensor.extract %a[%c0, %c0] : tensor<4x1xf64>
  %x1 = tensor.extract %a[%c1, %c0] : tensor<4x1xf64>
  %x2 = tensor.extract %a[%c2, %c0] : tensor<4x1xf64>
  %x3 = tensor.extract %a[%c3, %c0] : tensor<4x1xf64>
  return %x0, %x1, %x2, %x3 : f64, f64, f64, f64
}
)mlir";

struct Rows : ::testing::Test {
  void SetUp() override {
    ctx.loadDialect<arith::ArithDialect, func::FuncDialect, scf::SCFDialect,
                    tensor::TensorDialect>();
    module = parseSourceString<ModuleOp>(kRows, &ctx);
    ASSERT_TRUE(module);
    func = cast<func::FuncOp>(module->getBody()->front());
    for (Operation &op : func.getBody().front())
      if (isa<tensor::ExtractOp>(op))
        ops.push_back(&op);
    ASSERT_EQ(ops.size(), 4u);
    index.assign(ops);
    c0 = ops[0]->getOperand(1);
  }

  /// The plan of the four reads, slot by slot: the tensor and the column
  /// are invariant, the row is affine (0, 1, 2, 3). The uses after the run
  /// (the return) are left out: the check must see them.
  RunPlan plan() const {
    RunPlan p;
    p.start = 0, p.period = 1, p.copies = 4;
    p.indices.assign(1, {});
    p.operands.assign(1, {});
    OperandPlan tensor;
    tensor.kind = OperandPlan::Invariant;
    tensor.invariant = ops[0]->getOperand(0);
    OperandPlan row;
    row.kind = OperandPlan::AffineInt;
    row.base = 0, row.stride = 1;
    for (Operation *op : ops)
      row.perCopy.push_back(op->getOperand(1));
    OperandPlan column;
    column.kind = OperandPlan::Invariant;
    column.invariant = c0;
    p.operands[0] = {tensor, row, column};
    return p;
  }

  unsigned countOps() {
    unsigned n = 0;
    func.walk([&](Operation *) { ++n; });
    return n;
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  std::vector<Operation *> ops;
  OpPositions index;
  Value c0;
};

TEST_F(Rows, EachSlotHasItsOwnPlan) {
  RunPlan p = plan();
  LoopBuilder builder(ops, p);
  scf::ForOp loop = builder.build();
  Operation *clone = builder.built().bodyOps[0];
  // The row is the induction variable, the column stays %c0: planned by
  // value, one of the two would have taken the other's value.
  EXPECT_EQ(clone->getOperand(1), loop.getInductionVar());
  EXPECT_EQ(clone->getOperand(2), c0);
  builder.abandon();
}

TEST_F(Rows, ReplayCheckRefusesAWrongSlotAndAnUnservedUse) {
  unsigned before = countOps();
  RunPlan p = plan();
  LoopBuilder builder(ops, p);
  scf::ForOp loop = builder.build();
  std::string why;
  // The return reads every copy's result, which the plan does not serve.
  EXPECT_TRUE(failed(checkReplay(builder.built(), ops, index, p, why)));
  EXPECT_NE(why.find("used after the run"), std::string::npos) << why;
  // A column that follows the row is wrong from copy 1 on.
  builder.built().bodyOps[0]->setOperand(2, loop.getInductionVar());
  why.clear();
  EXPECT_TRUE(failed(checkReplay(builder.built(), ops, index, p, why)));
  EXPECT_NE(why.find("op 0 of copy 1"), std::string::npos) << why;
  EXPECT_NE(why.find("operand 2"), std::string::npos) << why;
  builder.abandon();
  EXPECT_EQ(countOps(), before);
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(Rows, ReplayCheckAcceptsTheLoopWhenNothingElseReadsTheRun) {
  // Without the return's uses, the loop replays the run exactly.
  Operation *ret = func.getBody().front().getTerminator();
  OpBuilder b(ret);
  func::ReturnOp::create(b, ret->getLoc(), ValueRange{});
  ret->erase();
  func.setType(FunctionType::get(&ctx, func.getArgumentTypes(), {}));
  RunPlan p = plan();
  LoopBuilder builder(ops, p);
  builder.build();
  std::string why;
  EXPECT_TRUE(succeeded(checkReplay(builder.built(), ops, index, p, why))) << why;
  builder.commit();
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(Rows, AnalyzerRefusesAtOnceWhatTheFirstCopyLeaves) {
  // The return reads copy 0's f64: no loop of two copies or more returns
  // it, so the analyzer says so before planning any operand (before, it
  // planned all four copies and refused late, for the driver to bisect).
  RollFacts facts;
  RunAnalyzer analyzer(ops, index, /*paramTables=*/true, /*segments=*/nullptr, facts);
  RunPlan p;
  Verdict v = analyzer.classify(0, 1, 4, p);
  EXPECT_FALSE(v);
  EXPECT_EQ(v.reason, Reject::Operands);
  EXPECT_FALSE(v.late);
  EXPECT_EQ(v.copiesOk, 1u);
  EXPECT_LE(analyzer.work, 1u);
}

// Four ops on constant angles, as W3 writes its rotations: the loop reads
// them from a table.
constexpr const char *kAngles = R"mlir(
func.func @angles() {
  %f0 = arith.constant 0.5 : f64
  %f1 = arith.constant 1.5 : f64
  %f2 = arith.constant 2.5 : f64
  %f3 = arith.constant 3.5 : f64
  %n0 = arith.negf %f0 : f64
  %n1 = arith.negf %f1 : f64
  %n2 = arith.negf %f2 : f64
  %n3 = arith.negf %f3 : f64
  return
}
)mlir";

struct Angles : ::testing::Test {
  void SetUp() override {
    ctx.loadDialect<arith::ArithDialect, func::FuncDialect, scf::SCFDialect,
                    tensor::TensorDialect>();
    module = parseSourceString<ModuleOp>(kAngles, &ctx);
    ASSERT_TRUE(module);
    auto func = cast<func::FuncOp>(module->getBody()->front());
    for (Operation &op : func.getBody().front())
      if (isa<arith::NegFOp>(op))
        ops.push_back(&op);
    ASSERT_EQ(ops.size(), 4u);
    index.assign(ops);
    p.start = 0, p.period = 1, p.copies = 4;
    p.indices.assign(1, {});
    OperandPlan angle;
    angle.kind = OperandPlan::FloatTable;
    for (Operation *op : ops)
      angle.perCopy.push_back(op->getOperand(0));
    p.operands.assign(1, {angle});
  }

  /// The table the loop reads its angle from.
  arith::ConstantOp table(const BuiltLoop &built) {
    Value t = built.bodyOps[0]->getOperand(0).getDefiningOp<tensor::ExtractOp>().getTensor();
    return t.getDefiningOp<arith::ConstantOp>();
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  std::vector<Operation *> ops;
  OpPositions index;
  RunPlan p;
};

TEST_F(Angles, ReplayCheckComparesEachAngleBitByBit) {
  LoopBuilder builder(ops, p);
  builder.build();
  std::string why;
  arith::ConstantOp t = table(builder.built());
  ASSERT_TRUE(t);
  EXPECT_TRUE(succeeded(checkReplay(builder.built(), ops, index, p, why))) << why;
  // Copy 2's angle one ulp off: the check must see it.
  auto values = llvm::to_vector(cast<DenseElementsAttr>(t.getValue()).getValues<APFloat>());
  values[2].next(/*nextDown=*/false);
  t.setValueAttr(DenseElementsAttr::get(cast<ShapedType>(t.getType()), values));
  EXPECT_TRUE(failed(checkReplay(builder.built(), ops, index, p, why)));
  EXPECT_NE(why.find("op 0 of copy 2"), std::string::npos) << why;
  builder.abandon();
}

} // namespace
