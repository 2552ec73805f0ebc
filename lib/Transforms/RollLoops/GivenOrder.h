//===- GivenOrder.h - qshape-roll-loops: when to roll in the given order -*- C++ -*-===//
//
// The pass rolls a function in canonical order first. The canonical order
// follows qubits by producer, which interleaves layers that differ in how
// their gates pair wires (StronglyEntanglingLayers): the loop it finds then
// has a body of several layers, or a body that starts in one layer and
// ends in the next (QAOA). These probes say, cheaply, whether rolling the
// function again in the order it came in (with bodies by wire) may find a
// finer loop.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TRANSFORMS_ROLLLOOPS_GIVENORDER_H
#define QSHAPE_TRANSFORMS_ROLLLOOPS_GIVENORDER_H

#include "RunPlan.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"

namespace qshape::roll {

/// Whether the gates of `func`'s body, in the order they came in, repeat
/// with a period that divides, and is shorter than, the gates of the body
/// of a loop the canonical order made in `rolled` (a copy of `func`, its
/// loops still marked kRolledMarker): a period that carries 9 of 10
/// changes from one gate to another to the same change. Linear in the
/// gates for each divisor tried.
bool givenOrderRepeatsFiner(mlir::Operation *func, mlir::Operation *rolled);

/// Whether the gates of `func`'s body, in the order they came in and with
/// the wires they act on (angles left out), repeat exactly with one period
/// at least `minCopies` times, over at least 9/10 of them: layers that
/// differ only in their angles. The given order rolls such a body whole;
/// repeated blocks that differ in a wire (QPE's controlled powers) do not
/// count as one run. Linear in the gates for each of at most 64 periods.
bool givenOrderRepeatsWhole(mlir::Operation *func, unsigned minCopies);

/// Whether the gates of `func`'s body, in the order they came in, repeat
/// whole (as above) at least `minTripCount` times without their wires, and
/// with them only with a longer period or not at all, each layer acting on
/// all the wires: layers alike in their gates that pair wires differently
/// from layer to layer (StronglyEntanglingLayers' CNOT ranges), which the
/// canonical order interleaves and cannot roll.
bool givenOrderRepeatsLayers(mlir::Operation *func, unsigned minTripCount);

/// givenOrderRepeatsWhole(func, minCopies) or
/// givenOrderRepeatsLayers(func, minTripCount), or open layers: the gates
/// with their wires repeat whole at least 4 times, each layer on the same
/// wires, pairing some and with no gate on all of them (QAOA's rings,
/// which the canonical order would interleave and cut). The gates' tokens
/// are made once for all three.
bool givenOrderGoesFirst(mlir::Operation *func, unsigned minCopies, unsigned minTripCount);

/// Moves the constants of every block of `root` to its start, in order
/// (they read nothing, so any place before their users is theirs). The
/// canonical form does this too; in the order given, a constant between the
/// gates of each layer (a traced angle) would make each layer unlike the
/// next.
void hoistConstants(mlir::Operation *root);

/// Whether the loop of `plan` (over `ops`, before it is built) cuts the
/// layers it rolls across iterations: two body ops alike (sameOpShape) but
/// for indices affine in the iteration, or tables, where one reads what the
/// other reads in the next iteration (gamma[i] and gamma[i + 1]). Each op
/// is compared with the 16 of its name before it. The canonical order
/// interleaves the end of one QAOA layer with the start of the next, so
/// its body reads each layer's angles twice; in the given order the layers
/// roll whole.
bool straddlesIterations(const RunPlan &plan, llvm::ArrayRef<mlir::Operation *> ops);

/// What `rolled` leaves unrolled: its gates that no loop of the pass
/// (kRolledMarker) holds, which a second order could still roll unless it
/// rolls finer; and their ops: each such gate, and the ops of its block
/// that only it (or another op counted here) uses, such as its register
/// read and its angle's reads. Rolling them all away saves at most `ops`.
struct LeftUnrolled {
  unsigned gates = 0, ops = 0;
};
LeftUnrolled leftUnrolled(mlir::Operation *rolled);

} // namespace qshape::roll

#endif // QSHAPE_TRANSFORMS_ROLLLOOPS_GIVENORDER_H
