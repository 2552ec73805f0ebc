//===- LockFile.h - The cleaner lock -----------------------------*- C++
//-*-===//
//
// One cleaner at a time: the lock is a file created with O_CREAT|O_EXCL that
// records "pid host time". A lock whose holder is dead (same host, kill(pid, 0)
// fails with ESRCH) or that has not been refreshed for StaleSeconds is broken.
// Breaking is serialized by flock on "<lock>.guard", and the staleness is
// checked again under it, so two processes can never both break a lock and
// then both believe they hold it.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_CACHE_LOCKFILE_H
#define QSHAPE_CACHE_LOCKFILE_H

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <system_error>

namespace qshape::cache {

class LockFile {
public:
  enum class Outcome {
    Acquired,
    AcquiredAfterBreakingStale,
    Busy, ///< a live holder has it
    Error,
  };

  struct Attempt {
    Outcome result = Outcome::Error;
    std::unique_ptr<LockFile> lock; ///< set when acquired
    std::error_code ec;             ///< set on Error
    bool acquired() const { return lock != nullptr; }
  };

  /// Never blocks.
  static Attempt tryAcquire(llvm::StringRef path, unsigned staleSeconds);

  /// Keeps a long cleanup from being judged stale.
  void refresh();

  /// Removes the lock file if it is still ours.
  ~LockFile();

  LockFile(const LockFile &) = delete;
  LockFile &operator=(const LockFile &) = delete;

private:
  LockFile(std::string path, int fd) : path(std::move(path)), fd(fd) {}
  std::string path;
  int fd;
};

} // namespace qshape::cache

#endif // QSHAPE_CACHE_LOCKFILE_H
