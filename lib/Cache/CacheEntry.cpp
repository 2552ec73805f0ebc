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
constexpr char Magic[8] = {'Q', 'S', 'H', 'C', 'A', 'C', 'H', 'E'};
constexpr size_t TagOffset = 112;
constexpr size_t ProducerLengthOffset = 144;
constexpr size_t FixedPartSize = 146; // up to the producer string
constexpr size_t HeaderChecksumSize = 16;
constexpr size_t MinHeaderSize = FixedPartSize + HeaderChecksumSize;
constexpr size_t MaxHeaderSize = MinHeaderSize + MaxProducerLength;

struct KindName {
  PayloadKind Kind;
  const char *Name;
};
constexpr KindName KindNames[] = {
    {PayloadKind::Blob, "blob"},
    {PayloadKind::MLIRText, "mlir"},
    {PayloadKind::MLIRBytecode, "mlirbc"},
    {PayloadKind::LLVMIRText, "llvm-ir"},
    {PayloadKind::LLVMBitcode, "llvm-bc"},
    {PayloadKind::ObjectFile, "object"},
    {PayloadKind::SharedLibrary, "shared-lib"},
};

std::array<uint8_t, HeaderChecksumSize> headerChecksum(llvm::StringRef Bytes) {
  return llvm::BLAKE3::hash<HeaderChecksumSize>(llvm::arrayRefFromStringRef(Bytes));
}

/// Decodes the header at the start of \p Bytes (which holds at least the
/// whole header when the file is long enough). Returns an error text for
/// corrupt headers.
std::optional<std::string> decodeHeader(llvm::StringRef Bytes, EntryHeader &H) {
  if (Bytes.size() < MinHeaderSize)
    return "truncated header (" + std::to_string(Bytes.size()) + " bytes)";
  const uint8_t *P = reinterpret_cast<const uint8_t *>(Bytes.data());
  if (std::memcmp(P, Magic, sizeof(Magic)) != 0)
    return std::string("bad magic (not a qshape cache entry)");
  H.FormatVersion = endian::read32le(P + 8);
  if (H.FormatVersion != EntryFormatVersion)
    return "unsupported format version " + std::to_string(H.FormatVersion) +
           " (this build reads version " + std::to_string(EntryFormatVersion) + ")";
  H.HeaderSize = endian::read32le(P + 12);
  size_t ProducerLength = endian::read16le(P + ProducerLengthOffset);
  if (ProducerLength > MaxProducerLength ||
      H.HeaderSize != FixedPartSize + ProducerLength + HeaderChecksumSize)
    return std::string("inconsistent header size");
  if (Bytes.size() < H.HeaderSize)
    return "truncated header (" + std::to_string(Bytes.size()) + " of " +
           std::to_string(H.HeaderSize) + " bytes)";
  size_t ChecksumOffset = FixedPartSize + ProducerLength;
  auto Expected = headerChecksum(Bytes.take_front(ChecksumOffset));
  if (std::memcmp(Expected.data(), P + ChecksumOffset, HeaderChecksumSize) != 0)
    return std::string("header checksum mismatch");
  std::memcpy(H.Key.data(), P + 16, H.Key.size());
  H.Kind = endian::read32le(P + 48);
  H.Flags = endian::read32le(P + 52);
  if (H.Flags & ~(EntryFlagTagged | EntryFlagFetched))
    return "unknown flags 0x" + llvm::utohexstr(H.Flags);
  H.PayloadSize = endian::read64le(P + 56);
  std::memcpy(H.PayloadHash.data(), P + 64, H.PayloadHash.size());
  H.CompileTimeMs = endian::read64le(P + 96);
  H.CreationTime = endian::read64le(P + 104);
  std::memcpy(H.Tag.data(), P + TagOffset, H.Tag.size());
  H.Producer = Bytes.substr(FixedPartSize, ProducerLength).str();
  return std::nullopt;
}

EntryReadResult failure(ReadStatus Status, std::string Detail, uint64_t FileSize = 0) {
  EntryReadResult R;
  R.Status = Status;
  R.Detail = std::move(Detail);
  R.FileSize = FileSize;
  return R;
}

/// The checks that need the whole entry's size: the key asked for and the
/// payload size. \p What names the container in messages ("file", "value").
std::optional<std::string> checkFraming(const EntryHeader &H, uint64_t Size,
                                        const CacheKey *ExpectedKey, llvm::StringRef What) {
  if (ExpectedKey && H.Key != ExpectedKey->bytes())
    return "header holds key blake3:" + toHex(H.Key) + ", not the requested one";
  if (Size < H.HeaderSize || H.PayloadSize != Size - H.HeaderSize)
    return (What + " is " + llvm::Twine(Size) + " bytes, header promises " +
            llvm::Twine(uint64_t(H.HeaderSize) + H.PayloadSize) +
            (Size < uint64_t(H.HeaderSize) + H.PayloadSize ? " (truncated)" : " (trailing bytes)"))
        .str();
  return std::nullopt;
}
} // namespace

std::string qshape::cache::payloadKindName(uint32_t Kind) {
  for (const KindName &K : KindNames)
    if (uint32_t(K.Kind) == Kind)
      return K.Name;
  return "kind-" + std::to_string(Kind);
}

std::optional<PayloadKind> qshape::cache::parsePayloadKind(llvm::StringRef Name) {
  for (const KindName &K : KindNames)
    if (Name == K.Name)
      return K.Kind;
  return std::nullopt;
}

llvm::StringRef qshape::cache::payloadKindNames() {
  return "blob, mlir, mlirbc, llvm-ir, llvm-bc, object, shared-lib";
}

std::string qshape::cache::encodeEntryHeader(EntryHeader &H) {
  llvm::StringRef Producer = llvm::StringRef(H.Producer).take_front(MaxProducerLength);
  H.HeaderSize = uint32_t(MinHeaderSize + Producer.size());
  std::string Bytes(H.HeaderSize, '\0');
  uint8_t *P = reinterpret_cast<uint8_t *>(Bytes.data());
  std::memcpy(P, Magic, sizeof(Magic));
  endian::write32le(P + 8, H.FormatVersion);
  endian::write32le(P + 12, H.HeaderSize);
  std::memcpy(P + 16, H.Key.data(), H.Key.size());
  endian::write32le(P + 48, H.Kind);
  endian::write32le(P + 52, H.Flags);
  endian::write64le(P + 56, H.PayloadSize);
  std::memcpy(P + 64, H.PayloadHash.data(), H.PayloadHash.size());
  endian::write64le(P + 96, H.CompileTimeMs);
  endian::write64le(P + 104, H.CreationTime);
  std::memcpy(P + TagOffset, H.Tag.data(), H.Tag.size());
  endian::write16le(P + ProducerLengthOffset, uint16_t(Producer.size()));
  std::memcpy(P + FixedPartSize, Producer.data(), Producer.size());
  size_t ChecksumOffset = FixedPartSize + Producer.size();
  auto Checksum = headerChecksum(llvm::StringRef(Bytes).take_front(ChecksumOffset));
  std::memcpy(P + ChecksumOffset, Checksum.data(), Checksum.size());
  return Bytes;
}

EntryReadResult qshape::cache::readEntryFile(llvm::StringRef Path, const CacheKey *ExpectedKey,
                                             ReadMode Mode) {
  // O_NOFOLLOW: an entry is never a symlink; O_NONBLOCK: a FIFO planted
  // under an entry name must not hang the compiler.
  UniqueFD FD = openFile(Path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  if (!FD.valid()) {
    if (errno == ENOENT)
      return failure(ReadStatus::NotFound, "");
    if (errno == ELOOP)
      return failure(ReadStatus::Corrupt, "entry is a symbolic link");
    return failure(ReadStatus::IOError,
                   ("cannot open " + Path + ": " + describe(lastError())).str());
  }
  struct stat St;
  if (::fstat(FD.get(), &St) != 0)
    return failure(ReadStatus::IOError,
                   ("cannot stat " + Path + ": " + describe(lastError())).str());
  if (!S_ISREG(St.st_mode))
    return failure(ReadStatus::Corrupt, "not a regular file");
  uint64_t FileSize = uint64_t(St.st_size);
  if (FileSize == 0)
    return failure(ReadStatus::Corrupt, "empty file", FileSize);

  char HeaderBuffer[MaxHeaderSize];
  llvm::ErrorOr<size_t> Got = readAt(FD.get(), HeaderBuffer, sizeof(HeaderBuffer), 0);
  if (!Got)
    return failure(ReadStatus::IOError,
                   ("cannot read " + Path + ": " + describe(Got.getError())).str(), FileSize);
  llvm::StringRef Prefix(HeaderBuffer, *Got);

  EntryReadResult R;
  R.FileSize = FileSize;
  EntryHeader H;
  if (std::optional<std::string> Problem = decodeHeader(Prefix, H))
    return failure(ReadStatus::Corrupt, *Problem, FileSize);
  R.Header = H;
  auto Corrupt = [&](std::string Detail) {
    R.Status = ReadStatus::Corrupt;
    R.Detail = std::move(Detail);
    return std::move(R);
  };
  if (std::optional<std::string> Problem = checkFraming(H, FileSize, ExpectedKey, "file"))
    return Corrupt(std::move(*Problem));
  if (Mode == ReadMode::HeaderOnly) {
    R.Status = ReadStatus::Ok;
    return R;
  }

  // The payload size is now bounded by the real file size.
  std::unique_ptr<llvm::WritableMemoryBuffer> Buffer;
  std::vector<char> Chunk;
  if (Mode == ReadMode::Load) {
    Buffer = llvm::WritableMemoryBuffer::getNewUninitMemBuffer(size_t(H.PayloadSize), Path);
    if (!Buffer)
      return failure(ReadStatus::IOError,
                     "cannot allocate " + std::to_string(H.PayloadSize) + " bytes for the payload",
                     FileSize);
  } else {
    Chunk.resize(1 << 20);
  }
  llvm::BLAKE3 Hasher;
  uint64_t Done = 0;
  while (Done < H.PayloadSize) {
    size_t Want = size_t(std::min<uint64_t>(H.PayloadSize - Done, 1 << 20));
    char *Dest = Buffer ? Buffer->getBufferStart() + Done : Chunk.data();
    llvm::ErrorOr<size_t> N = readAt(FD.get(), Dest, Want, H.HeaderSize + Done);
    if (!N)
      return failure(ReadStatus::IOError,
                     ("cannot read " + Path + ": " + describe(N.getError())).str(), FileSize);
    if (*N != Want) // shrank while we read it
      return Corrupt("file shrank while being read (truncated)");
    Hasher.update(llvm::StringRef(Dest, Want));
    Done += Want;
  }
  if (Hasher.final<CacheKey::NumBytes>() != H.PayloadHash)
    return Corrupt("payload checksum mismatch");
  R.Status = ReadStatus::Ok;
  if (Buffer)
    R.Payload = std::move(Buffer);
  return R;
}

EntryReadResult qshape::cache::decodeEntry(llvm::StringRef Bytes, const CacheKey *ExpectedKey,
                                           ReadMode Mode) {
  if (Bytes.empty())
    return failure(ReadStatus::Corrupt, "empty value", 0);
  EntryHeader H;
  if (std::optional<std::string> Problem = decodeHeader(Bytes.take_front(MaxHeaderSize), H))
    return failure(ReadStatus::Corrupt, *Problem, Bytes.size());
  EntryReadResult R;
  R.FileSize = Bytes.size();
  R.Header = H;
  if (std::optional<std::string> Problem = checkFraming(H, Bytes.size(), ExpectedKey, "value")) {
    R.Status = ReadStatus::Corrupt;
    R.Detail = std::move(*Problem);
    return R;
  }
  R.Status = ReadStatus::Ok;
  if (Mode == ReadMode::HeaderOnly)
    return R;
  llvm::StringRef Payload = Bytes.drop_front(H.HeaderSize);
  if (llvm::BLAKE3::hash<CacheKey::NumBytes>(llvm::arrayRefFromStringRef(Payload)) !=
      H.PayloadHash) {
    R.Status = ReadStatus::Corrupt;
    R.Detail = "payload checksum mismatch";
    return R;
  }
  if (Mode == ReadMode::Load)
    R.Payload = llvm::MemoryBuffer::getMemBufferCopy(Payload, "cache entry");
  return R;
}

//===----------------------------------------------------------------------===//
// Authenticity tags
//===----------------------------------------------------------------------===//

namespace {
// BLAKE3's derive-key context: globally unique, fixed forever, so the same
// secret gives an unrelated key in any other use.
constexpr const char *TagKeyContext = "qshape-cache 2026-12 remote entry authenticity tag v1";
} // namespace

std::optional<EntryTagKey> EntryTagKey::fromSecret(llvm::StringRef Secret) {
  if (Secret.size() < MinSecretLength)
    return std::nullopt;
  llvm_blake3_hasher Hasher;
  llvm_blake3_hasher_init_derive_key(&Hasher, TagKeyContext);
  llvm_blake3_hasher_update(&Hasher, Secret.data(), Secret.size());
  CacheKey::Digest Key;
  llvm_blake3_hasher_finalize(&Hasher, Key.data(), Key.size());
  return EntryTagKey(Key);
}

CacheKey::Digest EntryTagKey::tagOf(const EntryHeader &Header) const {
  EntryHeader Unsigned = Header;
  // The tagged flag is part of what is signed; the fetched flag is set by
  // the reader's own directory after the tag was made.
  Unsigned.Flags = (Unsigned.Flags | EntryFlagTagged) & ~EntryFlagFetched;
  Unsigned.Tag = {};
  std::string Bytes = encodeEntryHeader(Unsigned);
  llvm_blake3_hasher Hasher;
  llvm_blake3_hasher_init_keyed(&Hasher, Key.data());
  // The header checksum at the end depends on the tag: leave it out.
  llvm_blake3_hasher_update(&Hasher, Bytes.data(), Bytes.size() - HeaderChecksumSize);
  CacheKey::Digest Tag;
  llvm_blake3_hasher_finalize(&Hasher, Tag.data(), Tag.size());
  return Tag;
}

void EntryTagKey::sign(EntryHeader &Header) const {
  Header.Tag = tagOf(Header);
  Header.Flags |= EntryFlagTagged;
}

bool EntryTagKey::verifies(const EntryHeader &Header) const {
  if (!Header.tagged())
    return false;
  CacheKey::Digest Expected = tagOf(Header);
  uint8_t Difference = 0;
  for (size_t I = 0; I < Expected.size(); ++I)
    Difference |= uint8_t(Expected[I] ^ Header.Tag[I]);
  return Difference == 0;
}

void qshape::cache::checkEntryTag(EntryReadResult &Result, const EntryTagKey *TagKey) {
  if (!TagKey || Result.Status != ReadStatus::Ok)
    return;
  const EntryHeader &H = *Result.Header;
  if (TagKey->verifies(H))
    return;
  Result.Status = ReadStatus::Refused;
  Result.Payload.reset();
  Result.Detail = H.tagged() ? "its authenticity tag does not verify with "
                               "QSHAPE_CACHE_REMOTE_KEY (written with another key, or "
                               "altered)"
                             : "it carries no authenticity tag (written by a client "
                               "without QSHAPE_CACHE_REMOTE_KEY)";
}

void FetchedEntryPolicy::check(EntryReadResult &Result) const {
  if (Result.Status != ReadStatus::Ok || !Result.Header->fetched())
    return;
  if (TagKey) {
    checkEntryTag(Result, &*TagKey);
    if (Result.Status == ReadStatus::Refused)
      Result.Detail = "fetched from a remote cache, and " + Result.Detail;
    return;
  }
  if (TrustUntagged)
    return;
  Result.Status = ReadStatus::Refused;
  Result.Payload.reset();
  Result.Detail = "fetched from a remote cache, which is not trusted now: set "
                  "QSHAPE_CACHE_REMOTE_KEY to the team's key (or "
                  "QSHAPE_CACHE_REMOTE_INSECURE=1 to trust every writer)";
}

EntryHeader qshape::cache::makeEntryHeader(const CacheKey &Key, PayloadKind Kind,
                                           llvm::StringRef Payload, uint64_t CompileTimeMs,
                                           const EntryTagKey *TagKey) {
  EntryHeader H;
  H.Key = Key.bytes();
  H.Kind = uint32_t(Kind);
  H.PayloadSize = Payload.size();
  H.PayloadHash = llvm::BLAKE3::hash<CacheKey::NumBytes>(llvm::arrayRefFromStringRef(Payload));
  H.CompileTimeMs = CompileTimeMs;
  H.CreationTime = uint64_t(fileutil::nowSeconds());
  H.Producer = getProducerVersion().str();
  if (TagKey)
    TagKey->sign(H);
  return H;
}
