//===- TopologyIndexTest.cpp - the skeleton lexer and the literal map -----===//
//
// What the topology index treats as a float literal (and what it must not),
// that equal skeletons mean equal texts up to those literals, and the map's
// refusals. test/Tools/qshape-compile/topology-index.py checks the whole
// path against the oracle.
//
//===----------------------------------------------------------------------===//

#include "qshape/Compile/TopologyIndex.h"

#include "gtest/gtest.h"

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

TEST(TopologyIndexTest, FloatLiteralsOnly) {
  EXPECT_EQ(literals("%c = arith.constant 0.5 : f64"), std::vector<std::string>{"0.5"});
  EXPECT_EQ(literals("dense<[-1.5e-3, 2., 3.0E+2]> -> %x"),
            (std::vector<std::string>{"-1.5e-3", "2.", "3.0E+2"}));
  // Integers, hex, names with digits and dots, strings, comments: skeleton.
  EXPECT_TRUE(literals("%c1_i64 = arith.constant 1 : i64").empty());
  EXPECT_TRUE(literals("%x.0 = foo 0x3FF0000000000000 @f1.5 #a2.5 !t3.5 ^bb4.5").empty());
  EXPECT_TRUE(literals("quantum.device [\"lib-1.2.so\", \"{'a': 0.5}\"]").empty());
  EXPECT_TRUE(literals("// 0.5 in a comment\n").empty());
  EXPECT_TRUE(literals("tensor<4x4xf64> x2.5").empty());
  // An exponent needs digits; the '-' of '->' is not a sign.
  EXPECT_EQ(literals("1.0e ->2.5"), (std::vector<std::string>{"1.0", "2.5"}));
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
  std::vector<LiftedSource> sources = {{0, 0, 1, false}, {second, 1, 2, false},
                                       {third, 3, 3, true}};
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
