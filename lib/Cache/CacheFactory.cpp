//===- CacheFactory.cpp - Opening cache levels -----------------------------===//
//
// openCacheBackend() (one level from a URL) and openCache() (the directory,
// and the remote of $QSHAPE_CACHE_REMOTE behind it, once per configuration
// and process). The only place that constructs levels.
//
//===----------------------------------------------------------------------===//

#include "qshape/Cache/CacheBackend.h"

#include "Backends.h"

#include "qshape/Cache/Diagnostics.h"
#include "qshape/Cache/DirectoryCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <map>
#include <mutex>

using namespace qshape::cache;

//===----------------------------------------------------------------------===//
// Opening
//===----------------------------------------------------------------------===//

bool qshape::cache::haveRedisSupport() { return QSHAPE_HAVE_HIREDIS; }

llvm::Expected<std::unique_ptr<CacheBackend>>
qshape::cache::openCacheBackend(llvm::StringRef url, const DirectoryOptions &local,
                                CounterSink sink) {
  llvm::StringRef text = url.trim();
  if (text.consume_front("file:")) {
    // file:///abs/path and file:/abs/path both name /abs/path.
    if (text.starts_with("//"))
      text = text.drop_front(2);
    DirectoryOptions options = local;
    options.directory = text.str();
    return std::make_unique<DirectoryCache>(std::move(options));
  }
  if (text.starts_with("redis://") || text.starts_with("rediss://")) {
    llvm::Expected<RemoteOptions> options = RemoteOptions::parse(text);
    if (!options)
      return options.takeError();
#if QSHAPE_HAVE_HIREDIS
    return createRedisCache(std::move(*options), std::move(sink));
#else
    return configError("'" + Options->describe() +
                       "': this qshape was built without Redis support "
                       "(configure with libhiredis-dev installed)");
#endif
  }
  return configError("'" + url + "' is not a cache URL; use file:DIR or " + kRemoteSyntax);
}

namespace {
/// The backends of openCache(), one per configuration and process. Leaked on
/// purpose: passes may run from static destructors' time in plugin hosts.
struct Registry {
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<CacheBackend>> opened;
};
Registry &registry() {
  static auto *r = new Registry();
  return *r;
}

std::string absoluteDirectory(llvm::StringRef dir) {
  llvm::SmallString<256> path(dir.empty() ? defaultCacheDirectory() : dir);
  if (!path.empty() && !llvm::sys::fs::make_absolute(path))
    llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  return std::string(path);
}

/// What distinguishes two configurations, secrets included (as a digest:
/// the string stays in memory only).
std::string registryKey(const CacheConfig &config, const std::optional<RemoteOptions> &remote) {
  std::string key = absoluteDirectory(config.local.directory) + "\n" +
                    std::to_string(config.local.maxSizeBytes) +
                    (config.local.deferLookupStats ? " deferred-stats" : "");
  // Which fetched entries the directory serves (the key and mode of now).
  FetchedEntryPolicy fetched =
      config.local.fetched ? *config.local.fetched : fetchedPolicyFromEnvironment();
  key += fetched.trustUntagged ? " trust-fetched" : "";
  if (fetched.tagKey) {
    CacheKey::Digest probe = fetched.tagKey->tagOf(EntryHeader());
    key += " fetched-key " + toHex(llvm::BLAKE3::hash<CacheKey::kNumBytes>(probe));
  }
  if (remote) {
    llvm::BLAKE3 secrets;
    secrets.update(remote->password);
    if (remote->tagKey) {
      CacheKey::Digest probe = remote->tagKey->tagOf(EntryHeader());
      secrets.update(llvm::ArrayRef<uint8_t>(probe));
    }
    key += "\n" + remote->describe() + "\n" + toHex(secrets.final<CacheKey::kNumBytes>());
  }
  return key;
}
} // namespace

std::shared_ptr<CacheBackend> qshape::cache::openCache(const CacheConfig &config,
                                                       std::string *remoteError) {
  std::string url = config.remote;
  bool fromEnvironment = url.empty();
  if (fromEnvironment)
    if (const char *env = std::getenv("QSHAPE_CACHE_REMOTE"))
      url = env;
  url = llvm::StringRef(url).trim().str();
  std::optional<RemoteOptions> remote;
  if (!url.empty() && url != "off") {
    llvm::Expected<RemoteOptions> parsed = RemoteOptions::parse(url);
    if (parsed && !parsed->tagKey && !insecureRemoteAllowed()) {
      // Its entries are code that runs here (and programs that compile to
      // it): without a team key, whoever can write to the server chooses it.
      std::string message = "'" + parsed->describe() +
                            "' has no team key, so it is not used: its entries are code that "
                            "runs here, and without a key anyone who can write to the server "
                            "chooses that code. Set QSHAPE_CACHE_REMOTE_KEY (or _KEY_FILE) to "
                            "the team's key, or QSHAPE_CACHE_REMOTE_INSECURE=1 to trust every "
                            "writer; using the local cache only";
      if (remoteError)
        *remoteError = message;
      reportProblem((fromEnvironment ? "QSHAPE_CACHE_REMOTE: " : "remote: ") + message,
                    ProblemSource::Remote);
    } else if (parsed) {
      remote = std::move(*parsed);
    } else {
      std::string message = llvm::toString(parsed.takeError());
      if (remoteError)
        *remoteError = message;
      reportProblem((fromEnvironment ? "QSHAPE_CACHE_REMOTE: " : "remote: ") + message +
                        "; using the local cache only",
                    ProblemSource::Remote);
    }
  }

  Registry &r = registry();
  std::scoped_lock<std::mutex> guard(r.mutex);
  std::string key = registryKey(config, remote);
  if (auto it = r.opened.find(key); it != r.opened.end())
    return it->second;

  auto l1 = std::make_unique<DirectoryCache>(config.local);
  std::shared_ptr<CacheBackend> opened;
  if (!remote) {
    opened = std::move(l1);
  } else {
#if QSHAPE_HAVE_HIREDIS
    DirectoryCache *sink = l1.get();
    std::unique_ptr<CacheBackend> l2 = createRedisCache(
        std::move(*remote), [sink](const CacheStats &delta) { sink->recordCounters(delta); });
    opened = makeLayeredCache(std::move(l1), std::move(l2));
#else
    std::string Message =
        "'" + Remote->describe() + "': this qshape was built without Redis support";
    if (RemoteError)
      *RemoteError = Message;
    reportProblem(Message + "; using the local cache only", ProblemSource::Remote);
    Opened = std::move(L1);
#endif
  }
  r.opened[key] = opened;
  return opened;
}
