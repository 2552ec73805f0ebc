//===- RoundTrip.cpp - qshape-roll-loops: the verifier --------------------===//

#include "RoundTrip.h"

#include "Support.h"

#include "qshape/Fingerprint/Fingerprint.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace qshape::roll {

LogicalResult verifyRoundTrip(Operation *before, Operation *after) {
  // Both sides get the same normalization (folding, then the canonical form
  // inside computeFingerprint), so only the rolling itself is compared.
  auto normalize = [](Operation *op) {
    RewritePatternSet none(op->getContext());
    (void)applyPatternsGreedily(op, std::move(none));
  };
  Operation *lhs = before->clone();
  Operation *rhs = after->clone();
  SmallVector<scf::ForOp> loops;
  rhs->walk([&](scf::ForOp f) { // post-order: inner loops first
    if (f->hasAttr(kRolledMarker))
      loops.push_back(f);
  });
  LogicalResult unrolled = success();
  for (scf::ForOp f : loops)
    if (failed(loopUnrollFull(f)))
      unrolled = failure();
  normalize(lhs);
  normalize(rhs);
  FailureOr<Fingerprint> a = computeFingerprint(lhs);
  FailureOr<Fingerprint> b = computeFingerprint(rhs);
  lhs->erase();
  rhs->erase();
  if (failed(unrolled))
    return after->emitError("qshape-roll-loops: verify-roundtrip could not unroll a new loop");
  if (failed(a) || failed(b) || a->exact != b->exact)
    return after->emitError("qshape-roll-loops: verify-roundtrip failed: unrolling the rolled "
                            "function does not give back the input (exact fingerprint ")
           << (succeeded(a) ? a->exactString() : "?") << " vs "
           << (succeeded(b) ? b->exactString() : "?") << ")";
  return success();
}

} // namespace qshape::roll
