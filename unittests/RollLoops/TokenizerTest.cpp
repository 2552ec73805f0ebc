//===- TokenizerTest.cpp - tokens and canonical views share printed types -===//
//
// The roll pass keeps one EncoderTexts per run: a tokenizer or canonical
// view given it must print into it (so the next one reads, not prints),
// and give the same tokens and the same canonical form as one that prints
// its own.
//
//===----------------------------------------------------------------------===//

#include "RollLoops/Tokenizer.h"

#include "qshape/Fingerprint/CanonicalForm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir;
using namespace qshape;

namespace {

constexpr const char *kReads = R"mlir(
func.func @reads(%a: tensor<4xf64>, %b: tensor<2xi64>) -> (f64, i64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x0 = tensor.extract %a[%c0] : tensor<4xf64>
  %y0 = tensor.extract %b[%c1] : tensor<2xi64>
  %x1 = tensor.extract %a[%c1] : tensor<4xf64>
  return %x0, %y0, %x1 : f64, i64, f64
}
)mlir";

struct SharedTexts : ::testing::Test {
  void SetUp() override {
    ctx.loadDialect<arith::ArithDialect, func::FuncDialect, tensor::TensorDialect>();
    module = parseSourceString<ModuleOp>(kReads, &ctx);
    ASSERT_TRUE(module);
    func = &module->getBody()->front();
  }
  std::vector<uint64_t> tokens(roll::Tokenizer &tokenizer) {
    std::vector<uint64_t> out;
    func->walk([&](Operation *op) {
      if (op != func)
        out.push_back(tokenizer.token(op));
    });
    return out;
  }
  std::string printed() {
    std::string s;
    llvm::raw_string_ostream os(s);
    module->print(os);
    return s;
  }
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  Operation *func = nullptr;
};

TEST_F(SharedTexts, TokenizerPrintsIntoTheSharedTableAndKeepsItsTokens) {
  roll::Tokenizer own;
  std::vector<uint64_t> expected = tokens(own);
  EncoderTexts texts;
  roll::Tokenizer first, second;
  first.shareTexts(texts);
  second.shareTexts(texts);
  EXPECT_EQ(tokens(first), expected);
  // Both tensor types, f64, i64 and index were printed into the table...
  EXPECT_GE(texts.types.size(), 5u);
  size_t printedTypes = texts.types.size();
  // ...and a second tokenizer reads them: it prints nothing new.
  EXPECT_EQ(tokens(second), expected);
  EXPECT_EQ(texts.types.size(), printedTypes);
  // Equal ops give equal tokens, and the two arrays' reads differ.
  EXPECT_EQ(expected[2], expected[4]);
  EXPECT_NE(expected[2], expected[3]);
}

TEST_F(SharedTexts, CanonicalFormIsTheSameWithASharedTable) {
  OwningOpRef<ModuleOp> copy = cast<ModuleOp>(module->getOperation()->clone());
  ASSERT_TRUE(succeeded(canonicalize(&copy->getBody()->front(), CanonicalizeOptions())));
  std::string expected;
  llvm::raw_string_ostream os(expected);
  copy->print(os);

  EncoderTexts texts;
  CanonicalizeOptions options;
  options.texts = &texts;
  ASSERT_TRUE(succeeded(canonicalize(func, options)));
  EXPECT_FALSE(texts.types.empty());
  EXPECT_EQ(printed(), expected);
}

} // namespace
