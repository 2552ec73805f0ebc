//===- CheckLinearity.cpp - qshape-check-linearity ------------------------===//
//
// Qubit and register values have value semantics: one consumer each, and
// reads (extract, observables) before it. Transformations that rewire
// register uses (rolling, canonical forms) can break that without changing
// what the simulator computes, because the simulator follows SSA values;
// Catalyst's value-semantics passes and its conversion to reference
// semantics do not. This pass finds such uses.
//
//===----------------------------------------------------------------------===//

#include "qshape/Conversion/ToValueSemantics.h"
#include "qshape/GateView/GateView.h"
#include "qshape/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"

#define DEBUG_TYPE "qshape-check-linearity"

namespace qshape {
#define GEN_PASS_DEF_QSHAPECHECKLINEARITY
#include "qshape/Transforms/Passes.h.inc"
} // namespace qshape

using namespace mlir;
using namespace qshape;

namespace {

/// Extract reads its register; observables read their qubits or register.
/// Every other use takes the value.
bool isRead(OpOperand &use) {
  Operation *owner = use.getOwner();
  const QuantumOpInfo *info = lookupQuantumOp(owner);
  if (!info)
    return false;
  if (info->kind == QOpKind::Observable)
    return true;
  return info->id == QOp::Extract &&
         use.getOperandNumber() == getOperandGroup(owner, OpRole::Register).getBeginOperandIndex();
}

/// Ops whose regions run at most one of their regions, once.
bool isExclusiveBranch(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return name == "scf.if" || name == "scf.index_switch";
}

/// Ops whose regions may run many times.
bool isLoop(Operation *op) {
  if (isa<LoopLikeOpInterface>(op))
    return true;
  return llvm::StringSwitch<bool>(op->getName().getStringRef())
      .Cases(
          {"scf.for", "scf.while", "scf.parallel", "scf.forall", "affine.for", "affine.parallel"},
          true)
      .Default(false);
}

Region *parentRegion(Region *r) {
  Operation *op = r->getParentOp();
  return op ? op->getParentRegion() : nullptr;
}

/// The innermost region that holds both ops, or null.
Region *commonRegion(Operation *a, Operation *b) {
  llvm::SmallPtrSet<Region *, 8> regionsOfA;
  for (Region *r = a->getParentRegion(); r; r = parentRegion(r))
    regionsOfA.insert(r);
  for (Region *r = b->getParentRegion(); r; r = parentRegion(r))
    if (regionsOfA.contains(r))
      return r;
  return nullptr;
}

/// True when `a` and `b` lie in different regions of one branch op, so at
/// most one of them runs.
bool exclusive(Operation *a, Operation *b) {
  Region *common = commonRegion(a, b);
  if (!common)
    return false;
  Operation *ancA = common->findAncestorOpInRegion(*a);
  Operation *ancB = common->findAncestorOpInRegion(*b);
  return ancA && ancA == ancB && ancA != a && ancA != b && isExclusiveBranch(ancA);
}

enum class Staleness { Fresh, AfterConsumer, InsideConsumer };

Staleness readStaleness(Operation *reader, Operation *consumer) {
  if (consumer->isProperAncestor(reader))
    return Staleness::InsideConsumer;
  Region *common = commonRegion(reader, consumer);
  if (!common)
    return Staleness::Fresh;
  Operation *ancR = common->findAncestorOpInRegion(*reader);
  Operation *ancC = common->findAncestorOpInRegion(*consumer);
  // Different regions of one op, or different blocks of a CFG: no order to
  // check here.
  if (!ancR || !ancC || ancR == ancC || ancR->getBlock() != ancC->getBlock())
    return Staleness::Fresh;
  return ancC->isBeforeInBlock(ancR) ? Staleness::AfterConsumer : Staleness::Fresh;
}

/// The loop between `op` and the region `v` is defined in, if any.
Operation *loopBetween(Operation *op, Region *defRegion) {
  for (Region *r = op->getParentRegion(); r && r != defRegion; r = parentRegion(r))
    if (Operation *parent = r->getParentOp(); parent && isLoop(parent))
      return parent;
  return nullptr;
}

/// One run's findings. Scoped to a run, so nothing (least of all ops and
/// values that a later pass may free) carries over to the next module.
class LinearityChecker {
public:
  explicit LinearityChecker(Operation *root)
      : qubitType(getQubitType(root->getContext())), quregType(getQuregType(root->getContext())) {
    // Uses are listed newest first; diagnostics name them in program order.
    root->walk<WalkOrder::PreOrder>([&](Operation *op) { position[op] = position.size(); });
    root->walk([&](Operation *op) {
      checkAliasing(op);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            check(arg);
      for (Value result : op->getResults())
        check(result);
    });
  }

  unsigned numValues = 0;
  unsigned violations = 0;

private:
  void check(Value v) {
    if (v.getType() != qubitType && v.getType() != quregType)
      return;
    ++numValues;
    StringRef what = v.getType() == qubitType ? "qubit" : "register";
    SmallVector<Operation *> readers, consumers;
    for (OpOperand &use : v.getUses())
      (isRead(use) ? readers : consumers).push_back(use.getOwner());
    auto inProgramOrder = [&](Operation *a, Operation *b) { return position[a] < position[b]; };
    llvm::sort(readers, inProgramOrder);
    llvm::sort(consumers, inProgramOrder);

    Region *defRegion = v.getParentRegion();
    for (unsigned i = 0; i < consumers.size(); ++i) {
      Operation *c = consumers[i];
      if (Operation *loop = loopBetween(c, defRegion)) {
        report(c,
               "consumes a " + what + " value defined outside the enclosing '" +
                   loop->getName().getStringRef() +
                   "', once per iteration (carry it as a loop argument)",
               loop, "the loop");
      }
      for (unsigned j = 0; j < i; ++j)
        if (consumers[j] == c || !exclusive(consumers[j], c))
          report(c,
                 "consumes a " + what + " value that '" + consumers[j]->getName().getStringRef() +
                     "' consumes too",
                 consumers[j], "first consumed here");
    }
    for (Operation *r : readers)
      for (Operation *c : consumers) {
        Staleness s = readStaleness(r, c);
        if (s == Staleness::InsideConsumer)
          report(r,
                 "reads a " + what + " value inside '" + c->getName().getStringRef() +
                     "', which consumes it (read the value the op passes in, e.g. the "
                     "carried iter_arg)",
                 c, "consumed here");
        else if (s == Staleness::AfterConsumer)
          report(r,
                 "reads a " + what + " value after '" + c->getName().getStringRef() +
                     "' consumed it",
                 c, "consumed here");
      }
  }

  /// Two extracts of one known wire from one register, with no insert of
  /// that wire between (inserts of other wires pass it on): two values name
  /// one qubit. Extracts in exclusive branches are not both run. An insert
  /// at an unknown index may refill any wire, so the chain stops there.
  void checkAliasing(Operation *op) {
    std::optional<RegisterAccess> ra = RegisterAccess::get(op);
    if (!ra || ra->isInsert)
      return;
    std::optional<int64_t> known = ra->wire();
    if (!known)
      return;
    int64_t wire = *known;
    // The register the wire was last written in, memoized along the chain
    // (a chain of n inserts is walked once per wire, not once per extract).
    SmallVector<Value> path;
    Value reg = ra->reg;
    Value root;
    while (true) {
      if (auto memo = rootOf.find({reg, wire}); memo != rootOf.end()) {
        root = memo->second;
        break;
      }
      path.push_back(reg);
      Operation *def = reg.getDefiningOp();
      std::optional<RegisterAccess> ins = def ? RegisterAccess::get(def) : std::nullopt;
      std::optional<int64_t> inserted = ins && ins->isInsert ? ins->wire() : std::nullopt;
      if (!inserted || *inserted == wire) {
        root = reg;
        break;
      }
      reg = ins->reg;
    }
    for (Value v : path)
      rootOf[{v, wire}] = root;
    SmallVector<Operation *, 1> &earlier = extractsOf[{root, wire}];
    for (Operation *first : earlier)
      if (!exclusive(first, op)) {
        report(op,
               "extracts wire " + Twine(wire) +
                   " of a register it was already extracted from, with no insert of "
                   "that wire between: two values name one qubit (use the first value, "
                   "or insert it back before extracting the wire again)",
               first, "first extracted here");
        break;
      }
    earlier.push_back(op);
  }

  void report(Operation *at, const Twine &message, Operation *other, StringRef noteText) {
    ++violations;
    InFlightDiagnostic diag = at->emitError() << "qshape-check-linearity: '"
                                              << at->getName().getStringRef() << "' " << message;
    diag.attachNote(other->getLoc()) << noteText;
  }

  Type qubitType, quregType;
  llvm::DenseMap<Operation *, unsigned> position;
  llvm::DenseMap<std::pair<Value, int64_t>, Value> rootOf;
  llvm::DenseMap<std::pair<Value, int64_t>, SmallVector<Operation *, 1>> extractsOf;
};

struct CheckLinearityPass : public qshape::impl::QShapeCheckLinearityBase<CheckLinearityPass> {
  using QShapeCheckLinearityBase::QShapeCheckLinearityBase;

  void runOnOperation() override {
    // qref input has references, not linear values: it is checked by its
    // conversion (a use after deallocation is an error there) and the
    // value-semantics form it gives, on a copy.
    ModuleOp module = getOperation();
    FailureOr<OwningOpRef<ModuleOp>> converted = valueSemanticsCopy(module);
    if (failed(converted)) {
      ++numViolations;
      return signalPassFailure();
    }
    LinearityChecker checker(*converted ? **converted : module);
    numValues += checker.numValues;
    numViolations += checker.violations;
    if (checker.violations > 0)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
