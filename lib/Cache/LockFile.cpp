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
  char buffer[HOST_NAME_MAX + 1] = {};
  if (::gethostname(buffer, sizeof(buffer) - 1) != 0)
    return "unknown-host";
  return buffer;
}

/// A lock is stale if it has not been refreshed for StaleSeconds, or if its
/// holder ran on this host and is gone.
bool isStale(llvm::StringRef path, unsigned staleSeconds) {
  UniqueFD fd = openFile(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  if (!fd.valid())
    return false; // vanished (or unreadable): retry creating it instead
  struct stat st;
  if (::fstat(fd.get(), &st) != 0)
    return false;
  if (nowSeconds() - static_cast<int64_t>(st.st_mtime) > static_cast<int64_t>(staleSeconds))
    return true;
  char buffer[512];
  llvm::ErrorOr<size_t> n = readAt(fd.get(), buffer, sizeof(buffer) - 1, 0);
  if (!n)
    return false;
  // "pid host time\n"; a lock whose content is not written yet is fresh.
  llvm::SmallVector<llvm::StringRef, 3> parts;
  llvm::StringRef(buffer, *n).trim().split(parts, ' ');
  int64_t pid;
  if (parts.size() != 3 || parts[0].getAsInteger(10, pid) || pid <= 0 || parts[1] != hostName())
    return false;
  return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}
} // namespace

LockFile::Attempt LockFile::tryAcquire(llvm::StringRef path, unsigned staleSeconds) {
  Attempt a;
  bool brokeStale = false;
  // Two rounds: create; if a stale lock is in the way, break it and retry.
  for (int round = 0; round < 2; ++round) {
    UniqueFD fd = openFile(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
    if (fd.valid()) {
      std::string content =
          std::to_string(::getpid()) + " " + hostName() + " " + std::to_string(nowSeconds()) + "\n";
      // A failed write leaves an empty lock that ages out; still ours.
      (void)writeAll(fd.get(), content);
      a.result = brokeStale ? Outcome::AcquiredAfterBreakingStale : Outcome::Acquired;
      a.lock.reset(new LockFile(path.str(), fd.release()));
      return a;
    }
    if (errno != EEXIST) {
      a.result = Outcome::Error;
      a.ec = lastError();
      return a;
    }
    if (round == 1)
      break;
    // Break a stale lock under the guard, judging staleness again there:
    // another breaker may already have replaced it with a fresh one.
    UniqueFD guard = openFile((path + ".guard").str(), O_RDWR | O_CREAT, 0600);
    if (!guard.valid()) {
      a.result = Outcome::Error;
      a.ec = lastError();
      return a;
    }
    if (::flock(guard.get(), LOCK_EX | LOCK_NB) != 0)
      break; // someone else is breaking it right now
    if (!isStale(path, staleSeconds))
      break;
    if (::unlink(path.str().c_str()) != 0 && errno != ENOENT) {
      a.result = Outcome::Error;
      a.ec = lastError();
      return a;
    }
    brokeStale = true;
  }
  a.result = Outcome::Busy;
  return a;
}

void LockFile::refresh() { (void)::futimens(fd, nullptr); }

LockFile::~LockFile() {
  // Remove the file only if it is still the one we created: after we were
  // judged stale, another cleaner may own a new lock under the same name.
  struct stat ours, current;
  if (::fstat(fd, &ours) == 0 && ::stat(path.c_str(), &current) == 0 &&
      ours.st_dev == current.st_dev && ours.st_ino == current.st_ino)
    ::unlink(path.c_str());
  ::close(fd);
}
