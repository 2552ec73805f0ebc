//===- SupportTest.cpp - the roller's memory helpers ----------------------===//
//
// QubitWires must give back the wire of every value it was told, however
// many more values than its small table holds (those pushed out live in its
// map), exactly once, and -1 for a value it was never told. The table only
// compares and hashes the values' pointers, so the values here are made up.
//
//===----------------------------------------------------------------------===//

#include "RollLoops/Support.h"

#include "gtest/gtest.h"

#include <cstdint>

using namespace mlir;
using namespace qshape::roll;

namespace {

/// A made-up value: QubitWires never reads through it.
Value fake(uintptr_t i) { return Value::getFromOpaquePointer(reinterpret_cast<void *>(8 * (i + 1))); }

TEST(QubitWires, GivesBackEveryWireOnceWhenMostAreSpilled) {
  constexpr unsigned kValues = 20000; // five times the table
  QubitWires wires(kValues);
  for (unsigned i = 0; i < kValues; ++i)
    wires.set(fake(i), i % 97);
  for (unsigned i = 0; i < kValues; ++i)
    ASSERT_EQ(wires.take(fake(i)), int64_t(i % 97)) << "value " << i;
  for (unsigned i = 0; i < kValues; i += 1000)
    EXPECT_EQ(wires.take(fake(i)), -1) << "value " << i << " was taken already";
}

TEST(QubitWires, FollowsAChainAndKnowsNothingElse) {
  // Each gate reads the last value of its wire and makes the next.
  QubitWires wires(64);
  unsigned next = 0;
  uintptr_t last[4];
  for (unsigned w = 0; w < 4; ++w)
    wires.set(fake(last[w] = next++), w);
  for (unsigned gate = 0; gate < 1000; ++gate) {
    unsigned w = gate % 4;
    ASSERT_EQ(wires.take(fake(last[w])), int64_t(w)) << "gate " << gate;
    wires.set(fake(last[w] = next++), w);
  }
  EXPECT_EQ(wires.take(fake(next + 5)), -1);
}

TEST(QubitWires, KeepsTheLastWireOfAValue) {
  QubitWires wires(4);
  wires.set(fake(1), 3);
  wires.set(fake(1), 5);
  EXPECT_EQ(wires.take(fake(1)), 5);
  EXPECT_EQ(wires.take(fake(1)), -1);
}

} // namespace
