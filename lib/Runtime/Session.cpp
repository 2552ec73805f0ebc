//===- Session.cpp - The state of libqshape-runtime.so --------------------===//

#include "Session.h"

#include "Errors.h"

#include <climits>
#include <cstdlib>
#include <string>

using namespace qshape;
using namespace qshape::runtime;

namespace {
/// qshape_runtime_default_options's: all unset, the ABI version this
/// library implements.
QShapeRuntimeOptions defaultOptions() noexcept {
  QShapeRuntimeOptions o{};
  o.abi_version = QSHAPE_RUNTIME_ABI_VERSION;
  return o;
}

QShapeRuntimeOptions configured = defaultOptions();
std::unique_ptr<Session> current;
QShapeRuntimeStats stats{};
} // namespace

Session::~Session() {
  for (QubitArray *array : arrays)
    delete array;
  for (void *ptr : managed)
    std::free(ptr);
}

//===----------------------------------------------------------------------===//
// The device
//===----------------------------------------------------------------------===//

void Session::initDevice(const char *fn, DeviceKind kind, std::int64_t shots) {
  const bool another = kind != backend->getKind();
  // A device's wires live in one kind of device: the null device's |0...0>
  // must not be a state the simulator has already changed.
  if (another && device.getNumWires() > 0)
    fail(fn, "another device while the current one has " + std::to_string(device.getNumWires()) +
                 " wires: call __catalyst__rt__device_release first");
  if (sim::Status status = device.initDevice(shots); status.failed())
    fail(fn, status.message());
  if (another)
    backend = makeBackend(kind, device);
}

//===----------------------------------------------------------------------===//
// Managed memory
//===----------------------------------------------------------------------===//

void *Session::allocManaged(const char *fn, std::size_t alignment, std::size_t size) {
  // aligned_alloc wants a size that is a multiple of the alignment.
  void *ptr = alignment
                  ? std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment)
                  : std::malloc(size);
  if (!ptr && size)
    fail(fn, "out of memory allocating " + std::to_string(size) + " bytes");
  if (ptr)
    managed.insert(ptr);
  return ptr;
}

void Session::freeManaged(void *ptr) {
  managed.erase(ptr);
  std::free(ptr);
}

bool Session::transferManaged(void *ptr) { return managed.erase(ptr) != 0; }

//===----------------------------------------------------------------------===//
// Qubits and registers
//===----------------------------------------------------------------------===//

int Session::getWire(const char *fn, QubitIdType qubit) const {
  if (qubit < 0 || qubit >= static_cast<QubitIdType>(device.getNumWires()))
    fail(fn, "qubit handle " + std::to_string(qubit) + " is not a wire of the device (it has " +
                 std::to_string(device.getNumWires()) + " wires)");
  return static_cast<int>(qubit);
}

void Session::checkQubitCount(const char *fn, std::int64_t n, const char *what) const {
  if (n < 0 || n > static_cast<std::int64_t>(device.getNumWires()))
    fail(fn, std::string(what) + " on " + std::to_string(n) + " qubits, but the device has " +
                 std::to_string(device.getNumWires()) + " wires");
}

void Session::readWires(const char *fn, std::int64_t n, std::va_list *args, WireList &out) const {
  out.size = static_cast<std::size_t>(n);
  for (std::size_t i = 0; i < out.size; ++i)
    out.wires[i] = getWire(fn, va_arg(*args, QubitIdType));
}

QubitArray *Session::newArray(unsigned first, std::int64_t n) {
  auto array = std::make_unique<QubitArray>();
  array->slots.resize(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < array->slots.size(); ++i)
    array->slots[i] = static_cast<QubitIdType>(first + i);
  arrays.insert(array.get());
  return array.release();
}

QubitArray &Session::getArray(const char *fn, QirArray *handle) {
  auto *array = reinterpret_cast<QubitArray *>(handle);
  if (!arrays.count(array))
    fail(fn, "not a live register handle (never allocated, or released)");
  return *array;
}

void Session::releaseArray(const char *fn, QirArray *handle) {
  QubitArray *array = &getArray(fn, handle);
  arrays.erase(array);
  delete array;
}

//===----------------------------------------------------------------------===//
// Gates
//===----------------------------------------------------------------------===//

void Session::applyGate(const char *fn, sim::GateKind kind, sim::ArrayView<double> params,
                        sim::ArrayView<int> wires, const Modifiers *mods, std::string_view word,
                        sim::ArrayView<sim::Complex> matrix) {
  sim::GateApplication gate;
  gate.kind = kind;
  gate.params = params;
  gate.wires = wires;
  gate.pauliWord = word;
  gate.matrix = matrix;
  WireList ctrls;
  std::array<bool, sim::StateVector::kMaxQubits> values{};
  if (mods) {
    gate.adjoint = mods->adjoint;
    if (mods->num_controlled > device.getNumWires())
      fail(fn, "Modifiers has " + std::to_string(mods->num_controlled) +
                   " controls, but the device has " + std::to_string(device.getNumWires()) +
                   " wires");
    if (mods->num_controlled && (!mods->controlled_wires || !mods->controlled_values))
      fail(fn, "Modifiers has " + std::to_string(mods->num_controlled) +
                   " controls but a null controlled_wires or controlled_values");
    // controlled_wires is declared QUBIT* but holds QUBIT* handles.
    const auto *ids = reinterpret_cast<const QubitIdType *>(mods->controlled_wires);
    ctrls.size = mods->num_controlled;
    for (std::size_t i = 0; i < ctrls.size; ++i) {
      ctrls.wires[i] = getWire(fn, ids[i]);
      values[i] = mods->controlled_values[i];
    }
    gate.ctrlWires = ctrls.view();
    gate.ctrlValues = sim::ArrayView<bool>(values.data(), ctrls.size);
  }
  if (sim::Status status = backend->applyGate(gate); status.failed())
    fail(fn, status.message());
  ++stats.gates_applied;
  noteWires();
}

void Session::noteWires() const {
  stats.max_wires = std::max(stats.max_wires, device.getNumWires());
}

//===----------------------------------------------------------------------===//
// Observables and results
//===----------------------------------------------------------------------===//

ObsIdType Session::addObservable(const char *fn, sim::Observable obs) {
  if (sim::Status status = obs.verify(device.getNumWires()); status.failed())
    fail(fn, status.message());
  observables.push_back(std::move(obs));
  return static_cast<ObsIdType>(observables.size() - 1);
}

const sim::Observable &Session::getObservable(const char *fn, ObsIdType id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= observables.size())
    fail(fn, "observable id " + std::to_string(id) + " does not exist (this device session has " +
                 std::to_string(observables.size()) + " observables)");
  return observables[static_cast<std::size_t>(id)];
}

RESULT *Session::addResult(bool outcome) {
  results.push_back(outcome);
  return &results.back();
}

void Session::releaseDevice() {
  device.release();
  observables.clear();
  results.clear();
}

//===----------------------------------------------------------------------===//
// Session lifetime and the host API
//===----------------------------------------------------------------------===//

Session &qshape::runtime::getSession(const char *fn) {
  if (!current)
    fail(fn, "the runtime is not initialized: call __catalyst__rt__initialize "
             "(the compiled library's setup()) first");
  return *current;
}

void qshape::runtime::startSession(const std::uint32_t *seed) {
  sim::DeviceOptions options;
  if (configured.has_seed)
    options.seed = configured.seed;
  else if (seed)
    options.seed = *seed;
  if (configured.has_shots)
    options.shots = configured.shots;
  options.maxStateBytes = configured.max_state_bytes;
  current.reset();
  current = std::make_unique<Session>(options);
  stats = QShapeRuntimeStats{};
}

void qshape::runtime::endSession() { current.reset(); }

QShapeRuntimeStats &qshape::runtime::getStats() { return stats; }

extern "C" {

void qshape_runtime_default_options(QShapeRuntimeOptions *options) {
  if (!options)
    fail("qshape_runtime_default_options", "the options pointer is null");
  *options = defaultOptions();
}

void qshape_runtime_configure(const QShapeRuntimeOptions *options) {
  if (!options) {
    configured = defaultOptions();
    return;
  }
  if (options->abi_version != QSHAPE_RUNTIME_ABI_VERSION)
    fail("qshape_runtime_configure",
         "the host was built for runtime ABI version " + std::to_string(options->abi_version) +
             ", this library implements " + std::to_string(QSHAPE_RUNTIME_ABI_VERSION));
  configured = *options;
}

uint32_t qshape_runtime_abi_version(void) { return QSHAPE_RUNTIME_ABI_VERSION; }

void qshape_runtime_get_stats(QShapeRuntimeStats *out) {
  if (!out)
    fail("qshape_runtime_get_stats", "the stats pointer is null");
  *out = stats;
}

} // extern "C"
