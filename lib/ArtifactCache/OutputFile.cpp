//===- OutputFile.cpp - outputs that appear complete or not at all --------===//

#include "qshape/ArtifactCache/OutputFile.h"

#include "qshape/Cache/FileUtil.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;
namespace fileutil = qshape::cache::fileutil;

namespace qshape::compile {

static Error cannotWrite(StringRef path, std::error_code ec) {
  return createStringError(ec, "cannot write '" + path.str() + "': " + ec.message());
}

Expected<OutputFile> OutputFile::create(StringRef path, bool executable, StringRef input) {
  if (sys::fs::is_directory(path))
    return createStringError("cannot write '" + path.str() + "': it is a directory");
  if (!input.empty() && sys::fs::equivalent(input, path))
    return createStringError("cannot write '" + path.str() +
                             "': it is the input; name another output file");
  // A device or a FIFO is written into, never replaced: renamed over, a
  // /dev/null of root's would become a regular file that every later
  // `>/dev/null` fills.
  struct stat st;
  bool inPlace = ::stat(path.str().c_str(), &st) == 0 && !S_ISREG(st.st_mode);
  if (inPlace) {
    SmallString<256> temp;
    if (std::error_code ec = sys::fs::createTemporaryFile("qshape-out", "", temp))
      return cannotWrite(path, ec);
    sys::RemoveFileOnSignal(temp);
    return OutputFile(path.str(), temp.str().str(), /*inPlace=*/true);
  }
  // The mode is filtered by the umask as for any new file.
  mode_t mode = executable ? 0777 : 0666;
  // The process id and one random number name the temporary
  // (createUniqueFile asks the kernel for one per character: six system
  // calls of a hit's hundred); the id lets sweepStale() find a killed
  // run's.
  std::error_code ec;
  for (int attempt = 0; attempt < 64; ++attempt) {
    SmallString<256> temp(sys::path::parent_path(path));
    sys::path::append(temp, tempPrefix(path) + Twine(::getpid()) + "-" +
                                Twine::utohexstr(sys::Process::GetRandomNumber()));
    if (fileutil::openFile(temp, O_RDWR | O_CREAT | O_EXCL, mode).valid()) {
      // SIGINT, SIGTERM, SIGBUS (a full disk under an mmap) and the rest
      // of LLVM's fatal signals remove it.
      sys::RemoveFileOnSignal(temp);
      return OutputFile(path.str(), temp.str().str(), /*inPlace=*/false);
    }
    ec = fileutil::lastError();
    if (ec != std::errc::file_exists)
      break;
  }
  return cannotWrite(path, ec);
}

OutputFile::OutputFile(OutputFile &&other) noexcept
    : path(std::move(other.path)), tempPath(std::move(other.tempPath)), inPlace(other.inPlace),
      committed(other.committed), reused(other.reused) {
  other.committed = true;
}

OutputFile::~OutputFile() {
  if (committed)
    return;
  (void)sys::fs::remove(tempPath); // best effort: a leftover is only litter
  sys::DontRemoveFileOnSignal(tempPath);
}

std::string OutputFile::tempPrefix(StringRef path) {
  return ("." + sys::path::filename(path) + ".tmp-").str();
}

unsigned OutputFile::sweepStale(StringRef path) {
  SmallString<256> dir(sys::path::parent_path(path));
  if (dir.empty())
    dir = ".";
  std::string prefix = tempPrefix(path);
  unsigned removed = 0;
  std::error_code ec;
  for (sys::fs::directory_iterator it(dir, ec), end; it != end && !ec; it.increment(ec)) {
    StringRef name = sys::path::filename(it->path());
    unsigned pid = 0;
    if (!name.consume_front(prefix) || name.consumeInteger(10, pid) || !name.starts_with("-"))
      continue;
    // Its writer is gone (a process id in use may be another program's
    // now: that temporary stays until the id is free).
    if (pid != unsigned(::getpid()) && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH &&
        !sys::fs::remove(it->path()))
      ++removed;
  }
  return removed;
}

bool OutputFile::reuseIfSame(StringRef bytes) {
  if (inPlace)
    return false;
  struct stat out, temp;
  if (::lstat(path.c_str(), &out) != 0 || !S_ISREG(out.st_mode) || out.st_nlink != 1 ||
      out.st_uid != ::geteuid() || uint64_t(out.st_size) != bytes.size() ||
      ::stat(tempPath.c_str(), &temp) != 0 || (out.st_mode & 07777) != (temp.st_mode & 07777))
    return false;
  fileutil::UniqueFD fd = fileutil::openFile(path, O_RDONLY | O_NOFOLLOW);
  if (!fd.valid())
    return false;
  std::string existing(bytes.size(), '\0');
  ErrorOr<size_t> n = fileutil::readAt(fd.get(), existing.data(), existing.size(), 0);
  reused = n && *n == bytes.size() && StringRef(existing) == bytes;
  return reused;
}

Error OutputFile::write(StringRef bytes) {
  reused = false;
  // Not opened with O_TRUNC, which the temporary, new and empty, rarely
  // needs: on ext4 a truncated file is flushed to disk when it is closed
  // (auto_da_alloc), which on a cache hit cost more than the rest of the
  // write. A temporary written before (a hit that failed late, then the
  // compile) is cut explicitly.
  fileutil::UniqueFD fd = fileutil::openFile(tempPath, O_WRONLY);
  if (!fd.valid())
    return cannotWrite(path, fileutil::lastError());
  struct stat st;
  if (::fstat(fd.get(), &st) != 0 || (st.st_size > 0 && ::ftruncate(fd.get(), 0) != 0))
    return cannotWrite(path, fileutil::lastError());
#ifdef __linux__
  // Blocks allocated now rather than at writeback: renamed over an existing
  // OUT, a file with delayed allocation is flushed by ext4 first
  // (auto_da_alloc), 1.3 ms of a 1.6 ms hit. Where it is not supported it is
  // only not done.
  (void)::fallocate(fd.get(), 0, 0, off_t(bytes.size()));
#endif
  if (std::error_code ec = fileutil::writeAll(fd.get(), bytes))
    return cannotWrite(path, ec);
  if (std::error_code ec = fd.close())
    return cannotWrite(path, ec);
  return Error::success();
}

Error OutputFile::copyFrom(StringRef source) {
  reused = false;
  if (std::error_code ec = sys::fs::copy_file(source, tempPath))
    return createStringError(ec, "cannot copy '" + source.str() + "' to '" + path +
                                     "': " + ec.message());
  return Error::success();
}

Error OutputFile::commit() {
  if (reused) {
    // The temporary was never written: removing it frees nothing.
    (void)sys::fs::remove(tempPath); // best effort: a leftover is only litter
    sys::DontRemoveFileOnSignal(tempPath);
    if (::utimensat(AT_FDCWD, path.c_str(), nullptr, 0) != 0)
      return cannotWrite(path, std::error_code(errno, std::generic_category()));
    committed = true;
    return Error::success();
  }
  if (inPlace)
    return commitInPlace();
  if (std::error_code ec = sys::fs::rename(tempPath, path))
    return cannotWrite(path, ec);
  committed = true;
  sys::DontRemoveFileOnSignal(tempPath);
  return Error::success();
}

Error OutputFile::commitInPlace() {
  ErrorOr<std::unique_ptr<MemoryBuffer>> bytes =
      MemoryBuffer::getFile(tempPath, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!bytes)
    return cannotWrite(path, bytes.getError());
  fileutil::UniqueFD fd = fileutil::openFile(path, O_WRONLY);
  if (!fd.valid())
    return cannotWrite(path, fileutil::lastError());
  if (std::error_code ec = fileutil::writeAll(fd.get(), (*bytes)->getBuffer()))
    return cannotWrite(path, ec);
  if (std::error_code ec = fd.close())
    return cannotWrite(path, ec);
  (void)sys::fs::remove(tempPath); // best effort: a leftover is only litter
  sys::DontRemoveFileOnSignal(tempPath);
  committed = true;
  return Error::success();
}

} // namespace qshape::compile
