//===- CheckLinearityTest.cpp - one pass manager, many modules ------------===//
//
// A host such as Catalyst builds its pass manager once and runs it on every
// module it compiles. qshape-check-linearity must then judge each module on
// its own: no count, op or value of an earlier run may carry over (those ops
// are freed by then).
//
//===----------------------------------------------------------------------===//

#include "qshape/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "gtest/gtest.h"

using namespace mlir;

namespace {

// A qubit consumed twice, and a wire extracted twice.
constexpr llvm::StringLiteral kViolating = R"mlir(
func.func @f(%q: !quantum.bit, %r: !quantum.reg) -> (!quantum.bit, !quantum.bit, !quantum.bit, !quantum.bit) {
  %a = quantum.custom "Hadamard"() %q : !quantum.bit
  %b = quantum.custom "PauliX"() %q : !quantum.bit
  %c = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %d = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  return %a, %b, %c, %d : !quantum.bit, !quantum.bit, !quantum.bit, !quantum.bit
}
)mlir";

constexpr llvm::StringLiteral kLinear = R"mlir(
func.func @g(%r: !quantum.reg) -> !quantum.reg {
  %c = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %h = quantum.custom "Hadamard"() %c : !quantum.bit
  %r1 = quantum.insert %r[ 0], %h : !quantum.reg, !quantum.bit
  %d = quantum.extract %r1[ 0] : !quantum.reg -> !quantum.bit
  %x = quantum.custom "PauliX"() %d : !quantum.bit
  %r2 = quantum.insert %r1[ 0], %x : !quantum.reg, !quantum.bit
  return %r2 : !quantum.reg
}
)mlir";

struct Outcome {
  bool ok;
  unsigned errors;
};

Outcome check(PassManager &pm, MLIRContext &ctx, llvm::StringRef text) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
  EXPECT_TRUE(module);
  unsigned errors = 0;
  ScopedDiagnosticHandler count(&ctx, [&](Diagnostic &d) {
    errors += d.getSeverity() == DiagnosticSeverity::Error;
    return success();
  });
  return {succeeded(pm.run(*module)), errors};
}

TEST(CheckLinearity, EachRunJudgesItsOwnModule) {
  qshape::registerAllPasses();
  DialectRegistry registry;
  qshape::registerToolDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  PassManager pm(&ctx);
  ASSERT_TRUE(succeeded(parsePassPipeline("qshape-check-linearity", pm)));

  Outcome first = check(pm, ctx, kViolating);
  EXPECT_FALSE(first.ok);
  EXPECT_EQ(first.errors, 2u);
  // Linear: it passes, although the last run of the same pass failed.
  Outcome second = check(pm, ctx, kLinear);
  EXPECT_TRUE(second.ok);
  EXPECT_EQ(second.errors, 0u);
  // And the violations are found again, no more and no fewer.
  for (int i = 0; i < 3; ++i) {
    Outcome again = check(pm, ctx, kViolating);
    EXPECT_FALSE(again.ok);
    EXPECT_EQ(again.errors, 2u);
    Outcome linear = check(pm, ctx, kLinear);
    EXPECT_TRUE(linear.ok);
  }
}

} // namespace
