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
  SmallString<256> model(sys::path::parent_path(path));
  sys::path::append(model, "." + sys::path::filename(path) + ".tmp-%%%%%%");
  SmallString<256> temp;
  int fd = -1;
  // The mode is filtered by the umask as for any new file.
  unsigned mode = sys::fs::all_read | sys::fs::all_write | (executable ? sys::fs::all_exe : 0);
  if (std::error_code ec = sys::fs::createUniqueFile(model, fd, temp, sys::fs::OF_None, mode))
    return cannotWrite(path, ec);
  sys::Process::SafelyCloseFileDescriptor(fd);
  return OutputFile(path.str(), temp.str().str());
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
  int fd = -1;
  if (std::error_code ec =
          sys::fs::openFileForWrite(tempPath, fd, sys::fs::CD_OpenExisting, sys::fs::OF_None))
    return cannotWrite(path, ec);
  raw_fd_ostream os(fd, /*shouldClose=*/true);
  sys::fs::file_status status;
  if (!sys::fs::status(fd, status) && status.getSize() > 0)
    if (std::error_code ec = sys::fs::resize_file(fd, 0))
      return cannotWrite(path, ec);
#ifdef __linux__
  // Blocks allocated now rather than at writeback: renamed over an existing
  // OUT, a file with delayed allocation is flushed by ext4 first
  // (auto_da_alloc), 1.3 ms of a 1.6 ms hit. Where it is not supported it is
  // only not done.
  (void)::fallocate(fd, 0, 0, off_t(bytes.size()));
#endif
  os << bytes;
  os.close();
  if (os.has_error()) {
    std::error_code err = os.error();
    os.clear_error();
    return cannotWrite(path, err);
  }
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
