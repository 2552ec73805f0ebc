//===- OutputFile.cpp - outputs that appear complete or not at all --------===//

#include "qshape/Compile/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;

namespace qshape::compile {

static Error cannotWrite(StringRef path, std::error_code ec) {
  return createStringError(ec, "cannot write '" + path.str() + "': " + ec.message());
}

Expected<OutputFile> OutputFile::create(StringRef path, bool executable) {
  if (sys::fs::is_directory(path))
    return createStringError("cannot write '" + path.str() + "': it is a directory");
  // The mode is filtered by the umask as for any new file.
  mode_t mode = executable ? 0777 : 0666;
  // One random number names the temporary (createUniqueFile asks the kernel
  // for one per character: six system calls of a hit's hundred).
  std::error_code ec;
  for (int attempt = 0; attempt < 64; ++attempt) {
    SmallString<256> temp(sys::path::parent_path(path));
    sys::path::append(temp, "." + sys::path::filename(path) + ".tmp-" +
                                Twine::utohexstr(sys::Process::GetRandomNumber()));
    int fd = ::open(temp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd >= 0) {
      ::close(fd);
      return OutputFile(path.str(), temp.str().str());
    }
    ec = std::error_code(errno, std::generic_category());
    if (errno != EEXIST)
      break;
  }
  return cannotWrite(path, ec);
}

OutputFile::OutputFile(OutputFile &&other) noexcept
    : path(std::move(other.path)), tempPath(std::move(other.tempPath)),
      committed(other.committed), reused(other.reused) {
  other.committed = true;
}

OutputFile::~OutputFile() {
  if (!committed)
    sys::fs::remove(tempPath);
}

bool OutputFile::reuseIfSame(StringRef bytes) {
  struct stat out, temp;
  if (::lstat(path.c_str(), &out) != 0 || !S_ISREG(out.st_mode) || out.st_nlink != 1 ||
      out.st_uid != ::geteuid() || uint64_t(out.st_size) != bytes.size() ||
      ::stat(tempPath.c_str(), &temp) != 0 || (out.st_mode & 07777) != (temp.st_mode & 07777))
    return false;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0)
    return false;
  std::string existing(bytes.size(), '\0');
  size_t done = 0;
  while (done < existing.size()) {
    ssize_t n = ::pread(fd, existing.data() + done, existing.size() - done, off_t(done));
    if (n <= 0)
      break;
    done += size_t(n);
  }
  ::close(fd);
  reused = done == bytes.size() && StringRef(existing) == bytes;
  return reused;
}

Error OutputFile::write(StringRef bytes) {
  reused = false;
  // Not opened with O_TRUNC, which the temporary, new and empty, rarely
  // needs: on ext4 a truncated file is flushed to disk when it is closed
  // (auto_da_alloc), which on a cache hit cost more than the rest of the
  // write. A temporary written before (a hit that failed late, then the
  // compile) is cut explicitly.
  auto lastError = [] { return std::error_code(errno, std::generic_category()); };
  int fd = ::open(tempPath.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0)
    return cannotWrite(path, lastError());
  struct stat st;
  if (::fstat(fd, &st) != 0 || (st.st_size > 0 && ::ftruncate(fd, 0) != 0)) {
    std::error_code ec = lastError();
    ::close(fd);
    return cannotWrite(path, ec);
  }
#ifdef __linux__
  // Blocks allocated now rather than at writeback: renamed over an existing
  // OUT, a file with delayed allocation is flushed by ext4 first
  // (auto_da_alloc), 1.3 ms of a 1.6 ms hit. Where it is not supported it is
  // only not done.
  (void)::fallocate(fd, 0, 0, off_t(bytes.size()));
#endif
  for (size_t done = 0; done < bytes.size();) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      std::error_code ec = n < 0 ? lastError() : std::make_error_code(std::errc::io_error);
      ::close(fd);
      return cannotWrite(path, ec);
    }
    done += size_t(n);
  }
  if (::close(fd) != 0)
    return cannotWrite(path, lastError());
  return Error::success();
}

Error OutputFile::copyFrom(StringRef source) {
  reused = false;
  if (std::error_code ec = sys::fs::copy_file(source, tempPath))
    return createStringError(ec, "cannot copy '" + source.str() + "' to '" + path + "': " +
                                     ec.message());
  return Error::success();
}

Error OutputFile::commit() {
  if (reused) {
    // The temporary was never written: removing it frees nothing.
    sys::fs::remove(tempPath);
    if (::utimensat(AT_FDCWD, path.c_str(), nullptr, 0) != 0)
      return cannotWrite(path, std::error_code(errno, std::generic_category()));
    committed = true;
    return Error::success();
  }
  if (std::error_code ec = sys::fs::rename(tempPath, path))
    return cannotWrite(path, ec);
  committed = true;
  return Error::success();
}

} // namespace qshape::compile
