//===- OpTable.h - what qshape knows about each quantum op ------*- C++ -*-===//
//
// One row per `quantum` op (OpTable.def): its kind, effects, parameter
// count, runtime entry and the roles of its ODS operand and result groups.
// Everything that reads quantum ops by name looks them up here, so the ops
// are listed once. Groups are read by role (`getOperandGroup(op,
// OpRole::CtrlQubits)`), which works for qshape's op classes, Catalyst's and
// unregistered ops alike.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_GATEVIEW_OPTABLE_H
#define QSHAPE_GATEVIEW_OPTABLE_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace qshape {

/// What a quantum op is, decided by its name alone.
enum class QOpKind : uint8_t {
  NotQuantum,   ///< not in the `quantum` namespace
  Gate,         ///< custom, paulirot, multirz, pcphase, unitary, operator
  GlobalPhase,  ///< gphase (ordered: acts on the whole state)
  Extract,      ///< extract
  Insert,       ///< insert
  Alloc,        ///< alloc
  AllocQubit,   ///< alloc_qb
  Dealloc,      ///< dealloc
  DeallocQubit, ///< dealloc_qb
  Measure,      ///< measure (mid-circuit)
  Observable,   ///< namedobs, compbasis, tensor, hamiltonian, hermitian, mcmobs
  Measurement,  ///< expval, var, probs, state, sample, counts
  StatePrep,    ///< set_state, set_basis_state
  Adjoint,      ///< adjoint region
  Ctrl,         ///< ctrl region
  Yield,        ///< yield (terminator of adjoint/ctrl)
  Device,       ///< device, device_release, init, finalize, num_qubits
  OtherQuantum, ///< a `quantum.*` name the table does not have
};

/// Every op of the table.
enum class QOp : uint8_t {
#define QUANTUM_OP(Id, ...) Id,
#include "qshape/GateView/OpTable.def"
};

/// What an op does to state outside its SSA values.
enum class OpEffect : uint8_t {
  Pure,    ///< nothing: order is carried by SSA values
  Ordered, ///< acts on the device: keeps its place among effects
  /// Ordered, and rewrites the whole device, wires it does not list too
  /// (set_state): a barrier (Barriers.h), nothing quantum crosses it.
  WholeDevice,
  ReadOnly,   ///< reads device state
  FromRegion, ///< whatever its region's ops do (adjoint, ctrl)
};

/// What an operand or result group holds.
enum class OpRole : uint8_t {
  Params,         ///< gate parameters: f64 (or the one angle); operator: any type
  Matrix,         ///< unitary / hermitian matrix
  Qubits,         ///< target qubits
  CtrlQubits,     ///< control qubits
  CtrlValues,     ///< i1 control values
  Register,       ///< a !quantum.reg
  Index,          ///< dynamic register index (i64)
  Qubit,          ///< one qubit
  Size,           ///< dynamic register size (i64)
  Shots,          ///< device shots (i64)
  Count,          ///< num_qubits' result
  State,          ///< set_state / set_basis_state input vector
  Args,           ///< region arguments/results (qubits or registers)
  Obs,            ///< an observable
  Terms,          ///< observables combined by tensor / hamiltonian
  Coeffs,         ///< hamiltonian coefficients
  Mcms,           ///< mid-circuit measurement results (i1)
  Shape,          ///< dynamic result shape (i64)
  StateIn,        ///< bufferized output buffer of probs/state/sample
  EigvalsIn,      ///< bufferized eigenvalue buffer of counts
  CountsIn,       ///< bufferized counts buffer of counts
  Bit,            ///< measure's i1 outcome
  Value,          ///< a measurement's value
  Eigvals,        ///< counts' eigenvalues
  Counts,         ///< counts' counts
  ForwardArgs,    ///< operator: values passed on to its decomposition (with a UID)
  IndexArrays,    ///< operator (register mode): i64 tensors of target indices
  CtrlIndexArray, ///< operator (register mode): i64 tensor of control indices
  CtrlValueArray, ///< operator (register mode): i1 tensor of control values
};

enum class GroupArity : uint8_t { Single, Optional, Variadic };

struct OpGroup {
  OpRole role;
  GroupArity arity;
};

/// One row of OpTable.def.
struct QuantumOpInfo {
  QOp id;
  llvm::StringRef name;     ///< full name, e.g. "quantum.custom"
  llvm::StringRef mnemonic; ///< e.g. "custom"
  QOpKind kind;
  OpEffect effect;
  int8_t numParams; ///< -1: depends on the op (custom, operator)
  llvm::StringRef runtimeEntry;
  llvm::ArrayRef<OpGroup> operands;
  llvm::ArrayRef<OpGroup> results;

  /// Index of the operand / result group with `role`, or -1.
  int operandGroup(OpRole role) const;
  int resultGroup(OpRole role) const;
};

/// The row for an op name ("quantum.custom"), or null.
const QuantumOpInfo *lookupQuantumOp(llvm::StringRef name);
const QuantumOpInfo *lookupQuantumOp(mlir::Operation *op);
const QuantumOpInfo &getQuantumOpInfo(QOp id);
/// Every row, in table order.
llvm::ArrayRef<QuantumOpInfo> getQuantumOpTable();

/// The operands / results of `op` in the group with `role` (empty when the
/// op has no such group, when an optional group is absent, or when the op
/// is not in the table). Groups are sized by `operandSegmentSizes` /
/// `resultSegmentSizes` when present, else by ODS's rule.
mlir::OperandRange getOperandGroup(mlir::Operation *op, OpRole role);
mlir::ResultRange getResultGroup(mlir::Operation *op, OpRole role);

/// The runtime function `op` lowers to: the row's entry, with the gate name
/// appended for `quantum.custom`; empty when there is none.
std::string getRuntimeFunction(mlir::Operation *op);

} // namespace qshape

#endif // QSHAPE_GATEVIEW_OPTABLE_H
