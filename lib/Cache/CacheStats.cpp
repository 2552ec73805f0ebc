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
constexpr llvm::StringLiteral StatsHeader = "qshape-cache-stats 1";

struct Field {
  const char *Name;
  uint64_t CacheStats::*Member;
};
// The persisted fields, in file order. StatsErrors is per process only.
constexpr Field Fields[] = {
    {"hits", &CacheStats::Hits},
    {"misses", &CacheStats::Misses},
    {"corrupt", &CacheStats::Corrupt},
    {"read_errors", &CacheStats::ReadErrors},
    {"write_errors", &CacheStats::WriteErrors},
    {"evictions", &CacheStats::Evictions},
    {"stores", &CacheStats::Stores},
    {"bytes_stored", &CacheStats::BytesStored},
    {"compile_time_saved_ms", &CacheStats::CompileTimeSavedMs},
    {"remote_hits", &CacheStats::RemoteHits},
    {"remote_misses", &CacheStats::RemoteMisses},
    {"remote_corrupt", &CacheStats::RemoteCorrupt},
    {"remote_refused", &CacheStats::RemoteRefused},
    {"remote_errors", &CacheStats::RemoteErrors},
    {"remote_timeouts", &CacheStats::RemoteTimeouts},
    {"remote_too_large", &CacheStats::RemoteTooLarge},
    {"remote_skipped", &CacheStats::RemoteSkipped},
    {"remote_stores", &CacheStats::RemoteStores},
    {"remote_bytes_stored", &CacheStats::RemoteBytesStored},
    {"size_bytes", &CacheStats::SizeBytes},
    {"entries", &CacheStats::Entries},
    {"last_cleanup_time", &CacheStats::LastCleanupTime},
};
constexpr size_t NumCounters = 19; // the first fields are counters
static_assert(std::size(Fields) == NumCounters + 3, "the size accounting follows the counters");

/// Locks \p FD, retrying when a signal interrupts the wait.
std::error_code lock(int FD, int Operation) {
  while (::flock(FD, Operation) != 0) {
    if (errno != EINTR)
      return lastError();
  }
  return {};
}

llvm::ErrorOr<std::string> readWhole(int FD) {
  std::string Text;
  char Buffer[4096];
  uint64_t Offset = 0;
  while (true) {
    llvm::ErrorOr<size_t> N = readAt(FD, Buffer, sizeof(Buffer), Offset);
    if (!N)
      return N.getError();
    if (*N == 0)
      return Text;
    Text.append(Buffer, *N);
    Offset += *N;
    if (Text.size() > (1 << 16)) // not ours; stop reading
      return Text;
  }
}
} // namespace

double CacheStats::hitRate() const {
  uint64_t Lookups = Hits + Misses;
  return Lookups == 0 ? 0.0 : double(Hits) / double(Lookups);
}

double CacheStats::remoteHitRate() const {
  uint64_t Lookups = RemoteHits + RemoteMisses + RemoteCorrupt + RemoteRefused;
  return Lookups == 0 ? 0.0 : double(RemoteHits) / double(Lookups);
}

void CacheStats::addCounters(const CacheStats &Delta) {
  for (size_t I = 0; I < NumCounters; ++I)
    this->*Fields[I].Member += Delta.*Fields[I].Member;
  StatsErrors += Delta.StatsErrors;
}

std::string qshape::cache::serializeStats(const CacheStats &Stats) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << StatsHeader << "\n";
  for (const Field &F : Fields)
    OS << F.Name << " " << Stats.*F.Member << "\n";
  return Text;
}

CacheStats qshape::cache::parseStats(llvm::StringRef Text) {
  CacheStats Stats;
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Text.split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (Lines.empty() || Lines.front() != StatsHeader)
    return Stats;
  for (llvm::StringRef Line : llvm::ArrayRef(Lines).drop_front()) {
    auto [Name, Value] = Line.split(' ');
    uint64_t Number;
    if (Value.getAsInteger(10, Number))
      continue;
    for (const Field &F : Fields)
      if (Name == F.Name)
        Stats.*F.Member = Number;
  }
  return Stats;
}

llvm::ErrorOr<CacheStats> qshape::cache::readStatsFile(llvm::StringRef Path) {
  UniqueFD FD = openFile(Path, O_RDONLY);
  if (!FD.valid()) {
    if (errno == ENOENT)
      return CacheStats();
    return lastError();
  }
  if (std::error_code EC = lock(FD.get(), LOCK_SH))
    return EC;
  llvm::ErrorOr<std::string> Text = readWhole(FD.get());
  if (!Text)
    return Text.getError();
  return parseStats(*Text);
}

std::error_code qshape::cache::updateStatsFile(llvm::StringRef Path,
                                               llvm::function_ref<void(CacheStats &)> Update) {
  UniqueFD FD = openFile(Path, O_RDWR | O_CREAT | O_NOFOLLOW, 0600);
  if (!FD.valid())
    return lastError();
  if (std::error_code EC = lock(FD.get(), LOCK_EX))
    return EC;
  llvm::ErrorOr<std::string> Text = readWhole(FD.get());
  if (!Text)
    return Text.getError();
  CacheStats Stats = parseStats(*Text);
  Update(Stats);
  std::string NewText = serializeStats(Stats);
  // Rewrite in place, then cut whatever a longer old text left behind.
  if (::lseek(FD.get(), 0, SEEK_SET) != 0)
    return lastError();
  if (std::error_code EC = writeAll(FD.get(), NewText))
    return EC;
  if (Text->size() > NewText.size() && ::ftruncate(FD.get(), off_t(NewText.size())) != 0)
    return lastError();
  return FD.close(); // also drops the lock
}
