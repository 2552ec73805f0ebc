//===- Measurements.cpp - Terminal measurements ---------------------------===//
//
// probs, expval, var, sample and counts. Expectation values of Pauli words
// (named Pauli observables and tensor products of them) are computed directly
// from the amplitudes; other observables are applied to a copy of the state.
//
//===----------------------------------------------------------------------===//

#include "qshape/Simulator/StateVector.h"

#include "Kernels.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

using namespace qshape::sim;
using namespace qshape::sim::detail;

namespace {

constexpr double kPi = 3.14159265358979323846;

/// A named single-wire observable in a (possibly nested) tensor product.
struct NamedFactor {
  int wire;
  NamedObservable name;
};

/// Appends the factors of `obs` if it is a named observable or a tensor
/// product of them; returns false otherwise.
bool collectNamedFactors(const Observable &obs, std::vector<NamedFactor> &factors) {
  switch (obs.getKind()) {
  case Observable::Kind::Named:
    factors.push_back({obs.getWires()[0], obs.getName()});
    return true;
  case Observable::Kind::Tensor:
    for (const Observable &factor : obs.getOperands())
      if (!collectNamedFactors(factor, factors))
        return false;
    return true;
  default:
    return false;
  }
}

/// A Pauli string as bit masks: flip = X or Y positions, y = Y positions,
/// z = Z positions.
struct PauliMasks {
  std::uint64_t flip = 0, y = 0, z = 0;
};

/// The masks of `obs` if it is a Pauli word (Identity/PauliX/Y/Z factors).
std::optional<PauliMasks> getPauliWord(const Observable &obs, unsigned numQubits) {
  std::vector<NamedFactor> factors;
  if (!collectNamedFactors(obs, factors))
    return std::nullopt;
  PauliMasks masks;
  for (const NamedFactor &factor : factors) {
    const std::uint64_t bit = std::uint64_t{1} << wireToBit(numQubits, factor.wire);
    switch (factor.name) {
    case NamedObservable::Identity:
      break;
    case NamedObservable::PauliX:
      masks.flip |= bit;
      break;
    case NamedObservable::PauliY:
      masks.flip |= bit;
      masks.y |= bit;
      break;
    case NamedObservable::PauliZ:
      masks.z |= bit;
      break;
    case NamedObservable::Hadamard:
      return std::nullopt;
    }
  }
  return masks;
}

/// <psi|P|psi> with P|x> = i^{#Y} (-1)^{|x & (y|z)|} |x ^ flip>.
double pauliExpectation(const std::vector<Complex> &amps, const PauliMasks &masks) {
  const Complex coupling = powerOfI(popcount(masks.y));
  const std::uint64_t signMask = masks.y | masks.z;
  double sum = 0.0;
  for (std::uint64_t x = 0, e = amps.size(); x < e; ++x) {
    const Complex term = mul(std::conj(amps[x ^ masks.flip]), amps[x]);
    const double re = mul(coupling, term).real();
    sum += parity(x & signMask) ? -re : re;
  }
  return sum;
}

/// Applies a verified non-Hamiltonian observable to `sv` as an operator.
void applyFactor(StateVector &sv, const Observable &obs) {
  switch (obs.getKind()) {
  case Observable::Kind::Named: {
    const int wire = obs.getWires()[0];
    Status status = Status::success();
    switch (obs.getName()) {
    case NamedObservable::Identity:
      break;
    case NamedObservable::PauliX:
      status = sv.applyGate(GateKind::PauliX, {}, {wire});
      break;
    case NamedObservable::PauliY:
      status = sv.applyGate(GateKind::PauliY, {}, {wire});
      break;
    case NamedObservable::PauliZ:
      status = sv.applyGate(GateKind::PauliZ, {}, {wire});
      break;
    case NamedObservable::Hadamard:
      status = sv.applyGate(GateKind::Hadamard, {}, {wire});
      break;
    }
    assert(status.succeeded() && "observable was verified");
    (void)status;
    return;
  }
  case Observable::Kind::Hermitian: {
    Status status = sv.applyMatrix(obs.getMatrix(), obs.getWires());
    assert(status.succeeded() && "observable was verified");
    (void)status;
    return;
  }
  case Observable::Kind::Tensor:
    for (const Observable &factor : obs.getOperands())
      applyFactor(sv, factor);
    return;
  case Observable::Kind::Hamiltonian:
    assert(false && "Hamiltonians are summed, not applied in place");
    return;
  }
}

/// Rotates `sv` so that measuring `factor`'s wire in the computational basis
/// measures `factor` (PennyLane's diagonalizing gates).
void diagonalize(StateVector &sv, const NamedFactor &factor) {
  Status status = Status::success();
  switch (factor.name) {
  case NamedObservable::Identity:
  case NamedObservable::PauliZ:
    break;
  case NamedObservable::PauliX:
    status = sv.applyGate(GateKind::Hadamard, {}, {factor.wire});
    break;
  case NamedObservable::PauliY:
    // H S^dagger Y S H = Z.
    status = sv.applyGate(GateKind::S, {}, {factor.wire}, /*adjoint=*/true);
    if (status.succeeded())
      status = sv.applyGate(GateKind::Hadamard, {}, {factor.wire});
    break;
  case NamedObservable::Hadamard:
    status = sv.applyGate(GateKind::RY, {-kPi / 4}, {factor.wire});
    break;
  }
  assert(status.succeeded() && "observable was verified");
  (void)status;
}

std::vector<int> allWires(unsigned numQubits) {
  std::vector<int> wires(numQubits);
  std::iota(wires.begin(), wires.end(), 0);
  return wires;
}

} // namespace

Expected<std::vector<double>> StateVector::probs(ArrayView<int> wires) const {
  if (wires.empty()) {
    std::vector<double> result(amps.size());
    for (std::uint64_t i = 0, e = amps.size(); i < e; ++i)
      result[i] = std::norm(amps[i]);
    return result;
  }
  if (Status status = checkWires(wires, {}, {}); status.failed())
    return Status::error("probs: " + status.message());
  const auto k = static_cast<unsigned>(wires.size());
  std::array<unsigned, 64> bits{};
  for (unsigned t = 0; t < k; ++t)
    bits[t] = wireToBit(numQubits, wires[t]);
  std::vector<double> result(std::uint64_t{1} << k, 0.0);
  for (std::uint64_t i = 0, e = amps.size(); i < e; ++i) {
    std::uint64_t sub = 0;
    for (unsigned t = 0; t < k; ++t)
      sub = (sub << 1) | ((i >> bits[t]) & 1U);
    result[sub] += std::norm(amps[i]);
  }
  return result;
}

std::vector<Complex> StateVector::applyObservable(const Observable &obs) const {
  if (obs.getKind() == Observable::Kind::Hamiltonian) {
    std::vector<Complex> sum(amps.size(), Complex{0.0, 0.0});
    for (std::size_t t = 0; t < obs.getOperands().size(); ++t) {
      const std::vector<Complex> term = applyObservable(obs.getOperands()[t]);
      const double coeff = obs.getCoeffs()[t];
      for (std::uint64_t i = 0, e = sum.size(); i < e; ++i)
        sum[i] += coeff * term[i];
    }
    return sum;
  }
  StateVector copy(*this);
  applyFactor(copy, obs);
  return std::move(copy.amps);
}

Expected<double> StateVector::expval(const Observable &obs) const {
  if (Status status = obs.verify(numQubits); status.failed())
    return Status::error("expval: " + status.message());
  if (obs.getKind() == Observable::Kind::Hamiltonian) {
    double sum = 0.0;
    for (std::size_t t = 0; t < obs.getOperands().size(); ++t)
      sum += obs.getCoeffs()[t] * *expval(obs.getOperands()[t]);
    return sum;
  }
  if (std::optional<PauliMasks> masks = getPauliWord(obs, numQubits))
    return pauliExpectation(amps, *masks);
  if (obs.getKind() == Observable::Kind::Named && obs.getName() == NamedObservable::Hadamard) {
    // H = (X + Z) / sqrt(2).
    const std::uint64_t bit = std::uint64_t{1} << wireToBit(numQubits, obs.getWires()[0]);
    return (pauliExpectation(amps, {bit, 0, 0}) + pauliExpectation(amps, {0, 0, bit})) /
           std::sqrt(2.0);
  }
  const std::vector<Complex> applied = applyObservable(obs);
  double sum = 0.0;
  for (std::uint64_t i = 0, e = amps.size(); i < e; ++i)
    sum += mul(std::conj(amps[i]), applied[i]).real();
  return sum;
}

Expected<double> StateVector::var(const Observable &obs) const {
  if (Status status = obs.verify(numQubits); status.failed())
    return Status::error("var: " + status.message());
  std::vector<NamedFactor> factors;
  if (collectNamedFactors(obs, factors)) {
    // Products of Pauli/Hadamard/Identity factors square to the identity.
    const double mean = *expval(obs);
    return 1.0 - mean * mean;
  }
  const std::vector<Complex> applied = applyObservable(obs);
  double mean = 0.0, meanOfSquare = 0.0;
  for (std::uint64_t i = 0, e = amps.size(); i < e; ++i) {
    mean += mul(std::conj(amps[i]), applied[i]).real();
    meanOfSquare += std::norm(applied[i]);
  }
  return meanOfSquare - mean * mean;
}

std::vector<std::uint64_t> StateVector::drawIndices(std::size_t shots, std::vector<double> probs) {
  std::partial_sum(probs.begin(), probs.end(), probs.begin());
  const double total = probs.back();
  std::vector<std::uint64_t> indices(shots);
  for (std::size_t s = 0; s < shots; ++s) {
    const double u = uniform() * total;
    const auto it = std::upper_bound(probs.begin(), probs.end(), u);
    indices[s] = static_cast<std::uint64_t>(std::min<std::ptrdiff_t>(
        it - probs.begin(), static_cast<std::ptrdiff_t>(probs.size()) - 1));
  }
  return indices;
}

Expected<std::vector<int>> StateVector::sample(std::size_t shots, ArrayView<int> wires) {
  const std::vector<int> selected = wires.empty() ? allWires(numQubits) : wires.vec();
  Expected<std::vector<double>> p = probs(selected);
  if (p.failed())
    return Status::error("sample: " + p.message());
  const std::size_t k = selected.size();
  const std::vector<std::uint64_t> indices = drawIndices(shots, std::move(*p));
  std::vector<int> bits(shots * k);
  for (std::size_t s = 0; s < shots; ++s)
    for (std::size_t j = 0; j < k; ++j)
      bits[s * k + j] = static_cast<int>((indices[s] >> (k - 1 - j)) & 1U);
  return bits;
}

Expected<std::vector<double>> StateVector::sample(const Observable &obs, std::size_t shots) {
  if (Status status = obs.verify(numQubits); status.failed())
    return Status::error("sample: " + status.message());
  std::vector<NamedFactor> factors;
  if (!collectNamedFactors(obs, factors))
    return Status::error("sample: only named observables and tensor products "
                         "of them can be sampled, not " +
                         obs.str());
  std::vector<int> measured;
  bool needsRotation = false;
  for (const NamedFactor &factor : factors) {
    if (factor.name == NamedObservable::Identity)
      continue;
    measured.push_back(factor.wire);
    needsRotation |= factor.name != NamedObservable::PauliZ;
  }
  if (measured.empty())
    return std::vector<double>(shots, 1.0);

  Expected<std::vector<double>> p = Status::error("unset");
  if (needsRotation) {
    StateVector rotated(*this);
    for (const NamedFactor &factor : factors)
      diagonalize(rotated, factor);
    p = rotated.probs(measured);
  } else {
    p = probs(measured);
  }
  const std::vector<std::uint64_t> indices = drawIndices(shots, std::move(*p));
  std::vector<double> eigenvalues(shots);
  for (std::size_t s = 0; s < shots; ++s)
    eigenvalues[s] = popcount(indices[s]) & 1U ? -1.0 : 1.0;
  return eigenvalues;
}

Expected<std::vector<std::uint64_t>> StateVector::counts(std::size_t shots, ArrayView<int> wires) {
  const std::vector<int> selected = wires.empty() ? allWires(numQubits) : wires.vec();
  Expected<std::vector<double>> p = probs(selected);
  if (p.failed())
    return Status::error("counts: " + p.message());
  std::vector<std::uint64_t> histogram(p->size(), 0);
  for (std::uint64_t index : drawIndices(shots, std::move(*p)))
    ++histogram[index];
  return histogram;
}

Expected<std::vector<std::pair<double, std::uint64_t>>> StateVector::counts(const Observable &obs,
                                                                            std::size_t shots) {
  Expected<std::vector<double>> samples = sample(obs, shots);
  if (samples.failed())
    return Status::error("counts: " + samples.message());
  std::vector<NamedFactor> factors;
  collectNamedFactors(obs, factors);
  const bool identityOnly = std::all_of(factors.begin(), factors.end(), [](const NamedFactor &f) {
    return f.name == NamedObservable::Identity;
  });
  if (identityOnly)
    return std::vector<std::pair<double, std::uint64_t>>{{1.0, shots}};
  std::uint64_t minus = 0;
  for (double eigenvalue : *samples)
    minus += eigenvalue < 0 ? 1 : 0;
  return std::vector<std::pair<double, std::uint64_t>>{{-1.0, minus}, {1.0, shots - minus}};
}
