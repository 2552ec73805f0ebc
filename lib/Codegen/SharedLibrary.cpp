//===- SharedLibrary.cpp - an LLVM-dialect module into a library's bytes --===//

#include "qshape/Codegen/Codegen.h"

#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <chrono>

namespace qshape::codegen {

llvm::Expected<std::unique_ptr<TemporaryFile>> TemporaryFile::reserve(llvm::StringRef prefix,
                                                                      llvm::StringRef suffix) {
  llvm::SmallString<128> path;
  if (std::error_code ec = llvm::sys::fs::getPotentiallyUniqueTempFileName(prefix, suffix, path))
    return llvm::createStringError(ec, "cannot name a temporary file: " + ec.message());
  llvm::sys::RemoveFileOnSignal(path);
  return std::unique_ptr<TemporaryFile>(new TemporaryFile(path));
}

llvm::Expected<std::unique_ptr<TemporaryFile>>
TemporaryFile::create(llvm::StringRef prefix, llvm::StringRef suffix, llvm::StringRef bytes) {
  llvm::SmallString<128> path;
  int fd = -1;
  if (std::error_code ec = llvm::sys::fs::createTemporaryFile(prefix, suffix, fd, path))
    return llvm::createStringError(ec, "cannot create a temporary file: " + ec.message());
  llvm::sys::RemoveFileOnSignal(path);
  std::unique_ptr<TemporaryFile> file(new TemporaryFile(path));
  llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
  os << bytes;
  os.close();
  if (os.has_error()) {
    std::error_code ec = os.error();
    os.clear_error();
    return llvm::createStringError(ec, "cannot write the temporary file '" + path.str().str() +
                                           "': " + ec.message());
  }
  return file;
}

TemporaryFile::~TemporaryFile() {
  (void)llvm::sys::fs::remove(filePath); // best effort: it is a temporary
  llvm::sys::DontRemoveFileOnSignal(filePath);
}

/// The module in LLVM IR for `machine`'s target.
static llvm::Expected<std::unique_ptr<llvm::Module>>
translate(mlir::ModuleOp module, llvm::LLVMContext &context, llvm::TargetMachine &machine) {
  // Not the input's name: it would reach the object's symbol table.
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context, "qshape-module");
  if (!llvmModule)
    return llvm::createStringError("translation to LLVM IR failed (see the diagnostics above)");
  llvmModule->setDataLayout(machine.createDataLayout());
  llvmModule->setTargetTriple(machine.getTargetTriple());
  return llvmModule;
}

namespace {
/// Adds the seconds since construction (or the last lap) to a slot.
class Stopwatch {
public:
  void lap(double &slot) {
    auto now = std::chrono::steady_clock::now();
    slot += std::chrono::duration<double>(now - start).count();
    start = now;
  }

private:
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};
} // namespace

llvm::Expected<std::string>
compileSharedLibrary(mlir::ModuleOp module, const LibraryOptions &options, LibraryTimes *times) {
  LibraryTimes local;
  LibraryTimes &t = times ? *times : local;
  Stopwatch clock;
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(options.target, options.optLevel);
  if (!machine)
    return machine.takeError();
  llvm::SmallString<0> object;
  {
    llvm::LLVMContext context;
    llvm::Expected<std::unique_ptr<llvm::Module>> llvmModule =
        translate(module, context, **machine);
    if (!llvmModule)
      return llvmModule.takeError();
    clock.lap(t.translate);
    optimizeModule(**llvmModule, **machine, options.optLevel);
    clock.lap(t.optimize);
    if (llvm::Error err = emitObjectCode(**llvmModule, **machine, object))
      return std::move(err);
  }
  clock.lap(t.codegen);
  llvm::Expected<std::unique_ptr<TemporaryFile>> objectFile =
      TemporaryFile::create("qshape-native", "o", object);
  if (!objectFile)
    return objectFile.takeError();
  llvm::Expected<std::unique_ptr<TemporaryFile>> libraryFile =
      TemporaryFile::reserve("qshape-native", "so");
  if (!libraryFile)
    return libraryFile.takeError();
  if (llvm::Error err = linkSharedLibrary(options.linker, (*objectFile)->path(),
                                          (*libraryFile)->path(), options.runtimeLib,
                                          /*inProcess=*/nullptr))
    return std::move(err);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> bytes =
      llvm::MemoryBuffer::getFile((*libraryFile)->path(), /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!bytes)
    return llvm::createStringError(bytes.getError(),
                                   "cannot read the linked library: " + bytes.getError().message());
  clock.lap(t.link);
  return (*bytes)->getBuffer().str();
}

} // namespace qshape::codegen
