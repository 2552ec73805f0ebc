//===- ReplayCheck.h - qshape-roll-loops: the always-on self-check -*- C++ -*-===//
//
// Before a loop replaces the run it was built from, proves that iteration c
// does what copy c did, for every c: each body op is copy c's op (name,
// properties, attributes, result types, regions), each operand slot
// evaluates to copy c's value (integers and tables evaluated at c, values
// compared by identity, a wire read from a register gives the qubit of the
// last write at that wire, in this iteration or an earlier one, or what the
// run read from the same register), and each use after the run is served by
// the loop. It reads the IR the builder made and the run itself, not the
// plan's reasoning, so a wrong plan or a wrong build is caught alike.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TRANSFORMS_ROLLLOOPS_REPLAYCHECK_H
#define QSHAPE_TRANSFORMS_ROLLLOOPS_REPLAYCHECK_H

#include "RunPlan.h"
#include "Support.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>

namespace qshape::roll {

/// What the check needs of a built, uncommitted loop.
struct BuiltLoop {
  mlir::scf::ForOp loop;
  /// The clone of body op j, for every j.
  llvm::ArrayRef<mlir::Operation *> bodyOps;
  /// The body ops that write a qubit back (not copies of the run's ops).
  llvm::ArrayRef<mlir::Operation *> writeBacks;
  /// The loop result that replaces each of plan.liveOut, in its order.
  llvm::ArrayRef<unsigned> liveOutResults;
  /// The loop result the externalized qubits are read from.
  std::optional<unsigned> finalRegister;
};

/// Success when the loop replays the run `ops[plan.start ..]` exactly;
/// otherwise `why` says what differs first. `index` holds the positions of
/// `ops` (those of runs erased since may be stale: they lie after this run).
mlir::LogicalResult checkReplay(const BuiltLoop &built, llvm::ArrayRef<mlir::Operation *> ops,
                                const OpPositions &index, const RunPlan &plan, std::string &why);

} // namespace qshape::roll

#endif // QSHAPE_TRANSFORMS_ROLLLOOPS_REPLAYCHECK_H
