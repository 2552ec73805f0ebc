// RUN: qshape-opt %s --allow-unregistered-dialect -split-input-file '--qshape-roll-loops=verify-roundtrip' --qshape-check-linearity | FileCheck %s
// RUN: qshape-opt %s --allow-unregistered-dialect -split-input-file '--qshape-roll-loops=verify-roundtrip param-tables=false' --qshape-check-linearity | FileCheck %s --check-prefix=NOTAB
// RUN: qshape-opt %s --allow-unregistered-dialect -split-input-file '--qshape-roll-loops=emit-remarks' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// The pass plugin in upstream mlir-opt, on unregistered quantum ops:
// RUN: qshape-opt %s --allow-unregistered-dialect -split-input-file --mlir-print-op-generic | %upstream_mlir_opt --load-pass-plugin=%pass_plugin --allow-unregistered-dialect -split-input-file --pass-pipeline='builtin.module(qshape-roll-loops{verify-roundtrip},qshape-check-linearity)' | qshape-opt --allow-unregistered-dialect -split-input-file | FileCheck %s

// Class 1 + 5: affine wire indices, the register carried from copy to copy;
// the body reads its wire from the carried register (linear use, as
// Catalyst emits it), not from the register before the loop.
// CHECK-LABEL: func.func @affine_wires
// CHECK: %[[R:[a-zA-Z0-9_]+]] = scf.for %[[I:[a-zA-Z0-9_]+]] = %c0 to %c4 step %c1 iter_args(%[[REG:[a-zA-Z0-9_]+]] = %arg0) -> (!quantum.reg)
// CHECK-NEXT: %[[W:[a-zA-Z0-9_]+]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT: %[[Q:[a-zA-Z0-9_]+]] = quantum.extract %[[REG]][%[[W]]]
// CHECK-NEXT: %[[H:[a-zA-Z0-9_]+]] = quantum.custom "Hadamard"() %[[Q]]
// CHECK-NEXT: %[[N:[a-zA-Z0-9_]+]] = quantum.insert %[[REG]][%[[W]]], %[[H]]
// CHECK-NEXT: scf.yield %[[N]]
// CHECK: return %[[R]]
// REMARK: remark: qshape-roll-loops: rolled 4 copies of a 1-op body into a loop, saving 5 ops
func.func @affine_wires(%r: !quantum.reg) -> !quantum.reg {
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %h0 = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %r0 = quantum.insert %r[ 0], %h0 : !quantum.reg, !quantum.bit
  %q1 = quantum.extract %r0[ 1] : !quantum.reg -> !quantum.bit
  %h1 = quantum.custom "Hadamard"() %q1 : !quantum.bit
  %r1 = quantum.insert %r0[ 1], %h1 : !quantum.reg, !quantum.bit
  %q2 = quantum.extract %r1[ 2] : !quantum.reg -> !quantum.bit
  %h2 = quantum.custom "Hadamard"() %q2 : !quantum.bit
  %r2 = quantum.insert %r1[ 2], %h2 : !quantum.reg, !quantum.bit
  %q3 = quantum.extract %r2[ 3] : !quantum.reg -> !quantum.bit
  %h3 = quantum.custom "Hadamard"() %q3 : !quantum.bit
  %r3 = quantum.insert %r2[ 3], %h3 : !quantum.reg, !quantum.bit
  return %r3 : !quantum.reg
}

// -----

// Class 1 with a stride: wires 1, 3, 5, 7 are 2i+1.
// CHECK-LABEL: func.func @strided_wires
// CHECK: scf.for
// CHECK: arith.index_cast
// CHECK-NEXT: arith.muli %{{.*}}, %c2_i64
// CHECK-NEXT: arith.addi %{{.*}}, %c1_i64
func.func @strided_wires(%r: !quantum.reg) -> !quantum.reg {
  %q0 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %h0 = quantum.custom "PauliX"() %q0 : !quantum.bit
  %r0 = quantum.insert %r[ 1], %h0 : !quantum.reg, !quantum.bit
  %q1 = quantum.extract %r0[ 3] : !quantum.reg -> !quantum.bit
  %h1 = quantum.custom "PauliX"() %q1 : !quantum.bit
  %r1 = quantum.insert %r0[ 3], %h1 : !quantum.reg, !quantum.bit
  %q2 = quantum.extract %r1[ 5] : !quantum.reg -> !quantum.bit
  %h2 = quantum.custom "PauliX"() %q2 : !quantum.bit
  %r2 = quantum.insert %r1[ 5], %h2 : !quantum.reg, !quantum.bit
  %q3 = quantum.extract %r2[ 7] : !quantum.reg -> !quantum.bit
  %h3 = quantum.custom "PauliX"() %q3 : !quantum.bit
  %r3 = quantum.insert %r2[ 7], %h3 : !quantum.reg, !quantum.bit
  return %r3 : !quantum.reg
}

// -----

// Class 2: wires without an affine pattern become an index table; with
// param-tables=false the run is left alone.
// CHECK-LABEL: func.func @wire_table
// CHECK: %[[T:[a-zA-Z0-9_]+]] = arith.constant dense<[0, 3, 1, 2]> : tensor<4xi64>
// CHECK: scf.for %[[I:[a-zA-Z0-9_]+]] = {{.*}} iter_args({{.*}}, %[[REG:[a-zA-Z0-9_]+]] = %arg0)
// CHECK: %[[W:[a-zA-Z0-9_]+]] = tensor.extract %[[T]][%[[I]]] : tensor<4xi64>
// CHECK: quantum.extract %[[REG]][%[[W]]]
// NOTAB-LABEL: func.func @wire_table
// NOTAB-NOT: scf.for
// NOTAB: return
func.func @wire_table(%r: !quantum.reg, %c: !quantum.bit) -> (!quantum.reg, !quantum.bit) {
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %a:2 = quantum.custom "CNOT"() %c, %q0 : !quantum.bit, !quantum.bit
  %r0 = quantum.insert %r[ 0], %a#1 : !quantum.reg, !quantum.bit
  %q3 = quantum.extract %r0[ 3] : !quantum.reg -> !quantum.bit
  %b:2 = quantum.custom "CNOT"() %a#0, %q3 : !quantum.bit, !quantum.bit
  %r1 = quantum.insert %r0[ 3], %b#1 : !quantum.reg, !quantum.bit
  %q1 = quantum.extract %r1[ 1] : !quantum.reg -> !quantum.bit
  %d:2 = quantum.custom "CNOT"() %b#0, %q1 : !quantum.bit, !quantum.bit
  %r2 = quantum.insert %r1[ 1], %d#1 : !quantum.reg, !quantum.bit
  %q2 = quantum.extract %r2[ 2] : !quantum.reg -> !quantum.bit
  %e:2 = quantum.custom "CNOT"() %d#0, %q2 : !quantum.bit, !quantum.bit
  %r3 = quantum.insert %r2[ 2], %e#1 : !quantum.reg, !quantum.bit
  return %r3, %e#0 : !quantum.reg, !quantum.bit
}

// -----

// Class 3: baked angles become a parameter table; the qubit is carried.
// CHECK-LABEL: func.func @angle_table
// CHECK: %[[T:[a-zA-Z0-9_]+]] = arith.constant dense<[1.000000e-01, 2.000000e-01, 3.000000e-01, 4.000000e-01, 5.000000e-01, 6.000000e-01, 0.69999999999999996, 8.000000e-01]> : tensor<8xf64>
// CHECK: %[[R:[a-zA-Z0-9_]+]] = scf.for %[[I:[a-zA-Z0-9_]+]] = %c0 to %c8 step %c1 iter_args(%[[Q:[a-zA-Z0-9_]+]] = %arg0) -> (!quantum.bit)
// CHECK-NEXT: %[[A:[a-zA-Z0-9_]+]] = tensor.extract %[[T]][%[[I]]] : tensor<8xf64>
// CHECK-NEXT: %[[X:[a-zA-Z0-9_]+]] = quantum.custom "RX"(%[[A]]) %[[Q]]
// CHECK-NEXT: scf.yield %[[X]]
// NOTAB-LABEL: func.func @angle_table
// NOTAB-NOT: scf.for
// NOTAB: return
func.func @angle_table(%q: !quantum.bit) -> !quantum.bit {
  %a = arith.constant 0.1 : f64
  %b = arith.constant 0.2 : f64
  %c = arith.constant 0.3 : f64
  %d = arith.constant 0.4 : f64
  %e = arith.constant 0.5 : f64
  %f = arith.constant 0.6 : f64
  %g = arith.constant 0.7 : f64
  %h = arith.constant 0.8 : f64
  %q0 = quantum.custom "RX"(%a) %q : !quantum.bit
  %q1 = quantum.custom "RX"(%b) %q0 : !quantum.bit
  %q2 = quantum.custom "RX"(%c) %q1 : !quantum.bit
  %q3 = quantum.custom "RX"(%d) %q2 : !quantum.bit
  %q4 = quantum.custom "RX"(%e) %q3 : !quantum.bit
  %q5 = quantum.custom "RX"(%f) %q4 : !quantum.bit
  %q6 = quantum.custom "RX"(%g) %q5 : !quantum.bit
  %q7 = quantum.custom "RX"(%h) %q6 : !quantum.bit
  return %q7 : !quantum.bit
}

// -----

// Class 4: runtime angles computed before the run are gathered.
// CHECK-LABEL: func.func @runtime_angles
// CHECK: %[[T:[a-zA-Z0-9_]+]] = tensor.from_elements %arg1, %arg2, %arg3, %arg4, %arg1, %arg2, %arg3, %arg4 : tensor<8xf64>
// CHECK: scf.for %[[I:[a-zA-Z0-9_]+]] = %c0 to %c8
// CHECK: tensor.extract %[[T]][%[[I]]] : tensor<8xf64>
func.func @runtime_angles(%q: !quantum.bit, %a: f64, %b: f64, %c: f64, %d: f64) -> !quantum.bit {
  %q0 = quantum.custom "RY"(%a) %q : !quantum.bit
  %q1 = quantum.custom "RY"(%b) %q0 : !quantum.bit
  %q2 = quantum.custom "RY"(%c) %q1 : !quantum.bit
  %q3 = quantum.custom "RY"(%d) %q2 : !quantum.bit
  %q4 = quantum.custom "RY"(%a) %q3 : !quantum.bit
  %q5 = quantum.custom "RY"(%b) %q4 : !quantum.bit
  %q6 = quantum.custom "RY"(%c) %q5 : !quantum.bit
  %q7 = quantum.custom "RY"(%d) %q6 : !quantum.bit
  return %q7 : !quantum.bit
}

// -----

// Nesting: 3 layers x 3 wires become a loop over wires around a loop over
// layers (each wire's chain of gates is kept together by the canonical form).
// CHECK-LABEL: func.func @nested
// CHECK: scf.for
// CHECK: quantum.extract
// CHECK: scf.for
// CHECK-COUNT-2: quantum.custom
// CHECK: scf.yield
// CHECK: quantum.insert
// CHECK: scf.yield
func.func @nested(%r: !quantum.reg) -> !quantum.reg {
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %a0 = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %b0 = quantum.custom "T"() %a0 : !quantum.bit
  %r0 = quantum.insert %r[ 0], %b0 : !quantum.reg, !quantum.bit
  %q1 = quantum.extract %r0[ 1] : !quantum.reg -> !quantum.bit
  %a1 = quantum.custom "Hadamard"() %q1 : !quantum.bit
  %b1 = quantum.custom "T"() %a1 : !quantum.bit
  %r1 = quantum.insert %r0[ 1], %b1 : !quantum.reg, !quantum.bit
  %q2 = quantum.extract %r1[ 2] : !quantum.reg -> !quantum.bit
  %a2 = quantum.custom "Hadamard"() %q2 : !quantum.bit
  %b2 = quantum.custom "T"() %a2 : !quantum.bit
  %r2 = quantum.insert %r1[ 2], %b2 : !quantum.reg, !quantum.bit
  %p0 = quantum.extract %r2[ 0] : !quantum.reg -> !quantum.bit
  %c0 = quantum.custom "Hadamard"() %p0 : !quantum.bit
  %d0 = quantum.custom "T"() %c0 : !quantum.bit
  %s0 = quantum.insert %r2[ 0], %d0 : !quantum.reg, !quantum.bit
  %p1 = quantum.extract %s0[ 1] : !quantum.reg -> !quantum.bit
  %c1 = quantum.custom "Hadamard"() %p1 : !quantum.bit
  %d1 = quantum.custom "T"() %c1 : !quantum.bit
  %s1 = quantum.insert %s0[ 1], %d1 : !quantum.reg, !quantum.bit
  %p2 = quantum.extract %s1[ 2] : !quantum.reg -> !quantum.bit
  %c2 = quantum.custom "Hadamard"() %p2 : !quantum.bit
  %d2 = quantum.custom "T"() %c2 : !quantum.bit
  %s2 = quantum.insert %s1[ 2], %d2 : !quantum.reg, !quantum.bit
  %t0 = quantum.extract %s2[ 0] : !quantum.reg -> !quantum.bit
  %e0 = quantum.custom "Hadamard"() %t0 : !quantum.bit
  %f0 = quantum.custom "T"() %e0 : !quantum.bit
  %u0 = quantum.insert %s2[ 0], %f0 : !quantum.reg, !quantum.bit
  %t1 = quantum.extract %u0[ 1] : !quantum.reg -> !quantum.bit
  %e1 = quantum.custom "Hadamard"() %t1 : !quantum.bit
  %f1 = quantum.custom "T"() %e1 : !quantum.bit
  %u1 = quantum.insert %u0[ 1], %f1 : !quantum.reg, !quantum.bit
  %t2 = quantum.extract %u1[ 2] : !quantum.reg -> !quantum.bit
  %e2 = quantum.custom "Hadamard"() %t2 : !quantum.bit
  %f2 = quantum.custom "T"() %e2 : !quantum.bit
  %u2 = quantum.insert %u1[ 2], %f2 : !quantum.reg, !quantum.bit
  return %u2 : !quantum.reg
}

// -----

// A measurement in the middle of the qubit's chain: six Hadamards on each
// side are each a loop, the measurement stays between them (a loop of the
// twelve gates would have to move them across it).
// CHECK-LABEL: func.func @measure_in_middle
// CHECK: %[[A:.*]] = scf.for {{.*}} = %c0 to %c6 step %c1 iter_args(%{{.*}} = %arg0)
// CHECK: %[[M:.*]], %[[Q:.*]] = quantum.measure %[[A]]
// CHECK-NEXT: scf.for {{.*}} = %c0 to %c6 step %c1 iter_args(%{{.*}} = %[[Q]])
// CHECK-NOT: scf.for
// CHECK: return
func.func @measure_in_middle(%q: !quantum.bit) -> (!quantum.bit, i1) {
  %q0 = quantum.custom "Hadamard"() %q : !quantum.bit
  %q1 = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %q2 = quantum.custom "Hadamard"() %q1 : !quantum.bit
  %q3 = quantum.custom "Hadamard"() %q2 : !quantum.bit
  %q4 = quantum.custom "Hadamard"() %q3 : !quantum.bit
  %q5 = quantum.custom "Hadamard"() %q4 : !quantum.bit
  %m, %q6 = quantum.measure %q5 : i1, !quantum.bit
  %q7 = quantum.custom "Hadamard"() %q6 : !quantum.bit
  %q8 = quantum.custom "Hadamard"() %q7 : !quantum.bit
  %q9 = quantum.custom "Hadamard"() %q8 : !quantum.bit
  %q10 = quantum.custom "Hadamard"() %q9 : !quantum.bit
  %q11 = quantum.custom "Hadamard"() %q10 : !quantum.bit
  %q12 = quantum.custom "Hadamard"() %q11 : !quantum.bit
  return %q12, %m : !quantum.bit, i1
}

// -----

// An op qshape does not know sits between the copies: it is a barrier, never
// moved, duplicated or rolled over. Six copies on each side would be one
// profitable loop of twelve without it (see also roll-loops-barriers.mlir).
// CHECK-LABEL: func.func @unknown_in_middle
// CHECK: scf.for {{.*}} = %c0 to %c6 step %c1
// CHECK: "test.opaque"
// CHECK-NEXT: scf.for {{.*}} = %c0 to %c6 step %c1
// CHECK-NOT: %c12
// CHECK: return
func.func @unknown_in_middle(%q: !quantum.bit) -> !quantum.bit {
  %q0 = quantum.custom "S"() %q : !quantum.bit
  %q1 = quantum.custom "S"() %q0 : !quantum.bit
  %q2 = quantum.custom "S"() %q1 : !quantum.bit
  %q3 = quantum.custom "S"() %q2 : !quantum.bit
  %q4 = quantum.custom "S"() %q3 : !quantum.bit
  %q5 = quantum.custom "S"() %q4 : !quantum.bit
  "test.opaque"() : () -> ()
  %q6 = quantum.custom "S"() %q5 : !quantum.bit
  %q7 = quantum.custom "S"() %q6 : !quantum.bit
  %q8 = quantum.custom "S"() %q7 : !quantum.bit
  %q9 = quantum.custom "S"() %q8 : !quantum.bit
  %q10 = quantum.custom "S"() %q9 : !quantum.bit
  %q11 = quantum.custom "S"() %q10 : !quantum.bit
  return %q11 : !quantum.bit
}

// -----

// Not rolled: different gate names.
// CHECK-LABEL: func.func @different_gates
// CHECK-NOT: scf.for
// CHECK: return
func.func @different_gates(%q: !quantum.bit) -> !quantum.bit {
  %q0 = quantum.custom "Hadamard"() %q : !quantum.bit
  %q1 = quantum.custom "PauliX"() %q0 : !quantum.bit
  %q2 = quantum.custom "PauliY"() %q1 : !quantum.bit
  %q3 = quantum.custom "PauliZ"() %q2 : !quantum.bit
  %q4 = quantum.custom "S"() %q3 : !quantum.bit
  %q5 = quantum.custom "T"() %q4 : !quantum.bit
  return %q5 : !quantum.bit
}

// -----

// A run that carries nothing (global phases only): the loop's body ends in
// exactly one scf.yield. scf.for's builder used to add one of its own, and
// the roller's made a second (found by the roll-loops fuzzer).
// CHECK-LABEL: func.func @phases_only
// CHECK: scf.for %{{.*}} = %c0 to %c6 step %c1 {
// CHECK-NEXT: quantum.gphase(%arg1){{$}}
// CHECK-NEXT: }
// CHECK-NEXT: return %arg0
func.func @phases_only(%q: !quantum.bit, %t: f64) -> !quantum.bit {
  quantum.gphase(%t)
  quantum.gphase(%t)
  quantum.gphase(%t)
  quantum.gphase(%t)
  quantum.gphase(%t)
  quantum.gphase(%t)
  return %q : !quantum.bit
}
