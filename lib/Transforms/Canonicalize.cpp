//===- Canonicalize.cpp - qshape-canonicalize -----------------------------===//

#include "qshape/Fingerprint/CanonicalForm.h"
#include "qshape/Transforms/Passes.h"

#define DEBUG_TYPE "qshape-canonicalize"

namespace qshape {
#define GEN_PASS_DEF_QSHAPECANONICALIZE
#include "qshape/Transforms/Passes.h.inc"
} // namespace qshape

using namespace mlir;

namespace {
struct QShapeCanonicalizePass
    : qshape::impl::QShapeCanonicalizeBase<QShapeCanonicalizePass> {
  using QShapeCanonicalizeBase::QShapeCanonicalizeBase;

  void runOnOperation() override {
    qshape::CanonicalizeOptions options;
    options.stripLocations = stripLocations;
    options.reorder = reorder;
    options.reference = reference;
    qshape::CanonicalizeStats stats;
    if (failed(qshape::canonicalize(getOperation(), options, &stats)))
      return signalPassFailure();
    numStaticIndices += stats.staticIndices;
    numConstantsMerged += stats.constantsMerged;
    numOpsMerged += stats.opsMerged;
    numAccessesForwarded += stats.accessesForwarded;
    numDeadOps += stats.deadOpsErased;
    numBlocksReordered += stats.blocksReordered;
  }
};
} // namespace
