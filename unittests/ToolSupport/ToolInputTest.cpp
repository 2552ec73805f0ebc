//===- ToolInputTest.cpp - the check on program text before parsing -------===//

#include "qshape/ToolSupport/ToolInput.h"

#include "gtest/gtest.h"

#include <string>

using namespace qshape;

namespace {

TEST(ToolInput, ReportsTheFirstUseAtOrBeyondTheLimit) {
  std::string text = "%a#1048575 %b#7 %c#1048576 %d#2000000";
  std::optional<OversizedResultNumber> found = findOversizedResultNumber(text);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->offset, text.find("%c"));
  EXPECT_EQ(found->length, std::string("%c#1048576").size());
  EXPECT_EQ(found->number, 1048576u);
}

TEST(ToolInput, TheLimitGrowsWithTheText) {
  // Past 2^20 bytes the limit is the text's size: a number below it may be
  // a real result of a value with that many results declared.
  std::string padding = "// " + std::string(3000000, 'x') + "\n";
  EXPECT_FALSE(findOversizedResultNumber(padding + "%v#2999999"));
  std::optional<OversizedResultNumber> found =
      findOversizedResultNumber(padding + "%v#" + std::to_string(padding.size() + 10));
  ASSERT_TRUE(found);
  EXPECT_EQ(found->offset, padding.size());
}

TEST(ToolInput, StringsCommentsAndOtherHashesAreNotUses) {
  EXPECT_FALSE(findOversizedResultNumber("// %v#2000000\n"));
  EXPECT_FALSE(findOversizedResultNumber("\"%v#2000000\""));
  EXPECT_FALSE(findOversizedResultNumber("\"\\\" %v#2000000\""));
  EXPECT_FALSE(findOversizedResultNumber("#loc2000000 = loc(\"a\")"));
  EXPECT_FALSE(findOversizedResultNumber("v#2000000 %#2000000"));
  // After a string and a comment end, uses count again.
  std::string text = "\"a\\\\\" // x\n%v#2000000";
  std::optional<OversizedResultNumber> found = findOversizedResultNumber(text);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->offset, text.find("%v"));
}

TEST(ToolInput, NumbersBeyond64BitsSaturate) {
  std::optional<OversizedResultNumber> found =
      findOversizedResultNumber("%0#123456789012345678901234567890");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->number, UINT64_MAX);
}

std::string repeat(const std::string &s, unsigned n) {
  std::string out;
  for (unsigned i = 0; i < n; ++i)
    out += s;
  return out;
}

TEST(ToolInput, ReportsTheFirstBracketPastTheDepthLimit) {
  EXPECT_FALSE(findExcessiveNesting(repeat("[", 4) + repeat("]", 4), 4));
  std::string text = "x " + repeat("[", 5) + repeat("]", 5);
  std::optional<size_t> found = findExcessiveNesting(text, 4);
  ASSERT_TRUE(found);
  EXPECT_EQ(*found, text.find('[') + 4);
  // Every kind of bracket counts, and closing ones end their levels.
  EXPECT_EQ(findExcessiveNesting("({[<a>]})({[<b>]})", 4), std::nullopt);
  EXPECT_EQ(findExcessiveNesting("({[<<a>>]})", 4), std::optional<size_t>(4));
  // The default is kMaxNesting.
  EXPECT_FALSE(findExcessiveNesting(repeat("(", kMaxNesting)));
  EXPECT_TRUE(findExcessiveNesting(repeat("(", kMaxNesting + 1)));
}

TEST(ToolInput, ArrowsComparisonsStringsAndCommentsCloseNoLevel) {
  // Nested function types: `->` does not end a level (else each level would
  // count as none, and any depth would pass).
  std::string fns = repeat("(() -> ", 5) + "()" + repeat(")", 5);
  EXPECT_TRUE(findExcessiveNesting(fns, 4));
  std::string sets = repeat("[affine_set<(d0) : (d0 >= 0)>, ", 5) + repeat("]", 5);
  EXPECT_TRUE(findExcessiveNesting(sets, 4));
  EXPECT_FALSE(findExcessiveNesting("(a <= b)", 1));
  // Brackets in strings and comments are text.
  EXPECT_FALSE(findExcessiveNesting("\"((((((\" // ((((((\n()", 1));
  EXPECT_FALSE(findExcessiveNesting("\"\\\"((((\"", 1));
  EXPECT_TRUE(findExcessiveNesting("\"a\" // b\n((", 1));
}

} // namespace
