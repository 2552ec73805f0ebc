//===- qshape-compile.cpp - the front end: a cache hit without MLIR or LLVM ===//
//
// `qshape-compile` as users call it (bin/). It serves the artifact cache's
// index hits and nothing else: it computes the source key of the input's
// bytes and options (with --share-topology: the topology key of its
// skeleton, and the program's values from its literals), looks the library
// up and checks it with the compiler's own code (QShapeArtifactCache: key
// builder, entry format, producer, checksum, the library info naming the
// key, the runtime ABI), and writes OUT atomically; of several inputs
// (--output-dir), each in turn up to the first it cannot serve. Anything
// else (a miss, a problem, an option it does not take exactly as the
// compiler would, --help, other emits, stdin) it hands over, with the inputs
// not yet served, by exec()ing the compiler, qshape-compile-full in
// ../libexec/qshape/ (docs/native.md, "How qshape-compile is linked").
//
// It links no MLIR and only LLVM's Support, TargetParser and the ELF reader,
// statically, so a hit starts in about a millisecond instead of paying for
// the compiler's tens of megabytes of code. The toolchain in the key is the
// compiler's: its build id is read from its file (cache::getBuildIdOfFile),
// which is the id the compiler computes of itself.
//
//===----------------------------------------------------------------------===//

#include "qshape/ArtifactCache/ArtifactCache.h"
#include "qshape/ArtifactCache/TopologyIndex.h"
#include "qshape/Cache/CacheBackend.h"
#include "qshape/Cache/CacheKey.h"
#include "qshape/Cache/Diagnostics.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

using namespace qshape::compile;
namespace cache = qshape::cache;

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// The options a hit depends on, as the compiler's llvm::cl options read
/// them (tools/qshape-compile/qshape-compile-full.cpp). Only the spellings that
/// cl reads one way are taken: `-name`/`--name` flags without a value, and
/// `-name=value`, `--name=value`, `-name value`, `--name value`; each at
/// most once. Anything else is left to the compiler.
struct Arguments {
  std::vector<std::string> inputs;
  std::vector<int> inputIndices; ///< where each input is in argv
  std::string output;
  std::optional<std::string> optLevel, emit, cacheMode, cacheDir, cacheRemote, lockWait, linker,
      outputDir, abi, runtimeLib;
  bool verbose = false, timing = false, noRoll = false, allowUnregistered = false,
       shareTopology = false;
};

std::optional<Arguments> parseArguments(int argc, char **argv) {
  Arguments a;
  llvm::StringSet<> seen;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "-" || !arg.starts_with("-")) {
      if (arg.starts_with("@")) // a response file
        return std::nullopt;
      a.inputs.push_back(arg.str());
      a.inputIndices.push_back(i);
      continue;
    }
    llvm::StringRef name = arg.drop_front(arg.starts_with("--") ? 2 : 1);
    auto [key, value] = name.split('=');
    bool hasValue = name.contains('=');
    if (key.empty() || !seen.insert(key).second)
      return std::nullopt;
    bool *flag = llvm::StringSwitch<bool *>(key)
                     .Case("v", &a.verbose)
                     .Case("timing", &a.timing)
                     .Case("no-roll", &a.noRoll)
                     .Case("allow-unregistered-dialect", &a.allowUnregistered)
                     .Case("share-topology", &a.shareTopology)
                     .Default(nullptr);
    if (flag) {
      if (hasValue)
        return std::nullopt;
      *flag = true;
      continue;
    }
    std::optional<std::string> *option = llvm::StringSwitch<std::optional<std::string> *>(key)
                                             .Case("opt-level", &a.optLevel)
                                             .Case("emit", &a.emit)
                                             .Case("cache", &a.cacheMode)
                                             .Case("cache-dir", &a.cacheDir)
                                             .Case("cache-remote", &a.cacheRemote)
                                             .Case("cache-lock-wait", &a.lockWait)
                                             .Case("linker", &a.linker)
                                             .Case("output-dir", &a.outputDir)
                                             .Case("abi", &a.abi)
                                             .Case("runtime-lib", &a.runtimeLib)
                                             .Default(nullptr);
    std::optional<std::string> output;
    if (key == "o")
      option = &output;
    if (!option)
      return std::nullopt;
    if (!hasValue) {
      if (i + 1 == argc)
        return std::nullopt;
      value = argv[++i];
    }
    *option = value.str();
    if (key == "o")
      a.output = *output;
  }
  return a;
}

/// Each input's output, named as the compiler names them for --emit=so (the
/// only emit a hit serves); nullopt if the compiler would refuse them (it
/// reports why).
std::optional<std::vector<std::string>> outputPaths(const Arguments &a) {
  llvm::Expected<std::vector<std::string>> outputs =
      getOutputPaths(a.inputs, a.output, a.outputDir.value_or(""), EmitKind::SharedLibrary);
  if (!outputs) {
    llvm::consumeError(outputs.takeError());
    return std::nullopt;
  }
  return std::move(*outputs);
}

/// ../libexec/qshape/qshape-compile-full next to this program (build tree
/// and prefix alike).
std::string compilerPath(const char *argv0) {
  std::string self = llvm::sys::fs::getMainExecutable(argv0, (void *)&compilerPath);
  llvm::SmallString<256> path(llvm::sys::path::parent_path(llvm::sys::path::parent_path(self)));
  llvm::sys::path::append(path, "libexec", "qshape", "qshape-compile-full");
  return path.str().str();
}

/// How a hand-over goes: what the compiler is told, the lock it takes over
/// (kept until exec()), and whether the warnings so far are this process's
/// alone to print (the compiler will not meet their cause again).
struct HandOver {
  std::optional<IndexMissHandoff> handoff;
  std::unique_ptr<cache::KeyLock> lock;
  bool printWarnings = false;
};

/// What every input of one run shares: the options as the compiler reads
/// them, the toolchain in the key, and the cache.
struct Session {
  CompileOptions options;
  TargetInfo target; ///< ArtifactCache::hostTarget(): no cpuid on a hit
  Linker linker;
  std::string buildId;
  std::unique_ptr<ArtifactCache> artifacts;
};

/// The session of `a`, or nullopt to hand over (the compiler reports why).
std::optional<Session> openSession(const Arguments &a, const std::string &compiler) {
  if (a.emit && *a.emit != "so")
    return std::nullopt;
  Session s;
  CompileOptions &options = s.options;
  if (a.optLevel &&
      (llvm::StringRef(*a.optLevel).getAsInteger(0, options.optLevel) || options.optLevel > 3))
    return std::nullopt;
  options.roll = !a.noRoll;
  options.emit = EmitKind::SharedLibrary;
  options.shareTopology = a.shareTopology;
  std::optional<ABI> abi = parseABI(a.abi.value_or("qshape"));
  if (!abi)
    return std::nullopt;
  options.abi = *abi;
  if (a.runtimeLib) {
    llvm::Expected<std::string> resolved = resolveRuntimeLib(*a.runtimeLib);
    if (!resolved) {
      llvm::consumeError(resolved.takeError());
      return std::nullopt;
    }
    options.runtimeLib = *resolved;
  }
  if (a.linker)
    options.linker = *a.linker;
  std::optional<cache::AccessMode> mode = cache::parseAccessMode(a.cacheMode.value_or("readwrite"));
  if (!mode || (*mode != cache::AccessMode::Read && *mode != cache::AccessMode::ReadWrite))
    return std::nullopt;
  std::optional<uint64_t> lockWaitMs =
      cache::parseDurationMs(a.lockWait.value_or(ArtifactCacheOptions::kDefaultLockWait), 1000);
  if (!lockWaitMs)
    return std::nullopt;
  llvm::Expected<Linker> linker = findLinker(options.linker);
  if (!linker) {
    llvm::consumeError(linker.takeError());
    return std::nullopt;
  }
  s.linker = std::move(*linker);
  s.buildId = cache::getBuildIdOfFile(compiler);
  if (s.buildId.empty())
    return std::nullopt;
  ArtifactCacheOptions cacheOptions;
  cacheOptions.mode = *mode;
  cacheOptions.directory = a.cacheDir.value_or("");
  cacheOptions.remote = a.cacheRemote.value_or("");
  cacheOptions.lockWait = std::chrono::milliseconds(*lockWaitMs);
  s.artifacts = ArtifactCache::open(cacheOptions);
  s.target = s.artifacts->hostTarget();
  return s;
}

/// The hit, if there is one: 0 once OUT is written; nullopt to hand over.
std::optional<int> tryHit(const Arguments &a, Session &session, const std::string &inputPath,
                          const std::string &outputPath, HandOver &handOver) {
  auto start = Clock::now();
  if (inputPath.empty() || inputPath == "-" || outputPath.empty() || outputPath == "-")
    return std::nullopt;
  const CompileOptions &options = session.options;
  ArtifactCache *artifacts = session.artifacts.get();

  // The compiler reports each of these failures itself.
  llvm::Expected<OutputFile> output =
      OutputFile::create(outputPath, /*executable=*/true, inputPath);
  if (!output) {
    llvm::consumeError(output.takeError());
    return std::nullopt;
  }
  auto readStart = Clock::now();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> input =
      llvm::MemoryBuffer::getFile(inputPath, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!input)
    return std::nullopt;
  double readSeconds = since(readStart);
  auto cacheStart = Clock::now();
  llvm::StringRef bytes = (*input)->getBuffer();
  llvm::StringRef parseOptions = a.allowUnregistered ? "allow-unregistered-dialect" : "";
  std::optional<cache::CacheKey> key;
  std::vector<double> values; // --share-topology: this program's, for the library
  // The index: by the topology index (TopologyIndex.h) the input's skeleton
  // names the library and where its values sit in the text; else by the
  // source index, the input's bytes.
  std::optional<SourceSkeleton> skeleton;
  if (a.shareTopology)
    skeleton = scanSkeleton(bytes);
  cache::CacheKey indexKey = a.shareTopology
                                 ? topologyKeyBuilder(*skeleton, options, session.target,
                                                      session.linker, parseOptions, session.buildId)
                                       .key()
                                 : sourceKeyBuilder(bytes, options, session.target, session.linker,
                                                    parseOptions, session.buildId)
                                       .key();
  auto lookup = [&]() -> bool {
    if (!a.shareTopology) {
      key = artifacts->lookupSource(indexKey);
      return key && artifacts->lookupLibrary(*key, *output, {nullptr, /*final=*/true});
    }
    auto found = artifacts->lookupTopology(indexKey);
    if (!found)
      return false;
    llvm::Expected<std::vector<double>> read = found->second.readValues(bytes, *skeleton);
    if (!read) {
      llvm::consumeError(read.takeError());
      return false;
    }
    key = found->first;
    values = std::move(*read);
    return artifacts->lookupLibrary(*key, *output, {&values, /*final=*/true});
  };
  uint64_t problems = cache::problemCount();
  bool hit = lookup();
  // A problem so far (reported into `warnings`): the compiler repeats the
  // lookup and reports it itself.
  if (!hit && cache::problemCount() == problems) {
    handOver.handoff = IndexMissHandoff{indexKey.str()};
    if (artifacts->writes()) {
      // Single flight here rather than in the compiler: a process that
      // waits for another's compile then hits without starting one. A lock
      // taken goes to the compiler across exec().
      bool waited = false;
      handOver.lock = artifacts->lock(indexKey, waited);
      hit = waited && lookup();
      int descriptor = -1;
      if (hit) {
        // Served here; the lock goes when this process returns.
      } else if (handOver.lock && (descriptor = handOver.lock->inheritableDescriptor()) >= 0) {
        handOver.handoff->lock = IndexMissHandoff::Lock::Held;
        handOver.handoff->lockDescriptor = descriptor;
      } else if (waited) {
        // The wait ran out (reported): the compiler does not wait again.
        handOver.handoff->lock = IndexMissHandoff::Lock::None;
      } else if (cache::problemCount() != problems) {
        // No lock to be had (reported): the compiler tries again, and
        // reports what it meets.
        handOver.handoff.reset();
      }
    }
    // What the compiler will not meet again is reported here.
    handOver.printWarnings = handOver.handoff.has_value();
  }
  if (!hit)
    return std::nullopt;
  double cacheSeconds = since(cacheStart);
  uint64_t size = 0;
  (void)llvm::sys::fs::file_size(output->getContentPath(), size);
  if (llvm::Error error = output->commit()) {
    llvm::consumeError(std::move(error));
    return std::nullopt;
  }
  if (a.timing)
    printHitTiming(llvm::errs(), a.shareTopology ? "topology index" : "source index", readSeconds,
                   0, 0, cacheSeconds, since(start), size);
  if (a.verbose)
    printSummary(llvm::errs(), CacheOutcome::Hit, key->str(), since(start),
                 a.outputDir.value_or("").empty() ? llvm::StringRef() : llvm::StringRef(inputPath));
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  unsetenv(IndexMissHandoff::kEnvironmentVariable);
  unsetenv(cache::kRemoteFailureVariable); // only ever from the front end
  std::string compiler = compilerPath(argv[0]);
  // The cache's warnings wait: on a hand-over the compiler meets the same
  // problem and reports it, once.
  std::vector<std::string> warnings;
  cache::setWarningHandler([&](llvm::StringRef message) { warnings.push_back(message.str()); });
  HandOver handOver;
  // The inputs this process served, left out of what the compiler is given.
  llvm::SmallVector<bool> served(argc, false);
  std::optional<Arguments> arguments = parseArguments(argc, argv);
  std::optional<std::vector<std::string>> outputs;
  if (arguments)
    outputs = outputPaths(*arguments);
  std::optional<Session> session;
  if (outputs)
    session = openSession(*arguments, compiler);
  if (session) {
    // The warnings of opening the cache (a remote without a team key) the
    // compiler meets again when it opens it: on a hand-over they are its.
    size_t opening = warnings.size();
    // In order, up to the first input that is not a hit here; the compiler
    // takes that one and the rest.
    for (size_t k = 0; k < arguments->inputs.size(); ++k) {
      std::optional<int> code =
          tryHit(*arguments, *session, arguments->inputs[k], (*outputs)[k], handOver);
      if (code || handOver.printWarnings)
        for (size_t w = code ? 0 : opening; w < warnings.size(); ++w)
          cache::printDefaultWarning(warnings[w]);
      warnings.clear();
      opening = 0;
      if (!code)
        break;
      served[arguments->inputIndices[k]] = true;
      if (k + 1 == arguments->inputs.size())
        return 0;
    }
  }
  if (handOver.handoff)
    handOver.handoff->exportToEnvironment();
  // A remote that timed out here is skipped there: one timeout a compile.
  cache::exportRemoteFailures();
  // exec() runs no destructor.
  if (session && session->artifacts)
    session->artifacts->flushStats();
  llvm::errs().flush();
  std::vector<char *> rest;
  for (int i = 0; i < argc; ++i)
    if (!served[i])
      rest.push_back(argv[i]);
  rest.push_back(nullptr);
  execv(compiler.c_str(), rest.data());
  int error = errno;
  llvm::errs() << "qshape-compile: error: cannot start the compiler '" << compiler
               << "': " << std::strerror(error)
               << "; qshape-compile runs it from ../libexec/qshape/ next to itself (a build "
                  "tree or a `cmake --install` prefix): build or install qshape again\n";
  return 1;
}
