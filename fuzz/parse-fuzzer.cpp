//===- parse-fuzzer.cpp - parse, verify and print quantum modules ---------===//
//
// Input: MLIR text. Property: parsing either fails with a diagnostic or gives
// a module that verifies; the module prints (pretty and generic) to text that
// parses back to the same module, and printing is a fixpoint.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

using namespace qshape::fuzz;

extern "C" int LLVMFuzzerInitialize(int *, char ***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext &ctx = freshContext();
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module = parseModule(text, ctx);
  if (!module)
    return 0;
  std::string pretty = printModule(module->getOperation());
  std::string generic = printModule(module->getOperation(), /*generic=*/true);
  for (const std::string *form : {&pretty, &generic}) {
    mlir::OwningOpRef<mlir::ModuleOp> again = parseModule(*form, ctx);
    if (!again)
      fail("the printed module does not parse back:\n" + *form);
    std::string reprinted = printModule(again->getOperation());
    if (reprinted != pretty)
      fail("print(parse(print(x))) != print(x):\n--- print(x) ---\n" + pretty +
           "\n--- print(parse(print(x))) ---\n" + reprinted);
  }
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t maxSize,
                                          unsigned seed) {
  return mutateModuleInput(data, size, maxSize, seed);
}
