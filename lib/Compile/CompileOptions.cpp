//===- CompileOptions.cpp - what a qshape-compile run is asked for --------===//

#include "qshape/Compile/CompileOptions.h"

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

/// The one place that says which MLIR pipeline a compilation runs.
/// --no-roll compiles the program as written: neither the canonical form
/// nor rolling. (The passes of a pass manager anchored on builtin.module.)
std::string getPipelineSpec(const CompileOptions &options) {
  const char *on = options.roll ? "true" : "false";
  return std::string("qshape-lower-to-llvm{canonicalize=") + on + " roll=" + on + "}";
}

} // namespace qshape::compile
