//===- TopologyIndexTest.cpp - the skeleton lexer and the literal map -----===//
//
// What the topology index treats as a float literal (and what it must not),
// a hand-written table of cases; the properties every scan must satisfy
// (SkeletonProperties.h) on random and real texts; that equal skeletons
// mean equal texts up to those literals; and the map's refusals.
// test/Tools/qshape-compile/topology-index.py checks the whole path against the oracle.
//
//===----------------------------------------------------------------------===//

#include "SkeletonProperties.h"

#include "qshape/ArtifactCache/TopologyIndex.h"

#include "qshape/Cache/CacheKey.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <vector>

using namespace qshape::compile;

namespace {

std::vector<std::string> literals(llvm::StringRef text) {
  std::vector<std::string> out;
  for (const SourceSkeleton::Literal &l : scanSkeleton(text).literals)
    out.push_back(text.substr(l.offset, l.length).str());
  return out;
}

/// Pads that put a text at other offsets of the scan's 16- and 64-byte
/// blocks.
constexpr size_t kPads[] = {1, 7, 15, 16, 17, 33, 63, 64, 65};

/// Whether scanSkeleton satisfies SkeletonProperties.h on `text`; the
/// first broken property if not.
::testing::AssertionResult propertiesHold(llvm::StringRef text) {
  if (std::optional<std::string> broken = properties::skeletonPropertyViolation(text, kPads))
    return ::testing::AssertionFailure() << *broken;
  return ::testing::AssertionSuccess();
}

/// Escapes a test input for a failure message.
std::string shown(llvm::StringRef text) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << '"';
  llvm::printEscapedString(text.take_front(400), os);
  os << (text.size() > 400 ? "\"..." : "\"") << " (" << text.size() << " bytes)";
  return out;
}

// The float literals of each text, derived by hand from MLIR's LangRef
// (float-literal ::= [-+]?[0-9]+[.][0-9]*([eE][-+]?[0-9]+)?) and from what
// its lexer reads whole: strings, comments, bare identifiers and the names
// after `%`, `@`, `#`, `!` and `^` (digits and dots in them are no literals).
// The parser reads `-` before a number as the literal's sign.
struct LiteralCase {
  llvm::StringLiteral text;
  std::vector<std::string> literals;
};

const LiteralCase kLiteralCases[] = {
    {"%c = arith.constant 0.5 : f64", {"0.5"}},
    {"dense<[-1.5e-3, 2., 3.0E+2]> -> %x", {"-1.5e-3", "2.", "3.0E+2"}},
    {"dense<0.25> : tensor<3xf64>", {"0.25"}},
    {"x 1.5e3 y -2.0E-1", {"1.5e3", "-2.0E-1"}},
    {"2.0e-3x", {"2.0e-3"}},
    {"1.", {"1."}},
    {"1.5.5", {"1.5"}},
    {"--1.5", {"-1.5"}},
    {"x-1.5", {"-1.5"}},
    {"0.5//c\n-0.25", {"0.5", "-0.25"}},
    // An exponent needs digits; the '-' of '->' is not a sign.
    {"1.0e ->2.5", {"1.0", "2.5"}},
    {"1.5e+", {"1.5"}},
    // No '.': integers, hex (even with a '.' after it), exponents alone.
    {"%c1_i64 = arith.constant 1 : i64", {}},
    {"0x3FF0000000000000 0x1.5", {}},
    {"1e5 -.5", {}},
    // Names with digits and dots.
    {"%x.0 = foo @f1.5 #a2.5 !t3.5 ^bb4.5 %a-1.5 a.1.5", {}},
    {"tensor<4x4xf64> x2.5", {}},
    // Strings (escaped quotes included; an open one runs to the end) and
    // comments.
    {"quantum.device [\"lib-1.2.so\", \"{'a': 0.5}\"]", {}},
    {"loc(\"file.py\":12:3)", {}},
    {"\"a\\\"1.5\" 2.5", {"2.5"}},
    {"\"unterminated 1.5", {}},
    {"// 0.5 in a comment\n", {}},
    {"// 0.5 at the end", {}},
};

TEST(TopologyIndexTest, FloatLiteralsOnly) {
  for (const LiteralCase &c : kLiteralCases) {
    EXPECT_EQ(literals(c.text), c.literals) << shown(c.text);
    EXPECT_TRUE(propertiesHold(c.text)) << shown(c.text);
  }
}

// The scanner skips to the bytes that may matter a block at a time and
// resynchronizes the lexer around them: the properties hold on every input,
// bytes that are no MLIR included.
TEST(TopologyIndexTest, PropertiesHoldOnRandomBytes) {
  std::mt19937 rng(20261202);
  // Rich in what the lexer cares about; the second alphabet has no
  // backslash, so that blocks take the string-skipping path.
  static constexpr llvm::StringLiteral alphabets[] = {
      "0123456789.-eExX\"\\/%@#!^$_abzAZ \n\t+,:;()<>[]{}=",
      "0123456789.-eEx\"/%@#!^$_az \n+",
      "0123456789..--ee\"  ",
  };
  auto randomText = [&](size_t length, llvm::StringRef alphabet) {
    std::string text(length, ' ');
    for (char &c : text) {
      unsigned r = rng() % 64;
      c = r == 0 ? '\0' : r == 1 ? '\xff' : alphabet[rng() % alphabet.size()];
    }
    return text;
  };
  for (int k = 0; k < 20000; ++k) {
    std::string text = randomText(rng() % 301, alphabets[k % 3]);
    ASSERT_TRUE(propertiesHold(text)) << shown(text);
  }
  for (int k = 0; k < 6; ++k) {
    std::string text = randomText(100000 + rng() % 1000, alphabets[k % 3]);
    ASSERT_TRUE(propertiesHold(text)) << shown(text);
  }
}

// Text shaped like a program: tokens and gaps of the sizes the block scan
// skips over (long strings, comments, names), joined at random.
TEST(TopologyIndexTest, PropertiesHoldOnTokenSoup) {
  std::mt19937 rng(7);
  static constexpr llvm::StringLiteral pieces[] = {
      "%cst_1 = arith.constant ",
      "0.5",
      "-1.5e-3",
      "2.",
      "3.0E+2",
      "1.0e",
      "->",
      "0x1.5",
      "%a-1.5",
      "@f1.5",
      "#a2.5",
      "!t3.5",
      "^bb4.5",
      "x2.5",
      "$3.5",
      "a.1.5",
      "\"RZ\"",
      "\"1.5\\\"2.5\"",
      "\"\\\\\"",
      "\"",
      "\\",
      "// 0.5 \"c\n",
      "//",
      "/",
      "-",
      ".",
      "1",
      " : f64\n",
      "quantum.custom ",
      "    ",
      "\n",
      "dense<[1.5, -2.0]>",
      "e+3",
      "9.",
      "tensor<16xf64> attributes {diff_method = \"adjoint\"}",
      "%a_name_longer_than_one_block_of_the_scan_with_digits_1_2_3_and.dots.4",
      "\"a long string that straddles the blocks of the scan 1.5 // not a comment\"",
  };
  for (int k = 0; k < 3000; ++k) {
    std::string text;
    for (size_t count = rng() % 80; count > 0; --count)
      text += pieces[rng() % std::size(pieces)];
    ASSERT_TRUE(propertiesHold(text)) << shown(text);
  }
}

// Literals and stops at the edges of the 16- and 64-byte blocks, and at the
// first and last bytes.
TEST(TopologyIndexTest, PropertiesHoldAtBlockEdges) {
  static constexpr llvm::StringLiteral cases[] = {
      ".5",        "1.",    "1.5", "-1.5", "%a-1.5", "\"1.5\"",     "\"\\",   "\"ab",     "//",
      "// x\n2.5", "0x1.5", "-",   "/",    "\"",     "a\"1.5\"2.5", "1e-3.5", "1.5e+3.5", "\\\"1.5",
  };
  for (llvm::StringRef tail : cases) {
    for (size_t pad = 0; pad <= 130; ++pad) {
      for (char fill : {' ', 'a', '-', '1', '%', '"'}) {
        std::string text = std::string(pad, fill) + tail.str();
        ASSERT_TRUE(propertiesHold(text)) << shown(text);
        text += std::string(130 - pad, ' ') + " 2.5";
        ASSERT_TRUE(propertiesHold(text)) << shown(text);
      }
    }
  }
}

// Short pieces between literals are hashed in batches and long ones
// directly: the digest must not see where one ends and the other starts.
TEST(TopologyIndexTest, PropertiesHoldOnShortAndLongPieces) {
  std::mt19937 rng(3);
  for (int k = 0; k < 200; ++k) {
    std::string text;
    for (int piece = 0; piece < 20; ++piece) {
      size_t gap = rng() % 4 == 0 ? 3000 + rng() % 3000 : rng() % 40;
      text += std::string(gap, char('a' + piece % 26)) + " 1.5 ";
    }
    ASSERT_TRUE(propertiesHold(text)) << shown(text);
  }
  std::string many;
  for (int piece = 0; piece < 30000; ++piece)
    many += piece % 1000 ? "x 1.5 " : std::string(5000, 'y') + " 2.5 ";
  ASSERT_TRUE(propertiesHold(many)) << shown(many);
}

// Every MLIR file of the repository's lit tests: real programs.
TEST(TopologyIndexTest, PropertiesHoldOnTheLitTests) {
  std::error_code ec;
  size_t files = 0;
  for (llvm::sys::fs::recursive_directory_iterator it(QSHAPE_SOURCE_DIR "/test", ec), end;
       it != end && !ec; it.increment(ec)) {
    if (!llvm::StringRef(it->path()).ends_with(".mlir"))
      continue;
    auto buffer = llvm::MemoryBuffer::getFile(it->path());
    ASSERT_TRUE(bool(buffer)) << it->path();
    ASSERT_TRUE(propertiesHold((*buffer)->getBuffer())) << it->path();
    ++files;
  }
  ASSERT_FALSE(ec) << ec.message();
  EXPECT_GT(files, 50u);
}

TEST(TopologyIndexTest, SkeletonIgnoresLiteralsAndComments) {
  SourceSkeleton a = scanSkeleton("// geometry 0\n%a = arith.constant 0.5 : f64\n");
  SourceSkeleton b = scanSkeleton("// geometry 1\n%a = arith.constant -2.25e1 : f64\n");
  SourceSkeleton c = scanSkeleton("%a = arith.constant 0.5 : f32\n");
  EXPECT_EQ(a.digest, b.digest);
  EXPECT_NE(a.digest, c.digest);
  // Framed pieces: moving text across a literal changes the skeleton.
  EXPECT_NE(scanSkeleton("a 1.0 bb").digest, scanSkeleton("ab 1.0 b").digest);
}

TEST(TopologyIndexTest, MapClaimsEveryLiteralOnce) {
  llvm::StringRef text = "%a = arith.constant 0.5 : f64\n"
                         "%t = arith.constant dense<[1.5, -2.0]> : tensor<2xf64>\n"
                         "%s = arith.constant dense<0.25> : tensor<3xf64>\n";
  SourceSkeleton skeleton = scanSkeleton(text);
  uint32_t second = uint32_t(text.find("%t")), third = uint32_t(text.find("%s"));
  std::vector<LiftedSource> sources = {
      {0, 0, 1, false}, {second, 1, 2, false}, {third, 3, 3, true}};
  std::vector<double> values = {0.5, 1.5, -2.0, 0.25, 0.25, 0.25};
  llvm::Expected<TopologyMap> map = mapLiterals(text, skeleton, sources, values);
  ASSERT_TRUE(bool(map)) << llvm::toString(map.takeError());

  // Round trip, then another program's values.
  std::optional<TopologyMap> back = TopologyMap::parse(map->serialize());
  ASSERT_TRUE(back.has_value());
  llvm::StringRef other = "%a = arith.constant -7.0 : f64\n"
                          "%t = arith.constant dense<[0.125, 3.0]> : tensor<2xf64>\n"
                          "%s = arith.constant dense<1.0> : tensor<3xf64>\n";
  SourceSkeleton otherSkeleton = scanSkeleton(other);
  ASSERT_EQ(otherSkeleton.digest, skeleton.digest);
  llvm::Expected<std::vector<double>> read = back->readValues(other, otherSkeleton);
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  EXPECT_EQ(*read, (std::vector<double>{-7.0, 0.125, 3.0, 1.0, 1.0, 1.0}));

  // A value that is not its literal's, a literal no constant claims, a slot
  // filled twice: no map.
  std::vector<double> wrong = values;
  wrong[2] = 2.0;
  EXPECT_FALSE(bool(mapLiterals(text, skeleton, sources, wrong)));
  llvm::consumeError(mapLiterals(text, skeleton, sources, wrong).takeError());
  std::vector<LiftedSource> fewer(sources.begin(), sources.begin() + 2);
  std::vector<double> fewerValues(values.begin(), values.begin() + 3);
  llvm::Expected<TopologyMap> unclaimed = mapLiterals(text, skeleton, fewer, fewerValues);
  ASSERT_FALSE(bool(unclaimed));
  EXPECT_NE(llvm::toString(unclaimed.takeError()).find("line 3"), std::string::npos);
  std::vector<LiftedSource> twice = {{0, 0, 1, false}, {0, 0, 1, false}};
  llvm::Expected<TopologyMap> dup = mapLiterals(text, skeleton, twice, values);
  EXPECT_FALSE(bool(dup));
  llvm::consumeError(dup.takeError());
}

TEST(TopologyIndexTest, ConstantsMustSpellTheirOwnLiterals) {
  // The op at offset 0 is not an arith.constant: its literal is not its own.
  llvm::StringRef text = "%g = foo.bar 0.5 : f64\n";
  std::vector<LiftedSource> sources = {{0, 0, 1, false}};
  llvm::Expected<TopologyMap> map = mapLiterals(text, scanSkeleton(text), sources, {0.5});
  EXPECT_FALSE(bool(map));
  llvm::consumeError(map.takeError());
}

TEST(TopologyIndexTest, MalformedMapsAreRefused) {
  EXPECT_FALSE(TopologyMap::parse("").has_value());
  EXPECT_FALSE(TopologyMap::parse("qshape-topology-map 2\nslots 1\nliterals 1\n").has_value());
  // Claims must cover the slots, within the literals.
  EXPECT_FALSE(TopologyMap::parse("qshape-topology-map 1\nslots 2\nliterals 1\n"
                                  "claim 0 0 1 each\n")
                   .has_value());
  EXPECT_FALSE(TopologyMap::parse("qshape-topology-map 1\nslots 2\nliterals 1\n"
                                  "claim 0 0 2 each\n")
                   .has_value());
  EXPECT_TRUE(TopologyMap::parse("qshape-topology-map 1\nslots 2\nliterals 1\n"
                                 "claim 0 0 2 splat\n")
                  .has_value());
  // A program with another number of literals cannot be read by the map.
  std::optional<TopologyMap> map =
      TopologyMap::parse("qshape-topology-map 1\nslots 1\nliterals 1\nclaim 0 0 1 each\n");
  ASSERT_TRUE(map.has_value());
  llvm::StringRef two = "1.0 2.0";
  llvm::Expected<std::vector<double>> read = map->readValues(two, scanSkeleton(two));
  EXPECT_FALSE(bool(read));
  llvm::consumeError(read.takeError());
}

} // namespace
