//===- ReplayCheck.cpp - qshape-roll-loops: the always-on self-check ------===//

#include "ReplayCheck.h"

#include "Support.h"

#include "qshape/GateView/GateView.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;

namespace qshape::roll {

namespace {

/// Bounds the walks along register chains: a longer one fails the check
/// (the loop is then not built), it never runs away.
constexpr unsigned kMaxWalk = 4096;

class ReplayChecker {
public:
  ReplayChecker(const BuiltLoop &built, ArrayRef<Operation *> ops, const OpPositions &index,
                const RunPlan &plan)
      : built(built), ops(ops), index(index), plan(plan), loop(built.loop),
        yield(cast<scf::YieldOp>(loop.getBody()->getTerminator())) {}

  LogicalResult run(std::string &why);

private:
  Operation *at(unsigned c, unsigned j) const { return ops[plan.start + c * plan.period + j]; }
  bool inLoop(Operation *op) const { return op && loop->isAncestor(op); }
  LogicalResult fail(const Twine &message) {
    why = message.str();
    return failure();
  }
  /// The integer `v`, a value of the body, is in iteration c. Constants
  /// are compared by value, never made into attributes (each would take
  /// the context's lock).
  std::optional<APInt> intAt(Value v, unsigned c);
  /// intAt as a wire, once per value and iteration: each read of an
  /// iteration walks back over the same inserts.
  std::optional<int64_t> wireAt(Value v, unsigned c) {
    auto [it, added] = wires.try_emplace({v, c});
    if (added) {
      std::optional<APInt> i = intAt(v, c);
      it->second = i ? std::optional<int64_t>(i->getSExtValue()) : std::nullopt;
    }
    return it->second;
  }
  /// The constant table `v` reads in iteration c, and the element.
  DenseElementsAttr tableRead(Value v, unsigned c, uint64_t &index);
  /// Whether `lv` is the constant `constant` in iteration c.
  bool sameConstant(Value lv, unsigned c, Attribute constant);
  /// Whether `lv` in iteration c is the run's value `ov`.
  bool sameValue(Value lv, unsigned c, Value ov);
  /// Whether the body's read `ld` in iteration c gives the qubit `ov`.
  bool sameRead(Operation *ld, unsigned c, Value ov);
  LogicalResult checkOp(unsigned c, unsigned j);
  /// The wires the body writes into each chain in iteration c.
  void recordWrites(unsigned c);
  LogicalResult checkUsesAfter();
  /// Whether `op` is one of ops[plan.start, end); it is usually a few ops
  /// after `near`, which are looked at before the position table.
  bool inRun(Operation *op, unsigned near, unsigned end) const {
    for (unsigned i = near + 1; i < std::min(end, near + 9); ++i)
      if (ops[i] == op)
        return true;
    std::optional<unsigned> pos = index.lookup(op);
    return pos && *pos >= plan.start && *pos < end;
  }
  /// The register `reg` holds wire `w` of: walks back over inserts at
  /// other wires.
  Value reduce(Value reg, int64_t w);
  /// RegisterAccess::get(op), once per op: every iteration walks the same
  /// chains of the body, and each look-up reads the op table by name.
  std::optional<RegisterAccess> access(Operation *op) {
    if (!op)
      return std::nullopt;
    auto [it, added] = accesses.try_emplace(op);
    if (added)
      it->second = RegisterAccess::get(op);
    return it->second;
  }

  const BuiltLoop &built;
  ArrayRef<Operation *> ops;
  const OpPositions &index;
  const RunPlan &plan;
  scf::ForOp loop;
  scf::YieldOp yield;
  std::string why;
  llvm::DenseMap<Operation *, unsigned> cloneIndex;
  llvm::DenseSet<Operation *> writeBackOps;
  /// Per iter_arg: whether its chain is known (it yields a chain rooted in
  /// itself), the body inserts on that chain, and the last write earlier
  /// iterations made at each wire: (iteration, insert).
  std::vector<bool> chainKnown;
  std::vector<SmallVector<Operation *>> chainInserts;
  std::vector<llvm::DenseMap<int64_t, std::pair<unsigned, Operation *>>> lastWrites;
  llvm::DenseMap<Operation *, std::optional<RegisterAccess>> accesses;
  llvm::DenseMap<std::pair<Value, unsigned>, std::optional<int64_t>> wires;
};

DenseElementsAttr ReplayChecker::tableRead(Value v, unsigned c, uint64_t &index) {
  auto ex = v.getDefiningOp<tensor::ExtractOp>();
  DenseElementsAttr table;
  if (!ex || !inLoop(ex) || ex.getIndices().size() != 1 || inLoop(ex.getTensor().getDefiningOp()) ||
      !(table = dyn_cast_if_present<DenseElementsAttr>(constantValue(ex.getTensor()))))
    return {};
  std::optional<APInt> i = intAt(ex.getIndices()[0], c);
  if (!i || i->isNegative() || i->getZExtValue() >= uint64_t(table.getNumElements()))
    return {};
  index = i->getZExtValue();
  return table;
}

std::optional<APInt> ReplayChecker::intAt(Value v, unsigned c) {
  if (v == loop.getInductionVar())
    return APInt(64, c);
  if (auto constant = dyn_cast_if_present<IntegerAttr>(constantValue(v)))
    return constant.getValue();
  Operation *def = v.getDefiningOp();
  if (!inLoop(def))
    return std::nullopt;
  unsigned width = v.getType().isIndex()     ? 64
                   : v.getType().isInteger() ? v.getType().getIntOrFloatBitWidth()
                                             : 0;
  if (!width)
    return std::nullopt;
  StringRef name = def->getName().getStringRef();
  if (name == "arith.index_cast") {
    std::optional<APInt> x = intAt(def->getOperand(0), c);
    return x ? std::optional<APInt>(x->sextOrTrunc(width)) : std::nullopt;
  }
  if (name == "arith.addi" || name == "arith.muli") {
    std::optional<APInt> x = intAt(def->getOperand(0), c), y = intAt(def->getOperand(1), c);
    if (!x || !y || x->getBitWidth() != width || y->getBitWidth() != width)
      return std::nullopt;
    return name == "arith.addi" ? *x + *y : *x * *y;
  }
  uint64_t i;
  if (DenseElementsAttr table = tableRead(v, c, i))
    return table.getValues<APInt>()[i];
  return std::nullopt;
}

/// Whether element i of a float table has the bits of `f`. The raw data is
/// read directly: getValues<APFloat> builds an iterator and an APFloat per
/// element, which is most of the check on runs of constant angles.
static bool holdsBits(DenseElementsAttr table, uint64_t i, const APFloat &f) {
  unsigned width = table.getElementType().getIntOrFloatBitWidth();
  APInt bits = f.bitcastToAPInt();
  if (bits.getBitWidth() != width)
    return false;
  if (llvm::endianness::native != llvm::endianness::little ||
      (width != 16 && width != 32 && width != 64))
    return table.getValues<APFloat>()[i].bitwiseIsEqual(f);
  unsigned bytes = width / 8;
  ArrayRef<char> raw = table.getRawData();
  uint64_t at = table.isSplat() ? 0 : i * bytes;
  if (at + bytes > raw.size())
    return false;
  uint64_t mine = 0;
  std::memcpy(&mine, raw.data() + at, bytes);
  return mine == bits.getZExtValue();
}

bool ReplayChecker::sameConstant(Value lv, unsigned c, Attribute constant) {
  if (auto i = dyn_cast<IntegerAttr>(constant)) {
    std::optional<APInt> mine = intAt(lv, c);
    return mine && mine->getBitWidth() == i.getValue().getBitWidth() && *mine == i.getValue();
  }
  if (auto f = dyn_cast<FloatAttr>(constant)) {
    uint64_t i;
    if (DenseElementsAttr table = tableRead(lv, c, i))
      return holdsBits(table, i, f.getValue());
  }
  Attribute mine = constantValue(lv);
  return mine && mine == constant;
}

bool ReplayChecker::sameValue(Value lv, unsigned c, Value ov) {
  // Back through iterations (an iter_arg is the last iteration's yield)
  // and write-backs (they touch wires the run leaves for later inserts).
  for (unsigned steps = 0;; ++steps) {
    if (steps > kMaxWalk)
      return false;
    if (auto arg = dyn_cast<BlockArgument>(lv);
        arg && arg.getOwner() == loop.getBody() && arg.getArgNumber() > 0) {
      unsigned a = arg.getArgNumber() - 1;
      if (c == 0) {
        lv = loop.getInitArgs()[a];
        break;
      }
      lv = yield.getOperand(a);
      --c;
      continue;
    }
    if (Operation *def = lv.getDefiningOp(); def && writeBackOps.contains(def)) {
      lv = access(def)->reg;
      continue;
    }
    break;
  }
  if (lv == ov)
    return true;
  Operation *ld = lv.getDefiningOp();
  auto clone = ld ? cloneIndex.find(ld) : cloneIndex.end();
  // Most operands are results of the copy's own ops: no constant folding.
  if (clone != cloneIndex.end() &&
      ov == at(c, clone->second)->getResult(cast<OpResult>(lv).getResultNumber()))
    return true;
  if (Attribute constant = constantValue(ov))
    return sameConstant(lv, c, constant);
  if (!inLoop(ld))
    return false; // a value from before the loop is itself
  unsigned result = cast<OpResult>(lv).getResultNumber();
  if (clone != cloneIndex.end())
    return false;
  auto ex = dyn_cast<tensor::ExtractOp>(ld);
  if (auto gather = ex ? ex.getTensor().getDefiningOp<tensor::FromElementsOp>() : nullptr) {
    // A gathered value: the element of a from_elements before the loop.
    std::optional<int64_t> i =
        ex.getIndices().size() == 1 ? wireAt(ex.getIndices()[0], c) : std::nullopt;
    return !inLoop(gather) && i && *i >= 0 && *i < int64_t(gather.getElements().size()) &&
           gather.getElements()[*i] == ov;
  }
  if (std::optional<RegisterAccess> a = access(ld); a && !a->isInsert)
    return sameRead(ld, c, ov);
  // An op the body makes again (a recomputed angle): the run's producer
  // with the same shape, operand by operand.
  Operation *od = ov.getDefiningOp();
  if (!od || ld->getNumRegions() || !sameOpShape(ld, od) ||
      cast<OpResult>(ov).getResultNumber() != result)
    return false;
  for (unsigned x = 0; x < ld->getNumOperands(); ++x)
    if (!sameValue(ld->getOperand(x), c, od->getOperand(x)))
      return false;
  return true;
}

Value ReplayChecker::reduce(Value reg, int64_t w) {
  for (unsigned steps = 0; steps < kMaxWalk; ++steps) {
    Operation *def = reg.getDefiningOp();
    std::optional<RegisterAccess> a = access(def);
    if (!a || !a->isInsert)
      return reg;
    std::optional<int64_t> at = a->wire();
    if (!at || *at == w)
      return reg;
    reg = a->reg;
  }
  return {}; // too long: matches nothing
}

bool ReplayChecker::sameRead(Operation *ld, unsigned c, Value ov) {
  RegisterAccess la = *access(ld);
  std::optional<int64_t> idx = la.staticIdx ? la.staticIdx : wireAt(la.dynamicIdx, c);
  if (!idx)
    return false;
  int64_t w = *idx;
  // Back along this iteration's chain to the last write at wire w: the read
  // gives the qubit written there.
  Value reg = la.reg;
  for (unsigned steps = 0; inLoop(reg.getDefiningOp()); ++steps) {
    std::optional<RegisterAccess> ins = access(reg.getDefiningOp());
    if (steps > kMaxWalk || !ins || !ins->isInsert)
      return false;
    std::optional<int64_t> at = ins->staticIdx ? ins->staticIdx : wireAt(ins->dynamicIdx, c);
    if (!at)
      return false;
    if (*at == w)
      return sameValue(ins->qubit, c, ov);
    reg = ins->reg;
  }
  // Then through earlier iterations, to the last one that wrote wire w.
  if (auto arg = dyn_cast<BlockArgument>(reg);
      arg && arg.getOwner() == loop.getBody() && arg.getArgNumber() > 0) {
    unsigned a = arg.getArgNumber() - 1;
    if (!chainKnown[a])
      return false;
    if (auto it = lastWrites[a].find(w); it != lastWrites[a].end())
      return sameValue(access(it->second.second)->qubit, it->second.first, ov);
    reg = loop.getInitArgs()[a];
  } else if (reg.getParentRegion() == &loop.getRegion()) {
    return false; // the induction variable is no register
  }
  // No iteration wrote it: the run read the same wire of the same register.
  Operation *od = ov.getDefiningOp();
  std::optional<RegisterAccess> oa = access(od);
  if (!oa || oa->isInsert || oa->wire() != w)
    return false;
  Value mine = reduce(reg, w);
  return mine && mine == reduce(oa->reg, w);
}

/// Whether two register accesses carry the same discardable attributes but
/// the static index (an unregistered op's is among them; the wires are
/// compared on their own).
static bool sameAttrsButIndex(Operation *a, Operation *b) {
  auto butIndex = [](Operation *op) {
    SmallVector<NamedAttribute> attrs;
    for (NamedAttribute na : op->getDiscardableAttrs())
      if (na.getName() != kStaticIndexAttr)
        attrs.push_back(na);
    return attrs;
  };
  return butIndex(a) == butIndex(b);
}

LogicalResult ReplayChecker::checkOp(unsigned c, unsigned j) {
  Operation *clone = built.bodyOps[j], *orig = at(c, j);
  auto differs = [&](const Twine &what) {
    return fail("op " + Twine(j) + " of copy " + Twine(c) + " (" + orig->getName().getStringRef() +
                "): " + what);
  };
  if (plan.indices[j].varies) {
    std::optional<RegisterAccess> la = access(clone), oa = access(orig);
    if (!la || !oa || la->isInsert != oa->isInsert || clone->getName() != orig->getName())
      return differs("the loop's register access is another op");
    // The clone names its wire by the index operand alone: a static index
    // beside it would be the one read.
    std::optional<int64_t> wire = oa->wire();
    if (!wire || la->staticIdx || wireAt(la->dynamicIdx, c) != wire)
      return differs("the loop reads another wire");
    if (!sameValue(la->reg, c, oa->reg) || (la->isInsert && !sameValue(la->qubit, c, oa->qubit)))
      return differs("the loop's register or qubit is another value");
    if (!sameAttrsButIndex(clone, orig))
      return differs("the loop's attributes differ");
    return success();
  }
  if (!sameOpShape(clone, orig))
    return differs("the loop's op differs in name, attributes or types");
  for (unsigned m = 0; m < clone->getNumOperands(); ++m)
    if (!sameValue(clone->getOperand(m), c, orig->getOperand(m)))
      return differs("operand " + Twine(m) + " is another value in the loop");
  llvm::DenseMap<Value, Value> inside;
  for (auto [lr, orr] : llvm::zip(clone->getRegions(), orig->getRegions()))
    if (!OperationEquivalence::isRegionEquivalentTo(
            &lr, &orr,
            [&](Value a, Value b) { return success(inside.lookup(a) == b || sameValue(a, c, b)); },
            [&](Value a, Value b) { inside[a] = b; }, OperationEquivalence::IgnoreLocations))
      return differs("its regions differ from the loop's");
  return success();
}

void ReplayChecker::recordWrites(unsigned c) {
  for (unsigned a = 0; a < chainInserts.size(); ++a) {
    if (!chainKnown[a])
      continue;
    for (Operation *ins : chainInserts[a]) {
      RegisterAccess ra = *access(ins);
      std::optional<int64_t> w = ra.staticIdx ? ra.staticIdx : wireAt(ra.dynamicIdx, c);
      if (!w) {
        chainKnown[a] = false; // a write we cannot place: no read past it
        break;
      }
      lastWrites[a][*w] = {c, ins};
    }
  }
}

LogicalResult ReplayChecker::checkUsesAfter() {
  unsigned k = plan.copies, p = plan.period;
  for (auto [key, result] : llvm::zip(plan.liveOut, built.liveOutResults))
    if (!sameValue(yield.getOperand(result), k - 1, at(k - 1, key.first)->getResult(key.second)))
      return fail("the loop's result " + Twine(result) + " is not what the last copy left");
  for (const RunPlan::Externalized &e : plan.externalized) {
    if (!built.finalRegister)
      return fail("the loop returns no register to re-read wire " + Twine(e.wire) + " from");
    const auto &lastWrite = lastWrites[*built.finalRegister];
    auto it = lastWrite.find(e.wire);
    if (it == lastWrite.end() || !sameValue(access(it->second.second)->qubit, it->second.first,
                                            at(e.copy, e.j)->getResult(e.result)))
      return fail("wire " + Twine(e.wire) + " of the loop's register does not hold copy " +
                  Twine(e.copy) + "'s qubit");
  }
  Block *block = loop->getBlock();
  unsigned end = plan.start + k * p;
  for (unsigned c = 0; c < k; ++c)
    for (unsigned j = 0; j < p; ++j)
      for (OpResult r : at(c, j)->getResults())
        for (Operation *user : r.getUsers()) {
          Operation *anc = user->getBlock() == block ? user : block->findAncestorOpInBlock(*user);
          if (anc && inRun(anc, plan.start + c * p + j, end))
            continue;
          auto key = std::make_pair(j, r.getResultNumber());
          bool served = (c == k - 1 && llvm::is_contained(plan.liveOut, key)) ||
                        llvm::any_of(plan.externalized, [&](const RunPlan::Externalized &e) {
                          return e.copy == c && e.j == j && e.result == r.getResultNumber();
                        });
          if (!served)
            return fail("result " + Twine(r.getResultNumber()) + " of op " + Twine(j) +
                        " of copy " + Twine(c) + " is used after the run, not from the loop");
        }
  return success();
}

LogicalResult ReplayChecker::run(std::string &message) {
  unsigned k = plan.copies, p = plan.period;
  auto result = [&](LogicalResult r) {
    message = why;
    return r;
  };
  if (wireAt(loop.getLowerBound(), 0) != 0 || wireAt(loop.getStep(), 0) != 1 ||
      wireAt(loop.getUpperBound(), 0) != int64_t(k))
    return result(fail("the loop does not run 0.." + Twine(k) + " by 1"));
  for (auto [j, op] : llvm::enumerate(built.bodyOps))
    cloneIndex[op] = j;
  writeBackOps.insert(built.writeBacks.begin(), built.writeBacks.end());
  // Each iter_arg's chain: the body inserts its yield is made by, back to
  // an iter_arg; known when that is the iter_arg itself.
  unsigned n = loop.getNumRegionIterArgs();
  lastWrites.clear();
  lastWrites.resize(n);
  chainKnown.assign(n, false);
  chainInserts.assign(n, {});
  for (unsigned a = 0; a < n; ++a) {
    Value v = yield.getOperand(a);
    for (unsigned steps = 0; steps < kMaxWalk && inLoop(v.getDefiningOp()); ++steps) {
      std::optional<RegisterAccess> ins = access(v.getDefiningOp());
      if (!ins || !ins->isInsert)
        break;
      chainInserts[a].push_back(ins->op);
      v = ins->reg;
    }
    chainKnown[a] = v == loop.getRegionIterArgs()[a];
    std::reverse(chainInserts[a].begin(), chainInserts[a].end());
  }
  for (unsigned c = 0; c < k; ++c) {
    for (unsigned j = 0; j < p; ++j)
      if (failed(checkOp(c, j)))
        return result(failure());
    recordWrites(c);
  }
  return result(checkUsesAfter());
}

} // namespace

LogicalResult checkReplay(const BuiltLoop &built, ArrayRef<Operation *> ops,
                          const OpPositions &index, const RunPlan &plan, std::string &why) {
  return ReplayChecker(built, ops, index, plan).run(why);
}

} // namespace qshape::roll
