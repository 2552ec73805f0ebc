//===- CacheUtils.h - shared by the qshape-cache passes ---------*- C++ -*-===//
//
// Private to lib/Transforms: what qshape-cache, qshape-cache-lookup and
// qshape-cache-store share (options, the key, the bytecode payload, the
// routing of the store's one warning to an MLIR diagnostic).
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_LIB_TRANSFORMS_CACHEUTILS_H
#define QSHAPE_LIB_TRANSFORMS_CACHEUTILS_H

#include "qshape/Cache/CacheKey.h"
#include "qshape/Cache/CacheStore.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <optional>
#include <string>

namespace qshape::cachepass {

/// Attributes the staged passes put on the module (ignored by fingerprints,
/// see isQShapeAnnotation).
constexpr llvm::StringLiteral kCacheKeyAttr = "qshape.cache_key";
constexpr llvm::StringLiteral kCacheHitAttr = "qshape.cache_hit";

enum class Mode { ReadWrite, Read, Write, Off };

/// "readwrite", "read", "write", "off".
std::optional<Mode> parseMode(llvm::StringRef text);
inline bool looksUp(Mode m) { return m == Mode::ReadWrite || m == Mode::Read; }
inline bool stores(Mode m) { return m == Mode::ReadWrite || m == Mode::Write; }

/// Options shared by the passes, checked once in initialize().
struct ParsedOptions {
  Mode mode = Mode::ReadWrite;
  uint64_t maxSizeBytes = 0; ///< 0: the store's default
};

/// Parses `mode` and `max-size`; emits an error at an unknown location and
/// returns failure on a bad value.
mlir::FailureOr<ParsedOptions> parseOptions(mlir::MLIRContext *ctx,
                                            llvm::StringRef passName,
                                            llvm::StringRef mode,
                                            llvm::StringRef maxSize);

/// Parses a pipeline on `builtin.module`: either "a,func.func(b)" or
/// "builtin.module(a,func.func(b))". The error text goes to `errors`.
mlir::FailureOr<mlir::OpPassManager>
parseModulePipeline(llvm::StringRef text, llvm::raw_ostream &errors);

/// Registers the dialects `pipeline`'s passes depend on (nothing when it
/// does not parse; initialize() reports that). The nested passes create ops
/// of them, and a hit installs such ops, so they must be loaded up front.
void addPipelineDependentDialects(llvm::StringRef pipeline, mlir::DialectRegistry &registry);

/// The pipeline as MLIR prints it back (every option spelled out), which is
/// what keys hash: spacing and defaults do not change a key.
std::string printPipeline(const mlir::OpPassManager &pm);

/// Everything of the key except the fingerprint and the pipeline, computed
/// once per process: "LLVM <version>; host <library> <size> <mtime>".
llvm::StringRef toolchainIdentity();

/// The exact fingerprint of `module` ("blake3:<hex>"), the part of the key
/// that describes the input. Fails only if the module cannot be
/// canonicalized.
mlir::FailureOr<std::string> fingerprintModule(mlir::ModuleOp module);

/// The key of an input with exact fingerprint `fingerprint`, compiled by
/// `normalizedPipeline` (printPipeline()) with `salt`.
cache::CacheKey computeKey(llvm::StringRef fingerprint,
                           llvm::StringRef normalizedPipeline,
                           llvm::StringRef salt);

/// Stores `module` as MLIR bytecode under `key`. Returns the store's result,
/// or failure (reported, once per process, like the store's own problems)
/// when the module cannot be written as bytecode.
mlir::FailureOr<cache::StoreResult> storeModule(cache::CacheStore &store, mlir::ModuleOp module,
                                                llvm::StringRef key, uint64_t compileMs);

/// Replaces the body, attributes and properties of `module` with those of
/// the module in `payload` (bytecode). On failure `module` is unchanged and
/// `why` says what was wrong; parse diagnostics are not emitted.
mlir::LogicalResult installModule(mlir::ModuleOp module,
                                  llvm::StringRef payload, std::string &why);

/// While alive, the first cache problem of the process (the store's one
/// warning) is emitted as an MLIR warning at `loc` when it happens on this
/// thread; outside of it, warnings go to stderr as usual.
class ScopedWarningRouting {
public:
  explicit ScopedWarningRouting(mlir::Location loc);
  ~ScopedWarningRouting();
  ScopedWarningRouting(const ScopedWarningRouting &) = delete;
  ScopedWarningRouting &operator=(const ScopedWarningRouting &) = delete;

private:
  const mlir::Location *previous;
  mlir::Location loc;
};

/// Lets qshape-cache-store learn when qshape-cache-lookup saw the key (in
/// the same process), for the entry's compile time.
void recordLookupTime(llvm::StringRef key);
/// Milliseconds since recordLookupTime(key), or 0 if it was not recorded.
uint64_t takeMillisSinceLookup(llvm::StringRef key);

/// Milliseconds between two instants.
inline double millisBetween(std::chrono::steady_clock::time_point a,
                            std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

} // namespace qshape::cachepass

#endif // QSHAPE_LIB_TRANSFORMS_CACHEUTILS_H
