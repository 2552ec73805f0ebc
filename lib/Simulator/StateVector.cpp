//===- StateVector.cpp - State-vector simulator core ----------------------===//
//
// Construction, state preparation, matrix and Pauli-rotation gates, and
// mid-circuit measurement. Named gates are in Gates.cpp, terminal
// measurements in Measurements.cpp.
//
//===----------------------------------------------------------------------===//

#include "qshape/Simulator/StateVector.h"

#include "Kernels.h"

#include <array>
#include <cmath>
#include <new>
#include <string>

using namespace qshape::sim;
using namespace qshape::sim::detail;

StateVector::StateVector(unsigned numQubits, std::uint64_t seed)
    : numQubits(numQubits), amps(std::uint64_t{1} << numQubits), rng(seed) {
  assert(numQubits <= kMaxQubits && "too many qubits; use create()");
  amps[0] = 1.0;
}

Expected<StateVector> StateVector::create(unsigned numQubits, std::uint64_t seed) {
  if (numQubits > kMaxQubits)
    return Status::error("cannot simulate " + std::to_string(numQubits) + " qubits (at most " +
                         std::to_string(kMaxQubits) + ")");
  return StateVector(numQubits, seed);
}

double StateVector::getNormSquared() const {
  double sum = 0.0;
  for (const Complex &a : amps)
    sum += std::norm(a);
  return sum;
}

void StateVector::setSeed(std::uint64_t seed) { rng.seed(seed); }

double StateVector::uniform() {
  // 53 random bits: the same sequence on every standard library.
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

Status StateVector::checkWires(ArrayView<int> wires, ArrayView<int> ctrlWires,
                               const std::vector<bool> &ctrlValues) const {
  if (!ctrlValues.empty() && ctrlValues.size() != ctrlWires.size())
    return Status::error(std::to_string(ctrlValues.size()) + " control value(s) for " +
                         std::to_string(ctrlWires.size()) + " control wire(s)");
  std::uint64_t seen = 0;
  for (ArrayView<int> list : {wires, ctrlWires}) {
    for (int wire : list) {
      if (wire < 0 || static_cast<unsigned>(wire) >= numQubits)
        return Status::error("wire " + std::to_string(wire) + " is out of range for " +
                             std::to_string(numQubits) + " qubit(s)");
      const std::uint64_t bit = std::uint64_t{1} << wire;
      if (seen & bit)
        return Status::error("wire " + std::to_string(wire) + " is used more than once");
      seen |= bit;
    }
  }
  return Status::success();
}

//===----------------------------------------------------------------------===//
// State preparation
//===----------------------------------------------------------------------===//

void StateVector::reset() {
  std::fill(amps.begin(), amps.end(), Complex{0.0, 0.0});
  amps[0] = 1.0;
}

Status StateVector::addQubits(unsigned extra) {
  if (extra == 0)
    return Status::success();
  if (extra > kMaxQubits - numQubits)
    return Status::error("cannot simulate " + std::to_string(numQubits + std::uint64_t{extra}) +
                         " qubits (at most " + std::to_string(kMaxQubits) + ")");
  const std::uint64_t oldDim = amps.size();
  try {
    amps.resize(oldDim << extra);
  } catch (const std::bad_alloc &) {
    return Status::error("out of memory: cannot allocate the state of " +
                         std::to_string(numQubits + extra) + " qubits");
  }
  // From the top down, so that no amplitude is overwritten before it moved:
  // the target i << extra of source i is above every source still to move.
  for (std::uint64_t i = oldDim; i-- > 1;) {
    amps[i << extra] = amps[i];
    amps[i] = Complex{0.0, 0.0};
  }
  numQubits += extra;
  return Status::success();
}

Status StateVector::setBasisState(ArrayView<int> bits, ArrayView<int> wires) {
  if (bits.size() != wires.size())
    return Status::error("set_basis_state: " + std::to_string(bits.size()) + " bit(s) for " +
                         std::to_string(wires.size()) + " wire(s)");
  if (Status status = checkWires(wires, {}, {}); status.failed())
    return Status::error("set_basis_state: " + status.message());
  std::uint64_t index = 0;
  for (std::size_t i = 0; i < bits.size(); ++i) {
    if (bits[i] != 0 && bits[i] != 1)
      return Status::error("set_basis_state: bit " + std::to_string(bits[i]) +
                           " is neither 0 nor 1");
    if (bits[i])
      index |= std::uint64_t{1} << wireToBit(numQubits, wires[i]);
  }
  std::fill(amps.begin(), amps.end(), Complex{0.0, 0.0});
  amps[index] = 1.0;
  return Status::success();
}

Status StateVector::setState(ArrayView<Complex> state, ArrayView<int> wires) {
  if (Status status = checkWires(wires, {}, {}); status.failed())
    return Status::error("set_state: " + status.message());
  const std::uint64_t dim = std::uint64_t{1} << wires.size();
  if (state.size() != dim)
    return Status::error("set_state: " + std::to_string(state.size()) + " amplitude(s) for " +
                         std::to_string(wires.size()) + " wire(s), expected " +
                         std::to_string(dim));
  double norm = 0.0;
  for (const Complex &a : state)
    norm += std::norm(a);
  if (std::abs(norm - 1.0) > 1e-8)
    return Status::error("set_state: the state has squared norm " + std::to_string(norm) +
                         ", not 1");
  std::array<unsigned, 64> bits{};
  for (std::size_t t = 0; t < wires.size(); ++t)
    bits[t] = wireToBit(numQubits, wires[t]);
  const auto k = static_cast<unsigned>(wires.size());
  std::fill(amps.begin(), amps.end(), Complex{0.0, 0.0});
  for (std::uint64_t j = 0; j < dim; ++j)
    amps[subIndexOffset(j, bits.data(), k)] = state[j];
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Matrix and Pauli-rotation gates
//===----------------------------------------------------------------------===//

Status StateVector::applyMatrix(ArrayView<Complex> matrix, ArrayView<int> wires, bool adjoint,
                                ArrayView<int> ctrlWires, const std::vector<bool> &ctrlValues) {
  if (wires.empty())
    return Status::error("QubitUnitary expects at least one wire");
  if (Status status = checkWires(wires, ctrlWires, ctrlValues); status.failed())
    return Status::error("QubitUnitary has bad wires: " + status.message());
  const auto k = static_cast<unsigned>(wires.size());
  const std::uint64_t dim = std::uint64_t{1} << k;
  if (matrix.size() != dim * dim)
    return Status::error("QubitUnitary on " + std::to_string(k) + " wire(s) expects a " +
                         std::to_string(dim) + "x" + std::to_string(dim) + " matrix, got " +
                         std::to_string(matrix.size()) + " entries");

  FixedBits fixed;
  for (std::size_t i = 0; i < ctrlWires.size(); ++i)
    fixed.add(wireToBit(numQubits, ctrlWires[i]), ctrlValues.empty() || ctrlValues[i]);
  std::array<unsigned, 64> targetBits{};
  for (unsigned t = 0; t < k; ++t) {
    targetBits[t] = wireToBit(numQubits, wires[t]);
    fixed.add(targetBits[t], false);
  }
  const IndexSpace space = fixed.space(numQubits);

  if (k == 1) {
    std::array<Complex, 4> m{matrix[0], matrix[1], matrix[2], matrix[3]};
    if (adjoint)
      m = {std::conj(matrix[0]), std::conj(matrix[2]), std::conj(matrix[1]), std::conj(matrix[3])};
    applyMatrix1(amps.data(), space, std::uint64_t{1} << targetBits[0], m.data());
    return Status::success();
  }

  // Small blocks on the stack; larger unitaries allocate once per call.
  constexpr std::uint64_t kStackDim = 64;
  std::array<std::uint64_t, kStackDim> offsetBuf{};
  std::array<Complex, kStackDim> scratchBuf{};
  std::vector<std::uint64_t> offsetVec;
  std::vector<Complex> scratchVec;
  std::uint64_t *offsets = offsetBuf.data();
  Complex *scratch = scratchBuf.data();
  if (dim > kStackDim) {
    offsetVec.resize(dim);
    scratchVec.resize(dim);
    offsets = offsetVec.data();
    scratch = scratchVec.data();
  }
  for (std::uint64_t j = 0; j < dim; ++j)
    offsets[j] = subIndexOffset(j, targetBits.data(), k);
  if (adjoint)
    applyMatrixK<true>(amps.data(), space, offsets, dim, matrix.data(), scratch);
  else
    applyMatrixK<false>(amps.data(), space, offsets, dim, matrix.data(), scratch);
  return Status::success();
}

Status StateVector::applyPauliRot(double theta, std::string_view word, ArrayView<int> wires,
                                  bool adjoint, ArrayView<int> ctrlWires,
                                  const std::vector<bool> &ctrlValues) {
  if (wires.empty())
    return Status::error("PauliRot expects at least one wire");
  if (word.size() != wires.size())
    return Status::error("PauliRot word '" + std::string(word) + "' has " +
                         std::to_string(word.size()) + " letter(s) for " +
                         std::to_string(wires.size()) + " wire(s)");
  if (!std::isfinite(theta))
    return Status::error("PauliRot has a non-finite parameter");
  if (Status status = checkWires(wires, ctrlWires, ctrlValues); status.failed())
    return Status::error("PauliRot has bad wires: " + status.message());

  std::uint64_t flipMask = 0, yMask = 0, zMask = 0;
  for (std::size_t i = 0; i < word.size(); ++i) {
    const std::uint64_t bit = std::uint64_t{1} << wireToBit(numQubits, wires[i]);
    switch (word[i]) {
    case 'I':
      break;
    case 'X':
      flipMask |= bit;
      break;
    case 'Y':
      flipMask |= bit;
      yMask |= bit;
      break;
    case 'Z':
      zMask |= bit;
      break;
    default:
      return Status::error("PauliRot word '" + std::string(word) +
                           "' has a letter other than I, X, Y, Z");
    }
  }

  FixedBits fixed;
  for (std::size_t i = 0; i < ctrlWires.size(); ++i)
    fixed.add(wireToBit(numQubits, ctrlWires[i]), ctrlValues.empty() || ctrlValues[i]);
  if (flipMask != 0) {
    // Visit each pair (x, x ^ flipMask) once: x has its lowest flip bit 0.
    fixed.add(static_cast<unsigned>(__builtin_ctzll(flipMask)), false);
  }
  applyPauliRotation(amps.data(), fixed.space(numQubits), flipMask, yMask, zMask,
                     adjoint ? -theta : theta);
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Mid-circuit measurement
//===----------------------------------------------------------------------===//

Expected<int> StateVector::measure(int wire, std::optional<int> postselect) {
  if (Status status = checkWires({wire}, {}, {}); status.failed())
    return Status::error("measure: " + status.message());
  if (postselect && *postselect != 0 && *postselect != 1)
    return Status::error("measure: postselect value " + std::to_string(*postselect) +
                         " is neither 0 nor 1");

  const std::uint64_t bit = std::uint64_t{1} << wireToBit(numQubits, wire);
  double prob[2] = {0.0, 0.0};
  for (std::uint64_t i = 0, e = amps.size(); i < e; ++i)
    prob[(i & bit) ? 1 : 0] += std::norm(amps[i]);
  const double total = prob[0] + prob[1];

  int outcome;
  if (postselect) {
    outcome = *postselect;
    if (prob[outcome] / total < 1e-12)
      return Status::error("measure: cannot postselect outcome " + std::to_string(outcome) +
                           " on wire " + std::to_string(wire) + ", its probability is " +
                           std::to_string(prob[outcome] / total));
  } else {
    outcome = uniform() * total < prob[1] ? 1 : 0;
  }

  const double scale = 1.0 / std::sqrt(prob[outcome]);
  const std::uint64_t keep = outcome ? bit : 0;
  for (std::uint64_t i = 0, e = amps.size(); i < e; ++i)
    amps[i] = (i & bit) == keep ? amps[i] * scale : Complex{0.0, 0.0};
  return outcome;
}
