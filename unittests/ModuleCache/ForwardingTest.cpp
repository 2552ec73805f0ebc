//===- ForwardingTest.cpp - what the native mode forwards, and how --------===//
//
// forwardedFunctions() decides whether a lowered module can be replaced by a
// forwarding module; installForwardingModule() builds it. The lit test
// (test/ModuleCache/cache-staged-native.test) runs the result; these check
// the decisions one by one and the module's shape.
//
//===----------------------------------------------------------------------===//

#include "qshape/ModuleCache/Forwarding.h"
#include "qshape/Codegen/Codegen.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace qshape::modulecache;

namespace {

class ForwardingTest : public ::testing::Test {
protected:
  ForwardingTest() { context.loadDialect<LLVM::LLVMDialect, func::FuncDialect>(); }

  OwningOpRef<ModuleOp> parse(llvm::StringRef text) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
    EXPECT_TRUE(module);
    return module;
  }

  /// forwardedFunctions' refusal of `text`, or "" when it accepts it.
  std::string refusal(llvm::StringRef text) {
    OwningOpRef<ModuleOp> module = parse(text);
    std::string why;
    return succeeded(forwardedFunctions(*module, why)) ? "" : why;
  }

  MLIRContext context;
};

constexpr llvm::StringLiteral kLowered = R"mlir(
module {
  llvm.func @setup(%arg0: i32, %arg1: !llvm.ptr) { llvm.return }
  llvm.func @jit_f(%arg0: !llvm.ptr) -> f64 {
    %0 = llvm.mlir.constant(1.0 : f64) : f64
    llvm.return %0 : f64
  }
  llvm.func internal @helper() { llvm.return }
  llvm.func @__catalyst__rt__initialize(!llvm.ptr)
}
)mlir";

TEST_F(ForwardingTest, ForwardsDefinedExternalFunctionsOnly) {
  OwningOpRef<ModuleOp> module = parse(kLowered);
  std::string why;
  FailureOr<std::vector<std::string>> names = forwardedFunctions(*module, why);
  ASSERT_TRUE(succeeded(names)) << why;
  EXPECT_EQ(*names, (std::vector<std::string>{"setup", "jit_f"}));
}

TEST_F(ForwardingTest, RefusesWhatAPlainCallCannotForward) {
  EXPECT_EQ(refusal("module { llvm.func @f(%a: i32, ...) { llvm.return } }"), "@f is variadic");
  EXPECT_EQ(refusal("module { llvm.func @f(%a: !llvm.ptr {llvm.byval = i64}) { llvm.return } }"),
            "an argument of @f is passed in a special way");
  EXPECT_EQ(refusal("module { llvm.func @dlopen(%a: !llvm.ptr, %b: i32) -> !llvm.ptr { "
                    "llvm.return %a : !llvm.ptr } }"),
            "@dlopen is a name the loader uses");
  EXPECT_EQ(refusal("module { func.func @f() { return } }"),
            "the module holds 'func.func', which is not in the LLVM dialect");
  EXPECT_EQ(refusal("module { llvm.func internal @f() { llvm.return } }"),
            "the module defines no function to forward");
}

TEST_F(ForwardingTest, TheForwardingModuleCarriesTheLibraryAndKeepsEachSignature) {
  OwningOpRef<ModuleOp> module = parse(kLowered);
  std::string why;
  FailureOr<std::vector<std::string>> names = forwardedFunctions(*module, why);
  ASSERT_TRUE(succeeded(names)) << why;
  auto typeOf = [&](llvm::StringRef name) {
    return module->lookupSymbol<LLVM::LLVMFuncOp>(name).getFunctionType();
  };
  LLVM::LLVMFunctionType setupType = typeOf("setup"), entryType = typeOf("jit_f");
  std::string library("\x7f"
                      "ELF\0bytes",
                      10);
  installForwardingModule(*module, *names, library);
  ASSERT_TRUE(succeeded(verify(*module)));

  auto blob = module->lookupSymbol<LLVM::GlobalOp>("__qshape_forward_library");
  ASSERT_TRUE(blob);
  EXPECT_EQ(cast<StringAttr>(*blob.getValue()).getValue(), library);
  EXPECT_EQ(typeOf("setup"), setupType);
  EXPECT_EQ(typeOf("jit_f"), entryType);
  // The program is gone: no function of it but the forwarders is left.
  EXPECT_FALSE(module->lookupSymbol("helper"));
  EXPECT_FALSE(module->lookupSymbol("__catalyst__rt__initialize"));
  // The forwarding module exports the same functions under the same names.
  FailureOr<std::vector<std::string>> again = forwardedFunctions(*module, why);
  ASSERT_TRUE(succeeded(again)) << why;
  EXPECT_EQ(*again, *names);
}

TEST(CodegenLinkTest, AnInProcessLinkerNeedsTheCallersLld) {
  qshape::compile::Linker linker;
  linker.inProcess = true;
  llvm::Error err = qshape::codegen::linkSharedLibrary(linker, "a.o", "a.so", "", nullptr);
  ASSERT_TRUE(bool(err));
  EXPECT_NE(llvm::toString(std::move(err)).find("lld in process is not available here"),
            std::string::npos);
}

} // namespace
