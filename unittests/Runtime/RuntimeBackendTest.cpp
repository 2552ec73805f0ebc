//===- RuntimeBackendTest.cpp - The runtime's devices on their own --------===//
//
// The QuantumBackend of each device (lib/Runtime/Backend.h), with no session
// and no C ABI: the same calls on a fresh sim::Device give NullQubit's fixed
// values on null.qubit and the simulator's real ones on the simulator. The
// ABI tests and test/Runtime/devices.mlir cover the same through the runtime.
//
//===----------------------------------------------------------------------===//

#include "Backend.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace qshape;
using namespace qshape::runtime;

namespace {

constexpr double kTol = 1e-12;
constexpr double kTheta = 0.5;

/// What the calls of run() return.
struct Results {
  double expval = -1;
  double var = -1;
  int measured = -1;
  /// Of the device after the calls, |q0 q1>.
  std::vector<double> probs;
};

sim::Status apply(QuantumBackend &backend, sim::GateKind kind, std::vector<double> params,
                  std::vector<int> wires) {
  sim::GateApplication gate;
  gate.kind = kind;
  gate.params = params;
  gate.wires = wires;
  return backend.applyGate(gate);
}

/// On two wires: RX(theta) on wire 0, then <Z0> and var(Z0); Hadamard on
/// wire 1, then a measurement of it postselected on 1.
Results run(DeviceKind kind) {
  sim::Device device;
  EXPECT_TRUE(device.allocate(2).succeeded());
  std::unique_ptr<QuantumBackend> backend = makeBackend(kind, device);
  EXPECT_EQ(backend->getKind(), kind);
  Results out;
  EXPECT_TRUE(apply(*backend, sim::GateKind::RX, {kTheta}, {0}).succeeded());
  const sim::Observable z0 = sim::Observable::named(sim::NamedObservable::PauliZ, 0);
  sim::Expected<double> e = backend->expval(z0);
  sim::Expected<double> v = backend->var(z0);
  EXPECT_TRUE(apply(*backend, sim::GateKind::Hadamard, {}, {1}).succeeded());
  sim::Expected<int> m = backend->measure(1, 1);
  sim::Expected<std::vector<double>> p = device.probs({});
  if (!e || !v || !m || !p) {
    ADD_FAILURE() << "a call failed";
    return out;
  }
  return {*e, *v, *m, *p};
}

TEST(RuntimeBackend, NullQubitReturnsFixedValues) {
  const Results r = run(DeviceKind::Null);
  EXPECT_EQ(r.expval, 0.0);
  EXPECT_EQ(r.var, 0.0);
  // 0 although the measurement is postselected on 1.
  EXPECT_EQ(r.measured, 0);
  // The gates left the device in |00>.
  EXPECT_EQ(r.probs, (std::vector<double>{1, 0, 0, 0}));
}

TEST(RuntimeBackend, SimulatorReturnsRealValues) {
  const Results r = run(DeviceKind::Simulator);
  EXPECT_NEAR(r.expval, std::cos(kTheta), kTol);
  EXPECT_NEAR(r.var, std::sin(kTheta) * std::sin(kTheta), kTol);
  EXPECT_EQ(r.measured, 1);
  const double p1 = std::sin(kTheta / 2) * std::sin(kTheta / 2);
  const std::vector<double> expected = {0, 1 - p1, 0, p1};
  ASSERT_EQ(r.probs.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    EXPECT_NEAR(r.probs[i], expected[i], kTol) << "basis state " << i;
}

TEST(RuntimeBackend, NullQubitPreparesNothing) {
  for (DeviceKind kind : {DeviceKind::Null, DeviceKind::Simulator}) {
    sim::Device device;
    ASSERT_TRUE(device.allocate(2).succeeded());
    std::unique_ptr<QuantumBackend> backend = makeBackend(kind, device);
    const std::vector<int> bits = {1, 1}, wires = {0, 1};
    ASSERT_TRUE(backend->setBasisState(bits, wires).succeeded());
    sim::Expected<std::vector<double>> p = device.probs({});
    ASSERT_TRUE(p.succeeded());
    const bool null = kind == DeviceKind::Null;
    EXPECT_EQ(*p, (std::vector<double>{null ? 1.0 : 0.0, 0, 0, null ? 0.0 : 1.0}));
  }
}

} // namespace
