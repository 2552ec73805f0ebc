//===- Gates.h - PennyLane gate catalogue for the simulator -----*- C++ -*-===//
//
// The gates the state-vector simulator knows, by their PennyLane names (the
// names Catalyst prints in `quantum.custom "RX"(...)`), with their wire and
// parameter arity. Matrices follow PennyLane exactly; wire 0 of a gate is the
// most significant bit of its matrix index.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_SIMULATOR_GATES_H
#define QSHAPE_SIMULATOR_GATES_H

#include <optional>
#include <string_view>

namespace qshape::sim {

enum class GateKind {
  Identity,
  PauliX,
  PauliY,
  PauliZ,
  Hadamard,
  S,
  T,
  SX,
  RX,
  RY,
  RZ,
  Rot,
  PhaseShift,
  CNOT,
  CY,
  CZ,
  SWAP,
  ISWAP,
  PSWAP,
  CRX,
  CRY,
  CRZ,
  CRot,
  ControlledPhaseShift,
  IsingXX,
  IsingYY,
  IsingZZ,
  IsingXY,
  SingleExcitation,
  DoubleExcitation,
  Toffoli,
  CSWAP,
  MultiRZ,
  PCPhase,
  GlobalPhase,
  /// Needs a Pauli word: apply with StateVector::applyPauliRot.
  PauliRot,
  /// Needs a matrix: apply with StateVector::applyMatrix.
  QubitUnitary,
};

/// Arity of a gate. Parameters are the floating-point operands in PennyLane
/// order (PCPhase takes (phi, dim), with dim an integer-valued double as in
/// Catalyst's IR).
struct GateInfo {
  GateKind kind;
  std::string_view name;
  /// Number of wires the gate acts on, or one of the Any* values below.
  int numWires;
  int numParams;

  /// Any number of wires, at least one (MultiRZ, PCPhase, PauliRot,
  /// QubitUnitary).
  static constexpr int kAnyWires = -1;
  /// Any number of wires, including none (GlobalPhase).
  static constexpr int kAnyWiresOrNone = -2;
};

/// The gate called `name` (PennyLane spelling), if there is one.
std::optional<GateKind> lookupGate(std::string_view name);

/// Arity and name of `kind`.
const GateInfo &getGateInfo(GateKind kind);

} // namespace qshape::sim

#endif // QSHAPE_SIMULATOR_GATES_H
