//===- Devices.h - Which device a quantum.device names ----------*- C++ -*-===//
//
// __catalyst__rt__device_init receives quantum.device's library, name and
// kwargs. Catalyst's runtime dlopens the library and calls its
// `<name>Factory`; qshape's runtime opens nothing and runs only the devices
// it can stand in for faithfully. Any other device is an error, never a
// silent run on the simulator (docs/runtime.md, "Devices").
//
//===----------------------------------------------------------------------===//

#ifndef QSHAPE_LIB_RUNTIME_DEVICES_H
#define QSHAPE_LIB_RUNTIME_DEVICES_H

#include <cstdint>

namespace qshape::runtime {

/// A device qshape's runtime runs; makeBackend (Backend.h) makes its
/// QuantumBackend, which says what the device does.
enum class DeviceKind {
  /// lightning.qubit (LightningSimulator) or qshape's own QShapeSimulator:
  /// the state-vector simulator, qshape-sim's semantics.
  Simulator,
  /// null.qubit (NullQubit): Catalyst's mock device, which keeps no state.
  Null,
};

/// The device that quantum.device's strings name (any may be null). Fails,
/// naming `fn`, for a device qshape's runtime cannot run.
DeviceKind resolveDevice(const char *fn, const int8_t *lib, const int8_t *name,
                         const int8_t *kwargs);

} // namespace qshape::runtime

#endif // QSHAPE_LIB_RUNTIME_DEVICES_H
