//===- DirectoryCache.h - The cache directory level --------------*- C++
//-*-===//
//
// A directory of entries, one file each (see CacheEntry.h):
//
//   <dir>/CACHEDIR.TAG        marks the directory for backup tools
//   <dir>/stats               counters and size estimate (CacheStats.h)
//   <dir>/cleanup.lock        held by the one running cleaner (LockFile.h)
//   <dir>/locks/<hex>         single-flight key locks (flock; lockKey())
//   <dir>/ab/ab12...ef        entry of key blake3:ab12...ef
//   <dir>/ab/.tmp-...         a store in progress (or killed)
//
// Writers fill a temp file in the entry's shard directory and rename it into
// place, so readers see a whole entry or none. Readers check everything; a
// bad entry is a miss (counted as corrupt) that the next store replaces.
// Nothing is fsynced: the checksum already catches an entry that a power
// loss tore, and a lost entry costs one compile, so durability is not worth
// a disk flush on every store (ccache does not fsync either). A hit sets
// the entry's mtime, which is its last-use time for LRU.
//
// Eviction never scans on a normal store: the running size estimate in the
// stats file is compared with the cap, and only past the cap does one
// cleaner (under cleanup.lock) scan, remove orphaned temp files and evict
// least recently used entries down to the low-water mark.
//
// Nothing here stops the caller: every failure becomes a miss or a skipped
// store, a counter, and at most one warning per process (Diagnostics.h).
// A DirectoryCache may be used from several threads at once. Open it through
// openCacheBackend("file:DIR") or openCache(); the class is public for the
// tool's maintenance commands and for tests.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_CACHE_DIRECTORYCACHE_H
#define QSHAPE_CACHE_DIRECTORYCACHE_H

#include "qshape/Cache/CacheBackend.h"
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

constexpr uint64_t kDefaultMaxSizeBytes = uint64_t{2} << 30; // 2 GiB

/// $QSHAPE_CACHE_DIR, else $XDG_CACHE_HOME/qshape (if absolute), else
/// ~/.cache/qshape.
std::string defaultCacheDirectory();

/// One entry found by a directory scan.
struct EntryInfo {
  std::string keyHex;
  std::string path;
  uint64_t size = 0;
  int64_t lastUse = 0; ///< mtime, seconds since the epoch
};

struct ScanResult {
  std::vector<EntryInfo> entries;
  /// Temp files of stores in progress or killed (keyHex is empty).
  std::vector<EntryInfo> tempFiles;
  uint64_t totalBytes = 0;
};

struct CleanupResult {
  enum class State {
    Done,
    Busy,     ///< another cleaner holds the lock; nothing done
    Failed,   ///< lock or scan failed (see detail)
    Disabled, ///< the cache directory was refused
  };
  State result = State::Done;
  std::string detail;
  uint64_t entriesBefore = 0, bytesBefore = 0;
  uint64_t entriesAfter = 0, bytesAfter = 0;
  uint64_t removed = 0, removedBytes = 0;
  uint64_t tempFilesRemoved = 0;
  bool brokeStaleLock = false;
};

/// What only a directory can do: its files, its size cap, its cleanups.
class DirectoryMaintenance {
public:
  virtual ~DirectoryMaintenance();
  virtual llvm::StringRef directory() const = 0;
  virtual uint64_t maxSizeBytes() const = 0;
  /// Path of the entry file of \p key.
  virtual std::string entryPath(const CacheKey &key) const = 0;
  virtual std::string statsPath() const = 0;
  /// Lists entries (sorted by key) and temp files. Does not read entry
  /// contents.
  virtual llvm::ErrorOr<ScanResult> scan() const = 0;
  /// Removes stale temp files and evicts least recently used entries until
  /// the total is at most \p targetBytes (default: if over the cap, down to
  /// the low-water mark). Corrects the size estimate.
  virtual CleanupResult prune(std::optional<uint64_t> targetBytes = std::nullopt) = 0;
  /// Removes every entry (not counted as evictions) and the temp files a
  /// prune would remove; younger temp files belong to stores in progress.
  /// Counters are kept; the size estimate is corrected.
  virtual CleanupResult clear() = 0;
  /// Adds \p delta to the counters of this process and of the stats file
  /// (the remote level of a layered cache records here).
  virtual void recordCounters(const CacheStats &delta) = 0;
};

class DirectoryCache final : public CacheBackend,
                             public DirectoryMaintenance,
                             public CacheInventory {
public:
  /// Resolves and creates the directory (mode 0700). A directory owned by
  /// another user or writable by group/others is refused: the cache is
  /// disabled (lookups miss, stores are skipped) and one warning is reported.
  explicit DirectoryCache(DirectoryOptions options = {});

  // CacheBackend
  std::string describe() const override { return "file:" + root; }
  bool isEnabled() const override { return enabled; }
  std::string disabledReason() const override { return whyDisabled; }
  /// On a hit the entry's last-use time is refreshed. A fetched entry the
  /// remote would refuse today is Refused (FetchedEntryPolicy).
  LookupResult lookup(const CacheKey &key) override;
  /// May evict other entries afterwards.
  StoreResult storeEntry(const EntryHeader &header, llvm::StringRef payload) override;
  KeyLockResult lockKey(const CacheKey &key, std::chrono::milliseconds maxWait) override;
  KeyLockResult adoptKeyLock(const CacheKey &key, int fd) override;
  CacheStats processStats() const override;
  llvm::ErrorOr<CacheStats> persistentStats() const override;
  DirectoryMaintenance *maintenance() override { return this; }
  CacheInventory *inventory() override { return this; }

  // DirectoryMaintenance
  llvm::StringRef directory() const override { return root; }
  uint64_t maxSizeBytes() const override { return maxSize; }
  std::string entryPath(const CacheKey &key) const override;
  std::string statsPath() const override;
  llvm::ErrorOr<ScanResult> scan() const override;
  CleanupResult prune(std::optional<uint64_t> targetBytes = std::nullopt) override;
  CleanupResult clear() override;
  void recordCounters(const CacheStats &delta) override { record(delta); }
  void flushStats() override;

  // CacheInventory
  llvm::Error listEntries(llvm::function_ref<void(const InventoryEntry &)> visit) override;
  EntryReadResult checkEntry(const CacheKey &key) override;
  /// Removes the entry file of \p key if it exists (used by `verify --fix`).
  std::error_code removeEntry(const CacheKey &key) override;

private:
  enum class CleanupMode { Evict, RemoveAll };
  /// Evicts only if the scanned total exceeds \p limitBytes, then down to
  /// \p targetBytes.
  CleanupResult runCleanup(CleanupMode mode, uint64_t limitBytes, uint64_t targetBytes);
  /// Removes key locks that nobody holds and that are older than the temp
  /// file age; returns how many.
  uint64_t removeStaleKeyLocks();
  /// <dir>/locks/<hex of \p key>: the file whose flock is its lock.
  std::string keyLockPath(const CacheKey &key) const;
  uint64_t lowWaterBytes() const;
  void maybeCleanupAfterStore(const CacheStats &persisted);
  /// Adds \p delta to this process's counters and to the stats file;
  /// \p updateSize adjusts the persisted size estimate too. Returns the
  /// stats file after the update, or nullopt if it could not be written.
  std::optional<CacheStats> record(const CacheStats &delta,
                                   llvm::function_ref<void(CacheStats &)> updateSize = nullptr);
  /// Adds \p written to the stats file (and \p updateSize's change).
  std::optional<CacheStats> persist(const CacheStats &written,
                                    llvm::function_ref<void(CacheStats &)> updateSize);
  /// Reports \p message (the one warning, if it is the first problem) and
  /// counts it in \p counter.
  void countProblem(uint64_t CacheStats::*counter, const std::string &message);

  DirectoryOptions options;
  /// Which of the entries copied from a remote are served: fixed when the
  /// directory is opened, from the team key and mode of that time.
  FetchedEntryPolicy fetched;
  std::string root; ///< directory()
  uint64_t maxSize = kDefaultMaxSizeBytes;
  bool enabled = false;
  std::string whyDisabled; ///< disabledReason()

  mutable std::mutex statsMutex;
  CacheStats local;
  /// Counters not yet in the stats file (deferLookupStats).
  CacheStats pending;
  bool hasPending = false;
};

} // namespace qshape::cache

#endif // QSHAPE_CACHE_DIRECTORYCACHE_H
