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
constexpr llvm::StringLiteral TempPrefix = ".tmp-";
constexpr llvm::StringLiteral CacheDirTag =
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by qshape.\n"
    "# For information about cache directory tags, see:\n"
    "#\thttps://bford.info/cachedir/\n";

std::string joinPath(llvm::StringRef A, llvm::StringRef B) {
  llvm::SmallString<256> Path(A);
  llvm::sys::path::append(Path, B);
  return std::string(Path);
}

bool isHexName(llvm::StringRef Name, size_t Length) {
  return Name.size() == Length && llvm::all_of(Name, [](char C) {
           return (C >= '0' && C <= '9') || (C >= 'a' && C <= 'f');
         });
}

/// Saturating a + delta for the size estimate.
uint64_t addSigned(uint64_t Value, int64_t Delta) {
  if (Delta < 0)
    return Value > uint64_t(-Delta) ? Value - uint64_t(-Delta) : 0;
  return Value + uint64_t(Delta);
}

std::string octalMode(mode_t Mode) {
  std::string Text;
  llvm::raw_string_ostream(Text) << llvm::format("%04o", unsigned(Mode & 07777));
  return Text;
}

/// Checks the ownership and mode policy; returns why \p Dir is refused.
std::optional<std::string> checkDirectoryPolicy(const std::string &Dir) {
  struct stat St;
  if (::stat(Dir.c_str(), &St) != 0)
    return "cannot use cache directory '" + Dir + "': " + fileutil::describe(lastError());
  if (!S_ISDIR(St.st_mode))
    return "cache path '" + Dir + "' is not a directory";
  if (St.st_uid != ::geteuid())
    return "cache directory '" + Dir + "' is owned by uid " + std::to_string(St.st_uid) +
           ", not by you (uid " + std::to_string(::geteuid()) +
           "); the cache is disabled. Point QSHAPE_CACHE_DIR at a directory "
           "of your own";
  if (St.st_mode & (S_IWGRP | S_IWOTH))
    return "cache directory '" + Dir + "' is writable by group or others (mode " +
           octalMode(St.st_mode) +
           "), so others could plant entries; the cache is disabled. Fix: "
           "chmod 700 '" +
           Dir + "'";
  return std::nullopt;
}

/// Writes the payload of an entry. Test hook of the fault-injection suite
/// (test/Cache/fault-injection.py): with QSHAPE_CACHE_TEST_SLOW_WRITE_US=N
/// the payload is written in 4 KiB pieces with N microseconds between them,
/// so that a writer can be killed in the middle of a store.
std::error_code writePayload(int FD, llvm::StringRef Payload) {
  static const unsigned SlowUs = [] {
    const char *Env = std::getenv("QSHAPE_CACHE_TEST_SLOW_WRITE_US");
    unsigned Us = 0;
    if (Env && llvm::StringRef(Env).getAsInteger(10, Us))
      Us = 0;
    return Us;
  }();
  if (SlowUs == 0)
    return writeAll(FD, Payload);
  constexpr size_t Piece = 4096;
  for (size_t Offset = 0; Offset < Payload.size(); Offset += Piece) {
    if (std::error_code EC = writeAll(FD, Payload.substr(Offset, Piece)))
      return EC;
    ::usleep(SlowUs);
  }
  return {};
}
} // namespace

//===----------------------------------------------------------------------===//
// Directory helpers
//===----------------------------------------------------------------------===//

std::string qshape::cache::defaultCacheDirectory() {
  if (const char *Dir = std::getenv("QSHAPE_CACHE_DIR"); Dir && *Dir)
    return Dir;
  if (const char *Xdg = std::getenv("XDG_CACHE_HOME"); Xdg && Xdg[0] == '/')
    return joinPath(Xdg, "qshape");
  llvm::SmallString<128> Home;
  if (llvm::sys::path::home_directory(Home))
    return joinPath(joinPath(Home, ".cache"), "qshape");
  return "";
}

//===----------------------------------------------------------------------===//
// DirectoryCache
//===----------------------------------------------------------------------===//

DirectoryMaintenance::~DirectoryMaintenance() = default;

DirectoryCache::DirectoryCache(DirectoryOptions Opts)
    : Options(std::move(Opts)),
      Fetched(Options.Fetched ? *Options.Fetched : fetchedPolicyFromEnvironment()) {
  MaxSize = DefaultMaxSizeBytes;
  if (Options.MaxSizeBytes) {
    MaxSize = Options.MaxSizeBytes;
  } else if (const char *Env = std::getenv("QSHAPE_CACHE_MAX_SIZE"); Env && *Env) {
    if (std::optional<uint64_t> Size = parseSize(Env); Size && *Size > 0)
      MaxSize = *Size;
    else
      reportProblem(llvm::Twine("QSHAPE_CACHE_MAX_SIZE='") + Env +
                    "' is not a size like 500M or 2G; using " + formatSize(DefaultMaxSizeBytes));
  }

  Directory = Options.Directory.empty() ? defaultCacheDirectory() : Options.Directory;
  if (Directory.empty()) {
    DisabledReason = "no cache directory: HOME is not set; set "
                     "QSHAPE_CACHE_DIR to enable the cache";
    reportProblem(DisabledReason);
    return;
  }
  llvm::SmallString<256> Absolute(Directory);
  if (!llvm::sys::fs::make_absolute(Absolute))
    llvm::sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
  Directory = std::string(Absolute);

  if (std::error_code EC = createDirectories(Directory, 0700)) {
    DisabledReason = "cannot create cache directory '" + Directory +
                     "': " + fileutil::describe(EC) +
                     "; set QSHAPE_CACHE_DIR to a writable directory";
    reportProblem(DisabledReason);
    return;
  }
  if (std::optional<std::string> Refused = checkDirectoryPolicy(Directory)) {
    DisabledReason = *Refused;
    reportProblem(DisabledReason);
    return;
  }
  Enabled = true;
  // Tells backup tools to skip the directory. Best effort (it may be
  // read-only, which still allows hits).
  std::string TagPath = joinPath(Directory, "CACHEDIR.TAG");
  UniqueFD Tag = openFile(TagPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
  // A tag cut short (disk full) would stay wrong forever: remove it so that
  // a later process writes it again.
  if (Tag.valid() && (writeAll(Tag.get(), CacheDirTag) || Tag.close()))
    ::unlink(TagPath.c_str());
}

std::string DirectoryCache::entryPath(const CacheKey &Key) const {
  std::string Hex = Key.hex();
  return joinPath(joinPath(Directory, llvm::StringRef(Hex).take_front(2)), Hex);
}

std::string DirectoryCache::statsPath() const { return joinPath(Directory, "stats"); }

uint64_t DirectoryCache::lowWaterBytes() const {
  double Fraction = std::clamp(Options.LowWaterFraction, 0.0, 1.0);
  return uint64_t(double(MaxSize) * Fraction);
}

CacheStats DirectoryCache::processStats() const {
  std::lock_guard<std::mutex> Guard(StatsMutex);
  return Local;
}

llvm::ErrorOr<CacheStats> DirectoryCache::persistentStats() const {
  return readStatsFile(statsPath());
}

std::optional<CacheStats>
DirectoryCache::record(const CacheStats &Delta, llvm::function_ref<void(CacheStats &)> UpdateSize) {
  CacheStats Written = Delta;
  {
    std::lock_guard<std::mutex> Guard(StatsMutex);
    Local.addCounters(Delta);
    if (Options.DeferLookupStats && !UpdateSize) {
      Pending.addCounters(Delta);
      HasPending = true;
      return std::nullopt;
    }
    // A store takes what waited with it.
    Written.addCounters(Pending);
    Pending = CacheStats();
    HasPending = false;
  }
  return persist(Written, UpdateSize);
}

void DirectoryCache::flushStats() {
  CacheStats Written;
  {
    std::lock_guard<std::mutex> Guard(StatsMutex);
    if (!HasPending)
      return;
    Written = Pending;
    Pending = CacheStats();
    HasPending = false;
  }
  (void)persist(Written, nullptr);
}

std::optional<CacheStats>
DirectoryCache::persist(const CacheStats &Written,
                        llvm::function_ref<void(CacheStats &)> UpdateSize) {
  if (!Enabled)
    return std::nullopt;
  CacheStats After;
  std::error_code EC = updateStatsFile(statsPath(), [&](CacheStats &S) {
    S.addCounters(Written);
    if (UpdateSize)
      UpdateSize(S);
    After = S;
  });
  if (!EC)
    return After;
  {
    std::lock_guard<std::mutex> Guard(StatsMutex);
    ++Local.StatsErrors;
  }
  reportProblem("cannot update cache statistics '" + statsPath() + "': " + fileutil::describe(EC));
  return std::nullopt;
}

void DirectoryCache::countProblem(uint64_t CacheStats::*Counter, const std::string &Message) {
  // Reported before record(), whose own failure (a read-only file system)
  // must not take the one warning.
  reportProblem(Message);
  CacheStats Delta;
  Delta.*Counter = 1;
  record(Delta);
}

LookupResult DirectoryCache::lookup(const CacheKey &Key) {
  LookupResult Result;
  CacheStats Delta;
  Delta.Misses = 1; // unless it hits
  if (!Enabled) {
    Result.Status = LookupStatus::Disabled;
    Result.Detail = DisabledReason;
    record(Delta);
    return Result;
  }

  std::string Path = entryPath(Key);
  EntryReadResult Read = readEntryFile(Path, &Key, ReadMode::Load);
  Fetched.check(Read);
  Result.Detail = Read.Detail;
  switch (Read.Status) {
  case ReadStatus::Ok: {
    // The mtime is the last-use time that eviction sorts by. Failing to set
    // it (read-only cache) only makes LRU less exact.
    struct timespec Times[2] = {{0, UTIME_OMIT}, {0, UTIME_NOW}};
    (void)::utimensat(AT_FDCWD, Path.c_str(), Times, AT_SYMLINK_NOFOLLOW);
    Result.Status = LookupStatus::Hit;
    Result.Level = CacheLevel::Local;
    Result.Entry = CacheEntry{std::move(*Read.Header), std::move(Read.Payload)};
    Delta.Misses = 0;
    Delta.Hits = 1;
    Delta.CompileTimeSavedMs = Result.Entry->Header.CompileTimeMs;
    break;
  }
  case ReadStatus::NotFound:
    Result.Status = LookupStatus::Miss;
    break;
  case ReadStatus::Corrupt:
    // Not removed here: a concurrent writer may be renaming a good entry
    // into place right now. The next store replaces it.
    Result.Status = LookupStatus::Corrupt;
    Delta.Corrupt = 1;
    break;
  case ReadStatus::Refused: // a remote's entry the remote would refuse now
    Result.Status = LookupStatus::Refused;
    Delta.RemoteRefused = 1;
    break;
  case ReadStatus::IOError:
    Result.Status = LookupStatus::IOError;
    Delta.ReadErrors = 1;
    reportProblem("cannot read cache entry: " + Read.Detail);
    break;
  }
  record(Delta);
  return Result;
}

StoreResult DirectoryCache::storeEntry(const EntryHeader &Entry, llvm::StringRef Payload) {
  if (!Enabled)
    return {StoreStatus::Disabled, DisabledReason};
  CacheKey Key(Entry.Key);
  const CacheKey *K = &Key;

  std::string Hex = K->hex();
  std::string ShardDir = joinPath(Directory, llvm::StringRef(Hex).take_front(2));
  std::string FinalPath = joinPath(ShardDir, Hex);
  static std::atomic<uint64_t> Counter{0};
  std::string TempPath =
      joinPath(ShardDir, (TempPrefix + llvm::StringRef(Hex).take_front(16) + "-" +
                          llvm::Twine(::getpid()) + "-" + llvm::Twine(++Counter))
                             .str());

  auto Fail = [&](llvm::StringRef What, std::error_code EC) {
    ::unlink(TempPath.c_str());
    StoreResult R{StoreStatus::Failed, ("cannot store cache entry " + K->str() + " in '" +
                                        Directory + "': " + What + ": " + fileutil::describe(EC))
                                           .str()};
    countProblem(&CacheStats::WriteErrors, R.Detail);
    return R;
  };

  if (::mkdir(ShardDir.c_str(), 0700) != 0 && errno != EEXIST)
    return Fail("mkdir", lastError());

  EntryHeader Header = Entry;
  std::string HeaderBytes = encodeEntryHeader(Header);
  uint64_t NewSize = HeaderBytes.size() + Payload.size();
  if (NewSize > MaxSize) {
    // Writing it would only make the next cleanup evict it again.
    StoreResult R{StoreStatus::TooLarge, "cache entry " + K->str() + " (" + formatSize(NewSize) +
                                             ") is larger than the cache size cap (" +
                                             formatSize(MaxSize) +
                                             "); raise QSHAPE_CACHE_MAX_SIZE to cache it"};
    reportProblem(R.Detail);
    return R;
  }

  {
    UniqueFD FD = openFile(TempPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
    if (!FD.valid())
      return Fail("create temp file", lastError());
    if (std::error_code EC = writeAll(FD.get(), HeaderBytes))
      return Fail("write", EC);
    if (std::error_code EC = writePayload(FD.get(), Payload))
      return Fail("write", EC);
    if (std::error_code EC = FD.close())
      return Fail("close", EC);
  }

  struct stat Old;
  bool Replaces = ::lstat(FinalPath.c_str(), &Old) == 0;
  if (::rename(TempPath.c_str(), FinalPath.c_str()) != 0)
    return Fail("rename", lastError());

  CacheStats Delta;
  Delta.Stores = 1;
  Delta.BytesStored = Payload.size();
  int64_t SizeDelta = int64_t(NewSize) - (Replaces ? int64_t(Old.st_size) : 0);
  std::optional<CacheStats> After = record(Delta, [&](CacheStats &S) {
    S.SizeBytes = addSigned(S.SizeBytes, SizeDelta);
    S.Entries += Replaces ? 0 : 1;
  });
  if (After)
    maybeCleanupAfterStore(*After);
  return {};
}

void DirectoryCache::maybeCleanupAfterStore(const CacheStats &Persisted) {
  int64_t Now = nowSeconds();
  int64_t Last = int64_t(Persisted.LastCleanupTime);
  bool Due = Last == 0 || Last > Now || Now - Last > int64_t(Options.CleanupIntervalSeconds);
  if (Persisted.SizeBytes <= MaxSize && !Due)
    return;
  CleanupResult R = runCleanup(CleanupMode::Evict, MaxSize, lowWaterBytes());
  if (R.Result == CleanupResult::State::Failed)
    countProblem(&CacheStats::WriteErrors, "cache cleanup failed: " + R.Detail);
}

llvm::ErrorOr<ScanResult> DirectoryCache::scan() const {
  ScanResult Result;
  if (!Enabled)
    return Result;
  DIR *Top = ::opendir(Directory.c_str());
  if (!Top)
    return lastError();
  std::vector<std::string> Shards;
  while (struct dirent *D = ::readdir(Top))
    if (isHexName(D->d_name, 2))
      Shards.push_back(D->d_name);
  ::closedir(Top);
  std::sort(Shards.begin(), Shards.end());

  for (const std::string &Shard : Shards) {
    std::string ShardDir = joinPath(Directory, Shard);
    DIR *Dir = ::opendir(ShardDir.c_str());
    if (!Dir) {
      if (errno == ENOENT || errno == ENOTDIR)
        continue;
      return lastError();
    }
    while (struct dirent *D = ::readdir(Dir)) {
      llvm::StringRef Name = D->d_name;
      bool IsTemp = Name.starts_with(TempPrefix);
      bool IsEntry = isHexName(Name, CacheKey::NumHexDigits) && Name.starts_with(Shard);
      if (!IsTemp && !IsEntry)
        continue; // not ours: never touched
      struct stat St;
      if (::fstatat(::dirfd(Dir), D->d_name, &St, AT_SYMLINK_NOFOLLOW) != 0 || S_ISDIR(St.st_mode))
        continue;
      EntryInfo Info;
      Info.Path = joinPath(ShardDir, Name);
      Info.Size = uint64_t(St.st_size);
      Info.LastUse = int64_t(St.st_mtime);
      if (IsTemp) {
        Result.TempFiles.push_back(std::move(Info));
        continue;
      }
      Info.KeyHex = Name.str();
      Result.TotalBytes += Info.Size;
      Result.Entries.push_back(std::move(Info));
    }
    ::closedir(Dir);
  }
  // readdir order differs between file systems; keep listings stable.
  std::sort(Result.Entries.begin(), Result.Entries.end(),
            [](const EntryInfo &A, const EntryInfo &B) { return A.KeyHex < B.KeyHex; });
  return Result;
}

CleanupResult DirectoryCache::runCleanup(CleanupMode Mode, uint64_t LimitBytes,
                                         uint64_t TargetBytes) {
  CleanupResult R;
  if (!Enabled) {
    R.Result = CleanupResult::State::Disabled;
    R.Detail = DisabledReason;
    return R;
  }
  LockFile::Attempt Lock =
      LockFile::tryAcquire(joinPath(Directory, "cleanup.lock"), Options.StaleLockSeconds);
  if (!Lock.acquired()) {
    R.Result = Lock.Result == LockFile::Outcome::Busy ? CleanupResult::State::Busy
                                                      : CleanupResult::State::Failed;
    if (Lock.EC)
      R.Detail = "cannot create lock in '" + Directory + "': " + fileutil::describe(Lock.EC);
    return R;
  }
  R.BrokeStaleLock = Lock.Result == LockFile::Outcome::AcquiredAfterBreakingStale;

  // Stores that finish while we scan add to the estimate; remember where it
  // started so they are not lost when the scanned total replaces it. (One
  // that the scan also saw is counted twice: the estimate errs high, which
  // only brings the next cleanup sooner.)
  llvm::ErrorOr<CacheStats> Before = readStatsFile(statsPath());
  uint64_t EstimateBefore = Before ? Before->SizeBytes : 0;
  uint64_t EntriesEstimateBefore = Before ? Before->Entries : 0;

  llvm::ErrorOr<ScanResult> Scan = scan();
  if (!Scan) {
    R.Result = CleanupResult::State::Failed;
    R.Detail = "cannot scan '" + Directory + "': " + fileutil::describe(Scan.getError());
    return R;
  }
  R.EntriesBefore = Scan->Entries.size();
  R.BytesBefore = Scan->TotalBytes;

  int64_t Now = nowSeconds();
  for (const EntryInfo &Temp : Scan->TempFiles)
    if (Now - Temp.LastUse > int64_t(Options.TempFileMaxAgeSeconds) &&
        ::unlink(Temp.Path.c_str()) == 0)
      ++R.TempFilesRemoved;
  removeStaleKeyLocks();

  // Least recently used first; the key breaks ties so the order is stable.
  std::vector<EntryInfo> &Entries = Scan->Entries;
  std::sort(Entries.begin(), Entries.end(), [](const EntryInfo &A, const EntryInfo &B) {
    return std::tie(A.LastUse, A.KeyHex) < std::tie(B.LastUse, B.KeyHex);
  });
  uint64_t Total = Scan->TotalBytes;
  uint64_t Remaining = Entries.size();
  // Nothing goes unless the total is past the limit; then down to the target.
  bool OverLimit = Total > LimitBytes;
  for (const EntryInfo &E : Entries) {
    if (!OverLimit || Total <= TargetBytes)
      break;
    if (Mode == CleanupMode::Evict) {
      // A hit since the scan made it recently used: keep it.
      struct stat St;
      if (::lstat(E.Path.c_str(), &St) == 0 && int64_t(St.st_mtime) != E.LastUse)
        continue;
    }
    if (::unlink(E.Path.c_str()) == 0) {
      ++R.Removed;
      R.RemovedBytes += E.Size;
    } else if (errno != ENOENT) {
      continue;
    }
    Total -= E.Size;
    --Remaining;
    if (R.Removed % 256 == 0)
      Lock.Lock->refresh();
  }
  R.EntriesAfter = Remaining;
  R.BytesAfter = Total;

  CacheStats Delta;
  if (Mode == CleanupMode::Evict)
    Delta.Evictions = R.Removed;
  record(Delta, [&](CacheStats &S) {
    S.SizeBytes = Total + (S.SizeBytes > EstimateBefore ? S.SizeBytes - EstimateBefore : 0);
    S.Entries =
        Remaining + (S.Entries > EntriesEstimateBefore ? S.Entries - EntriesEstimateBefore : 0);
    S.LastCleanupTime = uint64_t(Now);
  });
  return R;
}

CleanupResult DirectoryCache::prune(std::optional<uint64_t> TargetBytes) {
  if (TargetBytes)
    return runCleanup(CleanupMode::Evict, *TargetBytes, *TargetBytes);
  return runCleanup(CleanupMode::Evict, MaxSize, lowWaterBytes());
}

CleanupResult DirectoryCache::clear() { return runCleanup(CleanupMode::RemoveAll, 0, 0); }

std::error_code DirectoryCache::removeEntry(const CacheKey &Key) {
  if (!Enabled)
    return std::make_error_code(std::errc::operation_not_permitted);
  std::string Path = entryPath(Key);
  struct stat St;
  if (::lstat(Path.c_str(), &St) != 0)
    return lastError();
  if (::unlink(Path.c_str()) != 0)
    return lastError();
  record(CacheStats(), [&](CacheStats &S) {
    S.SizeBytes = addSigned(S.SizeBytes, -int64_t(St.st_size));
    S.Entries = S.Entries ? S.Entries - 1 : 0;
  });
  return {};
}

llvm::Error DirectoryCache::listEntries(llvm::function_ref<void(const InventoryEntry &)> Visit) {
  llvm::ErrorOr<ScanResult> Scan = scan();
  if (!Scan)
    return llvm::createStringError(Scan.getError(), "cannot scan '%s': %s", Directory.c_str(),
                                   fileutil::describe(Scan.getError()).c_str());
  for (const EntryInfo &E : Scan->Entries)
    if (std::optional<CacheKey> Key = CacheKey::parse(E.KeyHex))
      Visit(InventoryEntry{*Key, E.Size, E.LastUse});
  return llvm::Error::success();
}

EntryReadResult DirectoryCache::checkEntry(const CacheKey &Key) {
  EntryReadResult Read = readEntryFile(entryPath(Key), &Key, ReadMode::Verify);
  Fetched.check(Read);
  return Read;
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
bool setCloseOnExec(int FD, bool On) {
  int Flags = ::fcntl(FD, F_GETFD);
  return Flags >= 0 && ::fcntl(FD, F_SETFD, On ? Flags | FD_CLOEXEC : Flags & ~FD_CLOEXEC) == 0;
}

class FlockKeyLock final : public KeyLock {
public:
  FlockKeyLock(std::string Path, UniqueFD FD) : Path(std::move(Path)), FD(std::move(FD)) {}
  ~FlockKeyLock() override {
    ::unlink(Path.c_str());
    // Closing drops the lock.
  }
  int inheritableDescriptor() override { return setCloseOnExec(FD.get(), false) ? FD.get() : -1; }

private:
  std::string Path;
  UniqueFD FD;
};

/// True if \p Path still names the file open as \p FD.
bool stillNamed(int FD, const std::string &Path) {
  struct stat Open, Named;
  return ::fstat(FD, &Open) == 0 && ::lstat(Path.c_str(), &Named) == 0 &&
         Open.st_dev == Named.st_dev && Open.st_ino == Named.st_ino;
}
} // namespace

std::string DirectoryCache::keyLockPath(const CacheKey &Key) const {
  return joinPath(joinPath(Directory, "locks"), Key.hex());
}

KeyLockResult DirectoryCache::lockKey(const CacheKey &Key, std::chrono::milliseconds MaxWait) {
  KeyLockResult R;
  if (!Enabled) {
    R.Result = KeyLockResult::State::Failed;
    R.Detail = DisabledReason;
    return R;
  }
  std::string LockDir = joinPath(Directory, "locks");
  if (::mkdir(LockDir.c_str(), 0700) != 0 && errno != EEXIST) {
    R.Result = KeyLockResult::State::Failed;
    R.Detail = "cannot create '" + LockDir + "': " + fileutil::describe(lastError());
    return R;
  }
  std::string Path = keyLockPath(Key);
  using Clock = std::chrono::steady_clock;
  Clock::time_point Deadline = Clock::now() + MaxWait;
  bool Waited = false;
  auto Pause = std::chrono::milliseconds(2);
  while (true) {
    UniqueFD FD = openFile(Path, O_RDWR | O_CREAT | O_NOFOLLOW, 0600);
    if (!FD.valid()) {
      R.Result = KeyLockResult::State::Failed;
      R.Detail = "cannot open '" + Path + "': " + fileutil::describe(lastError());
      return R;
    }
    if (::flock(FD.get(), LOCK_EX | LOCK_NB) == 0) {
      if (stillNamed(FD.get(), Path)) {
        R.Result =
            Waited ? KeyLockResult::State::AcquiredAfterWait : KeyLockResult::State::Acquired;
        R.Lock = std::make_unique<FlockKeyLock>(Path, std::move(FD));
        return R;
      }
      continue; // its holder removed it as we opened it: take the new one
    }
    if (errno != EWOULDBLOCK && errno != EINTR) {
      R.Result = KeyLockResult::State::Failed;
      R.Detail = "cannot lock '" + Path + "': " + fileutil::describe(lastError());
      return R;
    }
    Waited = true;
    if (Clock::now() >= Deadline) {
      R.Result = KeyLockResult::State::TimedOut;
      R.Detail = "another process has held the lock of " + Key.str() + " for longer than the wait";
      return R;
    }
    std::this_thread::sleep_for(std::min<Clock::duration>(Pause, Deadline - Clock::now()));
    Pause = std::min(Pause * 2, std::chrono::milliseconds(50));
  }
}

KeyLockResult DirectoryCache::adoptKeyLock(const CacheKey &Key, int FD) {
  KeyLockResult R;
  R.Result = KeyLockResult::State::Failed;
  std::string Path = keyLockPath(Key);
  // flock() on a descriptor of the open file that holds the lock succeeds
  // at once; on another file or a released lock it must not wait.
  if (!Enabled || FD < 0 || !stillNamed(FD, Path) || ::flock(FD, LOCK_EX | LOCK_NB) != 0) {
    R.Detail = "descriptor " + std::to_string(FD) + " is not the held lock '" + Path + "'";
    return R;
  }
  (void)setCloseOnExec(FD, true);
  R.Result = KeyLockResult::State::Acquired;
  R.Lock = std::make_unique<FlockKeyLock>(Path, UniqueFD(FD));
  return R;
}

uint64_t DirectoryCache::removeStaleKeyLocks() {
  std::string LockDir = joinPath(Directory, "locks");
  DIR *Dir = ::opendir(LockDir.c_str());
  if (!Dir)
    return 0;
  uint64_t Removed = 0;
  int64_t Now = nowSeconds();
  while (struct dirent *D = ::readdir(Dir)) {
    if (!isHexName(D->d_name, CacheKey::NumHexDigits))
      continue;
    std::string Path = joinPath(LockDir, D->d_name);
    UniqueFD FD = openFile(Path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    struct stat St;
    if (!FD.valid() || ::fstat(FD.get(), &St) != 0 ||
        Now - int64_t(St.st_mtime) <= int64_t(Options.TempFileMaxAgeSeconds))
      continue;
    // Held by nobody (a lock of a killed process): the same protocol as a
    // holder, so a process that takes it right now retries.
    if (::flock(FD.get(), LOCK_EX | LOCK_NB) == 0 && stillNamed(FD.get(), Path) &&
        ::unlink(Path.c_str()) == 0)
      ++Removed;
  }
  ::closedir(Dir);
  return Removed;
}
