//===- CacheLookup.cpp - qshape-cache-lookup: first half of a staged cache ===//
//
// At the start of a staged lowering: key the input, record the key on the
// module and, on a hit, install the cached final module and mark it so that
// qshape-cache-store does not store it again.
//
//===----------------------------------------------------------------------===//

#include "qshape/ModuleCache/ModuleCache.h"
#include "qshape/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

#define DEBUG_TYPE "qshape-cache-lookup"

namespace qshape {
#define GEN_PASS_DEF_QSHAPECACHELOOKUP
#include "qshape/Transforms/Passes.h.inc"
} // namespace qshape

using namespace mlir;
using namespace qshape;
using namespace qshape::modulecache;

namespace {
struct QShapeCacheLookupPass
    : qshape::impl::QShapeCacheLookupBase<QShapeCacheLookupPass> {
  using QShapeCacheLookupBase::QShapeCacheLookupBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    addPipelineDependentDialects(pipeline, registry);
  }

  LogicalResult initialize(MLIRContext *ctx) override {
    FailureOr<CacheSettings> opts =
        parseCacheSettings(ctx, getArgument(), dir, mode, "", remote);
    if (failed(opts))
      return failure();
    parsed = *opts;
    if (StringRef(pipeline).trim().empty()) {
      normalizedPipeline.clear();
      return success();
    }
    std::string errorText;
    llvm::raw_string_ostream errors(errorText);
    FailureOr<OpPassManager> pm = parseModulePipeline(pipeline, errors);
    if (failed(pm))
      return emitError(UnknownLoc::get(ctx))
             << "qshape-cache-lookup: invalid pipeline '" << pipeline
             << "': " << StringRef(errorText).trim();
    normalizedPipeline = printPipeline(*pm);
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (parsed.mode == Mode::Off) {
      markAllAnalysesPreserved();
      return;
    }
    ScopedWarningRouting routing(module.getLoc());
    FailureOr<std::string> fingerprint = fingerprintModule(module);
    if (failed(fingerprint)) {
      ++numErrors;
      module.emitWarning("qshape-cache-lookup: cannot fingerprint the "
                         "module; compiling without the cache");
      markAllAnalysesPreserved();
      return;
    }
    cache::CacheKey key = computeKey(*fingerprint, normalizedPipeline, salt);
    std::string keyText = key.str();
    recordPendingStore(keyText, {parsed, std::chrono::steady_clock::now()});
    Builder b(module.getContext());

    LookupOutcome found;
    if (looksUp(parsed.mode)) {
      std::shared_ptr<cache::CacheBackend> backend =
          cache::openCache(parsed.config);
      found = lookupAndInstall(*backend, module, key);
      countLookup(found, numHits, numMisses, numCorrupt, numErrors);
    }
    module->setAttr(kCacheKeyAttr, b.getStringAttr(keyText));
    if (found.hit())
      module->setAttr(kCacheHitAttr, b.getUnitAttr());
    if (emitRemarks)
      emitRemark(module.getLoc())
          << "qshape-cache: " << describeLookup(found, parsed.mode, key);
  }

private:
  CacheSettings parsed;
  std::string normalizedPipeline;
};
} // namespace
