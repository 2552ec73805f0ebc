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
  S.Hits = 1;
  S.Misses = 2;
  S.Corrupt = 3;
  S.ReadErrors = 4;
  S.WriteErrors = 5;
  S.Evictions = 6;
  S.Stores = 7;
  S.BytesStored = 8;
  S.CompileTimeSavedMs = 9;
  S.SizeBytes = 10;
  S.Entries = 11;
  S.LastCleanupTime = 12;
  CacheStats P = parseStats(serializeStats(S));
  EXPECT_EQ(serializeStats(P), serializeStats(S));
  EXPECT_EQ(P.Hits, 1u);
  EXPECT_EQ(P.LastCleanupTime, 12u);
}

TEST(CacheStatsTest, RemoteCountersArePersistedAndAdded) {
  CacheStats S;
  S.RemoteHits = 21;
  S.RemoteMisses = 22;
  S.RemoteCorrupt = 23;
  S.RemoteRefused = 24;
  S.RemoteErrors = 25;
  S.RemoteTimeouts = 26;
  S.RemoteTooLarge = 27;
  S.RemoteSkipped = 28;
  S.RemoteStores = 29;
  S.RemoteBytesStored = 30;
  CacheStats P = parseStats(serializeStats(S));
  EXPECT_EQ(serializeStats(P), serializeStats(S));
  EXPECT_NE(serializeStats(S).find("remote_timeouts 26\n"), std::string::npos);
  CacheStats Sum;
  Sum.addCounters(S);
  Sum.addCounters(S);
  EXPECT_EQ(Sum.RemoteHits, 42u);
  EXPECT_EQ(Sum.RemoteBytesStored, 60u);
  // Hits of the remote over the lookups that reached it.
  EXPECT_DOUBLE_EQ(S.remoteHitRate(), 21.0 / (21 + 22 + 23 + 24));
}

TEST(CacheStatsTest, DamagedTextLosesCountsNotTheProcess) {
  EXPECT_EQ(parseStats("").Hits, 0u);
  EXPECT_EQ(parseStats("garbage\nhits 5\n").Hits, 0u); // no header: ignored
  CacheStats P = parseStats("qshape-cache-stats 1\nhits 5\nmisses x\n"
                            "unknown 3\nstores 99999999999999999999999\ncor");
  EXPECT_EQ(P.Hits, 5u);
  EXPECT_EQ(P.Misses, 0u);
  EXPECT_EQ(P.Stores, 0u);
}

TEST(CacheStatsTest, HitRateAndAddCounters) {
  CacheStats S;
  EXPECT_EQ(S.hitRate(), 0.0);
  S.Hits = 3;
  S.Misses = 1;
  EXPECT_DOUBLE_EQ(S.hitRate(), 0.75);
  CacheStats Delta;
  Delta.Hits = 1;
  Delta.SizeBytes = 100; // not a counter: not added
  S.addCounters(Delta);
  EXPECT_EQ(S.Hits, 4u);
  EXPECT_EQ(S.SizeBytes, 0u);
}

TEST(CacheStatsTest, UpdateFileAccumulatesAndShrinks) {
  TempDir Dir("qshape-stats-test", /*Unique=*/true);
  std::string Path = std::string(Dir.path("stats"));
  llvm::ErrorOr<CacheStats> Missing = readStatsFile(Path);
  ASSERT_TRUE(Missing);
  EXPECT_EQ(Missing->Hits, 0u);
  for (int I = 0; I < 10; ++I)
    ASSERT_FALSE(updateStatsFile(Path, [](CacheStats &S) {
      ++S.Hits;
      S.BytesStored += 1000000000;
    }));
  llvm::ErrorOr<CacheStats> S = readStatsFile(Path);
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Hits, 10u);
  EXPECT_EQ(S->BytesStored, 10000000000u);
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
