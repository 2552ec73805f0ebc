//===- GivenOrderTest.cpp - when the given order goes first ---------------===//
//
// givenOrderRepeatsWhole must see layers that differ only in their angles,
// and must not see blocks that differ in a wire (QPE's controlled powers)
// or too few layers. givenOrderRepeatsLayers must see layers that pair
// wires otherwise from layer to layer, and neither layers alike nor chains
// of gates on one wire after another. givenOrderGoesFirst must also see a
// few layers that pair wires (QAOA's), which the canonical order would
// interleave, and not layers closed by a gate on all their wires
// (Grover's). hoistConstants must move every constant, and nothing else,
// to the start of its block in order. The quantum ops are
// unregistered, as the upstream mlir-opt plugin sees them.
//
//===----------------------------------------------------------------------===//

#include "RollLoops/GivenOrder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir;
using namespace qshape::roll;

namespace {

/// A function of `wires` qubits, extracted from its register argument, whose
/// body `emit` writes with the helpers below.
class Program {
public:
  explicit Program(unsigned wires) {
    text = "func.func @f(%r: !quantum.reg) {\n";
    for (unsigned w = 0; w < wires; ++w)
      qubit.push_back(def("\"quantum.extract\"(%r) <{idx_attr = " + std::to_string(w) +
                          " : i64}> : (!quantum.reg) -> !quantum.bit"));
  }

  /// RX(angle) on wire w, the angle a constant defined just before it.
  void rx(unsigned w, double angle) {
    std::string t =
        def("\"arith.constant\"() <{value = " + std::to_string(angle) + " : f64}> : () -> f64");
    qubit[w] = def("\"quantum.custom\"(" + t + ", " + qubit[w] +
                   ") <{gate_name = \"RX\", operandSegmentSizes = array<i32: 1, 1, 0, 0>, "
                   "resultSegmentSizes = array<i32: 1, 0>}> : (f64, !quantum.bit) -> !quantum.bit");
  }

  void cnot(unsigned c, unsigned t) {
    std::string out =
        def("\"quantum.custom\"(" + qubit[c] + ", " + qubit[t] +
                ") <{gate_name = \"CNOT\", operandSegmentSizes = array<i32: 0, 2, 0, 0>, "
                "resultSegmentSizes = array<i32: 2, 0>}> : (!quantum.bit, !quantum.bit) "
                "-> (!quantum.bit, !quantum.bit)",
            2);
    qubit[c] = out + "#0", qubit[t] = out + "#1";
  }

  void toffoli(unsigned a, unsigned b, unsigned t) {
    std::string out = def("\"quantum.custom\"(" + qubit[a] + ", " + qubit[b] + ", " + qubit[t] +
                              ") <{gate_name = \"Toffoli\", operandSegmentSizes = array<i32: 0, "
                              "3, 0, 0>, resultSegmentSizes = array<i32: 3, 0>}> : (!quantum.bit, "
                              "!quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit, "
                              "!quantum.bit)",
                          3);
    qubit[a] = out + "#0", qubit[b] = out + "#1", qubit[t] = out + "#2";
  }

  std::string finish() { return text + "  return\n}\n"; }

private:
  std::string def(const std::string &rhs, unsigned results = 1) {
    std::string name = "%v" + std::to_string(next++);
    text += "  " + name + (results > 1 ? ":" + std::to_string(results) : "") + " = " + rhs + "\n";
    return name;
  }

  std::string text;
  std::vector<std::string> qubit;
  unsigned next = 0;
};

struct GivenOrder : ::testing::Test {
  void SetUp() override {
    ctx.allowUnregisteredDialects();
    ctx.loadDialect<arith::ArithDialect, func::FuncDialect>();
  }

  Operation *parse(const std::string &text) {
    module = parseSourceString<ModuleOp>(text, &ctx);
    return module ? &module->getBody()->front() : nullptr;
  }

  /// `layers` layers on 3 wires: RX on each (angles differ per layer), then
  /// CNOT(0, 1), CNOT(1, 2).
  static std::string layered(unsigned layers) {
    Program p(3);
    for (unsigned l = 0; l < layers; ++l) {
      for (unsigned w = 0; w < 3; ++w)
        p.rx(w, 0.1 * l + w);
      p.cnot(0, 1), p.cnot(1, 2);
    }
    return p.finish();
  }

  /// `layers` layers on 3 wires, each closed by a gate on all three: RX on
  /// each, then Toffoli(0, 1, 2).
  static std::string closed(unsigned layers) {
    Program p(3);
    for (unsigned l = 0; l < layers; ++l) {
      for (unsigned w = 0; w < 3; ++w)
        p.rx(w, 0.1 * l + w);
      p.toffoli(0, 1, 2);
    }
    return p.finish();
  }

  /// StronglyEntanglingLayers' shape on 4 wires: RX on each, then
  /// CNOT(w, (w + r) mod 4) with the range r = 1 + l mod 3 of layer l.
  static std::string entangling(unsigned layers) {
    Program p(4);
    for (unsigned l = 0; l < layers; ++l) {
      for (unsigned w = 0; w < 4; ++w)
        p.rx(w, 0.1 * l + w);
      for (unsigned w = 0; w < 4; ++w)
        p.cnot(w, (w + 1 + l % 3) % 4);
    }
    return p.finish();
  }

  /// W1's shape: on each wire in turn, `gates` RX, `layers` times over.
  static std::string chains(unsigned layers, unsigned gates) {
    Program p(5);
    for (unsigned l = 0; l < layers; ++l)
      for (unsigned w = 0; w < 5; ++w)
        for (unsigned g = 0; g < gates; ++g)
          p.rx(w, 0.1 * g);
    return p.finish();
  }

  /// QPE's shape: 4 blocks of 10 steps CNOT(c, 0) RX(t) CNOT(c, 0), the
  /// control c = 1 + k in block k, or always 1 with `sameControl`.
  static std::string blocks(bool sameControl) {
    Program p(5);
    for (unsigned k = 0; k < 4; ++k)
      for (unsigned step = 0; step < 10; ++step) {
        unsigned c = sameControl ? 1 : 1 + k;
        p.cnot(c, 0), p.rx(0, 0.5 * (k + 1)), p.cnot(c, 0);
      }
    return p.finish();
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

TEST_F(GivenOrder, SeesLayersThatDifferInTheirAngles) {
  Operation *func = parse(layered(20));
  ASSERT_TRUE(func);
  EXPECT_TRUE(givenOrderRepeatsWhole(func, 16));
}

TEST_F(GivenOrder, WantsTheCopiesItIsAskedFor) {
  Operation *func = parse(layered(10));
  ASSERT_TRUE(func);
  EXPECT_FALSE(givenOrderRepeatsWhole(func, 16));
  EXPECT_TRUE(givenOrderRepeatsWhole(func, 8));
}

TEST_F(GivenOrder, BlocksThatDifferInAWireAreNotOneRun) {
  Operation *func = parse(blocks(/*sameControl=*/false));
  ASSERT_TRUE(func);
  EXPECT_FALSE(givenOrderRepeatsWhole(func, 16));
  // The same blocks on one control wire are one run of 40 steps.
  func = parse(blocks(/*sameControl=*/true));
  ASSERT_TRUE(func);
  EXPECT_TRUE(givenOrderRepeatsWhole(func, 16));
}

TEST_F(GivenOrder, SeesLayersThatPairWiresOtherwise) {
  // 8 layers: with their wires, the gates repeat every 3 layers only.
  Operation *func = parse(entangling(8));
  ASSERT_TRUE(func);
  EXPECT_FALSE(givenOrderRepeatsWhole(func, 3));
  EXPECT_TRUE(givenOrderRepeatsLayers(func, 3));
  // 3 layers, fewer than the ranges: with their wires they never repeat.
  func = parse(entangling(3));
  ASSERT_TRUE(func);
  EXPECT_FALSE(givenOrderRepeatsWhole(func, 2));
  EXPECT_TRUE(givenOrderRepeatsLayers(func, 3));
  // Layers that pair wires alike repeat whole; chains that each act on
  // another wire are no layers.
  func = parse(layered(8));
  ASSERT_TRUE(func);
  EXPECT_FALSE(givenOrderRepeatsLayers(func, 3));
  func = parse(chains(3, 2));
  ASSERT_TRUE(func);
  EXPECT_FALSE(givenOrderRepeatsLayers(func, 3));
  // (two gates of one chain, where the probe looks, act on one wire alike)
  func = parse(chains(8, 2));
  ASSERT_TRUE(func);
  EXPECT_FALSE(givenOrderRepeatsLayers(func, 3));
  func = parse(blocks(/*sameControl=*/false));
  ASSERT_TRUE(func);
  EXPECT_FALSE(givenOrderRepeatsLayers(func, 3));
}

TEST_F(GivenOrder, SendsFewLayersFirstWhenTheCanonicalOrderWouldInterleaveThem) {
  // 8 layers are fewer than the 16 that roll whole for sure, and they pair
  // wires alike: only the open-layers probe sees them.
  Operation *func = parse(layered(8));
  ASSERT_TRUE(func);
  EXPECT_FALSE(givenOrderRepeatsWhole(func, 16));
  EXPECT_FALSE(givenOrderRepeatsLayers(func, 3));
  EXPECT_TRUE(givenOrderGoesFirst(func, 16, 3));
  // Too few layers; layers closed by a gate on all their wires; gates that
  // each act on one wire.
  func = parse(layered(3));
  ASSERT_TRUE(func);
  EXPECT_FALSE(givenOrderGoesFirst(func, 16, 3));
  func = parse(closed(8));
  ASSERT_TRUE(func);
  EXPECT_TRUE(givenOrderRepeatsWhole(func, 8));
  EXPECT_FALSE(givenOrderGoesFirst(func, 16, 3));
  func = parse(chains(8, 2));
  ASSERT_TRUE(func);
  EXPECT_FALSE(givenOrderGoesFirst(func, 16, 3));
}

TEST_F(GivenOrder, HoistsConstantsAndNothingElse) {
  Operation *func = parse(layered(2));
  ASSERT_TRUE(func);
  Block &body = func->getRegion(0).front();
  std::vector<Operation *> constants, others;
  for (Operation &op : body)
    (isa<arith::ConstantOp>(op) ? constants : others).push_back(&op);
  ASSERT_EQ(constants.size(), 6u);
  ASSERT_FALSE(isa<arith::ConstantOp>(body.front())); // an extract comes first
  hoistConstants(func);
  std::vector<Operation *> after;
  for (Operation &op : body)
    after.push_back(&op);
  std::vector<Operation *> expected = constants;
  expected.insert(expected.end(), others.begin(), others.end());
  EXPECT_EQ(after, expected);
}

} // namespace
