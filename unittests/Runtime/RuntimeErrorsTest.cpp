//===- RuntimeErrorsTest.cpp - Run-time errors of the C ABI ---------------===//
//
// Every error the runtime reports: the default handler prints
// "qshape-runtime: error: <function>: <what>" and exits 1 (checked with
// death tests, message and exit code); a host handler gets the message and
// may leave by an exception, after which the runtime is still usable.
//
//===----------------------------------------------------------------------===//

#include "RuntimeTestUtil.h"

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include <sys/resource.h>

using namespace qshape;
using namespace qshape::runtime::test;
using ::testing::ExitedWithCode;

namespace {

#define EXPECT_RUNTIME_ERROR(statement, pattern)                                                   \
  EXPECT_EXIT(statement, ExitedWithCode(1), "^qshape-runtime: error: " pattern)

class RuntimeErrors : public RuntimeTest {
protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    reg = __catalyst__rt__qubit_allocate_array(2);
    q0 = slot(reg, 0);
    q1 = slot(reg, 1);
  }
  QirArray *reg = nullptr;
  QUBIT *q0 = nullptr, *q1 = nullptr;
};

TEST_F(RuntimeErrors, WireOutOfRange) {
  EXPECT_RUNTIME_ERROR(__catalyst__qis__CNOT(q0, qubitOf(5), nullptr),
                       "__catalyst__qis__CNOT: qubit handle 5 is not a wire of "
                       "the device \\(it has 2 wires\\)");
  EXPECT_RUNTIME_ERROR(__catalyst__qis__Measure(qubitOf(-1), -1),
                       "__catalyst__qis__Measure: qubit handle -1 is not a wire");
  QUBIT *ctrls[1] = {qubitOf(7)};
  bool values[1] = {true};
  Modifiers mods{false, 1, reinterpret_cast<QUBIT *>(ctrls), values};
  EXPECT_RUNTIME_ERROR(__catalyst__qis__RX(0.1, q0, &mods),
                       "__catalyst__qis__RX: qubit handle 7 is not a wire");
}

TEST_F(RuntimeErrors, RepeatedWires) {
  EXPECT_RUNTIME_ERROR(__catalyst__qis__CNOT(q0, q0, nullptr),
                       "__catalyst__qis__CNOT: gate 'CNOT' has bad wires: wire 0 "
                       "is used more than once");
  QUBIT *ctrls[1] = {q1};
  bool values[1] = {true};
  Modifiers mods{false, 1, reinterpret_cast<QUBIT *>(ctrls), values};
  EXPECT_RUNTIME_ERROR(__catalyst__qis__RY(0.1, q1, &mods),
                       "__catalyst__qis__RY: .*wire 1 is used more than once");
}

TEST_F(RuntimeErrors, BadModifiers) {
  Modifiers many{false, 3, nullptr, nullptr};
  EXPECT_RUNTIME_ERROR(__catalyst__qis__PauliX(q0, &many),
                       "__catalyst__qis__PauliX: Modifiers has 3 controls, but "
                       "the device has 2 wires");
  Modifiers nulls{false, 1, nullptr, nullptr};
  EXPECT_RUNTIME_ERROR(__catalyst__qis__PauliX(q0, &nulls),
                       "__catalyst__qis__PauliX: Modifiers has 1 controls but a "
                       "null controlled_wires or controlled_values");
}

TEST_F(RuntimeErrors, RegisterIndexOutOfRange) {
  EXPECT_RUNTIME_ERROR(__catalyst__rt__array_get_element_ptr_1d(reg, 2),
                       "__catalyst__rt__array_get_element_ptr_1d: index 2 out of "
                       "range for a register of 2 qubits");
  EXPECT_RUNTIME_ERROR(__catalyst__rt__array_get_element_ptr_1d(reg, -1),
                       "__catalyst__rt__array_get_element_ptr_1d: index -1 out of range");
  EXPECT_RUNTIME_ERROR(__catalyst__rt__array_update_element_1d(reg, 5, q0),
                       "__catalyst__rt__array_update_element_1d: index 5 out of range");
}

TEST_F(RuntimeErrors, StaleRegisterHandle) {
  __catalyst__rt__qubit_release_array(reg);
  EXPECT_RUNTIME_ERROR(__catalyst__rt__array_get_element_ptr_1d(reg, 0),
                       "__catalyst__rt__array_get_element_ptr_1d: not a live "
                       "register handle \\(never allocated, or released\\)");
  int notARegister = 0;
  EXPECT_RUNTIME_ERROR(
      __catalyst__rt__array_get_size_1d(reinterpret_cast<QirArray *>(&notARegister)),
      "__catalyst__rt__array_get_size_1d: not a live register handle");
}

TEST_F(RuntimeErrors, MoreQubitsThanTheSimulatorAllows) {
  EXPECT_RUNTIME_ERROR(__catalyst__rt__qubit_allocate_array(29),
                       "__catalyst__rt__qubit_allocate_array: allocating 29 "
                       "qubits \\(2 already allocated\\) exceeds the simulator's 30");
  EXPECT_RUNTIME_ERROR(__catalyst__rt__qubit_allocate_array(-1),
                       "__catalyst__rt__qubit_allocate_array: allocating -1 qubits");
  __catalyst__rt__qubit_allocate_array(28);
  EXPECT_RUNTIME_ERROR(__catalyst__rt__qubit_allocate(),
                       "__catalyst__rt__qubit_allocate: allocating a qubit "
                       "exceeds the simulator's 30");
}

TEST_F(RuntimeErrors, MoreQubitsThanMemoryAllows) {
  QShapeRuntimeOptions o;
  qshape_runtime_default_options(&o);
  o.max_state_bytes = 1024;
  restart(o);
  QirArray *small = __catalyst__rt__qubit_allocate_array(5);
  __catalyst__qis__Hadamard(slot(small, 0), nullptr); // 512 bytes: fits
  QirArray *more = __catalyst__rt__qubit_allocate_array(1);
  EXPECT_RUNTIME_ERROR(__catalyst__qis__Hadamard(slot(more, 0), nullptr),
                       "__catalyst__qis__Hadamard: the state of 6 qubits needs 1 "
                       "KiB \\(and 512 bytes for the state of 5 qubits while it "
                       "grows\\), more than the 1 KiB of memory the device is allowed");
}

/// In the death test's child: 256 MiB of address space, then a gate on 26
/// qubits (1 GiB of state).
void applyGateUnderAMemoryLimit() {
  const rlim_t bytes = rlim_t{256} << 20;
  rlimit limit{bytes, bytes};
  setrlimit(RLIMIT_AS, &limit);
  QirArray *r = __catalyst__rt__qubit_allocate_array(26);
  __catalyst__qis__PauliX(slot(r, 0), nullptr);
}

TEST_F(RuntimeErrors, OutOfMemoryIsAnErrorNotACrash) {
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
  // ASan reserves terabytes of address space for its shadow at start-up, so
  // under RLIMIT_AS it cannot map its own memory and dies first.
  GTEST_SKIP() << "RLIMIT_AS cannot limit the heap under AddressSanitizer";
#endif
#endif
  QShapeRuntimeOptions o;
  qshape_runtime_default_options(&o);
  o.max_state_bytes = std::uint64_t{1} << 40; // past the estimate, into malloc
  restart(o);
  EXPECT_RUNTIME_ERROR(applyGateUnderAMemoryLimit(),
                       "__catalyst__qis__PauliX: out of memory: cannot allocate the state of 26 "
                       "qubits \\(1 GiB\\)");
}

TEST_F(RuntimeErrors, BadPauliWord) {
  EXPECT_RUNTIME_ERROR(__catalyst__qis__PauliRot("XQ", 0.3, nullptr, true, 2, q0, q1),
                       "__catalyst__qis__PauliRot: PauliRot word 'XQ' has a letter "
                       "other than I, X, Y, Z");
  EXPECT_RUNTIME_ERROR(__catalyst__qis__PauliRot("XYZ", 0.3, nullptr, true, 2, q0, q1),
                       "__catalyst__qis__PauliRot: PauliRot word 'XYZ' has 3 "
                       "letter\\(s\\) for 2 wire\\(s\\)");
  EXPECT_RUNTIME_ERROR(__catalyst__qis__PauliRot(nullptr, 0.3, nullptr, true, 1, q0),
                       "__catalyst__qis__PauliRot: the Pauli word is null");
}

TEST_F(RuntimeErrors, UnsupportedAndMalformedGates) {
  EXPECT_RUNTIME_ERROR(__catalyst__qis__MS(0.1, q0, q1, nullptr),
                       "__catalyst__qis__MS: gate 'MS' \\(Molmer-Sorensen\\) is not "
                       "supported");
  EXPECT_RUNTIME_ERROR(__catalyst__qis__Identity(nullptr, 2, q0, q1),
                       "__catalyst__qis__Identity: gate 'Identity' expects 1 wire");
  EXPECT_RUNTIME_ERROR(__catalyst__qis__MultiRZ(0.1, nullptr, 3, q0, q1, q0),
                       "__catalyst__qis__MultiRZ: MultiRZ on 3 qubits, but the "
                       "device has 2 wires");
  EXPECT_RUNTIME_ERROR(__catalyst__qis__PCPhase(0.1, 9, nullptr, 1, q0),
                       "__catalyst__qis__PCPhase: PCPhase dimension 9.000000 is not "
                       "an integer in \\[0, 2\\^1\\]");
  EXPECT_RUNTIME_ERROR(__catalyst__qis__RX(NAN, q0, nullptr),
                       "__catalyst__qis__RX: gate 'RX' has a non-finite parameter");
  std::vector<CplxT_double> m(4);
  MemRefT_CplxT_double_2d u{m.data(), m.data(), 0, {2, 2}, {2, 1}};
  EXPECT_RUNTIME_ERROR(__catalyst__qis__QubitUnitary(&u, nullptr, 2, q0, q1),
                       "__catalyst__qis__QubitUnitary: the matrix on 2 qubits must "
                       "be 4x4, got 2x2");
  EXPECT_RUNTIME_ERROR(__catalyst__qis__QubitUnitary(nullptr, nullptr, 1, q0),
                       "__catalyst__qis__QubitUnitary: the matrix memref is null");
}

TEST_F(RuntimeErrors, Observables) {
  EXPECT_RUNTIME_ERROR(__catalyst__qis__Expval(7),
                       "__catalyst__qis__Expval: observable id 7 does not exist "
                       "\\(this device session has 0 observables\\)");
  EXPECT_RUNTIME_ERROR(__catalyst__qis__NamedObs(5, q0),
                       "__catalyst__qis__NamedObs: unknown named observable kind 5");
  std::vector<CplxT_double> m = {{1, 0}, {1, 0}, {0, 0}, {1, 0}};
  MemRefT_CplxT_double_2d mat{m.data(), m.data(), 0, {2, 2}, {2, 1}};
  EXPECT_RUNTIME_ERROR(__catalyst__qis__HermitianObs(&mat, 1, q0),
                       "__catalyst__qis__HermitianObs: Hermitian observable matrix "
                       "is not Hermitian");
  const ObsIdType z0 = __catalyst__qis__NamedObs(QSHAPE_OBS_PAULI_Z, q0);
  const ObsIdType x0 = __catalyst__qis__NamedObs(QSHAPE_OBS_PAULI_X, q0);
  EXPECT_RUNTIME_ERROR(__catalyst__qis__TensorObs(2, z0, x0),
                       "__catalyst__qis__TensorObs: tensor factors overlap: "
                       "observable wire 0 is used more than once");
  EXPECT_RUNTIME_ERROR(__catalyst__qis__TensorObs(3, z0, x0, z0),
                       "__catalyst__qis__TensorObs: a tensor product of 3 "
                       "observables on a device of 2 wires");
  EXPECT_RUNTIME_ERROR(__catalyst__qis__TensorObs(2, z0, ObsIdType{12}),
                       "__catalyst__qis__TensorObs: observable id 12 does not exist");
  std::vector<double> c = {1.0, 2.0};
  MemRefT_double_1d coeffs{c.data(), c.data(), 0, {2}, {1}};
  EXPECT_RUNTIME_ERROR(__catalyst__qis__HamiltonianObs(&coeffs, 3, z0, x0, z0),
                       "__catalyst__qis__HamiltonianObs: the coefficients memref "
                       "has 2 elements, expected 3");
  // Observables belong to a device session.
  __catalyst__rt__device_release();
  EXPECT_RUNTIME_ERROR(__catalyst__qis__Expval(z0),
                       "__catalyst__qis__Expval: observable id 0 does not exist");
}

TEST_F(RuntimeErrors, VarianceOfAHamiltonianWithShots) {
  restart(options(1, 100));
  QirArray *r = __catalyst__rt__qubit_allocate_array(1);
  const ObsIdType z = __catalyst__qis__NamedObs(QSHAPE_OBS_PAULI_Z, slot(r, 0));
  std::vector<double> c = {1.0};
  MemRefT_double_1d coeffs{c.data(), c.data(), 0, {1}, {1}};
  const ObsIdType h = __catalyst__qis__HamiltonianObs(&coeffs, 1, z);
  EXPECT_RUNTIME_ERROR(__catalyst__qis__Variance(h),
                       "__catalyst__qis__Variance: the variance of a Hamiltonian "
                       "with shots is not supported");
}

TEST_F(RuntimeErrors, MeasurementCounts) {
  std::vector<double> p(8);
  MemRefT_double_1d out{p.data(), p.data(), 0, {8}, {1}};
  EXPECT_RUNTIME_ERROR(__catalyst__qis__Probs(&out, 3, q0, q1, q0),
                       "__catalyst__qis__Probs: Probs on 3 qubits, but the device "
                       "has 2 wires");
  EXPECT_RUNTIME_ERROR(__catalyst__qis__Probs(&out, -1),
                       "__catalyst__qis__Probs: Probs on -1 qubits");
  MemRefT_double_1d four{p.data(), p.data(), 0, {4}, {1}};
  EXPECT_RUNTIME_ERROR(__catalyst__qis__Probs(&four, 2, q0, q0),
                       "__catalyst__qis__Probs: probs: wire 0 is used more than once");
}

TEST_F(RuntimeErrors, OutputShapes) {
  std::vector<double> p(8);
  MemRefT_double_1d three{p.data(), p.data(), 0, {3}, {1}};
  EXPECT_RUNTIME_ERROR(__catalyst__qis__Probs(&three, 0),
                       "__catalyst__qis__Probs: the result memref has 3 elements, "
                       "expected 4");
  EXPECT_RUNTIME_ERROR(__catalyst__qis__Probs(nullptr, 0),
                       "__catalyst__qis__Probs: the result memref is null");
  std::vector<CplxT_double> s(2);
  MemRefT_CplxT_double_1d st{s.data(), s.data(), 0, {2}, {1}};
  EXPECT_RUNTIME_ERROR(__catalyst__qis__State(&st, 0),
                       "__catalyst__qis__State: the result memref has 2 elements, "
                       "expected 4");
  EXPECT_RUNTIME_ERROR(__catalyst__qis__State(&st, 1, q1),
                       "__catalyst__qis__State: quantum.state of 1 of the 2 device "
                       "wires is not supported \\(it needs all wires\\)");

  restart(options(1, 200));
  QirArray *r = __catalyst__rt__qubit_allocate_array(2);
  std::vector<double> samples(20);
  MemRefT_double_2d sm{samples.data(), samples.data(), 0, {10, 2}, {2, 1}};
  EXPECT_RUNTIME_ERROR(__catalyst__qis__Sample(&sm, 0),
                       "__catalyst__qis__Sample: the result memref is 10x2, "
                       "expected 200x2 \\(shots x wires\\)");
  std::vector<double> eig(4);
  std::vector<int64_t> counts(2);
  PairT_MemRefT_double_int64_1d pair{{eig.data(), eig.data(), 0, {4}, {1}},
                                     {counts.data(), counts.data(), 0, {2}, {1}}};
  EXPECT_RUNTIME_ERROR(__catalyst__qis__Counts(&pair, 2, slot(r, 0), slot(r, 1)),
                       "__catalyst__qis__Counts: the count memref has 2 elements, "
                       "expected 4");
}

TEST_F(RuntimeErrors, SampleAndCountsNeedShots) {
  std::vector<double> samples(2);
  MemRefT_double_2d sm{samples.data(), samples.data(), 0, {1, 2}, {2, 1}};
  EXPECT_RUNTIME_ERROR(__catalyst__qis__Sample(&sm, 0),
                       "__catalyst__qis__Sample: 'quantum.sample' needs shots "
                       "\\(quantum.device shots or --shots\\)");
  PairT_MemRefT_double_int64_1d pair{};
  EXPECT_RUNTIME_ERROR(__catalyst__qis__Counts(&pair, 0),
                       "__catalyst__qis__Counts: 'quantum.counts' needs shots");
  EXPECT_RUNTIME_ERROR(__catalyst__rt__device_init(nullptr, nullptr, nullptr, -3, false),
                       "__catalyst__rt__device_init: negative shots -3");
}

TEST_F(RuntimeErrors, MeasureAndPostselect) {
  EXPECT_RUNTIME_ERROR(__catalyst__qis__Measure(q0, 1),
                       "__catalyst__qis__Measure: measure: cannot postselect outcome "
                       "1 on wire 0, its probability is 0");
  EXPECT_RUNTIME_ERROR(__catalyst__qis__Measure(q0, 2),
                       "__catalyst__qis__Measure: postselect must be 0, 1 or -1 "
                       "\\(none\\), got 2");
}

TEST_F(RuntimeErrors, StatePreparation) {
  std::vector<int8_t> bits = {1};
  MemRefT_int8_1d b{bits.data(), bits.data(), 0, {1}, {1}};
  EXPECT_RUNTIME_ERROR(__catalyst__qis__SetBasisState(&b, 2, q0, q1),
                       "__catalyst__qis__SetBasisState: the basis state memref has "
                       "1 elements, expected 2");
  std::vector<CplxT_double> amps = {{1, 0}, {1, 0}};
  MemRefT_CplxT_double_1d s = complexMemRef(amps);
  EXPECT_RUNTIME_ERROR(__catalyst__qis__SetState(&s, 1, q0),
                       "__catalyst__qis__SetState: set_state: the state has squared "
                       "norm 2.000000, not 1");
}

TEST_F(RuntimeErrors, OutsideASession) {
  __catalyst__rt__finalize();
  EXPECT_RUNTIME_ERROR(__catalyst__qis__RX(0.1, q0, nullptr),
                       "__catalyst__qis__RX: the runtime is not initialized: call "
                       "__catalyst__rt__initialize \\(the compiled library's "
                       "setup\\(\\)\\) first");
  EXPECT_RUNTIME_ERROR(__catalyst__rt__qubit_allocate_array(1),
                       "__catalyst__rt__qubit_allocate_array: the runtime is not "
                       "initialized");
}

// Catalyst's memory-manager contract: the session owns what it allocates
// until the host takes it; what the host does not take, finalize frees (the
// sanitizer build's leak check sees it if not).
TEST_F(RuntimeErrors, ManagedMemory) {
  auto *taken = static_cast<double *>(_mlir_memref_to_llvm_alloc(4 * sizeof(double)));
  ASSERT_NE(taken, nullptr);
  taken[3] = 1.5;
  void *aligned = _mlir_memref_to_llvm_aligned_alloc(64, 10);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned) % 64, 0u);
  void *freed = _mlir_memref_to_llvm_alloc(8);
  _mlir_memref_to_llvm_free(freed);
  double local = 0;
  EXPECT_FALSE(_mlir_memory_transfer(&local)); // not the session's
  EXPECT_FALSE(_mlir_memory_transfer(freed));  // freed already
  EXPECT_TRUE(_mlir_memory_transfer(taken));
  EXPECT_FALSE(_mlir_memory_transfer(taken)); // taken once only
  __catalyst__rt__finalize();                 // frees `aligned`, not `taken`
  EXPECT_EQ(taken[3], 1.5);
  std::free(taken);
  EXPECT_RUNTIME_ERROR(_mlir_memref_to_llvm_alloc(8),
                       "_mlir_memref_to_llvm_alloc: the runtime is not initialized");
}

TEST_F(RuntimeErrors, ProgramFailures) {
  EXPECT_RUNTIME_ERROR(__catalyst__rt__fail_cstr("index out of bounds"),
                       "__catalyst__rt__fail_cstr: index out of bounds\n");
  char message[] = "x must be positive";
  __catalyst__rt__assert_bool(true, message);
  EXPECT_RUNTIME_ERROR(__catalyst__rt__assert_bool(false, message),
                       "__catalyst__rt__assert_bool: x must be positive\n");
  EXPECT_RUNTIME_ERROR(__catalyst__host__rt__unrecoverable_error(),
                       "__catalyst__host__rt__unrecoverable_error: unrecoverable");
}

TEST_F(RuntimeErrors, ConfigureChecksTheABIVersion) {
  QShapeRuntimeOptions o;
  qshape_runtime_default_options(&o);
  EXPECT_EQ(o.abi_version, static_cast<std::uint32_t>(QSHAPE_RUNTIME_ABI_VERSION));
  EXPECT_EQ(qshape_runtime_abi_version(), static_cast<std::uint32_t>(QSHAPE_RUNTIME_ABI_VERSION));
  o.abi_version = 99;
  EXPECT_RUNTIME_ERROR(qshape_runtime_configure(&o),
                       "qshape_runtime_configure: the host was built for runtime "
                       "ABI version 99, this library implements 1");
}

//===----------------------------------------------------------------------===//
// Host handlers
//===----------------------------------------------------------------------===//

struct RuntimeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void throwingHandler(const char *message, void *calls) {
  ++*static_cast<int *>(calls);
  throw RuntimeError(message);
}

TEST_F(RuntimeErrors, HostHandlerGetsTheMessageAndMayThrow) {
  int calls = 0;
  qshape_runtime_set_error_handler(throwingHandler, &calls);
  try {
    __catalyst__qis__CRX(0.2, q0, qubitOf(9), nullptr);
    ADD_FAILURE() << "no error";
  } catch (const RuntimeError &e) {
    EXPECT_STREQ(e.what(), "__catalyst__qis__CRX: qubit handle 9 is not a wire of "
                           "the device (it has 2 wires)");
  }
  EXPECT_EQ(calls, 1);
  // The session survives: the host may go on or finalize.
  __catalyst__qis__PauliX(q0, nullptr);
  EXPECT_NEAR(runtimeProbs()[2], 1.0, Tol);
  EXPECT_THROW(__catalyst__qis__Expval(3), RuntimeError);
  EXPECT_EQ(calls, 2);
  // NULL restores the default.
  qshape_runtime_set_error_handler(nullptr, nullptr);
  EXPECT_RUNTIME_ERROR(__catalyst__qis__Expval(3), "__catalyst__qis__Expval: ");
}

void returningHandler(const char *message, void *) {
  std::fprintf(stderr, "host saw: %s\n", message);
}

TEST_F(RuntimeErrors, AHandlerThatReturnsStillEndsTheProcess) {
  qshape_runtime_set_error_handler(returningHandler, nullptr);
  EXPECT_EXIT(__catalyst__qis__Expval(3), ExitedWithCode(1),
              "^host saw: __catalyst__qis__Expval: observable id 3 does not exist.*\n"
              "qshape-runtime: error: __catalyst__qis__Expval: observable id 3");
}

} // namespace
