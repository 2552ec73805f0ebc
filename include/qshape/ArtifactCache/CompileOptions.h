//===- CompileOptions.h - what a qshape-compile run is asked for -*- C++ -*-===//
//
// The options of a compilation and the MLIR pipeline they select, apart
// from the compiler (Compiler.h) so that the part of qshape-compile that
// needs no MLIR (the artifact cache's front end, tools/qshape-compile)
// computes keys from the same definitions.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_ARTIFACTCACHE_COMPILEOPTIONS_H
#define QSHAPE_ARTIFACTCACHE_COMPILEOPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/LogicalResult.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class PassManager;
} // namespace mlir

namespace qshape::compile {

/// What qshape-compile writes.
enum class EmitKind {
  MLIR,          ///< the module after the MLIR pipeline (LLVM dialect), text
  LLVMIR,        ///< LLVM IR after optimisation, text
  Object,        ///< the object file
  SharedLibrary, ///< the linked library (default)
};
/// "mlir", "llvm", "obj", "so": the values of --emit.
llvm::StringRef getEmitName(EmitKind kind);

/// qshape-compile --output-dir: where `input`'s output goes, DIR/<input's
/// file name without its last extension>.<.mlir|.ll|.o|.so by kind>. The
/// compiler and its front end both name outputs by it.
std::string getOutputPathInDirectory(llvm::StringRef dir, llvm::StringRef input, EmitKind kind);

/// Each input's output, as qshape-compile names them: `outputFile` (-o) for
/// one input, else each input's name in `outputDir`. An error that says what
/// to do when they cannot be named (several inputs without a directory, -o
/// with one, stdin in one, two inputs of one name, an output that would be
/// its own input). The compiler reports it; its front end hands over.
llvm::Expected<std::vector<std::string>> getOutputPaths(llvm::ArrayRef<std::string> inputs,
                                                        llvm::StringRef outputFile,
                                                        llvm::StringRef outputDir, EmitKind kind);

/// Catalyst's default. Its driver (mlir/lib/Driver) runs no LLVM IR
/// optimisation pipeline unless a module needs Enzyme, and generates code
/// with CodeGenOptLevel::None; --opt-level=0 does the same (the O0 pipeline,
/// which only runs always-inline, and CodeGenOptLevel::None).
constexpr unsigned kDefaultOptLevel = 0;

/// Whose host loads the library (--abi).
enum class ABI {
  /// qshape-run's and qshape.Artifact's: result buffers from malloc, the
  /// host frees them.
  QShape,
  /// Catalyst's CompiledFunction's: every result buffer from the runtime's
  /// _mlir_memref_to_llvm_alloc (constants and arguments copied into one),
  /// taken by the host with _mlir_memory_transfer before teardown.
  Catalyst,
};
/// --abi's values, "qshape" and "catalyst"; nullopt for another.
std::optional<ABI> parseABI(llvm::StringRef name);

struct CompileOptions {
  /// LLVM optimisation and code generation level, 0..3.
  unsigned optLevel = kDefaultOptLevel;
  /// qshape-roll-loops (with qshape-canonicalize) in the pipeline.
  bool roll = true;
  EmitKind emit = EmitKind::SharedLibrary;
  ABI abi = ABI::QShape;
  /// --runtime-lib: the runtime the library is linked against (NEEDED, with
  /// an rpath to its directory), as an absolute path; empty: none, the host
  /// loads one first (qshape-run does).
  std::string runtimeLib;
  /// The linker (--linker): a program, or "in-process" for lld's library;
  /// overrides $QSHAPE_LINKER and the default (Toolchain.h).
  std::string linker;
  /// --share-topology: before the key, put the module in canonical form and
  /// lift its f64 constants into one value-free table
  /// (qshape-lift-parameters{abstract-values}), so every program of one shape
  /// has one key and one library; the values are kept
  /// (getParameterValues()) and writeParameters() puts them into OUT.
  bool shareTopology = false;
  /// Called on the MLIR pass manager before it runs (qshape-compile applies
  /// MLIR's --mlir-timing, --mlir-print-ir-* options here).
  std::function<llvm::LogicalResult(mlir::PassManager &)> configurePassManager;
  /// Called once, when the module is translated to LLVM IR and destroyed
  /// (before LLVM's optimisation): nothing of the compilation uses the
  /// MLIRContext after it, so its owner may destroy it and give its memory
  /// (uniqued types, attributes, locations) to LLVM's stages.
  std::function<void()> releaseContext;
};

/// --runtime-lib's value made absolute; an error that says what to do if
/// it names no file.
llvm::Expected<std::string> resolveRuntimeLib(llvm::StringRef path);

/// The MLIR pipeline a compilation with `options` runs, as written (the
/// one place that says so); CompileFacts::pipeline is its expansion.
std::string getPipelineSpec(const CompileOptions &options);

} // namespace qshape::compile

#endif // QSHAPE_ARTIFACTCACHE_COMPILEOPTIONS_H
