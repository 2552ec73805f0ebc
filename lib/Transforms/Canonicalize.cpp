//===- Canonicalize.cpp - qshape-canonicalize -----------------------------===//

#include "qshape/Fingerprint/CanonicalForm.h"
#include "qshape/Transforms/Passes.h"

#include <memory>
#include <vector>

#define DEBUG_TYPE "qshape-canonicalize"

namespace qshape {
#define GEN_PASS_DEF_QSHAPECANONICALIZE
#include "qshape/Transforms/Passes.h.inc"
} // namespace qshape

using namespace mlir;

namespace {
struct QShapeCanonicalizePass : qshape::impl::QShapeCanonicalizeBase<QShapeCanonicalizePass> {
  QShapeCanonicalizePass() { addRuleStatistics(); }
  QShapeCanonicalizePass(const qshape::QShapeCanonicalizeOptions &options)
      : QShapeCanonicalizeBase(options) {
    addRuleStatistics();
  }
  QShapeCanonicalizePass(const QShapeCanonicalizePass &other) : QShapeCanonicalizeBase(other) {
    addRuleStatistics();
  }

  void runOnOperation() override {
    qshape::CanonicalizeStats stats;
    if (failed(qshape::canonicalize(getOperation(), {}, &stats)))
      return signalPassFailure();
    ArrayRef<qshape::CanonicalRuleInfo> rules = qshape::canonicalRules();
    for (size_t i = 0; i < stats.rewrites.size(); ++i)
      *ruleStatistics[i] += stats.rewrites[i];
    if (emitRemarks) {
      InFlightDiagnostic remark = emitRemark(getOperation()->getLoc())
                                  << "qshape-canonicalize: " << stats.opsBefore << " ops";
      for (size_t i = 0; i < rules.size(); ++i)
        remark << (i ? ", " : "; ") << rules[i].statistic << " "
               << (i < stats.rewrites.size() ? stats.rewrites[i] : 0);
    }
  }

private:
  /// One statistic per rule, from the rule table (so a new rule needs no
  /// statistic of its own here or in Passes.td).
  void addRuleStatistics() {
    for (const qshape::CanonicalRuleInfo &rule : qshape::canonicalRules())
      ruleStatistics.push_back(
          std::make_unique<Statistic>(this, rule.statistic.data(), rule.description.data()));
  }
  std::vector<std::unique_ptr<Statistic>> ruleStatistics;
};
} // namespace
