//===- Device.h - The quantum device of qshape-sim and the runtime -*- C++ -*-===//
//
// The semantics of a Catalyst device on qshape's state-vector simulator,
// written once. qshape-sim's interpreter (lib/Interpreter) and the native
// runtime (lib/Runtime, libqshape-runtime.so) both call it, so a compiled
// program and the interpreter compute the same numbers, random stream
// included, as long as they make the same calls in the same order.
//
//   * Wires. allocate(n) appends n wires; the state is created at the first
//     call that needs it and grown (new wires in |0>, as the least
//     significant bits) when later allocations add wires. release() ends the
//     device session: the next allocation starts again at wire 0 in |0...0>.
//     Released registers are bookkeeping of the caller: wires are not reused.
//   * Seeding. The first state takes the session seed; every later state
//     (after a growth or a release) takes mixSeed(seed, k) for its creation
//     number k, so each has its own, reproducible random stream.
//   * Shots. DeviceOptions::shots, when set, overrides the shots of
//     initDevice() (qshape-sim --shots, the runtime's configuration); 0 is
//     analytic.
//   * Measurements. With shots, expval and var of named observables and
//     tensor products of them, expval of Hamiltonians of those (term by term)
//     and probs are estimated from that many seeded samples; without, they
//     are exact. state is always exact; sample and counts need shots.
//
// Errors are Status/Expected values with messages that name what went wrong;
// the caller adds where (an op's location, a runtime function's name).
// Nothing here aborts or throws, running out of memory included.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_SIMULATOR_DEVICE_H
#define QSHAPE_SIMULATOR_DEVICE_H

#include "qshape/Simulator/ArrayView.h"
#include "qshape/Simulator/Gates.h"
#include "qshape/Simulator/Observable.h"
#include "qshape/Simulator/StateVector.h"
#include "qshape/Simulator/Status.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace qshape::sim {

struct DeviceOptions {
  /// Seed of the first state of the session (see mixSeed for the others).
  std::uint64_t seed = StateVector::kDefaultSeed;
  /// Shots overriding the device's (initDevice); 0 forces analytic results.
  std::optional<std::uint64_t> shots;
  /// Largest amount of memory the state may take, in bytes (a growing state
  /// counts twice: old and new are alive together). 0 = this machine's
  /// physical memory.
  std::uint64_t maxStateBytes = 0;
};

/// One gate application. `kind` selects the form: PauliRot needs
/// `pauliWord` and one parameter, QubitUnitary a row-major 2^k x 2^k
/// `matrix` for its k wires, every other kind its GateInfo arity.
struct GateApplication {
  GateKind kind = GateKind::Identity;
  ArrayView<double> params;
  ArrayView<int> wires;
  bool adjoint = false;
  ArrayView<int> ctrlWires;
  /// One value per control wire (false = control on |0>), or empty: all on |1>.
  ArrayView<bool> ctrlValues;
  std::string_view pauliWord;
  ArrayView<Complex> matrix;
};

/// splitmix64 of (seed + k * golden ratio): the seed of a session's k-th
/// state (k >= 1; the first state takes `seed` itself).
std::uint64_t mixSeed(std::uint64_t seed, std::uint64_t k);

/// Bytes of memory this machine has (0 when unknown).
std::uint64_t getPhysicalMemoryBytes();

class Device {
public:
  explicit Device(DeviceOptions options = {});

  const DeviceOptions &getOptions() const { return options; }

  //===--------------------------------------------------------------------===//
  // Session
  //===--------------------------------------------------------------------===//

  /// quantum.device: the device's shots (negative is an error).
  Status initDevice(std::int64_t shots);
  /// quantum.device_release: the wires and the state are gone, the shots
  /// are 0 again. Creation numbers (and so seeds) keep counting.
  void release();
  /// The override when set, else the device's.
  std::uint64_t getShots() const { return options.shots ? *options.shots : deviceShots; }
  /// Wires allocated in this session.
  unsigned getNumWires() const { return numWires; }

  //===--------------------------------------------------------------------===//
  // Wires and state
  //===--------------------------------------------------------------------===//

  /// quantum.alloc(n): appends `n` wires and returns the first.
  Expected<unsigned> allocate(std::int64_t n);
  /// quantum.alloc_qb: appends one wire and returns it.
  Expected<unsigned> allocateQubit();

  /// The simulator over all allocated wires, created or grown on demand.
  Expected<StateVector *> getState();

  //===--------------------------------------------------------------------===//
  // Operations
  //===--------------------------------------------------------------------===//

  Status applyGate(const GateApplication &gate);
  /// Mid-circuit measurement in the computational basis: the outcome (0 or
  /// 1), drawn from the seeded stream or `postselect`.
  Expected<int> measure(int wire, std::optional<int> postselect = {});
  /// set_state / set_basis_state: the whole device is overwritten; `wires`
  /// take the given state and every other wire is |0>.
  Status setState(ArrayView<Complex> state, ArrayView<int> wires);
  Status setBasisState(ArrayView<int> bits, ArrayView<int> wires);

  //===--------------------------------------------------------------------===//
  // Terminal measurements. Wire lists are computational-basis measurements
  // of those wires, wires[0] the most significant bit; empty = all wires.
  //===--------------------------------------------------------------------===//

  Expected<double> expval(const Observable &obs);
  Expected<double> var(const Observable &obs);
  /// 2^k probabilities (estimated from counts with shots).
  Expected<std::vector<double>> probs(ArrayView<int> wires);
  /// The state vector, its bits in the order of `wires`, which must be all
  /// device wires (a reduced state is not a vector).
  Expected<std::vector<Complex>> state(ArrayView<int> wires);
  /// shots x k bits, row-major.
  Expected<std::vector<int>> sample(ArrayView<int> wires);
  /// `shots` eigenvalue samples of a named observable or a tensor product.
  Expected<std::vector<double>> sample(const Observable &obs);
  /// 2^k counts, indexed like probs.
  Expected<std::vector<std::uint64_t>> counts(ArrayView<int> wires);
  /// (eigenvalue, count) pairs, ascending eigenvalues.
  Expected<std::vector<std::pair<double, std::uint64_t>>> counts(const Observable &obs);

  /// `wires`, or all wires of the device when it is empty.
  std::vector<int> resolveWires(ArrayView<int> wires) const;

private:
  Status requireShots(std::string_view opName) const;
  Expected<double> estimateExpval(StateVector &state, const Observable &obs, std::uint64_t shots);
  Status checkMemory(unsigned wires, unsigned oldWires) const;

  DeviceOptions options;
  std::optional<StateVector> sv;
  unsigned numWires = 0;
  /// States created so far in this device's lifetime (their seeds differ).
  std::uint64_t creations = 0;
  std::uint64_t deviceShots = 0;
  std::vector<bool> ctrlValueBuffer;
};

} // namespace qshape::sim

#endif // QSHAPE_SIMULATOR_DEVICE_H
