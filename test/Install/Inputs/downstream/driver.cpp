// A downstream MLIR tool built against an installed qshape: registers qshape's
// dialects and passes through the installed headers and libraries, parses a
// module, runs a textual pass pipeline (the content of builtin.module(...),
// as Catalyst's stages are given) and then qshape-fingerprint, added through
// the C++ API of the generated Passes.h.inc.
//   downstream <input.mlir> <pass pipeline>
#include "qshape/Dialect/Quantum/IR/QuantumDialect.h"
#include "qshape/InitAll.h"
#include "qshape/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: " << argv[0] << " <input.mlir> <pass pipeline>\n";
    return 2;
  }
  mlir::DialectRegistry registry;
  qshape::registerToolDialects(registry);
  qshape::registerDependentDialects(registry);
  qshape::registerAllPasses();
  mlir::MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], sourceMgr, mlir::ParserConfig(&context));
  if (!module)
    return 1;
  if (auto *quantum = context.getLoadedDialect<qshape::quantum::QuantumDialect>())
    llvm::errs() << "downstream: loaded dialect '" << quantum->getNamespace() << "'\n";

  mlir::PassManager pm(&context);
  if (mlir::failed(mlir::parsePassPipeline(argv[2], pm, llvm::errs())))
    return 1;
  pm.addPass(qshape::createQShapeFingerprint());
  if (mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
