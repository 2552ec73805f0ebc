//===- ArtifactCache.cpp - qshape-compile's cache of linked libraries -----===//

#include "qshape/ArtifactCache/ArtifactCache.h"

#include "qshape/ArtifactCache/ParameterTable.h"

#include "qshape/Cache/Diagnostics.h"
#include "qshape/Cache/DirectoryCache.h"
#include "qshape/LibraryInfo/LibraryInfo.h"
#include "qshape/Runtime/RuntimeABI.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdlib>

using namespace qshape::cache;

namespace qshape::compile {

llvm::StringRef getCacheOutcomeName(CacheOutcome outcome) {
  switch (outcome) {
  case CacheOutcome::Off:
    return "off";
  case CacheOutcome::Hit:
    return "hit";
  case CacheOutcome::Miss:
    return "miss";
  }
  return "off";
}

void printSummary(llvm::raw_ostream &os, CacheOutcome outcome, llvm::StringRef key, double seconds,
                  llvm::StringRef input) {
  os << llvm::format("qshape-compile: %s %s %.3f s", getCacheOutcomeName(outcome).str().c_str(),
                     key.str().c_str(), seconds);
  if (!input.empty())
    os << " " << input;
  os << "\n";
}

void printHitTiming(llvm::raw_ostream &os, llvm::StringRef via, double read, double parse,
                    double facts, double cache, double total, uint64_t outputBytes) {
  os << llvm::format("qshape-compile: timing: hit (%s): read %.4f s, parse %.4f s, facts %.4f s, "
                     "cache %.4f s, total %.4f s; no MLIR pass, LLVM or linker ran\n",
                     via.str().c_str(), read, parse, facts, cache, total);
  os << "qshape-compile: sizes: output " << outputBytes << " bytes (from the cache)\n";
}

std::string entryProducer() {
  return (getProducerVersion() + " llvm " LLVM_VERSION_STRING " runtime-abi " +
          llvm::Twine(QSHAPE_RUNTIME_ABI_VERSION))
      .str();
}

/// The facts of an index key that need no parse; `kind` and `input` say
/// which index and what of the input it is keyed by.
static KeyBuilder indexKeyBuilder(llvm::StringRef kind, llvm::StringRef inputField,
                                  llvm::StringRef input, const CompileOptions &options,
                                  const TargetInfo &target, const Linker &linker,
                                  llvm::StringRef parseOptions, llvm::StringRef compilerBuildId) {
  KeyBuilder b;
  // Its own kind of key: never the key of a library or of an MLIR entry.
  b.add("artifact", kind)
      .add(inputField, input)
      .add("parse-options", parseOptions)
      .add("pipeline-spec", getPipelineSpec(options))
      .add("opt-level", options.optLevel)
      .add("roll", options.roll ? "on" : "off")
      .add("emit", getEmitName(options.emit))
      .add("target-triple", target.triple)
      .add("cpu", target.cpu)
      .add("cpu-features", target.features)
      .add("producer", getProducerVersion())
      .add("build-id", compilerBuildId)
      .add("llvm-version", LLVM_VERSION_STRING)
      .add("linker", linker.identity)
      .add("runtime-abi", QSHAPE_RUNTIME_ABI_VERSION);
  if (!options.runtimeLib.empty()) // only when set: the other keys stay as they were
    b.add("runtime-lib", options.runtimeLib);
  return b;
}

KeyBuilder sourceKeyBuilder(llvm::StringRef inputBytes, const CompileOptions &options,
                            const TargetInfo &target, const Linker &linker,
                            llvm::StringRef parseOptions, llvm::StringRef compilerBuildId) {
  llvm::BLAKE3 input;
  input.update(inputBytes);
  return indexKeyBuilder("native-library-source-index", "input-bytes", toHex(input.final()),
                         options, target, linker, parseOptions, compilerBuildId);
}

KeyBuilder topologyKeyBuilder(const SourceSkeleton &skeleton, const CompileOptions &options,
                              const TargetInfo &target, const Linker &linker,
                              llvm::StringRef parseOptions, llvm::StringRef compilerBuildId) {
  KeyBuilder b = indexKeyBuilder("native-library-topology-index", "input-skeleton", skeleton.digest,
                                 options, target, linker, parseOptions, compilerBuildId);
  b.add("float-literals", uint64_t(skeleton.literals.size()));
  return b;
}

/// The directory the host record lives in: the local level's (the front
/// end and the compiler of one cache read and write the same), if any.
static llvm::StringRef recordDirectory(CacheBackend &backend) {
  DirectoryMaintenance *local = backend.maintenance();
  return local ? local->directory() : llvm::StringRef();
}

TargetInfo ArtifactCache::hostTarget() {
  llvm::StringRef dir = recordDirectory(*backend);
  if (std::optional<TargetInfo> recorded = TargetInfo::recorded(dir))
    return *recorded;
  const TargetInfo &host = TargetInfo::host();
  if (writes())
    TargetInfo::record(dir, host);
  return host;
}

void ArtifactCache::recordHostTarget(const TargetInfo &target) {
  if (writes())
    TargetInfo::record(recordDirectory(*backend), target);
}

std::unique_ptr<ArtifactCache> ArtifactCache::open(const ArtifactCacheOptions &options) {
  if (options.mode == cache::AccessMode::Off)
    return nullptr;
  CacheConfig config;
  config.local.directory = options.directory;
  config.local.deferLookupStats = true;
  config.remote = options.remote;
  return std::unique_ptr<ArtifactCache>(new ArtifactCache(options, openCache(config)));
}

/// The index payload: one line, the compile key.
static constexpr llvm::StringLiteral kSourceIndexPrefix = "qshape-compile-key ";

std::optional<CacheEntry> ArtifactCache::lookupChecked(const CacheKey &key, PayloadKind kind) {
  LookupResult r = backend->lookup(key);
  if (!r.hit())
    return std::nullopt;
  // The layer checked the bytes; these checks are about what they are.
  const EntryHeader &h = r.entry->header;
  if (h.kind != uint32_t(kind)) {
    reportProblem("cache entry " + key.str() + " holds a " + payloadKindName(h.kind) + ", not a " +
                  payloadKindName(uint32_t(kind)) + "; compiling instead");
    return std::nullopt;
  }
  if (h.producer != entryProducer()) {
    reportProblem("cache entry " + key.str() + " was written by '" + h.producer + "', not by '" +
                  entryProducer() + "'; compiling instead");
    return std::nullopt;
  }
  return std::move(r.entry);
}

std::optional<CacheKey> ArtifactCache::lookupSource(const CacheKey &source) {
  if (!reads())
    return std::nullopt;
  std::optional<CacheEntry> e = lookupChecked(source, PayloadKind::Blob);
  if (!e)
    return std::nullopt;
  llvm::StringRef text = e->payload->getBuffer();
  std::optional<CacheKey> key;
  if (text.consume_front(kSourceIndexPrefix) && text.consume_back("\n"))
    key = CacheKey::parse(text);
  if (!key)
    reportProblem("cache entry " + source.str() +
                  " is not a source index entry; "
                  "compiling instead");
  return key;
}

bool ArtifactCache::lookupLibrary(const CacheKey &key, OutputFile &output, LibraryUse use) {
  if (!reads())
    return false;
  std::optional<CacheEntry> e = lookupChecked(key, PayloadKind::SharedLibrary);
  if (!e)
    return false;
  llvm::StringRef library = e->payload->getBuffer();
  // What the loader will trust: the library's own info names this key.
  llvm::Expected<native::LibraryInfo> info =
      native::readLibraryInfoFromBytes(library, "cache entry " + key.str());
  std::string problem;
  if (!info)
    problem = llvm::toString(info.takeError());
  else if (info->key != key.str())
    problem = "its library info names the key " + info->key;
  else if (info->runtimeAbiVersion != QSHAPE_RUNTIME_ABI_VERSION)
    problem = "it calls runtime ABI version " + std::to_string(info->runtimeAbiVersion);
  if (!problem.empty()) {
    reportProblem("cache entry " + key.str() + " is not the library of its key (" + problem +
                  "); compiling instead");
    return false;
  }
  std::string patched;
  if (use.values) {
    patched = library.str();
    if (llvm::Error err =
            writeParameterTable(llvm::MutableArrayRef<char>(patched.data(), patched.size()),
                                "cache entry " + key.str(), *use.values)) {
      // The compile that follows reports it if it meets it too.
      llvm::consumeError(std::move(err));
      return false;
    }
    library = patched;
  }
  if (use.final && output.reuseIfSame(library))
    return true;
  if (llvm::Error err = output.write(library)) {
    // The compile that follows writes OUT again and reports why it cannot.
    llvm::consumeError(std::move(err));
    return false;
  }
  return true;
}

std::unique_ptr<KeyLock> ArtifactCache::lock(const CacheKey &key, bool &waited) {
  waited = false;
  KeyLockResult r = backend->lockKey(key, options.lockWait);
  switch (r.result) {
  case KeyLockResult::State::Acquired:
    break;
  case KeyLockResult::State::AcquiredAfterWait:
    waited = true;
    break;
  case KeyLockResult::State::TimedOut:
    // A holder alive but stuck (stopped, hung): compile without it. A dead
    // holder never gets here: the kernel dropped its lock.
    reportProblem("waited " + llvm::Twine(options.lockWait.count()) +
                  " ms for another process compiling " + key.str() +
                  "; compiling without waiting longer (--cache-lock-wait sets the wait)");
    waited = true;
    break;
  case KeyLockResult::State::Unsupported:
    break;
  case KeyLockResult::State::Failed:
    reportProblem("no single flight for " + key.str() + ": " + r.detail);
    break;
  }
  return std::move(r.lock);
}

std::unique_ptr<KeyLock> ArtifactCache::adoptLock(const CacheKey &key, int descriptor) {
  return std::move(backend->adoptKeyLock(key, descriptor).lock);
}

void IndexMissHandoff::exportToEnvironment() const {
  std::string value = key;
  if (lock == Lock::Held)
    value += " lock=" + std::to_string(lockDescriptor);
  else if (lock == Lock::None)
    value += " lock=none";
  setenv(kEnvironmentVariable, value.c_str(), /*overwrite=*/1);
}

std::optional<IndexMissHandoff> IndexMissHandoff::takeFromEnvironment() {
  const char *value = getenv(kEnvironmentVariable);
  if (!value)
    return std::nullopt;
  llvm::StringRef text(value);
  IndexMissHandoff handoff;
  auto [key, rest] = text.split(' ');
  handoff.key = key.str();
  bool good = !handoff.key.empty();
  if (rest == "lock=none")
    handoff.lock = Lock::None;
  else if (rest.consume_front("lock=")) {
    handoff.lock = Lock::Held;
    good = good && !rest.getAsInteger(10, handoff.lockDescriptor) && handoff.lockDescriptor >= 0;
  } else
    good = good && rest.empty();
  unsetenv(kEnvironmentVariable);
  if (!good)
    return std::nullopt;
  return handoff;
}

void ArtifactCache::storeChecked(const CacheKey &key, PayloadKind kind, llvm::StringRef payload,
                                 uint64_t compileMs) {
  if (!writes())
    return;
  // The header is made here rather than by store(), which writes the plain
  // producer: artifact entries name LLVM and the ABI too (entryProducer).
  // A remote's team tag covers the producer, so it is signed after.
  EntryHeader h = makeEntryHeader(key, kind, payload, compileMs);
  h.producer = entryProducer();
  if (const EntryTagKey *tag = backend->tagKey())
    tag->sign(h);
  // Failures were reported by the layer (one warning) and counted.
  (void)backend->storeEntry(h, payload);
}

void ArtifactCache::storeLibrary(const CacheKey &key, llvm::StringRef path, uint64_t compileMs) {
  if (!writes())
    return;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> bytes =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!bytes) {
    reportProblem("cannot read the compiled library '" + path +
                  "' to cache it: " + bytes.getError().message());
    return;
  }
  storeChecked(key, PayloadKind::SharedLibrary, (*bytes)->getBuffer(), compileMs);
}

void ArtifactCache::storeSource(const CacheKey &source, const CacheKey &key) {
  storeChecked(source, PayloadKind::Blob, (kSourceIndexPrefix + key.str() + "\n").str(), 0);
}

std::optional<std::pair<CacheKey, TopologyMap>>
ArtifactCache::lookupTopology(const CacheKey &topology) {
  if (!reads())
    return std::nullopt;
  std::optional<CacheEntry> e = lookupChecked(topology, PayloadKind::Blob);
  if (!e)
    return std::nullopt;
  // The compile key's line, then the map.
  auto [first, rest] = e->payload->getBuffer().split('\n');
  std::optional<CacheKey> key;
  std::optional<TopologyMap> map;
  if (first.consume_front(kSourceIndexPrefix))
    key = CacheKey::parse(first);
  if (key)
    map = TopologyMap::parse(rest);
  if (!key || !map) {
    reportProblem("cache entry " + topology.str() +
                  " is not a topology index entry; "
                  "compiling instead");
    return std::nullopt;
  }
  return std::make_pair(*key, std::move(*map));
}

void ArtifactCache::storeTopology(const CacheKey &topology, const CacheKey &key,
                                  const TopologyMap &map) {
  storeChecked(topology, PayloadKind::Blob,
               (kSourceIndexPrefix + key.str() + "\n" + map.serialize()).str(), 0);
}

} // namespace qshape::compile
