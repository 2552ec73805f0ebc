//===- Fingerprint.cpp - qshape-fingerprint -------------------------------===//

#include "qshape/Fingerprint/Fingerprint.h"
#include "qshape/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#define DEBUG_TYPE "qshape-fingerprint"

namespace qshape {
#define GEN_PASS_DEF_QSHAPEFINGERPRINT
#include "qshape/Transforms/Passes.h.inc"
} // namespace qshape

using namespace mlir;

namespace {
struct QShapeFingerprintPass : qshape::impl::QShapeFingerprintBase<QShapeFingerprintPass> {
  using QShapeFingerprintBase::QShapeFingerprintBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<qshape::ModuleFingerprints> fps = qshape::computeModuleFingerprints(module);
    if (failed(fps))
      return signalPassFailure(); // diagnosed at the module
    Builder b(module.getContext());
    auto annotateOp = [&](Operation *op, const qshape::Fingerprint &fp) {
      if (!annotate)
        return;
      op->setAttr("qshape.fingerprint", b.getStringAttr(fp.exactString()));
      op->setAttr("qshape.shape_fingerprint", b.getStringAttr(fp.shapeString()));
    };
    // Functions in walk order: the same order computeModuleFingerprints used.
    unsigned i = 0;
    module.walk([&](Operation *op) {
      if (i >= fps->functions.size() || op == module.getOperation())
        return;
      if (!isa<FunctionOpInterface>(op) && op->getName().getStringRef() != "func.func")
        return;
      const qshape::Fingerprint &fp = fps->functions[i++].second;
      annotateOp(op, fp);
      if (emitRemarks)
        mlir::emitRemark(op->getLoc()) << "qshape-fingerprint @" << fps->functions[i - 1].first
                                       << ": " << fp.exactString() << " shape " << fp.shapeString();
    });
    annotateOp(module, fps->module);
    if (emitRemarks)
      mlir::emitRemark(module.getLoc())
          << "qshape-fingerprint module: " << fps->module.exactString() << " shape "
          << fps->module.shapeString();
    numFunctions += fps->functions.size();
    if (!annotate)
      markAllAnalysesPreserved();
  }
};
} // namespace
