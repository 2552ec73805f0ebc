//===- FuzzCommon.cpp - what qshape's fuzz targets share ------------------===//

#include "FuzzCommon.h"

#include "qshape/InitAll.h"
#include "qshape/ToolSupport/ToolInput.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

namespace qshape::fuzz {

static bool verbose() {
  static const bool v = [] {
    const char *e = std::getenv("QSHAPE_FUZZ_VERBOSE");
    return e && *e && *e != '0';
  }();
  return v;
}

MLIRContext &freshContext() {
  static std::unique_ptr<MLIRContext> ctx;
  static unsigned uses = 0;
  static const bool passesRegistered = (qshape::registerAllPasses(), true);
  (void)passesRegistered;
  if (!ctx || ++uses > 2000) {
    DialectRegistry registry;
    qshape::registerToolDialects(registry);
    qshape::registerDependentDialects(registry);
    ctx.reset(); // one context at a time: the old one's memory goes first
    ctx = std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
    ctx->allowUnregisteredDialects();
    ctx->loadAllAvailableDialects();
    uses = 0;
  }
  return *ctx;
}

OwningOpRef<ModuleOp> parseModule(llvm::StringRef text, MLIRContext &ctx) {
  DiagnosticCapture quiet(ctx);
  ParserConfig config(&ctx, /*verifyAfterParse=*/true);
  // MLIR's lexer reads up to a NUL, as every file buffer the tools parse
  // has; libFuzzer's bytes have none, so they are parsed from a copy.
  std::string terminated = text.str();
  // Upstream parser limits the tools check for first (qshape/ToolSupport/ToolInput.h).
  if (qshape::findToolInputProblem(terminated))
    return {};
  return parseSourceString<ModuleOp>(terminated, config, "fuzz-input");
}

std::string printModule(Operation *op, bool generic) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  if (generic)
    flags.printGenericOpForm();
  op->print(os, flags);
  return text;
}

DiagnosticCapture::DiagnosticCapture(MLIRContext &ctx) : ctx(ctx) {
  id = ctx.getDiagEngine().registerHandler([this](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error)
      ++errors;
    messages.push_back(d.str());
    if (verbose())
      llvm::errs() << d.getLocation() << ": " << d.str() << "\n";
    return success();
  });
}

DiagnosticCapture::~DiagnosticCapture() { ctx.getDiagEngine().eraseHandler(id); }

bool DiagnosticCapture::contains(llvm::StringRef text) const {
  for (const std::string &m : messages)
    if (llvm::StringRef(m).contains(text))
      return true;
  return false;
}

std::string DiagnosticCapture::text() const {
  std::string all;
  for (const std::string &m : messages)
    all += m + "\n";
  return all;
}

void fail(const llvm::Twine &what, Operation *op) {
  llvm::errs() << "qshape-fuzz: property violated: " << what << "\n";
  if (op) {
    llvm::errs() << "--- IR ---\n";
    op->print(llvm::errs(), OpPrintingFlags().printGenericOpForm());
    llvm::errs() << "\n";
  }
  llvm::errs().flush();
  std::abort();
}

std::string takeFlag(int *argc, char ***argv, llvm::StringRef name) {
  std::string prefix = ("-" + name + "=").str();
  std::string value;
  int out = 1;
  for (int i = 1; i < *argc; ++i) {
    llvm::StringRef arg((*argv)[i]);
    if (arg.consume_front(prefix) || arg.consume_front("-" + prefix))
      value = arg.str();
    else
      (*argv)[out++] = (*argv)[i];
  }
  *argc = out;
  return value;
}

size_t mutateModuleInput(uint8_t *data, size_t size, size_t maxSize, unsigned seed) {
  // One in five mutations is libFuzzer's own: it finds parser and verifier
  // paths that only invalid text reaches.
  if (seed % 5 != 0) {
    std::string out, name;
    if (mutateModuleText(llvm::StringRef(reinterpret_cast<const char *>(data), size), seed, out,
                         &name) &&
        out.size() <= maxSize) {
      static const bool log = std::getenv("QSHAPE_FUZZ_LOG_MUTATIONS");
      if (log)
        llvm::errs() << "qshape-fuzz: mutation: " << name << "\n";
      std::copy(out.begin(), out.end(), data);
      return out.size();
    }
  }
  return LLVMFuzzerMutate(data, size, maxSize);
}

} // namespace qshape::fuzz
