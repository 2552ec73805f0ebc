//===- ModuleCacheTest.cpp - the payload of a module entry ----------------===//
//
// A payload is written with every use list in the order the bytecode reader
// creates it (orderUsesAsRead), so that it records no order for the reader
// to restore, and the module a miss goes on with has its uses in the order a
// hit reads back.
//
//===----------------------------------------------------------------------===//

#include "qshape/ModuleCache/ModuleCache.h"
#include "qshape/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace qshape;

namespace {

// %c has four uses, %arg0 three: enough for an order other than the reader's.
constexpr llvm::StringLiteral kModule = R"mlir(
func.func @f(%arg0: i64) -> i64 {
  %c = arith.constant 3 : i64
  %a = arith.addi %arg0, %c : i64
  %b = arith.muli %a, %c : i64
  %d = arith.subi %b, %c : i64
  %e = arith.addi %d, %arg0 : i64
  %f = arith.addi %e, %c : i64
  %g = arith.addi %f, %arg0 : i64
  return %g : i64
}
)mlir";

// encodeModule names the key only in its error message.
const cache::CacheKey kKey(cache::CacheKey::Digest{});

class ModuleCacheTest : public ::testing::Test {
protected:
  ModuleCacheTest() {
    DialectRegistry registry;
    registerToolDialects(registry);
    context.appendDialectRegistry(registry);
  }
  OwningOpRef<ModuleOp> parse() {
    return parseSourceString<ModuleOp>(kModule, ParserConfig(&context));
  }
  MLIRContext context;
};

// The values of `module` with more than one use, in walk order.
SmallVector<Value> multiUseValues(ModuleOp module) {
  SmallVector<Value> values;
  module->walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Value arg : block.getArguments())
          if (!arg.use_empty() && !arg.hasOneUse())
            values.push_back(arg);
    for (Value result : op->getResults())
      if (!result.use_empty() && !result.hasOneUse())
        values.push_back(result);
  });
  return values;
}

// Each use of `value` as (position of its owner in `module`, operand number),
// in use-list order.
SmallVector<std::pair<unsigned, unsigned>> useOrder(ModuleOp module, Value value) {
  llvm::DenseMap<Operation *, unsigned> position;
  module->walk<WalkOrder::PreOrder>(
      [&](Operation *op) { position.try_emplace(op, position.size()); });
  SmallVector<std::pair<unsigned, unsigned>> order;
  for (OpOperand &use : value.getUses())
    order.emplace_back(position.lookup(use.getOwner()), use.getOperandNumber());
  return order;
}

// Reverses every use list: the parser's order, last use first, becomes
// first use first.
void reverseUseLists(ModuleOp module) {
  for (Value value : multiUseValues(module)) {
    unsigned n = std::distance(value.use_begin(), value.use_end());
    SmallVector<unsigned> reversed;
    for (unsigned i = 0; i < n; ++i)
      reversed.push_back(n - 1 - i);
    value.shuffleUseList(reversed);
  }
}

TEST_F(ModuleCacheTest, PayloadRecordsNoUseListOrder) {
  OwningOpRef<ModuleOp> parsed = parse();
  ASSERT_TRUE(parsed);
  FailureOr<std::string> natural = modulecache::encodeModule(*parsed, kKey);
  ASSERT_TRUE(succeeded(natural));

  OwningOpRef<ModuleOp> shuffled = parse();
  reverseUseLists(*shuffled);
  ASSERT_EQ(multiUseValues(*shuffled).size(), 2u);
  FailureOr<std::string> payload = modulecache::encodeModule(*shuffled, kKey);
  ASSERT_TRUE(succeeded(payload));
  // With an order recorded, the bytes would differ (and be more).
  EXPECT_EQ(*payload, *natural);
}

TEST_F(ModuleCacheTest, MissAndHitHaveTheirUsesInOneOrder) {
  OwningOpRef<ModuleOp> miss = parse();
  reverseUseLists(*miss);
  FailureOr<std::string> payload = modulecache::encodeModule(*miss, kKey);
  ASSERT_TRUE(succeeded(payload));

  std::string why;
  FailureOr<OwningOpRef<ModuleOp>> hit = modulecache::loadModule(&context, *payload, why);
  ASSERT_TRUE(succeeded(hit)) << why;
  SmallVector<Value> missValues = multiUseValues(*miss);
  SmallVector<Value> hitValues = multiUseValues(**hit);
  ASSERT_EQ(missValues.size(), hitValues.size());
  for (auto [m, h] : llvm::zip(missValues, hitValues)) {
    SmallVector<std::pair<unsigned, unsigned>> order = useOrder(*miss, m);
    EXPECT_EQ(order, useOrder(**hit, h));
    // Last use first: the order in which the reader creates the uses.
    EXPECT_TRUE(llvm::is_sorted(llvm::reverse(order)));
  }
}

} // namespace
