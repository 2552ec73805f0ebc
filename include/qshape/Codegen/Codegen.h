//===- Codegen.h - LLVM's half of a compile: IR to object to library -*- C++ -*-===//
//
// What happens to a module once it is in the LLVM dialect, in one place for
// both of qshape's compilers: qshape-compile (Compiler.h), and the native
// mode of the staged compile cache (qshape-cache-lookup{native}), which
// compiles the module Catalyst's stages lowered into a library of its own.
//
//   createTargetMachine   the host target at an optimisation level
//   optimizeModule        LLVM's new pass manager, default pipeline
//   emitObjectCode        an object file, in memory
//   linkSharedLibrary     a shared library, by the linker found in
//                         Toolchain.h (lld in process when the caller
//                         carries it, else an ld.lld child)
//   compileSharedLibrary  all of the above, from an LLVM-dialect module to
//                         the bytes of a library
//
// No part of it needs lld's library: that stays in qshape-compile
// (lib/Compile/Link.cpp), which passes its in-process link in; the plugins
// use an external ld.lld.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_CODEGEN_CODEGEN_H
#define QSHAPE_CODEGEN_CODEGEN_H

#include "qshape/ArtifactCache/Toolchain.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace qshape::codegen {

/// A target machine for `target` (position-independent code) at `optLevel`
/// (0-3). The native targets are initialised on first use.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const compile::TargetInfo &target, unsigned optLevel);

/// Runs LLVM's default module pipeline at `optLevel` (0: the O0 pipeline).
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine, unsigned optLevel);

/// Appends `module`'s object code to `object`.
llvm::Error emitObjectCode(llvm::Module &module, llvm::TargetMachine &machine,
                           llvm::SmallVectorImpl<char> &object);

/// A temporary file holding `bytes` (`path` is set to it), removed when the
/// returned guard goes, and on a signal before that.
class TemporaryFile {
public:
  static llvm::Expected<std::unique_ptr<TemporaryFile>>
  create(llvm::StringRef prefix, llvm::StringRef suffix, llvm::StringRef bytes);
  /// A name for a file the caller writes (a linker's output): none exists yet.
  static llvm::Expected<std::unique_ptr<TemporaryFile>> reserve(llvm::StringRef prefix,
                                                                llvm::StringRef suffix);
  ~TemporaryFile();
  TemporaryFile(const TemporaryFile &) = delete;
  TemporaryFile &operator=(const TemporaryFile &) = delete;
  llvm::StringRef path() const { return filePath; }

private:
  explicit TemporaryFile(llvm::StringRef path) : filePath(path.str()) {}
  std::string filePath;
};

/// lld's ELF driver in the caller's process, given the linker's arguments.
using InProcessLink = llvm::Error (*)(llvm::ArrayRef<llvm::StringRef> args);

/// Links `object` (a file) into the shared library `output`, replacing it:
/// needing libm and libc only for what the code calls, and, with
/// `runtimeLib`, that runtime, found by an rpath. A linker that runs in
/// process needs `inProcess`; without it, that is an error. The error
/// carries the linker's own messages.
llvm::Error linkSharedLibrary(const compile::Linker &linker, llvm::StringRef object,
                              llvm::StringRef output, llvm::StringRef runtimeLib,
                              InProcessLink inProcess);

/// What compileSharedLibrary() needs besides the module.
struct LibraryOptions {
  compile::TargetInfo target;
  unsigned optLevel = 2;
  compile::Linker linker;
  /// The runtime the library needs (absolute path), or empty: its symbols
  /// then resolve from whatever loads the library.
  std::string runtimeLib;
};

/// Seconds in each step of compileSharedLibrary().
struct LibraryTimes {
  double translate = 0, optimize = 0, codegen = 0, link = 0;
  double total() const { return translate + optimize + codegen + link; }
};

/// Translates `module` (LLVM dialect; builtin and LLVM translations
/// registered in its context) to LLVM IR, optimises it, emits its object
/// and links it into a shared library, through temporary files that are
/// removed afterwards. Returns the library's bytes; `times`, when given,
/// gets each step's time.
llvm::Expected<std::string> compileSharedLibrary(mlir::ModuleOp module,
                                                 const LibraryOptions &options,
                                                 LibraryTimes *times = nullptr);

} // namespace qshape::codegen

#endif // QSHAPE_CODEGEN_CODEGEN_H
