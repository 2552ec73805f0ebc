//===- ToolInput.cpp - checks on program text before MLIR parses it -------===//

#include "qshape/ToolSupport/ToolInput.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

using namespace qshape;

namespace {
bool isSuffixIdChar(char c) {
  return llvm::isAlnum(c) || c == '$' || c == '.' || c == '_' || c == '-';
}

/// If a string or a comment starts at `i`, the offset just past its end;
/// otherwise `i`. The one rule of what is quoted, for both scans below.
size_t skipQuoted(llvm::StringRef text, size_t i) {
  size_t n = text.size();
  if (text[i] == '"') {
    for (++i; i < n; ++i) {
      if (text[i] == '\\')
        ++i; // the escaped character
      else if (text[i] == '"')
        return i + 1;
    }
    return n;
  }
  if (text[i] == '/' && i + 1 < n && text[i + 1] == '/') {
    size_t newline = text.find('\n', i);
    return newline == llvm::StringRef::npos ? n : newline + 1;
  }
  return i;
}

/// Where strings and comments are, found by one forward pass that each
/// query continues: the candidates come in increasing order.
class QuotedRegions {
public:
  explicit QuotedRegions(llvm::StringRef text) : text(text) {}

  /// Whether `offset` lies in a string or a comment.
  bool contains(size_t offset) {
    while (offset >= end) {
      begin = end;
      while (begin < text.size() && skipQuoted(text, begin) == begin)
        ++begin;
      end = begin < text.size() ? skipQuoted(text, begin) : SIZE_MAX;
    }
    return offset >= begin;
  }

private:
  llvm::StringRef text;
  size_t begin = 0, end = 0; ///< the region at or after the last query
};
} // namespace

std::optional<OversizedResultNumber> qshape::findOversizedResultNumber(llvm::StringRef text) {
  const uint64_t limit = std::max<uint64_t>(kMinOversizedResultNumber, text.size());
  // A number with fewer digits is below the limit: skipped at once.
  const size_t minDigits = std::to_string(kMinOversizedResultNumber).size();
  QuotedRegions quoted(text);
  const char *begin = text.data(), *end = begin + text.size();
  for (const char *hash = begin;
       (hash = static_cast<const char *>(std::memchr(hash, '#', size_t(end - hash)))); ++hash) {
    const char *digits = hash + 1, *p = digits;
    while (p < end && llvm::isDigit(*p))
      ++p;
    if (size_t(p - digits) < minDigits)
      continue;
    uint64_t number = 0;
    for (const char *d = digits; d < p; ++d)
      number = number > (UINT64_MAX - 9) / 10 ? UINT64_MAX : number * 10 + uint64_t(*d - '0');
    if (number < limit)
      continue;
    const char *name = hash;
    while (name > begin && isSuffixIdChar(name[-1]))
      --name;
    if (name == hash || name == begin || name[-1] != '%')
      continue;
    auto offset = size_t(name - 1 - begin);
    if (quoted.contains(offset))
      continue;
    return OversizedResultNumber{offset, size_t(p - begin) - offset, number};
  }
  return std::nullopt;
}

std::optional<size_t> qshape::findExcessiveNesting(llvm::StringRef text, unsigned limit) {
  // One pass at about a byte a cycle: most bytes are none of these.
  enum Kind : uint8_t { Other, Quote, Open, Close, Angle, Closing };
  static const auto kinds = [] {
    std::array<Kind, 256> k{};
    k['"'] = k['/'] = Quote;
    k['('] = k['['] = k['{'] = Open;
    k[')'] = k[']'] = k['}'] = Close;
    k['<'] = Angle;
    k['>'] = Closing;
    return k;
  }();
  unsigned depth = 0;
  for (size_t i = 0, n = text.size(); i < n; ++i) {
    switch (kinds[uint8_t(text[i])]) {
    case Other:
      continue;
    case Quote:
      if (size_t end = skipQuoted(text, i); end != i)
        i = end - 1;
      continue;
    case Angle: // `<=` opens nothing
      if (i + 1 < n && text[i + 1] == '=')
        continue;
      [[fallthrough]];
    case Open:
      if (++depth > limit)
        return i;
      continue;
    case Closing: // `->` and `>=` close nothing
      if ((i > 0 && text[i - 1] == '-') || (i + 1 < n && text[i + 1] == '='))
        continue;
      [[fallthrough]];
    case Close:
      depth -= depth > 0;
      continue;
    }
  }
  return std::nullopt;
}

std::optional<ToolInputProblem> qshape::findToolInputProblem(llvm::StringRef text) {
  if (std::optional<OversizedResultNumber> found = findOversizedResultNumber(text)) {
    llvm::StringRef use = text.substr(found->offset, found->length);
    std::string number =
        found->number == UINT64_MAX ? std::string("beyond 2^64") : std::to_string(found->number);
    return ToolInputProblem{
        found->offset,
        ("'" + use + "' names result " + number + ", more than a program of " +
         std::to_string(text.size()) +
         " bytes can declare: the text is damaged or not a program (MLIR's parser would "
         "allocate a table of that many results and run out of memory)")
            .str()};
  }
  if (std::optional<size_t> offset = findExcessiveNesting(text))
    return ToolInputProblem{*offset, "brackets nested more than " + std::to_string(kMaxNesting) +
                                         " deep: the text is damaged or not a program (MLIR's "
                                         "parser recurses once per level and would overflow "
                                         "its stack)"};
  return std::nullopt;
}

mlir::LogicalResult qshape::checkToolInput(llvm::SourceMgr &sourceMgr, mlir::MLIRContext *ctx) {
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  llvm::StringRef text = buffer->getBuffer();
  std::optional<ToolInputProblem> problem = findToolInputProblem(text);
  if (!problem)
    return mlir::success();
  llvm::SMLoc loc = llvm::SMLoc::getFromPointer(text.data() + problem->offset);
  if (!ctx) {
    sourceMgr.PrintMessage(loc, llvm::SourceMgr::DK_Error, problem->message);
    return mlir::failure();
  }
  auto [line, column] = sourceMgr.getLineAndColumn(loc);
  mlir::emitError(mlir::FileLineColLoc::get(ctx, buffer->getBufferIdentifier(), line, column))
      << problem->message;
  return mlir::failure();
}
