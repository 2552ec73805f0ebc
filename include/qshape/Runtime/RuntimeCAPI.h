/*===- RuntimeCAPI.h - libqshape-runtime.so: Catalyst's runtime ABI -*- C -*-===//
 *
 * What build/lib/libqshape-runtime.so exports: Catalyst's runtime C ABI
 * (the functions of runtime/include/RuntimeCAPI.h of PennyLaneAI/catalyst
 * that a lowered quantum program calls, with exactly Catalyst's signatures)
 * on qshape's state-vector simulator, and a small host API (qshape_runtime_*)
 * for configuration and errors. Nothing else is exported, and the library
 * depends on libc, libm and libstdc++ only (no MLIR, no LLVM).
 *
 * Semantics are qshape-sim's, computed by the same code (qshape's
 * sim::Device): a compiled program that makes the calls its ops stand for
 * gets qshape-sim's results, random stream included. In short:
 *   - Wires. Allocations append wires to the device; the state is created at
 *     the first call that needs it and grown when later allocations add
 *     wires. Releasing a register or qubit is bookkeeping (wires are not
 *     reused). __catalyst__rt__device_release ends the device session: the
 *     next allocation starts again at wire 0 in |0...0>.
 *   - Random stream. The first state of the runtime takes the seed (see
 *     qshape_runtime_configure); every later one (after a growth or a
 *     release) a seed derived from it and its creation number.
 *   - Shots. The configured shots, when set, override __catalyst__rt__device_init's.
 *     With shots, Expval/Variance of named observables and tensor products
 *     of them, Expval of Hamiltonians of those, and Probs are estimated from
 *     that many samples; without, they are exact. State is always exact;
 *     Sample and Counts need shots.
 *   - Wire lists. Probs, Sample and Counts measure the listed qubits in the
 *     computational basis, the first the most significant bit of an index;
 *     a count of 0 means all wires of the device. State takes 0 (all wires)
 *     or a permutation of all wires.
 *
 * Call order: qshape_runtime_configure (optional), then setup() of the
 * compiled library, which calls __catalyst__rt__initialize; the entry
 * function; teardown(), which calls __catalyst__rt__finalize. Every other
 * runtime function called outside initialize..finalize is an error. The
 * runtime is one global session: it is not thread-safe.
 *
 * Errors. A call the runtime cannot carry out faithfully (a wire or a
 * register index out of range, more qubits than the simulator or the memory
 * allows, a bad Pauli word, an unknown observable id, a memref of the wrong
 * shape, shots missing for Sample, ...) never returns a made-up value: the
 * runtime calls the error handler with "<function>: <what went wrong>". The
 * default handler prints
 *     qshape-runtime: error: <function>: <what went wrong>
 * on stderr and exits the process with status 1. A host installs its own with
 * qshape_runtime_set_error_handler. A handler must not return: it may exit,
 * or leave by a C++ exception (the runtime's own frames are exception-safe;
 * the compiled code in between needs unwind tables). If it returns anyway,
 * the default handler runs. __catalyst__rt__fail_cstr and
 * __catalyst__rt__assert_bool report the compiled program's own failures the
 * same way.
 *
 *===----------------------------------------------------------------------===*/

#ifndef QSHAPE_RUNTIME_RUNTIMECAPI_H
#define QSHAPE_RUNTIME_RUNTIMECAPI_H

/* A C header: its names are Catalyst's ABI (and C's style), so the C++
 * naming and modernize checks do not apply.
 * NOLINTBEGIN(readability-identifier-naming, modernize-use-using, modernize-macro-to-enum) */

#include "qshape/Runtime/RuntimeABI.h"

#if defined(__GNUC__)
#define QSHAPE_RUNTIME_EXPORT __attribute__((visibility("default")))
#else
#define QSHAPE_RUNTIME_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===
 * Host API (qshape's own; not part of Catalyst's ABI)
 *===----------------------------------------------------------------------===*/

/* Options of the next runtime session (qshape-run --seed/--shots). */
struct QShapeRuntimeOptions {
  /* Must be QSHAPE_RUNTIME_ABI_VERSION: a host built against another version
   * of this header is an error, not a misread struct. */
  uint32_t abi_version;
  /* The seed of the random stream (mid-circuit measurements, samples,
   * counts, shot estimates). When has_seed is false: the seed that
   * __catalyst__rt__initialize receives, else qshape-sim's default seed. */
  bool has_seed;
  uint64_t seed;
  /* Shots overriding the device's (from __catalyst__rt__device_init); 0
   * forces analytic results. When has_shots is false the device's count. */
  bool has_shots;
  uint64_t shots;
  /* Largest state vector the runtime may allocate, in bytes (a growing state
   * counts with its old copy). 0: this machine's (or cgroup's) memory. */
  uint64_t max_state_bytes;
};

/* The defaults (abi_version set, no seed, no shots, no memory cap). */
QSHAPE_RUNTIME_EXPORT void qshape_runtime_default_options(struct QShapeRuntimeOptions *options);

/* Sets the options of the sessions that __catalyst__rt__initialize starts
 * from now on (so call it before the library's setup()). NULL restores the
 * defaults. A wrong abi_version is an error. */
QSHAPE_RUNTIME_EXPORT void qshape_runtime_configure(const struct QShapeRuntimeOptions *options);

/* The loaded library's QSHAPE_RUNTIME_ABI_VERSION. */
QSHAPE_RUNTIME_EXPORT uint32_t qshape_runtime_abi_version(void);

/* Called with the error message (valid during the call only). */
typedef void (*QShapeRuntimeErrorHandler)(const char *message, void *user_data);

/* Installs `handler` (with `user_data`) for all later errors; NULL restores
 * the default (print "qshape-runtime: error: <message>" on stderr, exit 1).
 * See "Errors" above: a handler must not return. */
QSHAPE_RUNTIME_EXPORT void qshape_runtime_set_error_handler(QShapeRuntimeErrorHandler handler,
                                                            void *user_data);

/* What the current (or last finalized) session did: qshape-sim --sim-stats. */
struct QShapeRuntimeStats {
  uint64_t gates_applied;
  /* Most wires the device had at once. */
  uint32_t max_wires;
};
QSHAPE_RUNTIME_EXPORT void qshape_runtime_get_stats(struct QShapeRuntimeStats *stats);

/*===----------------------------------------------------------------------===
 * Runtime control
 *===----------------------------------------------------------------------===*/

/* quantum.init: starts a session (a fresh device). `seed` (may be NULL) is
 * the seed of quantum.init's `seed` attribute; a configured seed wins. */
QSHAPE_RUNTIME_EXPORT void __catalyst__rt__initialize(uint32_t *seed);
/* quantum.finalize: ends the session; every handle is invalid afterwards. */
QSHAPE_RUNTIME_EXPORT void __catalyst__rt__finalize(void);
/* quantum.device: the device and its shots (negative is an error). The
 * library is never opened; the name (or Catalyst's short library name, e.g.
 * "lightning.qubit") chooses: LightningSimulator and QShapeSimulator (and no
 * name and no library, for hosts making the calls by hand) run on qshape's
 * simulator; NullQubit on a null device (gates do nothing, Expval/Variance
 * 0, Measure 0, the rest measures |0...0>); any other device is an error,
 * never a run on the simulator. auto_qubit_management is ignored: a register
 * index out of range is an error as in qshape-sim. */
QSHAPE_RUNTIME_EXPORT void __catalyst__rt__device_init(int8_t *lib, int8_t *name, int8_t *kwargs,
                                                       int64_t shots, bool auto_qubit_management);
/* quantum.device_release: all wires, the state, the shots and the
 * observables of the device session are gone. */
QSHAPE_RUNTIME_EXPORT void __catalyst__rt__device_release(void);
/* quantum.num_qubits: wires allocated in this device session. */
QSHAPE_RUNTIME_EXPORT int64_t __catalyst__rt__num_qubits(void);

/*===----------------------------------------------------------------------===
 * Managed memory (Catalyst's memory-manager contract)
 *===----------------------------------------------------------------------===*/

/* Buffers of a library compiled with qshape-compile --abi=catalyst (and of
 * Catalyst's own, finalize-memref-to-llvm{use-generic-functions}). The
 * session owns them: __catalyst__rt__finalize frees every one the host has
 * not taken. Allocation outside a session is an error. */
QSHAPE_RUNTIME_EXPORT void *_mlir_memref_to_llvm_alloc(size_t size);
QSHAPE_RUNTIME_EXPORT void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size);
QSHAPE_RUNTIME_EXPORT void _mlir_memref_to_llvm_free(void *ptr);
/* The host takes `ptr` (a result buffer): true if the session owned it, and
 * the host must free() it; false for a buffer the session does not own (an
 * argument returned as a result, one already taken), which stays where it
 * was. Called before teardown, as Catalyst's CompiledFunction does. */
QSHAPE_RUNTIME_EXPORT bool _mlir_memory_transfer(void *ptr);

/* The compiled program's own failures: reported as runtime errors. */
QSHAPE_RUNTIME_EXPORT void __catalyst__rt__fail_cstr(const char *message);
/* Fails with `message` (NULL: "assertion failed") when !condition. */
QSHAPE_RUNTIME_EXPORT void __catalyst__rt__assert_bool(bool condition, char *message);
QSHAPE_RUNTIME_EXPORT void __catalyst__host__rt__unrecoverable_error(void);

/*===----------------------------------------------------------------------===
 * Qubits and registers
 *===----------------------------------------------------------------------===*/

/* quantum.alloc(n): a register of n new wires. */
QSHAPE_RUNTIME_EXPORT QirArray *__catalyst__rt__qubit_allocate_array(int64_t n);
/* quantum.dealloc: the handle is invalid afterwards (the wires stay). */
QSHAPE_RUNTIME_EXPORT void __catalyst__rt__qubit_release_array(QirArray *array);
/* quantum.alloc_qb / quantum.dealloc_qb. */
QSHAPE_RUNTIME_EXPORT QUBIT *__catalyst__rt__qubit_allocate(void);
QSHAPE_RUNTIME_EXPORT void __catalyst__rt__qubit_release(QUBIT *qubit);
/* Slots of a register: 0 <= idx < size, else an error. */
QSHAPE_RUNTIME_EXPORT int64_t __catalyst__rt__array_get_size_1d(QirArray *array);
/* quantum.extract: the address of slot idx; load a QUBIT* from it. */
QSHAPE_RUNTIME_EXPORT int8_t *__catalyst__rt__array_get_element_ptr_1d(QirArray *array,
                                                                       int64_t idx);
/* quantum.insert, if a lowering keeps registers as arrays: slot idx holds
 * `qubit` from now on. (Catalyst's default lowering emits nothing.) */
QSHAPE_RUNTIME_EXPORT void __catalyst__rt__array_update_element_1d(QirArray *array, int64_t idx,
                                                                   QUBIT *qubit);

/* Results: true when both hold the same outcome; constant |1> and |0>. */
QSHAPE_RUNTIME_EXPORT bool __catalyst__rt__result_equal(RESULT *a, RESULT *b);
QSHAPE_RUNTIME_EXPORT RESULT *__catalyst__rt__result_get_one(void);
QSHAPE_RUNTIME_EXPORT RESULT *__catalyst__rt__result_get_zero(void);

/*===----------------------------------------------------------------------===
 * Gates: __catalyst__qis__<name>(params..., qubits..., modifiers). The name
 * is the gate name of quantum.custom (PennyLane's), with PennyLane's matrices;
 * a gate's first qubit is the most significant bit of its matrix. Modifiers
 * may be NULL. Repeated wires (targets or controls) are an error.
 *===----------------------------------------------------------------------===*/

QSHAPE_RUNTIME_EXPORT void __catalyst__qis__PauliX(QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__PauliY(QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__PauliZ(QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__Hadamard(QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__S(QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__T(QUBIT *, const Modifiers *);
/* qshape's extension: Catalyst's header has no SX, but its lowering calls
 * __catalyst__qis__SX for quantum.custom "SX" and qshape-sim runs it. */
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__SX(QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__PhaseShift(double, QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__RX(double, QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__RY(double, QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__RZ(double, QUBIT *, const Modifiers *);
/* Rot(phi, theta, omega) = RZ(omega) RY(theta) RZ(phi). */
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__Rot(double, double, double, QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__CNOT(QUBIT *, QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__CY(QUBIT *, QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__CZ(QUBIT *, QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__SWAP(QUBIT *, QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__ISWAP(QUBIT *, QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__PSWAP(double, QUBIT *, QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__IsingXX(double, QUBIT *, QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__IsingYY(double, QUBIT *, QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__IsingXY(double, QUBIT *, QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__IsingZZ(double, QUBIT *, QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__SingleExcitation(double, QUBIT *, QUBIT *,
                                                             const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__DoubleExcitation(double, QUBIT *, QUBIT *, QUBIT *,
                                                             QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__ControlledPhaseShift(double, QUBIT *, QUBIT *,
                                                                 const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__CRX(double, QUBIT *, QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__CRY(double, QUBIT *, QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__CRZ(double, QUBIT *, QUBIT *, const Modifiers *);
/* Exported for the ABI, but always an error: qshape's simulator (like
 * qshape-sim) has no definition of the Mølmer-Sørensen gate. */
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__MS(double, QUBIT *, QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__CRot(double, double, double, QUBIT *, QUBIT *,
                                                 const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__CSWAP(QUBIT *, QUBIT *, QUBIT *, const Modifiers *);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__Toffoli(QUBIT *, QUBIT *, QUBIT *, const Modifiers *);

/* Variadic gates: `n`, then n QUBIT* arguments. */
/* Identity on n wires (qshape's simulator takes exactly one). */
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__Identity(const Modifiers *, int64_t n, ...);
/* quantum.multirz: exp(-i theta/2 Z...Z). */
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__MultiRZ(double theta, const Modifiers *, int64_t n,
                                                    ...);
/* quantum.pcphase: e^{i phi} on the first `dim` basis states of the wires,
 * e^{-i phi} on the others. */
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__PCPhase(double phi, int64_t dim, const Modifiers *,
                                                    int64_t n, ...);
/* quantum.paulirot: exp(-i theta/2 P) for the NUL-terminated word P (letters
 * I, X, Y, Z, one per wire). Nothing happens when `cond` is false. */
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__PauliRot(const char *word, double theta,
                                                     const Modifiers *, bool cond, int64_t n, ...);
/* quantum.unitary: the 2^n x 2^n matrix on the n wires (not checked for
 * unitarity). */
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__QubitUnitary(MemRefT_CplxT_double_2d *matrix,
                                                         const Modifiers *, int64_t n, ...);
/* quantum.gphase: e^{-i phi} (on the controlled subspace, if controlled). */
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__GlobalPhase(double phi, const Modifiers *);
/* quantum.set_state / quantum.set_basis_state: the whole device is
 * overwritten; the n wires take the 2^n amplitudes (norm 1 within 1e-8) or
 * the n bits (nonzero = 1), every other wire is |0>. */
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__SetState(MemRefT_CplxT_double_1d *state, uint64_t n,
                                                     ...);
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__SetBasisState(MemRefT_int8_1d *bits, uint64_t n, ...);

/*===----------------------------------------------------------------------===
 * Observables: ids valid until device_release or finalize.
 *===----------------------------------------------------------------------===*/

/* quantum.namedobs; `kind` is an enum QShapeNamedObservable value. */
QSHAPE_RUNTIME_EXPORT ObsIdType __catalyst__qis__NamedObs(int64_t kind, QUBIT *);
/* quantum.hermitian: a Hermitian 2^n x 2^n matrix on n wires. */
QSHAPE_RUNTIME_EXPORT ObsIdType __catalyst__qis__HermitianObs(MemRefT_CplxT_double_2d *matrix,
                                                              int64_t n, ...);
/* quantum.tensor of n >= 1 observable ids (on disjoint wires). */
QSHAPE_RUNTIME_EXPORT ObsIdType __catalyst__qis__TensorObs(int64_t n, ...);
/* quantum.hamiltonian: sum of coeffs[k] * term k, for n observable ids. */
QSHAPE_RUNTIME_EXPORT ObsIdType __catalyst__qis__HamiltonianObs(MemRefT_double_1d *coeffs,
                                                                int64_t n, ...);

/*===----------------------------------------------------------------------===
 * Measurements
 *===----------------------------------------------------------------------===*/

/* quantum.measure: collapses the wire; the outcome is drawn from the seeded
 * stream, or is `postselect` (0 or 1; -1 = none; an outcome of probability
 * below 1e-12 is an error). The RESULT* stays valid until device_release. */
QSHAPE_RUNTIME_EXPORT RESULT *__catalyst__qis__Measure(QUBIT *, int32_t postselect);
QSHAPE_RUNTIME_EXPORT double __catalyst__qis__Expval(ObsIdType);
QSHAPE_RUNTIME_EXPORT double __catalyst__qis__Variance(ObsIdType);
/* out: 2^k probabilities, k = n or (n = 0) all wires. */
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__Probs(MemRefT_double_1d *out, int64_t n, ...);
/* out: the 2^N amplitudes of all N wires; n = 0, or n = N qubits giving the
 * bit order (a reduced state is an error). */
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__State(MemRefT_CplxT_double_1d *out, int64_t n, ...);
/* out: shots x k samples (0.0 / 1.0), k = n or all wires. Needs shots. */
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__Sample(MemRefT_double_2d *out, int64_t n, ...);
/* out->first: the 2^k basis-state indices 0, 1, ... as doubles;
 * out->second: how many of the shots gave each. Needs shots. */
QSHAPE_RUNTIME_EXPORT void __catalyst__qis__Counts(PairT_MemRefT_double_int64_1d *out, int64_t n,
                                                   ...);

#ifdef __cplusplus
} /* extern "C" */
#endif

/* NOLINTEND(readability-identifier-naming, modernize-use-using, modernize-macro-to-enum) */

#endif /* QSHAPE_RUNTIME_RUNTIMECAPI_H */
