//===- ModuleCache.cpp - MLIR modules in the compile cache ----------------===//

#include "qshape/ModuleCache/ModuleCache.h"

#include "qshape/Cache/Diagnostics.h"
#include "qshape/Fingerprint/Fingerprint.h"

#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <dlfcn.h>
#include <mutex>
#include <sys/stat.h>

#define DEBUG_TYPE "qshape-cache"

using namespace mlir;
using namespace qshape;
using namespace qshape::modulecache;

FailureOr<CacheSettings> modulecache::parseCacheSettings(MLIRContext *ctx, StringRef passName,
                                                         StringRef dir, StringRef mode,
                                                         StringRef maxSize, StringRef remote) {
  CacheSettings parsed;
  std::optional<cache::AccessMode> m =
      mode.empty() ? cache::AccessMode::ReadWrite : cache::parseAccessMode(mode);
  if (!m)
    return emitError(UnknownLoc::get(ctx))
           << passName << ": invalid mode '" << mode << "': use readwrite, read, write or off";
  parsed.mode = *m;
  parsed.config.local.directory = dir.str();
  if (!maxSize.empty()) {
    std::optional<uint64_t> bytes = cache::parseSize(maxSize);
    if (!bytes || *bytes == 0)
      return emitError(UnknownLoc::get(ctx)) << passName << ": invalid max-size '" << maxSize
                                             << "': use bytes or K, M, G, T, e.g. 500M or 2G";
    parsed.config.local.maxSizeBytes = *bytes;
  }
  remote = remote.trim();
  if (!remote.empty() && remote != "off") {
    llvm::Expected<cache::RemoteOptions> options = cache::RemoteOptions::parse(remote);
    if (!options)
      return emitError(UnknownLoc::get(ctx))
             << passName << ": invalid remote: " << llvm::toString(options.takeError());
    if (!cache::haveRedisSupport())
      return emitError(UnknownLoc::get(ctx)) << passName << ": remote '" << options->describe()
                                             << "': this qshape was built without Redis support";
  }
  parsed.config.remote = remote.str();
  return parsed;
}

FailureOr<OpPassManager> modulecache::parseModulePipeline(StringRef text,
                                                          llvm::raw_ostream &errors) {
  text = text.trim();
  if (text.starts_with("builtin.module(")) {
    FailureOr<OpPassManager> pm = mlir::parsePassPipeline(text, errors);
    if (failed(pm))
      return failure();
    return pm;
  }
  OpPassManager pm(ModuleOp::getOperationName());
  if (failed(mlir::parsePassPipeline(text, pm, errors)))
    return failure();
  return pm;
}

std::string modulecache::printPipeline(const OpPassManager &pm) {
  std::string text;
  llvm::raw_string_ostream os(text);
  pm.printAsTextualPipeline(os);
  return text;
}

namespace {
/// The library that holds MLIR's pass infrastructure in this process (the
/// host's libMLIR, or the host executable when MLIR is linked statically):
/// its path, size and modification time. A host rebuilt with the same LLVM
/// version (Catalyst's passes live there) then misses too.
std::string hostIdentity() {
  using ParseFn = LogicalResult (*)(StringRef, OpPassManager &, raw_ostream &);
  ParseFn fn = &mlir::parsePassPipeline;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void *>(fn), &info) == 0 || !info.dli_fname)
    return "unknown";
  struct stat st;
  if (::stat(info.dli_fname, &st) != 0)
    return info.dli_fname;
  std::string text;
  llvm::raw_string_ostream(text) << info.dli_fname << " " << static_cast<uint64_t>(st.st_size)
                                 << " " << static_cast<int64_t>(st.st_mtim.tv_sec) << "."
                                 << static_cast<int64_t>(st.st_mtim.tv_nsec);
  return text;
}
} // namespace

StringRef modulecache::toolchainIdentity() {
  static const std::string identity = "LLVM " LLVM_VERSION_STRING "; host " + hostIdentity();
  return identity;
}

FailureOr<std::string> modulecache::fingerprintModule(ModuleOp module) {
  FailureOr<Fingerprint> fp = computeFingerprint(module);
  if (failed(fp))
    return failure();
  return fp->exactString();
}

cache::CacheKey modulecache::computeKey(StringRef fingerprint, StringRef normalizedPipeline,
                                        StringRef salt, StringRef native) {
  cache::KeyInputs inputs;
  inputs.fingerprint = fingerprint.str();
  inputs.pipeline = normalizedPipeline.str();
  inputs.toolchainVersion = toolchainIdentity().str();
  inputs.targetTriple = llvm::sys::getProcessTriple();
  inputs.salt = salt.str();
  cache::KeyBuilder builder = cache::makeKeyBuilder(inputs);
  if (!native.empty())
    builder.add("native-library", native);
  LLVM_DEBUG(llvm::dbgs() << "qshape-cache: key " << builder.final() << "\n  fingerprint: "
                          << fingerprint << "\n  pipeline: " << normalizedPipeline
                          << "\n  toolchain: " << inputs.toolchainVersion
                          << "\n  triple: " << inputs.targetTriple << "\n"
                          << builder.manifest());
  return builder.key();
}

std::string modulecache::nativeIdentity(const codegen::LibraryOptions &options) {
  // Version 1 of the forwarding module (Forwarding.h): bump it when the
  // loader changes, so that no entry keeps an old one.
  return ("forwarding 1; target " + options.target.triple + " " + options.target.cpu + " " +
          options.target.features + "; opt-level " + llvm::Twine(options.optLevel) + "; linker " +
          options.linker.identity + "; runtime-lib " + options.runtimeLib)
      .str();
}

void modulecache::orderUsesAsRead(Operation *root) {
  // The reader creates the uses in a pre-order walk, operand by operand, each
  // at the front of its value's list (bytecode::getUseID's encoding), so each
  // list runs from the last use to the first. Setting every operand again in
  // that walk rebuilds every list in that order: one pass, no numbering, no
  // sort.
  root->walk<WalkOrder::PreOrder>([](Operation *op) {
    for (OpOperand &use : op->getOpOperands())
      use.set(use.get());
  });
}

FailureOr<std::string> modulecache::encodeModule(ModuleOp module, const cache::CacheKey &key) {
  orderUsesAsRead(module);
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  if (failed(writeBytecodeToFile(module, os))) {
    cache::reportProblem("cannot write the result of " + key.str() +
                         " as MLIR bytecode; not cached");
    return failure();
  }
  os.flush();
  return bytes;
}

FailureOr<cache::StoreResult> modulecache::storeModule(cache::CacheBackend &backend,
                                                       ModuleOp module, const cache::CacheKey &key,
                                                       uint64_t compileMs) {
  std::string why;
  if (failed(verifyQuietly(module, why))) {
    LLVM_DEBUG(llvm::dbgs() << "qshape-cache: not storing " << key.str() << ": " << why << "\n");
    return failure();
  }
  FailureOr<std::string> bytes = encodeModule(module, key);
  if (failed(bytes))
    return failure();
  return backend.store(key, cache::PayloadKind::MLIRBytecode, *bytes, compileMs);
}

LookupOutcome modulecache::lookupAndInstall(cache::CacheBackend &backend, ModuleOp module,
                                            const cache::CacheKey &key,
                                            HitVerification verification,
                                            OwningOpRef<ModuleOp> *deferred) {
  using cache::LookupStatus;
  LookupOutcome outcome;
  cache::LookupResult found = backend.lookup(key);
  outcome.detail = found.detail;
  switch (found.status) {
  case LookupStatus::Hit: {
    std::string why;
    StringRef payload = found.entry->payload->getBuffer();
    auto start = std::chrono::steady_clock::now();
    FailureOr<OwningOpRef<ModuleOp>> cached = loadModule(module.getContext(), payload, why);
    auto read = std::chrono::steady_clock::now();
    outcome.loadMs = millisBetween(start, read);
    if (succeeded(cached) && verification == HitVerification::Verify) {
      if (failed(verifyQuietly(**cached, why)))
        cached = failure();
      outcome.verifyMs = millisBetween(read, std::chrono::steady_clock::now());
    }
    if (succeeded(cached)) {
      if (deferred)
        *deferred = std::move(*cached);
      else
        replaceModule(module, **cached);
      outcome.kind = LookupOutcome::Kind::Hit;
      outcome.level = found.level;
      return outcome;
    }
    // Checksummed but unreadable or, when verified, invalid: a producer bug
    // or a foreign MLIR. A miss; the store that follows replaces the entry.
    outcome.detail =
        "cache entry " + key.str() + " does not load (" + why + "); recompiling and replacing it";
    cache::reportProblem(outcome.detail, found.level == cache::CacheLevel::Remote
                                             ? cache::ProblemSource::Remote
                                             : cache::ProblemSource::Local);
    outcome.kind = LookupOutcome::Kind::Corrupt;
    return outcome;
  }
  case LookupStatus::Corrupt:
  case LookupStatus::Refused:
    outcome.kind = LookupOutcome::Kind::Corrupt;
    return outcome;
  case LookupStatus::Miss:
    outcome.kind = LookupOutcome::Kind::Miss;
    return outcome;
  case LookupStatus::IOError:
  case LookupStatus::Timeout:
  case LookupStatus::Disabled:
    outcome.kind = LookupOutcome::Kind::Error;
    return outcome;
  }
  return outcome;
}

void modulecache::countLookup(const LookupOutcome &outcome, Pass::Statistic &hits,
                              Pass::Statistic &misses, Pass::Statistic &corrupt,
                              Pass::Statistic &errors) {
  switch (outcome.kind) {
  case LookupOutcome::Kind::Hit:
    ++hits;
    return;
  case LookupOutcome::Kind::Corrupt:
    ++corrupt;
    break;
  case LookupOutcome::Kind::Error:
    ++errors;
    break;
  case LookupOutcome::Kind::Miss:
    break;
  }
  ++misses;
}

std::string modulecache::describeLookup(const LookupOutcome &outcome, cache::AccessMode mode,
                                        const cache::CacheKey &key) {
  if (outcome.hit())
    return "hit " + key.str() + (outcome.level == cache::CacheLevel::Remote ? " (remote)" : "");
  return (cache::reads(mode) ? "miss " : "write ") + key.str();
}

LogicalResult modulecache::verifyQuietly(Operation *op, std::string &why) {
  std::string first;
  ScopedDiagnosticHandler capture(op->getContext(), [&](Diagnostic &diag) {
    if (first.empty())
      first = diag.str();
    return success();
  });
  if (succeeded(mlir::verify(op)))
    return success();
  why = "the module does not verify: " + (first.empty() ? std::string("no diagnostic") : first);
  return failure();
}

FailureOr<OwningOpRef<ModuleOp>> modulecache::loadModule(MLIRContext *ctx, StringRef payload,
                                                         std::string &why) {
  Block block;
  {
    // A payload that passed its checksum but does not parse (a producer bug)
    // is reported by the caller as a corrupt entry, not as an error here.
    ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &diag) {
      if (why.empty())
        why = diag.str();
      return success();
    });
    // No verification here: lookupAndInstall's caller chooses it.
    ParserConfig config(ctx, /*verifyAfterParse=*/false);
    llvm::MemoryBufferRef buffer(payload, "qshape-cache entry");
    if (failed(readBytecodeFile(buffer, &block, config))) {
      if (why.empty())
        why = "the payload is not valid MLIR bytecode";
      return failure();
    }
  }
  auto cached = block.empty() ? ModuleOp() : dyn_cast<ModuleOp>(block.front());
  if (!cached || !llvm::hasSingleElement(block)) {
    why = "the payload does not hold exactly one builtin.module";
    return failure();
  }
  cached->remove();
  return OwningOpRef<ModuleOp>(cached);
}

void modulecache::replaceModule(ModuleOp module, ModuleOp cached) {
  module.getBodyRegion().takeBody(cached.getBodyRegion());
  module->setDiscardableAttrs(cached->getDiscardableAttrDictionary());
  module->copyProperties(cached->getPropertiesStorage());
}

void modulecache::hollowModule(ModuleOp module) {
  Region empty;
  empty.push_back(new Block());
  module.getBodyRegion().takeBody(empty);
}

//===----------------------------------------------------------------------===//
// Warning routing
//===----------------------------------------------------------------------===//

namespace {
thread_local const Location *currentWarningLoc = nullptr;
std::once_flag installRouting;
cache::WarningHandler outerHandler; // installed before ours, if any

void routeWarning(StringRef message) {
  if (currentWarningLoc) {
    emitWarning(*currentWarningLoc)
        << "qshape-cache: " << message
        << " (compilation goes on without the cache where it fails; later "
           "cache problems of this process are only counted: see "
           "`qshape-cache stats`)";
    return;
  }
  if (outerHandler) {
    outerHandler(message);
    return;
  }
  llvm::errs() << "qshape-cache: warning: " << message
               << " (compilation goes on without the cache where it fails; "
                  "later cache problems of this process are only counted: "
                  "see `qshape-cache stats`)\n";
}
} // namespace

ScopedWarningRouting::ScopedWarningRouting(Location loc) : previous(currentWarningLoc), loc(loc) {
  std::call_once(installRouting, [] { outerHandler = cache::setWarningHandler(routeWarning); });
  currentWarningLoc = &this->loc;
}

ScopedWarningRouting::~ScopedWarningRouting() { currentWarningLoc = previous; }

//===----------------------------------------------------------------------===//
// Pending stores of the staged pair
//===----------------------------------------------------------------------===//

namespace {
struct PendingStores {
  std::mutex mutex;
  llvm::StringMap<PendingStore> byKey;
};
PendingStores &pendingStores() {
  static auto *p = new PendingStores(); // leaked: no destructor order
  return *p;
}
} // namespace

void modulecache::recordPendingStore(StringRef key, PendingStore pending) {
  PendingStores &p = pendingStores();
  std::scoped_lock<std::mutex> guard(p.mutex);
  p.byKey.insert_or_assign(key, std::move(pending));
}

std::optional<PendingStore> modulecache::takePendingStore(StringRef key) {
  PendingStores &p = pendingStores();
  std::scoped_lock<std::mutex> guard(p.mutex);
  auto it = p.byKey.find(key);
  if (it == p.byKey.end())
    return std::nullopt;
  PendingStore pending = std::move(it->second);
  p.byKey.erase(it);
  return pending;
}

void modulecache::addPipelineDependentDialects(StringRef pipeline, DialectRegistry &registry) {
  std::string ignored;
  llvm::raw_string_ostream errors(ignored);
  FailureOr<OpPassManager> pm = parseModulePipeline(pipeline, errors);
  if (succeeded(pm))
    pm->getDependentDialects(registry);
}
