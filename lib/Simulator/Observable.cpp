//===- Observable.cpp - Observables for the state-vector simulator --------===//

#include "qshape/Simulator/Observable.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>

using namespace qshape::sim;

static const char *getNamedObservableName(NamedObservable name) {
  switch (name) {
  case NamedObservable::Identity:
    return "Identity";
  case NamedObservable::PauliX:
    return "PauliX";
  case NamedObservable::PauliY:
    return "PauliY";
  case NamedObservable::PauliZ:
    return "PauliZ";
  case NamedObservable::Hadamard:
    return "Hadamard";
  }
  return "?";
}

Expected<NamedObservable> qshape::sim::lookupNamedObservable(std::string_view name) {
  for (NamedObservable obs :
       {NamedObservable::Identity, NamedObservable::PauliX, NamedObservable::PauliY,
        NamedObservable::PauliZ, NamedObservable::Hadamard})
    if (name == getNamedObservableName(obs))
      return obs;
  return Status::error("unknown named observable '" + std::string(name) + "'");
}

Observable Observable::named(NamedObservable name, int wire) {
  Observable obs;
  obs.kind = Kind::Named;
  obs.name = name;
  obs.wires = {wire};
  return obs;
}

Observable Observable::hermitian(std::vector<Complex> matrix, std::vector<int> wires) {
  Observable obs;
  obs.kind = Kind::Hermitian;
  obs.matrix = std::move(matrix);
  obs.wires = std::move(wires);
  return obs;
}

Observable Observable::tensor(std::vector<Observable> factors) {
  Observable obs;
  obs.kind = Kind::Tensor;
  obs.operands = std::move(factors);
  return obs;
}

Observable Observable::hamiltonian(std::vector<double> coeffs, std::vector<Observable> terms) {
  Observable obs;
  obs.kind = Kind::Hamiltonian;
  obs.coeffs = std::move(coeffs);
  obs.operands = std::move(terms);
  return obs;
}

std::vector<int> Observable::getWires() const {
  if (kind == Kind::Named || kind == Kind::Hermitian)
    return wires;
  std::vector<int> result;
  for (const Observable &operand : operands)
    for (int wire : operand.getWires())
      if (std::find(result.begin(), result.end(), wire) == result.end())
        result.push_back(wire);
  return result;
}

static Status checkObservableWires(const std::vector<int> &wires, unsigned numQubits) {
  std::uint64_t seen = 0;
  for (int wire : wires) {
    if (wire < 0 || static_cast<unsigned>(wire) >= numQubits)
      return Status::error("observable wire " + std::to_string(wire) + " is out of range for " +
                           std::to_string(numQubits) + " qubit(s)");
    const std::uint64_t bit = std::uint64_t{1} << wire;
    if (seen & bit)
      return Status::error("observable wire " + std::to_string(wire) + " is used more than once");
    seen |= bit;
  }
  return Status::success();
}

Status Observable::verify(unsigned numQubits) const {
  switch (kind) {
  case Kind::Named:
    return checkObservableWires(wires, numQubits);
  case Kind::Hermitian: {
    if (wires.empty())
      return Status::error("Hermitian observable without wires");
    if (Status status = checkObservableWires(wires, numQubits); status.failed())
      return status;
    const std::size_t dim = std::size_t{1} << wires.size();
    if (matrix.size() != dim * dim)
      return Status::error("Hermitian observable on " + std::to_string(wires.size()) +
                           " wire(s) expects a " + std::to_string(dim) + "x" + std::to_string(dim) +
                           " matrix, got " + std::to_string(matrix.size()) + " entries");
    for (std::size_t r = 0; r < dim; ++r)
      for (std::size_t c = r; c < dim; ++c)
        if (std::abs(matrix[r * dim + c] - std::conj(matrix[c * dim + r])) >
            1e-8 * std::max(1.0, std::abs(matrix[r * dim + c])))
          return Status::error("Hermitian observable matrix is not Hermitian");
    return Status::success();
  }
  case Kind::Tensor: {
    if (operands.empty())
      return Status::error("tensor product without factors");
    for (const Observable &factor : operands) {
      if (factor.kind == Kind::Hamiltonian)
        return Status::error("a Hamiltonian cannot be a tensor factor");
      if (Status status = factor.verify(numQubits); status.failed())
        return status;
    }
    // Factors on disjoint wires.
    std::vector<int> all;
    for (const Observable &factor : operands)
      for (int wire : factor.getWires())
        all.push_back(wire);
    if (Status status = checkObservableWires(all, numQubits); status.failed())
      return Status::error("tensor factors overlap: " + status.message());
    return Status::success();
  }
  case Kind::Hamiltonian: {
    if (coeffs.size() != operands.size())
      return Status::error("Hamiltonian with " + std::to_string(coeffs.size()) +
                           " coefficient(s) for " + std::to_string(operands.size()) + " term(s)");
    for (double coeff : coeffs)
      if (!std::isfinite(coeff))
        return Status::error("Hamiltonian with a non-finite coefficient");
    for (const Observable &term : operands)
      if (Status status = term.verify(numQubits); status.failed())
        return status;
    return Status::success();
  }
  }
  return Status::error("unknown observable kind");
}

std::string Observable::str() const {
  std::ostringstream os;
  switch (kind) {
  case Kind::Named:
    os << getNamedObservableName(name) << "(" << wires[0] << ")";
    break;
  case Kind::Hermitian: {
    os << "Hermitian(";
    for (std::size_t i = 0; i < wires.size(); ++i)
      os << (i ? ", " : "") << wires[i];
    os << ")";
    break;
  }
  case Kind::Tensor:
    for (std::size_t i = 0; i < operands.size(); ++i)
      os << (i ? " @ " : "") << operands[i].str();
    break;
  case Kind::Hamiltonian:
    for (std::size_t i = 0; i < operands.size(); ++i)
      os << (i ? " + " : "") << coeffs[i] << " * (" << operands[i].str() << ")";
    break;
  }
  return os.str();
}
