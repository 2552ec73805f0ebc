//===- CacheEntry.h - The one-file format of a cache entry ------*- C++ -*-===//
//
// An entry is one byte string: a header followed by the payload. The same
// bytes are a file in a cache directory and a value in a remote cache. All
// integers are little-endian.
//
//   offset  size  field
//        0     8  magic "QSHCACHE"
//        8     4  format version (kEntryFormatVersion)
//       12     4  header size H (bytes, up to the payload)
//       16    32  key (raw digest)
//       48     4  payload kind (PayloadKind)
//       52     4  flags (kEntryFlagTagged, kEntryFlagFetched; other bits zero)
//       56     8  payload size P
//       64    32  BLAKE3 of the payload
//       96     8  compile time of the payload, milliseconds
//      104     8  creation time, seconds since the Unix epoch
//      112    32  authenticity tag (keyed BLAKE3, see EntryTagKey), or zeros
//      144     2  producer version length N (at most kMaxProducerLength)
//      146     N  producer version, e.g. "qshape 0.1.0"
//    146+N    16  BLAKE3 of bytes [0, 146+N), truncated
//        H     P  payload
//
// A reader accepts an entry only if every field checks out and its size is
// exactly H + P; anything else is reported as corrupt with a reason. The
// checksums catch damage; the tag, when the reader has the team key, catches
// forgery (an entry planted by someone who can write the remote cache).
// A local copy of a remote entry keeps its tag and is marked fetched: a
// directory serves it only while the remote would (FetchedEntryPolicy).
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

/// Version 2 added the flags and the authenticity tag, version 3 the fetched
/// flag (a version-2 local copy of a remote entry looks made here); entries
/// of older versions read as corrupt (a miss that the next store replaces).
constexpr uint32_t kEntryFormatVersion = 3;
constexpr size_t kMaxProducerLength = 256;
/// Bit of EntryHeader::flags: tag holds a keyed-BLAKE3 tag.
constexpr uint32_t kEntryFlagTagged = 1;
/// Bit of EntryHeader::flags: a local copy of a remote entry, with the tag
/// it arrived with. Set by the local level; not covered by the tag.
constexpr uint32_t kEntryFlagFetched = 2;

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
std::string payloadKindName(uint32_t kind);
std::optional<PayloadKind> parsePayloadKind(llvm::StringRef name);
/// Comma-separated list of the names parsePayloadKind() accepts.
llvm::StringRef payloadKindNames();

struct EntryHeader {
  uint32_t formatVersion = kEntryFormatVersion;
  uint32_t headerSize = 0; ///< filled in by encodeEntryHeader()
  CacheKey::Digest key{};
  uint32_t kind = 0;
  uint32_t flags = 0;
  uint64_t payloadSize = 0;
  CacheKey::Digest payloadHash{};
  uint64_t compileTimeMs = 0;
  uint64_t creationTime = 0;
  CacheKey::Digest tag{};
  std::string producer;

  bool tagged() const { return flags & kEntryFlagTagged; }
  bool fetched() const { return flags & kEntryFlagFetched; }
};

/// The key of the authenticity tag, derived from a team secret
/// ($QSHAPE_CACHE_REMOTE_KEY) with BLAKE3's key-derivation mode, so the
/// secret itself is never used as a key and never stored.
class EntryTagKey {
public:
  /// Secrets shorter than kMinSecretLength are refused (std::nullopt).
  static constexpr size_t kMinSecretLength = 16;
  static std::optional<EntryTagKey> fromSecret(llvm::StringRef secret);

  /// The tag of \p header: keyed BLAKE3 over the header as encoded with a
  /// zero tag (so over the key, the payload's BLAKE3, kind, size, times and
  /// producer: everything that decides what a reader gets).
  CacheKey::Digest tagOf(const EntryHeader &header) const;
  /// Sets the tagged flag and the tag of \p header.
  void sign(EntryHeader &header) const;
  /// True if \p header is tagged and its tag is this key's (compared in
  /// constant time).
  bool verifies(const EntryHeader &header) const;

  bool operator==(const EntryTagKey &other) const { return key == other.key; }

private:
  explicit EntryTagKey(const CacheKey::Digest &key) : key(key) {}
  CacheKey::Digest key;
};

/// Serializes \p header (sets its headerSize) including the header checksum.
/// The producer string is cut to kMaxProducerLength.
std::string encodeEntryHeader(EntryHeader &header);

/// The header of a new entry for \p payload: hash, sizes, creation time and
/// producer filled in; tagged with \p tagKey if given.
EntryHeader makeEntryHeader(const CacheKey &key, PayloadKind kind, llvm::StringRef payload,
                            uint64_t compileTimeMs, const EntryTagKey *tagKey = nullptr);

/// How much of an entry readEntryFile() reads.
enum class ReadMode {
  HeaderOnly, ///< header fields and the file size; payload not read
  Verify,     ///< also hashes the payload (streamed, not kept)
  Load,       ///< hashes the payload and returns it
};

enum class ReadStatus {
  Ok,
  NotFound,
  Corrupt,
  IOError,
  /// Intact, but refused by checkEntryTag(): untagged, or tagged with
  /// another key. Only remote caches that require tags report it.
  Refused,
};

struct EntryReadResult {
  ReadStatus status = ReadStatus::NotFound;
  /// For Corrupt, IOError and Refused: what is wrong, for humans.
  std::string detail;
  /// Valid if status == Ok (or Refused, or Corrupt found after the header
  /// decoded).
  std::optional<EntryHeader> header;
  /// Set only with ReadMode::Load and status == Ok.
  std::unique_ptr<llvm::MemoryBuffer> payload;
  /// Size of the whole entry (file or value).
  uint64_t fileSize = 0;
};

/// Reads and checks the entry at \p path. With \p expectedKey, a header that
/// carries another key is Corrupt. Never follows a symlink, never blocks on a
/// FIFO, never trusts a size before it has been checked against the file.
EntryReadResult readEntryFile(llvm::StringRef path, const CacheKey *expectedKey, ReadMode mode);

/// The same checks on an entry held in memory (a remote cache's value).
/// With ReadMode::Load the payload is copied out of \p bytes.
EntryReadResult decodeEntry(llvm::StringRef bytes, const CacheKey *expectedKey, ReadMode mode);

/// Turns an Ok result into Refused unless its header carries the tag of
/// \p tagKey. A null \p tagKey accepts everything (no key, no check).
void checkEntryTag(EntryReadResult &result, const EntryTagKey *tagKey);

/// Which local copies of remote entries (kEntryFlagFetched) a cache directory
/// serves: those the remote would serve now, under today's key and mode. A
/// key set since the copy was made, or a key changed, refuses the copies it
/// does not verify; without a key only QSHAPE_CACHE_REMOTE_INSECURE=1 serves
/// them. Entries made on this machine are not affected.
struct FetchedEntryPolicy {
  std::optional<EntryTagKey> tagKey; ///< a fetched entry's tag must verify
  bool trustUntagged = false;        ///< no key, and the insecure mode asked for

  /// Turns an Ok result of a fetched entry into Refused unless the remote
  /// would serve it now.
  void check(EntryReadResult &result) const;
};

} // namespace qshape::cache

#endif // QSHAPE_CACHE_CACHEENTRY_H
