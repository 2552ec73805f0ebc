//===- DirectoryCache.cpp - The cache directory level ---------------------===//

#include "qshape/Cache/DirectoryCache.h"

#include "qshape/Cache/Diagnostics.h"
#include "qshape/Cache/FileUtil.h"
#include "qshape/Cache/LockFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace qshape::cache;
using namespace qshape::cache::fileutil;

namespace {
constexpr llvm::StringLiteral kTempPrefix = ".tmp-";
constexpr llvm::StringLiteral kCacheDirTag =
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by qshape.\n"
    "# For information about cache directory tags, see:\n"
    "#\thttps://bford.info/cachedir/\n";

std::string joinPath(llvm::StringRef a, llvm::StringRef b) {
  llvm::SmallString<256> path(a);
  llvm::sys::path::append(path, b);
  return std::string(path);
}

bool isHexName(llvm::StringRef name, size_t length) {
  return name.size() == length && llvm::all_of(name, [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

/// Saturating a + delta for the size estimate.
uint64_t addSigned(uint64_t value, int64_t delta) {
  if (delta < 0)
    return value > static_cast<uint64_t>(-delta) ? value - static_cast<uint64_t>(-delta) : 0;
  return value + static_cast<uint64_t>(delta);
}

std::string octalMode(mode_t mode) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

/// Checks the ownership and mode policy; returns why \p dir is refused.
std::optional<std::string> checkDirectoryPolicy(const std::string &dir) {
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0)
    return "cannot use cache directory '" + dir + "': " + fileutil::describe(lastError());
  if (!S_ISDIR(st.st_mode))
    return "cache path '" + dir + "' is not a directory";
  if (st.st_uid != ::geteuid())
    return "cache directory '" + dir + "' is owned by uid " + std::to_string(st.st_uid) +
           ", not by you (uid " + std::to_string(::geteuid()) +
           "); the cache is disabled. Point QSHAPE_CACHE_DIR at a directory "
           "of your own";
  if (st.st_mode & (S_IWGRP | S_IWOTH))
    return "cache directory '" + dir + "' is writable by group or others (mode " +
           octalMode(st.st_mode) +
           "), so others could plant entries; the cache is disabled. Fix: "
           "chmod 700 '" +
           dir + "'";
  return std::nullopt;
}

/// Writes the payload of an entry. Test hook of the fault-injection suite
/// (test/Cache/fault-injection.py): with QSHAPE_CACHE_TEST_SLOW_WRITE_US=N
/// the payload is written in 4 KiB pieces with N microseconds between them,
/// so that a writer can be killed in the middle of a store.
std::error_code writePayload(int fd, llvm::StringRef payload) {
  static const unsigned slowUs = [] {
    const char *env = std::getenv("QSHAPE_CACHE_TEST_SLOW_WRITE_US");
    unsigned us = 0;
    if (env && llvm::StringRef(env).getAsInteger(10, us))
      us = 0;
    return us;
  }();
  if (slowUs == 0)
    return writeAll(fd, payload);
  constexpr size_t kPiece = 4096;
  for (size_t offset = 0; offset < payload.size(); offset += kPiece) {
    if (std::error_code ec = writeAll(fd, payload.substr(offset, kPiece)))
      return ec;
    ::usleep(slowUs);
  }
  return {};
}
} // namespace

//===----------------------------------------------------------------------===//
// Directory helpers
//===----------------------------------------------------------------------===//

std::string qshape::cache::defaultCacheDirectory() {
  if (const char *dir = std::getenv("QSHAPE_CACHE_DIR"); dir && *dir)
    return dir;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && xdg[0] == '/')
    return joinPath(xdg, "qshape");
  llvm::SmallString<128> home;
  if (llvm::sys::path::home_directory(home))
    return joinPath(joinPath(home, ".cache"), "qshape");
  return "";
}

//===----------------------------------------------------------------------===//
// DirectoryCache
//===----------------------------------------------------------------------===//

DirectoryMaintenance::~DirectoryMaintenance() = default;

DirectoryCache::DirectoryCache(DirectoryOptions opts)
    : options(std::move(opts)),
      fetched(options.fetched ? *options.fetched : fetchedPolicyFromEnvironment()) {
  maxSize = kDefaultMaxSizeBytes;
  if (options.maxSizeBytes) {
    maxSize = options.maxSizeBytes;
  } else if (const char *env = std::getenv("QSHAPE_CACHE_MAX_SIZE"); env && *env) {
    if (std::optional<uint64_t> size = parseSize(env); size && *size > 0)
      maxSize = *size;
    else
      reportProblem(llvm::Twine("QSHAPE_CACHE_MAX_SIZE='") + env +
                    "' is not a size like 500M or 2G; using " + formatSize(kDefaultMaxSizeBytes));
  }

  root = options.directory.empty() ? defaultCacheDirectory() : options.directory;
  if (root.empty()) {
    whyDisabled = "no cache directory: HOME is not set; set "
                  "QSHAPE_CACHE_DIR to enable the cache";
    reportProblem(whyDisabled);
    return;
  }
  llvm::SmallString<256> absolute(root);
  if (!llvm::sys::fs::make_absolute(absolute))
    llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
  root = std::string(absolute);

  if (std::error_code ec = createDirectories(root, 0700)) {
    whyDisabled = "cannot create cache directory '" + root + "': " + fileutil::describe(ec) +
                  "; set QSHAPE_CACHE_DIR to a writable directory";
    reportProblem(whyDisabled);
    return;
  }
  if (std::optional<std::string> refused = checkDirectoryPolicy(root)) {
    whyDisabled = *refused;
    reportProblem(whyDisabled);
    return;
  }
  enabled = true;
  // Tells backup tools to skip the directory. Best effort (it may be
  // read-only, which still allows hits).
  std::string tagPath = joinPath(root, "CACHEDIR.TAG");
  UniqueFD tag = openFile(tagPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
  // A tag cut short (disk full) would stay wrong forever: remove it so that
  // a later process writes it again.
  if (tag.valid() && (writeAll(tag.get(), kCacheDirTag) || tag.close()))
    ::unlink(tagPath.c_str());
}

std::string DirectoryCache::entryPath(const CacheKey &key) const {
  std::string hex = key.hex();
  return joinPath(joinPath(root, llvm::StringRef(hex).take_front(2)), hex);
}

std::string DirectoryCache::statsPath() const { return joinPath(root, "stats"); }

uint64_t DirectoryCache::lowWaterBytes() const {
  double fraction = std::clamp(options.lowWaterFraction, 0.0, 1.0);
  return static_cast<uint64_t>(static_cast<double>(maxSize) * fraction);
}

CacheStats DirectoryCache::processStats() const {
  std::scoped_lock<std::mutex> guard(statsMutex);
  return local;
}

llvm::ErrorOr<CacheStats> DirectoryCache::persistentStats() const {
  return readStatsFile(statsPath());
}

std::optional<CacheStats>
DirectoryCache::record(const CacheStats &delta, llvm::function_ref<void(CacheStats &)> updateSize) {
  CacheStats written = delta;
  {
    std::scoped_lock<std::mutex> guard(statsMutex);
    local.addCounters(delta);
    if (options.deferLookupStats && !updateSize) {
      pending.addCounters(delta);
      hasPending = true;
      return std::nullopt;
    }
    // A store takes what waited with it.
    written.addCounters(pending);
    pending = CacheStats();
    hasPending = false;
  }
  return persist(written, updateSize);
}

void DirectoryCache::flushStats() {
  CacheStats written;
  {
    std::scoped_lock<std::mutex> guard(statsMutex);
    if (!hasPending)
      return;
    written = pending;
    pending = CacheStats();
    hasPending = false;
  }
  (void)persist(written, nullptr);
}

std::optional<CacheStats>
DirectoryCache::persist(const CacheStats &written,
                        llvm::function_ref<void(CacheStats &)> updateSize) {
  if (!enabled)
    return std::nullopt;
  CacheStats after;
  std::error_code ec = updateStatsFile(statsPath(), [&](CacheStats &s) {
    s.addCounters(written);
    if (updateSize)
      updateSize(s);
    after = s;
  });
  if (!ec)
    return after;
  {
    std::scoped_lock<std::mutex> guard(statsMutex);
    ++local.statsErrors;
  }
  reportProblem("cannot update cache statistics '" + statsPath() + "': " + fileutil::describe(ec));
  return std::nullopt;
}

void DirectoryCache::countProblem(uint64_t CacheStats::*counter, const std::string &message) {
  // Reported before record(), whose own failure (a read-only file system)
  // must not take the one warning.
  reportProblem(message);
  CacheStats delta;
  delta.*counter = 1;
  record(delta);
}

LookupResult DirectoryCache::lookup(const CacheKey &key) {
  LookupResult result;
  CacheStats delta;
  delta.misses = 1; // unless it hits
  if (!enabled) {
    result.status = LookupStatus::Disabled;
    result.detail = whyDisabled;
    record(delta);
    return result;
  }

  std::string path = entryPath(key);
  EntryReadResult read = readEntryFile(path, &key, ReadMode::Load);
  fetched.check(read);
  result.detail = read.detail;
  switch (read.status) {
  case ReadStatus::Ok: {
    // The mtime is the last-use time that eviction sorts by. Failing to set
    // it (read-only cache) only makes LRU less exact.
    struct timespec times[2] = {{0, UTIME_OMIT}, {0, UTIME_NOW}};
    (void)::utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW);
    result.status = LookupStatus::Hit;
    result.level = CacheLevel::Local;
    result.entry = CacheEntry{std::move(*read.header), std::move(read.payload)};
    delta.misses = 0;
    delta.hits = 1;
    delta.compileTimeSavedMs = result.entry->header.compileTimeMs;
    break;
  }
  case ReadStatus::NotFound:
    result.status = LookupStatus::Miss;
    break;
  case ReadStatus::Corrupt:
    // Not removed here: a concurrent writer may be renaming a good entry
    // into place right now. The next store replaces it.
    result.status = LookupStatus::Corrupt;
    delta.corrupt = 1;
    break;
  case ReadStatus::Refused: // a remote's entry the remote would refuse now
    result.status = LookupStatus::Refused;
    delta.remoteRefused = 1;
    break;
  case ReadStatus::IOError:
    result.status = LookupStatus::IOError;
    delta.readErrors = 1;
    reportProblem("cannot read cache entry: " + read.detail);
    break;
  }
  record(delta);
  return result;
}

StoreResult DirectoryCache::storeEntry(const EntryHeader &entry, llvm::StringRef payload) {
  if (!enabled)
    return {StoreStatus::Disabled, whyDisabled};
  CacheKey key(entry.key);
  const CacheKey *k = &key;

  std::string hex = k->hex();
  std::string shardDir = joinPath(root, llvm::StringRef(hex).take_front(2));
  std::string finalPath = joinPath(shardDir, hex);
  static std::atomic<uint64_t> counter{0};
  std::string tempPath =
      joinPath(shardDir, (kTempPrefix + llvm::StringRef(hex).take_front(16) + "-" +
                          llvm::Twine(::getpid()) + "-" + llvm::Twine(++counter))
                             .str());

  auto fail = [&](llvm::StringRef what, std::error_code ec) {
    ::unlink(tempPath.c_str());
    StoreResult r{StoreStatus::Failed, ("cannot store cache entry " + k->str() + " in '" + root +
                                        "': " + what + ": " + fileutil::describe(ec))
                                           .str()};
    countProblem(&CacheStats::writeErrors, r.detail);
    return r;
  };

  if (::mkdir(shardDir.c_str(), 0700) != 0 && errno != EEXIST)
    return fail("mkdir", lastError());

  EntryHeader header = entry;
  std::string headerBytes = encodeEntryHeader(header);
  uint64_t newSize = headerBytes.size() + payload.size();
  if (newSize > maxSize) {
    // Writing it would only make the next cleanup evict it again.
    StoreResult r{StoreStatus::TooLarge, "cache entry " + k->str() + " (" + formatSize(newSize) +
                                             ") is larger than the cache size cap (" +
                                             formatSize(maxSize) +
                                             "); raise QSHAPE_CACHE_MAX_SIZE to cache it"};
    reportProblem(r.detail);
    return r;
  }

  {
    UniqueFD fd = openFile(tempPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
    if (!fd.valid())
      return fail("create temp file", lastError());
    if (std::error_code ec = writeAll(fd.get(), headerBytes))
      return fail("write", ec);
    if (std::error_code ec = writePayload(fd.get(), payload))
      return fail("write", ec);
    if (std::error_code ec = fd.close())
      return fail("close", ec);
  }

  struct stat old;
  bool replaces = ::lstat(finalPath.c_str(), &old) == 0;
  if (::rename(tempPath.c_str(), finalPath.c_str()) != 0)
    return fail("rename", lastError());

  CacheStats delta;
  delta.stores = 1;
  delta.bytesStored = payload.size();
  int64_t sizeDelta =
      static_cast<int64_t>(newSize) - (replaces ? static_cast<int64_t>(old.st_size) : 0);
  std::optional<CacheStats> after = record(delta, [&](CacheStats &s) {
    s.sizeBytes = addSigned(s.sizeBytes, sizeDelta);
    s.entries += replaces ? 0 : 1;
  });
  if (after)
    maybeCleanupAfterStore(*after);
  return {};
}

void DirectoryCache::maybeCleanupAfterStore(const CacheStats &persisted) {
  int64_t now = nowSeconds();
  auto last = static_cast<int64_t>(persisted.lastCleanupTime);
  bool due =
      last == 0 || last > now || now - last > static_cast<int64_t>(options.cleanupIntervalSeconds);
  if (persisted.sizeBytes <= maxSize && !due)
    return;
  CleanupResult r = runCleanup(CleanupMode::Evict, maxSize, lowWaterBytes());
  if (r.result == CleanupResult::State::Failed)
    countProblem(&CacheStats::writeErrors, "cache cleanup failed: " + r.detail);
}

llvm::ErrorOr<ScanResult> DirectoryCache::scan() const {
  ScanResult result;
  if (!enabled)
    return result;
  DIR *top = ::opendir(root.c_str());
  if (!top)
    return lastError();
  std::vector<std::string> shards;
  while (struct dirent *d = ::readdir(top))
    if (isHexName(d->d_name, 2))
      shards.emplace_back(d->d_name);
  ::closedir(top);
  std::sort(shards.begin(), shards.end());

  for (const std::string &shard : shards) {
    std::string shardDir = joinPath(root, shard);
    DIR *dir = ::opendir(shardDir.c_str());
    if (!dir) {
      if (errno == ENOENT || errno == ENOTDIR)
        continue;
      return lastError();
    }
    while (struct dirent *d = ::readdir(dir)) {
      llvm::StringRef name = d->d_name;
      bool isTemp = name.starts_with(kTempPrefix);
      bool isEntry = isHexName(name, CacheKey::kNumHexDigits) && name.starts_with(shard);
      if (!isTemp && !isEntry)
        continue; // not ours: never touched
      struct stat st;
      if (::fstatat(::dirfd(dir), d->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISDIR(st.st_mode))
        continue;
      EntryInfo info;
      info.path = joinPath(shardDir, name);
      info.size = static_cast<uint64_t>(st.st_size);
      info.lastUse = static_cast<int64_t>(st.st_mtime);
      if (isTemp) {
        result.tempFiles.push_back(std::move(info));
        continue;
      }
      info.keyHex = name.str();
      result.totalBytes += info.size;
      result.entries.push_back(std::move(info));
    }
    ::closedir(dir);
  }
  // readdir order differs between file systems; keep listings stable.
  std::sort(result.entries.begin(), result.entries.end(),
            [](const EntryInfo &a, const EntryInfo &b) { return a.keyHex < b.keyHex; });
  return result;
}

CleanupResult DirectoryCache::runCleanup(CleanupMode mode, uint64_t limitBytes,
                                         uint64_t targetBytes) {
  CleanupResult r;
  if (!enabled) {
    r.result = CleanupResult::State::Disabled;
    r.detail = whyDisabled;
    return r;
  }
  LockFile::Attempt lock =
      LockFile::tryAcquire(joinPath(root, "cleanup.lock"), options.staleLockSeconds);
  if (!lock.acquired()) {
    r.result = lock.result == LockFile::Outcome::Busy ? CleanupResult::State::Busy
                                                      : CleanupResult::State::Failed;
    if (lock.ec)
      r.detail = "cannot create lock in '" + root + "': " + fileutil::describe(lock.ec);
    return r;
  }
  r.brokeStaleLock = lock.result == LockFile::Outcome::AcquiredAfterBreakingStale;

  // Stores that finish while we scan add to the estimate; remember where it
  // started so they are not lost when the scanned total replaces it. (One
  // that the scan also saw is counted twice: the estimate errs high, which
  // only brings the next cleanup sooner.)
  llvm::ErrorOr<CacheStats> before = readStatsFile(statsPath());
  uint64_t estimateBefore = before ? before->sizeBytes : 0;
  uint64_t entriesEstimateBefore = before ? before->entries : 0;

  llvm::ErrorOr<ScanResult> scanned = scan();
  if (!scanned) {
    r.result = CleanupResult::State::Failed;
    r.detail = "cannot scan '" + root + "': " + fileutil::describe(scanned.getError());
    return r;
  }
  r.entriesBefore = scanned->entries.size();
  r.bytesBefore = scanned->totalBytes;

  int64_t now = nowSeconds();
  for (const EntryInfo &temp : scanned->tempFiles)
    if (now - temp.lastUse > static_cast<int64_t>(options.tempFileMaxAgeSeconds) &&
        ::unlink(temp.path.c_str()) == 0)
      ++r.tempFilesRemoved;
  removeStaleKeyLocks();

  // Least recently used first; the key breaks ties so the order is stable.
  std::vector<EntryInfo> &entries = scanned->entries;
  std::sort(entries.begin(), entries.end(), [](const EntryInfo &a, const EntryInfo &b) {
    return std::tie(a.lastUse, a.keyHex) < std::tie(b.lastUse, b.keyHex);
  });
  uint64_t total = scanned->totalBytes;
  uint64_t remaining = entries.size();
  // Nothing goes unless the total is past the limit; then down to the target.
  bool overLimit = total > limitBytes;
  for (const EntryInfo &e : entries) {
    if (!overLimit || total <= targetBytes)
      break;
    if (mode == CleanupMode::Evict) {
      // A hit since the scan made it recently used: keep it.
      struct stat st;
      if (::lstat(e.path.c_str(), &st) == 0 && static_cast<int64_t>(st.st_mtime) != e.lastUse)
        continue;
    }
    if (::unlink(e.path.c_str()) == 0) {
      ++r.removed;
      r.removedBytes += e.size;
    } else if (errno != ENOENT) {
      continue;
    }
    total -= e.size;
    --remaining;
    if (r.removed % 256 == 0)
      lock.lock->refresh();
  }
  r.entriesAfter = remaining;
  r.bytesAfter = total;

  CacheStats delta;
  if (mode == CleanupMode::Evict)
    delta.evictions = r.removed;
  record(delta, [&](CacheStats &s) {
    s.sizeBytes = total + (s.sizeBytes > estimateBefore ? s.sizeBytes - estimateBefore : 0);
    s.entries =
        remaining + (s.entries > entriesEstimateBefore ? s.entries - entriesEstimateBefore : 0);
    s.lastCleanupTime = static_cast<uint64_t>(now);
  });
  return r;
}

CleanupResult DirectoryCache::prune(std::optional<uint64_t> targetBytes) {
  if (targetBytes)
    return runCleanup(CleanupMode::Evict, *targetBytes, *targetBytes);
  return runCleanup(CleanupMode::Evict, maxSize, lowWaterBytes());
}

CleanupResult DirectoryCache::clear() { return runCleanup(CleanupMode::RemoveAll, 0, 0); }

std::error_code DirectoryCache::removeEntry(const CacheKey &key) {
  if (!enabled)
    return std::make_error_code(std::errc::operation_not_permitted);
  std::string path = entryPath(key);
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0)
    return lastError();
  if (::unlink(path.c_str()) != 0)
    return lastError();
  record(CacheStats(), [&](CacheStats &s) {
    s.sizeBytes = addSigned(s.sizeBytes, -static_cast<int64_t>(st.st_size));
    s.entries = s.entries ? s.entries - 1 : 0;
  });
  return {};
}

llvm::Error DirectoryCache::listEntries(llvm::function_ref<void(const InventoryEntry &)> visit) {
  llvm::ErrorOr<ScanResult> scanned = scan();
  if (!scanned)
    return llvm::createStringError(scanned.getError(), "cannot scan '%s': %s", root.c_str(),
                                   fileutil::describe(scanned.getError()).c_str());
  for (const EntryInfo &e : scanned->entries)
    if (std::optional<CacheKey> key = CacheKey::parse(e.keyHex))
      visit(InventoryEntry{*key, e.size, e.lastUse});
  return llvm::Error::success();
}

EntryReadResult DirectoryCache::checkEntry(const CacheKey &key) {
  EntryReadResult read = readEntryFile(entryPath(key), &key, ReadMode::Verify);
  fetched.check(read);
  return read;
}

//===----------------------------------------------------------------------===//
// Single-flight key locks
//===----------------------------------------------------------------------===//
//
// flock() on <dir>/locks/<hex>: the kernel drops the lock when its holder
// dies, so a crashed compiler never blocks the others. The holder unlinks the
// file before it unlocks; a waiter that then gets the lock on the unlinked
// file sees that the path names another file (or none) and tries again, so
// two processes never both believe they hold one key.

namespace {
/// Sets or clears FD_CLOEXEC: a key lock is handed across exec() with it
/// clear (KeyLock::inheritableDescriptor) and set again once adopted.
bool setCloseOnExec(int fd, bool on) {
  int flags = ::fcntl(fd, F_GETFD);
  return flags >= 0 && ::fcntl(fd, F_SETFD, on ? flags | FD_CLOEXEC : flags & ~FD_CLOEXEC) == 0;
}

class FlockKeyLock final : public KeyLock {
public:
  FlockKeyLock(std::string path, UniqueFD fd) : path(std::move(path)), fd(std::move(fd)) {}
  ~FlockKeyLock() override {
    ::unlink(path.c_str());
    // Closing drops the lock.
  }
  int inheritableDescriptor() override { return setCloseOnExec(fd.get(), false) ? fd.get() : -1; }

private:
  std::string path;
  UniqueFD fd;
};

/// True if \p path still names the file open as \p .
bool stillNamed(int fd, const std::string &path) {
  struct stat open, named;
  return ::fstat(fd, &open) == 0 && ::lstat(path.c_str(), &named) == 0 &&
         open.st_dev == named.st_dev && open.st_ino == named.st_ino;
}
} // namespace

std::string DirectoryCache::keyLockPath(const CacheKey &key) const {
  return joinPath(joinPath(root, "locks"), key.hex());
}

KeyLockResult DirectoryCache::lockKey(const CacheKey &key, std::chrono::milliseconds maxWait) {
  KeyLockResult r;
  if (!enabled) {
    r.result = KeyLockResult::State::Failed;
    r.detail = whyDisabled;
    return r;
  }
  std::string lockDir = joinPath(root, "locks");
  if (::mkdir(lockDir.c_str(), 0700) != 0 && errno != EEXIST) {
    r.result = KeyLockResult::State::Failed;
    r.detail = "cannot create '" + lockDir + "': " + fileutil::describe(lastError());
    return r;
  }
  std::string path = keyLockPath(key);
  using Clock = std::chrono::steady_clock;
  Clock::time_point deadline = Clock::now() + maxWait;
  bool waited = false;
  auto pause = std::chrono::milliseconds(2);
  while (true) {
    UniqueFD fd = openFile(path, O_RDWR | O_CREAT | O_NOFOLLOW, 0600);
    if (!fd.valid()) {
      r.result = KeyLockResult::State::Failed;
      r.detail = "cannot open '" + path + "': " + fileutil::describe(lastError());
      return r;
    }
    if (::flock(fd.get(), LOCK_EX | LOCK_NB) == 0) {
      if (stillNamed(fd.get(), path)) {
        r.result =
            waited ? KeyLockResult::State::AcquiredAfterWait : KeyLockResult::State::Acquired;
        r.lock = std::make_unique<FlockKeyLock>(path, std::move(fd));
        return r;
      }
      continue; // its holder removed it as we opened it: take the new one
    }
    if (errno != EWOULDBLOCK && errno != EINTR) {
      r.result = KeyLockResult::State::Failed;
      r.detail = "cannot lock '" + path + "': " + fileutil::describe(lastError());
      return r;
    }
    waited = true;
    if (Clock::now() >= deadline) {
      r.result = KeyLockResult::State::TimedOut;
      r.detail = "another process has held the lock of " + key.str() + " for longer than the wait";
      return r;
    }
    std::this_thread::sleep_for(std::min<Clock::duration>(pause, deadline - Clock::now()));
    pause = std::min(pause * 2, std::chrono::milliseconds(50));
  }
}

KeyLockResult DirectoryCache::adoptKeyLock(const CacheKey &key, int fd) {
  KeyLockResult r;
  r.result = KeyLockResult::State::Failed;
  std::string path = keyLockPath(key);
  // flock() on a descriptor of the open file that holds the lock succeeds
  // at once; on another file or a released lock it must not wait.
  if (!enabled || fd < 0 || !stillNamed(fd, path) || ::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    r.detail = "descriptor " + std::to_string(fd) + " is not the held lock '" + path + "'";
    return r;
  }
  (void)setCloseOnExec(fd, true);
  r.result = KeyLockResult::State::Acquired;
  r.lock = std::make_unique<FlockKeyLock>(path, UniqueFD(fd));
  return r;
}

uint64_t DirectoryCache::removeStaleKeyLocks() {
  std::string lockDir = joinPath(root, "locks");
  DIR *dir = ::opendir(lockDir.c_str());
  if (!dir)
    return 0;
  uint64_t removed = 0;
  int64_t now = nowSeconds();
  while (struct dirent *d = ::readdir(dir)) {
    if (!isHexName(d->d_name, CacheKey::kNumHexDigits))
      continue;
    std::string path = joinPath(lockDir, d->d_name);
    UniqueFD fd = openFile(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    struct stat st;
    if (!fd.valid() || ::fstat(fd.get(), &st) != 0 ||
        now - static_cast<int64_t>(st.st_mtime) <=
            static_cast<int64_t>(options.tempFileMaxAgeSeconds))
      continue;
    // Held by nobody (a lock of a killed process): the same protocol as a
    // holder, so a process that takes it right now retries.
    if (::flock(fd.get(), LOCK_EX | LOCK_NB) == 0 && stillNamed(fd.get(), path) &&
        ::unlink(path.c_str()) == 0)
      ++removed;
  }
  ::closedir(dir);
  return removed;
}
