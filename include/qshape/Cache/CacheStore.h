//===- CacheStore.h - Persistent compile cache -------------------*- C++
//-*-===//
//
// A directory of entries, one file each (see CacheEntry.h):
//
//   <dir>/CACHEDIR.TAG        marks the directory for backup tools
//   <dir>/stats               counters and size estimate (CacheStats.h)
//   <dir>/cleanup.lock        held by the one running cleaner (LockFile.h)
//   <dir>/ab/ab12...ef        entry of key blake3:ab12...ef
//   <dir>/ab/.tmp-...         a store in progress (or killed)
//
// Writers fill a temp file in the entry's shard directory, fsync it and
// rename it into place, so readers see a whole entry or none. Readers check
// everything; a bad entry is a miss (counted as corrupt) that the next store
// replaces. A hit sets the entry's mtime, which is its last-use time for LRU.
//
// Eviction never scans on a normal store: the running size estimate in the
// stats file is compared with the cap, and only past the cap does one
// cleaner (under cleanup.lock) scan, remove orphaned temp files and evict
// least recently used entries down to the low-water mark.
//
// Nothing here stops the caller: every failure becomes a miss or a skipped
// store, a counter, and at most one warning per process (Diagnostics.h).
// A CacheStore may be used from several threads at once.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_CACHE_CACHESTORE_H
#define QSHAPE_CACHE_CACHESTORE_H

#include "qshape/Cache/CacheEntry.h"
#include "qshape/Cache/CacheKey.h"
#include "qshape/Cache/CacheStats.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorOr.h"

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace qshape::cache {

constexpr uint64_t DefaultMaxSizeBytes = uint64_t(2) << 30; // 2 GiB

struct CacheOptions {
  /// Empty: defaultCacheDirectory().
  std::string Directory;
  /// 0: $QSHAPE_CACHE_MAX_SIZE if set and valid, else DefaultMaxSizeBytes.
  uint64_t MaxSizeBytes = 0;
  /// Automatic cleanups evict down to this fraction of the cap.
  double LowWaterFraction = 0.8;
  /// A cleanup lock not refreshed for this long is broken.
  unsigned StaleLockSeconds = 600;
  /// Temp files older than this are leftovers of killed writers.
  unsigned TempFileMaxAgeSeconds = 3600;
  /// A store runs a cleanup (which corrects the size estimate) when the last
  /// one is older than this, even under the cap.
  unsigned CleanupIntervalSeconds = 24 * 3600;
};

/// $QSHAPE_CACHE_DIR, else $XDG_CACHE_HOME/qshape (if absolute), else
/// ~/.cache/qshape.
std::string defaultCacheDirectory();

/// Parses "1048576", "10K", "10M", "2G", "1.5G", "1T" (powers of 1024; an
/// optional trailing "B" or "iB" is accepted).
std::optional<uint64_t> parseSize(llvm::StringRef Text);
/// "0 B", "12.0 KiB", "1.5 GiB".
std::string formatSize(uint64_t Bytes);

/// A hit: the payload and the header that describes it.
struct CacheEntry {
  EntryHeader Header;
  std::unique_ptr<llvm::MemoryBuffer> Payload;
};

enum class LookupStatus {
  Hit,
  Miss,       ///< no entry
  Corrupt,    ///< an entry that failed a check (a miss; counted as corrupt)
  IOError,    ///< could not read (a miss; counted, one warning)
  Disabled,   ///< the cache directory was refused (a miss)
  InvalidKey, ///< the key is not a valid key (nothing touched)
};

struct LookupResult {
  LookupStatus Status = LookupStatus::Miss;
  /// Set iff Status == Hit.
  std::optional<CacheEntry> Entry;
  /// Why a Corrupt/IOError/Disabled/InvalidKey lookup missed.
  std::string Detail;

  bool hit() const { return Status == LookupStatus::Hit; }
};

enum class StoreStatus {
  Stored,
  Failed,     ///< I/O error; counted, one warning; nothing visible was changed
  Disabled,   ///< the cache directory was refused; nothing written
  InvalidKey, ///< the key is not a valid key; nothing written
  TooLarge,   ///< the entry alone exceeds the size cap; one warning
};

struct StoreResult {
  StoreStatus Status = StoreStatus::Stored;
  /// Why a store was not done.
  std::string Detail;

  bool stored() const { return Status == StoreStatus::Stored; }
};

/// One entry found by a directory scan.
struct EntryInfo {
  std::string KeyHex;
  std::string Path;
  uint64_t Size = 0;
  int64_t LastUse = 0; ///< mtime, seconds since the epoch
};

struct ScanResult {
  std::vector<EntryInfo> Entries;
  /// Temp files of stores in progress or killed (KeyHex is empty).
  std::vector<EntryInfo> TempFiles;
  uint64_t TotalBytes = 0;
};

struct CleanupResult {
  enum class State {
    Done,
    Busy,     ///< another cleaner holds the lock; nothing done
    Failed,   ///< lock or scan failed (see Detail)
    Disabled, ///< the cache directory was refused
  };
  State Result = State::Done;
  std::string Detail;
  uint64_t EntriesBefore = 0, BytesBefore = 0;
  uint64_t EntriesAfter = 0, BytesAfter = 0;
  uint64_t Removed = 0, RemovedBytes = 0;
  uint64_t TempFilesRemoved = 0;
  bool BrokeStaleLock = false;
};

class CacheStore {
public:
  /// Resolves and creates the directory (mode 0700). A directory owned by
  /// another user or writable by group/others is refused: the store is
  /// disabled (lookups miss, stores are skipped) and one warning is reported.
  explicit CacheStore(CacheOptions Options = {});

  bool isEnabled() const { return Enabled; }
  /// Why the directory was refused; empty if enabled.
  llvm::StringRef disabledReason() const { return DisabledReason; }
  llvm::StringRef directory() const { return Directory; }
  uint64_t maxSizeBytes() const { return MaxSize; }

  /// Returns the payload of \p Key (`blake3:<hex>` or `<hex>`) and its
  /// header, after checking magic, version, header checksum, key, size and
  /// payload checksum. On a hit the entry's last-use time is refreshed.
  LookupResult lookup(llvm::StringRef Key);

  /// Writes \p Payload atomically as the entry of \p Key, replacing any
  /// previous (or corrupt) entry. May evict other entries afterwards.
  StoreResult store(llvm::StringRef Key, PayloadKind Kind,
                    llvm::StringRef Payload, uint64_t CompileTimeMs);

  /// Counters of this CacheStore (this process).
  CacheStats processStats() const;
  /// Counters of the directory, all processes together.
  llvm::ErrorOr<CacheStats> persistentStats() const;

  /// Path of the entry file of \p Key.
  std::string entryPath(const CacheKey &Key) const;
  std::string statsPath() const;

  /// Lists entries (sorted by key) and temp files. Does not read entry
  /// contents.
  llvm::ErrorOr<ScanResult> scan() const;

  /// Removes stale temp files and evicts least recently used entries until
  /// the total is at most \p TargetBytes (default: if over the cap, down to
  /// the low-water mark). Corrects the size estimate.
  CleanupResult prune(std::optional<uint64_t> TargetBytes = std::nullopt);
  /// Removes every entry (not counted as evictions) and the temp files a
  /// prune would remove; younger temp files belong to stores in progress.
  /// Counters are kept; the size estimate is corrected.
  CleanupResult clear();

  /// Removes the entry file of \p Key if it exists (used by `verify --fix`).
  std::error_code remove(const CacheKey &Key);

private:
  enum class CleanupMode { Evict, RemoveAll };
  /// Evicts only if the scanned total exceeds \p LimitBytes, then down to
  /// \p TargetBytes.
  CleanupResult runCleanup(CleanupMode Mode, uint64_t LimitBytes,
                           uint64_t TargetBytes);
  uint64_t lowWaterBytes() const;
  void maybeCleanupAfterStore(const CacheStats &Persisted);
  /// Adds \p Delta to this process's counters and to the stats file;
  /// \p UpdateSize adjusts the persisted size estimate too. Returns the
  /// stats file after the update, or nullopt if it could not be written.
  std::optional<CacheStats>
  record(const CacheStats &Delta,
         llvm::function_ref<void(CacheStats &)> UpdateSize = nullptr);
  /// Reports \p Message (the one warning, if it is the first problem) and
  /// counts it in \p Counter.
  void countProblem(uint64_t CacheStats::*Counter, const std::string &Message);

  CacheOptions Options;
  std::string Directory;
  uint64_t MaxSize = DefaultMaxSizeBytes;
  bool Enabled = false;
  std::string DisabledReason;

  mutable std::mutex StatsMutex;
  CacheStats Local;
};

} // namespace qshape::cache

#endif // QSHAPE_CACHE_CACHESTORE_H
