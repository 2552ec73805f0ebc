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
  explicit UniqueFD(int FD) : FD(FD) {}
  UniqueFD(UniqueFD &&Other) noexcept : FD(Other.release()) {}
  UniqueFD &operator=(UniqueFD &&Other) noexcept;
  UniqueFD(const UniqueFD &) = delete;
  UniqueFD &operator=(const UniqueFD &) = delete;
  ~UniqueFD() { reset(); }

  int get() const { return FD; }
  bool valid() const { return FD >= 0; }
  int release();
  void reset();
  /// Closes now and reports a close() error (which can carry a delayed
  /// write error on some file systems).
  std::error_code close();

private:
  int FD = -1;
};

/// The current errno as an error_code.
std::error_code lastError();

/// open(2) retried on EINTR; returns an invalid UniqueFD and sets errno on
/// failure.
UniqueFD openFile(llvm::StringRef Path, int Flags, mode_t Mode = 0600);

std::error_code writeAll(int FD, llvm::StringRef Data);

/// Reads up to \p Size bytes at \p Offset; fewer only at end of file.
llvm::ErrorOr<size_t> readAt(int FD, char *Buffer, size_t Size, uint64_t Offset);

/// mkdir -p; components that are created get \p Mode.
std::error_code createDirectories(llvm::StringRef Path, mode_t Mode);

/// Seconds since the epoch.
int64_t nowSeconds();

/// strerror text of \p EC, for messages.
std::string describe(std::error_code EC);

} // namespace qshape::cache::fileutil

#endif // QSHAPE_CACHE_FILEUTIL_H
