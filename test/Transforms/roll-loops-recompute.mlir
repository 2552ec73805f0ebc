// Runtime values that every copy makes alike before the run, from values
// the copies share and constants that vary (W2's angles: a parameter times
// 2^(3-k) in block k), are made again in the loop body from a table of the
// constants, instead of being gathered into a tensor of k runtime values;
// operands whose tables are equal share one table and one extract. The
// rolled program must simulate as the input does.
// RUN: qshape-opt %s '--qshape-roll-loops=verify-roundtrip' --qshape-check-linearity -o %t.rolled.mlir
// RUN: FileCheck %s < %t.rolled.mlir
// RUN: qshape-sim %s --entry angles --args '[0.4, 0.9, 1.3]' --decimals 9 > %t.in.json
// RUN: qshape-sim %t.rolled.mlir --entry angles --args '[0.4, 0.9, 1.3]' --decimals 9 > %t.out.json
// RUN: %python %qshape_src/utils/compare-results.py %t.in.json %t.out.json --tol 1e-9

// x * c[k] for RX and y * c[k] for RY share one table; z * d[k] has its own.
// (The canonical schedule starts the loop one copy late, with the first
// copy's RX and RY before it; the order the function came in rolls all four.)
// CHECK-LABEL: func.func @angles
// CHECK-NOT: tensor.from_elements
// CHECK: %[[D:.*]] = arith.constant dense<[5.000000e-01, 2.500000e-01, 2.500000e+00, 1.500000e+00]> : tensor<4xf64>
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<[3.000000e-01, 0.69999999999999996, 1.100000e+00, 1.900000e+00]> : tensor<4xf64>
// CHECK-NOT: arith.constant dense
// CHECK: scf.for %[[K:.*]] = %c0 to %c4 step %c1
// CHECK-NEXT: %[[F:.*]] = tensor.extract %[[C]][%[[K]]]
// CHECK-NEXT: %[[X:.*]] = arith.mulf %arg0, %[[F]]
// CHECK-NEXT: quantum.custom "RX"(%[[X]])
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %arg1, %[[F]]
// CHECK-NEXT: quantum.custom "RY"(%[[Y]])
// CHECK-NEXT: %[[E:.*]] = tensor.extract %[[D]][%[[K]]]
// CHECK-NEXT: %[[Z:.*]] = arith.mulf %arg2, %[[E]]
// CHECK-NEXT: quantum.custom "RZ"(%[[Z]])
// CHECK-NOT: tensor.extract
// CHECK: scf.yield
func.func @angles(%x: f64, %y: f64, %z: f64) -> tensor<4xf64> {
  %c0 = arith.constant 0.3 : f64
  %d0 = arith.constant 0.5 : f64
  %a0 = arith.mulf %x, %c0 : f64
  %b0 = arith.mulf %y, %c0 : f64
  %e0 = arith.mulf %z, %d0 : f64
  %c1 = arith.constant 0.7 : f64
  %d1 = arith.constant 0.25 : f64
  %a1 = arith.mulf %x, %c1 : f64
  %b1 = arith.mulf %y, %c1 : f64
  %e1 = arith.mulf %z, %d1 : f64
  %c2 = arith.constant 1.1 : f64
  %d2 = arith.constant 2.5 : f64
  %a2 = arith.mulf %x, %c2 : f64
  %b2 = arith.mulf %y, %c2 : f64
  %e2 = arith.mulf %z, %d2 : f64
  %c3 = arith.constant 1.9 : f64
  %d3 = arith.constant 1.5 : f64
  %a3 = arith.mulf %x, %c3 : f64
  %b3 = arith.mulf %y, %c3 : f64
  %e3 = arith.mulf %z, %d3 : f64
  %r = quantum.alloc( 2) : !quantum.reg
  %p0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q0 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %u0 = quantum.custom "RX"(%a0) %p0 : !quantum.bit
  %v0 = quantum.custom "RY"(%b0) %u0 : !quantum.bit
  %w0 = quantum.custom "RZ"(%e0) %q0 : !quantum.bit
  %g0:2 = quantum.custom "CNOT"() %v0, %w0 : !quantum.bit, !quantum.bit
  %h0 = quantum.custom "Hadamard"() %g0#1 : !quantum.bit
  %p1 = quantum.custom "RX"(%x) %g0#0 : !quantum.bit
  %q1 = quantum.custom "RY"(%y) %h0 : !quantum.bit
  %u1 = quantum.custom "RX"(%a1) %p1 : !quantum.bit
  %v1 = quantum.custom "RY"(%b1) %u1 : !quantum.bit
  %w1 = quantum.custom "RZ"(%e1) %q1 : !quantum.bit
  %g1:2 = quantum.custom "CNOT"() %v1, %w1 : !quantum.bit, !quantum.bit
  %h1 = quantum.custom "Hadamard"() %g1#1 : !quantum.bit
  %p2 = quantum.custom "RX"(%x) %g1#0 : !quantum.bit
  %q2 = quantum.custom "RY"(%y) %h1 : !quantum.bit
  %u2 = quantum.custom "RX"(%a2) %p2 : !quantum.bit
  %v2 = quantum.custom "RY"(%b2) %u2 : !quantum.bit
  %w2 = quantum.custom "RZ"(%e2) %q2 : !quantum.bit
  %g2:2 = quantum.custom "CNOT"() %v2, %w2 : !quantum.bit, !quantum.bit
  %h2 = quantum.custom "Hadamard"() %g2#1 : !quantum.bit
  %p3 = quantum.custom "RX"(%x) %g2#0 : !quantum.bit
  %q3 = quantum.custom "RY"(%y) %h2 : !quantum.bit
  %u3 = quantum.custom "RX"(%a3) %p3 : !quantum.bit
  %v3 = quantum.custom "RY"(%b3) %u3 : !quantum.bit
  %w3 = quantum.custom "RZ"(%e3) %q3 : !quantum.bit
  %g3:2 = quantum.custom "CNOT"() %v3, %w3 : !quantum.bit, !quantum.bit
  %h3 = quantum.custom "Hadamard"() %g3#1 : !quantum.bit
  %p4 = quantum.custom "RX"(%x) %g3#0 : !quantum.bit
  %q4 = quantum.custom "RY"(%y) %h3 : !quantum.bit
  %o = quantum.compbasis qubits %p4, %q4 : !quantum.obs
  %pr = quantum.probs %o : tensor<4xf64>
  %r1 = quantum.insert %r[ 0], %p4 : !quantum.reg, !quantum.bit
  %r2 = quantum.insert %r1[ 1], %q4 : !quantum.reg, !quantum.bit
  quantum.dealloc %r2 : !quantum.reg
  return %pr : tensor<4xf64>
}

// The factors are runtime values (arguments), not constants: nothing can be
// made again from a table, so the products are gathered.
// CHECK-LABEL: func.func @runtime_factors
// CHECK: %[[T:.*]] = tensor.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf64>
// CHECK: scf.for %[[K:.*]] = %c0 to %c4 step %c1
// CHECK-NEXT: %[[A:.*]] = tensor.extract %[[T]][%[[K]]]
// CHECK-NEXT: quantum.custom "RX"(%[[A]])
// CHECK-NOT: arith.mulf
// CHECK: scf.yield
func.func @runtime_factors(%r: !quantum.reg, %x: f64, %s0: f64, %s1: f64, %s2: f64, %s3: f64) -> !quantum.reg {
  %a0 = arith.mulf %x, %s0 : f64
  %a1 = arith.mulf %x, %s1 : f64
  %a2 = arith.mulf %x, %s2 : f64
  %a3 = arith.mulf %x, %s3 : f64
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %u0 = quantum.custom "RX"(%a0) %q0 : !quantum.bit
  %v0 = quantum.custom "Hadamard"() %u0 : !quantum.bit
  %u1 = quantum.custom "RX"(%a1) %v0 : !quantum.bit
  %v1 = quantum.custom "Hadamard"() %u1 : !quantum.bit
  %u2 = quantum.custom "RX"(%a2) %v1 : !quantum.bit
  %v2 = quantum.custom "Hadamard"() %u2 : !quantum.bit
  %u3 = quantum.custom "RX"(%a3) %v2 : !quantum.bit
  %v3 = quantum.custom "Hadamard"() %u3 : !quantum.bit
  %r1 = quantum.insert %r[ 0], %v3 : !quantum.reg, !quantum.bit
  return %r1 : !quantum.reg
}
