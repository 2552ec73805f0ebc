//===- CompileOptions.cpp - what a qshape-compile run is asked for --------===//

#include "qshape/Compile/CompileOptions.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

namespace qshape::compile {

llvm::StringRef getEmitName(EmitKind kind) {
  switch (kind) {
  case EmitKind::MLIR:
    return "mlir";
  case EmitKind::LLVMIR:
    return "llvm";
  case EmitKind::Object:
    return "obj";
  case EmitKind::SharedLibrary:
    return "so";
  }
  return "so";
}

std::string getOutputPathInDirectory(llvm::StringRef dir, llvm::StringRef input, EmitKind kind) {
  llvm::StringRef extension = kind == EmitKind::MLIR     ? ".mlir"
                              : kind == EmitKind::LLVMIR ? ".ll"
                              : kind == EmitKind::Object ? ".o"
                                                         : ".so";
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, llvm::sys::path::stem(input) + extension);
  return path.str().str();
}

/// The one place that says which MLIR pipeline a compilation runs.
/// --no-roll compiles the program as written: neither the canonical form
/// nor rolling. (The passes of a pass manager anchored on builtin.module.)
std::string getPipelineSpec(const CompileOptions &options) {
  const char *on = options.roll ? "true" : "false";
  return std::string("qshape-lower-to-llvm{canonicalize=") + on + " roll=" + on + "}";
}

} // namespace qshape::compile
