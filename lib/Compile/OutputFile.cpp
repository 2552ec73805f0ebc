//===- OutputFile.cpp - outputs that appear complete or not at all --------===//

#include "qshape/Compile/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <fcntl.h>

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
      committed(other.committed) {
  other.committed = true;
}

OutputFile::~OutputFile() {
  if (!committed)
    sys::fs::remove(tempPath);
}

Error OutputFile::write(StringRef bytes) {
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
  if (std::error_code ec = sys::fs::copy_file(source, tempPath))
    return createStringError(ec, "cannot copy '" + source.str() + "' to '" + path + "': " +
                                     ec.message());
  return Error::success();
}

Error OutputFile::commit() {
  if (std::error_code ec = sys::fs::rename(tempPath, path))
    return cannotWrite(path, ec);
  committed = true;
  return Error::success();
}

} // namespace qshape::compile
