//===- CacheStorePass.cpp - qshape-cache-store: second half of a staged one ===//
//
// At the end of a staged lowering: remove the attributes qshape-cache-lookup
// put on the module and, unless the module came from the cache, store it
// under the recorded key.
//
//===----------------------------------------------------------------------===//

#include "qshape/ModuleCache/Forwarding.h"
#include "qshape/ModuleCache/ModuleCache.h"
#include "qshape/ModuleCache/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

#define DEBUG_TYPE "qshape-cache-store"

namespace qshape {
#define GEN_PASS_DEF_QSHAPECACHESTORE
#include "qshape/ModuleCache/Passes.h.inc"
} // namespace qshape

using namespace mlir;
using namespace qshape;
using namespace qshape::modulecache;

namespace {
struct QShapeCacheStorePass : qshape::impl::QShapeCacheStoreBase<QShapeCacheStorePass> {
  using QShapeCacheStoreBase::QShapeCacheStoreBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    // The native mode translates the lowered module to LLVM IR.
    registry.insert<LLVM::LLVMDialect>();
    registerBuiltinDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
  }

  LogicalResult initialize(MLIRContext *ctx) override {
    // Checked here so that a bad option fails before anything runs; the
    // values are applied over the lookup's settings in runOnOperation().
    FailureOr<CacheSettings> opts =
        parseCacheSettings(ctx, getArgument(), dir, mode, maxSize, remote);
    if (failed(opts))
      return failure();
    own = *opts;
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto keyAttr = module->getAttrOfType<StringAttr>(kCacheKeyAttr);
    bool hit = module->hasAttr(kCacheHitAttr);
    auto hitKind = module->getAttrOfType<StringAttr>(kCacheHitAttr);
    bool deferredHit = hitKind && hitKind.getValue() == "deferred";
    module->removeAttr(kCacheKeyAttr);
    module->removeAttr(kCacheHitAttr);
    std::optional<PendingStore> pending;
    if (keyAttr)
      pending = takePendingStore(keyAttr.getValue());
    if (hit && pending && pending->deferred) {
      // The lookup emptied the module; whatever the stages in between put
      // there is replaced by the cached final module.
      replaceModule(module, *pending->deferred);
      module->removeAttr(kCacheKeyAttr);
      module->removeAttr(kCacheHitAttr);
      // Stored only after it verified (storeModule), and verified again at
      // the lookup with verify-hit.
      skipPassManagerVerifier();
    } else if (deferredHit) {
      module.emitError() << "qshape-cache-store: the module is a deferred cache hit ("
                         << kCacheHitAttr << ") but this process holds no cached module for "
                         << keyAttr.getValue()
                         << "; run qshape-cache-lookup and qshape-cache-store in one process "
                            "and one MLIR context, or give the lookup defer-install=false";
      return signalPassFailure();
    }
    CacheSettings settings = effectiveSettings(pending);
    if (settings.mode == cache::AccessMode::Off)
      return;
    if (!keyAttr) {
      module.emitWarning() << "qshape-cache-store: the module has no " << kCacheKeyAttr
                           << " attribute; run qshape-cache-lookup at the start of the first "
                              "stage (nothing stored)";
      return;
    }
    std::string keyText = keyAttr.getValue().str();
    uint64_t compileMs = pending ? static_cast<uint64_t>(millisBetween(
                                       pending->lookedUp, std::chrono::steady_clock::now()))
                                 : 0;
    if (hit || !cache::writes(settings.mode)) {
      if (emitRemarks)
        emitRemark(module.getLoc()) << "qshape-cache: nothing to store for " << keyText
                                    << (hit ? " (hit)" : " (mode=read)");
      return;
    }
    std::optional<cache::CacheKey> key = cache::CacheKey::parse(keyText);
    if (!key) {
      ++numErrors;
      module.emitWarning() << "qshape-cache-store: invalid cache key '" << keyText
                           << "': " << cache::keySyntaxHelp() << " (nothing stored)";
      return;
    }

    ScopedWarningRouting routing(module.getLoc());
    std::shared_ptr<cache::CacheBackend> backend = cache::openCache(settings.config);
    if (!backend->isEnabled()) {
      ++numErrors;
      return;
    }
    if (pending && pending->native)
      forwardToLibrary(module, *pending->native);
    FailureOr<cache::StoreResult> stored = storeModule(*backend, module, *key, compileMs);
    if (succeeded(stored))
      skipPassManagerVerifier(); // storeModule verified it
    if (failed(stored) || !stored->stored()) {
      ++numErrors; // reported (one warning per process)
      return;
    }
    ++numStores;
    if (emitRemarks)
      emitRemark(module.getLoc()) << "qshape-cache: stored " << keyText;
  }

private:
  /// The native mode's miss: compiles `module` into a library and puts the
  /// forwarding module that carries it in its place. When it cannot (the
  /// module is not forwardable, or does not compile), `module` stays as it
  /// is and is stored so, with a remark: the host compiles it as before.
  void forwardToLibrary(ModuleOp module, const codegen::LibraryOptions &options) {
    std::string why;
    if (failed(verifyQuietly(module, why)))
      return; // not stored either: the pass manager's verifier reports it
    FailureOr<std::vector<std::string>> functions = forwardedFunctions(module, why);
    if (succeeded(functions)) {
      llvm::Expected<std::string> library = codegen::compileSharedLibrary(module, options);
      if (library) {
        installForwardingModule(module, *functions, *library);
        ++numNative;
        if (emitRemarks)
          emitRemark(module.getLoc())
              << "qshape-cache: native: a " << library->size() << "-byte library, "
              << functions->size() << " functions forwarded";
        return;
      }
      why = "the library did not compile: " + llvm::toString(library.takeError());
    }
    ++numNotNative;
    emitRemark(module.getLoc()) << "qshape-cache: native: storing the lowered module instead of "
                                   "a library: "
                                << why;
  }

  /// Only when the module, as it is now, is known to verify; see
  /// "Skipping the pass manager's verifier" in ModuleCache.h.
  void skipPassManagerVerifier() {
    getAnalysisManager().clear();
    markAllAnalysesPreserved();
  }

  /// The lookup's cache and mode, with what this pass's options say on top.
  CacheSettings effectiveSettings(const std::optional<PendingStore> &pending) {
    if (!pending)
      return own;
    CacheSettings settings = pending->settings;
    if (!StringRef(mode).empty())
      settings.mode = own.mode;
    if (!StringRef(dir).empty())
      settings.config.local.directory = own.config.local.directory;
    if (!StringRef(maxSize).empty())
      settings.config.local.maxSizeBytes = own.config.local.maxSizeBytes;
    if (!StringRef(remote).empty())
      settings.config.remote = own.config.remote;
    return settings;
  }

  CacheSettings own;
};
} // namespace
