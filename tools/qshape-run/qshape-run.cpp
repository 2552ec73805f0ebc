//===- qshape-run.cpp - run a library compiled by qshape-compile ----------===//
//
//   qshape-run OUT.so [--entry NAME] [--args JSON|@FILE] [--shots N] [--seed S]
//
// Loads the library with libqshape-runtime.so, calls setup(), the entry and
// teardown(), and prints `{"results": [...]}` exactly as qshape-sim does
// (the same JSON reader and writer), so the two outputs can be diffed. A
// run-time error of the program (reported by the runtime) is a message on
// stderr and exit code 1, as is a file that is not a qshape library.
//
//===----------------------------------------------------------------------===//

#include "qshape/Interpreter/ValueIO.h"
#include "qshape/Native/NativeLibrary.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <new>

using namespace mlir;
using namespace qshape;
namespace cl = llvm::cl;

static cl::OptionCategory category("qshape-run options");
static cl::opt<std::string> libraryFile(cl::Positional, cl::desc("<library.so>"), cl::Required,
                                        cl::cat(category));
static cl::opt<std::string>
    entryName("entry",
              cl::desc("Function to run (default: the one qshape-sim runs without --entry, or the "
                       "only one); --info lists them"),
              cl::value_desc("name"), cl::cat(category));
static cl::opt<std::string>
    argsText("args",
             cl::desc("JSON list with one entry per argument, as qshape-sim's --args; @FILE reads "
                      "it from FILE"),
             cl::value_desc("json|@file"), cl::cat(category));
// `--args @file` arrives here (qshape::interp::rewriteArgsFileOption).
static cl::opt<std::string> argsFile("args-file", cl::Hidden, cl::cat(category));
static cl::opt<uint64_t> seed("seed",
                              cl::desc("Seed of measurements and samples (default: qshape-sim's "
                                       "default seed)"),
                              cl::cat(category));
static cl::opt<int64_t> shots("shots", cl::desc("Shots (overrides quantum.device's; 0 = analytic)"),
                              cl::init(-1), cl::cat(category));
static cl::opt<int> decimals("decimals",
                             cl::desc("Round printed floats to N decimal places "
                                      "(default: shortest exact text)"),
                             cl::init(-1), cl::cat(category));
static cl::opt<std::string> runtimePath(
    "runtime",
    cl::desc("libqshape-runtime.so to load (default: $QSHAPE_RUNTIME, else ../lib next to "
             "qshape-run)"),
    cl::value_desc("path"), cl::cat(category));
static cl::opt<bool> printInfo("info",
                               cl::desc("Print the library's info document (JSON) and exit"),
                               cl::cat(category));
static cl::opt<bool> printStats("run-stats",
                                cl::desc("Print gates, wires and the entry's time on stderr"),
                                cl::cat(category));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "qshape-run: error: " << message << "\n";
  return 1;
}

/// The runtime found that the program cannot go on: say so and leave.
/// Nothing was printed on stdout yet, so no partial result is seen.
static void onRuntimeError(const char *message) {
  llvm::errs() << "qshape-run: error: " << message << "\n";
  llvm::errs().flush();
  std::_Exit(1);
}

static llvm::Expected<SmallVector<Type>>
parseTypes(MLIRContext &context, const std::vector<std::string> &texts, llvm::StringRef what) {
  SmallVector<Type> types;
  for (const std::string &text : texts) {
    Type t = parseType(text, &context);
    if (!t)
      return llvm::createStringError("the library info names " + what.str() + " type '" + text +
                                     "', which this qshape-run cannot read");
    types.push_back(t);
  }
  return types;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // InitLLVM makes a failed operator new abort the process; the runtime
  // catches std::bad_alloc for the state vector and reports "out of memory"
  // instead, so let it be thrown.
  std::set_new_handler(nullptr);
  std::vector<std::string> storage;
  std::vector<const char *> newArgv = interp::rewriteArgsFileOption(argc, argv, storage);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      static_cast<int>(newArgv.size()), newArgv.data(),
      "qshape-run: run a shared library compiled by qshape-compile on qshape's runtime\n\n"
      "Calls setup(), the entry and teardown() of the library, with libqshape-runtime.so\n"
      "(Catalyst's runtime C ABI on qshape's simulator) as the device, and prints\n"
      "{\"results\": [...]} as qshape-sim does. A run-time error of the program (a wire\n"
      "out of range, more qubits than memory allows, ...) is an error, exit code 1. A\n"
      "file qshape-compile did not write is refused before it is loaded.\n");

  if (shots.getNumOccurrences() && shots < 0)
    return fail("--shots must be 0 (analytic) or positive");
  if (decimals.getNumOccurrences() && (decimals < 0 || decimals > 17))
    return fail("--decimals must be between 0 and 17");

  if (printInfo) {
    llvm::Expected<native::LibraryInfo> info = native::readLibraryInfo(libraryFile);
    if (!info)
      return fail(llvm::toString(info.takeError()));
    llvm::outs() << info->toJSON() << "\n";
    return 0;
  }

  llvm::Expected<std::unique_ptr<native::NativeLibrary>> library =
      native::NativeLibrary::load(libraryFile, native::findRuntime(runtimePath));
  if (!library)
    return fail(llvm::toString(library.takeError()));
  native::NativeLibrary &lib = **library;
  llvm::Expected<const native::EntryInfo *> entry = lib.getInfo().findEntry(entryName);
  if (!entry)
    return fail(llvm::toString(entry.takeError()));

  // Types by their MLIR text: builtin types only, no dialect needed.
  MLIRContext context;
  llvm::Expected<SmallVector<Type>> argTypes =
      parseTypes(context, (*entry)->arguments, "an argument");
  if (!argTypes)
    return fail(llvm::toString(argTypes.takeError()));
  llvm::Expected<SmallVector<Type>> resultTypes =
      parseTypes(context, (*entry)->results, "a result");
  if (!resultTypes)
    return fail(llvm::toString(resultTypes.takeError()));

  llvm::Expected<std::string> json = interp::readArgsText(argsText, argsFile);
  if (!json)
    return fail(llvm::toString(json.takeError()));
  llvm::Expected<SmallVector<interp::RtValue>> args = interp::parseArguments(*argTypes, *json);
  if (!args)
    return fail(llvm::toString(args.takeError()));

  native::RunOptions options;
  if (seed.getNumOccurrences())
    options.seed = seed;
  if (shots >= 0)
    options.shots = static_cast<uint64_t>(shots);
  options.onRuntimeError = onRuntimeError;
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<SmallVector<interp::RtValue>> results =
      lib.run(**entry, *argTypes, *resultTypes, *args, options);
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!results)
    return fail(llvm::toString(results.takeError()));
  if (printStats) {
    native::RunStats s = lib.getStats();
    llvm::errs() << llvm::format("qshape-run: @%s: %llu gates on up to %u wires in %.3f ms\n",
                                 (*entry)->name.c_str(), (unsigned long long)s.gatesApplied,
                                 s.maxWires, elapsed * 1e3);
  }

  interp::FormatOptions format;
  if (decimals >= 0)
    format.decimals = static_cast<unsigned>(decimals);
  llvm::Expected<std::string> text = interp::formatResults(*resultTypes, *results, format);
  if (!text)
    return fail(llvm::toString(text.takeError()));
  llvm::outs() << *text << "\n";
  return 0;
}
