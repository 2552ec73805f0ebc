//===- CacheEntryTest.cpp - Entry format and its checks -------------------===//
//
// Every way an entry file can be damaged must read as Corrupt, never as Ok
// with a wrong payload: each header byte flipped, each payload byte flipped,
// every truncation length, trailing bytes, other file types.
//
//===----------------------------------------------------------------------===//

#include "qshape/Cache/CacheEntry.h"
#include "qshape/Cache/FileUtil.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Testing/Support/SupportHelpers.h"

#include "gtest/gtest.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace qshape::cache;
using llvm::unittest::TempDir;

namespace {

CacheKey testKey(uint8_t Seed) {
  CacheKey::Digest D;
  for (size_t I = 0; I < D.size(); ++I)
    D[I] = uint8_t(Seed + I);
  return CacheKey(D);
}

std::string makeEntry(const CacheKey &Key, llvm::StringRef Payload,
                      uint32_t Version = kEntryFormatVersion) {
  EntryHeader H;
  H.formatVersion = Version;
  H.key = Key.bytes();
  H.kind = uint32_t(PayloadKind::MLIRBytecode);
  H.payloadSize = Payload.size();
  H.payloadHash = llvm::BLAKE3::hash<CacheKey::kNumBytes>(llvm::arrayRefFromStringRef(Payload));
  H.compileTimeMs = 220000;
  H.creationTime = 1700000000;
  H.producer = "qshape test";
  return encodeEntryHeader(H) + Payload.str();
}

void writeFile(llvm::StringRef Path, llvm::StringRef Bytes) {
  using namespace fileutil;
  ::unlink(Path.str().c_str());
  UniqueFD FD = openFile(Path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ASSERT_TRUE(FD.valid());
  ASSERT_FALSE(writeAll(FD.get(), Bytes));
}

class CacheEntryTest : public ::testing::Test {
protected:
  TempDir Dir{"qshape-entry-test", /*Unique=*/true};
  std::string Path = std::string(Dir.path("entry"));
  CacheKey Key = testKey(1);
  std::string Payload = "payload \x00\x01\x02 bytes";
};

TEST_F(CacheEntryTest, RoundTrip) {
  writeFile(Path, makeEntry(Key, Payload));
  EntryReadResult R = readEntryFile(Path, &Key, ReadMode::Load);
  ASSERT_EQ(R.status, ReadStatus::Ok) << R.detail;
  ASSERT_TRUE(R.payload);
  EXPECT_EQ(R.payload->getBuffer(), Payload);
  ASSERT_TRUE(R.header);
  EXPECT_EQ(R.header->key, Key.bytes());
  EXPECT_EQ(R.header->kind, uint32_t(PayloadKind::MLIRBytecode));
  EXPECT_EQ(R.header->payloadSize, Payload.size());
  EXPECT_EQ(R.header->compileTimeMs, 220000u);
  EXPECT_EQ(R.header->creationTime, 1700000000u);
  EXPECT_EQ(R.header->producer, "qshape test");
  EXPECT_EQ(R.fileSize, R.header->headerSize + Payload.size());

  EntryReadResult V = readEntryFile(Path, &Key, ReadMode::Verify);
  EXPECT_EQ(V.status, ReadStatus::Ok);
  EXPECT_FALSE(V.payload);
  EntryReadResult H = readEntryFile(Path, nullptr, ReadMode::HeaderOnly);
  EXPECT_EQ(H.status, ReadStatus::Ok);
}

TEST_F(CacheEntryTest, EmptyPayload) {
  writeFile(Path, makeEntry(Key, ""));
  EntryReadResult R = readEntryFile(Path, &Key, ReadMode::Load);
  ASSERT_EQ(R.status, ReadStatus::Ok) << R.detail;
  EXPECT_EQ(R.payload->getBufferSize(), 0u);
}

TEST_F(CacheEntryTest, LargePayloadCrossesReadChunks) {
  std::string Big(3 * (1 << 20) + 17, 'q');
  Big[2 * (1 << 20) + 5] = 'x';
  writeFile(Path, makeEntry(Key, Big));
  EntryReadResult R = readEntryFile(Path, &Key, ReadMode::Load);
  ASSERT_EQ(R.status, ReadStatus::Ok) << R.detail;
  EXPECT_EQ(R.payload->getBuffer(), Big);
  // One flipped byte in the last chunk is caught.
  std::string Bytes = makeEntry(Key, Big);
  Bytes[Bytes.size() - 3] ^= 1;
  writeFile(Path, Bytes);
  EXPECT_EQ(readEntryFile(Path, &Key, ReadMode::Verify).status, ReadStatus::Corrupt);
}

TEST_F(CacheEntryTest, MissingFileIsNotFound) {
  EXPECT_EQ(readEntryFile(Path, &Key, ReadMode::Load).status, ReadStatus::NotFound);
}

TEST_F(CacheEntryTest, EveryFlippedByteIsCorrupt) {
  std::string Good = makeEntry(Key, Payload);
  for (size_t I = 0; I < Good.size(); ++I) {
    for (uint8_t Mask : {0x01, 0x80}) {
      std::string Bad = Good;
      Bad[I] = char(uint8_t(Bad[I]) ^ Mask);
      writeFile(Path, Bad);
      EntryReadResult R = readEntryFile(Path, &Key, ReadMode::Load);
      EXPECT_EQ(R.status, ReadStatus::Corrupt)
          << "byte " << I << " mask " << int(Mask) << " read as ok";
      EXPECT_FALSE(R.payload);
      EXPECT_FALSE(R.detail.empty());
    }
  }
}

TEST_F(CacheEntryTest, EveryTruncationIsCorrupt) {
  std::string Good = makeEntry(Key, Payload);
  for (size_t Length = 0; Length < Good.size(); ++Length) {
    writeFile(Path, llvm::StringRef(Good).take_front(Length));
    EntryReadResult R = readEntryFile(Path, &Key, ReadMode::Load);
    EXPECT_EQ(R.status, ReadStatus::Corrupt) << "length " << Length;
    EXPECT_FALSE(R.payload);
  }
  writeFile(Path, "");
  EXPECT_EQ(readEntryFile(Path, &Key, ReadMode::Load).detail, "empty file");
}

TEST_F(CacheEntryTest, TrailingBytesAreCorrupt) {
  writeFile(Path, makeEntry(Key, Payload) + "x");
  EntryReadResult R = readEntryFile(Path, &Key, ReadMode::HeaderOnly);
  EXPECT_EQ(R.status, ReadStatus::Corrupt);
  EXPECT_NE(R.detail.find("trailing"), std::string::npos) << R.detail;
}

TEST_F(CacheEntryTest, WrongKeyIsCorrupt) {
  CacheKey Other = testKey(2);
  writeFile(Path, makeEntry(Other, Payload));
  EntryReadResult R = readEntryFile(Path, &Key, ReadMode::Load);
  EXPECT_EQ(R.status, ReadStatus::Corrupt);
  EXPECT_FALSE(R.payload);
  EXPECT_NE(R.detail.find("header holds key"), std::string::npos) << R.detail;
  // Without an expected key the same file is fine.
  EXPECT_EQ(readEntryFile(Path, nullptr, ReadMode::Load).status, ReadStatus::Ok);
}

TEST_F(CacheEntryTest, OtherFormatVersionIsRejected) {
  writeFile(Path, makeEntry(Key, Payload, kEntryFormatVersion + 1));
  EntryReadResult R = readEntryFile(Path, &Key, ReadMode::Load);
  EXPECT_EQ(R.status, ReadStatus::Corrupt);
  EXPECT_NE(R.detail.find("unsupported format version"), std::string::npos) << R.detail;
}

TEST_F(CacheEntryTest, HugePayloadSizeInHeaderIsNotTrusted) {
  // A header that promises 2^60 bytes, with a valid header checksum: the
  // reader must compare with the file size before allocating anything.
  EntryHeader H;
  H.key = Key.bytes();
  H.payloadSize = uint64_t(1) << 60;
  writeFile(Path, encodeEntryHeader(H) + "abc");
  EntryReadResult R = readEntryFile(Path, &Key, ReadMode::Load);
  EXPECT_EQ(R.status, ReadStatus::Corrupt);
  EXPECT_NE(R.detail.find("truncated"), std::string::npos) << R.detail;
}

TEST_F(CacheEntryTest, SymlinkFifoAndDirectoryAreCorrupt) {
  std::string Target = std::string(Dir.path("target"));
  writeFile(Target, makeEntry(Key, Payload));
  ASSERT_EQ(::symlink(Target.c_str(), Path.c_str()), 0);
  EXPECT_EQ(readEntryFile(Path, &Key, ReadMode::Load).status, ReadStatus::Corrupt);
  ::unlink(Path.c_str());

  ASSERT_EQ(::mkfifo(Path.c_str(), 0600), 0);
  // Must not block waiting for a writer.
  EXPECT_EQ(readEntryFile(Path, &Key, ReadMode::Load).status, ReadStatus::Corrupt);
  ::unlink(Path.c_str());

  ASSERT_EQ(::mkdir(Path.c_str(), 0700), 0);
  EXPECT_EQ(readEntryFile(Path, &Key, ReadMode::Load).status, ReadStatus::Corrupt);
  ::rmdir(Path.c_str());
}

TEST_F(CacheEntryTest, LongProducerIsCut) {
  EntryHeader H;
  H.key = Key.bytes();
  H.producer = std::string(1000, 'p');
  std::string Bytes = encodeEntryHeader(H);
  EXPECT_EQ(Bytes.size(), H.headerSize);
  writeFile(Path, Bytes);
  EntryReadResult R = readEntryFile(Path, &Key, ReadMode::Load);
  ASSERT_EQ(R.status, ReadStatus::Corrupt); // payload hash of "" not set
  H.payloadHash = llvm::BLAKE3::hash<CacheKey::kNumBytes>({});
  writeFile(Path, encodeEntryHeader(H));
  R = readEntryFile(Path, &Key, ReadMode::Load);
  ASSERT_EQ(R.status, ReadStatus::Ok) << R.detail;
  EXPECT_EQ(R.header->producer.size(), kMaxProducerLength);
}

/// A read of \p Remote's entry, marked fetched as the local level marks a
/// remote hit's copy, checked by \p Policy.
EntryReadResult readFetched(const EntryHeader &Remote, llvm::StringRef Payload,
                            const FetchedEntryPolicy &Policy, bool Fetched = true) {
  EntryHeader Copy = Remote;
  if (Fetched)
    Copy.flags |= kEntryFlagFetched;
  std::string Bytes = encodeEntryHeader(Copy) + Payload.str();
  EntryReadResult R = decodeEntry(Bytes, nullptr, ReadMode::Verify);
  Policy.check(R);
  return R;
}

TEST(FetchedEntryTest, TheTagSurvivesTheFetchedFlag) {
  std::optional<EntryTagKey> Team = EntryTagKey::fromSecret("the team's secret, 2026");
  EntryHeader H = makeEntryHeader(testKey(3), PayloadKind::SharedLibrary, "code", 5, &*Team);
  H.flags |= kEntryFlagFetched;
  EXPECT_TRUE(Team->verifies(H));
  std::string Bytes = encodeEntryHeader(H) + "code";
  EntryReadResult R = decodeEntry(Bytes, nullptr, ReadMode::Verify);
  ASSERT_EQ(R.status, ReadStatus::Ok) << R.detail;
  EXPECT_TRUE(R.header->fetched());
}

TEST(FetchedEntryTest, ServedOnlyWhileTheRemoteWouldServeIt) {
  std::optional<EntryTagKey> Team = EntryTagKey::fromSecret("the team's secret, 2026");
  std::optional<EntryTagKey> Other = EntryTagKey::fromSecret("another team's secret");
  EntryHeader Untagged = makeEntryHeader(testKey(4), PayloadKind::SharedLibrary, "code", 5);
  EntryHeader Tagged = makeEntryHeader(testKey(4), PayloadKind::SharedLibrary, "code", 5, &*Team);
  FetchedEntryPolicy NoKey, Insecure, WithTeam, WithOther;
  Insecure.trustUntagged = true;
  WithTeam.tagKey = Team;
  WithOther.tagKey = Other;
  // Fetched in the insecure mode, then the mode was dropped or a key set.
  EXPECT_EQ(readFetched(Untagged, "code", Insecure).status, ReadStatus::Ok);
  EXPECT_EQ(readFetched(Untagged, "code", NoKey).status, ReadStatus::Refused);
  EntryReadResult R = readFetched(Untagged, "code", WithTeam);
  EXPECT_EQ(R.status, ReadStatus::Refused);
  EXPECT_NE(R.detail.find("fetched from a remote cache"), std::string::npos) << R.detail;
  EXPECT_FALSE(R.payload);
  // Fetched with the team key: served under it, not under another.
  EXPECT_EQ(readFetched(Tagged, "code", WithTeam).status, ReadStatus::Ok);
  EXPECT_EQ(readFetched(Tagged, "code", WithOther).status, ReadStatus::Refused);
  EXPECT_EQ(readFetched(Tagged, "code", NoKey).status, ReadStatus::Refused);
  // Made on this machine: no policy applies.
  EXPECT_EQ(readFetched(Untagged, "code", WithTeam, /*Fetched=*/false).status, ReadStatus::Ok);
  EXPECT_EQ(readFetched(Untagged, "code", NoKey, /*Fetched=*/false).status, ReadStatus::Ok);
}

TEST(PayloadKindTest, NamesRoundTrip) {
  for (uint32_t K = 0; K <= uint32_t(PayloadKind::SharedLibrary); ++K) {
    std::optional<PayloadKind> Parsed = parsePayloadKind(payloadKindName(K));
    ASSERT_TRUE(Parsed) << K;
    EXPECT_EQ(uint32_t(*Parsed), K);
    EXPECT_NE(payloadKindNames().find(payloadKindName(K)), llvm::StringRef::npos);
  }
  EXPECT_EQ(payloadKindName(99), "kind-99");
  EXPECT_FALSE(parsePayloadKind("kind-99"));
}

} // namespace
