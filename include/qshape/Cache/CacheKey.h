//===- CacheKey.h - Cache keys and the key builder ---------------*- C++
//-*-===//
//
// A cache key is a 256-bit BLAKE3 digest, written `blake3:<64 hex digits>`.
// Keys come from untrusted places (the command line, a Python caller), so the
// only way to get a CacheKey is through parse(), which accepts nothing but 64
// lowercase hex digits: a key can never name a path outside the cache.
//
// KeyBuilder derives keys from everything that decides the compiled result.
// Each field is fed to BLAKE3 as (length, name, length, value), so no two
// different field lists produce the same byte stream: ("ab","c") != ("a","bc").
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_CACHE_CACHEKEY_H
#define QSHAPE_CACHE_CACHEKEY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/BLAKE3.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace qshape::cache {

/// A validated 256-bit cache key.
class CacheKey {
public:
  static constexpr size_t kNumBytes = 32;
  static constexpr size_t kNumHexDigits = 2 * kNumBytes;
  using Digest = std::array<uint8_t, kNumBytes>;

  /// Accepts exactly 64 digits [0-9a-f], optionally prefixed by "blake3:".
  /// Returns std::nullopt for anything else (upper case, '/', "..", other
  /// lengths).
  static std::optional<CacheKey> parse(llvm::StringRef text);

  explicit CacheKey(const Digest &digest) : digest(digest) {}

  const Digest &bytes() const { return digest; }
  /// The 64 hex digits, used as the entry's file name.
  std::string hex() const;
  /// "blake3:<64 hex digits>", the form shown to users.
  std::string str() const;

  bool operator==(const CacheKey &other) const { return digest == other.digest; }
  bool operator!=(const CacheKey &other) const { return digest != other.digest; }

private:
  Digest digest;
};

/// Explains what parse() accepts; used in error messages.
llvm::StringRef keySyntaxHelp();

/// Bumped when the meaning of the fields fed by computeKey() changes, so
/// every old key misses.
constexpr uint32_t kKeySchemaVersion = 1;

/// Feeds named, length-prefixed fields into BLAKE3.
class KeyBuilder {
public:
  KeyBuilder();

  /// Adds a field. The field name takes part in the hash, so the same value
  /// under another name gives another key.
  KeyBuilder &add(llvm::StringRef name, llvm::StringRef value);
  KeyBuilder &add(llvm::StringRef name, uint64_t value);

  /// The key of the fields added so far; the builder may be extended further.
  CacheKey key() const;
  /// Same as key().str(): "blake3:<64 hex digits>".
  std::string final() const { return key().str(); }

  /// One line per field: "name: N bytes, blake3 <16 hex digits>". Two runs
  /// that should share a key but do not can diff their manifests to find the
  /// field that differs (ccache's debug dump, JAX's explain_cache_misses).
  std::string manifest() const;

private:
  llvm::BLAKE3 hasher;
  std::vector<std::string> manifestLines;
};

/// Everything the MLIR passes put into a key. Empty strings are hashed as
/// empty fields (they still separate neighbours).
struct KeyInputs {
  uint32_t schemaVersion = kKeySchemaVersion;
  std::string fingerprint;      ///< structural fingerprint of the input IR
  std::string pipeline;         ///< textual pass pipeline and its options
  std::string qShapeVersion;    ///< defaults to getProducerVersion() if empty
  std::string buildId;          ///< defaults to getBuildId() if empty
  std::string toolchainVersion; ///< MLIR/LLVM version of the host compiler
  std::string targetTriple;
  std::string salt; ///< user-provided; bump to invalidate everything
};

/// Builds the key of \p inputs with fields in a fixed order.
KeyBuilder makeKeyBuilder(const KeyInputs &inputs);

/// "qshape <version>", written into every entry header.
llvm::StringRef getProducerVersion();

/// Identifies the binary that contains this code: "blake3:<hex>" of the
/// shared object or executable found with dladdr() (or /proc/self/exe),
/// hashed once per process. Falls back to "version:<producer version>" if the
/// file cannot be read. Keys that include it miss after any rebuild, even
/// when the version string did not change.
llvm::StringRef getBuildId();

/// What getBuildId() returns inside the executable at \p path when it runs
/// as the main program (the same note, size or file hash), read from the
/// file: a front end that starts another binary keys with that binary's
/// build id. Empty if the file cannot be read.
std::string getBuildIdOfFile(llvm::StringRef path);

/// Lower-case hex of \p bytes.
std::string toHex(llvm::ArrayRef<uint8_t> bytes);

} // namespace qshape::cache

#endif // QSHAPE_CACHE_CACHEKEY_H
