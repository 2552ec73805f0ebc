//===- TopologyIndex.h - a topology's library found without parsing -*- C++ -*-===//
//
// The fast path of `qshape-compile --share-topology`. Programs of one
// topology that differ only in their baked float values (a parameter sweep,
// molecule geometries) have the same text once every float literal is
// blanked out: the same *skeleton*. The topology index maps a skeleton to
// the compile key of the lifted library and to the literal each parameter
// slot takes its value from, so that such a program gets its library and its
// values from its bytes alone: no parse, no canonical form, no lift.
//
// Sound because an index entry is only written for a program whose lifted
// module cannot depend on its values: every float literal of the text must
// be the value, bit for bit, of exactly one lifted constant (on the line of
// that `arith.constant`), and every slot must come from exactly one literal.
// A program where the canonical form merged equal constants, with a float
// outside an f64 `arith.constant` (a static gate parameter, an f32), or a
// constant written in hex leaves a literal unclaimed or a slot unexplained,
// and gets no entry; it takes the parsing path, keyed by the lifted module's
// fingerprint, which is always right. The pipeline after the lift sees only
// abstract (NaN) values, so it cannot depend on them either.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_ARTIFACTCACHE_TOPOLOGYINDEX_H
#define QSHAPE_ARTIFACTCACHE_TOPOLOGYINDEX_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace qshape::compile {

/// A text with its float literals blanked out.
struct SourceSkeleton {
  /// BLAKE3 (hex) of the text between the literals, each piece framed by
  /// its length: equal digests mean equal texts up to the literals.
  std::string digest;
  /// Byte ranges of the float literals (a leading '-' included), in order.
  struct Literal {
    uint32_t offset, length;
  };
  std::vector<Literal> literals;
};

/// Lexes `text` as MLIR does for what matters here: strings, comments,
/// identifiers and symbol/SSA/attribute/type names are copied whole (digits
/// in them are not literals), a number with a '.' is a float literal, and
/// every other number (hex included) stays in the skeleton.
SourceSkeleton scanSkeleton(llvm::StringRef text);

/// Where the values of lifted constants sit in the program's text: one
/// claim per constant, `count` slots from `firstSlot`, read from one literal
/// (a splat) or from `count` consecutive ones.
/// The value MLIR's parser gives the literal, as the index reads it
/// (Token::getFloatingPointValue reads the digits with StringRef::getAsDouble
/// and negates after); nullopt when it does not read as a double.
std::optional<double> literalValue(llvm::StringRef text, const SourceSkeleton::Literal &literal);

struct TopologyMap {
  struct Claim {
    uint32_t literal, firstSlot, count;
    bool splat;
  };
  std::vector<Claim> claims;
  uint32_t numSlots = 0;
  uint32_t numLiterals = 0;

  /// One line per field, parsed back by parse(); nullopt if malformed.
  std::string serialize() const;
  static std::optional<TopologyMap> parse(llvm::StringRef text);

  /// The values of a program with this map's skeleton, in slot order. An
  /// error if its literals are not what the map expects.
  llvm::Expected<std::vector<double>> readValues(llvm::StringRef text,
                                                 const SourceSkeleton &skeleton) const;
};

/// A lifted constant as the lift left it: where its op starts in the text
/// and the slots it fills.
struct LiftedSource {
  uint32_t opOffset, firstSlot, count;
  bool splat;
};

/// The map of a lifted program (`values`: the lifted table, slot order), or
/// an error naming the first reason it cannot have one (see the file
/// comment); the reason is a remark for `-v`, never a failure.
llvm::Expected<TopologyMap> mapLiterals(llvm::StringRef text, const SourceSkeleton &skeleton,
                                        llvm::ArrayRef<LiftedSource> sources,
                                        llvm::ArrayRef<double> values);

} // namespace qshape::compile

#endif // QSHAPE_ARTIFACTCACHE_TOPOLOGYINDEX_H
