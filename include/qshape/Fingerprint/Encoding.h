//===- Encoding.h - process-stable structural encoding ----------*- C++ -*-===//
//
// A byte encoding of types, attributes and ops that depends only on their
// content: no pointers, no seeded hashes; integers and floats by their bits;
// every variable-length field length-prefixed. Fingerprints hash it with
// BLAKE3; canonical ordering keys hash it with xxh3 (in memory only).
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_FINGERPRINT_ENCODING_H
#define QSHAPE_FINGERPRINT_ENCODING_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/TypeRange.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
class Operation;
}

namespace qshape {

/// Attributes that fingerprinting itself or the cache add; never encoded, so
/// annotating a module does not change its digest.
bool isQShapeAnnotation(llvm::StringRef attrName);

/// Appends length-prefixed fields to a byte buffer.
class ByteSink {
public:
  void u8(uint8_t v) { buf.push_back(char(v)); }
  void u64(uint64_t v) { // little-endian
    char b[8];
    for (int i = 0; i < 8; ++i)
      b[i] = char((v >> (8 * i)) & 0xff);
    buf.append(b, b + 8);
  }
  void bytes(llvm::StringRef s) {
    u64(s.size());
    buf.append(s.begin(), s.end());
  }
  void raw(llvm::StringRef s) { buf.append(s.begin(), s.end()); }
  llvm::StringRef str() const { return {buf.data(), buf.size()}; }
  size_t size() const { return buf.size(); }
  void reserve(size_t n) { buf.reserve(n); }
  void clear() { buf.clear(); }

private:
  llvm::SmallVector<char, 256> buf;
};

/// The printed text of types and attributes (what StructuralEncoder
/// encodes when it has no structural rule), kept by their uniqued storage:
/// valid as long as their MLIRContext. A pass that encodes the same types
/// again and again (a canonical view per round, a tokenizer per block)
/// shares one, so each type is printed once per run, not once per encoder.
struct EncoderTexts {
  llvm::DenseMap<mlir::Type, std::string> types;
  llvm::DenseMap<mlir::Attribute, std::string> attrs;
};

class StructuralEncoder {
public:
  /// With `abstractFloats`, floating-point values (FloatAttr, float dense
  /// elements) are encoded by type and shape only.
  explicit StructuralEncoder(bool abstractFloats) : abstractFloats(abstractFloats) {}
  StructuralEncoder(const StructuralEncoder &) = delete;
  StructuralEncoder &operator=(const StructuralEncoder &) = delete;

  /// Prints into `shared` (and reads what is there) instead of a table of
  /// its own, which the encoder no longer uses.
  void shareTexts(EncoderTexts &shared) { texts = &shared; }

  void encodeType(mlir::Type type, ByteSink &out);
  void encodeAttr(mlir::Attribute attr, ByteSink &out);
  /// Inherent and discardable attributes merged and sorted by name, so the
  /// text's attribute order and properties-vs-dictionary do not matter.
  void encodeOpAttrs(mlir::Operation *op, ByteSink &out);
  /// Name, attributes and result types of `op` (not operands or regions).
  void encodeOpHeader(mlir::Operation *op, ByteSink &out);
  /// The same from parts: `attrs` are the op's inherent (properties) and
  /// discardable attributes together, in any order (sorted here).
  void encodeOpHeader(llvm::StringRef opName, llvm::SmallVectorImpl<mlir::NamedAttribute> &attrs,
                      mlir::TypeRange resultTypes, ByteSink &out);

private:
  void encodeAttrList(llvm::SmallVectorImpl<mlir::NamedAttribute> &attrs, ByteSink &out);
  const std::string &typeText(mlir::Type type);
  const std::string &attrText(mlir::Attribute attr);
  bool abstractFloats;
  EncoderTexts own;
  EncoderTexts *texts = &own;
};

} // namespace qshape

#endif // QSHAPE_FINGERPRINT_ENCODING_H
