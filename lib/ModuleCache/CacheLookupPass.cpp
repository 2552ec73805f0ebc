//===- CacheLookupPass.cpp - qshape-cache-lookup: first half of a staged one ===//
//
// At the start of a staged lowering: key the input, record the key on the
// module and, on a hit, load the cached final module, empty the module (so
// the stages in between have nothing to do) and mark it, so that
// qshape-cache-store installs the cached module instead of storing.
//
//===----------------------------------------------------------------------===//

#include "qshape/ModuleCache/ModuleCache.h"
#include "qshape/ModuleCache/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#define DEBUG_TYPE "qshape-cache-lookup"

namespace qshape {
#define GEN_PASS_DEF_QSHAPECACHELOOKUP
#include "qshape/ModuleCache/Passes.h.inc"
} // namespace qshape

using namespace mlir;
using namespace qshape;
using namespace qshape::modulecache;

namespace {
struct QShapeCacheLookupPass : qshape::impl::QShapeCacheLookupBase<QShapeCacheLookupPass> {
  using QShapeCacheLookupBase::QShapeCacheLookupBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    addPipelineDependentDialects(pipeline, registry);
  }

  LogicalResult initialize(MLIRContext *ctx) override {
    FailureOr<CacheSettings> opts = parseCacheSettings(ctx, getArgument(), dir, mode, "", remote);
    if (failed(opts))
      return failure();
    parsed = *opts;
    if (failed(parseNativeOptions(ctx)))
      return failure();
    if (StringRef(pipeline).trim().empty()) {
      normalizedPipeline.clear();
      return success();
    }
    std::string errorText;
    llvm::raw_string_ostream errors(errorText);
    FailureOr<OpPassManager> pm = parseModulePipeline(pipeline, errors);
    if (failed(pm))
      return emitError(UnknownLoc::get(ctx)) << "qshape-cache-lookup: invalid pipeline '"
                                             << pipeline << "': " << StringRef(errorText).trim();
    normalizedPipeline = printPipeline(*pm);
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (parsed.mode == cache::AccessMode::Off) {
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
    cache::CacheKey key =
        computeKey(*fingerprint, normalizedPipeline, salt, library ? nativeIdentity(*library) : "");
    std::string keyText = key.str();
    PendingStore pending{parsed, std::chrono::steady_clock::now(), {}, library};
    Builder b(module.getContext());

    LookupOutcome found;
    if (cache::reads(parsed.mode)) {
      std::shared_ptr<cache::CacheBackend> backend = cache::openCache(parsed.config);
      found = lookupAndInstall(*backend, module, key,
                               verifyHit ? HitVerification::Verify : HitVerification::Skip,
                               deferInstall ? &pending.deferred : nullptr);
      countLookup(found, numHits, numMisses, numCorrupt, numErrors);
    }
    // A deferred hit: the stages up to qshape-cache-store find an empty
    // module (op-anchored passes do not run at all, module passes have
    // nothing to do); the store installs the cached final module.
    bool deferred = found.hit() && pending.deferred;
    if (deferred)
      hollowModule(module);
    recordPendingStore(keyText, std::move(pending));
    module->setAttr(kCacheKeyAttr, b.getStringAttr(keyText));
    // "deferred": the module is a placeholder until qshape-cache-store.
    if (found.hit())
      module->setAttr(kCacheHitAttr, deferred ? Attribute(b.getStringAttr("deferred"))
                                              : Attribute(b.getUnitAttr()));
    if (emitRemarks)
      emitRemark(module.getLoc()) << "qshape-cache: " << describeLookup(found, parsed.mode, key);
  }

private:
  /// With `native`: the linker, target and runtime of the library, found
  /// once (they are part of the key).
  LogicalResult parseNativeOptions(MLIRContext *ctx) {
    library.reset();
    if (!native)
      return success();
    auto fail = [&](const Twine &why) {
      return emitError(UnknownLoc::get(ctx)) << "qshape-cache-lookup: native: " << why;
    };
    if (optLevel > 3)
      return fail("opt-level=" + Twine(optLevel) + " is not 0, 1, 2 or 3");
    llvm::Expected<compile::Linker> found = compile::findLinker(linker, /*allowInProcess=*/false);
    if (!found)
      return fail(llvm::toString(found.takeError()));
    codegen::LibraryOptions options;
    options.target = compile::TargetInfo::host();
    options.optLevel = optLevel;
    options.linker = std::move(*found);
    // Catalyst loads its library RTLD_LOCAL, so the forwarded library finds
    // the runtime only through its own NEEDED entry: without one, the
    // program would stop at its first call with an undefined symbol.
    if (StringRef(runtimeLib).empty())
      return fail("give runtime-lib=PATH, the runtime the library links against (Catalyst's "
                  "librt_capi.so or qshape's libqshape-runtime.so)");
    llvm::SmallString<256> path(runtimeLib);
    if (llvm::sys::fs::make_absolute(path) || !llvm::sys::fs::is_regular_file(path))
      return fail("runtime-lib=" + runtimeLib +
                  " names no file: give the path of a runtime library (Catalyst's "
                  "librt_capi.so or qshape's libqshape-runtime.so)");
    options.runtimeLib = path.str().str();
    library = std::move(options);
    return success();
  }

  CacheSettings parsed;
  std::optional<codegen::LibraryOptions> library;
  std::string normalizedPipeline;
};
} // namespace
