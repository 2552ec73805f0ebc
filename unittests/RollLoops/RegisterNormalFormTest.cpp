//===- RegisterNormalFormTest.cpp - reads from a chain's last register ----===//
//
// readLatestRegisters moves an extract past inserts at other wires, to read
// the last register that still holds its wire; it must stop at an insert at
// its own wire, before a user of the qubit it reads, and before a barrier.
// The quantum ops are unregistered here, as the upstream mlir-opt plugin
// sees them.
//
//===----------------------------------------------------------------------===//

#include "RollLoops/RegisterNormalForm.h"

#include "qshape/GateView/GateView.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;

namespace {

// %e reads wire 0 of %r1; then come inserts at wires 1 and 2 (or, in each
// function, what must stop the move), then the user of %e.
constexpr const char *kChains = R"mlir(
"builtin.module"() ({
  "func.func"() <{function_type = (!quantum.reg, !quantum.bit, !quantum.bit, !quantum.bit) -> (), sym_name = "past_inserts"}> ({
  ^bb0(%r0: !quantum.reg, %a: !quantum.bit, %b: !quantum.bit, %c: !quantum.bit):
    %r1 = "quantum.insert"(%r0, %a) <{idx_attr = 0 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %e = "quantum.extract"(%r1) <{idx_attr = 0 : i64}> {tag = "e"} : (!quantum.reg) -> !quantum.bit
    %r2 = "quantum.insert"(%r1, %b) <{idx_attr = 1 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %r3 = "quantum.insert"(%r2, %c) <{idx_attr = 2 : i64}> {tag = "last"} : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %g = "quantum.custom"(%e) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (!quantum.reg, !quantum.bit, !quantum.bit, !quantum.bit) -> (), sym_name = "own_wire"}> ({
  ^bb0(%r0: !quantum.reg, %a: !quantum.bit, %b: !quantum.bit, %c: !quantum.bit):
    %r1 = "quantum.insert"(%r0, %a) <{idx_attr = 0 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %e = "quantum.extract"(%r1) <{idx_attr = 0 : i64}> {tag = "e"} : (!quantum.reg) -> !quantum.bit
    %r2 = "quantum.insert"(%r1, %b) <{idx_attr = 1 : i64}> {tag = "last"} : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %r3 = "quantum.insert"(%r2, %c) <{idx_attr = 0 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %g = "quantum.custom"(%e) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (!quantum.reg, !quantum.bit, !quantum.bit) -> (), sym_name = "user_first"}> ({
  ^bb0(%r0: !quantum.reg, %a: !quantum.bit, %b: !quantum.bit):
    %r1 = "quantum.insert"(%r0, %a) <{idx_attr = 0 : i64}> {tag = "last"} : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %e = "quantum.extract"(%r1) <{idx_attr = 0 : i64}> {tag = "e"} : (!quantum.reg) -> !quantum.bit
    %g = "quantum.custom"(%e) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %r2 = "quantum.insert"(%r1, %b) <{idx_attr = 1 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    "func.return"() : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = (!quantum.reg, !quantum.bit, !quantum.bit) -> (), sym_name = "barrier"}> ({
  ^bb0(%r0: !quantum.reg, %a: !quantum.bit, %b: !quantum.bit):
    %r1 = "quantum.insert"(%r0, %a) <{idx_attr = 0 : i64}> {tag = "last"} : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %e = "quantum.extract"(%r1) <{idx_attr = 0 : i64}> {tag = "e"} : (!quantum.reg) -> !quantum.bit
    "test.opaque"() : () -> ()
    %r2 = "quantum.insert"(%r1, %b) <{idx_attr = 1 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %g = "quantum.custom"(%e) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    "func.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
)mlir";

struct ReadLatest : ::testing::Test {
  void SetUp() override {
    ctx.allowUnregisteredDialects();
    module = parseSourceString<ModuleOp>(kChains, &ctx);
    ASSERT_TRUE(module);
  }

  /// Runs readLatestRegisters on function `name`; returns whether it moved
  /// anything, and checks that the extract tagged "e" reads the register of
  /// the insert tagged "last" and stands right after it.
  bool readsLast(StringRef name) {
    Block *body = nullptr;
    for (Operation &f : *module->getBody())
      if (f.getAttrOfType<StringAttr>("sym_name").getValue() == name)
        body = &f.getRegion(0).front();
    EXPECT_TRUE(body);
    bool moved = qshape::roll::readLatestRegisters(*body);
    Operation *e = nullptr, *last = nullptr;
    for (Operation &op : *body) {
      if (auto tag = op.getAttrOfType<StringAttr>("tag"))
        (tag.getValue() == "e" ? e : last) = &op;
    }
    EXPECT_TRUE(e && last);
    EXPECT_EQ(qshape::RegisterAccess::get(e)->reg, last->getResult(0)) << name.str();
    EXPECT_EQ(last->getNextNode(), e) << name.str();
    return moved;
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

TEST_F(ReadLatest, MovesPastInsertsAtOtherWires) { EXPECT_TRUE(readsLast("past_inserts")); }

TEST_F(ReadLatest, StopsAtAnInsertAtItsWire) { EXPECT_TRUE(readsLast("own_wire")); }

TEST_F(ReadLatest, StopsBeforeAUserOfItsQubit) { EXPECT_FALSE(readsLast("user_first")); }

TEST_F(ReadLatest, StopsBeforeABarrier) { EXPECT_FALSE(readsLast("barrier")); }

} // namespace
