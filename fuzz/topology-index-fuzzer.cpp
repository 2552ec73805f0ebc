//===- topology-index-fuzzer.cpp - the skeleton scanner on raw bytes ------===//
//
// Input: any bytes, as the text of a program. scanSkeleton()
// (lib/ArtifactCache/TopologyIndex.cpp) is what qshape-compile --share-topology
// keys a program by without parsing it; it finds its stops 64 bytes at a
// time. Properties:
//  - those of unittests/ArtifactCache/SkeletonProperties.h: literals in order,
//    inside the text and float spellings; spaces in front only shift them;
//    without comments the digest is the framed pieces between them; other
//    literal values give the same digest (a skeleton);
//  - it never reads outside the text (ASan, in build-sanitize);
//  - it does not depend on where the text sits in memory: copies at every
//    offset 0..63 of a 64-byte aligned buffer give the same digest and
//    literals.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"
#include "SkeletonProperties.h"

#include "qshape/ArtifactCache/TopologyIndex.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

using namespace qshape::compile;
using qshape::compile::properties::describe;
using qshape::fuzz::fail;

extern "C" int LLVMFuzzerInitialize(int *, char ***) { return 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  SourceSkeleton skeleton = scanSkeleton(text);
  std::string expected = describe(skeleton);
  constexpr size_t kPads[] = {1, 16, 63};
  if (std::optional<std::string> broken = properties::skeletonPropertyViolation(text, kPads))
    fail(*broken);

  // Alignment: the same bytes at every offset of a 64-byte block.
  constexpr size_t kBlock = 64;
  std::unique_ptr<char[]> storage(new char[size + 2 * kBlock]);
  char *base = reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(storage.get()) + kBlock - 1) &
                                        ~uintptr_t(kBlock - 1));
  for (size_t offset = 0; offset < kBlock; ++offset) {
    if (size)
      std::memcpy(base + offset, data, size);
    std::string got = describe(scanSkeleton(llvm::StringRef(base + offset, size)));
    if (got != expected)
      fail("the scan at offset " + llvm::Twine(offset) + " differs: " + got + " against " +
           expected);
  }
  return 0;
}
