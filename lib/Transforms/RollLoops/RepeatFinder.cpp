//===- RepeatFinder.cpp - qshape-roll-loops: repeats in a token string ----===//

#include "RepeatFinder.h"

#include "llvm/ADT/STLExtras.h"

namespace qshape::roll {

llvm::SmallVector<Candidate> findRepeats(llvm::ArrayRef<uint64_t> tokens, unsigned minTripCount,
                                         unsigned maxPeriod) {
  unsigned n = tokens.size();
  // Maximal periodic runs: for each period p, a maximal stretch where
  // token[i] == token[i + p] of length L gives floor((L + p) / p) copies.
  llvm::SmallVector<Candidate> candidates;
  for (unsigned p = 1; p <= maxPeriod && 2 * p <= n; ++p) {
    unsigned i = 0;
    while (i + p < n) {
      if (tokens[i] != tokens[i + p]) {
        ++i;
        continue;
      }
      unsigned s = i;
      while (i + p < n && tokens[i] == tokens[i + p])
        ++i;
      unsigned span = i - s + p;
      unsigned k = span / p;
      if (k >= minTripCount)
        candidates.push_back({s, p, span, int64_t(k - 1) * p});
    }
  }
  llvm::stable_sort(candidates,
                    [](const Candidate &a, const Candidate &b) { return a.gain > b.gain; });
  return candidates;
}

} // namespace qshape::roll
