//===- qshape-opt.cpp - qshape's mlir-opt-style driver --------------------===//
//
// mlir-opt with qshape's `quantum` dialect, the upstream dialects Catalyst
// circuits contain, qshape's passes and the upstream passes. Plugins load
// with --load-pass-plugin / --load-dialect-plugin as in mlir-opt. An input
// file is checked (qshape/ToolInput.h) before MlirOptMain reads it; stdin is
// read by MlirOptMain alone.
//
//===----------------------------------------------------------------------===//

#include "qshape/InitAll.h"
#include "qshape/ToolInput.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::DialectRegistry registry;
  qshape::registerToolDialects(registry);
  qshape::registerDependentDialects(registry);
  mlir::registerAllPasses();
  qshape::registerAllPasses();
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv,
      "qshape optimizer driver: canonicalize, fingerprint, roll and cache quantum "
      "programs written in Catalyst's `quantum` dialect\n",
      registry);
  if (inputFilename != "-") {
    std::string error;
    // MlirOptMain reports a file it cannot open.
    if (std::unique_ptr<llvm::MemoryBuffer> file = mlir::openInputFile(inputFilename, &error)) {
      llvm::SourceMgr sourceMgr;
      sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
      if (mlir::failed(qshape::checkToolInput(sourceMgr, /*ctx=*/nullptr)))
        return 1;
    }
  }
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
}
