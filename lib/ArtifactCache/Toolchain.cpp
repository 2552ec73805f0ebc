//===- Toolchain.cpp - target machine and linker of qshape-compile --------===//

#include "qshape/ArtifactCache/Toolchain.h"

#include "qshape/Cache/FileUtil.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

// Found by CMake (lib/Compile/CMakeLists.txt).
#ifndef QSHAPE_LLD
#define QSHAPE_LLD ""
#endif
#ifndef QSHAPE_LLD_VERSION
#define QSHAPE_LLD_VERSION ""
#endif
/// "LLD 22.1.8" when lld's library is linked into qshape-compile-full.
#ifndef QSHAPE_LLD_LIBRARY_VERSION
#define QSHAPE_LLD_LIBRARY_VERSION ""
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

/// The kernel's id of this boot (random at every boot), or "" without /proc.
static std::string bootId() {
  cache::fileutil::UniqueFD fd =
      cache::fileutil::openFile("/proc/sys/kernel/random/boot_id", O_RDONLY);
  char buffer[64];
  llvm::ErrorOr<size_t> n =
      fd.valid() ? cache::fileutil::readAt(fd.get(), buffer, sizeof buffer, 0) : 0;
  return n ? StringRef(buffer, *n).trim().str() : std::string();
}

static constexpr StringLiteral kRecordName = "host-target";
static constexpr StringLiteral kRecordMagic = "qshape-host-target 1";

/// The record's text up to its check line, which holds the BLAKE3 of it.
static std::string recordBody(StringRef boot, const TargetInfo &t) {
  return (kRecordMagic + "\nboot " + boot + "\ntriple " + t.triple + "\ncpu " + t.cpu +
          "\nfeatures " + t.features + "\n")
      .str();
}

static std::string checkLine(StringRef body) {
  return "check " + toHex(BLAKE3::hash(arrayRefFromStringRef(body)), /*LowerCase=*/true) + "\n";
}

std::optional<TargetInfo> TargetInfo::recorded(StringRef directory) {
  std::string boot = bootId();
  if (boot.empty() || directory.empty())
    return std::nullopt;
  SmallString<256> path(directory);
  sys::path::append(path, kRecordName);
  cache::fileutil::UniqueFD fd = cache::fileutil::openFile(path, O_RDONLY | O_NOFOLLOW);
  // Written by this user (or root): not planted by another.
  struct stat st;
  if (!fd.valid() || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) ||
      st.st_uid != ::geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)))
    return std::nullopt;
  char buffer[8192];
  llvm::ErrorOr<size_t> n = cache::fileutil::readAt(fd.get(), buffer, sizeof buffer, 0);
  if (!n || *n == sizeof buffer)
    return std::nullopt;
  StringRef text(buffer, *n);
  size_t check = text.rfind("check ");
  if (check == StringRef::npos || text.substr(check) != checkLine(text.take_front(check)))
    return std::nullopt;
  TargetInfo t;
  SmallVector<StringRef, 6> lines;
  text.take_front(check).split(lines, '\n', -1, /*KeepEmpty=*/false);
  if (lines.size() != 5 || lines[0] != kRecordMagic || !lines[1].consume_front("boot ") ||
      lines[1] != boot || !lines[2].consume_front("triple ") || !lines[3].consume_front("cpu ") ||
      !lines[4].consume_front("features "))
    return std::nullopt;
  t.triple = lines[2].str();
  t.cpu = lines[3].str();
  t.features = lines[4].str();
  if (t.triple.empty() || t.cpu.empty())
    return std::nullopt;
  return t;
}

void TargetInfo::record(StringRef directory, const TargetInfo &target) {
  std::string boot = bootId();
  if (boot.empty() || directory.empty() || recorded(directory) == target)
    return;
  std::string body = recordBody(boot, target);
  body += checkLine(body);
  SmallString<256> path(directory), temp(directory);
  sys::path::append(path, kRecordName);
  sys::path::append(temp, "." + kRecordName + ".tmp-" + Twine(::getpid()));
  cache::fileutil::UniqueFD fd =
      cache::fileutil::openFile(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
  if (!fd.valid())
    return;
  if (cache::fileutil::writeAll(fd.get(), body) || fd.close() ||
      ::rename(temp.c_str(), path.c_str()) != 0)
    ::unlink(temp.c_str());
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

bool hasInProcessLinker() { return !StringRef(QSHAPE_LLD_LIBRARY_VERSION).empty(); }

/// The C libraries qshape was configured with, stamped into the identity.
static Error addLibraries(Linker &linker) {
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
  return Error::success();
}

Expected<Linker> findLinker(StringRef requested, bool allowInProcess) {
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
  } else if (allowInProcess && hasInProcessLinker()) {
    wanted = kInProcessLinkerName.str();
    linker.origin = "in process";
  } else {
    wanted = QSHAPE_LLD;
    linker.origin = "configured";
    if (wanted.empty())
      return createStringError(
          "no ld.lld was found when qshape was configured: install lld-22 (`make deps`) and "
          "configure again, or name a linker with --linker or $QSHAPE_LINKER");
  }

  if (wanted == kInProcessLinkerName) {
    if (!allowInProcess)
      return createStringError("the linker '" + kInProcessLinkerName + "' (" + linker.origin +
                               ") runs in qshape-compile only: name an ld.lld here");
    if (!hasInProcessLinker())
      return createStringError("the linker '" + kInProcessLinkerName + "' (" + linker.origin +
                               "): qshape was built without lld's library; install "
                               "liblld-22-dev (`make deps`) and configure again, or name an "
                               "ld.lld with --linker");
    linker.inProcess = true;
    // Its code is in qshape-compile-full, whose build id the key holds as
    // well; the version says which lld it is.
    linker.identity = std::string(QSHAPE_LLD_LIBRARY_VERSION) + ", in process";
    if (Error err = addLibraries(linker))
      return std::move(err);
    return linker;
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
                               ") was not found in PATH; " + install + " (a full path)");
    linker.path = *found;
  }

  Expected<std::string> stamp = fileStamp(linker.path);
  if (!stamp)
    return stamp.takeError();
  // The configured linker's version text was read by CMake; another
  // linker's stamp alone identifies it (asking it would start a process on
  // every cache hit).
  linker.identity =
      (linker.path == QSHAPE_LLD ? std::string(QSHAPE_LLD_VERSION) + "; " : "") + *stamp;
  if (Error err = addLibraries(linker))
    return std::move(err);
  return linker;
}

} // namespace qshape::compile
