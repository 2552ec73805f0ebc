//===- CacheBackend.cpp - What every cache level shares --------------------===//

#include "qshape/Cache/CacheBackend.h"

#include "qshape/Cache/AccessMode.h"

#include "Backends.h"

#include "qshape/Cache/Diagnostics.h"
#include "qshape/Cache/DirectoryCache.h"
#include "qshape/Cache/FileUtil.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <sys/stat.h>
#include <unistd.h>

using namespace qshape::cache;
using namespace qshape::cache::fileutil;

//===----------------------------------------------------------------------===//
// CacheBackend defaults
//===----------------------------------------------------------------------===//

CacheBackend::~CacheBackend() = default;
CacheInventory::~CacheInventory() = default;
KeyLock::~KeyLock() = default;

StoreResult CacheBackend::store(const CacheKey &Key, PayloadKind Kind, llvm::StringRef Payload,
                                uint64_t CompileTimeMs) {
  return storeEntry(makeEntryHeader(Key, Kind, Payload, CompileTimeMs, tagKey()), Payload);
}

LookupResult CacheBackend::lookupToFile(const CacheKey &Key, llvm::StringRef Path, unsigned Mode) {
  LookupResult R = lookup(Key);
  if (!R.hit())
    return R;
  static std::atomic<uint64_t> Counter{0};
  std::string Temp =
      (Path + ".tmp-" + llvm::Twine(::getpid()) + "-" + llvm::Twine(++Counter)).str();
  auto Fail = [&](llvm::StringRef What, std::error_code EC) {
    ::unlink(Temp.c_str());
    R.Status = LookupStatus::IOError;
    R.Detail = ("cannot write the cached payload of " + Key.str() + " to '" + Path + "': " + What +
                ": " + fileutil::describe(EC))
                   .str();
    R.Entry.reset();
    R.Level = CacheLevel::None;
    return std::move(R);
  };
  {
    UniqueFD FD = openFile(Temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode_t(Mode));
    if (!FD.valid())
      return Fail("create", lastError());
    if (std::error_code EC = writeAll(FD.get(), R.Entry->Payload->getBuffer()))
      return Fail("write", EC);
    // The umask may have cut the mode; the caller asked for it exactly.
    if (::fchmod(FD.get(), mode_t(Mode)) != 0)
      return Fail("chmod", lastError());
    if (std::error_code EC = FD.close())
      return Fail("close", EC);
  }
  if (::rename(Temp.c_str(), Path.str().c_str()) != 0)
    return Fail("rename", lastError());
  return R;
}

KeyLockResult CacheBackend::lockKey(const CacheKey &, std::chrono::milliseconds) {
  KeyLockResult R;
  R.Result = KeyLockResult::State::Unsupported;
  R.Detail = describe() + " has no key locks";
  return R;
}

KeyLockResult CacheBackend::adoptKeyLock(const CacheKey &, int) {
  KeyLockResult R;
  R.Result = KeyLockResult::State::Failed;
  R.Detail = describe() + " has no key locks";
  return R;
}

llvm::ErrorOr<CacheStats> CacheBackend::persistentStats() const { return processStats(); }

std::vector<std::pair<std::string, std::string>> CacheBackend::status() { return {}; }

//===----------------------------------------------------------------------===//
// Sizes and durations
//===----------------------------------------------------------------------===//

std::optional<AccessMode> qshape::cache::parseAccessMode(llvm::StringRef Text) {
  return llvm::StringSwitch<std::optional<AccessMode>>(Text)
      .Case("off", AccessMode::Off)
      .Case("read", AccessMode::Read)
      .Case("write", AccessMode::Write)
      .Case("readwrite", AccessMode::ReadWrite)
      .Default(std::nullopt);
}

llvm::StringRef qshape::cache::getAccessModeName(AccessMode Mode) {
  switch (Mode) {
  case AccessMode::Off:
    return "off";
  case AccessMode::Read:
    return "read";
  case AccessMode::Write:
    return "write";
  case AccessMode::ReadWrite:
    return "readwrite";
  }
  return "off";
}

std::optional<uint64_t> qshape::cache::parseSize(llvm::StringRef Text) {
  Text = Text.trim();
  size_t NumberEnd = Text.find_first_not_of("0123456789.");
  llvm::StringRef Number = Text.take_front(NumberEnd);
  llvm::StringRef Suffix = Text.drop_front(Number.size());
  if (Number.empty() || Number.count('.') > 1 || Number == ".")
    return std::nullopt;
  Suffix.consume_back("B") || Suffix.consume_back("b");
  if (!Suffix.empty() && Suffix.size() > 1)
    if (!Suffix.consume_back("i"))
      return std::nullopt;
  unsigned Shift = 0;
  if (!Suffix.empty()) {
    switch (llvm::toLower(Suffix[0])) {
    case 'k':
      Shift = 10;
      break;
    case 'm':
      Shift = 20;
      break;
    case 'g':
      Shift = 30;
      break;
    case 't':
      Shift = 40;
      break;
    default:
      return std::nullopt;
    }
    if (Suffix.size() != 1)
      return std::nullopt;
  }
  if (!Number.contains('.')) {
    uint64_t Value;
    if (Number.getAsInteger(10, Value) || (Shift && Value > (UINT64_MAX >> Shift)))
      return std::nullopt;
    return Value << Shift;
  }
  double Value = std::strtod(Number.str().c_str(), nullptr);
  double Bytes = std::ldexp(Value, int(Shift));
  if (!(Bytes >= 0) || Bytes >= 1.8e19)
    return std::nullopt;
  return uint64_t(Bytes);
}

std::string qshape::cache::formatSize(uint64_t Bytes) {
  static const char *Units[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  if (Bytes < 1024)
    return std::to_string(Bytes) + " B";
  double Value = double(Bytes) / 1024;
  size_t Unit = 0;
  while (Value >= 1024 && Unit + 1 < std::size(Units)) {
    Value /= 1024;
    ++Unit;
  }
  std::string Text;
  llvm::raw_string_ostream(Text) << llvm::format("%.1f ", Value) << Units[Unit];
  return Text;
}

std::optional<uint64_t> qshape::cache::parseDurationMs(llvm::StringRef Text, uint64_t BareUnitMs) {
  Text = Text.trim();
  size_t NumberEnd = Text.find_first_not_of("0123456789");
  llvm::StringRef Number = Text.take_front(NumberEnd);
  llvm::StringRef Unit = Text.drop_front(Number.size());
  uint64_t Value;
  if (Number.empty() || Number.getAsInteger(10, Value))
    return std::nullopt;
  uint64_t Scale;
  if (Unit.empty())
    Scale = BareUnitMs;
  else if (Unit == "ms")
    Scale = 1;
  else if (Unit == "s")
    Scale = 1000;
  else if (Unit == "m" || Unit == "min")
    Scale = 60 * 1000;
  else if (Unit == "h")
    Scale = 3600 * 1000;
  else if (Unit == "d")
    Scale = 24 * 3600 * 1000;
  else
    return std::nullopt;
  if (Value > UINT64_MAX / Scale)
    return std::nullopt;
  return Value * Scale;
}
