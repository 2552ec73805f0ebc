//===- RedisCache.cpp - A cache level on a shared Redis server ------------===//
//
// Entries are Redis strings under `<prefix>:<64 hex digits>`, holding the
// same bytes as an entry file (CacheEntry.h). A value is checked like a file
// before use; with a team key (RemoteOptions::TagKey) it must also carry
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
  void operator()(redisReply *R) const { freeReplyObject(R); }
};
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

struct ReaderDeleter {
  void operator()(redisReader *R) const { redisReaderFree(R); }
};

/// Why an operation did not get a reply.
struct Failure {
  enum class Kind {
    Timeout,    ///< a deadline passed
    Connection, ///< cannot connect, or the connection broke
    Protocol,   ///< the bytes were not a reply (or a reply far too large)
    Auth,       ///< the server refused our credentials
  };
  Kind What;
  std::string Message;
};

int remainingMs(Clock::time_point Deadline) {
  auto Ms = std::chrono::duration_cast<std::chrono::milliseconds>(Deadline - Clock::now()).count();
  return Ms <= 0 ? 0 : int(std::min<int64_t>(Ms, 1 << 30));
}

/// Waits for \p Events on \p FD until \p Deadline: 1 ready, 0 timed out,
/// -1 error (errno).
int waitFor(int FD, short Events, Clock::time_point Deadline) {
  while (true) {
    struct pollfd P = {FD, Events, 0};
    int N = ::poll(&P, 1, remainingMs(Deadline));
    if (N > 0)
      return 1;
    if (N == 0)
      return 0;
    if (errno != EINTR)
      return -1;
  }
}

std::string errnoText(int Errno) { return std::strerror(Errno); }

/// Host name resolution with a deadline: getaddrinfo() has none, so it runs
/// on a helper thread; past the deadline the caller gives up and the thread
/// frees its result whenever it finishes.
struct Resolution {
  std::mutex Mutex;
  std::condition_variable Done;
  bool Finished = false, Abandoned = false;
  int Status = 0;
  struct addrinfo *Result = nullptr;
};

std::variant<struct addrinfo *, Failure> resolve(const std::string &Host, unsigned Port,
                                                 Clock::time_point Deadline) {
  struct addrinfo Hints = {};
  Hints.ai_socktype = SOCK_STREAM;
  Hints.ai_family = AF_UNSPEC;
  std::string Service = std::to_string(Port);
  struct addrinfo *Result = nullptr;
  Hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
  if (::getaddrinfo(Host.c_str(), Service.c_str(), &Hints, &Result) == 0)
    return Result;
  Hints.ai_flags = AI_NUMERICSERV;
  auto State = std::make_shared<Resolution>();
  std::thread([State, Host, Service, Hints] {
    struct addrinfo *Found = nullptr;
    int Status = ::getaddrinfo(Host.c_str(), Service.c_str(), &Hints, &Found);
    std::lock_guard<std::mutex> Guard(State->Mutex);
    if (State->Abandoned) {
      if (Status == 0)
        ::freeaddrinfo(Found);
      return;
    }
    State->Status = Status;
    State->Result = Status == 0 ? Found : nullptr;
    State->Finished = true;
    State->Done.notify_all();
  }).detach();
  std::unique_lock<std::mutex> Lock(State->Mutex);
  if (!State->Done.wait_until(Lock, Deadline, [&] { return State->Finished; })) {
    State->Abandoned = true;
    return Failure{Failure::Kind::Timeout,
                   "resolving '" + Host +
                       "' took longer than the connect "
                       "timeout (use an IP address to skip name resolution)"};
  }
  if (State->Status != 0)
    return Failure{Failure::Kind::Connection,
                   "cannot resolve '" + Host + "': " + ::gai_strerror(State->Status)};
  return State->Result;
}

bool isAuthError(llvm::StringRef Text) {
  return Text.starts_with("NOAUTH") || Text.starts_with("WRONGPASS") ||
         Text.starts_with("NOPERM") || Text.contains("invalid password") ||
         Text.contains("without any password configured") ||
         Text.contains("invalid username-password");
}

/// Errors after which the server refuses every write of this process.
bool refusesWrites(llvm::StringRef Text) {
  return Text.starts_with("OOM") || Text.starts_with("READONLY") || Text.starts_with("MISCONF");
}

std::string formatSeconds(std::optional<unsigned> Seconds) {
  if (!Seconds)
    return "from now on";
  return "for the next " + std::to_string(*Seconds) + " s";
}

/// The remote that failed in this process, as exportRemoteFailures() hands
/// it to a process this one exec()s: "<describe()>\n<why>".
std::mutex FailedRemoteMutex;
std::string FailedRemote;

class RedisCache final : public CacheBackend, public CacheInventory {
public:
  RedisCache(RemoteOptions Options, CounterSink Sink)
      : Options(std::move(Options)), Sink(std::move(Sink)) {
    inheritFailure();
  }
  ~RedisCache() override { disconnect(); }

  std::string describe() const override { return Options.describe(); }
  bool isEnabled() const override { return true; }
  std::string disabledReason() const override {
    std::lock_guard<std::mutex> Guard(Mutex);
    return BreakerReason;
  }
  const EntryTagKey *tagKey() const override { return Options.TagKey ? &*Options.TagKey : nullptr; }
  CacheInventory *inventory() override { return this; }

  CacheStats processStats() const override {
    std::lock_guard<std::mutex> Guard(Mutex);
    return Counters;
  }

  LookupResult lookup(const CacheKey &Key) override;
  StoreResult storeEntry(const EntryHeader &Header, llvm::StringRef Payload) override;
  std::vector<std::pair<std::string, std::string>> status() override;

  llvm::Error listEntries(llvm::function_ref<void(const InventoryEntry &)> Visit) override;
  EntryReadResult checkEntry(const CacheKey &Key) override;
  std::error_code removeEntry(const CacheKey &Key) override;

private:
  struct Outcome {
    Reply R;
    std::optional<Failure> Error;
  };

  std::string redisKey(const CacheKey &Key) const { return Options.Prefix + ":" + Key.hex(); }
  std::string where() const { return "remote cache " + Options.describe(); }

  /// Sends \p Args as one command and waits for its reply, connecting first
  /// if needed. Never throws, never blocks past the deadlines.
  Outcome command(llvm::ArrayRef<llvm::StringRef> Args);
  std::optional<Failure> connect();
  std::optional<Failure> exchange(llvm::ArrayRef<llvm::StringRef> Args, Clock::time_point Deadline,
                                  Reply &Out);
  void disconnect();

  /// Opens the breaker for good when the process that exec()ed this one
  /// found this remote down: a compile waits one timeout, not one a process.
  void inheritFailure();
  /// Why operations are skipped right now (the breaker is open), if they are.
  std::optional<std::string> skipped();
  /// Counts \p F, warns once, opens the breaker and drops the connection.
  void trip(const Failure &F, llvm::StringRef During);
  /// Counts an error reply of the server (not a broken connection).
  void serverError(llvm::StringRef Text, llvm::StringRef During);
  void count(const CacheStats &Delta);
  /// The largest entry the server and the options allow.
  uint64_t sizeLimit();

  RemoteOptions Options;
  CounterSink Sink;

  mutable std::mutex Mutex; ///< one operation at a time on the connection
  int FD = -1;
  pid_t FDOwner = 0; ///< a forked child must not share its parent's stream
  std::unique_ptr<redisReader, ReaderDeleter> Reader;
  std::vector<char> Buffer = std::vector<char>(64 * 1024);

  bool BreakerOpen = false;
  bool BreakerForever = false;
  bool InheritedUnreported = false; ///< inheritFailure() warns at first use
  Clock::time_point RetryAt;
  std::string BreakerReason;
  std::optional<std::string> WritesRefused;
  bool UseGetEx = true;
  bool AskedServerLimit = false;
  std::optional<uint64_t> ServerLimit;

  CacheStats Counters;
};

//===----------------------------------------------------------------------===//
// Connection and commands
//===----------------------------------------------------------------------===//

void RedisCache::disconnect() {
  if (FD >= 0)
    ::close(FD);
  FD = -1;
  Reader.reset();
}

std::optional<Failure> RedisCache::connect() {
  disconnect();
  Clock::time_point Deadline = Clock::now() + std::chrono::milliseconds(Options.ConnectTimeoutMs);
  auto Resolved = resolve(Options.Host, Options.Port, Deadline);
  if (auto *F = std::get_if<Failure>(&Resolved))
    return *F;
  struct addrinfo *List = std::get<struct addrinfo *>(Resolved);
  std::optional<Failure> Last;
  for (struct addrinfo *A = List; A && FD < 0; A = A->ai_next) {
    int S = ::socket(A->ai_family, A->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, A->ai_protocol);
    if (S < 0) {
      Last = Failure{Failure::Kind::Connection, "cannot create a socket: " + errnoText(errno)};
      continue;
    }
    int Rc = ::connect(S, A->ai_addr, A->ai_addrlen);
    if (Rc != 0 && errno == EINPROGRESS) {
      int Ready = waitFor(S, POLLOUT, Deadline);
      if (Ready == 0) {
        ::close(S);
        Last =
            Failure{Failure::Kind::Timeout, "no connection within the connect timeout (" +
                                                std::to_string(Options.ConnectTimeoutMs) + " ms)"};
        continue;
      }
      int Error = 0;
      socklen_t Length = sizeof(Error);
      if (Ready < 0)
        Error = errno;
      else if (::getsockopt(S, SOL_SOCKET, SO_ERROR, &Error, &Length) != 0)
        Error = errno;
      Rc = Error ? -1 : 0;
      errno = Error;
    }
    if (Rc != 0) {
      Last = Failure{Failure::Kind::Connection, "cannot connect: " + errnoText(errno)};
      ::close(S);
      continue;
    }
    int One = 1;
    (void)::setsockopt(S, IPPROTO_TCP, TCP_NODELAY, &One, sizeof(One));
    FD = S;
  }
  ::freeaddrinfo(List);
  if (FD < 0)
    return Last ? *Last : Failure{Failure::Kind::Connection, "no address to connect to"};
  FDOwner = ::getpid();
  Reader.reset(redisReaderCreate());
  if (!Reader) {
    disconnect();
    return Failure{Failure::Kind::Protocol, "cannot allocate a reply reader"};
  }
  Reader->maxbuf = 0; // keep the buffer between replies: values are large

  // AUTH and SELECT belong to the connection; they get the operation timeout.
  Clock::time_point OpDeadline =
      Clock::now() + std::chrono::milliseconds(Options.OperationTimeoutMs);
  auto Expect = [&](llvm::ArrayRef<llvm::StringRef> Args,
                    llvm::StringRef What) -> std::optional<Failure> {
    Reply R;
    if (std::optional<Failure> F = exchange(Args, OpDeadline, R))
      return F;
    if (R->type != REDIS_REPLY_ERROR)
      return std::nullopt;
    llvm::StringRef Text(R->str, R->len);
    Failure::Kind K = isAuthError(Text) ? Failure::Kind::Auth : Failure::Kind::Connection;
    return Failure{K, (What + " failed: " + Text).str()};
  };
  if (!Options.Password.empty()) {
    std::optional<Failure> F = Options.User.empty()
                                   ? Expect({"AUTH", Options.Password}, "AUTH")
                                   : Expect({"AUTH", Options.User, Options.Password}, "AUTH");
    if (F) {
      disconnect();
      return F;
    }
  }
  if (Options.Database != 0) {
    if (std::optional<Failure> F = Expect({"SELECT", std::to_string(Options.Database)}, "SELECT")) {
      disconnect();
      return F;
    }
  }
  return std::nullopt;
}

std::optional<Failure> RedisCache::exchange(llvm::ArrayRef<llvm::StringRef> Args,
                                            Clock::time_point Deadline, Reply &Out) {
  std::vector<const char *> Argv;
  std::vector<size_t> Lengths;
  for (llvm::StringRef A : Args) {
    Argv.push_back(A.data());
    Lengths.push_back(A.size());
  }
  char *Command = nullptr;
  int Length = redisFormatCommandArgv(&Command, int(Argv.size()), Argv.data(), Lengths.data());
  if (Length < 0)
    return Failure{Failure::Kind::Protocol, "cannot encode the command"};
  std::unique_ptr<char, void (*)(char *)> Owned(Command, redisFreeCommand);

  const char *P = Command;
  size_t Left = size_t(Length);
  while (Left > 0) {
    ssize_t N = ::send(FD, P, Left, MSG_NOSIGNAL);
    if (N > 0) {
      P += N;
      Left -= size_t(N);
      continue;
    }
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      int Ready = waitFor(FD, POLLOUT, Deadline);
      if (Ready == 0)
        return Failure{Failure::Kind::Timeout,
                       "sending " + Args[0].str() + " took longer than the operation timeout (" +
                           std::to_string(Options.OperationTimeoutMs) + " ms)"};
      if (Ready < 0)
        return Failure{Failure::Kind::Connection, errnoText(errno)};
      continue;
    }
    int Error = errno;
    // The server may have said why before it closed (a value over its
    // proto-max-bulk-len): read what it sent.
    ssize_t Got = ::recv(FD, Buffer.data(), Buffer.size(), MSG_DONTWAIT);
    if (Got > 0) {
      redisReaderFeed(Reader.get(), Buffer.data(), size_t(Got));
      void *Early = nullptr;
      if (redisReaderGetReply(Reader.get(), &Early) == REDIS_OK && Early) {
        Out.reset(static_cast<redisReply *>(Early));
        if (Out->type == REDIS_REPLY_ERROR)
          return std::nullopt; // the caller reports the server's words
        Out.reset();
      }
    }
    return Failure{Failure::Kind::Connection,
                   "connection lost while sending " + Args[0].str() + ": " + errnoText(Error)};
  }

  // A reply larger than any entry we accept is not one of ours.
  uint64_t Cap = Options.MaxEntryBytes + (1 << 20);
  uint64_t Received = 0;
  while (true) {
    void *Raw = nullptr;
    if (redisReaderGetReply(Reader.get(), &Raw) != REDIS_OK)
      return Failure{Failure::Kind::Protocol, std::string("bad reply: ") + Reader->errstr};
    if (Raw) {
      Out.reset(static_cast<redisReply *>(Raw));
      return std::nullopt;
    }
    int Ready = waitFor(FD, POLLIN, Deadline);
    if (Ready == 0)
      return Failure{Failure::Kind::Timeout, "no reply to " + Args[0].str() +
                                                 " within the operation timeout (" +
                                                 std::to_string(Options.OperationTimeoutMs) +
                                                 " ms; is the server paused or overloaded?)"};
    if (Ready < 0)
      return Failure{Failure::Kind::Connection, errnoText(errno)};
    ssize_t N = ::recv(FD, Buffer.data(), Buffer.size(), 0);
    if (N == 0)
      return Failure{Failure::Kind::Connection,
                     "the server closed the connection during " + Args[0].str()};
    if (N < 0) {
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
        continue;
      return Failure{Failure::Kind::Connection,
                     "connection lost during " + Args[0].str() + ": " + errnoText(errno)};
    }
    Received += uint64_t(N);
    if (Received > Cap)
      return Failure{Failure::Kind::Protocol,
                     "reply to " + Args[0].str() + " exceeds " + std::to_string(Cap) + " bytes"};
    if (redisReaderFeed(Reader.get(), Buffer.data(), size_t(N)) != REDIS_OK)
      return Failure{Failure::Kind::Protocol, std::string("bad reply: ") + Reader->errstr};
  }
}

RedisCache::Outcome RedisCache::command(llvm::ArrayRef<llvm::StringRef> Args) {
  Outcome O;
  if (FD >= 0 && FDOwner != ::getpid()) {
    // Forked: the parent owns the stream. Forget it without a word to the
    // server (QUIT would close the parent's connection).
    ::close(FD);
    FD = -1;
    Reader.reset();
  }
  if (FD < 0)
    if (std::optional<Failure> F = connect()) {
      O.Error = std::move(F);
      return O;
    }
  Clock::time_point Deadline = Clock::now() + std::chrono::milliseconds(Options.OperationTimeoutMs);
  O.Error = exchange(Args, Deadline, O.R);
  if (O.Error)
    disconnect(); // the stream is in an unknown state
  else if (O.R->type == REDIS_REPLY_ERROR &&
           llvm::StringRef(O.R->str, O.R->len).contains("Protocol error"))
    disconnect(); // the server closes it after a protocol error
  return O;
}

//===----------------------------------------------------------------------===//
// Faults
//===----------------------------------------------------------------------===//

void RedisCache::count(const CacheStats &Delta) {
  Counters.addCounters(Delta);
  if (Sink)
    Sink(Delta);
}

void RedisCache::inheritFailure() {
  const char *Inherited = std::getenv(RemoteFailureVariable);
  llvm::StringRef Why = Inherited ? Inherited : "";
  if (!Why.consume_front(describe() + "\n") || Why.empty())
    return;
  BreakerOpen = BreakerForever = InheritedUnreported = true;
  BreakerReason = Why.str();
}

std::optional<std::string> RedisCache::skipped() {
  if (!BreakerOpen)
    return std::nullopt;
  if (InheritedUnreported) {
    InheritedUnreported = false;
    reportProblem(BreakerReason + "; this process uses the local cache only",
                  ProblemSource::Remote);
  }
  if (!BreakerForever && Clock::now() >= RetryAt) {
    BreakerOpen = false; // one more try
    return std::nullopt;
  }
  CacheStats Delta;
  Delta.RemoteSkipped = 1;
  count(Delta);
  return BreakerReason;
}

void RedisCache::trip(const Failure &F, llvm::StringRef During) {
  disconnect();
  CacheStats Delta;
  if (F.What == Failure::Kind::Timeout)
    Delta.RemoteTimeouts = 1;
  else
    Delta.RemoteErrors = 1;
  count(Delta);
  BreakerOpen = true;
  std::optional<unsigned> Pause = Options.RetryAfterSeconds;
  if (F.What == Failure::Kind::Auth) {
    BreakerForever = true; // a wrong password stays wrong
    Pause = std::nullopt;
  }
  BreakerForever = BreakerForever || !Pause;
  if (Pause)
    RetryAt = Clock::now() + std::chrono::seconds(*Pause);
  std::string Fix = F.What == Failure::Kind::Auth
                        ? " (check the user and password: QSHAPE_CACHE_REMOTE, "
                          "password-file= or QSHAPE_CACHE_REMOTE_PASSWORD_FILE)"
                        : "";
  BreakerReason = where() + ": " + During.str() + ": " + F.Message + Fix;
  {
    std::lock_guard<std::mutex> Guard(FailedRemoteMutex);
    FailedRemote = describe() + "\n" + BreakerReason;
  }
  reportProblem(BreakerReason + "; this process uses the local cache only " + formatSeconds(Pause),
                ProblemSource::Remote);
}

void RedisCache::serverError(llvm::StringRef Text, llvm::StringRef During) {
  CacheStats Delta;
  Delta.RemoteErrors = 1;
  count(Delta);
  reportProblem(where() + ": " + During + ": the server answered '" + Text + "'",
                ProblemSource::Remote);
}

uint64_t RedisCache::sizeLimit() {
  if (!AskedServerLimit) {
    AskedServerLimit = true;
    // Optional: managed servers often forbid CONFIG. Without it, a value
    // over the server's limit is refused by the server instead.
    Outcome O = command({"CONFIG", "GET", "proto-max-bulk-len"});
    if (!O.Error && O.R->type == REDIS_REPLY_ARRAY && O.R->elements == 2 &&
        O.R->element[1]->type == REDIS_REPLY_STRING) {
      uint64_t Limit;
      if (!llvm::StringRef(O.R->element[1]->str, O.R->element[1]->len).getAsInteger(10, Limit))
        ServerLimit = Limit;
    } else if (O.Error) {
      trip(*O.Error, "connect");
    }
  }
  uint64_t Limit = Options.MaxEntryBytes;
  if (ServerLimit)
    // proto-max-bulk-len limits one argument (the value); stay a little
    // below it.
    Limit = std::min(Limit, *ServerLimit > 4096 ? *ServerLimit - 4096 : 0);
  return Limit;
}

//===----------------------------------------------------------------------===//
// Lookups and stores
//===----------------------------------------------------------------------===//

LookupResult RedisCache::lookup(const CacheKey &Key) {
  std::lock_guard<std::mutex> Guard(Mutex);
  LookupResult Result;
  if (std::optional<std::string> Why = skipped()) {
    Result.Status = LookupStatus::Disabled;
    Result.Detail = *Why;
    return Result;
  }
  std::string Name = redisKey(Key);
  std::string Ttl = std::to_string(Options.TtlSeconds * 1000);
  Outcome O =
      Options.TtlSeconds && UseGetEx ? command({"GETEX", Name, "PX", Ttl}) : command({"GET", Name});
  if (!O.Error && O.R->type == REDIS_REPLY_ERROR && UseGetEx && Options.TtlSeconds &&
      llvm::StringRef(O.R->str, O.R->len).contains("unknown command")) {
    UseGetEx = false; // a server older than 6.2: no refresh on a hit
    O = command({"GET", Name});
  }
  if (O.Error) {
    trip(*O.Error, "lookup");
    Result.Status =
        O.Error->What == Failure::Kind::Timeout ? LookupStatus::Timeout : LookupStatus::IOError;
    Result.Detail = BreakerReason;
    return Result;
  }
  CacheStats Delta;
  switch (O.R->type) {
  case REDIS_REPLY_NIL: // never stored, expired, or evicted under maxmemory
    Delta.RemoteMisses = 1;
    count(Delta);
    Result.Status = LookupStatus::Miss;
    return Result;
  case REDIS_REPLY_STRING:
    break;
  case REDIS_REPLY_ERROR: {
    llvm::StringRef Text(O.R->str, O.R->len);
    if (isAuthError(Text)) {
      trip(Failure{Failure::Kind::Auth, Text.str()}, "lookup");
      Result.Status = LookupStatus::IOError;
      Result.Detail = BreakerReason;
      return Result;
    }
    if (!Text.starts_with("WRONGTYPE")) {
      serverError(Text, "lookup");
      Result.Status = LookupStatus::IOError;
      Result.Detail = Text.str();
      return Result;
    }
    [[fallthrough]]; // not a string: not ours, a bad entry the SET replaces
  }
  default:
    Delta.RemoteCorrupt = 1;
    count(Delta);
    Result.Status = LookupStatus::Corrupt;
    Result.Detail = where() + ": " + Name + " does not hold a string";
    return Result;
  }

  EntryReadResult Read = decodeEntry(llvm::StringRef(O.R->str, O.R->len), &Key, ReadMode::Load);
  checkEntryTag(Read, tagKey());
  switch (Read.Status) {
  case ReadStatus::Ok:
    Delta.RemoteHits = 1;
    Delta.CompileTimeSavedMs = Read.Header->CompileTimeMs;
    count(Delta);
    Result.Status = LookupStatus::Hit;
    Result.Level = CacheLevel::Remote;
    Result.Entry = CacheEntry{std::move(*Read.Header), std::move(Read.Payload)};
    return Result;
  case ReadStatus::Refused:
    Delta.RemoteRefused = 1;
    count(Delta);
    Result.Status = LookupStatus::Refused;
    Result.Detail = where() + ": entry " + Key.str() + " refused: " + Read.Detail;
    // Someone without the key (or with another) writes to the team's cache:
    // worth the one warning. The store after the compile replaces it.
    reportProblem(Result.Detail, ProblemSource::Remote);
    return Result;
  default:
    Delta.RemoteCorrupt = 1;
    count(Delta);
    Result.Status = LookupStatus::Corrupt;
    Result.Detail = where() + ": entry " + Key.str() + ": " + Read.Detail;
    return Result;
  }
}

StoreResult RedisCache::storeEntry(const EntryHeader &Header, llvm::StringRef Payload) {
  std::lock_guard<std::mutex> Guard(Mutex);
  if (Options.ReadOnly)
    return {StoreStatus::Disabled, where() + " is read-only"};
  if (std::optional<std::string> Why = skipped())
    return {StoreStatus::Disabled, *Why};
  if (WritesRefused) {
    CacheStats Delta;
    Delta.RemoteSkipped = 1;
    count(Delta);
    return {StoreStatus::Disabled, *WritesRefused};
  }
  CacheKey Key(Header.Key);
  EntryHeader H = Header;
  std::string Value = encodeEntryHeader(H);
  // Our own limit first: an oversized entry costs no round trip.
  uint64_t Limit = Options.MaxEntryBytes;
  if (Value.size() + Payload.size() <= Limit) {
    Limit = sizeLimit();
    if (BreakerOpen) // the size query found the server gone
      return {StoreStatus::Failed, BreakerReason};
  }
  if (Value.size() + Payload.size() > Limit) {
    CacheStats Delta;
    Delta.RemoteTooLarge = 1;
    count(Delta);
    std::string Detail =
        where() + ": entry " + Key.str() + " (" + formatSize(Value.size() + Payload.size()) +
        ") is over the remote size limit (" + formatSize(Limit) +
        (ServerLimit && Limit < Options.MaxEntryBytes ? ", the server's proto-max-bulk-len"
                                                      : ", max-entry-size") +
        "); stored locally only";
    reportProblem(Detail, ProblemSource::Remote);
    return {StoreStatus::TooLarge, Detail};
  }
  Value.append(Payload.data(), Payload.size());
  std::string Name = redisKey(Key);
  std::string Ttl = std::to_string(Options.TtlSeconds * 1000);
  Outcome O =
      Options.TtlSeconds ? command({"SET", Name, Value, "PX", Ttl}) : command({"SET", Name, Value});
  if (O.Error) {
    trip(*O.Error, "store");
    return {StoreStatus::Failed, BreakerReason};
  }
  if (O.R->type == REDIS_REPLY_ERROR) {
    llvm::StringRef Text(O.R->str, O.R->len);
    if (Text.starts_with("NOPERM")) {
      // An ACL user that may read but not write (developers read, CI
      // writes): the stores stop, the lookups go on.
      WritesRefused = where() +
                      ": store: the server refuses writes of this "
                      "user ('" +
                      Text.str() +
                      "'); this process stores locally only (add read-only "
                      "to the URL to skip the attempt)";
      CacheStats Delta;
      Delta.RemoteErrors = 1;
      count(Delta);
      reportProblem(*WritesRefused, ProblemSource::Remote);
      return {StoreStatus::Failed, Text.str()};
    }
    if (isAuthError(Text)) {
      trip(Failure{Failure::Kind::Auth, Text.str()}, "store");
      return {StoreStatus::Failed, BreakerReason};
    }
    if (Text.contains("Protocol error") || Text.contains("bulk length")) {
      CacheStats Delta;
      Delta.RemoteTooLarge = 1;
      count(Delta);
      std::string Detail = where() + ": entry " + Key.str() + " (" + formatSize(Value.size()) +
                           ") refused by the server ('" + Text.str() +
                           "': over its proto-max-bulk-len?); stored locally "
                           "only";
      reportProblem(Detail, ProblemSource::Remote);
      return {StoreStatus::TooLarge, Detail};
    }
    if (refusesWrites(Text))
      WritesRefused = where() + " refuses writes ('" + Text.str() + "')";
    serverError(Text, "store");
    return {StoreStatus::Failed, Text.str()};
  }
  CacheStats Delta;
  Delta.RemoteStores = 1;
  Delta.RemoteBytesStored = Value.size();
  count(Delta);
  return {};
}

//===----------------------------------------------------------------------===//
// Inventory and status (qshape-cache)
//===----------------------------------------------------------------------===//

llvm::Error RedisCache::listEntries(llvm::function_ref<void(const InventoryEntry &)> Visit) {
  std::lock_guard<std::mutex> Guard(Mutex);
  std::vector<InventoryEntry> Found;
  std::string Cursor = "0";
  std::string Pattern = Options.Prefix + ":*";
  auto Fail = [&](llvm::StringRef Why) {
    return llvm::createStringError(std::errc::io_error, "%s: %s", where().c_str(),
                                   Why.str().c_str());
  };
  do {
    Outcome O = command({"SCAN", Cursor, "MATCH", Pattern, "COUNT", "1000"});
    if (O.Error)
      return Fail(O.Error->Message);
    if (O.R->type == REDIS_REPLY_ERROR)
      return Fail(llvm::StringRef(O.R->str, O.R->len));
    if (O.R->type != REDIS_REPLY_ARRAY || O.R->elements != 2 ||
        O.R->element[1]->type != REDIS_REPLY_ARRAY)
      return Fail("unexpected reply to SCAN");
    Cursor.assign(O.R->element[0]->str, O.R->element[0]->len);
    redisReply *Keys = O.R->element[1];
    for (size_t I = 0; I < Keys->elements; ++I) {
      llvm::StringRef Name(Keys->element[I]->str, Keys->element[I]->len);
      if (!Name.consume_front(Options.Prefix + ":"))
        continue;
      std::optional<CacheKey> Key = CacheKey::parse(Name);
      if (!Key)
        continue; // not one of ours
      InventoryEntry E{*Key, 0, std::nullopt};
      std::string Full = redisKey(*Key);
      Outcome Len = command({"STRLEN", Full});
      if (!Len.Error && Len.R->type == REDIS_REPLY_INTEGER)
        E.Size = uint64_t(Len.R->integer);
      Found.push_back(E);
    }
  } while (Cursor != "0");
  llvm::sort(Found, [](const InventoryEntry &A, const InventoryEntry &B) {
    return A.Key.bytes() < B.Key.bytes();
  });
  // SCAN may return a key twice.
  Found.erase(
      std::unique(Found.begin(), Found.end(),
                  [](const InventoryEntry &A, const InventoryEntry &B) { return A.Key == B.Key; }),
      Found.end());
  for (const InventoryEntry &E : Found)
    Visit(E);
  return llvm::Error::success();
}

EntryReadResult RedisCache::checkEntry(const CacheKey &Key) {
  std::lock_guard<std::mutex> Guard(Mutex);
  EntryReadResult R;
  Outcome O = command({"GET", redisKey(Key)});
  if (O.Error) {
    R.Status = ReadStatus::IOError;
    R.Detail = O.Error->Message;
    return R;
  }
  if (O.R->type == REDIS_REPLY_NIL) {
    R.Status = ReadStatus::NotFound;
    return R;
  }
  if (O.R->type != REDIS_REPLY_STRING) {
    R.Status = O.R->type == REDIS_REPLY_ERROR &&
                       !llvm::StringRef(O.R->str, O.R->len).starts_with("WRONGTYPE")
                   ? ReadStatus::IOError
                   : ReadStatus::Corrupt;
    R.Detail = O.R->type == REDIS_REPLY_ERROR ? std::string(O.R->str, O.R->len)
                                              : std::string("not a string value");
    return R;
  }
  R = decodeEntry(llvm::StringRef(O.R->str, O.R->len), &Key, ReadMode::Verify);
  checkEntryTag(R, tagKey());
  return R;
}

std::error_code RedisCache::removeEntry(const CacheKey &Key) {
  std::lock_guard<std::mutex> Guard(Mutex);
  if (Options.ReadOnly)
    return std::make_error_code(std::errc::read_only_file_system);
  Outcome O = command({"DEL", redisKey(Key)});
  if (O.Error || O.R->type == REDIS_REPLY_ERROR)
    return std::make_error_code(std::errc::io_error);
  if (O.R->type == REDIS_REPLY_INTEGER && O.R->integer == 0)
    return std::make_error_code(std::errc::no_such_file_or_directory);
  return {};
}

std::vector<std::pair<std::string, std::string>> RedisCache::status() {
  std::lock_guard<std::mutex> Guard(Mutex);
  std::vector<std::pair<std::string, std::string>> Lines;
  Lines.push_back({"Remote cache",
                   Options.describe() + (Options.TagKey ? " (tags required)" : " (no team key)")});
  Outcome Info = command({"INFO"});
  if (Info.Error || Info.R->type != REDIS_REPLY_STRING) {
    Lines.push_back({"Remote server",
                     "unreachable: " + (Info.Error ? Info.Error->Message
                                                   : std::string(Info.R->str ? Info.R->str : "",
                                                                 Info.R->str ? Info.R->len : 0))});
    return Lines;
  }
  llvm::StringMap<std::string> Fields;
  llvm::SmallVector<llvm::StringRef, 64> InfoLines;
  llvm::StringRef(Info.R->str, Info.R->len).split(InfoLines, "\r\n");
  for (llvm::StringRef L : InfoLines) {
    auto [Name, Value] = L.split(':');
    if (!Value.empty())
      Fields[Name] = Value.str();
  }
  std::string Keys = "?";
  Outcome Size = command({"DBSIZE"});
  if (!Size.Error && Size.R->type == REDIS_REPLY_INTEGER)
    Keys = std::to_string(Size.R->integer);
  std::string MaxMemory = Fields.lookup("maxmemory_human");
  if (Fields.lookup("maxmemory") == "0")
    MaxMemory = "no maxmemory";
  Lines.push_back({"Remote server", "redis " + Fields.lookup("redis_version") + ", " + Keys +
                                        " keys in db " + std::to_string(Options.Database) +
                                        ", memory " + Fields.lookup("used_memory_human") + " of " +
                                        MaxMemory + " (" + Fields.lookup("maxmemory_policy") +
                                        "), " + Fields.lookup("evicted_keys") + " keys evicted"});
  return Lines;
}

} // namespace

void qshape::cache::exportRemoteFailures() {
  std::lock_guard<std::mutex> Guard(FailedRemoteMutex);
  if (FailedRemote.empty())
    unsetenv(RemoteFailureVariable);
  else
    setenv(RemoteFailureVariable, FailedRemote.c_str(), /*overwrite=*/1);
}

std::unique_ptr<CacheBackend> qshape::cache::createRedisCache(RemoteOptions Options,
                                                              CounterSink Sink) {
  return std::make_unique<RedisCache>(std::move(Options), std::move(Sink));
}
