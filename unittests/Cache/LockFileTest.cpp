//===- LockFileTest.cpp - The cleaner lock --------------------------------===//

#include "qshape/Cache/LockFile.h"
#include "qshape/Cache/FileUtil.h"

#include "llvm/Testing/Support/SupportHelpers.h"

#include "gtest/gtest.h"

#include <climits>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace qshape::cache;
using llvm::unittest::TempDir;

namespace {

std::string host() {
  char Buffer[HOST_NAME_MAX + 1] = {};
  ::gethostname(Buffer, sizeof(Buffer) - 1);
  return Buffer;
}

/// The pid of a child that has exited and been reaped.
pid_t deadPid() {
  pid_t Pid = ::fork();
  if (Pid == 0)
    ::_exit(0);
  int Status;
  ::waitpid(Pid, &Status, 0);
  return Pid;
}

void plantLock(llvm::StringRef Path, llvm::StringRef Content, int64_t AgeSeconds) {
  using namespace fileutil;
  UniqueFD FD = openFile(Path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ASSERT_TRUE(FD.valid());
  ASSERT_FALSE(writeAll(FD.get(), Content));
  struct timespec Times[2];
  Times[0].tv_sec = Times[1].tv_sec = nowSeconds() - AgeSeconds;
  Times[0].tv_nsec = Times[1].tv_nsec = 0;
  ASSERT_EQ(::futimens(FD.get(), Times), 0);
}

class LockFileTest : public ::testing::Test {
protected:
  TempDir Dir{"qshape-lock-test", /*Unique=*/true};
  std::string Path = std::string(Dir.path("cleanup.lock"));
  bool exists() { return ::access(Path.c_str(), F_OK) == 0; }
};

TEST_F(LockFileTest, OneHolderAtATime) {
  LockFile::Attempt First = LockFile::tryAcquire(Path, 600);
  ASSERT_EQ(First.result, LockFile::Outcome::Acquired);
  ASSERT_TRUE(First.acquired());
  LockFile::Attempt Second = LockFile::tryAcquire(Path, 600);
  EXPECT_EQ(Second.result, LockFile::Outcome::Busy);
  EXPECT_FALSE(Second.acquired());
  First.lock.reset();
  EXPECT_FALSE(exists());
  EXPECT_EQ(LockFile::tryAcquire(Path, 600).result, LockFile::Outcome::Acquired);
}

TEST_F(LockFileTest, LockOfDeadProcessIsBroken) {
  plantLock(Path, std::to_string(deadPid()) + " " + host() + " 0\n", 0);
  LockFile::Attempt A = LockFile::tryAcquire(Path, 600);
  EXPECT_EQ(A.result, LockFile::Outcome::AcquiredAfterBreakingStale);
  EXPECT_TRUE(A.acquired());
}

TEST_F(LockFileTest, OldLockIsBrokenEvenIfHolderLives) {
  plantLock(Path, std::to_string(::getpid()) + " " + host() + " 0\n", 1000);
  EXPECT_EQ(LockFile::tryAcquire(Path, 600).result, LockFile::Outcome::AcquiredAfterBreakingStale);
}

TEST_F(LockFileTest, FreshLockOfLiveProcessIsKept) {
  plantLock(Path, std::to_string(::getpid()) + " " + host() + " 0\n", 10);
  EXPECT_EQ(LockFile::tryAcquire(Path, 600).result, LockFile::Outcome::Busy);
  EXPECT_TRUE(exists());
}

TEST_F(LockFileTest, FreshLockFromAnotherHostIsKept) {
  // A dead pid means nothing on another host: only age breaks it.
  std::string Content = std::to_string(deadPid()) + " other-host 0\n";
  plantLock(Path, Content, 10);
  EXPECT_EQ(LockFile::tryAcquire(Path, 600).result, LockFile::Outcome::Busy);
  plantLock(Path, Content, 1000);
  EXPECT_EQ(LockFile::tryAcquire(Path, 600).result, LockFile::Outcome::AcquiredAfterBreakingStale);
}

TEST_F(LockFileTest, EmptyFreshLockIsKept) {
  // A holder between O_EXCL create and its write: not stale yet.
  plantLock(Path, "", 0);
  EXPECT_EQ(LockFile::tryAcquire(Path, 600).result, LockFile::Outcome::Busy);
}

TEST_F(LockFileTest, BrokenHolderDoesNotRemoveTheNewLock) {
  LockFile::Attempt Old = LockFile::tryAcquire(Path, 600);
  ASSERT_TRUE(Old.acquired());
  // It is not refreshed for long; another cleaner judges it stale and takes
  // over.
  struct timespec Old10Min[2] = {{fileutil::nowSeconds() - 1000, 0},
                                 {fileutil::nowSeconds() - 1000, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, Path.c_str(), Old10Min, 0), 0);
  LockFile::Attempt New = LockFile::tryAcquire(Path, 600);
  EXPECT_EQ(New.result, LockFile::Outcome::AcquiredAfterBreakingStale);
  ASSERT_TRUE(New.acquired());
  Old.lock.reset(); // must not delete New's file
  EXPECT_TRUE(exists());
  New.lock.reset();
  EXPECT_FALSE(exists());
}

TEST_F(LockFileTest, UnwritableDirectoryIsAnError) {
  LockFile::Attempt A = LockFile::tryAcquire("/nonexistent-dir/cleanup.lock", 600);
  EXPECT_EQ(A.result, LockFile::Outcome::Error);
  EXPECT_TRUE(A.ec);
}

} // namespace
