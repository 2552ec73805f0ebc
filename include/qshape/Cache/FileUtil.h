//===- FileUtil.h - POSIX helpers of the cache library ----------*- C++ -*-===//
//
// Small wrappers that retry on EINTR, handle short reads and writes and turn
// errno into std::error_code. Used by the cache library and its tests.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_CACHE_FILEUTIL_H
#define QSHAPE_CACHE_FILEUTIL_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorOr.h"

#include <cstdint>
#include <string>
#include <sys/types.h>
#include <system_error>

namespace qshape::cache::fileutil {

/// Closes its descriptor on destruction.
class UniqueFD {
public:
  UniqueFD() = default;
  explicit UniqueFD(int fd) : fd(fd) {}
  UniqueFD(UniqueFD &&other) noexcept : fd(other.release()) {}
  UniqueFD &operator=(UniqueFD &&other) noexcept;
  UniqueFD(const UniqueFD &) = delete;
  UniqueFD &operator=(const UniqueFD &) = delete;
  ~UniqueFD() { reset(); }

  int get() const { return fd; }
  bool valid() const { return fd >= 0; }
  int release();
  void reset();
  /// Closes now and reports a close() error (which can carry a delayed
  /// write error on some file systems).
  std::error_code close();

private:
  int fd = -1;
};

/// The current errno as an error_code.
std::error_code lastError();

/// open(2) retried on EINTR; returns an invalid UniqueFD and sets errno on
/// failure.
UniqueFD openFile(llvm::StringRef path, int flags, mode_t mode = 0600);

std::error_code writeAll(int fd, llvm::StringRef data);

/// Reads up to \p size bytes at \p offset; fewer only at end of file.
llvm::ErrorOr<size_t> readAt(int fd, char *buffer, size_t size, uint64_t offset);

/// mkdir -p; components that are created get \p mode.
std::error_code createDirectories(llvm::StringRef path, mode_t mode);

/// Seconds since the epoch.
int64_t nowSeconds();

/// strerror text of \p , for messages.
std::string describe(std::error_code ec);

} // namespace qshape::cache::fileutil

#endif // QSHAPE_CACHE_FILEUTIL_H
