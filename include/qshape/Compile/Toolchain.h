//===- Toolchain.h - target machine and linker of qshape-compile -*- C++ -*-===//
//
// The outside things a compiled library depends on, found in one place:
// the host target (triple, CPU name and features) and the linker. Their
// identities go into the compile key (CompileFacts), so a library compiled
// for another CPU or linked by another linker never stands in for this one.
//
// The linker is Debian's ld.lld (lld-22), found by CMake at configure time
// together with the C library it links against (libm.so.6, libc.so.6, as the
// C compiler reports them). It is run directly rather than through a clang
// driver, which would add a process start of a hundred megabytes of shared
// libraries to every compile. Another GNU-compatible linker can be named
// with --linker or $QSHAPE_LINKER (a path, or a name looked up in PATH).
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_COMPILE_TOOLCHAIN_H
#define QSHAPE_COMPILE_TOOLCHAIN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace qshape::compile {

/// What the object code is generated for.
struct TargetInfo {
  std::string triple;
  std::string cpu;
  /// "+avx2,+sse4.2,-xop,...", sorted, as LLVM's subtarget features take it.
  std::string features;

  /// This machine (what qshape-compile always targets: the library runs here).
  static const TargetInfo &host();
};

/// The program that links objects into shared libraries.
struct Linker {
  /// The linker's path (ld.lld).
  std::string path;
  /// The shared libraries the library may need (libm.so.6, libc.so.6).
  std::vector<std::string> libraries;
  /// Identifies the linker and those libraries for the compile key: the
  /// linker's version text (when it is the configured one), and each file's
  /// resolved path, size and modification time. Computed with stat() only:
  /// no process is started.
  std::string identity;
  /// Where the linker came from (for error messages): "--linker",
  /// "QSHAPE_LINKER" or "configured".
  std::string origin;
};

/// Finds the linker: `requested` when not empty (from --linker), else
/// $QSHAPE_LINKER, else the ld.lld CMake found. A name without '/' is
/// looked up in PATH. The error says what was looked for, where, and how to
/// fix it.
llvm::Expected<Linker> findLinker(llvm::StringRef requested);

/// Links the object file `object` into the shared library `output` (which is
/// replaced). The error carries the linker's own messages.
llvm::Error linkSharedLibrary(const Linker &linker, llvm::StringRef object,
                              llvm::StringRef output);

} // namespace qshape::compile

#endif // QSHAPE_COMPILE_TOOLCHAIN_H
