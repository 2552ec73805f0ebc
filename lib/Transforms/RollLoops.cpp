//===- RollLoops.cpp - qshape-roll-loops ----------------------------------===//
//
// Structural loop rolling. For each block of straight-line code:
//  1. put the function in canonical form (each wire's gate chain together,
//     wires ascending) and hoist pure non-quantum ops (tensor.extract of
//     runtime angles, arithmetic) to just after their operands, so that the
//     copies of a repeated body are contiguous and look alike;
//  2. hash each op to a token with wire indices, constant values and SSA
//     identities abstracted away, and find maximal periodic runs: for each
//     period p <= max-period one linear scan of token[i] == token[i+p]
//     (O(n * max-period), linear in the block length);
//  3. verify a run operand by operand (RunAnalyzer::classify, which reads
//     it once, copy by copy) and, when it saves ops, rebuild it as one
//     scf.for;
//  4. with `nest`, repeat on the result (loops of loops), then
//     re-canonicalize.
// Quantum ops are read by name only (GateView.h); upstream scf/arith/tensor
// ops are built with their own C++ builders, which every host has.
//
//===----------------------------------------------------------------------===//

#include "qshape/Fingerprint/CanonicalForm.h"
#include "qshape/Fingerprint/Encoding.h"
#include "qshape/Fingerprint/Fingerprint.h"
#include "qshape/GateView/GateView.h"
#include "qshape/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/xxhash.h"

#include <limits>
#include <map>

#define DEBUG_TYPE "qshape-roll-loops"

namespace qshape {
#define GEN_PASS_DEF_QSHAPEROLLLOOPS
#include "qshape/Transforms/Passes.h.inc"
} // namespace qshape

using namespace mlir;
using namespace qshape;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

// The canonical form's predicates, so both agree on what a constant is and
// what may move freely.
bool isConstant(Operation *op) { return canonical::isConstantOp(op); }

/// Pure, region-free, registered, non-quantum: may be hoisted freely.
bool isFloatingPure(Operation *op) {
  // The cheap test first: isMergeable asks the op for its memory effects.
  return !canonical::isConstantOp(op) && canonical::isMergeable(op);
}

/// Ops a loop body may contain: ops without side effects, and the quantum
/// ops whose effects we know (a global phase, a mid-circuit measurement),
/// which keep their order because the loop runs the copies in order.
bool isRollable(Operation *op) {
  if (op->hasTrait<OpTrait::IsTerminator>())
    return false;
  QOpKind kind = classify(op);
  if (kind == QOpKind::GlobalPhase || kind == QOpKind::Measure)
    return true;
  if (kind != QOpKind::NotQuantum)
    return !isOrdered(op);
  if (!op->isRegistered())
    return false; // never move or duplicate what we do not understand
  return !isOrdered(op);
}

/// Marks the loops this pass creates until it finishes, so verify-roundtrip
/// unrolls those and leaves the program's own loops alone.
constexpr llvm::StringLiteral kRolledMarker = "qshape.rolled";

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h;
}

/// How far ahead loops over large blocks prefetch (in ops): enough to cover
/// a memory access with the work on the ops in between.
constexpr unsigned kAhead = 8;

/// Positions of the ops of a block scan: an open-addressing table whose
/// slots can be prefetched while it is filled (on large blocks every insert
/// and lookup of a node-keyed map is a cache miss).
class OpPositions {
public:
  void assign(ArrayRef<Operation *> ops) {
    size_t capacity = llvm::NextPowerOf2(2 * ops.size() + 1);
    shift = 64 - llvm::Log2_64(capacity);
    slots.assign(capacity, {nullptr, 0});
    for (size_t i = 0; i < ops.size(); ++i) {
      if (i + kAhead < ops.size())
        __builtin_prefetch(&slots[slotOf(ops[i + kAhead])]);
      size_t h = slotOf(ops[i]);
      while (slots[h].first)
        h = (h + 1) & (capacity - 1);
      slots[h] = {ops[i], unsigned(i)};
    }
  }
  std::optional<unsigned> lookup(Operation *op) const {
    for (size_t h = slotOf(op);; h = (h + 1) & (slots.size() - 1)) {
      if (slots[h].first == op)
        return slots[h].second;
      if (!slots[h].first)
        return std::nullopt;
    }
  }

private:
  size_t slotOf(Operation *op) const {
    return size_t((uint64_t(reinterpret_cast<uintptr_t>(op)) * 0x9E3779B97F4A7C15ull) >> shift);
  }
  std::vector<std::pair<Operation *, unsigned>> slots;
  unsigned shift = 64;
};

/// For a loop at `ops[i]` that reads each op's operands, moving by `step`
/// (+1 or -1): prefetches the op 2 * kAhead steps ahead and the values the
/// op kAhead steps ahead uses (its producers' results). On large blocks
/// each of those reads is otherwise a cache miss taken one at a time.
void prefetchAhead(ArrayRef<Operation *> ops, size_t i, int step = 1) {
  auto at = [&](int64_t k) -> Operation * {
    int64_t j = int64_t(i) + k * step;
    return j >= 0 && j < int64_t(ops.size()) ? ops[j] : nullptr;
  };
  if (Operation *far = at(2 * kAhead))
    __builtin_prefetch(far);
  if (Operation *near = at(kAhead))
    for (OpOperand &operand : near->getOpOperands())
      __builtin_prefetch(operand.get().getAsOpaquePointer());
}

/// Register normal form: one linear re-scheduling of `block` in which
///  - pure non-quantum ops (runtime angle extraction, arithmetic) and
///    `quantum.insert` go up to just after their operands (ASAP): the former
///    leave the repeated bodies, an insert closes the copy of its wire;
///  - `quantum.extract` and observables go down to just before their first
///    user (ALAP): each copy reads its wire where it starts, and a
///    measurement at the end does not cut a run in two;
///  - every other op keeps its relative order.
/// All moved ops are free of side effects, so this keeps the meaning.
/// `visit` sees each op once, in the block's order before, while its memory
/// is at hand; `before` receives, for each op of the result, its position in
/// that order.
SmallVector<Operation *> normalizeRegisters(Block &block, const std::vector<Operation *> *knownOps,
                                            function_ref<void(Operation *)> visit,
                                            SmallVectorImpl<unsigned> &before) {
  // The block's list is walked at most once (not at all when the caller
  // knows its ops): on large blocks each step of a walk is a cache miss that
  // cannot overlap the next (the next pointer is in the op). The passes
  // below run over this array; only the first (prefetching) reads every op,
  // the others look ops and values up by address in small maps, so an op's
  // memory is not read again unless it is, feeds or uses an eager or lazy op.
  SmallVector<Operation *> ops;
  if (knownOps)
    ops.assign(knownOps->begin(), knownOps->end());
  else
    for (Operation &op : block) // (ilist::size() would be a second walk)
      ops.push_back(&op);
  unsigned n = ops.size();
  auto prefetch = [&](unsigned i) {
    if (i + kAhead < n)
      __builtin_prefetch(ops[i + kAhead]);
  };
  Operation *terminator =
      n && ops.back()->hasTrait<OpTrait::IsTerminator>() ? ops.back() : nullptr;
  enum Kind : uint8_t { Other, Eager, Lazy };
  auto kindOf = [](Operation *op) {
    QOpKind k = qshape::classify(op);
    if (k == QOpKind::Insert)
      return Eager;
    if (k == QOpKind::Extract || k == QOpKind::Observable)
      return Lazy;
    return k == QOpKind::NotQuantum && isFloatingPure(op) ? Eager : Other;
  };
  // Only eager and lazy ops (usually few) have state: whether they were
  // emitted, and for an eager op the operand uses still missing. Every other
  // op is emitted once, by the in-order loop below.
  struct State {
    Kind kind;
    bool emitted = false;
    unsigned missing = 0;
    unsigned index = 0; // in `ops`
  };
  DenseMap<Operation *, State> state;
  DenseMap<void *, Operation *> lazyResults; // result of a lazy op -> the op
  SmallVector<unsigned> special;             // positions of eager and lazy ops
  // Other ops that read a lazy op's result, found while their operands are
  // at hand (a producer comes before its users in the blocks rolled here).
  SmallVector<uint8_t> readsLazy(n, 0);
  for (unsigned i = 0; i < n; ++i) {
    prefetch(i);
    visit(ops[i]);
    Kind k = kindOf(ops[i]);
    if (k == Other) {
      if (!lazyResults.empty())
        canonical::forEachOperandDeep(
            ops[i], [&](Value v) { readsLazy[i] |= lazyResults.contains(v.getAsOpaquePointer()); });
      continue;
    }
    State &s = state[ops[i]];
    s.kind = k;
    s.index = i;
    special.push_back(i);
    if (k == Lazy)
      for (Value r : ops[i]->getResults())
        lazyResults[r.getAsOpaquePointer()] = ops[i];
  }
  auto inBlock = [&](Operation *op) { return op && op->getBlock() == &block; };
  auto stateOf = [&](Operation *op) -> State * {
    if (state.empty())
      return nullptr;
    auto it = state.find(op);
    return it == state.end() ? nullptr : &it->second;
  };
  // The in-block producers of eager ops' operands: only their users can
  // complete an eager op.
  DenseSet<Operation *> watched;

  SmallVector<Operation *> order;
  order.reserve(n);
  before.clear();
  before.reserve(n);
  std::function<void(Operation *, unsigned)> emit;
  std::function<void(Operation *)> emitLazyOperands = [&](Operation *op) {
    if (lazyResults.empty())
      return;
    canonical::forEachOperandDeep(op, [&](Value v) {
      auto it = lazyResults.find(v.getAsOpaquePointer());
      if (it == lazyResults.end())
        return;
      Operation *p = it->second;
      if (State &ps = state[p]; !ps.emitted) {
        emitLazyOperands(p);
        emit(p, ps.index);
      }
    });
  };
  emit = [&](Operation *op, unsigned index) {
    if (State *s = stateOf(op)) {
      if (s->emitted)
        return;
      s->emitted = true;
    }
    order.push_back(op);
    before.push_back(index);
    // Eager users whose last missing operand this was go right after (users
    // are visited once per use, as `missing` counts them).
    if (!watched.contains(op))
      return;
    for (Value r : op->getResults())
      for (Operation *user : r.getUsers()) {
        if (!inBlock(user))
          continue;
        State *s = stateOf(user);
        if (!s || s->kind != Eager || s->emitted || s->missing == 0)
          continue;
        if (--s->missing == 0) {
          emitLazyOperands(user);
          emit(user, s->index);
        }
      }
  };
  // An eager op waits for the uses of its in-block, non-lazy producers (a
  // lazy producer is emitted on demand right before it).
  SmallVector<unsigned> readyEager;
  for (unsigned i : special) {
    State &s = state[ops[i]];
    if (s.kind != Eager)
      continue;
    for (Value v : ops[i]->getOperands())
      if (Operation *p = v.getDefiningOp(); inBlock(p)) {
        watched.insert(p);
        State *ps = stateOf(p);
        if (!ps || ps->kind != Lazy)
          ++s.missing;
      }
    if (!s.missing)
      readyEager.push_back(i);
  }
  for (unsigned i : readyEager) {
    emitLazyOperands(ops[i]);
    emit(ops[i], i);
  }
  for (unsigned i = 0; i < n; ++i) {
    Operation *op = ops[i];
    if (op == terminator || stateOf(op))
      continue;
    if (readsLazy[i])
      emitLazyOperands(op);
    emit(op, i);
  }
  // Whatever is left (eager ops waiting on something unusual, unused lazy
  // ops) keeps its original relative order before the terminator.
  for (unsigned i : special)
    if (!state[ops[i]].emitted) {
      emitLazyOperands(ops[i]);
      emit(ops[i], i);
    }
  if (terminator)
    emitLazyOperands(terminator);
  // Only the ops that change place move.
  canonical::placeInOrder(block, order.size(), [&](size_t i) { return order[i]; }, terminator);
  if (terminator) {
    order.push_back(terminator);
    before.push_back(n - 1);
  }
  return order;
}

//===----------------------------------------------------------------------===//
// Tokens
//===----------------------------------------------------------------------===//

class Tokenizer {
public:
  /// Structure of an op with wire indices, constant values and the identity
  /// of operands abstracted; equal tokens are necessary for two ops to be
  /// copies of each other, not sufficient (RunAnalyzer::classify decides).
  uint64_t token(Operation *op) {
    if (op->getNumRegions())
      return compute(op);
    // A token depends only on the name, properties, discardable attributes
    // and operand and result types: ops equal in those share it (a circuit
    // has few distinct gates, and building the properties' dictionary is
    // most of the cost).
    OperationName name = op->getName();
    OpaqueProperties props = op->getPropertiesStorage();
    llvm::hash_code h = llvm::hash_combine(
        name.getAsOpaquePointer(), props ? name.hashOpProperties(props) : llvm::hash_code(0),
        op->getRawDictionaryAttrs().getAsOpaquePointer());
    for (Type t : op->getResultTypes())
      h = llvm::hash_combine(h, t.getAsOpaquePointer());
    for (Value v : op->getOperands())
      h = llvm::hash_combine(h, v.getType().getAsOpaquePointer());
    SmallVector<std::pair<Operation *, uint64_t>, 1> &bucket = memo[size_t(h)];
    for (auto &[rep, token] : bucket)
      if (sameTokenInputs(rep, op))
        return token;
    uint64_t t = compute(op);
    bucket.push_back({op, t});
    return t;
  }
  /// Forgets the memo (its representatives are ops of one block scan).
  void reset() { memo.clear(); }

private:
  static bool sameTokenInputs(Operation *a, Operation *b) {
    if (a->getName() != b->getName() || a->getRawDictionaryAttrs() != b->getRawDictionaryAttrs() ||
        a->getResultTypes() != b->getResultTypes() ||
        a->getOperandTypes() != b->getOperandTypes())
      return false;
    OpaqueProperties pa = a->getPropertiesStorage(), pb = b->getPropertiesStorage();
    if (!pa || !pb)
      return !pa && !pb;
    return a->getName().compareOpProperties(pa, pb);
  }

  uint64_t compute(Operation *op) {
    ByteSink sink;
    sink.bytes(op->getName().getStringRef());
    SmallVector<NamedAttribute> attrs;
    if (Attribute props = op->getPropertiesAsAttribute())
      if (auto dict = dyn_cast<DictionaryAttr>(props))
        attrs.append(dict.begin(), dict.end());
    for (NamedAttribute na : op->getDiscardableAttrs())
      attrs.push_back(na);
    llvm::sort(attrs, [](const NamedAttribute &a, const NamedAttribute &b) {
      return a.getName().getValue() < b.getName().getValue();
    });
    for (NamedAttribute &na : attrs) {
      if (na.getName().getValue() == "idx_attr")
        continue;
      sink.bytes(na.getName().getValue());
      enc.encodeAttr(na.getValue(), sink);
    }
    for (Type t : op->getResultTypes())
      enc.encodeType(t, sink);
    for (Value v : op->getOperands())
      enc.encodeType(v.getType(), sink);
    // Which operands come from an index-style static/dynamic slot matters.
    sink.u64(op->getNumOperands());
    for (Region &r : op->getRegions()) {
      sink.u8('{');
      r.walk([&](Operation *inner) { sink.u64(token(inner)); });
      sink.u8('}');
    }
    return llvm::xxh3_64bits(sink.str());
  }

  StructuralEncoder enc{/*abstractFloats=*/true};
  DenseMap<size_t, SmallVector<std::pair<Operation *, uint64_t>, 1>> memo;
};

//===----------------------------------------------------------------------===//
// Run classification
//===----------------------------------------------------------------------===//

/// How operand `m` of body op `j` is obtained in every copy.
struct OperandPlan {
  enum Kind {
    Internal,
    Carried,
    Invariant,
    AffineInt,
    IntTable,
    FloatTable,
    Gather,
    WireRead, // a qubit extracted before the run from one register; the body
              // extracts it (wire = an affine index, or `wires` as a table)
  } kind;
  Value reg;                   // WireRead: the register
  SmallVector<int64_t> wires;  // WireRead: the static index in each copy
  unsigned defOp = 0, defResult = 0; // Internal / Carried: producer in the body
  Value invariant;                   // Invariant; Carried: the init value
  int64_t base = 0, stride = 0;      // AffineInt
  SmallVector<Value> perCopy;        // the value in each copy (Internal: in
                                     // copy 0; Carried: in copies 0 and 1)
};

/// How the static index of an extract/insert varies.
struct IndexPlan {
  bool varies = false;
  bool affine = true;
  int64_t base = 0, stride = 0;
  SmallVector<int64_t> values;
};

struct RunPlan {
  unsigned start, period, copies;
  SmallVector<SmallVector<OperandPlan>> operands; // [j][m]
  SmallVector<IndexPlan> indices;                 // [j]
  // Results of the last copy that are used after the run: (j, result #).
  SmallVector<std::pair<unsigned, unsigned>> liveOut;
  // Qubits of earlier copies used after the run, re-read from the final
  // register: (copy, j, result #, wire).
  struct Externalized {
    unsigned copy, j, result;
    int64_t wire;
  };
  SmallVector<Externalized> externalized;
  int64_t overhead = 0;
};

enum class Reject { None, SideEffects, Operands, Unprofitable };

/// What the copies of one operand read so far allow: the cases of
/// OperandPlan, tried in its order (Internal, Carried, Invariant, WireRead,
/// AffineInt/IntTable, FloatTable, Gather) but decided copy by copy.
struct OperandScan {
  bool internal = false, carried = false, anyInRun = false;
  bool allEqual = true, wireRead = true, allInt = true, allFloat = true;
  unsigned defOp = 0, defResult = 0; // Internal / Carried
  Value reg;                         // WireRead
  SmallVector<Value> vals; // copy 0's first
  SmallVector<int64_t> wires, ints;
  Type type() const { return vals[0].getType(); }
};

class RunAnalyzer {
public:
  RunAnalyzer(ArrayRef<Operation *> ops, const OpPositions &index,
              bool paramTables)
      : ops(ops), index(index), paramTables(paramTables) {}

  Reject classify(unsigned start, unsigned period, unsigned copies, RunPlan &plan);

private:
  Operation *at(unsigned copy, unsigned j) const { return ops[start + copy * period + j]; }
  /// Position of `op` in `ops`, if it is there. Producers and users are
  /// usually a few ops before or after the op at `near`: those are looked
  /// at first (a map lookup is a cache miss on large blocks).
  std::optional<unsigned> positionOf(Operation *op, unsigned near) const {
    for (unsigned d = 1; d <= kNearWindow; ++d) {
      if (near >= d && ops[near - d] == op)
        return near - d;
      if (near + d < ops.size() && ops[near + d] == op)
        return near + d;
    }
    return index.lookup(op);
  }
  static constexpr unsigned kNearWindow = 8;
  /// (copy, j) of a value's producer when it is inside the run; `near` is
  /// the position of an op that uses it.
  std::optional<std::pair<unsigned, unsigned>> inRun(Value v, unsigned near) const {
    Operation *def = v.getDefiningOp();
    // A constant is never in a run (see rollBlock).
    if (!def || isConstant(def))
      return std::nullopt;
    std::optional<unsigned> pos = positionOf(def, near);
    if (!pos || *pos < start || *pos >= end)
      return std::nullopt;
    unsigned off = *pos - start;
    return std::make_pair(off / period, off % period);
  }
  unsigned posOf(unsigned copy, unsigned j) const { return start + copy * period + j; }
  /// Adds copy `c` of one operand of body op `j` to its scan; false when no
  /// case of OperandPlan fits any more.
  bool scanOperand(OperandScan &scan, unsigned c, unsigned j, Value v);
  /// The plan of a scanned operand; false when there is none.
  bool finishOperand(OperandScan &scan, OperandPlan &plan);

  ArrayRef<Operation *> ops;
  const OpPositions &index;
  bool paramTables;
  unsigned start = 0, period = 0, copies = 0, end = 0;
};

/// Whether `other`'s regions are `first`'s (same body, same captured
/// values); the ops' own operands are classified separately, so they are
/// treated as equivalent here.
static bool sameRegions(Operation *first, Operation *other) {
  return OperationEquivalence::isEquivalentTo(
      first, other,
      [&](Value a, Value b) {
        if (a == b)
          return success();
        if (llvm::is_contained(first->getOperands(), a) &&
            llvm::is_contained(other->getOperands(), b))
          return success();
        return failure();
      },
      /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
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
    scan.wireRead = a && !a->isInsert && a->staticIdx && !inRun(a->reg, near) &&
                    (!scan.reg || a->reg == scan.reg);
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

bool RunAnalyzer::finishOperand(OperandScan &scan, OperandPlan &plan) {
  plan.perCopy = std::move(scan.vals);
  ArrayRef<Value> vals = plan.perCopy;
  if (scan.internal || scan.carried) {
    plan.kind = scan.internal ? OperandPlan::Internal : OperandPlan::Carried;
    plan.defOp = scan.defOp;
    plan.defResult = scan.defResult;
    if (scan.internal)
      return true;
    plan.invariant = vals[0];
    return vals[0].getType() == vals[1].getType();
  }
  if (scan.anyInRun)
    return false;
  if (scan.allEqual) {
    plan.kind = OperandPlan::Invariant;
    plan.invariant = vals[0];
    return true;
  }
  if (scan.wireRead) {
    plan.kind = OperandPlan::WireRead;
    plan.reg = scan.reg;
    plan.wires = std::move(scan.wires);
    plan.base = plan.wires[0];
    plan.stride = plan.wires[1] - plan.wires[0];
    bool affine = true;
    for (unsigned c = 0; c < copies && affine; ++c)
      affine = plan.wires[c] == plan.base + plan.stride * int64_t(c);
    if (!affine)
      plan.stride = 0, plan.base = -1; // table
    return affine || paramTables;
  }
  // Integer constants: affine in the copy number, else a table.
  if (scan.allInt) {
    ArrayRef<int64_t> ints = scan.ints;
    int64_t stride = ints[1] - ints[0];
    bool affine = true;
    for (unsigned c = 0; c < copies && affine; ++c)
      affine = ints[c] == ints[0] + stride * int64_t(c);
    if (affine) {
      plan.kind = OperandPlan::AffineInt;
      plan.base = ints[0];
      plan.stride = stride;
      return true;
    }
    plan.kind = OperandPlan::IntTable;
    return paramTables;
  }
  if (scan.allFloat) {
    plan.kind = OperandPlan::FloatTable;
    return paramTables;
  }
  // Runtime values of a scalar type: gather them into a tensor.
  if (scan.type().isIntOrIndexOrFloat()) {
    plan.kind = OperandPlan::Gather;
    return paramTables;
  }
  return false; // e.g. distinct qubits from before the run
}

Reject RunAnalyzer::classify(unsigned s, unsigned p, unsigned k, RunPlan &plan) {
  start = s;
  period = p;
  copies = k;
  end = s + p * k;
  plan.start = s;
  plan.period = p;
  plan.copies = k;
  plan.operands.assign(p, {});
  plan.indices.assign(p, {});
  plan.liveOut.clear();
  plan.externalized.clear();

  // The run is read once, copy by copy (reading it operand by operand
  // would stride through all of it once per operand; on large blocks each
  // of those reads is a cache miss). The reason for a rejection is that of
  // the first body op that fails, as if the ops were checked one by one;
  // the ops after it are not read further.
  unsigned limit = p;
  Reject reason = Reject::None;
  auto fail = [&](unsigned j, Reject r) {
    if (j < limit)
      limit = j, reason = r;
  };
  for (unsigned j = 0; j < p; ++j)
    if (!isRollable(at(0, j))) {
      fail(j, Reject::SideEffects);
      break;
    }
  SmallVector<unsigned> firstScan(p + 1, 0); // operand scans, [j][m] flattened
  SmallVector<bool> staticIdx(p);            // body op j has a static register index
  for (unsigned j = 0; j < limit; ++j) {
    firstScan[j + 1] = firstScan[j] + at(0, j)->getNumOperands();
    std::optional<RegisterAccess> a = RegisterAccess::get(at(0, j));
    staticIdx[j] = a && a->staticIdx;
  }
  std::vector<OperandScan> scans(firstScan[limit]);
  for (unsigned c = 0; c < k && limit; ++c) {
    for (unsigned j = 0; j < limit; ++j) {
      unsigned i = posOf(c, j);
      prefetchAhead(ops, i);
      Operation *first = at(0, j), *o = ops[i];
      if (c > 0 &&
          (o->getName() != first->getName() || o->getNumOperands() != first->getNumOperands() ||
           o->getResultTypes() != first->getResultTypes() ||
           (first->getNumRegions() && !sameRegions(first, o)))) {
        fail(j, Reject::Operands);
        break;
      }
      bool ok = true;
      for (unsigned m = 0; m < o->getNumOperands() && ok; ++m)
        ok = scanOperand(scans[firstScan[j] + m], c, j, o->getOperand(m));
      if (ok && staticIdx[j]) {
        std::optional<RegisterAccess> a = RegisterAccess::get(o);
        ok = a && a->staticIdx;
        if (ok)
          plan.indices[j].values.push_back(*a->staticIdx);
      }
      if (!ok) {
        fail(j, Reject::Operands);
        break;
      }
    }
  }
  for (unsigned j = 0; j < limit; ++j) {
    bool ok = true;
    for (unsigned x = firstScan[j]; x < firstScan[j + 1] && ok; ++x) {
      OperandPlan op;
      ok = finishOperand(scans[x], op);
      plan.operands[j].push_back(std::move(op));
    }
    if (ok && staticIdx[j]) {
      IndexPlan &ip = plan.indices[j];
      ip.varies = !llvm::all_equal(ip.values);
      ip.base = ip.values[0];
      ip.stride = k > 1 ? ip.values[1] - ip.values[0] : 0;
      for (unsigned c = 0; c < k; ++c)
        ip.affine &= ip.values[c] == ip.base + ip.stride * int64_t(c);
      ok = !ip.varies || ip.affine || paramTables;
    }
    if (!ok) {
      fail(j, Reject::Operands);
      break;
    }
  }
  if (limit < p)
    return reason;

  // Every carried operand must be fed by the same producer in every copy,
  // and two operands may not be carried by one producer with different
  // inits (one iter_arg per (producer, result)).
  DenseMap<std::pair<unsigned, unsigned>, Value> carriedInit;
  for (unsigned j = 0; j < p; ++j)
    for (OperandPlan &op : plan.operands[j])
      if (op.kind == OperandPlan::Carried) {
        auto key = std::make_pair(op.defOp, op.defResult);
        auto [it, inserted] = carriedInit.try_emplace(key, op.invariant);
        if (!inserted && it->second != op.invariant)
          return Reject::Operands;
      }

  // Uses after the run (and uses inside the run that skip a copy, which
  // scanOperand already refused). The body ops that read a result, found
  // by the plan, are looked at first: a user found there is inside the run
  // without a position lookup.
  struct Reader {
    unsigned j, result, nextCopy;
  };
  SmallVector<SmallVector<Reader, 2>> readers(p);
  for (unsigned j = 0; j < p; ++j)
    for (OperandPlan &op : plan.operands[j])
      if (op.kind == OperandPlan::Internal || op.kind == OperandPlan::Carried)
        readers[op.defOp].push_back({j, op.defResult, op.kind == OperandPlan::Carried});
  for (unsigned c = 0; c < k; ++c)
    for (unsigned j = 0; j < p; ++j)
      for (OpResult r : at(c, j)->getResults())
        for (OpOperand &use : r.getUses()) {
          Operation *user = use.getOwner();
          bool inside = llvm::any_of(readers[j], [&](const Reader &rd) {
            unsigned cc = c + rd.nextCopy;
            return rd.result == r.getResultNumber() && cc < k && at(cc, rd.j) == user;
          });
          if (!inside) {
            Operation *anc = user->getBlock() == at(c, j)->getBlock()
                                 ? user
                                 : at(c, j)->getBlock()->findAncestorOpInBlock(*user);
            std::optional<unsigned> pos = anc ? positionOf(anc, posOf(c, j)) : std::nullopt;
            inside = pos && *pos >= start && *pos < end;
          }
          if (inside)
            continue;
          if (c == k - 1) {
            auto key = std::make_pair(j, r.getResultNumber());
            if (!llvm::is_contained(plan.liveOut, key))
              plan.liveOut.push_back(key);
            continue;
          }
          // A qubit of an earlier copy: re-read it from the final register
          // if that copy inserted it at a static wire no later copy touches.
          bool done = false;
          for (unsigned jj = 0; jj < p && !done; ++jj) {
            std::optional<RegisterAccess> ins = RegisterAccess::get(at(c, jj));
            if (!ins || !ins->isInsert || ins->qubit != r || !ins->staticIdx)
              continue;
            int64_t wire = *ins->staticIdx;
            bool touchedLater = false;
            for (unsigned c2 = c + 1; c2 < k && !touchedLater; ++c2)
              for (unsigned j2 = 0; j2 < p && !touchedLater; ++j2)
                if (auto a2 = RegisterAccess::get(at(c2, j2)); a2 && a2->isInsert)
                  touchedLater = !a2->staticIdx || *a2->staticIdx == wire;
            if (touchedLater)
              break;
            bool known = false;
            for (auto &e : plan.externalized)
              known |= e.copy == c && e.j == j && e.result == r.getResultNumber();
            if (!known)
              plan.externalized.push_back({c, j, r.getResultNumber(), wire});
            done = true;
          }
          if (!done)
            return Reject::Operands;
        }
  // Externalized qubits are read from the carried register, which must be a
  // live-out of the last copy.
  if (!plan.externalized.empty()) {
    bool haveReg = false;
    for (auto [j, res] : plan.liveOut)
      haveReg |= qshape::classify(at(k - 1, j)) == QOpKind::Insert;
    if (!haveReg)
      return Reject::Operands;
  }
  // Live-outs must be carried values (the loop can only return those).
  for (auto [j, res] : plan.liveOut) {
    bool carried = false;
    for (unsigned jj = 0; jj < p && !carried; ++jj)
      for (OperandPlan &op : plan.operands[jj])
        carried |= op.kind == OperandPlan::Carried && op.defOp == j && op.defResult == res;
    if (!carried)
      return Reject::Operands;
  }

  // Cost of the loop: the for, its yield and its trip-count constant (the
  // bounds 0 and 1 are usually there already), the index_cast of the
  // induction variable, each distinct affine expression (a multiply and an
  // add, each with its constant), each table (its constant or from_elements
  // and one extract), and the extracts that re-read externalized qubits.
  int64_t overhead = 3;
  bool needIv = false;
  SmallVector<std::tuple<bool, int64_t, int64_t>> affineExprs; // (is-i64, base, stride)
  auto addAffine = [&](bool i64, int64_t base, int64_t stride) {
    needIv = true;
    auto key = std::make_tuple(i64, base, stride);
    if (llvm::is_contained(affineExprs, key))
      return;
    affineExprs.push_back(key);
    overhead += 2 * (stride != 1) + 2 * (base != 0);
  };
  for (unsigned j = 0; j < p; ++j) {
    for (OperandPlan &op : plan.operands[j])
      switch (op.kind) {
      case OperandPlan::AffineInt:
        addAffine(!op.perCopy[0].getType().isIndex(), op.base, op.stride);
        break;
      case OperandPlan::WireRead:
        // One extract in the body; the extracts before the run that only
        // this run reads die with it.
        overhead += 1;
        for (Value v : op.perCopy)
          overhead -= v.hasOneUse();
        if (op.base >= 0)
          addAffine(true, op.base, op.stride);
        else
          overhead += 2;
        break;
      case OperandPlan::IntTable:
      case OperandPlan::FloatTable:
      case OperandPlan::Gather:
        overhead += 2;
        break;
      default:
        break;
      }
    IndexPlan &ip = plan.indices[j];
    if (ip.varies) {
      if (ip.affine)
        addAffine(true, ip.base, ip.stride);
      else
        overhead += 2;
    }
  }
  overhead += needIv + plan.externalized.size();
  plan.overhead = overhead;
  return Reject::None;
}

//===----------------------------------------------------------------------===//
// Building the loop
//===----------------------------------------------------------------------===//

class LoopBuilder {
public:
  LoopBuilder(ArrayRef<Operation *> ops, RunPlan &plan) : ops(ops), plan(plan) {}
  scf::ForOp build();

private:
  Operation *at(unsigned c, unsigned j) const {
    return ops[plan.start + c * plan.period + j];
  }
  Value indexValue(OpBuilder &b, Location loc, Value iv, Type type, int64_t base, int64_t stride);
  Value tableValue(OpBuilder &b, Location loc, Value iv, Value table);

  ArrayRef<Operation *> ops;
  RunPlan &plan;
  // One value per distinct affine expression of the induction variable.
  DenseMap<std::tuple<Type, int64_t, int64_t>, Value> affineValues;
};

Value LoopBuilder::indexValue(OpBuilder &b, Location loc, Value iv, Type type, int64_t base,
                              int64_t stride) {
  auto key = std::make_tuple(type, base, stride);
  if (Value cached = affineValues.lookup(key))
    return cached;
  Value v = iv;
  if (!type.isIndex())
    v = (base == 0 && stride == 1) ? Value(arith::IndexCastOp::create(b, loc, type, iv))
                                   : indexValue(b, loc, iv, type, 0, 1);
  if (stride != 1)
    v = arith::MulIOp::create(b, loc, v,
                              arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, stride)));
  if (base != 0)
    v = arith::AddIOp::create(b, loc, v,
                              arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, base)));
  affineValues[key] = v;
  return v;
}

Value LoopBuilder::tableValue(OpBuilder &b, Location loc, Value iv, Value table) {
  return tensor::ExtractOp::create(b, loc, table, ValueRange{iv});
}

scf::ForOp LoopBuilder::build() {
  Operation *first = at(0, 0);
  Location loc = first->getLoc();
  OpBuilder b(first);
  unsigned k = plan.copies, p = plan.period;

  // Tables live before the loop.
  DenseMap<std::pair<unsigned, unsigned>, Value> tables; // (j, m) -> tensor
  for (unsigned j = 0; j < p; ++j)
    for (unsigned m = 0; m < plan.operands[j].size(); ++m) {
      OperandPlan &op = plan.operands[j][m];
      Type type = op.perCopy[0].getType();
      auto tensorType = RankedTensorType::get({int64_t(k)}, type);
      if (op.kind == OperandPlan::IntTable || op.kind == OperandPlan::FloatTable) {
        SmallVector<Attribute> values;
        values.reserve(k);
        for (unsigned c = 0; c < k; ++c) {
          if (c + kAhead < k)
            __builtin_prefetch(op.perCopy[c + kAhead].getAsOpaquePointer());
          Attribute a;
          matchPattern(op.perCopy[c], m_Constant(&a));
          values.push_back(a);
        }
        tables[{j, m}] = arith::ConstantOp::create(
            b, loc, DenseElementsAttr::get(tensorType, values));
      } else if (op.kind == OperandPlan::Gather) {
        tables[{j, m}] = tensor::FromElementsOp::create(b, loc, tensorType, op.perCopy);
      }
    }
  for (unsigned j = 0; j < p; ++j)
    for (unsigned m = 0; m < plan.operands[j].size(); ++m) {
      OperandPlan &op = plan.operands[j][m];
      if (op.kind == OperandPlan::WireRead && op.base < 0) {
        auto tensorType = RankedTensorType::get({int64_t(k)}, b.getI64Type());
        tables[{j, m}] = arith::ConstantOp::create(
            b, loc, DenseElementsAttr::get(tensorType, ArrayRef<int64_t>(op.wires)));
      }
    }
  DenseMap<unsigned, Value> indexTables; // j -> tensor<kxi64>
  for (unsigned j = 0; j < p; ++j) {
    IndexPlan &ip = plan.indices[j];
    if (ip.varies && !ip.affine) {
      auto tensorType = RankedTensorType::get({int64_t(k)}, b.getI64Type());
      indexTables[j] = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(tensorType, ArrayRef<int64_t>(ip.values)));
    }
  }

  // Carried values: one iter_arg per (producer j, result #), in body order.
  SmallVector<std::pair<unsigned, unsigned>> carriedKeys;
  SmallVector<Value> inits;
  for (unsigned j = 0; j < p; ++j)
    for (OperandPlan &op : plan.operands[j])
      if (op.kind == OperandPlan::Carried) {
        auto key = std::make_pair(op.defOp, op.defResult);
        if (!llvm::is_contained(carriedKeys, key)) {
          carriedKeys.push_back(key);
          inits.push_back(op.invariant);
        }
      }

  Value lb = arith::ConstantIndexOp::create(b, loc, 0);
  Value ub = arith::ConstantIndexOp::create(b, loc, k);
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  auto forOp = scf::ForOp::create(b, loc, lb, ub, step, inits);
  Block *body = forOp.getBody();
  OpBuilder bb = OpBuilder::atBlockBegin(body);
  Value iv = forOp.getInductionVar();

  SmallVector<Operation *> clones(p, nullptr);
  for (unsigned j = 0; j < p; ++j) {
    Operation *orig = at(0, j);
    IRMapping map;
    for (unsigned m = 0; m < orig->getNumOperands(); ++m) {
      OperandPlan &op = plan.operands[j][m];
      Value v;
      switch (op.kind) {
      case OperandPlan::Internal:
        v = clones[op.defOp]->getResult(op.defResult);
        break;
      case OperandPlan::Carried: {
        unsigned idx = llvm::find(carriedKeys, std::make_pair(op.defOp, op.defResult)) -
                       carriedKeys.begin();
        v = forOp.getRegionIterArgs()[idx];
        break;
      }
      case OperandPlan::Invariant:
        v = op.invariant;
        break;
      case OperandPlan::AffineInt:
        v = indexValue(bb, loc, iv, op.perCopy[0].getType(), op.base, op.stride);
        break;
      case OperandPlan::IntTable:
      case OperandPlan::FloatTable:
      case OperandPlan::Gather:
        v = tableValue(bb, loc, iv, tables[{j, m}]);
        break;
      case OperandPlan::WireRead: {
        Value idx = op.base >= 0 ? indexValue(bb, loc, iv, bb.getI64Type(), op.base, op.stride)
                                 : tableValue(bb, loc, iv, tables[{j, m}]);
        v = buildExtract(bb, orig->getLoc(), op.reg, IndexSpec::ofDynamic(idx))->getResult(0);
        break;
      }
      }
      map.map(orig->getOperand(m), v);
    }
    IndexPlan &ip = plan.indices[j];
    Operation *clone;
    if (ip.varies) {
      Value idx = ip.affine ? indexValue(bb, loc, iv, bb.getI64Type(), ip.base, ip.stride)
                            : tableValue(bb, loc, iv, indexTables[j]);
      std::optional<RegisterAccess> a = RegisterAccess::get(orig);
      Value reg = map.lookup(a->reg);
      clone = a->isInsert
                  ? buildInsert(bb, orig->getLoc(), reg, IndexSpec::ofDynamic(idx),
                                map.lookup(a->qubit))
                  : buildExtract(bb, orig->getLoc(), reg, IndexSpec::ofDynamic(idx));
      // Keep any other attributes the op carried.
      for (NamedAttribute na : orig->getDiscardableAttrs())
        clone->setAttr(na.getName(), na.getValue());
    } else {
      clone = bb.clone(*orig, map);
    }
    clones[j] = clone;
  }
  SmallVector<Value> yields;
  for (auto [j, res] : carriedKeys)
    yields.push_back(clones[j]->getResult(res));
  scf::YieldOp::create(bb, loc, yields);
  forOp->setAttr(kRolledMarker, UnitAttr::get(forOp->getContext()));

  // Uses after the run.
  OpBuilder after(forOp->getContext());
  after.setInsertionPointAfter(forOp);
  for (auto [j, res] : plan.liveOut) {
    unsigned idx = llvm::find(carriedKeys, std::make_pair(j, res)) - carriedKeys.begin();
    at(k - 1, j)->getResult(res).replaceAllUsesWith(forOp.getResult(idx));
  }
  if (!plan.externalized.empty()) {
    Value finalReg;
    for (auto [j, res] : plan.liveOut)
      if (classify(at(k - 1, j)) == QOpKind::Insert) {
        unsigned idx = llvm::find(carriedKeys, std::make_pair(j, res)) - carriedKeys.begin();
        finalReg = forOp.getResult(idx);
      }
    for (auto &e : plan.externalized) {
      Operation *ext = buildExtract(after, loc, finalReg, IndexSpec::ofStatic(e.wire));
      at(e.copy, e.j)->getResult(e.result).replaceAllUsesWith(ext->getResult(0));
    }
  }
  // The run is dead now, with each constant whose last use it was (angles
  // now in a table), which the canonical form would otherwise erase after
  // rebuilding its view of them all. Ops leave the block last op first
  // (their neighbours in the list are the ops just visited); then they are
  // freed in address order, which the allocator handles faster (freeing in
  // list order made the phase 0.52 s instead of 0.42-0.45 s on W3 10^6).
  ArrayRef<Operation *> run = ops.slice(plan.start, k * p);
  std::vector<Operation *> dead;
  dead.reserve(2 * run.size());
  SmallVector<Operation *, 4> constants;
  for (int i = int(k * p) - 1; i >= 0; --i) {
    prefetchAhead(run, i, -1);
    Operation *op = run[i];
    constants.clear();
    canonical::forEachOperandDeep(op, [&](Value v) {
      if (Operation *def = v.getDefiningOp();
          def && isConstant(def) && !llvm::is_contained(constants, def))
        constants.push_back(def);
    });
    op->dropAllReferences();
    op->dropAllUses();
    op->remove();
    dead.push_back(op);
    for (Operation *c : constants)
      if (c->use_empty()) {
        c->remove();
        dead.push_back(c);
      }
  }
  llvm::sort(dead);
  for (Operation *op : dead)
    op->destroy();
  return forOp;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct Candidate {
  unsigned start, period, span; // [start, start + span) repeats with `period`
  int64_t gain;                 // ops removed before overhead
};

struct QShapeRollLoopsPass : qshape::impl::QShapeRollLoopsBase<QShapeRollLoopsPass> {
  using QShapeRollLoopsBase::QShapeRollLoopsBase;

  void runOnOperation() override;

private:
  /// Rolls what it can in `block`; returns the number of loops created.
  unsigned rollBlock(Block &block, const std::vector<Operation *> *blockOps);
  LogicalResult verifyRoundTrip(Operation *before, Operation *after);
  Tokenizer tokenizer;
};

unsigned QShapeRollLoopsPass::rollBlock(Block &block,
                                        const std::vector<Operation *> *knownOps) {
  // Each op is read once, by the normal form's first sweep: what the token
  // loop needs (its token, or why it has none) is taken there.
  enum : uint8_t { kConstant = 1, kExtract = 2, kUnrollable = 4 };
  SmallVector<uint8_t> flags;
  SmallVector<uint64_t> opTokens;
  if (knownOps) {
    flags.reserve(knownOps->size());
    opTokens.reserve(knownOps->size());
  }
  tokenizer.reset();
  SmallVector<unsigned> before;
  SmallVector<Operation *> blockOps = normalizeRegisters(
      block, knownOps,
      [&](Operation *op) {
        uint8_t f = isConstant(op)                             ? kConstant
                    : qshape::classify(op) == QOpKind::Extract ? kExtract
                    : isRollable(op)                           ? 0
                                                               : kUnrollable;
        flags.push_back(f);
        opTokens.push_back(f ? 0 : tokenizer.token(op));
      },
      before);
  // Sized once: on a large block each reallocation is a malloc that may
  // first sort thousands of chunks the parser freed.
  SmallVector<Operation *> ops;
  SmallVector<uint64_t> tokens;
  ops.reserve(blockOps.size());
  tokens.reserve(blockOps.size());
  bool leading = true;
  for (unsigned i = 0, e = blockOps.size(); i < e; ++i) {
    uint8_t f = flags[before[i]];
    // The constants the canonical form put at the top of the block are
    // left out: they are never in a run (any other constant is, below, a
    // unique token that ends runs).
    if (leading && (f & kConstant))
      continue;
    leading = false;
    // Extracts are not part of runs: a copy's qubit read is classified as
    // an operand (WireRead), so a run may start after its extracts.
    if (f & kExtract)
      continue;
    ops.push_back(blockOps[i]);
    // Constants, terminators and unknown ops never repeat into a loop: give
    // them unique tokens so runs stop there.
    tokens.push_back((f & (kConstant | kUnrollable)) ? mix(0xDEAD, ops.size())
                                                     : opTokens[before[i]]);
  }
  unsigned n = ops.size();

  // Maximal periodic runs: for each period p, a maximal stretch where
  // token[i] == token[i + p] of length L gives floor((L + p) / p) copies.
  SmallVector<Candidate> candidates;
  for (unsigned p = 1; p <= maxPeriod && 2 * p <= n; ++p) {
    unsigned i = 0;
    while (i + p < n) {
      if (tokens[i] != tokens[i + p]) {
        ++i;
        continue;
      }
      unsigned s = i;
      while (i + p < n && tokens[i] == tokens[i + p])
        ++i;
      unsigned span = i - s + p;
      unsigned k = span / p;
      if (k >= minTripCount)
        candidates.push_back({s, p, span, int64_t(k - 1) * p});
    }
  }
  // Greedy by ops removed; a run may be tried at any phase (rotation) of
  // its period, since where a copy starts decides what is carried.
  llvm::stable_sort(candidates, [](const Candidate &a, const Candidate &b) {
    return a.gain > b.gain;
  });
  // Accepted runs as disjoint [start, end) intervals keyed by start.
  std::map<unsigned, unsigned> taken;
  auto overlaps = [&](unsigned s, unsigned e) {
    auto it = taken.lower_bound(s);
    if (it != taken.end() && it->first < e)
      return true;
    return it != taken.begin() && std::prev(it)->second > s;
  };
  std::vector<RunPlan> accepted;
  OpPositions index;
  index.assign(ops);
  RunAnalyzer analyzer(ops, index, paramTables);
  for (const Candidate &c : candidates) {
    unsigned p = c.period, span = c.span;
    // A candidate inside an accepted run (e.g. a multiple of its period)
    // has nothing left to give.
    if (overlaps(c.start, c.start + std::min(span, p * minTripCount)) &&
        overlaps(c.start + span - std::min(span, p * minTripCount), c.start + span))
      continue;
    // Left to right through the stretch: at each position, the most copies
    // at any phase of the period (where a copy starts decides what is
    // carried); then on after the accepted run, since one token stretch can
    // hold several loops (e.g. one per controlled block). Classification
    // attempts are bounded per stretch.
    unsigned pos = c.start, end = c.start + span;
    int64_t budget = 16 * int64_t(p) + 64;
    // Classifies k copies from s; records the plan when valid.
    auto attempt = [&](unsigned s, unsigned k, RunPlan &plan) -> Reject {
      --budget;
      Reject r = analyzer.classify(s, p, k, plan);
      if (r == Reject::SideEffects)
        ++numRejectedSideEffects;
      else if (r == Reject::Operands)
        ++numRejectedOperands;
      return r;
    };
    while (pos + p * minTripCount <= end && budget > 0) {
      // The phase that saves the most; ties go to the earliest.
      RunPlan bestPlan;
      unsigned bestS = 0;
      int64_t bestSaved = std::numeric_limits<int64_t>::min();
      for (unsigned rot = 0; rot < p && budget > 0; ++rot) {
        unsigned s = pos + rot;
        unsigned kmax = (end - s) / p;
        if (kmax < minTripCount || overlaps(s, s + kmax * p))
          continue;
        // The largest valid k, assuming that fewer copies from the same
        // start stay valid: try all, then the fewest, then bisect.
        RunPlan best;
        unsigned bestK = 0;
        if (attempt(s, kmax, best) == Reject::None) {
          bestK = kmax;
        } else if (kmax > minTripCount && attempt(s, minTripCount, best) == Reject::None) {
          unsigned lo = minTripCount, hi = kmax; // lo valid, hi invalid
          while (hi - lo > 1 && budget > 0) {
            unsigned mid = lo + (hi - lo) / 2;
            RunPlan plan;
            if (attempt(s, mid, plan) == Reject::None) {
              lo = mid;
              best = std::move(plan);
            } else {
              hi = mid;
            }
          }
          bestK = lo;
          if (best.copies != lo) // re-derive the plan of the chosen size
            attempt(s, lo, best);
        }
        if (!bestK)
          continue;
        int64_t saved = int64_t(bestK - 1) * p - best.overhead;
        if (saved > bestSaved) {
          bestSaved = saved;
          bestS = s;
          bestPlan = std::move(best);
        }
        if (bestK == kmax)
          break; // later phases cannot hold more copies
      }
      if (bestSaved == std::numeric_limits<int64_t>::min())
        break;
      if (bestSaved < minSavings) {
        ++numRejectedUnprofitable;
        break;
      }
      unsigned e = bestS + bestPlan.copies * p;
      taken[bestS] = e;
      accepted.push_back(std::move(bestPlan));
      pos = e;
    }
  }
  // Build from the back so earlier indices stay valid.
  llvm::sort(accepted, [](const RunPlan &a, const RunPlan &b) { return a.start > b.start; });
  for (RunPlan &plan : accepted) {
    scf::ForOp loop = LoopBuilder(ops, plan).build();
    if (emitRemarks)
      mlir::emitRemark(loop.getLoc())
          << "qshape-roll-loops: rolled " << plan.copies << " copies of a " << plan.period
          << "-op body into a loop, saving "
          << int64_t(plan.copies - 1) * plan.period - plan.overhead << " ops";
  }
  return accepted.size();
}

LogicalResult QShapeRollLoopsPass::verifyRoundTrip(Operation *before, Operation *after) {
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

/// Whether the pass rolls the ops of `block`: straight-line code in a
/// function body or in the body of a loop, branch, adjoint or control region.
static bool isRolledBlock(Block *block, Operation *func) {
  Operation *parent = block->getParentOp();
  return parent == func || parent->getName().getStringRef() == "scf.for" ||
         parent->getName().getStringRef() == "scf.if" || classify(parent) == QOpKind::Adjoint ||
         classify(parent) == QOpKind::Ctrl;
}

void QShapeRollLoopsPass::runOnOperation() {
  ModuleOp module = getOperation();
  // A function is a symbol, whose parent must be a symbol table, so no
  // function body holds one: the walk skips the bodies (on a large function
  // walking it costs as much as a phase of the pass).
  SmallVector<Operation *> funcs;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<FunctionOpInterface>(op) || op->getName().getStringRef() == "func.func") {
      funcs.push_back(op);
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  CanonicalizeOptions copts;
  // Angles mostly end up in tables: their order is left to the last
  // canonicalization.
  CanonicalizeOptions firstCopts;
  firstCopts.sortFloatConstants = false;
  for (Operation *func : funcs) {
    Operation *original = verifyRoundtrip ? func->clone() : nullptr;
    CanonicalizeStats firstStats;
    BlockOrder order; // the blocks, innermost first, with their ops
    if (failed(canonicalize(func, firstCopts, &firstStats, &order)))
      return signalPassFailure();
    numOpsBefore += firstStats.opsBefore;
    // Roll every block of straight-line code, innermost structure first;
    // with `nest`, loops of identical loops then roll again.
    for (int round = 0; round < 8; ++round) {
      unsigned created = 0;
      for (auto [block, ops] : llvm::zip(order.blocks, order.ops))
        if (isRolledBlock(block, func))
          // The recorded ops are current until a loop is built (rolling a
          // block may erase constants of an enclosing one).
          created += rollBlock(*block, created ? nullptr : &ops);
      numLoops += created;
      if (!created || !nest)
        break;
      order = BlockOrder();
      if (failed(canonicalize(func, copts, nullptr, &order)))
        return signalPassFailure();
    }
    if (failed(canonicalize(func, copts)))
      return signalPassFailure();
    uint64_t afterCount = 0;
    func->walk([&](Operation *) { ++afterCount; });
    numOpsAfter += afterCount - 1;
    if (original) {
      LogicalResult ok = verifyRoundTrip(original, func);
      original->erase();
      if (failed(ok))
        return signalPassFailure();
    }
    func->walk([&](scf::ForOp f) { f->removeAttr(kRolledMarker); });
  }
}

} // namespace
