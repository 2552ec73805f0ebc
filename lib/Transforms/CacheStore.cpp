//===- CacheStore.cpp - qshape-cache-store: second half of a staged cache -===//
//
// At the end of a staged lowering: remove the attributes qshape-cache-lookup
// put on the module and, unless the module came from the cache, store it
// under the recorded key.
//
//===----------------------------------------------------------------------===//

#include "CacheUtils.h"

#include "qshape/Cache/CacheStore.h"
#include "qshape/Cache/Diagnostics.h"
#include "qshape/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"

#define DEBUG_TYPE "qshape-cache-store"

namespace qshape {
#define GEN_PASS_DEF_QSHAPECACHESTORE
#include "qshape/Transforms/Passes.h.inc"
} // namespace qshape

using namespace mlir;
using namespace qshape;
using namespace qshape::cachepass;

namespace {
struct QShapeCacheStorePass
    : qshape::impl::QShapeCacheStoreBase<QShapeCacheStorePass> {
  using QShapeCacheStoreBase::QShapeCacheStoreBase;

  LogicalResult initialize(MLIRContext *ctx) override {
    FailureOr<ParsedOptions> opts =
        parseOptions(ctx, getArgument(), mode, maxSize);
    if (failed(opts))
      return failure();
    parsed = *opts;
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto keyAttr = module->getAttrOfType<StringAttr>(kCacheKeyAttr);
    bool hit = module->hasAttr(kCacheHitAttr);
    module->removeAttr(kCacheKeyAttr);
    module->removeAttr(kCacheHitAttr);
    if (parsed.mode == Mode::Off)
      return;
    if (!keyAttr) {
      module.emitWarning()
          << "qshape-cache-store: the module has no " << kCacheKeyAttr
          << " attribute; run qshape-cache-lookup at the start of the first "
             "stage (nothing stored)";
      return;
    }
    std::string keyText = keyAttr.getValue().str();
    uint64_t compileMs = takeMillisSinceLookup(keyText);
    if (hit || !stores(parsed.mode)) {
      if (emitRemarks)
        emitRemark(module.getLoc())
            << "qshape-cache: nothing to store for " << keyText
            << (hit ? " (hit)" : " (mode=read)");
      return;
    }

    ScopedWarningRouting routing(module.getLoc());
    cache::CacheOptions options;
    options.Directory = dir;
    options.MaxSizeBytes = parsed.maxSizeBytes;
    cache::CacheStore store(options);
    if (!store.isEnabled()) {
      ++numErrors;
      return;
    }
    FailureOr<cache::StoreResult> stored = storeModule(store, module, keyText, compileMs);
    if (failed(stored)) {
      ++numErrors;
      return;
    }
    if (stored->Status == cache::StoreStatus::InvalidKey) {
      ++numErrors;
      module.emitWarning() << "qshape-cache-store: " << stored->Detail
                           << " (nothing stored)";
      return;
    }
    if (!stored->stored()) {
      ++numErrors; // the store reported it (one warning per process)
      return;
    }
    ++numStores;
    if (emitRemarks)
      emitRemark(module.getLoc()) << "qshape-cache: stored " << keyText;
  }

private:
  ParsedOptions parsed;
};
} // namespace
