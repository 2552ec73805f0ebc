//===- HostRecordTest.cpp - the record of the host's target ---------------===//
//
// TargetInfo::recorded() returns what record() wrote in this boot, and
// nothing for a record of another boot, a damaged one, or one others could
// have written: a wrong record would key libraries for another CPU.
//
//===----------------------------------------------------------------------===//

#include "qshape/ArtifactCache/Toolchain.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <sys/stat.h>

using namespace qshape::compile;

namespace {

class HostRecordTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("qshape-host-record", dir));
    record = dir;
    llvm::sys::path::append(record, "host-target");
    fake.triple = "x86_64-pc-linux-gnu";
    fake.cpu = "some-other-cpu";
    fake.features = "+sse2,-avx";
    // Read as a stream: /proc files have no size.
    auto boot = llvm::MemoryBuffer::getFileAsStream("/proc/sys/kernel/random/boot_id");
    if (boot)
      bootId = (*boot)->getBuffer().trim().str();
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  std::string read() {
    auto text = llvm::MemoryBuffer::getFile(record);
    return text ? (*text)->getBuffer().str() : std::string();
  }
  void write(llvm::StringRef text) {
    std::error_code ec;
    llvm::raw_fd_ostream os(record, ec);
    ASSERT_FALSE(ec);
    os << text;
  }
  /// A record with a correct check line, for another boot id.
  std::string withCheck(llvm::StringRef body) {
    return (body + "check " +
            llvm::toHex(llvm::BLAKE3::hash(llvm::arrayRefFromStringRef(body)), true) + "\n")
        .str();
  }

  llvm::SmallString<128> dir, record;
  TargetInfo fake;
  std::string bootId;
};

TEST_F(HostRecordTest, ReturnsWhatWasRecordedInThisBoot) {
  if (bootId.empty())
    GTEST_SKIP() << "no /proc/sys/kernel/random/boot_id";
  EXPECT_FALSE(TargetInfo::recorded(dir));
  TargetInfo::record(dir, fake);
  std::optional<TargetInfo> got = TargetInfo::recorded(dir);
  ASSERT_TRUE(got);
  EXPECT_EQ(*got, fake);
  EXPECT_NE(read().find("boot " + bootId + "\n"), std::string::npos);
  struct stat st;
  ASSERT_EQ(::stat(record.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  // Recorded again only when it differs: the host replaces the fake.
  TargetInfo::record(dir, TargetInfo::host());
  EXPECT_EQ(TargetInfo::recorded(dir), TargetInfo::host());
}

TEST_F(HostRecordTest, IgnoresAnotherBoot) {
  if (bootId.empty())
    GTEST_SKIP() << "no /proc/sys/kernel/random/boot_id";
  TargetInfo::record(dir, fake);
  std::string text = read();
  size_t at = text.find(bootId);
  ASSERT_NE(at, std::string::npos);
  std::string other = bootId;
  other[0] = other[0] == '0' ? '1' : '0';
  std::string body = text.substr(0, text.rfind("check "));
  body.replace(at, bootId.size(), other);
  write(withCheck(body));
  EXPECT_FALSE(TargetInfo::recorded(dir));
  // The same text with this boot's id is accepted (so only the id differs).
  body.replace(at, other.size(), bootId);
  write(withCheck(body));
  EXPECT_EQ(TargetInfo::recorded(dir), fake);
}

TEST_F(HostRecordTest, IgnoresDamage) {
  if (bootId.empty())
    GTEST_SKIP() << "no /proc/sys/kernel/random/boot_id";
  TargetInfo::record(dir, fake);
  std::string text = read();
  std::string edited = text;
  edited.replace(edited.find("some-other-cpu"), 4, "zzzz"); // the check no longer matches
  write(edited);
  EXPECT_FALSE(TargetInfo::recorded(dir));
  write(text.substr(0, text.size() - 10)); // cut short
  EXPECT_FALSE(TargetInfo::recorded(dir));
  write(withCheck("qshape-host-target 1\nboot " + bootId + "\ntriple x\n")); // fields missing
  EXPECT_FALSE(TargetInfo::recorded(dir));
  write(text);
  EXPECT_EQ(TargetInfo::recorded(dir), fake);
}

TEST_F(HostRecordTest, IgnoresARecordOthersCouldWrite) {
  if (bootId.empty())
    GTEST_SKIP() << "no /proc/sys/kernel/random/boot_id";
  TargetInfo::record(dir, fake);
  ASSERT_EQ(::chmod(record.c_str(), 0620), 0);
  EXPECT_FALSE(TargetInfo::recorded(dir));
  ASSERT_EQ(::chmod(record.c_str(), 0600), 0);
  EXPECT_EQ(TargetInfo::recorded(dir), fake);
}

} // namespace
