//===- BlockScheduler.cpp - the canonical order of one block --------------===//
//
// The order the scheduleBlocks rule (CanonicalRules.cpp) gives each block,
// and the captures of region ops it reads. The schedule is part of every
// fingerprint: any change to it changes persistent cache keys.
//
//===----------------------------------------------------------------------===//

#include "CanonicalView.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <queue>

using namespace mlir;

namespace qshape::fpview {

//===--- Captures ---------------------------------------------------------===//

void CanonicalView::numberOps(Idx o, uint32_t &counter) {
  subtreeBegin[o] = counter++;
  for (unsigned ri = 0; ri < ops[o].numRegions; ++ri) {
    RegionRec reg = regions[ops[o].firstRegion + ri];
    for (Idx b = reg.firstBlock; b < reg.firstBlock + reg.numBlocks; ++b)
      for (Idx inner : blocks[b].ops)
        numberOps(inner, counter);
  }
  subtreeEnd[o] = counter;
}

/// Whether `v` is a result or block argument of an op nested in `o`.
bool CanonicalView::definedInside(Idx v, Idx o) const {
  Idx d = valueDef[v];
  Idx site;
  if (!(d & kArgBit))
    site = d; // a result: inside when its op is strictly inside
  else if (d & kExternalBit)
    return false;
  else
    site = blocks[d & ~kArgBit].parentOp;
  if (site == o && (d & kArgBit))
    return true; // an argument of one of o's own blocks
  if (site == kNone || site == o)
    return false;
  return subtreeBegin[site] > subtreeBegin[o] && subtreeBegin[site] < subtreeEnd[o];
}

static bool isReadUse(QOpKind userKind, unsigned operandNumber) {
  return userKind == QOpKind::Observable || (userKind == QOpKind::Extract && operandNumber == 0);
}

ArrayRef<CanonicalView::Capture> CanonicalView::capturesOf(Idx o) {
  if (auto it = captureMemo.find(o); it != captureMemo.end())
    return it->second;
  SmallVector<Capture, 4> result;
  llvm::SmallDenseSet<uint64_t, 8> seen; // value * 2 + read
  auto add = [&](Idx v, bool read) {
    if (!definedInside(v, o) && seen.insert(uint64_t(v) * 2 + read).second)
      result.push_back({v, read});
  };
  for (unsigned ri = 0; ri < ops[o].numRegions; ++ri) {
    RegionRec reg = regions[ops[o].firstRegion + ri];
    for (Idx b = reg.firstBlock; b < reg.firstBlock + reg.numBlocks; ++b)
      for (Idx inner : blocks[b].ops) {
        for (unsigned k = 0; k < ops[inner].numOperands; ++k)
          add(operand(inner, k), isReadUse(state[inner].kind, k));
        if (ops[inner].numRegions)
          for (Capture c : capturesOf(inner))
            add(c.value, c.read);
      }
  }
  return captureMemo[o] = std::move(result);
}

//===--- The scheduler ----------------------------------------------------===//

/// Topological order of one block by a priority that depends on structure
/// only. "Floating" ops (pure, region-free, non-quantum: arith, math,
/// tensor.extract, ...) and constants do not take part: constants sit at the
/// top, and each floating op is placed right before its first user, so its
/// position follows from its users' and never from values it computes. The
/// other ops ("main" ops) are ordered by: (1) ops without side effects
/// before ordered ones (side-effecting ops keep their relative order through
/// a chain of edges, and no quantum or side-effecting op crosses a barrier,
/// see qshape::isBarrier); (2) the op whose latest-scheduled producer is most
/// recent, so each qubit's chain of gates stays together; (3) op name,
/// static register index (ascending wires; a region op's results continue
/// the wires of what it yields), structural key.
///
/// One scheduler per block; it numbers the block's ops in the view's opSlot
/// (main ops by position in mainOps, floating ops by position in floatingOps
/// with kFloatingBit) and clears those slots when destroyed.
class CanonicalView::BlockScheduler {
public:
  BlockScheduler(CanonicalView &view, Idx b) : view(view), b(b), list(view.blocks[b].ops) {}
  BlockScheduler(const BlockScheduler &) = delete;
  BlockScheduler &operator=(const BlockScheduler &) = delete;
  ~BlockScheduler();
  /// Reorders the block; returns whether its order changed.
  bool run();

private:
  static constexpr uint32_t kFloatingBit = 0x80000000u;
  /// fn(value, the op of this block that defines it or kNone, is a read).
  using UseFn = function_ref<void(Idx, Idx, bool)>;
  /// A ready main op, with what its priority compares.
  struct Item {
    bool ordered;
    int recency;
    uint32_t rank;
    int64_t wire;
    uint64_t key;
    unsigned idx;
  };
  /// The priority_queue order: its top is the best item.
  struct Worse {
    bool operator()(const Item &a, const Item &b) const;
  };

  // The ops of the block.
  void partition();
  bool isFloating(Idx o) const {
    return view.opSlot[o] != kNone && (view.opSlot[o] & kFloatingBit);
  }
  bool isMain(Idx o) const { return view.opSlot[o] != kNone && !(view.opSlot[o] & kFloatingBit); }
  uint32_t floatingIndex(Idx f) const { return view.opSlot[f] & ~kFloatingBit; }
  Idx producerInBlock(Idx v) const;
  const SmallVector<unsigned, 2> &producersOf(Idx f);
  void forEachUse(Idx o, UseFn fn);
  void collectReaders();

  // The dependence graph of the main ops.
  void buildEdges(bool withReads);
  void addEdge(unsigned i, unsigned from);
  void addUseEdges(unsigned i, bool withReads);
  void addBarrierEdges(unsigned i);
  void buildUsers();

  // Wires.
  int64_t wireOfValue(Idx v) const {
    return view.keyStamp[v] == wstamp ? int64_t(view.valueScratch[v]) : -1;
  }
  void setWire(Idx v, int64_t w) {
    view.keyStamp[v] = wstamp;
    view.valueScratch[v] = uint64_t(w);
  }
  bool isGate(Idx o) const {
    return view.state[o].kind == QOpKind::Gate || view.state[o].kind == QOpKind::GlobalPhase;
  }
  void traceWires();
  int64_t wireBehind(Idx v);
  void setRegionWires(Idx o);
  int64_t wireOfOp(Idx o);

  // The order.
  bool orderMainOps();
  bool sortMain();
  Item makeItem(unsigned i);
  void interleaveFloating();
  void place(Idx f);
  void placeOperandsOf(Idx o);

  CanonicalView &view;
  Idx b;
  /// Blocks are compacted: the list holds exactly the live ops of `b`.
  LargeVector<Idx> &list;
  Idx terminator = kNone;
  LargeVector<Idx> mainOps, floatingOps;
  bool hasBarrier = false;
  /// Per floating op: the main ops it depends on (memo of producersOf).
  LargeVector<SmallVector<unsigned, 2>> floatingProducers;
  LargeVector<char> producersKnown;
  /// Per value read by a main op (marked in readStamp with rstamp): the main
  /// ops that read it.
  llvm::DenseMap<Idx, SmallVector<unsigned, 2>> readers;
  uint32_t rstamp = 0;

  /// Edges, in compressed rows: every edge into i is added while visiting i.
  /// The edges of a row up to recencyEnd[i] carry data or effects and count
  /// for the schedule's recency; the read-before-consumer edges after them
  /// only constrain the order.
  LargeVector<unsigned> predStart, recencyEnd, preds;
  LargeVector<unsigned> userStart, users, indegree;
  /// While building a row: its read edges, added after the others.
  SmallVector<unsigned, 4> readEdges;
  int lastOrdered = -1, lastBarrier = -1;
  LargeVector<unsigned> pinnedSinceBarrier;

  /// Stamp of the wires in the view's value scratch.
  uint32_t wstamp = 0;

  LargeVector<int> pos; ///< per main op: its place in mainOrder (-1 before)
  LargeVector<Idx> mainOrder;
  LargeVector<char> placed; ///< per floating op
  LargeVector<Idx> order;
};

bool CanonicalView::scheduleBlock(Idx b) { return BlockScheduler(*this, b).run(); }

CanonicalView::BlockScheduler::~BlockScheduler() {
  for (Idx o : mainOps)
    view.opSlot[o] = kNone;
  for (Idx o : floatingOps)
    view.opSlot[o] = kNone;
}

bool CanonicalView::BlockScheduler::run() {
  partition();
  collectReaders();
  traceWires();
  if (!orderMainOps())
    return false;
  interleaveFloating();
  assert(order.size() == list.size());
  bool changed = order != list;
  list = std::move(order);
  return changed;
}

/// Splits the ops into main and floating ops (constants and the terminator
/// are neither) and numbers them in opSlot.
void CanonicalView::BlockScheduler::partition() {
  terminator = !list.empty() && view.has(list.back(), kTerminator) ? list.back() : kNone;
  for (Idx o : list) {
    if (o == terminator || view.has(o, kConst))
      continue;
    hasBarrier |= view.has(o, kBarrier);
    if (view.has(o, kMergeable)) {
      view.opSlot[o] = kFloatingBit | uint32_t(floatingOps.size());
      floatingOps.push_back(o);
      continue;
    }
    view.opSlot[o] = mainOps.size();
    mainOps.push_back(o);
  }
  floatingProducers.resize(floatingOps.size());
  producersKnown.assign(floatingOps.size(), 0);
}

/// Block::findAncestorOpInBlock on the view.
Idx CanonicalView::BlockScheduler::producerInBlock(Idx v) const {
  Idx d = view.definingOp(v);
  while (d != kNone) {
    Idx db = view.state[d].block;
    if (db == b)
      return d;
    if (db == kNone)
      return kNone;
    d = view.blocks[db].parentOp;
  }
  return kNone;
}

/// Main-op producers of a floating op, looking through floating chains.
const SmallVector<unsigned, 2> &CanonicalView::BlockScheduler::producersOf(Idx f) {
  uint32_t fi = floatingIndex(f);
  if (producersKnown[fi])
    return floatingProducers[fi];
  SmallVector<unsigned, 2> result;
  for (unsigned k = 0; k < view.ops[f].numOperands; ++k) {
    Idx p = producerInBlock(view.operand(f, k));
    if (p == kNone)
      continue;
    if (isFloating(p)) {
      for (unsigned q : producersOf(p))
        if (!llvm::is_contained(result, q))
          result.push_back(q);
    } else if (isMain(p)) {
      if (!llvm::is_contained(result, view.opSlot[p]))
        result.push_back(view.opSlot[p]);
    }
  }
  producersKnown[fi] = 1;
  floatingProducers[fi] = std::move(result);
  return floatingProducers[fi];
}

/// Every use by main op `o`: its operands and its regions' captures.
void CanonicalView::BlockScheduler::forEachUse(Idx o, UseFn fn) {
  for (unsigned k = 0; k < view.ops[o].numOperands; ++k) {
    Idx v = view.operand(o, k);
    fn(v, producerInBlock(v), isReadUse(view.state[o].kind, k));
  }
  if (view.ops[o].numRegions)
    for (Capture c : view.capturesOf(o))
      fn(c.value, producerInBlock(c.value), c.read);
}

/// Reads of qubit and register values (an extract of its register, an
/// observable of its operands, also nested in a main op's regions) go
/// before the value's consumers (every other use), as linear code has them
/// (qshape-check-linearity): this finds the readers of each value.
void CanonicalView::BlockScheduler::collectReaders() {
  rstamp = ++view.currentReadStamp;
  for (unsigned i = 0; i < mainOps.size(); ++i) {
    Idx o = mainOps[i];
    QOpKind kind = view.state[o].kind;
    if (kind != QOpKind::Extract && kind != QOpKind::Observable && !view.ops[o].numRegions)
      continue;
    forEachUse(o, [&](Idx v, Idx, bool read) {
      if (!read)
        return;
      SmallVector<unsigned, 2> &r = readers[v];
      if (r.empty() || r.back() != i)
        r.push_back(i);
      view.readStamp[v] = rstamp;
    });
  }
}

//===--- The dependence graph ---------------------------------------------===//

void CanonicalView::BlockScheduler::buildEdges(bool withReads) {
  size_t n = mainOps.size();
  predStart.resize(n + 1);
  recencyEnd.resize(n);
  preds.clear();
  preds.reserve(2 * n);
  lastOrdered = -1;
  lastBarrier = -1;
  pinnedSinceBarrier.clear();
  for (unsigned i = 0; i < n; ++i) {
    predStart[i] = preds.size();
    Idx o = mainOps[i];
    readEdges.clear();
    addUseEdges(i, withReads);
    if (view.isOrdered(o)) {
      if (lastOrdered >= 0)
        addEdge(i, unsigned(lastOrdered));
      lastOrdered = int(i);
    }
    if (hasBarrier)
      addBarrierEdges(i);
    recencyEnd[i] = preds.size();
    preds.insert(preds.end(), readEdges.begin(), readEdges.end());
  }
  predStart[n] = preds.size();
}

/// An edge into `i`, unless it is a loop or already in the row.
void CanonicalView::BlockScheduler::addEdge(unsigned i, unsigned from) {
  if (from == i || std::find(preds.begin() + predStart[i], preds.end(), from) != preds.end())
    return;
  preds.push_back(from);
}

/// Edges from the producers of what main op `i` uses; with `withReads`,
/// collects in readEdges the readers that must precede it.
void CanonicalView::BlockScheduler::addUseEdges(unsigned i, bool withReads) {
  forEachUse(mainOps[i], [&](Idx v, Idx p, bool read) {
    if (p != kNone) {
      if (isFloating(p)) {
        for (unsigned q : producersOf(p))
          addEdge(i, q);
      } else if (isMain(p)) {
        addEdge(i, view.opSlot[p]);
      }
    }
    if (withReads && !read && view.readStamp[v] == rstamp)
      for (unsigned r : readers.find(v)->second)
        if (r != i)
          readEdges.push_back(r);
  });
}

/// Barriers: each op a barrier pins stays on its side of it. Edges from the
/// pinned ops since the last barrier into a barrier, and from the last
/// barrier into every pinned op after it: at most two per op. (An edge
/// twice is harmless: its users count it twice too. These are not searched
/// for among the others, which on a barrier would be quadratic.)
void CanonicalView::BlockScheduler::addBarrierEdges(unsigned i) {
  Idx o = mainOps[i];
  bool barrier = view.has(o, kBarrier);
  if ((barrier || view.has(o, kPinned)) && lastBarrier >= 0)
    preds.push_back(unsigned(lastBarrier));
  if (barrier) {
    preds.insert(preds.end(), pinnedSinceBarrier.begin(), pinnedSinceBarrier.end());
    pinnedSinceBarrier.clear();
    lastBarrier = int(i);
  } else if (view.has(o, kPinned)) {
    pinnedSinceBarrier.push_back(i);
  }
}

/// The edges by their source (users) and the in-degree of every main op.
void CanonicalView::BlockScheduler::buildUsers() {
  size_t n = mainOps.size();
  userStart.assign(n + 1, 0);
  users.resize(preds.size());
  indegree.resize(n);
  for (unsigned p : preds)
    ++userStart[p + 1];
  for (size_t i = 0; i < n; ++i) {
    userStart[i + 1] += userStart[i];
    indegree[i] = predStart[i + 1] - predStart[i];
  }
  LargeVector<unsigned> fill(userStart.begin(), userStart.end() - 1);
  for (unsigned i = 0; i < n; ++i)
    for (unsigned k = predStart[i]; k < predStart[i + 1]; ++k)
      users[fill[preds[k]]++] = i;
}

//===--- Wires ------------------------------------------------------------===//

/// Wires: the static index a qubit was extracted from, carried through
/// gates (out qubit k continues in qubit k). Kept in the value scratch,
/// marked by a fresh stamp (the keys there are not needed any more).
void CanonicalView::BlockScheduler::traceWires() {
  wstamp = ++view.currentKeyStamp;
  for (Idx o : list) {
    if (std::optional<VAccess> a = view.access(o)) {
      if (!a->isInsert && a->hasStatic)
        setWire(a->result, a->staticIdx);
      continue;
    }
    if (isGate(o)) {
      const GateInfo &gi = view.gateInfo(o);
      for (unsigned k = 0; k < view.ops[o].numOperands; ++k)
        if (gi.outFor[k] >= 0)
          if (int64_t w = wireOfValue(view.operand(o, k)); w >= 0)
            setWire(view.ops[o].firstResult + gi.outFor[k], w);
    } else if (view.ops[o].numRegions && view.ops[o].numResults) {
      setRegionWires(o);
    }
  }
}

/// A value yielded by a nested block, followed back through its gates to a
/// value of this block.
int64_t CanonicalView::BlockScheduler::wireBehind(Idx v) {
  for (unsigned step = 0; step < 256; ++step) {
    if (int64_t w = wireOfValue(v); w >= 0)
      return w;
    Idx d = view.definingOp(v);
    if (d == kNone || !isGate(d))
      return -1;
    const GateInfo &gi = view.gateInfo(d);
    const auto *k = llvm::find(gi.outFor, int32_t(v - view.ops[d].firstResult));
    if (k == gi.outFor.end())
      return -1;
    v = view.operand(d, unsigned(k - gi.outFor.begin()));
  }
  return -1;
}

/// A region op's result j continues the wire of the operand aligned with it
/// from the end (scf.for's iter_args), else of what its first block yields
/// (scf.if): measurement feedback keeps its wires, so its rounds come out
/// alike.
void CanonicalView::BlockScheduler::setRegionWires(Idx o) {
  const OpRec &rec = view.ops[o];
  RegionRec reg = view.regions[rec.firstRegion];
  const LargeVector<Idx> &body = view.blocks[reg.firstBlock].ops;
  Idx yield =
      reg.numBlocks && !body.empty() && view.has(body.back(), kTerminator) ? body.back() : kNone;
  unsigned nOps = rec.numOperands, nRes = rec.numResults;
  for (unsigned j = 0; j < nRes; ++j) {
    int64_t w = nOps >= nRes ? wireOfValue(view.operand(o, nOps - nRes + j)) : -1;
    if (w < 0 && yield != kNone && j < view.ops[yield].numOperands)
      w = wireBehind(view.operand(yield, j));
    if (w >= 0)
      setWire(rec.firstResult + j, w);
  }
}

/// The lowest wire an op touches (-1: none), the schedule's third key.
int64_t CanonicalView::BlockScheduler::wireOfOp(Idx o) {
  if (std::optional<VAccess> a = view.access(o))
    return a->isInsert ? wireOfValue(a->qubit) : (a->hasStatic ? a->staticIdx : -1);
  int64_t w = -1;
  if (view.ops[o].numRegions && !isGate(o)) {
    for (unsigned j = 0; j < view.ops[o].numResults; ++j)
      if (int64_t x = wireOfValue(view.ops[o].firstResult + j); x >= 0 && (w < 0 || x < w))
        w = x;
    return w;
  }
  if (isGate(o)) {
    const GateInfo &gi = view.gateInfo(o);
    auto consider = [&](unsigned begin, unsigned size) {
      for (unsigned k = begin; k < begin + size; ++k)
        if (int64_t x = wireOfValue(view.operand(o, k)); x >= 0 && (w < 0 || x < w))
          w = x;
    };
    consider(gi.inBegin, gi.inSize);
    consider(gi.ctrlBegin, gi.ctrlSize);
  }
  return w;
}

//===--- The order --------------------------------------------------------===//

bool CanonicalView::BlockScheduler::Worse::operator()(const Item &a, const Item &b) const {
  if (a.ordered != b.ordered)
    return a.ordered;
  if (a.recency != b.recency)
    return a.recency < b.recency;
  if (a.rank != b.rank)
    return a.rank > b.rank;
  if (a.wire != b.wire)
    return a.wire > b.wire;
  if (a.key != b.key)
    return a.key > b.key;
  return a.idx > b.idx;
}

/// Orders the main ops into mainOrder; false if they have no topological
/// order (the block is then left as it is).
bool CanonicalView::BlockScheduler::orderMainOps() {
  buildEdges(/*withReads=*/true);
  buildUsers();
  if (sortMain())
    return true;
  // Reads after their consumer in the input that must stay there (the
  // input is not linear): order as without the read edges.
  if (readers.empty())
    return false; // a use before its definition (graph-like block): leave it
  buildEdges(/*withReads=*/false);
  buildUsers();
  return sortMain();
}

/// The topological sort by priority; false on a cycle.
bool CanonicalView::BlockScheduler::sortMain() {
  size_t n = mainOps.size();
  pos.assign(n, -1);
  std::priority_queue<Item, LargeVector<Item>, Worse> ready;
  for (unsigned i = 0; i < n; ++i)
    if (indegree[i] == 0)
      ready.push(makeItem(i));
  mainOrder.clear();
  mainOrder.reserve(n);
  int counter = 0;
  while (!ready.empty()) {
    Item it = ready.top();
    ready.pop();
    pos[it.idx] = counter++;
    mainOrder.push_back(mainOps[it.idx]);
    for (unsigned k = userStart[it.idx]; k < userStart[it.idx + 1]; ++k)
      if (--indegree[users[k]] == 0)
        ready.push(makeItem(users[k]));
  }
  return mainOrder.size() == n;
}

/// Main op `i` once it is ready: its recency is the latest place of a
/// producer it depends on for data or effects.
CanonicalView::BlockScheduler::Item CanonicalView::BlockScheduler::makeItem(unsigned i) {
  int recency = -1;
  for (unsigned k = predStart[i]; k < recencyEnd[i]; ++k)
    recency = std::max(recency, pos[preds[k]]);
  Idx o = mainOps[i];
  return Item{view.isOrdered(o), recency,        view.nameRank[view.ops[o].name],
              wireOfOp(o),       view.opKeys[o], i};
}

/// Interleave floating ops: each right before its first user, its own
/// floating operands first (operand order).
void CanonicalView::BlockScheduler::interleaveFloating() {
  order.reserve(list.size());
  for (Idx o : list) // constants stay first, in their order
    if (view.has(o, kConst) && o != terminator)
      order.push_back(o);
  placed.assign(floatingOps.size(), 0);
  for (Idx o : mainOrder) {
    placeOperandsOf(o);
    order.push_back(o);
  }
  if (terminator != kNone)
    placeOperandsOf(terminator);
  for (Idx o : list) // floating ops without users in this block
    if (isFloating(o) && !placed[floatingIndex(o)])
      place(o);
  if (terminator != kNone)
    order.push_back(terminator);
}

void CanonicalView::BlockScheduler::place(Idx f) {
  uint32_t fi = floatingIndex(f);
  if (placed[fi])
    return;
  placed[fi] = 1;
  for (unsigned k = 0; k < view.ops[f].numOperands; ++k)
    if (Idx p = producerInBlock(view.operand(f, k)); p != kNone && isFloating(p))
      place(p);
  order.push_back(f);
}

/// Places the floating producers of `o`'s operands and captures.
void CanonicalView::BlockScheduler::placeOperandsOf(Idx o) {
  auto placeProducer = [&](Idx v) {
    if (Idx p = producerInBlock(v); p != kNone && isFloating(p))
      place(p);
  };
  for (unsigned k = 0; k < view.ops[o].numOperands; ++k)
    placeProducer(view.operand(o, k));
  if (view.ops[o].numRegions)
    for (Capture c : view.capturesOf(o))
      placeProducer(c.value);
}

} // namespace qshape::fpview
