//===- Session.h - The state of libqshape-runtime.so ------------*- C++ -*-===//
//
// One session runs from __catalyst__rt__initialize to __catalyst__rt__finalize:
// the wires and state (qshape's sim::Device, shared with qshape-sim), the
// device that quantum.device named (a QuantumBackend, Backend.h) and the handles
// the ABI hands out: registers, observables and measurement results. Handles
// coming back from compiled code are checked against these tables, never
// dereferenced blindly.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_LIB_RUNTIME_SESSION_H
#define QSHAPE_LIB_RUNTIME_SESSION_H

#include "Backend.h"
#include "Devices.h"

#include "qshape/Runtime/RuntimeCAPI.h"
#include "qshape/Simulator/Device.h"

#include <array>
#include <cstdarg>
#include <deque>
#include <memory>
#include <unordered_set>
#include <vector>

namespace qshape::runtime {

/// What a QirArray* points to.
struct QubitArray {
  /// The QUBIT* of each slot; array_get_element_ptr_1d hands out their
  /// addresses, so the vector never changes size.
  std::vector<QubitIdType> slots;
};

/// Wires of one call. A call never has more wires than the device (the
/// count is checked before anything is read), so they fit on the stack.
struct WireList {
  std::array<int, sim::StateVector::kMaxQubits> wires{};
  std::size_t size = 0;
  sim::ArrayView<int> view() const { return {wires.data(), size}; }
};

class Session {
public:
  explicit Session(sim::DeviceOptions options)
      : device(options), backend(makeBackend(DeviceKind::Simulator, device)) {}
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  /// The wires and the state, the same on every device; what the devices
  /// do differently goes through getBackend().
  sim::Device device;

  //===--- the device -----------------------------------------------------===//
  /// __catalyst__rt__device_init: the device `kind` (resolveDevice's) with
  /// `shots`. Another device than the current one needs the wires released.
  void initDevice(const char *fn, DeviceKind kind, std::int64_t shots);
  /// The device that quantum.device named (the simulator until then).
  QuantumBackend &getBackend() { return *backend; }

  //===--- qubits ---------------------------------------------------------===//
  /// The wire `qubit` stands for; an error unless it is a device wire.
  int getWire(const char *fn, QubitIdType qubit) const;
  /// Checks that a call on `n` qubits fits the device.
  void checkQubitCount(const char *fn, std::int64_t n, const char *what) const;
  /// Reads `n` (already checked) QUBIT* arguments.
  void readWires(const char *fn, std::int64_t n, std::va_list *args, WireList &out) const;

  //===--- registers ------------------------------------------------------===//
  QubitArray *newArray(unsigned first, std::int64_t n);
  /// The register behind a handle; an error for one that is not live.
  QubitArray &getArray(const char *fn, QirArray *handle);
  void releaseArray(const char *fn, QirArray *handle);

  //===--- gates ----------------------------------------------------------===//
  /// Checks a gate with `mods` (may be null) and applies it on the device;
  /// errors name `fn`.
  void applyGate(const char *fn, sim::GateKind kind, sim::ArrayView<double> params,
                 sim::ArrayView<int> wires, const Modifiers *mods, std::string_view word = {},
                 sim::ArrayView<sim::Complex> matrix = {});

  /// Records the device's current size in the statistics.
  void noteWires() const;

  //===--- observables and results ----------------------------------------===//
  ObsIdType addObservable(const char *fn, sim::Observable obs);
  const sim::Observable &getObservable(const char *fn, ObsIdType id) const;
  RESULT *addResult(bool outcome);
  /// device_release: the device's wires, state, shots, observables, results.
  void releaseDevice();

  //===--- managed memory -------------------------------------------------===//
  /// A buffer the session owns until freeManaged or transferManaged.
  void *allocManaged(const char *fn, std::size_t alignment, std::size_t size);
  void freeManaged(void *ptr);
  /// Hands `ptr` to the host: false if the session does not own it.
  bool transferManaged(void *ptr);

private:
  /// Declared after `device`, which it may refer to.
  std::unique_ptr<QuantumBackend> backend;
  std::unordered_set<void *> managed;
  std::unordered_set<QubitArray *> arrays;
  std::vector<sim::Observable> observables;
  /// A deque keeps the addresses handed out stable.
  std::deque<RESULT> results;
};

/// The session; an error naming `fn` outside initialize..finalize.
Session &getSession(const char *fn);
/// __catalyst__rt__initialize / __catalyst__rt__finalize.
void startSession(const std::uint32_t *seed);
void endSession();
/// The statistics of the current (or last) session.
QShapeRuntimeStats &getStats();

} // namespace qshape::runtime

#endif // QSHAPE_LIB_RUNTIME_SESSION_H
