//===- Stats.cpp - qshape-stats: quantum resource statistics --------------===//

#include "qshape/Conversion/ToValueSemantics.h"
#include "qshape/GateView/GateView.h"
#include "qshape/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

#define DEBUG_TYPE "qshape-stats"

namespace qshape {
#define GEN_PASS_DEF_QSHAPESTATS
#include "qshape/Transforms/Passes.h.inc"
} // namespace qshape

using namespace mlir;
using namespace qshape;

namespace {

struct GateCount {
  uint64_t count = 0, adjoint = 0, controlled = 0, staticCount = 0;
};

/// Constant trip count of an `scf.for` read by name and operands, so that
/// unregistered hosts and registered ones agree; nullopt when not constant.
std::optional<uint64_t> constantTripCount(Operation *op) {
  if (op->getName().getStringRef() != "scf.for" || op->getNumOperands() < 3)
    return std::nullopt;
  APInt lb, ub, step;
  if (!matchPattern(op->getOperand(0), m_ConstantInt(&lb)) ||
      !matchPattern(op->getOperand(1), m_ConstantInt(&ub)) ||
      !matchPattern(op->getOperand(2), m_ConstantInt(&step)))
    return std::nullopt;
  int64_t l = lb.getSExtValue(), u = ub.getSExtValue(), s = step.getSExtValue();
  if (s <= 0)
    return std::nullopt;
  return u <= l ? 0 : uint64_t((u - l + s - 1) / s);
}

struct ModuleStats {
  uint64_t ops = 0, quantumOps = 0, gates = 0, staticGates = 0, qubits = 0;
  uint64_t loops = 0, maxLoopDepth = 0;
  bool staticExact = true;
  llvm::MapVector<StringRef, GateCount> byName;

  void visit(Operation *op, unsigned depth, uint64_t multiplier) {
    ++ops;
    QOpKind kind = classify(op);
    if (kind != QOpKind::NotQuantum)
      ++quantumOps;
    if (std::optional<GateView> g = GateView::get(op)) {
      GateCount &c = byName[g->getGateName()];
      ++c.count;
      c.staticCount += multiplier;
      c.adjoint += g->isAdjoint();
      c.controlled += g->isControlled();
      ++gates;
      staticGates += multiplier;
    } else if (kind == QOpKind::Alloc || kind == QOpKind::AllocQubit) {
      // Qubits as allocated, with constant-bound loops expanded (as gates).
      std::optional<int64_t> n = kind == QOpKind::AllocQubit ? 1 : getAllocSize(op);
      if (n)
        qubits += uint64_t(*n) * multiplier;
      else
        staticExact = false;
    }
    bool isFor = op->getName().getStringRef() == "scf.for";
    if (isFor) {
      ++loops;
      maxLoopDepth = std::max<uint64_t>(maxLoopDepth, depth + 1);
    }
    uint64_t inner = multiplier;
    if (isFor) {
      if (std::optional<uint64_t> trip = constantTripCount(op))
        inner = multiplier * *trip;
      else
        staticExact = false;
    }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &nested : block)
          visit(&nested, depth + isFor, inner);
  }

  llvm::json::Value toJSON() const {
    llvm::json::Object names;
    for (const auto &[name, c] : byName)
      names[name] = llvm::json::Object{{"count", int64_t(c.count)},
                                       {"static", int64_t(c.staticCount)},
                                       {"adjoint", int64_t(c.adjoint)},
                                       {"controlled", int64_t(c.controlled)}};
    return llvm::json::Object{{"ops", int64_t(ops)},
                              {"quantum_ops", int64_t(quantumOps)},
                              {"gates", int64_t(gates)},
                              {"static_gates", int64_t(staticGates)},
                              {"static_gates_exact", staticExact},
                              {"qubits", int64_t(qubits)},
                              {"loops", int64_t(loops)},
                              {"max_loop_depth", int64_t(maxLoopDepth)},
                              {"gates_by_name", std::move(names)}};
  }
};

struct QShapeStatsPass : qshape::impl::QShapeStatsBase<QShapeStatsPass> {
  using QShapeStatsBase::QShapeStatsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // qref input is counted in its value-semantics form (the gates and
    // qubits are the same), converted on a copy: the IR is not changed.
    FailureOr<OwningOpRef<ModuleOp>> converted = valueSemanticsCopy(module);
    if (failed(converted))
      return signalPassFailure();
    ModuleStats s;
    for (Region &region : (*converted ? **converted : module)->getRegions())
      for (Block &block : region)
        for (Operation &op : block)
          s.visit(&op, 0, 1);
    numOps = s.ops;
    numGates = s.gates;
    numStaticGates = s.staticGates;
    numLoops = s.loops;

    if (emitRemark)
      mlir::emitRemark(module.getLoc())
          << "qshape-stats: " << s.ops << " ops, " << s.quantumOps << " quantum ops, " << s.gates
          << " gates (" << s.staticGates << " static), " << s.qubits << " qubits, " << s.loops
          << " loops (depth " << s.maxLoopDepth << ")";
    if (!output.empty()) {
      std::string err;
      auto file = openOutputFile(output, &err);
      if (!file) {
        module.emitError() << "qshape-stats: " << err;
        return signalPassFailure();
      }
      file->os() << llvm::formatv("{0:2}", s.toJSON()) << "\n";
      file->keep();
    }
    markAllAnalysesPreserved();
  }
};

} // namespace
