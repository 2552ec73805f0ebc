//===- OpTableTest.cpp - the op table agrees with the dialect -------------===//
//
// OpTable.def is the one list passes read; qshape's ODS is the dialect.
// These tests keep the two equal: the same op names, segment attributes
// exactly where the table has several non-single groups, and group sizes
// that add up on every op of the dialect's round-trip test.
//
//===----------------------------------------------------------------------===//

#include "qshape/GateView/OpTable.h"
#include "qshape/InitAll.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringSet.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace qshape;

namespace {

struct OpTableTest : ::testing::Test {
  OpTableTest() {
    DialectRegistry registry;
    registerToolDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }
  MLIRContext ctx;
};

unsigned nonSingle(llvm::ArrayRef<OpGroup> groups) {
  unsigned n = 0;
  for (const OpGroup &g : groups)
    n += g.arity != GroupArity::Single;
  return n;
}

TEST_F(OpTableTest, SameOpsAsTheDialect) {
  llvm::StringSet<> registered;
  for (RegisteredOperationName name : ctx.getRegisteredOperations())
    if (name.getDialectNamespace() == "quantum")
      registered.insert(name.getStringRef());
  llvm::StringSet<> rows;
  for (const QuantumOpInfo &info : getQuantumOpTable()) {
    rows.insert(info.name);
    EXPECT_TRUE(registered.contains(info.name)) << info.name.str() << " has no ODS op";
    EXPECT_EQ(lookupQuantumOp(info.name), &info);
    EXPECT_EQ(&getQuantumOpInfo(info.id), &info);
    EXPECT_EQ(info.name, ("quantum." + info.mnemonic).str());
  }
  for (const auto &name : registered)
    EXPECT_TRUE(rows.contains(name.getKey())) << name.getKey().str() << " has no op-table row";
  EXPECT_EQ(lookupQuantumOp("quantum.nosuchop"), nullptr);
  EXPECT_EQ(lookupQuantumOp("arith.addf"), nullptr);
}

TEST_F(OpTableTest, SegmentTraitsMatchTheGroups) {
  for (const QuantumOpInfo &info : getQuantumOpTable()) {
    std::optional<RegisteredOperationName> name = RegisteredOperationName::lookup(info.name, &ctx);
    ASSERT_TRUE(name) << info.name.str();
    bool operandSegments = name->hasTrait<OpTrait::AttrSizedOperandSegments>();
    bool resultSegments = name->hasTrait<OpTrait::AttrSizedResultSegments>();
    // Segment sizes mean several groups vary in size. The converse has one
    // exception in ODS (SameVariadic*Size, an internal trait with no C++
    // class): counts' two optional results, which the next test sizes.
    EXPECT_EQ(operandSegments, nonSingle(info.operands) > 1) << info.name.str();
    EXPECT_EQ(resultSegments, nonSingle(info.results) > 1 && info.id != QOp::Counts)
        << info.name.str();
  }
}

TEST_F(OpTableTest, GroupsCoverEveryOperandOfTheRoundTripTest) {
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(QSHAPE_SOURCE_DIR "/test/Dialect/Quantum/round-trip.mlir", &ctx);
  ASSERT_TRUE(module);
  llvm::StringSet<> seen;
  module->walk([&](Operation *op) {
    const QuantumOpInfo *info = lookupQuantumOp(op);
    if (!info)
      return;
    seen.insert(info->name);
    if (auto sizes = dyn_cast_or_null<DenseI32ArrayAttr>(op->getAttr("operandSegmentSizes")))
      EXPECT_EQ(sizes.size(), static_cast<int64_t>(info->operands.size())) << info->name.str();
    if (auto sizes = dyn_cast_or_null<DenseI32ArrayAttr>(op->getAttr("resultSegmentSizes")))
      EXPECT_EQ(sizes.size(), static_cast<int64_t>(info->results.size())) << info->name.str();
    unsigned operands = 0, results = 0;
    for (const OpGroup &g : info->operands) {
      unsigned n = getOperandGroup(op, g.role).size();
      EXPECT_TRUE(g.arity != GroupArity::Single || n == 1) << info->name.str();
      EXPECT_TRUE(g.arity != GroupArity::Optional || n <= 1) << info->name.str();
      operands += n;
    }
    for (const OpGroup &g : info->results)
      results += getResultGroup(op, g.role).size();
    EXPECT_EQ(operands, op->getNumOperands()) << info->name.str();
    EXPECT_EQ(results, op->getNumResults()) << info->name.str();
  });
  for (const QuantumOpInfo &info : getQuantumOpTable())
    EXPECT_TRUE(seen.contains(info.name)) << info.name.str() << " is not in round-trip.mlir";
}

} // namespace
