//===- topology-index-fuzzer.cpp - the skeleton scanner on raw bytes ------===//
//
// Input: any bytes, as the text of a program. scanSkeleton()
// (lib/Compile/TopologyIndex.cpp) is what qshape-compile --share-topology
// keys a program by without parsing it; it finds its stops 64 bytes at a
// time. Properties:
//  - it gives the digest and literals of the byte-at-a-time lexer it
//    replaced (unittests/Compile/ReferenceSkeleton.h), whose digests are in
//    persistent cache keys;
//  - it never reads outside the text (ASan, in build-sanitize);
//  - it does not depend on where the text sits in memory: copies at every
//    offset 0..63 of a 64-byte aligned buffer give the same digest and
//    literals;
//  - the literals are what it says: in order, disjoint, inside the text, each
//    a float spelling (digits, '.', a leading '-' at most) that reads as a
//    double;
//  - it is a skeleton: the text with every literal replaced by another float
//    of the same sign and form (with an exponent if and only if the literal
//    has one) has the same digest and as many literals, at the shifted
//    offsets. The form matters only where text that reads as an exponent
//    follows a literal ("1.0e+00e+00", which MLIR does not parse): a
//    literal without one would take it in. Such a text then has another
//    digest, so its index entry is a miss, never another program's library.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"
#include "ReferenceSkeleton.h"

#include "qshape/Compile/TopologyIndex.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

using namespace qshape::compile;
using qshape::fuzz::fail;

namespace {
std::string describe(const SourceSkeleton &s) {
  std::string out = s.digest;
  for (const SourceSkeleton::Literal &l : s.literals)
    out += " " + std::to_string(l.offset) + "+" + std::to_string(l.length);
  return out;
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  SourceSkeleton skeleton = scanSkeleton(text);
  std::string expected = describe(skeleton);
  std::string reference = describe(reference::referenceScanSkeleton(text));
  if (expected != reference)
    fail("scanSkeleton gives " + expected + ", the reference lexer " + reference);

  // Alignment: the same bytes at every offset of a 64-byte block.
  constexpr size_t kBlock = 64;
  std::unique_ptr<char[]> storage(new char[size + 2 * kBlock]);
  char *base = reinterpret_cast<char *>(
      (reinterpret_cast<uintptr_t>(storage.get()) + kBlock - 1) & ~uintptr_t(kBlock - 1));
  for (size_t offset = 0; offset < kBlock; ++offset) {
    if (size)
      std::memcpy(base + offset, data, size);
    std::string got = describe(scanSkeleton(llvm::StringRef(base + offset, size)));
    if (got != expected)
      fail("the scan at offset " + llvm::Twine(offset) + " differs: " + got + " against " +
           expected);
  }

  // The literals.
  size_t end = 0;
  std::string replaced;
  for (const SourceSkeleton::Literal &l : skeleton.literals) {
    if (l.length == 0 || l.offset < end || uint64_t(l.offset) + l.length > size)
      fail("literal " + llvm::Twine(l.offset) + "+" + llvm::Twine(l.length) +
           " is out of order or outside the text: " + expected);
    llvm::StringRef spelling = text.substr(l.offset, l.length);
    llvm::StringRef digits = spelling;
    bool negative = digits.consume_front("-");
    double value = 0;
    if (digits.empty() || !llvm::isDigit(digits.front()) || !digits.contains('.') ||
        digits.getAsDouble(value))
      fail("literal '" + spelling + "' is not a float spelling");
    replaced += text.slice(end, l.offset);
    bool exponent = digits.find_first_of("eE") != llvm::StringRef::npos;
    replaced += negative ? "-0.5" : "0.5";
    if (exponent)
      replaced += "e+00";
    end = l.offset + l.length;
  }
  replaced += text.substr(end);

  // The skeleton: other values, same digest.
  SourceSkeleton other = scanSkeleton(replaced);
  if (other.digest != skeleton.digest || other.literals.size() != skeleton.literals.size())
    fail("the text with its literals replaced has another skeleton: " + describe(other) +
         " against " + expected);
  return 0;
}
