//===- RemoteOptions.cpp - A remote cache's URL, secrets and team key -----===//
//
// RemoteOptions::parse (the URL and its attributes, the password file),
// the team key of the environment, and what it makes of fetched entries.
//
//===----------------------------------------------------------------------===//

#include "qshape/Cache/CacheBackend.h"

#include "Backends.h"

#include "qshape/Cache/FileUtil.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace qshape::cache;
using namespace qshape::cache::fileutil;

//===----------------------------------------------------------------------===//
// RemoteOptions
//===----------------------------------------------------------------------===//

llvm::Error qshape::cache::configError(const llvm::Twine &Message) {
  return llvm::createStringError(std::errc::invalid_argument, Message.str().c_str());
}

namespace {
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
llvm::Expected<std::string> readSecretFile(llvm::StringRef Path, llvm::StringRef What) {
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

} // namespace

const char *const qshape::cache::RemoteSyntax =
    "redis://[USER[:PASSWORD]@]HOST[:PORT][/DB][?ATTRIBUTES]";

namespace {
/// [USER[:PASSWORD]@]HOST[:PORT] of `Url` into `O`.
llvm::Error parseAuthority(llvm::StringRef Url, llvm::StringRef Authority, RemoteOptions &O) {
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
      return configError("'" + Url + "': port '" + PortText + "' is not a number in 1..65535");
    O.Port = Port;
  }
  return llvm::Error::success();
}

/// One NAME[=VALUE] of `Url`'s attributes into `O`; password-file's value
/// into `PasswordFile`.
llvm::Error parseAttribute(llvm::StringRef Url, llvm::StringRef Attribute, RemoteOptions &O,
                           std::string &PasswordFile) {
  auto [Name, Value] = Attribute.split('=');
  bool HasValue = Attribute.contains('=');
  llvm::StringRef AttrName = Name, AttrValue = Value;
  auto Bad = [&](llvm::StringRef Expect) {
    return configError("'" + Url + "': " + AttrName + "='" + AttrValue + "' is not " + Expect);
  };
  auto Duration = [&](uint64_t BareUnitMs, uint64_t &OutMs) -> std::optional<llvm::Error> {
    std::optional<uint64_t> Ms = parseDurationMs(AttrValue, BareUnitMs);
    if (!HasValue || !Ms)
      return Bad("a duration like 250ms, 3s, 5m, 2h or 7d");
    OutMs = *Ms;
    return std::nullopt;
  };
  uint64_t Ms = 0;
  if (Name == "prefix") {
    if (!HasValue || Value.empty() || Value.find_first_of(" \t\r\n*?[]") != llvm::StringRef::npos)
      return Bad("a key prefix (letters, digits, ':', '-', '_', '.')");
    O.Prefix = Value.str();
  } else if (Name == "read-only") {
    if (HasValue && Value != "true" && Value != "1" && Value != "false" && Value != "0")
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
      return llvm::Error::success();
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
    return configError("'" + Url + "': unknown attribute '" + Name +
                       "'; known: prefix, read-only, ttl, connect-timeout, timeout, "
                       "retry-after, max-entry-size, password-file");
  }
  return llvm::Error::success();
}

/// The password from the file the URL or QSHAPE_CACHE_REMOTE_PASSWORD_FILE
/// names, if any; never together with a password in the URL.
llvm::Error readPassword(llvm::StringRef Url, std::string PasswordFile, RemoteOptions &O) {
  if (PasswordFile.empty())
    if (const char *Env = std::getenv("QSHAPE_CACHE_REMOTE_PASSWORD_FILE");
        Env && *Env && O.Password.empty())
      PasswordFile = Env;
  if (!PasswordFile.empty()) {
    if (!O.Password.empty())
      return configError("'" + Url + "' has a password and a password file; give one");
    llvm::Expected<std::string> Password = readSecretFile(PasswordFile, "password");
    if (!Password)
      return Password.takeError();
    O.Password = std::move(*Password);
  }

  return llvm::Error::success();
}
} // namespace

llvm::Expected<RemoteOptions> RemoteOptions::parse(llvm::StringRef Url) {
  RemoteOptions O;
  llvm::StringRef Rest = Url.trim();
  if (Rest.consume_front("rediss://"))
    return configError("'" + Url +
                       "': TLS (rediss://) is not supported by this build (Debian's hiredis "
                       "0.14 has no TLS); reach the server through a TLS tunnel (stunnel, "
                       "ssh -L) and use redis://");
  if (!Rest.consume_front("redis://"))
    return configError("'" + Url + "' is not a remote cache URL; use " + RemoteSyntax);
  // redis://AUTHORITY[/DB][?ATTRIBUTES]
  size_t Sep = Rest.find_first_of("/?");
  llvm::StringRef Authority = Rest.take_front(Sep);
  llvm::StringRef Tail = Sep == llvm::StringRef::npos ? llvm::StringRef() : Rest.drop_front(Sep);
  llvm::StringRef PathPart, Query;
  if (Tail.consume_front("/"))
    std::tie(PathPart, Query) = Tail.split('?');
  else if (Tail.consume_front("?"))
    Query = Tail;

  if (llvm::Error E = parseAuthority(Url, Authority, O))
    return std::move(E);
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
  for (llvm::StringRef Attribute : Attributes)
    if (llvm::Error E = parseAttribute(Url, Attribute, O, PasswordFile))
      return std::move(E);
  if (llvm::Error E = readPassword(Url, std::move(PasswordFile), O))
    return std::move(E);
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
    return configError("the team key (QSHAPE_CACHE_REMOTE_KEY) has " + llvm::Twine(Secret.size()) +
                       " characters; use at least " + llvm::Twine(EntryTagKey::MinSecretLength) +
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
    Attributes.push_back("retry-after=" + (RetryAfterSeconds
                                               ? formatDuration(uint64_t(*RetryAfterSeconds) * 1000)
                                               : std::string("never")));
  if (MaxEntryBytes != Defaults.MaxEntryBytes)
    Attributes.push_back("max-entry-size=" + std::to_string(MaxEntryBytes));
  if (!Attributes.empty())
    OS << "?" << llvm::join(Attributes, "&");
  return Text;
}

bool qshape::cache::insecureRemoteAllowed() {
  const char *Env = std::getenv("QSHAPE_CACHE_REMOTE_INSECURE");
  return Env && llvm::StringRef(Env) == "1";
}
