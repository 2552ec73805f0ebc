//===- Gates.cpp - Named PennyLane gates ----------------------------------===//
//
// Maps each PennyLane gate to a small description of how to apply it (dense
// matrix, diagonal, rotation in a two-level subspace, parity phase, ...),
// built on the stack, and dispatches it to the kernels.
//
//===----------------------------------------------------------------------===//

#include "qshape/Simulator/Gates.h"
#include "qshape/Simulator/StateVector.h"

#include "Kernels.h"

#include <array>
#include <cmath>
#include <string>

using namespace qshape::sim;
using namespace qshape::sim::detail;

namespace {

constexpr int kAny = GateInfo::kAnyWires;
constexpr int kAnyOrNone = GateInfo::kAnyWiresOrNone;

/// In GateKind order (checked by the unit tests).
constexpr GateInfo gateTable[] = {
    {GateKind::Identity, "Identity", 1, 0},
    {GateKind::PauliX, "PauliX", 1, 0},
    {GateKind::PauliY, "PauliY", 1, 0},
    {GateKind::PauliZ, "PauliZ", 1, 0},
    {GateKind::Hadamard, "Hadamard", 1, 0},
    {GateKind::S, "S", 1, 0},
    {GateKind::T, "T", 1, 0},
    {GateKind::SX, "SX", 1, 0},
    {GateKind::RX, "RX", 1, 1},
    {GateKind::RY, "RY", 1, 1},
    {GateKind::RZ, "RZ", 1, 1},
    {GateKind::Rot, "Rot", 1, 3},
    {GateKind::PhaseShift, "PhaseShift", 1, 1},
    {GateKind::CNOT, "CNOT", 2, 0},
    {GateKind::CY, "CY", 2, 0},
    {GateKind::CZ, "CZ", 2, 0},
    {GateKind::SWAP, "SWAP", 2, 0},
    {GateKind::ISWAP, "ISWAP", 2, 0},
    {GateKind::PSWAP, "PSWAP", 2, 1},
    {GateKind::CRX, "CRX", 2, 1},
    {GateKind::CRY, "CRY", 2, 1},
    {GateKind::CRZ, "CRZ", 2, 1},
    {GateKind::CRot, "CRot", 2, 3},
    {GateKind::ControlledPhaseShift, "ControlledPhaseShift", 2, 1},
    {GateKind::IsingXX, "IsingXX", 2, 1},
    {GateKind::IsingYY, "IsingYY", 2, 1},
    {GateKind::IsingZZ, "IsingZZ", 2, 1},
    {GateKind::IsingXY, "IsingXY", 2, 1},
    {GateKind::SingleExcitation, "SingleExcitation", 2, 1},
    {GateKind::DoubleExcitation, "DoubleExcitation", 4, 1},
    {GateKind::Toffoli, "Toffoli", 3, 0},
    {GateKind::CSWAP, "CSWAP", 3, 0},
    {GateKind::MultiRZ, "MultiRZ", kAny, 1},
    {GateKind::PCPhase, "PCPhase", kAny, 2},
    {GateKind::GlobalPhase, "GlobalPhase", kAnyOrNone, 1},
    {GateKind::PauliRot, "PauliRot", kAny, 1},
    {GateKind::QubitUnitary, "QubitUnitary", kAny, 0},
};

Complex expi(double phi) { return {std::cos(phi), std::sin(phi)}; }

constexpr Complex kI{0.0, 1.0};
constexpr double kPi = 3.14159265358979323846;

/// How to apply one named gate. The first `numGateCtrls` wires of the gate
/// are controls on |1> (CNOT, CRX, Toffoli, ...), the rest are targets.
struct GateOp {
  enum class Form {
    NoOp,
    /// Dense dim x dim matrix `m` on the targets (dim 2 or 4).
    Dense,
    /// diag(m[0..dim)) on the targets.
    Diagonal,
    /// 2x2 matrix `m` on target sub-indices (subA, subB), identity elsewhere.
    TwoLevel,
    /// exp(-i theta/2 Z...Z) on the targets (MultiRZ).
    Parity,
    /// e^{i theta} on target sub-indices < threshold, e^{-i theta} on the
    /// rest (PCPhase).
    Threshold,
    /// m[0] on every (controlled) amplitude; the gate's wires are ignored.
    GlobalPhase,
  };
  Form form = Form::NoOp;
  unsigned numGateCtrls = 0;
  unsigned dim = 0;
  std::array<Complex, 16> m{};
  unsigned subA = 0, subB = 0;
  double theta = 0.0;
  std::uint64_t threshold = 0;
};

GateOp dense1(Complex m00, Complex m01, Complex m10, Complex m11, unsigned numGateCtrls = 0) {
  GateOp op;
  op.form = GateOp::Form::Dense;
  op.numGateCtrls = numGateCtrls;
  op.dim = 2;
  op.m[0] = m00;
  op.m[1] = m01;
  op.m[2] = m10;
  op.m[3] = m11;
  return op;
}

GateOp diagonal(std::initializer_list<Complex> entries, unsigned numGateCtrls = 0) {
  GateOp op;
  op.form = GateOp::Form::Diagonal;
  op.numGateCtrls = numGateCtrls;
  op.dim = static_cast<unsigned>(entries.size());
  unsigned j = 0;
  for (Complex e : entries)
    op.m[j++] = e;
  return op;
}

GateOp twoLevel(unsigned subA, unsigned subB, Complex m00, Complex m01, Complex m10, Complex m11,
                unsigned numGateCtrls = 0) {
  GateOp op = dense1(m00, m01, m10, m11, numGateCtrls);
  op.form = GateOp::Form::TwoLevel;
  op.subA = subA;
  op.subB = subB;
  return op;
}

GateOp rx(double theta, unsigned ctrls = 0) {
  const double c = std::cos(theta / 2), s = std::sin(theta / 2);
  return dense1(c, -kI * s, -kI * s, c, ctrls);
}
GateOp ry(double theta, unsigned ctrls = 0) {
  const double c = std::cos(theta / 2), s = std::sin(theta / 2);
  return dense1(c, -s, s, c, ctrls);
}
GateOp rz(double theta, unsigned ctrls = 0) {
  return diagonal({expi(-theta / 2), expi(theta / 2)}, ctrls);
}
/// Rot(phi, theta, omega) = RZ(omega) RY(theta) RZ(phi).
GateOp rot(double phi, double theta, double omega, unsigned ctrls = 0) {
  const double c = std::cos(theta / 2), s = std::sin(theta / 2);
  return dense1(expi(-(phi + omega) / 2) * c, -expi((phi - omega) / 2) * s,
                expi(-(phi - omega) / 2) * s, expi((phi + omega) / 2) * c, ctrls);
}
GateOp phaseShift(double phi, unsigned ctrls = 0) { return diagonal({1.0, expi(phi)}, ctrls); }
GateOp pauliX(unsigned ctrls = 0) { return dense1(0.0, 1.0, 1.0, 0.0, ctrls); }
GateOp swapGate(unsigned ctrls = 0) { return twoLevel(1, 2, 0.0, 1.0, 1.0, 0.0, ctrls); }

/// cos(phi/2) I - i sin(phi/2) X(x)X.
GateOp isingXX(double phi) {
  const double c = std::cos(phi / 2), s = std::sin(phi / 2);
  GateOp op;
  op.form = GateOp::Form::Dense;
  op.dim = 4;
  op.m = {c,       0.0,     0.0,     -kI * s, //
          0.0,     c,       -kI * s, 0.0,     //
          0.0,     -kI * s, c,       0.0,     //
          -kI * s, 0.0,     0.0,     c};
  return op;
}

/// cos(phi/2) I - i sin(phi/2) Y(x)Y.
GateOp isingYY(double phi) {
  const double c = std::cos(phi / 2), s = std::sin(phi / 2);
  GateOp op;
  op.form = GateOp::Form::Dense;
  op.dim = 4;
  op.m = {c,      0.0,     0.0,     kI * s, //
          0.0,    c,       -kI * s, 0.0,    //
          0.0,    -kI * s, c,       0.0,    //
          kI * s, 0.0,     0.0,     c};
  return op;
}

/// PCPhase: e^{i theta} on the first `dim` basis states of `numWires`
/// wires, e^{-i theta} on the rest.
Expected<GateOp> pcPhase(double theta, double dim, std::size_t numWires) {
  const double fullDim = std::ldexp(1.0, static_cast<int>(numWires));
  if (!(dim >= 0.0 && dim <= fullDim) || std::floor(dim) != dim)
    return Status::error("PCPhase dimension " + std::to_string(dim) +
                         " is not an integer in [0, 2^" + std::to_string(numWires) + "]");
  GateOp op;
  op.form = GateOp::Form::Threshold;
  op.theta = theta;
  op.threshold = static_cast<std::uint64_t>(dim);
  return op;
}

/// Builds the description of `kind` from its (already counted) parameters.
Expected<GateOp> buildGateOp(GateKind kind, ArrayView<double> p, std::size_t numWires) {
  const double invSqrt2 = 1.0 / std::sqrt(2.0);
  switch (kind) {
  case GateKind::Identity:
    return GateOp();
  case GateKind::PauliX:
    return pauliX();
  case GateKind::PauliY:
    return dense1(0.0, -kI, kI, 0.0);
  case GateKind::PauliZ:
    return diagonal({1.0, -1.0});
  case GateKind::Hadamard:
    return dense1(invSqrt2, invSqrt2, invSqrt2, -invSqrt2);
  case GateKind::S:
    return diagonal({1.0, kI});
  case GateKind::T:
    return diagonal({1.0, expi(kPi / 4)});
  case GateKind::SX:
    return dense1(Complex(0.5, 0.5), Complex(0.5, -0.5), Complex(0.5, -0.5), Complex(0.5, 0.5));
  case GateKind::RX:
    return rx(p[0]);
  case GateKind::RY:
    return ry(p[0]);
  case GateKind::RZ:
    return rz(p[0]);
  case GateKind::Rot:
    return rot(p[0], p[1], p[2]);
  case GateKind::PhaseShift:
    return phaseShift(p[0]);
  case GateKind::CNOT:
    return pauliX(1);
  case GateKind::CY:
    return dense1(0.0, -kI, kI, 0.0, 1);
  case GateKind::CZ:
    return diagonal({1.0, -1.0}, 1);
  case GateKind::SWAP:
    return swapGate();
  case GateKind::ISWAP:
    return twoLevel(1, 2, 0.0, kI, kI, 0.0);
  case GateKind::PSWAP:
    // SWAP with the phase e^{i phi} on the swapped pair |01>, |10>.
    return twoLevel(1, 2, 0.0, expi(p[0]), expi(p[0]), 0.0);
  case GateKind::CRX:
    return rx(p[0], 1);
  case GateKind::CRY:
    return ry(p[0], 1);
  case GateKind::CRZ:
    return rz(p[0], 1);
  case GateKind::CRot:
    return rot(p[0], p[1], p[2], 1);
  case GateKind::ControlledPhaseShift:
    return phaseShift(p[0], 1);
  case GateKind::IsingXX:
    return isingXX(p[0]);
  case GateKind::IsingYY:
    return isingYY(p[0]);
  case GateKind::IsingZZ:
    return diagonal({expi(-p[0] / 2), expi(p[0] / 2), expi(p[0] / 2), expi(-p[0] / 2)});
  case GateKind::IsingXY: {
    const double c = std::cos(p[0] / 2), s = std::sin(p[0] / 2);
    return twoLevel(1, 2, c, kI * s, kI * s, c);
  }
  case GateKind::SingleExcitation: {
    const double c = std::cos(p[0] / 2), s = std::sin(p[0] / 2);
    return twoLevel(1, 2, c, -s, s, c);
  }
  case GateKind::DoubleExcitation: {
    // Rotation between |0011> (3) and |1100> (12).
    const double c = std::cos(p[0] / 2), s = std::sin(p[0] / 2);
    return twoLevel(3, 12, c, -s, s, c);
  }
  case GateKind::Toffoli:
    return pauliX(2);
  case GateKind::CSWAP:
    return swapGate(1);
  case GateKind::MultiRZ: {
    GateOp op;
    op.form = GateOp::Form::Parity;
    op.theta = p[0];
    return op;
  }
  case GateKind::PCPhase:
    return pcPhase(p[0], p[1], numWires);
  case GateKind::GlobalPhase: {
    GateOp op;
    op.form = GateOp::Form::GlobalPhase;
    op.m[0] = expi(-p[0]);
    return op;
  }
  case GateKind::PauliRot:
    return Status::error("gate 'PauliRot' needs a Pauli word: use applyPauliRot");
  case GateKind::QubitUnitary:
    return Status::error("gate 'QubitUnitary' needs a matrix: use applyMatrix");
  }
  return Status::error("unhandled gate kind");
}

/// Turns `op` into the description of its inverse.
void invert(GateOp &op) {
  switch (op.form) {
  case GateOp::Form::NoOp:
    return;
  case GateOp::Form::Dense:
  case GateOp::Form::TwoLevel: {
    const unsigned dim = op.form == GateOp::Form::Dense ? op.dim : 2;
    std::array<Complex, 16> m{};
    for (unsigned r = 0; r < dim; ++r)
      for (unsigned c = 0; c < dim; ++c)
        m[r * dim + c] = std::conj(op.m[c * dim + r]);
    op.m = m;
    return;
  }
  case GateOp::Form::Diagonal:
    for (unsigned j = 0; j < op.dim; ++j)
      op.m[j] = std::conj(op.m[j]);
    return;
  case GateOp::Form::GlobalPhase:
    op.m[0] = std::conj(op.m[0]);
    return;
  case GateOp::Form::Parity:
  case GateOp::Form::Threshold:
    op.theta = -op.theta;
    return;
  }
}

/// Applies `op` with `wires` (gate controls first, then targets) and the
/// user's controls. Wires have been checked.
void applyGateOp(Complex *amps, unsigned numQubits, const GateOp &op, ArrayView<int> wires,
                 ArrayView<int> ctrlWires, const std::vector<bool> &ctrlValues) {
  if (op.form == GateOp::Form::NoOp)
    return;
  FixedBits controls;
  for (unsigned i = 0; i < op.numGateCtrls; ++i)
    controls.add(wireToBit(numQubits, wires[i]), true);
  for (std::size_t i = 0; i < ctrlWires.size(); ++i)
    controls.add(wireToBit(numQubits, ctrlWires[i]), ctrlValues.empty() || ctrlValues[i]);

  std::array<unsigned, 64> targetBits{};
  unsigned numTargets = 0;
  if (op.form != GateOp::Form::GlobalPhase)
    for (std::size_t i = op.numGateCtrls; i < wires.size(); ++i)
      targetBits[numTargets++] = wireToBit(numQubits, wires[i]);

  // Form-specific loops that enumerate targets themselves.
  switch (op.form) {
  case GateOp::Form::Parity: {
    std::uint64_t mask = 0;
    for (unsigned t = 0; t < numTargets; ++t)
      mask |= std::uint64_t{1} << targetBits[t];
    applyParityPhase(amps, controls.space(numQubits), mask, expi(-op.theta / 2),
                     expi(op.theta / 2));
    return;
  }
  case GateOp::Form::Threshold:
    applyThresholdPhase(amps, controls.space(numQubits), targetBits.data(), numTargets,
                        op.threshold, expi(op.theta), expi(-op.theta));
    return;
  case GateOp::Form::GlobalPhase: {
    const std::uint64_t zero = 0;
    applyDiagonal(amps, controls.space(numQubits), &zero, 1, op.m.data());
    return;
  }
  default:
    break;
  }

  FixedBits fixed = controls;
  for (unsigned t = 0; t < numTargets; ++t)
    fixed.add(targetBits[t], false);
  const IndexSpace space = fixed.space(numQubits);

  if (op.form == GateOp::Form::TwoLevel) {
    applyTwoLevel(amps, space, subIndexOffset(op.subA, targetBits.data(), numTargets),
                  subIndexOffset(op.subB, targetBits.data(), numTargets), op.m.data());
    return;
  }
  if (op.form == GateOp::Form::Dense && op.dim == 2) {
    applyMatrix1(amps, space, std::uint64_t{1} << targetBits[0], op.m.data());
    return;
  }
  std::array<std::uint64_t, 16> offsets{};
  for (unsigned j = 0; j < op.dim; ++j)
    offsets[j] = subIndexOffset(j, targetBits.data(), numTargets);
  if (op.form == GateOp::Form::Diagonal) {
    applyDiagonal(amps, space, offsets.data(), op.dim, op.m.data());
    return;
  }
  std::array<Complex, 16> scratch{};
  applyMatrixK<false>(amps, space, offsets.data(), op.dim, op.m.data(), scratch.data());
}

} // namespace

static_assert(sizeof(gateTable) / sizeof(gateTable[0]) ==
                  static_cast<std::size_t>(GateKind::QubitUnitary) + 1,
              "gateTable must list every GateKind");

std::optional<GateKind> qshape::sim::lookupGate(std::string_view name) {
  for (const GateInfo &info : gateTable)
    if (info.name == name)
      return info.kind;
  return std::nullopt;
}

const GateInfo &qshape::sim::getGateInfo(GateKind kind) {
  return gateTable[static_cast<std::size_t>(kind)];
}

Status StateVector::applyGate(std::string_view name, ArrayView<double> params, ArrayView<int> wires,
                              bool adjoint, ArrayView<int> ctrlWires,
                              const std::vector<bool> &ctrlValues) {
  std::optional<GateKind> kind = lookupGate(name);
  if (!kind)
    return Status::error("unknown gate '" + std::string(name) + "'");
  return applyGate(*kind, params, wires, adjoint, ctrlWires, ctrlValues);
}

Status StateVector::applyGate(GateKind kind, ArrayView<double> params, ArrayView<int> wires,
                              bool adjoint, ArrayView<int> ctrlWires,
                              const std::vector<bool> &ctrlValues) {
  const GateInfo &info = getGateInfo(kind);
  // Messages are built only on failure: no allocation on the success path.
  auto fail = [&](const std::string &what) {
    return Status::error("gate '" + std::string(info.name) + "' " + what);
  };
  if (params.size() != static_cast<std::size_t>(info.numParams))
    return fail("expects " + std::to_string(info.numParams) + " parameter(s), got " +
                std::to_string(params.size()));
  if (info.numWires >= 0 && wires.size() != static_cast<std::size_t>(info.numWires))
    return fail("expects " + std::to_string(info.numWires) + " wire(s), got " +
                std::to_string(wires.size()));
  if (info.numWires == GateInfo::kAnyWires && wires.empty())
    return fail("expects at least one wire");
  for (double p : params)
    if (!std::isfinite(p))
      return fail("has a non-finite parameter");
  if (Status status = checkWires(wires, ctrlWires, ctrlValues); status.failed())
    return fail("has bad wires: " + status.message());

  Expected<GateOp> op = buildGateOp(kind, params, wires.size());
  if (op.failed())
    return op.getStatus();
  if (adjoint)
    invert(*op);
  applyGateOp(amps.data(), numQubits, *op, wires, ctrlWires, ctrlValues);
  return Status::success();
}
