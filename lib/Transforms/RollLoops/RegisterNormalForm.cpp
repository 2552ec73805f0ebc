//===- RegisterNormalForm.cpp - qshape-roll-loops: register normal form ---===//

#include "RegisterNormalForm.h"

#include "Support.h"
#include "qshape/GateView/Barriers.h"

#include "qshape/Fingerprint/CanonicalForm.h"
#include "qshape/GateView/GateView.h"

#include "mlir/IR/Block.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>
#include <queue>

using namespace mlir;

namespace qshape::roll {

SmallVector<Operation *> normalizeRegisters(Block &block, const std::vector<Operation *> *knownOps,
                                            function_ref<bool(Operation *)> visit,
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
  Operation *terminator = n && ops.back()->hasTrait<OpTrait::IsTerminator>() ? ops.back() : nullptr;
  enum Kind : uint8_t { Other, Eager, Lazy };
  // A closing insert: no extract reads its register, nor the register of an
  // insert after it (the qubits go back for good, as before measurements
  // and deallocation). It goes down, not up: going up, the inserts after
  // the last copy of a repeated body would cut that copy in two.
  DenseMap<Operation *, bool> closing;
  std::function<bool(Operation *)> isClosing = [&](Operation *ins) {
    if (auto it = closing.find(ins); it != closing.end())
      return it->second;
    bool result = true;
    for (Operation *user : ins->getResult(0).getUsers()) {
      std::optional<RegisterAccess> a = RegisterAccess::get(user);
      if (a && (!a->isInsert || user->getBlock() != &block || !isClosing(user))) {
        result = false;
        break;
      }
    }
    return closing[ins] = result;
  };
  auto kindOf = [&](Operation *op) {
    QOpKind k = qshape::classify(op);
    if (k == QOpKind::Insert)
      return isClosing(op) ? Lazy : Eager;
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
  // at hand (a producer comes before its users in the blocks rolled here),
  // and barriers.
  enum : uint8_t { kReadsLazy = 1, kBarrier = 2 };
  SmallVector<uint8_t> flags(n, 0);
  // Inserts are quantum ops: they do not rise above the barrier before
  // them, which releases them (barrier position -> inserts).
  DenseMap<unsigned, SmallVector<unsigned, 2>> waitingFor;
  std::optional<unsigned> lastBarrier;
  for (unsigned i = 0; i < n; ++i) {
    prefetch(i);
    bool barrier = visit(ops[i]);
    Kind k = kindOf(ops[i]);
    if (k == Other) {
      if (!lazyResults.empty())
        canonical::forEachOperandDeep(ops[i], [&](Value v) {
          if (lazyResults.contains(v.getAsOpaquePointer()))
            flags[i] |= kReadsLazy;
        });
      if (barrier) {
        flags[i] |= kBarrier;
        lastBarrier = i;
      }
      continue;
    }
    State &s = state[ops[i]];
    s.kind = k;
    s.index = i;
    special.push_back(i);
    if (k == Eager && lastBarrier && classify(ops[i]) != QOpKind::NotQuantum) {
      waitingFor[*lastBarrier].push_back(i);
      ++s.missing;
    }
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
  unsigned nextSpecial = 0; // lazy ops before a barrier are emitted before it
  for (unsigned i = 0; i < n; ++i) {
    Operation *op = ops[i];
    if (op == terminator || stateOf(op))
      continue;
    if (flags[i] & kReadsLazy)
      emitLazyOperands(op);
    if (!(flags[i] & kBarrier)) {
      emit(op, i);
      continue;
    }
    for (; nextSpecial < special.size() && special[nextSpecial] < i; ++nextSpecial)
      if (State &ls = state[ops[special[nextSpecial]]]; ls.kind == Lazy && !ls.emitted) {
        emitLazyOperands(ops[special[nextSpecial]]);
        emit(ops[special[nextSpecial]], special[nextSpecial]);
      }
    emit(op, i);
    for (unsigned w : waitingFor.lookup(i))
      if (State &ws = state[ops[w]]; --ws.missing == 0 && !ws.emitted) {
        emitLazyOperands(ops[w]);
        emit(ops[w], w);
      }
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

} // namespace qshape::roll

namespace qshape::roll {

/// Whether `use` reads its value without consuming it: the register of an
/// extract, any operand of an observable.
static bool isRead(OpOperand &use) {
  Operation *owner = use.getOwner();
  QOpKind kind = classify(owner);
  if (kind == QOpKind::Observable)
    return true;
  if (kind != QOpKind::Extract)
    return false;
  std::optional<RegisterAccess> a = RegisterAccess::get(owner);
  return a && use.get() == a->reg;
}

bool linearizeReads(Block &block) {
  SmallVector<Operation *> ops;
  for (Operation &op : block)
    ops.push_back(&op);
  unsigned n = ops.size();
  DenseMap<Operation *, unsigned> position;
  for (unsigned i = 0; i < n; ++i)
    position[ops[i]] = i;
  auto positionOf = [&](Operation *op) -> std::optional<unsigned> {
    Operation *anc = block.findAncestorOpInBlock(*op);
    auto it = anc ? position.find(anc) : position.end();
    return it == position.end() ? std::nullopt : std::optional<unsigned>(it->second);
  };
  // A read after a consumer of the same value in the block: reorder the
  // block, as little as possible (a stable topological order by the
  // current positions), with every read before every consumer of what it
  // reads, ordered ops in their order and pinned ops on their side of each
  // barrier. (The canonical form reads past inserts at other wires, and
  // puts inserts before the observables of the same qubits: the reads move
  // up.)
  SmallVector<SmallVector<unsigned, 4>> succ(n);
  bool late = false;
  for (unsigned i = 0; i < n; ++i)
    for (OpOperand &use : ops[i]->getOpOperands()) {
      if (!isRead(use))
        continue;
      for (OpOperand &other : use.get().getUses()) {
        if (&other == &use || isRead(other))
          continue;
        std::optional<unsigned> c = positionOf(other.getOwner());
        if (!c || *c == i)
          continue;
        succ[i].push_back(*c);
        late |= *c < i;
      }
    }
  if (!late)
    return false;
  SmallVector<unsigned> indegree(n, 0);
  std::optional<unsigned> lastOrdered, lastBarrier;
  SmallVector<unsigned> pinnedSinceBarrier;
  for (unsigned i = 0; i < n; ++i) {
    Operation *op = ops[i];
    canonical::forEachOperandDeep(op, [&](Value v) {
      if (Operation *def = v.getDefiningOp())
        if (std::optional<unsigned> d = positionOf(def); d && *d != i)
          succ[*d].push_back(i);
    });
    if (isOrdered(op) || op->hasTrait<OpTrait::IsTerminator>()) {
      if (lastOrdered)
        succ[*lastOrdered].push_back(i);
      lastOrdered = i;
    }
    if (qshape::isBarrier(op)) {
      for (unsigned p : pinnedSinceBarrier)
        succ[p].push_back(i);
      pinnedSinceBarrier.clear();
      lastBarrier = i;
    } else if (qshape::isPinnedByBarriers(op)) {
      if (lastBarrier)
        succ[*lastBarrier].push_back(i);
      pinnedSinceBarrier.push_back(i);
    }
  }
  for (auto &s : succ)
    for (unsigned j : s)
      ++indegree[j];
  std::priority_queue<unsigned, std::vector<unsigned>, std::greater<>> ready;
  for (unsigned i = 0; i < n; ++i)
    if (!indegree[i])
      ready.push(i);
  SmallVector<Operation *> order;
  order.reserve(n);
  while (!ready.empty()) {
    unsigned i = ready.top();
    ready.pop();
    order.push_back(ops[i]);
    for (unsigned j : succ[i])
      if (--indegree[j] == 0)
        ready.push(j);
  }
  if (order.size() != n)
    return false; // the reads cannot all come first: leave the order
  canonical::placeInOrder(block, n, [&](size_t i) { return order[i]; }, nullptr);
  return true;
}

/// The one insert that updates `reg`, when `reg` has few uses: a register
/// read by many extracts (the first one of a function) is not followed.
static Operation *soleInsertOf(Value reg) {
  constexpr unsigned kMaxUses = 16;
  Operation *insert = nullptr;
  unsigned uses = 0;
  for (OpOperand &use : reg.getUses()) {
    if (++uses > kMaxUses)
      return nullptr;
    std::optional<RegisterAccess> a = RegisterAccess::get(use.getOwner());
    if (!a || !a->isInsert || a->reg != reg)
      continue;
    if (insert)
      return nullptr;
    insert = use.getOwner();
  }
  return insert;
}

bool readLatestRegisters(Block &block) {
  // Bounds the ops an extract moves past: bodies are small, and a long
  // walk per extract would make the block quadratic.
  constexpr unsigned kMaxPast = 64;
  SmallVector<Operation *> extracts;
  // Positions before any move: only unmoved ops (an extract not yet
  // visited, inserts) are compared, and moving an op makes the block
  // renumber itself on the next isBeforeInBlock.
  DenseMap<Operation *, unsigned> position;
  for (Operation &op : block) {
    position[&op] = position.size();
    if (classify(&op) == QOpKind::Extract)
      extracts.push_back(&op);
  }
  bool changed = false;
  for (Operation *ex : extracts) {
    std::optional<RegisterAccess> a = RegisterAccess::get(ex);
    std::optional<int64_t> w = a ? a->wire() : std::nullopt;
    if (!w || a->reg.getParentBlock() != &block)
      continue;
    DenseSet<Operation *> users;
    for (Operation *u : ex->getUsers())
      users.insert(block.findAncestorOpInBlock(*u));
    Value reg = a->reg;
    Operation *at = ex;
    unsigned past = 0;
    while (Operation *next = soleInsertOf(reg)) {
      std::optional<int64_t> nw = RegisterAccess::get(next)->wire();
      if (next->getBlock() != &block || !nw || *nw == *w || position[next] < position[at])
        break;
      // Not past a user, a barrier, or an op with regions (whose barriers
      // would take a walk of its own).
      bool clear = true;
      for (Operation *o = at->getNextNode(); clear && o != next->getNextNode();
           o = o->getNextNode())
        clear = ++past <= kMaxPast && !users.contains(o) && !o->getNumRegions() &&
                !qshape::isBarrier(o);
      if (!clear)
        break;
      reg = RegisterAccess::get(next)->result;
      at = next;
    }
    if (at == ex)
      continue;
    ex->replaceUsesOfWith(a->reg, reg);
    ex->moveAfter(at);
    changed = true;
  }
  return changed;
}

} // namespace qshape::roll
