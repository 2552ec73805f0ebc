//===- RoundTrip.cpp - qshape-roll-loops: the verifier --------------------===//

#include "RoundTrip.h"

#include "Support.h"

#include "qshape/Fingerprint/CanonicalForm.h"
#include "qshape/Fingerprint/Fingerprint.h"
#include "qshape/GateView/GateView.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;

namespace qshape::roll {

/// Inserts at distinct static wires commute: every chain of them (each
/// register but the last used once, by the next insert) is put into wire
/// order, just before its last insert. Loops that write qubits back do so
/// in the order of their copies, which need not be the input's.
static void sortInsertChains(Operation *root) {
  // Extracts at a static wire first read past the inserts at other wires
  // (and an insert at theirs gives its qubit), so that the chains are
  // chains: as the canonical form reads them.
  // Constant dynamic indices (what unrolling leaves) become static ones, as
  // in the canonical form: RegisterAccess::wire().
  SmallVector<Operation *> dynamic;
  root->walk([&](Operation *op) {
    std::optional<RegisterAccess> a = RegisterAccess::get(op);
    if (a && a->dynamicIdx && a->wire())
      dynamic.push_back(op);
  });
  for (Operation *op : dynamic) {
    RegisterAccess a = *RegisterAccess::get(op);
    OpBuilder b(op);
    IndexSpec idx = IndexSpec::ofStatic(*a.wire());
    Operation *repl = a.isInsert ? buildInsert(b, op->getLoc(), a.reg, idx, a.qubit)
                                 : buildExtract(b, op->getLoc(), a.reg, idx);
    op->getResult(0).replaceAllUsesWith(repl->getResult(0));
    op->erase();
  }
  SmallVector<Operation *> extracts;
  root->walk([&](Operation *op) {
    std::optional<RegisterAccess> a = RegisterAccess::get(op);
    if (a && !a->isInsert && a->staticIdx)
      extracts.push_back(op);
  });
  for (Operation *op : extracts) {
    RegisterAccess a = *RegisterAccess::get(op);
    Value reg = a.reg;
    std::optional<RegisterAccess> ins;
    while (Operation *def = reg.getDefiningOp()) {
      ins = RegisterAccess::get(def);
      if (!ins || !ins->isInsert || !ins->staticIdx || *ins->staticIdx == *a.staticIdx)
        break;
      reg = ins->reg;
      ins.reset();
    }
    if (ins && ins->isInsert && ins->staticIdx && *ins->staticIdx == *a.staticIdx) {
      a.result.replaceAllUsesWith(ins->qubit);
      op->erase();
    } else if (reg != a.reg) {
      for (OpOperand &operand : op->getOpOperands())
        if (operand.get() == a.reg)
          operand.set(reg);
    }
  }
  SmallVector<Operation *> heads;
  root->walk([&](Operation *op) {
    std::optional<RegisterAccess> a = RegisterAccess::get(op);
    if (!a || !a->isInsert || !a->staticIdx)
      return;
    // A head: its register does not come from a chained insert.
    Operation *def = a->reg.getDefiningOp();
    std::optional<RegisterAccess> prev = def ? RegisterAccess::get(def) : std::nullopt;
    if (prev && prev->isInsert && prev->staticIdx && a->reg.hasOneUse() &&
        def->getBlock() == op->getBlock())
      return;
    heads.push_back(op);
  });
  for (Operation *head : heads) {
    SmallVector<RegisterAccess> chain{*RegisterAccess::get(head)};
    while (chain.back().result.hasOneUse()) {
      Operation *next = *chain.back().result.getUsers().begin();
      std::optional<RegisterAccess> a = RegisterAccess::get(next);
      if (!a || !a->isInsert || !a->staticIdx || a->reg != chain.back().result ||
          next->getBlock() != head->getBlock())
        break;
      chain.push_back(*a);
    }
    // An insert that a later one in the chain overwrites is dead.
    llvm::SmallDenseSet<int64_t, 16> later;
    SmallVector<RegisterAccess> live;
    for (RegisterAccess &a : llvm::reverse(chain)) {
      if (later.insert(*a.staticIdx).second) {
        live.push_back(a);
        continue;
      }
      a.result.replaceAllUsesWith(a.reg);
      a.op->erase();
    }
    chain.assign(live.rbegin(), live.rend());
    if (chain.size() < 2)
      continue;
    SmallVector<std::pair<int64_t, Value>> entries;
    for (RegisterAccess &a : chain)
      entries.push_back({*a.staticIdx, a.qubit});
    llvm::sort(entries, [](auto &x, auto &y) { return x.first < y.first; });
    if (std::adjacent_find(entries.begin(), entries.end(),
                           [](auto &x, auto &y) { return x.first == y.first; }) != entries.end())
      continue; // two inserts at one wire do not commute
    Operation *last = chain.back().op;
    for (auto [a, entry] : llvm::zip(chain, entries)) {
      if (a.op != last)
        a.op->moveBefore(last);
      a.op->setAttr(kStaticIndexAttr,
                    IntegerAttr::get(IntegerType::get(a.op->getContext(), 64), entry.first));
      for (OpOperand &operand : a.op->getOpOperands())
        if (operand.get() == a.qubit)
          operand.set(entry.second);
    }
  }
}

LogicalResult verifyRoundTrip(Operation *before, Operation *after) {
  // Both sides get the same normalization (the canonical form, folding,
  // then the canonical form again inside computeFingerprint), so only the
  // rolling itself is compared. The first canonical form is the one the
  // pass started from: the rules do not always reach one form from a module
  // and from its folded copy (a register inserted into and then used by two
  // chains that both overwrite the wire), and the rolled side went through
  // it.
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
  LogicalResult canonical =
      success(succeeded(qshape::canonicalize(lhs)) && succeeded(qshape::canonicalize(rhs)));
  normalize(lhs);
  normalize(rhs);
  sortInsertChains(lhs);
  sortInsertChains(rhs);
  FailureOr<Fingerprint> a = computeFingerprint(lhs);
  FailureOr<Fingerprint> b = computeFingerprint(rhs);
  lhs->erase();
  rhs->erase();
  if (failed(unrolled))
    return after->emitError("qshape-roll-loops: verify-roundtrip could not unroll a new loop");
  if (failed(canonical))
    return failure(); // diagnosed by canonicalize()
  if (failed(a) || failed(b) || a->exact != b->exact)
    return after->emitError("qshape-roll-loops: verify-roundtrip failed: unrolling the rolled "
                            "function does not give back the input (exact fingerprint ")
           << (succeeded(a) ? a->exactString() : "?") << " vs "
           << (succeeded(b) ? b->exactString() : "?") << ")";
  return success();
}

} // namespace qshape::roll
