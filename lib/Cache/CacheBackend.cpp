//===- CacheBackend.cpp - Opening cache levels, and what they share -------===//

#include "qshape/Cache/CacheBackend.h"

#include "Backends.h"

#include "qshape/Cache/Diagnostics.h"
#include "qshape/Cache/DirectoryCache.h"
#include "qshape/Cache/FileUtil.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
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

StoreResult CacheBackend::store(const CacheKey &Key, PayloadKind Kind,
                                llvm::StringRef Payload,
                                uint64_t CompileTimeMs) {
  return storeEntry(
      makeEntryHeader(Key, Kind, Payload, CompileTimeMs, tagKey()), Payload);
}

LookupResult CacheBackend::lookupToFile(const CacheKey &Key,
                                        llvm::StringRef Path, unsigned Mode) {
  LookupResult R = lookup(Key);
  if (!R.hit())
    return R;
  static std::atomic<uint64_t> Counter{0};
  std::string Temp =
      (Path + ".tmp-" + llvm::Twine(::getpid()) + "-" + llvm::Twine(++Counter))
          .str();
  auto Fail = [&](llvm::StringRef What, std::error_code EC) {
    ::unlink(Temp.c_str());
    R.Status = LookupStatus::IOError;
    R.Detail = ("cannot write the cached payload of " + Key.str() + " to '" +
                Path + "': " + What + ": " + fileutil::describe(EC))
                   .str();
    R.Entry.reset();
    R.Level = CacheLevel::None;
    return std::move(R);
  };
  {
    UniqueFD FD =
        openFile(Temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode_t(Mode));
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

KeyLockResult CacheBackend::lockKey(const CacheKey &,
                                    std::chrono::milliseconds) {
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

llvm::ErrorOr<CacheStats> CacheBackend::persistentStats() const {
  return processStats();
}

std::vector<std::pair<std::string, std::string>> CacheBackend::status() {
  return {};
}

//===----------------------------------------------------------------------===//
// Sizes and durations
//===----------------------------------------------------------------------===//

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
    if (Number.getAsInteger(10, Value) ||
        (Shift && Value > (UINT64_MAX >> Shift)))
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

std::optional<uint64_t> qshape::cache::parseDurationMs(llvm::StringRef Text,
                                                       uint64_t BareUnitMs) {
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

//===----------------------------------------------------------------------===//
// RemoteOptions
//===----------------------------------------------------------------------===//

namespace {
llvm::Error configError(const llvm::Twine &Message) {
  return llvm::createStringError(std::errc::invalid_argument,
                                 Message.str().c_str());
}

/// %XX escapes of a URL's user and password.
std::optional<std::string> percentDecode(llvm::StringRef Text) {
  std::string Out;
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] != '%') {
      Out += Text[I];
      continue;
    }
    unsigned Byte;
    if (I + 2 >= Text.size() || Text.substr(I + 1, 2).getAsInteger(16, Byte))
      return std::nullopt;
    Out += char(Byte);
    I += 2;
  }
  return Out;
}

/// The first line of a secret file, without its line end.
llvm::Expected<std::string> readSecretFile(llvm::StringRef Path,
                                           llvm::StringRef What) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> File =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!File)
    return configError("cannot read the " + What + " file '" + Path +
                       "': " + File.getError().message());
  llvm::StringRef Text = (*File)->getBuffer();
  Text = Text.take_until([](char C) { return C == '\n' || C == '\r'; });
  if (Text.empty())
    return configError("the " + What + " file '" + Path + "' is empty");
  return Text.str();
}

std::string formatDuration(uint64_t Ms) {
  if (Ms % (24 * 3600 * 1000) == 0)
    return std::to_string(Ms / (24 * 3600 * 1000)) + "d";
  if (Ms % (3600 * 1000) == 0)
    return std::to_string(Ms / (3600 * 1000)) + "h";
  if (Ms % (60 * 1000) == 0)
    return std::to_string(Ms / (60 * 1000)) + "m";
  if (Ms % 1000 == 0)
    return std::to_string(Ms / 1000) + "s";
  return std::to_string(Ms) + "ms";
}

const char *const RemoteSyntax =
    "redis://[USER[:PASSWORD]@]HOST[:PORT][/DB][?ATTRIBUTES]";
} // namespace

llvm::Expected<RemoteOptions> RemoteOptions::parse(llvm::StringRef Url) {
  RemoteOptions O;
  llvm::StringRef Rest = Url.trim();
  if (Rest.consume_front("rediss://"))
    return configError(
        "'" + Url +
        "': TLS (rediss://) is not supported by this build (Debian's hiredis "
        "0.14 has no TLS); reach the server through a TLS tunnel (stunnel, "
        "ssh -L) and use redis://");
  if (!Rest.consume_front("redis://"))
    return configError("'" + Url + "' is not a remote cache URL; use " +
                       RemoteSyntax);
  // redis://AUTHORITY[/DB][?ATTRIBUTES]
  size_t Sep = Rest.find_first_of("/?");
  llvm::StringRef Authority = Rest.take_front(Sep);
  llvm::StringRef Tail =
      Sep == llvm::StringRef::npos ? llvm::StringRef() : Rest.drop_front(Sep);
  llvm::StringRef PathPart, Query;
  if (Tail.consume_front("/"))
    std::tie(PathPart, Query) = Tail.split('?');
  else if (Tail.consume_front("?"))
    Query = Tail;

  if (size_t At = Authority.rfind('@'); At != llvm::StringRef::npos) {
    llvm::StringRef UserInfo = Authority.take_front(At);
    Authority = Authority.drop_front(At + 1);
    auto [User, Password] = UserInfo.split(':');
    std::optional<std::string> U = percentDecode(User);
    std::optional<std::string> P = percentDecode(Password);
    if (!U || !P)
      return configError("'" + Url + "': bad %-escape in the user or password");
    O.User = *U;
    O.Password = *P;
  }
  llvm::StringRef Host = Authority, PortText;
  if (Host.consume_front("[")) { // [IPv6]:port
    size_t Close = Host.find(']');
    if (Close == llvm::StringRef::npos)
      return configError("'" + Url + "': unterminated '[' in the host");
    PortText = Host.drop_front(Close + 1);
    Host = Host.take_front(Close);
    if (!PortText.empty() && !PortText.consume_front(":"))
      return configError("'" + Url + "': expected ':PORT' after ']'");
  } else if (size_t Colon = Host.rfind(':'); Colon != llvm::StringRef::npos) {
    PortText = Host.drop_front(Colon + 1);
    Host = Host.take_front(Colon);
  }
  if (Host.empty())
    return configError("'" + Url + "' names no host; use " + RemoteSyntax);
  O.Host = Host.str();
  if (!PortText.empty()) {
    unsigned Port;
    if (PortText.getAsInteger(10, Port) || Port == 0 || Port > 65535)
      return configError("'" + Url + "': port '" + PortText +
                         "' is not a number in 1..65535");
    O.Port = Port;
  }
  if (!PathPart.empty()) {
    unsigned Db;
    if (PathPart.getAsInteger(10, Db))
      return configError("'" + Url + "': database '" + PathPart +
                         "' is not a number (redis://HOST:PORT/DB)");
    O.Database = Db;
  }

  std::string PasswordFile;
  llvm::SmallVector<llvm::StringRef, 8> Attributes;
  Query.split(Attributes, '&', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef Attribute : Attributes) {
    auto [Name, Value] = Attribute.split('=');
    bool HasValue = Attribute.contains('=');
    llvm::StringRef AttrName = Name, AttrValue = Value;
    auto Bad = [&](llvm::StringRef Expect) {
      return configError("'" + Url + "': " + AttrName + "='" + AttrValue +
                         "' is not " + Expect);
    };
    auto Duration = [&](uint64_t BareUnitMs,
                        uint64_t &OutMs) -> std::optional<llvm::Error> {
      std::optional<uint64_t> Ms = parseDurationMs(AttrValue, BareUnitMs);
      if (!HasValue || !Ms)
        return Bad("a duration like 250ms, 3s, 5m, 2h or 7d");
      OutMs = *Ms;
      return std::nullopt;
    };
    uint64_t Ms = 0;
    if (Name == "prefix") {
      if (!HasValue || Value.empty() ||
          Value.find_first_of(" \t\r\n*?[]") != llvm::StringRef::npos)
        return Bad("a key prefix (letters, digits, ':', '-', '_', '.')");
      O.Prefix = Value.str();
    } else if (Name == "read-only") {
      if (HasValue && Value != "true" && Value != "1" && Value != "false" &&
          Value != "0")
        return Bad("true or false");
      O.ReadOnly = !HasValue || Value == "true" || Value == "1";
    } else if (Name == "ttl") {
      if (std::optional<llvm::Error> E = Duration(1000, Ms))
        return std::move(*E);
      O.TtlSeconds = (Ms + 999) / 1000;
    } else if (Name == "connect-timeout") {
      if (std::optional<llvm::Error> E = Duration(1, Ms))
        return std::move(*E);
      if (Ms == 0 || Ms > 600000)
        return Bad("a duration between 1ms and 10m");
      O.ConnectTimeoutMs = unsigned(Ms);
    } else if (Name == "timeout") {
      if (std::optional<llvm::Error> E = Duration(1, Ms))
        return std::move(*E);
      if (Ms == 0 || Ms > 3600000)
        return Bad("a duration between 1ms and 1h");
      O.OperationTimeoutMs = unsigned(Ms);
    } else if (Name == "retry-after") {
      if (Value == "never") {
        O.RetryAfterSeconds = std::nullopt;
        continue;
      }
      if (std::optional<llvm::Error> E = Duration(1000, Ms))
        return std::move(*E);
      O.RetryAfterSeconds = unsigned(Ms / 1000);
    } else if (Name == "max-entry-size") {
      std::optional<uint64_t> Size = parseSize(Value);
      // proto-max-bulk-len cannot exceed 512 MiB unless raised; stay below.
      if (!HasValue || !Size || *Size == 0 || *Size > (uint64_t(512) << 20))
        return Bad("a size between 1 and 512M");
      O.MaxEntryBytes = *Size;
    } else if (Name == "password-file") {
      if (!HasValue || Value.empty())
        return Bad("a file name");
      PasswordFile = Value.str();
    } else {
      return configError(
          "'" + Url + "': unknown attribute '" + Name +
          "'; known: prefix, read-only, ttl, connect-timeout, timeout, "
          "retry-after, max-entry-size, password-file");
    }
  }

  if (PasswordFile.empty())
    if (const char *Env = std::getenv("QSHAPE_CACHE_REMOTE_PASSWORD_FILE");
        Env && *Env && O.Password.empty())
      PasswordFile = Env;
  if (!PasswordFile.empty()) {
    if (!O.Password.empty())
      return configError("'" + Url +
                         "' has a password and a password file; give one");
    llvm::Expected<std::string> Password =
        readSecretFile(PasswordFile, "password");
    if (!Password)
      return Password.takeError();
    O.Password = std::move(*Password);
  }

  llvm::Expected<std::optional<EntryTagKey>> Key = teamKeyFromEnvironment();
  if (!Key)
    return Key.takeError();
  O.TagKey = std::move(*Key);
  return O;
}

llvm::Expected<std::optional<EntryTagKey>> qshape::cache::teamKeyFromEnvironment() {
  const char *KeyEnv = std::getenv("QSHAPE_CACHE_REMOTE_KEY");
  const char *KeyFileEnv = std::getenv("QSHAPE_CACHE_REMOTE_KEY_FILE");
  std::string Secret;
  if (KeyEnv && *KeyEnv && KeyFileEnv && *KeyFileEnv)
    return configError("both QSHAPE_CACHE_REMOTE_KEY and "
                       "QSHAPE_CACHE_REMOTE_KEY_FILE are set; set one");
  if (KeyEnv && *KeyEnv)
    Secret = KeyEnv;
  if (KeyFileEnv && *KeyFileEnv) {
    llvm::Expected<std::string> FromFile =
        readSecretFile(KeyFileEnv, "QSHAPE_CACHE_REMOTE_KEY_FILE");
    if (!FromFile)
      return FromFile.takeError();
    Secret = std::move(*FromFile);
  }
  if (Secret.empty())
    return std::nullopt;
  std::optional<EntryTagKey> Key = EntryTagKey::fromSecret(Secret);
  if (!Key)
    return configError("the team key (QSHAPE_CACHE_REMOTE_KEY) has " +
                       llvm::Twine(Secret.size()) + " characters; use at least " +
                       llvm::Twine(EntryTagKey::MinSecretLength) +
                       ", e.g. from `head -c 32 /dev/urandom | base64`");
  return Key;
}

FetchedEntryPolicy qshape::cache::fetchedPolicyFromEnvironment() {
  FetchedEntryPolicy Policy;
  llvm::Expected<std::optional<EntryTagKey>> Key = teamKeyFromEnvironment();
  if (!Key) {
    // A key that cannot be read trusts nothing fetched (openCache reports it).
    llvm::consumeError(Key.takeError());
    return Policy;
  }
  Policy.TagKey = std::move(*Key);
  Policy.TrustUntagged = !Policy.TagKey && insecureRemoteAllowed();
  return Policy;
}

std::string RemoteOptions::describe() const {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << Scheme << "://";
  if (!User.empty())
    OS << User << "@";
  if (llvm::StringRef(Host).contains(':'))
    OS << "[" << Host << "]";
  else
    OS << Host;
  OS << ":" << Port << "/" << Database;
  RemoteOptions Defaults;
  llvm::SmallVector<std::string, 8> Attributes;
  if (Prefix != Defaults.Prefix)
    Attributes.push_back("prefix=" + Prefix);
  if (ReadOnly)
    Attributes.push_back("read-only");
  if (TtlSeconds)
    Attributes.push_back("ttl=" + formatDuration(TtlSeconds * 1000));
  if (ConnectTimeoutMs != Defaults.ConnectTimeoutMs)
    Attributes.push_back("connect-timeout=" + formatDuration(ConnectTimeoutMs));
  if (OperationTimeoutMs != Defaults.OperationTimeoutMs)
    Attributes.push_back("timeout=" + formatDuration(OperationTimeoutMs));
  if (RetryAfterSeconds != Defaults.RetryAfterSeconds)
    Attributes.push_back(
        "retry-after=" +
        (RetryAfterSeconds ? formatDuration(uint64_t(*RetryAfterSeconds) * 1000)
                           : std::string("never")));
  if (MaxEntryBytes != Defaults.MaxEntryBytes)
    Attributes.push_back("max-entry-size=" + std::to_string(MaxEntryBytes));
  if (!Attributes.empty())
    OS << "?" << llvm::join(Attributes, "&");
  return Text;
}

//===----------------------------------------------------------------------===//
// Opening
//===----------------------------------------------------------------------===//

bool qshape::cache::haveRedisSupport() { return QSHAPE_HAVE_HIREDIS; }

llvm::Expected<std::unique_ptr<CacheBackend>> qshape::cache::openCacheBackend(
    llvm::StringRef Url, const DirectoryOptions &Local, CounterSink Sink) {
  llvm::StringRef Text = Url.trim();
  if (Text.consume_front("file:")) {
    // file:///abs/path and file:/abs/path both name /abs/path.
    if (Text.starts_with("//"))
      Text = Text.drop_front(2);
    DirectoryOptions Options = Local;
    Options.Directory = Text.str();
    return std::make_unique<DirectoryCache>(std::move(Options));
  }
  if (Text.starts_with("redis://") || Text.starts_with("rediss://")) {
    llvm::Expected<RemoteOptions> Options = RemoteOptions::parse(Text);
    if (!Options)
      return Options.takeError();
#if QSHAPE_HAVE_HIREDIS
    return createRedisCache(std::move(*Options), std::move(Sink));
#else
    return configError("'" + Options->describe() +
                       "': this qshape was built without Redis support "
                       "(configure with libhiredis-dev installed)");
#endif
  }
  return configError("'" + Url + "' is not a cache URL; use file:DIR or " +
                     RemoteSyntax);
}

namespace {
/// The backends of openCache(), one per configuration and process. Leaked on
/// purpose: passes may run from static destructors' time in plugin hosts.
struct Registry {
  std::mutex Mutex;
  std::map<std::string, std::shared_ptr<CacheBackend>> Opened;
};
Registry &registry() {
  static Registry *R = new Registry();
  return *R;
}

std::string absoluteDirectory(llvm::StringRef Dir) {
  llvm::SmallString<256> Path(Dir.empty() ? defaultCacheDirectory() : Dir);
  if (!Path.empty() && !llvm::sys::fs::make_absolute(Path))
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

/// What distinguishes two configurations, secrets included (as a digest:
/// the string stays in memory only).
std::string registryKey(const CacheConfig &Config,
                        const std::optional<RemoteOptions> &Remote) {
  std::string Key = absoluteDirectory(Config.Local.Directory) + "\n" +
                    std::to_string(Config.Local.MaxSizeBytes) +
                    (Config.Local.DeferLookupStats ? " deferred-stats" : "");
  // Which fetched entries the directory serves (the key and mode of now).
  FetchedEntryPolicy Fetched =
      Config.Local.Fetched ? *Config.Local.Fetched : fetchedPolicyFromEnvironment();
  Key += Fetched.TrustUntagged ? " trust-fetched" : "";
  if (Fetched.TagKey) {
    CacheKey::Digest Probe = Fetched.TagKey->tagOf(EntryHeader());
    Key += " fetched-key " + toHex(llvm::BLAKE3::hash<CacheKey::NumBytes>(Probe));
  }
  if (Remote) {
    llvm::BLAKE3 Secrets;
    Secrets.update(Remote->Password);
    if (Remote->TagKey) {
      CacheKey::Digest Probe = Remote->TagKey->tagOf(EntryHeader());
      Secrets.update(llvm::ArrayRef<uint8_t>(Probe));
    }
    Key += "\n" + Remote->describe() + "\n" +
           toHex(Secrets.final<CacheKey::NumBytes>());
  }
  return Key;
}
} // namespace

bool qshape::cache::insecureRemoteAllowed() {
  const char *Env = std::getenv("QSHAPE_CACHE_REMOTE_INSECURE");
  return Env && llvm::StringRef(Env) == "1";
}

std::shared_ptr<CacheBackend>
qshape::cache::openCache(const CacheConfig &Config, std::string *RemoteError) {
  std::string Url = Config.Remote;
  bool FromEnvironment = Url.empty();
  if (FromEnvironment)
    if (const char *Env = std::getenv("QSHAPE_CACHE_REMOTE"))
      Url = Env;
  Url = llvm::StringRef(Url).trim().str();
  std::optional<RemoteOptions> Remote;
  if (!Url.empty() && Url != "off") {
    llvm::Expected<RemoteOptions> Parsed = RemoteOptions::parse(Url);
    if (Parsed && !Parsed->TagKey && !insecureRemoteAllowed()) {
      // Its entries are code that runs here (and programs that compile to
      // it): without a team key, whoever can write to the server chooses it.
      std::string Message =
          "'" + Parsed->describe() +
          "' has no team key, so it is not used: its entries are code that "
          "runs here, and without a key anyone who can write to the server "
          "chooses that code. Set QSHAPE_CACHE_REMOTE_KEY (or _KEY_FILE) to "
          "the team's key, or QSHAPE_CACHE_REMOTE_INSECURE=1 to trust every "
          "writer; using the local cache only";
      if (RemoteError)
        *RemoteError = Message;
      reportProblem((FromEnvironment ? "QSHAPE_CACHE_REMOTE: " : "remote: ") + Message,
                    ProblemSource::Remote);
    } else if (Parsed) {
      Remote = std::move(*Parsed);
    } else {
      std::string Message = llvm::toString(Parsed.takeError());
      if (RemoteError)
        *RemoteError = Message;
      reportProblem((FromEnvironment ? "QSHAPE_CACHE_REMOTE: " : "remote: ") +
                        Message + "; using the local cache only",
                    ProblemSource::Remote);
    }
  }

  Registry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Mutex);
  std::string Key = registryKey(Config, Remote);
  if (auto It = R.Opened.find(Key); It != R.Opened.end())
    return It->second;

  auto L1 = std::make_unique<DirectoryCache>(Config.Local);
  std::shared_ptr<CacheBackend> Opened;
  if (!Remote) {
    Opened = std::move(L1);
  } else {
#if QSHAPE_HAVE_HIREDIS
    DirectoryCache *Sink = L1.get();
    std::unique_ptr<CacheBackend> L2 =
        createRedisCache(std::move(*Remote), [Sink](const CacheStats &Delta) {
          Sink->recordCounters(Delta);
        });
    Opened = makeLayeredCache(std::move(L1), std::move(L2));
#else
    std::string Message = "'" + Remote->describe() +
                          "': this qshape was built without Redis support";
    if (RemoteError)
      *RemoteError = Message;
    reportProblem(Message + "; using the local cache only",
                  ProblemSource::Remote);
    Opened = std::move(L1);
#endif
  }
  R.Opened[Key] = Opened;
  return Opened;
}
