//===- CacheStats.cpp - Counters shared by every process ------------------===//

#include "qshape/Cache/CacheStats.h"

#include "qshape/Cache/FileUtil.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace qshape::cache;
using namespace qshape::cache::fileutil;

namespace {
constexpr llvm::StringLiteral kStatsHeader = "qshape-cache-stats 1";

struct Field {
  const char *name;
  uint64_t CacheStats::*member;
};
// The persisted fields, in file order. statsErrors is per process only.
constexpr Field kFields[] = {
    {"hits", &CacheStats::hits},
    {"misses", &CacheStats::misses},
    {"corrupt", &CacheStats::corrupt},
    {"read_errors", &CacheStats::readErrors},
    {"write_errors", &CacheStats::writeErrors},
    {"evictions", &CacheStats::evictions},
    {"stores", &CacheStats::stores},
    {"bytes_stored", &CacheStats::bytesStored},
    {"compile_time_saved_ms", &CacheStats::compileTimeSavedMs},
    {"remote_hits", &CacheStats::remoteHits},
    {"remote_misses", &CacheStats::remoteMisses},
    {"remote_corrupt", &CacheStats::remoteCorrupt},
    {"remote_refused", &CacheStats::remoteRefused},
    {"remote_errors", &CacheStats::remoteErrors},
    {"remote_timeouts", &CacheStats::remoteTimeouts},
    {"remote_too_large", &CacheStats::remoteTooLarge},
    {"remote_skipped", &CacheStats::remoteSkipped},
    {"remote_stores", &CacheStats::remoteStores},
    {"remote_bytes_stored", &CacheStats::remoteBytesStored},
    {"size_bytes", &CacheStats::sizeBytes},
    {"entries", &CacheStats::entries},
    {"last_cleanup_time", &CacheStats::lastCleanupTime},
};
constexpr size_t kNumCounters = 19; // the first fields are counters
static_assert(std::size(kFields) == kNumCounters + 3, "the size accounting follows the counters");

/// Locks \p , retrying when a signal interrupts the wait.
std::error_code lock(int fd, int operation) {
  while (::flock(fd, operation) != 0) {
    if (errno != EINTR)
      return lastError();
  }
  return {};
}

llvm::ErrorOr<std::string> readWhole(int fd) {
  std::string text;
  char buffer[4096];
  uint64_t offset = 0;
  while (true) {
    llvm::ErrorOr<size_t> n = readAt(fd, buffer, sizeof(buffer), offset);
    if (!n)
      return n.getError();
    if (*n == 0)
      return text;
    text.append(buffer, *n);
    offset += *n;
    if (text.size() > (1 << 16)) // not ours; stop reading
      return text;
  }
}
} // namespace

double CacheStats::hitRate() const {
  uint64_t lookups = hits + misses;
  return lookups == 0 ? 0.0 : static_cast<double>(hits) / static_cast<double>(lookups);
}

double CacheStats::remoteHitRate() const {
  uint64_t lookups = remoteHits + remoteMisses + remoteCorrupt + remoteRefused;
  return lookups == 0 ? 0.0 : static_cast<double>(remoteHits) / static_cast<double>(lookups);
}

void CacheStats::addCounters(const CacheStats &delta) {
  for (size_t i = 0; i < kNumCounters; ++i)
    this->*kFields[i].member += delta.*kFields[i].member;
  statsErrors += delta.statsErrors;
}

std::string qshape::cache::serializeStats(const CacheStats &stats) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << kStatsHeader << "\n";
  for (const Field &f : kFields)
    os << f.name << " " << stats.*f.member << "\n";
  return text;
}

CacheStats qshape::cache::parseStats(llvm::StringRef text) {
  CacheStats stats;
  llvm::SmallVector<llvm::StringRef, 16> lines;
  text.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (lines.empty() || lines.front() != kStatsHeader)
    return stats;
  for (llvm::StringRef line : llvm::ArrayRef(lines).drop_front()) {
    auto [name, value] = line.split(' ');
    uint64_t number;
    if (value.getAsInteger(10, number))
      continue;
    for (const Field &f : kFields)
      if (name == f.name)
        stats.*f.member = number;
  }
  return stats;
}

llvm::ErrorOr<CacheStats> qshape::cache::readStatsFile(llvm::StringRef path) {
  UniqueFD fd = openFile(path, O_RDONLY);
  if (!fd.valid()) {
    if (errno == ENOENT)
      return CacheStats();
    return lastError();
  }
  if (std::error_code ec = lock(fd.get(), LOCK_SH))
    return ec;
  llvm::ErrorOr<std::string> text = readWhole(fd.get());
  if (!text)
    return text.getError();
  return parseStats(*text);
}

std::error_code qshape::cache::updateStatsFile(llvm::StringRef path,
                                               llvm::function_ref<void(CacheStats &)> update) {
  UniqueFD fd = openFile(path, O_RDWR | O_CREAT | O_NOFOLLOW, 0600);
  if (!fd.valid())
    return lastError();
  if (std::error_code ec = lock(fd.get(), LOCK_EX))
    return ec;
  llvm::ErrorOr<std::string> text = readWhole(fd.get());
  if (!text)
    return text.getError();
  CacheStats stats = parseStats(*text);
  update(stats);
  std::string newText = serializeStats(stats);
  // Rewrite in place, then cut whatever a longer old text left behind.
  if (::lseek(fd.get(), 0, SEEK_SET) != 0)
    return lastError();
  if (std::error_code ec = writeAll(fd.get(), newText))
    return ec;
  if (text->size() > newText.size() &&
      ::ftruncate(fd.get(), static_cast<off_t>(newText.size())) != 0)
    return lastError();
  return fd.close(); // also drops the lock
}
