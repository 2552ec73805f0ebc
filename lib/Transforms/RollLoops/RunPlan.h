//===- RunPlan.h - qshape-roll-loops: how a run becomes a loop --*- C++ -*-===//
//
// What the run analyzer decides about a candidate run and the loop builder
// carries out: for each operand of each body op, how every copy obtains it.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_TRANSFORMS_ROLLLOOPS_RUNPLAN_H
#define QSHAPE_TRANSFORMS_ROLLLOOPS_RUNPLAN_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace qshape::roll {

/// How operand `m` of body op `j` is obtained in every copy. For an op with
/// regions, the operands are followed by the values its regions capture
/// from above (capturedValues()): loops that differ only in those roll into
/// an outer loop that computes them.
struct OperandPlan {
  enum Kind {
    Internal,
    Carried,
    Invariant,
    AffineInt,
    IntTable,
    FloatTable,
    Gather,
    WireRead,  // a qubit extracted before the run from one register; the body
               // extracts it (wire = an affine index, or `wires` as a table)
    Recompute, // a runtime value that every copy's op `recipe` (pure, the same
               // in every copy) made before the run from invariant values,
               // constants and values made alike in turn: the body makes it
               // again, its operands as `parts` (Invariant, AffineInt,
               // IntTable, FloatTable or Recompute)
  } kind;
  mlir::Value reg;                        // WireRead: the register
  llvm::SmallVector<int64_t> wires;       // WireRead: the static index in each copy
  unsigned defOp = 0, defResult = 0;      // Internal / Carried: producer in the body
  mlir::Value invariant;                  // Invariant; Carried: the init value
  int64_t base = 0, stride = 0;           // AffineInt
  llvm::SmallVector<mlir::Value> perCopy; // the value in each copy (Internal: in
                                          // copy 0; Carried: in copies 0 and 1)
  mlir::Operation *recipe = nullptr;      // Recompute: copy 0's producer
  std::vector<OperandPlan> parts;         // Recompute: its operands, slot by slot
};

/// How the static index of an extract/insert varies.
struct IndexPlan {
  bool varies = false;
  bool affine = true;
  int64_t base = 0, stride = 0;
  llvm::SmallVector<int64_t> values;
};

struct RunPlan {
  unsigned start, period, copies;
  llvm::SmallVector<llvm::SmallVector<OperandPlan>> operands; // [j][m]
  llvm::SmallVector<IndexPlan> indices;                       // [j]
  // Results of the last copy that are used after the run: (j, result #).
  llvm::SmallVector<std::pair<unsigned, unsigned>> liveOut;
  // Qubits of earlier copies used after the run, re-read from the final
  // register: (copy, j, result #, wire).
  struct Externalized {
    unsigned copy, j, result;
    int64_t wire;
  };
  llvm::SmallVector<Externalized> externalized;
  // Qubits that each copy leaves on its own wire without inserting them
  // (qubits threaded through the copies, as traced code keeps them): the
  // loop writes result `result` of body op `j` back to wire `wires[c]` of
  // writeBackReg's chain, and the uses after the run read it again
  // (externalized). With `newCarry` the loop carries writeBackReg itself.
  struct WriteBack {
    unsigned j, result;
    llvm::SmallVector<int64_t> wires;
    bool affine;
  };
  llvm::SmallVector<WriteBack> writeBacks;
  mlir::Value writeBackReg;
  bool newCarry = false;
  // Register-addressed body (RunAnalyzer::classifyByWire): every qubit slot
  // is a WireRead of the register the loop carries (writeBackReg, with
  // newCarry), and the body writes each gate's qubits back to the wires
  // they were read from. For bodies whose qubits pass from copy to copy by
  // wire, not by body position (a CNOT whose range changes per layer).
  bool byWire = false;
  int64_t overhead = 0;
  // Ops in one copy, those nested in its loops included: what each copy
  // that the loop replaces saves.
  int64_t bodyOps = 0;
};

enum class Reject { None, SideEffects, Operands, Unprofitable };

} // namespace qshape::roll

#endif // QSHAPE_TRANSFORMS_ROLLLOOPS_RUNPLAN_H
