//===- Cache.cpp - qshape-cache: a nested pipeline behind the cache -------===//
//
// Key the input module, install a cached result on a hit, otherwise run the
// nested pipeline (dynamic pipeline) and store what it produced. Cache
// problems never fail the pass; only the nested pipeline can.
//
//===----------------------------------------------------------------------===//

#include "qshape/ModuleCache/ModuleCache.h"
#include "qshape/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/Format.h"

#define DEBUG_TYPE "qshape-cache"

namespace qshape {
#define GEN_PASS_DEF_QSHAPECACHE
#include "qshape/Transforms/Passes.h.inc"
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
      return emitError(UnknownLoc::get(ctx))
             << "qshape-cache: invalid nested pipeline '" << pipeline
             << "': " << StringRef(errorText).trim();
    nested = std::move(*pm);
    normalizedPipeline = printPipeline(nested);
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (parsed.mode == Mode::Off) {
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
    std::shared_ptr<cache::CacheBackend> backend =
        cache::openCache(parsed.config);
    if (!backend->isEnabled())
      ++numErrors;

    LookupOutcome found;
    if (looksUp(parsed.mode)) {
      found = lookupAndInstall(*backend, module, key);
      countLookup(found, numHits, numMisses, numCorrupt, numErrors);
    }
    Clock::time_point looked = Clock::now();
    if (emitRemarks)
      emitRemark(module.getLoc())
          << "qshape-cache: " << describeLookup(found, parsed.mode, key);
    if (found.hit()) {
      reportTiming(module, start, fingerprinted, keyed, looked, looked, looked);
      return;
    }

    if (failed(runPipeline(nested, module)))
      return signalPassFailure();
    Clock::time_point compiled = Clock::now();
    if (stores(parsed.mode) && backend->isEnabled())
      storeResult(*backend, module, key, millisBetween(looked, compiled));
    reportTiming(module, start, fingerprinted, keyed, looked, compiled,
                 Clock::now());
  }

private:
  void storeResult(cache::CacheBackend &backend, ModuleOp module,
                   const cache::CacheKey &key, double compileMs) {
    FailureOr<cache::StoreResult> stored =
        storeModule(backend, module, key, uint64_t(compileMs));
    if (succeeded(stored) && stored->stored())
      ++numStores;
    else
      ++numErrors; // reported (one warning per process)
  }

  void reportTiming(ModuleOp module, Clock::time_point start,
                    Clock::time_point fingerprinted, Clock::time_point keyed,
                    Clock::time_point looked, Clock::time_point compiled,
                    Clock::time_point end) {
    if (!timing)
      return;
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::format("qshape-cache: timing: key %.3f ms (fingerprint %.3f "
                       "ms), lookup %.3f ms, pipeline %.3f ms, store %.3f ms, "
                       "total %.3f ms",
                       millisBetween(start, keyed),
                       millisBetween(start, fingerprinted),
                       millisBetween(keyed, looked),
                       millisBetween(looked, compiled),
                       millisBetween(compiled, end), millisBetween(start, end));
    emitRemark(module.getLoc()) << text;
  }

  CacheSettings parsed;
  OpPassManager nested{ModuleOp::getOperationName()};
  std::string normalizedPipeline;
};
} // namespace
