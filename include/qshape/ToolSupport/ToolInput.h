//===- ToolInput.h - checks on program text before MLIR parses it -*- C++ -*-===//
//
// MLIR's parser (LLVM 22) sizes a value's table of results by the largest
// result number a use names (`%x#N`) before it checks that number against
// the value, so a few bytes of text make it allocate 16*N bytes: 64 GB for
// `%x#4000000000`, and an out-of-memory abort instead of a diagnostic. And it
// recurses once (or more) per level of nesting, so a few thousand nested
// brackets overflow its stack: a crash. Every qshape tool that parses program
// text runs checkToolInput first.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TOOLSUPPORT_TOOLINPUT_H
#define QSHAPE_TOOLSUPPORT_TOOLINPUT_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace qshape {

/// The smallest result number that findOversizedResultNumber reports in any
/// text: what MLIR would allocate for a smaller one (16 MB) is harmless.
constexpr uint64_t kMinOversizedResultNumber = uint64_t(1) << 20;

struct OversizedResultNumber {
  size_t offset;   ///< of the use's `%`
  size_t length;   ///< of the use, `%` to the last digit
  uint64_t number; ///< saturated at UINT64_MAX
};

/// The first use `%name#N`, outside strings and comments, whose N is at
/// least max(kMinOversizedResultNumber, text.size()). A value's results are
/// declared in the text that defines them (a count or a type per result), so
/// no program this size uses such a number.
std::optional<OversizedResultNumber> findOversizedResultNumber(llvm::StringRef text);

/// The deepest nesting of brackets (`(`, `[`, `{`, `<`) the tools parse.
/// MLIR's parser in qshape's tools overflows its stack at about 5000 nested
/// `[` (4000 levels of regions, each two brackets deep); no program nests
/// more than a few dozen.
constexpr unsigned kMaxNesting = 1000;

/// The offset of the first bracket, outside strings and comments, that opens
/// a level deeper than `limit`. The `>` of `->` and `>=` closes nothing.
std::optional<size_t> findExcessiveNesting(llvm::StringRef text, unsigned limit = kMaxNesting);

/// What would make MLIR's parser crash or run out of memory on `text`.
struct ToolInputProblem {
  size_t offset;       ///< where it starts
  std::string message; ///< what is wrong, for a diagnostic at `offset`
};

/// The first problem of `text` that findOversizedResultNumber or
/// findExcessiveNesting finds: every check the tools make before they parse
/// (the fuzz targets skip what it reports).
std::optional<ToolInputProblem> findToolInputProblem(llvm::StringRef text);

/// Checks the main buffer of `sourceMgr`. A problem findToolInputProblem
/// finds is reported as a located error, through `ctx`'s diagnostic
/// handlers, or printed by `sourceMgr` when `ctx` is null, and the result is
/// failure().
mlir::LogicalResult checkToolInput(llvm::SourceMgr &sourceMgr, mlir::MLIRContext *ctx);

} // namespace qshape

#endif // QSHAPE_TOOLSUPPORT_TOOLINPUT_H
