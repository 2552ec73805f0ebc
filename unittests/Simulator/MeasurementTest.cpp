//===- MeasurementTest.cpp - Measurements and observables -----------------===//
//
// probs, expval/var of named, tensor, Hamiltonian and Hermitian observables,
// mid-circuit measurement with postselection, and seeded sampling.
//
//===----------------------------------------------------------------------===//

#include "qshape/Simulator/StateVector.h"

#include "gtest/gtest.h"

#include <cmath>
#include <string>

using namespace qshape::sim;

namespace {

constexpr double Pi = 3.14159265358979323846;
constexpr double Tol = 1e-10;
const Complex I{0.0, 1.0};

#define EXPECT_OK(expr)                                                                            \
  do {                                                                                             \
    Status status_ = (expr);                                                                       \
    EXPECT_TRUE(status_.succeeded()) << status_.message();                                         \
  } while (false)

Observable X(int w) { return Observable::named(NamedObservable::PauliX, w); }
Observable Y(int w) { return Observable::named(NamedObservable::PauliY, w); }
Observable Z(int w) { return Observable::named(NamedObservable::PauliZ, w); }
Observable H(int w) { return Observable::named(NamedObservable::Hadamard, w); }
Observable Id(int w) { return Observable::named(NamedObservable::Identity, w); }

double expval(const StateVector &sv, const Observable &obs) {
  Expected<double> value = sv.expval(obs);
  EXPECT_TRUE(value.succeeded()) << value.message();
  return value ? *value : std::nan("");
}
double var(const StateVector &sv, const Observable &obs) {
  Expected<double> value = sv.var(obs);
  EXPECT_TRUE(value.succeeded()) << value.message();
  return value ? *value : std::nan("");
}

StateVector bell() {
  StateVector sv(2);
  EXPECT_OK(sv.applyGate("Hadamard", {}, {0}));
  EXPECT_OK(sv.applyGate("CNOT", {}, {0, 1}));
  return sv;
}

/// RX(theta) on wire 0, RY(phi) on wire 1 of a 3-qubit register.
constexpr double Theta = 0.7, Phi = 1.3;
StateVector product() {
  StateVector sv(3);
  EXPECT_OK(sv.applyGate("RX", {Theta}, {0}));
  EXPECT_OK(sv.applyGate("RY", {Phi}, {1}));
  return sv;
}

//===----------------------------------------------------------------------===//
// probs
//===----------------------------------------------------------------------===//

TEST(SimulatorMeasurements, BellStateProbabilities) {
  StateVector sv = bell();
  Expected<std::vector<double>> all = sv.probs();
  ASSERT_TRUE(all.succeeded());
  ASSERT_EQ(all->size(), 4u);
  EXPECT_NEAR((*all)[0], 0.5, Tol);
  EXPECT_NEAR((*all)[1], 0.0, Tol);
  EXPECT_NEAR((*all)[2], 0.0, Tol);
  EXPECT_NEAR((*all)[3], 0.5, Tol);
  Expected<std::vector<double>> one = sv.probs({1});
  ASSERT_TRUE(one.succeeded());
  EXPECT_NEAR((*one)[0], 0.5, Tol);
  EXPECT_NEAR((*one)[1], 0.5, Tol);
}

TEST(SimulatorMeasurements, ProbsFollowGivenWireOrder) {
  // Wire 0 is |0>, wire 1 is |1>, wire 2 is sqrt(0.3)|0> + sqrt(0.7)|1>.
  StateVector sv(3);
  EXPECT_OK(sv.applyGate("PauliX", {}, {1}));
  EXPECT_OK(sv.applyGate("RY", {2 * std::acos(std::sqrt(0.3))}, {2}));
  // P(wire2 = 0) = 0.3, P(wire2 = 1) = 0.7, wire 1 always 1.
  Expected<std::vector<double>> p = sv.probs({2, 1});
  ASSERT_TRUE(p.succeeded());
  // Index = 2 * wire2 + wire1.
  EXPECT_NEAR((*p)[0b00], 0.0, Tol);
  EXPECT_NEAR((*p)[0b01], 0.3, Tol);
  EXPECT_NEAR((*p)[0b10], 0.0, Tol);
  EXPECT_NEAR((*p)[0b11], 0.7, Tol);
  Expected<std::vector<double>> q = sv.probs({1, 2});
  ASSERT_TRUE(q.succeeded());
  EXPECT_NEAR((*q)[0b10], 0.3, Tol);
  EXPECT_NEAR((*q)[0b11], 0.7, Tol);
  EXPECT_TRUE(sv.probs({1, 1}).failed());
  EXPECT_TRUE(sv.probs({3}).failed());
}

//===----------------------------------------------------------------------===//
// expval / var
//===----------------------------------------------------------------------===//

TEST(SimulatorMeasurements, NamedObservables) {
  const StateVector sv = product();
  EXPECT_NEAR(expval(sv, Z(0)), std::cos(Theta), Tol);
  EXPECT_NEAR(expval(sv, Y(0)), -std::sin(Theta), Tol);
  EXPECT_NEAR(expval(sv, X(0)), 0.0, Tol);
  EXPECT_NEAR(expval(sv, X(1)), std::sin(Phi), Tol);
  EXPECT_NEAR(expval(sv, Z(1)), std::cos(Phi), Tol);
  EXPECT_NEAR(expval(sv, Z(2)), 1.0, Tol);
  EXPECT_NEAR(expval(sv, Id(1)), 1.0, Tol);
  EXPECT_NEAR(expval(sv, H(1)), (std::sin(Phi) + std::cos(Phi)) / std::sqrt(2), Tol);

  EXPECT_NEAR(var(sv, Z(0)), std::sin(Theta) * std::sin(Theta), Tol);
  EXPECT_NEAR(var(sv, X(0)), 1.0, Tol);
  EXPECT_NEAR(var(sv, Z(2)), 0.0, Tol);
  EXPECT_NEAR(var(sv, Id(0)), 0.0, Tol);
  const double h = (std::sin(Phi) + std::cos(Phi)) / std::sqrt(2);
  EXPECT_NEAR(var(sv, H(1)), 1.0 - h * h, Tol);
}

TEST(SimulatorMeasurements, TensorProducts) {
  const StateVector sv = product();
  EXPECT_NEAR(expval(sv, Observable::tensor({Z(0), X(1)})), std::cos(Theta) * std::sin(Phi), Tol);
  EXPECT_NEAR(expval(sv, Observable::tensor({Y(0), Z(1), Z(2)})), -std::sin(Theta) * std::cos(Phi),
              Tol);
  // A Hadamard factor takes the general (copy-and-apply) path.
  EXPECT_NEAR(expval(sv, Observable::tensor({Z(0), H(1)})),
              std::cos(Theta) * (std::sin(Phi) + std::cos(Phi)) / std::sqrt(2), Tol);
  const double zx = std::cos(Theta) * std::sin(Phi);
  EXPECT_NEAR(var(sv, Observable::tensor({Z(0), X(1)})), 1.0 - zx * zx, Tol);

  // Entangled: <Z0 Z1> = 1 and <X0 X1> = 1 on a Bell state, <Z0> = 0.
  const StateVector b = bell();
  EXPECT_NEAR(expval(b, Observable::tensor({Z(0), Z(1)})), 1.0, Tol);
  EXPECT_NEAR(expval(b, Observable::tensor({X(0), X(1)})), 1.0, Tol);
  EXPECT_NEAR(expval(b, Observable::tensor({Y(0), Y(1)})), -1.0, Tol);
  EXPECT_NEAR(expval(b, Z(0)), 0.0, Tol);
}

TEST(SimulatorMeasurements, HamiltonianExpvalAndVar) {
  const StateVector sv = product();
  const Observable ham =
      Observable::hamiltonian({0.5, 0.3, -0.2}, {Z(0), X(1), Observable::tensor({Z(0), X(1)})});
  const double c = std::cos(Theta), s = std::sin(Phi);
  EXPECT_NEAR(expval(sv, ham), 0.5 * c + 0.3 * s - 0.2 * c * s, Tol);

  // One qubit: (aZ + bX)^2 = (a^2 + b^2) I, so var = a^2 + b^2 - <aZ + bX>^2.
  StateVector one(1);
  EXPECT_OK(one.applyGate("RY", {Phi}, {0}));
  const double a = 0.8, bcoef = -0.45;
  const Observable h1 = Observable::hamiltonian({a, bcoef}, {Z(0), X(0)});
  const double mean = a * std::cos(Phi) + bcoef * std::sin(Phi);
  EXPECT_NEAR(expval(one, h1), mean, Tol);
  EXPECT_NEAR(var(one, h1), a * a + bcoef * bcoef - mean * mean, Tol);
}

TEST(SimulatorMeasurements, HermitianObservables) {
  const StateVector sv = product();
  // Z (x) Z as a matrix on wires (0, 1) equals the tensor product.
  const Observable zz = Observable::hermitian(
      {1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0}, {0, 1});
  EXPECT_NEAR(expval(sv, zz), std::cos(Theta) * std::cos(Phi), Tol);

  // A generic 2x2 Hermitian on RY(phi)|0> = (cos, sin): <A> = a00 c^2 +
  // a11 s^2 + 2 Re(a01) c s.
  StateVector one(1);
  EXPECT_OK(one.applyGate("RY", {Phi}, {0}));
  const Observable a = Observable::hermitian({1.0, 2.0 - I, 2.0 + I, -3.0}, {0});
  const double c = std::cos(Phi / 2), s = std::sin(Phi / 2);
  const double mean = c * c - 3 * s * s + 4 * c * s;
  EXPECT_NEAR(expval(one, a), mean, Tol);
  // <A^2> = |A psi|^2 with A psi = (v0, v1).
  const Complex v0 = 1.0 * c + (2.0 - I) * s, v1 = (2.0 + I) * c - 3.0 * s;
  EXPECT_NEAR(var(one, a), std::norm(v0) + std::norm(v1) - mean * mean, Tol);
}

TEST(SimulatorMeasurements, RejectsBadObservables) {
  const StateVector sv = product();
  EXPECT_TRUE(sv.expval(Z(3)).failed());
  EXPECT_TRUE(sv.expval(Observable::tensor({Z(0), X(0)})).failed());
  EXPECT_TRUE(sv.expval(Observable::hermitian({1.0, I, I, 1.0}, {0})).failed());
  EXPECT_TRUE(sv.expval(Observable::hermitian({1.0, 0.0}, {0})).failed());
  EXPECT_TRUE(sv.var(Observable::hamiltonian({1.0}, {Z(0), Z(1)})).failed());
  EXPECT_TRUE(lookupNamedObservable("PauliQ").failed());
  Expected<NamedObservable> x = lookupNamedObservable("PauliX");
  ASSERT_TRUE(x.succeeded());
  EXPECT_EQ(*x, NamedObservable::PauliX);
  EXPECT_EQ(Observable::tensor({Z(0), X(1)}).str(), "PauliZ(0) @ PauliX(1)");
}

//===----------------------------------------------------------------------===//
// Mid-circuit measurement
//===----------------------------------------------------------------------===//

TEST(SimulatorMeasurements, MeasureWithPostselect) {
  StateVector sv = bell();
  Expected<int> outcome = sv.measure(0, 1);
  ASSERT_TRUE(outcome.succeeded()) << outcome.message();
  EXPECT_EQ(*outcome, 1);
  // Collapsed and renormalized onto |11>.
  EXPECT_NEAR(std::abs(sv.getAmplitude(0b11)), 1.0, Tol);
  EXPECT_NEAR(sv.getNormSquared(), 1.0, Tol);
  // Wire 1 is now |1>: postselecting 0 has probability 0.
  const StateVector before = sv;
  Expected<int> impossible = sv.measure(1, 0);
  ASSERT_TRUE(impossible.failed());
  EXPECT_NE(impossible.message().find("postselect"), std::string::npos);
  EXPECT_EQ(sv.getState(), before.getState());
  EXPECT_TRUE(sv.measure(1, 2).failed());
  EXPECT_TRUE(sv.measure(5).failed());
}

TEST(SimulatorMeasurements, MeasureCollapsesWithSeededStatistics) {
  // RY(theta)|0> on wire 0, entangled onto wire 1: P(1) = sin^2(theta/2).
  const double theta = 1.1, p1 = std::sin(theta / 2) * std::sin(theta / 2);
  const int trials = 4000;
  int ones = 0;
  StateVector sv(2, /*seed=*/1234);
  for (int t = 0; t < trials; ++t) {
    sv.reset();
    EXPECT_OK(sv.applyGate("RY", {theta}, {0}));
    EXPECT_OK(sv.applyGate("CNOT", {}, {0, 1}));
    Expected<int> outcome = sv.measure(0);
    ASSERT_TRUE(outcome.succeeded());
    ones += *outcome;
    // Collapse: wire 1 agrees with the outcome, the state is normalized.
    EXPECT_NEAR(std::abs(sv.getAmplitude(*outcome ? 0b11 : 0b00)), 1.0, Tol);
  }
  const double sigma = std::sqrt(p1 * (1 - p1) / trials);
  EXPECT_NEAR(double(ones) / trials, p1, 5 * sigma);

  // Deterministic: the same seed gives the same outcomes.
  auto outcomes = [&](std::uint64_t seed) {
    StateVector s(1, seed);
    std::vector<int> result;
    for (int t = 0; t < 64; ++t) {
      s.reset();
      EXPECT_OK(s.applyGate("Hadamard", {}, {0}));
      result.push_back(*s.measure(0));
    }
    return result;
  };
  EXPECT_EQ(outcomes(7), outcomes(7));
  EXPECT_NE(outcomes(7), outcomes(8));
}

//===----------------------------------------------------------------------===//
// Sampling
//===----------------------------------------------------------------------===//

TEST(SimulatorMeasurements, SampleStatisticsWithSeed) {
  const double theta = 0.9, p1 = std::sin(theta / 2) * std::sin(theta / 2);
  StateVector sv(3, /*seed=*/42);
  EXPECT_OK(sv.applyGate("RY", {theta}, {0}));
  EXPECT_OK(sv.applyGate("PauliX", {}, {2}));
  const std::size_t shots = 20000;
  Expected<std::vector<int>> samples = sv.sample(shots);
  ASSERT_TRUE(samples.succeeded());
  ASSERT_EQ(samples->size(), shots * 3);
  std::size_t ones0 = 0;
  for (std::size_t s = 0; s < shots; ++s) {
    ones0 += (*samples)[s * 3 + 0];
    EXPECT_EQ((*samples)[s * 3 + 1], 0);
    EXPECT_EQ((*samples)[s * 3 + 2], 1);
  }
  const double sigma = std::sqrt(p1 * (1 - p1) / shots);
  EXPECT_NEAR(double(ones0) / shots, p1, 5 * sigma);

  // Columns follow the requested wire order.
  Expected<std::vector<int>> sub = sv.sample(10, {2, 1});
  ASSERT_TRUE(sub.succeeded());
  for (std::size_t s = 0; s < 10; ++s) {
    EXPECT_EQ((*sub)[s * 2 + 0], 1);
    EXPECT_EQ((*sub)[s * 2 + 1], 0);
  }

  // Reproducible for a seed, different for another.
  StateVector a(2, 99), b(2, 99), c(2, 100);
  for (StateVector *s : {&a, &b, &c})
    EXPECT_OK(s->applyGate("Hadamard", {}, {0}));
  EXPECT_EQ(*a.sample(256), *b.sample(256));
  EXPECT_NE(*a.sample(256), *c.sample(256));
  // setSeed restarts the sequence.
  a.setSeed(5);
  const std::vector<int> first = *a.sample(256);
  a.setSeed(5);
  EXPECT_EQ(*a.sample(256), first);
  EXPECT_TRUE(a.sample(4, {0, 0}).failed());
}

TEST(SimulatorMeasurements, CountsOfBellState) {
  StateVector sv = bell();
  sv.setSeed(5);
  const std::size_t shots = 10000;
  Expected<std::vector<std::uint64_t>> counts = sv.counts(shots);
  ASSERT_TRUE(counts.succeeded());
  ASSERT_EQ(counts->size(), 4u);
  EXPECT_EQ((*counts)[1], 0u);
  EXPECT_EQ((*counts)[2], 0u);
  EXPECT_EQ((*counts)[0] + (*counts)[3], shots);
  EXPECT_NEAR(double((*counts)[0]) / shots, 0.5, 5 * std::sqrt(0.25 / shots));
}

TEST(SimulatorMeasurements, SampleObservableEigenvalues) {
  // |+> on wire 0, |+i> on wire 1, |0> on wire 2.
  StateVector sv(3, 77);
  EXPECT_OK(sv.applyGate("Hadamard", {}, {0}));
  EXPECT_OK(sv.applyGate("RX", {-Pi / 2}, {1}));
  for (const Observable &obs : {X(0), Y(1), Z(2), Observable::tensor({X(0), Y(1)})}) {
    Expected<std::vector<double>> eig = sv.sample(obs, 200);
    ASSERT_TRUE(eig.succeeded()) << eig.message();
    for (double e : *eig)
      EXPECT_EQ(e, 1.0) << obs.str();
  }
  Expected<std::vector<double>> minus = sv.sample(Observable::tensor({X(0), Y(1), Z(2)}), 50);
  ASSERT_TRUE(minus.succeeded());
  EXPECT_EQ((*minus)[0], 1.0);
  // Z on |+>: +-1 with mean ~0; Hadamard on |0>: mean 1/sqrt2.
  const std::size_t shots = 20000;
  double sumZ = 0.0, sumH = 0.0;
  Expected<std::vector<double>> zSamples = sv.sample(Z(0), shots);
  Expected<std::vector<double>> hSamples = sv.sample(H(2), shots);
  ASSERT_TRUE(zSamples.succeeded() && hSamples.succeeded());
  for (double e : *zSamples)
    sumZ += e;
  for (double e : *hSamples)
    sumH += e;
  EXPECT_NEAR(sumZ / shots, 0.0, 5 / std::sqrt(double(shots)));
  EXPECT_NEAR(sumH / shots, 1 / std::sqrt(2.0), 5 / std::sqrt(double(shots)));

  Expected<std::vector<std::pair<double, std::uint64_t>>> counts = sv.counts(Z(0), shots);
  ASSERT_TRUE(counts.succeeded());
  ASSERT_EQ(counts->size(), 2u);
  EXPECT_EQ((*counts)[0].first, -1.0);
  EXPECT_EQ((*counts)[1].first, 1.0);
  EXPECT_EQ((*counts)[0].second + (*counts)[1].second, shots);
  EXPECT_GT((*counts)[0].second, 0u);
  EXPECT_GT((*counts)[1].second, 0u);

  EXPECT_TRUE(sv.sample(Observable::hermitian({1.0, 0.0, 0.0, -1.0}, {0}), 5).failed());
}

} // namespace
