//===- qshape-sim.cpp - run a quantum MLIR program on the simulator -------===//
//
//   qshape-sim FILE [--entry NAME] [--args JSON|@FILE] [--seed N] [--shots N]
//
// Runs the entry function of FILE with qshape's state-vector simulator as
// the device and prints `{"results": [...]}` on stdout. Anything it cannot
// execute is an error at the op's location and exit code 1.
//
//===----------------------------------------------------------------------===//

#include "qshape/Conversion/ToValueSemantics.h"
#include "qshape/InitAll.h"
#include "qshape/Interpreter/Interpreter.h"
#include "qshape/Interpreter/ValueIO.h"
#include "qshape/ToolSupport/ToolInput.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("qshape-sim options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<file.mlir> ('-' for stdin)"),
                                      cl::init("-"), cl::cat(category));
static cl::opt<std::string> entryName("entry",
                                      cl::desc("Function to run (default: the only public "
                                               "function, else the only qnode)"),
                                      cl::value_desc("name"), cl::cat(category));
static cl::opt<std::string>
    argsText("args",
             cl::desc("JSON list with one entry per argument (number, [re, im], list); "
                      "@FILE reads it from FILE"),
             cl::value_desc("json|@file"), cl::cat(category));
// `--args @file` arrives here (qshape::interp::rewriteArgsFileOption).
static cl::opt<std::string> argsFile("args-file", cl::Hidden, cl::cat(category));
static cl::opt<uint64_t> seed("seed", cl::desc("Seed of measurements and samples"),
                              cl::init(qshape::interp::InterpreterOptions().seed),
                              cl::cat(category));
static cl::opt<int64_t> shots("shots", cl::desc("Shots (overrides quantum.device's; 0 = analytic)"),
                              cl::init(-1), cl::cat(category));
static cl::opt<int> decimals("decimals",
                             cl::desc("Round printed floats to N decimal places "
                                      "(default: shortest exact text)"),
                             cl::init(-1), cl::cat(category));
static cl::opt<bool>
    allowUnregistered("allow-unregistered-dialect",
                      cl::desc("Accept ops of dialects qshape does not know (generic form)"),
                      cl::cat(category));
static cl::opt<bool> noQuantumDialect(
    "no-quantum-dialect",
    cl::desc("Do not register qshape's quantum dialect: quantum ops stay unregistered "
             "(generic form; implies --allow-unregistered-dialect)"),
    cl::cat(category));
static cl::opt<bool> printStats("sim-stats", cl::desc("Print op/gate counts and timing on stderr"),
                                cl::cat(category));

static void registerUpstreamDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, complex::ComplexDialect, cf::ControlFlowDialect,
                  func::FuncDialect, index::IndexDialect, LLVM::LLVMDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect, tensor::TensorDialect>();
}

static int fail(const llvm::Twine &message) {
  llvm::errs() << "qshape-sim: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  std::vector<std::string> storage;
  std::vector<const char *> newArgv = qshape::interp::rewriteArgsFileOption(argc, argv, storage);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      static_cast<int>(newArgv.size()), newArgv.data(),
      "qshape-sim: run a quantum MLIR program on qshape's state-vector simulator\n\n"
      "Runs the entry function and prints {\"results\": [...]}: floats as numbers,\n"
      "tensors as (nested) lists, complex numbers as [re, im], i1 as bools.\n");

  if (shots.getNumOccurrences() && shots < 0)
    return fail("--shots must be 0 (analytic) or positive");
  if (decimals.getNumOccurrences() && (decimals < 0 || decimals > 17))
    return fail("--decimals must be between 0 and 17");

  DialectRegistry registry;
  if (noQuantumDialect)
    registerUpstreamDialects(registry);
  else
    qshape::registerToolDialects(registry);
  MLIRContext context(registry);
  context.allowUnregisteredDialects(allowUnregistered || noQuantumDialect);
  context.printOpOnDiagnostic(false);

  std::string err;
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(inputFile, &err);
  if (!buffer)
    return fail(inputFile + ": " + err);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module;
  if (succeeded(qshape::checkToolInput(sourceMgr, &context)))
    module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail(inputFile + ": could not parse (see above)");
  if (failed(qshape::convertQRefInput(*module)))
    return fail(inputFile + ": could not convert qref to value semantics (see above)");

  llvm::Expected<func::FuncOp> entry = qshape::interp::findEntryFunction(*module, entryName);
  if (!entry)
    return fail(llvm::toString(entry.takeError()));

  llvm::Expected<std::string> json = qshape::interp::readArgsText(argsText, argsFile);
  if (!json)
    return fail(llvm::toString(json.takeError()));
  llvm::Expected<SmallVector<qshape::interp::RtValue>> args =
      qshape::interp::parseArguments(entry->getArgumentTypes(), *json);
  if (!args)
    return fail(llvm::toString(args.takeError()));

  qshape::interp::InterpreterOptions options;
  options.seed = seed;
  if (shots >= 0)
    options.shots = static_cast<uint64_t>(shots);
  qshape::interp::Interpreter interpreter(options);
  auto start = std::chrono::steady_clock::now();
  FailureOr<SmallVector<qshape::interp::RtValue>> results = interpreter.run(*entry, *args);
  auto elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (printStats) {
    const qshape::interp::InterpreterStats &s = interpreter.getStats();
    llvm::errs() << llvm::format(
        "qshape-sim: @%s: %llu ops (%llu gates) on up to %u wires in %.3f ms (%.2f us/op)\n",
        entry->getSymName().str().c_str(), (unsigned long long)s.opsExecuted,
        (unsigned long long)s.gatesApplied, s.maxWires, elapsed * 1e3,
        s.opsExecuted ? elapsed * 1e6 / s.opsExecuted : 0.0);
  }
  if (failed(results))
    return 1;

  qshape::interp::FormatOptions format;
  if (decimals >= 0)
    format.decimals = static_cast<unsigned>(decimals);
  llvm::Expected<std::string> text =
      qshape::interp::formatResults(entry->getResultTypes(), *results, format);
  if (!text)
    return fail(llvm::toString(text.takeError()));
  llvm::outs() << *text << "\n";
  return 0;
}
