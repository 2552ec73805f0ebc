//===- Compiler.h - qshape-compile's driver: MLIR in, shared library out -*- C++ -*-===//
//
// The engine behind `qshape-compile IN.mlir -o OUT.so`, a library so that
// the artifact cache and a Python binding can drive it too. A Compilation
// goes through these stages, each timed:
//
//   parse        the Catalyst-shaped module (tensor level)
//   facts        everything the output depends on (CompileFacts), known
//                before any lowering: the exact fingerprint, the pipeline
//                text and options, the target and the toolchain; their
//                BLAKE3 is the compile key
//   mlir-passes  the registered pipeline `qshape-lower-to-llvm` (rolling on
//                or off), down to the LLVM dialect
//   translate    to LLVM IR; the library info document (LibraryInfo.h) is
//                added as a global in its own section
//   llvm-opt     LLVM's new pass manager at --opt-level
//   codegen      an object file, in process, for the host TargetMachine
//   link         a shared library, by lld in process or an external
//                linker (Toolchain.h)
//
// Memory: the MLIR module, its pass manager and (through
// CompileOptions::releaseContext) the MLIRContext are destroyed once the
// module is translated, before LLVM's stages; getPeaks() says what the
// process's peak resident set was after each stage.
//
// Outputs go through OutputFile (temporary + rename). The artifact cache
// (ArtifactCache.h) computes getFacts(), and on a hit writes its stored
// library into the output instead of calling compile().
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_COMPILE_COMPILER_H
#define QSHAPE_COMPILE_COMPILER_H

#include "qshape/ArtifactCache/CompileOptions.h"
#include "qshape/ArtifactCache/OutputFile.h"
#include "qshape/ArtifactCache/Toolchain.h"
#include "qshape/ArtifactCache/TopologyIndex.h"
#include "qshape/Cache/CacheKey.h"
#include "qshape/LibraryInfo/LibraryInfo.h"
#include "qshape/Transforms/LiftParameters.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class DialectRegistry;
class MLIRContext;
class PassManager;
} // namespace mlir

namespace qshape::compile {

/// Seconds spent in each stage (0 for stages that did not run).
struct StageTimes {
  double parse = 0, facts = 0, mlirPasses = 0, translate = 0, llvmOpt = 0, codegen = 0, link = 0;
  double total() const { return parse + facts + mlirPasses + translate + llvmOpt + codegen + link; }
};

/// The process's peak resident set size (getrusage's ru_maxrss, KB) at the
/// end of each stage (0 for stages that did not run): the peak of the run
/// is the last nonzero one. A child linker's memory is not in it.
struct StagePeaks {
  uint64_t parse = 0, facts = 0, mlirPasses = 0, translate = 0, llvmOpt = 0, codegen = 0, link = 0;
};

/// Sizes seen on the way (for --timing and the benchmarks).
struct CompileStats {
  /// Operations of the module after the MLIR pipeline.
  uint64_t mlirOps = 0;
  /// Functions and instructions of the LLVM module after optimisation.
  uint64_t llvmFunctions = 0;
  uint64_t llvmInstructions = 0;
  uint64_t objectBytes = 0;
  uint64_t outputBytes = 0;
};

/// Everything that decides a compilation's output, in one place, known
/// before any lowering: what the compile key hashes.
struct CompileFacts {
  /// qshape-fingerprint's exact digest of the input module.
  std::string fingerprint;
  /// The MLIR pipeline as text, expanded with every pass option.
  std::string pipeline;
  unsigned optLevel = kDefaultOptLevel;
  bool roll = true;
  EmitKind emit = EmitKind::SharedLibrary;
  TargetInfo target;
  /// "qshape <version>" and the build id of the binary (cache::getBuildId).
  std::string producer;
  std::string buildId;
  std::string llvmVersion;
  /// Linker::identity; empty when nothing is linked (emit != so).
  std::string linkerIdentity;
  /// QSHAPE_RUNTIME_ABI_VERSION the lowering calls.
  uint32_t runtimeAbiVersion = 0;
  /// --runtime-lib (absolute); in the key only when set.
  std::string runtimeLib;
  /// --share-topology: what ran before the key (empty: nothing); in the key
  /// only when set, so plain keys do not change.
  std::string preKey;

  /// The fields above, named, in a fixed order; key() is their BLAKE3 and
  /// manifest() names each field's digest (to see why two keys differ).
  cache::KeyBuilder keyBuilder() const;
  std::string key() const { return keyBuilder().final(); }
};

class Compilation {
public:
  /// Everything a compilation parses, lowers and translates: qshape's tool
  /// dialects, the interfaces the pipeline uses, LLVM IR translations.
  static void registerDialects(mlir::DialectRegistry &registry);
  /// Registers qshape's passes and pipelines (once per process).
  static void registerPasses();

  /// Parses the main buffer of `sourceMgr`. Errors go to the context's
  /// diagnostic handler, located; the returned error only summarises. A
  /// module with StableHLO ops is the exception: the returned error is the
  /// whole, located message (no later stage lowers them).
  static llvm::Expected<std::unique_ptr<Compilation>>
  parse(mlir::MLIRContext &context, llvm::SourceMgr &sourceMgr, CompileOptions options);
  ~Compilation();

  /// The facts (computed once: fingerprint, pipeline, target, linker).
  llvm::Expected<const CompileFacts *> getFacts();

  /// Runs every stage after the facts and writes the result into `output`'s
  /// temporary (the caller commits it), or to stdout when `output` is null
  /// (text emits only).
  llvm::Error compile(OutputFile *output);

  /// --share-topology: the lifted values, in slot order (valid after
  /// getFacts()).
  const std::vector<double> &getParameterValues() const { return parameterValues; }
  /// --share-topology: writes the values into the output's temporary (a
  /// library compiled now or copied from a cache), before it is committed.
  llvm::Error writeParameters(OutputFile &output) const;
  /// --share-topology: where the lifted values sit in the input's text (the
  /// topology index, TopologyIndex.h), or why they cannot be found there
  /// (valid after getFacts()).
  llvm::Expected<TopologyMap> getTopologyMap(const SourceSkeleton &skeleton) const;

  const CompileOptions &getOptions() const { return options; }
  const StageTimes &getTimes() const { return times; }
  const StagePeaks &getPeaks() const { return peaks; }
  const CompileStats &getStats() const { return stats; }
  /// The info embedded in the library (valid after the translate stage).
  const native::LibraryInfo &getLibraryInfo() const { return info; }

private:
  Compilation(mlir::MLIRContext &context, CompileOptions options, std::string inputName);
  void describeEntries();
  void placeLiftedSources(llvm::ArrayRef<LiftedParameters::Source> sources);
  llvm::Error checkTopologyMap(const TopologyMap &map, const SourceSkeleton &skeleton,
                               llvm::StringRef text) const;
  llvm::Error runPipeline();
  /// The info document of the library: one entry per Python-interface
  /// wrapper the pipeline made, typed by its source function.
  llvm::Error buildLibraryInfo();
  llvm::Error translateAndOptimize();
  llvm::Error emitObject(llvm::SmallVectorImpl<char> &object);

  struct LLVMState;
  mlir::MLIRContext &context;
  CompileOptions options;
  std::string inputName;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// Source signatures of every function, by name, read before lowering.
  struct Signature {
    std::vector<std::string> arguments, results;
  };
  llvm::StringMap<Signature> signatures;
  std::string sourceDefaultEntry;
  std::optional<CompileFacts> facts;
  std::vector<double> parameterValues;
  llvm::SourceMgr *sourceMgr = nullptr;
  /// --share-topology: each lifted constant's place in the text; empty with
  /// `unplaced` set when one of them has no file location in it.
  std::vector<LiftedSource> liftedSources;
  bool unplaced = false;
  std::unique_ptr<mlir::PassManager> passManager;
  std::optional<Linker> linker;
  std::unique_ptr<LLVMState> llvmState;
  native::LibraryInfo info;
  StageTimes times;
  StagePeaks peaks;
  CompileStats stats;
};

} // namespace qshape::compile

#endif // QSHAPE_COMPILE_COMPILER_H
