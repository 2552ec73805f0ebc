//===- Device.cpp - The quantum device of qshape-sim and the runtime ------===//
//
// Wire bookkeeping, lazy creation and growth of the state with per-creation
// seeds, shots, and the measurement procedures (exact and shot-based) on top
// of StateVector. See Device.h for the semantics.
//
//===----------------------------------------------------------------------===//

#include "qshape/Simulator/Device.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <new>
#include <numeric>
#include <string>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

using namespace qshape::sim;

std::uint64_t qshape::sim::mixSeed(std::uint64_t seed, std::uint64_t k) {
  // splitmix64 of (seed + k * golden ratio).
  std::uint64_t z = seed + k * 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t qshape::sim::getPhysicalMemoryBytes() {
  std::uint64_t bytes = 0;
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGE_SIZE)
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && pageSize > 0)
    bytes = static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(pageSize);
#endif
  // A container's cgroup (v2) may allow less than the machine has.
  std::ifstream cgroup("/sys/fs/cgroup/memory.max");
  unsigned long long limit = 0;
  if (cgroup >> limit && limit > 0 && (bytes == 0 || limit < bytes))
    bytes = limit;
  return bytes;
}

/// "16 GiB", "1.5 MiB", "512 bytes".
static std::string formatBytes(std::uint64_t bytes) {
  const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  auto value = static_cast<double>(bytes);
  unsigned unit = 0;
  while (value >= 1024.0 && unit + 1 < sizeof(units) / sizeof(units[0])) {
    value /= 1024.0;
    ++unit;
  }
  char buf[32];
  if (unit == 0 || value == static_cast<double>(static_cast<std::uint64_t>(value)))
    std::snprintf(buf, sizeof(buf), "%llu %s", static_cast<unsigned long long>(value), units[unit]);
  else
    std::snprintf(buf, sizeof(buf), "%.1f %s", value, units[unit]);
  return buf;
}

static std::uint64_t stateBytes(unsigned wires) {
  return sizeof(Complex) * (std::uint64_t{1} << wires);
}

Device::Device(DeviceOptions options) : options(options) {}

//===----------------------------------------------------------------------===//
// Session, wires and state
//===----------------------------------------------------------------------===//

Status Device::initDevice(std::int64_t shots) {
  deviceShots = 0;
  if (shots < 0)
    return Status::error("negative shots " + std::to_string(shots));
  deviceShots = static_cast<std::uint64_t>(shots);
  return Status::success();
}

void Device::release() {
  sv.reset();
  numWires = 0;
  deviceShots = 0;
}

Expected<unsigned> Device::allocate(std::int64_t n) {
  if (n < 0 || n > static_cast<std::int64_t>(StateVector::kMaxQubits - numWires))
    return Status::error("allocating " + std::to_string(n) + " qubits (" +
                         std::to_string(numWires) + " already allocated) exceeds the simulator's " +
                         std::to_string(StateVector::kMaxQubits));
  const unsigned first = numWires;
  numWires += static_cast<unsigned>(n);
  return first;
}

Expected<unsigned> Device::allocateQubit() {
  if (numWires + 1 > StateVector::kMaxQubits)
    return Status::error("allocating a qubit exceeds the simulator's " +
                         std::to_string(StateVector::kMaxQubits));
  return numWires++;
}

Status Device::checkMemory(unsigned wires, unsigned oldWires) const {
  const std::uint64_t limit =
      options.maxStateBytes ? options.maxStateBytes : getPhysicalMemoryBytes();
  const std::uint64_t need = stateBytes(wires) + (oldWires ? stateBytes(oldWires) : 0);
  if (limit == 0 || need <= limit)
    return Status::success();
  std::string msg =
      "the state of " + std::to_string(wires) + " qubits needs " + formatBytes(stateBytes(wires));
  if (oldWires)
    msg += " (and " + formatBytes(stateBytes(oldWires)) + " for the state of " +
           std::to_string(oldWires) + " qubits while it grows)";
  msg += ", more than the " + formatBytes(limit) + " of memory " +
         (options.maxStateBytes ? "the device is allowed" : "this machine has");
  return Status::error(msg);
}

Expected<StateVector *> Device::getState() {
  if (sv && sv->getNumQubits() == numWires)
    return &*sv;
  if (numWires > StateVector::kMaxQubits)
    return Status::error("the program allocates " + std::to_string(numWires) +
                         " qubits; the simulator supports at most " +
                         std::to_string(StateVector::kMaxQubits));
  const unsigned oldWires = sv ? sv->getNumQubits() : 0;
  if (Status status = checkMemory(numWires, oldWires); status.failed())
    return status;
  const std::uint64_t seed = creations == 0 ? options.seed : mixSeed(options.seed, creations);
  if (sv) {
    // Grow: the existing wires keep their state, the new ones (the least
    // significant bits) start in |0>, and the grown state has a stream of
    // its own.
    if (Status status = sv->addQubits(numWires - oldWires); status.failed())
      return Status::error("growing the device: " + status.message());
    sv->setSeed(seed);
  } else {
    try {
      sv.emplace(numWires, seed);
    } catch (const std::bad_alloc &) {
      return Status::error("out of memory: cannot allocate the state of " +
                           std::to_string(numWires) + " qubits (" +
                           formatBytes(stateBytes(numWires)) + ")");
    }
  }
  ++creations;
  return &*sv;
}

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

Status Device::applyGate(const GateApplication &gate) {
  Expected<StateVector *> s = getState();
  if (s.failed())
    return s.getStatus();
  StateVector &state = **s;
  ctrlValueBuffer.assign(gate.ctrlValues.begin(), gate.ctrlValues.end());
  switch (gate.kind) {
  case GateKind::PauliRot:
    if (gate.params.size() != 1)
      return Status::error("gate 'PauliRot' expects 1 parameter(s), got " +
                           std::to_string(gate.params.size()));
    return state.applyPauliRot(gate.params[0], gate.pauliWord, gate.wires, gate.adjoint,
                               gate.ctrlWires, ctrlValueBuffer);
  case GateKind::QubitUnitary:
    return state.applyMatrix(gate.matrix, gate.wires, gate.adjoint, gate.ctrlWires,
                             ctrlValueBuffer);
  default:
    return state.applyGate(gate.kind, gate.params, gate.wires, gate.adjoint, gate.ctrlWires,
                           ctrlValueBuffer);
  }
}

Expected<int> Device::measure(int wire, std::optional<int> postselect) {
  Expected<StateVector *> s = getState();
  if (s.failed())
    return s.getStatus();
  return (*s)->measure(wire, postselect);
}

Status Device::setState(ArrayView<Complex> state, ArrayView<int> wires) {
  Expected<StateVector *> s = getState();
  if (s.failed())
    return s.getStatus();
  return (*s)->setState(state, wires);
}

Status Device::setBasisState(ArrayView<int> bits, ArrayView<int> wires) {
  Expected<StateVector *> s = getState();
  if (s.failed())
    return s.getStatus();
  return (*s)->setBasisState(bits, wires);
}

//===----------------------------------------------------------------------===//
// Terminal measurements
//===----------------------------------------------------------------------===//

std::vector<int> Device::resolveWires(ArrayView<int> wires) const {
  if (!wires.empty())
    return wires.vec();
  std::vector<int> all(numWires);
  std::iota(all.begin(), all.end(), 0);
  return all;
}

Status Device::requireShots(std::string_view opName) const {
  if (getShots() != 0)
    return Status::success();
  return Status::error("'" + std::string(opName) +
                       "' needs shots (quantum.device shots or --shots)");
}

Expected<double> Device::estimateExpval(StateVector &state, const Observable &obs,
                                        std::uint64_t shots) {
  if (obs.getKind() == Observable::Kind::Hamiltonian) {
    double sum = 0.0;
    for (std::size_t k = 0; k < obs.getOperands().size(); ++k) {
      Expected<double> term = estimateExpval(state, obs.getOperands()[k], shots);
      if (term.failed())
        return term;
      sum += obs.getCoeffs()[k] * *term;
    }
    return sum;
  }
  Expected<std::vector<double>> samples = state.sample(obs, shots);
  if (samples.failed())
    return Status::error("estimating from " + std::to_string(shots) +
                         " shots: " + samples.message());
  double sum = 0.0;
  for (double s : *samples)
    sum += s;
  return sum / static_cast<double>(shots);
}

Expected<double> Device::expval(const Observable &obs) {
  Expected<StateVector *> s = getState();
  if (s.failed())
    return s.getStatus();
  const std::uint64_t shots = getShots();
  if (shots == 0)
    return (*s)->expval(obs);
  return estimateExpval(**s, obs, shots);
}

Expected<double> Device::var(const Observable &obs) {
  Expected<StateVector *> s = getState();
  if (s.failed())
    return s.getStatus();
  const std::uint64_t shots = getShots();
  if (shots == 0)
    return (*s)->var(obs);
  if (obs.getKind() == Observable::Kind::Hamiltonian)
    return Status::error("the variance of a Hamiltonian with shots is not supported");
  Expected<std::vector<double>> samples = (*s)->sample(obs, shots);
  if (samples.failed())
    return Status::error("estimating from " + std::to_string(shots) +
                         " shots: " + samples.message());
  double sum = 0.0, sumSq = 0.0;
  for (double x : *samples) {
    sum += x;
    sumSq += x * x;
  }
  const double mean = sum / shots;
  return sumSq / shots - mean * mean;
}

Expected<std::vector<double>> Device::probs(ArrayView<int> wires) {
  Expected<StateVector *> s = getState();
  if (s.failed())
    return s.getStatus();
  const std::vector<int> measured = resolveWires(wires);
  const std::uint64_t shots = getShots();
  if (shots == 0)
    return (*s)->probs(measured);
  Expected<std::vector<std::uint64_t>> c = (*s)->counts(shots, measured);
  if (c.failed())
    return c.getStatus();
  std::vector<double> estimate;
  estimate.reserve(c->size());
  for (std::uint64_t n : *c)
    estimate.push_back(static_cast<double>(n) / static_cast<double>(shots));
  return estimate;
}

Expected<std::vector<Complex>> Device::state(ArrayView<int> wires) {
  Expected<StateVector *> s = getState();
  if (s.failed())
    return s.getStatus();
  const std::vector<int> order = resolveWires(wires);
  const unsigned n = (*s)->getNumQubits();
  std::vector<int> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  bool isPermutation = sorted.size() == n;
  for (unsigned k = 0; isPermutation && k < n; ++k)
    isPermutation = sorted[k] == static_cast<int>(k);
  if (!isPermutation)
    return Status::error("quantum.state of " + std::to_string(order.size()) + " of the " +
                         std::to_string(n) + " device wires is not supported (it needs all wires)");
  const std::vector<Complex> &amps = (*s)->getState();
  if (std::is_sorted(order.begin(), order.end()))
    return amps;
  std::vector<Complex> permuted(amps.size());
  for (std::uint64_t j = 0, e = amps.size(); j < e; ++j) {
    std::uint64_t src = 0;
    for (unsigned k = 0; k < n; ++k)
      if ((j >> (n - 1 - k)) & 1)
        src |= std::uint64_t{1} << (n - 1 - order[k]);
    permuted[j] = amps[src];
  }
  return permuted;
}

Expected<std::vector<int>> Device::sample(ArrayView<int> wires) {
  Expected<StateVector *> s = getState();
  if (s.failed())
    return s.getStatus();
  if (Status status = requireShots("quantum.sample"); status.failed())
    return status;
  return (*s)->sample(getShots(), resolveWires(wires));
}

Expected<std::vector<double>> Device::sample(const Observable &obs) {
  Expected<StateVector *> s = getState();
  if (s.failed())
    return s.getStatus();
  if (Status status = requireShots("quantum.sample"); status.failed())
    return status;
  return (*s)->sample(obs, getShots());
}

Expected<std::vector<std::uint64_t>> Device::counts(ArrayView<int> wires) {
  Expected<StateVector *> s = getState();
  if (s.failed())
    return s.getStatus();
  if (Status status = requireShots("quantum.counts"); status.failed())
    return status;
  return (*s)->counts(getShots(), resolveWires(wires));
}

Expected<std::vector<std::pair<double, std::uint64_t>>> Device::counts(const Observable &obs) {
  Expected<StateVector *> s = getState();
  if (s.failed())
    return s.getStatus();
  if (Status status = requireShots("quantum.counts"); status.failed())
    return status;
  return (*s)->counts(obs, getShots());
}
