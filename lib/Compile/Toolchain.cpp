//===- Toolchain.cpp - target machine and linker of qshape-compile --------===//

#include "qshape/Compile/Toolchain.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <vector>

// Found by CMake (lib/Compile/CMakeLists.txt).
#ifndef QSHAPE_LLD
#define QSHAPE_LLD ""
#endif
#ifndef QSHAPE_LLD_VERSION
#define QSHAPE_LLD_VERSION ""
#endif
/// ':'-separated paths of the shared libraries to link against.
#ifndef QSHAPE_LINK_LIBRARIES
#define QSHAPE_LINK_LIBRARIES ""
#endif

using namespace llvm;

namespace qshape::compile {

const TargetInfo &TargetInfo::host() {
  static const TargetInfo info = [] {
    TargetInfo t;
    t.triple = sys::getProcessTriple();
    t.cpu = sys::getHostCPUName().str();
    std::vector<std::string> features;
    for (const StringMapEntry<bool> &f : sys::getHostCPUFeatures())
      features.push_back((f.getValue() ? "+" : "-") + f.getKey().str());
    std::sort(features.begin(), features.end());
    t.features = join(features, ",");
    return t;
  }();
  return info;
}

/// "<real path> <size> bytes, mtime <seconds>", from stat() alone.
static Expected<std::string> fileStamp(StringRef path) {
  SmallString<256> real;
  if (std::error_code ec = sys::fs::real_path(path, real))
    return createStringError(ec, "cannot resolve '" + path.str() + "': " + ec.message());
  sys::fs::file_status status;
  if (std::error_code ec = sys::fs::status(real, status))
    return createStringError(ec, "cannot stat '" + real.str().str() + "': " + ec.message());
  return (real.str() + " " + Twine(status.getSize()) + " bytes, mtime " +
          Twine(sys::toTimeT(status.getLastModificationTime())))
      .str();
}

Expected<Linker> findLinker(StringRef requested) {
  static constexpr const char *install =
      "install lld-22 (`make deps`) or name another ld.lld with --linker or $QSHAPE_LINKER";
  Linker linker;
  std::string wanted;
  if (!requested.empty()) {
    wanted = requested.str();
    linker.origin = "--linker";
  } else if (std::optional<std::string> env = sys::Process::GetEnv("QSHAPE_LINKER");
             env && !env->empty()) {
    wanted = *env;
    linker.origin = "QSHAPE_LINKER";
  } else {
    wanted = QSHAPE_LLD;
    linker.origin = "configured";
    if (wanted.empty())
      return createStringError(
          "no ld.lld was found when qshape was configured: install lld-22 (`make deps`) and "
          "configure again, or name a linker with --linker or $QSHAPE_LINKER");
  }
  if (StringRef(wanted).contains('/')) {
    if (!sys::fs::can_execute(wanted))
      return createStringError("the linker '" + wanted + "' (" + linker.origin +
                               ") does not exist or is not executable; " + install);
    linker.path = wanted;
  } else {
    ErrorOr<std::string> found = sys::findProgramByName(wanted);
    if (!found)
      return createStringError("the linker '" + wanted + "' (" + linker.origin +
                               ") was not found in PATH; " + install +
                               " (a full path)");
    linker.path = *found;
  }

  Expected<std::string> stamp = fileStamp(linker.path);
  if (!stamp)
    return stamp.takeError();
  // The configured linker's version text was read by CMake; another
  // linker's stamp alone identifies it (asking it would start a process on
  // every cache hit).
  linker.identity = (linker.path == QSHAPE_LLD ? std::string(QSHAPE_LLD_VERSION) + "; " : "") +
                    *stamp;
  SmallVector<StringRef> libraries;
  StringRef(QSHAPE_LINK_LIBRARIES).split(libraries, ':', -1, /*KeepEmpty=*/false);
  for (StringRef library : libraries) {
    Expected<std::string> libStamp = fileStamp(library);
    if (!libStamp)
      return createStringError(toString(libStamp.takeError()) +
                               " (a C library qshape was configured with): configure again");
    linker.libraries.push_back(library.str());
    linker.identity += "; " + *libStamp;
  }
  return linker;
}

Error linkSharedLibrary(const Linker &linker, StringRef object, StringRef output) {
  SmallString<128> errFile;
  if (std::error_code ec = sys::fs::createTemporaryFile("qshape-link", "txt", errFile))
    return createStringError(ec, "cannot create a temporary file: " + ec.message());
  FileRemover removeErr(errFile);
  // A shared library of the object alone, needing libm and libc only for
  // what the code calls (--as-needed); the runtime's symbols stay
  // undefined: the host that loads the library provides them (qshape-run
  // loads libqshape-runtime.so first).
  SmallVector<StringRef> args = {linker.path, "-shared", "--build-id", "--hash-style=gnu",
                                 "--eh-frame-hdr", "-o", output, object, "--as-needed"};
  for (const std::string &library : linker.libraries)
    args.push_back(library);
  std::string message;
  bool failedToStart = false;
  std::optional<StringRef> redirects[] = {std::nullopt, errFile.str(), errFile.str()};
  int rc = sys::ExecuteAndWait(linker.path, args, /*Env=*/std::nullopt, redirects,
                               /*SecondsToWait=*/0, /*MemoryLimit=*/0, &message,
                               &failedToStart);
  if (rc == 0)
    return Error::success();
  if (failedToStart)
    return createStringError("cannot run the linker '" + linker.path + "': " + message);
  std::string linkerOutput;
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> text = MemoryBuffer::getFile(errFile))
    linkerOutput = (*text)->getBuffer().trim().str();
  return createStringError("linking failed (exit code " + std::to_string(rc) +
                           "): " + join(args, " ") +
                           (linkerOutput.empty() ? "" : "\n" + linkerOutput));
}

} // namespace qshape::compile
