//===- RedisCache.cpp - A cache level on a shared Redis server ------------===//
//
// Entries are Redis strings under `<prefix>:<64 hex digits>`, holding the
// same bytes as an entry file (CacheEntry.h). A value is checked like a file
// before use; with a team key (RemoteOptions::tagKey) it must also carry
// that key's tag. Commands: GET (GETEX with a TTL, which refreshes it), SET
// (with PX for a TTL), and for `qshape-cache`: SCAN, STRLEN, DEL, INFO,
// DBSIZE, CONFIG GET (to learn proto-max-bulk-len; optional).
//
// hiredis encodes the commands (redisFormatCommandArgv) and decodes the
// replies (redisReader); the socket is driven here, because the blocking
// hiredis context cannot give the guarantees a compiler needs: its timeouts
// bound each system call, not an operation (a slow server can stall a large
// transfer indefinitely, 16 KiB at a time); it resolves host names with no
// timeout; and it writes with write(2), which raises SIGPIPE in the compiler
// when the server drops the connection in the middle of an upload. Here every
// operation has one deadline (connect: connect-timeout; a command: timeout),
// sends use MSG_NOSIGNAL, and names are resolved on a helper thread that the
// connect deadline abandons.
//
// Faults never fail a compilation: a lookup misses, a store is skipped, the
// problem is counted and the process gets one warning (per source). A
// connection that fails or times out opens a circuit breaker: the remote is
// left alone for retry-after (default 60 s), so a dead server costs one
// timeout per process, not one per lookup. A wrong password turns the remote
// off for the process. A server that refuses writes (maxmemory with
// noeviction, a read-only replica) stops the stores, not the lookups.
//
//===----------------------------------------------------------------------===//

#include "Backends.h"

#include "qshape/Cache/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <hiredis/hiredis.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <variant>

using namespace qshape::cache;
using Clock = std::chrono::steady_clock;

namespace {

struct ReplyDeleter {
  void operator()(redisReply *r) const { freeReplyObject(r); }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

struct ReaderDeleter {
  void operator()(redisReader *r) const { redisReaderFree(r); }
};

/// Why an operation did not get a reply.
struct Failure {
  enum class Kind {
    Timeout,    ///< a deadline passed
    Connection, ///< cannot connect, or the connection broke
    Protocol,   ///< the bytes were not a reply (or a reply far too large)
    Auth,       ///< the server refused our credentials
  };
  Kind what;
  std::string message;
};

int remainingMs(Clock::time_point deadline) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return ms <= 0 ? 0 : static_cast<int>(std::min<int64_t>(ms, 1 << 30));
}

/// Waits for \p events on \p  until \p deadline: 1 ready, 0 timed out,
/// -1 error (errno).
int waitFor(int fd, short events, Clock::time_point deadline) {
  while (true) {
    struct pollfd p = {fd, events, 0};
    int n = ::poll(&p, 1, remainingMs(deadline));
    if (n > 0)
      return 1;
    if (n == 0)
      return 0;
    if (errno != EINTR)
      return -1;
  }
}

std::string errnoText(int err) { return std::strerror(err); }

/// Host name resolution with a deadline: getaddrinfo() has none, so it runs
/// on a helper thread; past the deadline the caller gives up and the thread
/// frees its result whenever it finishes.
struct Resolution {
  std::mutex mutex;
  std::condition_variable done;
  bool finished = false, abandoned = false;
  int status = 0;
  struct addrinfo *result = nullptr;
};

std::variant<struct addrinfo *, Failure> resolve(const std::string &host, unsigned port,
                                                 Clock::time_point deadline) {
  struct addrinfo hints = {};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_family = AF_UNSPEC;
  std::string service = std::to_string(port);
  struct addrinfo *result = nullptr;
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
  if (::getaddrinfo(host.c_str(), service.c_str(), &hints, &result) == 0)
    return result;
  hints.ai_flags = AI_NUMERICSERV;
  auto state = std::make_shared<Resolution>();
  std::thread([state, host, service, hints] {
    struct addrinfo *found = nullptr;
    int status = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found);
    std::scoped_lock<std::mutex> guard(state->mutex);
    if (state->abandoned) {
      if (status == 0)
        ::freeaddrinfo(found);
      return;
    }
    state->status = status;
    state->result = status == 0 ? found : nullptr;
    state->finished = true;
    state->done.notify_all();
  }).detach();
  std::unique_lock<std::mutex> lock(state->mutex);
  if (!state->done.wait_until(lock, deadline, [&] { return state->finished; })) {
    state->abandoned = true;
    return Failure{Failure::Kind::Timeout,
                   "resolving '" + host +
                       "' took longer than the connect "
                       "timeout (use an IP address to skip name resolution)"};
  }
  if (state->status != 0)
    return Failure{Failure::Kind::Connection,
                   "cannot resolve '" + host + "': " + ::gai_strerror(state->status)};
  return state->result;
}

bool isAuthError(llvm::StringRef text) {
  return text.starts_with("NOAUTH") || text.starts_with("WRONGPASS") ||
         text.starts_with("NOPERM") || text.contains("invalid password") ||
         text.contains("without any password configured") ||
         text.contains("invalid username-password");
}

/// Errors after which the server refuses every write of this process.
bool refusesWrites(llvm::StringRef text) {
  return text.starts_with("OOM") || text.starts_with("READONLY") || text.starts_with("MISCONF");
}

std::string formatSeconds(std::optional<unsigned> seconds) {
  if (!seconds)
    return "from now on";
  return "for the next " + std::to_string(*seconds) + " s";
}

/// The remote that failed in this process, as exportRemoteFailures() hands
/// it to a process this one exec()s: "<describe()>\n<why>".
std::mutex failedRemoteMutex;
std::string failedRemote;

class RedisCache final : public CacheBackend, public CacheInventory {
public:
  RedisCache(RemoteOptions options, CounterSink sink)
      : options(std::move(options)), sink(std::move(sink)) {
    inheritFailure();
  }
  ~RedisCache() override { disconnect(); }

  std::string describe() const override { return options.describe(); }
  bool isEnabled() const override { return true; }
  std::string disabledReason() const override {
    std::scoped_lock<std::mutex> guard(mutex);
    return breakerReason;
  }
  const EntryTagKey *tagKey() const override { return options.tagKey ? &*options.tagKey : nullptr; }
  CacheInventory *inventory() override { return this; }

  CacheStats processStats() const override {
    std::scoped_lock<std::mutex> guard(mutex);
    return counters;
  }

  LookupResult lookup(const CacheKey &key) override;
  StoreResult storeEntry(const EntryHeader &header, llvm::StringRef payload) override;
  std::vector<std::pair<std::string, std::string>> status() override;

  llvm::Error listEntries(llvm::function_ref<void(const InventoryEntry &)> visit) override;
  EntryReadResult checkEntry(const CacheKey &key) override;
  std::error_code removeEntry(const CacheKey &key) override;

private:
  struct Outcome {
    Reply r;
    std::optional<Failure> error;
  };

  std::string redisKey(const CacheKey &key) const { return options.prefix + ":" + key.hex(); }
  std::string where() const { return "remote cache " + options.describe(); }

  /// Sends \p args as one command and waits for its reply, connecting first
  /// if needed. Never throws, never blocks past the deadlines.
  Outcome command(llvm::ArrayRef<llvm::StringRef> args);
  std::optional<Failure> connect();
  std::optional<Failure> exchange(llvm::ArrayRef<llvm::StringRef> args, Clock::time_point deadline,
                                  Reply &out);
  void disconnect();

  /// Opens the breaker for good when the process that exec()ed this one
  /// found this remote down: a compile waits one timeout, not one a process.
  void inheritFailure();
  /// Why operations are skipped right now (the breaker is open), if they are.
  std::optional<std::string> skipped();
  /// Counts \p , warns once, opens the breaker and drops the connection.
  void trip(const Failure &f, llvm::StringRef during);
  /// Counts an error reply of the server (not a broken connection).
  void serverError(llvm::StringRef text, llvm::StringRef during);
  void count(const CacheStats &delta);
  /// The largest entry the server and the options allow.
  uint64_t sizeLimit();

  RemoteOptions options;
  CounterSink sink;

  mutable std::mutex mutex; ///< one operation at a time on the connection
  int fd = -1;
  pid_t fdOwner = 0; ///< a forked child must not share its parent's stream
  std::unique_ptr<redisReader, ReaderDeleter> reader;
  std::vector<char> buffer = std::vector<char>(size_t{64} << 10);

  bool breakerOpen = false;
  bool breakerForever = false;
  bool inheritedUnreported = false; ///< inheritFailure() warns at first use
  Clock::time_point retryAt;
  std::string breakerReason;
  std::optional<std::string> writesRefused;
  bool useGetEx = true;
  bool askedServerLimit = false;
  std::optional<uint64_t> serverLimit;

  CacheStats counters;
};

//===----------------------------------------------------------------------===//
// Connection and commands
//===----------------------------------------------------------------------===//

void RedisCache::disconnect() {
  if (fd >= 0)
    ::close(fd);
  fd = -1;
  reader.reset();
}

std::optional<Failure> RedisCache::connect() {
  disconnect();
  Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(options.connectTimeoutMs);
  auto resolved = resolve(options.host, options.port, deadline);
  if (auto *f = std::get_if<Failure>(&resolved))
    return *f;
  struct addrinfo *list = std::get<struct addrinfo *>(resolved);
  std::optional<Failure> last;
  for (struct addrinfo *a = list; a && fd < 0; a = a->ai_next) {
    int s = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (s < 0) {
      last = Failure{Failure::Kind::Connection, "cannot create a socket: " + errnoText(errno)};
      continue;
    }
    int rc = ::connect(s, a->ai_addr, a->ai_addrlen);
    if (rc != 0 && errno == EINPROGRESS) {
      int ready = waitFor(s, POLLOUT, deadline);
      if (ready == 0) {
        ::close(s);
        last =
            Failure{Failure::Kind::Timeout, "no connection within the connect timeout (" +
                                                std::to_string(options.connectTimeoutMs) + " ms)"};
        continue;
      }
      int error = 0;
      socklen_t length = sizeof(error);
      if (ready < 0)
        error = errno;
      else if (::getsockopt(s, SOL_SOCKET, SO_ERROR, &error, &length) != 0)
        error = errno;
      rc = error ? -1 : 0;
      errno = error;
    }
    if (rc != 0) {
      last = Failure{Failure::Kind::Connection, "cannot connect: " + errnoText(errno)};
      ::close(s);
      continue;
    }
    int one = 1;
    (void)::setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    fd = s;
  }
  ::freeaddrinfo(list);
  if (fd < 0)
    return last ? *last : Failure{Failure::Kind::Connection, "no address to connect to"};
  fdOwner = ::getpid();
  reader.reset(redisReaderCreate());
  if (!reader) {
    disconnect();
    return Failure{Failure::Kind::Protocol, "cannot allocate a reply reader"};
  }
  reader->maxbuf = 0; // keep the buffer between replies: values are large

  // AUTH and SELECT belong to the connection; they get the operation timeout.
  Clock::time_point opDeadline =
      Clock::now() + std::chrono::milliseconds(options.operationTimeoutMs);
  auto expect = [&](llvm::ArrayRef<llvm::StringRef> args,
                    llvm::StringRef what) -> std::optional<Failure> {
    Reply r;
    if (std::optional<Failure> f = exchange(args, opDeadline, r))
      return f;
    if (r->type != REDIS_REPLY_ERROR)
      return std::nullopt;
    llvm::StringRef text(r->str, r->len);
    Failure::Kind k = isAuthError(text) ? Failure::Kind::Auth : Failure::Kind::Connection;
    return Failure{k, (what + " failed: " + text).str()};
  };
  if (!options.password.empty()) {
    std::optional<Failure> f = options.user.empty()
                                   ? expect({"AUTH", options.password}, "AUTH")
                                   : expect({"AUTH", options.user, options.password}, "AUTH");
    if (f) {
      disconnect();
      return f;
    }
  }
  if (options.database != 0) {
    if (std::optional<Failure> f = expect({"SELECT", std::to_string(options.database)}, "SELECT")) {
      disconnect();
      return f;
    }
  }
  return std::nullopt;
}

std::optional<Failure> RedisCache::exchange(llvm::ArrayRef<llvm::StringRef> args,
                                            Clock::time_point deadline, Reply &out) {
  std::vector<const char *> argv;
  std::vector<size_t> lengths;
  for (llvm::StringRef a : args) {
    argv.push_back(a.data());
    lengths.push_back(a.size());
  }
  char *command = nullptr;
  int length =
      redisFormatCommandArgv(&command, static_cast<int>(argv.size()), argv.data(), lengths.data());
  if (length < 0)
    return Failure{Failure::Kind::Protocol, "cannot encode the command"};
  std::unique_ptr<char, void (*)(char *)> owned(command, redisFreeCommand);

  const char *p = command;
  auto left = static_cast<size_t>(length);
  while (left > 0) {
    ssize_t n = ::send(fd, p, left, MSG_NOSIGNAL);
    if (n > 0) {
      p += n;
      left -= static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      int ready = waitFor(fd, POLLOUT, deadline);
      if (ready == 0)
        return Failure{Failure::Kind::Timeout,
                       "sending " + args[0].str() + " took longer than the operation timeout (" +
                           std::to_string(options.operationTimeoutMs) + " ms)"};
      if (ready < 0)
        return Failure{Failure::Kind::Connection, errnoText(errno)};
      continue;
    }
    int error = errno;
    // The server may have said why before it closed (a value over its
    // proto-max-bulk-len): read what it sent.
    ssize_t got = ::recv(fd, buffer.data(), buffer.size(), MSG_DONTWAIT);
    if (got > 0) {
      redisReaderFeed(reader.get(), buffer.data(), static_cast<size_t>(got));
      void *early = nullptr;
      if (redisReaderGetReply(reader.get(), &early) == REDIS_OK && early) {
        out.reset(static_cast<redisReply *>(early));
        if (out->type == REDIS_REPLY_ERROR)
          return std::nullopt; // the caller reports the server's words
        out.reset();
      }
    }
    return Failure{Failure::Kind::Connection,
                   "connection lost while sending " + args[0].str() + ": " + errnoText(error)};
  }

  // A reply larger than any entry we accept is not one of ours.
  uint64_t cap = options.maxEntryBytes + (1 << 20);
  uint64_t received = 0;
  while (true) {
    void *raw = nullptr;
    if (redisReaderGetReply(reader.get(), &raw) != REDIS_OK)
      return Failure{Failure::Kind::Protocol, std::string("bad reply: ") + reader->errstr};
    if (raw) {
      out.reset(static_cast<redisReply *>(raw));
      return std::nullopt;
    }
    int ready = waitFor(fd, POLLIN, deadline);
    if (ready == 0)
      return Failure{Failure::Kind::Timeout, "no reply to " + args[0].str() +
                                                 " within the operation timeout (" +
                                                 std::to_string(options.operationTimeoutMs) +
                                                 " ms; is the server paused or overloaded?)"};
    if (ready < 0)
      return Failure{Failure::Kind::Connection, errnoText(errno)};
    ssize_t n = ::recv(fd, buffer.data(), buffer.size(), 0);
    if (n == 0)
      return Failure{Failure::Kind::Connection,
                     "the server closed the connection during " + args[0].str()};
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
        continue;
      return Failure{Failure::Kind::Connection,
                     "connection lost during " + args[0].str() + ": " + errnoText(errno)};
    }
    received += static_cast<uint64_t>(n);
    if (received > cap)
      return Failure{Failure::Kind::Protocol,
                     "reply to " + args[0].str() + " exceeds " + std::to_string(cap) + " bytes"};
    if (redisReaderFeed(reader.get(), buffer.data(), static_cast<size_t>(n)) != REDIS_OK)
      return Failure{Failure::Kind::Protocol, std::string("bad reply: ") + reader->errstr};
  }
}

RedisCache::Outcome RedisCache::command(llvm::ArrayRef<llvm::StringRef> args) {
  Outcome o;
  if (fd >= 0 && fdOwner != ::getpid()) {
    // Forked: the parent owns the stream. Forget it without a word to the
    // server (QUIT would close the parent's connection).
    ::close(fd);
    fd = -1;
    reader.reset();
  }
  if (fd < 0)
    if (std::optional<Failure> f = connect()) {
      o.error = std::move(f);
      return o;
    }
  Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(options.operationTimeoutMs);
  o.error = exchange(args, deadline, o.r);
  if (o.error)
    disconnect(); // the stream is in an unknown state
  else if (o.r->type == REDIS_REPLY_ERROR &&
           llvm::StringRef(o.r->str, o.r->len).contains("Protocol error"))
    disconnect(); // the server closes it after a protocol error
  return o;
}

//===----------------------------------------------------------------------===//
// Faults
//===----------------------------------------------------------------------===//

void RedisCache::count(const CacheStats &delta) {
  counters.addCounters(delta);
  if (sink)
    sink(delta);
}

void RedisCache::inheritFailure() {
  const char *inherited = std::getenv(kRemoteFailureVariable);
  llvm::StringRef why = inherited ? inherited : "";
  if (!why.consume_front(describe() + "\n") || why.empty())
    return;
  breakerOpen = breakerForever = inheritedUnreported = true;
  breakerReason = why.str();
}

std::optional<std::string> RedisCache::skipped() {
  if (!breakerOpen)
    return std::nullopt;
  if (inheritedUnreported) {
    inheritedUnreported = false;
    reportProblem(breakerReason + "; this process uses the local cache only",
                  ProblemSource::Remote);
  }
  if (!breakerForever && Clock::now() >= retryAt) {
    breakerOpen = false; // one more try
    return std::nullopt;
  }
  CacheStats delta;
  delta.remoteSkipped = 1;
  count(delta);
  return breakerReason;
}

void RedisCache::trip(const Failure &f, llvm::StringRef during) {
  disconnect();
  CacheStats delta;
  if (f.what == Failure::Kind::Timeout)
    delta.remoteTimeouts = 1;
  else
    delta.remoteErrors = 1;
  count(delta);
  breakerOpen = true;
  std::optional<unsigned> pause = options.retryAfterSeconds;
  if (f.what == Failure::Kind::Auth) {
    breakerForever = true; // a wrong password stays wrong
    pause = std::nullopt;
  }
  breakerForever = breakerForever || !pause;
  if (pause)
    retryAt = Clock::now() + std::chrono::seconds(*pause);
  std::string fix = f.what == Failure::Kind::Auth
                        ? " (check the user and password: QSHAPE_CACHE_REMOTE, "
                          "password-file= or QSHAPE_CACHE_REMOTE_PASSWORD_FILE)"
                        : "";
  breakerReason = where() + ": " + during.str() + ": " + f.message + fix;
  {
    std::scoped_lock<std::mutex> guard(failedRemoteMutex);
    failedRemote = describe() + "\n" + breakerReason;
  }
  reportProblem(breakerReason + "; this process uses the local cache only " + formatSeconds(pause),
                ProblemSource::Remote);
}

void RedisCache::serverError(llvm::StringRef text, llvm::StringRef during) {
  CacheStats delta;
  delta.remoteErrors = 1;
  count(delta);
  reportProblem(where() + ": " + during + ": the server answered '" + text + "'",
                ProblemSource::Remote);
}

uint64_t RedisCache::sizeLimit() {
  if (!askedServerLimit) {
    askedServerLimit = true;
    // Optional: managed servers often forbid CONFIG. Without it, a value
    // over the server's limit is refused by the server instead.
    Outcome o = command({"CONFIG", "GET", "proto-max-bulk-len"});
    if (!o.error && o.r->type == REDIS_REPLY_ARRAY && o.r->elements == 2 &&
        o.r->element[1]->type == REDIS_REPLY_STRING) {
      uint64_t limit;
      if (!llvm::StringRef(o.r->element[1]->str, o.r->element[1]->len).getAsInteger(10, limit))
        serverLimit = limit;
    } else if (o.error) {
      trip(*o.error, "connect");
    }
  }
  uint64_t limit = options.maxEntryBytes;
  if (serverLimit)
    // proto-max-bulk-len limits one argument (the value); stay a little
    // below it.
    limit = std::min(limit, *serverLimit > 4096 ? *serverLimit - 4096 : 0);
  return limit;
}

//===----------------------------------------------------------------------===//
// Lookups and stores
//===----------------------------------------------------------------------===//

LookupResult RedisCache::lookup(const CacheKey &key) {
  std::scoped_lock<std::mutex> guard(mutex);
  LookupResult result;
  if (std::optional<std::string> why = skipped()) {
    result.status = LookupStatus::Disabled;
    result.detail = *why;
    return result;
  }
  std::string name = redisKey(key);
  std::string ttl = std::to_string(options.ttlSeconds * 1000);
  Outcome o =
      options.ttlSeconds && useGetEx ? command({"GETEX", name, "PX", ttl}) : command({"GET", name});
  if (!o.error && o.r->type == REDIS_REPLY_ERROR && useGetEx && options.ttlSeconds &&
      llvm::StringRef(o.r->str, o.r->len).contains("unknown command")) {
    useGetEx = false; // a server older than 6.2: no refresh on a hit
    o = command({"GET", name});
  }
  if (o.error) {
    trip(*o.error, "lookup");
    result.status =
        o.error->what == Failure::Kind::Timeout ? LookupStatus::Timeout : LookupStatus::IOError;
    result.detail = breakerReason;
    return result;
  }
  CacheStats delta;
  switch (o.r->type) {
  case REDIS_REPLY_NIL: // never stored, expired, or evicted under maxmemory
    delta.remoteMisses = 1;
    count(delta);
    result.status = LookupStatus::Miss;
    return result;
  case REDIS_REPLY_STRING:
    break;
  case REDIS_REPLY_ERROR: {
    llvm::StringRef text(o.r->str, o.r->len);
    if (isAuthError(text)) {
      trip(Failure{Failure::Kind::Auth, text.str()}, "lookup");
      result.status = LookupStatus::IOError;
      result.detail = breakerReason;
      return result;
    }
    if (!text.starts_with("WRONGTYPE")) {
      serverError(text, "lookup");
      result.status = LookupStatus::IOError;
      result.detail = text.str();
      return result;
    }
    [[fallthrough]]; // not a string: not ours, a bad entry the SET replaces
  }
  default:
    delta.remoteCorrupt = 1;
    count(delta);
    result.status = LookupStatus::Corrupt;
    result.detail = where() + ": " + name + " does not hold a string";
    return result;
  }

  EntryReadResult read = decodeEntry(llvm::StringRef(o.r->str, o.r->len), &key, ReadMode::Load);
  checkEntryTag(read, tagKey());
  switch (read.status) {
  case ReadStatus::Ok:
    result.entry = CacheEntry{std::move(*read.header), std::move(read.payload)};
    delta.remoteHits = 1;
    delta.compileTimeSavedMs = result.entry->header.compileTimeMs;
    count(delta);
    result.status = LookupStatus::Hit;
    result.level = CacheLevel::Remote;
    return result;
  case ReadStatus::Refused:
    delta.remoteRefused = 1;
    count(delta);
    result.status = LookupStatus::Refused;
    result.detail = where() + ": entry " + key.str() + " refused: " + read.detail;
    // Someone without the key (or with another) writes to the team's cache:
    // worth the one warning. The store after the compile replaces it.
    reportProblem(result.detail, ProblemSource::Remote);
    return result;
  default:
    delta.remoteCorrupt = 1;
    count(delta);
    result.status = LookupStatus::Corrupt;
    result.detail = where() + ": entry " + key.str() + ": " + read.detail;
    return result;
  }
}

StoreResult RedisCache::storeEntry(const EntryHeader &header, llvm::StringRef payload) {
  std::scoped_lock<std::mutex> guard(mutex);
  if (options.readOnly)
    return {StoreStatus::Disabled, where() + " is read-only"};
  if (std::optional<std::string> why = skipped())
    return {StoreStatus::Disabled, *why};
  if (writesRefused) {
    StoreResult refused{StoreStatus::Disabled, *writesRefused};
    CacheStats delta;
    delta.remoteSkipped = 1;
    count(delta);
    return refused;
  }
  CacheKey key(header.key);
  EntryHeader h = header;
  std::string value = encodeEntryHeader(h);
  // Our own limit first: an oversized entry costs no round trip.
  uint64_t limit = options.maxEntryBytes;
  if (value.size() + payload.size() <= limit) {
    limit = sizeLimit();
    if (breakerOpen) // the size query found the server gone
      return {StoreStatus::Failed, breakerReason};
  }
  if (value.size() + payload.size() > limit) {
    CacheStats delta;
    delta.remoteTooLarge = 1;
    count(delta);
    std::string detail =
        where() + ": entry " + key.str() + " (" + formatSize(value.size() + payload.size()) +
        ") is over the remote size limit (" + formatSize(limit) +
        (serverLimit && limit < options.maxEntryBytes ? ", the server's proto-max-bulk-len"
                                                      : ", max-entry-size") +
        "); stored locally only";
    reportProblem(detail, ProblemSource::Remote);
    return {StoreStatus::TooLarge, detail};
  }
  value.append(payload.data(), payload.size());
  std::string name = redisKey(key);
  std::string ttl = std::to_string(options.ttlSeconds * 1000);
  Outcome o =
      options.ttlSeconds ? command({"SET", name, value, "PX", ttl}) : command({"SET", name, value});
  if (o.error) {
    trip(*o.error, "store");
    return {StoreStatus::Failed, breakerReason};
  }
  if (o.r->type == REDIS_REPLY_ERROR) {
    llvm::StringRef text(o.r->str, o.r->len);
    if (text.starts_with("NOPERM")) {
      // An ACL user that may read but not write (developers read, CI
      // writes): the stores stop, the lookups go on.
      std::string refusal = where() + ": store: the server refuses writes of this user ('" +
                            text.str() +
                            "'); this process stores locally only (add read-only "
                            "to the URL to skip the attempt)";
      writesRefused = refusal;
      CacheStats delta;
      delta.remoteErrors = 1;
      count(delta);
      reportProblem(refusal, ProblemSource::Remote);
      return {StoreStatus::Failed, text.str()};
    }
    if (isAuthError(text)) {
      trip(Failure{Failure::Kind::Auth, text.str()}, "store");
      return {StoreStatus::Failed, breakerReason};
    }
    if (text.contains("Protocol error") || text.contains("bulk length")) {
      CacheStats delta;
      delta.remoteTooLarge = 1;
      count(delta);
      std::string detail = where() + ": entry " + key.str() + " (" + formatSize(value.size()) +
                           ") refused by the server ('" + text.str() +
                           "': over its proto-max-bulk-len?); stored locally "
                           "only";
      reportProblem(detail, ProblemSource::Remote);
      return {StoreStatus::TooLarge, detail};
    }
    if (refusesWrites(text))
      writesRefused = where() + " refuses writes ('" + text.str() + "')";
    serverError(text, "store");
    return {StoreStatus::Failed, text.str()};
  }
  CacheStats delta;
  delta.remoteStores = 1;
  delta.remoteBytesStored = value.size();
  count(delta);
  return {};
}

//===----------------------------------------------------------------------===//
// Inventory and status (qshape-cache)
//===----------------------------------------------------------------------===//

llvm::Error RedisCache::listEntries(llvm::function_ref<void(const InventoryEntry &)> visit) {
  std::scoped_lock<std::mutex> guard(mutex);
  std::vector<InventoryEntry> found;
  std::string cursor = "0";
  std::string pattern = options.prefix + ":*";
  auto fail = [&](llvm::StringRef why) {
    return llvm::createStringError(std::errc::io_error, "%s: %s", where().c_str(),
                                   why.str().c_str());
  };
  do {
    Outcome o = command({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"});
    if (o.error)
      return fail(o.error->message);
    if (o.r->type == REDIS_REPLY_ERROR)
      return fail(llvm::StringRef(o.r->str, o.r->len));
    if (o.r->type != REDIS_REPLY_ARRAY || o.r->elements != 2 ||
        o.r->element[1]->type != REDIS_REPLY_ARRAY)
      return fail("unexpected reply to SCAN");
    cursor.assign(o.r->element[0]->str, o.r->element[0]->len);
    redisReply *keys = o.r->element[1];
    for (size_t i = 0; i < keys->elements; ++i) {
      llvm::StringRef name(keys->element[i]->str, keys->element[i]->len);
      if (!name.consume_front(options.prefix + ":"))
        continue;
      std::optional<CacheKey> key = CacheKey::parse(name);
      if (!key)
        continue; // not one of ours
      InventoryEntry e{*key, 0, std::nullopt};
      std::string full = redisKey(*key);
      Outcome len = command({"STRLEN", full});
      if (!len.error && len.r->type == REDIS_REPLY_INTEGER)
        e.size = static_cast<uint64_t>(len.r->integer);
      found.push_back(e);
    }
  } while (cursor != "0");
  llvm::sort(found, [](const InventoryEntry &a, const InventoryEntry &b) {
    return a.key.bytes() < b.key.bytes();
  });
  // SCAN may return a key twice.
  found.erase(
      std::unique(found.begin(), found.end(),
                  [](const InventoryEntry &a, const InventoryEntry &b) { return a.key == b.key; }),
      found.end());
  for (const InventoryEntry &e : found)
    visit(e);
  return llvm::Error::success();
}

EntryReadResult RedisCache::checkEntry(const CacheKey &key) {
  std::scoped_lock<std::mutex> guard(mutex);
  EntryReadResult r;
  Outcome o = command({"GET", redisKey(key)});
  if (o.error) {
    r.status = ReadStatus::IOError;
    r.detail = o.error->message;
    return r;
  }
  if (o.r->type == REDIS_REPLY_NIL) {
    r.status = ReadStatus::NotFound;
    return r;
  }
  if (o.r->type != REDIS_REPLY_STRING) {
    r.status = o.r->type == REDIS_REPLY_ERROR &&
                       !llvm::StringRef(o.r->str, o.r->len).starts_with("WRONGTYPE")
                   ? ReadStatus::IOError
                   : ReadStatus::Corrupt;
    r.detail = o.r->type == REDIS_REPLY_ERROR ? std::string(o.r->str, o.r->len)
                                              : std::string("not a string value");
    return r;
  }
  r = decodeEntry(llvm::StringRef(o.r->str, o.r->len), &key, ReadMode::Verify);
  checkEntryTag(r, tagKey());
  return r;
}

std::error_code RedisCache::removeEntry(const CacheKey &key) {
  std::scoped_lock<std::mutex> guard(mutex);
  if (options.readOnly)
    return std::make_error_code(std::errc::read_only_file_system);
  Outcome o = command({"DEL", redisKey(key)});
  if (o.error || o.r->type == REDIS_REPLY_ERROR)
    return std::make_error_code(std::errc::io_error);
  if (o.r->type == REDIS_REPLY_INTEGER && o.r->integer == 0)
    return std::make_error_code(std::errc::no_such_file_or_directory);
  return {};
}

std::vector<std::pair<std::string, std::string>> RedisCache::status() {
  std::scoped_lock<std::mutex> guard(mutex);
  std::vector<std::pair<std::string, std::string>> lines;
  lines.emplace_back("Remote cache",
                     options.describe() + (options.tagKey ? " (tags required)" : " (no team key)"));
  Outcome info = command({"INFO"});
  if (info.error || info.r->type != REDIS_REPLY_STRING) {
    lines.emplace_back("Remote server",
                       "unreachable: " + (info.error ? info.error->message
                                                     : std::string(info.r->str ? info.r->str : "",
                                                                   info.r->str ? info.r->len : 0)));
    return lines;
  }
  llvm::StringMap<std::string> fields;
  llvm::SmallVector<llvm::StringRef, 64> infoLines;
  llvm::StringRef(info.r->str, info.r->len).split(infoLines, "\r\n");
  for (llvm::StringRef l : infoLines) {
    auto [name, value] = l.split(':');
    if (!value.empty())
      fields[name] = value.str();
  }
  std::string keys = "?";
  Outcome size = command({"DBSIZE"});
  if (!size.error && size.r->type == REDIS_REPLY_INTEGER)
    keys = std::to_string(size.r->integer);
  std::string maxMemory = fields.lookup("maxmemory_human");
  if (fields.lookup("maxmemory") == "0")
    maxMemory = "no maxmemory";
  lines.emplace_back("Remote server", "redis " + fields.lookup("redis_version") + ", " + keys +
                                          " keys in db " + std::to_string(options.database) +
                                          ", memory " + fields.lookup("used_memory_human") +
                                          " of " + maxMemory + " (" +
                                          fields.lookup("maxmemory_policy") + "), " +
                                          fields.lookup("evicted_keys") + " keys evicted");
  return lines;
}

} // namespace

void qshape::cache::exportRemoteFailures() {
  std::scoped_lock<std::mutex> guard(failedRemoteMutex);
  if (failedRemote.empty())
    unsetenv(kRemoteFailureVariable);
  else
    setenv(kRemoteFailureVariable, failedRemote.c_str(), /*overwrite=*/1);
}

std::unique_ptr<CacheBackend> qshape::cache::createRedisCache(RemoteOptions options,
                                                              CounterSink sink) {
  return std::make_unique<RedisCache>(std::move(options), std::move(sink));
}
