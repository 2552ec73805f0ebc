//===- OutputFile.h - outputs that appear complete or not at all -*- C++ -*-===//
//
// qshape-compile never leaves a partial OUT: everything is written to a
// temporary file in OUT's directory (so the final rename stays on one file
// system and is atomic) and renamed into place only once complete. Creating
// the temporary first also checks, before any compilation work, that OUT
// can be written at all.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_ARTIFACTCACHE_OUTPUTFILE_H
#define QSHAPE_ARTIFACTCACHE_OUTPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace qshape::compile {

class OutputFile {
public:
  /// Creates the (empty) temporary next to `path`, `.<name>.tmp-<pid>-<hex>`,
  /// removed on a fatal signal (SIGINT, SIGTERM, SIGBUS, ...) too;
  /// `executable` gives it (and so the final file) mode 0777 & ~umask
  /// instead of 0666 & ~umask. The error names `path` and the reason.
  /// An output that is `input` itself is refused, as cp refuses to copy a
  /// file onto itself. An output that exists and is not a regular file (a
  /// device such as /dev/null, a FIFO) is written in place at commit(),
  /// never renamed over: the temporary is then made in the system's
  /// temporary directory, not beside it.
  static llvm::Expected<OutputFile> create(llvm::StringRef path, bool executable,
                                           llvm::StringRef input = {});

  /// Removes the temporaries of `path` whose process is gone (a SIGKILL
  /// leaves one behind); returns how many.
  static unsigned sweepStale(llvm::StringRef path);

  OutputFile(OutputFile &&other) noexcept;
  OutputFile &operator=(OutputFile &&other) = delete;
  OutputFile(const OutputFile &) = delete;
  /// Removes the temporary unless committed.
  ~OutputFile();

  llvm::StringRef getPath() const { return path; }
  /// Where to write (a linker may also replace this file by its own).
  llvm::StringRef getTempPath() const { return tempPath; }

  /// Replaces the temporary's contents with `bytes`.
  llvm::Error write(llvm::StringRef bytes);
  /// Whether OUT already holds exactly `bytes` (a regular file of this user,
  /// with one link and the mode the temporary has). Then commit() leaves it
  /// in place and only sets its modification time, as a rewrite would: a
  /// hit then writes no data, and replacing OUT would free its blocks (on
  /// ext4 the rename over it took 0.3-0.5 ms under strace -T, the hit's
  /// slowest call). A later write() replaces it after all.
  bool reuseIfSame(llvm::StringRef bytes);
  /// The file that holds the output: OUT when it is reused, else the
  /// temporary.
  llvm::StringRef getContentPath() const { return reused ? path : tempPath; }
  /// Replaces the temporary's contents with a copy of the file `source`
  /// (a library from a cache, say).
  llvm::Error copyFrom(llvm::StringRef source);
  /// Renames the temporary to the final path (or, for an output that is not
  /// a regular file, copies its bytes into it).
  llvm::Error commit();

private:
  static std::string tempPrefix(llvm::StringRef path);
  llvm::Error commitInPlace();
  OutputFile(std::string path, std::string tempPath, bool inPlace)
      : path(std::move(path)), tempPath(std::move(tempPath)), inPlace(inPlace) {}
  std::string path;
  std::string tempPath;
  bool inPlace; ///< OUT exists and is not a regular file
  bool committed = false;
  bool reused = false;
};

} // namespace qshape::compile

#endif // QSHAPE_ARTIFACTCACHE_OUTPUTFILE_H
