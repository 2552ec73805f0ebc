//===- CacheBackendTest.cpp - The backend interface and its levels --------===//
//
// What every level promises through CacheBackend: entries decoded from bytes
// are checked like files, tags bind an entry to the team key, remote URLs
// parse strictly, a layered cache fills L1 from a remote hit and stores to
// both, lookupToFile() writes only verified payloads, and key locks give
// single flight across processes.
//
//===----------------------------------------------------------------------===//

#include "qshape/Cache/CacheBackend.h"
#include "qshape/Cache/Diagnostics.h"
#include "qshape/Cache/DirectoryCache.h"
#include "qshape/Cache/FileUtil.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Testing/Support/SupportHelpers.h"

#include "gtest/gtest.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <map>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace qshape::cache;
using namespace qshape::cache::fileutil;
using llvm::unittest::TempDir;

namespace {

/// A valid key built from a number; a reference, so &key(N) can be passed.
const CacheKey &key(unsigned N) {
  static std::map<unsigned, CacheKey> Keys;
  char Buffer[65];
  std::snprintf(Buffer, sizeof(Buffer), "%064x", N);
  return Keys.emplace(N, *CacheKey::parse(Buffer)).first->second;
}

/// The message of a failed Expected, or "<succeeded>".
template <typename T> std::string failureOf(llvm::Expected<T> Value) {
  if (Value)
    return "<succeeded>";
  return llvm::toString(Value.takeError());
}
#define EXPECT_FAILS_WITH(Expr, Text)                                                              \
  do {                                                                                             \
    std::string Message = failureOf(Expr);                                                         \
    EXPECT_NE(Message.find(Text), std::string::npos) << Message;                                   \
  } while (false)

std::string encode(EntryHeader H, llvm::StringRef Payload) {
  return encodeEntryHeader(H) + Payload.str();
}

std::string readFile(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

/// Sets (or, with nullptr, unsets) an environment variable for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char *Name, const char *Value) : Name(Name) {
    if (const char *Old = std::getenv(Name))
      Saved = Old;
    if (Value)
      ::setenv(Name, Value, 1);
    else
      ::unsetenv(Name);
  }
  ~ScopedEnv() {
    if (Saved)
      ::setenv(Name, Saved->c_str(), 1);
    else
      ::unsetenv(Name);
  }

private:
  const char *Name;
  std::optional<std::string> Saved;
};

/// Tests must not see a developer's remote or team key.
class CleanEnvironment : public ::testing::Test {
protected:
  ScopedEnv Remote{"QSHAPE_CACHE_REMOTE", nullptr};
  ScopedEnv Key{"QSHAPE_CACHE_REMOTE_KEY", nullptr};
  ScopedEnv KeyFile{"QSHAPE_CACHE_REMOTE_KEY_FILE", nullptr};
  ScopedEnv PasswordFile{"QSHAPE_CACHE_REMOTE_PASSWORD_FILE", nullptr};
  ScopedEnv MaxSize{"QSHAPE_CACHE_MAX_SIZE", nullptr};
};

//===----------------------------------------------------------------------===//
// Entries in memory, and their tags
//===----------------------------------------------------------------------===//

TEST(EntryBytesTest, DecodeChecksWhatReadEntryFileChecks) {
  std::string Payload = "payload \x00\x01 bytes";
  std::string Bytes =
      encode(makeEntryHeader(key(1), PayloadKind::MLIRBytecode, Payload, 42), Payload);
  EntryReadResult R = decodeEntry(Bytes, &key(1), ReadMode::Load);
  ASSERT_EQ(R.status, ReadStatus::Ok) << R.detail;
  EXPECT_EQ(R.payload->getBuffer(), Payload);
  EXPECT_EQ(R.header->compileTimeMs, 42u);
  EXPECT_EQ(R.fileSize, Bytes.size());

  // Every flipped byte, every cut and any extra byte is corrupt.
  for (size_t I = 0; I < Bytes.size(); ++I) {
    std::string Bad = Bytes;
    Bad[I] ^= 0x20;
    EXPECT_EQ(decodeEntry(Bad, &key(1), ReadMode::Verify).status, ReadStatus::Corrupt)
        << "flipped byte " << I;
  }
  for (size_t N = 0; N < Bytes.size(); ++N)
    EXPECT_EQ(decodeEntry(llvm::StringRef(Bytes).take_front(N), &key(1), ReadMode::Verify).status,
              ReadStatus::Corrupt)
        << "cut to " << N;
  EXPECT_EQ(decodeEntry(Bytes + "x", &key(1), ReadMode::Verify).status, ReadStatus::Corrupt);
  EntryReadResult Other = decodeEntry(Bytes, &key(2), ReadMode::Verify);
  EXPECT_EQ(Other.status, ReadStatus::Corrupt);
  EXPECT_NE(Other.detail.find("not the requested one"), std::string::npos);
}

TEST(EntryBytesTest, TagsBindTheEntryToTheTeamKey) {
  std::optional<EntryTagKey> Team = EntryTagKey::fromSecret("correct horse battery staple");
  std::optional<EntryTagKey> Other = EntryTagKey::fromSecret("another team's secret, 32 chars");
  ASSERT_TRUE(Team && Other);
  EXPECT_FALSE(Team == *Other);
  EXPECT_FALSE(EntryTagKey::fromSecret("too short"));
  EXPECT_TRUE(*EntryTagKey::fromSecret("correct horse battery staple") ==
              *Team); // derived, not random

  std::string Payload = "shared library bytes";
  EntryHeader Tagged = makeEntryHeader(key(1), PayloadKind::SharedLibrary, Payload, 7, &*Team);
  EXPECT_TRUE(Tagged.tagged());
  EXPECT_TRUE(Team->verifies(Tagged));
  EXPECT_FALSE(Other->verifies(Tagged));

  EntryHeader Untagged = makeEntryHeader(key(1), PayloadKind::SharedLibrary, Payload, 7);
  EXPECT_FALSE(Untagged.tagged());
  EXPECT_FALSE(Team->verifies(Untagged));

  // Any field changed after signing breaks the tag: the payload's hash, the
  // key, the kind, the compile time.
  for (auto Change : std::vector<std::function<void(EntryHeader &)>>{
           [](EntryHeader &H) { H.payloadHash[0] ^= 1; }, [](EntryHeader &H) { H.key[31] ^= 1; },
           [](EntryHeader &H) { H.kind = uint32_t(PayloadKind::Blob); },
           [](EntryHeader &H) { H.compileTimeMs += 1; }, [](EntryHeader &H) { H.tag[5] ^= 1; }}) {
    EntryHeader H = Tagged;
    Change(H);
    EXPECT_FALSE(Team->verifies(H));
  }

  // checkEntryTag: a reader with the key refuses untagged and other-key
  // entries (intact ones: a checksum failure stays Corrupt); a reader
  // without a key accepts both.
  std::string TaggedBytes = encode(Tagged, Payload);
  std::string UntaggedBytes = encode(Untagged, Payload);
  std::string OtherBytes =
      encode(makeEntryHeader(key(1), PayloadKind::SharedLibrary, Payload, 7, &*Other), Payload);
  auto Check = [&](const std::string &Bytes, const EntryTagKey *K) {
    EntryReadResult R = decodeEntry(Bytes, &key(1), ReadMode::Load);
    checkEntryTag(R, K);
    return R;
  };
  EXPECT_EQ(Check(TaggedBytes, &*Team).status, ReadStatus::Ok);
  EntryReadResult NoTag = Check(UntaggedBytes, &*Team);
  EXPECT_EQ(NoTag.status, ReadStatus::Refused);
  EXPECT_FALSE(NoTag.payload) << "a refused payload is never handed out";
  EXPECT_NE(NoTag.detail.find("no authenticity tag"), std::string::npos);
  EntryReadResult WrongKey = Check(OtherBytes, &*Team);
  EXPECT_EQ(WrongKey.status, ReadStatus::Refused);
  EXPECT_NE(WrongKey.detail.find("does not verify"), std::string::npos);
  EXPECT_EQ(Check(UntaggedBytes, nullptr).status, ReadStatus::Ok);
  EXPECT_EQ(Check(OtherBytes, nullptr).status, ReadStatus::Ok);
}

//===----------------------------------------------------------------------===//
// Remote URLs
//===----------------------------------------------------------------------===//

class RemoteOptionsTest : public CleanEnvironment {
protected:
  TempDir Dir{"qshape-remote-options", /*Unique=*/true};
};

TEST_F(RemoteOptionsTest, FullUrl) {
  llvm::Expected<RemoteOptions> O =
      RemoteOptions::parse("redis://ci:s%40cret@cache.example:6380/3?prefix=team-a&read-only&"
                           "ttl=7d&connect-timeout=250ms&timeout=5s&retry-after=2m&"
                           "max-entry-size=16M");
  ASSERT_TRUE(bool(O)) << llvm::toString(O.takeError());
  EXPECT_EQ(O->host, "cache.example");
  EXPECT_EQ(O->port, 6380u);
  EXPECT_EQ(O->database, 3u);
  EXPECT_EQ(O->user, "ci");
  EXPECT_EQ(O->password, "s@cret");
  EXPECT_EQ(O->prefix, "team-a");
  EXPECT_TRUE(O->readOnly);
  EXPECT_EQ(O->ttlSeconds, 7u * 24 * 3600);
  EXPECT_EQ(O->connectTimeoutMs, 250u);
  EXPECT_EQ(O->operationTimeoutMs, 5000u);
  EXPECT_EQ(O->retryAfterSeconds, 120u);
  EXPECT_EQ(O->maxEntryBytes, 16u << 20);
  EXPECT_FALSE(O->tagKey);
  // The description names everything but the secret.
  std::string Text = O->describe();
  EXPECT_EQ(Text.find("s@cret"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("s%40cret"), std::string::npos) << Text;
  EXPECT_EQ(Text, "redis://ci@cache.example:6380/3?prefix=team-a&read-only&"
                  "ttl=7d&connect-timeout=250ms&timeout=5s&retry-after=2m&"
                  "max-entry-size=16777216");
}

TEST_F(RemoteOptionsTest, Defaults) {
  llvm::Expected<RemoteOptions> O = RemoteOptions::parse("redis://10.0.0.5");
  ASSERT_TRUE(bool(O)) << llvm::toString(O.takeError());
  EXPECT_EQ(O->port, 6379u);
  EXPECT_EQ(O->database, 0u);
  EXPECT_EQ(O->prefix, "qshape");
  EXPECT_FALSE(O->readOnly);
  EXPECT_EQ(O->ttlSeconds, 0u);
  EXPECT_EQ(O->connectTimeoutMs, 100u);
  EXPECT_EQ(O->operationTimeoutMs, 1000u);
  EXPECT_EQ(O->retryAfterSeconds, 60u);
  EXPECT_EQ(O->maxEntryBytes, kDefaultRemoteMaxEntryBytes);
  EXPECT_EQ(O->describe(), "redis://10.0.0.5:6379/0");
  llvm::Expected<RemoteOptions> V6 = RemoteOptions::parse("redis://[::1]:7000?retry-after=never");
  ASSERT_TRUE(bool(V6)) << llvm::toString(V6.takeError());
  EXPECT_EQ(V6->host, "::1");
  EXPECT_EQ(V6->port, 7000u);
  EXPECT_FALSE(V6->retryAfterSeconds);
  EXPECT_EQ(V6->describe(), "redis://[::1]:7000/0?retry-after=never");
}

TEST_F(RemoteOptionsTest, SecretsFromFiles) {
  std::string PasswordPath = std::string(Dir.path("password"));
  {
    std::ofstream(PasswordPath) << "from-file\n";
  }
  llvm::Expected<RemoteOptions> O =
      RemoteOptions::parse("redis://ci@h:1?password-file=" + PasswordPath);
  ASSERT_TRUE(bool(O)) << llvm::toString(O.takeError());
  EXPECT_EQ(O->user, "ci");
  EXPECT_EQ(O->password, "from-file");
  {
    ScopedEnv File("QSHAPE_CACHE_REMOTE_PASSWORD_FILE", PasswordPath.c_str());
    llvm::Expected<RemoteOptions> E = RemoteOptions::parse("redis://h:1");
    ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
    EXPECT_EQ(E->password, "from-file");
  }
  EXPECT_FAILS_WITH(RemoteOptions::parse("redis://:inline@h:1?password-file=" + PasswordPath),
                    "give one");
  EXPECT_FAILS_WITH(RemoteOptions::parse("redis://h:1?password-file=/no/such/file"),
                    "cannot read the password");

  std::string KeyPath = std::string(Dir.path("key"));
  {
    std::ofstream(KeyPath) << "a-team-secret-of-enough-length\n";
  }
  {
    ScopedEnv Key("QSHAPE_CACHE_REMOTE_KEY", "a-team-secret-of-enough-length");
    llvm::Expected<RemoteOptions> FromEnv = RemoteOptions::parse("redis://h");
    ASSERT_TRUE(bool(FromEnv)) << llvm::toString(FromEnv.takeError());
    ASSERT_TRUE(FromEnv->tagKey);
    ScopedEnv KeyFile("QSHAPE_CACHE_REMOTE_KEY_FILE", KeyPath.c_str());
    EXPECT_FAILS_WITH(RemoteOptions::parse("redis://h"), "set one");
  }
  {
    ScopedEnv KeyFile("QSHAPE_CACHE_REMOTE_KEY_FILE", KeyPath.c_str());
    llvm::Expected<RemoteOptions> FromFile = RemoteOptions::parse("redis://h");
    ASSERT_TRUE(bool(FromFile)) << llvm::toString(FromFile.takeError());
    ASSERT_TRUE(FromFile->tagKey);
    // The file's line end is not part of the secret.
    EXPECT_TRUE(*FromFile->tagKey == *EntryTagKey::fromSecret("a-team-secret-of-enough-length"));
  }
  {
    ScopedEnv Key("QSHAPE_CACHE_REMOTE_KEY", "short");
    EXPECT_FAILS_WITH(RemoteOptions::parse("redis://h"), "use at least 16");
  }
}

TEST_F(RemoteOptionsTest, BadUrlsSayWhatToFix) {
  struct Case {
    const char *Url, *Message;
  } Cases[] = {
      {"http://h", "is not a remote cache URL"},
      {"rediss://h", "TLS (rediss://) is not supported"},
      {"redis://", "names no host"},
      {"redis://h:0", "port '0' is not a number in 1..65535"},
      {"redis://h:99999", "is not a number in 1..65535"},
      {"redis://h/x", "database 'x' is not a number"},
      {"redis://h?ttl=soon", "ttl='soon' is not a duration"},
      {"redis://h?timeout=0", "between 1ms and 1h"},
      {"redis://h?prefix=a*b", "is not a key prefix"},
      {"redis://h?max-entry-size=1G", "between 1 and 512M"},
      {"redis://h?colour=blue", "unknown attribute 'colour'"},
      {"redis://[::1", "unterminated '['"},
      {"redis://u:%zz@h", "bad %-escape"},
  };
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.Url);
    EXPECT_FAILS_WITH(RemoteOptions::parse(C.Url), C.Message);
  }
}

TEST(DurationTest, Units) {
  EXPECT_EQ(parseDurationMs("250ms", 1), 250u);
  EXPECT_EQ(parseDurationMs("3s", 1), 3000u);
  EXPECT_EQ(parseDurationMs("5m", 1), 300000u);
  EXPECT_EQ(parseDurationMs("2h", 1), 7200000u);
  EXPECT_EQ(parseDurationMs("7d", 1), 604800000u);
  EXPECT_EQ(parseDurationMs("40", 1), 40u);
  EXPECT_EQ(parseDurationMs("40", 1000), 40000u);
  EXPECT_FALSE(parseDurationMs("", 1));
  EXPECT_FALSE(parseDurationMs("1.5s", 1));
  EXPECT_FALSE(parseDurationMs("3w", 1));
  EXPECT_FALSE(parseDurationMs("-1s", 1));
}

//===----------------------------------------------------------------------===//
// Opening
//===----------------------------------------------------------------------===//

class OpenTest : public CleanEnvironment {
protected:
  void SetUp() override {
    resetProblemsForTesting();
    Previous = setWarningHandler([this](llvm::StringRef M) { Warnings.push_back(M.str()); });
  }
  void TearDown() override {
    setWarningHandler(std::move(Previous));
    resetProblemsForTesting();
  }
  TempDir Root{"qshape-open-test", /*Unique=*/true};
  std::vector<std::string> Warnings;
  WarningHandler Previous;
};

TEST_F(OpenTest, FileUrlsOpenADirectory) {
  std::string Dir = std::string(Root.path("c"));
  for (std::string Url : {"file:" + Dir, "file://" + Dir}) {
    llvm::Expected<std::unique_ptr<CacheBackend>> B = openCacheBackend(Url);
    ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
    EXPECT_EQ((*B)->describe(), "file:" + Dir);
    ASSERT_TRUE((*B)->maintenance());
    EXPECT_EQ((*B)->maintenance()->directory(), Dir);
    EXPECT_TRUE((*B)->inventory());
    EXPECT_FALSE((*B)->remoteLevel());
  }
  EXPECT_FAILS_WITH(openCacheBackend("s3://bucket"),
                    "is not a cache URL; use file:DIR or redis://");
}

TEST_F(OpenTest, OneBackendPerConfigurationAndProcess) {
  CacheConfig A;
  A.local.directory = std::string(Root.path("a"));
  A.remote = "off";
  CacheConfig B = A;
  B.local.directory = std::string(Root.path("b"));
  std::shared_ptr<CacheBackend> A1 = openCache(A), A2 = openCache(A);
  EXPECT_EQ(A1.get(), A2.get());
  EXPECT_NE(openCache(B).get(), A1.get());
  EXPECT_FALSE(A1->remoteLevel()) << "remote=off";
}

TEST_F(OpenTest, BadRemoteFromTheEnvironmentWarnsOnceAndKeepsTheDirectory) {
  ScopedEnv Remote("QSHAPE_CACHE_REMOTE", "redis://h:notaport");
  CacheConfig C;
  C.local.directory = std::string(Root.path("env"));
  std::string Error;
  std::shared_ptr<CacheBackend> Opened = openCache(C, &Error);
  EXPECT_NE(Error.find("port 'notaport'"), std::string::npos) << Error;
  ASSERT_TRUE(Opened->isEnabled());
  EXPECT_TRUE(Opened->maintenance());
  EXPECT_FALSE(Opened->remoteLevel());
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_NE(Warnings[0].find("QSHAPE_CACHE_REMOTE: "), std::string::npos);
  EXPECT_NE(Warnings[0].find("using the local cache only"), std::string::npos);
  EXPECT_TRUE(Opened->store(key(1), PayloadKind::Blob, "x", 1).stored());
}

//===----------------------------------------------------------------------===//
// Layered: L1 in front of a remote
//===----------------------------------------------------------------------===//

/// A remote in memory: stores encoded bytes and checks them on the way back
/// like a real remote level does.
class MemoryRemote final : public CacheBackend {
public:
  std::string describe() const override { return "memory:"; }
  bool isEnabled() const override { return true; }
  std::string disabledReason() const override { return ""; }
  const EntryTagKey *tagKey() const override { return Key ? &*Key : nullptr; }
  LookupResult lookup(const CacheKey &K) override {
    ++Lookups;
    LookupResult R;
    auto It = Values.find(K.hex());
    if (It == Values.end())
      return R;
    EntryReadResult Read = decodeEntry(It->second, &K, ReadMode::Load);
    checkEntryTag(Read, tagKey());
    if (Read.status == ReadStatus::Refused) {
      R.status = LookupStatus::Refused;
      return R;
    }
    if (Read.status != ReadStatus::Ok) {
      R.status = LookupStatus::Corrupt;
      return R;
    }
    R.status = LookupStatus::Hit;
    R.level = CacheLevel::Remote;
    R.entry = CacheEntry{*Read.header, std::move(Read.payload)};
    return R;
  }
  StoreResult storeEntry(const EntryHeader &Header, llvm::StringRef Payload) override {
    EntryHeader H = Header;
    Values[CacheKey(H.key).hex()] = encodeEntryHeader(H) + Payload.str();
    return {};
  }
  CacheStats processStats() const override { return {}; }

  std::optional<EntryTagKey> Key;
  llvm::StringMap<std::string> Values;
  unsigned Lookups = 0;
};

class LayeredTest : public CleanEnvironment {
protected:
  void SetUp() override {
    DirectoryOptions O;
    O.directory = std::string(Root.path("l1"));
    O.fetched = FetchedEntryPolicy{EntryTagKey::fromSecret("the team secret for tests")};
    auto L1 = std::make_unique<DirectoryCache>(O);
    Local = L1.get();
    auto L2 = std::make_unique<MemoryRemote>();
    Remote = L2.get();
    Remote->Key = O.fetched->tagKey;
    Cache = makeLayeredCache(std::move(L1), std::move(L2));
  }
  TempDir Root{"qshape-layered-test", /*Unique=*/true};
  DirectoryCache *Local = nullptr;
  MemoryRemote *Remote = nullptr;
  std::unique_ptr<CacheBackend> Cache;
};

TEST_F(LayeredTest, StoreWritesTheSameTaggedBytesToBothLevels) {
  ASSERT_TRUE(Cache->store(key(1), PayloadKind::SharedLibrary, "lib", 9).stored());
  std::string File = readFile(Local->entryPath(key(1)));
  ASSERT_EQ(Remote->Values.count(key(1).hex()), 1u);
  EXPECT_EQ(File, Remote->Values[key(1).hex()]);
  EntryReadResult R = decodeEntry(File, &key(1), ReadMode::HeaderOnly);
  ASSERT_EQ(R.status, ReadStatus::Ok);
  EXPECT_TRUE(Remote->Key->verifies(*R.header));
  EXPECT_NE(Cache->describe().find(" + memory:"), std::string::npos);
}

TEST_F(LayeredTest, LocalHitNeverAsksTheRemote) {
  ASSERT_TRUE(Cache->store(key(1), PayloadKind::Blob, "x", 1).stored());
  LookupResult R = Cache->lookup(key(1));
  ASSERT_TRUE(R.hit());
  EXPECT_EQ(R.level, CacheLevel::Local);
  EXPECT_EQ(Remote->Lookups, 0u);
}

TEST_F(LayeredTest, RemoteHitFillsLocalWithAFetchedCopy) {
  // Another machine stored it: only the remote has it.
  EntryHeader H = makeEntryHeader(key(2), PayloadKind::MLIRBytecode, "ir", 50, &*Remote->Key);
  ASSERT_TRUE(Remote->storeEntry(H, "ir").stored());
  LookupResult R = Cache->lookup(key(2));
  ASSERT_TRUE(R.hit());
  EXPECT_EQ(R.level, CacheLevel::Remote);
  EXPECT_EQ(R.entry->payload->getBuffer(), "ir");
  // The copy: the remote's header and payload, marked fetched, its tag kept.
  EntryReadResult Copy = decodeEntry(readFile(Local->entryPath(key(2))), &key(2), ReadMode::Load);
  ASSERT_EQ(Copy.status, ReadStatus::Ok) << Copy.detail;
  EXPECT_TRUE(Copy.header->fetched());
  EXPECT_TRUE(Remote->Key->verifies(*Copy.header));
  EXPECT_EQ(Copy.header->tag, H.tag);
  EXPECT_EQ(Copy.payload->getBuffer(), "ir");
  LookupResult Again = Cache->lookup(key(2));
  ASSERT_TRUE(Again.hit());
  EXPECT_EQ(Again.level, CacheLevel::Local);
  EXPECT_EQ(Remote->Lookups, 1u);
}

TEST_F(LayeredTest, AFetchedCopyTheKeyRefusesIsAskedForAgain) {
  // Fetched when anything was trusted: untagged, in L1 as a fetched copy.
  EntryHeader H = makeEntryHeader(key(6), PayloadKind::SharedLibrary, "bad", 1);
  H.flags |= kEntryFlagFetched;
  ASSERT_TRUE(Local->storeEntry(H, "bad").stored());
  // Today the team key is set: the copy is refused, the remote answers.
  ASSERT_TRUE(
      Remote
          ->storeEntry(
              makeEntryHeader(key(6), PayloadKind::SharedLibrary, "good", 1, &*Remote->Key), "good")
          .stored());
  LookupResult R = Cache->lookup(key(6));
  ASSERT_TRUE(R.hit());
  EXPECT_EQ(R.level, CacheLevel::Remote);
  EXPECT_EQ(R.entry->payload->getBuffer(), "good");
  EXPECT_EQ(Local->processStats().remoteRefused, 1u);
  EXPECT_EQ(Local->inventory()->checkEntry(key(6)).status, ReadStatus::Ok)
      << "the remote's good entry replaced the copy";
}

TEST_F(LayeredTest, BadRemoteEntriesAreMissesAndAreReplacedByTheStore) {
  // Corrupt bytes, an untagged entry, an entry of another team key.
  std::string Corrupt =
      encode(makeEntryHeader(key(3), PayloadKind::Blob, "payload", 1, &*Remote->Key), "payload");
  Corrupt.back() ^= 1;
  Remote->Values[key(3).hex()] = Corrupt;
  Remote->Values[key(4).hex()] = encode(makeEntryHeader(key(4), PayloadKind::Blob, "p", 1), "p");
  std::optional<EntryTagKey> Other = EntryTagKey::fromSecret("somebody else's secret");
  Remote->Values[key(5).hex()] =
      encode(makeEntryHeader(key(5), PayloadKind::Blob, "p", 1, &*Other), "p");
  EXPECT_EQ(Cache->lookup(key(3)).status, LookupStatus::Corrupt);
  EXPECT_EQ(Cache->lookup(key(4)).status, LookupStatus::Refused);
  EXPECT_EQ(Cache->lookup(key(5)).status, LookupStatus::Refused);
  for (unsigned N : {3u, 4u, 5u}) {
    EXPECT_FALSE(llvm::sys::fs::exists(Local->entryPath(key(N))))
        << "a bad remote entry never reaches L1";
    ASSERT_TRUE(Cache->store(key(N), PayloadKind::Blob, "good", 1).stored());
    EntryReadResult Fixed = decodeEntry(Remote->Values[key(N).hex()], &key(N), ReadMode::Verify);
    ASSERT_EQ(Fixed.status, ReadStatus::Ok);
    EXPECT_TRUE(Remote->Key->verifies(*Fixed.header));
  }
}

//===----------------------------------------------------------------------===//
// lookupToFile and single flight
//===----------------------------------------------------------------------===//

class DirectoryLevelTest : public CleanEnvironment {
protected:
  DirectoryOptions options() {
    DirectoryOptions O;
    O.directory = CacheDir;
    return O;
  }
  TempDir Root{"qshape-level-test", /*Unique=*/true};
  std::string CacheDir = std::string(Root.path("c"));
};

TEST_F(DirectoryLevelTest, LookupToFileWritesOnlyVerifiedPayloads) {
  DirectoryCache Store(options());
  std::string Out = std::string(Root.path("out.so"));
  EXPECT_EQ(Store.lookupToFile(key(1), Out, 0755).status, LookupStatus::Miss);
  EXPECT_FALSE(llvm::sys::fs::exists(Out));
  ASSERT_TRUE(Store
                  .store(key(1), PayloadKind::SharedLibrary,
                         "\x7f"
                         "ELF",
                         3)
                  .stored());
  LookupResult R = Store.lookupToFile(key(1), Out, 0755);
  ASSERT_TRUE(R.hit());
  EXPECT_EQ(readFile(Out), "\x7f"
                           "ELF");
  struct stat St;
  ASSERT_EQ(::stat(Out.c_str(), &St), 0);
  EXPECT_EQ(St.st_mode & 07777, 0755u);
  // A damaged entry: no file is written, the old one stays.
  std::string Path = Store.entryPath(key(1));
  std::string Bytes = readFile(Path);
  Bytes.back() ^= 1;
  {
    std::ofstream(Path, std::ios::binary | std::ios::trunc) << Bytes;
  }
  std::string Fresh = std::string(Root.path("fresh.so"));
  EXPECT_EQ(Store.lookupToFile(key(1), Fresh, 0755).status, LookupStatus::Corrupt);
  EXPECT_FALSE(llvm::sys::fs::exists(Fresh));
  // No temp file is left next to the output.
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator I(Root.path(), EC), E; I != E && !EC; I.increment(EC))
    EXPECT_EQ(llvm::StringRef(I->path()).find(".tmp-"), llvm::StringRef::npos) << I->path();
}

/// Runs \p Body in a forked child; returns its pid.
pid_t spawn(llvm::function_ref<int()> Body) {
  std::fflush(nullptr);
  pid_t Pid = ::fork();
  if (Pid == 0)
    ::_exit(Body());
  return Pid;
}

int waitExit(pid_t Pid) {
  int Status = 0;
  ::waitpid(Pid, &Status, 0);
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
}

TEST_F(DirectoryLevelTest, KeyLockIsSingleFlightAcrossProcesses) {
  using namespace std::chrono;
  DirectoryCache Store(options());
  KeyLockResult First = Store.lockKey(key(1), milliseconds(0));
  ASSERT_EQ(First.result, KeyLockResult::State::Acquired) << First.detail;
  // Another process: a short wait times out; another key is free.
  EXPECT_EQ(waitExit(spawn([&] {
              DirectoryCache Own(options());
              KeyLockResult R = Own.lockKey(key(1), milliseconds(50));
              KeyLockResult Other = Own.lockKey(key(2), milliseconds(0));
              return R.result == KeyLockResult::State::TimedOut && !R.acquired() &&
                             Other.result == KeyLockResult::State::Acquired
                         ? 0
                         : 1;
            })),
            0);
  // A waiter gets the lock once it is released, and knows it waited (so
  // it looks up again before compiling).
  pid_t Waiter = spawn([&] {
    DirectoryCache Own(options());
    KeyLockResult R = Own.lockKey(key(1), seconds(30));
    return R.result == KeyLockResult::State::AcquiredAfterWait ? 0 : 1;
  });
  ::usleep(100 * 1000);
  First.lock.reset();
  EXPECT_EQ(waitExit(Waiter), 0);
  EXPECT_FALSE(llvm::sys::fs::exists(CacheDir + "/locks/" + key(1).hex()))
      << "the holder removes its lock file";
}

TEST_F(DirectoryLevelTest, KeyLockIsHandedOnThroughItsDescriptor) {
  using namespace std::chrono;
  DirectoryCache Store(options());
  KeyLockResult Held = Store.lockKey(key(3), milliseconds(0));
  ASSERT_TRUE(Held.acquired()) << Held.detail;
  int FD = Held.lock->inheritableDescriptor();
  ASSERT_GE(FD, 0);
  EXPECT_EQ(::fcntl(FD, F_GETFD) & FD_CLOEXEC, 0) << "kept across exec()";
  // What the program after the exec() does: it adopts the descriptor; the
  // key stays locked for everyone else, and closing it sets CLOEXEC again.
  DirectoryCache After(options());
  EXPECT_FALSE(After.adoptKeyLock(key(4), FD).acquired()) << "another key's lock";
  EXPECT_FALSE(After.adoptKeyLock(key(3), -1).acquired());
  // The exec()ed program owns the descriptor now; the old one's object is
  // never destroyed. It stays reachable from a heap vector that is itself
  // never destroyed: a static vector's destructor would run before the leak
  // checker does and leave the object unreachable.
  static auto *Execed = new std::vector<KeyLock *>;
  Execed->push_back(Held.lock.release());
  KeyLockResult Adopted = After.adoptKeyLock(key(3), FD);
  ASSERT_EQ(Adopted.result, KeyLockResult::State::Acquired) << Adopted.detail;
  EXPECT_NE(::fcntl(FD, F_GETFD) & FD_CLOEXEC, 0);
  EXPECT_EQ(waitExit(spawn([&] {
              DirectoryCache Own(options());
              return Own.lockKey(key(3), milliseconds(50)).result == KeyLockResult::State::TimedOut
                         ? 0
                         : 1;
            })),
            0);
  Adopted.lock.reset();
  EXPECT_TRUE(Store.lockKey(key(3), milliseconds(0)).acquired());
  // A descriptor that is not a held lock is refused and left open.
  int Other = ::open(CacheDir.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(Other, 0);
  EXPECT_FALSE(After.adoptKeyLock(key(3), Other).acquired());
  EXPECT_GE(::fcntl(Other, F_GETFD), 0);
  ::close(Other);
}

TEST_F(DirectoryLevelTest, KeyLockOfAKilledHolderIsFreeAtOnce) {
  using namespace std::chrono;
  DirectoryCache Store(options());
  int Ready[2];
  ASSERT_EQ(::pipe(Ready), 0);
  pid_t Holder = spawn([&] {
    DirectoryCache Own(options());
    KeyLockResult R = Own.lockKey(key(7), milliseconds(0));
    char C = R.acquired() ? 'y' : 'n';
    (void)::write(Ready[1], &C, 1);
    ::pause(); // holds the lock until killed
    return 0;
  });
  char C = 0;
  ASSERT_EQ(::read(Ready[0], &C, 1), 1);
  ASSERT_EQ(C, 'y');
  EXPECT_EQ(Store.lockKey(key(7), milliseconds(0)).result, KeyLockResult::State::TimedOut);
  ::kill(Holder, SIGKILL);
  waitExit(Holder);
  // The kernel dropped the flock; the file the dead holder left is reused.
  KeyLockResult After = Store.lockKey(key(7), seconds(10));
  EXPECT_TRUE(After.acquired()) << After.detail;
  ::close(Ready[0]);
  ::close(Ready[1]);
}

TEST_F(DirectoryLevelTest, CleanupRemovesOnlyOldUnheldKeyLocks) {
  using namespace std::chrono;
  DirectoryCache Store(options());
  KeyLockResult Held = Store.lockKey(key(1), milliseconds(0));
  ASSERT_TRUE(Held.acquired());
  // A lock file a killed process left an hour ago, and one held for as long.
  std::string Left = CacheDir + "/locks/" + key(2).hex();
  {
    std::ofstream(Left) << "";
  }
  struct timespec Old[2] = {{::time(nullptr) - 7200, 0}, {::time(nullptr) - 7200, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, Left.c_str(), Old, 0), 0);
  std::string HeldPath = CacheDir + "/locks/" + key(1).hex();
  ASSERT_EQ(::utimensat(AT_FDCWD, HeldPath.c_str(), Old, 0), 0);
  ASSERT_EQ(Store.prune().result, CleanupResult::State::Done);
  EXPECT_FALSE(llvm::sys::fs::exists(Left));
  EXPECT_TRUE(llvm::sys::fs::exists(HeldPath));
}

} // namespace
