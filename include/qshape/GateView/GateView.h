//===- GateView.h - name-based access to quantum ops ------------*- C++ -*-===//
//
// qshape's passes never dyn_cast to qshape's op classes: inside Catalyst the
// ops are Catalyst's classes, and in upstream mlir-opt without the dialect
// plugin they are unregistered. This adapter reads every quantum op by its
// name, its ODS operand/result segments and its attribute names, and builds
// new ops through OperationState, so the same pass code runs on all three.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_GATEVIEW_GATEVIEW_H
#define QSHAPE_GATEVIEW_GATEVIEW_H

#include "qshape/GateView/OpTable.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace qshape {

QOpKind classify(mlir::Operation *op);
QOpKind classify(llvm::StringRef opName);
llvm::StringRef kindName(QOpKind kind);

/// True for an op of Catalyst's reference-semantics dialect (`qref.*`), read
/// by name: its qubit operands are references, which its gates update in
/// place.
bool isQRefOp(mlir::Operation *op);

/// False for quantum ops the op table marks pure (gates, extract, insert,
/// observables, and adjoint/ctrl regions of such ops), true for the other
/// quantum ops; for other ops, MLIR's effect interfaces decide, and an op
/// without them (e.g. unregistered) counts as ordered.
bool isOrdered(mlir::Operation *op);

/// A read-only view of a gate-like op: custom, paulirot, multirz, pcphase,
/// unitary, gphase and operator. Catalyst's `quantum.operator` acts on qubits
/// (the same target and control groups as the others) or, in register mode,
/// on a register selected by index tensors; its register-mode groups have
/// their own accessors and are empty for every other gate.
class GateView {
public:
  /// Returns a view when `op` is a gate-like op, std::nullopt otherwise.
  static std::optional<GateView> get(mlir::Operation *op);

  mlir::Operation *getOperation() const { return op; }
  llvm::StringRef getOpName() const;
  /// PennyLane gate name: `gate_name` of custom, `op_name` of operator;
  /// "PauliRot", "MultiRZ", "PCPhase", "QubitUnitary", "GlobalPhase" for the
  /// others.
  llvm::StringRef getGateName() const;
  /// Parameters (custom: params; paulirot/multirz/pcphase/gphase: the
  /// angle; operator: its typed params, of any type). A unitary's matrix is
  /// `getMatrix()`.
  mlir::OperandRange getParams() const;
  mlir::Value getMatrix() const;
  mlir::OperandRange getInQubits() const;
  mlir::ResultRange getOutQubits() const;
  mlir::OperandRange getCtrlQubits() const;
  mlir::OperandRange getCtrlValues() const;
  mlir::ResultRange getOutCtrlQubits() const;
  bool isAdjoint() const;
  /// Control qubits, or (operator in register mode) a control index tensor.
  bool isControlled() const;
  /// Pauli word of paulirot (empty otherwise).
  llvm::SmallVector<llvm::StringRef> getPauliWord() const;
  /// `dim` of pcphase.
  std::optional<int64_t> getDim() const;
  /// The result that carries the qubit consumed as `operandIndex` (targets
  /// and controls), or null when that operand is not a qubit.
  mlir::Value getOutFor(unsigned operandIndex) const;

  /// operator only (empty or null for the other gates):
  /// values forwarded to its decomposition rules (`forward(...)`).
  mlir::OperandRange getForwardArgs() const;
  /// Register mode: the register consumed and the one produced.
  mlir::Value getInRegister() const;
  mlir::Value getOutRegister() const;
  /// Register mode: the i64 index tensors of the targets, and the control
  /// index and value tensors.
  mlir::OperandRange getIndexArrays() const;
  mlir::Value getCtrlIndexArray() const;
  mlir::Value getCtrlValueArray() const;

private:
  explicit GateView(mlir::Operation *op) : op(op) {}
  mlir::Operation *op;
};

/// The name of the static wire index of `quantum.extract` and
/// `quantum.insert` (Catalyst's `idx_attr`): a property when the dialect is
/// registered, a discardable attribute when it is not.
inline constexpr llvm::StringLiteral kStaticIndexAttr = "idx_attr";

/// Register access ops: extract and insert.
struct RegisterAccess {
  mlir::Operation *op = nullptr;
  mlir::Value reg;                  ///< register read (extract) or updated (insert)
  std::optional<int64_t> staticIdx; ///< `idx_attr`
  mlir::Value dynamicIdx;           ///< `idx` operand
  mlir::Value qubit;                ///< extracted result or inserted operand
  mlir::Value result;               ///< extract: the qubit; insert: the new register
  bool isInsert = false;

  static std::optional<RegisterAccess> get(mlir::Operation *op);

  /// The wire this access names: `idx_attr`, or an `idx` operand that is a
  /// non-negative integer constant (what tracing leaves, and what the
  /// canonical form makes static; `idx_attr` is non-negative in Catalyst's
  /// dialect). nullopt for a computed index.
  std::optional<int64_t> wire() const;
};

/// Static size of an alloc (`nqubits_attr`), if any.
std::optional<int64_t> getAllocSize(mlir::Operation *op);

/// The `type` of a `quantum.namedobs` as Catalyst's NamedObservable value
/// (Identity=0, PauliX=1, PauliY=2, PauliZ=3, Hadamard=4), read from
/// qshape's, Catalyst's or an opaque (unregistered) attribute; nullopt when
/// it is missing or unreadable.
std::optional<int64_t> getNamedObservable(mlir::Operation *op);

//===----------------------------------------------------------------------===//
// Builders (work for registered and unregistered `quantum` ops alike).
//===----------------------------------------------------------------------===//

/// `!quantum.bit` / `!quantum.reg` as the host context spells them (qshape's,
/// Catalyst's, or an opaque type when the dialect is not loaded).
mlir::Type getQubitType(mlir::MLIRContext *ctx);
mlir::Type getQuregType(mlir::MLIRContext *ctx);
/// True for the types of the quantum dialect (`!quantum.bit`, `.reg`,
/// `.obs`, `.res`), whichever class the host has for them or none (opaque).
bool isQuantumType(mlir::Type type);
/// Any quantum type by mnemonic ("bit", "reg", "obs", "res"), spelled the
/// same way.
mlir::Type getQuantumType(mlir::MLIRContext *ctx, llvm::StringRef mnemonic);

/// An index that is either static (attribute) or dynamic (i64 value).
struct IndexSpec {
  std::optional<int64_t> value;
  mlir::Value dynamic;
  static IndexSpec ofStatic(int64_t v) { return {v, {}}; }
  static IndexSpec ofDynamic(mlir::Value v) { return {std::nullopt, v}; }
};

mlir::Operation *buildExtract(mlir::OpBuilder &b, mlir::Location loc, mlir::Value reg,
                              IndexSpec idx);
mlir::Operation *buildInsert(mlir::OpBuilder &b, mlir::Location loc, mlir::Value reg, IndexSpec idx,
                             mlir::Value qubit);

/// Everything needed to create a `quantum.custom` gate.
struct CustomGateSpec {
  llvm::StringRef gateName;
  llvm::SmallVector<mlir::Value> params;
  llvm::SmallVector<mlir::Value> qubits;
  llvm::SmallVector<mlir::Value> ctrlQubits;
  llvm::SmallVector<mlir::Value> ctrlValues;
  bool adjoint = false;
};
mlir::Operation *buildCustomGate(mlir::OpBuilder &b, mlir::Location loc,
                                 const CustomGateSpec &spec);

/// Rewrite a register access op in place to use a static index (used by
/// canonicalization of constant index operands).
void setStaticIndex(mlir::Operation *accessOp, int64_t index);

} // namespace qshape

#endif // QSHAPE_GATEVIEW_GATEVIEW_H
