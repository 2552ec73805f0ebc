//===- qshape-compile-full.cpp - a quantum MLIR module to a native library ===//
//
//   qshape-compile IN.mlir... (-o OUT.so | --output-dir=DIR) [--opt-level=N]
//                  [--no-roll] [--emit=K]
//                  [--timing] [-v] [--linker=in-process|PROGRAM]
//                  [--cache=off|read|write|readwrite] [--cache-dir=DIR]
//                  [--cache-remote=URL] [--cache-lock-wait=DURATION]
//
// The compiler, libexec/qshape/qshape-compile-full: bin/qshape-compile (the
// front end, qshape-compile.cpp) serves source-index hits and exec()s this
// program with the same arguments for everything else. A thin main over
// qshape::compile::Compilation and ArtifactCache (include/qshape/Compile):
// options in, one summary line (-v) and per-stage times (--timing) out;
// several inputs one after the other, each as if alone. With --emit=so the
// artifact cache is consulted
// before any lowering (ArtifactCache.h): first by the input's bytes, then by
// the compile key after parsing; a hit writes the stored library to OUT.
// Errors are located diagnostics where there is a location, then one
// "qshape-compile: error: ..." line and exit code 1; OUT is then untouched.
//
//===----------------------------------------------------------------------===//

#include "qshape/ArtifactCache/ArtifactCache.h"
#include "qshape/Cache/Diagnostics.h"
#include "qshape/Compile/Compiler.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <future>
#include <thread>
#include <unistd.h>
#include <vector>

#ifdef QSHAPE_COMPILE_MIMALLOC
#include <mimalloc.h>
#endif

using namespace mlir;
using namespace qshape::compile;
namespace cl = llvm::cl;

static cl::OptionCategory category("qshape-compile options");
static cl::list<std::string> inputFiles(cl::Positional,
                                        cl::desc("<input.mlir>... ('-' for stdin; default)"),
                                        cl::cat(category));
static cl::opt<std::string> outputFile("o",
                                       cl::desc("Output file ('-' for stdout, text emits "
                                                "only); required for --emit=so and obj"),
                                       cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string> outputDir(
    "output-dir",
    cl::desc("Write each input's output as DIR/<input's name without .mlir>.so (or .o, .ll, "
             ".mlir by --emit), instead of -o; needed for several inputs, which are compiled "
             "one after the other in this process (a sweep: with --share-topology the first "
             "of a topology compiles, the others hit)"),
    cl::value_desc("dir"), cl::cat(category));
static cl::opt<EmitKind>
    emit("emit", cl::desc("What to write"), cl::init(EmitKind::SharedLibrary),
         cl::values(clEnumValN(EmitKind::MLIR, "mlir",
                               "the module after the MLIR pipeline (LLVM "
                               "dialect)"),
                    clEnumValN(EmitKind::LLVMIR, "llvm", "LLVM IR after optimisation"),
                    clEnumValN(EmitKind::Object, "obj", "the object file"),
                    clEnumValN(EmitKind::SharedLibrary, "so", "the shared library (default)")),
         cl::cat(category));
static cl::opt<unsigned>
    optLevel("opt-level",
             cl::desc("LLVM optimisation and code generation level, 0-3. Default 0, as Catalyst: "
                      "its driver runs no LLVM IR optimisation pipeline (except for Enzyme) and "
                      "generates code at CodeGenOptLevel::None"),
             cl::init(kDefaultOptLevel), cl::cat(category));
static cl::opt<bool> noRoll("no-roll",
                            cl::desc("Compile the program as written: no qshape-canonicalize "
                                     "and qshape-roll-loops before lowering"),
                            cl::cat(category));
static cl::opt<bool> timing("timing",
                            cl::desc("Print the seconds of each stage, the sizes, and the "
                                     "process's peak resident set after each stage on stderr"),
                            cl::cat(category));
static cl::opt<bool> verbose("v", cl::desc("Print one summary line on stderr"), cl::cat(category));
static cl::opt<std::string> linkerPath(
    "linker",
    cl::desc("What links the library: 'in-process' (lld's library inside this compiler: no "
             "second process; the default when qshape was built with liblld-22-dev), or an "
             "external ld.lld or other GNU-compatible linker, by path or by a name looked up in "
             "PATH. Default: $QSHAPE_LINKER, else in-process, else the ld.lld found when qshape "
             "was configured. The linker is part of the compile key"),
    cl::value_desc("program"), cl::cat(category));
static cl::opt<std::string> abiName(
    "abi",
    cl::desc("Whose host loads the library: 'qshape' (qshape-run, qshape.Artifact; the "
             "default) or 'catalyst' (Catalyst's CompiledFunction: every result buffer comes "
             "from the runtime's _mlir_memref_to_llvm_alloc, constants copied into one, for "
             "the host to take with _mlir_memory_transfer; docs/native.md)"),
    cl::value_desc("qshape|catalyst"), cl::init("qshape"), cl::cat(category));
static cl::opt<std::string> runtimeLib(
    "runtime-lib",
    cl::desc("Link the library against this runtime (NEEDED, with an rpath to its directory), "
             "so that a bare dlopen of it works: Catalyst's librt_capi.so or qshape's "
             "libqshape-runtime.so. Default: none (the host loads a runtime first, as "
             "qshape-run does). --emit=so"),
    cl::value_desc("path"), cl::cat(category));
static cl::opt<bool> shareTopology(
    "share-topology",
    cl::desc("One library per topology: before the key, lift the module's f64 constants "
             "(angles, coefficients) into a parameter table (qshape-lift-parameters), so "
             "programs that differ only in those values compile to the same library; this "
             "program's values are then written into OUT's .qshape.params section. "
             "--emit=so or obj"),
    cl::cat(category));
static cl::opt<bool> allowUnregistered(
    "allow-unregistered-dialect",
    cl::desc("Accept ops of dialects qshape does not know (generic form), such as "
             "Catalyst's catalyst.launch_kernel"),
    cl::cat(category));

static cl::opt<std::string> cacheModeText(
    "cache",
    cl::desc("The artifact cache (--emit=so): off, read (hits only, never stores), write "
             "(compiles and stores, never hits), readwrite (default). Directory: "
             "--cache-dir, else $QSHAPE_CACHE_DIR, else $XDG_CACHE_HOME/qshape or "
             "~/.cache/qshape (docs/cache.md)"),
    cl::value_desc("mode"), cl::init("readwrite"), cl::cat(category));
static cl::opt<std::string> cacheDir("cache-dir",
                                     cl::desc("The cache directory (default: $QSHAPE_CACHE_DIR, "
                                              "...; see --cache)"),
                                     cl::value_desc("dir"), cl::cat(category));
static cl::opt<std::string> cacheRemote(
    "cache-remote",
    cl::desc("A shared cache behind the directory, redis://host:port/db?attrs (default: "
             "$QSHAPE_CACHE_REMOTE); 'off': none"),
    cl::value_desc("url"), cl::cat(category));
static cl::opt<std::string> cacheLockWait(
    "cache-lock-wait",
    cl::desc("How long to wait while another process compiles the same input (single "
             "flight), e.g. 30s, 5m (default 5m); then compile without waiting longer"),
    cl::value_desc("duration"), cl::init(ArtifactCacheOptions::kDefaultLockWait),
    cl::cat(category));

static const char *const kOverview =
    "qshape-compile: compile a Catalyst-shaped quantum MLIR module to a native shared "
    "library\n\n"
    "Stages: parse; the MLIR pipeline qshape-lower-to-llvm (qshape-canonicalize and\n"
    "qshape-roll-loops unless --no-roll, then lowering to the LLVM dialect); translation\n"
    "to LLVM IR; LLVM's optimisation pipeline at --opt-level; code generation for this\n"
    "machine; linking by lld, in this process (--linker). The library calls Catalyst's\n"
    "runtime C ABI; `qshape-run OUT.so` runs it on qshape's runtime (docs/native.md).\n\n"
    "Compile once: with --emit=so the artifact cache is consulted before any lowering,\n"
    "first by the input's bytes, then by the compile key after parsing. A hit writes\n"
    "the stored library (checksum, producer, LLVM, runtime ABI and key checked) to OUT;\n"
    "no MLIR pass, LLVM or linker runs. A miss compiles and stores. Processes that\n"
    "compile the same input at once compile it once (the others wait, then hit).\n\n"
    "-v prints `qshape-compile: hit|miss|off <key> <seconds> s`: the key hashes\n"
    "everything the library depends on (exact input fingerprint, pipeline, options,\n"
    "target, toolchain: docs/cache.md). Errors exit with code 1 and leave OUT as it was\n"
    "(it is written under a temporary name and renamed when complete).\n\n"
    "--share-topology keys and compiles the lifted module (qshape-lift-parameters), so\n"
    "programs of one topology with other baked angles share one key and one library;\n"
    "OUT gets this program's values (docs/native.md, \"One artifact per topology\").\n"
    "A later program that differs only in its float literals is found by its text\n"
    "alone (the topology index), with no parse; --timing names the index of a hit\n"
    "and says why a program got no index entry.\n\n"
    "MLIR's pass manager options work too (--mlir-timing, --mlir-print-ir-after-all,\n"
    "...: --help-hidden lists them).\n\n"
    "Several inputs (with --output-dir) are compiled one after the other in this process,\n"
    "each as if alone: with --share-topology, a sweep over one topology compiles once.\n";

static int fail(const llvm::Twine &message) {
  llvm::errs() << "qshape-compile: error: " << message << "\n";
  return 1;
}

using Clock = std::chrono::steady_clock;
static double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

namespace {
/// The artifact cache's part of one run (ArtifactCache.h): kept apart from
/// the compilation so that a pre-key stage (the module that is keyed is
/// whatever the driver holds after it) can be added between parse and
/// facts without touching it.
struct CacheRun {
  /// What the front end handed over (IndexMissHandoff).
  std::optional<IndexMissHandoff> frontEnd;
  ArtifactCache *cache = nullptr; ///< the process's, shared by its inputs
  std::optional<qshape::cache::CacheKey> sourceKey;
  std::unique_ptr<qshape::cache::KeyLock> lock;
  CacheOutcome outcome = CacheOutcome::Off;
  std::string key;    ///< the compile key of a hit found by an index
  double seconds = 0; ///< lookups, the lock's wait and stores

  /// Before parsing: the source index, with single flight on the source
  /// key. True on a hit.
  bool tryBeforeParse(llvm::StringRef input, const CompileOptions &options, const Linker &linker,
                      OutputFile &output) {
    auto start = Clock::now();
    sourceKey = sourceKeyBuilder(input, options, TargetInfo::host(), linker,
                                 allowUnregistered ? "allow-unregistered-dialect" : "",
                                 qshape::cache::getBuildId())
                    .key();
    bool hit = lookUpIndex(*sourceKey, [&] { return lookupBySource(output); });
    seconds += since(start);
    return hit;
  }

  /// After the facts: the library of the compile key (another input with
  /// the same exact fingerprint compiled it). True on a hit.
  bool tryAfterFacts(const CompileFacts &facts, OutputFile &output) {
    auto start = Clock::now();
    qshape::cache::CacheKey k = *qshape::cache::CacheKey::parse(facts.key());
    bool hit = cache->lookupLibrary(k, output);
    if (hit) {
      outcome = CacheOutcome::Hit;
      if (sourceKey)
        cache->storeSource(*sourceKey, k);
    }
    seconds += since(start);
    return hit;
  }

  void storeAfterCompile(const CompileFacts &facts, OutputFile &output, double compileSeconds) {
    auto start = Clock::now();
    qshape::cache::CacheKey k = *qshape::cache::CacheKey::parse(facts.key());
    outcome = CacheOutcome::Miss;
    cache->storeLibrary(k, output.getTempPath(), uint64_t(compileSeconds * 1000));
    if (sourceKey)
      cache->storeSource(*sourceKey, k);
    seconds += since(start);
  }

  /// --share-topology, before parsing: the topology index by the input's
  /// skeleton, then the library it names, with this program's values
  /// (read from its literals) written in. True on a hit.
  /// `scanned`: the input's skeleton if it was scanned already.
  bool tryTopology(llvm::StringRef input, const CompileOptions &options, const Linker &linker,
                   OutputFile &output, std::optional<SourceSkeleton> scanned) {
    auto start = Clock::now();
    skeleton = scanned ? std::move(scanned) : scanSkeleton(input);
    topologyKey = topologyKeyBuilder(*skeleton, options, TargetInfo::host(), linker,
                                     allowUnregistered ? "allow-unregistered-dialect" : "",
                                     qshape::cache::getBuildId())
                      .key();
    bool hit = lookUpIndex(*topologyKey, [&] { return lookupByTopology(input, output); });
    seconds += since(start);
    return hit;
  }

  /// After the facts of a --share-topology run, while the module's context
  /// lives (the parser checks the map): the skeleton's map, if the
  /// program's literals are its parameters (TopologyIndex.h); why not goes
  /// to --timing's output.
  void mapTopology(const Compilation &c, bool timing) {
    if (!topologyKey || !cache->writes())
      return;
    auto start = Clock::now();
    llvm::Expected<TopologyMap> map = c.getTopologyMap(*skeleton);
    if (map)
      topologyMap = std::move(*map);
    else if (timing)
      llvm::errs() << "qshape-compile: topology index: " << llvm::toString(map.takeError()) << "\n";
    else
      llvm::consumeError(map.takeError());
    seconds += since(start);
  }

  /// Stores mapTopology()'s map, naming the library of `facts`.
  void storeTopology(const CompileFacts &facts) {
    if (!topologyMap)
      return;
    auto start = Clock::now();
    cache->storeTopology(*topologyKey, *qshape::cache::CacheKey::parse(facts.key()), *topologyMap);
    seconds += since(start);
  }

private:
  std::optional<SourceSkeleton> skeleton;
  std::optional<qshape::cache::CacheKey> topologyKey;
  std::optional<TopologyMap> topologyMap; ///< mapTopology(): to store

  /// One index lookup with single flight on its key: a miss takes the
  /// key's lock, and a process that waited for another's looks up again.
  /// What the front end already did (looked up, waited, locked) is not done
  /// twice.
  bool lookUpIndex(const qshape::cache::CacheKey &indexKey, llvm::function_ref<bool()> lookup) {
    bool handed = frontEnd && frontEnd->key == indexKey.str();
    if (frontEnd && !handed)
      qshape::cache::reportProblem("qshape-compile's front end keyed this input " + frontEnd->key +
                                   ", the compiler " + indexKey.str() +
                                   " (a front end of another build, or its record of the "
                                   "host's target out of date?); looking up again");
    if (!handed && lookup())
      return true;
    if (!cache->writes())
      return false;
    using Lock = IndexMissHandoff::Lock;
    if (handed && frontEnd->lock == Lock::Held)
      lock = cache->adoptLock(indexKey, frontEnd->lockDescriptor);
    if (lock || (handed && frontEnd->lock == Lock::None))
      return false;
    bool waited = false;
    lock = cache->lock(indexKey, waited);
    return waited && lookup();
  }

  bool lookupByTopology(llvm::StringRef input, OutputFile &output) {
    auto found = cache->lookupTopology(*topologyKey);
    if (!found)
      return false;
    llvm::Expected<std::vector<double>> values = found->second.readValues(input, *skeleton);
    if (!values) {
      llvm::consumeError(values.takeError());
      return false;
    }
    if (!cache->lookupLibrary(found->first, output, {&*values, /*final=*/true}))
      return false;
    outcome = CacheOutcome::Hit;
    key = found->first.str();
    return true;
  }

  bool lookupBySource(OutputFile &output) {
    std::optional<qshape::cache::CacheKey> k = cache->lookupSource(*sourceKey);
    if (!k || !cache->lookupLibrary(*k, output, {nullptr, /*final=*/true}))
      return false;
    outcome = CacheOutcome::Hit;
    key = k->str();
    return true;
  }
};
} // namespace

namespace {
/// What every input of one run shares: the options, the artifact cache and
/// the linker it keys by.
struct Run {
  CompileOptions options;
  bool printTiming = false, printVerbose = false, namesInputs = false;
  /// A compile ran: lld in process may have reset every llvm::cl option.
  bool optionsReset = false;
  std::unique_ptr<ArtifactCache> cache;
  std::optional<Linker> linker;
  DialectRegistry registry;
};

/// An input read, and with --share-topology its skeleton scanned, ahead of
/// its turn (below).
struct Prescan {
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  std::string error;
  std::optional<SourceSkeleton> skeleton;
};
} // namespace

/// Compiles (or finds in the cache) one input into `outputPath`; 0 on
/// success. `frontEnd`: what the front end handed over for this input.
static int compileInput(Run &r, llvm::StringRef inputPath, llvm::StringRef outputPath,
                        std::optional<IndexMissHandoff> frontEnd,
                        std::future<Prescan> *prescanned) {
  auto start = Clock::now();
  CompileOptions options = r.options;
  const bool printTiming = r.printTiming, printVerbose = r.printVerbose;
  // With --output-dir (several inputs, or one) -v's line names its input.
  llvm::StringRef summaryInput = r.namesInputs ? inputPath : llvm::StringRef();
  // The output's temporary first: an unwritable OUT fails before any work.
  std::optional<OutputFile> output;
  if (!outputPath.empty() && outputPath != "-") {
    llvm::Expected<OutputFile> created =
        OutputFile::create(outputPath, options.emit == EmitKind::SharedLibrary, inputPath);
    if (!created)
      return fail(llvm::toString(created.takeError()));
    output.emplace(std::move(*created));
    // A SIGKILLed run's temporary (no handler removes it) goes now.
    OutputFile::sweepStale(outputPath);
  }

  std::string err;
  auto readStart = Clock::now();
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  std::optional<SourceSkeleton> skeleton;
  if (prescanned) {
    Prescan p = prescanned->get();
    buffer = std::move(p.buffer);
    err = std::move(p.error);
    skeleton = std::move(p.skeleton);
  } else {
    buffer = openInputFile(inputPath, &err);
  }
  if (!buffer) // err names the file
    return fail(err);
  double readSeconds = since(readStart);

  auto finish = [&](CacheOutcome outcome, llvm::StringRef key) {
    if (llvm::Error error = output->commit())
      return fail(llvm::toString(std::move(error)));
    if (printVerbose)
      printSummary(llvm::errs(), outcome, key, since(start), summaryInput);
    return 0;
  };
  // `via`: the index that named the library (the compile key itself after
  // a parse).
  auto printHitTiming = [&](double parse, double facts, double cacheSeconds, llvm::StringRef via) {
    if (!printTiming)
      return;
    uint64_t size = 0;
    (void)llvm::sys::fs::file_size(output->getContentPath(), size);
    qshape::compile::printHitTiming(llvm::errs(), via, readSeconds, parse, facts, cacheSeconds,
                                    since(start), size);
  };

  // The artifact cache, before anything is parsed.
  CacheRun run;
  run.frontEnd = std::move(frontEnd);
  if (r.cache && options.emit == EmitKind::SharedLibrary) {
    run.cache = r.cache.get();
    // Not by the input's bytes with --share-topology: a library found
    // there would lack this program's values, which only parsing yields.
    if ((run.cache->reads() || run.cache->writes()) && !options.shareTopology)
      if (run.tryBeforeParse(buffer->getBuffer(), options, *r.linker, *output)) {
        printHitTiming(0, 0, run.seconds, "source index");
        return finish(CacheOutcome::Hit, run.key);
      }
    // With it, by the input's skeleton: another program of the topology.
    if (options.shareTopology && (run.cache->reads() || run.cache->writes()))
      if (run.tryTopology(buffer->getBuffer(), options, *r.linker, *output, std::move(skeleton))) {
        printHitTiming(0, 0, run.seconds, "topology index");
        return finish(CacheOutcome::Hit, run.key);
      }
  }

  // Destroyed as soon as the module is translated (releaseContext): LLVM's
  // stages reuse its memory, and the compile's peak drops.
  std::optional<MLIRContext> context(std::in_place, r.registry);
  context->allowUnregisteredDialects(allowUnregistered);
  context->printOpOnDiagnostic(false);

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  std::optional<SourceMgrDiagnosticHandler> handler(std::in_place, sourceMgr, &*context);
  options.releaseContext = [&] {
    handler.reset();
    context.reset();
  };

  llvm::Expected<std::unique_ptr<Compilation>> compilation =
      Compilation::parse(*context, sourceMgr, options);
  if (!compilation)
    return fail(llvm::toString(compilation.takeError()));
  Compilation &c = **compilation;
  // With --share-topology, getFacts() lifts the parameters first: the key
  // and the cache see the lifted module.
  llvm::Expected<const CompileFacts *> facts = c.getFacts();
  if (!facts)
    return fail(llvm::toString(facts.takeError()));
  if (run.cache && run.tryAfterFacts(**facts, *output)) {
    // --share-topology: the topology's library, with this program's values.
    if (llvm::Error error = c.writeParameters(*output))
      return fail(llvm::toString(std::move(error)));
    run.mapTopology(c, printTiming);
    run.storeTopology(**facts);
    printHitTiming(c.getTimes().parse, c.getTimes().facts, run.seconds, "compile key");
    return finish(CacheOutcome::Hit, (*facts)->key());
  }
  r.optionsReset = true;
  run.mapTopology(c, printTiming); // compile() releases the context
  if (llvm::Error error = c.compile(output ? &*output : nullptr))
    return fail(llvm::toString(std::move(error)));
  if (run.cache) {
    run.storeAfterCompile(**facts, *output, since(start));
    run.storeTopology(**facts);
  }
  // After the store: the cache keeps the value-free library of the topology.
  if (output)
    if (llvm::Error error = c.writeParameters(*output))
      return fail(llvm::toString(std::move(error)));

  if (printTiming) {
    const StageTimes &t = c.getTimes();
    const CompileStats &s = c.getStats();
    llvm::errs() << llvm::format(
        "qshape-compile: timing: parse %.4f s, facts %.4f s, mlir-passes %.4f s, translate "
        "%.4f s, llvm-opt %.4f s, codegen %.4f s, link %.4f s, total %.4f s\n",
        t.parse, t.facts, t.mlirPasses, t.translate, t.llvmOpt, t.codegen, t.link, t.total());
    llvm::errs() << "qshape-compile: sizes: " << s.mlirOps << " MLIR ops after lowering, "
                 << s.llvmFunctions << " LLVM functions, " << s.llvmInstructions
                 << " LLVM instructions, object " << s.objectBytes << " bytes, output "
                 << s.outputBytes << " bytes\n";
    const StagePeaks &p = c.getPeaks();
    auto mb = [](uint64_t kb) { return double(kb) / 1024; };
    llvm::errs() << llvm::format(
        "qshape-compile: peak RSS after: parse %.1f MB, facts %.1f MB, mlir-passes %.1f MB, "
        "translate %.1f MB, llvm-opt %.1f MB, codegen %.1f MB, link %.1f MB\n",
        mb(p.parse), mb(p.facts), mb(p.mlirPasses), mb(p.translate), mb(p.llvmOpt), mb(p.codegen),
        mb(p.link));
    if (run.cache)
      llvm::errs() << llvm::format("qshape-compile: timing: cache %.4f s (%s: lookups, "
                                   "single-flight wait, stores)\n",
                                   run.seconds, run.cache->describe().c_str());
  }
  if (!output) {
    if (printVerbose)
      printSummary(llvm::errs(), CacheOutcome::Off, (*facts)->key(), since(start), summaryInput);
    return 0;
  }
  return finish(run.outcome, (*facts)->key());
}

int main(int argc, char **argv) {
#ifdef QSHAPE_COMPILE_MIMALLOC
  // Freed pages go back to the system at once rather than after mimalloc's
  // delay (100 ms): the MLIR side, freed before LLVM's stages, then leaves
  // the resident set before codegen grows it. Rolled W2 n_trotter=10 at -O2:
  // 34.0 -> 29.6 MB peak, unrolled 145 -> 138 MB, no measurable time
  // (docs/benchmarks-log.md, "Memory with lld in process").
#if MI_MALLOC_VERSION >= 210
  mi_option_set(mi_option_purge_delay, 0);
#else
  mi_option_set(mi_option_decommit_delay, 0); // $MIMALLOC_RESET_DELAY
#endif
#endif
  llvm::InitLLVM init(argc, argv);
  // Read once and not passed on (to the linker, say).
  std::optional<IndexMissHandoff> frontEnd = IndexMissHandoff::takeFromEnvironment();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, kOverview);

  // Copied: lld in process resets every llvm::cl option to its default when
  // it parses its own (cl::ResetAllOptionOccurrences); see the loop below.
  Run r;
  r.printTiming = timing;
  r.printVerbose = verbose;
  CompileOptions &options = r.options;
  options.optLevel = optLevel;
  options.roll = !noRoll;
  options.emit = emit;
  options.linker = linkerPath;
  options.shareTopology = shareTopology;
  std::optional<ABI> abi = parseABI(abiName);
  if (!abi)
    return fail("--abi must be 'qshape' or 'catalyst', not '" + abiName + "'");
  options.abi = *abi;
  if (!runtimeLib.empty()) {
    llvm::Expected<std::string> resolved = resolveRuntimeLib(runtimeLib);
    if (!resolved)
      return fail(llvm::toString(resolved.takeError()));
    options.runtimeLib = *resolved;
  }
  options.configurePassManager = [](PassManager &pm) {
    if (failed(applyPassManagerCLOptions(pm)))
      return failure();
    applyDefaultTimingPassManagerCLOptions(pm);
    return success();
  };
  if (optLevel > 3)
    return fail("--opt-level must be 0, 1, 2 or 3");
  std::vector<std::string> inputs(inputFiles.begin(), inputFiles.end());
  if (inputs.empty())
    inputs.push_back("-");
  r.namesInputs = !outputDir.empty();
  // Each input's output: -o, or its name in --output-dir.
  llvm::Expected<std::vector<std::string>> named =
      getOutputPaths(inputs, outputFile, outputDir, emit);
  if (!named)
    return fail(llvm::toString(named.takeError()));
  std::vector<std::string> outputs = std::move(*named);
  bool binary = emit == EmitKind::Object || emit == EmitKind::SharedLibrary;
  if (outputs.front().empty() && binary)
    return fail("--emit=" + getEmitName(emit) + " needs an output file: -o OUT");
  if (!options.runtimeLib.empty() && emit != EmitKind::SharedLibrary)
    return fail("--runtime-lib is linked into the library: use --emit=so");
  if (shareTopology && !binary)
    return fail("--share-topology writes the program's values into the library: use "
                "--emit=so or --emit=obj");
  if (outputs.front() == "-" && binary)
    return fail("--emit=" + getEmitName(emit) + " cannot be written to stdout");
  std::optional<qshape::cache::AccessMode> cacheMode =
      qshape::cache::parseAccessMode(cacheModeText);
  if (!cacheMode)
    return fail("--cache='" + cacheModeText + "': use off, read, write or readwrite");
  std::optional<uint64_t> lockWaitMs = qshape::cache::parseDurationMs(cacheLockWait, 1000);
  if (!lockWaitMs)
    return fail("--cache-lock-wait='" + cacheLockWait +
                "' is not a duration like 500ms, 30s or 5m");
  if (emit == EmitKind::SharedLibrary && *cacheMode != qshape::cache::AccessMode::Off) {
    llvm::Expected<Linker> linker = findLinker(options.linker);
    if (!linker)
      return fail(llvm::toString(linker.takeError()));
    r.linker = std::move(*linker);
    ArtifactCacheOptions cacheOptions;
    cacheOptions.mode = *cacheMode;
    cacheOptions.directory = cacheDir;
    cacheOptions.remote = cacheRemote;
    cacheOptions.lockWait = std::chrono::milliseconds(*lockWaitMs);
    r.cache = ArtifactCache::open(cacheOptions);
    // The front end keys by the record; the compiler by what it targets.
    if (r.cache)
      r.cache->recordHostTarget(TargetInfo::host());
  }
  Compilation::registerDialects(r.registry);
  Compilation::registerPasses();

  // A sweep of one topology (--share-topology, several inputs): while the
  // first input compiles, a second thread reads the others and scans their
  // skeletons, so that their hits are left only the lookups and the copy.
  std::vector<std::promise<Prescan>> promises;
  std::vector<std::future<Prescan>> prescans;
  std::thread prescanner;
  if (shareTopology && r.cache && r.cache->reads() && inputs.size() > 1) {
    promises.resize(inputs.size());
    for (std::promise<Prescan> &p : promises)
      prescans.push_back(p.get_future());
    prescanner = std::thread([&inputs, &promises] {
      for (size_t k = 1; k < inputs.size(); ++k) {
        Prescan p;
        p.buffer = openInputFile(inputs[k], &p.error);
        if (p.buffer)
          p.skeleton = scanSkeleton(p.buffer->getBuffer());
        promises[k].set_value(std::move(p));
      }
    });
  }

  // One input after the other; a failed one does not stop the rest (as
  // `cc -c a.c b.c`), and the exit code says whether any failed.
  int status = 0;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (r.optionsReset) {
      // The options as given again, for MLIR's (--mlir-timing, ...) and the
      // cache run's (not after a hit: it costs a tenth of one).
      cl::ResetAllOptionOccurrences();
      cl::ParseCommandLineOptions(argc, argv, kOverview);
      r.optionsReset = false;
    }
    // The front end hands over at its first miss: that is the first input
    // here.
    if (compileInput(r, inputs[k], outputs[k], k == 0 ? std::move(frontEnd) : std::nullopt,
                     k > 0 && !prescans.empty() ? &prescans[k] : nullptr))
      status = 1;
  }
  if (prescanner.joinable())
    prescanner.join();
  if (linkerCrashedInProcess()) {
    // Its error is reported and the temporaries are gone; lld's abandoned
    // state must not meet the static destructors.
    llvm::outs().flush();
    llvm::errs().flush();
    _exit(status);
  }
  return status;
}
