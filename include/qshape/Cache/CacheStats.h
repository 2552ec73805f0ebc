//===- CacheStats.h - Counters shared by every process -----------*- C++
//-*-===//
//
// The counters of a cache directory live in one small text file,
// `<dir>/stats`, updated read-modify-write under flock(LOCK_EX) so that
// concurrent processes never lose an update. The same file carries the
// running size estimate that lets a store decide whether to evict without
// scanning the directory.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_CACHE_CACHESTATS_H
#define QSHAPE_CACHE_CACHESTATS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorOr.h"

#include <cstdint>
#include <string>
#include <system_error>

namespace qshape::cache {

struct CacheStats {
  // Counters (persisted, and kept per process).
  uint64_t Hits = 0;
  uint64_t Misses = 0;  ///< every lookup without a payload, corrupt included
  uint64_t Corrupt = 0; ///< misses caused by a bad entry
  uint64_t ReadErrors = 0;
  uint64_t WriteErrors = 0;
  uint64_t Evictions = 0;
  uint64_t Stores = 0;
  uint64_t BytesStored = 0;        ///< payload bytes written by stores
  uint64_t CompileTimeSavedMs = 0; ///< stored compile time of every hit

  // Remote counters (persisted in the local directory's file: what this
  // machine's processes saw of the shared cache). A lookup that misses
  // locally and then asks the remote counts once in Misses and once here.
  uint64_t RemoteHits = 0;
  uint64_t RemoteMisses = 0;   ///< the remote had no entry (or evicted it)
  uint64_t RemoteCorrupt = 0;  ///< a remote value failed a checksum
  uint64_t RemoteRefused = 0;  ///< untagged or other-key entries refused
  uint64_t RemoteErrors = 0;   ///< connection, auth and server errors
  uint64_t RemoteTimeouts = 0; ///< connects and operations that timed out
  uint64_t RemoteTooLarge = 0; ///< stores over the remote size limit
  uint64_t RemoteSkipped = 0;  ///< operations skipped by the circuit breaker
  uint64_t RemoteStores = 0;
  uint64_t RemoteBytesStored = 0; ///< bytes of whole entries sent

  // Size accounting (persisted only; an estimate between cleanups).
  uint64_t SizeBytes = 0;
  uint64_t Entries = 0;
  uint64_t LastCleanupTime = 0; ///< seconds since the epoch; 0 = never

  // Process only: stats file updates that failed.
  uint64_t StatsErrors = 0;

  /// Hits / (hits + misses), 0 when there were no lookups.
  double hitRate() const;
  /// Remote hits / remote lookups that reached the server.
  double remoteHitRate() const;
  /// Adds the counters of \p Delta (not the size accounting).
  void addCounters(const CacheStats &Delta);
};

/// Text form written to the stats file: a header line, then "name value".
std::string serializeStats(const CacheStats &Stats);
/// Parses serializeStats() output. Unknown or malformed lines are skipped
/// (a torn file costs counts, never a failure).
CacheStats parseStats(llvm::StringRef Text);

/// Reads \p Path under a shared lock; a missing file reads as zeros.
llvm::ErrorOr<CacheStats> readStatsFile(llvm::StringRef Path);

/// Locks \p Path exclusively (creating it with mode 0600), reads it, calls
/// \p Update and writes the result back. The lock serializes processes; the
/// file is opened for each update so a forked child never shares the lock of
/// its parent.
std::error_code updateStatsFile(llvm::StringRef Path,
                                llvm::function_ref<void(CacheStats &)> Update);

} // namespace qshape::cache

#endif // QSHAPE_CACHE_CACHESTATS_H
