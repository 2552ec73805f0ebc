//===- CacheBackend.h - The one interface of every cache level ---*- C++
//-*-===//
//
// Everything that looks entries up or stores them (the three MLIR cache
// passes, `qshape-cache`, the artifact cache of `qshape-compile`) talks to a
// CacheBackend, and gets one from openCache() or openCacheBackend(), never by
// constructing a level itself:
//
//   file:DIR          a cache directory on this machine (DirectoryCache.h)
//   redis://...       a Redis server shared by a team (RedisCache.cpp)
//   openCache(Config) the directory as L1, and the remote of
//                     $QSHAPE_CACHE_REMOTE (if any) as L2 behind it
//
// The capabilities that not every level has are separate interfaces, reached
// through accessors that return null when a level lacks them:
//
//   maintenance()   scan/prune/clear of a directory (DirectoryMaintenance)
//   inventory()     list/check/remove single entries, on a directory and on
//                   Redis (`qshape-cache list/verify [--remote]`)
//
// Every level speaks the same entry format (CacheEntry.h): a value read from
// Redis is checked exactly like a file read from disk, and a remote hit is
// copied into L1 byte for byte. No operation ever fails a compilation: a
// problem is a miss or a skipped store, a counter, and at most one warning
// per process and source (Diagnostics.h).
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_CACHE_CACHEBACKEND_H
#define QSHAPE_CACHE_CACHEBACKEND_H

#include "qshape/Cache/CacheEntry.h"
#include "qshape/Cache/CacheKey.h"
#include "qshape/Cache/CacheStats.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace qshape::cache {

class CacheInventory;
class DirectoryMaintenance;

/// Which level of a layered cache answered.
enum class CacheLevel { None, Local, Remote };

/// A hit: the payload and the header that describes it.
struct CacheEntry {
  EntryHeader header;
  std::unique_ptr<llvm::MemoryBuffer> payload;
};

enum class LookupStatus {
  Hit,
  Miss,     ///< no entry
  Corrupt,  ///< an entry that failed a check (a miss; counted as corrupt)
  Refused,  ///< an intact remote entry without the team key's tag (a miss)
  IOError,  ///< could not read, connection lost, server error (a miss)
  Timeout,  ///< the remote did not answer in time (a miss)
  Disabled, ///< the level is off: refused directory, open circuit breaker
};

struct LookupResult {
  LookupStatus status = LookupStatus::Miss;
  /// Set iff status == Hit.
  std::optional<CacheEntry> entry;
  /// The level that answered a hit (Local for a single directory).
  CacheLevel level = CacheLevel::None;
  /// Why a lookup missed, for everything but a plain Miss.
  std::string detail;

  bool hit() const { return status == LookupStatus::Hit; }
};

enum class StoreStatus {
  Stored,
  Failed,   ///< I/O or server error; counted, one warning; nothing visible
            ///< was changed
  Disabled, ///< the level is off or read-only; nothing written
  TooLarge, ///< the entry exceeds the level's size limit; one warning
};

struct StoreResult {
  StoreStatus status = StoreStatus::Stored;
  /// Why a store was not done.
  std::string detail;

  bool stored() const { return status == StoreStatus::Stored; }
};

/// A held single-flight lock (see CacheBackend::lockKey); released when
/// destroyed, and by the kernel when its process dies.
class KeyLock {
public:
  virtual ~KeyLock();
  /// A descriptor that keeps the lock held across exec(): a process hands
  /// its lock to the program it becomes, which takes it over with
  /// CacheBackend::adoptKeyLock. -1 if this lock cannot be handed on.
  virtual int inheritableDescriptor() { return -1; }
};

struct KeyLockResult {
  enum class State {
    Acquired,          ///< nobody else was compiling this key
    AcquiredAfterWait, ///< another process held it: look up again first
    TimedOut,          ///< still held after the wait: compile without it
    Unsupported,       ///< this backend has no locks: compile without it
    Failed,            ///< the lock file could not be made (see detail)
  };
  State result = State::Unsupported;
  std::unique_ptr<KeyLock> lock; ///< set for Acquired and AcquiredAfterWait
  std::string detail;
  bool acquired() const { return lock != nullptr; }
};

/// Receives counter increments that a level wants persisted elsewhere (the
/// remote level's counters go to the local directory's stats file).
using CounterSink = std::function<void(const CacheStats &delta)>;

class CacheBackend {
public:
  virtual ~CacheBackend();

  /// "file:/home/u/.cache/qshape", "redis://host:6379/0 prefix=qshape",
  /// "file:... + redis://...": for messages; never contains a password.
  virtual std::string describe() const = 0;

  /// False if the backend cannot be used at all (every lookup misses).
  virtual bool isEnabled() const = 0;
  virtual std::string disabledReason() const = 0;

  /// The verified entry of \p key: magic, version, header checksum, key,
  /// size and payload checksum are checked (and the tag, where required).
  virtual LookupResult lookup(const CacheKey &key) = 0;

  /// Looks \p key up and writes its payload to \p path (atomically: a temp
  /// file next to it, renamed into place; created with \p mode). Only a
  /// verified payload is ever written. A hit whose payload cannot be written
  /// is an IOError (the caller compiles, and its own write will tell why).
  virtual LookupResult lookupToFile(const CacheKey &key, llvm::StringRef path,
                                    unsigned mode = 0644);

  /// Stores \p payload as the entry of \p key, replacing any previous (or
  /// corrupt) one. The header is made here (makeEntryHeader), tagged when
  /// the backend has a tag key.
  StoreResult store(const CacheKey &key, PayloadKind kind, llvm::StringRef payload,
                    uint64_t compileTimeMs);

  /// Stores an entry whose header is already made (and perhaps tagged): a
  /// hit of one level copied into another keeps its bytes.
  virtual StoreResult storeEntry(const EntryHeader &header, llvm::StringRef payload) = 0;

  /// The key that tags new entries, if any (a remote's team key).
  virtual const EntryTagKey *tagKey() const { return nullptr; }

  /// Single flight: waits up to \p maxWait while another process holds the
  /// lock of \p key (a dead holder releases it at once), then takes it.
  /// Pattern: miss -> lockKey -> if AcquiredAfterWait, look up again ->
  /// compile and store -> drop the lock. Directories implement it
  /// (flock on <dir>/locks/<key>); a layered cache uses its L1's.
  virtual KeyLockResult lockKey(const CacheKey &key, std::chrono::milliseconds maxWait);
  /// Takes over the lock of \p key that this process inherited as \p
  /// (KeyLock::inheritableDescriptor before an exec()): Acquired if \p
  /// is that lock and still holds it, else Failed and \p  is left alone.
  virtual KeyLockResult adoptKeyLock(const CacheKey &key, int fd);

  /// Counters of this backend in this process.
  virtual CacheStats processStats() const = 0;
  /// Counters of all processes where the level persists them (a directory's
  /// stats file, which holds the remote counters of a layered cache too);
  /// else processStats().
  virtual llvm::ErrorOr<CacheStats> persistentStats() const;

  /// Human-readable facts about the level for `qshape-cache stats`
  /// ("Remote server", "redis 7.0.15, 12 keys, ..."); may talk to a server,
  /// bounded by its timeouts.
  virtual std::vector<std::pair<std::string, std::string>> status();

  /// Writes the counters DirectoryOptions::deferLookupStats held back.
  virtual void flushStats() {}

  /// Capabilities; null where the level lacks them.
  virtual DirectoryMaintenance *maintenance() { return nullptr; }
  virtual CacheInventory *inventory() { return nullptr; }
  /// The levels of a layered cache (L1, L2), else null.
  virtual CacheBackend *localLevel() { return nullptr; }
  virtual CacheBackend *remoteLevel() { return nullptr; }
};

/// One entry as listed by an inventory.
struct InventoryEntry {
  CacheKey key;
  uint64_t size = 0;
  std::optional<int64_t> lastUse; ///< seconds since the epoch, if known
};

/// Listing and checking single entries: a directory and a remote.
class CacheInventory {
public:
  virtual ~CacheInventory();
  /// Calls \p visit for every entry, sorted by key.
  virtual llvm::Error listEntries(llvm::function_ref<void(const InventoryEntry &)> visit) = 0;
  /// Reads and checks one entry (ReadMode::Verify, and the tag where the
  /// level requires one), without counting it as a lookup.
  virtual EntryReadResult checkEntry(const CacheKey &key) = 0;
  /// Removes one entry (`verify --fix`).
  virtual std::error_code removeEntry(const CacheKey &key) = 0;
};

//===----------------------------------------------------------------------===//
// Configuration and opening
//===----------------------------------------------------------------------===//

constexpr uint64_t kDefaultRemoteMaxEntryBytes = uint64_t{64} << 20; // 64 MiB

/// A remote cache, from `redis://[user:password@]host[:port][/db][?attrs]`
/// and the environment. Attributes (query parameters, `&`-separated):
///   prefix=NAME            key namespace (default "qshape"): NAME:<hex>
///   read-only              never store (CI writes, developers read)
///   ttl=DURATION           expire entries (and refresh them on a hit)
///   connect-timeout=DUR    default 100ms
///   timeout=DUR            per operation, whole transfer (default 3s)
///   retry-after=DUR|never  circuit breaker: how long a failed remote is
///                          left alone (default 60s)
///   max-entry-size=SIZE    larger entries are not sent (default 64M)
///   password-file=PATH     password read from a file (not in argv)
/// Carries a remote found down to a process this one exec()s (qshape-compile's
/// front end to its compiler), so that a stalled remote costs one timeout
/// per compile, not one per process: "<RemoteOptions::describe()>\n<why>".
inline constexpr const char *kRemoteFailureVariable = "QSHAPE_CACHE_REMOTE_DOWN";
/// Sets kRemoteFailureVariable to the remote this process found down, or
/// unsets it; call it just before exec().
void exportRemoteFailures();

/// Durations: 250ms, 3s, 5m, 2h, 7d (a bare number is milliseconds for
/// timeouts and seconds for ttl and retry-after).
struct RemoteOptions {
  std::string scheme = "redis";
  std::string host;
  unsigned port = 6379;
  unsigned database = 0;
  std::string user;     ///< ACL user; empty: the default user
  std::string password; ///< empty: no AUTH
  std::string prefix = "qshape";
  bool readOnly = false;
  uint64_t ttlSeconds = 0; ///< 0: no expiry
  unsigned connectTimeoutMs = 100;
  unsigned operationTimeoutMs = 1000;             ///< a lookup waits at most this
  std::optional<unsigned> retryAfterSeconds = 60; ///< nullopt: never
  uint64_t maxEntryBytes = kDefaultRemoteMaxEntryBytes;
  /// From $QSHAPE_CACHE_REMOTE_KEY or $QSHAPE_CACHE_REMOTE_KEY_FILE: when
  /// set, new entries are tagged and only entries with this tag are used.
  std::optional<EntryTagKey> tagKey;

  /// Parses \p url; reads password-file, $QSHAPE_CACHE_REMOTE_PASSWORD_FILE
  /// (when the URL has no password) and the team key. The error says what
  /// to fix.
  static llvm::Expected<RemoteOptions> parse(llvm::StringRef url);
  /// The URL without the password; the attributes that differ from the
  /// defaults appended.
  std::string describe() const;
};

/// Whether $QSHAPE_CACHE_REMOTE_INSECURE is "1": the user's explicit choice
/// to use a remote cache without a team key. Otherwise openCache() leaves
/// out a remote without one (with one warning): its entries are code.
bool insecureRemoteAllowed();

/// The team key of $QSHAPE_CACHE_REMOTE_KEY or $QSHAPE_CACHE_REMOTE_KEY_FILE,
/// if one is set; an error that says what to fix if it cannot be used.
llvm::Expected<std::optional<EntryTagKey>> teamKeyFromEnvironment();

/// What a directory serves of its fetched entries today: the team key's, or
/// with QSHAPE_CACHE_REMOTE_INSECURE=1 and no key every one; none when the
/// key cannot be read.
FetchedEntryPolicy fetchedPolicyFromEnvironment();

/// Options of a cache directory.
struct DirectoryOptions {
  /// Empty: defaultCacheDirectory().
  std::string directory;
  /// 0: $QSHAPE_CACHE_MAX_SIZE if set and valid, else kDefaultMaxSizeBytes.
  uint64_t maxSizeBytes = 0;
  /// Automatic cleanups evict down to this fraction of the cap.
  double lowWaterFraction = 0.8;
  /// A cleanup lock not refreshed for this long is broken.
  unsigned staleLockSeconds = 600;
  /// Temp files (and unheld key locks) older than this are leftovers of
  /// killed processes.
  unsigned tempFileMaxAgeSeconds = 3600;
  /// A store runs a cleanup (which corrects the size estimate) when the last
  /// one is older than this, even under the cap.
  unsigned cleanupIntervalSeconds = 24 * 3600;
  /// The counters of lookups (hits, misses, corrupt entries, read errors)
  /// wait in the process until its next store or flushStats(), and reach
  /// the stats file in one update: for a process that is about to end (as
  /// qshape-compile's, which serves several hits in a run), not for one
  /// that may run for hours.
  bool deferLookupStats = false;
  /// Which fetched entries are served; nullopt: fetchedPolicyFromEnvironment().
  std::optional<FetchedEntryPolicy> fetched;
};

/// What openCache() builds: a directory, and a remote behind it.
struct CacheConfig {
  DirectoryOptions local;
  /// A remote URL; empty: $QSHAPE_CACHE_REMOTE; "off": no remote.
  std::string remote;
};

/// Opens one level: "file:DIR" ("file:" alone: the default directory) or
/// "redis://...". \p local gives the directory's other options (its
/// directory is replaced by DIR). \p sink receives the counters of a remote
/// level (null: they stay in its processStats()). Errors are a bad URL or a
/// scheme this build lacks; an unusable directory or server is not an error
/// (the backend is returned disabled, or fails softly per operation).
llvm::Expected<std::unique_ptr<CacheBackend>> openCacheBackend(llvm::StringRef url,
                                                               const DirectoryOptions &local = {},
                                                               CounterSink sink = nullptr);

/// The cache of \p config for this process: the directory, layered over the
/// remote if one is configured (L1 first; a remote hit fills L1; a store
/// goes to both). Shared by every caller in the process with the same
/// configuration, so the passes of one pipeline share one connection and
/// one circuit breaker. A bad remote URL from the environment costs one
/// warning and leaves the directory alone; \p remoteError receives it.
std::shared_ptr<CacheBackend> openCache(const CacheConfig &config,
                                        std::string *remoteError = nullptr);

/// Layers \p local over \p remote (used by openCache; public for tests).
std::unique_ptr<CacheBackend> makeLayeredCache(std::unique_ptr<CacheBackend> local,
                                               std::unique_ptr<CacheBackend> remote);

/// True if this build can open redis:// URLs (built with hiredis).
bool haveRedisSupport();

/// Parses "1048576", "10K", "10M", "2G", "1.5G", "1T" (powers of 1024; an
/// optional trailing "B" or "iB" is accepted).
std::optional<uint64_t> parseSize(llvm::StringRef text);
/// "0 B", "12.0 KiB", "1.5 GiB".
std::string formatSize(uint64_t bytes);
/// Parses "250ms", "3s", "5m", "2h", "7d"; a bare number is in
/// \p bareUnitMs milliseconds. Returns milliseconds.
std::optional<uint64_t> parseDurationMs(llvm::StringRef text, uint64_t bareUnitMs);

} // namespace qshape::cache

#endif // QSHAPE_CACHE_CACHEBACKEND_H
