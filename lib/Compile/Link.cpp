//===- Link.cpp - qshape-compile's link step: lld in process or a child ---===//
//
// qshape-compile links with lld's ELF driver in its own process (the default
// when qshape is built with liblld-22-dev), or with an external ld.lld
// started as a child (--linker, $QSHAPE_LINKER, a build without lld's
// library). The arguments and the child are lib/Codegen's; only the
// in-process lld is here. It lives in QShapeCompile, not next to findLinker
// in QShapeArtifactCache: the front end finds the linker for its key but
// must not carry lld.
//
//===----------------------------------------------------------------------===//

#include "qshape/ArtifactCache/Toolchain.h"
#include "qshape/Codegen/Codegen.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CrashRecoveryContext.h"
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

Error linkSharedLibrary(const Linker &linker, StringRef object, StringRef output,
                        StringRef runtimeLib) {
  return codegen::linkSharedLibrary(linker, object, output, runtimeLib, linkInProcess);
}

} // namespace qshape::compile
