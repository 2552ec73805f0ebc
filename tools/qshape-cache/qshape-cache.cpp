//===- qshape-cache.cpp - Inspect and maintain the qshape compile cache ---===//
//
// A thin command-line front end to the cache library: statistics,
// listing, verification, pruning, and put/get for scripts and tests. It opens
// the cache like every compilation does (openCache: the directory, and the
// remote of $QSHAPE_CACHE_REMOTE behind it).
//
//===----------------------------------------------------------------------===//

#include "qshape/Cache/CacheBackend.h"
#include "qshape/Cache/CacheEntry.h"
#include "qshape/Cache/CacheKey.h"
#include "qshape/Cache/Diagnostics.h"
#include "qshape/Cache/DirectoryCache.h"
#include "qshape/Cache/FileUtil.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <ctime>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace qshape::cache;

namespace {

constexpr int ExitOk = 0;
constexpr int ExitNegative = 1; // a miss, or bad entries remain
constexpr int ExitError = 2;    // usage or cache error

const char *const HelpText =
    R"(OVERVIEW: inspect and maintain the qshape persistent compile cache

USAGE: qshape-cache [options] <command> [arguments]

The cache is a directory on this machine and, if configured, a Redis server
shared by a team behind it (QSHAPE_CACHE_REMOTE): lookups ask the directory
first and the server second (a remote hit is copied into the directory);
stores go to both.

COMMANDS:
  stats                 Counters of all processes that used the cache on this
                        machine (like `ccache -s`): entries, size, cap, hits,
                        misses, hit rate, corrupt entries, read/write errors,
                        evictions, compile time saved; with a remote: remote
                        hits, misses, corrupt and refused entries, errors,
                        timeouts, oversized and skipped operations, stores,
                        and the server's memory, policy and evictions.
  list [--remote]       One line per entry: key, size, payload kind, time since
                        last use. Most recently used first. --remote: the
                        entries on the server (key and size).
  show KEY              Header fields of one entry, and whether it verifies.
  verify [--purge] [--remote]
                        Reads every entry and checks its header and payload
                        checksum, and the tag of remote entries and of the
                        local copies of remote entries: a copy is refused
                        unless the remote would serve it today (with today's
                        QSHAPE_CACHE_REMOTE_KEY, or _INSECURE=1 and no key).
                        Reports bad and refused entries; --purge removes them.
                        --remote: the entries on the server. Exits with 1 if
                        bad entries remain.
  prune [--max-size N]  Removes temp files left by killed writers and evicts
                        least recently used entries: down to N if given,
                        otherwise down to 80% of the cap when over the cap.
                        (A Redis server evicts by itself: maxmemory.)
  clear                 Removes every entry and old temp files of the
                        directory; counters are kept.
  put KEY FILE          Stores FILE ('-' for stdin) as the payload of KEY, in
                        the directory and the remote (options --kind,
                        --compile-ms). For scripts and tests.
  get KEY [-o FILE]     Writes the payload of KEY to FILE or stdout; exits
                        with 1 on a miss. Counts as a lookup (a remote hit
                        fills the directory).

OPTIONS:
  --dir DIR             Cache directory. Default: $QSHAPE_CACHE_DIR, else
                        $XDG_CACHE_HOME/qshape, else ~/.cache/qshape.
  --max-size N          Size cap (stats, prune and stores). Sizes are bytes or
                        K, M, G, T (powers of 1024): 500M, 2G, 1.5G. Default:
                        $QSHAPE_CACHE_MAX_SIZE, else 2G.
  --remote-url URL      Remote cache. Default: $QSHAPE_CACHE_REMOTE; 'off' for
                        none. See REMOTE below.
  --remote              list, verify: the remote's entries, not the directory's.
  --json                Machine-readable output (stats, list, show, verify,
                        prune, clear).
  --purge               verify: remove bad and refused entries (--fix is the
                        same).
  --kind KIND           put: payload kind, one of: blob, mlir, mlirbc,
                        llvm-ir, llvm-bc, object, shared-lib (default blob).
  --compile-ms N        put: compile time the entry saves, in milliseconds.
  -o, --output FILE     get: write the payload to FILE instead of stdout.
  -h, --help            Show this text.

REMOTE:
  redis://[USER[:PASSWORD]@]HOST[:PORT][/DB][?ATTRIBUTE&...], attributes:
    prefix=NAME         key namespace on the server (default qshape)
    read-only           never store (e.g. developers read, CI writes)
    ttl=DURATION        entries expire (a hit refreshes them): 7d, 12h
    connect-timeout=D   default 100ms      timeout=D   per operation, 1s
    retry-after=D       after a failure the remote is left alone this long
                        (default 60s; 'never': for the rest of the process)
    max-entry-size=N    larger entries stay local (default 64M)
    password-file=PATH  the password, read from a file (not in argv)
  QSHAPE_CACHE_REMOTE_PASSWORD_FILE  password file when the URL has none
  QSHAPE_CACHE_REMOTE_KEY            team secret (16+ characters): entries are
  QSHAPE_CACHE_REMOTE_KEY_FILE       tagged with keyed BLAKE3, and only entries
                                     with the tag are used (docs/cache.md);
                                     without a key the remote is not used
  QSHAPE_CACHE_REMOTE_INSECURE=1     use a remote without a key, trusting
                                     every writer (its entries are code)

KEYS:
  64 lowercase hex digits, optionally prefixed with 'blake3:'.

EXIT STATUS:
  0 success; 1 a miss (get, show) or bad entries remain (verify);
  2 usage error or a cache that cannot be used.
)";

struct CommandInfo;

/// The cache as the commands see it: all levels, and the directory (L1).
struct Cache {
  std::shared_ptr<CacheBackend> All;
  DirectoryMaintenance *Dir = nullptr;
  CacheBackend *Remote = nullptr; ///< null without a remote
};

struct Arguments {
  std::string Command;
  const CommandInfo *Info = nullptr; ///< the entry of Command in Commands
  std::vector<std::string> Positional;
  std::string Dir;
  std::optional<uint64_t> MaxSize;
  std::string RemoteUrl; ///< empty: $QSHAPE_CACHE_REMOTE
  bool Remote = false;
  bool Json = false;
  bool Fix = false;
  std::optional<PayloadKind> Kind;
  std::optional<uint64_t> CompileMs;
  std::optional<std::string> Output;
};

/// Warnings of the library are held back so that a failure is reported once,
/// as the error, instead of as a warning followed by the same error.
std::vector<std::string> PendingWarnings;

void flushWarnings(llvm::StringRef Except = "") {
  for (const std::string &W : PendingWarnings)
    if (W != Except)
      llvm::errs() << "qshape-cache: warning: " << W << "\n";
  PendingWarnings.clear();
}

int fail(const llvm::Twine &Message, int Code = ExitError) {
  std::string Text = Message.str();
  flushWarnings(Text);
  llvm::errs() << "qshape-cache: error: " << Text << "\n";
  return Code;
}

int usageError(const llvm::Twine &Message) {
  return fail(Message + "\nrun 'qshape-cache --help' for the commands and "
                        "options");
}

int invalidKey(llvm::StringRef Text) {
  return usageError("invalid key '" + Text + "': " + keySyntaxHelp());
}

std::string formatAge(int64_t Seconds) {
  if (Seconds < 0)
    Seconds = 0;
  if (Seconds < 120)
    return std::to_string(Seconds) + "s";
  if (Seconds < 7200)
    return std::to_string(Seconds / 60) + "m";
  if (Seconds < 2 * 86400)
    return std::to_string(Seconds / 3600) + "h";
  return std::to_string(Seconds / 86400) + "d";
}

std::string formatTime(int64_t Seconds) {
  std::time_t T = std::time_t(Seconds);
  std::tm Tm{};
  char Buffer[64];
  if (!gmtime_r(&T, &Tm) || std::strftime(Buffer, sizeof(Buffer), "%Y-%m-%dT%H:%M:%SZ", &Tm) == 0)
    return std::to_string(Seconds);
  return Buffer;
}

std::string formatMs(uint64_t Ms) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  if (Ms < 60000)
    OS << llvm::format("%.3f s", double(Ms) / 1000);
  else if (Ms < 3600000)
    OS << Ms / 60000 << " min " << llvm::format("%.1f s", double(Ms % 60000) / 1000);
  else
    OS << Ms / 3600000 << " h " << (Ms % 3600000) / 60000 << " min";
  return Text;
}

std::string count(uint64_t N, llvm::StringRef One, llvm::StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

std::string percent(double Fraction) {
  std::string Text;
  llvm::raw_string_ostream(Text) << llvm::format("%.2f %%", Fraction * 100);
  return Text;
}

//===----------------------------------------------------------------------===//
// Commands
//===----------------------------------------------------------------------===//

int runStats(Cache &C, const Arguments &Args) {
  llvm::ErrorOr<CacheStats> Stats = C.All->persistentStats();
  if (!Stats)
    return fail("cannot read '" + C.Dir->statsPath() + "': " + Stats.getError().message());
  llvm::ErrorOr<ScanResult> Scan = C.Dir->scan();
  if (!Scan)
    return fail("cannot scan '" + C.Dir->directory() + "': " + Scan.getError().message());
  uint64_t Cap = C.Dir->maxSizeBytes();
  // Talks to the server (bounded by its timeouts): its memory and evictions.
  std::vector<std::pair<std::string, std::string>> Status;
  if (C.Remote)
    Status = C.Remote->status();
  double Used = Cap ? double(Scan->totalBytes) / double(Cap) : 0;
  const CacheStats &S = *Stats;
  if (Args.Json) {
    llvm::json::OStream J(llvm::outs(), 2);
    J.object([&] {
      J.attribute("directory", C.Dir->directory());
      J.attribute("entries", int64_t(Scan->entries.size()));
      J.attribute("size_bytes", int64_t(Scan->totalBytes));
      J.attribute("max_size_bytes", int64_t(Cap));
      J.attribute("temp_files", int64_t(Scan->tempFiles.size()));
      J.attribute("hits", int64_t(S.hits));
      J.attribute("misses", int64_t(S.misses));
      J.attribute("hit_rate", S.hitRate());
      J.attribute("corrupt", int64_t(S.corrupt));
      J.attribute("read_errors", int64_t(S.readErrors));
      J.attribute("write_errors", int64_t(S.writeErrors));
      J.attribute("evictions", int64_t(S.evictions));
      J.attribute("stores", int64_t(S.stores));
      J.attribute("bytes_stored", int64_t(S.bytesStored));
      J.attribute("compile_time_saved_ms", int64_t(S.compileTimeSavedMs));
      J.attribute("last_cleanup_time", int64_t(S.lastCleanupTime));
      J.attribute("remote_hits", int64_t(S.remoteHits));
      J.attribute("remote_misses", int64_t(S.remoteMisses));
      J.attribute("remote_corrupt", int64_t(S.remoteCorrupt));
      J.attribute("remote_refused", int64_t(S.remoteRefused));
      J.attribute("remote_errors", int64_t(S.remoteErrors));
      J.attribute("remote_timeouts", int64_t(S.remoteTimeouts));
      J.attribute("remote_too_large", int64_t(S.remoteTooLarge));
      J.attribute("remote_skipped", int64_t(S.remoteSkipped));
      J.attribute("remote_stores", int64_t(S.remoteStores));
      J.attribute("remote_bytes_stored", int64_t(S.remoteBytesStored));
      if (C.Remote) {
        J.attribute("remote", C.Remote->describe());
        for (auto &[Name, Value] : Status) {
          std::string Field = llvm::StringRef(Name).lower();
          std::replace(Field.begin(), Field.end(), ' ', '_');
          J.attribute(Field, Value);
        }
      }
    });
    llvm::outs() << "\n";
    return ExitOk;
  }
  auto Row = [](llvm::StringRef Name, const llvm::Twine &Value) {
    llvm::outs() << llvm::left_justify(Name, 22) << Value << "\n";
  };
  Row("Cache directory:", C.Dir->directory());
  Row("Entries:", llvm::Twine(Scan->entries.size()));
  Row("Cache size:",
      formatSize(Scan->totalBytes) + " (" + llvm::Twine(Scan->totalBytes) + " bytes)");
  Row("Max cache size:", formatSize(Cap) + " (" + percent(Used) + " used)");
  Row("Hits:", llvm::Twine(S.hits));
  Row("Misses:", llvm::Twine(S.misses));
  Row("Hit rate:", percent(S.hitRate()));
  Row("Corrupt entries:", llvm::Twine(S.corrupt));
  Row("Read errors:", llvm::Twine(S.readErrors));
  Row("Write errors:", llvm::Twine(S.writeErrors));
  Row("Evictions:", llvm::Twine(S.evictions));
  Row("Stores:", llvm::Twine(S.stores));
  Row("Bytes stored:", formatSize(S.bytesStored));
  Row("Compile time saved:", formatMs(S.compileTimeSavedMs));
  if (!Scan->tempFiles.empty())
    Row("Temp files:", llvm::Twine(Scan->tempFiles.size()) +
                           " (stores in progress or killed; 'prune' removes "
                           "old ones)");
  uint64_t RemoteLookups = S.remoteHits + S.remoteMisses + S.remoteCorrupt + S.remoteRefused;
  bool RemoteUsed = RemoteLookups || S.remoteErrors || S.remoteTimeouts || S.remoteStores ||
                    S.remoteSkipped || S.remoteTooLarge;
  if (!C.Remote && !RemoteUsed)
    return ExitOk;
  // What this machine's processes saw of the remote cache.
  for (auto &[Name, Value] : Status)
    Row(Name + ":", Value);
  Row("Remote hits:", llvm::Twine(S.remoteHits));
  Row("Remote misses:", llvm::Twine(S.remoteMisses));
  Row("Remote hit rate:", percent(S.remoteHitRate()));
  Row("Remote corrupt:", llvm::Twine(S.remoteCorrupt));
  Row("Remote refused:",
      llvm::Twine(S.remoteRefused) + (S.remoteRefused ? " (untagged or other-key "
                                                        "entries)"
                                                      : ""));
  Row("Remote errors:", llvm::Twine(S.remoteErrors));
  Row("Remote timeouts:", llvm::Twine(S.remoteTimeouts));
  Row("Remote too large:", llvm::Twine(S.remoteTooLarge));
  Row("Remote skipped:",
      llvm::Twine(S.remoteSkipped) + (S.remoteSkipped ? " (circuit breaker open, or "
                                                        "writes refused)"
                                                      : ""));
  Row("Remote stores:", llvm::Twine(S.remoteStores));
  Row("Remote bytes stored:", formatSize(S.remoteBytesStored));
  return ExitOk;
}

int runListRemote(Cache &C, const Arguments &Args) {
  std::vector<InventoryEntry> Entries;
  if (llvm::Error E = C.Remote->inventory()->listEntries(
          [&](const InventoryEntry &Entry) { Entries.push_back(Entry); }))
    return fail(llvm::toString(std::move(E)));
  std::optional<llvm::json::OStream> J;
  if (Args.Json) {
    J.emplace(llvm::outs(), 2);
    J->arrayBegin();
  } else if (!Entries.empty()) {
    llvm::outs() << llvm::left_justify("KEY", 72) << "  " << llvm::right_justify("SIZE", 10)
                 << "\n";
  }
  for (const InventoryEntry &E : Entries) {
    if (J) {
      J->object([&] {
        J->attribute("key", E.key.str());
        J->attribute("size_bytes", int64_t(E.size));
      });
      continue;
    }
    llvm::outs() << llvm::left_justify(E.key.str(), 72) << "  "
                 << llvm::right_justify(formatSize(E.size), 10) << "\n";
  }
  if (J) {
    J->arrayEnd();
    llvm::outs() << "\n";
  }
  return ExitOk;
}

int runList(Cache &C, const Arguments &Args) {
  if (Args.Remote)
    return runListRemote(C, Args);
  llvm::ErrorOr<ScanResult> Scan = C.Dir->scan();
  if (!Scan)
    return fail("cannot scan '" + C.Dir->directory() + "': " + Scan.getError().message());
  std::vector<EntryInfo> Entries = std::move(Scan->entries);
  std::sort(Entries.begin(), Entries.end(), [](const EntryInfo &A, const EntryInfo &B) {
    return std::tie(B.lastUse, A.keyHex) < std::tie(A.lastUse, B.keyHex);
  });
  int64_t Now = fileutil::nowSeconds();
  std::optional<llvm::json::OStream> J;
  if (Args.Json) {
    J.emplace(llvm::outs(), 2);
    J->arrayBegin();
  } else if (!Entries.empty()) {
    llvm::outs() << llvm::left_justify("KEY", 72) << "  " << llvm::right_justify("SIZE", 10) << "  "
                 << llvm::left_justify("KIND", 10) << "  LAST USE\n";
  }
  for (const EntryInfo &E : Entries) {
    std::optional<CacheKey> Key = CacheKey::parse(E.keyHex);
    EntryReadResult R = readEntryFile(E.path, &*Key, ReadMode::HeaderOnly);
    std::string Kind =
        R.status == ReadStatus::Ok ? payloadKindName(R.header->kind) : std::string("corrupt");
    if (J) {
      J->object([&] {
        J->attribute("key", Key->str());
        J->attribute("size_bytes", int64_t(E.size));
        J->attribute("kind", Kind);
        J->attribute("last_use", E.lastUse);
        J->attribute("age_seconds", std::max<int64_t>(0, Now - E.lastUse));
        if (R.status == ReadStatus::Ok) {
          J->attribute("compile_time_ms", int64_t(R.header->compileTimeMs));
          J->attribute("created", int64_t(R.header->creationTime));
        } else {
          J->attribute("problem", R.detail);
        }
      });
      continue;
    }
    llvm::outs() << llvm::left_justify(Key->str(), 72) << "  "
                 << llvm::right_justify(formatSize(E.size), 10) << "  "
                 << llvm::left_justify(Kind, 10) << "  " << formatAge(Now - E.lastUse) << " ago\n";
  }
  if (J) {
    J->arrayEnd();
    llvm::outs() << "\n";
  }
  return ExitOk;
}

int runShow(Cache &C, const Arguments &Args) {
  std::optional<CacheKey> Key = CacheKey::parse(Args.Positional[0]);
  if (!Key)
    return invalidKey(Args.Positional[0]);
  std::string Path = C.Dir->entryPath(*Key);
  // As verify and a lookup read it: a fetched entry the remote would refuse
  // today is refused.
  EntryReadResult R = C.All->inventory()->checkEntry(*Key);
  if (R.status == ReadStatus::NotFound)
    return fail("no entry for key " + Key->str() + " in '" + C.Dir->directory() +
                    "' ('qshape-cache list' shows the keys)",
                ExitNegative);
  if (R.status == ReadStatus::IOError)
    return fail(R.detail);
  llvm::StringRef Status = R.status == ReadStatus::Ok        ? "ok"
                           : R.status == ReadStatus::Refused ? "refused"
                                                             : "corrupt";
  struct stat St;
  int64_t LastUse = ::lstat(Path.c_str(), &St) == 0 ? int64_t(St.st_mtime) : 0;
  const std::optional<EntryHeader> &H = R.header;
  if (Args.Json) {
    llvm::json::OStream J(llvm::outs(), 2);
    J.object([&] {
      J.attribute("key", Key->str());
      J.attribute("path", Path);
      J.attribute("status", Status);
      if (R.status != ReadStatus::Ok)
        J.attribute("problem", R.detail);
      J.attribute("file_size", int64_t(R.fileSize));
      J.attribute("last_use", LastUse);
      if (H) {
        J.attribute("format_version", int64_t(H->formatVersion));
        J.attribute("header_size", int64_t(H->headerSize));
        J.attribute("kind", payloadKindName(H->kind));
        J.attribute("payload_size", int64_t(H->payloadSize));
        J.attribute("payload_blake3", toHex(H->payloadHash));
        J.attribute("compile_time_ms", int64_t(H->compileTimeMs));
        J.attribute("created", int64_t(H->creationTime));
        J.attribute("producer", H->producer);
        J.attribute("origin", H->fetched() ? "remote" : "local");
        J.attribute("tagged", H->tagged());
        if (H->tagged())
          J.attribute("tag", toHex(H->tag));
      }
    });
    llvm::outs() << "\n";
  } else {
    auto Row = [](llvm::StringRef Name, const llvm::Twine &Value) {
      llvm::outs() << llvm::left_justify(Name, 17) << Value << "\n";
    };
    Row("Key:", Key->str());
    Row("Path:", Path);
    Row("Status:", R.status == ReadStatus::Ok ? llvm::Twine("ok") : Status + ": " + R.detail);
    Row("File size:", llvm::Twine(R.fileSize) + " bytes");
    Row("Last use:", formatTime(LastUse));
    if (H) {
      Row("Format version:", llvm::Twine(H->formatVersion));
      Row("Header size:", llvm::Twine(H->headerSize) + " bytes");
      Row("Payload kind:", payloadKindName(H->kind));
      Row("Payload size:", llvm::Twine(H->payloadSize) + " bytes");
      Row("Payload BLAKE3:", toHex(H->payloadHash));
      Row("Compile time:", llvm::Twine(H->compileTimeMs) + " ms");
      Row("Created:", formatTime(int64_t(H->creationTime)));
      Row("Producer:", H->producer);
      Row("Origin:", H->fetched() ? "fetched from a remote cache" : "made on this machine");
      Row("Tag:", H->tagged() ? "keyed BLAKE3 " + toHex(H->tag) : std::string("none"));
    }
  }
  return R.status == ReadStatus::Ok ? ExitOk : ExitNegative;
}

int runVerify(Cache &C, const Arguments &Args) {
  CacheInventory *Inventory = Args.Remote ? C.Remote->inventory() : C.All->inventory();
  std::vector<InventoryEntry> Entries;
  if (llvm::Error E =
          Inventory->listEntries([&](const InventoryEntry &Entry) { Entries.push_back(Entry); }))
    return fail(llvm::toString(std::move(E)));
  struct Bad {
    std::string Key, Problem;
    bool Removed = false;
    std::string RemoveError;
  };
  std::vector<Bad> BadEntries;
  uint64_t Ok = 0, IOErrors = 0;
  for (const InventoryEntry &E : Entries) {
    EntryReadResult R = Inventory->checkEntry(E.key);
    if (R.status == ReadStatus::Ok) {
      ++Ok;
      continue;
    }
    if (R.status == ReadStatus::NotFound) // removed meanwhile
      continue;
    Bad B;
    B.Key = E.key.str();
    B.Problem = R.status == ReadStatus::Refused ? "refused: " + R.detail : R.detail;
    if (R.status == ReadStatus::IOError)
      ++IOErrors;
    else if (Args.Fix) {
      std::error_code EC = Inventory->removeEntry(E.key);
      B.Removed = !EC;
      if (EC)
        B.RemoveError = EC.message();
    }
    BadEntries.push_back(std::move(B));
  }
  uint64_t Remaining = llvm::count_if(BadEntries, [](const Bad &B) { return !B.Removed; });
  if (Args.Json) {
    llvm::json::OStream J(llvm::outs(), 2);
    J.object([&] {
      J.attribute("checked", int64_t(Ok + BadEntries.size()));
      J.attribute("ok", int64_t(Ok));
      J.attribute("bad", int64_t(BadEntries.size()));
      J.attribute("removed", int64_t(BadEntries.size() - Remaining));
      J.attributeArray("bad_entries", [&] {
        for (const Bad &B : BadEntries)
          J.object([&] {
            J.attribute("key", B.Key);
            J.attribute("problem", B.Problem);
            J.attribute("removed", B.Removed);
          });
      });
    });
    llvm::outs() << "\n";
  } else {
    for (const Bad &B : BadEntries) {
      llvm::outs() << "bad entry " << B.Key << ": " << B.Problem;
      if (B.Removed)
        llvm::outs() << " (removed)";
      else if (!B.RemoveError.empty())
        llvm::outs() << " (cannot remove: " << B.RemoveError << ")";
      llvm::outs() << "\n";
    }
    llvm::outs() << "verified "
                 << count(Ok + BadEntries.size(), Args.Remote ? "remote entry" : "entry",
                          Args.Remote ? "remote entries" : "entries")
                 << ": " << Ok << " ok, " << BadEntries.size() << " bad";
    if (Args.Fix)
      llvm::outs() << ", " << BadEntries.size() - Remaining << " removed";
    llvm::outs() << "\n";
  }
  if (Remaining == 0)
    return ExitOk;
  llvm::errs() << "qshape-cache: error: "
               << count(Remaining, "bad entry remains", "bad entries remain") << "; "
               << (Args.Fix ? Args.Remote
                                  ? "check that the server lets this user "
                                    "DEL keys"
                                  : "check the permissions of '" + C.Dir->directory().str() + "'"
                            : std::string("run 'qshape-cache verify --purge") +
                                  (Args.Remote ? " --remote" : "") + "' to remove them")
               << (IOErrors ? " (some could not be read)" : "") << "\n";
  return ExitNegative;
}

int reportCleanup(const CleanupResult &R, const Arguments &Args, const Cache &C) {
  switch (R.result) {
  case CleanupResult::State::Busy:
    return fail("another cleanup holds '" + C.Dir->directory() +
                "/cleanup.lock'; try again later (a lock of a dead process "
                "or one not refreshed for 10 minutes is broken automatically)");
  case CleanupResult::State::Failed:
  case CleanupResult::State::Disabled:
    return fail(R.detail);
  case CleanupResult::State::Done:
    break;
  }
  if (Args.Json) {
    llvm::json::OStream J(llvm::outs(), 2);
    J.object([&] {
      J.attribute("removed_entries", int64_t(R.removed));
      J.attribute("removed_bytes", int64_t(R.removedBytes));
      J.attribute("removed_temp_files", int64_t(R.tempFilesRemoved));
      J.attribute("entries", int64_t(R.entriesAfter));
      J.attribute("size_bytes", int64_t(R.bytesAfter));
      J.attribute("broke_stale_lock", R.brokeStaleLock);
    });
    llvm::outs() << "\n";
  } else {
    if (R.brokeStaleLock)
      llvm::outs() << "broke a stale cleanup lock\n";
    llvm::outs() << "removed " << count(R.removed, "entry", "entries") << " ("
                 << formatSize(R.removedBytes) << ") and "
                 << count(R.tempFilesRemoved, "temp file", "temp files") << "; "
                 << count(R.entriesAfter, "entry", "entries") << " (" << formatSize(R.bytesAfter)
                 << ") remain\n";
  }
  return ExitOk;
}

int runPrune(Cache &C, const Arguments &Args) {
  return reportCleanup(C.Dir->prune(Args.MaxSize), Args, C);
}

int runClear(Cache &C, const Arguments &Args) { return reportCleanup(C.Dir->clear(), Args, C); }

int runPut(Cache &C, const Arguments &Args) {
  std::optional<CacheKey> Key = CacheKey::parse(Args.Positional[0]);
  if (!Key)
    return invalidKey(Args.Positional[0]);
  const std::string &File = Args.Positional[1];
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Input =
      llvm::MemoryBuffer::getFileOrSTDIN(File, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!Input)
    return fail("cannot read '" + File + "': " + Input.getError().message());
  PayloadKind Kind = Args.Kind.value_or(PayloadKind::Blob);
  StoreResult Stored = C.All->store(*Key, Kind, (*Input)->getBuffer(), Args.CompileMs.value_or(0));
  if (!Stored.stored())
    return fail(Stored.detail);
  llvm::outs() << "stored " << Key->str() << " (" << (*Input)->getBufferSize() << " bytes, "
               << payloadKindName(uint32_t(Kind)) << ")\n";
  return ExitOk;
}

int runGet(Cache &C, const Arguments &Args) {
  std::optional<CacheKey> Key = CacheKey::parse(Args.Positional[0]);
  if (!Key)
    return invalidKey(Args.Positional[0]);
  LookupResult R = C.All->lookup(*Key);
  switch (R.status) {
  case LookupStatus::Hit:
    break;
  case LookupStatus::Miss:
    return fail("miss: no entry for key " + Key->str(), ExitNegative);
  case LookupStatus::Corrupt:
    return fail("miss: the entry of " + Key->str() + " is corrupt (" + R.detail +
                    "); the next store replaces it, 'qshape-cache verify "
                    "--purge' removes it",
                ExitNegative);
  case LookupStatus::Refused:
    return fail("miss: " + R.detail, ExitNegative);
  case LookupStatus::IOError:
  case LookupStatus::Timeout:
  case LookupStatus::Disabled:
    if (C.Remote) // the directory missed; the remote could not answer
      return fail("miss: no usable entry for key " + Key->str() + " (" + R.detail + ")",
                  ExitNegative);
    return fail(R.detail);
  }
  llvm::StringRef Payload = R.entry->payload->getBuffer();
  if (!Args.Output || *Args.Output == "-") {
    llvm::outs() << Payload;
    llvm::outs().flush();
  } else {
    std::error_code EC;
    llvm::raw_fd_ostream OS(*Args.Output, EC);
    if (EC)
      return fail("cannot write '" + *Args.Output + "': " + EC.message());
    OS << Payload;
    OS.close();
    if (OS.has_error())
      return fail("cannot write '" + *Args.Output + "': " + OS.error().message());
  }
  return ExitOk;
}

//===----------------------------------------------------------------------===//
// Argument parsing
//===----------------------------------------------------------------------===//

struct CommandInfo {
  const char *Name;
  size_t Arity;
  const char *Usage;
  int (*Run)(Cache &, const Arguments &);
};
const CommandInfo Commands[] = {
    {"stats", 0, "stats", runStats},
    {"list", 0, "list [--remote]", runList},
    {"show", 1, "show KEY", runShow},
    {"verify", 0, "verify [--purge] [--remote]", runVerify},
    {"prune", 0, "prune [--max-size N]", runPrune},
    {"clear", 0, "clear", runClear},
    {"put", 2, "put KEY FILE", runPut},
    {"get", 1, "get KEY [-o FILE]", runGet},
};

/// Returns an exit code if parsing ended the program (help or error).
std::optional<int> parseArguments(int Argc, char **Argv, Arguments &Args) {
  std::vector<llvm::StringRef> Words(Argv + 1, Argv + Argc);
  // "--name=value" or "--name value".
  auto TakeValue = [&](size_t &I, std::string &Value) -> bool {
    auto [Name, Inline] = Words[I].split('=');
    if (Name.size() != Words[I].size()) {
      Value = Inline.str();
      return true;
    }
    if (I + 1 >= Words.size())
      return false;
    Value = Words[++I].str();
    return true;
  };
  bool OnlyPositional = false;
  for (size_t I = 0; I < Words.size(); ++I) {
    llvm::StringRef Word = Words[I];
    if (OnlyPositional || !Word.starts_with("-") || Word == "-") {
      if (Args.Command.empty())
        Args.Command = Word.str();
      else
        Args.Positional.push_back(Word.str());
      continue;
    }
    if (Word == "--") {
      OnlyPositional = true;
      continue;
    }
    if (Word == "-h" || Word == "--help") {
      llvm::outs() << HelpText;
      return ExitOk;
    }
    if (Word == "--json") {
      Args.Json = true;
      continue;
    }
    if (Word == "--purge" || Word == "--fix") {
      Args.Fix = true;
      continue;
    }
    if (Word == "--remote") {
      Args.Remote = true;
      continue;
    }
    llvm::StringRef Name = Word.split('=').first;
    std::string Value;
    if (Name == "-o")
      Name = "--output";
    if (!llvm::is_contained(
            {"--dir", "--max-size", "--kind", "--compile-ms", "--output", "--remote-url"}, Name))
      return usageError("unknown option '" + Word + "'");
    if (!TakeValue(I, Value))
      return usageError("option '" + Name + "' needs a value");
    if (Name == "--dir") {
      Args.Dir = Value;
    } else if (Name == "--remote-url") {
      Args.RemoteUrl = Value.empty() ? "off" : Value;
    } else if (Name == "--max-size") {
      Args.MaxSize = parseSize(Value);
      if (!Args.MaxSize || *Args.MaxSize == 0)
        return usageError("invalid size '" + Value + "': use bytes or K, M, G, T, e.g. 500M or 2G");
    } else if (Name == "--kind") {
      Args.Kind = parsePayloadKind(Value);
      if (!Args.Kind)
        return usageError("unknown payload kind '" + Value +
                          "'; use one of: " + payloadKindNames());
    } else if (Name == "--compile-ms") {
      uint64_t Ms;
      if (llvm::StringRef(Value).getAsInteger(10, Ms))
        return usageError("invalid --compile-ms '" + Value +
                          "': use a whole number of milliseconds");
      Args.CompileMs = Ms;
    } else {
      Args.Output = Value;
    }
  }
  if (Args.Command.empty())
    return usageError("no command given");

  for (const CommandInfo &C : Commands)
    if (Args.Command == C.Name)
      Args.Info = &C;
  const CommandInfo *Info = Args.Info;
  if (!Info)
    return usageError("unknown command '" + Args.Command + "'");
  if (Args.Positional.size() != Info->Arity)
    return usageError(llvm::Twine("usage: qshape-cache ") + Info->Usage);
  if (Args.Fix && Args.Command != "verify")
    return usageError("--purge only applies to 'verify'");
  if (Args.Remote && Args.Command != "verify" && Args.Command != "list")
    return usageError("--remote only applies to 'list' and 'verify' (the "
                      "other commands use the directory and the remote "
                      "together)");
  if ((Args.Kind || Args.CompileMs) && Args.Command != "put")
    return usageError("--kind and --compile-ms only apply to 'put'");
  if (Args.Output && Args.Command != "get")
    return usageError("--output only applies to 'get'");
  return std::nullopt;
}

} // namespace

int main(int Argc, char **Argv) {
  Arguments Args;
  if (std::optional<int> Exit = parseArguments(Argc, Argv, Args))
    return *Exit;

  setWarningHandler([](llvm::StringRef Message) { PendingWarnings.push_back(Message.str()); });

  CacheConfig Config;
  Config.local.directory = Args.Dir;
  if (Args.MaxSize)
    Config.local.maxSizeBytes = *Args.MaxSize;
  Config.remote = Args.RemoteUrl;
  // A bad URL is an error here (a compilation would warn and go on).
  std::string Url = Args.RemoteUrl;
  if (Url.empty())
    if (const char *Env = std::getenv("QSHAPE_CACHE_REMOTE"))
      Url = Env;
  Url = llvm::StringRef(Url).trim().str();
  if (!Url.empty() && Url != "off") {
    llvm::Expected<RemoteOptions> Remote = RemoteOptions::parse(Url);
    if (!Remote)
      return fail((Args.RemoteUrl.empty() ? "QSHAPE_CACHE_REMOTE: " : "--remote-url: ") +
                  llvm::toString(Remote.takeError()));
    if (!haveRedisSupport())
      return fail("'" + Remote->describe() +
                  "': this qshape-cache was built without Redis support");
  }

  Cache C;
  C.All = openCache(Config);
  C.Dir = C.All->maintenance();
  C.Remote = C.All->remoteLevel();
  CacheBackend *L1 = C.All->localLevel() ? C.All->localLevel() : C.All.get();
  if (!C.Dir || !L1->isEnabled())
    return fail(L1->disabledReason());
  if (Args.Remote && !C.Remote)
    return usageError("--remote: no remote cache is configured; set "
                      "QSHAPE_CACHE_REMOTE or --remote-url");

  int Exit = Args.Info->Run(C, Args);
  flushWarnings();
  return Exit;
}
