//===- ParameterTable.cpp - the values of a shared-topology library -------===//

#include "qshape/ArtifactCache/ParameterTable.h"

#include "qshape/LibraryInfo/LibraryInfo.h"

#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace qshape::compile {

namespace {
struct SectionPlace {
  uint64_t offset = 0; ///< in the file
  uint64_t size = 0;
  bool found = false;
};
} // namespace

/// Where the table's bytes are in a library's bytes (ELF: a PROGBITS
/// section, so its contents are the file's bytes at that offset); `path`
/// names them in errors.
static llvm::Expected<SectionPlace> findTableIn(llvm::StringRef bytes, llvm::StringRef path) {
  llvm::Expected<std::optional<native::ElfSection>> section =
      native::findLibrarySection(bytes, kParameterTableSection);
  if (!section)
    return llvm::createStringError("cannot read '" + path.str() +
                                   "' as a shared library: " + llvm::toString(section.takeError()));
  SectionPlace place;
  if (!*section)
    return place;
  if (!(*section)->inFile)
    return llvm::createStringError("'" + path.str() + "': section " + kParameterTableSection.str() +
                                   " has no file contents");
  place.offset = (*section)->offset;
  place.size = (*section)->size;
  place.found = true;
  return place;
}

static llvm::Expected<SectionPlace> findTable(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> bytes =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!bytes)
    return llvm::createStringError(bytes.getError(), "cannot read '" + path.str() + "'");
  return findTableIn((*bytes)->getBuffer(), path);
}

/// The table must hold exactly the program's values.
static llvm::Error checkSlots(const SectionPlace &place, llvm::StringRef path, size_t values) {
  if (place.found && place.size == values * sizeof(double))
    return llvm::Error::success();
  return llvm::createStringError(
      "'" + path.str() + "': the compiled parameter table (" +
      (place.found ? std::to_string(place.size / sizeof(double)) + " slots" : std::string("none")) +
      ") does not match the program's " + std::to_string(values) + " values");
}

llvm::Expected<std::vector<double>> readParameterTable(llvm::StringRef path) {
  llvm::Expected<SectionPlace> place = findTable(path);
  if (!place)
    return place.takeError();
  std::vector<double> values;
  if (!place->found)
    return values;
  if (place->size % sizeof(double))
    return llvm::createStringError("'" + path.str() + "': section " + kParameterTableSection.str() +
                                   " is not a table of doubles");
  values.resize(place->size / sizeof(double));
  int fd = ::open(path.str().c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return llvm::createStringError(std::error_code(errno, std::generic_category()),
                                   "cannot open '" + path.str() + "'");
  ssize_t n = ::pread(fd, values.data(), place->size, off_t(place->offset));
  ::close(fd);
  if (n != ssize_t(place->size))
    return llvm::createStringError("'" + path.str() + "': cannot read the parameter table");
  return values;
}

/// Gives `path` its own inode if it shares one (a hard link to a cache
/// entry, say): the table is written in place, and must never change the
/// bytes of another name.
static llvm::Error unshare(llvm::StringRef path) {
  struct stat st;
  if (::stat(path.str().c_str(), &st) != 0)
    return llvm::createStringError(std::error_code(errno, std::generic_category()),
                                   "cannot stat '" + path.str() + "'");
  if (st.st_nlink <= 1)
    return llvm::Error::success();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> bytes =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!bytes)
    return llvm::createStringError(bytes.getError(), "cannot read '" + path.str() + "'");
  std::string name = path.str();
  if (::unlink(name.c_str()) != 0)
    return llvm::createStringError(std::error_code(errno, std::generic_category()),
                                   "cannot unlink '" + name + "'");
  int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, st.st_mode & 07777);
  if (fd < 0)
    return llvm::createStringError(std::error_code(errno, std::generic_category()),
                                   "cannot recreate '" + name + "'");
  llvm::StringRef data = (*bytes)->getBuffer();
  ssize_t n = ::write(fd, data.data(), data.size());
  int closed = ::close(fd);
  if (n != ssize_t(data.size()) || closed != 0)
    return llvm::createStringError("cannot rewrite '" + name + "'");
  return llvm::Error::success();
}

llvm::Error writeParameterTable(llvm::StringRef path, llvm::ArrayRef<double> values) {
  llvm::Expected<SectionPlace> place = findTable(path);
  if (!place)
    return place.takeError();
  if (values.empty() && !place->found)
    return llvm::Error::success();
  if (llvm::Error err = unshare(path))
    return err;
  if (llvm::Error err = checkSlots(*place, path, values.size()))
    return err;
  int fd = ::open(path.str().c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0)
    return llvm::createStringError(std::error_code(errno, std::generic_category()),
                                   "cannot open '" + path.str() + "' to write its parameters");
  ssize_t n = ::pwrite(fd, values.data(), place->size, off_t(place->offset));
  int closed = ::close(fd);
  if (n != ssize_t(place->size) || closed != 0)
    return llvm::createStringError("'" + path.str() + "': cannot write the parameter table");
  llvm::Expected<std::vector<double>> back = readParameterTable(path);
  if (!back)
    return back.takeError();
  if (back->size() != values.size() || std::memcmp(back->data(), values.data(), place->size) != 0)
    return llvm::createStringError("'" + path.str() + "': the parameter table reads back wrong");
  return llvm::Error::success();
}

llvm::Error writeParameterTable(llvm::MutableArrayRef<char> library, llvm::StringRef name,
                                llvm::ArrayRef<double> values) {
  llvm::StringRef bytes(library.data(), library.size());
  llvm::Expected<SectionPlace> place = findTableIn(bytes, name);
  if (!place)
    return place.takeError();
  if (values.empty() && !place->found)
    return llvm::Error::success();
  if (llvm::Error err = checkSlots(*place, name, values.size()))
    return err;
  // findLibrarySection checked that the section lies inside the bytes.
  std::memcpy(library.data() + place->offset, values.data(), place->size);
  return llvm::Error::success();
}

} // namespace qshape::compile
