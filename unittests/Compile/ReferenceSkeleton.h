//===- ReferenceSkeleton.h - the skeleton scanner's test oracle -*- C++ -*-===//
//
// The byte-at-a-time lexer that scanSkeleton (lib/Compile/TopologyIndex.cpp)
// replaced, one pass over a class table, kept only to check the fast one
// against: the unit tests (TopologyIndexTest.cpp) and the topology-index
// fuzz target compare the two on every input. The digest is part of
// persistent cache keys: the two must never differ.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_UNITTESTS_COMPILE_REFERENCESKELETON_H
#define QSHAPE_UNITTESTS_COMPILE_REFERENCESKELETON_H

#include "qshape/Cache/CacheKey.h"
#include "qshape/Compile/TopologyIndex.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Endian.h"

#include <algorithm>
#include <array>

namespace qshape::compile::reference {

enum RefClass : uint8_t { Other, Quote, Slash, IdStart, Sigil, Digit, Minus };
inline constexpr uint8_t kRefIdChar = 0x80;

constexpr std::array<uint8_t, 256> makeRefClasses() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    bool digit = c >= '0' && c <= '9';
    uint8_t cls = alpha || c == '_' ? IdStart
                  : digit           ? Digit
                  : c == '"'        ? Quote
                  : c == '/'        ? Slash
                  : c == '-'        ? Minus
                  : c == '%' || c == '@' || c == '#' || c == '!' || c == '^' ? Sigil
                                                                             : Other;
    bool id = alpha || digit || c == '_' || c == '$' || c == '.';
    t[c] = cls | (id ? kRefIdChar : 0);
  }
  return t;
}
inline constexpr std::array<uint8_t, 256> kRefClasses = makeRefClasses();

inline SourceSkeleton referenceScanSkeleton(llvm::StringRef text) {
  SourceSkeleton s;
  llvm::BLAKE3 hash;
  size_t pieceStart = 0, pieceLength = 0;
  auto take = [&](size_t end) {
    hash.update(text.slice(pieceStart, end));
    pieceLength += end - pieceStart;
  };
  auto endPiece = [&](size_t end) {
    take(end);
    uint8_t framed[8];
    llvm::support::endian::write64le(framed, pieceLength);
    hash.update(llvm::ArrayRef<uint8_t>(framed, 8));
    pieceLength = 0;
  };
  const unsigned char *p = reinterpret_cast<const unsigned char *>(text.data());
  const size_t n = text.size();
  auto classAt = [&](size_t i) { return kRefClasses[p[i]] & ~kRefIdChar; };
  auto isId = [&](size_t i) { return (kRefClasses[p[i]] & kRefIdChar) != 0; };
  auto isDigit = [&](size_t i) { return i < n && classAt(i) == Digit; };
  size_t i = 0;
  while (i < n) {
    switch (classAt(i)) {
    case Other:
      for (++i; i < n && classAt(i) == Other; ++i)
        ;
      break;
    case Quote: {
      for (++i; i < n && p[i] != '"'; ++i)
        if (p[i] == '\\')
          ++i;
      ++i;
      break;
    }
    case Slash:
      if (i + 1 < n && p[i + 1] == '/') {
        take(i);
        i = std::min(n, text.find('\n', i));
        pieceStart = i;
      } else {
        ++i;
      }
      break;
    case IdStart:
      for (++i; i < n && isId(i); ++i)
        ;
      break;
    case Sigil:
      for (++i; i < n && (isId(i) || p[i] == '-'); ++i)
        ;
      break;
    case Minus:
      if (!isDigit(i + 1)) {
        ++i;
        break;
      }
      [[fallthrough]];
    case Digit: {
      size_t start = i;
      if (p[i] == '-')
        ++i;
      if (p[i] == '0' && i + 1 < n && p[i + 1] == 'x') {
        for (i += 2; i < n && llvm::isHexDigit(p[i]); ++i)
          ;
        break;
      }
      while (isDigit(i))
        ++i;
      if (i >= n || p[i] != '.')
        break;
      for (++i; isDigit(i); ++i)
        ;
      if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        size_t e = i + 1;
        if (e < n && (p[e] == '+' || p[e] == '-'))
          ++e;
        if (isDigit(e))
          for (i = e; isDigit(i); ++i)
            ;
      }
      endPiece(start);
      s.literals.push_back({uint32_t(start), uint32_t(i - start)});
      pieceStart = i;
      break;
    }
    }
  }
  if (i > n)
    i = n;
  endPiece(std::min(i, n));
  s.digest = qshape::cache::toHex(hash.final());
  return s;
}

} // namespace qshape::compile::reference

#endif // QSHAPE_UNITTESTS_COMPILE_REFERENCESKELETON_H
