//===- qshape-compile.cpp - a quantum MLIR module to a native library -----===//
//
//   qshape-compile IN.mlir -o OUT.so [--opt-level=N] [--no-roll] [--emit=K]
//                  [--timing] [-v] [--linker=PROGRAM]
//
// A thin main over qshape::compile::Compilation (include/qshape/Compile):
// options in, one summary line (-v) and per-stage times (--timing) out.
// Errors are located diagnostics where there is a location, then one
// "qshape-compile: error: ..." line and exit code 1; OUT is then untouched.
//
//===----------------------------------------------------------------------===//

#include "qshape/Compile/Compiler.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir;
using namespace qshape::compile;
namespace cl = llvm::cl;

static cl::OptionCategory category("qshape-compile options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir> ('-' for stdin)"),
                                      cl::init("-"), cl::cat(category));
static cl::opt<std::string> outputFile("o",
                                       cl::desc("Output file ('-' for stdout, text emits "
                                                "only); required for --emit=so and obj"),
                                       cl::value_desc("file"), cl::cat(category));
static cl::opt<EmitKind> emit(
    "emit", cl::desc("What to write"), cl::init(EmitKind::SharedLibrary),
    cl::values(clEnumValN(EmitKind::MLIR, "mlir", "the module after the MLIR pipeline (LLVM "
                                                  "dialect)"),
               clEnumValN(EmitKind::LLVMIR, "llvm", "LLVM IR after optimisation"),
               clEnumValN(EmitKind::Object, "obj", "the object file"),
               clEnumValN(EmitKind::SharedLibrary, "so", "the shared library (default)")),
    cl::cat(category));
static cl::opt<unsigned> optLevel(
    "opt-level",
    cl::desc("LLVM optimisation and code generation level, 0-3. Default 0, as Catalyst: "
             "its driver runs no LLVM IR optimisation pipeline (except for Enzyme) and "
             "generates code at CodeGenOptLevel::None"),
    cl::init(DefaultOptLevel), cl::cat(category));
static cl::opt<bool> noRoll("no-roll",
                            cl::desc("Compile the program as written: no qshape-canonicalize "
                                     "and qshape-roll-loops before lowering"),
                            cl::cat(category));
static cl::opt<bool> timing("timing",
                            cl::desc("Print the seconds of each stage and the sizes on stderr"),
                            cl::cat(category));
static cl::opt<bool> verbose("v", cl::desc("Print one summary line on stderr"),
                             cl::cat(category));
static cl::opt<std::string> linkerPath(
    "linker",
    cl::desc("ld.lld (or another GNU-compatible linker) that links the library: a path, or a "
             "name looked up in PATH; default: $QSHAPE_LINKER, else the ld.lld found when qshape "
             "was configured"),
    cl::value_desc("program"), cl::cat(category));
static cl::opt<bool> allowUnregistered(
    "allow-unregistered-dialect",
    cl::desc("Accept ops of dialects qshape does not know (generic form), such as "
             "Catalyst's catalyst.launch_kernel"),
    cl::cat(category));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "qshape-compile: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  auto start = std::chrono::steady_clock::now();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "qshape-compile: compile a Catalyst-shaped quantum MLIR module to a native shared "
      "library\n\n"
      "Stages: parse; the MLIR pipeline qshape-lower-to-llvm (qshape-canonicalize and\n"
      "qshape-roll-loops unless --no-roll, then lowering to the LLVM dialect); translation\n"
      "to LLVM IR; LLVM's optimisation pipeline at --opt-level; code generation for this\n"
      "machine; linking with ld.lld (lld-22). The library calls Catalyst's runtime C ABI;\n"
      "`qshape-run OUT.so` runs it on qshape's runtime (docs/native.md).\n\n"
      "-v prints `qshape-compile: off <key> <seconds> s`: the key hashes everything the\n"
      "library depends on (input fingerprint, pipeline, options, target, toolchain).\n"
      "Errors exit with code 1 and leave OUT as it was (it is written under a temporary\n"
      "name and renamed when complete).\n\n"
      "MLIR's pass manager options work too (--mlir-timing, --mlir-print-ir-after-all,\n"
      "...: --help-hidden lists them).\n");

  CompileOptions options;
  options.optLevel = optLevel;
  options.roll = !noRoll;
  options.emit = emit;
  options.linker = linkerPath;
  options.configurePassManager = [](PassManager &pm) {
    if (failed(applyPassManagerCLOptions(pm)))
      return failure();
    applyDefaultTimingPassManagerCLOptions(pm);
    return success();
  };
  if (optLevel > 3)
    return fail("--opt-level must be 0, 1, 2 or 3");
  bool binary = emit == EmitKind::Object || emit == EmitKind::SharedLibrary;
  if (outputFile.empty() && binary)
    return fail("--emit=" + getEmitName(emit) + " needs an output file: -o OUT");
  if (outputFile == "-" && binary)
    return fail("--emit=" + getEmitName(emit) + " cannot be written to stdout");

  // The output's temporary first: an unwritable OUT fails before any work.
  std::optional<OutputFile> output;
  if (!outputFile.empty() && outputFile != "-") {
    llvm::Expected<OutputFile> created =
        OutputFile::create(outputFile, emit == EmitKind::SharedLibrary);
    if (!created)
      return fail(llvm::toString(created.takeError()));
    output.emplace(std::move(*created));
  }

  DialectRegistry registry;
  Compilation::registerDialects(registry);
  Compilation::registerPasses();
  MLIRContext context(registry);
  context.allowUnregisteredDialects(allowUnregistered);
  context.printOpOnDiagnostic(false);

  std::string err;
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(inputFile, &err);
  if (!buffer)
    return fail(inputFile + ": " + err);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);

  llvm::Expected<std::unique_ptr<Compilation>> compilation =
      Compilation::parse(context, sourceMgr, options);
  if (!compilation)
    return fail(llvm::toString(compilation.takeError()));
  Compilation &c = **compilation;
  llvm::Expected<const CompileFacts *> facts = c.getFacts();
  if (!facts)
    return fail(llvm::toString(facts.takeError()));
  if (llvm::Error error = c.compile(output ? &*output : nullptr))
    return fail(llvm::toString(std::move(error)));
  if (output)
    if (llvm::Error error = output->commit())
      return fail(llvm::toString(std::move(error)));

  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (timing) {
    const StageTimes &t = c.getTimes();
    const CompileStats &s = c.getStats();
    llvm::errs() << llvm::format(
        "qshape-compile: timing: parse %.4f s, facts %.4f s, mlir-passes %.4f s, translate "
        "%.4f s, llvm-opt %.4f s, codegen %.4f s, link %.4f s, total %.4f s\n",
        t.parse, t.facts, t.mlirPasses, t.translate, t.llvmOpt, t.codegen, t.link, t.total());
    llvm::errs() << "qshape-compile: sizes: " << s.mlirOps << " MLIR ops after lowering, "
                 << s.llvmFunctions << " LLVM functions, " << s.llvmInstructions
                 << " LLVM instructions, object " << s.objectBytes << " bytes, output "
                 << s.outputBytes << " bytes\n";
  }
  // `off`: no artifact cache yet; the cache makes this word hit or miss.
  if (verbose)
    llvm::errs() << llvm::format("qshape-compile: off %s %.3f s\n", (*facts)->key().c_str(),
                                 seconds);
  return 0;
}
