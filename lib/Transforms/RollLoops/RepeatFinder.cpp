//===- RepeatFinder.cpp - qshape-roll-loops: repeats in a token string ----===//
//
// The candidates are the runs of the token string (maximal repetitions:
// a stretch [s, e) with smallest period q and e - s >= 2q) and their
// multiples m * q: a stretch with period p of at least three copies is
// always a run whose smallest period divides p (Fine and Wilf), so this is
// the set of every stretch with token[i] == token[i + p], for every p at
// once. A string has fewer runs than letters, and they are found in
// O(n log n) from the Lyndon roots (Bannai et al., "The Runs Theorem",
// 2017): every run has, for one of the two orders of the alphabet, a root
// that is the longest Lyndon word starting there. The longest Lyndon words
// come from the suffix order (next smaller suffix), the extension of a
// root from longest common extensions (suffix array, LCP array, range
// minima).
//
//===----------------------------------------------------------------------===//

#include "RepeatFinder.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <vector>

#define DEBUG_TYPE "qshape-roll-loops"

namespace qshape::roll {
namespace {

//===----------------------------------------------------------------------===//
// Suffix array by induced sorting (SA-IS, Nong, Zhang and Chan 2009)
//===----------------------------------------------------------------------===//

/// Suffix array of s[0, n) over the alphabet [0, k); s[n - 1] must be 0
/// and appear nowhere else (the sentinel). Linear time.
void suffixArray(const int32_t *s, int32_t *sa, int32_t n, int32_t k) {
  if (n == 1) {
    sa[0] = 0;
    return;
  }
  // S-type (true) or L-type suffixes; the sentinel is S.
  std::vector<bool> stype(n);
  stype[n - 1] = true;
  for (int32_t i = n - 2; i >= 0; --i)
    stype[i] = s[i] < s[i + 1] || (s[i] == s[i + 1] && stype[i + 1]);
  auto isLMS = [&](int32_t i) { return i > 0 && stype[i] && !stype[i - 1]; };
  std::vector<int32_t> bucket(k);
  auto buckets = [&](bool ends) {
    std::fill(bucket.begin(), bucket.end(), 0);
    for (int32_t i = 0; i < n; ++i)
      ++bucket[s[i]];
    int32_t sum = 0;
    for (int32_t c = 0; c < k; ++c) {
      sum += bucket[c];
      bucket[c] = ends ? sum : sum - bucket[c];
    }
  };
  auto induce = [&]() {
    buckets(false);
    for (int32_t i = 0; i < n; ++i)
      if (int32_t j = sa[i] - 1; sa[i] > 0 && !stype[j])
        sa[bucket[s[j]]++] = j;
    buckets(true);
    for (int32_t i = n - 1; i >= 0; --i)
      if (int32_t j = sa[i] - 1; sa[i] > 0 && stype[j])
        sa[--bucket[s[j]]] = j;
  };
  // Stage 1: sort the LMS substrings.
  std::fill(sa, sa + n, -1);
  buckets(true);
  for (int32_t i = 1; i < n; ++i)
    if (isLMS(i))
      sa[--bucket[s[i]]] = i;
  induce();
  int32_t n1 = 0;
  for (int32_t i = 0; i < n; ++i)
    if (isLMS(sa[i]))
      sa[n1++] = sa[i];
  // Name them: equal LMS substrings get equal names.
  std::fill(sa + n1, sa + n, -1);
  int32_t name = 0, prev = -1;
  for (int32_t i = 0; i < n1; ++i) {
    int32_t pos = sa[i];
    bool differ = false;
    for (int32_t d = 0; d < n; ++d) {
      if (prev == -1 || s[pos + d] != s[prev + d] || stype[pos + d] != stype[prev + d]) {
        differ = true;
        break;
      }
      if (d > 0 && (isLMS(pos + d) || isLMS(prev + d)))
        break;
    }
    if (differ) {
      ++name;
      prev = pos;
    }
    sa[n1 + pos / 2] = name - 1;
  }
  for (int32_t i = n - 1, j = n - 1; i >= n1; --i)
    if (sa[i] >= 0)
      sa[j--] = sa[i];
  // Stage 2: sort the reduced string (recursively when names repeat).
  int32_t *s1 = sa + n - n1, *sa1 = sa;
  if (name < n1)
    suffixArray(s1, sa1, n1, name);
  else
    for (int32_t i = 0; i < n1; ++i)
      sa1[s1[i]] = i;
  // Stage 3: the sorted LMS suffixes induce the rest.
  for (int32_t i = 1, j = 0; i < n; ++i)
    if (isLMS(i))
      s1[j++] = i;
  for (int32_t i = 0; i < n1; ++i)
    sa1[i] = s1[sa1[i]];
  std::fill(sa + n1, sa + n, -1);
  buckets(true);
  for (int32_t i = n1 - 1; i >= 0; --i) {
    int32_t j = sa[i];
    sa[i] = -1;
    sa[--bucket[s[j]]] = j;
  }
  induce();
}

//===----------------------------------------------------------------------===//
// Longest common extensions
//===----------------------------------------------------------------------===//

/// lce(i, j): the length of the longest common prefix of the suffixes at i
/// and j, in O(1) after O(n) preparation: the minimum of the LCP array
/// between their ranks, from a sparse table over blocks of 32 entries and a
/// scan inside the end blocks.
class LongestCommonExtension {
public:
  /// `s` holds n letters and the sentinel 0 at s[n].
  LongestCommonExtension(const std::vector<int32_t> &s, int32_t k) : n(int32_t(s.size()) - 1) {
    std::vector<int32_t> sa(n + 1);
    suffixArray(s.data(), sa.data(), n + 1, k);
    // sa[0] is the sentinel: ranks of the real suffixes are 1..n.
    rank.assign(n + 1, 0);
    for (int32_t r = 0; r <= n; ++r)
      rank[sa[r]] = r;
    // Kasai et al.: lcp[r] = LCP of the suffixes of rank r - 1 and r.
    lcp.assign(n + 1, 0);
    for (int32_t i = 0, h = 0; i < n; ++i) {
      int32_t r = rank[i];
      int32_t j = sa[r - 1];
      while (s[i + h] == s[j + h])
        ++h; // the sentinel stops it
      lcp[r] = h;
      if (h)
        --h;
    }
    int32_t blocks = (n + 1 + kBlock - 1) / kBlock;
    levels = 1 + llvm::Log2_32(std::max(blocks, 1));
    table.assign(size_t(levels) * blocks, 0);
    for (int32_t b = 0; b < blocks; ++b) {
      int32_t m = lcp[size_t(b) * kBlock];
      for (int32_t x = b * kBlock; x < std::min(n + 1, (b + 1) * kBlock); ++x)
        m = std::min(m, lcp[x]);
      table[b] = m;
    }
    for (int32_t l = 1; l < levels; ++l)
      for (int32_t b = 0; b + (1 << l) <= blocks; ++b)
        table[size_t(l) * blocks + b] = std::min(
            table[size_t(l - 1) * blocks + b], table[size_t(l - 1) * blocks + b + (1 << (l - 1))]);
    this->blocks = blocks;
  }

  int32_t operator()(int32_t i, int32_t j) const {
    if (i == j)
      return n - i;
    if (i >= n || j >= n)
      return 0;
    int32_t a = rank[i], b = rank[j];
    if (a > b)
      std::swap(a, b);
    return rangeMin(a + 1, b);
  }
  /// Whether the suffix at i precedes the suffix at j in the suffix order.
  bool before(int32_t i, int32_t j) const { return rank[i] < rank[j]; }

private:
  static constexpr int32_t kBlock = 32;
  int32_t rangeMin(int32_t l, int32_t r) const { // inclusive
    int32_t bl = l / kBlock, br = r / kBlock;
    int32_t m = lcp[l];
    if (bl == br) {
      for (int32_t x = l; x <= r; ++x)
        m = std::min(m, lcp[x]);
      return m;
    }
    for (int32_t x = l; x < (bl + 1) * kBlock; ++x)
      m = std::min(m, lcp[x]);
    for (int32_t x = br * kBlock; x <= r; ++x)
      m = std::min(m, lcp[x]);
    if (bl + 1 <= br - 1) {
      int32_t lo = bl + 1, hi = br - 1;
      int32_t lev = llvm::Log2_32(hi - lo + 1);
      m = std::min(
          {m, table[size_t(lev) * blocks + lo], table[size_t(lev) * blocks + hi - (1 << lev) + 1]});
    }
    return m;
  }

  int32_t n;
  int32_t levels = 0, blocks = 0;
  std::vector<int32_t> rank, lcp, table;
};

struct Run {
  unsigned start, end, period; // [start, end), smallest period
};

/// Every run of s[0, n) (s[n] is the sentinel) with a period of at most
/// maxPeriod, each once, by start.
std::vector<Run> findRuns(const std::vector<int32_t> &s, int32_t k, unsigned maxPeriod) {
  int32_t n = int32_t(s.size()) - 1;
  std::vector<Run> runs;
  if (n < 2)
    return runs;
  LongestCommonExtension lce(s, k);
  // lyndon[i]: length of the longest Lyndon word starting at i for the
  // order at hand = distance to the next smaller suffix (or to the end).
  std::vector<int32_t> lyndon(n), stack;
  // The end of the last run found with each period, to skip the further
  // roots of a run already found.
  std::vector<int32_t> lastEnd;
  for (int order = 0; order < 2; ++order) {
    // Suffix at i strictly before the suffix at j in this order. Order 0 is
    // the suffix array's; order 1 reverses the alphabet, where a suffix that
    // is a prefix of another still comes first.
    auto precedes = [&](int32_t i, int32_t j) {
      if (order == 0)
        return lce.before(i, j);
      if (s[i] != s[j])
        return s[i] > s[j];
      int32_t l = lce(i, j);
      if (i + l == n)
        return true;
      if (j + l == n)
        return false;
      return s[i + l] > s[j + l];
    };
    stack.clear();
    for (int32_t i = n - 1; i >= 0; --i) {
      while (!stack.empty() && !precedes(stack.back(), i))
        stack.pop_back();
      lyndon[i] = (stack.empty() ? n : stack.back()) - i;
      stack.push_back(i);
    }
    lastEnd.assign(std::min<size_t>(n, maxPeriod) + 1, -1);
    for (int32_t i = 0; i + 1 < n; ++i) {
      int32_t p = lyndon[i];
      if (unsigned(p) > maxPeriod || i + p >= n)
        continue;
      if (i + p <= lastEnd[p]) // a further root of the last run of period p
        continue;
      // The root [i, i + p) extends r letters to the right and l to the
      // left; it is a run when l + r >= p.
      int32_t r = s[i] == s[i + p] ? lce(i, i + p) : 0;
      if (r < p) {
        int32_t need = p - r;
        if (need > i || s[i - 1] != s[i + p - 1] || lce(i - need, i + p - need) < need)
          continue;
      }
      // Usually the first root of its run, less than p after its start.
      int32_t l = 0;
      while (i - l - 1 >= 0 && s[i - l - 1] == s[i + p - l - 1])
        ++l;
      runs.push_back({unsigned(i - l), unsigned(i + p + r), unsigned(p)});
      lastEnd[p] = i + p + r;
    }
  }
  llvm::sort(runs, [](const Run &a, const Run &b) {
    return std::tie(a.start, a.period) < std::tie(b.start, b.period);
  });
  runs.erase(std::unique(runs.begin(), runs.end(),
                         [](const Run &a, const Run &b) {
                           return a.start == b.start && a.period == b.period;
                         }),
             runs.end());
  return runs;
}

} // namespace

llvm::SmallVector<Candidate> findRepeats(llvm::ArrayRef<uint64_t> tokens, unsigned minTripCount,
                                         unsigned maxPeriod) {
  llvm::SmallVector<Candidate> candidates;
  unsigned n = tokens.size();
  if (n < 2 || minTripCount < 2)
    return candidates;
  // Letters 1..k-1 by first occurrence, 0 for the sentinel.
  std::vector<int32_t> s(n + 1, 0);
  llvm::DenseMap<uint64_t, int32_t> letters;
  for (unsigned i = 0; i < n; ++i)
    s[i] = letters.try_emplace(tokens[i], int32_t(letters.size()) + 1).first->second;
  int32_t k = int32_t(letters.size()) + 1;
  std::vector<Run> runs = findRuns(s, k, maxPeriod);
  // Each run [start, end) with smallest period q gives the periods m * q
  // that fit minTripCount times.
  for (const Run &r : runs) {
    unsigned span = r.end - r.start;
    for (unsigned p = r.period; p <= maxPeriod && uint64_t(p) * minTripCount <= span; p += r.period)
      candidates.push_back({r.start, p, span, int64_t(span / p - 1) * p});
  }
  // Best gain first; then shorter periods, then earlier starts.
  llvm::sort(candidates, [](const Candidate &a, const Candidate &b) {
    return std::make_tuple(-a.gain, a.period, a.start) <
           std::make_tuple(-b.gain, b.period, b.start);
  });
  LLVM_DEBUG(llvm::dbgs() << "qshape-roll-loops: " << n << " tokens, " << letters.size()
                          << " distinct, " << runs.size() << " runs, " << candidates.size()
                          << " candidates\n");
  return candidates;
}

} // namespace qshape::roll
