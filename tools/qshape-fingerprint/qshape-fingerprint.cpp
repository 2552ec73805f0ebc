//===- qshape-fingerprint.cpp - print structural fingerprints of files ----===//
//
// Like sha256sum for quantum programs: one line `<exact> <shape> <file>` per
// input (or JSON with --json). A file that does not parse gets a diagnostic
// and makes the exit code non-zero; the other files are still printed.
//
//===----------------------------------------------------------------------===//

#include "qshape/Conversion/ToValueSemantics.h"
#include "qshape/Fingerprint/Fingerprint.h"
#include "qshape/InitAll.h"
#include "qshape/ToolSupport/ToolInput.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("qshape-fingerprint options");
static cl::list<std::string> inputs(cl::Positional, cl::desc("<file.mlir ...> ('-' for stdin)"),
                                    cl::OneOrMore, cl::cat(category));
static cl::opt<bool> json("json", cl::desc("Print a JSON array instead of lines"),
                          cl::cat(category));
static cl::opt<bool> functions("functions", cl::desc("Also print the digests of every function"),
                               cl::cat(category));
static cl::opt<bool> timing("timing",
                            cl::desc("Print parse and fingerprint times per file to stderr"),
                            cl::cat(category));
static cl::opt<bool>
    allowUnregistered("allow-unregistered-dialect",
                      cl::desc("Accept ops of dialects qshape does not know (generic form)"),
                      cl::cat(category));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "qshape-fingerprint: process-stable structural fingerprints of quantum programs\n\n"
      "Prints `<exact> <shape> <file>` per input. The exact digest is equal exactly\n"
      "when the programs' canonical forms are equal (SSA names, locations, attribute\n"
      "order and the order of independent gates do not count); the shape digest also\n"
      "ignores floating-point constant values (baked angles).\n");

  DialectRegistry registry;
  qshape::registerToolDialects(registry);
  MLIRContext context(registry);
  context.allowUnregisteredDialects(allowUnregistered);

  llvm::json::Array out;
  int status = 0;
  for (const std::string &path : inputs) {
    std::string err;
    std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(path, &err);
    if (!buffer) {
      llvm::errs() << "qshape-fingerprint: " << path << ": " << err << "\n";
      status = 1;
      continue;
    }
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
    SourceMgrDiagnosticHandler handler(sourceMgr, &context);
    auto t0 = std::chrono::steady_clock::now();
    OwningOpRef<ModuleOp> module;
    if (succeeded(qshape::checkToolInput(sourceMgr, &context)))
      module = parseSourceFile<ModuleOp>(sourceMgr, &context);
    auto t1 = std::chrono::steady_clock::now();
    if (!module || failed(qshape::convertQRefInput(*module))) {
      llvm::errs() << "qshape-fingerprint: " << path << ": could not "
                   << (module ? "convert qref to value semantics" : "parse") << " (see above)\n";
      status = 1;
      continue;
    }
    FailureOr<qshape::ModuleFingerprints> fps = qshape::computeModuleFingerprints(*module);
    auto t2 = std::chrono::steady_clock::now();
    if (timing)
      llvm::errs() << "qshape-fingerprint: " << path << ": parse "
                   << std::chrono::duration<double>(t1 - t0).count() << " s, fingerprint "
                   << std::chrono::duration<double>(t2 - t1).count() << " s\n";
    if (failed(fps)) {
      llvm::errs() << "qshape-fingerprint: " << path << ": no fingerprint (see above)\n";
      status = 1;
      continue;
    }
    if (json) {
      llvm::json::Object entry{{"file", path},
                               {"exact", fps->module.exactString()},
                               {"shape", fps->module.shapeString()}};
      if (functions) {
        llvm::json::Array fns;
        for (auto &[name, fp] : fps->functions)
          fns.push_back(llvm::json::Object{
              {"name", name}, {"exact", fp.exactString()}, {"shape", fp.shapeString()}});
        entry["functions"] = std::move(fns);
      }
      out.push_back(std::move(entry));
      continue;
    }
    llvm::outs() << fps->module.exactString() << " " << fps->module.shapeString() << " " << path
                 << "\n";
    if (functions)
      for (auto &[name, fp] : fps->functions)
        llvm::outs() << fp.exactString() << " " << fp.shapeString() << " " << path << "@" << name
                     << "\n";
  }
  if (json)
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(out))) << "\n";
  return status;
}
