//===- NativeLibrary.h - load and call a qshape-compiled library -*- C++ -*-===//
//
// The engine behind `qshape-run OUT.so`: reads the library's info document
// from the file (refusing files qshape-compile did not write, before any of
// their code runs), loads libqshape-runtime.so and then the library, and
// calls setup(), an entry point and teardown() with Catalyst's calling
// convention (docs/native.md): the arguments as a struct of memref
// descriptor pointers (scalars by value), the results as a struct of memref
// descriptors (scalars by value) that the entry fills.
//
// Arguments and results are qshape-sim's values (interp::RtValue), so
// qshape-run reads --args and prints results with qshape-sim's own JSON
// reader and writer (Interpreter/ValueIO.h), and the two outputs can be
// diffed.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_NATIVE_NATIVELIBRARY_H
#define QSHAPE_NATIVE_NATIVELIBRARY_H

#include "qshape/Interpreter/RuntimeValue.h"
#include "qshape/LibraryInfo/LibraryInfo.h"

#include "mlir/IR/TypeRange.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace qshape::native {

struct RunOptions {
  /// Seed of the random stream; unset: the seed of quantum.init, else
  /// qshape-sim's default (as qshape-sim without --seed).
  std::optional<uint64_t> seed;
  /// Shots overriding the device's; 0 = analytic.
  std::optional<uint64_t> shots;
  /// Called with the runtime's message when the program fails at run time
  /// (a wire out of range, too many qubits, ...). It must not return (the
  /// runtime cannot continue); qshape-run prints the message and exits 1.
  void (*onRuntimeError)(const char *message) = nullptr;
};

/// What the runtime counted during the last run.
struct RunStats {
  uint64_t gatesApplied = 0;
  unsigned maxWires = 0;
};

/// The runtime library to load: `requested` when not empty (--runtime),
/// else $QSHAPE_RUNTIME, else libqshape-runtime.so in ../lib next to the
/// running executable, else the one in qshape's build tree.
std::string findRuntime(llvm::StringRef requested);

class NativeLibrary {
public:
  /// Reads and checks the info of `path`, loads the runtime at
  /// `runtimePath` and then the library, checks that their runtime ABI
  /// versions agree and resolves setup, teardown and every entry point.
  static llvm::Expected<std::unique_ptr<NativeLibrary>> load(llvm::StringRef path,
                                                             llvm::StringRef runtimePath);
  ~NativeLibrary();

  const LibraryInfo &getInfo() const { return info; }

  /// Runs `entry` once: configures the runtime, calls setup(), the entry
  /// with `args` (of the entry's argument types `argTypes`) and teardown(),
  /// and returns its results (of `resultTypes`). Result buffers the library
  /// allocated are not freed (they may be constants of the library).
  llvm::Expected<llvm::SmallVector<interp::RtValue>>
  run(const EntryInfo &entry, mlir::TypeRange argTypes, mlir::TypeRange resultTypes,
      llvm::ArrayRef<interp::RtValue> args, const RunOptions &options);

  RunStats getStats() const;

private:
  NativeLibrary() = default;
  struct Handles;
  LibraryInfo info;
  std::string path;
  std::unique_ptr<Handles> handles;
};

} // namespace qshape::native

#endif // QSHAPE_NATIVE_NATIVELIBRARY_H
