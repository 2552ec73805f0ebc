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
/// nor rolling. With --share-topology the module is in canonical form
/// already (its pre-key steps), so the pipeline does not put it there again.
/// (The passes of a pass manager anchored on builtin.module.)
std::string getPipelineSpec(const CompileOptions &options) {
  auto flag = [](bool on) { return on ? "true" : "false"; };
  return std::string("qshape-lower-to-llvm{canonicalize=") +
         flag(options.roll && !options.shareTopology) + " roll=" + flag(options.roll) + "}";
}

} // namespace qshape::compile
