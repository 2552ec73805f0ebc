//===- RunAnalyzer.cpp - qshape-roll-loops: run classification ------------===//

#include "RunAnalyzer.h"

#include "qshape/GateView/GateView.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <set>
#include <tuple>
#include <vector>

using namespace mlir;

namespace qshape::roll {

/// Whether `other` is `first` but for its operands and captured values:
/// the same shape (sameOpShape) and the same regions, in which values
/// defined inside correspond as the comparison meets them and captured
/// values correspond by position (they are classified like operands, slot
/// by slot). An op's own operand used inside a region is a captured value
/// too, so it is held to its position, not to the operand it also is.
static bool sameRegions(Operation *first, Operation *other, ArrayRef<Value> firstCaptured,
                        ArrayRef<Value> otherCaptured) {
  if (!sameOpShape(first, other))
    return false;
  DenseMap<Value, Value> inside;
  // By position (a loop body may capture hundreds: W2's angles), looked up
  // by address.
  DenseMap<Value, unsigned> firstAt, otherAt;
  for (auto [i, v] : llvm::enumerate(firstCaptured))
    firstAt.try_emplace(v, i);
  for (auto [i, v] : llvm::enumerate(otherCaptured))
    otherAt.try_emplace(v, i);
  auto check = [&](Value a, Value b) {
    auto ia = firstAt.find(a);
    if (ia == firstAt.end())
      return success(inside.lookup(a) == b);
    auto ib = otherAt.find(b);
    return success(ib != otherAt.end() && ia->second == ib->second);
  };
  auto mark = [&](Value a, Value b) { inside[a] = b; };
  for (auto [r1, r2] : llvm::zip(first->getRegions(), other->getRegions()))
    if (!OperationEquivalence::isRegionEquivalentTo(&r1, &r2, check, mark,
                                                    OperationEquivalence::IgnoreLocations))
      return false;
  return true;
}

bool RunAnalyzer::scanOperand(OperandScan &scan, unsigned c, unsigned j, Value v) {
  unsigned near = posOf(c, j);
  // Where an internal or carried value's producer should be is known after
  // copy 0 or 1: looked at first, it spares a position lookup.
  std::optional<std::pair<unsigned, unsigned>> in;
  unsigned expectedCopy = scan.internal ? c : c - 1;
  if (c > 0 && (scan.internal || scan.carried) && at(expectedCopy, scan.defOp) == v.getDefiningOp())
    in = std::make_pair(expectedCopy, scan.defOp);
  else
    in = inRun(v, near);
  auto resultOf = [](Value x) { return cast<OpResult>(x).getResultNumber(); };
  if (c == 0) {
    scan.vals.push_back(v);
    if (in) {
      // Internal: produced by an earlier body op of the same copy.
      if (in->first != 0 || in->second >= j)
        return false;
      scan.internal = true;
      scan.defOp = in->second;
      scan.defResult = resultOf(v);
      return true;
    }
  } else if (scan.internal) {
    return in && in->first == c && in->second == scan.defOp && resultOf(v) == scan.defResult;
  }
  // Carried: copy 0 takes a value from before the run, copy c > 0 the
  // result of the same body op in copy c - 1. Once that fails, a value from
  // inside the run rules out every other case.
  if (c == 1) {
    scan.carried = in && in->first == 0;
    if (scan.carried) {
      scan.defOp = in->second;
      scan.defResult = resultOf(v);
    }
  } else if (c > 1 && scan.carried) {
    scan.carried =
        in && in->first == c - 1 && in->second == scan.defOp && resultOf(v) == scan.defResult;
  }
  scan.anyInRun |= in.has_value();
  if (scan.carried) {
    if (c == 1) // finishOperand compares the types of copies 0 and 1
      scan.vals.push_back(v);
    return true;
  }
  if (scan.anyInRun)
    return false;
  // Only the cases below need every copy's value (tables, wire reads).
  if (c == 1)
    scan.vals.reserve(copies);
  if (c > 0)
    scan.vals.push_back(v);
  // From before the run in every copy so far.
  scan.allEqual = scan.allEqual && v == scan.vals[0];
  // Qubits extracted before the run from one register at static wires
  // (extracts are not part of runs): the body reads the wire itself.
  if (scan.wireRead) {
    Operation *def = v.getDefiningOp();
    std::optional<RegisterAccess> a = def ? RegisterAccess::get(def) : std::nullopt;
    // A wire extracted before a barrier is not read again after it.
    scan.wireRead = a && !a->isInsert && a->staticIdx && !inRun(a->reg, near) &&
                    (!scan.reg || a->reg == scan.reg) &&
                    (!segments || segments->ofExtract.lookup(def) == segments->ofOp[start]);
    if (scan.wireRead) {
      scan.reg = a->reg;
      scan.wires.push_back(*a->staticIdx);
    }
  }
  if (scan.allInt) {
    APInt ap;
    scan.allInt = scan.type().isIntOrIndex() && matchPattern(v, m_ConstantInt(&ap));
    if (scan.allInt)
      scan.ints.push_back(ap.getSExtValue());
  }
  if (scan.allFloat) {
    FloatAttr f;
    scan.allFloat = isa<FloatType>(scan.type()) && matchPattern(v, m_Constant(&f));
  }
  // Runtime scalars can always be gathered into a table.
  return scan.allEqual || scan.wireRead || scan.allInt || scan.allFloat ||
         (paramTables && scan.type().isIntOrIndexOrFloat());
}

LogicalResult RunAnalyzer::recompute(OperandPlan &plan, unsigned depth) {
  ArrayRef<Value> vals = plan.perCopy;
  Operation *recipe = vals[0].getDefiningOp();
  if (!recipe || recipe->getNumResults() != 1 || recipe->getNumRegions() || !isFloatingPure(recipe))
    return failure();
  unsigned n = recipe->getNumOperands();
  // Operand x of every copy's producer: equal everywhere, a constant (an
  // affine integer, or an int or float table), or made alike in turn.
  SmallVector<bool> same(n, true), constant(n, true);
  work += copies;
  for (Value v : vals) {
    Operation *def = v.getDefiningOp();
    if (!def || cast<OpResult>(v).getResultNumber() != 0 ||
        !OperationEquivalence::isEquivalentTo(recipe, def,
                                              OperationEquivalence::ignoreValueEquivalence, nullptr,
                                              OperationEquivalence::IgnoreLocations))
      return failure();
    for (unsigned x = 0; x < n; ++x) {
      Value a = def->getOperand(x);
      same[x] = same[x] && a == recipe->getOperand(x);
      constant[x] = constant[x] && a.getType().isIntOrIndexOrFloat() && a.getDefiningOp() &&
                    isConstant(a.getDefiningOp());
    }
  }
  std::vector<OperandPlan> parts(n);
  for (unsigned x = 0; x < n; ++x) {
    OperandPlan &part = parts[x];
    if (same[x]) {
      // A value of the run would not be defined before the loop.
      if (inRun(recipe->getOperand(x), start))
        return failure();
      part.kind = OperandPlan::Invariant;
      part.invariant = recipe->getOperand(x);
      part.perCopy.push_back(part.invariant);
      continue;
    }
    part.perCopy.reserve(copies);
    for (Value v : vals)
      part.perCopy.push_back(v.getDefiningOp()->getOperand(x));
    if (!constant[x]) {
      // gamma[l] inside 2 * gamma[l]: the read is made again too.
      if (depth >= kMaxRecomputeDepth || failed(recompute(part, depth + 1)))
        return failure();
      continue;
    }
    Type type = recipe->getOperand(x).getType();
    part.kind = type.isIntOrIndex() ? OperandPlan::IntTable : OperandPlan::FloatTable;
    if (type.isIntOrIndex() && copies > 1) {
      // Affine in the copy number: computed from the induction variable.
      SmallVector<int64_t> ints;
      for (Value v : part.perCopy) {
        APInt ap;
        matchPattern(v, m_ConstantInt(&ap));
        ints.push_back(ap.getSExtValue());
      }
      int64_t stride = ints[1] - ints[0];
      bool affine = true;
      for (unsigned c = 2; c < copies && affine; ++c)
        affine = ints[c] == ints[0] + stride * int64_t(c);
      if (affine) {
        part.kind = OperandPlan::AffineInt;
        part.base = ints[0];
        part.stride = stride;
      }
    }
  }
  plan.kind = OperandPlan::Recompute;
  plan.recipe = recipe;
  plan.parts = std::move(parts);
  return success();
}

unsigned RunAnalyzer::finishOperand(OperandScan &scan, OperandPlan &plan) {
  plan.perCopy = std::move(scan.vals);
  ArrayRef<Value> vals = plan.perCopy;
  if (scan.internal || scan.carried) {
    plan.kind = scan.internal ? OperandPlan::Internal : OperandPlan::Carried;
    plan.defOp = scan.defOp;
    plan.defResult = scan.defResult;
    if (scan.internal)
      return copies;
    plan.invariant = vals[0];
    return vals[0].getType() == vals[1].getType() ? copies : 1;
  }
  // Without a table, only the copies whose value is copy 0's or follows an
  // affine pattern can share a loop.
  auto equalPrefix = [&]() {
    unsigned c = 1;
    while (c < copies && vals[c] == vals[0])
      ++c;
    return c;
  };
  auto affinePrefix = [&](ArrayRef<int64_t> xs) {
    unsigned c = 2;
    while (c < copies && xs[c] == xs[0] + (xs[1] - xs[0]) * int64_t(c))
      ++c;
    return std::min(c, copies);
  };
  if (scan.anyInRun)
    return 0;
  if (scan.allEqual) {
    plan.kind = OperandPlan::Invariant;
    plan.invariant = vals[0];
    return copies;
  }
  if (scan.wireRead) {
    plan.kind = OperandPlan::WireRead;
    plan.reg = scan.reg;
    plan.wires = std::move(scan.wires);
    plan.base = plan.wires[0];
    plan.stride = plan.wires[1] - plan.wires[0];
    unsigned affine = affinePrefix(plan.wires);
    if (affine == copies)
      return copies;
    plan.stride = 0, plan.base = -1; // table
    return paramTables ? copies : affine;
  }
  // Integer constants: affine in the copy number, else a table.
  if (scan.allInt) {
    ArrayRef<int64_t> ints = scan.ints;
    unsigned affine = affinePrefix(ints);
    if (affine == copies) {
      plan.kind = OperandPlan::AffineInt;
      plan.base = ints[0];
      plan.stride = ints[1] - ints[0];
      return copies;
    }
    plan.kind = OperandPlan::IntTable;
    return paramTables ? copies : affine;
  }
  if (scan.allFloat) {
    plan.kind = OperandPlan::FloatTable;
    return paramTables ? copies : equalPrefix();
  }
  // Runtime values of a scalar type: made again in the body when the copies
  // made them alike from constants (W2's angles, one product per block),
  // else gathered into a tensor.
  if (scan.type().isIntOrIndexOrFloat()) {
    if (paramTables && succeeded(recompute(plan)))
      return copies;
    plan.kind = OperandPlan::Gather;
    return paramTables ? copies : equalPrefix();
  }
  return equalPrefix(); // e.g. distinct qubits from before the run
}

/// The result of `op` that carries its qubit operand `m` through it: a
/// gate's output for that input, a loop's result for that init.
static std::optional<unsigned> carrierOf(Operation *op, unsigned m) {
  if (std::optional<GateView> g = GateView::get(op)) {
    Value out = g->getOutFor(m);
    if (out)
      return cast<OpResult>(out).getResultNumber();
    return std::nullopt;
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    unsigned first = loop.getNumControlOperands();
    if (m >= first && m - first < loop.getNumResults())
      return m - first;
  }
  return std::nullopt;
}

const SmallVector<int64_t> *RunAnalyzer::wiresOf(RunPlan &plan, unsigned j, unsigned res,
                                                 Value &reg) {
  auto key = std::make_pair(j, res);
  if (auto it = wiresMemo.find(key); it != wiresMemo.end()) {
    reg = it->second.second;
    return it->second.first.empty() ? nullptr : &it->second.first;
  }
  auto &slot = wiresMemo[key];
  Operation *op = at(0, j);
  for (unsigned m = 0; m < op->getNumOperands(); ++m) {
    if (carrierOf(op, m) != std::optional<unsigned>(res))
      continue;
    OperandPlan &o = plan.operands[j][m];
    if (o.kind == OperandPlan::WireRead) {
      slot.first = o.wires;
      slot.second = o.reg;
    } else if (o.kind == OperandPlan::Internal) {
      Value r;
      if (const SmallVector<int64_t> *w = wiresOf(plan, o.defOp, o.defResult, r)) {
        SmallVector<int64_t> copy = *w; // wiresMemo may grow
        wiresMemo[key] = {std::move(copy), r};
      }
    }
    break;
  }
  auto &done = wiresMemo[key];
  reg = done.second;
  return done.first.empty() ? nullptr : &done.first;
}

const RunPlan::WriteBack *RunAnalyzer::writeBack(RunPlan &plan, unsigned j, unsigned res) {
  for (const RunPlan::WriteBack &wb : plan.writeBacks)
    if (wb.j == j && wb.result == res)
      return &wb;
  Value reg;
  const SmallVector<int64_t> *wires = wiresOf(plan, j, res, reg);
  if (!wires || (plan.writeBackReg && reg != plan.writeBackReg))
    return nullptr;
  // Every copy its own wire, and no other qubit written back there.
  DenseSet<int64_t> seen;
  for (int64_t w : *wires)
    if (!seen.insert(w).second)
      return nullptr;
  for (const RunPlan::WriteBack &other : plan.writeBacks)
    for (int64_t w : other.wires)
      if (seen.contains(w))
        return nullptr;
  // The slot a written-back qubit leaves behind must be written again after
  // the run (else the register holds the qubit twice once a use after the
  // run puts it elsewhere): an insert at that wire comes later.
  if (!lastInsertPos) {
    lastInsertPos.emplace();
    for (unsigned i = 0; i < ops.size(); ++i)
      if (std::optional<RegisterAccess> a = RegisterAccess::get(ops[i]);
          a && a->isInsert && a->staticIdx)
        (*lastInsertPos)[*a->staticIdx] = i;
    work += ops.size();
  }
  for (int64_t w : *wires) {
    auto it = lastInsertPos->find(w);
    if (it == lastInsertPos->end() || it->second < end)
      return nullptr;
  }
  bool affine = true;
  for (unsigned c = 2; c < wires->size() && affine; ++c)
    affine = (*wires)[c] - (*wires)[c - 1] == (*wires)[1] - (*wires)[0];
  if (!affine && !paramTables)
    return nullptr;
  plan.writeBackReg = reg;
  plan.writeBacks.push_back({j, res, *wires, affine});
  return &plan.writeBacks.back();
}

LogicalResult
RunAnalyzer::carryWriteBacks(RunPlan &plan,
                             const DenseMap<std::pair<unsigned, unsigned>, Value> &carried) {
  // The loop already carries the register's chain (the copies insert into
  // it): the write-backs go there.
  for (auto &[key, init] : carried) {
    Value v = init;
    for (int steps = 0; v && v != plan.writeBackReg && steps < 4096; ++steps) {
      Operation *def = v.getDefiningOp();
      std::optional<RegisterAccess> a = def ? RegisterAccess::get(def) : std::nullopt;
      v = a && a->isInsert ? a->reg : Value();
    }
    if (v == plan.writeBackReg)
      return success();
  }
  return carryRegister(plan);
}

LogicalResult RunAnalyzer::carryRegister(RunPlan &plan) {
  // The loop carries the register itself, which nothing may have consumed
  // before the run; what consumes it after the run takes the loop's result.
  for (OpOperand &use : plan.writeBackReg.getUses()) {
    Operation *user = use.getOwner();
    std::optional<RegisterAccess> a = RegisterAccess::get(user);
    if (a && !a->isInsert)
      continue; // a read
    Operation *anc = ops[start]->getBlock()->findAncestorOpInBlock(*user);
    std::optional<unsigned> pos = anc ? positionOf(anc, end) : std::nullopt;
    if (!pos || *pos < end)
      return failure();
  }
  plan.newCarry = true;
  return success();
}

struct RunAnalyzer::BodyLayout {
  SmallVector<unsigned> firstScan; // operand scans, [j][m] flattened
  SmallVector<bool> staticIdx;     // body op j has a static register index
  // Copy 0's captured values of the body ops with regions (rare: loops).
  DenseMap<unsigned, SmallVector<Value>> firstCaptured;
};

/// What planUsesAfterRun() gathers as it goes.
struct RunAnalyzer::UsesAfterRun {
  /// A body op that reads result `result` of another, in copy c +
  /// `nextCopy` for the producer's copy c.
  struct Reader {
    unsigned j, result, nextCopy;
  };
  SmallVector<SmallVector<Reader, 2>> readers; // by producer
  // For qubits of earlier copies used after the run: the last copy that
  // inserts at each static wire (any wire, for a dynamic index), found once.
  std::optional<DenseMap<int64_t, unsigned>> lastInsert;
  unsigned lastDynamicInsert = 0; // 1 + the last copy with a dynamic-index insert
  // Set on failure when no run from the same start with more copies fits.
  std::optional<unsigned> fewer;
  // (copy, j, result #) already re-read after the run.
  DenseSet<std::tuple<unsigned, unsigned, unsigned>> reread;

  unsigned lastInsertAt(int64_t wire) const {
    auto it = lastInsert->find(wire);
    unsigned last = it == lastInsert->end() ? 0 : it->second;
    return std::max(last, lastDynamicInsert ? lastDynamicInsert - 1 : 0);
  }
};

Verdict RunAnalyzer::classify(unsigned s, unsigned p, unsigned k, RunPlan &plan) {
  // Refusals that need no plan, made before one is begun: the first copy
  // makes a classical value used after the run (most candidates: runs that
  // end between reads and the gates that take them), or holds an op that
  // cannot be in a loop. Both are memoized by position: the driver tries
  // many periods and phases over the same ops.
  setWindow(s, p, k);
  if (k > 1 && classicalUseAfter(0) != ~0u)
    return refuse(Reject::Operands, 1);
  for (unsigned j = 0; j < p; ++j)
    if (!rollableAt(s + j))
      return refuse(Reject::SideEffects, 0);
  Verdict bySlot = classifyBySlot(s, p, k, plan);
  if (bySlot || !byWire || bySlot.reason != Reject::Operands)
    return bySlot;
  Verdict wired = classifyByWire(s, p, k, plan);
  return wired || wired.copiesOk > bySlot.copiesOk ? wired : bySlot;
}

Verdict RunAnalyzer::classifyBySlot(unsigned s, unsigned p, unsigned k, RunPlan &plan) {
  beginRun(s, p, k, plan);
  BodyLayout body = layOutBody(plan);
  // The run is read once, copy by copy (reading it operand by operand
  // would stride through all of it once per operand; on large blocks each
  // of those reads is a cache miss), and no further than the first copy
  // that does not fit.
  std::vector<OperandScan> scans(body.firstScan[p]);
  for (unsigned c = 0; c < k; ++c) {
    work += p;
    // The last copy may return a carried value (planUsesAfterRun).
    if (c + 1 < k && classicalUseAfter(c) != ~0u)
      return refuse(Reject::Operands, c + 1);
    for (unsigned j = 0; j < p; ++j)
      if (!scanCopy(body, scans, plan, c, j))
        return refuse(Reject::Operands, c);
  }
  if (unsigned supported = planOperands(body, scans, plan); supported < k)
    return refuse(Reject::Operands, supported);
  // Every copy fits from here on: a refusal is about the run as a whole.
  CarriedInits carriedInit;
  if (failed(collectCarriedInits(plan, carriedInit)))
    return refuse(Reject::Operands, k, /*late=*/true);
  std::optional<unsigned> fewer;
  if (failed(planUsesAfterRun(plan, carriedInit, fewer)))
    return fewer ? refuse(Reject::Operands, *fewer) : refuse(Reject::Operands, k, /*late=*/true);
  if (failed(checkLoopResults(plan, carriedInit)))
    return refuse(Reject::Operands, k, /*late=*/true);
  plan.overhead = loopOverhead(plan);
  Verdict verdict;
  verdict.copiesOk = k;
  return verdict;
}

unsigned RunAnalyzer::classicalReach(unsigned i) {
  if (reachMemo.empty())
    reachMemo.assign(ops.size(), 0);
  if (reachMemo[i])
    return reachMemo[i] - 1;
  Block *block = ops[i]->getBlock();
  unsigned reach = i;
  for (OpResult r : ops[i]->getResults()) {
    if (isQuantumType(r.getType()))
      continue;
    for (Operation *user : r.getUsers()) {
      Operation *anc = user->getBlock() == block ? user : block->findAncestorOpInBlock(*user);
      std::optional<unsigned> pos = anc ? positionOf(anc, i) : std::nullopt;
      reach = std::max(reach, pos ? *pos : ~0u);
      ++work;
    }
  }
  reachMemo[i] = reach == ~0u ? ~0u : reach + 1;
  return reach;
}

bool RunAnalyzer::rollableAt(unsigned i) {
  if (rollableMemo.empty())
    rollableMemo.assign(ops.size(), 0);
  if (!rollableMemo[i])
    rollableMemo[i] = facts.isRollable(ops[i]) ? 1 : 2;
  return rollableMemo[i] == 1;
}

unsigned RunAnalyzer::classicalUseAfter(unsigned c) {
  for (unsigned j = 0; j < period; ++j)
    if (unsigned reach = classicalReach(posOf(c, j)); reach >= end)
      return j;
  return ~0u;
}

void RunAnalyzer::setWindow(unsigned s, unsigned p, unsigned k) {
  start = s;
  period = p;
  copies = k;
  end = s + p * k;
}

void RunAnalyzer::beginRun(unsigned s, unsigned p, unsigned k, RunPlan &plan) {
  setWindow(s, p, k);
  plan.start = s;
  plan.period = p;
  plan.copies = k;
  plan.operands.assign(p, {});
  plan.indices.assign(p, {});
  plan.liveOut.clear();
  plan.externalized.clear();
  plan.writeBacks.clear();
  plan.writeBackReg = Value();
  plan.newCarry = false;
  plan.byWire = false;
  wiresMemo.clear();
}

RunAnalyzer::BodyLayout RunAnalyzer::layOutBody(RunPlan &plan) {
  BodyLayout body;
  body.firstScan.assign(period + 1, 0);
  body.staticIdx.resize(period);
  plan.bodyOps = period;
  for (unsigned j = 0; j < period; ++j) {
    unsigned slots = at(0, j)->getNumOperands();
    if (at(0, j)->getNumRegions()) {
      int64_t nested = 0;
      SmallVector<Value> &cap = body.firstCaptured[j] = capturedValues(at(0, j), &nested);
      slots += cap.size();
      plan.bodyOps += nested;
      work += nested;
    }
    body.firstScan[j + 1] = body.firstScan[j] + slots;
    std::optional<RegisterAccess> a = RegisterAccess::get(at(0, j));
    body.staticIdx[j] = a && a->staticIdx;
  }
  return body;
}

bool RunAnalyzer::scanCopy(const BodyLayout &body, MutableArrayRef<OperandScan> scans,
                           RunPlan &plan, unsigned c, unsigned j) {
  unsigned i = posOf(c, j);
  prefetchAhead(ops, i);
  Operation *first = at(0, j), *o = ops[i];
  SmallVector<Value> captured;
  if (first->getNumRegions()) {
    if (c == 0) {
      captured = body.firstCaptured.at(j);
    } else {
      captured = capturedValues(o);
      work += captured.size();
    }
  }
  if (c > 0 &&
      (o->getName() != first->getName() || o->getNumOperands() != first->getNumOperands() ||
       o->getResultTypes() != first->getResultTypes() ||
       (first->getNumRegions() && (captured.size() != body.firstCaptured.at(j).size() ||
                                   !sameRegions(first, o, body.firstCaptured.at(j), captured)))))
    return false;
  MutableArrayRef<OperandScan> own = scans.drop_front(body.firstScan[j]);
  for (unsigned m = 0; m < o->getNumOperands(); ++m)
    if (!scanOperand(own[m], c, j, o->getOperand(m)))
      return false;
  for (unsigned x = 0; x < captured.size(); ++x)
    if (!scanOperand(own[o->getNumOperands() + x], c, j, captured[x]))
      return false;
  if (!body.staticIdx[j])
    return true;
  std::optional<RegisterAccess> a = RegisterAccess::get(o);
  if (!a || !a->staticIdx)
    return false;
  plan.indices[j].values.push_back(*a->staticIdx);
  return true;
}

unsigned RunAnalyzer::planOperands(const BodyLayout &body, MutableArrayRef<OperandScan> scans,
                                   RunPlan &plan) {
  unsigned supported = copies;
  for (unsigned j = 0; j < period; ++j) {
    Operation *first = at(0, j);
    for (unsigned x = body.firstScan[j]; x < body.firstScan[j + 1]; ++x) {
      OperandPlan op;
      supported = std::min(supported, finishOperand(scans[x], op));
      // A captured qubit is not re-read from its register inside a region,
      // and the bounds of an inner loop stay the same (verify-roundtrip
      // unrolls only constant trip counts).
      unsigned m = x - body.firstScan[j];
      if (m >= first->getNumOperands()
              ? op.kind == OperandPlan::WireRead
              : first->getNumRegions() && op.perCopy[0].getType().isIndex() &&
                    op.kind != OperandPlan::Invariant)
        supported = 0;
      plan.operands[j].push_back(std::move(op));
    }
    if (body.staticIdx[j])
      supported = std::min(supported, planIndex(plan.indices[j]));
  }
  return supported;
}

unsigned RunAnalyzer::planIndex(IndexPlan &ip) const {
  ip.varies = !llvm::all_equal(ip.values);
  ip.base = ip.values[0];
  ip.stride = copies > 1 ? ip.values[1] - ip.values[0] : 0;
  unsigned affine = 1;
  while (affine < copies && ip.values[affine] == ip.base + ip.stride * int64_t(affine))
    ++affine;
  ip.affine = affine == copies;
  // Else a table, or only the affine prefix.
  return ip.varies && !ip.affine && !paramTables ? affine : copies;
}

LogicalResult RunAnalyzer::collectCarriedInits(const RunPlan &plan, CarriedInits &inits) {
  // Every carried operand must be fed by the same producer in every copy,
  // and two operands may not be carried by one producer with different
  // inits (one iter_arg per (producer, result)).
  for (const SmallVector<OperandPlan> &body : plan.operands)
    for (const OperandPlan &op : body)
      if (op.kind == OperandPlan::Carried) {
        auto key = std::make_pair(op.defOp, op.defResult);
        auto [it, inserted] = inits.try_emplace(key, op.invariant);
        if (!inserted && it->second != op.invariant)
          return failure();
      }
  return success();
}

LogicalResult RunAnalyzer::planUsesAfterRun(RunPlan &plan, const CarriedInits &carried,
                                            std::optional<unsigned> &fewer) {
  // Uses inside the run that skip a copy were refused by scanOperand. The
  // body ops that read a result, found by the plan, are looked at first: a
  // user found there is inside the run without a position lookup.
  UsesAfterRun uses;
  uses.readers.resize(period);
  for (unsigned j = 0; j < period; ++j)
    for (OperandPlan &op : plan.operands[j])
      if (op.kind == OperandPlan::Internal || op.kind == OperandPlan::Carried)
        uses.readers[op.defOp].push_back({j, op.defResult, op.kind == OperandPlan::Carried});
  for (unsigned c = 0; c < copies; ++c) {
    work += period;
    for (unsigned j = 0; j < period; ++j)
      for (OpResult r : at(c, j)->getResults())
        for (OpOperand &use : r.getUses())
          if (failed(planUseAfterRun(uses, plan, carried, c, j, r, use.getOwner()))) {
            fewer = uses.fewer;
            return failure();
          }
  }
  return success();
}

LogicalResult RunAnalyzer::planUseAfterRun(UsesAfterRun &uses, RunPlan &plan,
                                           const CarriedInits &carried, unsigned c, unsigned j,
                                           OpResult r, Operation *user) {
  std::optional<unsigned> pos;
  if (usedInRun(uses, c, j, r, user, pos))
    return success();
  auto key = std::make_pair(j, r.getResultNumber());
  if (c == copies - 1 && carried.count(key)) {
    if (!llvm::is_contained(plan.liveOut, key))
      plan.liveOut.push_back(key);
    return success();
  }
  // Only qubits are re-read after a loop. A classical value used after the
  // run is used after every shorter one from the same start too: the run
  // holds at most the copies before this one (and this one as the last,
  // when the loop carries it).
  if (!isQuantumType(r.getType())) {
    uses.fewer = carried.count(key) ? c + 1 : c;
    return failure();
  }
  if (!uses.reread.insert({c, j, r.getResultNumber()}).second)
    return success();
  return externalize(uses, plan, c, j, r, pos);
}

bool RunAnalyzer::usedInRun(const UsesAfterRun &uses, unsigned c, unsigned j, OpResult r,
                            Operation *user, std::optional<unsigned> &pos) const {
  if (llvm::any_of(uses.readers[j], [&](const UsesAfterRun::Reader &rd) {
        unsigned cc = c + rd.nextCopy;
        return rd.result == r.getResultNumber() && cc < copies && at(cc, rd.j) == user;
      }))
    return true;
  Block *block = at(c, j)->getBlock();
  Operation *anc = user->getBlock() == block ? user : block->findAncestorOpInBlock(*user);
  pos = anc ? positionOf(anc, posOf(c, j)) : std::nullopt;
  return pos && *pos >= start && *pos < end;
}

LogicalResult RunAnalyzer::externalize(UsesAfterRun &uses, RunPlan &plan, unsigned c, unsigned j,
                                       OpResult r, std::optional<unsigned> pos) {
  // A qubit of an earlier copy: re-read it from the final register if that
  // copy inserted it at a static wire no later copy touches.
  std::optional<int64_t> wire = wireInsertedInCopy(c, j, r);
  findLastInserts(uses);
  bool touchedLater = !wire || uses.lastInsertAt(*wire) > c ||
                      (uses.lastDynamicInsert && uses.lastDynamicInsert - 1 > c);
  if (!touchedLater) {
    plan.externalized.push_back({c, j, r.getResultNumber(), *wire});
    return success();
  }
  // Else a qubit the copies leave on their own wires: the loop writes it
  // back and the uses after the run read it again. That moves the use's
  // insert into the loop, so never across a barrier.
  if (segments && segments->ofOp.back() != segments->ofOp[start] &&
      (!pos || segments->ofOp[*pos] != segments->ofOp[start]))
    return failure();
  const RunPlan::WriteBack *wb = writeBack(plan, j, r.getResultNumber());
  if (!wb || uses.lastDynamicInsert ||
      llvm::any_of(wb->wires, [&](int64_t w) { return uses.lastInsert->count(w); }))
    return failure();
  plan.externalized.push_back({c, j, r.getResultNumber(), wb->wires[c]});
  return success();
}

std::optional<int64_t> RunAnalyzer::wireInsertedInCopy(unsigned c, unsigned j, OpResult r) const {
  if (c + 1 >= copies)
    return std::nullopt;
  // The insert is one of the qubit's users.
  for (Operation *u : r.getUsers()) {
    std::optional<RegisterAccess> ins = RegisterAccess::get(u);
    if (!ins || !ins->isInsert || ins->qubit != r || !ins->staticIdx)
      continue;
    std::optional<unsigned> upos = positionOf(u, posOf(c, j));
    if (upos && *upos >= posOf(c, 0) && *upos < posOf(c + 1, 0))
      return ins->staticIdx;
  }
  return std::nullopt;
}

void RunAnalyzer::findLastInserts(UsesAfterRun &uses) {
  if (uses.lastInsert)
    return;
  uses.lastInsert.emplace();
  for (unsigned c = 0; c < copies; ++c)
    for (unsigned j = 0; j < period; ++j)
      if (std::optional<RegisterAccess> a = RegisterAccess::get(at(c, j)); a && a->isInsert) {
        if (a->staticIdx)
          (*uses.lastInsert)[*a->staticIdx] = c;
        else
          uses.lastDynamicInsert = c + 1;
      }
  work += uint64_t(copies) * period;
}

LogicalResult RunAnalyzer::checkLoopResults(RunPlan &plan, const CarriedInits &carried) {
  if (!plan.writeBacks.empty() && failed(carryWriteBacks(plan, carried)))
    return failure();
  // Externalized qubits are read from the carried register, which must be a
  // live-out of the last copy.
  if (!plan.externalized.empty() && plan.writeBacks.empty()) {
    bool haveReg = false;
    for (auto [j, res] : plan.liveOut)
      haveReg |= qshape::classify(at(copies - 1, j)) == QOpKind::Insert;
    if (!haveReg)
      return failure();
  }
  // Live-outs must be carried values (the loop can only return those).
  for (auto key : plan.liveOut)
    if (!carried.count(key))
      return failure();
  return success();
}

namespace {
/// Sums the cost of a loop (see RunAnalyzer::loopOverhead); an affine
/// expression or a table is made once for all the operands that need it.
class LoopCost {
public:
  explicit LoopCost(uint64_t &work) : work(work) {}

  int64_t overhead = 3;
  bool needIv = false;

  void addAffine(bool i64, int64_t base, int64_t stride) {
    needIv = true;
    auto key = std::make_tuple(i64, base, stride);
    if (llvm::is_contained(affineExprs, key))
      return;
    affineExprs.push_back(key);
    overhead += 2 * (stride != 1) + 2 * (base != 0);
  }
  /// A table of constants is one constant and one extract in the body,
  /// shared by the operands whose tables are equal (constants by value).
  void addTable(const OperandPlan &op) {
    std::vector<const void *> key;
    key.reserve(op.perCopy.size() + 1);
    key.push_back(op.perCopy[0].getType().getAsOpaquePointer());
    for (Value v : op.perCopy) {
      Attribute a;
      matchPattern(v, m_Constant(&a));
      key.push_back(a.getAsOpaquePointer());
    }
    work += key.size();
    if (tablesSeen.insert(std::move(key)).second)
      overhead += 2;
  }
  /// A value made again in the body: its op and, for each operand, its
  /// table, affine expression or own recomputation; the producers before the
  /// run that only this run reads die with it.
  void addRecompute(const OperandPlan &op) {
    overhead += 1;
    for (const OperandPlan &part : op.parts) {
      if (part.kind == OperandPlan::AffineInt)
        addAffine(!part.perCopy[0].getType().isIndex(), part.base, part.stride);
      else if (part.kind == OperandPlan::Recompute)
        addRecompute(part);
      else if (part.kind != OperandPlan::Invariant)
        addTable(part);
    }
    for (Value v : op.perCopy)
      overhead -= v.hasOneUse();
  }
  void addOperand(const OperandPlan &op);

private:
  uint64_t &work;
  SmallVector<std::tuple<bool, int64_t, int64_t>> affineExprs; // (is-i64, base, stride)
  std::set<std::vector<const void *>> tablesSeen;
};
} // namespace

void LoopCost::addOperand(const OperandPlan &op) {
  switch (op.kind) {
  case OperandPlan::AffineInt:
    addAffine(!op.perCopy[0].getType().isIndex(), op.base, op.stride);
    break;
  case OperandPlan::WireRead:
    // One extract in the body; the extracts before the run that only this
    // run reads die with it.
    overhead += 1;
    for (Value v : op.perCopy)
      overhead -= v.hasOneUse();
    if (op.base < 0)
      overhead += 2;
    else if (op.stride != 0) // one wire in every copy stays static
      addAffine(true, op.base, op.stride);
    break;
  case OperandPlan::IntTable:
  case OperandPlan::FloatTable:
    addTable(op);
    break;
  case OperandPlan::Gather:
    overhead += 2;
    break;
  case OperandPlan::Recompute:
    addRecompute(op);
    break;
  default:
    break;
  }
}

int64_t RunAnalyzer::loopOverhead(const RunPlan &plan) {
  // Cost of the loop: the for, its yield and its trip-count constant (the
  // bounds 0 and 1 are usually there already), the index_cast of the
  // induction variable, each distinct affine expression (a multiply and an
  // add, each with its constant), each table (its constant or from_elements
  // and one extract), and the extracts that re-read externalized qubits.
  LoopCost cost(work);
  for (unsigned j = 0; j < period; ++j) {
    for (const OperandPlan &op : plan.operands[j])
      cost.addOperand(op);
    const IndexPlan &ip = plan.indices[j];
    if (ip.varies) {
      if (ip.affine)
        cost.addAffine(true, ip.base, ip.stride);
      else
        cost.overhead += 2;
    }
  }
  // By wire, each qubit slot is written back after its gate: an insert.
  if (plan.byWire)
    for (const SmallVector<OperandPlan> &body : plan.operands)
      for (const OperandPlan &op : body)
        cost.overhead += op.kind == OperandPlan::WireRead;
  // A write-back is an insert in the body, at the wire expression of its
  // WireRead (shared) or of a table.
  for (const RunPlan::WriteBack &wb : plan.writeBacks) {
    cost.overhead += 1;
    if (wb.affine)
      cost.addAffine(true, wb.wires[0], copies > 1 ? wb.wires[1] - wb.wires[0] : 0);
    else
      cost.overhead += 2;
  }
  int64_t overhead = cost.overhead + cost.needIv + plan.externalized.size();
  // A qubit re-read after the loop only to be inserted back at its wire
  // costs nothing: the canonical form drops the pair (the loop wrote it
  // back), and the insert goes with it.
  for (const RunPlan::Externalized &e : plan.externalized) {
    Value q = at(e.copy, e.j)->getResult(e.result);
    if (!q.hasOneUse())
      continue;
    std::optional<RegisterAccess> a = RegisterAccess::get(*q.getUsers().begin());
    if (a && a->isInsert && a->staticIdx == e.wire)
      overhead -= 2;
  }
  return overhead;
}

} // namespace qshape::roll
