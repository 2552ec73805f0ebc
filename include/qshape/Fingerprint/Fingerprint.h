//===- Fingerprint.h - process-stable structural fingerprints ---*- C++ -*-===//
//
// Two 256-bit BLAKE3 digests of an op (usually a module or a function),
// computed over the canonical form (CanonicalForm.h) in a length-prefixed
// encoding (Encoding.h) that starts with a schema version:
//  - exact: equal exactly when the canonical forms are equal;
//  - shape: the same with floating-point constant values abstracted to their
//    type and shape, so circuits that differ only in baked angles agree.
// Printed as `blake3:<64 hex digits>`.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_FINGERPRINT_FINGERPRINT_H
#define QSHAPE_FINGERPRINT_FINGERPRINT_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <string>

namespace qshape {

/// Bump when the encoding changes, or a rule of the canonical form changes
/// what is encoded (lib/Fingerprint/CanonicalRules.def): a digest must never
/// mean two things. The golden digests in test/Fingerprint/golden.test
/// change with it, deliberately. The versions and why each was bumped:
/// qshape-fingerprint's description (include/qshape/Transforms/Passes.td).
constexpr unsigned kFingerprintSchemaVersion = 4;

using Digest = std::array<uint8_t, 32>;

std::string formatDigest(const Digest &d);

struct Fingerprint {
  Digest exact;
  Digest shape;
  std::string exactString() const { return formatDigest(exact); }
  std::string shapeString() const { return formatDigest(shape); }
};

/// Fingerprint of `op` including its regions, computed on the canonical view
/// of `op` (lib/Fingerprint/CanonicalView.h); `op` itself is not modified.
/// Values used inside `op` but defined outside it count by their type. Fails
/// (with a diagnostic) only when `op` exceeds the view's limits.
mlir::FailureOr<Fingerprint> computeFingerprint(mlir::Operation *op);

/// Fingerprints of `module` and of each function-like op directly or
/// transitively nested in it (in Operation::walk order), computed in one
/// walk of one canonical form.
struct ModuleFingerprints {
  Fingerprint module;
  llvm::SmallVector<std::pair<std::string, Fingerprint>> functions; // symbol name
};
mlir::FailureOr<ModuleFingerprints> computeModuleFingerprints(mlir::Operation *module);

} // namespace qshape

#endif // QSHAPE_FINGERPRINT_FINGERPRINT_H
