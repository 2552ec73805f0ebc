//===- Diagnostics.h - One warning per process for cache problems -*- C++
//-*-===//
//
// The cache must never stop a compilation. Every problem it meets (a read-only
// or full disk, a directory with unsafe permissions, a lock it cannot take) is
// counted by the caller and reported here. Only the first report of a process
// (per source: the local directory, the remote cache) reaches the warning
// handler, so a broken cache prints exactly one line on stderr however many
// lookups and stores follow.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_CACHE_DIAGNOSTICS_H
#define QSHAPE_CACHE_DIAGNOSTICS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>
#include <functional>

namespace qshape::cache {

/// Receives the one warning a process emits about its cache.
using WarningHandler = std::function<void(llvm::StringRef message)>;

/// Installs a process-wide warning handler and returns the previous one. An
/// empty handler restores the default, which prints
/// "qshape-cache: warning: <message> (...)" to stderr, with a note that later
/// problems are only counted.
WarningHandler setWarningHandler(WarningHandler handler);

/// What the default handler does with a message: one line on stderr.
void printDefaultWarning(llvm::StringRef message);

/// Where a problem comes from. Each source has its own one warning, so a
/// local problem (a read-only disk) does not hide that the shared cache is
/// down, and a flapping server does not hide a full disk.
enum class ProblemSource { Local, Remote };

/// Records a cache problem. The first problem of each source in the process
/// is passed to the warning handler; the others only increase
/// problemCount(). Returns true if this call emitted the warning.
bool reportProblem(const llvm::Twine &message, ProblemSource source = ProblemSource::Local);

/// Number of problems reported in this process, emitted or not.
uint64_t problemCount();

/// Forgets that a warning was emitted and zeroes problemCount(). For tests.
void resetProblemsForTesting();

} // namespace qshape::cache

#endif // QSHAPE_CACHE_DIAGNOSTICS_H
