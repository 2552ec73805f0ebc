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

UniqueFD &UniqueFD::operator=(UniqueFD &&other) noexcept {
  if (this != &other) {
    reset();
    fd = other.release();
  }
  return *this;
}

int UniqueFD::release() {
  int result = fd;
  fd = -1;
  return result;
}

void UniqueFD::reset() {
  if (fd >= 0)
    ::close(fd);
  fd = -1;
}

std::error_code UniqueFD::close() {
  if (fd < 0)
    return {};
  int result = ::close(release());
  // After EINTR the descriptor is already released on Linux: do not retry.
  if (result != 0 && errno != EINTR)
    return lastError();
  return {};
}

std::error_code fileutil::lastError() { return {errno, std::generic_category()}; }

UniqueFD fileutil::openFile(llvm::StringRef path, int flags, mode_t mode) {
  std::string p = path.str();
  int fd;
  do {
    fd = ::open(p.c_str(), flags | O_CLOEXEC, mode);
  } while (fd < 0 && errno == EINTR);
  return UniqueFD(fd);
}

std::error_code fileutil::writeAll(int fd, llvm::StringRef data) {
  const char *p = data.data();
  size_t left = data.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return lastError();
    }
    if (n == 0) // should not happen for regular files; avoid spinning
      return std::make_error_code(std::errc::io_error);
    p += n;
    left -= static_cast<size_t>(n);
  }
  return {};
}

llvm::ErrorOr<size_t> fileutil::readAt(int fd, char *buffer, size_t size, uint64_t offset) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::pread(fd, buffer + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return lastError();
    }
    if (n == 0)
      break;
    done += static_cast<size_t>(n);
  }
  return done;
}

std::error_code fileutil::createDirectories(llvm::StringRef path, mode_t mode) {
  if (path.empty())
    return std::make_error_code(std::errc::invalid_argument);
  std::string p = path.str();
  struct stat st;
  if (::stat(p.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      return std::make_error_code(std::errc::not_a_directory);
    return {};
  }
  if (errno != ENOENT)
    return lastError();
  llvm::StringRef parent = llvm::sys::path::parent_path(path);
  if (!parent.empty() && parent != path)
    if (std::error_code ec = createDirectories(parent, mode))
      return ec;
  if (::mkdir(p.c_str(), mode) != 0 && errno != EEXIST)
    return lastError();
  return {};
}

int64_t fileutil::nowSeconds() { return static_cast<int64_t>(::time(nullptr)); }

std::string fileutil::describe(std::error_code ec) { return ec.message(); }
