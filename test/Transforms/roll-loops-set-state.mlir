// The roller keeps the barrier rule of the canonical form (Barriers.h):
// quantum.set_state and quantum.set_basis_state rewrite every wire of the
// device, listed or not, so no gate on another wire is rolled across them.
// Twelve S gates on a wire set_state does not list, with the set_state
// after the sixth: two loops of six with the set_state between them, not
// one loop of twelve (which would be profitable without the barrier).
// RUN: qshape-opt %s -split-input-file '--qshape-roll-loops=verify-roundtrip' --qshape-check-linearity | FileCheck %s
// RUN: qshape-opt %s -split-input-file --mlir-print-op-generic | %upstream_mlir_opt --load-pass-plugin=%pass_plugin --allow-unregistered-dialect -split-input-file --pass-pipeline='builtin.module(qshape-roll-loops{verify-roundtrip},qshape-check-linearity)' | qshape-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @set_state
// CHECK: %[[A:.*]] = scf.for {{.*}} = %c0 to %c6 step %c1 iter_args(%{{.*}} = %arg2)
// CHECK: quantum.custom "S"
// CHECK: quantum.set_state
// CHECK-NEXT: %[[B:.*]] = scf.for {{.*}} = %c0 to %c6 step %c1 iter_args(%{{.*}} = %[[A]])
// CHECK: quantum.custom "S"
// CHECK: return %{{.*}}, %[[B]]
func.func @set_state(%s: tensor<2xcomplex<f64>>, %a: !quantum.bit, %q: !quantum.bit) -> (!quantum.bit, !quantum.bit) {
  %q0 = quantum.custom "S"() %q : !quantum.bit
  %q1 = quantum.custom "S"() %q0 : !quantum.bit
  %q2 = quantum.custom "S"() %q1 : !quantum.bit
  %q3 = quantum.custom "S"() %q2 : !quantum.bit
  %q4 = quantum.custom "S"() %q3 : !quantum.bit
  %q5 = quantum.custom "S"() %q4 : !quantum.bit
  %a1 = quantum.set_state(%s) %a : (tensor<2xcomplex<f64>>, !quantum.bit) -> !quantum.bit
  %q6 = quantum.custom "S"() %q5 : !quantum.bit
  %q7 = quantum.custom "S"() %q6 : !quantum.bit
  %q8 = quantum.custom "S"() %q7 : !quantum.bit
  %q9 = quantum.custom "S"() %q8 : !quantum.bit
  %q10 = quantum.custom "S"() %q9 : !quantum.bit
  %q11 = quantum.custom "S"() %q10 : !quantum.bit
  return %a1, %q11 : !quantum.bit, !quantum.bit
}

// -----

// CHECK-LABEL: func.func @set_basis_state
// CHECK: %[[A:.*]] = scf.for {{.*}} = %c0 to %c6 step %c1 iter_args(%{{.*}} = %arg2)
// CHECK: quantum.custom "S"
// CHECK: quantum.set_basis_state
// CHECK-NEXT: %[[B:.*]] = scf.for {{.*}} = %c0 to %c6 step %c1 iter_args(%{{.*}} = %[[A]])
// CHECK: quantum.custom "S"
// CHECK: return %{{.*}}, %[[B]]
func.func @set_basis_state(%bits: tensor<1xi1>, %a: !quantum.bit, %q: !quantum.bit) -> (!quantum.bit, !quantum.bit) {
  %q0 = quantum.custom "S"() %q : !quantum.bit
  %q1 = quantum.custom "S"() %q0 : !quantum.bit
  %q2 = quantum.custom "S"() %q1 : !quantum.bit
  %q3 = quantum.custom "S"() %q2 : !quantum.bit
  %q4 = quantum.custom "S"() %q3 : !quantum.bit
  %q5 = quantum.custom "S"() %q4 : !quantum.bit
  %a1 = quantum.set_basis_state(%bits) %a : (tensor<1xi1>, !quantum.bit) -> !quantum.bit
  %q6 = quantum.custom "S"() %q5 : !quantum.bit
  %q7 = quantum.custom "S"() %q6 : !quantum.bit
  %q8 = quantum.custom "S"() %q7 : !quantum.bit
  %q9 = quantum.custom "S"() %q8 : !quantum.bit
  %q10 = quantum.custom "S"() %q9 : !quantum.bit
  %q11 = quantum.custom "S"() %q10 : !quantum.bit
  return %a1, %q11 : !quantum.bit, !quantum.bit
}
