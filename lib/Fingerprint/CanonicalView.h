//===- CanonicalView.h - the canonical form's engine ------------*- C++ -*-===//
//
// The one engine of the canonical form. A view of an op tree is a compact
// shadow of it (ops, blocks and SSA values as dense indices) on which the
// rules run (CanonicalRules.cpp, listed in CanonicalRules.def) without
// touching the IR: a replaced value is forwarded to its replacement, an
// erased op is marked dead, a rewritten register access gets a new operand
// list and header, and blocks get new op orders. Fingerprints encode the
// view (Fingerprint.cpp); canonicalize() (CanonicalForm.cpp) writes it
// back to the IR (materialize), which is how `qshape-canonicalize` runs.
//
// The rules edit the view only through the edits below (replaceAllUses,
// setOperand, eraseOperand, erase, overrideAttr, new block orders), and
// materialize() replays exactly those: a new rule made of them needs nothing
// else.
//
// Memory traffic, not computation, bounds the cost on large modules, so the
// shadow is small (per op a 48-byte record and, apart, the 8 bytes the
// rules' sweeps read; a few words per value), grows without copying, and
// the scratch arrays of the rules are shared.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_LIB_FINGERPRINT_CANONICALVIEW_H
#define QSHAPE_LIB_FINGERPRINT_CANONICALVIEW_H

#include "qshape/Fingerprint/CanonicalForm.h"
#include "qshape/Fingerprint/Encoding.h"
#include "qshape/GateView/Barriers.h"
#include "qshape/GateView/GateView.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/MemAlloc.h"
#include "llvm/Support/Memory.h"

#include <cstdlib>
#include <memory>
#include <new>
#include <optional>
#include <type_traits>
#include <vector>

namespace qshape::fpview {

using Idx = uint32_t;
constexpr Idx kNone = ~Idx(0);

/// Large arrays (1 MiB and more) come straight from the OS: after MLIR has
/// parsed a large module, malloc's path for large requests walks the heap
/// the parser left behind, a few milliseconds per call. Smaller ones come
/// from malloc: a map, its page faults and an unmap for each of a view's
/// arrays cost more than canonicalizing a small function (64 KiB was the
/// bound before; rolling 100 functions of 310 ops took 0.32-0.51 s, now
/// 0.18-0.24 s).
void *allocateLarge(size_t bytes);
void deallocateLarge(void *p, size_t bytes);

template <typename T> struct LargeAllocator {
  using value_type = T;
  LargeAllocator() = default;
  template <typename U> LargeAllocator(const LargeAllocator<U> &) {}
  T *allocate(size_t n) { return static_cast<T *>(allocateLarge(n * sizeof(T))); }
  void deallocate(T *p, size_t n) { deallocateLarge(static_cast<void *>(p), n * sizeof(T)); }
  template <typename U> bool operator==(const LargeAllocator<U> &) const { return true; }
  template <typename U> bool operator!=(const LargeAllocator<U> &) const { return false; }
};
template <typename T> using LargeVector = std::vector<T, LargeAllocator<T>>;

/// An append-only array of segments of doubling size: elements never move,
/// and memory is touched once, as it is filled (a growing std::vector copies
/// everything at each doubling, which costs more than the work on large
/// modules).
template <typename T, unsigned Log2First = 10> class SegmentedArray {
public:
  SegmentedArray() = default;
  SegmentedArray(const SegmentedArray &) = delete;
  SegmentedArray &operator=(const SegmentedArray &) = delete;
  ~SegmentedArray() {
    if constexpr (!std::is_trivially_destructible_v<T>)
      for (size_t i = 0; i < n; ++i)
        (*this)[i].~T();
    size_t len = size_t(1) << Log2First;
    for (size_t i = 0; i < segments.size(); ++i) {
      deallocateLarge(segments[i], len * sizeof(T));
      if (i)
        len *= 2;
    }
  }
  T &operator[](size_t i) { return *slot(i); }
  const T &operator[](size_t i) const { return *const_cast<SegmentedArray *>(this)->slot(i); }
  size_t size() const { return n; }
  // The standard container names, as LLVM's containers keep them.
  // NOLINTNEXTLINE(readability-identifier-naming)
  T &emplace_back() {
    if (n == capacity) {
      size_t len = segments.empty() ? size_t(1) << Log2First : capacity;
      segments.push_back(static_cast<T *>(allocateLarge(len * sizeof(T))));
      capacity += len;
    }
    T *p = slot(n++);
    return *new (p) T();
  }
  void push_back(const T &v) { emplace_back() = v; } // NOLINT(readability-identifier-naming)

private:
  T *slot(size_t i) {
    if (i < (size_t(1) << Log2First))
      return segments[0] + i;
    unsigned l = 63 - __builtin_clzll(i); // segment k >= 1 holds [2^l, 2^(l+1))
    return segments[l - Log2First + 1] + (i - (size_t(1) << l));
  }
  std::vector<T *> segments;
  size_t n = 0, capacity = 0;
};

/// The encoded header of an op (name, attributes, result types): exact
/// (float bits) and shape (float values abstracted), as
/// StructuralEncoder::encodeOpHeader writes them.
struct HeaderBytes {
  llvm::StringRef exact, shape;
};

class CanonicalView {
public:
  /// Builds the shadow of `root`. Values used inside `root` but defined
  /// outside it are the view's external values (only their types count).
  /// Returns null, with an error at `root`, when the tree exceeds the view's
  /// limits (2^31 ops, values or blocks, 2^16 op names).
  /// `texts`, if given, holds and receives the printed types and attributes.
  static std::unique_ptr<CanonicalView> build(mlir::Operation *root, EncoderTexts *texts = nullptr);

  /// Applies the canonical form to every function-like op of the view, rule
  /// by rule as CanonicalRules.def orders them.
  void canonicalize();

  /// Rewrites the IR into what the view shows (after canonicalize()). Fails
  /// only if the view is inconsistent (an internal error, reported at the op;
  /// the IR is then partly rewritten and the pass fails). Adds the rules'
  /// counts to `stats`. Without `sortFloatConstants`, float constants keep
  /// the order the constants rule found them in.
  mlir::LogicalResult materialize(CanonicalizeStats &stats, bool sortFloatConstants = true);

  /// The rules, in table order.
  static llvm::ArrayRef<CanonicalRuleInfo> rules();
  /// The blocks after materialize(), as BlockOrder describes them.
  void blockOrder(BlockOrder &order);

  //===--- Read access for the encoder (after canonicalize()) ------------===//

  /// What the rules' sweeps over blocks read of nearly every op, apart from
  /// the rest of its record: on large blocks a sweep then streams 8 bytes
  /// per op instead of the whole record.
  struct OpState {
    Idx block = kNone; ///< parent block in the view (kNone for the root)
    uint16_t flags = 0;
    QOpKind kind = QOpKind::NotQuantum;
    bool alive = true;
  };
  struct OpRec {
    mlir::Operation *op = nullptr;
    Idx firstResult = 0;  ///< value index of result 0
    Idx operandBegin = 0; ///< into operandValues
    uint32_t numOperands = 0;
    Idx firstRegion = 0;  ///< into regions
    Idx header = kNone;   ///< HeaderBytes index (kFastFloat: shape bytes only)
    Idx identity = kNone; ///< header identity (kNone: not interned by identity)
    Idx aux = kNone;      ///< float constant: floatValues; extract/insert: staticIdxs
    uint32_t numResults = 0;
    uint16_t name = 0; ///< NameInfo index
    uint16_t numRegions = 0;
    uint16_t numSuccessors = 0;
    int8_t ordered = -1; ///< memo of isOrdered (-1: not computed)
    bool hasStaticIdx = false;
  };
  struct BlockRec {
    mlir::Block *block = nullptr;
    Idx parentOp = kNone;
    Idx firstArg = 0; ///< value index of argument 0
    uint32_t numArgs = 0;
    uint32_t barriers = 0; ///< barriers among its ops (counted while building)
    LargeVector<Idx> ops;  ///< op order (after canonicalize(): exactly the live ops)
  };
  struct RegionRec {
    Idx firstBlock = 0;
    uint32_t numBlocks = 0;
  };
  /// RegisterAccess on the view (value indices after replacements).
  struct VAccess {
    Idx op = kNone, reg = kNone, dynamicIdx = kNone, qubit = kNone, result = kNone;
    bool hasStatic = false, isInsert = false;
    int64_t staticIdx = 0;
  };

  enum Flags : uint16_t {
    kConst = 1,      ///< isConstantOp
    kFloatConst = 2, ///< isFloatConstant
    kMergeable = 4,  ///< isMergeable (computed for non-constants only)
    kTerminator = 8,
    kIsolated = 16,
    kEditable = 32, ///< mayEditRegionsOf (ops with regions)
    kFuncLike = 64,
    kFastFloat = 128,     ///< arith.constant of a FloatAttr: no exact header bytes
    kBarrier = 256,       ///< qshape::isBarrier (Barriers.h)
    kPinned = 512,        ///< qshape::isPinnedByBarriers
    kPinnedInside = 1024, ///< an op nested in it is kPinned
  };

  const OpRec &op(Idx i) const { return ops[i]; }
  const BlockRec &block(Idx i) const { return blocks[i]; }
  const RegionRec &region(Idx i) const { return regions[i]; }
  const HeaderBytes &header(Idx i) const { return headers[i]; }
  bool has(Idx o, uint16_t f) const { return state[o].flags & f; }
  size_t numValues() const { return valueDef.size(); }
  /// The op defining value `v` (kNone for block arguments and external values).
  Idx definingOp(Idx v) const { return valueDef[v] & kArgBit ? kNone : valueDef[v]; }
  mlir::Value value(Idx v) const;
  /// Operand `i` of op `o`, after replacements.
  Idx operand(Idx o, unsigned i) { return resolve(operandValues[ops[o].operandBegin + i]); }
  /// Index of a block of the tree, kNone if it is not in the tree.
  Idx blockIndex(mlir::Block *b) const { return blockIndices.lookup(b); }
  /// The `value` attribute of a float constant.
  mlir::Attribute constValue(Idx o) const { return floatValues[ops[o].aux]; }
  /// A per-value scratch array, free once canonicalize() has returned.
  LargeVector<uint64_t> takeValueScratch() { return std::move(valueScratch); }

private:
  CanonicalView() = default;

  static constexpr Idx kArgBit = 0x80000000u; ///< valueDef of a block argument
  /// valueDef of an external value (with kArgBit): index into externalValues.
  static constexpr Idx kExternalBit = 0x40000000u;

  struct NameInfo {
    llvm::StringRef name;
    QOpKind kind;
    bool registered, constantLike, terminator, isolated, funcLike;
    int fastConstant; ///< arith.constant fast path: 1 yes, 0 unverified, -1 no
  };
  struct GateInfo {
    llvm::SmallVector<int32_t, 4> outFor; ///< result number per operand, or -1
    unsigned inBegin = 0, inSize = 0, ctrlBegin = 0, ctrlSize = 0;
  };

  // Building.
  static std::unique_ptr<CanonicalView> buildShadow(mlir::Operation *root, EncoderTexts *texts);
  bool addOp(mlir::Operation *op, Idx parentBlock);
  /// addOp for the blocks of op `o`'s regions and the ops in them.
  bool addRegions(Idx o, mlir::Operation *op);
  int nameInfo(mlir::Operation *op);
  Idx lookupValue(mlir::Value v);
  unsigned recentSlot(mlir::Operation *op) const;
  /// Doubles recentOps (up to kRecent slots), with the ops added last.
  void growRecent();
  void computeHeader(Idx o);
  Idx internHeader(const ByteSink &exact, const ByteSink &shape);
  Idx identityOf(mlir::Operation *op);
  uint64_t constKey(Idx o) const;

  // Value replacement and use counts.
  Idx resolve(Idx v) {
    while (repl[v] != v) {
      repl[v] = repl[repl[v]];
      v = repl[v];
    }
    return v;
  }
  void replaceAllUses(Idx from, Idx to);
  void setOperand(Idx o, unsigned i, Idx v);
  void eraseOperand(Idx o, unsigned i);
  void erase(Idx o);
  bool useEmpty(Idx o) const;
  bool isOrdered(Idx o);
  int64_t staticIdx(Idx o) const { return staticIdxs[ops[o].aux]; }
  /// Two extract/insert ops in one block with no barrier between them.
  bool sameSegment(Idx a, Idx b) const {
    return state[a].block == state[b].block && accessEpochs[ops[a].aux] == accessEpochs[ops[b].aux];
  }
  std::optional<VAccess> access(Idx o);
  std::optional<VAccess> accessOfDef(Idx v) {
    Idx d = definingOp(v);
    return d == kNone ? std::nullopt : access(d);
  }
  void overrideAttr(Idx o, llvm::StringRef attrName, int64_t value);
  void sortFloatConstants(LargeVector<Idx> &list);
  const GateInfo &gateInfo(Idx o);

  // Traversals (over the view).
  /// The live ops of block `b`, in order (constants hoisted out of `b` are
  /// still listed there until compaction and are skipped).
  template <typename Fn> void forEachOpIn(Idx b, Fn fn) {
    // Index loop: `fn` may erase ops but never edits the list.
    for (size_t i = 0; i < blocks[b].ops.size(); ++i) {
      Idx o = blocks[b].ops[i];
      if (state[o].alive && state[o].block == b)
        fn(o);
    }
  }
  void forEachEditableBlock(Idx root, llvm::function_ref<void(Idx)> fn);
  void collectPostOrder(Idx o, llvm::function_ref<void(Idx)> fn);
  void compactBlocksUnder(Idx o);

  // The engine (CanonicalRules.cpp): the rules of CanonicalRules.def on one
  // function-like op, and their helpers (the schedule's: BlockScheduler.cpp).
  void runOn(Idx func);
#define CANONICAL_RULE(Method, ...) unsigned Method();
#include "CanonicalRules.def"
  struct Rule;
  static const Rule kRules[];
  static constexpr unsigned kNumRules = 0
#define CANONICAL_RULE(...) +1 // NOLINT(bugprone-macro-parentheses): a term of the sum
#include "CanonicalRules.def"
      ;
  void computeKeys(Idx b);
  uint64_t opKey(Idx o);
  void argKey(Idx v, unsigned argNumber);
  /// Gives block `b` its canonical order; returns whether it changed.
  bool scheduleBlock(Idx b);
  class BlockScheduler; ///< scheduleBlock's state (BlockScheduler.cpp)
  /// A use, by an op nested in a region op, of a value defined outside it.
  struct Capture {
    Idx value;
    bool read; ///< by an observable or as an extract's register
  };
  /// The captures of region op `o`, each once, computed bottom-up and kept
  /// for the schedule: asked for at every level of a nest, a walk of the
  /// whole body each time would be quadratic in the depth.
  llvm::ArrayRef<Capture> capturesOf(Idx o);
  bool definedInside(Idx v, Idx o) const;
  void numberOps(Idx o, uint32_t &counter);
  /// The extract/insert ops under the function, by the register they use
  /// (as resolved when listed).
  struct RegisterUsers {
    LargeVector<Idx> regs, users; ///< sorted by register
    llvm::ArrayRef<Idx> of(Idx reg) const;
  };
  RegisterUsers registerUsers();
  bool onlyObserver(const VAccess &c, const VAccess &e, const RegisterUsers &users);
  llvm::DenseMap<Idx, Idx> soleObservers(const RegisterUsers &users);
  struct ChainStep {
    Idx value;                       ///< a register value of the chain
    unsigned position;               ///< 0 where the chain starts
    std::optional<VAccess> producer; ///< the insert whose result it is (none at 0)
    llvm::ArrayRef<Idx> users;       ///< its extract/insert users
    std::optional<VAccess> next;     ///< the insert that consumes it
    bool branches;                   ///< more than one insert consumes it
  };
  void forEachChain(const RegisterUsers &users, llvm::function_ref<void(const ChainStep &)> visit);
  std::optional<VAccess> lastStoreOf(const VAccess &a, Idx reg);

  // The tree.
  SegmentedArray<OpRec, 12> ops;
  SegmentedArray<OpState, 12> state; ///< parallel to `ops`
  LargeVector<BlockRec> blocks;
  LargeVector<RegionRec> regions;
  SegmentedArray<Idx, 12> operandValues;
  llvm::DenseMap<mlir::Block *, Idx> blockIndices;
  LargeVector<mlir::Value> externalValues; ///< used inside the root, defined outside
  LargeVector<std::pair<Idx, mlir::Value>> pendingOperands;
  LargeVector<mlir::Attribute> floatValues;
  LargeVector<int64_t> staticIdxs;
  LargeVector<uint32_t> accessEpochs; ///< per extract/insert: barriers before it in its block
  /// The recent-ops cache (a power of two): kRecentFirst slots, doubled
  /// whenever the view holds as many ops, up to kRecent (clearing 4096
  /// slots at once cost a 400-op function 5 % of its roll: the canonical
  /// form builds a view several times per roll).
  static constexpr unsigned kRecentFirst = 256, kRecent = 4096;
  LargeVector<std::pair<mlir::Operation *, Idx>> recentOps;
  /// While building: isOrdered/isBarrier of the nest, each body walked once
  /// (asked at every level, the free functions walk it once per level).
  std::optional<DeepFacts> buildFacts;

  // Values.
  SegmentedArray<Idx, 12> valueDef; ///< defining op, or block | kArgBit
  LargeVector<Idx> repl;
  LargeVector<uint32_t> uses;

  // Names and headers.
  LargeVector<NameInfo> names;
  llvm::DenseMap<const void *, uint16_t> nameIndices;
  const void *lastName = nullptr;
  uint16_t lastNameIdx = 0;
  LargeVector<HeaderBytes> headers;
  llvm::StringMap<Idx, llvm::BumpPtrAllocator> exactHeaders;
  llvm::StringMap<char, llvm::BumpPtrAllocator> shapeHeaders;
  struct IdentityKey {
    mlir::Operation *op;
    unsigned hash;
  };
  struct IdentityKeyInfo {
    static IdentityKey getEmptyKey();
    static IdentityKey getTombstoneKey();
    static unsigned getHashValue(const IdentityKey &k) { return k.hash; }
    static bool isEqual(const IdentityKey &a, const IdentityKey &b);
  };
  llvm::DenseMap<IdentityKey, Idx, IdentityKeyInfo> identities;
  LargeVector<Idx> identityHeader;
  Idx lastIdentity[4] = {kNone, kNone, kNone, kNone};
  LargeVector<mlir::Operation *> identityOp;
  llvm::DenseMap<std::pair<Idx, int64_t>, Idx> overriddenHeaders;
  llvm::DenseMap<mlir::Type, Idx> fastShapeHeaders; ///< by the value's type
  llvm::DenseMap<std::pair<Idx, unsigned>, std::unique_ptr<GateInfo>> gateInfos;
  StructuralEncoder exactEncoder{/*abstractFloats=*/false};
  StructuralEncoder shapeEncoder{/*abstractFloats=*/true};
  mlir::StringAttr valueName;

  // Recorded by build, in Operation::walk (post-)order: the function-like
  // ops, and the register ops (extract/insert/alloc) with, per function-like
  // op, the range of them nested in it.
  LargeVector<Idx> postFuncs;
  LargeVector<Idx> postAccess;
  llvm::DenseMap<Idx, std::pair<Idx, Idx>> accessRange;

  // Edits materialize() replays on the IR: attributes set (overrideAttr),
  // and ops whose operand list was edited in place (setOperand,
  // eraseOperand); value replacements are in `repl`, erasures in `alive`,
  // orders in the blocks.
  struct AttrEdit {
    Idx op;
    llvm::StringRef name;
    int64_t value;
  };
  llvm::SmallVector<AttrEdit> attrEdits;
  LargeVector<Idx> dirtyOps;
  LargeVector<Idx> hoistEntries;         ///< entry blocks hoistConstants rebuilt
  llvm::DenseMap<Idx, Idx> hoistedFrom;  ///< constant -> its block in the IR
  llvm::SmallVector<uint64_t, 8> counts; ///< rewrites per rule, in table order

  // Per-function state of the rules.
  Idx func = kNone;
  llvm::ArrayRef<Idx> accessOps; ///< extract/insert/alloc under func, post-order
  /// Edits so far (moves excluded); a rule that changed nothing is not run
  /// again until something was edited (it would change nothing again).
  uint64_t edits = 0;
  llvm::SmallVector<uint64_t, 8> quietAt; ///< per rule: `edits` when it last changed nothing
  unsigned runRule(unsigned i);

  // Scratch, sized once. Per value: the ordering keys of scheduleBlocks
  // (with keyStamp telling the ones of the current function), then the
  // wires of scheduleBlock (with a fresh stamp); the encoder reuses it for
  // value numbers. Per op: the ordering keys, and the slot of an op in the
  // block being scheduled.
  LargeVector<uint64_t> valueScratch;
  LargeVector<uint32_t> keyStamp;
  uint32_t currentKeyStamp = 0;
  LargeVector<uint32_t> readStamp; ///< per value: read in the block being scheduled
  uint32_t currentReadStamp = 0;
  LargeVector<uint64_t> opKeys;
  LargeVector<uint32_t> opSlot; ///< kNone outside scheduleBlock
  LargeVector<uint32_t> nameRank;
  /// Per op, during scheduleBlocks: pre-order number and the last number of
  /// its subtree (ancestry in O(1)), and the memo of capturesOf.
  LargeVector<uint32_t> subtreeBegin, subtreeEnd;
  llvm::DenseMap<Idx, llvm::SmallVector<Capture, 4>> captureMemo;
};

} // namespace qshape::fpview

#endif // QSHAPE_LIB_FINGERPRINT_CANONICALVIEW_H
