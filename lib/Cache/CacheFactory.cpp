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
qshape::cache::openCacheBackend(llvm::StringRef Url, const DirectoryOptions &Local,
                                CounterSink Sink) {
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
  return configError("'" + Url + "' is not a cache URL; use file:DIR or " + RemoteSyntax);
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
std::string registryKey(const CacheConfig &Config, const std::optional<RemoteOptions> &Remote) {
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
    Key += "\n" + Remote->describe() + "\n" + toHex(Secrets.final<CacheKey::NumBytes>());
  }
  return Key;
}
} // namespace

std::shared_ptr<CacheBackend> qshape::cache::openCache(const CacheConfig &Config,
                                                       std::string *RemoteError) {
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
      std::string Message = "'" + Parsed->describe() +
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
      reportProblem((FromEnvironment ? "QSHAPE_CACHE_REMOTE: " : "remote: ") + Message +
                        "; using the local cache only",
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
    std::unique_ptr<CacheBackend> L2 = createRedisCache(
        std::move(*Remote), [Sink](const CacheStats &Delta) { Sink->recordCounters(Delta); });
    Opened = makeLayeredCache(std::move(L1), std::move(L2));
#else
    std::string Message =
        "'" + Remote->describe() + "': this qshape was built without Redis support";
    if (RemoteError)
      *RemoteError = Message;
    reportProblem(Message + "; using the local cache only", ProblemSource::Remote);
    Opened = std::move(L1);
#endif
  }
  R.Opened[Key] = Opened;
  return Opened;
}
