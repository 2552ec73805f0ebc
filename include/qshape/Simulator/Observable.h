//===- Observable.h - Observables for the state-vector simulator -*- C++ -*-===//
//
// The observables Catalyst's quantum dialect builds: named single-wire
// observables (quantum.namedobs), Hermitian matrices (quantum.hermitian),
// tensor products (quantum.tensor) and Hamiltonians (quantum.hamiltonian).
// An Observable is a plain value tree; StateVector validates it against its
// register when measuring.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_SIMULATOR_OBSERVABLE_H
#define QSHAPE_SIMULATOR_OBSERVABLE_H

#include "qshape/Simulator/ArrayView.h"
#include "qshape/Simulator/Status.h"

#include <complex>
#include <string>
#include <string_view>
#include <vector>

namespace qshape::sim {

using Complex = std::complex<double>;

enum class NamedObservable { Identity, PauliX, PauliY, PauliZ, Hadamard };

/// The named observable called `name` (PennyLane spelling: "Identity",
/// "PauliX", "PauliY", "PauliZ", "Hadamard").
Expected<NamedObservable> lookupNamedObservable(std::string_view name);

class Observable {
public:
  enum class Kind { Named, Hermitian, Tensor, Hamiltonian };

  /// A named observable on one wire.
  static Observable named(NamedObservable name, int wire);
  /// A Hermitian matrix (row-major, 2^k x 2^k) acting on `wires`, the first
  /// wire being the most significant bit of the matrix index.
  static Observable hermitian(std::vector<Complex> matrix, std::vector<int> wires);
  /// The tensor product of `factors`, which must act on disjoint wires.
  static Observable tensor(std::vector<Observable> factors);
  /// sum_k coeffs[k] * terms[k].
  static Observable hamiltonian(std::vector<double> coeffs, std::vector<Observable> terms);

  Kind getKind() const { return kind; }
  /// Named: the observable and its wire.
  NamedObservable getName() const { return name; }
  /// Named and Hermitian: the wires acted on. Tensor and Hamiltonian: the
  /// union of the operands' wires, in first-use order.
  std::vector<int> getWires() const;
  /// Hermitian: the matrix.
  const std::vector<Complex> &getMatrix() const { return matrix; }
  /// Tensor: the factors. Hamiltonian: the terms.
  const std::vector<Observable> &getOperands() const { return operands; }
  /// Hamiltonian: the coefficients.
  const std::vector<double> &getCoeffs() const { return coeffs; }

  /// Checks wires against a register of `numQubits`, matrix shapes and
  /// hermiticity, tensor disjointness and Hamiltonian coefficient counts.
  Status verify(unsigned numQubits) const;

  /// A readable form, e.g. "0.5 * (PauliZ(0) @ PauliX(1)) + ...".
  std::string str() const;

private:
  Kind kind = Kind::Named;
  NamedObservable name = NamedObservable::Identity;
  std::vector<int> wires;
  std::vector<Complex> matrix;
  std::vector<Observable> operands;
  std::vector<double> coeffs;
};

} // namespace qshape::sim

#endif // QSHAPE_SIMULATOR_OBSERVABLE_H
