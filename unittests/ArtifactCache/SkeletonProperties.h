//===- SkeletonProperties.h - what any skeleton scan must satisfy -*- C++ -*-===//
//
// Properties of scanSkeleton (lib/ArtifactCache/TopologyIndex.cpp) that need no
// second lexer to check: the unit tests (TopologyIndexTest.cpp) and the
// topology-index fuzz target run them on every input. What counts as a
// literal is pinned separately, by a hand-written table of cases.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_UNITTESTS_COMPILE_SKELETONPROPERTIES_H
#define QSHAPE_UNITTESTS_COMPILE_SKELETONPROPERTIES_H

#include "qshape/ArtifactCache/TopologyIndex.h"
#include "qshape/Cache/CacheKey.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Endian.h"

#include <optional>
#include <string>

namespace qshape::compile::properties {

/// The digest, then each literal as offset+length.
inline std::string describe(const SourceSkeleton &s, size_t shift = 0) {
  std::string out = s.digest;
  for (const SourceSkeleton::Literal &l : s.literals)
    out += " " + std::to_string(l.offset - shift) + "+" + std::to_string(l.length);
  return out;
}

/// Whether `spelling` is a float literal as MLIR's LangRef defines one:
/// `-`? digit+ `.` digit* ([eE] [+-]? digit+)?.
inline bool isFloatSpelling(llvm::StringRef spelling) {
  llvm::StringRef s = spelling;
  s.consume_front("-");
  size_t intDigits = s.find_first_not_of("0123456789");
  if (intDigits == 0 || intDigits == llvm::StringRef::npos || s[intDigits] != '.')
    return false;
  s = s.drop_front(intDigits + 1).ltrim("0123456789");
  if (s.empty())
    return true;
  if (s.front() != 'e' && s.front() != 'E')
    return false;
  s = s.drop_front();
  s.consume_front("+") || s.consume_front("-");
  return !s.empty() && s.find_first_not_of("0123456789") == llvm::StringRef::npos;
}

/// The digest as TopologyIndex.h defines it, for a text without comments:
/// BLAKE3 of the pieces between the literals, each followed by its length
/// (64-bit little endian).
inline std::string framedDigest(llvm::StringRef text, const SourceSkeleton &s) {
  llvm::BLAKE3 hash;
  auto piece = [&](llvm::StringRef bytes) {
    hash.update(bytes);
    uint8_t length[8];
    llvm::support::endian::write64le(length, bytes.size());
    hash.update(llvm::ArrayRef<uint8_t>(length, 8));
  };
  size_t end = 0;
  for (const SourceSkeleton::Literal &l : s.literals) {
    piece(text.slice(end, l.offset));
    end = l.offset + l.length;
  }
  piece(text.substr(end));
  return qshape::cache::toHex(hash.final());
}

/// `text` with every literal replaced by another float of the same sign and
/// form (with an exponent if and only if the literal has one). The form
/// matters where text that reads as an exponent follows a literal
/// ("1.0e+00e+00", which MLIR does not parse): a literal without one would
/// take it in.
inline std::string withOtherLiterals(llvm::StringRef text, const SourceSkeleton &s) {
  std::string out;
  size_t end = 0;
  for (const SourceSkeleton::Literal &l : s.literals) {
    llvm::StringRef spelling = text.substr(l.offset, l.length);
    out += text.slice(end, l.offset);
    out += spelling.starts_with("-") ? "-0.5" : "0.5";
    if (spelling.find_first_of("eE") != llvm::StringRef::npos)
      out += "e+00";
    end = l.offset + l.length;
  }
  out += text.substr(end);
  return out;
}

/// The first property `text` breaks, or nullopt:
///  - the literals are in order, disjoint, inside the text, float spellings;
///  - spaces in front shift the literals and nothing else (the scan finds
///    its stops a block at a time: `pads` puts the text at other block
///    offsets);
///  - without comments, the digest is framedDigest() of the literals found;
///  - it is a skeleton: other literal values give the same digest and as
///    many literals.
inline std::optional<std::string> skeletonPropertyViolation(llvm::StringRef text,
                                                            llvm::ArrayRef<size_t> pads) {
  SourceSkeleton skeleton = scanSkeleton(text);
  std::string expected = describe(skeleton);
  size_t end = 0;
  for (const SourceSkeleton::Literal &l : skeleton.literals) {
    if (l.length == 0 || l.offset < end || uint64_t(l.offset) + l.length > text.size())
      return ("literal " + llvm::Twine(l.offset) + "+" + llvm::Twine(l.length) +
              " is out of order or outside the text: " + expected)
          .str();
    if (!isFloatSpelling(text.substr(l.offset, l.length)))
      return ("literal '" + text.substr(l.offset, l.length) + "' is not a float spelling").str();
    end = l.offset + l.length;
  }
  for (size_t pad : pads) {
    std::string padded = std::string(pad, ' ') + text.str();
    SourceSkeleton shifted = scanSkeleton(padded);
    std::string literalsOnly = describe(shifted, pad).substr(shifted.digest.size());
    if (literalsOnly != expected.substr(skeleton.digest.size()))
      return ("after " + llvm::Twine(pad) + " spaces the literals are" + literalsOnly + " against" +
              expected.substr(skeleton.digest.size()))
          .str();
  }
  if (!text.contains("//") && framedDigest(text, skeleton) != skeleton.digest)
    return "the digest is not the pieces' between the literals: " + expected;
  SourceSkeleton other = scanSkeleton(withOtherLiterals(text, skeleton));
  if (other.digest != skeleton.digest || other.literals.size() != skeleton.literals.size())
    return "the text with its literals replaced has another skeleton: " + describe(other) +
           " against " + expected;
  return std::nullopt;
}

} // namespace qshape::compile::properties

#endif // QSHAPE_UNITTESTS_COMPILE_SKELETONPROPERTIES_H
