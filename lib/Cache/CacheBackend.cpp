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

StoreResult CacheBackend::store(const CacheKey &key, PayloadKind kind, llvm::StringRef payload,
                                uint64_t compileTimeMs) {
  return storeEntry(makeEntryHeader(key, kind, payload, compileTimeMs, tagKey()), payload);
}

LookupResult CacheBackend::lookupToFile(const CacheKey &key, llvm::StringRef path, unsigned mode) {
  LookupResult r = lookup(key);
  if (!r.hit() || !r.entry)
    return r;
  static std::atomic<uint64_t> counter{0};
  std::string temp =
      (path + ".tmp-" + llvm::Twine(::getpid()) + "-" + llvm::Twine(++counter)).str();
  auto fail = [&](llvm::StringRef what, std::error_code ec) {
    ::unlink(temp.c_str());
    r.status = LookupStatus::IOError;
    r.detail = ("cannot write the cached payload of " + key.str() + " to '" + path + "': " + what +
                ": " + fileutil::describe(ec))
                   .str();
    r.entry.reset();
    r.level = CacheLevel::None;
    return std::move(r);
  };
  {
    UniqueFD fd =
        openFile(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, static_cast<mode_t>(mode));
    if (!fd.valid())
      return fail("create", lastError());
    if (std::error_code ec = writeAll(fd.get(), r.entry->payload->getBuffer()))
      return fail("write", ec);
    // The umask may have cut the mode; the caller asked for it exactly.
    if (::fchmod(fd.get(), static_cast<mode_t>(mode)) != 0)
      return fail("chmod", lastError());
    if (std::error_code ec = fd.close())
      return fail("close", ec);
  }
  if (::rename(temp.c_str(), path.str().c_str()) != 0)
    return fail("rename", lastError());
  return r;
}

KeyLockResult CacheBackend::lockKey(const CacheKey &, std::chrono::milliseconds) {
  KeyLockResult r;
  r.result = KeyLockResult::State::Unsupported;
  r.detail = describe() + " has no key locks";
  return r;
}

KeyLockResult CacheBackend::adoptKeyLock(const CacheKey &, int) {
  KeyLockResult r;
  r.result = KeyLockResult::State::Failed;
  r.detail = describe() + " has no key locks";
  return r;
}

llvm::ErrorOr<CacheStats> CacheBackend::persistentStats() const { return processStats(); }

std::vector<std::pair<std::string, std::string>> CacheBackend::status() { return {}; }

//===----------------------------------------------------------------------===//
// Sizes and durations
//===----------------------------------------------------------------------===//

std::optional<AccessMode> qshape::cache::parseAccessMode(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<AccessMode>>(text)
      .Case("off", AccessMode::Off)
      .Case("read", AccessMode::Read)
      .Case("write", AccessMode::Write)
      .Case("readwrite", AccessMode::ReadWrite)
      .Default(std::nullopt);
}

llvm::StringRef qshape::cache::getAccessModeName(AccessMode mode) {
  switch (mode) {
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

std::optional<uint64_t> qshape::cache::parseSize(llvm::StringRef text) {
  text = text.trim();
  size_t numberEnd = text.find_first_not_of("0123456789.");
  llvm::StringRef number = text.take_front(numberEnd);
  llvm::StringRef suffix = text.drop_front(number.size());
  if (number.empty() || number.count('.') > 1 || number == ".")
    return std::nullopt;
  suffix.consume_back("B") || suffix.consume_back("b");
  if (!suffix.empty() && suffix.size() > 1)
    if (!suffix.consume_back("i"))
      return std::nullopt;
  unsigned shift = 0;
  if (!suffix.empty()) {
    switch (llvm::toLower(suffix[0])) {
    case 'k':
      shift = 10;
      break;
    case 'm':
      shift = 20;
      break;
    case 'g':
      shift = 30;
      break;
    case 't':
      shift = 40;
      break;
    default:
      return std::nullopt;
    }
    if (suffix.size() != 1)
      return std::nullopt;
  }
  if (!number.contains('.')) {
    uint64_t value;
    if (number.getAsInteger(10, value) || (shift && value > (UINT64_MAX >> shift)))
      return std::nullopt;
    return value << shift;
  }
  double value = std::strtod(number.str().c_str(), nullptr);
  double bytes = std::ldexp(value, static_cast<int>(shift));
  if (!(bytes >= 0) || bytes >= 1.8e19)
    return std::nullopt;
  return static_cast<uint64_t>(bytes);
}

std::string qshape::cache::formatSize(uint64_t bytes) {
  static const char *units[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024)
    return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes) / 1024;
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(units)) {
    value /= 1024;
    ++unit;
  }
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.1f ", value) << units[unit];
  return text;
}

std::optional<uint64_t> qshape::cache::parseDurationMs(llvm::StringRef text, uint64_t bareUnitMs) {
  text = text.trim();
  size_t numberEnd = text.find_first_not_of("0123456789");
  llvm::StringRef number = text.take_front(numberEnd);
  llvm::StringRef unit = text.drop_front(number.size());
  uint64_t value;
  if (number.empty() || number.getAsInteger(10, value))
    return std::nullopt;
  uint64_t scale;
  if (unit.empty())
    scale = bareUnitMs;
  else if (unit == "ms")
    scale = 1;
  else if (unit == "s")
    scale = kMsPerSecond;
  else if (unit == "m" || unit == "min")
    scale = kMsPerMinute;
  else if (unit == "h")
    scale = kMsPerHour;
  else if (unit == "d")
    scale = kMsPerDay;
  else
    return std::nullopt;
  if (value > UINT64_MAX / scale)
    return std::nullopt;
  return value * scale;
}
