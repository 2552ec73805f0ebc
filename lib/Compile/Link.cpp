//===- Link.cpp - qshape-compile's link step: lld in process or a child ---===//
//
// The one place that links: lld's ELF driver in this process (the default
// when qshape is built with liblld-22-dev), or an external ld.lld started
// as a child (--linker, $QSHAPE_LINKER, a build without lld's library). Both
// get the same arguments. It lives in QShapeCompile, not next to findLinker
// in QShapeArtifactCache: the front end finds the linker for its key but
// must not carry lld.
//
//===----------------------------------------------------------------------===//

#include "qshape/ArtifactCache/Toolchain.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>

#ifdef QSHAPE_HAVE_LLD_LIBRARY
#include "lld/Common/Driver.h"
LLD_HAS_DRIVER(elf)
#endif

using namespace llvm;

namespace qshape::compile {

/// Set once lld crashed under crash recovery: its state was left mid-way,
/// and the process must not run static destructors over it.
static std::atomic<bool> lldCrashed{false};

bool linkerCrashedInProcess() { return lldCrashed; }

/// lld in this process. Its diagnostics are collected and returned with a
/// failure, as a child's would be.
static Error linkInProcess(ArrayRef<StringRef> args) {
#ifdef QSHAPE_HAVE_LLD_LIBRARY
  std::vector<std::string> storage(args.begin(), args.end());
  // lld picks its flavour by argv[0]'s name.
  storage.front() = "ld.lld";
  std::vector<const char *> argv;
  for (const std::string &arg : storage)
    argv.push_back(arg.c_str());
  std::string out, err;
  raw_string_ostream outStream(out), errStream(err);
  // exitEarly=false inside: lld returns (its fatal errors unwind through a
  // crash recovery context) and frees its state before returning. With
  // recovery enabled a crash returns too: lld writes its output through an
  // mmap (--no-mmap-output-file does not stop it), and on a full disk that
  // is a SIGBUS, which must end in an error, not kill the compiler.
  CrashRecoveryContext::Enable();
  lld::Result result = lld::lldMain(argv, outStream, errStream, {{lld::Gnu, &lld::elf::link}});
  if (result.retCode == 0)
    return Error::success();
  if (!result.canRunAgain) {
    lldCrashed = true;
    err += "\nld.lld: crashed";
  }
  return createStringError(
      "linking failed (lld in process, exit code " + std::to_string(result.retCode) +
      "): " + join(storage, " ") +
      (StringRef(err).trim().empty() ? "" : "\n" + StringRef(err).trim().str()));
#else
  (void)args;
  return createStringError("qshape-compile was built without lld's library: name a linker "
                           "with --linker");
#endif
}

/// An external linker, as a child process; its output goes to a temporary
/// file, shown only when it fails.
static Error linkByChild(const Linker &linker, ArrayRef<StringRef> args) {
  SmallString<128> errFile;
  if (std::error_code ec = sys::fs::createTemporaryFile("qshape-link", "txt", errFile))
    return createStringError(ec, "cannot create a temporary file: " + ec.message());
  FileRemover removeErr(errFile);
  std::string message;
  bool failedToStart = false;
  std::optional<StringRef> redirects[] = {std::nullopt, errFile.str(), errFile.str()};
  int rc = sys::ExecuteAndWait(linker.path, args, /*Env=*/std::nullopt, redirects,
                               /*SecondsToWait=*/0, /*MemoryLimit=*/0, &message, &failedToStart);
  if (rc == 0)
    return Error::success();
  if (failedToStart)
    return createStringError("cannot run the linker '" + linker.path + "': " + message);
  std::string linkerOutput;
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> text = MemoryBuffer::getFile(errFile))
    linkerOutput = (*text)->getBuffer().trim().str();
  return createStringError("linking failed (exit code " + std::to_string(rc) + "): " +
                           join(args, " ") + (linkerOutput.empty() ? "" : "\n" + linkerOutput));
}

static void removeLinkerTemporaries(StringRef output) {
  // lld writes `<output>.tmp<random>` and renames it over the output; a
  // crash leaves it (a signal's handlers do not run under crash recovery,
  // and a child's are its own).
  SmallString<256> dir(sys::path::parent_path(output));
  if (dir.empty())
    dir = ".";
  std::string prefix = (sys::path::filename(output) + ".tmp").str();
  std::error_code ec;
  for (sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec))
    if (sys::path::filename(it->path()).starts_with(prefix))
      (void)sys::fs::remove(it->path()); // best effort
}

Error linkSharedLibrary(const Linker &linker, StringRef object, StringRef output,
                        StringRef runtimeLib) {
  // A shared library of the object alone, needing libm and libc only for
  // what the code calls (--as-needed); without `runtimeLib` the runtime's
  // symbols stay undefined: the host that loads the library provides them
  // (qshape-run loads libqshape-runtime.so first). With it, the library
  // needs that runtime and finds it by an rpath, so a bare dlopen works and
  // dlsym through its handle finds the runtime's _mlir_memory_transfer.
  SmallVector<StringRef> args = {linker.inProcess ? StringRef("ld.lld") : StringRef(linker.path),
                                 "-shared",
                                 "--build-id",
                                 "--hash-style=gnu",
                                 "--eh-frame-hdr",
                                 "-o",
                                 output,
                                 object,
                                 "--as-needed"};
  for (const std::string &library : linker.libraries)
    args.push_back(library);
  std::string rpath;
  if (!runtimeLib.empty()) {
    rpath = ("-rpath=" + sys::path::parent_path(runtimeLib)).str();
    args.append({"--no-as-needed", runtimeLib, rpath});
  }
  Error linked = linker.inProcess ? linkInProcess(args) : linkByChild(linker, args);
  if (linked)
    removeLinkerTemporaries(output);
  return linked;
}

} // namespace qshape::compile
