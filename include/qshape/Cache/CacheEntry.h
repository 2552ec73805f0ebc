//===- CacheEntry.h - On-disk format of one cache entry ---------*- C++ -*-===//
//
// An entry is one file: a header followed by the payload. All integers are
// little-endian.
//
//   offset  size  field
//        0     8  magic "QSHCACHE"
//        8     4  format version (EntryFormatVersion)
//       12     4  header size H (bytes, up to the payload)
//       16    32  key (raw digest)
//       48     4  payload kind (PayloadKind)
//       52     4  reserved, zero
//       56     8  payload size P
//       64    32  BLAKE3 of the payload
//       96     8  compile time of the payload, milliseconds
//      104     8  creation time, seconds since the Unix epoch
//      112     2  producer version length N (at most MaxProducerLength)
//      114     N  producer version, e.g. "qshape 0.1.0"
//    114+N    16  BLAKE3 of bytes [0, 114+N), truncated
//        H     P  payload
//
// A reader accepts a file only if every field checks out and the file size is
// exactly H + P; anything else is reported as corrupt with a reason.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_CACHE_CACHEENTRY_H
#define QSHAPE_CACHE_CACHEENTRY_H

#include "qshape/Cache/CacheKey.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace qshape::cache {

constexpr uint32_t EntryFormatVersion = 1;
constexpr size_t MaxProducerLength = 256;

/// What the payload holds. Stored as a number; unknown numbers read from a
/// newer producer are kept and shown as "kind-<N>".
enum class PayloadKind : uint32_t {
  Blob = 0,
  MLIRText = 1,
  MLIRBytecode = 2,
  LLVMIRText = 3,
  LLVMBitcode = 4,
  ObjectFile = 5,
  SharedLibrary = 6,
};

/// "blob", "mlir", "mlirbc", "llvm-ir", "llvm-bc", "object", "shared-lib".
std::string payloadKindName(uint32_t Kind);
std::optional<PayloadKind> parsePayloadKind(llvm::StringRef Name);
/// Comma-separated list of the names parsePayloadKind() accepts.
llvm::StringRef payloadKindNames();

struct EntryHeader {
  uint32_t FormatVersion = EntryFormatVersion;
  uint32_t HeaderSize = 0; ///< filled in by encodeEntryHeader()
  CacheKey::Digest Key{};
  uint32_t Kind = 0;
  uint64_t PayloadSize = 0;
  CacheKey::Digest PayloadHash{};
  uint64_t CompileTimeMs = 0;
  uint64_t CreationTime = 0;
  std::string Producer;
};

/// Serializes \p Header (sets its HeaderSize) including the header checksum.
/// The producer string is cut to MaxProducerLength.
std::string encodeEntryHeader(EntryHeader &Header);

/// How much of an entry readEntryFile() reads.
enum class ReadMode {
  HeaderOnly, ///< header fields and the file size; payload not read
  Verify,     ///< also hashes the payload (streamed, not kept)
  Load,       ///< hashes the payload and returns it
};

enum class ReadStatus { Ok, NotFound, Corrupt, IOError };

struct EntryReadResult {
  ReadStatus Status = ReadStatus::NotFound;
  /// For Corrupt and IOError: what is wrong, for humans.
  std::string Detail;
  /// Valid if Status == Ok (or for Corrupt found after the header decoded).
  std::optional<EntryHeader> Header;
  /// Set only with ReadMode::Load and Status == Ok.
  std::unique_ptr<llvm::MemoryBuffer> Payload;
  /// Size of the file on disk.
  uint64_t FileSize = 0;
};

/// Reads and checks the entry at \p Path. With \p ExpectedKey, a header that
/// carries another key is Corrupt. Never follows a symlink, never blocks on a
/// FIFO, never trusts a size before it has been checked against the file.
EntryReadResult readEntryFile(llvm::StringRef Path, const CacheKey *ExpectedKey,
                              ReadMode Mode);

} // namespace qshape::cache

#endif // QSHAPE_CACHE_CACHEENTRY_H
