//===- cache-entry-fuzzer.cpp - the cache entry decoder on raw bytes ------===//
//
// Input: the bytes of a cache entry. Property: the decoder never crashes and
// accepts exactly what the encoder writes: an entry it reads as Ok has a
// header that encodeEntryHeader() reproduces byte for byte and a payload
// that is the rest of the bytes.
//
// The decoder today is readEntryFile() (lib/Cache/CacheEntry.cpp), so the
// bytes go through a file; `decode` is the one place to change when the
// decoder takes bytes. The custom mutator repairs the size, payload hash and
// header checksum of half the mutants, so they get past the checksums to the
// code behind them.
//
//===----------------------------------------------------------------------===//

#include "FuzzCommon.h"

#include "qshape/Cache/CacheEntry.h"

#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Endian.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <unistd.h>

using namespace qshape::cache;
namespace endian = llvm::support::endian;

namespace {
std::string entryPath;

constexpr size_t FixedPart = 114; // CacheEntry.h's layout, up to the producer
constexpr size_t ChecksumSize = 16;

EntryReadResult decode(llvm::StringRef bytes, const CacheKey *expectedKey, ReadMode mode) {
  int fd = ::open(entryPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0 || ::write(fd, bytes.data(), bytes.size()) != ssize_t(bytes.size()) ||
      ::close(fd) != 0)
    qshape::fuzz::fail("cannot write " + entryPath);
  return readEntryFile(entryPath, expectedKey, mode);
}

void check(llvm::StringRef bytes, const CacheKey *expectedKey, ReadMode mode) {
  EntryReadResult r = decode(bytes, expectedKey, mode);
  if (r.Status == ReadStatus::IOError)
    qshape::fuzz::fail("I/O error on a regular file: " + r.Detail);
  if (r.Status != ReadStatus::Ok)
    return;
  if (!r.Header)
    qshape::fuzz::fail("Ok without a header");
  EntryHeader h = *r.Header;
  std::string header = encodeEntryHeader(h);
  if (!bytes.starts_with(header) || h.HeaderSize + h.PayloadSize != bytes.size())
    qshape::fuzz::fail("decoded an entry the encoder would not write");
  if (expectedKey && h.Key != expectedKey->bytes())
    qshape::fuzz::fail("accepted an entry of another key");
  if (mode == ReadMode::Load &&
      (!r.Payload || r.Payload->getBuffer() != bytes.drop_front(h.HeaderSize)))
    qshape::fuzz::fail("the payload is not the bytes after the header");
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
/// checksum, by the encoder itself.
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t maxSize,
                                          unsigned seed) {
  size = LLVMFuzzerMutate(data, size, maxSize);
  if (seed % 2 || size < FixedPart)
    return size;
  EntryHeader h;
  h.FormatVersion = endian::read32le(data + 8);
  std::memcpy(h.Key.data(), data + 16, h.Key.size());
  h.Kind = endian::read32le(data + 48);
  h.CompileTimeMs = endian::read64le(data + 96);
  h.CreationTime = endian::read64le(data + 104);
  size_t producer = std::min<size_t>(endian::read16le(data + 112), size - FixedPart);
  h.Producer.assign(reinterpret_cast<const char *>(data) + FixedPart, producer);
  size_t payloadStart = std::min(size, FixedPart + producer + ChecksumSize);
  llvm::StringRef payload(reinterpret_cast<const char *>(data) + payloadStart,
                          size - payloadStart);
  h.PayloadSize = payload.size();
  h.PayloadHash = llvm::BLAKE3::hash<CacheKey::NumBytes>(llvm::arrayRefFromStringRef(payload));
  std::string entry = encodeEntryHeader(h) + payload.str();
  // Leave some lies in: a size or a version the reader must still refuse.
  if (seed % 7 == 0)
    endian::write64le(entry.data() + 56, h.PayloadSize + 1 + seed % 3);
  if (entry.size() > maxSize)
    return size;
  std::memcpy(data, entry.data(), entry.size());
  return entry.size();
}
