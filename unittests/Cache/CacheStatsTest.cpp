//===- CacheStatsTest.cpp - The shared stats file -------------------------===//

#include "qshape/Cache/CacheStats.h"

#include "llvm/Testing/Support/SupportHelpers.h"

#include "gtest/gtest.h"

#include <fstream>

using namespace qshape::cache;
using llvm::unittest::TempDir;

namespace {

TEST(CacheStatsTest, SerializeParseRoundTrip) {
  CacheStats S;
  S.hits = 1;
  S.misses = 2;
  S.corrupt = 3;
  S.readErrors = 4;
  S.writeErrors = 5;
  S.evictions = 6;
  S.stores = 7;
  S.bytesStored = 8;
  S.compileTimeSavedMs = 9;
  S.sizeBytes = 10;
  S.entries = 11;
  S.lastCleanupTime = 12;
  CacheStats P = parseStats(serializeStats(S));
  EXPECT_EQ(serializeStats(P), serializeStats(S));
  EXPECT_EQ(P.hits, 1u);
  EXPECT_EQ(P.lastCleanupTime, 12u);
}

TEST(CacheStatsTest, RemoteCountersArePersistedAndAdded) {
  CacheStats S;
  S.remoteHits = 21;
  S.remoteMisses = 22;
  S.remoteCorrupt = 23;
  S.remoteRefused = 24;
  S.remoteErrors = 25;
  S.remoteTimeouts = 26;
  S.remoteTooLarge = 27;
  S.remoteSkipped = 28;
  S.remoteStores = 29;
  S.remoteBytesStored = 30;
  CacheStats P = parseStats(serializeStats(S));
  EXPECT_EQ(serializeStats(P), serializeStats(S));
  EXPECT_NE(serializeStats(S).find("remote_timeouts 26\n"), std::string::npos);
  CacheStats Sum;
  Sum.addCounters(S);
  Sum.addCounters(S);
  EXPECT_EQ(Sum.remoteHits, 42u);
  EXPECT_EQ(Sum.remoteBytesStored, 60u);
  // Hits of the remote over the lookups that reached it.
  EXPECT_DOUBLE_EQ(S.remoteHitRate(), 21.0 / (21 + 22 + 23 + 24));
}

TEST(CacheStatsTest, DamagedTextLosesCountsNotTheProcess) {
  EXPECT_EQ(parseStats("").hits, 0u);
  EXPECT_EQ(parseStats("garbage\nhits 5\n").hits, 0u); // no header: ignored
  CacheStats P = parseStats("qshape-cache-stats 1\nhits 5\nmisses x\n"
                            "unknown 3\nstores 99999999999999999999999\ncor");
  EXPECT_EQ(P.hits, 5u);
  EXPECT_EQ(P.misses, 0u);
  EXPECT_EQ(P.stores, 0u);
}

TEST(CacheStatsTest, HitRateAndAddCounters) {
  CacheStats S;
  EXPECT_EQ(S.hitRate(), 0.0);
  S.hits = 3;
  S.misses = 1;
  EXPECT_DOUBLE_EQ(S.hitRate(), 0.75);
  CacheStats Delta;
  Delta.hits = 1;
  Delta.sizeBytes = 100; // not a counter: not added
  S.addCounters(Delta);
  EXPECT_EQ(S.hits, 4u);
  EXPECT_EQ(S.sizeBytes, 0u);
}

TEST(CacheStatsTest, UpdateFileAccumulatesAndShrinks) {
  TempDir Dir("qshape-stats-test", /*Unique=*/true);
  std::string Path = std::string(Dir.path("stats"));
  llvm::ErrorOr<CacheStats> Missing = readStatsFile(Path);
  ASSERT_TRUE(Missing);
  EXPECT_EQ(Missing->hits, 0u);
  for (int I = 0; I < 10; ++I)
    ASSERT_FALSE(updateStatsFile(Path, [](CacheStats &S) {
      ++S.hits;
      S.bytesStored += 1000000000;
    }));
  llvm::ErrorOr<CacheStats> S = readStatsFile(Path);
  ASSERT_TRUE(S);
  EXPECT_EQ(S->hits, 10u);
  EXPECT_EQ(S->bytesStored, 10000000000u);
  // A shorter text replaces a longer one without leftovers.
  ASSERT_FALSE(updateStatsFile(Path, [](CacheStats &S) { S = CacheStats(); }));
  std::ifstream In(Path);
  std::string Text((std::istreambuf_iterator<char>(In)), {});
  EXPECT_EQ(Text, serializeStats(CacheStats()));
}

TEST(CacheStatsTest, UnwritablePathIsAnError) {
  EXPECT_TRUE(updateStatsFile("/nonexistent-dir/stats", [](CacheStats &) {}));
}

} // namespace
