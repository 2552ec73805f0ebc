//===- Backend.cpp - The devices of libqshape-runtime.so ------------------===//

#include "Backend.h"

using namespace qshape;
using namespace qshape::runtime;

QuantumBackend::~QuantumBackend() = default;

namespace {

/// lightning.qubit and QShapeSimulator: qshape's state-vector simulator,
/// with qshape-sim's semantics (both call sim::Device).
class SimulatorBackend final : public QuantumBackend {
public:
  explicit SimulatorBackend(sim::Device &device) : device(device) {}

  DeviceKind getKind() const override { return DeviceKind::Simulator; }
  sim::Status applyGate(const sim::GateApplication &gate) override {
    return device.applyGate(gate);
  }
  sim::Status setState(sim::ArrayView<sim::Complex> amplitudes,
                       sim::ArrayView<int> wires) override {
    return device.setState(amplitudes, wires);
  }
  sim::Status setBasisState(sim::ArrayView<int> bits, sim::ArrayView<int> wires) override {
    return device.setBasisState(bits, wires);
  }
  sim::Expected<int> measure(int wire, std::optional<int> postselect) override {
    return device.measure(wire, postselect);
  }
  sim::Expected<double> expval(const sim::Observable &obs) override { return device.expval(obs); }
  sim::Expected<double> var(const sim::Observable &obs) override { return device.var(obs); }

private:
  sim::Device &device;
};

/// null.qubit: Catalyst's NullQubit (runtime/lib/backend/null_qubit), which
/// keeps no state and returns fixed values. Gates and state preparations
/// change nothing, so the session's device stays |0...0> and probs, state,
/// sample and counts read NullQubit's values from it.
class NullBackend final : public QuantumBackend {
public:
  DeviceKind getKind() const override { return DeviceKind::Null; }
  sim::Status applyGate(const sim::GateApplication &) override { return sim::Status::success(); }
  sim::Status setState(sim::ArrayView<sim::Complex>, sim::ArrayView<int>) override {
    return sim::Status::success();
  }
  sim::Status setBasisState(sim::ArrayView<int>, sim::ArrayView<int>) override {
    return sim::Status::success();
  }
  /// Always 0, whatever the postselection.
  sim::Expected<int> measure(int, std::optional<int>) override { return 0; }
  sim::Expected<double> expval(const sim::Observable &) override { return 0.0; }
  sim::Expected<double> var(const sim::Observable &) override { return 0.0; }
};

} // namespace

std::unique_ptr<QuantumBackend> qshape::runtime::makeBackend(DeviceKind kind, sim::Device &device) {
  switch (kind) {
  case DeviceKind::Simulator:
    return std::make_unique<SimulatorBackend>(device);
  case DeviceKind::Null:
    return std::make_unique<NullBackend>();
  }
  return nullptr;
}
