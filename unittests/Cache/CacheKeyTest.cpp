//===- CacheKeyTest.cpp - Keys, KeyBuilder and size parsing ---------------===//

#include "qshape/Cache/CacheKey.h"
#include "qshape/Cache/DirectoryCache.h"

#include "gtest/gtest.h"

#include <set>

using namespace qshape::cache;

namespace {

const std::string Hex64(64, 'a');

TEST(CacheKeyTest, AcceptsHexWithOrWithoutPrefix) {
  std::optional<CacheKey> Bare = CacheKey::parse(Hex64);
  std::optional<CacheKey> Prefixed = CacheKey::parse("blake3:" + Hex64);
  ASSERT_TRUE(Bare);
  ASSERT_TRUE(Prefixed);
  EXPECT_EQ(*Bare, *Prefixed);
  EXPECT_EQ(Bare->hex(), Hex64);
  EXPECT_EQ(Bare->str(), "blake3:" + Hex64);
  std::string Mixed = "0123456789abcdef0123456789abcdef"
                      "0123456789abcdef0123456789abcdef";
  ASSERT_TRUE(CacheKey::parse(Mixed));
  EXPECT_EQ(CacheKey::parse(Mixed)->hex(), Mixed);
  EXPECT_EQ(CacheKey::parse(Mixed)->bytes()[0], 0x01);
  EXPECT_EQ(CacheKey::parse(Mixed)->bytes()[31], 0xef);
}

TEST(CacheKeyTest, RejectsEverythingElse) {
  const std::string Bad[] = {
      "",
      "blake3:",
      std::string(63, 'a'),
      std::string(65, 'a'),
      std::string(64, 'A'),         // upper case
      "sha256:" + Hex64,            // other prefix
      "blake3:blake3:" + Hex64,     // double prefix
      "../../../../etc/passwd",     // path traversal
      "../" + std::string(61, 'a'), // 64 chars with '../'
      std::string(31, 'a') + "/" + std::string(32, 'a'),
      std::string(62, 'a') + "..",
      std::string(63, 'a') + std::string(1, '\0'),
      std::string(64, 'g'),
      " " + std::string(63, 'a'),
  };
  for (const std::string &Text : Bad)
    EXPECT_FALSE(CacheKey::parse(Text)) << "accepted '" << Text << "'";
}

TEST(KeyBuilderTest, Deterministic) {
  auto Make = [] {
    KeyBuilder B;
    B.add("fingerprint", "abc").add("pipeline", "p1,p2").add("n", uint64_t(7));
    return B.final();
  };
  std::string Key = Make();
  EXPECT_EQ(Key, Make());
  EXPECT_EQ(Key.size(), 7u + 64u);
  EXPECT_EQ(Key.rfind("blake3:", 0), 0u);
  EXPECT_TRUE(CacheKey::parse(Key));
}

TEST(KeyBuilderTest, FieldsAreSeparated) {
  auto Key = [](std::vector<std::pair<std::string, std::string>> Fields) {
    KeyBuilder B;
    for (auto &[Name, Value] : Fields)
      B.add(Name, Value);
    return B.final();
  };
  // Moving bytes across a value boundary changes the key.
  EXPECT_NE(Key({{"x", "ab"}, {"x", "c"}}), Key({{"x", "a"}, {"x", "bc"}}));
  // ... and across the name/value boundary.
  EXPECT_NE(Key({{"ab", "c"}}), Key({{"a", "bc"}}));
  // The name takes part.
  EXPECT_NE(Key({{"fingerprint", "v"}}), Key({{"pipeline", "v"}}));
  // Order takes part.
  EXPECT_NE(Key({{"a", "1"}, {"b", "2"}}), Key({{"b", "2"}, {"a", "1"}}));
  // An empty field is still a field.
  EXPECT_NE(Key({{"a", "1"}}), Key({{"a", "1"}, {"b", ""}}));
  EXPECT_NE(Key({}), Key({{"", ""}}));
  // Embedded NUL bytes are data, not terminators.
  EXPECT_NE(Key({{"a", std::string("x\0y", 3)}}), Key({{"a", "x"}}));
}

TEST(KeyBuilderTest, IntegerFieldIsFixedWidth) {
  KeyBuilder A, B;
  A.add("n", uint64_t(1));
  B.add("n", std::string("\x01\0\0\0\0\0\0\0", 8));
  // Same bytes under the same name: same key (documented encoding).
  EXPECT_EQ(A.final(), B.final());
  KeyBuilder C;
  C.add("n", uint64_t(256));
  EXPECT_NE(A.final(), C.final());
}

TEST(KeyBuilderTest, EveryInputChangesTheKey) {
  KeyInputs Base;
  Base.fingerprint = "fp";
  Base.pipeline = "builtin.module(qshape-roll-loops)";
  Base.qShapeVersion = "qshape 0.1.0";
  Base.buildId = "blake3:00";
  Base.toolchainVersion = "MLIR 22.0.0";
  Base.targetTriple = "x86_64-unknown-linux-gnu";
  Base.salt = "";
  std::set<std::string> Keys;
  Keys.insert(makeKeyBuilder(Base).final());
  EXPECT_EQ(makeKeyBuilder(Base).final(), *Keys.begin());

  std::string KeyInputs::*Fields[] = {
      &KeyInputs::fingerprint, &KeyInputs::pipeline,         &KeyInputs::qShapeVersion,
      &KeyInputs::buildId,     &KeyInputs::toolchainVersion, &KeyInputs::targetTriple,
      &KeyInputs::salt,
  };
  for (auto Field : Fields) {
    KeyInputs Changed = Base;
    Changed.*Field += "x";
    Keys.insert(makeKeyBuilder(Changed).final());
  }
  KeyInputs Schema = Base;
  Schema.schemaVersion += 1;
  Keys.insert(makeKeyBuilder(Schema).final());
  EXPECT_EQ(Keys.size(), 1u + std::size(Fields) + 1u);
}

TEST(KeyBuilderTest, DefaultsUseProducerVersionAndBuildId) {
  KeyInputs Defaults;
  KeyInputs Explicit;
  Explicit.qShapeVersion = getProducerVersion().str();
  Explicit.buildId = getBuildId().str();
  EXPECT_EQ(makeKeyBuilder(Defaults).final(), makeKeyBuilder(Explicit).final());
}

TEST(KeyBuilderTest, ManifestNamesEveryField) {
  KeyBuilder B;
  B.add("fingerprint", "abc").add("salt", "");
  std::string Manifest = B.manifest();
  EXPECT_NE(Manifest.find("fingerprint: 3 bytes, blake3 "), std::string::npos);
  EXPECT_NE(Manifest.find("salt: 0 bytes, blake3 "), std::string::npos);
}

TEST(BuildIdTest, StableAndFromTheLinkerNote) {
  llvm::StringRef Id = getBuildId();
  // The test binary is linked with a GNU build-id note, so the id is that
  // note (a hash of the linked contents) plus the file's size.
  EXPECT_TRUE(Id.starts_with("gnu-build-id:")) << Id.str();
  EXPECT_NE(Id.find(":size:"), llvm::StringRef::npos) << Id.str();
  EXPECT_GT(Id.size(), std::string("gnu-build-id::size:").size() + 16) << Id.str();
  EXPECT_EQ(getBuildId(), Id);
  EXPECT_TRUE(getProducerVersion().starts_with("qshape "));
}

TEST(SizeTest, Parse) {
  EXPECT_EQ(parseSize("0"), 0u);
  EXPECT_EQ(parseSize("1048576"), 1048576u);
  EXPECT_EQ(parseSize("10K"), 10u << 10);
  EXPECT_EQ(parseSize("10M"), 10u << 20);
  EXPECT_EQ(parseSize("2G"), uint64_t(2) << 30);
  EXPECT_EQ(parseSize("2g"), uint64_t(2) << 30);
  EXPECT_EQ(parseSize("2GiB"), uint64_t(2) << 30);
  EXPECT_EQ(parseSize("2GB"), uint64_t(2) << 30);
  EXPECT_EQ(parseSize("1.5G"), uint64_t(3) << 29);
  EXPECT_EQ(parseSize("1T"), uint64_t(1) << 40);
  EXPECT_EQ(parseSize(" 3M "), 3u << 20);
  for (const char *Bad : {"", "G", "-1", "1X", "1.2.3", "1GG", "1iB", "1 G", "99999999999999999999",
                          "20000000000T", "."})
    EXPECT_FALSE(parseSize(Bad)) << Bad;
}

TEST(SizeTest, Format) {
  EXPECT_EQ(formatSize(0), "0 B");
  EXPECT_EQ(formatSize(1023), "1023 B");
  EXPECT_EQ(formatSize(1024), "1.0 KiB");
  EXPECT_EQ(formatSize(uint64_t(3) << 29), "1.5 GiB");
}

} // namespace
