//===- BarriersTest.cpp - the barrier rule, registered or not -------------===//
//
// qshape::isBarrier and qshape::isPinnedByBarriers (Barriers.h) on one
// generic-form function parsed twice: with qshape's `quantum` dialect
// registered and without it, where every quantum op is unregistered and only
// the op table knows it. The answers must not depend on the host.
//
//===----------------------------------------------------------------------===//

#include "qshape/GateView/Barriers.h"
#include "qshape/GateView/GateView.h"
#include "qshape/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <map>
#include <string>

using namespace mlir;

namespace {

// Every op to classify carries a discardable `tag`.
constexpr llvm::StringLiteral kFunction = R"mlir(
"builtin.module"() ({
  "func.func"() <{function_type = (!quantum.reg, memref<f64>, f64, index, !quantum.bit, tensor<2xcomplex<f64>>, tensor<1xi1>) -> (), sym_name = "f"}> ({
  ^bb0(%r: !quantum.reg, %m: memref<f64>, %x: f64, %i: index, %w: !quantum.bit, %st: tensor<2xcomplex<f64>>, %bits: tensor<1xi1>):
    %q = "quantum.extract"(%r) <{idx_attr = 0 : i64}> {tag = "extract"} : (!quantum.reg) -> !quantum.bit
    %h = "quantum.custom"(%q) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> {tag = "gate"} : (!quantum.bit) -> !quantum.bit
    %b, %q2 = "quantum.measure"(%h) {tag = "measure"} : (!quantum.bit) -> (i1, !quantum.bit)
    %q3 = "quantum.set_state"(%st, %q2) {tag = "set_state"} : (tensor<2xcomplex<f64>>, !quantum.bit) -> !quantum.bit
    %q4 = "quantum.set_basis_state"(%bits, %q3) {tag = "set_basis_state"} : (tensor<1xi1>, !quantum.bit) -> !quantum.bit
    "catalyst.print"() {const_val = "mid", tag = "print"} : () -> ()
    "quantum.not_in_the_table"() {tag = "unknown_quantum"} : () -> ()
    "memref.store"(%x, %m) {tag = "store"} : (f64, memref<f64>) -> ()
    %l = "memref.load"(%m) {tag = "load"} : (memref<f64>) -> f64
    %a = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> {tag = "alloc"} : () -> memref<f64>
    %s = "arith.addf"(%l, %x) <{fastmath = #arith.fastmath<none>}> {tag = "pure"} : (f64, f64) -> f64
    "func.call"() <{callee = @g}> {tag = "call"} : () -> ()
    "scf.for"(%i, %i, %i) ({
    ^bb0(%iv: index):
      "catalyst.print"() {const_val = "in a loop"} : () -> ()
      "scf.yield"() : () -> ()
    }) {tag = "loop_print"} : (index, index, index) -> ()
    "scf.for"(%i, %i, %i) ({
    ^bb0(%iv: index):
      %z = "arith.addf"(%x, %x) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
      "scf.yield"() : () -> ()
    }) {tag = "loop_pure"} : (index, index, index) -> ()
    %lq = "scf.for"(%i, %i, %i, %w) ({
    ^bb0(%iv: index, %c: !quantum.bit):
      %t = "quantum.custom"(%c) <{gate_name = "T", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
      "scf.yield"(%t) : (!quantum.bit) -> ()
    }) {tag = "loop_gates"} : (index, index, index, !quantum.bit) -> !quantum.bit
    %adj = "quantum.adjoint"(%r) ({
    ^bb0(%ar: !quantum.reg):
      "catalyst.print"() {const_val = "in an adjoint"} : () -> ()
      "quantum.yield"(%ar) : (!quantum.reg) -> ()
    }) {tag = "adjoint_print"} : (!quantum.reg) -> !quantum.reg
    %adj2 = "quantum.adjoint"(%r) ({
    ^bb0(%ar: !quantum.reg):
      "quantum.yield"(%ar) : (!quantum.reg) -> ()
    }) {tag = "adjoint_pure"} : (!quantum.reg) -> !quantum.reg
    "func.return"() {tag = "return"} : () -> ()
  }) : () -> ()
  "func.func"() <{function_type = () -> (), sym_name = "g", sym_visibility = "private"}> ({
  }) : () -> ()
}) : () -> ()
)mlir";

struct Expected {
  bool barrier;
  bool pinned;
};

const std::map<std::string, Expected> kExpected = {
    // Quantum ops of the op table: known effects, never barriers; pinned.
    {"extract", {false, true}},
    {"gate", {false, true}},
    {"measure", {false, true}},
    {"loop_gates", {false, true}},
    {"adjoint_pure", {false, true}},
    // They rewrite every wire of the device, also those they do not list.
    {"set_state", {true, true}},
    {"set_basis_state", {true, true}},
    // Unknown effects or a write.
    {"print", {true, true}},
    {"unknown_quantum", {true, true}},
    {"store", {true, true}},
    {"call", {true, true}},
    {"loop_print", {true, true}},
    {"adjoint_print", {true, true}},
    // Reads and allocations are effects (pinned), not barriers.
    {"load", {false, true}},
    {"alloc", {false, true}},
    // Pure: free to move.
    {"pure", {false, false}},
    {"loop_pure", {false, false}},
    {"return", {false, false}},
};

class BarriersTest : public ::testing::TestWithParam<bool> {};

TEST_P(BarriersTest, RuleDoesNotDependOnTheHost) {
  bool registered = GetParam();
  DialectRegistry registry;
  registry.insert<arith::ArithDialect, func::FuncDialect, memref::MemRefDialect, scf::SCFDialect>();
  if (registered)
    qshape::registerQuantumDialect(registry);
  MLIRContext ctx(registry);
  ctx.allowUnregisteredDialects(true);
  ParserConfig config(&ctx, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kFunction, config);
  ASSERT_TRUE(module);

  std::map<std::string, Expected> seen;
  module->walk([&](Operation *op) {
    if (auto tag = op->getAttrOfType<StringAttr>("tag"))
      seen[tag.str()] = {qshape::isBarrier(op), qshape::isPinnedByBarriers(op)};
  });
  // The memoized rule of a pass gives the same answers, asked outer op first.
  qshape::DeepFacts facts;
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    std::string name = op->getName().getStringRef().str();
    EXPECT_EQ(facts.isBarrier(op), qshape::isBarrier(op)) << name;
    EXPECT_EQ(facts.isOrdered(op), qshape::isOrdered(op)) << name;
    EXPECT_EQ(facts.isPinnedByBarriers(op), qshape::isPinnedByBarriers(op)) << name;
  });
  ASSERT_EQ(seen.size(), kExpected.size());
  for (const auto &[tag, want] : kExpected) {
    ASSERT_TRUE(seen.count(tag)) << tag;
    EXPECT_EQ(seen[tag].barrier, want.barrier) << tag << (registered ? " (registered)" : "");
    EXPECT_EQ(seen[tag].pinned, want.pinned) << tag << (registered ? " (registered)" : "");
  }
}

/// `depth` nested scf.execute_region ops around one arith op.
static std::string nest(unsigned depth) {
  std::string text = "func.func @f(%x: f64) {\n";
  for (unsigned i = 0; i < depth; ++i)
    text += "scf.execute_region {\n";
  text += "%y = arith.addf %x, %x : f64\n";
  for (unsigned i = 0; i < depth; ++i)
    text += "scf.yield\n}\n";
  return text + "return\n}\n";
}

TEST(NestedRuleTest, AsksEachNestedOpOnceWhateverIsAsked) {
  MLIRContext ctx;
  ctx.loadDialect<arith::ArithDialect, func::FuncDialect, scf::SCFDialect>();
  constexpr unsigned kDepth = 64;
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(nest(kDepth), &ctx);
  ASSERT_TRUE(module);
  unsigned asked = 0;
  auto counting = [&](auto pred) {
    return qshape::NestedRule([&asked, pred](Operation *op) {
      ++asked;
      return pred(op);
    });
  };
  // A rule no op satisfies: every nested op is asked, each once, though
  // every level is asked, outermost first, as a pass asks (without the memo
  // each level asks the whole body under it again: 64 * 65 times).
  qshape::NestedRule mulInside = counting([](Operation *op) { return isa<arith::MulFOp>(op); });
  unsigned levels = 0;
  module->walk<WalkOrder::PreOrder>([&](scf::ExecuteRegionOp region) {
    EXPECT_FALSE(mulInside(region));
    ++levels;
  });
  EXPECT_EQ(levels, kDepth);
  EXPECT_EQ(asked, 2 * kDepth) << "the nested execute_region and yield ops, and the addf";
  // A rule an innermost op satisfies: true at every level.
  asked = 0;
  qshape::NestedRule addInside = counting([](Operation *op) { return isa<arith::AddFOp>(op); });
  module->walk<WalkOrder::PreOrder>(
      [&](scf::ExecuteRegionOp region) { EXPECT_TRUE(addInside(region)); });
  EXPECT_LE(asked, 2 * kDepth);
  // An op without regions holds nothing, and is not asked about itself.
  asked = 0;
  module->walk([&](func::ReturnOp ret) { EXPECT_FALSE(addInside(ret)); });
  EXPECT_EQ(asked, 0u);
}

INSTANTIATE_TEST_SUITE_P(Hosts, BarriersTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool> &info) {
                           return info.param ? "Registered" : "Unregistered";
                         });

} // namespace
