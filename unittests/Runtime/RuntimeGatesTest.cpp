//===- RuntimeGatesTest.cpp - Gates through the runtime's C ABI -----------===//
//
// Every gate function of libqshape-runtime.so, called as compiled code calls
// it, with and without adjoint and controls (control values mixed): the
// state must be what sim::Device computes for the same gate (a separate
// device, so the ABI's argument order, modifier decoding and wire handling
// are what is under test), and analytic values for a sample of gates.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

#include <functional>
#include <set>
#include <string>

#include <dlfcn.h>

using namespace qshape;
using namespace qshape::runtime::test;
using sim::GateKind;

namespace {

struct FixedGate {
  GateKind kind;
  unsigned numParams, numWires;
  std::function<void(const double *, QUBIT *const *, const Modifiers *)> call;
};

#define G0(N, W, ...)                                                                              \
  FixedGate {                                                                                      \
    GateKind::N, 0, W, [](const double *p, QUBIT *const *q, const Modifiers *m) {                  \
      (void)p;                                                                                     \
      __catalyst__qis__##N(__VA_ARGS__, m);                                                        \
    }                                                                                              \
  }
#define GP(N, P, W, ...)                                                                           \
  FixedGate {                                                                                      \
    GateKind::N, P, W, [](const double *p, QUBIT *const *q, const Modifiers *m) {                  \
      __catalyst__qis__##N(__VA_ARGS__, m);                                                        \
    }                                                                                              \
  }

std::vector<FixedGate> fixedGates() {
  return {
      G0(PauliX, 1, q[0]),
      G0(PauliY, 1, q[0]),
      G0(PauliZ, 1, q[0]),
      G0(Hadamard, 1, q[0]),
      G0(S, 1, q[0]),
      G0(T, 1, q[0]),
      G0(SX, 1, q[0]),
      GP(PhaseShift, 1, 1, p[0], q[0]),
      GP(RX, 1, 1, p[0], q[0]),
      GP(RY, 1, 1, p[0], q[0]),
      GP(RZ, 1, 1, p[0], q[0]),
      GP(Rot, 3, 1, p[0], p[1], p[2], q[0]),
      G0(CNOT, 2, q[0], q[1]),
      G0(CY, 2, q[0], q[1]),
      G0(CZ, 2, q[0], q[1]),
      G0(SWAP, 2, q[0], q[1]),
      G0(ISWAP, 2, q[0], q[1]),
      GP(PSWAP, 1, 2, p[0], q[0], q[1]),
      GP(IsingXX, 1, 2, p[0], q[0], q[1]),
      GP(IsingYY, 1, 2, p[0], q[0], q[1]),
      GP(IsingXY, 1, 2, p[0], q[0], q[1]),
      GP(IsingZZ, 1, 2, p[0], q[0], q[1]),
      GP(SingleExcitation, 1, 2, p[0], q[0], q[1]),
      GP(ControlledPhaseShift, 1, 2, p[0], q[0], q[1]),
      GP(CRX, 1, 2, p[0], q[0], q[1]),
      GP(CRY, 1, 2, p[0], q[0], q[1]),
      GP(CRZ, 1, 2, p[0], q[0], q[1]),
      GP(CRot, 3, 2, p[0], p[1], p[2], q[0], q[1]),
      G0(CSWAP, 3, q[0], q[1], q[2]),
      G0(Toffoli, 3, q[0], q[1], q[2]),
      GP(DoubleExcitation, 1, 4, p[0], q[0], q[1], q[2], q[3]),
  };
}

/// A gate added to the simulator's catalogue needs its runtime function (or
/// qshape-sim and compiled programs disagree on what runs) and its row in
/// fixedGates() (or it goes untested here).
TEST(RuntimeCatalogue, EveryGateOfTheSimulatorHasItsFunction) {
  std::set<GateKind> tested = {GateKind::Identity,    GateKind::MultiRZ,  GateKind::PCPhase,
                               GateKind::GlobalPhase, GateKind::PauliRot, GateKind::QubitUnitary};
  for (const FixedGate &gate : fixedGates())
    tested.insert(gate.kind);
  for (int k = 0; k <= static_cast<int>(GateKind::QubitUnitary); ++k) {
    const auto kind = static_cast<GateKind>(k);
    const std::string name(sim::getGateInfo(kind).name);
    EXPECT_NE(dlsym(RTLD_DEFAULT, ("__catalyst__qis__" + name).c_str()), nullptr) << name;
    EXPECT_TRUE(tested.count(kind)) << name << " has no test";
  }
}

/// A 6-wire session and an independent device in the same random state.
class RuntimeGates : public RuntimeTest {
protected:
  static constexpr unsigned N = 6;
  void SetUp() override {
    RuntimeTest::SetUp();
    reg = __catalyst__rt__qubit_allocate_array(N);
    for (unsigned i = 0; i < N; ++i)
      q[i] = slot(reg, i);
    prepare(randomAmplitudes(N, 7));
  }
  void prepare(const std::vector<Complex> &amps) {
    std::vector<CplxT_double> buf = toABI(amps);
    MemRefT_CplxT_double_1d m = complexMemRef(buf);
    __catalyst__qis__SetState(&m, N, q[0], q[1], q[2], q[3], q[4], q[5]);
    device = sim::Device();
    ASSERT_TRUE(device.allocate(N).succeeded());
    std::vector<int> all = {0, 1, 2, 3, 4, 5};
    ASSERT_TRUE(device.setState(amps, all).succeeded());
  }
  std::vector<Complex> deviceState() { return *device.state({}); }

  QirArray *reg = nullptr;
  QUBIT *q[N] = {};
  sim::Device device;
};

struct ModifierCase {
  const char *name;
  bool adjoint;
  std::vector<int> ctrls;
  std::vector<bool> values;
};

const ModifierCase modifierCases[] = {
    {"none", false, {}, {}},
    {"adjoint", true, {}, {}},
    {"control", false, {5}, {true}},
    {"controls-mixed-adjoint", true, {4, 5}, {false, true}},
};

/// The Modifiers struct compiled code builds for a case, over qubits `q`.
struct ModifierArgs {
  ModifierArgs(const ModifierCase &mc, QUBIT *const *q) {
    for (std::size_t i = 0; i < mc.ctrls.size(); ++i) {
      ctrls[i] = q[mc.ctrls[i]];
      values[i] = mc.values[i];
    }
    mods = {mc.adjoint, mc.ctrls.size(), reinterpret_cast<QUBIT *>(ctrls), values};
  }
  QUBIT *ctrls[2] = {};
  bool values[2] = {};
  Modifiers mods;
};

TEST_F(RuntimeGates, EveryFixedGateWithModifiersMatchesTheDevice) {
  const double params[3] = {0.731, -1.234, 0.517};
  const int targets[4] = {2, 0, 3, 1};
  for (const FixedGate &gate : fixedGates()) {
    const char *name = sim::getGateInfo(gate.kind).name.data();
    for (const ModifierCase &mc : modifierCases) {
      SCOPED_TRACE(std::string(name) + " / " + mc.name);
      prepare(randomAmplitudes(N, 100 + static_cast<unsigned>(gate.kind)));
      QUBIT *wires[4];
      for (unsigned i = 0; i < gate.numWires; ++i)
        wires[i] = q[targets[i]];
      ModifierArgs mods(mc, q);
      const bool plain = !mc.adjoint && mc.ctrls.empty();
      gate.call(params, wires, plain ? nullptr : &mods.mods);

      sim::GateApplication app;
      app.kind = gate.kind;
      app.params = sim::ArrayView<double>(params, gate.numParams);
      app.wires = sim::ArrayView<int>(targets, gate.numWires);
      app.adjoint = mc.adjoint;
      app.ctrlWires = mc.ctrls;
      app.ctrlValues = sim::ArrayView<bool>(mods.values, mc.ctrls.size());
      ASSERT_TRUE(device.applyGate(app).succeeded());
      EXPECT_LT(maxDistance(runtimeState(), deviceState()), Tol);
    }
  }
}

/// The same test with a modifier that changes nothing would pass for a
/// runtime that ignored modifiers: each case must differ from the plain gate
/// for a gate that is not symmetric under it.
TEST_F(RuntimeGates, ModifiersChangeTheResult) {
  const std::vector<Complex> start = randomAmplitudes(N, 3);
  std::vector<std::vector<Complex>> results;
  for (const ModifierCase &mc : modifierCases) {
    prepare(start);
    ModifierArgs mods(mc, q);
    __catalyst__qis__Rot(0.3, 1.1, -0.7, q[1], &mods.mods);
    results.push_back(runtimeState());
  }
  for (std::size_t i = 0; i < results.size(); ++i)
    for (std::size_t j = i + 1; j < results.size(); ++j)
      EXPECT_GT(maxDistance(results[i], results[j]), 1e-3)
          << modifierCases[i].name << " vs " << modifierCases[j].name;
}

/// Single-wire states |b0 b1 ...>.
std::vector<Complex> basis(unsigned n, std::uint64_t index) {
  std::vector<Complex> amps(std::size_t{1} << n);
  amps[index] = 1.0;
  return amps;
}

class RuntimeGatesAnalytic : public RuntimeTest {
protected:
  QirArray *alloc(int n) {
    QirArray *r = __catalyst__rt__qubit_allocate_array(n);
    for (int i = 0; i < n; ++i)
      q.push_back(slot(r, i));
    return r;
  }
  std::vector<QUBIT *> q;
};

TEST_F(RuntimeGatesAnalytic, NamedGates) {
  alloc(2);
  // |00> -X(0)-> |10> -CNOT-> |11>
  __catalyst__qis__PauliX(q[0], nullptr);
  __catalyst__qis__CNOT(q[0], q[1], nullptr);
  EXPECT_LT(maxDistance(runtimeState(), basis(2, 3)), Tol);
  // PSWAP(phi)|01> = e^{i phi}|10>
  __catalyst__qis__PauliX(q[0], nullptr);
  __catalyst__qis__PSWAP(0.4, q[0], q[1], nullptr);
  std::vector<Complex> expect = basis(2, 2);
  expect[2] = std::polar(1.0, 0.4);
  EXPECT_LT(maxDistance(runtimeState(), expect), Tol);
}

TEST_F(RuntimeGatesAnalytic, AdjointAndControlValues) {
  alloc(2);
  // S^dagger H|0> = (|0> - i|1>)/sqrt2 on wire 1.
  Modifiers adj{true, 0, nullptr, nullptr};
  __catalyst__qis__Hadamard(q[1], nullptr);
  __catalyst__qis__S(q[1], &adj);
  const double r = 1 / std::sqrt(2.0);
  EXPECT_LT(maxDistance(runtimeState(), {r, Complex(0, -r), 0, 0}), Tol);
  // RX on wire 1 controlled on wire 0 being |0> (it is).
  __catalyst__rt__finalize();
  __catalyst__rt__initialize(nullptr);
  q.clear();
  alloc(2);
  QUBIT *ctrls[1] = {q[0]};
  bool values[1] = {false};
  Modifiers ctrl0{false, 1, reinterpret_cast<QUBIT *>(ctrls), values};
  __catalyst__qis__RX(0.8, q[1], &ctrl0);
  EXPECT_LT(maxDistance(runtimeState(), {std::cos(0.4), Complex(0, -std::sin(0.4)), 0, 0}), Tol);
  // Controlled on |1>: nothing happens.
  values[0] = true;
  __catalyst__qis__RX(0.8, q[1], &ctrl0);
  EXPECT_LT(maxDistance(runtimeState(), {std::cos(0.4), Complex(0, -std::sin(0.4)), 0, 0}), Tol);
}

TEST_F(RuntimeGatesAnalytic, ControlledGlobalPhase) {
  alloc(1);
  __catalyst__qis__Hadamard(q[0], nullptr);
  QUBIT *ctrls[1] = {q[0]};
  bool values[1] = {true};
  Modifiers mods{false, 1, reinterpret_cast<QUBIT *>(ctrls), values};
  __catalyst__qis__GlobalPhase(0.6, &mods);
  const double r = 1 / std::sqrt(2.0);
  EXPECT_LT(maxDistance(runtimeState(), {r, r * std::polar(1.0, -0.6)}), Tol);
  // Uncontrolled: a phase on everything.
  __catalyst__qis__GlobalPhase(0.6, nullptr);
  EXPECT_LT(maxDistance(runtimeState(), {r * std::polar(1.0, -0.6), r * std::polar(1.0, -1.2)}),
            Tol);
}

TEST_F(RuntimeGatesAnalytic, VariadicGates) {
  alloc(3);
  // |110>: MultiRZ on (0, 1) sees even parity: e^{-i theta/2}; on (0, 2) odd.
  __catalyst__qis__PauliX(q[0], nullptr);
  __catalyst__qis__PauliX(q[1], nullptr);
  __catalyst__qis__MultiRZ(0.5, nullptr, 2, q[0], q[1]);
  __catalyst__qis__MultiRZ(0.3, nullptr, 2, q[0], q[2]);
  std::vector<Complex> expect = basis(3, 6);
  expect[6] = std::polar(1.0, -0.25 + 0.15);
  EXPECT_LT(maxDistance(runtimeState(), expect), Tol);
  // PCPhase(phi, dim=1) on wire 2 (|0>, inside the first dim states): e^{i phi}.
  __catalyst__qis__PCPhase(0.2, 1, nullptr, 1, q[2]);
  expect[6] *= std::polar(1.0, 0.2);
  EXPECT_LT(maxDistance(runtimeState(), expect), Tol);
  // Identity takes its wire through the variadic form and changes nothing.
  __catalyst__qis__Identity(nullptr, 1, q[1]);
  EXPECT_LT(maxDistance(runtimeState(), expect), Tol);
}

TEST_F(RuntimeGatesAnalytic, PauliRotIsARotationAndHonoursCond) {
  alloc(2);
  __catalyst__qis__PauliRot("IX", 0.9, nullptr, false, 2, q[0], q[1]);
  EXPECT_LT(maxDistance(runtimeState(), basis(2, 0)), Tol);
  __catalyst__qis__PauliRot("IX", 0.9, nullptr, true, 2, q[0], q[1]);
  // exp(-i 0.45 X) on wire 1.
  EXPECT_LT(maxDistance(runtimeState(), {std::cos(0.45), Complex(0, -std::sin(0.45)), 0, 0}), Tol);
}

TEST_F(RuntimeGatesAnalytic, QubitUnitaryReadsStrides) {
  alloc(1);
  // U = [[0, 1], [i, 0]] stored column-major: strides {1, 2}.
  std::vector<CplxT_double> colMajor = {{0, 0}, {0, 1}, {1, 0}, {0, 0}};
  MemRefT_CplxT_double_2d u{colMajor.data(), colMajor.data(), 0, {2, 2}, {1, 2}};
  __catalyst__qis__QubitUnitary(&u, nullptr, 1, q[0]);
  // U|0> = i|1>.
  EXPECT_LT(maxDistance(runtimeState(), {0, Complex(0, 1)}), Tol);
  // Adjoint: U^dagger i|1> = i * (-i)|0> = |0>.
  Modifiers adj{true, 0, nullptr, nullptr};
  __catalyst__qis__QubitUnitary(&u, &adj, 1, q[0]);
  EXPECT_LT(maxDistance(runtimeState(), {1, 0}), Tol);
}

TEST_F(RuntimeGatesAnalytic, SetStateAndSetBasisState) {
  alloc(3);
  // wires[i] takes bits[i]: wire 2 = 1, wire 0 = 0, wire 1 = 1 -> |011>.
  std::vector<int8_t> bits = {1, 0, 1};
  MemRefT_int8_1d b{bits.data(), bits.data(), 0, {3}, {1}};
  __catalyst__qis__SetBasisState(&b, 3, q[2], q[0], q[1]);
  EXPECT_LT(maxDistance(runtimeState(), basis(3, 3)), Tol);
  // set_state on two wires overwrites the whole device: wire 0 is |0>.
  const double r = 1 / std::sqrt(2.0);
  std::vector<CplxT_double> amps = {{r, 0}, {0, 0}, {0, 0}, {0, r}};
  MemRefT_CplxT_double_1d s = complexMemRef(amps);
  __catalyst__qis__SetState(&s, 2, q[2], q[1]);
  std::vector<Complex> expect(8);
  expect[0] = r;
  expect[3] = Complex(0, r);
  EXPECT_LT(maxDistance(runtimeState(), expect), Tol);
}

TEST_F(RuntimeGatesAnalytic, AllocationGrowsTheState) {
  QirArray *a = __catalyst__rt__qubit_allocate_array(1);
  __catalyst__qis__Hadamard(slot(a, 0), nullptr);
  QirArray *b = __catalyst__rt__qubit_allocate_array(1);
  QUBIT *extra = __catalyst__rt__qubit_allocate();
  EXPECT_EQ(__catalyst__rt__num_qubits(), 3);
  EXPECT_EQ(reinterpret_cast<QubitIdType>(slot(b, 0)), 1);
  EXPECT_EQ(reinterpret_cast<QubitIdType>(extra), 2);
  __catalyst__qis__CNOT(slot(a, 0), slot(b, 0), nullptr);
  const double r = 1 / std::sqrt(2.0);
  std::vector<Complex> expect(8);
  expect[0] = expect[6] = r;
  EXPECT_LT(maxDistance(runtimeState(), expect), Tol);
  QShapeRuntimeStats stats;
  qshape_runtime_get_stats(&stats);
  EXPECT_EQ(stats.gates_applied, 2u);
  EXPECT_EQ(stats.max_wires, 3u);
}

TEST_F(RuntimeGatesAnalytic, RegistersAndRelease) {
  QirArray *r = __catalyst__rt__qubit_allocate_array(3);
  EXPECT_EQ(__catalyst__rt__array_get_size_1d(r), 3);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(reinterpret_cast<QubitIdType>(slot(r, i)), i);
  // An update makes the slot hold another qubit.
  __catalyst__rt__array_update_element_1d(r, 0, qubitOf(2));
  EXPECT_EQ(reinterpret_cast<QubitIdType>(slot(r, 0)), 2);
  __catalyst__qis__PauliX(slot(r, 1), nullptr);
  __catalyst__rt__qubit_release_array(r);
  __catalyst__rt__device_release();
  EXPECT_EQ(__catalyst__rt__num_qubits(), 0);
  // A new device session starts at wire 0 in |0...0>.
  QirArray *s = __catalyst__rt__qubit_allocate_array(2);
  EXPECT_EQ(reinterpret_cast<QubitIdType>(slot(s, 0)), 0);
  EXPECT_LT(maxDistance(runtimeState(), basis(2, 0)), Tol);
}

} // namespace
