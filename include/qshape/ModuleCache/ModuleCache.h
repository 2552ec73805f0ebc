//===- ModuleCache.h - MLIR modules in the compile cache --------*- C++ -*-===//
//
// The MLIR half of the cache, used by qshape-cache, qshape-cache-lookup and
// qshape-cache-store (and by any driver that caches MLIR modules): the pass
// options, the key of a module and a pipeline, the bytecode payload, the one
// lookup-and-install helper, and the routing of the cache's one warning to an
// MLIR diagnostic. The cache levels themselves are qshape/Cache (no MLIR).
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_MODULECACHE_MODULECACHE_H
#define QSHAPE_MODULECACHE_MODULECACHE_H

#include "qshape/Cache/AccessMode.h"
#include "qshape/Cache/CacheBackend.h"
#include "qshape/Cache/CacheKey.h"
#include "qshape/Codegen/Codegen.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>

namespace qshape::modulecache {

/// Attributes the staged passes put on the module (ignored by fingerprints,
/// see isQShapeAnnotation).
constexpr llvm::StringLiteral kCacheKeyAttr = "qshape.cache_key";
constexpr llvm::StringLiteral kCacheHitAttr = "qshape.cache_hit";

/// What a cache pass's options name, checked once in initialize().
struct CacheSettings {
  cache::AccessMode mode = cache::AccessMode::ReadWrite;
  cache::CacheConfig config;
};

/// Parses the `dir`, `mode`, `max-size` and `remote` options (empty: the
/// default; `mode` empty means readwrite). Emits an error at an unknown
/// location and returns failure on a bad value.
mlir::FailureOr<CacheSettings> parseCacheSettings(mlir::MLIRContext *ctx, llvm::StringRef passName,
                                                  llvm::StringRef dir, llvm::StringRef mode,
                                                  llvm::StringRef maxSize, llvm::StringRef remote);

/// Parses a pipeline on `builtin.module`: either "a,func.func(b)" or
/// "builtin.module(a,func.func(b))". The error text goes to `errors`.
mlir::FailureOr<mlir::OpPassManager> parseModulePipeline(llvm::StringRef text,
                                                         llvm::raw_ostream &errors);

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
/// `normalizedPipeline` (printPipeline()) with `salt`; `native`, when not
/// empty, names what a native entry's library depends on besides
/// (nativeIdentity()), so that native and plain entries never share a key.
cache::CacheKey computeKey(llvm::StringRef fingerprint, llvm::StringRef normalizedPipeline,
                           llvm::StringRef salt, llvm::StringRef native = {});

/// What a native entry's library depends on beyond its module: the target,
/// the optimisation level, the linker and the runtime it needs, and the
/// version of the forwarding module (Forwarding.h).
std::string nativeIdentity(const codegen::LibraryOptions &options);

/// Puts every use list under `root` in the order MLIR's bytecode reader
/// creates it. The writer records each use list that is in another order,
/// and the reader shuffles it back, on every hit: on W2 lowered to the LLVM
/// dialect that made the payload 19 % larger and its read 10 % slower.
/// A use list's order has no meaning, so this changes no result.
void orderUsesAsRead(mlir::Operation *root);

/// `module` as MLIR bytecode, the payload of an entry, after
/// orderUsesAsRead(module): so the module a miss goes on with and the one a
/// hit reads have their uses in the same order. Fails (reported once per
/// process, like the cache's own problems) if it cannot be written.
mlir::FailureOr<std::string> encodeModule(mlir::ModuleOp module, const cache::CacheKey &key);

/// Whether a hit's module is run through the verifier before it is used.
/// The bytecode reader itself never verifies (ParserConfig's
/// verifyAfterParse is off): on W2 lowered to the LLVM dialect a verification
/// costs about as much as reading the module.
///
/// Skipping the pass manager's verifier: the pass manager verifies the IR
/// after every pass unless the pass preserved all analyses
/// (OpToOpPassAdaptor::run in mlir/lib/Pass/Pass.cpp). A cache pass that
/// installed a module known to verify (storeModule verifies before it
/// stores; a hit is read from checksummed bytes under a key that names this
/// build, and verified again with HitVerification::Verify) clears the
/// analysis manager and then marks all analyses preserved. Clearing first
/// is what makes that claim true: the module's ops were replaced, and an
/// analysis cached for an old op (or for a new op that reuses its address)
/// would be stale; with none cached, nothing stale is kept, and the only
/// effect is that the verifier does not run again.
enum class HitVerification { Skip, Verify };

/// The module in `payload` (bytecode), detached, in `ctx`, not verified
/// (the caller chooses: HitVerification). On failure `why` says what was
/// wrong; parse diagnostics are not emitted.
mlir::FailureOr<mlir::OwningOpRef<mlir::ModuleOp>>
loadModule(mlir::MLIRContext *ctx, llvm::StringRef payload, std::string &why);

/// Runs the verifier on `op` without emitting its diagnostics; on failure
/// `why` says so with the first one.
mlir::LogicalResult verifyQuietly(mlir::Operation *op, std::string &why);

/// Gives `module` the body, attributes and properties of `cached` (which is
/// left empty).
void replaceModule(mlir::ModuleOp module, mlir::ModuleOp cached);

/// Erases everything in `module`'s body (an empty block remains), so that
/// the passes a staged hit does not need find nothing to do.
void hollowModule(mlir::ModuleOp module);

/// What lookupAndInstall() did.
struct LookupOutcome {
  enum class Kind {
    Hit,     ///< `module` now holds the cached result
    Miss,    ///< no entry anywhere
    Corrupt, ///< a bad or refused entry, or one that does not load (a miss)
    Error,   ///< the cache could not be read (a miss; reported)
  };
  Kind kind = Kind::Miss;
  cache::CacheLevel level = cache::CacheLevel::None; ///< of a hit
  std::string detail;
  /// Of a hit: the time spent reading the payload into a module, and the
  /// time of its verification (unset when skipped), in milliseconds.
  double loadMs = 0;
  std::optional<double> verifyMs;
  bool hit() const { return kind == Kind::Hit; }
};

/// The lookup of every MLIR cache pass: looks `key` up in `backend` (local,
/// then remote) and installs a hit into `module`. A verified payload that
/// does not load (a producer bug, a foreign MLIR) is reported once and is a
/// miss that the following store replaces.
/// With `deferred`, a hit is loaded into `*deferred` instead, and `module`
/// is left as it was (qshape-cache-lookup installs it at the store). With
/// HitVerification::Verify, a payload whose module does not verify is a
/// corrupt entry too, and `module` is left as it was.
LookupOutcome lookupAndInstall(cache::CacheBackend &backend, mlir::ModuleOp module,
                               const cache::CacheKey &key, HitVerification verification,
                               mlir::OwningOpRef<mlir::ModuleOp> *deferred = nullptr);

/// Adds a lookup to the statistics every cache pass declares (hits, misses,
/// corrupt, errors): a corrupt entry or an error is a miss too.
void countLookup(const LookupOutcome &outcome, mlir::Pass::Statistic &hits,
                 mlir::Pass::Statistic &misses, mlir::Pass::Statistic &corrupt,
                 mlir::Pass::Statistic &errors);

/// "hit <key>", "hit <key> (remote)", "miss <key>", "write <key>": the text
/// of the passes' remarks.
std::string describeLookup(const LookupOutcome &outcome, cache::AccessMode mode,
                           const cache::CacheKey &key);

/// Stores `module` as MLIR bytecode under `key` (to every level), but only
/// after it verified: that is what lets a hit skip the verifier
/// (HitVerification::Skip). Failure if it does not verify (not reported:
/// the pass manager's verifier reports it) or cannot be encoded (reported);
/// success means the module verified, whether or not a level stored it.
mlir::FailureOr<cache::StoreResult> storeModule(cache::CacheBackend &backend, mlir::ModuleOp module,
                                                const cache::CacheKey &key, uint64_t compileMs);

/// While alive, the first cache problem of the process (per source: local,
/// remote) is emitted as an MLIR warning at `loc` when it happens on this
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

/// What qshape-cache-lookup leaves for qshape-cache-store in the same
/// process: the cache it used, its mode, and when it looked.
struct PendingStore {
  CacheSettings settings;
  std::chrono::steady_clock::time_point lookedUp;
  /// A hit with defer-install: the cached final module, loaded in the
  /// pipeline's context, which qshape-cache-store installs into the module
  /// the lookup emptied.
  mlir::OwningOpRef<mlir::ModuleOp> deferred;
  /// With qshape-cache-lookup{native}: how qshape-cache-store compiles the
  /// lowered module into the library its forwarding module carries.
  std::optional<codegen::LibraryOptions> native;
};
void recordPendingStore(llvm::StringRef key, PendingStore pending);
/// The record of `key` (removed), or nullopt if this process did not look
/// `key` up.
std::optional<PendingStore> takePendingStore(llvm::StringRef key);

/// Milliseconds between two instants.
inline double millisBetween(std::chrono::steady_clock::time_point a,
                            std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

} // namespace qshape::modulecache

#endif // QSHAPE_MODULECACHE_MODULECACHE_H
