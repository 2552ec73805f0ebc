// Register-addressed loops (lib/Transforms/RollLoops/ByWire.cpp). Each layer
// is an RX on every wire, then CNOT(i, (i + r) mod 4) with the range r
// cycling through 1, 2, 3 (StronglyEntanglingLayers' pattern). The gate that
// leaves a wire's qubit for the next layer is another one in each layer, so
// no iter_arg per body position can carry the qubits, and the canonical
// order interleaves the layers (wire-order=0: nothing rolls). In the order the
// function came in, the loop carries the register: each gate reads its
// qubits at their wires and writes them back, the CNOT targets from tables
// (nest=0: FLAT). The next round reads each wire of the body from the
// register its layer's inserts end in (readLatestRegisters), so the RX and
// the CNOTs each roll into an inner loop over the wires, the targets from
// the layer's tables gathered.
// RUN: qshape-opt %s '--qshape-roll-loops=verify-roundtrip' --qshape-check-linearity -o %t.rolled.mlir
// RUN: FileCheck %s < %t.rolled.mlir
// RUN: qshape-opt %s '--qshape-roll-loops=wire-order=0' | FileCheck %s --check-prefix=CANON
// RUN: qshape-opt %s '--qshape-roll-loops=nest=0 verify-roundtrip' --qshape-check-linearity | FileCheck %s --check-prefix=FLAT
// RUN: qshape-opt %s --mlir-print-op-generic | %upstream_mlir_opt --load-pass-plugin=%pass_plugin --allow-unregistered-dialect --pass-pipeline='builtin.module(qshape-roll-loops{verify-roundtrip},qshape-check-linearity)' | qshape-opt --allow-unregistered-dialect | FileCheck %s
// RUN: qshape-sim %s --entry layers --args '[0.37]' --decimals 9 > %t.in.json
// RUN: qshape-sim %t.rolled.mlir --entry layers --args '[0.37]' --decimals 9 > %t.out.json
// RUN: %python %qshape_src/utils/compare-results.py %t.in.json %t.out.json --tol 1e-9

// CANON-LABEL: func.func @layers
// CANON-NOT: scf.for

// FLAT-LABEL: func.func @layers
// FLAT-DAG: %[[T1:.*]] = arith.constant dense<[1, 2, 3, 1, 2, 3, 1, 2, 3]> : tensor<9xi64>
// FLAT-DAG: %[[ALLOC:.*]] = quantum.alloc( 4)
// FLAT: %[[LOOP:.*]] = scf.for %[[L:.*]] = %c0 to %c9 step %c1 iter_args(%[[R:.*]] = %[[ALLOC]]) -> (!quantum.reg) {
// FLAT-NEXT: quantum.extract %[[R]][ 0]
// FLAT-NEXT: quantum.custom "RX"
// FLAT-COUNT-3: quantum.custom "RX"
// FLAT: %[[W:.*]] = tensor.extract %[[T1]][%[[L]]] : tensor<9xi64>
// FLAT-NEXT: %[[Q:.*]] = quantum.extract %{{.*}}[%[[W]]]
// FLAT-NEXT: quantum.custom "CNOT"() %{{.*}}, %[[Q]]
// FLAT-NEXT: quantum.insert %{{.*}}[ 0]
// FLAT-NEXT: quantum.insert %{{.*}}[%[[W]]]
// FLAT-COUNT-3: quantum.custom "CNOT"
// FLAT: scf.yield
// FLAT-NOT: quantum.custom
// FLAT: quantum.extract %[[LOOP]][ 0]
// FLAT: quantum.dealloc %[[LOOP]]

// CHECK-LABEL: func.func @layers
// CHECK-DAG: %[[ALLOC:.*]] = quantum.alloc( 4)
// CHECK: %[[LOOP:.*]] = scf.for %[[L:.*]] = %c0 to %c9 step %c1 iter_args(%[[R:.*]] = %[[ALLOC]]) -> (!quantum.reg) {
// CHECK-NEXT: %[[RX:.*]] = scf.for %[[I:.*]] = %c0 to %c4 step %c1 iter_args(%[[R1:.*]] = %[[R]]) -> (!quantum.reg) {
// CHECK-NEXT: %[[W:.*]] = arith.index_cast %[[I]]
// CHECK-NEXT: %[[Q:.*]] = quantum.extract %[[R1]][%[[W]]]
// CHECK-NEXT: %[[O:.*]] = quantum.custom "RX"(%arg0) %[[Q]]
// CHECK-NEXT: %[[N:.*]] = quantum.insert %[[R1]][%[[W]]], %[[O]]
// CHECK-NEXT: scf.yield %[[N]]
// CHECK: %[[TARGETS:.*]] = tensor.from_elements {{.*}} : tensor<4xi64>
// CHECK-NEXT: scf.for %[[J:.*]] = %c0 to %c4 step %c1 iter_args(%[[R2:.*]] = %[[RX]]) -> (!quantum.reg) {
// CHECK-NOT: quantum.custom
// CHECK: %[[T:.*]] = tensor.extract %[[TARGETS]][%[[J]]]
// CHECK-NEXT: %[[QT:.*]] = quantum.extract %[[R2]][%[[T]]]
// CHECK-NEXT: quantum.custom "CNOT"() %{{.*}}, %[[QT]]
// CHECK-NOT: quantum.custom
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NOT: quantum.custom
// CHECK: quantum.extract %[[LOOP]][ 0]
// CHECK: quantum.dealloc %[[LOOP]]
func.func @layers(%a: f64) -> (f64, f64, f64, f64) {
  %r = quantum.alloc( 4) : !quantum.reg
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %q2 = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %q3 = quantum.extract %r[ 3] : !quantum.reg -> !quantum.bit
  %x1 = quantum.custom "RX"(%a) %q0 : !quantum.bit
  %x2 = quantum.custom "RX"(%a) %q1 : !quantum.bit
  %x3 = quantum.custom "RX"(%a) %q2 : !quantum.bit
  %x4 = quantum.custom "RX"(%a) %q3 : !quantum.bit
  %c5:2 = quantum.custom "CNOT"() %x1, %x2 : !quantum.bit, !quantum.bit
  %c6:2 = quantum.custom "CNOT"() %c5#1, %x3 : !quantum.bit, !quantum.bit
  %c7:2 = quantum.custom "CNOT"() %c6#1, %x4 : !quantum.bit, !quantum.bit
  %c8:2 = quantum.custom "CNOT"() %c7#1, %c5#0 : !quantum.bit, !quantum.bit
  %x9 = quantum.custom "RX"(%a) %c8#1 : !quantum.bit
  %x10 = quantum.custom "RX"(%a) %c6#0 : !quantum.bit
  %x11 = quantum.custom "RX"(%a) %c7#0 : !quantum.bit
  %x12 = quantum.custom "RX"(%a) %c8#0 : !quantum.bit
  %c13:2 = quantum.custom "CNOT"() %x9, %x11 : !quantum.bit, !quantum.bit
  %c14:2 = quantum.custom "CNOT"() %x10, %x12 : !quantum.bit, !quantum.bit
  %c15:2 = quantum.custom "CNOT"() %c13#1, %c13#0 : !quantum.bit, !quantum.bit
  %c16:2 = quantum.custom "CNOT"() %c14#1, %c14#0 : !quantum.bit, !quantum.bit
  %x17 = quantum.custom "RX"(%a) %c15#1 : !quantum.bit
  %x18 = quantum.custom "RX"(%a) %c16#1 : !quantum.bit
  %x19 = quantum.custom "RX"(%a) %c15#0 : !quantum.bit
  %x20 = quantum.custom "RX"(%a) %c16#0 : !quantum.bit
  %c21:2 = quantum.custom "CNOT"() %x17, %x20 : !quantum.bit, !quantum.bit
  %c22:2 = quantum.custom "CNOT"() %x18, %c21#0 : !quantum.bit, !quantum.bit
  %c23:2 = quantum.custom "CNOT"() %x19, %c22#0 : !quantum.bit, !quantum.bit
  %c24:2 = quantum.custom "CNOT"() %c21#1, %c23#0 : !quantum.bit, !quantum.bit
  %x25 = quantum.custom "RX"(%a) %c22#1 : !quantum.bit
  %x26 = quantum.custom "RX"(%a) %c23#1 : !quantum.bit
  %x27 = quantum.custom "RX"(%a) %c24#1 : !quantum.bit
  %x28 = quantum.custom "RX"(%a) %c24#0 : !quantum.bit
  %c29:2 = quantum.custom "CNOT"() %x25, %x26 : !quantum.bit, !quantum.bit
  %c30:2 = quantum.custom "CNOT"() %c29#1, %x27 : !quantum.bit, !quantum.bit
  %c31:2 = quantum.custom "CNOT"() %c30#1, %x28 : !quantum.bit, !quantum.bit
  %c32:2 = quantum.custom "CNOT"() %c31#1, %c29#0 : !quantum.bit, !quantum.bit
  %x33 = quantum.custom "RX"(%a) %c32#1 : !quantum.bit
  %x34 = quantum.custom "RX"(%a) %c30#0 : !quantum.bit
  %x35 = quantum.custom "RX"(%a) %c31#0 : !quantum.bit
  %x36 = quantum.custom "RX"(%a) %c32#0 : !quantum.bit
  %c37:2 = quantum.custom "CNOT"() %x33, %x35 : !quantum.bit, !quantum.bit
  %c38:2 = quantum.custom "CNOT"() %x34, %x36 : !quantum.bit, !quantum.bit
  %c39:2 = quantum.custom "CNOT"() %c37#1, %c37#0 : !quantum.bit, !quantum.bit
  %c40:2 = quantum.custom "CNOT"() %c38#1, %c38#0 : !quantum.bit, !quantum.bit
  %x41 = quantum.custom "RX"(%a) %c39#1 : !quantum.bit
  %x42 = quantum.custom "RX"(%a) %c40#1 : !quantum.bit
  %x43 = quantum.custom "RX"(%a) %c39#0 : !quantum.bit
  %x44 = quantum.custom "RX"(%a) %c40#0 : !quantum.bit
  %c45:2 = quantum.custom "CNOT"() %x41, %x44 : !quantum.bit, !quantum.bit
  %c46:2 = quantum.custom "CNOT"() %x42, %c45#0 : !quantum.bit, !quantum.bit
  %c47:2 = quantum.custom "CNOT"() %x43, %c46#0 : !quantum.bit, !quantum.bit
  %c48:2 = quantum.custom "CNOT"() %c45#1, %c47#0 : !quantum.bit, !quantum.bit
  %x49 = quantum.custom "RX"(%a) %c46#1 : !quantum.bit
  %x50 = quantum.custom "RX"(%a) %c47#1 : !quantum.bit
  %x51 = quantum.custom "RX"(%a) %c48#1 : !quantum.bit
  %x52 = quantum.custom "RX"(%a) %c48#0 : !quantum.bit
  %c53:2 = quantum.custom "CNOT"() %x49, %x50 : !quantum.bit, !quantum.bit
  %c54:2 = quantum.custom "CNOT"() %c53#1, %x51 : !quantum.bit, !quantum.bit
  %c55:2 = quantum.custom "CNOT"() %c54#1, %x52 : !quantum.bit, !quantum.bit
  %c56:2 = quantum.custom "CNOT"() %c55#1, %c53#0 : !quantum.bit, !quantum.bit
  %x57 = quantum.custom "RX"(%a) %c56#1 : !quantum.bit
  %x58 = quantum.custom "RX"(%a) %c54#0 : !quantum.bit
  %x59 = quantum.custom "RX"(%a) %c55#0 : !quantum.bit
  %x60 = quantum.custom "RX"(%a) %c56#0 : !quantum.bit
  %c61:2 = quantum.custom "CNOT"() %x57, %x59 : !quantum.bit, !quantum.bit
  %c62:2 = quantum.custom "CNOT"() %x58, %x60 : !quantum.bit, !quantum.bit
  %c63:2 = quantum.custom "CNOT"() %c61#1, %c61#0 : !quantum.bit, !quantum.bit
  %c64:2 = quantum.custom "CNOT"() %c62#1, %c62#0 : !quantum.bit, !quantum.bit
  %x65 = quantum.custom "RX"(%a) %c63#1 : !quantum.bit
  %x66 = quantum.custom "RX"(%a) %c64#1 : !quantum.bit
  %x67 = quantum.custom "RX"(%a) %c63#0 : !quantum.bit
  %x68 = quantum.custom "RX"(%a) %c64#0 : !quantum.bit
  %c69:2 = quantum.custom "CNOT"() %x65, %x68 : !quantum.bit, !quantum.bit
  %c70:2 = quantum.custom "CNOT"() %x66, %c69#0 : !quantum.bit, !quantum.bit
  %c71:2 = quantum.custom "CNOT"() %x67, %c70#0 : !quantum.bit, !quantum.bit
  %c72:2 = quantum.custom "CNOT"() %c69#1, %c71#0 : !quantum.bit, !quantum.bit
  %o0 = quantum.namedobs %c70#1[ PauliZ] : !quantum.obs
  %e0 = quantum.expval %o0 : f64
  %o1 = quantum.namedobs %c71#1[ PauliZ] : !quantum.obs
  %e1 = quantum.expval %o1 : f64
  %o2 = quantum.namedobs %c72#1[ PauliZ] : !quantum.obs
  %e2 = quantum.expval %o2 : f64
  %o3 = quantum.namedobs %c72#0[ PauliZ] : !quantum.obs
  %e3 = quantum.expval %o3 : f64
  %r0 = quantum.insert %r[ 0], %c70#1 : !quantum.reg, !quantum.bit
  %r1 = quantum.insert %r0[ 1], %c71#1 : !quantum.reg, !quantum.bit
  %r2 = quantum.insert %r1[ 2], %c72#1 : !quantum.reg, !quantum.bit
  %r3 = quantum.insert %r2[ 3], %c72#0 : !quantum.reg, !quantum.bit
  quantum.dealloc %r3 : !quantum.reg
  return %e0, %e1, %e2, %e3 : f64, f64, f64, f64
}
