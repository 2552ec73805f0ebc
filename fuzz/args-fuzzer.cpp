//===- args-fuzzer.cpp - the --args JSON reader of qshape-sim -------------===//
//
// Input: a function type on the first line, e.g. `(tensor<2x?xf64>, i1) -> ()`,
// then the JSON of `--args` for it. Property: parseArguments() returns values
// or an error, never crashes; values print with formatResults() to JSON that
// reads back (when finite) as the same values, printed the same way.
//
// parseArguments() is lib/Interpreter/ValueIO.cpp, the reader qshape-sim and
// qshape-run share.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "qshape/Interpreter/ValueIO.h"
#include "qshape/ToolSupport/ToolInput.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace qshape::fuzz;

extern "C" int LLVMFuzzerInitialize(int *, char ***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &ctx = freshContext();
  llvm::StringRef input(reinterpret_cast<const char *>(data), size);
  auto [typeText, json] = input.split('\n');
  // MLIR's type parser recurses once per nesting level, so thousands of '(',
  // '<', or '[' and '{' of an attribute in a type (a tensor's encoding),
  // overflow the stack (upstream; the tools check with findExcessiveNesting
  // before they parse). The type line only sets up the reader under test:
  // deep nesting is skipped.
  if (qshape::findExcessiveNesting(typeText, 64))
    return 0;
  FunctionType fn;
  {
    DiagnosticCapture quiet(ctx);
    size_t read = 0;
    fn = llvm::dyn_cast_or_null<FunctionType>(parseType(typeText, &ctx, &read));
    if (!fn || read != typeText.size())
      return 0;
  }
  llvm::Expected<llvm::SmallVector<qshape::interp::RtValue>> values =
      qshape::interp::parseArguments(fn.getInputs(), json);
  if (!values) {
    llvm::consumeError(values.takeError());
    return 0;
  }
  if (values->size() != fn.getNumInputs())
    fail("parseArguments returned " + llvm::Twine(values->size()) + " values for " +
         llvm::Twine(fn.getNumInputs()) + " arguments");
  llvm::Expected<std::string> printed = qshape::interp::formatResults(fn.getInputs(), *values);
  if (!printed) {
    // Values it read must print: qshape-sim prints what it was given.
    fail("formatResults refused values parseArguments made: " +
         llvm::toString(printed.takeError()));
  }
  llvm::StringRef list(*printed);
  if (list.contains("NaN") || list.contains("Infinity"))
    return 0; // printed as Python does, which JSON (and --args) does not read
  if (!list.consume_front("{\"results\": ") || !list.consume_back("}"))
    fail("formatResults printed " + *printed);
  llvm::Expected<llvm::SmallVector<qshape::interp::RtValue>> again =
      qshape::interp::parseArguments(fn.getInputs(), list);
  if (!again)
    fail("printed values do not read back: " + llvm::toString(again.takeError()) + "\n" + list);
  llvm::Expected<std::string> reprinted = qshape::interp::formatResults(fn.getInputs(), *again);
  if (!reprinted || *reprinted != *printed)
    fail("values changed on a print/read round trip: " + *printed + " vs " +
         (reprinted ? *reprinted : llvm::toString(reprinted.takeError())));
  return 0;
}
