//===- FileUtil.cpp - POSIX helpers of the cache library ------------------===//

#include "qshape/Cache/FileUtil.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace qshape::cache;
using namespace qshape::cache::fileutil;

UniqueFD &UniqueFD::operator=(UniqueFD &&Other) noexcept {
  if (this != &Other) {
    reset();
    FD = Other.release();
  }
  return *this;
}

int UniqueFD::release() {
  int Result = FD;
  FD = -1;
  return Result;
}

void UniqueFD::reset() {
  if (FD >= 0)
    ::close(FD);
  FD = -1;
}

std::error_code UniqueFD::close() {
  if (FD < 0)
    return {};
  int Result = ::close(release());
  // After EINTR the descriptor is already released on Linux: do not retry.
  if (Result != 0 && errno != EINTR)
    return lastError();
  return {};
}

std::error_code fileutil::lastError() { return std::error_code(errno, std::generic_category()); }

UniqueFD fileutil::openFile(llvm::StringRef Path, int Flags, mode_t Mode) {
  std::string P = Path.str();
  int FD;
  do {
    FD = ::open(P.c_str(), Flags | O_CLOEXEC, Mode);
  } while (FD < 0 && errno == EINTR);
  return UniqueFD(FD);
}

std::error_code fileutil::writeAll(int FD, llvm::StringRef Data) {
  const char *P = Data.data();
  size_t Left = Data.size();
  while (Left > 0) {
    ssize_t N = ::write(FD, P, Left);
    if (N < 0) {
      if (errno == EINTR)
        continue;
      return lastError();
    }
    if (N == 0) // should not happen for regular files; avoid spinning
      return std::make_error_code(std::errc::io_error);
    P += N;
    Left -= size_t(N);
  }
  return {};
}

llvm::ErrorOr<size_t> fileutil::readAt(int FD, char *Buffer, size_t Size, uint64_t Offset) {
  size_t Done = 0;
  while (Done < Size) {
    ssize_t N = ::pread(FD, Buffer + Done, Size - Done, off_t(Offset + Done));
    if (N < 0) {
      if (errno == EINTR)
        continue;
      return lastError();
    }
    if (N == 0)
      break;
    Done += size_t(N);
  }
  return Done;
}

std::error_code fileutil::createDirectories(llvm::StringRef Path, mode_t Mode) {
  if (Path.empty())
    return std::make_error_code(std::errc::invalid_argument);
  std::string P = Path.str();
  struct stat St;
  if (::stat(P.c_str(), &St) == 0) {
    if (!S_ISDIR(St.st_mode))
      return std::make_error_code(std::errc::not_a_directory);
    return {};
  }
  if (errno != ENOENT)
    return lastError();
  llvm::StringRef Parent = llvm::sys::path::parent_path(Path);
  if (!Parent.empty() && Parent != Path)
    if (std::error_code EC = createDirectories(Parent, Mode))
      return EC;
  if (::mkdir(P.c_str(), Mode) != 0 && errno != EEXIST)
    return lastError();
  return {};
}

int64_t fileutil::nowSeconds() { return int64_t(::time(nullptr)); }

std::string fileutil::describe(std::error_code EC) { return EC.message(); }
