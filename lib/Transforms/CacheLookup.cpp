//===- CacheLookup.cpp - qshape-cache-lookup: first half of a staged cache ===//
//
// At the start of a staged lowering: key the input, record the key on the
// module and, on a hit, install the cached final module and mark it so that
// qshape-cache-store does not store it again.
//
//===----------------------------------------------------------------------===//

#include "CacheUtils.h"

#include "qshape/Cache/CacheStore.h"
#include "qshape/Cache/Diagnostics.h"
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
using namespace qshape::cachepass;

namespace {
struct QShapeCacheLookupPass
    : qshape::impl::QShapeCacheLookupBase<QShapeCacheLookupPass> {
  using QShapeCacheLookupBase::QShapeCacheLookupBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    addPipelineDependentDialects(pipeline, registry);
  }

  LogicalResult initialize(MLIRContext *ctx) override {
    FailureOr<ParsedOptions> opts = parseOptions(ctx, getArgument(), mode, "");
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
    std::string keyText =
        computeKey(*fingerprint, normalizedPipeline, salt).str();
    recordLookupTime(keyText);
    Builder b(module.getContext());

    bool hit = false;
    if (looksUp(parsed.mode)) {
      cache::CacheOptions options;
      options.Directory = dir;
      cache::CacheStore store(options);
      cache::LookupResult found = store.lookup(keyText);
      switch (found.Status) {
      case cache::LookupStatus::Hit: {
        std::string why;
        if (succeeded(installModule(
                module, found.Entry->Payload->getBuffer(), why))) {
          hit = true;
          ++numHits;
        } else {
          cache::reportProblem("cache entry " + keyText + " does not load (" +
                               why + "); recompiling and replacing it");
          ++numCorrupt;
          ++numMisses;
        }
        break;
      }
      case cache::LookupStatus::Corrupt:
        ++numCorrupt;
        ++numMisses;
        break;
      case cache::LookupStatus::Miss:
        ++numMisses;
        break;
      default:
        ++numErrors;
        ++numMisses;
        break;
      }
    }
    module->setAttr(kCacheKeyAttr, b.getStringAttr(keyText));
    if (hit)
      module->setAttr(kCacheHitAttr, b.getUnitAttr());
    if (emitRemarks)
      emitRemark(module.getLoc())
          << "qshape-cache: "
          << (hit ? "hit " : looksUp(parsed.mode) ? "miss " : "write ")
          << keyText;
  }

private:
  ParsedOptions parsed;
  std::string normalizedPipeline;
};
} // namespace
