//===- Backend.h - What a device of libqshape-runtime.so does ---*- C++ -*-===//
//
// A device that quantum.device names is a QuantumBackend: the operations
// whose effect differs from one device to another (gates, state
// preparation, mid-circuit measurement, expval, var). Everything else stays
// in the Session and is the same on every device: argument checking (handles,
// wire counts, memref shapes, postselect values) happens before a backend is
// called, and wire allocation, registers, observables, statistics and the
// reads of the current state (probs, state, sample, counts) use the session's
// sim::Device directly.
//
// A new device is a class implementing QuantumBackend in Backend.cpp, a
// DeviceKind, and the name that resolveDevice (Devices.cpp) maps to it. A
// device whose probs/state/sample/counts are not those of the session's
// state would move those operations into this interface too.
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_LIB_RUNTIME_BACKEND_H
#define QSHAPE_LIB_RUNTIME_BACKEND_H

#include "Devices.h"

#include "qshape/Simulator/Device.h"

#include <memory>
#include <optional>

namespace qshape::runtime {

/// The effect of the device-specific operations. Arguments arrive checked;
/// a failure is a Status naming what went wrong, the caller adds where.
class QuantumBackend {
public:
  virtual ~QuantumBackend();

  /// The device this backend is (a device_init of another one needs a
  /// release first).
  virtual DeviceKind getKind() const = 0;

  /// A gate, with its adjoint and controls (from the ABI's Modifiers).
  virtual sim::Status applyGate(const sim::GateApplication &gate) = 0;
  /// SetState / SetBasisState: `wires` take the given state.
  virtual sim::Status setState(sim::ArrayView<sim::Complex> amplitudes,
                               sim::ArrayView<int> wires) = 0;
  virtual sim::Status setBasisState(sim::ArrayView<int> bits, sim::ArrayView<int> wires) = 0;
  /// Mid-circuit measurement: the outcome, 0 or 1.
  virtual sim::Expected<int> measure(int wire, std::optional<int> postselect) = 0;
  virtual sim::Expected<double> expval(const sim::Observable &obs) = 0;
  virtual sim::Expected<double> var(const sim::Observable &obs) = 0;
};

/// The backend of `kind`. The simulator forwards to `device` (the session's,
/// which must outlive the backend); null.qubit leaves it untouched.
std::unique_ptr<QuantumBackend> makeBackend(DeviceKind kind, sim::Device &device);

} // namespace qshape::runtime

#endif // QSHAPE_LIB_RUNTIME_BACKEND_H
