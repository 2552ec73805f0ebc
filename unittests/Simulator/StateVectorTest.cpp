//===- StateVectorTest.cpp - Gates and state preparation ------------------===//
//
// Gate matrices against PennyLane's, wire-order and control conventions,
// adjoints, decomposition identities and input validation.
//
//===----------------------------------------------------------------------===//

#include "qshape/Simulator/StateVector.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>
#include <string>

using namespace qshape::sim;

namespace {

constexpr double Pi = 3.14159265358979323846;
constexpr double Tol = 1e-10;
const Complex I{0.0, 1.0};

Complex expi(double phi) { return {std::cos(phi), std::sin(phi)}; }

std::vector<int> range(int n) {
  std::vector<int> wires(n);
  for (int i = 0; i < n; ++i)
    wires[i] = i;
  return wires;
}

/// A reproducible random normalized state on n qubits.
StateVector randomState(unsigned n, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<Complex> amps(std::size_t{1} << n);
  double norm = 0.0;
  for (Complex &a : amps) {
    a = {dist(gen), dist(gen)};
    norm += std::norm(a);
  }
  for (Complex &a : amps)
    a /= std::sqrt(norm);
  StateVector sv(n);
  Status status = sv.setState(amps, range(static_cast<int>(n)));
  EXPECT_TRUE(status.succeeded()) << status.message();
  return sv;
}

double maxDistance(const StateVector &a, const StateVector &b) {
  double dist = 0.0;
  for (std::uint64_t i = 0; i < a.getDimension(); ++i)
    dist = std::max(dist, std::abs(a.getAmplitude(i) - b.getAmplitude(i)));
  return dist;
}

#define EXPECT_OK(expr)                                                                            \
  do {                                                                                             \
    Status status_ = (expr);                                                                       \
    EXPECT_TRUE(status_.succeeded()) << status_.message();                                         \
  } while (false)

/// The matrix of a gate on wires 0..k-1 of a k-qubit register, column j
/// being the image of basis state |j>.
std::vector<Complex> gateMatrix(std::string_view name, std::vector<double> params, unsigned k) {
  const std::size_t dim = std::size_t{1} << k;
  std::vector<Complex> m(dim * dim);
  for (std::size_t j = 0; j < dim; ++j) {
    std::vector<Complex> basis(dim, 0.0);
    basis[j] = 1.0;
    StateVector sv(k);
    EXPECT_OK(sv.setState(basis, range(static_cast<int>(k))));
    EXPECT_OK(sv.applyGate(name, params, range(static_cast<int>(k))));
    for (std::size_t r = 0; r < dim; ++r)
      m[r * dim + j] = sv.getAmplitude(r);
  }
  return m;
}

void expectMatrixNear(const std::vector<Complex> &actual, const std::vector<Complex> &expected,
                      const std::string &what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (std::size_t i = 0; i < actual.size(); ++i)
    EXPECT_LT(std::abs(actual[i] - expected[i]), Tol)
        << what << " entry " << i << ": got " << actual[i] << ", expected " << expected[i];
}

/// diag(I, u) for a 2x2 or 4x4 `u`: the singly-controlled version.
std::vector<Complex> controlled(const std::vector<Complex> &u) {
  const std::size_t d = u.size() == 4 ? 2 : 4;
  std::vector<Complex> m(4 * d * d, 0.0);
  for (std::size_t i = 0; i < d; ++i)
    m[i * 2 * d + i] = 1.0;
  for (std::size_t r = 0; r < d; ++r)
    for (std::size_t c = 0; c < d; ++c)
      m[(d + r) * 2 * d + (d + c)] = u[r * d + c];
  return m;
}

std::vector<Complex> diag(std::vector<Complex> d) {
  std::vector<Complex> m(d.size() * d.size(), 0.0);
  for (std::size_t i = 0; i < d.size(); ++i)
    m[i * d.size() + i] = d[i];
  return m;
}

std::vector<Complex> rxMatrix(double t) {
  return {std::cos(t / 2), -I * std::sin(t / 2), -I * std::sin(t / 2), std::cos(t / 2)};
}
std::vector<Complex> ryMatrix(double t) {
  return {std::cos(t / 2), -std::sin(t / 2), std::sin(t / 2), std::cos(t / 2)};
}
std::vector<Complex> rzMatrix(double t) { return {expi(-t / 2), 0.0, 0.0, expi(t / 2)}; }
std::vector<Complex> rotMatrix(double phi, double theta, double omega) {
  const double c = std::cos(theta / 2), s = std::sin(theta / 2);
  return {expi(-(phi + omega) / 2) * c, -expi((phi - omega) / 2) * s, expi(-(phi - omega) / 2) * s,
          expi((phi + omega) / 2) * c};
}

//===----------------------------------------------------------------------===//
// Catalogue and conventions
//===----------------------------------------------------------------------===//

TEST(SimulatorGates, CatalogueRoundTrips) {
  for (int k = 0; k <= static_cast<int>(GateKind::QubitUnitary); ++k) {
    const GateKind kind = static_cast<GateKind>(k);
    const GateInfo &info = getGateInfo(kind);
    EXPECT_EQ(info.kind, kind) << info.name;
    std::optional<GateKind> found = lookupGate(info.name);
    ASSERT_TRUE(found.has_value()) << info.name;
    EXPECT_EQ(*found, kind) << info.name;
  }
  EXPECT_FALSE(lookupGate("Foo").has_value());
  EXPECT_FALSE(lookupGate("rx").has_value());
}

TEST(SimulatorStateVector, StartsInZeroState) {
  StateVector sv(3);
  EXPECT_EQ(sv.getNumQubits(), 3u);
  EXPECT_EQ(sv.getDimension(), 8u);
  EXPECT_EQ(sv.getAmplitude(0), Complex(1.0, 0.0));
  EXPECT_NEAR(sv.getNormSquared(), 1.0, Tol);
  EXPECT_TRUE(StateVector::create(StateVector::kMaxQubits + 1).failed());
  EXPECT_TRUE(StateVector::create(2).succeeded());
}

TEST(SimulatorStateVector, WireZeroIsMostSignificant) {
  StateVector sv(3);
  EXPECT_OK(sv.applyGate("PauliX", {}, {0}));
  EXPECT_NEAR(std::abs(sv.getAmplitude(0b100)), 1.0, Tol);
  // CNOT with control wire 0 and target wire 2: |100> -> |101>.
  EXPECT_OK(sv.applyGate("CNOT", {}, {0, 2}));
  EXPECT_NEAR(std::abs(sv.getAmplitude(0b101)), 1.0, Tol);
  // Gate wire order matters: CNOT(2, 1) flips wire 1 because wire 2 is set.
  EXPECT_OK(sv.applyGate("CNOT", {}, {2, 1}));
  EXPECT_NEAR(std::abs(sv.getAmplitude(0b111)), 1.0, Tol);
}

//===----------------------------------------------------------------------===//
// Matrices (PennyLane's)
//===----------------------------------------------------------------------===//

TEST(SimulatorGates, SingleQubitMatrices) {
  const double r = 1.0 / std::sqrt(2.0);
  expectMatrixNear(gateMatrix("Identity", {}, 1), {1.0, 0.0, 0.0, 1.0}, "I");
  expectMatrixNear(gateMatrix("PauliX", {}, 1), {0.0, 1.0, 1.0, 0.0}, "X");
  expectMatrixNear(gateMatrix("PauliY", {}, 1), {0.0, -I, I, 0.0}, "Y");
  expectMatrixNear(gateMatrix("PauliZ", {}, 1), diag({1.0, -1.0}), "Z");
  expectMatrixNear(gateMatrix("Hadamard", {}, 1), {r, r, r, -r}, "H");
  expectMatrixNear(gateMatrix("S", {}, 1), diag({1.0, I}), "S");
  expectMatrixNear(gateMatrix("T", {}, 1), diag({1.0, expi(Pi / 4)}), "T");
  expectMatrixNear(gateMatrix("SX", {}, 1),
                   {0.5 + 0.5 * I, 0.5 - 0.5 * I, 0.5 - 0.5 * I, 0.5 + 0.5 * I}, "SX");
  expectMatrixNear(gateMatrix("RX", {0.7}, 1), rxMatrix(0.7), "RX");
  expectMatrixNear(gateMatrix("RY", {0.7}, 1), ryMatrix(0.7), "RY");
  expectMatrixNear(gateMatrix("RZ", {0.7}, 1), rzMatrix(0.7), "RZ");
  expectMatrixNear(gateMatrix("Rot", {0.3, 0.5, 0.9}, 1), rotMatrix(0.3, 0.5, 0.9), "Rot");
  expectMatrixNear(gateMatrix("PhaseShift", {0.4}, 1), diag({1.0, expi(0.4)}), "PhaseShift");
  expectMatrixNear(gateMatrix("GlobalPhase", {0.4}, 1), diag({expi(-0.4), expi(-0.4)}),
                   "GlobalPhase");
}

TEST(SimulatorGates, TwoQubitMatrices) {
  const double t = 0.83, c = std::cos(t / 2), s = std::sin(t / 2);
  expectMatrixNear(gateMatrix("CNOT", {}, 2), controlled({0.0, 1.0, 1.0, 0.0}), "CNOT");
  expectMatrixNear(gateMatrix("CY", {}, 2), controlled({0.0, -I, I, 0.0}), "CY");
  expectMatrixNear(gateMatrix("CZ", {}, 2), diag({1.0, 1.0, 1.0, -1.0}), "CZ");
  expectMatrixNear(gateMatrix("SWAP", {}, 2),
                   {1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, //
                    0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0},
                   "SWAP");
  expectMatrixNear(gateMatrix("ISWAP", {}, 2),
                   {1.0, 0.0, 0.0, 0.0, 0.0, 0.0, I, 0.0, //
                    0.0, I, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0},
                   "ISWAP");
  expectMatrixNear(gateMatrix("PSWAP", {t}, 2),
                   {1.0, 0.0, 0.0, 0.0, 0.0, 0.0, expi(t), 0.0, //
                    0.0, expi(t), 0.0, 0.0, 0.0, 0.0, 0.0, 1.0},
                   "PSWAP");
  expectMatrixNear(gateMatrix("CRX", {t}, 2), controlled(rxMatrix(t)), "CRX");
  expectMatrixNear(gateMatrix("CRY", {t}, 2), controlled(ryMatrix(t)), "CRY");
  expectMatrixNear(gateMatrix("CRZ", {t}, 2), controlled(rzMatrix(t)), "CRZ");
  expectMatrixNear(gateMatrix("CRot", {0.1, 0.2, 0.3}, 2), controlled(rotMatrix(0.1, 0.2, 0.3)),
                   "CRot");
  expectMatrixNear(gateMatrix("ControlledPhaseShift", {t}, 2), diag({1.0, 1.0, 1.0, expi(t)}),
                   "ControlledPhaseShift");
  expectMatrixNear(gateMatrix("IsingXX", {t}, 2),
                   {c, 0.0, 0.0, -I * s, 0.0, c, -I * s, 0.0, //
                    0.0, -I * s, c, 0.0, -I * s, 0.0, 0.0, c},
                   "IsingXX");
  expectMatrixNear(gateMatrix("IsingYY", {t}, 2),
                   {c, 0.0, 0.0, I * s, 0.0, c, -I * s, 0.0, //
                    0.0, -I * s, c, 0.0, I * s, 0.0, 0.0, c},
                   "IsingYY");
  expectMatrixNear(gateMatrix("IsingZZ", {t}, 2),
                   diag({expi(-t / 2), expi(t / 2), expi(t / 2), expi(-t / 2)}), "IsingZZ");
  expectMatrixNear(gateMatrix("IsingXY", {t}, 2),
                   {1.0, 0.0, 0.0, 0.0, 0.0, c, I * s, 0.0, //
                    0.0, I * s, c, 0.0, 0.0, 0.0, 0.0, 1.0},
                   "IsingXY");
  expectMatrixNear(gateMatrix("SingleExcitation", {t}, 2),
                   {1.0, 0.0, 0.0, 0.0, 0.0, c, -s, 0.0, //
                    0.0, s, c, 0.0, 0.0, 0.0, 0.0, 1.0},
                   "SingleExcitation");
  expectMatrixNear(gateMatrix("MultiRZ", {t}, 2),
                   diag({expi(-t / 2), expi(t / 2), expi(t / 2), expi(-t / 2)}), "MultiRZ");
}

TEST(SimulatorGates, MultiQubitMatrices) {
  const double t = 1.1, c = std::cos(t / 2), s = std::sin(t / 2);
  // DoubleExcitation: rotation between |0011> and |1100>, identity elsewhere.
  std::vector<Complex> dbl = diag(std::vector<Complex>(16, 1.0));
  dbl[3 * 16 + 3] = c;
  dbl[3 * 16 + 12] = -s;
  dbl[12 * 16 + 3] = s;
  dbl[12 * 16 + 12] = c;
  expectMatrixNear(gateMatrix("DoubleExcitation", {t}, 4), dbl, "DoubleExcitation");

  std::vector<Complex> toffoli = diag(std::vector<Complex>(8, 1.0));
  toffoli[6 * 8 + 6] = toffoli[7 * 8 + 7] = 0.0;
  toffoli[6 * 8 + 7] = toffoli[7 * 8 + 6] = 1.0;
  expectMatrixNear(gateMatrix("Toffoli", {}, 3), toffoli, "Toffoli");

  std::vector<Complex> cswap = diag(std::vector<Complex>(8, 1.0));
  cswap[5 * 8 + 5] = cswap[6 * 8 + 6] = 0.0;
  cswap[5 * 8 + 6] = cswap[6 * 8 + 5] = 1.0;
  expectMatrixNear(gateMatrix("CSWAP", {}, 3), cswap, "CSWAP");

  // MultiRZ on 3 wires: exp(-i t/2 ZZZ), phase by parity.
  std::vector<Complex> multiRZ;
  for (int j = 0; j < 8; ++j)
    multiRZ.push_back(__builtin_parity(j) ? expi(t / 2) : expi(-t / 2));
  expectMatrixNear(gateMatrix("MultiRZ", {t}, 3), diag(multiRZ), "MultiRZ3");

  // PCPhase(phi, dim=3) on 2 wires: e^{i phi} on the first 3 basis states,
  // e^{-i phi} on the rest (PennyLane's documented example).
  expectMatrixNear(gateMatrix("PCPhase", {0.27, 3.0}, 2),
                   diag({expi(0.27), expi(0.27), expi(0.27), expi(-0.27)}), "PCPhase");
  expectMatrixNear(gateMatrix("PCPhase", {0.27, 2.0}, 3),
                   diag({expi(0.27), expi(0.27), expi(-0.27), expi(-0.27), expi(-0.27), expi(-0.27),
                         expi(-0.27), expi(-0.27)}),
                   "PCPhase3");
}

//===----------------------------------------------------------------------===//
// Identities
//===----------------------------------------------------------------------===//

TEST(SimulatorGates, HZHEqualsX) {
  StateVector a = randomState(3, 1), b = a;
  EXPECT_OK(a.applyGate("Hadamard", {}, {1}));
  EXPECT_OK(a.applyGate("PauliZ", {}, {1}));
  EXPECT_OK(a.applyGate("Hadamard", {}, {1}));
  EXPECT_OK(b.applyGate("PauliX", {}, {1}));
  EXPECT_LT(maxDistance(a, b), Tol);
  // And the identity is not vacuous: X changed the state.
  EXPECT_GT(maxDistance(b, randomState(3, 1)), 1e-3);
}

TEST(SimulatorGates, RotEqualsRZRYRZ) {
  const double phi = 0.37, theta = 1.21, omega = -0.66;
  StateVector a = randomState(2, 2), b = a;
  EXPECT_OK(a.applyGate("Rot", {phi, theta, omega}, {1}));
  // Rot(phi, theta, omega) = RZ(omega) RY(theta) RZ(phi): RZ(phi) acts first.
  EXPECT_OK(b.applyGate("RZ", {phi}, {1}));
  EXPECT_OK(b.applyGate("RY", {theta}, {1}));
  EXPECT_OK(b.applyGate("RZ", {omega}, {1}));
  EXPECT_LT(maxDistance(a, b), Tol);
}

TEST(SimulatorGates, ControlValueZero) {
  // X on wire 1 controlled on wire 0 being |0>.
  StateVector sv(2);
  EXPECT_OK(sv.applyGate("PauliX", {}, {1}, false, {0}, {false}));
  EXPECT_NEAR(std::abs(sv.getAmplitude(0b01)), 1.0, Tol);
  StateVector other(2);
  EXPECT_OK(other.setBasisState({1}, {0}));
  EXPECT_OK(other.applyGate("PauliX", {}, {1}, false, {0}, {false}));
  EXPECT_NEAR(std::abs(other.getAmplitude(0b10)), 1.0, Tol);

  // On a random state, a 0-control equals X-conjugated 1-control, and mixed
  // control values work for every kernel family.
  for (std::string_view gate : {"RX", "PhaseShift", "IsingXY", "MultiRZ"}) {
    const bool twoWire = gate == "IsingXY" || gate == "MultiRZ";
    const std::vector<int> targets = twoWire ? std::vector<int>{3, 1} : std::vector<int>{3};
    StateVector a = randomState(4, 3), b = a;
    EXPECT_OK(a.applyGate(gate, {0.9}, targets, false, {0, 2}, {false, true}));
    EXPECT_OK(b.applyGate("PauliX", {}, {0}));
    EXPECT_OK(b.applyGate(gate, {0.9}, targets, false, {0, 2}));
    EXPECT_OK(b.applyGate("PauliX", {}, {0}));
    EXPECT_LT(maxDistance(a, b), Tol) << gate;
    // Not vacuous: the all-ones control gives a different state.
    StateVector c = randomState(4, 3);
    EXPECT_OK(c.applyGate(gate, {0.9}, targets, false, {0, 2}));
    EXPECT_GT(maxDistance(a, c), 1e-3) << gate;
  }
}

TEST(SimulatorGates, BuiltinControlsMatchExplicitControls) {
  StateVector a = randomState(4, 4), b = a;
  EXPECT_OK(a.applyGate("CRX", {0.4}, {2, 0}));
  EXPECT_OK(b.applyGate("RX", {0.4}, {0}, false, {2}));
  EXPECT_OK(a.applyGate("Toffoli", {}, {3, 0, 1}));
  EXPECT_OK(b.applyGate("PauliX", {}, {1}, false, {3, 0}));
  EXPECT_OK(a.applyGate("CSWAP", {}, {1, 3, 2}));
  EXPECT_OK(b.applyGate("SWAP", {}, {3, 2}, false, {1}));
  // A builtin control plus an extra user control.
  EXPECT_OK(a.applyGate("CRot", {0.1, 0.2, 0.3}, {0, 1}, false, {3}, {false}));
  EXPECT_OK(b.applyGate("Rot", {0.1, 0.2, 0.3}, {1}, false, {0, 3}, {true, false}));
  EXPECT_LT(maxDistance(a, b), Tol);
}

TEST(SimulatorGates, ControlledGlobalPhaseIsRelativePhase) {
  // GlobalPhase controlled on wire 0 = PhaseShift(-theta) on wire 0.
  StateVector a = randomState(2, 5), b = a;
  EXPECT_OK(a.applyGate("GlobalPhase", {0.6}, {}, false, {0}));
  EXPECT_OK(b.applyGate("PhaseShift", {-0.6}, {0}));
  EXPECT_LT(maxDistance(a, b), Tol);
}

/// Every gate with generic parameters, on scattered wires of a 5-qubit
/// register: applying it then its adjoint restores the state, while applying
/// it twice does not (so an ignored adjoint flag would be caught).
TEST(SimulatorGates, AdjointInvertsEveryGate) {
  const std::vector<int> wires = {3, 0, 4, 1};
  for (int k = 0; k < static_cast<int>(GateKind::PauliRot); ++k) {
    const GateKind kind = static_cast<GateKind>(k);
    const GateInfo &info = getGateInfo(kind);
    std::vector<double> params = {0.731, -1.234, 0.517};
    params.resize(info.numParams);
    if (kind == GateKind::PCPhase)
      params = {0.731, 5.0};
    const std::size_t numWires = info.numWires >= 0 ? static_cast<std::size_t>(info.numWires) : 3;
    const std::vector<int> gateWires(wires.begin(), wires.begin() + numWires);
    for (bool withControl : {false, true}) {
      const std::vector<int> ctrls = withControl ? std::vector<int>{2} : std::vector<int>{};
      const StateVector original = randomState(5, 10 + k);
      StateVector sv = original;
      EXPECT_OK(sv.applyGate(kind, params, gateWires, false, ctrls));
      EXPECT_OK(sv.applyGate(kind, params, gateWires, true, ctrls));
      EXPECT_LT(maxDistance(sv, original), Tol) << info.name;

      const bool selfInverse =
          kind == GateKind::Identity || kind == GateKind::PauliX || kind == GateKind::PauliY ||
          kind == GateKind::PauliZ || kind == GateKind::Hadamard || kind == GateKind::CNOT ||
          kind == GateKind::CY || kind == GateKind::CZ || kind == GateKind::SWAP ||
          kind == GateKind::Toffoli || kind == GateKind::CSWAP;
      if (!selfInverse) {
        StateVector twice = original;
        EXPECT_OK(twice.applyGate(kind, params, gateWires, false, ctrls));
        EXPECT_OK(twice.applyGate(kind, params, gateWires, false, ctrls));
        EXPECT_GT(maxDistance(twice, original), 1e-3) << info.name;
      }
    }
  }
}

TEST(SimulatorGates, AdjointOfPauliRotAndQubitUnitary) {
  const StateVector original = randomState(4, 20);
  StateVector sv = original;
  EXPECT_OK(sv.applyPauliRot(0.8, "XYIZ", {2, 0, 1, 3}, false, {}, {}));
  EXPECT_GT(maxDistance(sv, original), 1e-3);
  EXPECT_OK(sv.applyPauliRot(0.8, "XYIZ", {2, 0, 1, 3}, true, {}, {}));
  EXPECT_LT(maxDistance(sv, original), Tol);

  // A non-Hermitian unitary (CRot's matrix) so that adjoint != itself.
  const std::vector<Complex> u = controlled(rotMatrix(0.3, 1.2, -0.4));
  EXPECT_OK(sv.applyMatrix(u, {3, 1}));
  EXPECT_GT(maxDistance(sv, original), 1e-3);
  EXPECT_OK(sv.applyMatrix(u, {3, 1}, true));
  EXPECT_LT(maxDistance(sv, original), Tol);
}

TEST(SimulatorGates, QubitUnitaryMatchesNamedGates) {
  StateVector a = randomState(4, 21), b = a;
  EXPECT_OK(a.applyMatrix(controlled(rotMatrix(0.3, 1.2, -0.4)), {3, 1}));
  EXPECT_OK(b.applyGate("CRot", {0.3, 1.2, -0.4}, {3, 1}));
  EXPECT_OK(a.applyMatrix(rxMatrix(0.5), {2}, false, {0}, {false}));
  EXPECT_OK(b.applyGate("RX", {0.5}, {2}, false, {0}, {false}));
  EXPECT_LT(maxDistance(a, b), Tol);

  // 7 wires: a 128x128 matrix (heap-allocated scratch path) vs MultiRZ.
  const double t = 0.45;
  std::vector<Complex> d;
  for (int j = 0; j < 128; ++j)
    d.push_back(__builtin_parity(j) ? expi(t / 2) : expi(-t / 2));
  StateVector c = randomState(8, 22), e = c;
  EXPECT_OK(c.applyMatrix(diag(d), {7, 0, 2, 5, 1, 6, 3}));
  EXPECT_OK(e.applyGate("MultiRZ", {t}, {0, 1, 2, 3, 5, 6, 7}));
  EXPECT_LT(maxDistance(c, e), Tol);
}

/// PauliRot(theta, P) = basis change, CNOT ladder, RZ(theta), ladder back,
/// basis change back.
TEST(SimulatorGates, PauliRotMatchesCNOTLadder) {
  const double theta = 0.913;
  for (std::string_view word : {"XYZ", "YXX", "ZZZ", "XIY"}) {
    const std::vector<int> wires = {0, 2, 3};
    StateVector a = randomState(4, 30), b = a;
    EXPECT_OK(a.applyPauliRot(theta, word, wires));

    std::vector<int> active;
    for (std::size_t i = 0; i < word.size(); ++i) {
      if (word[i] == 'X')
        EXPECT_OK(b.applyGate("Hadamard", {}, {wires[i]}));
      if (word[i] == 'Y')
        EXPECT_OK(b.applyGate("RX", {Pi / 2}, {wires[i]}));
      if (word[i] != 'I')
        active.push_back(wires[i]);
    }
    for (std::size_t i = 0; i + 1 < active.size(); ++i)
      EXPECT_OK(b.applyGate("CNOT", {}, {active[i], active[i + 1]}));
    EXPECT_OK(b.applyGate("RZ", {theta}, {active.back()}));
    for (std::size_t i = active.size() - 1; i > 0; --i)
      EXPECT_OK(b.applyGate("CNOT", {}, {active[i - 1], active[i]}));
    for (std::size_t i = 0; i < word.size(); ++i) {
      if (word[i] == 'X')
        EXPECT_OK(b.applyGate("Hadamard", {}, {wires[i]}));
      if (word[i] == 'Y')
        EXPECT_OK(b.applyGate("RX", {-Pi / 2}, {wires[i]}));
    }
    EXPECT_LT(maxDistance(a, b), Tol) << word;
    EXPECT_GT(maxDistance(a, randomState(4, 30)), 1e-3) << word;
  }
  // All-identity word: a global phase e^{-i theta/2}.
  StateVector c = randomState(2, 31), d = c;
  EXPECT_OK(c.applyPauliRot(theta, "II", {0, 1}));
  EXPECT_OK(d.applyGate("GlobalPhase", {theta / 2}, {}));
  EXPECT_LT(maxDistance(c, d), Tol);
}

/// The QFT (H and ControlledPhaseShift, then a wire reversal) maps |x> to
/// sum_y e^{2 pi i x y / N} |y> / sqrt(N).
TEST(SimulatorGates, QFTOfBasisState) {
  const int n = 5;
  const std::uint64_t x = 0b10110, dim = 1u << n;
  StateVector sv(n);
  std::vector<int> bits;
  for (int w = 0; w < n; ++w)
    bits.push_back(static_cast<int>((x >> (n - 1 - w)) & 1));
  EXPECT_OK(sv.setBasisState(bits, range(n)));
  for (int j = 0; j < n; ++j) {
    EXPECT_OK(sv.applyGate("Hadamard", {}, {j}));
    for (int k = j + 1; k < n; ++k)
      EXPECT_OK(sv.applyGate("ControlledPhaseShift", {Pi / (1 << (k - j))}, {k, j}));
  }
  for (int j = 0; j < n / 2; ++j)
    EXPECT_OK(sv.applyGate("SWAP", {}, {j, n - 1 - j}));
  for (std::uint64_t y = 0; y < dim; ++y) {
    const Complex expected = expi(2 * Pi * double(x * y) / double(dim)) / std::sqrt(double(dim));
    EXPECT_LT(std::abs(sv.getAmplitude(y) - expected), Tol) << "y=" << y;
  }
}

//===----------------------------------------------------------------------===//
// State preparation
//===----------------------------------------------------------------------===//

TEST(SimulatorStateVector, SetBasisStateOverwritesRegister) {
  StateVector sv = randomState(3, 40);
  EXPECT_OK(sv.setBasisState({1, 0}, {2, 1}));
  // Wire 2 -> 1, wire 1 -> 0, wire 0 reset to 0: |001>.
  EXPECT_NEAR(std::abs(sv.getAmplitude(0b001)), 1.0, Tol);
  EXPECT_NEAR(sv.getNormSquared(), 1.0, Tol);
  EXPECT_TRUE(sv.setBasisState({2}, {0}).failed());
  EXPECT_TRUE(sv.setBasisState({1, 1}, {0}).failed());
  EXPECT_TRUE(sv.setBasisState({1, 1}, {0, 0}).failed());
  EXPECT_NEAR(std::abs(sv.getAmplitude(0b001)), 1.0, Tol);
  sv.reset();
  EXPECT_NEAR(std::abs(sv.getAmplitude(0)), 1.0, Tol);
}

TEST(SimulatorStateVector, SetStateOnSubsetOfWires) {
  StateVector sv = randomState(4, 41);
  const double r = 1.0 / std::sqrt(2.0);
  // (|01> + i|10>)/sqrt2 on wires (3, 1): wire 3 is the MSB of the sub-index.
  EXPECT_OK(sv.setState({0.0, r, I * r, 0.0}, {3, 1}));
  EXPECT_LT(std::abs(sv.getAmplitude(0b0100) - r), Tol);     // wire 1 set
  EXPECT_LT(std::abs(sv.getAmplitude(0b0001) - I * r), Tol); // wire 3 set
  EXPECT_NEAR(sv.getNormSquared(), 1.0, Tol);
  EXPECT_TRUE(sv.setState({1.0, 0.0}, {0, 1}).failed()); // wrong size
  EXPECT_TRUE(sv.setState({1.0, 1.0}, {0}).failed());    // not normed
  EXPECT_TRUE(sv.setState({1.0, 0.0}, {7}).failed());    // bad wire
  EXPECT_LT(std::abs(sv.getAmplitude(0b0100) - r), Tol); // untouched
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST(SimulatorGates, RejectsBadInputWithoutTouchingTheState) {
  const StateVector original = randomState(3, 50);
  StateVector sv = original;
  auto expectError = [&](Status status, const std::string &needle) {
    ASSERT_TRUE(status.failed()) << "expected an error mentioning " << needle;
    EXPECT_NE(status.message().find(needle), std::string::npos) << status.message();
  };
  expectError(sv.applyGate("Foo", {}, {0}), "unknown gate 'Foo'");
  expectError(sv.applyGate("RX", {}, {0}), "expects 1 parameter(s), got 0");
  expectError(sv.applyGate("RX", {0.1, 0.2}, {0}), "parameter");
  expectError(sv.applyGate("CNOT", {}, {0}), "expects 2 wire(s), got 1");
  expectError(sv.applyGate("PauliX", {}, {3}), "out of range");
  expectError(sv.applyGate("PauliX", {}, {-1}), "out of range");
  expectError(sv.applyGate("CNOT", {}, {1, 1}), "more than once");
  expectError(sv.applyGate("PauliX", {}, {1}, false, {1}), "more than once");
  expectError(sv.applyGate("PauliX", {}, {1}, false, {0, 2}, {true}), "control value");
  expectError(sv.applyGate("MultiRZ", {0.1}, {}), "at least one wire");
  expectError(sv.applyGate("RX", {std::nan("")}, {0}), "non-finite");
  expectError(sv.applyGate("PCPhase", {0.1, 9.0}, {0, 1}), "PCPhase");
  expectError(sv.applyGate("PCPhase", {0.1, 1.5}, {0, 1}), "PCPhase");
  expectError(sv.applyGate("PauliRot", {0.1}, {0}), "applyPauliRot");
  expectError(sv.applyGate("QubitUnitary", {}, {0}), "applyMatrix");
  expectError(sv.applyPauliRot(0.1, "XQ", {0, 1}), "letter");
  expectError(sv.applyPauliRot(0.1, "XY", {0}), "letter(s)");
  expectError(sv.applyMatrix({1.0, 0.0, 0.0}, {0}), "2x2");
  expectError(sv.applyMatrix({}, {}), "at least one wire");
  EXPECT_EQ(maxDistance(sv, original), 0.0);
}

} // namespace
