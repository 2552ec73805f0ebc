//===- qshape-opt.cpp - qshape's mlir-opt-style driver --------------------===//
//
// mlir-opt with qshape's `quantum` dialect, the upstream dialects Catalyst
// circuits contain, qshape's passes and the upstream passes. Plugins load
// with --load-pass-plugin / --load-dialect-plugin as in mlir-opt. The input
// (a file or stdin) is read once, checked (qshape/ToolSupport/ToolInput.h), and handed
// to MlirOptMain as a buffer.
//
//===----------------------------------------------------------------------===//

#include "qshape/InitAll.h"
#include "qshape/ToolSupport/ToolInput.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
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
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  // These read no input; MlirOptMain's printers are its own.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  if (inputFilename == "-" && llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
    llvm::errs() << "(processing input from stdin now, hit ctrl-c/ctrl-d to interrupt)\n";
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = mlir::openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  {
    llvm::SourceMgr sourceMgr; // a view: MlirOptMain takes the buffer
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(input->getMemBufferRef(),
                                                                  /*RequiresNullTerminator=*/false),
                                 llvm::SMLoc());
    if (mlir::failed(qshape::checkToolInput(sourceMgr, /*ctx=*/nullptr)))
      return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output = mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep(); // only on success, as MlirOptMain(argc, argv, ...) does
  return 0;
}
