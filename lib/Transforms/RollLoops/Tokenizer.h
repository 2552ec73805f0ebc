//===- Tokenizer.h - qshape-roll-loops: op tokens ---------------*- C++ -*-===//
//
// Each op of a block becomes a 64-bit token: its structure with wire
// indices, constant values and the identity of its operands abstracted, so
// that the copies of a repeated body become a repeated token string.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TRANSFORMS_ROLLLOOPS_TOKENIZER_H
#define QSHAPE_TRANSFORMS_ROLLLOOPS_TOKENIZER_H

#include "qshape/Fingerprint/Encoding.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace qshape::roll {

class Tokenizer {
public:
  /// Structure of an op with wire indices, constant values and the identity
  /// of operands abstracted; equal tokens are necessary for two ops to be
  /// copies of each other, not sufficient (RunAnalyzer::classify decides).
  uint64_t token(mlir::Operation *op);
  /// Forgets the memo (its representatives are ops of one block scan).
  void reset() { memo.clear(); }
  /// Forgets the tokens of ops with regions, which are kept across scans
  /// (blocks are rolled innermost first, so a nest's bodies are tokenized
  /// once, not once per level): call after ops are created or erased.
  void clearRegionTokens() { regionTokens.clear(); }
  /// Prints types and attributes into `texts` (see StructuralEncoder).
  void shareTexts(EncoderTexts &texts) { enc.shareTexts(texts); }

private:
  static bool sameTokenInputs(mlir::Operation *a, mlir::Operation *b);
  uint64_t compute(mlir::Operation *op);

  StructuralEncoder enc{/*abstractFloats=*/true};
  llvm::DenseMap<size_t, llvm::SmallVector<std::pair<mlir::Operation *, uint64_t>, 1>> memo;
  llvm::DenseMap<mlir::Operation *, uint64_t> regionTokens;
};

} // namespace qshape::roll

#endif // QSHAPE_TRANSFORMS_ROLLLOOPS_TOKENIZER_H
