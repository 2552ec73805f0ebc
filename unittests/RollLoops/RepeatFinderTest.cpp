//===- RepeatFinderTest.cpp - the runs-based repeat finder vs brute force -===//
//
// findRepeats must return exactly the stretches a scan of every period
// finds (token[i] == token[i + p] for a maximal stretch of at least
// min-trip-count copies), in the same order: random strings over small
// alphabets (many runs), periodic strings with noise, Fibonacci words (the
// most runs per letter) and long periods.
//
//===----------------------------------------------------------------------===//

#include "RollLoops/RepeatFinder.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

using namespace qshape::roll;

namespace {

/// The definition: one linear scan per period.
std::vector<Candidate> bruteForce(const std::vector<uint64_t> &t, unsigned minTrip,
                                  unsigned maxPeriod) {
  std::vector<Candidate> out;
  unsigned n = t.size();
  for (unsigned p = 1; p <= maxPeriod && 2 * p <= n; ++p) {
    unsigned i = 0;
    while (i + p < n) {
      if (t[i] != t[i + p]) {
        ++i;
        continue;
      }
      unsigned s = i;
      while (i + p < n && t[i] == t[i + p])
        ++i;
      unsigned span = i - s + p;
      if (span / p >= minTrip)
        out.push_back({s, p, span, int64_t(span / p - 1) * p});
    }
  }
  // By gain, ties in the order found; by position rather than with
  // std::stable_sort, whose temporary buffer clang 22 reports as deprecated.
  std::vector<size_t> order(out.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return out[a].gain > out[b].gain || (out[a].gain == out[b].gain && a < b);
  });
  std::vector<Candidate> sorted;
  for (size_t i : order)
    sorted.push_back(out[i]);
  return sorted;
}

void expectSame(const std::vector<uint64_t> &t, unsigned minTrip, unsigned maxPeriod) {
  std::vector<Candidate> want = bruteForce(t, minTrip, maxPeriod);
  auto got = findRepeats(t, minTrip, maxPeriod);
  ASSERT_EQ(got.size(), want.size()) << "n=" << t.size();
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(std::make_tuple(got[i].start, got[i].period, got[i].span, got[i].gain),
              std::make_tuple(want[i].start, want[i].period, want[i].span, want[i].gain))
        << "candidate " << i << " of " << want.size() << ", n=" << t.size();
  }
}

TEST(RepeatFinder, RandomSmallAlphabets) {
  std::mt19937_64 rng(1);
  for (int round = 0; round < 600; ++round) {
    unsigned n = 1 + rng() % 200, sigma = 1 + rng() % 4;
    std::vector<uint64_t> t(n);
    for (auto &x : t)
      x = 1000 + rng() % sigma;
    expectSame(t, 2 + round % 3, 1 + rng() % 120);
  }
}

TEST(RepeatFinder, PeriodicWithNoise) {
  std::mt19937_64 rng(2);
  for (int round = 0; round < 200; ++round) {
    unsigned p = 1 + rng() % 40, copies = 2 + rng() % 12;
    std::vector<uint64_t> body(p);
    for (auto &x : body)
      x = rng() % 5;
    std::vector<uint64_t> t;
    for (unsigned c = 0; c < copies; ++c)
      t.insert(t.end(), body.begin(), body.end());
    // Interruptions, near-repeats and unique letters.
    for (int e = rng() % 4; e > 0; --e) {
      size_t at = rng() % t.size();
      if (rng() % 2)
        t[at] = 100 + rng();
      else
        t.insert(t.begin() + at, rng() % 5);
    }
    expectSame(t, 3, 1 + rng() % 100);
    expectSame(t, 2, 1000);
  }
}

TEST(RepeatFinder, FibonacciWords) {
  std::vector<uint64_t> a{0}, b{0, 1};
  while (b.size() < 3000) {
    std::vector<uint64_t> c = b;
    c.insert(c.end(), a.begin(), a.end());
    a = b;
    b = c;
  }
  expectSame(b, 2, 10000);
  expectSame(b, 3, 100);
}

TEST(RepeatFinder, LongPeriods) {
  std::mt19937_64 rng(3);
  std::vector<uint64_t> body(1500);
  for (auto &x : body)
    x = rng() % 50;
  std::vector<uint64_t> t{7, 7};
  for (int c = 0; c < 5; ++c)
    t.insert(t.end(), body.begin(), body.end());
  t[1500 * 3 + 10] = 999; // a near-repeat: one letter differs in copy 3
  expectSame(t, 2, 100000);
  auto got = findRepeats(t, 3, 100000);
  ASSERT_FALSE(got.empty());
  EXPECT_EQ(got[0].period, 1500u);
}

} // namespace
