//===- cache-entry-fuzzer.cpp - the cache entry decoder on raw bytes ------===//
//
// Input: the bytes of a cache entry (a file of the directory level, a value
// of the remote level). Properties: the decoders never crash and accept
// exactly what the encoder writes: an entry read as Ok has a header that
// encodeEntryHeader() reproduces byte for byte and a payload that is the rest
// of the bytes; decodeEntry() (bytes, the remote path) and readEntryFile()
// (the same bytes as a file) agree; an entry that checkEntryTag() lets
// through verifies with the key.
//
// `decode` is the one place that names the decoder (lib/Cache/CacheEntry.cpp).
// The custom mutator repairs the size, payload hash, tag and header checksum
// of half the mutants, with the encoder, so they get past the checksums to
// the code behind them.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "qshape/Cache/CacheEntry.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace qshape::cache;
namespace endian = llvm::support::endian;

namespace {
std::string entryPath;

// CacheEntry.h's layout, format 2.
constexpr size_t FlagsAt = 52, TagAt = 112, ProducerLengthAt = 144, FixedPart = 146;
constexpr size_t ChecksumSize = 16;

const EntryTagKey &tagKey() {
  static const EntryTagKey key = *EntryTagKey::fromSecret("qshape-fuzz-team-secret");
  return key;
}

EntryReadResult decode(llvm::StringRef bytes, const CacheKey *expectedKey, ReadMode mode) {
  return decodeEntry(bytes, expectedKey, mode);
}

EntryReadResult decodeFile(llvm::StringRef bytes, const CacheKey *expectedKey, ReadMode mode) {
  int fd = ::open(entryPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0 || ::write(fd, bytes.data(), bytes.size()) != ssize_t(bytes.size()) ||
      ::close(fd) != 0)
    qshape::fuzz::fail("cannot write " + entryPath);
  return readEntryFile(entryPath, expectedKey, mode);
}

void check(llvm::StringRef bytes, const CacheKey *expectedKey, ReadMode mode) {
  EntryReadResult r = decode(bytes, expectedKey, mode);
  EntryReadResult f = decodeFile(bytes, expectedKey, mode);
  if (f.status == ReadStatus::IOError)
    qshape::fuzz::fail("I/O error on a regular file: " + f.detail);
  // An empty file is not found-vs-empty-value territory: both are refused.
  if ((r.status == ReadStatus::Ok) != (f.status == ReadStatus::Ok))
    qshape::fuzz::fail("decodeEntry and readEntryFile disagree: " + r.detail + " | " + f.detail);
  if (r.status != ReadStatus::Ok)
    return;
  if (!r.header)
    qshape::fuzz::fail("Ok without a header");
  EntryHeader h = *r.header;
  std::string header = encodeEntryHeader(h);
  if (!bytes.starts_with(header) || h.headerSize + h.payloadSize != bytes.size())
    qshape::fuzz::fail("decoded an entry the encoder would not write");
  if (expectedKey && h.key != expectedKey->bytes())
    qshape::fuzz::fail("accepted an entry of another key");
  if (mode == ReadMode::Load &&
      (!r.payload || r.payload->getBuffer() != bytes.drop_front(h.headerSize) || !f.payload ||
       f.payload->getBuffer() != r.payload->getBuffer()))
    qshape::fuzz::fail("the payload is not the bytes after the header");
  checkEntryTag(r, &tagKey());
  if (r.status == ReadStatus::Ok && !tagKey().verifies(h))
    qshape::fuzz::fail("checkEntryTag let through an entry the key does not verify");
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::SmallString<128> dir; // under $TMPDIR
  if (llvm::sys::fs::createUniqueDirectory("qshape-cache-entry-fuzz", dir))
    qshape::fuzz::fail("cannot create a temporary directory");
  entryPath = (dir + "/entry").str();
  std::atexit([] {
    llvm::sys::fs::remove(entryPath);
    llvm::sys::fs::remove(llvm::sys::path::parent_path(entryPath));
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  check(bytes, nullptr, ReadMode::Load);
  check(bytes, nullptr, ReadMode::HeaderOnly);
  // The key the entry claims, when it has one: the lookup path.
  if (size >= 48) {
    CacheKey::Digest key;
    std::memcpy(key.data(), data + 16, key.size());
    CacheKey expected(key);
    check(bytes, &expected, ReadMode::Verify);
  }
  return 0;
}

/// libFuzzer's mutation, then (every other time) the fields that checksums
/// guard made consistent again: payload size and hash, header size and
/// checksum (by the encoder itself), and now and then a valid tag.
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t maxSize,
                                          unsigned seed) {
  size = LLVMFuzzerMutate(data, size, maxSize);
  if (seed % 2 || size < FixedPart)
    return size;
  EntryHeader h;
  h.formatVersion = endian::read32le(data + 8);
  std::memcpy(h.key.data(), data + 16, h.key.size());
  h.kind = endian::read32le(data + 48);
  h.flags = endian::read32le(data + FlagsAt);
  h.compileTimeMs = endian::read64le(data + 96);
  h.creationTime = endian::read64le(data + 104);
  std::memcpy(h.tag.data(), data + TagAt, h.tag.size());
  size_t producer = std::min<size_t>(endian::read16le(data + ProducerLengthAt), size - FixedPart);
  h.producer.assign(reinterpret_cast<const char *>(data) + FixedPart, producer);
  size_t payloadStart = std::min(size, FixedPart + producer + ChecksumSize);
  llvm::StringRef payload(reinterpret_cast<const char *>(data) + payloadStart, size - payloadStart);
  h.payloadSize = payload.size();
  h.payloadHash = llvm::BLAKE3::hash<CacheKey::kNumBytes>(llvm::arrayRefFromStringRef(payload));
  if (seed % 3 == 0)
    tagKey().sign(h);
  std::string entry = encodeEntryHeader(h) + payload.str();
  // Leave some lies in: a size the reader must still refuse.
  if (seed % 7 == 0)
    endian::write64le(entry.data() + 56, h.payloadSize + 1 + seed % 3);
  if (entry.size() > maxSize)
    return size;
  std::memcpy(data, entry.data(), entry.size());
  return entry.size();
}
