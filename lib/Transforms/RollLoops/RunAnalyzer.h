//===- RunAnalyzer.h - qshape-roll-loops: run classification ----*- C++ -*-===//
//
// Decides whether k copies of a p-op body starting at a position of a block
// scan can be one loop, and how (RunPlan): every operand of every body op
// must be internal, carried, invariant, affine, a table or a wire read.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TRANSFORMS_ROLLLOOPS_RUNANALYZER_H
#define QSHAPE_TRANSFORMS_ROLLLOOPS_RUNANALYZER_H

#include "RunPlan.h"
#include "Support.h"

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace qshape::roll {

using llvm::ArrayRef;
using llvm::SmallVector;
using mlir::Operation;
using mlir::Type;
using mlir::Value;

/// What the copies of one operand read so far allow: the cases of
/// OperandPlan, tried in its order (Internal, Carried, Invariant, WireRead,
/// AffineInt/IntTable, FloatTable, Gather) but decided copy by copy.
struct OperandScan {
  bool internal = false, carried = false, anyInRun = false;
  bool allEqual = true, wireRead = true, allInt = true, allFloat = true;
  unsigned defOp = 0, defResult = 0; // Internal / Carried
  Value reg;                         // WireRead
  SmallVector<Value> vals;           // copy 0's first
  SmallVector<int64_t> wires, ints;
  Type type() const { return vals[0].getType(); }
};

/// What classify() found. A refusal says how many copies from the same
/// start passed the checks that read the run copy by copy (all of them when
/// `late`: the uses after the run failed), so that the driver tries that
/// many next instead of searching for them.
struct Verdict {
  Reject reason = Reject::None;
  unsigned copiesOk = 0;
  bool late = false;
  explicit operator bool() const { return reason == Reject::None; }
};

/// A refusal says how many copies from the start could still be a loop: the
/// driver tries that many next instead of searching for them.
inline Verdict refuse(Reject why, unsigned copiesOk, bool late = false) {
  Verdict verdict;
  verdict.reason = why;
  verdict.copiesOk = copiesOk;
  verdict.late = late;
  return verdict;
}

/// Where the ops of a block scan and the extracts left out of it stand
/// between the block's barriers (the number of barriers before them).
struct Segments {
  SmallVector<unsigned> ofOp; ///< aligned with the scan
  llvm::DenseMap<Operation *, unsigned> ofExtract;
};

class RunAnalyzer {
public:
  /// `segments` is null when the block has no barrier; `facts` are the
  /// roller's, kept across the blocks of a nest.
  RunAnalyzer(ArrayRef<Operation *> ops, const OpPositions &index, bool paramTables,
              const Segments *segments, RollFacts &facts)
      : ops(ops), index(index), paramTables(paramTables), segments(segments), facts(facts) {}

  /// Whether k copies of the p ops at `start` can be one loop, and how:
  /// slot by slot (classifyBySlot), else, with `byWire`, by wire.
  Verdict classify(unsigned start, unsigned period, unsigned copies, RunPlan &plan);
  /// Ops read so far by classify(), to bound the work per candidate.
  uint64_t work = 0;
  /// Whether classify() tries classifyByWire() on runs it refuses for their
  /// operands.
  bool byWire = false;

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
  /// The wire of result `res` of body op `j` in each copy, when it is a
  /// qubit read from a wire before the run (`reg`) and passed through gates.
  const SmallVector<int64_t> *wiresOf(RunPlan &plan, unsigned j, unsigned res, Value &reg);
  /// The write-back of result `res` of body op `j` (made on first use), or
  /// null when the copies do not leave it on distinct wires of one register.
  const RunPlan::WriteBack *writeBack(RunPlan &plan, unsigned j, unsigned res);
  /// Which register the write-backs go into: a chain the loop carries, or
  /// the register itself when nothing consumed it before the run.
  mlir::LogicalResult
  carryWriteBacks(RunPlan &plan,
                  const llvm::DenseMap<std::pair<unsigned, unsigned>, Value> &carried);
  /// Makes the loop carry plan.writeBackReg itself (newCarry), when nothing
  /// consumed it before the run.
  mlir::LogicalResult carryRegister(RunPlan &plan);
  /// By wire: the wire of qubit `v` read by an op at `near`, the wire its
  /// producer in the run left it on or the static wire it was extracted at
  /// before the run from `reg` (set by the first such read).
  std::optional<int64_t> wireOfQubit(Value v, unsigned near, Value &reg);
  /// By wire: whether body op `j` can be register-addressed; sets which of
  /// its operand slots are qubits.
  bool byWireBodyOp(unsigned j, llvm::SmallVectorImpl<bool> &qubitSlots);
  /// By wire: reads copy `c` of body op `j`; false when it does not fit.
  bool scanCopyByWire(unsigned c, unsigned j, ArrayRef<bool> qubitSlots,
                      llvm::MutableArrayRef<OperandScan> scans, Value &reg);
  /// By wire: the uses after the run, each a qubit re-read from the loop's
  /// register at its wire.
  mlir::LogicalResult planUsesAfterRunByWire(RunPlan &plan);
  /// The plan of a scanned operand; returns how many copies from the start
  /// it fits (all of them, or fewer when only a prefix is affine or equal).
  unsigned finishOperand(OperandScan &scan, OperandPlan &plan);
  /// Makes `plan` (whose perCopy holds the runtime values of each copy) a
  /// Recompute when every copy's value comes from the same pure op whose
  /// operands are invariant or constant.
  /// Operands that vary and are not constants are made again in turn, up
  /// to kMaxRecomputeDepth ops deep.
  mlir::LogicalResult recompute(OperandPlan &plan, unsigned depth = 0);
  static constexpr unsigned kMaxRecomputeDepth = 3;

  // The steps of classify(), in order.
  struct BodyLayout;
  struct UsesAfterRun;
  /// The init of each carried (producer, result): one iter_arg each.
  using CarriedInits = llvm::DenseMap<std::pair<unsigned, unsigned>, Value>;
  /// After classify()'s checks of the first copy: each operand slot of each
  /// body op planned on its own: internal, carried, invariant, affine, a
  /// table or a wire read.
  Verdict classifyBySlot(unsigned start, unsigned period, unsigned copies, RunPlan &plan);
  /// The analysis for a register-addressed body (RunPlan::byWire): each qubit
  /// slot is read from the carried register at the wire its qubit is on in
  /// that copy, and each gate writes its qubits back there. For copies whose
  /// qubits pass from one to the next by wire, which the slot-by-slot plan
  /// of classify() refuses when the producer's body position varies. The
  /// body may hold gates and pure ops, no regions or register ops; the
  /// qubits the run reads first are extracted before it at static wires.
  Verdict classifyByWire(unsigned start, unsigned period, unsigned copies, RunPlan &plan);
  /// Sets the run's bounds (start, period, copies, end).
  void setWindow(unsigned s, unsigned p, unsigned k);
  /// Sets the run's bounds and clears what an earlier candidate left in `plan`.
  void beginRun(unsigned s, unsigned p, unsigned k, RunPlan &plan);
  /// Where each body op's operand scans start (its operands, then the values
  /// its regions capture) and which body ops have a static register index.
  BodyLayout layOutBody(RunPlan &plan);
  /// Reads copy `c` of body op `j` into `scans`; false when it does not have
  /// copy 0's shape or one of its operands fits no case of OperandPlan.
  bool scanCopy(const BodyLayout &body, llvm::MutableArrayRef<OperandScan> scans, RunPlan &plan,
                unsigned c, unsigned j);
  /// Plans every operand and static index of the body; returns how many
  /// copies from the start all of them fit.
  unsigned planOperands(const BodyLayout &body, llvm::MutableArrayRef<OperandScan> scans,
                        RunPlan &plan);
  /// How the static index of a body op varies; returns how many copies from
  /// the start it fits.
  unsigned planIndex(IndexPlan &ip) const;
  /// Fails when one (producer, result) would carry two different inits.
  static mlir::LogicalResult collectCarriedInits(const RunPlan &plan, CarriedInits &inits);
  /// The furthest position in the scan at which a classical (not quantum)
  /// result of ops[i] is used, ~0u when a use is not in the scan (after the
  /// block, or at an op the scan leaves out); i when there is none.
  unsigned classicalReach(unsigned i);
  /// facts.isRollable(ops[i]), asked once per position.
  bool rollableAt(unsigned i);
  /// The first body op j of copy `c` with a classical result used after the
  /// run, or ~0u: a loop cannot return it (only a carried value of the last
  /// copy, which planUsesAfterRun allows), so no run of more than c copies
  /// from this start fits. Read before a copy is scanned: it refuses the
  /// common case (a run that ends between reads and their gates) without
  /// reading the whole run.
  unsigned classicalUseAfter(unsigned c);
  /// Decides how each use of a run result outside the run gets its value:
  /// a live-out of the loop, or a qubit re-read after it (externalized). On
  /// failure, sets `fewer` when runs of at most that many copies may fit.
  mlir::LogicalResult planUsesAfterRun(RunPlan &plan, const CarriedInits &carried,
                                       std::optional<unsigned> &fewer);
  mlir::LogicalResult planUseAfterRun(UsesAfterRun &uses, RunPlan &plan,
                                      const CarriedInits &carried, unsigned c, unsigned j,
                                      mlir::OpResult r, Operation *user);
  /// Whether `user` of result `r` of copy `c` of body op `j` is in the run;
  /// sets `pos` to its position when it had to be looked up.
  bool usedInRun(const UsesAfterRun &uses, unsigned c, unsigned j, mlir::OpResult r,
                 Operation *user, std::optional<unsigned> &pos) const;
  /// Plans the re-read after the run of qubit `r` of copy `c` (not the last,
  /// or not carried); `pos` is its user's position when known.
  mlir::LogicalResult externalize(UsesAfterRun &uses, RunPlan &plan, unsigned c, unsigned j,
                                  mlir::OpResult r, std::optional<unsigned> pos);
  /// The static wire at which copy `c` (not the last) inserts qubit `r`.
  std::optional<int64_t> wireInsertedInCopy(unsigned c, unsigned j, mlir::OpResult r) const;
  /// Fills the last-insert tables of `uses` (once).
  void findLastInserts(UsesAfterRun &uses);
  /// Fails when the loop cannot return what the uses after the run need.
  mlir::LogicalResult checkLoopResults(RunPlan &plan, const CarriedInits &carried);
  /// Ops the loop adds over the body it keeps (RunPlan::overhead).
  int64_t loopOverhead(const RunPlan &plan);

  ArrayRef<Operation *> ops;
  const OpPositions &index;
  bool paramTables;
  const Segments *segments;
  RollFacts &facts;
  unsigned start = 0, period = 0, copies = 0, end = 0;
  llvm::DenseMap<std::pair<unsigned, unsigned>, std::pair<SmallVector<int64_t>, Value>> wiresMemo;
  /// classicalReach() by position, plus one (0: not computed yet).
  SmallVector<unsigned> reachMemo;
  /// rollableAt() by position: 0 not asked yet, 1 yes, 2 no.
  SmallVector<uint8_t> rollableMemo;
  /// Position of the last insert at each static wire in the scan (made once).
  std::optional<llvm::DenseMap<int64_t, unsigned>> lastInsertPos;
  /// By wire: the wire of each qubit the run's ops made so far.
  llvm::DenseMap<Value, int64_t> wireOfValue;
  Type qubitType;
};

} // namespace qshape::roll

#endif // QSHAPE_TRANSFORMS_ROLLLOOPS_RUNANALYZER_H
