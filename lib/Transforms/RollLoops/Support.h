//===- Support.h - qshape-roll-loops: shared predicates and helpers -*- C++ -*-===//
//
// What the roller's components agree on: which ops may be in a loop body,
// which float freely, the marker on the loops the pass creates, and the
// memory helpers that large blocks need (prefetching, a position table, a
// map of recently made values).
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TRANSFORMS_ROLLLOOPS_SUPPORT_H
#define QSHAPE_TRANSFORMS_ROLLLOOPS_SUPPORT_H

#include "qshape/GateView/Barriers.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace qshape::roll {

/// The canonical form's constant predicate, so both agree on what a constant is.
bool isConstant(mlir::Operation *op);

/// The attribute the constant `v` is, or null. m_Constant asks every op for
/// its traits and folds it; a constant-like op has no operands, which is
/// cheaper to ask first, and arith.constant holds its value.
mlir::Attribute constantValue(mlir::Value v);

/// Pure, region-free, registered, non-quantum: may be hoisted freely.
bool isFloatingPure(mlir::Operation *op);

/// The roller's rules for the ops of one nest, each body walked once
/// however deep (qshape::NestedRule, and its rule on when the answers hold:
/// clear() after ops are created or erased).
class RollFacts {
public:
  RollFacts();
  RollFacts(const RollFacts &) = delete; // its rule refers to `deep`
  RollFacts &operator=(const RollFacts &) = delete;
  /// Ops a loop body may contain: ops without side effects, and the
  /// quantum ops whose effects we know (a global phase, a mid-circuit
  /// measurement), which keep their order because the loop runs the copies
  /// in order.
  bool isRollable(mlir::Operation *op);
  void clear();

  DeepFacts deep;

private:
  NestedRule unfitInside; ///< a nested op a loop body may not hold
};

/// Whether two ops are alike but for their operands and regions: name,
/// properties, attributes, result types, operand and region counts.
bool sameOpShape(mlir::Operation *a, mlir::Operation *b);

/// Marks the loops this pass creates until it finishes, so verify-roundtrip
/// unrolls those and leaves the program's own loops alone.
constexpr llvm::StringLiteral kRolledMarker = "qshape.rolled";

/// The values the regions of `op` use but do not define, in the order of
/// their first use (so isomorphic ops list them alike); empty without
/// regions. `nested` receives the number of ops in the regions.
llvm::SmallVector<mlir::Value> capturedValues(mlir::Operation *op, int64_t *nested = nullptr);

inline uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h;
}

/// How far ahead loops over large blocks prefetch (in ops): enough to cover
/// a memory access with the work on the ops in between.
constexpr unsigned kAhead = 8;

/// For a loop at `ops[i]` that reads each op's operands, moving by `step`
/// (+1 or -1): prefetches the op 2 * kAhead steps ahead and the values the
/// op kAhead steps ahead uses (its producers' results). On large blocks
/// each of those reads is otherwise a cache miss taken one at a time.
void prefetchAhead(llvm::ArrayRef<mlir::Operation *> ops, size_t i, int step = 1);

/// A pointer's bits spread over the high ones (Fibonacci hashing): the
/// slot of a pointer in the direct tables below is taken from the top bits.
inline uint64_t spreadPointer(const void *p) {
  return uint64_t(reinterpret_cast<uintptr_t>(p)) * 0x9E3779B97F4A7C15ull;
}

/// Positions of the ops of a block scan: an open-addressing table whose
/// slots can be prefetched while it is filled (on large blocks every insert
/// and lookup of a node-keyed map is a cache miss).
class OpPositions {
public:
  void assign(llvm::ArrayRef<mlir::Operation *> ops);
  std::optional<unsigned> lookup(mlir::Operation *op) const {
    for (size_t h = slotOf(op);; h = (h + 1) & (slots.size() - 1)) {
      if (slots[h].first == op)
        return slots[h].second;
      if (!slots[h].first)
        return std::nullopt;
    }
  }

private:
  size_t slotOf(mlir::Operation *op) const { return size_t(spreadPointer(op) >> shift); }
  std::vector<std::pair<mlir::Operation *, unsigned>> slots;
  unsigned shift = 64;
};

/// A map from the values of a block walked in order to what the walk made
/// of them (a qubit's wire, a value's copy), for values that are mostly read
/// a few ops after they are made: a small direct-mapped table holds them,
/// and only those a collision pushes out go to a map. Reads with take()
/// forget, which keeps the table for values still to be read. (A map of
/// every value of a block of 10^6 ops misses the cache on every access, and
/// sizing one for them touches tens of megabytes.) The table starts small
/// and doubles with the values set, up to kRecent slots: a small function
/// touches little fresh memory.
template <typename T> class RecentValueMap {
public:
  RecentValueMap() : recent(kFirst) {}
  void set(mlir::Value v, T to) {
    if (++sets > recent.size() && recent.size() < kRecent)
      grow();
    if (!spilled.empty())
      spilled.erase(v.getAsOpaquePointer()); // pushed out before: its slot holds it now
    Slot &slot = recent[slotOf(v.getAsOpaquePointer())];
    if (slot.key && slot.key != v.getAsOpaquePointer())
      spilled[slot.key] = slot.value;
    slot = {v.getAsOpaquePointer(), to};
  }
  /// What `v` maps to, if anything.
  std::optional<T> lookup(mlir::Value v) const {
    const Slot &slot = recent[slotOf(v.getAsOpaquePointer())];
    if (slot.key == v.getAsOpaquePointer())
      return slot.value;
    if (spilled.empty())
      return std::nullopt;
    auto it = spilled.find(v.getAsOpaquePointer());
    return it == spilled.end() ? std::nullopt : std::optional<T>(it->second);
  }
  /// lookup(v), and `v` forgotten.
  std::optional<T> take(mlir::Value v) {
    Slot &slot = recent[slotOf(v.getAsOpaquePointer())];
    if (slot.key == v.getAsOpaquePointer()) {
      slot.key = nullptr;
      return slot.value;
    }
    if (spilled.empty())
      return std::nullopt;
    auto it = spilled.find(v.getAsOpaquePointer());
    if (it == spilled.end())
      return std::nullopt;
    T to = it->second;
    spilled.erase(it);
    return to;
  }

private:
  static constexpr size_t kFirst = 256, kRecent = 4096;
  struct Slot {
    void *key = nullptr;
    T value{};
  };
  size_t slotOf(const void *key) const {
    return size_t(spreadPointer(key) >> 32) & (recent.size() - 1);
  }
  void grow() {
    std::vector<Slot> old(2 * recent.size());
    old.swap(recent);
    for (Slot &slot : old)
      if (slot.key)
        recent[slotOf(slot.key)] = slot; // twice the slots: no collisions
  }
  std::vector<Slot> recent;
  llvm::DenseMap<void *, T> spilled;
  size_t sets = 0;
};

} // namespace qshape::roll

#endif // QSHAPE_TRANSFORMS_ROLLLOOPS_SUPPORT_H
