//===- Toolchain.h - target machine and linker of qshape-compile -*- C++ -*-===//
//
// The outside things a compiled library depends on, found in one place:
// the host target (triple, CPU name and features) and the linker. Their
// identities go into the compile key (CompileFacts), so a library compiled
// for another CPU or linked by another linker never stands in for this one.
//
// The linker is lld. By default it runs in qshape-compile's own process:
// lld's ELF driver from Debian's liblld-22-dev, linked into the compiler
// (Link.cpp), so a compile starts no second program (ld.lld-22 as a child
// alone took more memory than the whole rolled compile: docs/native.md,
// "The linker"). An external GNU-compatible linker can be named with
// --linker or $QSHAPE_LINKER (a path, or a name looked up in PATH); a build
// without lld's library runs Debian's ld.lld (lld-22), found by CMake at
// configure time. Either links against the C library the C compiler reports
// (libm.so.6, libc.so.6). No clang driver: it would add a process start of
// a hundred megabytes of shared libraries to every compile.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_ARTIFACTCACHE_TOOLCHAIN_H
#define QSHAPE_ARTIFACTCACHE_TOOLCHAIN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
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

  /// What host() found on this machine since it last booted, as record()
  /// left it in `directory` (a cache directory: owner-only), without the
  /// cpuid instructions host() runs: some 30, each a trap to the hypervisor
  /// in a VM (0.1-0.2 ms, a sixth of a cache hit's process). The record is
  /// the file "host-target", named for the kernel's boot id, so that machines
  /// sharing a directory never read each other's. Nullopt when there is no
  /// record of this boot, or it is damaged.
  static std::optional<TargetInfo> recorded(llvm::StringRef directory);
  /// Records `target` in `directory` unless it is recorded already:
  /// atomically, and best effort (a read-only directory keeps no record).
  static void record(llvm::StringRef directory, const TargetInfo &target);

  bool operator==(const TargetInfo &other) const {
    return triple == other.triple && cpu == other.cpu && features == other.features;
  }
};

/// What links objects into shared libraries.
struct Linker {
  /// lld's library in this process (Link.cpp); `path` is then empty.
  bool inProcess = false;
  /// The external linker's path (ld.lld).
  std::string path;
  /// The shared libraries the library may need (libm.so.6, libc.so.6).
  std::vector<std::string> libraries;
  /// Identifies the linker and those libraries for the compile key: in
  /// process, lld's version compiled in ("LLD 22.1.8, in process"); else
  /// the linker's version text (when it is the configured one) and its
  /// resolved path, size and modification time; then the same stamp of each
  /// library. Computed with stat() only: no process is started.
  std::string identity;
  /// Where the linker came from (for error messages): "--linker",
  /// "QSHAPE_LINKER", "in process" or "configured".
  std::string origin;
};

/// What --linker names for lld's library in this process (the default when
/// qshape was built with it), over $QSHAPE_LINKER.
inline constexpr llvm::StringLiteral kInProcessLinkerName = "in-process";

/// True when qshape-compile was built with lld's library (liblld-22-dev).
bool hasInProcessLinker();

/// Finds the linker: `requested` when not empty (from --linker), else
/// $QSHAPE_LINKER, else lld in process when qshape was built with its
/// library, else the ld.lld CMake found. A name without '/' is looked up in
/// PATH. The error says what was looked for, where, and how to fix it.
/// The front end calls this too: one answer, one identity in both keys.
/// Without `allowInProcess` (a plugin, which carries no lld), the last
/// choice is the configured ld.lld, and asking for lld in process is an
/// error.
llvm::Expected<Linker> findLinker(llvm::StringRef requested, bool allowInProcess = true);

/// Links the object file `object` into the shared library `output` (which is
/// replaced). The error carries the linker's own messages. Defined in
/// Link.cpp, in QShapeCompile (which holds lld), not in QShapeArtifactCache.
llvm::Error linkSharedLibrary(const Linker &linker, llvm::StringRef object, llvm::StringRef output,
                              llvm::StringRef runtimeLib = {});

/// Whether lld crashed in this process (a full disk under its mmap): the
/// link failed with an error, and the process should end with _exit(), not
/// run static destructors over lld's abandoned state.
bool linkerCrashedInProcess();

} // namespace qshape::compile

#endif // QSHAPE_ARTIFACTCACHE_TOOLCHAIN_H
