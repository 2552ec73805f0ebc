//===- Link.cpp - the link step: arguments, a child linker, its leftovers -===//
//
// Both of qshape's compilers link through here, with the same arguments; an
// in-process lld is the caller's (lib/Compile/Link.cpp), so that no library
// but qshape-compile's carries it.
//
//===----------------------------------------------------------------------===//

#include "qshape/Codegen/Codegen.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace llvm;
using qshape::compile::Linker;

namespace qshape::codegen {

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
                        StringRef runtimeLib, InProcessLink inProcess) {
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
  if (linker.inProcess && !inProcess)
    return createStringError("lld in process is not available here: name an ld.lld (--linker "
                             "or $QSHAPE_LINKER)");
  Error linked = linker.inProcess ? inProcess(args) : linkByChild(linker, args);
  if (linked)
    removeLinkerTemporaries(output);
  return linked;
}

} // namespace qshape::codegen
