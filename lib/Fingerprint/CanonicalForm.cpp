//===- CanonicalForm.cpp - qshape's normal form of quantum modules --------===//

#include "qshape/Fingerprint/CanonicalForm.h"

#include "CanonicalView.h"
#include "qshape/Fingerprint/Encoding.h"
#include "qshape/GateView/GateView.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/xxhash.h"

#include <queue>

using namespace mlir;

namespace qshape {

// Shared with the fingerprint's canonical view (lib/Fingerprint/CanonicalView.cpp).
namespace canonical {

/// splitmix64 finalizer: a fixed, unseeded bijection (process-stable).
uint64_t mix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// Regions whose op order we may change: those of known ops with SSA-CFG
/// semantics. Regions of unregistered ops (other than quantum.adjoint/ctrl,
/// which we know) are left untouched.
bool mayEditRegionsOf(Operation *op) {
  QOpKind kind = classify(op);
  if (kind == QOpKind::Adjoint || kind == QOpKind::Ctrl)
    return true;
  if (!op->isRegistered())
    return false;
  for (Region &r : op->getRegions())
    if (mayBeGraphRegion(r))
      return false;
  return true;
}

bool isConstantOp(Operation *op) {
  return op->isRegistered() && op->hasTrait<OpTrait::ConstantLike>() &&
         op->getNumOperands() == 0 && op->getNumRegions() == 0 && op->getNumResults() == 1;
}

/// Pure, region-free, registered and not quantum: safe to merge when equal.
bool isMergeable(Operation *op) {
  return op->isRegistered() && op->getNumRegions() == 0 && op->getNumResults() > 0 &&
         classify(op) == QOpKind::NotQuantum && isMemoryEffectFree(op) &&
         !op->hasTrait<OpTrait::IsTerminator>();
}

void forEachOperandDeep(Operation *op, function_ref<void(Value)> fn) {
  for (Value v : op->getOperands())
    fn(v);
  if (op->getNumRegions())
    op->walk([&](Operation *inner) {
      if (inner != op)
        for (Value v : inner->getOperands())
          fn(v);
    });
}

bool placeInOrder(Block &block, size_t n, function_ref<Operation *(size_t)> opAt,
                  Operation *end) {
  constexpr size_t kAhead = 8;
  bool moved = false;
  Operation *next = end;
  for (size_t i = n; i-- > 0;) {
    if (i >= kAhead)
      __builtin_prefetch(opAt(i - kAhead));
    Operation *op = opAt(i);
    if (op->getNextNode() != next || op->getBlock() != &block) {
      if (next)
        op->moveBefore(next);
      else
        op->moveBefore(&block, block.end());
      moved = true;
    }
    next = op;
  }
  return moved;
}

} // namespace canonical

using namespace canonical;

namespace {

/// Walks the editable blocks of `root` (itself included), outer first.
void forEachEditableBlock(Operation *root, function_ref<void(Block &)> fn) {
  for (Region &region : root->getRegions())
    for (Block &block : region) {
      fn(block);
      for (Operation &op : block)
        if (op.getNumRegions() && mayEditRegionsOf(&op) &&
            !op.hasTrait<OpTrait::IsIsolatedFromAbove>())
          forEachEditableBlock(&op, fn);
    }
}

class Canonicalizer {
public:
  Canonicalizer(Operation *func, const CanonicalizeOptions &options, CanonicalizeStats &stats)
      : func(func), options(options), stats(stats), keyEncoder(/*abstractFloats=*/true),
        exactEncoder(/*abstractFloats=*/false) {}

  LogicalResult run();

private:
  bool staticIndices();
  bool hoistConstants();
  bool mergeEqualOps();
  bool forwardAccesses();
  bool eraseDeadOps();
  void computeKeys(Block &block);
  uint64_t opKey(Operation *op);
  void scheduleBlock(Block &block);

  Operation *func;
  const CanonicalizeOptions &options;
  CanonicalizeStats &stats;
  StructuralEncoder keyEncoder;   // ordering keys ignore float values
  StructuralEncoder exactEncoder; // constant sorting and merging use them
  DenseMap<Value, uint64_t> valueKeys;
  DenseMap<Operation *, uint64_t> opKeys;
};

//===----------------------------------------------------------------------===//
// Rule 1: constant index operands become static attributes.
//===----------------------------------------------------------------------===//

bool Canonicalizer::staticIndices() {
  bool changed = false;
  func->walk([&](Operation *op) {
    QOpKind kind = classify(op);
    if (kind == QOpKind::Extract || kind == QOpKind::Insert) {
      std::optional<RegisterAccess> a = RegisterAccess::get(op);
      APInt v;
      if (a && a->dynamicIdx && matchPattern(a->dynamicIdx, m_ConstantInt(&v)) &&
          !v.isNegative()) {
        setStaticIndex(op, v.getSExtValue());
        ++stats.staticIndices;
        changed = true;
      }
    } else if (kind == QOpKind::Alloc && op->getNumOperands() == 1) {
      APInt v;
      if (matchPattern(op->getOperand(0), m_ConstantInt(&v)) && !v.isNegative()) {
        op->eraseOperand(0);
        op->setAttr("nqubits_attr", Builder(op->getContext()).getI64IntegerAttr(v.getSExtValue()));
        ++stats.staticIndices;
        changed = true;
      }
    }
  });
  return changed;
}

//===----------------------------------------------------------------------===//
// Rule 2: constants at the top of the function, merged and sorted.
//===----------------------------------------------------------------------===//

bool Canonicalizer::hoistConstants() {
  if (func->getNumRegions() == 0 || func->getRegion(0).empty())
    return false;
  Block &entry = func->getRegion(0).front();
  SmallVector<Operation *> constants;
  forEachEditableBlock(func, [&](Block &block) {
    for (Operation &op : block)
      if (isConstantOp(&op))
        constants.push_back(&op);
  });
  if (constants.empty())
    return false;

  // Exact encoding as the merge and sort key: equal bits, equal constant.
  struct Entry {
    Operation *op;
    std::string key;
    bool isFloat;
  };
  SmallVector<Entry> entries;
  entries.reserve(constants.size());
  for (Operation *op : constants) {
    ByteSink sink;
    exactEncoder.encodeOpHeader(op, sink);
    entries.push_back({op, sink.str().str(), isFloatConstant(op)});
  }
  // Float constants last, so that their values never shift other positions
  // (the shape fingerprint skips them).
  llvm::stable_sort(entries, [](const Entry &a, const Entry &b) {
    if (a.isFloat != b.isFloat)
      return !a.isFloat;
    return a.key < b.key;
  });

  bool changed = false;
  Operation *insertPoint = nullptr; // last placed constant
  for (size_t i = 0; i < entries.size(); ++i) {
    Operation *op = entries[i].op;
    if (i > 0 && entries[i].key == entries[i - 1].key) {
      Operation *keep = entries[i - 1].op;
      op->getResult(0).replaceAllUsesWith(keep->getResult(0));
      op->erase();
      entries[i].op = keep;
      ++stats.constantsMerged;
      changed = true;
      continue;
    }
    bool inPlace = insertPoint ? op->getPrevNode() == insertPoint
                               : (op->getBlock() == &entry && &entry.front() == op);
    if (!inPlace) {
      if (insertPoint)
        op->moveAfter(insertPoint);
      else
        op->moveBefore(&entry, entry.begin());
      changed = true;
    }
    insertPoint = op;
  }
  return changed;
}

//===----------------------------------------------------------------------===//
// Rule 3: merge equal pure non-quantum ops within each block (a CSE).
//===----------------------------------------------------------------------===//

struct OpEq : DenseMapInfo<Operation *> {
  static unsigned getHashValue(const Operation *op) {
    return OperationEquivalence::computeHash(
        const_cast<Operation *>(op), OperationEquivalence::directHashValue,
        OperationEquivalence::ignoreHashValue, OperationEquivalence::IgnoreLocations);
  }
  static bool isEqual(const Operation *a, const Operation *b) {
    if (a == b)
      return true;
    if (a == getEmptyKey() || a == getTombstoneKey() || b == getEmptyKey() ||
        b == getTombstoneKey())
      return false;
    return OperationEquivalence::isEquivalentTo(const_cast<Operation *>(a),
                                                const_cast<Operation *>(b),
                                                OperationEquivalence::IgnoreLocations);
  }
};

bool Canonicalizer::mergeEqualOps() {
  bool changed = false;
  SmallVector<DenseMap<Operation *, Operation *, OpEq>> scopes;
  std::function<void(Region &)> visitRegion = [&](Region &region) {
    if (!region.hasOneBlock())
      return; // dominance across CFG blocks: keep it simple and safe
    scopes.emplace_back();
    for (Operation &op : llvm::make_early_inc_range(region.front())) {
      if (isMergeable(&op)) {
        // Only within one block: whether an equal op in an enclosing block
        // dominates this one depends on where rule 6 puts it, and merging
        // across blocks made a second run merge more than the first.
        Operation *found = nullptr;
        if (auto it = scopes.back().find(&op); it != scopes.back().end())
          found = it->second;
        if (found) {
          op.replaceAllUsesWith(found);
          op.erase();
          ++stats.opsMerged;
          changed = true;
          continue;
        }
        scopes.back()[&op] = &op;
      }
      if (op.getNumRegions() && mayEditRegionsOf(&op) &&
          !op.hasTrait<OpTrait::IsIsolatedFromAbove>())
        for (Region &r : op.getRegions())
          visitRegion(r);
    }
    scopes.pop_back();
  };
  for (Region &r : func->getRegions())
    visitRegion(r);
  return changed;
}

//===----------------------------------------------------------------------===//
// Rule 4: register access forwarding.
//===----------------------------------------------------------------------===//

static bool sameIndex(const RegisterAccess &a, const RegisterAccess &b) {
  if (a.staticIdx && b.staticIdx)
    return *a.staticIdx == *b.staticIdx;
  return a.dynamicIdx && a.dynamicIdx == b.dynamicIdx;
}

static bool differentIndex(const RegisterAccess &a, const RegisterAccess &b) {
  return a.staticIdx && b.staticIdx && *a.staticIdx != *b.staticIdx;
}

bool Canonicalizer::forwardAccesses() {
  bool changed = false;
  SmallVector<Operation *> accesses;
  func->walk([&](Operation *op) {
    QOpKind k = classify(op);
    if (k == QOpKind::Extract || k == QOpKind::Insert)
      accesses.push_back(op);
  });
  DenseSet<Operation *> erased;
  for (Operation *op : accesses) {
    if (erased.contains(op))
      continue;
    std::optional<RegisterAccess> a = RegisterAccess::get(op);
    if (!a)
      continue;
    if (!a->isInsert) {
      // Walk back through inserts at other static indices.
      while (Operation *def = a->reg.getDefiningOp()) {
        std::optional<RegisterAccess> ins = RegisterAccess::get(def);
        if (!ins || !ins->isInsert)
          break;
        if (sameIndex(*a, *ins)) {
          op->getResult(0).replaceAllUsesWith(ins->qubit);
          op->erase();
          erased.insert(op);
          ++stats.accessesForwarded;
          changed = true;
          break;
        }
        if (!differentIndex(*a, *ins))
          break;
        op->setOperand(0, ins->reg);
        a->reg = ins->reg;
        ++stats.accessesForwarded;
        changed = true;
      }
      continue;
    }
    // insert(r, i, q) is r when r already holds q at i: walking back from r
    // through inserts at other indices reaches an insert of q at i.
    {
      Value r = a->reg;
      bool noop = false;
      while (Operation *rdef = r.getDefiningOp()) {
        std::optional<RegisterAccess> ins = RegisterAccess::get(rdef);
        if (!ins || !ins->isInsert)
          break;
        if (sameIndex(*a, *ins)) {
          noop = ins->qubit == a->qubit;
          break;
        }
        if (!differentIndex(*a, *ins))
          break;
        r = ins->reg;
      }
      if (noop) {
        op->getResult(0).replaceAllUsesWith(a->reg);
        op->erase();
        erased.insert(op);
        ++stats.accessesForwarded;
        changed = true;
        continue;
      }
    }
    // insert(insert(r, i, a), i, b) is insert(r, i, b). Between the two
    // there may be inserts at other static indices, as long as each register
    // in that chain has no other use (nobody can observe the overwritten a).
    {
      Operation *user = op; // the op whose operand 0 is `r`
      Value r = a->reg;
      while (Operation *rdef = r.getDefiningOp()) {
        std::optional<RegisterAccess> prev = RegisterAccess::get(rdef);
        if (!prev || !prev->isInsert)
          break;
        if (sameIndex(*a, *prev)) {
          if (user == op || r.hasOneUse()) {
            user->setOperand(0, prev->reg);
            if (user == op)
              a->reg = prev->reg;
            ++stats.accessesForwarded;
            changed = true;
          }
          break;
        }
        if (!differentIndex(*a, *prev) || !r.hasOneUse())
          break;
        user = rdef;
        r = prev->reg;
      }
    }
    // insert(r, i, extract(r', i)) is r when r holds at i what r' held: r'
    // is r, or r is reached from r' only through inserts at other indices.
    if (Operation *def = a->qubit.getDefiningOp()) {
      std::optional<RegisterAccess> ext = RegisterAccess::get(def);
      if (ext && !ext->isInsert && sameIndex(*a, *ext)) {
        Value r = a->reg;
        while (r != ext->reg) {
          Operation *rdef = r.getDefiningOp();
          std::optional<RegisterAccess> ins = rdef ? RegisterAccess::get(rdef) : std::nullopt;
          if (!ins || !ins->isInsert || !differentIndex(*a, *ins))
            break;
          r = ins->reg;
        }
        if (r == ext->reg) {
          op->getResult(0).replaceAllUsesWith(a->reg);
          op->erase();
          erased.insert(op);
          ++stats.accessesForwarded;
          changed = true;
        }
      }
    }
  }
  return changed;
}

//===----------------------------------------------------------------------===//
// Rule 5: dead ops without side effects.
//===----------------------------------------------------------------------===//

bool Canonicalizer::eraseDeadOps() {
  bool changed = false;
  SmallVector<Operation *> order;
  forEachEditableBlock(func, [&](Block &block) {
    for (Operation &op : block)
      order.push_back(&op);
  });
  // Users come after their definitions in `order` (blocks outer-first, ops
  // in order), so one reverse sweep erases whole dead chains; a nested
  // block's ops come after the op that holds them, and are erased with it.
  DenseSet<Operation *> erased;
  for (Operation *op : llvm::reverse(order)) {
    if (erased.contains(op))
      continue;
    if (!op->use_empty() || op->hasTrait<OpTrait::IsTerminator>() || isOrdered(op))
      continue;
    if (Operation *parent = op->getParentOp(); parent && parent != func &&
                                                erased.contains(parent))
      continue;
    op->walk([&](Operation *inner) { erased.insert(inner); });
    op->erase();
    ++stats.deadOpsErased;
    changed = true;
  }
  return changed;
}

//===----------------------------------------------------------------------===//
// Rule 6: canonical order.
//===----------------------------------------------------------------------===//

/// Structural ordering key of every op: a hash of its name, attributes
/// (float values abstracted), result types, operand keys and nested ops.
/// Operand keys come from the defining op's key and result number, or from
/// a block argument's position, so keys never depend on names or order.
uint64_t Canonicalizer::opKey(Operation *op) {
  ByteSink sink;
  keyEncoder.encodeOpHeader(op, sink);
  for (Value v : op->getOperands()) {
    auto it = valueKeys.find(v);
    sink.u64(it == valueKeys.end() ? 0 : it->second);
  }
  for (Region &region : op->getRegions()) {
    sink.u8('{');
    for (Block &block : region) {
      for (BlockArgument arg : block.getArguments()) {
        ByteSink a;
        a.u8('a');
        a.u64(arg.getArgNumber());
        keyEncoder.encodeType(arg.getType(), a);
        valueKeys[arg] = llvm::xxh3_64bits(a.str());
      }
      SmallVector<uint64_t> nested;
      for (Operation &inner : block)
        nested.push_back(opKey(&inner));
      llvm::sort(nested); // independent of the nested order
      for (uint64_t k : nested)
        sink.u64(k);
    }
    sink.u8('}');
  }
  uint64_t key = llvm::xxh3_64bits(sink.str());
  opKeys[op] = key;
  for (OpResult r : op->getResults())
    valueKeys[r] = mix64(key + 0x9E3779B97F4A7C15ull * (uint64_t(r.getResultNumber()) + 1));
  return key;
}

void Canonicalizer::computeKeys(Block &block) {
  for (BlockArgument arg : block.getArguments()) {
    ByteSink a;
    a.u8('a');
    a.u64(arg.getArgNumber());
    keyEncoder.encodeType(arg.getType(), a);
    valueKeys[arg] = llvm::xxh3_64bits(a.str());
  }
  for (Operation &op : block)
    opKey(&op);
}

/// Topological order of `block` by a priority that depends on structure
/// only. "Floating" ops (pure, region-free, non-quantum: arith, math,
/// tensor.extract, ...) and constants do not take part: constants sit at the
/// top, and each floating op is placed right before its first user, so its
/// position follows from its users' and never from values it computes. The
/// other ops are ordered by: (1) ops without side effects before ordered
/// ones (side-effecting ops keep their relative order through a chain of
/// edges); (2) the op whose latest-scheduled producer is most recent, so
/// each qubit's chain of gates stays together; (3) op name, static register
/// index (ascending wires), structural key.
void Canonicalizer::scheduleBlock(Block &block) {
  Operation *terminator =
      block.empty() ? nullptr
                    : (block.back().hasTrait<OpTrait::IsTerminator>() ? &block.back() : nullptr);
  SmallVector<Operation *> ops;
  DenseMap<Operation *, unsigned> index;
  DenseSet<Operation *> floating;
  for (Operation &op : block) {
    if (&op == terminator || isConstantOp(&op))
      continue;
    if (isMergeable(&op)) {
      floating.insert(&op);
      continue;
    }
    index[&op] = ops.size();
    ops.push_back(&op);
  }
  size_t n = ops.size();

  // The block op that holds `v`'s definition, if it is in this block.
  auto producerInBlock = [&](Value v) -> Operation * {
    Operation *def = v.getDefiningOp();
    return def ? block.findAncestorOpInBlock(*def) : nullptr;
  };
  // Main-op producers of a floating op, looking through floating chains.
  DenseMap<Operation *, SmallVector<unsigned, 2>> floatingProducers;
  std::function<const SmallVector<unsigned, 2> &(Operation *)> producersOf =
      [&](Operation *f) -> const SmallVector<unsigned, 2> & {
    auto it = floatingProducers.find(f);
    if (it != floatingProducers.end())
      return it->second;
    SmallVector<unsigned, 2> result;
    for (Value v : f->getOperands()) {
      Operation *p = producerInBlock(v);
      if (!p)
        continue;
      if (floating.contains(p)) {
        for (unsigned q : producersOf(p))
          if (!llvm::is_contained(result, q))
            result.push_back(q);
      } else if (auto idx = index.find(p); idx != index.end()) {
        if (!llvm::is_contained(result, idx->second))
          result.push_back(idx->second);
      }
    }
    return floatingProducers[f] = std::move(result);
  };

  SmallVector<SmallVector<unsigned, 2>> users(n);
  SmallVector<unsigned> indegree(n, 0);
  SmallVector<SmallVector<unsigned, 2>> preds(n);
  auto addEdge = [&](unsigned from, unsigned to) {
    if (from == to || llvm::is_contained(preds[to], from))
      return;
    preds[to].push_back(from);
    users[from].push_back(to);
    ++indegree[to];
  };
  int lastOrdered = -1;
  for (unsigned i = 0; i < n; ++i) {
    Operation *op = ops[i];
    forEachOperandDeep(op, [&](Value v) {
      Operation *p = producerInBlock(v);
      if (!p)
        return;
      if (floating.contains(p)) {
        for (unsigned q : producersOf(p))
          addEdge(q, i);
      } else if (auto it = index.find(p); it != index.end()) {
        addEdge(it->second, i);
      }
    });
    if (isOrdered(op)) {
      if (lastOrdered >= 0)
        addEdge(unsigned(lastOrdered), i);
      lastOrdered = int(i);
    }
  }

  struct Item {
    bool ordered;
    int recency;
    StringRef name;
    int64_t wire;
    uint64_t key;
    unsigned idx;
  };
  auto worse = [](const Item &a, const Item &b) { // priority_queue: top is best
    if (a.ordered != b.ordered)
      return a.ordered;
    if (a.recency != b.recency)
      return a.recency < b.recency;
    if (a.name != b.name)
      return a.name > b.name;
    if (a.wire != b.wire)
      return a.wire > b.wire;
    if (a.key != b.key)
      return a.key > b.key;
    return a.idx > b.idx;
  };
  // The wire a qubit value lives on: the static index it was extracted from,
  // carried through gates (out qubit k continues in qubit k). Breaking ties
  // by wire keeps the order of layered circuits the same in every layer.
  DenseMap<Value, int64_t> wires;
  auto wireOfValue = [&](Value v) -> int64_t {
    auto it = wires.find(v);
    return it == wires.end() ? -1 : it->second;
  };
  auto wireOfOp = [&](Operation *op) -> int64_t {
    if (std::optional<RegisterAccess> a = RegisterAccess::get(op))
      return a->isInsert ? wireOfValue(a->qubit) : a->staticIdx.value_or(-1);
    int64_t w = -1;
    if (std::optional<GateView> g = GateView::get(op)) {
      for (Value q : g->getInQubits())
        if (int64_t x = wireOfValue(q); x >= 0 && (w < 0 || x < w))
          w = x;
      for (Value q : g->getCtrlQubits())
        if (int64_t x = wireOfValue(q); x >= 0 && (w < 0 || x < w))
          w = x;
    }
    return w;
  };
  for (Operation &op : block) {
    if (std::optional<RegisterAccess> a = RegisterAccess::get(&op)) {
      if (!a->isInsert && a->staticIdx)
        wires[a->result] = *a->staticIdx;
      continue;
    }
    if (std::optional<GateView> g = GateView::get(&op)) {
      for (OpOperand &operand : op.getOpOperands())
        if (Value out = g->getOutFor(operand.getOperandNumber()))
          if (int64_t w = wireOfValue(operand.get()); w >= 0)
            wires[out] = w;
    }
  }
  SmallVector<int> pos(n, -1);
  auto makeItem = [&](unsigned i) {
    int recency = -1;
    for (unsigned p : preds[i])
      recency = std::max(recency, pos[p]);
    int64_t wire = wireOfOp(ops[i]);
    return Item{isOrdered(ops[i]), recency, ops[i]->getName().getStringRef(), wire,
                opKeys.lookup(ops[i]), i};
  };
  std::priority_queue<Item, std::vector<Item>, decltype(worse)> ready(worse);
  for (unsigned i = 0; i < n; ++i)
    if (indegree[i] == 0)
      ready.push(makeItem(i));
  SmallVector<Operation *> mainOrder;
  mainOrder.reserve(n);
  int counter = 0;
  while (!ready.empty()) {
    Item it = ready.top();
    ready.pop();
    pos[it.idx] = counter++;
    mainOrder.push_back(ops[it.idx]);
    for (unsigned u : users[it.idx])
      if (--indegree[u] == 0)
        ready.push(makeItem(u));
  }
  if (mainOrder.size() != n)
    return; // a use before its definition (graph-like block): leave it

  // Interleave floating ops: each right before its first user, its own
  // floating operands first (operand order).
  SmallVector<Operation *> order;
  order.reserve(n + floating.size());
  DenseSet<Operation *> placed;
  std::function<void(Operation *)> place = [&](Operation *f) {
    if (!placed.insert(f).second)
      return;
    for (Value v : f->getOperands())
      if (Operation *p = producerInBlock(v); p && floating.contains(p))
        place(p);
    order.push_back(f);
  };
  auto placeOperandsOf = [&](Operation *op) {
    forEachOperandDeep(op, [&](Value v) {
      if (Operation *p = producerInBlock(v); p && floating.contains(p))
        place(p);
    });
  };
  for (Operation *op : mainOrder) {
    placeOperandsOf(op);
    order.push_back(op);
  }
  if (terminator)
    placeOperandsOf(terminator);
  for (Operation &op : block) // floating ops without users in this block
    if (floating.contains(&op) && !placed.contains(&op))
      place(&op);

  // Splicing every op before the terminator is O(1) each.
  bool moved = false;
  {
    size_t k = 0;
    for (Operation &op : block) {
      if (&op == terminator || isConstantOp(&op))
        continue;
      if (k >= order.size() || order[k] != &op) {
        moved = true;
        break;
      }
      ++k;
    }
  }
  if (!moved)
    return;
  for (Operation *op : order) {
    if (terminator)
      op->moveBefore(terminator);
    else
      op->moveBefore(&block, block.end());
  }
  ++stats.blocksReordered;
}

LogicalResult Canonicalizer::run() {
  // Rules 1-5 to a fixpoint (each round only removes or simplifies, so this
  // terminates; the bound is a guard).
  // Rules 1 and 2 need one application: later rules create no index
  // operands and no constants (they may only erase dead ones). Dead ops go
  // first, so that constants nobody uses (e.g. angles a roller moved into
  // a table) are not sorted only to be erased.
  staticIndices();
  eraseDeadOps();
  hoistConstants();
  for (int round = 0; round < 16; ++round) {
    bool changed = false;
    changed |= mergeEqualOps();
    changed |= forwardAccesses();
    changed |= eraseDeadOps();
    if (!changed)
      break;
  }
  if (options.reorder) {
    for (Region &r : func->getRegions())
      for (Block &b : r)
        computeKeys(b);
    forEachEditableBlock(func, [&](Block &block) { scheduleBlock(block); });
  }
  return success();
}

} // namespace

bool isFloatConstant(Operation *op) {
  if (!isConstantOp(op))
    return false;
  Attribute value = op->getAttr("value");
  if (isa_and_nonnull<FloatAttr>(value))
    return true;
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(value)) {
    Type elt = dense.getElementType();
    return isa<FloatType>(elt) ||
           (isa<ComplexType>(elt) && isa<FloatType>(cast<ComplexType>(elt).getElementType()));
  }
  return false;
}

LogicalResult canonicalize(Operation *root, const CanonicalizeOptions &options,
                           CanonicalizeStats *stats, BlockOrder *order) {
  CanonicalizeStats local;
  CanonicalizeStats &s = stats ? *stats : local;
  // The functions, found only where needed: the view finds its own, and on
  // a large module this walk costs as much as building the view.
  SmallVector<Operation *> funcs;
  auto findFuncs = [&] {
    auto isFunc = [](Operation *op) {
      return isa<FunctionOpInterface>(op) || op->getName().getStringRef() == "func.func";
    };
    if (isFunc(root))
      funcs.push_back(root);
    else
      root->walk([&](Operation *op) {
        if (isFunc(op))
          funcs.push_back(op);
      });
  };
  std::unique_ptr<fpview::CanonicalView> view;
  if (!options.reference && options.reorder)
    view = fpview::CanonicalView::build(root);
  if (view) {
    view->canonicalize();
    if (failed(view->materialize(s, options.sortFloatConstants)))
      return failure();
    if (order)
      view->blockOrder(*order);
  } else {
    root->walk([&](Operation *op) { s.opsBefore += op != root; });
    findFuncs();
    for (Operation *f : funcs)
      if (failed(Canonicalizer(f, options, s).run()))
        return failure();
    if (order)
      root->walk([&](Block *b) {
        order->blocks.push_back(b);
        std::vector<Operation *> &list = order->ops.emplace_back();
        for (Operation &op : *b)
          list.push_back(&op);
      });
  }
  if (options.stripLocations) {
    Location unknown = UnknownLoc::get(root->getContext());
    if (view)
      findFuncs();
    for (Operation *f : funcs)
      f->walk([&](Operation *op) {
        op->setLoc(unknown);
        for (Region &r : op->getRegions())
          for (Block &b : r)
            for (BlockArgument arg : b.getArguments())
              arg.setLoc(unknown);
      });
    root->setLoc(unknown);
  }
  return success();
}

} // namespace qshape
