//===- SupportTest.cpp - the roller's memory helpers ----------------------===//
//
// RecentValueMap must give back what every value was mapped to, however
// many more values than its small table holds (those pushed out live in its
// map) and while the table grows; take() must forget and lookup() must not;
// a value never mapped has nothing. The map only compares and hashes the
// values' pointers, so the values here are made up.
//
//===----------------------------------------------------------------------===//

#include "RollLoops/Support.h"

#include "gtest/gtest.h"

#include <cstdint>

using namespace mlir;
using namespace qshape::roll;

namespace {

/// A made-up value: RecentValueMap never reads through it.
Value fake(uintptr_t i) {
  return Value::getFromOpaquePointer(reinterpret_cast<void *>(8 * (i + 1)));
}

TEST(RecentValueMap, TakesBackEveryValueOnceWhenMostAreSpilled) {
  constexpr unsigned kValues = 20000; // five times the largest table
  RecentValueMap<int64_t> wires;
  for (unsigned i = 0; i < kValues; ++i)
    wires.set(fake(i), i % 97);
  for (unsigned i = 0; i < kValues; ++i)
    ASSERT_EQ(wires.take(fake(i)), int64_t(i % 97)) << "value " << i;
  for (unsigned i = 0; i < kValues; i += 1000)
    EXPECT_EQ(wires.take(fake(i)), std::nullopt) << "value " << i << " was taken already";
}

TEST(RecentValueMap, LookupKeepsWhatTakeForgets) {
  RecentValueMap<int64_t> map;
  constexpr unsigned kValues = 10000;
  for (unsigned i = 0; i < kValues; ++i)
    map.set(fake(i), i);
  for (unsigned round = 0; round < 2; ++round)
    for (unsigned i = 0; i < kValues; ++i)
      ASSERT_EQ(map.lookup(fake(i)), int64_t(i)) << "value " << i << ", round " << round;
  EXPECT_EQ(map.take(fake(7)), 7);
  EXPECT_EQ(map.lookup(fake(7)), std::nullopt);
  EXPECT_EQ(map.lookup(fake(kValues + 1)), std::nullopt);
}

TEST(RecentValueMap, FollowsAChainAsTheTableGrows) {
  // Each gate reads the last value of its wire and makes the next: the
  // table doubles from its first size while the chain runs.
  RecentValueMap<int64_t> wires;
  unsigned next = 0;
  uintptr_t last[4];
  for (unsigned w = 0; w < 4; ++w)
    wires.set(fake(last[w] = next++), w);
  for (unsigned gate = 0; gate < 10000; ++gate) {
    unsigned w = gate % 4;
    ASSERT_EQ(wires.take(fake(last[w])), int64_t(w)) << "gate " << gate;
    wires.set(fake(last[w] = next++), w);
  }
  EXPECT_EQ(wires.take(fake(next + 5)), std::nullopt);
}

TEST(RecentValueMap, KeepsTheLastMappingOfAValue) {
  RecentValueMap<int64_t> wires;
  wires.set(fake(1), 3);
  wires.set(fake(1), 5);
  EXPECT_EQ(wires.take(fake(1)), 5);
  EXPECT_EQ(wires.take(fake(1)), std::nullopt);
  // Mapped again after a collision pushed it out: the old mapping is gone.
  constexpr unsigned kValues = 20000;
  for (unsigned i = 0; i < kValues; ++i)
    wires.set(fake(i), 1);
  for (unsigned i = 0; i < kValues; ++i)
    wires.set(fake(i), 2);
  for (unsigned i = 0; i < kValues; ++i)
    ASSERT_EQ(wires.take(fake(i)), 2) << "value " << i;
  for (unsigned i = 0; i < kValues; ++i)
    ASSERT_EQ(wires.lookup(fake(i)), std::nullopt) << "value " << i;
}

} // namespace
