//===- CacheEntry.cpp - The one-file format of a cache entry --------------===//

#include "qshape/Cache/CacheEntry.h"

#include "qshape/Cache/FileUtil.h"

#include "llvm-c/blake3.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Endian.h"

#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>

using namespace qshape::cache;
using namespace qshape::cache::fileutil;
namespace endian = llvm::support::endian;

namespace {
constexpr char kMagic[8] = {'Q', 'S', 'H', 'C', 'A', 'C', 'H', 'E'};
constexpr size_t kTagOffset = 112;
constexpr size_t kProducerLengthOffset = 144;
constexpr size_t kFixedPartSize = 146; // up to the producer string
constexpr size_t kHeaderChecksumSize = 16;
constexpr size_t kMinHeaderSize = kFixedPartSize + kHeaderChecksumSize;
constexpr size_t kMaxHeaderSize = kMinHeaderSize + kMaxProducerLength;

struct KindName {
  PayloadKind kind;
  const char *name;
};
constexpr KindName kKindNames[] = {
    {PayloadKind::Blob, "blob"},
    {PayloadKind::MLIRText, "mlir"},
    {PayloadKind::MLIRBytecode, "mlirbc"},
    {PayloadKind::LLVMIRText, "llvm-ir"},
    {PayloadKind::LLVMBitcode, "llvm-bc"},
    {PayloadKind::ObjectFile, "object"},
    {PayloadKind::SharedLibrary, "shared-lib"},
};

std::array<uint8_t, kHeaderChecksumSize> headerChecksum(llvm::StringRef bytes) {
  return llvm::BLAKE3::hash<kHeaderChecksumSize>(llvm::arrayRefFromStringRef(bytes));
}

/// Decodes the header at the start of \p bytes (which holds at least the
/// whole header when the file is long enough). Returns an error text for
/// corrupt headers.
std::optional<std::string> decodeHeader(llvm::StringRef bytes, EntryHeader &h) {
  if (bytes.size() < kMinHeaderSize)
    return "truncated header (" + std::to_string(bytes.size()) + " bytes)";
  const auto *p = reinterpret_cast<const uint8_t *>(bytes.data());
  if (std::memcmp(p, kMagic, sizeof(kMagic)) != 0)
    return std::string("bad magic (not a qshape cache entry)");
  h.formatVersion = endian::read32le(p + 8);
  if (h.formatVersion != kEntryFormatVersion)
    return "unsupported format version " + std::to_string(h.formatVersion) +
           " (this build reads version " + std::to_string(kEntryFormatVersion) + ")";
  h.headerSize = endian::read32le(p + 12);
  size_t producerLength = endian::read16le(p + kProducerLengthOffset);
  if (producerLength > kMaxProducerLength ||
      h.headerSize != kFixedPartSize + producerLength + kHeaderChecksumSize)
    return std::string("inconsistent header size");
  if (bytes.size() < h.headerSize)
    return "truncated header (" + std::to_string(bytes.size()) + " of " +
           std::to_string(h.headerSize) + " bytes)";
  size_t checksumOffset = kFixedPartSize + producerLength;
  auto expected = headerChecksum(bytes.take_front(checksumOffset));
  if (std::memcmp(expected.data(), p + checksumOffset, kHeaderChecksumSize) != 0)
    return std::string("header checksum mismatch");
  std::memcpy(h.key.data(), p + 16, h.key.size());
  h.kind = endian::read32le(p + 48);
  h.flags = endian::read32le(p + 52);
  if (h.flags & ~(kEntryFlagTagged | kEntryFlagFetched))
    return "unknown flags 0x" + llvm::utohexstr(h.flags);
  h.payloadSize = endian::read64le(p + 56);
  std::memcpy(h.payloadHash.data(), p + 64, h.payloadHash.size());
  h.compileTimeMs = endian::read64le(p + 96);
  h.creationTime = endian::read64le(p + 104);
  std::memcpy(h.tag.data(), p + kTagOffset, h.tag.size());
  h.producer = bytes.substr(kFixedPartSize, producerLength).str();
  return std::nullopt;
}

EntryReadResult failure(ReadStatus status, std::string detail, uint64_t fileSize = 0) {
  EntryReadResult r;
  r.status = status;
  r.detail = std::move(detail);
  r.fileSize = fileSize;
  return r;
}

/// The checks that need the whole entry's size: the key asked for and the
/// payload size. \p what names the container in messages ("file", "value").
std::optional<std::string> checkFraming(const EntryHeader &h, uint64_t size,
                                        const CacheKey *expectedKey, llvm::StringRef what) {
  if (expectedKey && h.key != expectedKey->bytes())
    return "header holds key blake3:" + toHex(h.key) + ", not the requested one";
  if (size < h.headerSize || h.payloadSize != size - h.headerSize)
    return (what + " is " + llvm::Twine(size) + " bytes, header promises " +
            llvm::Twine(static_cast<uint64_t>(h.headerSize) + h.payloadSize) +
            (size < static_cast<uint64_t>(h.headerSize) + h.payloadSize ? " (truncated)"
                                                                        : " (trailing bytes)"))
        .str();
  return std::nullopt;
}
} // namespace

std::string qshape::cache::payloadKindName(uint32_t kind) {
  for (const KindName &k : kKindNames)
    if (static_cast<uint32_t>(k.kind) == kind)
      return k.name;
  return "kind-" + std::to_string(kind);
}

std::optional<PayloadKind> qshape::cache::parsePayloadKind(llvm::StringRef name) {
  for (const KindName &k : kKindNames)
    if (name == k.name)
      return k.kind;
  return std::nullopt;
}

llvm::StringRef qshape::cache::payloadKindNames() {
  return "blob, mlir, mlirbc, llvm-ir, llvm-bc, object, shared-lib";
}

std::string qshape::cache::encodeEntryHeader(EntryHeader &h) {
  llvm::StringRef producer = llvm::StringRef(h.producer).take_front(kMaxProducerLength);
  h.headerSize = static_cast<uint32_t>(kMinHeaderSize + producer.size());
  std::string bytes(h.headerSize, '\0');
  auto *p = reinterpret_cast<uint8_t *>(bytes.data());
  std::memcpy(p, kMagic, sizeof(kMagic));
  endian::write32le(p + 8, h.formatVersion);
  endian::write32le(p + 12, h.headerSize);
  std::memcpy(p + 16, h.key.data(), h.key.size());
  endian::write32le(p + 48, h.kind);
  endian::write32le(p + 52, h.flags);
  endian::write64le(p + 56, h.payloadSize);
  std::memcpy(p + 64, h.payloadHash.data(), h.payloadHash.size());
  endian::write64le(p + 96, h.compileTimeMs);
  endian::write64le(p + 104, h.creationTime);
  std::memcpy(p + kTagOffset, h.tag.data(), h.tag.size());
  endian::write16le(p + kProducerLengthOffset, static_cast<uint16_t>(producer.size()));
  std::memcpy(p + kFixedPartSize, producer.data(), producer.size());
  size_t checksumOffset = kFixedPartSize + producer.size();
  auto checksum = headerChecksum(llvm::StringRef(bytes).take_front(checksumOffset));
  std::memcpy(p + checksumOffset, checksum.data(), checksum.size());
  return bytes;
}

EntryReadResult qshape::cache::readEntryFile(llvm::StringRef path, const CacheKey *expectedKey,
                                             ReadMode mode) {
  // O_NOFOLLOW: an entry is never a symlink; O_NONBLOCK: a FIFO planted
  // under an entry name must not hang the compiler.
  UniqueFD fd = openFile(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  if (!fd.valid()) {
    if (errno == ENOENT)
      return failure(ReadStatus::NotFound, "");
    if (errno == ELOOP)
      return failure(ReadStatus::Corrupt, "entry is a symbolic link");
    return failure(ReadStatus::IOError,
                   ("cannot open " + path + ": " + describe(lastError())).str());
  }
  struct stat st;
  if (::fstat(fd.get(), &st) != 0)
    return failure(ReadStatus::IOError,
                   ("cannot stat " + path + ": " + describe(lastError())).str());
  if (!S_ISREG(st.st_mode))
    return failure(ReadStatus::Corrupt, "not a regular file");
  auto fileSize = static_cast<uint64_t>(st.st_size);
  if (fileSize == 0)
    return failure(ReadStatus::Corrupt, "empty file", fileSize);

  char headerBuffer[kMaxHeaderSize];
  llvm::ErrorOr<size_t> got = readAt(fd.get(), headerBuffer, sizeof(headerBuffer), 0);
  if (!got)
    return failure(ReadStatus::IOError,
                   ("cannot read " + path + ": " + describe(got.getError())).str(), fileSize);
  llvm::StringRef prefix(headerBuffer, *got);

  EntryReadResult r;
  r.fileSize = fileSize;
  EntryHeader h;
  if (std::optional<std::string> problem = decodeHeader(prefix, h))
    return failure(ReadStatus::Corrupt, *problem, fileSize);
  r.header = h;
  auto corrupt = [&](std::string detail) {
    r.status = ReadStatus::Corrupt;
    r.detail = std::move(detail);
    return std::move(r);
  };
  if (std::optional<std::string> problem = checkFraming(h, fileSize, expectedKey, "file"))
    return corrupt(std::move(*problem));
  if (mode == ReadMode::HeaderOnly) {
    r.status = ReadStatus::Ok;
    return r;
  }

  // The payload size is now bounded by the real file size.
  std::unique_ptr<llvm::WritableMemoryBuffer> buffer;
  std::vector<char> chunk;
  if (mode == ReadMode::Load) {
    buffer =
        llvm::WritableMemoryBuffer::getNewUninitMemBuffer(static_cast<size_t>(h.payloadSize), path);
    if (!buffer)
      return failure(ReadStatus::IOError,
                     "cannot allocate " + std::to_string(h.payloadSize) + " bytes for the payload",
                     fileSize);
  } else {
    chunk.resize(1 << 20);
  }
  llvm::BLAKE3 hasher;
  uint64_t done = 0;
  while (done < h.payloadSize) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(h.payloadSize - done, 1 << 20));
    char *dest = buffer ? buffer->getBufferStart() + done : chunk.data();
    llvm::ErrorOr<size_t> n = readAt(fd.get(), dest, want, h.headerSize + done);
    if (!n)
      return failure(ReadStatus::IOError,
                     ("cannot read " + path + ": " + describe(n.getError())).str(), fileSize);
    if (*n != want) // shrank while we read it
      return corrupt("file shrank while being read (truncated)");
    hasher.update(llvm::StringRef(dest, want));
    done += want;
  }
  if (hasher.final<CacheKey::kNumBytes>() != h.payloadHash)
    return corrupt("payload checksum mismatch");
  r.status = ReadStatus::Ok;
  if (buffer)
    r.payload = std::move(buffer);
  return r;
}

EntryReadResult qshape::cache::decodeEntry(llvm::StringRef bytes, const CacheKey *expectedKey,
                                           ReadMode mode) {
  if (bytes.empty())
    return failure(ReadStatus::Corrupt, "empty value", 0);
  EntryHeader h;
  if (std::optional<std::string> problem = decodeHeader(bytes.take_front(kMaxHeaderSize), h))
    return failure(ReadStatus::Corrupt, *problem, bytes.size());
  EntryReadResult r;
  r.fileSize = bytes.size();
  r.header = h;
  if (std::optional<std::string> problem = checkFraming(h, bytes.size(), expectedKey, "value")) {
    r.status = ReadStatus::Corrupt;
    r.detail = std::move(*problem);
    return r;
  }
  r.status = ReadStatus::Ok;
  if (mode == ReadMode::HeaderOnly)
    return r;
  llvm::StringRef payload = bytes.drop_front(h.headerSize);
  if (llvm::BLAKE3::hash<CacheKey::kNumBytes>(llvm::arrayRefFromStringRef(payload)) !=
      h.payloadHash) {
    r.status = ReadStatus::Corrupt;
    r.detail = "payload checksum mismatch";
    return r;
  }
  if (mode == ReadMode::Load)
    r.payload = llvm::MemoryBuffer::getMemBufferCopy(payload, "cache entry");
  return r;
}

//===----------------------------------------------------------------------===//
// Authenticity tags
//===----------------------------------------------------------------------===//

namespace {
// BLAKE3's derive-key context: globally unique, fixed forever, so the same
// secret gives an unrelated key in any other use.
constexpr const char *kTagKeyContext = "qshape-cache 2026-12 remote entry authenticity tag v1";
} // namespace

std::optional<EntryTagKey> EntryTagKey::fromSecret(llvm::StringRef secret) {
  if (secret.size() < kMinSecretLength)
    return std::nullopt;
  llvm_blake3_hasher hasher;
  llvm_blake3_hasher_init_derive_key(&hasher, kTagKeyContext);
  llvm_blake3_hasher_update(&hasher, secret.data(), secret.size());
  CacheKey::Digest key;
  llvm_blake3_hasher_finalize(&hasher, key.data(), key.size());
  return EntryTagKey(key);
}

CacheKey::Digest EntryTagKey::tagOf(const EntryHeader &header) const {
  EntryHeader toSign = header;
  // The tagged flag is part of what is signed; the fetched flag is set by
  // the reader's own directory after the tag was made.
  toSign.flags = (toSign.flags | kEntryFlagTagged) & ~kEntryFlagFetched;
  toSign.tag = {};
  std::string bytes = encodeEntryHeader(toSign);
  llvm_blake3_hasher hasher;
  llvm_blake3_hasher_init_keyed(&hasher, key.data());
  // The header checksum at the end depends on the tag: leave it out.
  llvm_blake3_hasher_update(&hasher, bytes.data(), bytes.size() - kHeaderChecksumSize);
  CacheKey::Digest tag;
  llvm_blake3_hasher_finalize(&hasher, tag.data(), tag.size());
  return tag;
}

void EntryTagKey::sign(EntryHeader &header) const {
  header.tag = tagOf(header);
  header.flags |= kEntryFlagTagged;
}

bool EntryTagKey::verifies(const EntryHeader &header) const {
  if (!header.tagged())
    return false;
  CacheKey::Digest expected = tagOf(header);
  uint8_t difference = 0;
  for (size_t i = 0; i < expected.size(); ++i)
    difference |= static_cast<uint8_t>(expected[i] ^ header.tag[i]);
  return difference == 0;
}

void qshape::cache::checkEntryTag(EntryReadResult &result, const EntryTagKey *tagKey) {
  if (!tagKey || result.status != ReadStatus::Ok || !result.header)
    return;
  const EntryHeader &h = *result.header;
  if (tagKey->verifies(h))
    return;
  result.status = ReadStatus::Refused;
  result.payload.reset();
  result.detail = h.tagged() ? "its authenticity tag does not verify with "
                               "QSHAPE_CACHE_REMOTE_KEY (written with another key, or "
                               "altered)"
                             : "it carries no authenticity tag (written by a client "
                               "without QSHAPE_CACHE_REMOTE_KEY)";
}

void FetchedEntryPolicy::check(EntryReadResult &result) const {
  if (result.status != ReadStatus::Ok || !result.header || !result.header->fetched())
    return;
  if (tagKey) {
    checkEntryTag(result, &*tagKey);
    if (result.status == ReadStatus::Refused)
      result.detail = "fetched from a remote cache, and " + result.detail;
    return;
  }
  if (trustUntagged)
    return;
  result.status = ReadStatus::Refused;
  result.payload.reset();
  result.detail = "fetched from a remote cache, which is not trusted now: set "
                  "QSHAPE_CACHE_REMOTE_KEY to the team's key (or "
                  "QSHAPE_CACHE_REMOTE_INSECURE=1 to trust every writer)";
}

EntryHeader qshape::cache::makeEntryHeader(const CacheKey &key, PayloadKind kind,
                                           llvm::StringRef payload, uint64_t compileTimeMs,
                                           const EntryTagKey *tagKey) {
  EntryHeader h;
  h.key = key.bytes();
  h.kind = static_cast<uint32_t>(kind);
  h.payloadSize = payload.size();
  h.payloadHash = llvm::BLAKE3::hash<CacheKey::kNumBytes>(llvm::arrayRefFromStringRef(payload));
  h.compileTimeMs = compileTimeMs;
  h.creationTime = static_cast<uint64_t>(fileutil::nowSeconds());
  h.producer = getProducerVersion().str();
  if (tagKey)
    tagKey->sign(h);
  return h;
}
