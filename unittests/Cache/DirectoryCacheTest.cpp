//===- DirectoryCacheTest.cpp - The cache directory level -----------------===//
//
// The failure modes of JAX's, ccache's and sccache's caches, as tests:
// corrupt/truncated/foreign entries, hostile keys, eviction order and cap,
// stale locks, unsafe directories, concurrent processes, full disks and
// read-only directories.
//
//===----------------------------------------------------------------------===//

#include "qshape/Cache/DirectoryCache.h"
#include "qshape/Cache/Diagnostics.h"
#include "qshape/Cache/FileUtil.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Testing/Support/SupportHelpers.h"

#include "gtest/gtest.h"

#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace qshape::cache;
using namespace qshape::cache::fileutil;
using llvm::unittest::TempDir;

namespace {

/// A valid key built from a number, and its 64 hex digits.
std::string keyHex(unsigned N) {
  char Buffer[65];
  std::snprintf(Buffer, sizeof(Buffer), "%064x", N);
  return Buffer;
}
CacheKey key(unsigned N) { return *CacheKey::parse(keyHex(N)); }

void setMTime(llvm::StringRef Path, int64_t Seconds) {
  struct timespec Times[2];
  Times[0].tv_sec = Times[1].tv_sec = Seconds;
  Times[0].tv_nsec = Times[1].tv_nsec = 0;
  ASSERT_EQ(::utimensat(AT_FDCWD, Path.str().c_str(), Times, 0), 0) << Path.str();
}

void writeFile(llvm::StringRef Path, llvm::StringRef Bytes) {
  UniqueFD FD = openFile(Path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ASSERT_TRUE(FD.valid()) << Path.str();
  ASSERT_FALSE(writeAll(FD.get(), Bytes));
}

std::string readFile(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

bool exists(llvm::StringRef Path) { return ::access(Path.str().c_str(), F_OK) == 0; }

/// Every file and directory under \p Root.
std::vector<std::string> treeOf(llvm::StringRef Root) {
  std::vector<std::string> Paths;
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator I(Root, EC), E; I != E && !EC; I.increment(EC))
    Paths.push_back(I->path());
  std::sort(Paths.begin(), Paths.end());
  return Paths;
}

/// Runs \p Body in a forked child and returns its exit code (0: passed).
/// gtest assertions do not cross fork(), so children use CHILD_CHECK.
int runInChild(llvm::function_ref<int()> Body) {
  std::fflush(nullptr);
  pid_t Pid = ::fork();
  if (Pid == 0)
    ::_exit(Body());
  int Status = 0;
  ::waitpid(Pid, &Status, 0);
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
}

#define CHILD_CHECK(Cond)                                                                          \
  do {                                                                                             \
    if (!(Cond)) {                                                                                 \
      std::fprintf(stderr, "child check failed at %s:%d: %s\n", __FILE__, __LINE__, #Cond);        \
      return 1;                                                                                    \
    }                                                                                              \
  } while (false)

class DirectoryCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    // Tests set the cap explicitly; a developer's setting must not leak in.
    if (const char *Cap = std::getenv("QSHAPE_CACHE_MAX_SIZE"))
      SavedMaxSize = Cap;
    ::unsetenv("QSHAPE_CACHE_MAX_SIZE");
    resetProblemsForTesting();
    Previous =
        setWarningHandler([this](llvm::StringRef Message) { Warnings.push_back(Message.str()); });
  }
  void TearDown() override {
    setWarningHandler(std::move(Previous));
    resetProblemsForTesting();
    if (SavedMaxSize)
      ::setenv("QSHAPE_CACHE_MAX_SIZE", SavedMaxSize->c_str(), 1);
  }

  DirectoryOptions options(uint64_t MaxSize = 0) const {
    DirectoryOptions O;
    O.directory = CacheDir;
    O.maxSizeBytes = MaxSize;
    return O;
  }

  CacheStats persisted(const DirectoryCache &Store) {
    llvm::ErrorOr<CacheStats> S = Store.persistentStats();
    EXPECT_TRUE(S);
    return S ? *S : CacheStats();
  }

  std::string entryPath(const DirectoryCache &Store, unsigned N) { return Store.entryPath(key(N)); }

  /// Runs \p Body in a child that permission bits apply to: as "nobody" when
  /// the tests run as root (root ignores them). CacheDir moves into a fresh
  /// directory under /tmp that child owns (lit's TMPDIR is private to root).
  /// Expects the child to pass.
  void expectPassesUnprivileged(llvm::function_ref<int()> Body) {
    constexpr int CannotDropRoot = 77;
    char Base[] = "/tmp/qshape-unprivileged-XXXXXX";
    ASSERT_NE(::mkdtemp(Base), nullptr);
    CacheDir = std::string(Base) + "/cache";
    bool AsRoot = ::geteuid() == 0;
    if (AsRoot)
      EXPECT_EQ(::chown(Base, 65534, 65534), 0);
    int Exit = runInChild([&] {
      if (AsRoot && (::setgid(65534) != 0 || ::setuid(65534) != 0))
        return CannotDropRoot;
      return Body();
    });
    EXPECT_FALSE(llvm::sys::fs::remove_directories(Base));
    if (Exit == CannotDropRoot)
      GTEST_SKIP() << "running as root and cannot switch to uid 65534";
    EXPECT_EQ(Exit, 0);
  }

  TempDir Root{"qshape-store-test", /*Unique=*/true};
  std::string CacheDir = std::string(Root.path("cache"));
  std::vector<std::string> Warnings;
  WarningHandler Previous;
  std::optional<std::string> SavedMaxSize;
};

//===----------------------------------------------------------------------===//
// Round trip and corruption
//===----------------------------------------------------------------------===//

TEST_F(DirectoryCacheTest, RoundTrip) {
  DirectoryCache Store(options());
  ASSERT_TRUE(Store.isEnabled()) << Store.disabledReason();
  struct stat St;
  ASSERT_EQ(::stat(CacheDir.c_str(), &St), 0);
  EXPECT_EQ(St.st_mode & 0777, 0700u);

  ASSERT_EQ(Store.store(key(1), PayloadKind::MLIRBytecode, "payload", 1234).status,
            StoreStatus::Stored);
  LookupResult R = Store.lookup(key(1));
  ASSERT_TRUE(R.hit()) << R.detail;
  EXPECT_EQ(R.entry->payload->getBuffer(), "payload");
  EXPECT_EQ(R.entry->header.kind, uint32_t(PayloadKind::MLIRBytecode));
  EXPECT_EQ(R.entry->header.compileTimeMs, 1234u);
  EXPECT_EQ(R.entry->header.producer, getProducerVersion());
  EXPECT_NEAR(double(R.entry->header.creationTime), double(nowSeconds()), 5);

  EXPECT_EQ(Store.lookup(key(2)).status, LookupStatus::Miss);

  for (const CacheStats &S : {Store.processStats(), persisted(Store)}) {
    EXPECT_EQ(S.hits, 1u);
    EXPECT_EQ(S.misses, 1u);
    EXPECT_EQ(S.corrupt, 0u);
    EXPECT_EQ(S.stores, 1u);
    EXPECT_EQ(S.bytesStored, 7u);
    EXPECT_EQ(S.compileTimeSavedMs, 1234u);
  }
  CacheStats P = persisted(Store);
  EXPECT_EQ(P.entries, 1u);
  EXPECT_EQ(P.sizeBytes, Store.scan()->totalBytes);
  EXPECT_TRUE(exists(CacheDir + "/CACHEDIR.TAG"));
  EXPECT_TRUE(Warnings.empty());
}

TEST_F(DirectoryCacheTest, HitRefreshesLastUse) {
  DirectoryCache Store(options());
  ASSERT_EQ(Store.store(key(1), PayloadKind::Blob, "x", 0).status, StoreStatus::Stored);
  std::string Path = entryPath(Store, 1);
  setMTime(Path, nowSeconds() - 5000);
  ASSERT_TRUE(Store.lookup(key(1)).hit());
  struct stat St;
  ASSERT_EQ(::stat(Path.c_str(), &St), 0);
  EXPECT_GE(int64_t(St.st_mtime), nowSeconds() - 5);
}

TEST_F(DirectoryCacheTest, CorruptEntryIsMissThenReplacedThenHit) {
  DirectoryCache Store(options());
  ASSERT_EQ(Store.store(key(1), PayloadKind::Blob, "good payload", 10).status, StoreStatus::Stored);
  std::string Path = entryPath(Store, 1);
  std::string Bytes = readFile(Path);
  Bytes[Bytes.size() - 2] ^= 0x20;
  writeFile(Path, Bytes);

  LookupResult R = Store.lookup(key(1));
  EXPECT_EQ(R.status, LookupStatus::Corrupt);
  EXPECT_FALSE(R.entry);
  EXPECT_NE(R.detail.find("checksum"), std::string::npos) << R.detail;
  CacheStats S = persisted(Store);
  EXPECT_EQ(S.misses, 1u);
  EXPECT_EQ(S.corrupt, 1u);
  EXPECT_EQ(S.hits, 0u);

  // The caller recompiles and stores: the bad entry is replaced.
  ASSERT_EQ(Store.store(key(1), PayloadKind::Blob, "good payload", 10).status, StoreStatus::Stored);
  R = Store.lookup(key(1));
  ASSERT_TRUE(R.hit()) << R.detail;
  EXPECT_EQ(R.entry->payload->getBuffer(), "good payload");
  EXPECT_TRUE(Warnings.empty()) << "a corrupt entry is not a warning";
}

TEST_F(DirectoryCacheTest, TruncatedAndEmptyEntriesAreCorruptMisses) {
  DirectoryCache Store(options());
  std::string Payload(5000, 'p');
  for (size_t Length : {size_t(0), size_t(1), size_t(100), size_t(3000)}) {
    ASSERT_EQ(Store.store(key(1), PayloadKind::Blob, Payload, 1).status, StoreStatus::Stored);
    std::string Path = entryPath(Store, 1);
    ASSERT_EQ(::truncate(Path.c_str(), off_t(Length)), 0);
    EXPECT_EQ(Store.lookup(key(1)).status, LookupStatus::Corrupt) << "length " << Length;
    ASSERT_EQ(Store.store(key(1), PayloadKind::Blob, Payload, 1).status, StoreStatus::Stored);
    LookupResult R = Store.lookup(key(1));
    ASSERT_TRUE(R.hit()) << R.detail;
    EXPECT_EQ(R.entry->payload->getBuffer(), Payload);
  }
  EXPECT_EQ(persisted(Store).corrupt, 4u);
}

TEST_F(DirectoryCacheTest, EntryWithAnotherKeyInItsHeaderIsCorrupt) {
  DirectoryCache Store(options());
  ASSERT_EQ(Store.store(key(0x1001), PayloadKind::Blob, "for key A", 1).status,
            StoreStatus::Stored);
  // Same shard ("00"), other key: a valid entry under the wrong name.
  std::string Other = entryPath(Store, 0x1002);
  writeFile(Other, readFile(entryPath(Store, 0x1001)));
  LookupResult R = Store.lookup(key(0x1002));
  EXPECT_EQ(R.status, LookupStatus::Corrupt);
  EXPECT_FALSE(R.entry);
  EXPECT_NE(R.detail.find("header holds key"), std::string::npos) << R.detail;
  EXPECT_TRUE(Store.lookup(key(0x1001)).hit());
}

TEST_F(DirectoryCacheTest, BadKeysCannotBeMade) {
  // The directory takes only CacheKeys, and parse() is the only way to make
  // one from text: nothing that could name a path outside the cache parses.
  const std::string Bad[] = {
      "../../../../tmp/qshape-evil",
      "blake3:../" + std::string(61, 'a'),
      std::string(31, 'a') + "/" + std::string(32, 'a'),
      std::string(63, 'a'),
      std::string(64, 'A'),
      "/etc/passwd",
      "",
  };
  for (const std::string &K : Bad)
    EXPECT_FALSE(CacheKey::parse(K)) << K;
  DirectoryCache Store(options());
  EXPECT_EQ(Store.entryPath(key(0xab)), CacheDir + "/00/" + keyHex(0xab));
}

TEST_F(DirectoryCacheTest, PartialTempFileIsNeverVisible) {
  // What a writer killed mid-write leaves behind.
  DirectoryCache Store(options());
  std::string Hex = keyHex(7);
  ASSERT_EQ(::mkdir((CacheDir + "/00").c_str(), 0700), 0);
  writeFile(CacheDir + "/00/.tmp-" + Hex.substr(0, 16) + "-12345-1", "QSHCACHE partial");
  EXPECT_EQ(Store.lookup(key(7)).status, LookupStatus::Miss);
  llvm::ErrorOr<ScanResult> Scan = Store.scan();
  ASSERT_TRUE(Scan);
  EXPECT_EQ(Scan->entries.size(), 0u);
  EXPECT_EQ(Scan->tempFiles.size(), 1u);
}

TEST_F(DirectoryCacheTest, ReplacingAnEntryKeepsTheSizeEstimate) {
  DirectoryCache Store(options());
  ASSERT_EQ(Store.store(key(1), PayloadKind::Blob, "small", 1).status, StoreStatus::Stored);
  ASSERT_EQ(Store.store(key(1), PayloadKind::Blob, std::string(1000, 'b'), 1).status,
            StoreStatus::Stored);
  ASSERT_EQ(Store.store(key(2), PayloadKind::Blob, "other", 1).status, StoreStatus::Stored);
  CacheStats S = persisted(Store);
  EXPECT_EQ(S.entries, 2u);
  EXPECT_EQ(S.sizeBytes, Store.scan()->totalBytes);
  ASSERT_FALSE(Store.removeEntry(key(2)));
  S = persisted(Store);
  EXPECT_EQ(S.entries, 1u);
  EXPECT_EQ(S.sizeBytes, Store.scan()->totalBytes);
}

//===----------------------------------------------------------------------===//
// Eviction, cleanup and locks
//===----------------------------------------------------------------------===//

TEST_F(DirectoryCacheTest, EvictionKeepsTheCapAndRemovesLeastRecentlyUsedFirst) {
  std::string Payload(1000, 'e');
  uint64_t EntrySize;
  {
    DirectoryCache Probe(options());
    ASSERT_EQ(Probe.store(key(1), PayloadKind::Blob, Payload, 1).status, StoreStatus::Stored);
    EntrySize = Probe.scan()->totalBytes;
  }
  // 7 entries fit under the cap, the 8th triggers an eviction down to 5.25.
  const uint64_t Cap = 7 * EntrySize + EntrySize / 2;
  DirectoryOptions O = options(Cap);
  O.lowWaterFraction = 0.7;
  DirectoryCache Store(O);
  int64_t Now = nowSeconds();
  for (unsigned N = 1; N <= 6; ++N) {
    ASSERT_EQ(Store.store(key(N), PayloadKind::Blob, Payload, 1).status, StoreStatus::Stored);
    setMTime(entryPath(Store, N), Now - 1000 + N * 10); // 1 is the oldest
  }
  ASSERT_TRUE(Store.lookup(key(1)).hit()); // 1 becomes the most recent
  ASSERT_EQ(Store.store(key(7), PayloadKind::Blob, Payload, 1).status, StoreStatus::Stored);
  EXPECT_EQ(persisted(Store).evictions, 0u) << "7 entries are under the cap";
  ASSERT_EQ(Store.store(key(8), PayloadKind::Blob, Payload, 1).status, StoreStatus::Stored);

  // Down to the low-water mark: 2, 3 and 4 (least recently used) go.
  for (unsigned N : {2u, 3u, 4u})
    EXPECT_EQ(Store.lookup(key(N)).status, LookupStatus::Miss) << N;
  for (unsigned N : {1u, 5u, 6u, 7u, 8u})
    EXPECT_TRUE(Store.lookup(key(N)).hit()) << N;
  llvm::ErrorOr<ScanResult> Scan = Store.scan();
  ASSERT_TRUE(Scan);
  EXPECT_LE(Scan->totalBytes, Cap * 7 / 10);
  CacheStats S = persisted(Store);
  EXPECT_EQ(S.evictions, 3u);
  EXPECT_EQ(S.sizeBytes, Scan->totalBytes);
  EXPECT_EQ(S.entries, 5u);
  EXPECT_TRUE(Warnings.empty());
}

TEST_F(DirectoryCacheTest, StoresUnderTheCapDoNotScan) {
  DirectoryCache Store(options(1 << 20));
  // The first store of a cache runs one cleanup to establish the estimate.
  ASSERT_EQ(Store.store(key(1), PayloadKind::Blob, "a", 1).status, StoreStatus::Stored);
  uint64_t FirstCleanup = persisted(Store).lastCleanupTime;
  EXPECT_NE(FirstCleanup, 0u);
  // An orphaned temp file would be removed by any cleanup...
  std::string Orphan = CacheDir + "/00/.tmp-0000000000000000-1-1";
  writeFile(Orphan, "partial");
  setMTime(Orphan, nowSeconds() - 7200);
  for (unsigned N = 2; N < 20; ++N)
    ASSERT_EQ(Store.store(key(N), PayloadKind::Blob, "a", 1).status, StoreStatus::Stored);
  // ... so its survival shows that none of these stores scanned.
  EXPECT_TRUE(exists(Orphan));
  EXPECT_EQ(persisted(Store).lastCleanupTime, FirstCleanup);
}

TEST_F(DirectoryCacheTest, EntryLargerThanTheCapIsNotWritten) {
  DirectoryCache Store(options(4096));
  ASSERT_EQ(Store.store(key(1), PayloadKind::Blob, "small", 1).status, StoreStatus::Stored);
  StoreResult R = Store.store(key(2), PayloadKind::Blob, std::string(5000, 'x'), 1);
  EXPECT_EQ(R.status, StoreStatus::TooLarge);
  EXPECT_NE(R.detail.find("QSHAPE_CACHE_MAX_SIZE"), std::string::npos);
  EXPECT_EQ(Warnings.size(), 1u);
  EXPECT_TRUE(Store.lookup(key(1)).hit()) << "nothing was evicted for it";
  EXPECT_EQ(Store.lookup(key(2)).status, LookupStatus::Miss);
  EXPECT_EQ(Store.scan()->tempFiles.size(), 0u);
}

TEST_F(DirectoryCacheTest, CleanupRemovesOnlyOldTempFiles) {
  DirectoryOptions O = options();
  O.tempFileMaxAgeSeconds = 3600;
  DirectoryCache Store(O);
  ASSERT_EQ(Store.store(key(1), PayloadKind::Blob, "a", 1).status, StoreStatus::Stored);
  std::string Old = CacheDir + "/00/.tmp-0000000000000000-1-1";
  std::string Fresh = CacheDir + "/00/.tmp-0000000000000000-1-2";
  std::string Foreign = CacheDir + "/00/notes.txt"; // not ours: never touched
  writeFile(Old, "old");
  writeFile(Fresh, "in progress");
  writeFile(Foreign, "user file");
  setMTime(Old, nowSeconds() - 7200);
  CleanupResult R = Store.prune();
  EXPECT_EQ(R.result, CleanupResult::State::Done);
  EXPECT_EQ(R.tempFilesRemoved, 1u);
  EXPECT_EQ(R.removed, 0u);
  EXPECT_FALSE(exists(Old));
  EXPECT_TRUE(exists(Fresh));
  EXPECT_TRUE(exists(Foreign));
  EXPECT_TRUE(Store.lookup(key(1)).hit());
}

TEST_F(DirectoryCacheTest, PruneToExplicitSize) {
  DirectoryCache Store(options());
  for (unsigned N = 1; N <= 10; ++N) {
    ASSERT_EQ(Store.store(key(N), PayloadKind::Blob, std::string(1000, 'x'), 1).status,
              StoreStatus::Stored);
    setMTime(entryPath(Store, N), nowSeconds() - 100 + N);
  }
  CleanupResult R = Store.prune(uint64_t(5000));
  ASSERT_EQ(R.result, CleanupResult::State::Done);
  EXPECT_EQ(R.entriesBefore, 10u);
  EXPECT_EQ(R.entriesAfter, 4u);
  EXPECT_LE(R.bytesAfter, 5000u);
  EXPECT_EQ(R.removed, 6u);
  EXPECT_EQ(Store.lookup(key(6)).status, LookupStatus::Miss);
  EXPECT_TRUE(Store.lookup(key(7)).hit());
  EXPECT_EQ(persisted(Store).evictions, 6u);
}

TEST_F(DirectoryCacheTest, StaleLockIsBrokenAndLiveLockRespected) {
  DirectoryCache Store(options());
  ASSERT_EQ(Store.store(key(1), PayloadKind::Blob, "a", 1).status, StoreStatus::Stored);
  std::string Lock = CacheDir + "/cleanup.lock";
  char Host[HOST_NAME_MAX + 1] = {};
  ::gethostname(Host, sizeof(Host) - 1);

  // A live cleaner (this process, fresh lock): prune must wait its turn.
  writeFile(Lock, std::to_string(::getpid()) + " " + Host + " 0\n");
  EXPECT_EQ(Store.prune(uint64_t(0)).result, CleanupResult::State::Busy);
  EXPECT_TRUE(Store.lookup(key(1)).hit());

  // A cleaner that was killed: its lock is broken.
  pid_t Dead = ::fork();
  if (Dead == 0)
    ::_exit(0);
  ::waitpid(Dead, nullptr, 0);
  writeFile(Lock, std::to_string(Dead) + " " + Host + " 0\n");
  CleanupResult R = Store.prune(uint64_t(0));
  EXPECT_EQ(R.result, CleanupResult::State::Done);
  EXPECT_TRUE(R.brokeStaleLock);
  EXPECT_EQ(R.removed, 1u);
  EXPECT_FALSE(exists(Lock)) << "the new holder releases it";
}

TEST_F(DirectoryCacheTest, BusyCleanerDoesNotFailStores) {
  DirectoryCache Store(options(2000));
  char Host[HOST_NAME_MAX + 1] = {};
  ::gethostname(Host, sizeof(Host) - 1);
  ASSERT_EQ(::mkdir(CacheDir.c_str(), 0700) == 0 || errno == EEXIST, true);
  writeFile(CacheDir + "/cleanup.lock", std::to_string(::getpid()) + " " + Host + " 0\n");
  for (unsigned N = 1; N <= 4; ++N)
    EXPECT_EQ(Store.store(key(N), PayloadKind::Blob, std::string(1000, 'x'), 1).status,
              StoreStatus::Stored);
  EXPECT_TRUE(Warnings.empty());
  EXPECT_EQ(persisted(Store).evictions, 0u) << "eviction waits for the lock";
}

TEST_F(DirectoryCacheTest, ClearRemovesEntriesAndKeepsCounters) {
  DirectoryCache Store(options());
  for (unsigned N = 1; N <= 3; ++N)
    ASSERT_EQ(Store.store(key(N), PayloadKind::Blob, "x", 1).status, StoreStatus::Stored);
  ASSERT_TRUE(Store.lookup(key(1)).hit());
  CleanupResult R = Store.clear();
  EXPECT_EQ(R.result, CleanupResult::State::Done);
  EXPECT_EQ(R.removed, 3u);
  EXPECT_EQ(Store.scan()->entries.size(), 0u);
  CacheStats S = persisted(Store);
  EXPECT_EQ(S.hits, 1u);
  EXPECT_EQ(S.stores, 3u);
  EXPECT_EQ(S.evictions, 0u);
  EXPECT_EQ(S.sizeBytes, 0u);
  EXPECT_EQ(S.entries, 0u);
}

//===----------------------------------------------------------------------===//
// Directory policy
//===----------------------------------------------------------------------===//

TEST_F(DirectoryCacheTest, GroupOrOtherWritableDirectoryIsRefused) {
  for (mode_t Mode : {mode_t(0770), mode_t(0702), mode_t(0777)}) {
    resetProblemsForTesting();
    Warnings.clear();
    ::mkdir(CacheDir.c_str(), 0700);
    ASSERT_EQ(::chmod(CacheDir.c_str(), Mode), 0);
    DirectoryCache Store(options());
    EXPECT_FALSE(Store.isEnabled());
    EXPECT_NE(Store.disabledReason().find("chmod 700"), llvm::StringRef::npos)
        << Store.disabledReason();
    ASSERT_EQ(Warnings.size(), 1u);
    EXPECT_EQ(Warnings[0], Store.disabledReason());
    // The cache is bypassed, the caller goes on.
    EXPECT_EQ(Store.lookup(key(1)).status, LookupStatus::Disabled);
    EXPECT_EQ(Store.store(key(1), PayloadKind::Blob, "x", 1).status, StoreStatus::Disabled);
    EXPECT_EQ(Store.prune().result, CleanupResult::State::Disabled);
    EXPECT_EQ(Warnings.size(), 1u);
    EXPECT_TRUE(treeOf(CacheDir).empty()) << "nothing written";
    EXPECT_EQ(Store.processStats().misses, 1u);
  }
}

TEST_F(DirectoryCacheTest, DirectoryOfAnotherUserIsRefused) {
  if (::geteuid() == 0) {
    ASSERT_EQ(::mkdir(CacheDir.c_str(), 0700), 0);
    ASSERT_EQ(::chown(CacheDir.c_str(), 65534, 65534), 0);
  } else {
    CacheDir = "/"; // owned by root
  }
  DirectoryCache Store(options());
  EXPECT_FALSE(Store.isEnabled());
  EXPECT_NE(Store.disabledReason().find("not by you"), llvm::StringRef::npos)
      << Store.disabledReason();
  EXPECT_EQ(Warnings.size(), 1u);
  EXPECT_EQ(Store.lookup(key(1)).status, LookupStatus::Disabled);
}

TEST_F(DirectoryCacheTest, MissingDirectoriesAreCreatedPrivate) {
  CacheDir = std::string(Root.path("a/b/c"));
  DirectoryCache Store(options());
  ASSERT_TRUE(Store.isEnabled()) << Store.disabledReason();
  for (const char *Sub : {"a", "a/b", "a/b/c"}) {
    struct stat St;
    ASSERT_EQ(::stat(std::string(Root.path(Sub)).c_str(), &St), 0);
    EXPECT_EQ(St.st_mode & 0777, 0700u) << Sub;
  }
  ASSERT_EQ(Store.store(key(0xab0000), PayloadKind::Blob, "x", 1).status, StoreStatus::Stored);
  struct stat St;
  ASSERT_EQ(::stat((CacheDir + "/00").c_str(), &St), 0);
  EXPECT_EQ(St.st_mode & 0777, 0700u);
}

TEST_F(DirectoryCacheTest, UncreatableDirectoryDisablesWithOneWarning) {
  writeFile(Root.path("file"), "not a directory");
  CacheDir = std::string(Root.path("file/cache"));
  DirectoryCache Store(options());
  EXPECT_FALSE(Store.isEnabled());
  EXPECT_EQ(Warnings.size(), 1u);
  EXPECT_EQ(Store.lookup(key(1)).status, LookupStatus::Disabled);
}

TEST_F(DirectoryCacheTest, DefaultDirectoryResolution) {
  struct SavedEnv {
    const char *Name;
    std::optional<std::string> Value;
  } Saved[] = {{"QSHAPE_CACHE_DIR", {}}, {"XDG_CACHE_HOME", {}}, {"HOME", {}}};
  for (SavedEnv &S : Saved)
    if (const char *V = std::getenv(S.Name))
      S.Value = V;

  ::setenv("HOME", "/home/u", 1);
  ::setenv("XDG_CACHE_HOME", "/xdg", 1);
  ::setenv("QSHAPE_CACHE_DIR", "/explicit", 1);
  EXPECT_EQ(defaultCacheDirectory(), "/explicit");
  ::setenv("QSHAPE_CACHE_DIR", "", 1); // empty means unset
  EXPECT_EQ(defaultCacheDirectory(), "/xdg/qshape");
  ::setenv("XDG_CACHE_HOME", "relative", 1); // the XDG spec ignores these
  EXPECT_EQ(defaultCacheDirectory(), "/home/u/.cache/qshape");
  ::unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(defaultCacheDirectory(), "/home/u/.cache/qshape");

  for (SavedEnv &S : Saved) {
    if (S.Value)
      ::setenv(S.Name, S.Value->c_str(), 1);
    else
      ::unsetenv(S.Name);
  }
}

TEST_F(DirectoryCacheTest, MaxSizeFromEnvironment) {
  ::setenv("QSHAPE_CACHE_MAX_SIZE", "5M", 1);
  EXPECT_EQ(DirectoryCache(options()).maxSizeBytes(), 5u << 20);
  EXPECT_EQ(DirectoryCache(options(1234)).maxSizeBytes(), 1234u);
  ::setenv("QSHAPE_CACHE_MAX_SIZE", "lots", 1);
  EXPECT_EQ(DirectoryCache(options()).maxSizeBytes(), kDefaultMaxSizeBytes);
  ::unsetenv("QSHAPE_CACHE_MAX_SIZE");
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_NE(Warnings[0].find("QSHAPE_CACHE_MAX_SIZE='lots'"), std::string::npos);
  EXPECT_EQ(DirectoryCache(options()).maxSizeBytes(), kDefaultMaxSizeBytes);
}

//===----------------------------------------------------------------------===//
// Several processes and threads
//===----------------------------------------------------------------------===//

TEST_F(DirectoryCacheTest, StatsFromSeveralProcessesAreNotLost) {
  constexpr unsigned Children = 4, Rounds = 50, Stores = 5;
  DirectoryCache Parent(options());
  ASSERT_EQ(Parent.store(key(1), PayloadKind::Blob, "shared", 7).status, StoreStatus::Stored);
  std::vector<pid_t> Pids;
  for (unsigned C = 0; C < Children; ++C) {
    std::fflush(nullptr);
    pid_t Pid = ::fork();
    if (Pid == 0) {
      // Half the children use a store inherited across fork(), half their
      // own: both must serialize through the file lock.
      std::optional<DirectoryCache> Own;
      if (C % 2)
        Own.emplace(options());
      DirectoryCache &Store = Own ? *Own : Parent;
      int Failures = 0;
      for (unsigned R = 0; R < Rounds; ++R) {
        Failures += !Store.lookup(key(1)).hit();
        Failures += Store.lookup(key(1000 + C * Rounds + R)).status != LookupStatus::Miss;
      }
      for (unsigned S = 0; S < Stores; ++S)
        Failures += Store.store(key(5000 + C * Stores + S), PayloadKind::Blob, "x", 1).status !=
                    StoreStatus::Stored;
      ::_exit(Failures ? 1 : 0);
    }
    Pids.push_back(Pid);
  }
  for (pid_t Pid : Pids) {
    int Status = 0;
    ::waitpid(Pid, &Status, 0);
    EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0);
  }
  CacheStats S = persisted(Parent);
  EXPECT_EQ(S.hits, Children * Rounds);
  EXPECT_EQ(S.misses, Children * Rounds);
  EXPECT_EQ(S.stores, 1 + Children * Stores);
  EXPECT_EQ(S.compileTimeSavedMs, 7u * Children * Rounds);
  EXPECT_EQ(S.entries, 1 + Children * Stores);
  EXPECT_EQ(S.sizeBytes, Parent.scan()->totalBytes);
}

TEST_F(DirectoryCacheTest, ConcurrentWritersOfOneKeyNeverExposeATornEntry) {
  constexpr unsigned Writers = 3, Rounds = 30;
  DirectoryCache Store(options());
  ASSERT_TRUE(Store.isEnabled());
  std::vector<pid_t> Pids;
  for (unsigned W = 0; W <= Writers; ++W) {
    std::fflush(nullptr);
    pid_t Pid = ::fork();
    if (Pid == 0) {
      DirectoryCache Own(options());
      int Failures = 0;
      for (unsigned R = 0; R < Rounds; ++R) {
        if (W == Writers) { // the reader
          LookupResult L = Own.lookup(key(1));
          if (L.hit()) {
            llvm::StringRef P = L.entry->payload->getBuffer();
            Failures += P.size() != 65536 || P.count(P[0]) != P.size();
          } else {
            Failures += L.status != LookupStatus::Miss;
          }
          continue;
        }
        Failures +=
            Own.store(key(1), PayloadKind::Blob, std::string(65536, char('a' + W)), 1).status !=
            StoreStatus::Stored;
      }
      ::_exit(Failures ? 1 : 0);
    }
    Pids.push_back(Pid);
  }
  for (pid_t Pid : Pids) {
    int Status = 0;
    ::waitpid(Pid, &Status, 0);
    EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0);
  }
  LookupResult L = Store.lookup(key(1));
  ASSERT_TRUE(L.hit()) << L.detail;
  llvm::StringRef P = L.entry->payload->getBuffer();
  EXPECT_EQ(P.size(), 65536u);
  EXPECT_EQ(P.count(P[0]), P.size());
  llvm::ErrorOr<ScanResult> Scan = Store.scan();
  EXPECT_EQ(Scan->tempFiles.size(), 0u);
  EXPECT_EQ(Scan->entries.size(), 1u);
  EXPECT_EQ(persisted(Store).corrupt, 0u);
}

TEST_F(DirectoryCacheTest, ThreadsShareOneStore) {
  DirectoryCache Store(options());
  ASSERT_EQ(Store.store(key(1), PayloadKind::Blob, "x", 1).status, StoreStatus::Stored);
  std::vector<std::thread> Threads;
  for (unsigned T = 0; T < 4; ++T)
    Threads.emplace_back([&Store, T] {
      for (unsigned R = 0; R < 50; ++R) {
        (void)Store.lookup(key(1));
        (void)Store.store(key(100 + T), PayloadKind::Blob, "y", 1).status;
      }
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Store.processStats().hits, 200u);
  EXPECT_EQ(persisted(Store).hits, 200u);
  EXPECT_EQ(persisted(Store).stores, 201u);
}

//===----------------------------------------------------------------------===//
// I/O failures: one warning, a counter, and the caller goes on
//===----------------------------------------------------------------------===//

TEST_F(DirectoryCacheTest, WriteFailureWarnsOnceAndGoesOn) {
  // A full disk, simulated with RLIMIT_FSIZE (writes fail with EFBIG).
  int Exit = runInChild([&] {
    DirectoryCache Store(options());
    CHILD_CHECK(Store.isEnabled());
    CHILD_CHECK(Store.store(key(1), PayloadKind::Blob, "small", 1).status == StoreStatus::Stored);
    std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit Limit = {16384, 16384};
    CHILD_CHECK(::setrlimit(RLIMIT_FSIZE, &Limit) == 0);
    std::string Big(100000, 'b');
    CHILD_CHECK(Store.store(key(2), PayloadKind::Blob, Big, 1).status == StoreStatus::Failed);
    StoreResult Failed = Store.store(key(3), PayloadKind::Blob, Big, 1);
    CHILD_CHECK(Failed.status == StoreStatus::Failed);
    CHILD_CHECK(Failed.detail.find("File too large") != std::string::npos);
    CHILD_CHECK(Warnings.size() == 1);
    CHILD_CHECK(Warnings[0].find("cannot store cache entry") != std::string::npos);
    CHILD_CHECK(problemCount() == 2);
    CHILD_CHECK(Store.processStats().writeErrors == 2);
    llvm::ErrorOr<CacheStats> P = Store.persistentStats();
    CHILD_CHECK(P && P->writeErrors == 2);
    // Nothing half-written is visible or left behind; the cache still works.
    CHILD_CHECK(Store.lookup(key(2)).status == LookupStatus::Miss);
    CHILD_CHECK(Store.scan()->tempFiles.empty());
    CHILD_CHECK(Store.lookup(key(1)).hit());
    CHILD_CHECK(Store.store(key(4), PayloadKind::Blob, "fits", 1).status == StoreStatus::Stored);
    CHILD_CHECK(Store.lookup(key(4)).hit());
    return 0;
  });
  EXPECT_EQ(Exit, 0);
}

TEST_F(DirectoryCacheTest, ReadOnlyDirectoryStillHits) {
  expectPassesUnprivileged([&] {
    {
      DirectoryCache Writer(options());
      CHILD_CHECK(Writer.isEnabled());
      CHILD_CHECK(Writer.store(key(1), PayloadKind::Blob, "cached", 1).status ==
                  StoreStatus::Stored);
    }
    CHILD_CHECK(::chmod((CacheDir + "/00").c_str(), 0500) == 0);
    CHILD_CHECK(::chmod(CacheDir.c_str(), 0500) == 0);
    DirectoryCache Store(options());
    CHILD_CHECK(Store.isEnabled()); // read-only is not a policy violation
    LookupResult Hit = Store.lookup(key(1));
    CHILD_CHECK(Hit.hit());
    CHILD_CHECK(Hit.entry->payload->getBuffer() == "cached");
    CHILD_CHECK(Store.lookup(key(2)).status == LookupStatus::Miss);
    CHILD_CHECK(Store.store(key(2), PayloadKind::Blob, "new", 1).status == StoreStatus::Failed);
    // A new shard directory cannot be created either.
    CHILD_CHECK(
        Store.store(*CacheKey::parse("ff" + keyHex(2).substr(2)), PayloadKind::Blob, "new", 1)
            .status == StoreStatus::Failed);
    CHILD_CHECK(Warnings.size() == 1);
    CHILD_CHECK(Store.processStats().writeErrors == 2);
    CHILD_CHECK(Store.processStats().hits == 1);
    CHILD_CHECK(::chmod(CacheDir.c_str(), 0700) == 0);
    CHILD_CHECK(::chmod((CacheDir + "/00").c_str(), 0700) == 0);
    return 0;
  });
}

TEST_F(DirectoryCacheTest, UnreadableEntryIsAReadErrorWithOneWarning) {
  expectPassesUnprivileged([&] {
    DirectoryCache Store(options());
    CHILD_CHECK(Store.store(key(1), PayloadKind::Blob, "x", 1).status == StoreStatus::Stored);
    CHILD_CHECK(::chmod(entryPath(Store, 1).c_str(), 0) == 0);
    LookupResult R = Store.lookup(key(1));
    CHILD_CHECK(R.status == LookupStatus::IOError);
    CHILD_CHECK(R.detail.find("Permission denied") != std::string::npos);
    CHILD_CHECK(Store.lookup(key(1)).status == LookupStatus::IOError);
    CHILD_CHECK(Warnings.size() == 1);
    llvm::ErrorOr<CacheStats> P = Store.persistentStats();
    CHILD_CHECK(P && P->readErrors == 2 && P->misses == 2 && P->hits == 0);
    return 0;
  });
}

TEST_F(DirectoryCacheTest, DefaultWarningGoesToStderrOnce) {
  setWarningHandler(nullptr);
  ::testing::internal::CaptureStderr();
  ::mkdir(CacheDir.c_str(), 0700);
  ::chmod(CacheDir.c_str(), 0777);
  DirectoryCache A(options());
  DirectoryCache B(options());
  (void)A.lookup(key(1));
  std::string Err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(std::count(Err.begin(), Err.end(), '\n'), 1) << Err;
  EXPECT_EQ(Err.rfind("qshape-cache: warning: ", 0), 0u) << Err;
  EXPECT_NE(Err.find("only counted"), std::string::npos) << Err;
  EXPECT_EQ(problemCount(), 2u);
}

} // namespace
