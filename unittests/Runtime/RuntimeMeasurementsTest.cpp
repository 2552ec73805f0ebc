//===- RuntimeMeasurementsTest.cpp - Observables and measurements ---------===//
//
// Observables (named, Hermitian, tensor, Hamiltonian), expval/var, probs,
// state, sample, counts and mid-circuit measurement through the C ABI:
// analytic values where they exist, and, for everything that draws from the
// random stream (shots, measurement), equality with an independent
// sim::Device given the same seed and the same calls.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

using namespace qshape;
using namespace qshape::runtime::test;

namespace {

/// A plain gate on an independent device.
sim::Status apply(sim::Device &device, sim::GateKind kind, std::vector<double> params,
                  std::vector<int> wires) {
  sim::GateApplication gate;
  gate.kind = kind;
  gate.params = params;
  gate.wires = wires;
  return device.applyGate(gate);
}

class RuntimeObservables : public RuntimeTest {
protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    QirArray *r = __catalyst__rt__qubit_allocate_array(2);
    q0 = slot(r, 0);
    q1 = slot(r, 1);
  }
  QUBIT *q0 = nullptr, *q1 = nullptr;
};

TEST_F(RuntimeObservables, NamedObservables) {
  const double theta = 0.7;
  __catalyst__qis__RY(theta, q0, nullptr);
  const ObsIdType z = __catalyst__qis__NamedObs(QSHAPE_OBS_PAULI_Z, q0);
  const ObsIdType x = __catalyst__qis__NamedObs(QSHAPE_OBS_PAULI_X, q0);
  const ObsIdType y = __catalyst__qis__NamedObs(QSHAPE_OBS_PAULI_Y, q0);
  const ObsIdType h = __catalyst__qis__NamedObs(QSHAPE_OBS_HADAMARD, q0);
  const ObsIdType i = __catalyst__qis__NamedObs(QSHAPE_OBS_IDENTITY, q1);
  EXPECT_NEAR(__catalyst__qis__Expval(z), std::cos(theta), Tol);
  EXPECT_NEAR(__catalyst__qis__Expval(x), std::sin(theta), Tol);
  EXPECT_NEAR(__catalyst__qis__Expval(y), 0.0, Tol);
  EXPECT_NEAR(__catalyst__qis__Expval(h), (std::cos(theta) + std::sin(theta)) / std::sqrt(2.0),
              Tol);
  EXPECT_NEAR(__catalyst__qis__Expval(i), 1.0, Tol);
  EXPECT_NEAR(__catalyst__qis__Variance(z), std::sin(theta) * std::sin(theta), Tol);
  // Ids are handed out in order.
  EXPECT_EQ(z, 0);
  EXPECT_EQ(i, 4);
}

TEST_F(RuntimeObservables, HermitianTensorHamiltonian) {
  // |+> on wire 0, |0> on wire 1.
  __catalyst__qis__Hadamard(q0, nullptr);
  std::vector<CplxT_double> m = {{2, 0}, {1, -1}, {1, 1}, {3, 0}};
  MemRefT_CplxT_double_2d mat{m.data(), m.data(), 0, {2, 2}, {2, 1}};
  const ObsIdType herm0 = __catalyst__qis__HermitianObs(&mat, 1, q0);
  const ObsIdType herm1 = __catalyst__qis__HermitianObs(&mat, 1, q1);
  // <+|M|+> = (2 + 3 + (1-i) + (1+i)) / 2 = 3.5; <0|M|0> = 2.
  EXPECT_NEAR(__catalyst__qis__Expval(herm0), 3.5, Tol);
  EXPECT_NEAR(__catalyst__qis__Expval(herm1), 2.0, Tol);
  // var on |0>: <M^2> - <M>^2 = (4 + 2) - 4 = 2.
  EXPECT_NEAR(__catalyst__qis__Variance(herm1), 2.0, Tol);

  const ObsIdType x0 = __catalyst__qis__NamedObs(QSHAPE_OBS_PAULI_X, q0);
  const ObsIdType z1 = __catalyst__qis__NamedObs(QSHAPE_OBS_PAULI_Z, q1);
  const ObsIdType x0z1 = __catalyst__qis__TensorObs(2, x0, z1);
  EXPECT_NEAR(__catalyst__qis__Expval(x0z1), 1.0, Tol);
  __catalyst__qis__PauliX(q1, nullptr);
  EXPECT_NEAR(__catalyst__qis__Expval(x0z1), -1.0, Tol);

  // H = 0.5 X0 + 2 Z1 - 0.25 X0 Z1, strided coefficients.
  std::vector<double> c = {0.5, 99, 2.0, 99, -0.25};
  MemRefT_double_1d coeffs{c.data(), c.data(), 0, {3}, {2}};
  const ObsIdType ham = __catalyst__qis__HamiltonianObs(&coeffs, 3, x0, z1, x0z1);
  EXPECT_NEAR(__catalyst__qis__Expval(ham), 0.5 - 2.0 + 0.25, Tol);
}

TEST_F(RuntimeObservables, ProbsAndStateInTheGivenWireOrder) {
  __catalyst__qis__PauliX(q1, nullptr); // |01>
  std::vector<double> p(4);
  MemRefT_double_1d out{p.data(), p.data(), 0, {4}, {1}};
  __catalyst__qis__Probs(&out, 0);
  EXPECT_EQ(p, (std::vector<double>{0, 1, 0, 0}));
  __catalyst__qis__Probs(&out, 2, q1, q0);
  EXPECT_EQ(p, (std::vector<double>{0, 0, 1, 0}));
  std::vector<double> p1(2);
  MemRefT_double_1d one{p1.data(), p1.data(), 0, {2}, {1}};
  __catalyst__qis__Probs(&one, 1, q1);
  EXPECT_EQ(p1, (std::vector<double>{0, 1}));

  std::vector<CplxT_double> s(4);
  MemRefT_CplxT_double_1d st{s.data(), s.data(), 0, {4}, {1}};
  __catalyst__qis__State(&st, 2, q1, q0);
  EXPECT_EQ(s[2].real, 1.0);
  EXPECT_EQ(s[1].real, 0.0);
}

/// A runtime session and a device with the same seed and shots, fed the
/// same calls, must draw the same outcomes.
class RuntimeShots : public RuntimeTest {
protected:
  void start(std::uint64_t seed, std::int64_t shots) {
    restart(options(seed, shots));
    sim::DeviceOptions o;
    o.seed = seed;
    if (shots >= 0)
      o.shots = static_cast<std::uint64_t>(shots);
    device = sim::Device(o);
  }
  sim::Device device;
};

TEST_F(RuntimeShots, SampleAndCountsFollowTheSeed) {
  start(42, 200);
  __catalyst__rt__device_init(nullptr, nullptr, nullptr, 1000, false);
  QirArray *r = __catalyst__rt__qubit_allocate_array(2);
  __catalyst__qis__Hadamard(slot(r, 0), nullptr);
  __catalyst__qis__CNOT(slot(r, 0), slot(r, 1), nullptr);
  ASSERT_TRUE(device.initDevice(1000).succeeded());
  ASSERT_TRUE(device.allocate(2).succeeded());
  ASSERT_TRUE(apply(device, sim::GateKind::Hadamard, {}, {0}).succeeded());
  ASSERT_TRUE(apply(device, sim::GateKind::CNOT, {}, {0, 1}).succeeded());

  // The configured 200 shots override the device's 1000.
  std::vector<double> samples(200 * 2);
  MemRefT_double_2d out{samples.data(), samples.data(), 0, {200, 2}, {2, 1}};
  __catalyst__qis__Sample(&out, 0);
  std::vector<int> expect = *device.sample(sim::ArrayView<int>());
  ASSERT_EQ(expect.size(), samples.size());
  int ones = 0;
  for (std::size_t k = 0; k < samples.size(); ++k) {
    EXPECT_EQ(samples[k], expect[k]);
    ones += samples[k] == 1.0;
  }
  for (std::size_t s = 0; s < 200; ++s)
    EXPECT_EQ(samples[2 * s], samples[2 * s + 1]); // a Bell pair
  EXPECT_GT(ones, 100);
  EXPECT_LT(ones, 300);

  std::vector<double> eig(4);
  std::vector<int64_t> counts(4);
  PairT_MemRefT_double_int64_1d pair{{eig.data(), eig.data(), 0, {4}, {1}},
                                     {counts.data(), counts.data(), 0, {4}, {1}}};
  __catalyst__qis__Counts(&pair, 2, slot(r, 0), slot(r, 1));
  std::vector<std::uint64_t> c = *device.counts({0, 1});
  EXPECT_EQ(eig, (std::vector<double>{0, 1, 2, 3}));
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(static_cast<std::uint64_t>(counts[k]), c[k]);
  EXPECT_EQ(counts[1] + counts[2], 0);
  EXPECT_EQ(counts[0] + counts[3], 200);
}

TEST_F(RuntimeShots, ShotEstimatesFollowTheSeed) {
  start(9, 2000);
  QirArray *r = __catalyst__rt__qubit_allocate_array(2);
  __catalyst__qis__RY(0.9, slot(r, 0), nullptr);
  __catalyst__qis__RX(-0.4, slot(r, 1), nullptr);
  const ObsIdType z0 = __catalyst__qis__NamedObs(QSHAPE_OBS_PAULI_Z, slot(r, 0));
  const ObsIdType x1 = __catalyst__qis__NamedObs(QSHAPE_OBS_PAULI_Y, slot(r, 1));
  std::vector<double> c = {0.5, -1.5};
  MemRefT_double_1d coeffs{c.data(), c.data(), 0, {2}, {1}};
  const ObsIdType ham = __catalyst__qis__HamiltonianObs(&coeffs, 2, z0, x1);
  const double e = __catalyst__qis__Expval(ham);
  const double v = __catalyst__qis__Variance(z0);
  std::vector<double> p(4);
  MemRefT_double_1d out{p.data(), p.data(), 0, {4}, {1}};
  __catalyst__qis__Probs(&out, 0);

  ASSERT_TRUE(device.allocate(2).succeeded());
  ASSERT_TRUE(apply(device, sim::GateKind::RY, {0.9}, {0}).succeeded());
  ASSERT_TRUE(apply(device, sim::GateKind::RX, {-0.4}, {1}).succeeded());
  sim::Observable hamObs = sim::Observable::hamiltonian(
      {0.5, -1.5}, {sim::Observable::named(sim::NamedObservable::PauliZ, 0),
                    sim::Observable::named(sim::NamedObservable::PauliY, 1)});
  EXPECT_EQ(e, *device.expval(hamObs));
  EXPECT_EQ(v, *device.var(sim::Observable::named(sim::NamedObservable::PauliZ, 0)));
  EXPECT_EQ(p, *device.probs({}));
  // Estimates, not exact values, but close to them.
  const double exact = 0.5 * std::cos(0.9) - 1.5 * std::sin(0.4);
  EXPECT_NE(e, exact);
  EXPECT_NEAR(e, exact, 0.15);
}

TEST_F(RuntimeShots, MeasurementStreamFollowsTheSeed) {
  for (std::uint32_t seed : {5u, 6u}) {
    // A seed given to __catalyst__rt__initialize (quantum.init's attribute).
    __catalyst__rt__finalize();
    qshape_runtime_configure(nullptr);
    __catalyst__rt__initialize(&seed);
    sim::DeviceOptions o;
    o.seed = seed;
    device = sim::Device(o);
    QirArray *r = __catalyst__rt__qubit_allocate_array(1);
    ASSERT_TRUE(device.allocate(1).succeeded());
    std::string got, want;
    for (int k = 0; k < 32; ++k) {
      __catalyst__qis__Hadamard(slot(r, 0), nullptr);
      RESULT *m = __catalyst__qis__Measure(slot(r, 0), -1);
      got += *m ? '1' : '0';
      ASSERT_TRUE(apply(device, sim::GateKind::Hadamard, {}, {0}).succeeded());
      want += *device.measure(0) ? '1' : '0';
    }
    EXPECT_EQ(got, want) << "seed " << seed;
    EXPECT_NE(got.find('0'), std::string::npos);
    EXPECT_NE(got.find('1'), std::string::npos);
  }
}

TEST_F(RuntimeShots, ConfiguredSeedWinsOverInitializeSeed) {
  auto stream = [](std::uint32_t *initSeed, const QShapeRuntimeOptions *o) {
    __catalyst__rt__finalize();
    qshape_runtime_configure(o);
    __catalyst__rt__initialize(initSeed);
    QirArray *r = __catalyst__rt__qubit_allocate_array(1);
    std::string bits;
    for (int k = 0; k < 40; ++k) {
      __catalyst__qis__Hadamard(slot(r, 0), nullptr);
      bits += *__catalyst__qis__Measure(slot(r, 0), -1) ? '1' : '0';
    }
    return bits;
  };
  std::uint32_t five = 5, six = 6;
  const QShapeRuntimeOptions seven = options(7);
  EXPECT_NE(stream(&five, nullptr), stream(&six, nullptr));
  EXPECT_EQ(stream(&five, &seven), stream(&six, &seven));
  EXPECT_EQ(stream(nullptr, &seven), stream(&five, &seven));
}

TEST_F(RuntimeShots, PostselectCollapses) {
  start(1, -1);
  QirArray *r = __catalyst__rt__qubit_allocate_array(2);
  for (int outcome : {1, 0, 1}) {
    __catalyst__qis__Hadamard(slot(r, 0), nullptr);
    RESULT *m = __catalyst__qis__Measure(slot(r, 0), outcome);
    EXPECT_EQ(*m, outcome == 1);
    EXPECT_TRUE(__catalyst__rt__result_equal(m, outcome ? __catalyst__rt__result_get_one()
                                                        : __catalyst__rt__result_get_zero()));
    const std::vector<double> p = runtimeProbs();
    EXPECT_NEAR(p[outcome ? 2 : 0], 1.0, Tol);
  }
}

TEST_F(RuntimeShots, DeviceShotsWithoutOverride) {
  start(3, -1);
  __catalyst__rt__device_init(nullptr, nullptr, nullptr, 5, false);
  QirArray *r = __catalyst__rt__qubit_allocate_array(1);
  __catalyst__qis__PauliX(slot(r, 0), nullptr);
  std::vector<double> samples(5);
  MemRefT_double_2d out{samples.data(), samples.data(), 0, {5, 1}, {1, 1}};
  __catalyst__qis__Sample(&out, 1, slot(r, 0));
  EXPECT_EQ(samples, (std::vector<double>(5, 1.0)));
  // With shots, Expval of PauliZ on |1> is estimated: exactly -1 anyway.
  EXPECT_EQ(__catalyst__qis__Expval(__catalyst__qis__NamedObs(QSHAPE_OBS_PAULI_Z, slot(r, 0))),
            -1.0);
}

} // namespace
