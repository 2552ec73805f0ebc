//===- ArtifactCacheTest.cpp - what the artifact cache refuses to return ---===//
//
// The checks of ArtifactCache above the cache layer's checksums: an intact
// entry whose library names another key (a library stored under the wrong
// key), a payload that is not a library at all, and a source index entry
// that is not one. The fault suite (test/Tools/qshape-compile/
// artifact-cache-faults.py) covers what the layer itself catches.
//
//===----------------------------------------------------------------------===//

#include "qshape/ArtifactCache/ArtifactCache.h"
#include "qshape/Compile/Compiler.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include "gtest/gtest.h"

using namespace qshape::compile;
using qshape::cache::CacheKey;
using qshape::cache::KeyBuilder;

namespace {

constexpr llvm::StringLiteral Bell = R"mlir(
module @m {
  func.func public @circuit(%arg0: tensor<f64>) -> tensor<f64> attributes {qnode} {
    %c0 = arith.constant 0 : i64
    %x = tensor.extract %arg0[] : tensor<f64>
    quantum.device shots(%c0) ["lib.so", "LightningSimulator", "{}"]
    %r = quantum.alloc( 1) : !quantum.reg
    %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
    %q1 = quantum.custom "RY"(%x) %q : !quantum.bit
    %o = quantum.namedobs %q1[ PauliZ] : !quantum.obs
    %e = quantum.expval %o : f64
    %t = tensor.from_elements %e : tensor<f64>
    %r1 = quantum.insert %r[ 0], %q1 : !quantum.reg, !quantum.bit
    quantum.dealloc %r1 : !quantum.reg
    quantum.device_release
    return %t : tensor<f64>
  }
}
)mlir";

class ArtifactCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("qshape-artifact-test", dir));
    library = path("a.so");
    mlir::DialectRegistry registry;
    Compilation::registerDialects(registry);
    Compilation::registerPasses();
    mlir::MLIRContext context(registry);
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(Bell, "bell.mlir"),
                                 llvm::SMLoc());
    auto c = Compilation::parse(context, sourceMgr, CompileOptions());
    ASSERT_TRUE(bool(c)) << llvm::toString(c.takeError());
    auto facts = (*c)->getFacts();
    ASSERT_TRUE(bool(facts)) << llvm::toString(facts.takeError());
    key = *CacheKey::parse((*facts)->key());
    auto out = OutputFile::create(library, true);
    ASSERT_TRUE(bool(out)) << llvm::toString(out.takeError());
    ASSERT_FALSE(bool((*c)->compile(&*out)));
    ASSERT_FALSE(bool(out->commit()));
    ArtifactCacheOptions options;
    options.directory = path("cache");
    options.remote = "off";
    cache = ArtifactCache::open(options);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  std::string path(llvm::StringRef name) {
    llvm::SmallString<256> p(dir);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }
  static CacheKey otherKey(llvm::StringRef what) {
    KeyBuilder b;
    b.add("test", what);
    return b.key();
  }
  /// lookupLibrary into a fresh output; its bytes if it hit.
  std::optional<std::string> lookup(const CacheKey &k) {
    auto out = OutputFile::create(path("out.so"), true);
    EXPECT_TRUE(bool(out));
    if (!out || !cache->lookupLibrary(k, *out))
      return std::nullopt;
    auto bytes = llvm::MemoryBuffer::getFile(out->getTempPath());
    return bytes ? std::optional<std::string>((*bytes)->getBuffer().str()) : std::nullopt;
  }
  std::string bytesOf(llvm::StringRef p) {
    return llvm::MemoryBuffer::getFile(p).get()->getBuffer().str();
  }

  llvm::SmallString<128> dir;
  std::string library;
  std::optional<CacheKey> key;
  std::unique_ptr<ArtifactCache> cache;
};

TEST_F(ArtifactCacheTest, StoredLibraryHitsItsKey) {
  cache->storeLibrary(*key, library, 1);
  std::optional<std::string> got = lookup(*key);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, bytesOf(library));
}

TEST_F(ArtifactCacheTest, LibraryOfAnotherKeyIsAMiss) {
  // Intact entry, right producer, right kind: but the library's own info
  // names the key it was compiled for, not this one.
  CacheKey other = otherKey("another program");
  cache->storeLibrary(other, library, 1);
  EXPECT_FALSE(lookup(other).has_value());
}

TEST_F(ArtifactCacheTest, PayloadThatIsNotALibraryIsAMiss) {
  std::string notLibrary = path("not-a-library");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(notLibrary, ec);
    ASSERT_FALSE(ec);
    os << "#!/bin/sh\necho planted\n";
  }
  cache->storeLibrary(*key, notLibrary, 1);
  EXPECT_FALSE(lookup(*key).has_value());
}

TEST_F(ArtifactCacheTest, SourceIndexNamesAKeyOrNothing) {
  CacheKey source = otherKey("source");
  cache->storeSource(source, *key);
  std::optional<CacheKey> k = cache->lookupSource(source);
  ASSERT_TRUE(k.has_value());
  EXPECT_EQ(*k, *key);
  // A library entry read as an index entry: the kind is wrong.
  cache->storeLibrary(source, library, 1);
  EXPECT_FALSE(cache->lookupSource(source).has_value());
}

TEST_F(ArtifactCacheTest, ReadModeNeverStoresWriteModeNeverHits) {
  ArtifactCacheOptions options;
  options.directory = path("cache");
  options.remote = "off";
  options.mode = qshape::cache::AccessMode::Read;
  std::unique_ptr<ArtifactCache> reader = ArtifactCache::open(options);
  reader->storeLibrary(*key, library, 1);
  EXPECT_FALSE(lookup(*key).has_value());
  options.mode = qshape::cache::AccessMode::Write;
  std::unique_ptr<ArtifactCache> writer = ArtifactCache::open(options);
  writer->storeLibrary(*key, library, 1);
  auto out = OutputFile::create(path("w.so"), true);
  ASSERT_TRUE(bool(out));
  EXPECT_FALSE(writer->lookupLibrary(*key, *out));
  EXPECT_TRUE(lookup(*key).has_value());
  options.mode = qshape::cache::AccessMode::Off;
  EXPECT_EQ(ArtifactCache::open(options), nullptr);
}

} // namespace

TEST(IndexMissHandoffTest, RoundTripsThroughTheEnvironmentOnce) {
  using Lock = IndexMissHandoff::Lock;
  for (auto [lock, fd] : {std::pair{Lock::NotTried, -1}, {Lock::Held, 7}, {Lock::None, -1}}) {
    IndexMissHandoff out{"blake3:00ff", lock, fd};
    out.exportToEnvironment();
    std::optional<IndexMissHandoff> in = IndexMissHandoff::takeFromEnvironment();
    ASSERT_TRUE(in);
    EXPECT_EQ(in->key, "blake3:00ff");
    EXPECT_EQ(in->lock, lock);
    EXPECT_EQ(in->lockDescriptor, fd);
    EXPECT_EQ(getenv(IndexMissHandoff::kEnvironmentVariable), nullptr) << "taken, not inherited";
  }
  // Anything else is no hand-over at all (the compiler looks up itself).
  for (const char *bad : {"", " lock=3", "blake3:00ff lock=", "blake3:00ff lock=-2",
                          "blake3:00ff lock=x", "blake3:00ff extra"}) {
    setenv(IndexMissHandoff::kEnvironmentVariable, bad, 1);
    EXPECT_FALSE(IndexMissHandoff::takeFromEnvironment()) << bad;
    EXPECT_EQ(getenv(IndexMissHandoff::kEnvironmentVariable), nullptr);
  }
}
