//===- ValueIO.h - JSON arguments and results of qshape-sim -----*- C++ -*-===//
//
// `--args` is a JSON list with one entry per function argument: a number
// for a scalar or a 0-d tensor (a bool or a number for i1), [re, im] for a
// complex, and a list for a ranked tensor, either flat (row-major) or nested
// along the shape.
//
// Results print as `{"results": [...]}`: floats and 0-d float tensors as
// numbers, ranked tensors as (nested) lists, complex numbers as [re, im],
// i1 as a bool, other integers as integers. Floats use the shortest text
// that reads back to the same double (17 significant digits at most);
// non-finite values print as NaN, Infinity, -Infinity (as Python's json).
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_INTERPRETER_VALUEIO_H
#define QSHAPE_INTERPRETER_VALUEIO_H

#include "qshape/Interpreter/RuntimeValue.h"

#include "mlir/IR/TypeRange.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace qshape::interp {

/// LLVM's option parser expands `@file` arguments as response files, so a
/// tool with `--args JSON|@FILE` rewrites `--args @F` and `--args=@F` to
/// `--args-file=F` (a hidden option) before parsing its command line. Returns
/// the new argv (for cl::ParseCommandLineOptions); its strings live in
/// `storage`.
std::vector<const char *> rewriteArgsFileOption(int argc, char **argv,
                                                std::vector<std::string> &storage);

/// The JSON of `--args`: `text`, or the contents of `file` when not empty.
llvm::Expected<std::string> readArgsText(llvm::StringRef text, llvm::StringRef file);

/// Parses the JSON text of `--args` against the argument types `types`.
llvm::Expected<llvm::SmallVector<RtValue>> parseArguments(mlir::TypeRange types,
                                                          llvm::StringRef json);

struct FormatOptions {
  /// Round floats to this many decimal places before printing (tests and
  /// humans); full precision when unset.
  std::optional<unsigned> decimals;
};

/// `{"results": [...]}` for `values` of the given result `types`.
llvm::Expected<std::string> formatResults(mlir::TypeRange types, llvm::ArrayRef<RtValue> values,
                                          const FormatOptions &options = {});

/// The shortest decimal text that reads back as `v` (or as the float `v`
/// when `isF32`), with ".0" added to integral values.
std::string formatFloat(double v, bool isF32 = false);

} // namespace qshape::interp

#endif // QSHAPE_INTERPRETER_VALUEIO_H
