/*===- RuntimeABI.h - Types of Catalyst's runtime C ABI -----------*- C -*-===//
 *
 * The data types that code compiled by qshape-compile (or Catalyst) passes to
 * its quantum runtime, laid out exactly as Catalyst's runtime/include/Types.h
 * (PennyLaneAI/catalyst, checked at commit 663cf5a3, 2026-08-22). Plain C,
 * so C and C++ hosts and the LLVM lowering can all read it. The functions
 * are declared in qshape/Runtime/RuntimeCAPI.h.
 *
 * In LLVM terms (x86-64 / AArch64 Linux, LP64):
 *   QUBIT*, QirArray*, RESULT*, Modifiers*, memref descriptors*: !llvm.ptr
 *   ObsIdType: i64;  size_t: i64;  bool: i1 (i8 in memory)
 *   Modifiers: !llvm.struct<(i1, i64, ptr, ptr)> (on a stack slot)
 *   MemRefT_<T>_<N>d: !llvm.struct<(ptr, ptr, i64, array<N x i64>,
 *                                   array<N x i64>)>, MLIR's descriptor
 *
 *===----------------------------------------------------------------------===*/

#ifndef QSHAPE_RUNTIME_RUNTIMEABI_H
#define QSHAPE_RUNTIME_RUNTIMEABI_H

/* A C header: its names are Catalyst's ABI (and C's style), so the C++
 * naming and modernize checks do not apply.
 * NOLINTBEGIN(readability-identifier-naming, modernize-use-using, modernize-macro-to-enum) */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Version of the ABI that libqshape-runtime.so implements: the functions of
 * RuntimeCAPI.h, their signatures and semantics, and the types below. It
 * changes whenever any of them changes, so compiled artifacts can carry it in
 * their cache keys; qshape_runtime_abi_version() returns the loaded
 * library's. */
#define QSHAPE_RUNTIME_ABI_VERSION 1

#ifdef __cplusplus
extern "C" {
#endif

/* A qubit handle. Never dereferenced: a QUBIT* is the qubit's wire number
 * (0, 1, ...) cast to a pointer, as in Catalyst's runtime, so wire 0 is the
 * null pointer. */
typedef struct QUBIT QUBIT;
/* The wire number a QUBIT* stands for. */
typedef intptr_t QubitIdType;

/* A measurement result: __catalyst__qis__Measure returns a RESULT* that
 * points at the outcome (true = 1); the lowering loads an i1 from it. */
typedef bool RESULT;

/* A qubit register. Functions take and return QirArray* (opaque handles of
 * the runtime); __catalyst__rt__array_get_element_ptr_1d gives the address
 * of a slot that holds the slot's QUBIT*. */
typedef void *QirArray;

/* An observable handle (0, 1, ... within a device session). */
typedef intptr_t ObsIdType;

/* The `kind` argument of __catalyst__qis__NamedObs: the values of
 * Catalyst's `enum ObsId` (and of the quantum dialect's NamedObservable
 * attribute). Hermitian (5) is not a named observable. */
enum QShapeNamedObservable {
  QSHAPE_OBS_IDENTITY = 0,
  QSHAPE_OBS_PAULI_X = 1,
  QSHAPE_OBS_PAULI_Y = 2,
  QSHAPE_OBS_PAULI_Z = 3,
  QSHAPE_OBS_HADAMARD = 4,
};

/* complex<f64>, as MLIR lays out complex<f64> elements. */
typedef struct CplxT_double {
  double real;
  double imag;
} CplxT_double;

/* MLIR memref descriptors: element (i, j) of a 2-d one is
 * data_aligned[offset + i * strides[0] + j * strides[1]]. The runtime honours
 * offsets and strides, checks the sizes and reports a mismatch as an error. */
typedef struct MemRefT_CplxT_double_1d {
  CplxT_double *data_allocated;
  CplxT_double *data_aligned;
  size_t offset;
  size_t sizes[1];
  size_t strides[1];
} MemRefT_CplxT_double_1d;

typedef struct MemRefT_CplxT_double_2d {
  CplxT_double *data_allocated;
  CplxT_double *data_aligned;
  size_t offset;
  size_t sizes[2];
  size_t strides[2];
} MemRefT_CplxT_double_2d;

typedef struct MemRefT_double_1d {
  double *data_allocated;
  double *data_aligned;
  size_t offset;
  size_t sizes[1];
  size_t strides[1];
} MemRefT_double_1d;

typedef struct MemRefT_double_2d {
  double *data_allocated;
  double *data_aligned;
  size_t offset;
  size_t sizes[2];
  size_t strides[2];
} MemRefT_double_2d;

typedef struct MemRefT_int64_1d {
  int64_t *data_allocated;
  int64_t *data_aligned;
  size_t offset;
  size_t sizes[1];
  size_t strides[1];
} MemRefT_int64_1d;

/* memref<?xi8>: set_basis_state's bits (an i1 tensor bufferizes to i8). */
typedef struct MemRefT_int8_1d {
  int8_t *data_allocated;
  int8_t *data_aligned;
  size_t offset;
  size_t sizes[1];
  size_t strides[1];
} MemRefT_int8_1d;

/* __catalyst__qis__Counts's output: eigenvalues and counts, of one length. */
typedef struct PairT_MemRefT_double_int64_1d {
  MemRefT_double_1d first;
  MemRefT_int64_1d second;
} PairT_MemRefT_double_int64_1d;

/* The modifiers of a gate; a null Modifiers* means no adjoint and no
 * controls. `controlled_wires` is declared QUBIT* as in Catalyst's Types.h
 * but points at an array of `num_controlled` QUBIT* handles (read as
 * QubitIdType); `controlled_values[i]` is the value control i must have
 * (false: the gate acts where that control is |0>). */
typedef struct Modifiers {
  bool adjoint;
  size_t num_controlled;
  QUBIT *controlled_wires;
  bool *controlled_values;
} Modifiers;

#ifdef __cplusplus
} /* extern "C" */
#endif

/* NOLINTEND(readability-identifier-naming, modernize-use-using, modernize-macro-to-enum) */

#endif /* QSHAPE_RUNTIME_RUNTIMEABI_H */
