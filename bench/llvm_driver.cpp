//===- llvm_driver.cpp - what Catalyst's driver does after its last stage -===//
//
// qshape-llvm-driver IN.mlir -o OUT.so [--runtime-lib=LIB] [--opt-level=N]
//
// Stands in for the back half of Catalyst's compiler driver, which gets the
// LLVM-dialect module from its last MLIR stage: translate to LLVM IR, run
// LLVM's O2 pipeline, emit an object and link it (Catalyst starts `cc` for
// the link; here an ld.lld child). It prints each step's time as JSON on
// stdout. The parse is timed apart: Catalyst holds the module in memory.
// bench/sections/catalyst_native.py and test/ModuleCache use it to finish a
// Catalyst-shaped pipeline that qshape-opt ran.
//
//===----------------------------------------------------------------------===//

#include "qshape/ArtifactCache/OutputFile.h"
#include "qshape/Codegen/Codegen.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<LLVM-dialect module>"),
                                      cl::Required);
static cl::opt<std::string> outputFile("o", cl::desc("The shared library to write"),
                                       cl::value_desc("file"), cl::Required);
static cl::opt<std::string>
    runtimeLib("runtime-lib", cl::desc("The runtime the library needs (an rpath)"), cl::init(""));
static cl::opt<unsigned> optLevel("opt-level", cl::desc("LLVM's optimisation level"), cl::init(2));

static int fail(const Twine &message) {
  errs() << "qshape-llvm-driver: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "Catalyst's driver after its MLIR stages\n");
  mlir::DialectRegistry registry;
  registry.insert<mlir::LLVM::LLVMDialect>();
  mlir::registerBuiltinDialectTranslation(registry);
  mlir::registerLLVMDialectTranslation(registry);
  mlir::MLIRContext context(registry);

  auto start = std::chrono::steady_clock::now();
  SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(inputFile, sourceMgr, &context);
  if (!module)
    return fail("cannot parse '" + inputFile + "'");
  double parse = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  Expected<qshape::compile::Linker> linker = qshape::compile::findLinker("", false);
  if (!linker)
    return fail(toString(linker.takeError()));
  qshape::codegen::LibraryOptions options;
  options.target = qshape::compile::TargetInfo::host();
  options.optLevel = optLevel;
  options.linker = std::move(*linker);
  options.runtimeLib = runtimeLib;
  qshape::codegen::LibraryTimes times;
  Expected<std::string> library = qshape::codegen::compileSharedLibrary(*module, options, &times);
  if (!library)
    return fail(toString(library.takeError()));
  Expected<qshape::compile::OutputFile> out =
      qshape::compile::OutputFile::create(outputFile, /*executable=*/true);
  if (!out)
    return fail(toString(out.takeError()));
  if (Error err = out->write(*library))
    return fail(toString(std::move(err)));
  if (Error err = out->commit())
    return fail(toString(std::move(err)));
  outs() << format("{\"parse\": %.6f, \"translate\": %.6f, \"optimize\": %.6f, "
                   "\"codegen\": %.6f, \"link\": %.6f, \"total\": %.6f, \"bytes\": %zu}\n",
                   parse, times.translate, times.optimize, times.codegen, times.link, times.total(),
                   library->size());
  return 0;
}
