//===- ToolInput.cpp - checks on program text before MLIR parses it -------===//

#include "qshape/ToolInput.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>
#include <cstring>

using namespace qshape;

namespace {
bool isSuffixIdChar(char c) {
  return llvm::isAlnum(c) || c == '$' || c == '.' || c == '_' || c == '-';
}

/// Where strings and comments are, found by one forward pass that each
/// query continues: the candidates come in increasing order.
class Lexer {
public:
  explicit Lexer(llvm::StringRef text) : text(text) {}

  /// Whether `offset` lies in a string or a comment.
  bool isQuoted(size_t offset) {
    while (pos < offset) {
      char c = text[pos];
      if (inString) {
        if (c == '\\')
          ++pos; // the escaped character
        else if (c == '"')
          inString = false;
      } else if (inComment) {
        inComment = c != '\n';
      } else if (c == '"') {
        inString = true;
      } else if (c == '/' && pos + 1 < text.size() && text[pos + 1] == '/') {
        inComment = true;
        ++pos;
      }
      ++pos;
    }
    return inString || inComment;
  }

private:
  llvm::StringRef text;
  size_t pos = 0;
  bool inString = false, inComment = false;
};
} // namespace

std::optional<OversizedResultNumber> qshape::findOversizedResultNumber(llvm::StringRef text) {
  const uint64_t limit = std::max<uint64_t>(kMinOversizedResultNumber, text.size());
  // A number with fewer digits is below the limit: skipped at once.
  const size_t minDigits = std::to_string(kMinOversizedResultNumber).size();
  Lexer lexer(text);
  const char *begin = text.data(), *end = begin + text.size();
  for (const char *hash = begin; (hash = static_cast<const char *>(
                                      std::memchr(hash, '#', size_t(end - hash))));
       ++hash) {
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
    size_t offset = size_t(name - 1 - begin);
    if (lexer.isQuoted(offset))
      continue;
    return OversizedResultNumber{offset, size_t(p - begin) - offset, number};
  }
  return std::nullopt;
}

mlir::LogicalResult qshape::checkToolInput(llvm::SourceMgr &sourceMgr, mlir::MLIRContext *ctx) {
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  llvm::StringRef text = buffer->getBuffer();
  std::optional<OversizedResultNumber> found = findOversizedResultNumber(text);
  if (!found)
    return mlir::success();
  llvm::StringRef use = text.substr(found->offset, found->length);
  std::string number =
      found->number == UINT64_MAX ? std::string("beyond 2^64") : std::to_string(found->number);
  std::string message = ("'" + use + "' names result " + number + ", more than a program of " +
                         std::to_string(text.size()) +
                         " bytes can declare: the text is damaged or not a program (MLIR's "
                         "parser would allocate a table of that many results and run out of "
                         "memory)")
                            .str();
  llvm::SMLoc loc = llvm::SMLoc::getFromPointer(use.data());
  if (!ctx) {
    sourceMgr.PrintMessage(loc, llvm::SourceMgr::DK_Error, message);
    return mlir::failure();
  }
  auto [line, column] = sourceMgr.getLineAndColumn(loc);
  mlir::emitError(mlir::FileLineColLoc::get(ctx, buffer->getBufferIdentifier(), line, column))
      << message;
  return mlir::failure();
}
