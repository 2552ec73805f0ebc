//===- LockFile.cpp - The cleaner lock ------------------------------------===//

#include "qshape/Cache/LockFile.h"

#include "qshape/Cache/FileUtil.h"

#include "llvm/ADT/StringExtras.h"

#include <cerrno>
#include <climits>
#include <csignal>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace qshape::cache;
using namespace qshape::cache::fileutil;

namespace {
std::string hostName() {
  char Buffer[HOST_NAME_MAX + 1] = {};
  if (::gethostname(Buffer, sizeof(Buffer) - 1) != 0)
    return "unknown-host";
  return Buffer;
}

/// A lock is stale if it has not been refreshed for StaleSeconds, or if its
/// holder ran on this host and is gone.
bool isStale(llvm::StringRef Path, unsigned StaleSeconds) {
  UniqueFD FD = openFile(Path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  if (!FD.valid())
    return false; // vanished (or unreadable): retry creating it instead
  struct stat St;
  if (::fstat(FD.get(), &St) != 0)
    return false;
  if (nowSeconds() - int64_t(St.st_mtime) > int64_t(StaleSeconds))
    return true;
  char Buffer[512];
  llvm::ErrorOr<size_t> N = readAt(FD.get(), Buffer, sizeof(Buffer) - 1, 0);
  if (!N)
    return false;
  // "pid host time\n"; a lock whose content is not written yet is fresh.
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  llvm::StringRef(Buffer, *N).trim().split(Parts, ' ');
  int64_t Pid;
  if (Parts.size() != 3 || Parts[0].getAsInteger(10, Pid) || Pid <= 0 || Parts[1] != hostName())
    return false;
  return ::kill(pid_t(Pid), 0) != 0 && errno == ESRCH;
}
} // namespace

LockFile::Attempt LockFile::tryAcquire(llvm::StringRef Path, unsigned StaleSeconds) {
  Attempt A;
  bool BrokeStale = false;
  // Two rounds: create; if a stale lock is in the way, break it and retry.
  for (int Round = 0; Round < 2; ++Round) {
    UniqueFD FD = openFile(Path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
    if (FD.valid()) {
      std::string Content =
          std::to_string(::getpid()) + " " + hostName() + " " + std::to_string(nowSeconds()) + "\n";
      // A failed write leaves an empty lock that ages out; still ours.
      (void)writeAll(FD.get(), Content);
      A.Result = BrokeStale ? Outcome::AcquiredAfterBreakingStale : Outcome::Acquired;
      A.Lock.reset(new LockFile(Path.str(), FD.release()));
      return A;
    }
    if (errno != EEXIST) {
      A.Result = Outcome::Error;
      A.EC = lastError();
      return A;
    }
    if (Round == 1)
      break;
    // Break a stale lock under the guard, judging staleness again there:
    // another breaker may already have replaced it with a fresh one.
    UniqueFD Guard = openFile((Path + ".guard").str(), O_RDWR | O_CREAT, 0600);
    if (!Guard.valid()) {
      A.Result = Outcome::Error;
      A.EC = lastError();
      return A;
    }
    if (::flock(Guard.get(), LOCK_EX | LOCK_NB) != 0)
      break; // someone else is breaking it right now
    if (!isStale(Path, StaleSeconds))
      break;
    if (::unlink(Path.str().c_str()) != 0 && errno != ENOENT) {
      A.Result = Outcome::Error;
      A.EC = lastError();
      return A;
    }
    BrokeStale = true;
  }
  A.Result = Outcome::Busy;
  return A;
}

void LockFile::refresh() { (void)::futimens(FD, nullptr); }

LockFile::~LockFile() {
  // Remove the file only if it is still the one we created: after we were
  // judged stale, another cleaner may own a new lock under the same name.
  struct stat Ours, Current;
  if (::fstat(FD, &Ours) == 0 && ::stat(Path.c_str(), &Current) == 0 &&
      Ours.st_dev == Current.st_dev && Ours.st_ino == Current.st_ino)
    ::unlink(Path.c_str());
  ::close(FD);
}
