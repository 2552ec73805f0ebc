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
  uint64_t hits = 0;
  uint64_t misses = 0;  ///< every lookup without a payload, corrupt included
  uint64_t corrupt = 0; ///< misses caused by a bad entry
  uint64_t readErrors = 0;
  uint64_t writeErrors = 0;
  uint64_t evictions = 0;
  uint64_t stores = 0;
  uint64_t bytesStored = 0;        ///< payload bytes written by stores
  uint64_t compileTimeSavedMs = 0; ///< stored compile time of every hit

  // Remote counters (persisted in the local directory's file: what this
  // machine's processes saw of the shared cache). A lookup that misses
  // locally and then asks the remote counts once in misses and once here.
  uint64_t remoteHits = 0;
  uint64_t remoteMisses = 0;   ///< the remote had no entry (or evicted it)
  uint64_t remoteCorrupt = 0;  ///< a remote value failed a checksum
  uint64_t remoteRefused = 0;  ///< untagged or other-key entries refused
  uint64_t remoteErrors = 0;   ///< connection, auth and server errors
  uint64_t remoteTimeouts = 0; ///< connects and operations that timed out
  uint64_t remoteTooLarge = 0; ///< stores over the remote size limit
  uint64_t remoteSkipped = 0;  ///< operations skipped by the circuit breaker
  uint64_t remoteStores = 0;
  uint64_t remoteBytesStored = 0; ///< bytes of whole entries sent

  // Size accounting (persisted only; an estimate between cleanups).
  uint64_t sizeBytes = 0;
  uint64_t entries = 0;
  uint64_t lastCleanupTime = 0; ///< seconds since the epoch; 0 = never

  // Process only: stats file updates that failed.
  uint64_t statsErrors = 0;

  /// Hits / (hits + misses), 0 when there were no lookups.
  double hitRate() const;
  /// Remote hits / remote lookups that reached the server.
  double remoteHitRate() const;
  /// Adds the counters of \p delta (not the size accounting).
  void addCounters(const CacheStats &delta);
};

/// Text form written to the stats file: a header line, then "name value".
std::string serializeStats(const CacheStats &stats);
/// Parses serializeStats() output. Unknown or malformed lines are skipped
/// (a torn file costs counts, never a failure).
CacheStats parseStats(llvm::StringRef text);

/// Reads \p path under a shared lock; a missing file reads as zeros.
llvm::ErrorOr<CacheStats> readStatsFile(llvm::StringRef path);

/// Locks \p path exclusively (creating it with mode 0600), reads it, calls
/// \p update and writes the result back. The lock serializes processes; the
/// file is opened for each update so a forked child never shares the lock of
/// its parent.
std::error_code updateStatsFile(llvm::StringRef path,
                                llvm::function_ref<void(CacheStats &)> update);

} // namespace qshape::cache

#endif // QSHAPE_CACHE_CACHESTATS_H
