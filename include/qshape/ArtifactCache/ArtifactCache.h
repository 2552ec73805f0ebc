//===- ArtifactCache.h - qshape-compile's cache of linked libraries -*- C++ -*-===//
//
// Compile once: qshape-compile looks its output up before any lowering and,
// on a hit, writes the stored shared library to OUT; no MLIR pass, no LLVM
// and no linker runs. It is a client of the one cache layer
// (qshape/Cache/CacheBackend.h): the same directory, entry format, checks,
// single-flight locks, statistics and `qshape-cache` maintenance as the MLIR
// cache passes. Three kinds of entry:
//
//   library  key: the compile key (CompileFacts::key(): exact fingerprint,
//            pipeline, options, target, toolchain); payload kind
//            SharedLibrary, the linked library byte for byte.
//   source   key: BLAKE3 of the input's bytes and of every other fact that
//            needs no parse (sourceKeyBuilder()); payload kind Blob, the
//            compile key of the library (ccache's "direct mode": an input
//            seen before is not even parsed).
//   topology key: the same with the input's skeleton, its text with the
//            float literals blanked out (--share-topology only,
//            topologyKeyBuilder()); payload kind Blob, the compile key and
//            the map from the text's literals to the library's parameter
//            slots (TopologyIndex.h): another program of the topology is not
//            parsed either.
//
// Trust: a library is code. A hit is used only if the entry passed the
// layer's checks (header checksum, key, size, payload BLAKE3, team tag for a
// remote), its header names this producer, LLVM and runtime ABI
// (entryProducer()), and the info document inside the library names the
// same compile key and runtime ABI. Anything else is a miss that compiles
// and replaces the entry. Entries are 0600 files in 0700 directories; the
// directory level refuses a directory writable by others.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_ARTIFACTCACHE_ARTIFACTCACHE_H
#define QSHAPE_ARTIFACTCACHE_ARTIFACTCACHE_H

#include "qshape/ArtifactCache/CompileOptions.h"
#include "qshape/ArtifactCache/OutputFile.h"
#include "qshape/ArtifactCache/Toolchain.h"
#include "qshape/ArtifactCache/TopologyIndex.h"
#include "qshape/Cache/AccessMode.h"
#include "qshape/Cache/CacheBackend.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace qshape::compile {

/// What a compilation did with the cache, as -v prints it.
enum class CacheOutcome { Off, Hit, Miss };
llvm::StringRef getCacheOutcomeName(CacheOutcome outcome);

/// -v's line on stderr: "qshape-compile: hit|miss|off <key> <seconds> s",
/// followed by " <input>" in a run with --output-dir (one or several inputs).
void printSummary(llvm::raw_ostream &os, CacheOutcome outcome, llvm::StringRef key, double seconds,
                  llvm::StringRef input = {});
/// --timing's lines for a hit (the stages that ran, and the output's size);
/// `via`: the index that named the library ("source index", "topology
/// index", or "compile key" after a parse).
void printHitTiming(llvm::raw_ostream &os, llvm::StringRef via, double read, double parse,
                    double facts, double cache, double total, uint64_t outputBytes);

struct ArtifactCacheOptions {
  cache::AccessMode mode = cache::AccessMode::ReadWrite; ///< --cache
  /// The cache directory; empty: $QSHAPE_CACHE_DIR, else the default.
  std::string directory;
  /// A remote URL (redis://...), "off", or empty: $QSHAPE_CACHE_REMOTE.
  std::string remote;
  /// How long to wait for another process compiling the same input
  /// (--cache-lock-wait; both halves of qshape-compile parse kDefaultLockWait).
  std::chrono::milliseconds lockWait = std::chrono::minutes(5);
  static constexpr const char *kDefaultLockWait = "5m";
};

/// The producer written into artifact entry headers: "qshape <version>
/// llvm <version> runtime-abi <N>". A header naming anything else (another
/// LLVM, another ABI, an entry put there by another tool) is a miss.
std::string entryProducer();

/// The key of the source index entry: the input's bytes and the facts that
/// do not need the parsed module. Equal only for the same bytes compiled
/// the same way by the same binary (the build id covers the pipeline
/// text, so its unexpanded spec is enough here). `parseOptions` names the
/// options that decide whether the bytes parse at all
/// (--allow-unregistered-dialect): a hit must not accept an input that
/// this run would refuse. `compilerBuildId` is the build id of the
/// compiler that makes the library (cache::getBuildId() in it, and
/// cache::getBuildIdOfFile() of it in the front end, which compiles
/// nothing itself): both halves of qshape-compile compute one key.
cache::KeyBuilder sourceKeyBuilder(llvm::StringRef inputBytes, const CompileOptions &options,
                                   const TargetInfo &target, const Linker &linker,
                                   llvm::StringRef parseOptions, llvm::StringRef compilerBuildId);

/// What the front end (tools/qshape-compile/qshape-compile.cpp) hands the
/// compiler it exec()s after a miss of an index (the source index, or the
/// topology index with --share-topology) with no problem on the way: the
/// index key it looked up, and its single flight on that key. The compiler
/// skips that one lookup (the statistics count one miss, as with one
/// process) and says so if its own index key differs; it takes over the
/// lock instead of waiting again. So processes that compile one input at
/// once wait in the front end, and the waiters' hits start no compiler.
/// Passed in $QSHAPE_COMPILE_INDEX_MISS as `<key>`, `<key> lock=<fd>` (the
/// lock, held across exec()) or `<key> lock=none` (the front end waited
/// its --cache-lock-wait out: the compiler does not wait again).
struct IndexMissHandoff {
  static constexpr const char *kEnvironmentVariable = "QSHAPE_COMPILE_INDEX_MISS";
  enum class Lock { NotTried, Held, None };

  std::string key;
  Lock lock = Lock::NotTried;
  int lockDescriptor = -1; ///< with Lock::Held

  /// Sets the variable for the program about to be exec()ed.
  void exportToEnvironment() const;
  /// Reads the variable and removes it, so nothing the compiler starts (a
  /// linker) inherits it. nullopt if unset or malformed.
  static std::optional<IndexMissHandoff> takeFromEnvironment();
};

/// The key of the topology index entry (--share-topology, TopologyIndex.h):
/// the input's skeleton instead of its bytes, and the same other facts as
/// the source index.
cache::KeyBuilder topologyKeyBuilder(const SourceSkeleton &skeleton, const CompileOptions &options,
                                     const TargetInfo &target, const Linker &linker,
                                     llvm::StringRef parseOptions, llvm::StringRef compilerBuildId);

/// What becomes of a library ArtifactCache::lookupLibrary() finds.
struct LibraryUse {
  /// A --share-topology program's values, written into the library's
  /// parameter table before OUT is (a table that does not fit them is a
  /// miss).
  const std::vector<double> *values = nullptr;
  /// Nothing is written into OUT after this: an OUT that holds these bytes
  /// already is kept (OutputFile::reuseIfSame).
  bool final = false;
};

class ArtifactCache {
public:
  /// Null when `options.mode` is Off.
  static std::unique_ptr<ArtifactCache> open(const ArtifactCacheOptions &options);

  bool reads() const { return cache::reads(options.mode); }
  bool writes() const { return cache::writes(options.mode); }
  std::string describe() const { return backend->describe(); }
  /// The host's target for the index keys: as recorded in the cache
  /// directory for this boot (TargetInfo::recorded: the front end's hit then
  /// runs no cpuid), else TargetInfo::host(), then recorded.
  TargetInfo hostTarget();
  /// Records what the compiler targets (TargetInfo::host()) where the
  /// record says otherwise, so that the front end's next index keys are the
  /// compiler's.
  void recordHostTarget(const TargetInfo &target);

  /// The compile key recorded for `source`, if the index has one.
  std::optional<cache::CacheKey> lookupSource(const cache::CacheKey &source);

  /// Looks the library of `key` up and, if every check passes, writes it
  /// into `output`'s temporary (a copy: OUT never shares the entry's file,
  /// which holds the header before the library). False on a miss; a bad
  /// entry costs one warning and is a miss. The checks and `use` work on
  /// the entry's bytes in memory: OUT is written once.
  bool lookupLibrary(const cache::CacheKey &key, OutputFile &output, LibraryUse use = {});

  /// Single flight on `key` (CacheBackend::lockKey). Returns the lock (null
  /// when the backend has none, or the wait ran out: the caller compiles
  /// without it); `waited` says whether another process held it, so the
  /// caller looks up again first.
  std::unique_ptr<cache::KeyLock> lock(const cache::CacheKey &key, bool &waited);
  /// The lock of `key` inherited as `descriptor` (IndexMissHandoff); null
  /// if it is not that lock, and the caller locks as usual.
  std::unique_ptr<cache::KeyLock> adoptLock(const cache::CacheKey &key, int descriptor);

  /// Stores the library at `path` (the output's temporary) under `key`, and
  /// `key` as the compile key of `source` (if given). Failures are the
  /// layer's warnings, never errors.
  void storeLibrary(const cache::CacheKey &key, llvm::StringRef path, uint64_t compileMs);
  void storeSource(const cache::CacheKey &source, const cache::CacheKey &key);

  /// The topology index (--share-topology): the compile key of the lifted
  /// library of a skeleton, and where its values sit in the text.
  std::optional<std::pair<cache::CacheKey, TopologyMap>>
  lookupTopology(const cache::CacheKey &topology);
  void storeTopology(const cache::CacheKey &topology, const cache::CacheKey &key,
                     const TopologyMap &map);

  /// The lookups' statistics wait in the process (a run serves several
  /// hits) and reach the stats file with the next store, here, or at the
  /// latest when the cache is destroyed; the front end flushes before it
  /// exec()s the compiler.
  void flushStats() { backend->flushStats(); }
  ~ArtifactCache() { flushStats(); }
  ArtifactCache(const ArtifactCache &) = delete;
  ArtifactCache &operator=(const ArtifactCache &) = delete;

private:
  explicit ArtifactCache(ArtifactCacheOptions options, std::shared_ptr<cache::CacheBackend> b)
      : options(std::move(options)), backend(std::move(b)) {}
  std::optional<cache::CacheEntry> lookupChecked(const cache::CacheKey &key,
                                                 cache::PayloadKind kind);
  void storeChecked(const cache::CacheKey &key, cache::PayloadKind kind, llvm::StringRef payload,
                    uint64_t compileMs);

  ArtifactCacheOptions options;
  std::shared_ptr<cache::CacheBackend> backend;
};

} // namespace qshape::compile

#endif // QSHAPE_ARTIFACTCACHE_ARTIFACTCACHE_H
