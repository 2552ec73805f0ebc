/* What compiled code does for Inputs/bell.mlir, written by hand in C: the
 * runtime header compiles as C, its structs have the LLVM layouts a lowering
 * assumes, and the calls give qshape-sim's results (same seed, same stream).
 * Prints the results as qshape-sim's JSON. With an argument, makes one bad
 * call instead (see c-abi.test). */
#include "qshape/Runtime/RuntimeCAPI.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* !llvm.struct<(i1, i64, ptr, ptr)> */
_Static_assert(offsetof(Modifiers, adjoint) == 0, "Modifiers layout");
_Static_assert(offsetof(Modifiers, num_controlled) == 8, "Modifiers layout");
_Static_assert(offsetof(Modifiers, controlled_wires) == 16, "Modifiers layout");
_Static_assert(offsetof(Modifiers, controlled_values) == 24, "Modifiers layout");
_Static_assert(sizeof(Modifiers) == 32, "Modifiers layout");
/* MLIR descriptors: (ptr, ptr, i64, [N x i64], [N x i64]) */
_Static_assert(sizeof(MemRefT_double_1d) == 40, "memref layout");
_Static_assert(offsetof(MemRefT_double_1d, sizes) == 24, "memref layout");
_Static_assert(sizeof(MemRefT_CplxT_double_2d) == 56, "memref layout");
_Static_assert(offsetof(MemRefT_CplxT_double_2d, strides) == 40, "memref layout");
_Static_assert(sizeof(PairT_MemRefT_double_int64_1d) == 80, "pair layout");
_Static_assert(sizeof(CplxT_double) == 16, "complex layout");
_Static_assert(sizeof(ObsIdType) == 8 && sizeof(QubitIdType) == 8, "handle sizes");

static QUBIT *extract(QirArray *reg, int64_t idx) {
  return *(QUBIT **)__catalyst__rt__array_get_element_ptr_1d(reg, idx);
}

int main(int argc, char **argv) {
  struct QShapeRuntimeOptions options;
  qshape_runtime_default_options(&options);
  options.has_seed = true;
  options.seed = 42;
  qshape_runtime_configure(&options);

  __catalyst__rt__initialize(NULL); /* setup() */
  __catalyst__rt__device_init((int8_t *)"lib.so", (int8_t *)"LightningSimulator",
                              (int8_t *)"{}", 1000, false);
  QirArray *reg = __catalyst__rt__qubit_allocate_array(3);
  QUBIT *q0 = extract(reg, 0), *q1 = extract(reg, 1), *q2 = extract(reg, 2);
  if (argc > 1 && strcmp(argv[1], "bad-index") == 0)
    extract(reg, 3);
  if (argc > 1 && strcmp(argv[1], "bad-wire") == 0)
    __catalyst__qis__CNOT(q0, (QUBIT *)(intptr_t)3, NULL);
  __catalyst__qis__Hadamard(q0, NULL);
  __catalyst__qis__CNOT(q0, q1, NULL);
  QUBIT *ctrls[1] = {q0};
  bool values[1] = {false};
  Modifiers mods = {true, 1, (QUBIT *)ctrls, values};
  __catalyst__qis__RY(0.5, q2, &mods); /* adjoint, controlled on q0 = |0> */
  bool m = *__catalyst__qis__Measure(q2, -1); /* loaded at once, as lowered code does */

  double p[4];
  MemRefT_double_1d probs = {p, p, 0, {4}, {1}};
  __catalyst__qis__Probs(&probs, 2, q0, q1);
  double e[8];
  int64_t c[8];
  PairT_MemRefT_double_int64_1d counts = {{e, e, 0, {8}, {1}}, {c, c, 0, {8}, {1}}};
  __catalyst__qis__Counts(&counts, 0);
  ObsIdType z = __catalyst__qis__NamedObs(QSHAPE_OBS_PAULI_Z, q1);
  double ez = __catalyst__qis__Expval(z);
  __catalyst__rt__qubit_release_array(reg);
  __catalyst__rt__device_release();
  __catalyst__rt__finalize(); /* teardown() */

  printf("{\"results\": [%s, [%.17g, %.17g, %.17g, %.17g], [", m ? "true" : "false",
         p[0], p[1], p[2], p[3]);
  for (int k = 0; k < 8; ++k)
    printf("%s%lld", k ? ", " : "", (long long)c[k]);
  printf("], %.17g]}\n", ez);
  return 0;
}
