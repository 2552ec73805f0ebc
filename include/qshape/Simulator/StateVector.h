//===- StateVector.h - State-vector simulator core --------------*- C++ -*-===//
//
// A dense state-vector simulator for the gate set of PennyLane/Catalyst
// programs. It is the reference oracle behind `qshape-sim` and the simulator
// benchmarks, and deliberately depends on nothing but the C++17 standard
// library.
//
// Conventions (PennyLane's):
//   * Wire 0 is the MOST significant bit of a basis index: on n qubits, wire w
//     is bit (n - 1 - w). probs()/sample() index their results the same way
//     over the wires they are given (the first wire given is the MSB).
//   * Gate matrices are PennyLane's (see Gates.h); a gate's first wire is the
//     most significant bit of its matrix index.
//   * A control value of `false` means the gate acts where that control wire
//     is |0>.
//
// Gates are applied in place by kernels that walk index pairs/blocks with bit
// tricks; matrices of named gates live on the stack, so applying a gate does
// not allocate (QubitUnitary on more than 6 wires excepted: it allocates its
// index/scratch buffers once per call).
//
// Every operation that can fail on bad input (unknown gate, wrong arity, bad
// wires, zero-probability postselection, ...) returns a Status/Expected and
// leaves the state untouched; nothing aborts.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_SIMULATOR_STATEVECTOR_H
#define QSHAPE_SIMULATOR_STATEVECTOR_H

#include "qshape/Simulator/ArrayView.h"
#include "qshape/Simulator/Gates.h"
#include "qshape/Simulator/Observable.h"
#include "qshape/Simulator/Status.h"

#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <string_view>
#include <utility>
#include <vector>

namespace qshape::sim {

using Complex = std::complex<double>;

class StateVector {
public:
  /// Largest register supported (2^30 amplitudes = 16 GiB; ~26 is practical).
  static constexpr unsigned kMaxQubits = 30;
  /// Seed used when none is given; the simulator is always deterministic.
  static constexpr std::uint64_t kDefaultSeed = 0x9e3779b97f4a7c15ULL;

  /// |0...0> on `numQubits` wires. Requires numQubits <= kMaxQubits; use
  /// create() to have that checked.
  explicit StateVector(unsigned numQubits, std::uint64_t seed = kDefaultSeed);
  /// Checked constructor.
  static Expected<StateVector> create(unsigned numQubits, std::uint64_t seed = kDefaultSeed);

  unsigned getNumQubits() const { return numQubits; }
  /// 2^numQubits.
  std::uint64_t getDimension() const { return amps.size(); }
  /// All amplitudes, indexed with wire 0 as the most significant bit.
  const std::vector<Complex> &getState() const { return amps; }
  Complex getAmplitude(std::uint64_t index) const { return amps[index]; }
  /// Sum of |amplitude|^2 (1 up to rounding for a valid state).
  double getNormSquared() const;

  /// Reseeds the random number generator (std::mt19937_64) used by measure(),
  /// sample() and counts().
  void setSeed(std::uint64_t seed);

  //===--------------------------------------------------------------------===//
  // State preparation
  //===--------------------------------------------------------------------===//

  /// Back to |0...0> (the seed is left as is).
  void reset();

  /// Appends `extra` wires in |0> as the least significant bits: every wire
  /// keeps its index and amplitude i moves to i << extra (the seed is left
  /// as is). Fails, leaving the state untouched, past kMaxQubits or when the
  /// memory cannot be allocated.
  Status addQubits(unsigned extra);

  /// Catalyst's quantum.set_basis_state, with the Catalyst runtime's
  /// (Lightning's) semantics: the whole register is overwritten; wires[i]
  /// takes bit bits[i] (0 or 1) and every other wire is |0>.
  Status setBasisState(ArrayView<int> bits, ArrayView<int> wires);

  /// Catalyst's quantum.set_state, with the Catalyst runtime's (Lightning's)
  /// semantics: the whole register is overwritten; `wires` take `state`
  /// (2^k amplitudes, wires[0] the most significant bit, norm 1 within 1e-8)
  /// and every other wire is |0>. With all wires in order this sets the full
  /// state vector.
  Status setState(ArrayView<Complex> state, ArrayView<int> wires);

  //===--------------------------------------------------------------------===//
  // Gates
  //===--------------------------------------------------------------------===//

  /// Applies the PennyLane gate `name` (see Gates.h) with `params` to
  /// `wires`, inverted if `adjoint`, and controlled on `ctrlWires` having the
  /// values `ctrlValues` (empty = all true). Fails, leaving the state
  /// untouched, on an unknown name, wrong arity, bad or repeated wires.
  Status applyGate(std::string_view name, ArrayView<double> params, ArrayView<int> wires,
                   bool adjoint = false, ArrayView<int> ctrlWires = {},
                   const std::vector<bool> &ctrlValues = {});
  /// As above, for a gate already looked up with lookupGate().
  Status applyGate(GateKind kind, ArrayView<double> params, ArrayView<int> wires,
                   bool adjoint = false, ArrayView<int> ctrlWires = {},
                   const std::vector<bool> &ctrlValues = {});

  /// QubitUnitary: applies the row-major 2^k x 2^k `matrix` to the k `wires`
  /// (wires[0] the most significant bit of the matrix index). Unitarity is
  /// not checked (measurements use this path for Hermitian observables).
  Status applyMatrix(ArrayView<Complex> matrix, ArrayView<int> wires, bool adjoint = false,
                     ArrayView<int> ctrlWires = {}, const std::vector<bool> &ctrlValues = {});

  /// PauliRot(theta, word) = exp(-i theta/2 P), P the tensor product of the
  /// letters of `word` (each of 'I', 'X', 'Y', 'Z') on `wires`.
  Status applyPauliRot(double theta, std::string_view word, ArrayView<int> wires,
                       bool adjoint = false, ArrayView<int> ctrlWires = {},
                       const std::vector<bool> &ctrlValues = {});

  //===--------------------------------------------------------------------===//
  // Mid-circuit measurement
  //===--------------------------------------------------------------------===//

  /// Measures `wire` in the computational basis: draws the outcome from the
  /// seeded generator (or takes `postselect`, 0 or 1), collapses the state
  /// onto it and renormalizes. Fails, leaving the state untouched, when the
  /// postselected outcome has probability below 1e-12.
  Expected<int> measure(int wire, std::optional<int> postselect = {});

  //===--------------------------------------------------------------------===//
  // Terminal measurements (the state is not changed)
  //===--------------------------------------------------------------------===//

  /// Probabilities of the 2^k basis states of `wires` (wires[0] the most
  /// significant bit); all wires in order when `wires` is empty.
  Expected<std::vector<double>> probs(ArrayView<int> wires = {}) const;

  /// <psi|O|psi>.
  Expected<double> expval(const Observable &obs) const;
  /// <psi|O^2|psi> - <psi|O|psi>^2.
  Expected<double> var(const Observable &obs) const;

  /// `shots` computational-basis samples of `wires` (all wires when empty):
  /// a row-major shots x k array of 0/1, column j being wires[j].
  Expected<std::vector<int>> sample(std::size_t shots, ArrayView<int> wires = {});
  /// `shots` samples of the eigenvalue of `obs` (named observables and
  /// tensor products of them; Hermitian and Hamiltonian are not supported).
  Expected<std::vector<double>> sample(const Observable &obs, std::size_t shots);

  /// Histogram of `shots` basis-state samples of `wires` (all when empty):
  /// 2^k counts indexed like probs().
  Expected<std::vector<std::uint64_t>> counts(std::size_t shots, ArrayView<int> wires = {});
  /// Histogram of `shots` eigenvalue samples of `obs`: (eigenvalue, count)
  /// for the eigenvalues -1 and +1 (or +1 alone for Identity), ascending.
  Expected<std::vector<std::pair<double, std::uint64_t>>> counts(const Observable &obs,
                                                                 std::size_t shots);

private:
  /// A uniform double in [0, 1), identical on every platform.
  double uniform();
  Status checkWires(ArrayView<int> wires, ArrayView<int> ctrlWires,
                    const std::vector<bool> &ctrlValues) const;
  /// Draws `shots` indices from the distribution `probs` (consumed).
  std::vector<std::uint64_t> drawIndices(std::size_t shots, std::vector<double> probs);
  /// O|psi> for a verified observable.
  std::vector<Complex> applyObservable(const Observable &obs) const;

  unsigned numQubits;
  std::vector<Complex> amps;
  std::mt19937_64 rng;
};

} // namespace qshape::sim

#endif // QSHAPE_SIMULATOR_STATEVECTOR_H
