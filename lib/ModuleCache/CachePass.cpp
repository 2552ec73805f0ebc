//===- CachePass.cpp - qshape-cache: a nested pipeline behind the cache ---===//
//
// Key the input module, install a cached result on a hit, otherwise run the
// nested pipeline (dynamic pipeline) and store what it produced. Cache
// problems never fail the pass; only the nested pipeline can.
//
//===----------------------------------------------------------------------===//

#include "qshape/ModuleCache/ModuleCache.h"
#include "qshape/ModuleCache/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/Format.h"

#define DEBUG_TYPE "qshape-cache"

namespace qshape {
#define GEN_PASS_DEF_QSHAPECACHE
#include "qshape/ModuleCache/Passes.h.inc"
} // namespace qshape

using namespace mlir;
using namespace qshape;
using namespace qshape::modulecache;
using Clock = std::chrono::steady_clock;

namespace {
struct QShapeCachePass : qshape::impl::QShapeCacheBase<QShapeCachePass> {
  using QShapeCacheBase::QShapeCacheBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    addPipelineDependentDialects(pipeline, registry);
  }

  LogicalResult initialize(MLIRContext *ctx) override {
    FailureOr<CacheSettings> opts =
        parseCacheSettings(ctx, getArgument(), dir, mode, maxSize, remote);
    if (failed(opts))
      return failure();
    parsed = *opts;
    std::string errorText;
    llvm::raw_string_ostream errors(errorText);
    FailureOr<OpPassManager> pm = parseModulePipeline(pipeline, errors);
    if (failed(pm))
      return emitError(UnknownLoc::get(ctx)) << "qshape-cache: invalid nested pipeline '"
                                             << pipeline << "': " << StringRef(errorText).trim();
    nested = std::move(*pm);
    normalizedPipeline = printPipeline(nested);
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (parsed.mode == cache::AccessMode::Off) {
      if (failed(runPipeline(nested, module)))
        signalPassFailure();
      return;
    }
    ScopedWarningRouting routing(module.getLoc());
    Clock::time_point start = Clock::now();
    FailureOr<std::string> fingerprint = fingerprintModule(module);
    Clock::time_point fingerprinted = Clock::now();
    if (failed(fingerprint)) {
      ++numErrors;
      module.emitWarning("qshape-cache: cannot fingerprint the module; "
                         "running the pipeline without the cache");
      if (failed(runPipeline(nested, module)))
        signalPassFailure();
      return;
    }
    cache::CacheKey key = computeKey(*fingerprint, normalizedPipeline, salt);
    Clock::time_point keyed = Clock::now();

    // Reports a refused directory or a bad $QSHAPE_CACHE_REMOTE once.
    std::shared_ptr<cache::CacheBackend> backend = cache::openCache(parsed.config);
    if (!backend->isEnabled())
      ++numErrors;

    LookupOutcome found;
    if (cache::reads(parsed.mode)) {
      found = lookupAndInstall(*backend, module, key,
                               verifyHit ? HitVerification::Verify : HitVerification::Skip);
      countLookup(found, numHits, numMisses, numCorrupt, numErrors);
    }
    Clock::time_point looked = Clock::now();
    if (emitRemarks)
      emitRemark(module.getLoc()) << "qshape-cache: " << describeLookup(found, parsed.mode, key);
    if (found.hit()) {
      // Entries are stored only after they verified (below), checked by
      // checksum on read, and keyed by this build: verifying again would
      // only repeat the check the miss made.
      if (!verifyHit)
        ++numUnverifiedHits;
      skipPassManagerVerifier();
      std::string detail;
      llvm::raw_string_ostream os(detail);
      os << llvm::format(" (load %.3f ms, ", found.loadMs);
      if (found.verifyMs)
        os << llvm::format("verify %.3f ms)", *found.verifyMs);
      else
        os << "verify skipped)";
      reportTiming(module, start, fingerprinted, keyed, looked, looked, looked, detail);
      return;
    }

    if (failed(runPipeline(nested, module)))
      return signalPassFailure();
    Clock::time_point compiled = Clock::now();
    // storeModule verifies the module before storing it (whatever
    // -verify-each says), so that its hits need not; one that does not
    // verify is left to the pass manager's verifier, which reports it.
    if (cache::writes(parsed.mode) && backend->isEnabled() &&
        succeeded(storeResult(*backend, module, key, millisBetween(looked, compiled))))
      skipPassManagerVerifier();
    reportTiming(module, start, fingerprinted, keyed, looked, compiled, Clock::now(), "");
  }

private:
  /// Only when the module, as it is now, is known to verify; see
  /// "Skipping the pass manager's verifier" in ModuleCache.h.
  void skipPassManagerVerifier() {
    getAnalysisManager().clear();
    markAllAnalysesPreserved();
  }

  /// Success if the module verified (stored or not).
  LogicalResult storeResult(cache::CacheBackend &backend, ModuleOp module,
                            const cache::CacheKey &key, double compileMs) {
    FailureOr<cache::StoreResult> stored =
        storeModule(backend, module, key, static_cast<uint64_t>(compileMs));
    if (succeeded(stored) && stored->stored())
      ++numStores;
    else
      ++numErrors; // reported (one warning per process)
    return success(succeeded(stored));
  }

  /// `lookupDetail` follows the lookup's time (the load and verification of
  /// a hit). The store's time includes the verification before it.
  void reportTiming(ModuleOp module, Clock::time_point start, Clock::time_point fingerprinted,
                    Clock::time_point keyed, Clock::time_point looked, Clock::time_point compiled,
                    Clock::time_point end, StringRef lookupDetail) {
    if (!timing)
      return;
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::format("qshape-cache: timing: key %.3f ms (fingerprint %.3f "
                       "ms), lookup %.3f ms",
                       millisBetween(start, keyed), millisBetween(start, fingerprinted),
                       millisBetween(keyed, looked))
       << lookupDetail
       << llvm::format(", pipeline %.3f ms, store %.3f ms", millisBetween(looked, compiled),
                       millisBetween(compiled, end))
       << llvm::format(", total %.3f ms", millisBetween(start, end));
    emitRemark(module.getLoc()) << text;
  }

  CacheSettings parsed;
  OpPassManager nested{ModuleOp::getOperationName()};
  std::string normalizedPipeline;
};
} // namespace
