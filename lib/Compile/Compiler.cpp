//===- Compiler.cpp - qshape-compile's driver: MLIR in, shared library out ===//

#include "qshape/Compile/Compiler.h"

#include "qshape/ArtifactCache/ParameterTable.h"
#include "qshape/Codegen/Codegen.h"
#include "qshape/Fingerprint/CanonicalForm.h"
#include "qshape/Fingerprint/Fingerprint.h"
#include "qshape/InitAll.h"
#include "qshape/Interpreter/Interpreter.h"
#include "qshape/Runtime/RuntimeABI.h"
#include "qshape/ToolSupport/ToolInput.h"
#include "qshape/Transforms/LiftParameters.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/bit.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <chrono>
#include <mutex>
#include <sys/resource.h>

using namespace mlir;

namespace qshape::compile {

//===----------------------------------------------------------------------===//
// Small helpers
//===----------------------------------------------------------------------===//

namespace {
/// The process's peak resident set so far, KB (VmHWM).
uint64_t peakResidentKB() {
  struct rusage usage;
  return getrusage(RUSAGE_SELF, &usage) == 0 ? uint64_t(usage.ru_maxrss) : 0;
}

/// Adds the seconds since construction to `slot` when destroyed, and
/// records the peak resident set then in `peak`.
class StageTimer {
public:
  StageTimer(double &slot, uint64_t &peak)
      : slot(slot), peak(peak), start(std::chrono::steady_clock::now()) {}
  ~StageTimer() {
    slot += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    peak = peakResidentKB();
  }

private:
  double &slot;
  uint64_t &peak;
  std::chrono::steady_clock::time_point start;
};
} // namespace

static std::string typeText(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

/// Writes through `print` to stdout (no output file) or to the output's
/// temporary.
static llvm::Error writeText(OutputFile *output,
                             llvm::function_ref<void(llvm::raw_ostream &)> print) {
  if (!output) {
    print(llvm::outs());
    llvm::outs().flush();
    return llvm::Error::success();
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(output->getTempPath(), ec, llvm::sys::fs::OF_None);
  if (!ec) {
    print(os);
    os.close();
    ec = os.error();
    os.clear_error();
  }
  if (ec)
    return llvm::createStringError(ec, "cannot write '" + output->getPath().str() +
                                           "': " + ec.message());
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Frontend modules: StableHLO
//===----------------------------------------------------------------------===//

namespace {
/// JAX's classical code in a frontend module. Catalyst's HLO lowering stage
/// (`hlo-lowering-stage`; `HLOLoweringStage` in qjit's pipeline) turns it
/// into linalg, arith and scf; qshape-compile's pipeline starts after it.
bool isHLODialect(StringRef dialect) { return dialect == "stablehlo" || dialect == "chlo"; }

/// The HLO op named at `offset` of `text`, where MLIR's parser reports an op
/// whose dialect is not registered: at the name of a custom-form op, just
/// after the quoted name of a generic-form one.
std::optional<StringRef> hloOpNameAt(StringRef text, size_t offset) {
  StringRef name = text.substr(offset).take_while(
      [](char c) { return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$'; });
  if (!name.contains('.')) {
    StringRef before = text.take_front(offset).rtrim();
    if (!before.consume_back("\"") || before.rfind('"') == StringRef::npos)
      return std::nullopt;
    name = before.substr(before.rfind('"') + 1);
  }
  if (!isHLODialect(name.split('.').first))
    return std::nullopt;
  return name;
}

struct HLOOp {
  std::string name;
  Location loc;
};

/// The HLO op a parser error is located at, if any; located at its name
/// (the quote in generic form), as the walk of a parsed module locates it.
std::optional<HLOOp> hloOpOfError(Diagnostic &diag, llvm::SourceMgr &sourceMgr) {
  auto file = diag.getLocation()->findInstanceOf<FileLineColLoc>();
  if (diag.getSeverity() != DiagnosticSeverity::Error || !file)
    return std::nullopt;
  unsigned mainId = sourceMgr.getMainFileID();
  StringRef text = sourceMgr.getMemoryBuffer(mainId)->getBuffer();
  llvm::SMLoc at = sourceMgr.FindLocForLineAndColumn(mainId, file.getLine(), file.getColumn());
  std::optional<StringRef> name;
  if (at.isValid())
    name = hloOpNameAt(text, at.getPointer() - text.data());
  if (!name)
    return std::nullopt;
  const char *start = name->data();
  if (start > text.data() && start[-1] == '"')
    --start;
  auto [line, column] = sourceMgr.getLineAndColumn(llvm::SMLoc::getFromPointer(start), mainId);
  return HLOOp{name->str(), FileLineColLoc::get(file.getFilename(), line, column)};
}

/// Parses the main buffer of `sourceMgr`. A module with HLO ops sets `hlo`
/// to the first: the op the parser stops at (its dialect is not registered;
/// that diagnostic is dropped for the one message of refuseHLO) or, when the
/// module parses (generic form, --allow-unregistered-dialect), the first in
/// the text.
OwningOpRef<ModuleOp> parseModule(MLIRContext &context, llvm::SourceMgr &sourceMgr,
                                  std::optional<HLOOp> &hlo) {
  OwningOpRef<ModuleOp> module;
  {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) -> LogicalResult {
      if (!hlo)
        hlo = hloOpOfError(diag, sourceMgr);
      return success(hlo.has_value());
    });
    module = parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  }
  // Only a context that allows unregistered dialects can parse an HLO op:
  // every other module skips this walk.
  if (module && !hlo && context.allowsUnregisteredDialects())
    module->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (!isHLODialect(op->getName().getDialectNamespace()))
        return WalkResult::advance();
      hlo = HLOOp{op->getName().getStringRef().str(), op->getLoc()};
      return WalkResult::interrupt();
    });
  return module;
}

/// One line: where, which op, and what to run first.
llvm::Error refuseHLO(const HLOOp &hlo) {
  std::string where;
  llvm::raw_string_ostream os(where);
  if (auto file = hlo.loc->findInstanceOf<FileLineColLoc>())
    os << file.getFilename().getValue() << ":" << file.getLine() << ":" << file.getColumn();
  else
    os << hlo.loc;
  return llvm::createStringError(
      where + ": '" + hlo.name +
      "' is a StableHLO op (JAX's classical code), which qshape-compile does not lower: run "
      "Catalyst's HLO lowering stage on the module first (catalyst --tool=opt "
      "--hlo-lowering-stage, or the IR after qjit's HLOLoweringStage)");
}
} // namespace

//===----------------------------------------------------------------------===//
// CompileFacts
//===----------------------------------------------------------------------===//

cache::KeyBuilder CompileFacts::keyBuilder() const {
  cache::KeyBuilder b;
  // The kind of artifact first: never the key of an MLIR-level cache entry.
  b.add("artifact", "native-library")
      .add("fingerprint", fingerprint)
      .add("pipeline", pipeline)
      .add("opt-level", optLevel)
      .add("roll", roll ? "on" : "off")
      .add("emit", getEmitName(emit))
      .add("target-triple", target.triple)
      .add("cpu", target.cpu)
      .add("cpu-features", target.features)
      .add("producer", producer)
      .add("build-id", buildId)
      .add("llvm-version", llvmVersion)
      .add("linker", linkerIdentity)
      .add("runtime-abi", runtimeAbiVersion);
  if (!preKey.empty())
    b.add("pre-key", preKey);
  if (!runtimeLib.empty())
    b.add("runtime-lib", runtimeLib);
  return b;
}

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

struct Compilation::LLVMState {
  llvm::LLVMContext context;
  std::unique_ptr<llvm::TargetMachine> machine;
  std::unique_ptr<llvm::Module> module;
};

void Compilation::registerDialects(DialectRegistry &registry) {
  qshape::registerToolDialects(registry);
  qshape::registerDependentDialects(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

void Compilation::registerPasses() {
  static std::once_flag once;
  std::call_once(once, [] { qshape::registerAllPasses(); });
}

Compilation::Compilation(MLIRContext &context, CompileOptions options, std::string inputName)
    : context(context), options(std::move(options)), inputName(std::move(inputName)) {}

Compilation::~Compilation() = default;

llvm::Expected<std::unique_ptr<Compilation>>
Compilation::parse(MLIRContext &context, llvm::SourceMgr &sourceMgr, CompileOptions options) {
  if (options.optLevel > 3)
    return llvm::createStringError("--opt-level must be 0, 1, 2 or 3");
  std::string name =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBufferIdentifier().str();
  std::unique_ptr<Compilation> c(new Compilation(context, std::move(options), name));
  c->sourceMgr = &sourceMgr;
  std::optional<HLOOp> hlo;
  {
    StageTimer timer(c->times.parse, c->peaks.parse);
    if (succeeded(checkToolInput(sourceMgr, &context)))
      c->module = parseModule(context, sourceMgr, hlo);
  }
  // Before anything else looks at the module: no later stage lowers HLO.
  if (hlo)
    return refuseHLO(*hlo);
  if (!c->module)
    return llvm::createStringError(name + ": cannot parse the module (see above)");
  c->describeEntries();
  return c;
}

void Compilation::describeEntries() {
  module->walk([&](func::FuncOp func) {
    Signature sig;
    for (Type t : func.getArgumentTypes())
      sig.arguments.push_back(typeText(t));
    for (Type t : func.getResultTypes())
      sig.results.push_back(typeText(t));
    // The outermost definition wins when nested modules reuse a name.
    signatures.try_emplace(func.getSymName(), std::move(sig));
  });
  // What qshape-sim runs without --entry, so that the two agree by default.
  llvm::Expected<func::FuncOp> entry = interp::findEntryFunction(*module);
  if (entry)
    sourceDefaultEntry = entry->getSymName().str();
  else
    llvm::consumeError(entry.takeError());
}

llvm::Expected<const CompileFacts *> Compilation::getFacts() {
  if (facts)
    return &*facts;
  StageTimer timer(times.facts, peaks.facts);
  CompileFacts f;
  if (options.shareTopology) {
    // The canonical form first: it orders the uses by structure, so slots
    // (and the lifted module) do not depend on the values.
    if (failed(qshape::canonicalize(*module, CanonicalizeOptions())))
      return llvm::createStringError(inputName + ": cannot canonicalize the module (see above)");
    FailureOr<LiftedParameters> lifted = liftParameters(*module, /*abstractValues=*/true);
    if (failed(lifted))
      return llvm::createStringError(inputName + ": cannot lift the parameters (see above)");
    parameterValues = std::move(lifted->values);
    placeLiftedSources(lifted->sources);
    f.preKey = "qshape-canonicalize,qshape-lift-parameters{abstract-values=true}";
  }
  FailureOr<Fingerprint> fp = computeFingerprint(*module);
  if (failed(fp))
    return llvm::createStringError(inputName + ": cannot fingerprint the module (see above)");
  f.fingerprint = fp->exactString();

  // The pipeline as MLIR expands it, every option spelled out: equal text
  // means equal passes.
  // The pass manager that will run is built here, so the text is exactly
  // what runs.
  passManager = std::make_unique<PassManager>(&context, ModuleOp::getOperationName());
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (failed(parsePassPipeline(getPipelineSpec(options), *passManager, errorStream)))
    return llvm::createStringError("cannot build the pipeline '" + getPipelineSpec(options) +
                                   "': " + errors);
  llvm::raw_string_ostream pipelineStream(f.pipeline);
  passManager->printAsTextualPipeline(pipelineStream);

  f.optLevel = options.optLevel;
  f.roll = options.roll;
  f.emit = options.emit;
  f.target = TargetInfo::host();
  f.producer = cache::getProducerVersion().str();
  f.buildId = cache::getBuildId().str();
  f.llvmVersion = LLVM_VERSION_STRING;
  f.runtimeAbiVersion = QSHAPE_RUNTIME_ABI_VERSION;
  f.runtimeLib = options.runtimeLib;
  if (options.emit == EmitKind::SharedLibrary) {
    llvm::Expected<Linker> found = findLinker(options.linker);
    if (!found)
      return found.takeError();
    linker = *found;
    f.linkerIdentity = linker->identity;
  }
  facts = std::move(f);
  return &*facts;
}

llvm::Error Compilation::runPipeline() {
  StageTimer timer(times.mlirPasses, peaks.mlirPasses);
  if (options.configurePassManager && failed(options.configurePassManager(*passManager)))
    return llvm::createStringError("bad MLIR pass manager options");
  if (failed(passManager->run(*module)))
    return llvm::createStringError(inputName +
                                   ": the MLIR pipeline failed (see the diagnostics above)");
  module->walk([&](Operation *) { ++stats.mlirOps; });
  return llvm::Error::success();
}

/// Catalyst's Python-interface wrappers: `_catalyst_pyface_<name>`.
static constexpr llvm::StringLiteral kPyfacePrefix = "_catalyst_pyface_";
static constexpr llvm::StringLiteral kCifacePrefix = "_mlir_ciface_";
static constexpr llvm::StringLiteral kJitPrefix = "jit_";

llvm::Error Compilation::buildLibraryInfo() {
  const CompileFacts &f = *facts;

  info = native::LibraryInfo();
  info.producer = f.producer;
  info.runtimeAbiVersion = f.runtimeAbiVersion;
  info.key = f.key();
  info.fingerprint = f.fingerprint;
  info.targetTriple = f.target.triple;
  info.cpu = f.target.cpu;
  info.optLevel = f.optLevel;
  info.roll = f.roll;
  for (auto func : module->getOps<LLVM::LLVMFuncOp>()) {
    StringRef symbol = func.getSymName();
    if (!symbol.starts_with(kPyfacePrefix) || func.isExternal())
      continue;
    StringRef name = symbol.drop_front(kPyfacePrefix.size());
    // A `jit_<qnode>` the pipeline made has its QNode's signature
    // (qshape-catalyst-entry-points); Catalyst's own jit_ functions are in
    // the source.
    StringRef source = name;
    auto sig = signatures.find(source);
    if (sig == signatures.end() && name.starts_with(kJitPrefix)) {
      source = name.drop_front(kJitPrefix.size());
      sig = signatures.find(source);
    }
    if (sig == signatures.end())
      return llvm::createStringError("the lowered module's entry point '" + symbol.str() +
                                     "' has no source function '@" + name.str() + "'");
    native::EntryInfo e;
    e.name = name.str();
    e.source = source.str();
    e.symbol = symbol.str();
    e.cInterface = (kCifacePrefix + name).str();
    e.arguments = sig->second.arguments;
    e.results = sig->second.results;
    info.entries.push_back(std::move(e));
  }
  if (info.entries.empty())
    return llvm::createStringError(
        inputName +
        ": nothing to call: the module has no public function with a body "
        "(no " +
        kPyfacePrefix.str() + "* entry point after lowering)");
  for (const native::EntryInfo &e : info.entries)
    if (e.name == sourceDefaultEntry ||
        (info.defaultEntry.empty() && e.source == sourceDefaultEntry))
      info.defaultEntry = e.name;
  if (info.defaultEntry.empty() && info.entries.size() == 1)
    info.defaultEntry = info.entries.front().name;
  return llvm::Error::success();
}

llvm::Error Compilation::translateAndOptimize() {
  const CompileFacts &f = *facts;
  if (llvm::Error e = buildLibraryInfo())
    return e;
  llvmState = std::make_unique<LLVMState>();
  LLVMState &s = *llvmState;
  {
    StageTimer timer(times.translate, peaks.translate);
    llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
        codegen::createTargetMachine(f.target, f.optLevel);
    if (!machine)
      return machine.takeError();
    s.machine = std::move(*machine);
    llvm::Triple triple(f.target.triple);

    // Not the input's file name: it would reach the object's symbol table,
    // and the library must depend only on what the key names.
    s.module = translateModuleToLLVMIR(*module, s.context, "qshape-module");
    if (!s.module)
      return llvm::createStringError(inputName +
                                     ": translation to LLVM IR failed (see the diagnostics above)");
    // The MLIR side is dead from here on: its memory goes to LLVM's stages
    // (docs/native.md, "Memory").
    module = nullptr;
    passManager.reset();
    if (options.releaseContext)
      std::exchange(options.releaseContext, nullptr)();
    s.module->setDataLayout(s.machine->createDataLayout());
    s.module->setTargetTriple(triple);

    // The info document, NUL-terminated, in its own section; llvm.used
    // keeps it through optimisation although nothing refers to it.
    llvm::Constant *text =
        llvm::ConstantDataArray::getString(s.context, info.toJSON(), /*AddNull=*/true);
    auto *global =
        new llvm::GlobalVariable(*s.module, text->getType(), /*isConstant=*/true,
                                 llvm::GlobalValue::PrivateLinkage, text, "qshape.library_info");
    global->setSection(native::kLibraryInfoSection);
    global->setAlignment(llvm::Align(1));
    llvm::appendToUsed(*s.module, {global});
    // The lifted parameters in a section of their own (with a section the
    // table is never .bss, so its bytes are in the file to be written).
    if (llvm::GlobalVariable *params = s.module->getGlobalVariable(qshape::kParameterTableSymbol)) {
      params->setSection(qshape::kParameterTableSection);
      llvm::appendToUsed(*s.module, {params});
    }
  }

  {
    StageTimer timer(times.llvmOpt, peaks.llvmOpt);
    codegen::optimizeModule(*s.module, *s.machine, f.optLevel);
  }
  for (const llvm::Function &fn : *s.module)
    if (!fn.isDeclaration())
      ++stats.llvmFunctions;
  stats.llvmInstructions = s.module->getInstructionCount();
  return llvm::Error::success();
}

llvm::Error Compilation::emitObject(llvm::SmallVectorImpl<char> &object) {
  StageTimer timer(times.codegen, peaks.codegen);
  LLVMState &s = *llvmState;
  if (llvm::Error err = codegen::emitObjectCode(*s.module, *s.machine, object))
    return err;
  stats.objectBytes = object.size();
  return llvm::Error::success();
}

void Compilation::placeLiftedSources(llvm::ArrayRef<LiftedParameters::Source> sources) {
  unsigned mainId = sourceMgr->getMainFileID();
  llvm::StringRef text = sourceMgr->getMemoryBuffer(mainId)->getBuffer();
  for (const LiftedParameters::Source &source : sources) {
    auto at = dyn_cast<FileLineColLoc>(source.loc);
    llvm::SMLoc place;
    if (at && at.getFilename() == inputName)
      place = sourceMgr->FindLocForLineAndColumn(mainId, at.getLine(), at.getColumn());
    if (!place.isValid()) {
      unplaced = true;
      liftedSources.clear();
      return;
    }
    liftedSources.push_back({uint32_t(place.getPointer() - text.data()), uint32_t(source.firstSlot),
                             uint32_t(source.count), source.splat});
  }
}

llvm::Expected<TopologyMap> Compilation::getTopologyMap(const SourceSkeleton &skeleton) const {
  if (unplaced)
    return llvm::createStringError("no topology index entry: a lifted constant has no "
                                   "location in the input's text");
  llvm::StringRef text = sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID())->getBuffer();
  llvm::Expected<TopologyMap> map = mapLiterals(text, skeleton, liftedSources, parameterValues);
  if (!map)
    return map.takeError();
  if (llvm::Error wrong = checkTopologyMap(*map, skeleton, text))
    return std::move(wrong);
  return map;
}

/// The text with the float literal `index` of `skeleton` spelled as a value
/// of its sign that no other literal has (a trailing 1: no two spellings
/// are one number).
static std::string withDistinctLiterals(llvm::StringRef text, const SourceSkeleton &skeleton) {
  std::string out;
  size_t at = 0;
  for (auto [index, literal] : llvm::enumerate(skeleton.literals)) {
    out += text.slice(at, literal.offset);
    out += (text[literal.offset] == '-' ? "-2." : "2.") + std::to_string(index) + "1";
    at = literal.offset + literal.length;
  }
  out += text.substr(at);
  return out;
}

// The scanner reads literals without MLIR. Before its map is trusted, the
// parser checks it: the text with every literal changed to a distinct value
// must give the same lifted module, whose slots hold what the map reads from
// that text. A spelling the scanner and the parser read differently (a hex
// float, a float attribute beside a constant) then refuses the index entry,
// and programs of the topology are parsed.
llvm::Error Compilation::checkTopologyMap(const TopologyMap &map, const SourceSkeleton &skeleton,
                                          llvm::StringRef text) const {
  auto refuse = [](const llvm::Twine &why) {
    return llvm::createStringError("no topology index entry: " + why);
  };
  std::string probe = withDistinctLiterals(text, skeleton);
  SourceSkeleton probeSkeleton = scanSkeleton(probe);
  llvm::Expected<std::vector<double>> expected = map.readValues(probe, probeSkeleton);
  if (!expected || probeSkeleton.digest != skeleton.digest) {
    llvm::consumeError(expected.takeError());
    return refuse("the literals, respelled, change the skeleton");
  }
  ScopedDiagnosticHandler quiet(&context, [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> other = parseSourceString<ModuleOp>(probe, ParserConfig(&context));
  if (!other || failed(qshape::canonicalize(*other, CanonicalizeOptions())))
    return refuse("the text with other literal values does not parse");
  FailureOr<LiftedParameters> lifted = liftParameters(*other, /*abstractValues=*/true);
  FailureOr<Fingerprint> fp = failure();
  if (succeeded(lifted))
    fp = computeFingerprint(*other);
  if (failed(fp) || fp->exactString() != facts->fingerprint)
    return refuse("other literal values give another lifted module");
  bool same = lifted->values.size() == expected->size();
  for (size_t k = 0; same && k < expected->size(); ++k)
    same = llvm::bit_cast<uint64_t>(lifted->values[k]) == llvm::bit_cast<uint64_t>((*expected)[k]);
  if (!same)
    return refuse("the parser reads the literals into other slots than the scanner");
  return llvm::Error::success();
}

llvm::Error Compilation::writeParameters(OutputFile &output) const {
  if (!options.shareTopology)
    return llvm::Error::success();
  return writeParameterTable(output.getTempPath(), parameterValues);
}

llvm::Error Compilation::compile(OutputFile *output) {
  if (!output && (options.emit == EmitKind::Object || options.emit == EmitKind::SharedLibrary))
    return llvm::createStringError("--emit=" + getEmitName(options.emit).str() +
                                   " needs an output file (-o)");
  llvm::Expected<const CompileFacts *> f = getFacts();
  if (!f)
    return f.takeError();
  if (llvm::Error err = runPipeline())
    return err;
  if (options.emit == EmitKind::MLIR)
    return writeText(output, [&](llvm::raw_ostream &os) { module->print(os); });

  if (llvm::Error err = translateAndOptimize())
    return err;
  if (options.emit == EmitKind::LLVMIR)
    return writeText(output, [&](llvm::raw_ostream &os) { llvmState->module->print(os, nullptr); });

  llvm::SmallString<0> object;
  if (llvm::Error err = emitObject(object))
    return err;
  // The object is all that is left to link: LLVM's module and target
  // machine go before the linker's memory comes.
  llvmState.reset();
  if (options.emit == EmitKind::Object) {
    stats.outputBytes = object.size();
    return output->write(object);
  }

  StageTimer timer(times.link, peaks.link);
  llvm::Expected<std::unique_ptr<codegen::TemporaryFile>> objectFile =
      codegen::TemporaryFile::create("qshape-compile", "o", object);
  if (!objectFile)
    return objectFile.takeError();
  llvm::StringRef objectPath = (*objectFile)->path();
  if (llvm::Error err =
          linkSharedLibrary(*linker, objectPath, output->getTempPath(), options.runtimeLib)) {
    // A full disk is said as such, on one line: lld's own message (when it
    // does not crash on it) is one of many.
    llvm::ErrorOr<llvm::sys::fs::space_info> space =
        llvm::sys::fs::disk_space(llvm::sys::path::parent_path(output->getTempPath()));
    if (!space || space->available >= object.size())
      return err;
    llvm::consumeError(std::move(err));
    std::error_code full = std::make_error_code(std::errc::no_space_on_device);
    return llvm::createStringError(full, "cannot write '" + output->getPath().str() +
                                             "': " + full.message());
  }
  // What a loader will read: check it made it through the linker intact.
  llvm::Expected<native::LibraryInfo> back = native::readLibraryInfo(output->getTempPath());
  if (!back)
    return llvm::createStringError("the linked library lost its info: " +
                                   llvm::toString(back.takeError()));
  if (back->toJSON() != info.toJSON())
    return llvm::createStringError("the linked library's info differs from the one compiled in");
  uint64_t size = 0;
  if (!llvm::sys::fs::file_size(output->getTempPath(), size))
    stats.outputBytes = size;
  return llvm::Error::success();
}

} // namespace qshape::compile
