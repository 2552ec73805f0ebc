//===- RedisCacheTest.cpp - The Redis level against misbehaving servers ---===//
//
// Servers that a real redis-server cannot be made to imitate on demand: one
// that accepts and never answers, one whose backlog is full (a connect that
// hangs), one that closes in the middle of a reply or of an upload, one that
// speaks something else, one that refuses the password. Each must cost a
// bounded wait, a counter and one warning, and then the circuit breaker
// keeps the remote away. (test/Cache/fault-injection.py runs the same faults
// against a real redis-server: pause, kill, maxmemory, size limits.)
//
// The time bounds are generous correctness bounds (no hang), not benchmarks.
//
//===----------------------------------------------------------------------===//

#include "qshape/Cache/CacheBackend.h"
#include "qshape/Cache/Diagnostics.h"

#include "gtest/gtest.h"

#include <arpa/inet.h>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace qshape::cache;
using Clock = std::chrono::steady_clock;

namespace {

const CacheKey &testKey() {
  static CacheKey K = *CacheKey::parse(std::string(64, 'a'));
  return K;
}

double secondsSince(Clock::time_point Start) {
  return std::chrono::duration<double>(Clock::now() - Start).count();
}

/// A TCP server on 127.0.0.1 that misbehaves in one way.
class FakeServer {
public:
  enum class Behaviour {
    Silent,         ///< reads everything, never answers
    CutReply,       ///< answers the first command with half a bulk string
    Garbage,        ///< answers with bytes that are not RESP
    WrongPassword,  ///< answers AUTH with WRONGPASS
    CloseWhileRead, ///< refuses CONFIG, reads a little of SET, hangs up
    NoAccept,       ///< never accepts; its backlog is filled by the test
  };

  explicit FakeServer(Behaviour B) : B(B) {
    Listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in A = {};
    A.sin_family = AF_INET;
    A.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(Listener, reinterpret_cast<sockaddr *>(&A), sizeof(A)), 0);
    EXPECT_EQ(::listen(Listener, B == Behaviour::NoAccept ? 0 : 16), 0);
    socklen_t Length = sizeof(A);
    ::getsockname(Listener, reinterpret_cast<sockaddr *>(&A), &Length);
    Port = ntohs(A.sin_port);
    if (B == Behaviour::NoAccept) {
      // Fill the accept queue so that the next SYN is dropped: a connect
      // to this port then hangs, like one to a host that does not answer.
      for (int I = 0; I < 8; ++I) {
        int S = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        (void)::connect(S, reinterpret_cast<sockaddr *>(&A), sizeof(A));
        Fillers.push_back(S);
      }
      ::usleep(50 * 1000);
      return;
    }
    Thread = std::thread([this] { serve(); });
  }

  ~FakeServer() {
    Stop = true;
    ::shutdown(Listener, SHUT_RDWR);
    ::close(Listener);
    if (Thread.joinable())
      Thread.join();
    for (int S : Fillers)
      ::close(S);
  }

  std::string url(const std::string &Attributes = "", const std::string &UserInfo = "") const {
    return "redis://" + (UserInfo.empty() ? "" : UserInfo + "@") +
           "127.0.0.1:" + std::to_string(Port) + "/0" +
           (Attributes.empty() ? "" : "?" + Attributes);
  }
  unsigned connections() const { return Accepted; }

private:
  void serve() {
    while (!Stop) {
      struct pollfd P = {Listener, POLLIN, 0};
      if (::poll(&P, 1, 50) <= 0)
        continue;
      int C = ::accept4(Listener, nullptr, nullptr, SOCK_CLOEXEC);
      if (C < 0)
        continue;
      ++Accepted;
      handle(C);
      ::close(C);
    }
  }

  /// Reads what is there (up to \p Limit bytes) within \p Ms.
  size_t drain(int C, int Ms, size_t Limit = SIZE_MAX) {
    char Buffer[4096];
    size_t Total = 0;
    while (!Stop && Total < Limit) {
      struct pollfd P = {C, POLLIN, 0};
      if (::poll(&P, 1, Ms) <= 0)
        break;
      ssize_t N = ::recv(C, Buffer, std::min(sizeof(Buffer), Limit - Total), 0);
      if (N <= 0)
        break;
      Total += size_t(N);
    }
    return Total;
  }

  void send(int C, const char *Text) { (void)::send(C, Text, std::strlen(Text), MSG_NOSIGNAL); }

  void handle(int C) {
    switch (B) {
    case Behaviour::Silent:
      // Read (and ignore) until the client gives up and closes.
      while (!Stop) {
        struct pollfd P = {C, POLLIN, 0};
        if (::poll(&P, 1, 50) <= 0)
          continue;
        char Buffer[4096];
        if (::recv(C, Buffer, sizeof(Buffer), 0) <= 0)
          return;
      }
      return;
    case Behaviour::CutReply:
      drain(C, 100);
      send(C, "$1000\r\nQSHCACHE only the start of a value");
      return;
    case Behaviour::Garbage:
      drain(C, 100);
      send(C, "HTTP/1.1 400 Bad Request\r\n\r\n");
      drain(C, 100);
      return;
    case Behaviour::WrongPassword:
      drain(C, 100);
      send(C, "-WRONGPASS invalid username-password pair or user is "
              "disabled.\r\n");
      drain(C, 100);
      return;
    case Behaviour::CloseWhileRead:
      // Let the client start a large upload, then hang up on it, as a
      // server does that refuses a value over its proto-max-bulk-len.
      // It says goodbye first (FIN, so the client's socket is half
      // closed), then resets: the client's next send fails with EPIPE.
      // The size query (CONFIG GET) is refused, as managed servers do.
      drain(C, 100);
      send(C, "-ERR unknown command 'CONFIG'\r\n");
      drain(C, 200, 64 * 1024);
      ::shutdown(C, SHUT_WR);
      ::usleep(50 * 1000);
      return;
    case Behaviour::NoAccept:
      return;
    }
  }

  Behaviour B;
  int Listener = -1;
  unsigned Port = 0;
  std::thread Thread;
  std::atomic<bool> Stop{false};
  std::atomic<unsigned> Accepted{0};
  std::vector<int> Fillers;
};

class RedisCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (!haveRedisSupport())
      GTEST_SKIP() << "built without hiredis (QSHAPE_ENABLE_REDIS=OFF)";
    for (const char *Var : {"QSHAPE_CACHE_REMOTE_KEY", "QSHAPE_CACHE_REMOTE_KEY_FILE",
                            "QSHAPE_CACHE_REMOTE_PASSWORD_FILE"})
      ::unsetenv(Var);
    resetProblemsForTesting();
    Previous = setWarningHandler([this](llvm::StringRef M) { Warnings.push_back(M.str()); });
  }
  void TearDown() override {
    setWarningHandler(std::move(Previous));
    resetProblemsForTesting();
  }

  std::unique_ptr<CacheBackend> open(const std::string &Url) {
    llvm::Expected<std::unique_ptr<CacheBackend>> B = openCacheBackend(Url);
    if (!B) {
      ADD_FAILURE() << llvm::toString(B.takeError());
      return nullptr;
    }
    return std::move(*B);
  }

  std::vector<std::string> Warnings;
  WarningHandler Previous;
};

TEST_F(RedisCacheTest, RefusedConnectionOpensTheBreaker) {
  // A port nobody listens on.
  int S = ::socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in A = {};
  A.sin_family = AF_INET;
  A.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(S, reinterpret_cast<sockaddr *>(&A), sizeof(A)), 0);
  socklen_t Length = sizeof(A);
  ::getsockname(S, reinterpret_cast<sockaddr *>(&A), &Length);
  ::close(S);
  auto Remote = open("redis://127.0.0.1:" + std::to_string(ntohs(A.sin_port)));
  ASSERT_TRUE(Remote);
  Clock::time_point Start = Clock::now();
  LookupResult R = Remote->lookup(testKey());
  EXPECT_EQ(R.status, LookupStatus::IOError);
  EXPECT_NE(R.detail.find("Connection refused"), std::string::npos) << R.detail;
  for (int I = 0; I < 20; ++I)
    EXPECT_EQ(Remote->lookup(testKey()).status, LookupStatus::Disabled);
  EXPECT_EQ(Remote->store(testKey(), PayloadKind::Blob, "x", 1).status, StoreStatus::Disabled);
  EXPECT_LT(secondsSince(Start), 5.0);
  CacheStats S2 = Remote->processStats();
  EXPECT_EQ(S2.remoteErrors, 1u);
  EXPECT_EQ(S2.remoteSkipped, 21u);
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_NE(Warnings[0].find("uses the local cache only for the next 60 s"), std::string::npos)
      << Warnings[0];
}

TEST_F(RedisCacheTest, HangingConnectCostsOneConnectTimeout) {
  FakeServer Server(FakeServer::Behaviour::NoAccept);
  auto Remote = open(Server.url("connect-timeout=200ms"));
  ASSERT_TRUE(Remote);
  Clock::time_point Start = Clock::now();
  LookupResult R = Remote->lookup(testKey());
  double First = secondsSince(Start);
  EXPECT_EQ(R.status, LookupStatus::Timeout) << R.detail;
  EXPECT_GE(First, 0.15);
  EXPECT_LT(First, 5.0);
  for (int I = 0; I < 10; ++I)
    EXPECT_EQ(Remote->lookup(testKey()).status, LookupStatus::Disabled);
  EXPECT_LT(secondsSince(Start), First + 1.0) << "one timeout, not eleven";
  EXPECT_EQ(Remote->processStats().remoteTimeouts, 1u);
  EXPECT_EQ(Warnings.size(), 1u);
}

TEST_F(RedisCacheTest, SilentServerCostsOneOperationTimeout) {
  FakeServer Server(FakeServer::Behaviour::Silent);
  auto Remote = open(Server.url("timeout=300ms"));
  ASSERT_TRUE(Remote);
  Clock::time_point Start = Clock::now();
  LookupResult R = Remote->lookup(testKey());
  double First = secondsSince(Start);
  EXPECT_EQ(R.status, LookupStatus::Timeout);
  EXPECT_NE(R.detail.find("within the operation timeout (300 ms"), std::string::npos) << R.detail;
  EXPECT_GE(First, 0.25);
  EXPECT_LT(First, 5.0);
  for (int I = 0; I < 10; ++I)
    (void)Remote->lookup(testKey());
  EXPECT_EQ(Remote->store(testKey(), PayloadKind::Blob, "x", 1).status, StoreStatus::Disabled);
  EXPECT_LT(secondsSince(Start), First + 1.0);
  EXPECT_EQ(Remote->processStats().remoteTimeouts, 1u);
  EXPECT_EQ(Server.connections(), 1u);
}

TEST_F(RedisCacheTest, BreakerClosesAgainAfterRetryAfter) {
  FakeServer Server(FakeServer::Behaviour::Silent);
  auto Remote = open(Server.url("timeout=100ms&retry-after=1s"));
  ASSERT_TRUE(Remote);
  EXPECT_EQ(Remote->lookup(testKey()).status, LookupStatus::Timeout);
  EXPECT_EQ(Remote->lookup(testKey()).status, LookupStatus::Disabled);
  ::usleep(1100 * 1000);
  EXPECT_EQ(Remote->lookup(testKey()).status, LookupStatus::Timeout)
      << "one more try after retry-after";
  EXPECT_EQ(Remote->processStats().remoteTimeouts, 2u);
  EXPECT_EQ(Warnings.size(), 1u) << "still one warning per process";
}

TEST_F(RedisCacheTest, ReplyCutShortIsALostConnection) {
  FakeServer Server(FakeServer::Behaviour::CutReply);
  auto Remote = open(Server.url());
  ASSERT_TRUE(Remote);
  LookupResult R = Remote->lookup(testKey());
  EXPECT_EQ(R.status, LookupStatus::IOError);
  EXPECT_NE(R.detail.find("closed the connection during GET"), std::string::npos) << R.detail;
  EXPECT_FALSE(R.entry);
  EXPECT_EQ(Remote->processStats().remoteErrors, 1u);
}

TEST_F(RedisCacheTest, ForeignProtocolIsAnError) {
  FakeServer Server(FakeServer::Behaviour::Garbage);
  auto Remote = open(Server.url());
  ASSERT_TRUE(Remote);
  LookupResult R = Remote->lookup(testKey());
  EXPECT_EQ(R.status, LookupStatus::IOError);
  EXPECT_NE(R.detail.find("bad reply"), std::string::npos) << R.detail;
}

TEST_F(RedisCacheTest, WrongPasswordTurnsTheRemoteOffForTheProcess) {
  FakeServer Server(FakeServer::Behaviour::WrongPassword);
  auto Remote = open(Server.url("retry-after=1s", ":nope"));
  ASSERT_TRUE(Remote);
  LookupResult R = Remote->lookup(testKey());
  EXPECT_EQ(R.status, LookupStatus::IOError);
  EXPECT_NE(R.detail.find("WRONGPASS"), std::string::npos) << R.detail;
  EXPECT_EQ(R.detail.find("nope"), std::string::npos) << "no password in text";
  ::usleep(1100 * 1000);
  EXPECT_EQ(Remote->lookup(testKey()).status, LookupStatus::Disabled)
      << "a wrong password is not retried";
  EXPECT_EQ(Server.connections(), 1u);
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_NE(Warnings[0].find("check the user and password"), std::string::npos);
}

TEST_F(RedisCacheTest, ServerHangingUpDuringAnUploadDoesNotKillTheProcess) {
  // write(2) to a reset connection raises SIGPIPE, whose default action
  // ends the compiler. The level sends with MSG_NOSIGNAL.
  struct sigaction Default = {}, Old;
  Default.sa_handler = SIG_DFL;
  ::sigaction(SIGPIPE, &Default, &Old);
  FakeServer Server(FakeServer::Behaviour::CloseWhileRead);
  auto Remote = open(Server.url("timeout=2s"));
  ASSERT_TRUE(Remote);
  std::string Big(8 << 20, 'q');
  Clock::time_point Start = Clock::now();
  StoreResult R = Remote->store(testKey(), PayloadKind::SharedLibrary, Big, 1);
  EXPECT_EQ(R.status, StoreStatus::Failed) << R.detail;
  EXPECT_LT(secondsSince(Start), 10.0);
  EXPECT_EQ(Remote->processStats().remoteErrors + Remote->processStats().remoteTimeouts, 1u);
  ::sigaction(SIGPIPE, &Old, nullptr);
}

TEST_F(RedisCacheTest, OversizedEntriesStayLocalWithoutTouchingTheServer) {
  FakeServer Server(FakeServer::Behaviour::Silent);
  auto Remote = open(Server.url("max-entry-size=1K&timeout=200ms"));
  ASSERT_TRUE(Remote);
  StoreResult R = Remote->store(testKey(), PayloadKind::Blob, std::string(4096, 'x'), 1);
  EXPECT_EQ(R.status, StoreStatus::TooLarge);
  EXPECT_NE(R.detail.find("over the remote size limit (1.0 KiB, "
                          "max-entry-size)"),
            std::string::npos)
      << R.detail;
  EXPECT_EQ(Remote->processStats().remoteTooLarge, 1u);
  EXPECT_EQ(Server.connections(), 0u);
  ASSERT_EQ(Warnings.size(), 1u);
}

} // namespace
