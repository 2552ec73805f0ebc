//===- GivenOrder.cpp - qshape-roll-loops: when to roll in the given order ===//

#include "GivenOrder.h"

#include "Support.h"

#include "qshape/GateView/GateView.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

using namespace mlir;

namespace qshape::roll {

/// A gate's token with its wires and angles left out: its op, its gate
/// name, adjointness and operand and result counts.
static uint64_t gateToken(const GateView &g) {
  Operation *op = g.getOperation();
  return llvm::hash_combine(op->getName().getAsOpaquePointer(), g.getGateName(), g.isAdjoint(),
                            op->getNumOperands(), op->getNumResults());
}

/// 1 when table `b` holds in each copy what `a` holds in the next, 0 when
/// the tables are equal, -1 otherwise.
static int tableShift(const OperandPlan &a, const OperandPlan &b) {
  size_t n = a.perCopy.size();
  if (n != b.perCopy.size() || n < 2)
    return -1;
  bool equal = true, next = true;
  for (size_t c = 0; c < n && (equal || next); ++c) {
    Attribute x = constantValue(a.perCopy[c]), y = constantValue(b.perCopy[c]);
    if (!x || !y)
      return -1; // not a table of constants: nothing to compare
    equal &= x == y;
    next &= c + 1 == n || y == constantValue(a.perCopy[c + 1]);
  }
  return equal ? 0 : next ? 1 : -1;
}

/// Compares the data two body ops read, slot by slot, through the values
/// the body recomputes: `shifted` counts the affine slots where b's base is
/// one stride past a's, or tables where b holds in each copy what a holds in
/// the next. Values that flow through the body (qubits, gathers) are not
/// compared.
static bool sameDataButShifts(llvm::ArrayRef<OperandPlan> a, llvm::ArrayRef<OperandPlan> b,
                              unsigned &shifted) {
  if (a.size() != b.size())
    return false;
  auto isData = [](const OperandPlan &p) {
    return p.kind != OperandPlan::Internal && p.kind != OperandPlan::Carried &&
           p.kind != OperandPlan::WireRead && p.kind != OperandPlan::Gather;
  };
  for (auto [x, y] : llvm::zip(a, b)) {
    if (!isData(x) || !isData(y))
      continue;
    if (x.kind != y.kind)
      return false;
    switch (x.kind) {
    case OperandPlan::Invariant:
      if (x.invariant != y.invariant)
        return false;
      break;
    case OperandPlan::AffineInt:
      if (x.stride != y.stride || (x.base != y.base && y.base - x.base != x.stride))
        return false;
      shifted += x.stride != 0 && x.base != y.base;
      break;
    case OperandPlan::IntTable:
    case OperandPlan::FloatTable: {
      int shift = tableShift(x, y);
      if (shift < 0)
        return false;
      shifted += shift;
      break;
    }
    case OperandPlan::Recompute:
      if (x.recipe->getName() != y.recipe->getName() ||
          !sameDataButShifts(x.parts, y.parts, shifted))
        return false;
      break;
    default:
      break;
    }
  }
  return true;
}

static bool readsNextIteration(llvm::ArrayRef<OperandPlan> a, llvm::ArrayRef<OperandPlan> b) {
  unsigned shifted = 0;
  return sameDataButShifts(a, b, shifted) && shifted;
}

bool straddlesIterations(const RunPlan &plan, llvm::ArrayRef<mlir::Operation *> ops) {
  // Each op is compared with the last few alike before it: the same gate of
  // the next layer is at most a layer's worth of its kind away, and a body
  // of thousands of gates of one kind must not cost their square.
  constexpr size_t kWindow = 16;
  llvm::DenseMap<OperationName, llvm::SmallVector<unsigned, 4>> byName;
  for (unsigned j = 0; j < plan.period; ++j) {
    Operation *op = ops[plan.start + j];
    if (op->getNumRegions() || op->getNumOperands() == 0)
      continue;
    llvm::SmallVector<unsigned, 4> &named = byName[op->getName()];
    for (unsigned k : llvm::ArrayRef(named).take_back(kWindow))
      if (sameOpShape(ops[plan.start + k], op) &&
          (readsNextIteration(plan.operands[k], plan.operands[j]) ||
           readsNextIteration(plan.operands[j], plan.operands[k])))
        return true;
    named.push_back(j);
  }
  return false;
}

/// The gates directly in the body of the largest loop the canonical order
/// made at the top of `rolled` (0 when there is none).
static unsigned largestRolledBody(Operation *rolled) {
  unsigned most = 0;
  for (Region &region : rolled->getRegions())
    for (Block &block : region)
      for (Operation &op : block) {
        if (!isa<scf::ForOp>(op) || !op.hasAttr(kRolledMarker))
          continue;
        unsigned gates = 0;
        for (Operation &inner : cast<scf::ForOp>(op).getBody()->getOperations())
          gates += GateView::get(&inner).has_value();
        most = std::max(most, gates);
      }
  return most;
}

LeftUnrolled leftUnrolled(Operation *rolled) {
  llvm::SmallPtrSet<Operation *, 32> counted;
  llvm::SmallVector<Operation *> work;
  rolled->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<scf::ForOp>(op) && op->hasAttr(kRolledMarker))
      return WalkResult::skip();
    if (GateView::get(op) && counted.insert(op).second)
      work.push_back(op);
    return WalkResult::advance();
  });
  LeftUnrolled left;
  left.gates = counted.size();
  // Producers whose every use is counted, in the block of their user.
  while (!work.empty()) {
    Operation *user = work.pop_back_val();
    for (Value operand : user->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || def->getBlock() != user->getBlock() || def->getNumRegions() ||
          counted.contains(def) ||
          !llvm::all_of(def->getUsers(), [&](Operation *u) { return counted.contains(u); }))
        continue;
      counted.insert(def);
      work.push_back(def);
    }
  }
  left.ops = counted.size();
  return left;
}

void hoistConstants(Operation *root) {
  root->walk([](Block *block) {
    Operation *last = nullptr; // the last constant of the prefix
    for (Operation &op : llvm::make_early_inc_range(*block)) {
      if (!isConstant(&op))
        continue;
      Operation *next = last ? last->getNextNode() : &block->front();
      if (&op != next) {
        if (last)
          op.moveAfter(last);
        else
          op.moveBefore(block, block->begin());
      }
      last = &op;
    }
  });
}

namespace {
/// The gates of a function's body in the order they came in, each a token
/// of its gate and, with `withWires`, the wires it acts on (-1 for a qubit
/// whose wire is not a static extract's, followed through gates); angles
/// are left out. Tokens are made as they are first asked for, in order: a
/// probe that fails early reads few. A gate's qubit results follow its
/// qubit operands in order (targets, then controls): read by type, not
/// through the gate view's operand groups, whose segment sizes cost an
/// attribute per read. A wire misread makes the probe weaker, never the
/// output wrong.
class GateTokens {
public:
  GateTokens(Operation *func, bool withWires);
  size_t size() const { return gates.size(); }
  uint64_t operator[](size_t i) {
    while (tokens.size() <= i)
      tokens.push_back(tokenOf(gates[tokens.size()]));
    return tokens[i];
  }
  /// The wires gates [from, to) act on, sorted, each once (with wires).
  llvm::SmallVector<int64_t> wiresOf(size_t from, size_t to) {
    (void)(*this)[to - 1];
    llvm::SmallVector<int64_t> wires(wireList.begin() + wireStart[from],
                                     wireList.begin() + wireStart[to]);
    llvm::sort(wires);
    wires.erase(std::unique(wires.begin(), wires.end()), wires.end());
    return wires;
  }

  /// The most wires one gate of [from, to) acts on (with wires).
  size_t widest(size_t from, size_t to) {
    (void)(*this)[to - 1];
    size_t most = 0;
    for (size_t i = from; i < to; ++i)
      most = std::max<size_t>(most, wireStart[i + 1] - wireStart[i]);
    return most;
  }

private:
  uint64_t tokenOf(Operation *op);

  Type qubit;
  bool withWires;
  llvm::SmallVector<Operation *> gates;
  llvm::SmallVector<uint64_t> tokens;
  /// With wires, those of gate i are wireList[wireStart[i], wireStart[i + 1]).
  llvm::SmallVector<int64_t> wireList;
  llvm::SmallVector<unsigned> wireStart{0};
  RecentValueMap<int64_t> wireOf; ///< qubits are read once
};
} // namespace

GateTokens::GateTokens(Operation *func, bool withWires)
    : qubit(getQubitType(func->getContext())), withWires(withWires) {
  // Each name is looked up in the op table once.
  llvm::SmallDenseMap<OperationName, QOpKind, 16> kinds;
  for (Region &region : func->getRegions())
    for (Block &block : region)
      for (Operation &op : block) {
        auto [it, added] = kinds.try_emplace(op.getName(), QOpKind::NotQuantum);
        if (added)
          it->second = classify(&op);
        if (it->second == QOpKind::Gate || it->second == QOpKind::GlobalPhase) {
          gates.push_back(&op);
        } else if (withWires && it->second == QOpKind::Extract) {
          std::optional<RegisterAccess> a = RegisterAccess::get(&op);
          if (std::optional<int64_t> w = a->wire())
            wireOf.set(a->result, *w);
        }
      }
  // Sized once: on 10^6 gates, growing them copies tens of megabytes.
  tokens.reserve(gates.size());
  if (withWires) {
    wireList.reserve(gates.size());
    wireStart.reserve(gates.size() + 1);
  }
}

uint64_t GateTokens::tokenOf(Operation *op) {
  uint64_t token = gateToken(*GateView::get(op));
  if (!withWires)
    return token;
  auto out =
      llvm::make_filter_range(op->getResults(), [&](Value v) { return v.getType() == qubit; });
  auto next = out.begin();
  for (Value in : op->getOperands()) {
    if (in.getType() != qubit)
      continue;
    int64_t w = wireOf.take(in).value_or(-1);
    token = llvm::hash_combine(token, w);
    wireList.push_back(w);
    if (next != out.end())
      wireOf.set(*next++, w);
  }
  wireStart.push_back(wireList.size());
  return token;
}

/// The shortest period with which `gates` repeat exactly at least
/// `minCopies` times over 9/10 of them, or 0. The run must hold the middle
/// 8/10: the periods tried are the distances from the gate at 1/10 to the
/// next gates alike, and each gate up to 9/10 must equal the gate a period
/// before it. A period that fails is dropped; once none is left the probe
/// stops (QPE's blocks, alike but for a control wire, stop it at the first
/// block's end). Linear in the gates for each of at most 64 periods.
static size_t wholePeriod(GateTokens &gates, unsigned minCopies) {
  size_t n = gates.size();
  if (minCopies < 2 || n < 2 * size_t(minCopies))
    return 0;
  constexpr unsigned kCandidates = 64;
  size_t maxPeriod = n / minCopies, a = n / 10, end = n - n / 10;
  llvm::SmallVector<size_t> periods;
  for (size_t j = a + 1; j <= a + maxPeriod && periods.size() < kCandidates; ++j)
    if (gates[j] == gates[a])
      periods.push_back(j - a);
  for (size_t i = a + 1; i < end && !periods.empty(); ++i)
    llvm::erase_if(periods, [&](size_t p) { return i >= a + p && gates[i] != gates[i - p]; });
  for (size_t p : periods) {
    size_t lo = a, hi = end - p; // gates[x] == gates[x + p] for x in [lo, hi)
    while (lo > 0 && gates[lo - 1] == gates[lo - 1 + p])
      --lo;
    while (hi + p < n && gates[hi] == gates[hi + p])
      ++hi;
    size_t covered = hi + p - lo;
    if (10 * covered >= 9 * n && covered >= p * minCopies)
      return p;
  }
  return 0;
}

/// The wires of a layer of `period` gates, if the next layer acts on the
/// same ones. (Where layers begin is not known: any span of a layer's
/// length holds the wires of a layer; the spans start a tenth in.)
static std::optional<llvm::SmallVector<int64_t>> layerWires(GateTokens &withWires, size_t period) {
  size_t a = withWires.size() / 10;
  llvm::SmallVector<int64_t> wires = withWires.wiresOf(a, a + period);
  if (wires != withWires.wiresOf(a + period, a + 2 * period))
    return std::nullopt;
  return wires;
}

/// givenOrderRepeatsLayers on the tokens with wires of a function.
static bool repeatsLayers(Operation *func, GateTokens &withWires, unsigned minTripCount) {
  // With their wires the layers repeat less often, or not at all (fewer
  // layers than ranges).
  size_t wired = wholePeriod(withWires, 2);
  GateTokens alone(func, /*withWires=*/false);
  size_t period = wholePeriod(alone, minTripCount);
  if (!period || (wired && (period >= wired || wired % period)))
    return false;
  // Each layer acts on all the wires, paired otherwise; copies on other
  // wires (one chain of gates per wire, two gates of one chain) roll as
  // well in the canonical order.
  size_t a = withWires.size() / 10;
  llvm::SmallVector<int64_t> all =
      wired ? withWires.wiresOf(a, a + wired) : withWires.wiresOf(0, withWires.size());
  std::optional<llvm::SmallVector<int64_t>> wires = layerWires(withWires, period);
  return wires && *wires == all;
}

/// The fewest open layers that go first in the given order: fewer leave
/// too little for the order to matter.
constexpr unsigned kOpenLayerCopies = 4;

/// Whether the gates with their wires repeat whole at least `minCopies`
/// times in layers on the same wires that pair some of them and have no
/// gate on all of them: the canonical order would start a layer on the
/// wires the last one freed first, and cut its loop across layers.
static bool repeatsOpenLayers(GateTokens &withWires, unsigned minCopies) {
  size_t period = wholePeriod(withWires, minCopies);
  if (!period)
    return false;
  std::optional<llvm::SmallVector<int64_t>> wires = layerWires(withWires, period);
  if (!wires)
    return false;
  size_t a = withWires.size() / 10;
  size_t widest = withWires.widest(a, a + period);
  return widest >= 2 && widest < wires->size();
}

bool givenOrderRepeatsWhole(Operation *func, unsigned minCopies) {
  GateTokens gates(func, /*withWires=*/true);
  return wholePeriod(gates, minCopies) != 0;
}

bool givenOrderRepeatsLayers(Operation *func, unsigned minTripCount) {
  GateTokens gates(func, /*withWires=*/true);
  return repeatsLayers(func, gates, minTripCount);
}

bool givenOrderGoesFirst(Operation *func, unsigned minCopies, unsigned minTripCount) {
  // The later probes read the tokens the first one made.
  GateTokens gates(func, /*withWires=*/true);
  return wholePeriod(gates, minCopies) || repeatsLayers(func, gates, minTripCount) ||
         repeatsOpenLayers(gates, kOpenLayerCopies);
}

bool givenOrderRepeatsFiner(Operation *func, Operation *rolled) {
  unsigned body = largestRolledBody(rolled);
  if (body < 2)
    return false;
  llvm::SmallVector<uint64_t> gates;
  for (Region &region : func->getRegions())
    for (Block &block : region)
      for (Operation &op : block)
        if (std::optional<GateView> g = GateView::get(&op))
          gates.push_back(gateToken(*g));
  // Only the places where the gate changes are compared: a period must
  // carry each change to the same change. (Inside a long run of one gate,
  // a layer of Hadamards, every shift matches.)
  llvm::SmallVector<size_t> changes;
  for (size_t i = 0; i + 1 < gates.size(); ++i)
    if (gates[i] != gates[i + 1])
      changes.push_back(i);
  for (unsigned p = 1; p < body; ++p) {
    if (body % p)
      continue;
    size_t same = 0, compared = 0;
    for (size_t i : changes) {
      if (i + p + 1 >= gates.size())
        break;
      ++compared;
      same += gates[i] == gates[i + p] && gates[i + 1] == gates[i + p + 1];
    }
    if (compared >= 4 && 10 * same >= 9 * compared)
      return true;
  }
  return false;
}

} // namespace qshape::roll
