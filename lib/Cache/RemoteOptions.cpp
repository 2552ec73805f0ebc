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

llvm::Error qshape::cache::configError(const llvm::Twine &message) {
  return llvm::createStringError(std::errc::invalid_argument, message.str().c_str());
}

namespace {
/// %XX escapes of a URL's user and password.
std::optional<std::string> percentDecode(llvm::StringRef text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    unsigned byte;
    if (i + 2 >= text.size() || text.substr(i + 1, 2).getAsInteger(16, byte))
      return std::nullopt;
    out += static_cast<char>(byte);
    i += 2;
  }
  return out;
}

/// The first line of a secret file, without its line end.
llvm::Expected<std::string> readSecretFile(llvm::StringRef path, llvm::StringRef what) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return configError("cannot read the " + what + " file '" + path +
                       "': " + file.getError().message());
  llvm::StringRef text = (*file)->getBuffer();
  text = text.take_until([](char c) { return c == '\n' || c == '\r'; });
  if (text.empty())
    return configError("the " + what + " file '" + path + "' is empty");
  return text.str();
}

std::string formatDuration(uint64_t ms) {
  if (ms % kMsPerDay == 0)
    return std::to_string(ms / kMsPerDay) + "d";
  if (ms % kMsPerHour == 0)
    return std::to_string(ms / kMsPerHour) + "h";
  if (ms % kMsPerMinute == 0)
    return std::to_string(ms / kMsPerMinute) + "m";
  if (ms % kMsPerSecond == 0)
    return std::to_string(ms / kMsPerSecond) + "s";
  return std::to_string(ms) + "ms";
}

} // namespace

const char *const qshape::cache::kRemoteSyntax =
    "redis://[USER[:PASSWORD]@]HOST[:PORT][/DB][?ATTRIBUTES]";

namespace {
/// [USER[:PASSWORD]@]HOST[:PORT] of `url` into `o`.
llvm::Error parseAuthority(llvm::StringRef url, llvm::StringRef authority, RemoteOptions &o) {
  if (size_t at = authority.rfind('@'); at != llvm::StringRef::npos) {
    llvm::StringRef userInfo = authority.take_front(at);
    authority = authority.drop_front(at + 1);
    auto [user, password] = userInfo.split(':');
    std::optional<std::string> u = percentDecode(user);
    std::optional<std::string> p = percentDecode(password);
    if (!u || !p)
      return configError("'" + url + "': bad %-escape in the user or password");
    o.user = *u;
    o.password = *p;
  }
  llvm::StringRef host = authority, portText;
  if (host.consume_front("[")) { // [IPv6]:port
    size_t close = host.find(']');
    if (close == llvm::StringRef::npos)
      return configError("'" + url + "': unterminated '[' in the host");
    portText = host.drop_front(close + 1);
    host = host.take_front(close);
    if (!portText.empty() && !portText.consume_front(":"))
      return configError("'" + url + "': expected ':PORT' after ']'");
  } else if (size_t colon = host.rfind(':'); colon != llvm::StringRef::npos) {
    portText = host.drop_front(colon + 1);
    host = host.take_front(colon);
  }
  if (host.empty())
    return configError("'" + url + "' names no host; use " + kRemoteSyntax);
  o.host = host.str();
  if (!portText.empty()) {
    unsigned port;
    if (portText.getAsInteger(10, port) || port == 0 || port > 65535)
      return configError("'" + url + "': port '" + portText + "' is not a number in 1..65535");
    o.port = port;
  }
  return llvm::Error::success();
}

/// One NAME[=VALUE] of `url`'s attributes into `o`; password-file's value
/// into `passwordFile`.
llvm::Error parseAttribute(llvm::StringRef url, llvm::StringRef attribute, RemoteOptions &o,
                           std::string &passwordFile) {
  auto [name, value] = attribute.split('=');
  bool hasValue = attribute.contains('=');
  llvm::StringRef attrName = name, attrValue = value;
  auto bad = [&](llvm::StringRef expect) {
    return configError("'" + url + "': " + attrName + "='" + attrValue + "' is not " + expect);
  };
  auto duration = [&](uint64_t bareUnitMs, uint64_t &outMs) -> std::optional<llvm::Error> {
    std::optional<uint64_t> ms = parseDurationMs(attrValue, bareUnitMs);
    if (!hasValue || !ms)
      return bad("a duration like 250ms, 3s, 5m, 2h or 7d");
    outMs = *ms;
    return std::nullopt;
  };
  uint64_t ms = 0;
  if (name == "prefix") {
    if (!hasValue || value.empty() || value.find_first_of(" \t\r\n*?[]") != llvm::StringRef::npos)
      return bad("a key prefix (letters, digits, ':', '-', '_', '.')");
    o.prefix = value.str();
  } else if (name == "read-only") {
    if (hasValue && value != "true" && value != "1" && value != "false" && value != "0")
      return bad("true or false");
    o.readOnly = !hasValue || value == "true" || value == "1";
  } else if (name == "ttl") {
    if (std::optional<llvm::Error> e = duration(1000, ms))
      return std::move(*e);
    o.ttlSeconds = (ms + 999) / 1000;
  } else if (name == "connect-timeout") {
    if (std::optional<llvm::Error> e = duration(1, ms))
      return std::move(*e);
    if (ms == 0 || ms > 600000)
      return bad("a duration between 1ms and 10m");
    o.connectTimeoutMs = static_cast<unsigned>(ms);
  } else if (name == "timeout") {
    if (std::optional<llvm::Error> e = duration(1, ms))
      return std::move(*e);
    if (ms == 0 || ms > 3600000)
      return bad("a duration between 1ms and 1h");
    o.operationTimeoutMs = static_cast<unsigned>(ms);
  } else if (name == "retry-after") {
    if (value == "never") {
      o.retryAfterSeconds = std::nullopt;
      return llvm::Error::success();
    }
    if (std::optional<llvm::Error> e = duration(1000, ms))
      return std::move(*e);
    o.retryAfterSeconds = static_cast<unsigned>(ms / 1000);
  } else if (name == "max-entry-size") {
    std::optional<uint64_t> size = parseSize(value);
    // proto-max-bulk-len cannot exceed 512 MiB unless raised; stay below.
    if (!hasValue || !size || *size == 0 || *size > (uint64_t{512} << 20))
      return bad("a size between 1 and 512M");
    o.maxEntryBytes = *size;
  } else if (name == "password-file") {
    if (!hasValue || value.empty())
      return bad("a file name");
    passwordFile = value.str();
  } else {
    return configError("'" + url + "': unknown attribute '" + name +
                       "'; known: prefix, read-only, ttl, connect-timeout, timeout, "
                       "retry-after, max-entry-size, password-file");
  }
  return llvm::Error::success();
}

/// The password from the file the URL or QSHAPE_CACHE_REMOTE_PASSWORD_FILE
/// names, if any; never together with a password in the URL.
llvm::Error readPassword(llvm::StringRef url, std::string passwordFile, RemoteOptions &o) {
  if (passwordFile.empty())
    if (const char *env = std::getenv("QSHAPE_CACHE_REMOTE_PASSWORD_FILE");
        env && *env && o.password.empty())
      passwordFile = env;
  if (!passwordFile.empty()) {
    if (!o.password.empty())
      return configError("'" + url + "' has a password and a password file; give one");
    llvm::Expected<std::string> password = readSecretFile(passwordFile, "password");
    if (!password)
      return password.takeError();
    o.password = std::move(*password);
  }

  return llvm::Error::success();
}
} // namespace

llvm::Expected<RemoteOptions> RemoteOptions::parse(llvm::StringRef url) {
  RemoteOptions o;
  llvm::StringRef rest = url.trim();
  if (rest.consume_front("rediss://"))
    return configError("'" + url +
                       "': TLS (rediss://) is not supported by this build (Debian's hiredis "
                       "0.14 has no TLS); reach the server through a TLS tunnel (stunnel, "
                       "ssh -L) and use redis://");
  if (!rest.consume_front("redis://"))
    return configError("'" + url + "' is not a remote cache URL; use " + kRemoteSyntax);
  // redis://AUTHORITY[/DB][?ATTRIBUTES]
  size_t sep = rest.find_first_of("/?");
  llvm::StringRef authority = rest.take_front(sep);
  llvm::StringRef tail = sep == llvm::StringRef::npos ? llvm::StringRef() : rest.drop_front(sep);
  llvm::StringRef pathPart, query;
  if (tail.consume_front("/"))
    std::tie(pathPart, query) = tail.split('?');
  else if (tail.consume_front("?"))
    query = tail;

  if (llvm::Error e = parseAuthority(url, authority, o))
    return std::move(e);
  if (!pathPart.empty()) {
    unsigned db;
    if (pathPart.getAsInteger(10, db))
      return configError("'" + url + "': database '" + pathPart +
                         "' is not a number (redis://HOST:PORT/DB)");
    o.database = db;
  }

  std::string passwordFile;
  llvm::SmallVector<llvm::StringRef, 8> attributes;
  query.split(attributes, '&', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef attribute : attributes)
    if (llvm::Error e = parseAttribute(url, attribute, o, passwordFile))
      return std::move(e);
  if (llvm::Error e = readPassword(url, std::move(passwordFile), o))
    return std::move(e);
  llvm::Expected<std::optional<EntryTagKey>> key = teamKeyFromEnvironment();
  if (!key)
    return key.takeError();
  o.tagKey = std::move(*key);
  return o;
}

llvm::Expected<std::optional<EntryTagKey>> qshape::cache::teamKeyFromEnvironment() {
  const char *keyEnv = std::getenv("QSHAPE_CACHE_REMOTE_KEY");
  const char *keyFileEnv = std::getenv("QSHAPE_CACHE_REMOTE_KEY_FILE");
  std::string secret;
  if (keyEnv && *keyEnv && keyFileEnv && *keyFileEnv)
    return configError("both QSHAPE_CACHE_REMOTE_KEY and "
                       "QSHAPE_CACHE_REMOTE_KEY_FILE are set; set one");
  if (keyEnv && *keyEnv)
    secret = keyEnv;
  if (keyFileEnv && *keyFileEnv) {
    llvm::Expected<std::string> fromFile =
        readSecretFile(keyFileEnv, "QSHAPE_CACHE_REMOTE_KEY_FILE");
    if (!fromFile)
      return fromFile.takeError();
    secret = std::move(*fromFile);
  }
  if (secret.empty())
    return std::nullopt;
  std::optional<EntryTagKey> key = EntryTagKey::fromSecret(secret);
  if (!key)
    return configError("the team key (QSHAPE_CACHE_REMOTE_KEY) has " + llvm::Twine(secret.size()) +
                       " characters; use at least " + llvm::Twine(EntryTagKey::kMinSecretLength) +
                       ", e.g. from `head -c 32 /dev/urandom | base64`");
  return key;
}

FetchedEntryPolicy qshape::cache::fetchedPolicyFromEnvironment() {
  FetchedEntryPolicy policy;
  llvm::Expected<std::optional<EntryTagKey>> key = teamKeyFromEnvironment();
  if (!key) {
    // A key that cannot be read trusts nothing fetched (openCache reports it).
    llvm::consumeError(key.takeError());
    return policy;
  }
  policy.tagKey = std::move(*key);
  policy.trustUntagged = !policy.tagKey && insecureRemoteAllowed();
  return policy;
}

std::string RemoteOptions::describe() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << scheme << "://";
  if (!user.empty())
    os << user << "@";
  if (llvm::StringRef(host).contains(':'))
    os << "[" << host << "]";
  else
    os << host;
  os << ":" << port << "/" << database;
  RemoteOptions defaults;
  llvm::SmallVector<std::string, 8> attributes;
  if (prefix != defaults.prefix)
    attributes.push_back("prefix=" + prefix);
  if (readOnly)
    attributes.push_back("read-only");
  if (ttlSeconds)
    attributes.push_back("ttl=" + formatDuration(ttlSeconds * 1000));
  if (connectTimeoutMs != defaults.connectTimeoutMs)
    attributes.push_back("connect-timeout=" + formatDuration(connectTimeoutMs));
  if (operationTimeoutMs != defaults.operationTimeoutMs)
    attributes.push_back("timeout=" + formatDuration(operationTimeoutMs));
  if (retryAfterSeconds != defaults.retryAfterSeconds)
    attributes.push_back("retry-after=" +
                         (retryAfterSeconds
                              ? formatDuration(static_cast<uint64_t>(*retryAfterSeconds) * 1000)
                              : std::string("never")));
  if (maxEntryBytes != defaults.maxEntryBytes)
    attributes.push_back("max-entry-size=" + std::to_string(maxEntryBytes));
  if (!attributes.empty())
    os << "?" << llvm::join(attributes, "&");
  return text;
}

bool qshape::cache::insecureRemoteAllowed() {
  const char *env = std::getenv("QSHAPE_CACHE_REMOTE_INSECURE");
  return env && llvm::StringRef(env) == "1";
}
