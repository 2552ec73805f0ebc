//===- RuntimeCAPI.cpp - Catalyst's runtime ABI on qshape's device --------===//
//
// The exported functions of RuntimeCAPI.h. Each one checks its arguments
// (counts before reading variadic arguments, handles against the session's
// tables, memref shapes before reading or writing), then calls the session's
// device: its QuantumBackend (Backend.h) for what differs between devices,
// the shared sim::Device for the rest. Any failure is reported through fail()
// under the function's own name.
//
//===----------------------------------------------------------------------===//

#include "qshape/Runtime/RuntimeCAPI.h"

#include "Errors.h"
#include "Session.h"

#include <cstdarg>
#include <string>

using namespace qshape;
using namespace qshape::runtime;
using sim::GateKind;

namespace {

QubitIdType idOf(QUBIT *qubit) { return reinterpret_cast<QubitIdType>(qubit); }
QUBIT *qubitOf(unsigned wire) { return reinterpret_cast<QUBIT *>(static_cast<QubitIdType>(wire)); }

/// A gate with a fixed number of parameters and qubits.
template <std::size_t P, std::size_t W>
void fixedGate(const char *fn, GateKind kind, const std::array<double, P> &params,
               const std::array<QUBIT *, W> &qubits, const Modifiers *mods) {
  Session &s = getSession(fn);
  std::array<int, W> wires{};
  for (std::size_t i = 0; i < W; ++i)
    wires[i] = s.getWire(fn, idOf(qubits[i]));
  guarded(fn, [&] {
    s.applyGate(fn, kind, sim::ArrayView<double>(params.data(), P),
                sim::ArrayView<int>(wires.data(), W), mods);
  });
}

std::string shapeText(std::size_t a, std::size_t b) {
  return std::to_string(a) + "x" + std::to_string(b);
}

/// The 2^n x 2^n complex matrix of a memref, row-major.
std::vector<sim::Complex> readSquareMatrix(const char *fn, const char *what,
                                           const MemRefT_CplxT_double_2d *m, std::int64_t n) {
  if (!m)
    fail(fn, std::string("the ") + what + " memref is null");
  const std::size_t dim = std::size_t{1} << n;
  if (m->sizes[0] != dim || m->sizes[1] != dim)
    fail(fn, std::string("the ") + what + " on " + std::to_string(n) + " qubits must be " +
                 shapeText(dim, dim) + ", got " + shapeText(m->sizes[0], m->sizes[1]));
  if (!m->data_aligned)
    fail(fn, std::string("the ") + what + " memref has no data");
  std::vector<sim::Complex> out(dim * dim);
  for (std::size_t r = 0; r < dim; ++r)
    for (std::size_t c = 0; c < dim; ++c) {
      const CplxT_double &e = m->data_aligned[m->offset + r * m->strides[0] + c * m->strides[1]];
      out[r * dim + c] = {e.real, e.imag};
    }
  return out;
}

/// Checks a 1-d output memref before anything is written to it.
template <typename MemRef>
void checkOutput(const char *fn, const char *what, const MemRef *out, std::size_t expected) {
  if (!out)
    fail(fn, std::string("the ") + what + " memref is null");
  if (out->sizes[0] != expected)
    fail(fn, std::string("the ") + what + " memref has " + std::to_string(out->sizes[0]) +
                 " elements, expected " + std::to_string(expected));
  if (expected && !out->data_aligned)
    fail(fn, std::string("the ") + what + " memref has no data");
}

template <typename MemRef> auto &at(MemRef *m, std::size_t i) {
  return m->data_aligned[m->offset + i * m->strides[0]];
}

/// Reads the `n` QUBIT* variadic arguments after checking that `n` fits.
#define QSHAPE_READ_WIRES(session, n, last, what, out)                                             \
  do {                                                                                             \
    (session).checkQubitCount(fn, (n), (what));                                                    \
    std::va_list args;                                                                             \
    va_start(args, last);                                                                          \
    (session).readWires(fn, (n), &args, (out));                                                    \
    va_end(args);                                                                                  \
  } while (false)

} // namespace

extern "C" {

//===----------------------------------------------------------------------===//
// Runtime control
//===----------------------------------------------------------------------===//

void __catalyst__rt__initialize(uint32_t *seed) {
  const char *const fn = __func__;
  guarded(fn, [&] { startSession(seed); });
}

void __catalyst__rt__finalize(void) { endSession(); }

void __catalyst__rt__device_init(int8_t *lib, int8_t *name, int8_t *kwargs, int64_t shots,
                                 bool autoQubitManagement) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  const DeviceKind kind = resolveDevice(fn, lib, name, kwargs);
  guarded(fn, [&] { s.initDevice(fn, kind, shots); });
}

void __catalyst__rt__device_release(void) {
  const char *const fn = __func__;
  getSession(fn).releaseDevice();
}

int64_t __catalyst__rt__num_qubits(void) {
  const char *const fn = __func__;
  return getSession(fn).device.getNumWires();
}

//===----------------------------------------------------------------------===//
// Managed memory
//===----------------------------------------------------------------------===//

void *_mlir_memref_to_llvm_alloc(size_t size) {
  const char *const fn = __func__;
  return getSession(fn).allocManaged(fn, 0, size);
}

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size) {
  const char *const fn = __func__;
  return getSession(fn).allocManaged(fn, alignment, size);
}

void _mlir_memref_to_llvm_free(void *ptr) {
  const char *const fn = __func__;
  getSession(fn).freeManaged(ptr);
}

bool _mlir_memory_transfer(void *ptr) {
  const char *const fn = __func__;
  return getSession(fn).transferManaged(ptr);
}

void __catalyst__rt__fail_cstr(const char *message) {
  const char *const fn = __func__;
  fail(fn, message ? message : "(no message)");
}

void __catalyst__rt__assert_bool(bool condition, char *message) {
  const char *const fn = __func__;
  if (!condition)
    fail(fn, message ? message : "assertion failed");
}

void __catalyst__host__rt__unrecoverable_error(void) {
  const char *const fn = __func__;
  fail(fn, "unrecoverable error from the asynchronous execution of "
           "quantum programs");
}

//===----------------------------------------------------------------------===//
// Qubits and registers
//===----------------------------------------------------------------------===//

QirArray *__catalyst__rt__qubit_allocate_array(int64_t n) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  sim::Expected<unsigned> first = s.device.allocate(n);
  if (first.failed())
    fail(fn, first.message());
  QubitArray *array = guarded(fn, [&] { return s.newArray(*first, n); });
  return reinterpret_cast<QirArray *>(array);
}

void __catalyst__rt__qubit_release_array(QirArray *array) {
  const char *const fn = __func__;
  getSession(fn).releaseArray(fn, array);
}

QUBIT *__catalyst__rt__qubit_allocate(void) {
  const char *const fn = __func__;
  sim::Expected<unsigned> wire = getSession(fn).device.allocateQubit();
  if (wire.failed())
    fail(fn, wire.message());
  return qubitOf(*wire);
}

void __catalyst__rt__qubit_release(QUBIT *qubit) {
  const char *const fn = __func__;
  // Bookkeeping only (wires are not reused); the handle must be a wire.
  Session &s = getSession(fn);
  (void)s.getWire(fn, idOf(qubit));
}

int64_t __catalyst__rt__array_get_size_1d(QirArray *array) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  return static_cast<int64_t>(s.getArray(fn, array).slots.size());
}

static QubitIdType &getSlot(const char *fn, QirArray *handle, int64_t idx) {
  QubitArray &array = getSession(fn).getArray(fn, handle);
  if (idx < 0 || static_cast<std::size_t>(idx) >= array.slots.size())
    fail(fn, "index " + std::to_string(idx) + " out of range for a register of " +
                 std::to_string(array.slots.size()) + " qubits");
  return array.slots[static_cast<std::size_t>(idx)];
}

int8_t *__catalyst__rt__array_get_element_ptr_1d(QirArray *array, int64_t idx) {
  const char *const fn = __func__;
  return reinterpret_cast<int8_t *>(&getSlot(fn, array, idx));
}

void __catalyst__rt__array_update_element_1d(QirArray *array, int64_t idx, QUBIT *qubit) {
  const char *const fn = __func__;
  QubitIdType &slot = getSlot(fn, array, idx);
  slot = getSession(fn).getWire(fn, idOf(qubit));
}

bool __catalyst__rt__result_equal(RESULT *a, RESULT *b) {
  const char *const fn = __func__;
  if (!a || !b)
    fail(fn, "a result pointer is null");
  return a == b || *a == *b;
}

static const RESULT resultOne = true, resultZero = false;

RESULT *__catalyst__rt__result_get_one(void) { return const_cast<RESULT *>(&resultOne); }

RESULT *__catalyst__rt__result_get_zero(void) { return const_cast<RESULT *>(&resultZero); }

//===----------------------------------------------------------------------===//
// Gates
//===----------------------------------------------------------------------===//

#define QSHAPE_GATE_1(NAME)                                                                        \
  void __catalyst__qis__##NAME(QUBIT *q0, const Modifiers *mods) {                                 \
    fixedGate<0, 1>(__func__, GateKind::NAME, {}, {q0}, mods);                                     \
  }
#define QSHAPE_GATE_P1(NAME)                                                                       \
  void __catalyst__qis__##NAME(double p0, QUBIT *q0, const Modifiers *mods) {                      \
    fixedGate<1, 1>(__func__, GateKind::NAME, {p0}, {q0}, mods);                                   \
  }
#define QSHAPE_GATE_2(NAME)                                                                        \
  void __catalyst__qis__##NAME(QUBIT *q0, QUBIT *q1, const Modifiers *mods) {                      \
    fixedGate<0, 2>(__func__, GateKind::NAME, {}, {q0, q1}, mods);                                 \
  }
#define QSHAPE_GATE_P2(NAME)                                                                       \
  void __catalyst__qis__##NAME(double p0, QUBIT *q0, QUBIT *q1, const Modifiers *mods) {           \
    fixedGate<1, 2>(__func__, GateKind::NAME, {p0}, {q0, q1}, mods);                               \
  }
#define QSHAPE_GATE_3(NAME)                                                                        \
  void __catalyst__qis__##NAME(QUBIT *q0, QUBIT *q1, QUBIT *q2, const Modifiers *mods) {           \
    fixedGate<0, 3>(__func__, GateKind::NAME, {}, {q0, q1, q2}, mods);                             \
  }

QSHAPE_GATE_1(PauliX)
QSHAPE_GATE_1(PauliY)
QSHAPE_GATE_1(PauliZ)
QSHAPE_GATE_1(Hadamard)
QSHAPE_GATE_1(S)
QSHAPE_GATE_1(T)
QSHAPE_GATE_1(SX)
QSHAPE_GATE_P1(PhaseShift)
QSHAPE_GATE_P1(RX)
QSHAPE_GATE_P1(RY)
QSHAPE_GATE_P1(RZ)
QSHAPE_GATE_2(CNOT)
QSHAPE_GATE_2(CY)
QSHAPE_GATE_2(CZ)
QSHAPE_GATE_2(SWAP)
QSHAPE_GATE_2(ISWAP)
QSHAPE_GATE_P2(PSWAP)
QSHAPE_GATE_P2(IsingXX)
QSHAPE_GATE_P2(IsingYY)
QSHAPE_GATE_P2(IsingXY)
QSHAPE_GATE_P2(IsingZZ)
QSHAPE_GATE_P2(SingleExcitation)
QSHAPE_GATE_P2(ControlledPhaseShift)
QSHAPE_GATE_P2(CRX)
QSHAPE_GATE_P2(CRY)
QSHAPE_GATE_P2(CRZ)
QSHAPE_GATE_3(CSWAP)
QSHAPE_GATE_3(Toffoli)

void __catalyst__qis__Rot(double phi, double theta, double omega, QUBIT *q0,
                          const Modifiers *mods) {
  const char *const fn = __func__;
  fixedGate<3, 1>(fn, GateKind::Rot, {phi, theta, omega}, {q0}, mods);
}

void __catalyst__qis__CRot(double phi, double theta, double omega, QUBIT *q0, QUBIT *q1,
                           const Modifiers *mods) {
  const char *const fn = __func__;
  fixedGate<3, 2>(fn, GateKind::CRot, {phi, theta, omega}, {q0, q1}, mods);
}

void __catalyst__qis__DoubleExcitation(double phi, QUBIT *q0, QUBIT *q1, QUBIT *q2, QUBIT *q3,
                                       const Modifiers *mods) {
  const char *const fn = __func__;
  fixedGate<1, 4>(fn, GateKind::DoubleExcitation, {phi}, {q0, q1, q2, q3}, mods);
}

void __catalyst__qis__MS(double, QUBIT *, QUBIT *, const Modifiers *) {
  const char *const fn = __func__;
  getSession(fn);
  fail(fn, "gate 'MS' (Molmer-Sorensen) is not supported: qshape's "
           "simulator, like qshape-sim, has no definition of it");
}

void __catalyst__qis__Identity(const Modifiers *mods, int64_t n, ...) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  WireList wires;
  QSHAPE_READ_WIRES(s, n, n, "Identity", wires);
  guarded(fn, [&] { s.applyGate(fn, GateKind::Identity, {}, wires.view(), mods); });
}

void __catalyst__qis__MultiRZ(double theta, const Modifiers *mods, int64_t n, ...) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  WireList wires;
  QSHAPE_READ_WIRES(s, n, n, "MultiRZ", wires);
  guarded(fn, [&] { s.applyGate(fn, GateKind::MultiRZ, {theta}, wires.view(), mods); });
}

void __catalyst__qis__PCPhase(double phi, int64_t dim, const Modifiers *mods, int64_t n, ...) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  WireList wires;
  QSHAPE_READ_WIRES(s, n, n, "PCPhase", wires);
  const double params[2] = {phi, static_cast<double>(dim)};
  guarded(fn, [&] { s.applyGate(fn, GateKind::PCPhase, {params, 2}, wires.view(), mods); });
}

void __catalyst__qis__PauliRot(const char *word, double theta, const Modifiers *mods, bool cond,
                               int64_t n, ...) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  if (!word)
    fail(fn, "the Pauli word is null");
  WireList wires;
  QSHAPE_READ_WIRES(s, n, n, "PauliRot", wires);
  if (!cond)
    return;
  guarded(fn, [&] { s.applyGate(fn, GateKind::PauliRot, {theta}, wires.view(), mods, word); });
}

void __catalyst__qis__QubitUnitary(MemRefT_CplxT_double_2d *matrix, const Modifiers *mods,
                                   int64_t n, ...) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  WireList wires;
  QSHAPE_READ_WIRES(s, n, n, "QubitUnitary", wires);
  guarded(fn, [&] {
    std::vector<sim::Complex> m = readSquareMatrix(fn, "matrix", matrix, n);
    s.applyGate(fn, GateKind::QubitUnitary, {}, wires.view(), mods, {},
                sim::ArrayView<sim::Complex>(m.data(), m.size()));
  });
}

void __catalyst__qis__GlobalPhase(double phi, const Modifiers *mods) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  guarded(fn, [&] { s.applyGate(fn, GateKind::GlobalPhase, {phi}, {}, mods); });
}

void __catalyst__qis__SetState(MemRefT_CplxT_double_1d *state, uint64_t n, ...) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  const auto count = static_cast<int64_t>(n);
  WireList wires;
  QSHAPE_READ_WIRES(s, count, n, "SetState", wires);
  checkOutput(fn, "state", state, std::size_t{1} << count);
  guarded(fn, [&] {
    std::vector<sim::Complex> amps(state->sizes[0]);
    for (std::size_t i = 0; i < amps.size(); ++i)
      amps[i] = {at(state, i).real, at(state, i).imag};
    s.noteWires();
    if (sim::Status status = s.getBackend().setState(amps, wires.view()); status.failed())
      fail(fn, status.message());
  });
}

void __catalyst__qis__SetBasisState(MemRefT_int8_1d *bits, uint64_t n, ...) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  const auto count = static_cast<int64_t>(n);
  WireList wires;
  QSHAPE_READ_WIRES(s, count, n, "SetBasisState", wires);
  checkOutput(fn, "basis state", bits, wires.size);
  std::array<int, sim::StateVector::kMaxQubits> values{};
  for (std::size_t i = 0; i < wires.size; ++i)
    values[i] = at(bits, i) != 0 ? 1 : 0;
  guarded(fn, [&] {
    s.noteWires();
    sim::Status status =
        s.getBackend().setBasisState(sim::ArrayView<int>(values.data(), wires.size), wires.view());
    if (status.failed())
      fail(fn, status.message());
  });
}

//===----------------------------------------------------------------------===//
// Observables
//===----------------------------------------------------------------------===//

ObsIdType __catalyst__qis__NamedObs(int64_t kind, QUBIT *qubit) {
  const char *const fn = __func__;
  static const sim::NamedObservable kinds[] = {
      sim::NamedObservable::Identity, sim::NamedObservable::PauliX, sim::NamedObservable::PauliY,
      sim::NamedObservable::PauliZ, sim::NamedObservable::Hadamard};
  Session &s = getSession(fn);
  if (kind < 0 || kind > 4)
    fail(fn, "unknown named observable kind " + std::to_string(kind) +
                 " (0 Identity, 1 PauliX, 2 PauliY, 3 PauliZ, 4 Hadamard)");
  const int wire = s.getWire(fn, idOf(qubit));
  return guarded(fn,
                 [&] { return s.addObservable(fn, sim::Observable::named(kinds[kind], wire)); });
}

ObsIdType __catalyst__qis__HermitianObs(MemRefT_CplxT_double_2d *matrix, int64_t n, ...) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  WireList wires;
  QSHAPE_READ_WIRES(s, n, n, "HermitianObs", wires);
  return guarded(fn, [&] {
    std::vector<sim::Complex> m = readSquareMatrix(fn, "matrix", matrix, n);
    return s.addObservable(
        fn, sim::Observable::hermitian(std::move(m),
                                       std::vector<int>(wires.view().begin(), wires.view().end())));
  });
}

ObsIdType __catalyst__qis__TensorObs(int64_t n, ...) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  // Factors act on disjoint wires, so there are at most as many as wires.
  if (n < 1 || n > static_cast<int64_t>(s.device.getNumWires()))
    fail(fn, "a tensor product of " + std::to_string(n) + " observables on a device of " +
                 std::to_string(s.device.getNumWires()) + " wires (it needs 1 to one per wire)");
  std::array<ObsIdType, sim::StateVector::kMaxQubits> ids{};
  std::va_list args;
  va_start(args, n);
  for (int64_t i = 0; i < n; ++i)
    ids[i] = va_arg(args, ObsIdType);
  va_end(args);
  return guarded(fn, [&] {
    std::vector<sim::Observable> factors;
    for (int64_t i = 0; i < n; ++i)
      factors.push_back(s.getObservable(fn, ids[i]));
    return s.addObservable(fn, sim::Observable::tensor(std::move(factors)));
  });
}

ObsIdType __catalyst__qis__HamiltonianObs(MemRefT_double_1d *coeffs, int64_t n, ...) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  if (n < 0)
    fail(fn, "a Hamiltonian of " + std::to_string(n) + " terms");
  // The coefficients bound the count of variadic arguments to read.
  checkOutput(fn, "coefficients", coeffs, static_cast<std::size_t>(n));
  std::vector<ObsIdType> ids =
      guarded(fn, [&] { return std::vector<ObsIdType>(static_cast<std::size_t>(n)); });
  std::va_list args;
  va_start(args, n);
  for (ObsIdType &id : ids)
    id = va_arg(args, ObsIdType);
  va_end(args);
  return guarded(fn, [&] {
    std::vector<double> c(ids.size());
    std::vector<sim::Observable> terms;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      c[i] = at(coeffs, i);
      terms.push_back(s.getObservable(fn, ids[i]));
    }
    return s.addObservable(fn, sim::Observable::hamiltonian(std::move(c), std::move(terms)));
  });
}

//===----------------------------------------------------------------------===//
// Measurements
//===----------------------------------------------------------------------===//

RESULT *__catalyst__qis__Measure(QUBIT *qubit, int32_t postselect) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  const int wire = s.getWire(fn, idOf(qubit));
  std::optional<int> selected;
  if (postselect == 0 || postselect == 1)
    selected = postselect;
  else if (postselect != -1)
    fail(fn, "postselect must be 0, 1 or -1 (none), got " + std::to_string(postselect));
  return guarded(fn, [&] {
    s.noteWires();
    sim::Expected<int> outcome = s.getBackend().measure(wire, selected);
    if (outcome.failed())
      fail(fn, outcome.message());
    return s.addResult(*outcome == 1);
  });
}

double __catalyst__qis__Expval(ObsIdType id) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  return guarded(fn, [&] {
    s.noteWires();
    const sim::Observable &obs = s.getObservable(fn, id);
    sim::Expected<double> value = s.getBackend().expval(obs);
    if (value.failed())
      fail(fn, value.message());
    return *value;
  });
}

double __catalyst__qis__Variance(ObsIdType id) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  return guarded(fn, [&] {
    s.noteWires();
    const sim::Observable &obs = s.getObservable(fn, id);
    sim::Expected<double> value = s.getBackend().var(obs);
    if (value.failed())
      fail(fn, value.message());
    return *value;
  });
}

void __catalyst__qis__Probs(MemRefT_double_1d *out, int64_t n, ...) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  WireList wires;
  QSHAPE_READ_WIRES(s, n, n, "Probs", wires);
  guarded(fn, [&] {
    s.noteWires();
    sim::Expected<std::vector<double>> p = s.device.probs(wires.view());
    if (p.failed())
      fail(fn, p.message());
    checkOutput(fn, "result", out, p->size());
    for (std::size_t i = 0; i < p->size(); ++i)
      at(out, i) = (*p)[i];
  });
}

void __catalyst__qis__State(MemRefT_CplxT_double_1d *out, int64_t n, ...) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  WireList wires;
  QSHAPE_READ_WIRES(s, n, n, "State", wires);
  guarded(fn, [&] {
    s.noteWires();
    sim::Expected<std::vector<sim::Complex>> amps = s.device.state(wires.view());
    if (amps.failed())
      fail(fn, amps.message());
    checkOutput(fn, "result", out, amps->size());
    for (std::size_t i = 0; i < amps->size(); ++i)
      at(out, i) = CplxT_double{(*amps)[i].real(), (*amps)[i].imag()};
  });
}

void __catalyst__qis__Sample(MemRefT_double_2d *out, int64_t n, ...) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  WireList wires;
  QSHAPE_READ_WIRES(s, n, n, "Sample", wires);
  guarded(fn, [&] {
    s.noteWires();
    const std::size_t k = s.device.resolveWires(wires.view()).size();
    sim::Expected<std::vector<int>> bits = s.device.sample(wires.view());
    if (bits.failed())
      fail(fn, bits.message());
    const std::size_t shots = s.device.getShots();
    if (!out)
      fail(fn, "the result memref is null");
    if (out->sizes[0] != shots || out->sizes[1] != k)
      fail(fn, "the result memref is " + shapeText(out->sizes[0], out->sizes[1]) + ", expected " +
                   shapeText(shots, k) + " (shots x wires)");
    if (shots * k && !out->data_aligned)
      fail(fn, "the result memref has no data");
    for (std::size_t i = 0; i < shots; ++i)
      for (std::size_t j = 0; j < k; ++j)
        out->data_aligned[out->offset + i * out->strides[0] + j * out->strides[1]] =
            (*bits)[i * k + j];
  });
}

void __catalyst__qis__Counts(PairT_MemRefT_double_int64_1d *out, int64_t n, ...) {
  const char *const fn = __func__;
  Session &s = getSession(fn);
  WireList wires;
  QSHAPE_READ_WIRES(s, n, n, "Counts", wires);
  guarded(fn, [&] {
    s.noteWires();
    sim::Expected<std::vector<std::uint64_t>> c = s.device.counts(wires.view());
    if (c.failed())
      fail(fn, c.message());
    if (!out)
      fail(fn, "the result pair is null");
    checkOutput(fn, "eigenvalue", &out->first, c->size());
    checkOutput(fn, "count", &out->second, c->size());
    for (std::size_t i = 0; i < c->size(); ++i) {
      at(&out->first, i) = static_cast<double>(i);
      at(&out->second, i) = static_cast<int64_t>((*c)[i]);
    }
  });
}

} // extern "C"
