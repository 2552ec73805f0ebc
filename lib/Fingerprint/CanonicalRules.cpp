//===- CanonicalRules.cpp - the rules of the canonical form ---------------===//
//
// The engine and every rule of the canonical form, on the canonical view
// (CanonicalView.h). CanonicalRules.def lists the rules and says when each
// runs; the rules edit the view only through its edit primitives, which
// materialize() writes back to the IR.
//
//===----------------------------------------------------------------------===//

#include "CanonicalView.h"

#include "qshape/Fingerprint/CanonicalForm.h"
#include "qshape/GateView/GateView.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/xxhash.h"

#include <numeric>

using namespace mlir;

namespace qshape::fpview {

using canonical::mix64;

namespace {
/// DenseMap keys that may be pointers: DenseMapInfo<uint64_t> keeps their
/// zero low bits and would cluster them.
struct MixedKeyInfo : llvm::DenseMapInfo<uint64_t> {
  static unsigned getHashValue(uint64_t k) { return unsigned(mix64(k)); }
};

enum Stage : unsigned { Prepare = 1, Simplify = 2, Order = 4 };

/// std::stable_sort's result (equal elements keep their order), by sorting
/// (element, position) pairs. libstdc++ 12's std::stable_sort takes a
/// temporary buffer through std::get_temporary_buffer, which clang 22 warns
/// is deprecated at every instantiation.
template <typename Range, typename Less> void sortStably(Range &range, Less less) {
  using T = std::decay_t<decltype(*std::begin(range))>;
  SmallVector<std::pair<T, size_t>> keyed;
  for (auto [i, x] : llvm::enumerate(range))
    keyed.emplace_back(x, i);
  llvm::sort(keyed, [&](const auto &a, const auto &b) {
    if (less(a.first, b.first))
      return true;
    return !less(b.first, a.first) && a.second < b.second;
  });
  for (auto [x, k] : llvm::zip(range, keyed))
    x = k.first;
}
} // namespace

//===----------------------------------------------------------------------===//
// The engine.
//===----------------------------------------------------------------------===//

struct CanonicalView::Rule {
  unsigned (CanonicalView::*apply)();
  unsigned stages;
};

const CanonicalView::Rule CanonicalView::kRules[] = {
#define CANONICAL_RULE(Method, Stages, Statistic, Description) {&CanonicalView::Method, Stages},
#include "CanonicalRules.def"
};

ArrayRef<CanonicalRuleInfo> CanonicalView::rules() {
  static const CanonicalRuleInfo infos[] = {
#define CANONICAL_RULE(Method, Stages, Statistic, Description) {Statistic, Description},
#include "CanonicalRules.def"
  };
  return infos;
}

void CanonicalView::canonicalize() {
  // The function-like ops, in Operation::walk order (no rule creates, erases
  // or moves one out of its block).
  SmallVector<Idx> funcs;
  if (has(0, kFuncLike))
    funcs.push_back(0);
  else
    funcs.append(postFuncs.begin(), postFuncs.end());
  counts.assign(kNumRules, 0);
  if (!funcs.empty()) {
    valueScratch.resize(numValues());
    keyStamp.assign(numValues(), 0);
    readStamp.assign(numValues(), 0);
    opKeys.resize(ops.size());
    opSlot.assign(ops.size(), kNone);
    // Op names by rank (the schedule compares ranks, not strings).
    SmallVector<uint16_t> byName(names.size());
    std::iota(byName.begin(), byName.end(), 0);
    llvm::sort(byName, [&](uint16_t x, uint16_t y) { return names[x].name < names[y].name; });
    nameRank.resize(names.size());
    for (size_t i = 0; i < byName.size(); ++i)
      nameRank[byName[i]] = i;
  }
  // The Order rules compact the blocks under each function, and the rules
  // edit nothing outside one: no second pass over the lists (on a 10^6-op
  // function it would stream the op records once more).
  for (Idx f : funcs)
    runOn(f);
}

/// Runs rule `i` unless it changed nothing and nothing was edited since.
/// The rules depend on the view only through the edits counted in `edits`
/// (not on the order of constants, which hoistConstants moves).
unsigned CanonicalView::runRule(unsigned i) {
  if (quietAt[i] == edits)
    return 0;
  unsigned n = (this->*kRules[i].apply)();
  counts[i] += n;
  quietAt[i] = n ? ~uint64_t(0) : edits;
  return n;
}

void CanonicalView::runOn(Idx f) {
  func = f;
  quietAt.assign(kNumRules, ~uint64_t(0));
  // The register ops never move, so their Operation::walk order under the
  // function is the one recorded when the view was built.
  auto [begin, end] = accessRange.lookup(f);
  accessOps = llvm::ArrayRef<Idx>(postAccess).slice(begin, end - begin);
  for (unsigned i = 0; i < kNumRules; ++i)
    if (kRules[i].stages & Prepare)
      runRule(i);
  // Every Simplify rule only removes or simplifies, so this terminates; the
  // bound is a guard.
  for (int round = 0; round < 16; ++round) {
    bool changed = false;
    for (unsigned i = 0; i < kNumRules; ++i)
      if (kRules[i].stages & Simplify)
        changed |= runRule(i) != 0;
    if (!changed)
      break;
  }
  for (unsigned i = 0; i < kNumRules; ++i)
    if (kRules[i].stages & Order)
      runRule(i);
}

//===----------------------------------------------------------------------===//
// Rules.
//===----------------------------------------------------------------------===//

/// A constant index operand of extract/insert and a constant size operand of
/// alloc become the static attribute.
unsigned CanonicalView::staticIndices() {
  unsigned n = 0;
  // Only constants inside the view count: outside values are opaque.
  auto constantInt = [&](Idx v, APInt &result) {
    Idx def = definingOp(v);
    return def != kNone && has(def, kConst) && matchPattern(value(v), m_ConstantInt(&result)) &&
           !result.isNegative();
  };
  for (Idx o : accessOps) {
    if (!state[o].alive)
      continue;
    QOpKind kind = state[o].kind;
    if (kind == QOpKind::Extract || kind == QOpKind::Insert) {
      std::optional<VAccess> a = access(o);
      APInt v;
      if (a && a->dynamicIdx != kNone && constantInt(a->dynamicIdx, v)) {
        eraseOperand(o, 1);
        int64_t idx = v.getSExtValue();
        overrideAttr(o, kStaticIndexAttr, idx);
        ops[o].hasStaticIdx = true;
        staticIdxs[ops[o].aux] = idx;
        ++n;
      }
    } else if (kind == QOpKind::Alloc && ops[o].numOperands == 1) {
      APInt v;
      if (constantInt(operand(o, 0), v)) {
        eraseOperand(o, 0);
        overrideAttr(o, "nqubits_attr", v.getSExtValue());
        ++n;
      }
    }
  }
  return n;
}

/// Constants move to the top of the function, equal ones merged, sorted by
/// exact header bytes (floating-point constants last, so that their values
/// never shift other positions: the shape fingerprint skips them). Returns
/// the merges (the moves are not counted).
unsigned CanonicalView::hoistConstants() {
  const OpRec &f = ops[func];
  if (f.numRegions == 0 || regions[f.firstRegion].numBlocks == 0)
    return 0;
  Idx entry = regions[f.firstRegion].firstBlock;
  LargeVector<Idx> plain, floats;
  floats.reserve(blocks[entry].ops.size());
  forEachEditableBlock(func, [&](Idx b) {
    forEachOpIn(b, [&](Idx o) {
      if (has(o, kConst))
        (has(o, kFloatConst) ? floats : plain).push_back(o);
    });
  });
  if (plain.empty() && floats.empty())
    return 0;

  // The order of the float constants among themselves is not computed here:
  // nothing in the view depends on it (the encoder skips them and encodes
  // them at their uses, the schedule leaves constants alone, and their keys
  // do not depend on their position), so they stay in collection order;
  // materialize() sorts them when it writes the IR.
  unsigned n = 0;
  sortStably(plain, [&](Idx a, Idx b) {
    return headers[ops[a].header].exact < headers[ops[b].header].exact;
  });
  auto merge = [&](Idx op, Idx keep) {
    replaceAllUses(ops[op].firstResult, ops[keep].firstResult);
    erase(op);
    ++n;
  };
  size_t numPlain = 0;
  for (size_t i = 0; i < plain.size(); ++i) {
    if (numPlain && constKey(plain[i]) == constKey(plain[numPlain - 1])) {
      merge(plain[i], plain[numPlain - 1]);
      continue;
    }
    plain[numPlain++] = plain[i];
  }
  plain.resize(numPlain);
  // Equal keys among the floats: the first in collection order stays.
  // Found by sorting (key, position) pairs: on large modules a hash set of
  // the keys is a cache miss per constant, the sort streams. (The order of
  // the merges does not matter: each only forwards one value and erases one
  // op.)
  LargeVector<std::pair<uint64_t, Idx>> byKey(floats.size());
  for (size_t i = 0; i < floats.size(); ++i)
    byKey[i] = {constKey(floats[i]), Idx(i)};
  llvm::sort(byKey);
  LargeVector<char> merged(floats.size(), 0);
  for (size_t i = 1, first = 0; i < byKey.size(); ++i) {
    if (byKey[i].first != byKey[first].first) {
      first = i;
      continue;
    }
    merge(floats[byKey[i].second], floats[byKey[first].second]);
    merged[byKey[i].second] = 1;
  }
  size_t numFloats = 0;
  for (size_t i = 0; i < floats.size(); ++i)
    if (!merged[i])
      floats[numFloats++] = floats[i];
  floats.resize(numFloats);
  // The new entry block: the constants, then the other ops in order.
  hoistEntries.push_back(entry);
  for (LargeVector<Idx> *group : {&plain, &floats})
    for (Idx o : *group) {
      if (state[o].block != entry)
        hoistedFrom.try_emplace(o, state[o].block);
      state[o].block = entry;
    }
  LargeVector<Idx> &order = floats;
  order.insert(order.begin(), plain.begin(), plain.end());
  forEachOpIn(entry, [&](Idx o) {
    if (!has(o, kConst))
      order.push_back(o);
  });
  blocks[entry].ops = std::move(order);
  return n;
}

/// Equal pure non-quantum ops in the same block are merged (a CSE).
unsigned CanonicalView::mergeEqualOps() {
  // Constants are left out: after hoistConstants they are unique by exact
  // header, and OperationEquivalence never equates a constant with a
  // non-constant (same name, no operands) or two constants with different
  // headers.
  unsigned n = 0;
  using Scope = llvm::DenseMap<uint64_t, SmallVector<Idx, 1>, MixedKeyInfo>;
  SmallVector<Scope> scopes;
  SmallVector<std::pair<Value, Idx>, 8> local;
  auto localValue = [&](Value v) -> Idx {
    for (auto &[val, s] : local)
      if (val == v)
        return s;
    return kNone;
  };
  auto hashOf = [&](Idx o) {
    // Any hash that equal ops share: identity and the multiset of operands.
    uint64_t sum = 0;
    for (unsigned i = 0; i < ops[o].numOperands; ++i)
      sum += mix64(uint64_t(operand(o, i)) + 1);
    return mix64(sum ^ (uint64_t(ops[o].identity) << 32));
  };
  auto equivalent = [&](Idx a, Idx b) {
    // OperationEquivalence::isEquivalentTo(IgnoreLocations) on the real ops,
    // comparing operands after the view's replacements.
    local.clear();
    for (Idx o : {a, b})
      for (unsigned i = 0; i < ops[o].numOperands; ++i)
        local.push_back({ops[o].op->getOperand(i), operand(o, i)});
    return OperationEquivalence::isEquivalentTo(
        ops[a].op, ops[b].op,
        [&](Value l, Value r) { return success(localValue(l) == localValue(r)); },
        /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations,
        [&](ValueRange l, ValueRange r) {
          if (l.size() != r.size())
            return failure();
          SmallVector<Idx, 4> ls, rs;
          for (Value v : l)
            ls.push_back(localValue(v));
          for (Value v : r)
            rs.push_back(localValue(v));
          llvm::sort(ls);
          llvm::sort(rs);
          return success(ls == rs);
        });
  };
  std::function<void(Idx)> visitRegion = [&](Idx ri) {
    RegionRec reg = regions[ri];
    if (reg.numBlocks != 1)
      return;
    scopes.emplace_back();
    forEachOpIn(reg.firstBlock, [&](Idx o) {
      if (has(o, kMergeable)) {
        uint64_t h = hashOf(o);
        Idx found = kNone;
        // Only within one block: whether an equal op in an enclosing block
        // dominates this one depends on where the schedule puts it, and
        // merging across blocks made a second run merge more than the first.
        {
          Scope &scope = scopes.back();
          auto it = scope.find(h);
          if (it != scope.end())
            for (Idx c : it->second)
              if (equivalent(o, c)) {
                found = c;
                break;
              }
        }
        if (found != kNone) {
          for (unsigned i = 0; i < ops[o].numResults; ++i)
            replaceAllUses(ops[o].firstResult + i, ops[found].firstResult + i);
          erase(o);
          ++n;
          return;
        }
        scopes.back()[h].push_back(o);
      }
      if (ops[o].numRegions && has(o, kEditable) && !has(o, kIsolated))
        for (unsigned i = 0; i < ops[o].numRegions; ++i)
          visitRegion(ops[o].firstRegion + i);
    });
    scopes.pop_back();
  };
  for (unsigned i = 0; i < ops[func].numRegions; ++i)
    visitRegion(ops[func].firstRegion + i);
  return n;
}

static bool sameIndex(const CanonicalView::VAccess &a, const CanonicalView::VAccess &b) {
  if (a.hasStatic && b.hasStatic)
    return a.staticIdx == b.staticIdx;
  return a.dynamicIdx != kNone && a.dynamicIdx == b.dynamicIdx;
}

static bool differentIndex(const CanonicalView::VAccess &a, const CanonicalView::VAccess &b) {
  return a.hasStatic && b.hasStatic && a.staticIdx != b.staticIdx;
}

// The register rules keep register and qubit values linear, as Catalyst
// emits them (qshape-check-linearity): a value is read (extract, observables)
// before its one consumer, and never consumed twice. A rule that would leave
// a read after the consumer, or a qubit with two consumers, does not apply.

/// An extract at a static index reads past inserts at other static indices:
/// extract(insert(r, j, q), i) is extract(r, i). This frees the order of the
/// wires (each wire's extracts no longer wait for the other wires' inserts);
/// the schedule then puts the extract before the insert that consumes r, so
/// the read stays in front of its consumer. Only past inserts of the same
/// block and between the same barriers: across them the schedule could not
/// move the extract back in front.
unsigned CanonicalView::readPastInserts() {
  unsigned n = 0;
  // First along each chain (forEachChain), keeping the inserts of the
  // current run of one segment: an extract at slot i goes back to the last
  // of them at i or at a dynamic index, else to where the run starts. This
  // is where the per-extract loop below would stop, which then finds
  // nothing left to do for them; it still handles the chains that branch.
  SmallVector<Idx> values;                  // the chain's values by position
  llvm::DenseMap<int64_t, unsigned> lastAt; // slot -> position of its last insert in the run
  unsigned runStart = 0, lastDynamic = 0;
  Idx runInsert = kNone;
  forEachChain(registerUsers(), [&](const ChainStep &step) {
    values.resize(step.position);
    values.push_back(step.value);
    if (!step.producer)
      return; // where the chain starts: nothing to read past
    if (step.position == 1 || !sameSegment(step.producer->op, runInsert)) {
      runStart = step.position;
      lastAt.clear();
      lastDynamic = 0;
      runInsert = step.producer->op;
    }
    if (step.producer->hasStatic)
      lastAt[step.producer->staticIdx] = step.position;
    else
      lastDynamic = step.position;
    for (Idx u : step.users) {
      if (state[u].kind != QOpKind::Extract || !sameSegment(step.producer->op, u))
        continue;
      std::optional<VAccess> e = access(u);
      if (!e || !e->hasStatic)
        continue;
      unsigned stop = std::max({runStart - 1, lastDynamic, lastAt.lookup(e->staticIdx)});
      if (stop < step.position) {
        setOperand(u, 0, values[stop]);
        n += step.position - stop;
      }
    }
  });
  for (Idx op : accessOps) {
    if (!state[op].alive || state[op].kind != QOpKind::Extract)
      continue;
    std::optional<VAccess> a = access(op);
    if (!a || !a->hasStatic)
      continue;
    while (std::optional<VAccess> ins = accessOfDef(a->reg)) {
      if (!ins->isInsert || !differentIndex(*a, *ins) || !sameSegment(ins->op, op))
        break;
      setOperand(op, 0, ins->reg);
      a->reg = ins->reg;
      ++n;
    }
  }
  return n;
}

/// The insert that stored, in register `reg`, the slot `a` accesses: found
/// past inserts at other static indices (none when another kind of op, or an
/// insert whose index may or may not be `a`'s, comes first).
std::optional<CanonicalView::VAccess> CanonicalView::lastStoreOf(const VAccess &a, Idx reg) {
  for (Idx r = reg; std::optional<VAccess> ins = accessOfDef(r); r = ins->reg) {
    if (!ins->isInsert)
      return std::nullopt;
    if (sameIndex(a, *ins))
      return ins;
    if (!differentIndex(a, *ins))
      return std::nullopt;
  }
  return std::nullopt;
}

/// Whether `e`, extracting slot i from the chain that `c` (an insert at i)
/// starts, is the only op that can observe what `c` stored: every use of
/// `c`'s result and of the registers after it (through inserts at other
/// static indices) is `e`, an extract at another static index, an insert at
/// another static index (the chain goes on) or an insert at i (which
/// overwrites the slot). `users` lists, per register value, the access ops
/// that use it; erased inserts are looked through (their uses moved to the
/// register they inserted into), and a value with any other use (a loop, a
/// call, a return, a register observable) fails.
bool CanonicalView::onlyObserver(const VAccess &c, const VAccess &e, const RegisterUsers &users) {
  SmallVector<Idx, 8> chain{c.result};
  bool found = false;
  unsigned budget = 4096; // a long chain is left as it is
  while (!chain.empty()) {
    Idx v = chain.pop_back_val();
    uint32_t count = 0;
    bool ok = true;
    std::function<void(Idx)> visit = [&](Idx reg) {
      for (Idx u : users.of(reg)) {
        if (!ok || !budget--) {
          ok = false;
          return;
        }
        if (!state[u].alive) {
          if (state[u].kind == QOpKind::Insert)
            visit(ops[u].firstResult); // its users now use `v`
          continue;
        }
        ++count;
        if (u == e.op) {
          found = true;
          continue;
        }
        std::optional<VAccess> x = access(u);
        if (!x || x->reg != v) {
          ok = false; // not a use of `v` as a register any more, or unknown
          return;
        }
        if (differentIndex(c, *x)) {
          if (x->isInsert)
            chain.push_back(x->result);
          continue;
        }
        if (!(x->isInsert && sameIndex(c, *x)))
          ok = false; // another read of slot i, or a dynamic index
      }
    };
    visit(v);
    if (!ok || uses[v] != count)
      return false;
  }
  return found;
}

/// Walks every register chain once: from the value it starts at (not an
/// insert's result) through the inserts that consume it one after another.
/// `visit` gets each value of the chain with its position (0 where the
/// chain starts), the insert that made it (none at 0), and its users among
/// the extract/insert ops. A value that two inserts consume ends the walk of
/// its chain after its visit (`branches`); callers leave what follows to
/// their per-op rule. Linear in the ops of the chains, where walking back
/// from every op of a chain that stores W wires in turn is quadratic in W.
void CanonicalView::forEachChain(const RegisterUsers &users,
                                 llvm::function_ref<void(const ChainStep &)> visit) {
  llvm::DenseSet<Idx> heads;
  for (Idx o : accessOps) {
    if (!state[o].alive || state[o].kind != QOpKind::Insert)
      continue;
    std::optional<VAccess> a = access(o);
    if (!a)
      continue;
    std::optional<VAccess> def = accessOfDef(a->reg);
    if ((def && def->isInsert) || !heads.insert(a->reg).second)
      continue; // not where a chain starts, or its chain was walked
    ChainStep step{a->reg, 0, std::nullopt, {}, std::nullopt, false};
    for (;;) {
      step.users = users.of(step.value);
      step.next.reset();
      step.branches = false;
      for (Idx u : step.users)
        if (std::optional<VAccess> x = access(u); x && x->isInsert && x->reg == step.value) {
          step.branches |= step.next.has_value();
          step.next = x;
        }
      visit(step);
      if (!step.next || step.branches)
        break;
      step = ChainStep{step.next->result, step.position + 1, step.next, {}, std::nullopt, false};
    }
  }
}

/// onlyObserver for every insert at a static index, from one walk of each
/// chain (forEachChain) instead of one walk per insert. The walk keeps one
/// window per slot open (from an insert to the next insert at its index)
/// and counts the extracts of that slot in it; what fails onlyObserver for
/// every window it falls in (an extract or insert at a dynamic index, a use
/// that is not an extract or insert of the register) poisons the windows
/// open there. The result maps an insert to its only observer, or to kNone
/// when it has none, several, or a poisoned window. Inserts the walk cannot
/// judge (a dynamic index, a chain that branches) are left out, for
/// onlyObserver. Unlike onlyObserver's walk, a window has no length limit.
llvm::DenseMap<Idx, Idx> CanonicalView::soleObservers(const RegisterUsers &users) {
  llvm::DenseMap<Idx, Idx> sole;
  struct Window {
    Idx insert;
    unsigned opened; // the position of the first value it observes
    Idx observer = kNone;
    unsigned observers = 0;
  };
  llvm::DenseMap<int64_t, Window> open;
  int64_t lastPoison = -1;
  auto close = [&](const Window &w) {
    sole[w.insert] = lastPoison < int64_t(w.opened) && w.observers == 1 ? w.observer : kNone;
  };
  forEachChain(users, [&](const ChainStep &step) {
    if (step.position == 0) {
      open.clear();
      lastPoison = -1;
    }
    if (uses[step.value] != step.users.size())
      lastPoison = step.position; // a use that is not an extract or insert
    for (Idx u : step.users) {
      std::optional<VAccess> x = access(u);
      if (!x || x->reg != step.value || !x->hasStatic) {
        lastPoison = step.position; // may read or overwrite any slot
        continue;
      }
      if (!x->isInsert)
        if (auto it = open.find(x->staticIdx); it != open.end()) {
          ++it->second.observers;
          it->second.observer = u;
        }
    }
    if (step.branches)
      return; // the open windows go on in two chains: left to onlyObserver
    if (!step.next) {
      for (auto &[slot, w] : open)
        close(w);
      return;
    }
    if (step.next->hasStatic) {
      Window fresh{step.next->op, step.position + 1};
      auto [it, inserted] = open.try_emplace(step.next->staticIdx, fresh);
      if (!inserted) {
        close(it->second);
        it->second = fresh;
      }
    }
  });
  return sole;
}

/// A round trip through a register is removed: for c = insert(r, i, q) and
/// e = extract of slot i from c's chain (past inserts at other static
/// indices), e's users get q and c's users get r, when e is the only op that
/// can observe what c stored (onlyObserver) and both are in one block. This
/// is extract(insert(r, i, q), i) = q without leaving q consumed twice (by
/// c and by e's users) or read after c.
unsigned CanonicalView::eliminateRoundTrips() {
  RegisterUsers users = registerUsers();
  // Removing a round trip that soleObservers judged leaves the other
  // inserts' windows as they were; one that onlyObserver judged (a dynamic
  // index, a chain that branches) may not, so the answers are dropped then.
  llvm::DenseMap<Idx, Idx> sole = soleObservers(users);
  unsigned n = 0;
  for (Idx op : accessOps) {
    if (!state[op].alive || state[op].kind != QOpKind::Extract)
      continue;
    std::optional<VAccess> e = access(op);
    if (!e)
      continue;
    std::optional<VAccess> c = lastStoreOf(*e, e->reg);
    if (!c || state[c->op].block != state[op].block)
      continue;
    auto known = sole.find(c->op);
    if (known != sole.end() ? known->second != op : !onlyObserver(*c, *e, users))
      continue;
    if (known == sole.end())
      sole.clear();
    replaceAllUses(e->result, c->qubit);
    erase(op);
    replaceAllUses(c->result, c->reg);
    erase(c->op);
    ++n;
  }
  return n;
}

/// Inserts that change nothing are dropped: insert(r, i, q) when r already
/// holds q at i (past inserts at other static indices); insert(r, i,
/// extract(r', i)) when r holds at i what r' held (r' is r, or r is reached
/// from r' through inserts at other indices); and an insert whose slot the
/// next insert at the same index overwrites, past inserts at other static
/// indices, when no other op uses the registers in between (nobody can
/// observe what it stored, and it dies).
unsigned CanonicalView::dropRedundantInserts() {
  unsigned n = 0;
  for (Idx op : accessOps) {
    if (!state[op].alive || state[op].kind != QOpKind::Insert)
      continue;
    std::optional<VAccess> a = access(op);
    if (!a)
      continue;
    // insert(r, i, q) is r when r already holds q at i.
    if (std::optional<VAccess> last = lastStoreOf(*a, a->reg); last && last->qubit == a->qubit) {
      replaceAllUses(a->result, a->reg);
      erase(op);
      ++n;
      continue;
    }
    // insert(insert(r, i, a), i, b) is insert(r, i, b), past single-use
    // inserts at other static indices.
    {
      Idx user = op;
      Idx r = a->reg;
      while (std::optional<VAccess> prev = accessOfDef(r)) {
        if (!prev->isInsert || uses[resolve(r)] != 1)
          break;
        if (sameIndex(*a, *prev)) {
          setOperand(user, 0, prev->reg);
          if (user == op)
            a->reg = prev->reg;
          ++n;
          break;
        }
        if (!differentIndex(*a, *prev))
          break;
        user = prev->op;
        r = prev->reg;
      }
    }
    // insert(r, i, extract(r', i)) is r when r holds at i what r' held.
    if (std::optional<VAccess> ext = accessOfDef(a->qubit);
        ext && !ext->isInsert && sameIndex(*a, *ext)) {
      Idx r = a->reg;
      while (r != ext->reg) {
        std::optional<VAccess> ins = accessOfDef(r);
        if (!ins || !ins->isInsert || !differentIndex(*a, *ins))
          break;
        r = ins->reg;
      }
      if (r == ext->reg) {
        replaceAllUses(a->result, a->reg);
        erase(op);
        ++n;
      }
    }
  }
  return n;
}

/// A chain of inserts at static indices stores its qubits in ascending
/// index order: insert(insert(r, j, a), i, b) is insert(insert(r, i, b), j,
/// a) for i < j (another slot: nothing can tell the order), when the register
/// between them has no other use and both stand in one block between the same
/// barriers. After the round trips go, a per-gate program (an extract and an
/// insert around every gate) differs from its threaded form (one extract per
/// wire at the start, one insert at the end) only in the order of its last
/// inserts; now it does not. The inserts keep their places in the chain and
/// trade what they store (index and qubit), so no register value changes
/// users; a sorted chain moves to where its last insert stands, so that every
/// qubit it stores is defined before it (the schedule's keys are computed in
/// block order). A stable sort: inserts at one index keep their order.
unsigned CanonicalView::sortInsertChains() {
  auto staticInsert = [&](Idx o) -> std::optional<VAccess> {
    std::optional<VAccess> a = access(o);
    if (!a || !state[o].alive || !a->isInsert || !a->hasStatic || a->dynamicIdx != kNone)
      return std::nullopt;
    return a;
  };
  unsigned n = 0;
  llvm::DenseSet<Idx> inChain; // chain members already visited (not tails)
  SmallVector<VAccess, 8> chain;
  SmallVector<std::pair<int64_t, Idx>, 8> stores;
  llvm::DenseMap<Idx, SmallVector<Idx, 4>> moveBefore; // a sorted chain's tail: the others
  llvm::DenseSet<Idx> moved, blocksToReorder;
  // From the back: the last insert of a chain comes after the others.
  for (Idx o : llvm::reverse(accessOps)) {
    if (state[o].kind != QOpKind::Insert || inChain.contains(o))
      continue;
    std::optional<VAccess> last = staticInsert(o);
    if (!last)
      continue;
    chain.assign(1, *last);
    while (std::optional<VAccess> prev = accessOfDef(chain.back().reg)) {
      if (!staticInsert(prev->op) || uses[resolve(prev->result)] != 1 ||
          !sameSegment(prev->op, o) || !inChain.insert(prev->op).second)
        break;
      chain.push_back(*prev);
    }
    auto byIndex = [](const auto &x, const auto &y) { return x.first < y.first; };
    stores.clear();
    for (const VAccess &a : llvm::reverse(chain))
      stores.push_back({a.staticIdx, a.qubit});
    if (llvm::is_sorted(stores, byIndex))
      continue;
    sortStably(stores, byIndex);
    for (auto [a, store] : llvm::zip(llvm::reverse(chain), stores)) {
      if (a.staticIdx != store.first) {
        overrideAttr(a.op, kStaticIndexAttr, store.first);
        staticIdxs[ops[a.op].aux] = store.first;
      }
      if (a.qubit != store.second)
        setOperand(a.op, ops[a.op].numOperands - 1, store.second);
    }
    SmallVector<Idx, 4> &group = moveBefore[o];
    for (const VAccess &a : llvm::reverse(llvm::ArrayRef(chain).drop_front())) {
      group.push_back(a.op);
      moved.insert(a.op);
    }
    blocksToReorder.insert(state[o].block);
    ++n;
  }
  for (Idx b : blocksToReorder) {
    LargeVector<Idx> order;
    order.reserve(blocks[b].ops.size());
    for (Idx x : blocks[b].ops) {
      if (moved.contains(x))
        continue;
      if (auto it = moveBefore.find(x); it != moveBefore.end())
        order.insert(order.end(), it->second.begin(), it->second.end());
      order.push_back(x);
    }
    blocks[b].ops = std::move(order);
  }
  return n;
}

CanonicalView::RegisterUsers CanonicalView::registerUsers() {
  LargeVector<std::pair<Idx, Idx>> pairs;
  for (Idx o : accessOps)
    if (state[o].alive && (state[o].kind == QOpKind::Extract || state[o].kind == QOpKind::Insert))
      if (std::optional<VAccess> a = access(o))
        pairs.emplace_back(a->reg, o);
  llvm::sort(pairs);
  RegisterUsers users;
  users.regs.reserve(pairs.size());
  users.users.reserve(pairs.size());
  for (auto [reg, o] : pairs) {
    users.regs.push_back(reg);
    users.users.push_back(o);
  }
  return users;
}

llvm::ArrayRef<Idx> CanonicalView::RegisterUsers::of(Idx reg) const {
  auto [lo, hi] = std::equal_range(regs.begin(), regs.end(), reg);
  return llvm::ArrayRef<Idx>(users).slice(lo - regs.begin(), hi - lo);
}

/// Dead ops without side effects are erased.
unsigned CanonicalView::eraseDeadOps() {
  unsigned n = 0;
  LargeVector<Idx> order;
  order.reserve(ops.size());
  forEachEditableBlock(func, [&](Idx b) { forEachOpIn(b, [&](Idx o) { order.push_back(o); }); });
  for (Idx o : llvm::reverse(order)) {
    if (!state[o].alive) // erased here, or nested in an op erased here
      continue;
    if (!useEmpty(o) || has(o, kTerminator) || isOrdered(o))
      continue;
    erase(o);
    ++n;
  }
  return n;
}

//===--- The schedule -----------------------------------------------------===//

/// Every block gets one topological order derived from structure alone
/// (scheduleBlock, BlockScheduler.cpp). Returns the blocks whose order
/// changed.
unsigned CanonicalView::scheduleBlocks() {
  compactBlocksUnder(func);
  ++currentKeyStamp;
  for (unsigned ri = 0; ri < ops[func].numRegions; ++ri) {
    RegionRec reg = regions[ops[func].firstRegion + ri];
    for (Idx b = reg.firstBlock; b < reg.firstBlock + reg.numBlocks; ++b)
      computeKeys(b);
  }
  subtreeBegin.assign(ops.size(), 0);
  subtreeEnd.assign(ops.size(), 0);
  uint32_t counter = 0;
  numberOps(func, counter);
  captureMemo.clear();
  unsigned n = 0;
  forEachEditableBlock(func, [&](Idx b) { n += scheduleBlock(b); });
  captureMemo.clear();
  return n;
}

/// Structural ordering key of every op: a hash of its name, attributes
/// (float values abstracted), result types, operand keys and nested ops.
/// Operand keys come from the defining op's key and result number, or from
/// a block argument's position, so keys never depend on names or order.

void CanonicalView::argKey(Idx v, unsigned argNumber) {
  ByteSink a;
  a.u8('a');
  a.u64(argNumber);
  shapeEncoder.encodeType(value(v).getType(), a);
  valueScratch[v] = llvm::xxh3_64bits(a.str());
  keyStamp[v] = currentKeyStamp;
}

uint64_t CanonicalView::opKey(Idx o) {
  ByteSink sink;
  sink.raw(headers[ops[o].header].shape);
  for (unsigned i = 0; i < ops[o].numOperands; ++i) {
    Idx v = operand(o, i);
    sink.u64(keyStamp[v] == currentKeyStamp ? valueScratch[v] : 0);
  }
  for (unsigned ri = 0; ri < ops[o].numRegions; ++ri) {
    RegionRec reg = regions[ops[o].firstRegion + ri];
    sink.u8('{');
    for (Idx b = reg.firstBlock; b < reg.firstBlock + reg.numBlocks; ++b) {
      for (unsigned k = 0; k < blocks[b].numArgs; ++k)
        argKey(blocks[b].firstArg + k, k);
      SmallVector<uint64_t> nested;
      for (Idx op : blocks[b].ops)
        nested.push_back(opKey(op));
      llvm::sort(nested);
      for (uint64_t k : nested)
        sink.u64(k);
    }
    sink.u8('}');
  }
  uint64_t key = llvm::xxh3_64bits(sink.str());
  opKeys[o] = key;
  for (unsigned i = 0; i < ops[o].numResults; ++i) {
    Idx v = ops[o].firstResult + i;
    valueScratch[v] = mix64(key + 0x9E3779B97F4A7C15ull * (uint64_t(i) + 1));
    keyStamp[v] = currentKeyStamp;
  }
  return key;
}

void CanonicalView::computeKeys(Idx b) {
  for (unsigned k = 0; k < blocks[b].numArgs; ++k)
    argKey(blocks[b].firstArg + k, k);
  for (Idx op : blocks[b].ops)
    opKey(op);
}

} // namespace qshape::fpview
