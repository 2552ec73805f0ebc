// Loops of loops: blocks that roll into loops differing only in the values
// their bodies capture (an angle per block) and in the wire they read (the
// control, affine in the block number) roll into an outer loop that
// computes those values: each angle (x times a constant per block) made
// again in the body from a table of the constants, the wire from its index.
// Each block's control qubit is threaded through its five copies and left
// on its wire; the outer loop writes it back (the write-back) and the
// inserts after it fold away.
// RUN: qshape-opt %s -split-input-file '--qshape-roll-loops=verify-roundtrip' --qshape-check-linearity | FileCheck %s
// RUN: qshape-opt %s -split-input-file --mlir-print-op-generic | %upstream_mlir_opt --load-pass-plugin=%pass_plugin --allow-unregistered-dialect -split-input-file --pass-pipeline='builtin.module(qshape-roll-loops{verify-roundtrip},qshape-check-linearity)' | qshape-opt --allow-unregistered-dialect -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @controlled_blocks
// CHECK-NOT: tensor.from_elements
// CHECK: %[[T:.*]] = arith.constant dense<[8.000000e+00, 4.000000e+00, 2.000000e+00, 1.000000e+00]> : tensor<4xf64>
// CHECK-NOT: arith.mulf
// CHECK: %[[OUT:.*]]:2 = scf.for %[[K:.*]] = %c0 to %c4 step %c1 iter_args(%[[TGT:.*]] = %{{.*}}, %[[REG:.*]] = %arg0)
// CHECK: %[[W:.*]] = arith.addi
// CHECK-NEXT: %[[C:.*]] = quantum.extract %[[REG]][%[[W]]]
// CHECK-NEXT: %[[S:.*]] = tensor.extract %[[T]][%[[K]]]
// CHECK-NEXT: %[[A:.*]] = arith.mulf %arg1, %[[S]]
// CHECK-NEXT: %[[IN:.*]]:2 = scf.for %{{.*}} = %c0 to %c5 step %c1 iter_args(%[[C2:.*]] = %[[C]], %[[T2:.*]] = %[[TGT]])
// CHECK-NEXT: quantum.custom "CRX"(%[[A]]) %[[C2]], %[[T2]]
// CHECK-NEXT: quantum.custom "Hadamard"
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[NEW:.*]] = quantum.insert %[[REG]][%[[W]]], %[[IN]]#0
// CHECK-NEXT: scf.yield %[[IN]]#1, %[[NEW]]
// CHECK-NOT: scf.for
// CHECK: quantum.insert %[[OUT]]#1[ 0], %[[OUT]]#0
// CHECK-NEXT: return
func.func @controlled_blocks(%r: !quantum.reg, %x: f64) -> !quantum.reg {
  %s0 = arith.constant 8.0 : f64
  %t0 = arith.mulf %x, %s0 : f64
  %s1 = arith.constant 4.0 : f64
  %t1 = arith.mulf %x, %s1 : f64
  %s2 = arith.constant 2.0 : f64
  %t2 = arith.mulf %x, %s2 : f64
  %s3 = arith.constant 1.0 : f64
  %t3 = arith.mulf %x, %s3 : f64
  %w0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %w1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %w2 = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %w3 = quantum.extract %r[ 3] : !quantum.reg -> !quantum.bit
  %w4 = quantum.extract %r[ 4] : !quantum.reg -> !quantum.bit
  %g0:2 = quantum.custom "CRX"(%t0) %w1, %w0 : !quantum.bit, !quantum.bit
  %h1 = quantum.custom "Hadamard"() %g0#1 : !quantum.bit
  %g2:2 = quantum.custom "CRX"(%t0) %g0#0, %h1 : !quantum.bit, !quantum.bit
  %h3 = quantum.custom "Hadamard"() %g2#1 : !quantum.bit
  %g4:2 = quantum.custom "CRX"(%t0) %g2#0, %h3 : !quantum.bit, !quantum.bit
  %h5 = quantum.custom "Hadamard"() %g4#1 : !quantum.bit
  %g6:2 = quantum.custom "CRX"(%t0) %g4#0, %h5 : !quantum.bit, !quantum.bit
  %h7 = quantum.custom "Hadamard"() %g6#1 : !quantum.bit
  %g8:2 = quantum.custom "CRX"(%t0) %g6#0, %h7 : !quantum.bit, !quantum.bit
  %h9 = quantum.custom "Hadamard"() %g8#1 : !quantum.bit
  %g10:2 = quantum.custom "CRX"(%t1) %w2, %h9 : !quantum.bit, !quantum.bit
  %h11 = quantum.custom "Hadamard"() %g10#1 : !quantum.bit
  %g12:2 = quantum.custom "CRX"(%t1) %g10#0, %h11 : !quantum.bit, !quantum.bit
  %h13 = quantum.custom "Hadamard"() %g12#1 : !quantum.bit
  %g14:2 = quantum.custom "CRX"(%t1) %g12#0, %h13 : !quantum.bit, !quantum.bit
  %h15 = quantum.custom "Hadamard"() %g14#1 : !quantum.bit
  %g16:2 = quantum.custom "CRX"(%t1) %g14#0, %h15 : !quantum.bit, !quantum.bit
  %h17 = quantum.custom "Hadamard"() %g16#1 : !quantum.bit
  %g18:2 = quantum.custom "CRX"(%t1) %g16#0, %h17 : !quantum.bit, !quantum.bit
  %h19 = quantum.custom "Hadamard"() %g18#1 : !quantum.bit
  %g20:2 = quantum.custom "CRX"(%t2) %w3, %h19 : !quantum.bit, !quantum.bit
  %h21 = quantum.custom "Hadamard"() %g20#1 : !quantum.bit
  %g22:2 = quantum.custom "CRX"(%t2) %g20#0, %h21 : !quantum.bit, !quantum.bit
  %h23 = quantum.custom "Hadamard"() %g22#1 : !quantum.bit
  %g24:2 = quantum.custom "CRX"(%t2) %g22#0, %h23 : !quantum.bit, !quantum.bit
  %h25 = quantum.custom "Hadamard"() %g24#1 : !quantum.bit
  %g26:2 = quantum.custom "CRX"(%t2) %g24#0, %h25 : !quantum.bit, !quantum.bit
  %h27 = quantum.custom "Hadamard"() %g26#1 : !quantum.bit
  %g28:2 = quantum.custom "CRX"(%t2) %g26#0, %h27 : !quantum.bit, !quantum.bit
  %h29 = quantum.custom "Hadamard"() %g28#1 : !quantum.bit
  %g30:2 = quantum.custom "CRX"(%t3) %w4, %h29 : !quantum.bit, !quantum.bit
  %h31 = quantum.custom "Hadamard"() %g30#1 : !quantum.bit
  %g32:2 = quantum.custom "CRX"(%t3) %g30#0, %h31 : !quantum.bit, !quantum.bit
  %h33 = quantum.custom "Hadamard"() %g32#1 : !quantum.bit
  %g34:2 = quantum.custom "CRX"(%t3) %g32#0, %h33 : !quantum.bit, !quantum.bit
  %h35 = quantum.custom "Hadamard"() %g34#1 : !quantum.bit
  %g36:2 = quantum.custom "CRX"(%t3) %g34#0, %h35 : !quantum.bit, !quantum.bit
  %h37 = quantum.custom "Hadamard"() %g36#1 : !quantum.bit
  %g38:2 = quantum.custom "CRX"(%t3) %g36#0, %h37 : !quantum.bit, !quantum.bit
  %h39 = quantum.custom "Hadamard"() %g38#1 : !quantum.bit
  %i0 = quantum.insert %r[ 0], %h39 : !quantum.reg, !quantum.bit
  %i1 = quantum.insert %i0[ 1], %g8#0 : !quantum.reg, !quantum.bit
  %i2 = quantum.insert %i1[ 2], %g18#0 : !quantum.reg, !quantum.bit
  %i3 = quantum.insert %i2[ 3], %g28#0 : !quantum.reg, !quantum.bit
  %i4 = quantum.insert %i3[ 4], %g38#0 : !quantum.reg, !quantum.bit
  return %i4 : !quantum.reg
}

// -----

// The same blocks with different inner trip counts (5, 5, 4, 5) stay four
// loops: verify-roundtrip only unrolls constant trip counts, so an inner
// loop's bounds must be the same in every copy. (Rolled in the order they
// came in, by wire, the 19 steps would be one loop with the control wire in
// a table; the pass does not try that order here: every gate is in a loop
// and the order does not repeat finer than the loops' bodies.)
// CHECK-LABEL: func.func @different_trip_counts
// CHECK-COUNT-4: scf.for %{{.*}} = %c0 to %c{{[45]}} step %c1
// CHECK-NOT: scf.for
// CHECK: return
func.func @different_trip_counts(%r: !quantum.reg, %x: f64) -> !quantum.reg {
  %s0 = arith.constant 8.0 : f64
  %t0 = arith.mulf %x, %s0 : f64
  %s1 = arith.constant 4.0 : f64
  %t1 = arith.mulf %x, %s1 : f64
  %s2 = arith.constant 2.0 : f64
  %t2 = arith.mulf %x, %s2 : f64
  %s3 = arith.constant 1.0 : f64
  %t3 = arith.mulf %x, %s3 : f64
  %w0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %w1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %w2 = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %w3 = quantum.extract %r[ 3] : !quantum.reg -> !quantum.bit
  %w4 = quantum.extract %r[ 4] : !quantum.reg -> !quantum.bit
  %g0:2 = quantum.custom "CRX"(%t0) %w1, %w0 : !quantum.bit, !quantum.bit
  %h1 = quantum.custom "Hadamard"() %g0#1 : !quantum.bit
  %g2:2 = quantum.custom "CRX"(%t0) %g0#0, %h1 : !quantum.bit, !quantum.bit
  %h3 = quantum.custom "Hadamard"() %g2#1 : !quantum.bit
  %g4:2 = quantum.custom "CRX"(%t0) %g2#0, %h3 : !quantum.bit, !quantum.bit
  %h5 = quantum.custom "Hadamard"() %g4#1 : !quantum.bit
  %g6:2 = quantum.custom "CRX"(%t0) %g4#0, %h5 : !quantum.bit, !quantum.bit
  %h7 = quantum.custom "Hadamard"() %g6#1 : !quantum.bit
  %g8:2 = quantum.custom "CRX"(%t0) %g6#0, %h7 : !quantum.bit, !quantum.bit
  %h9 = quantum.custom "Hadamard"() %g8#1 : !quantum.bit
  %g10:2 = quantum.custom "CRX"(%t1) %w2, %h9 : !quantum.bit, !quantum.bit
  %h11 = quantum.custom "Hadamard"() %g10#1 : !quantum.bit
  %g12:2 = quantum.custom "CRX"(%t1) %g10#0, %h11 : !quantum.bit, !quantum.bit
  %h13 = quantum.custom "Hadamard"() %g12#1 : !quantum.bit
  %g14:2 = quantum.custom "CRX"(%t1) %g12#0, %h13 : !quantum.bit, !quantum.bit
  %h15 = quantum.custom "Hadamard"() %g14#1 : !quantum.bit
  %g16:2 = quantum.custom "CRX"(%t1) %g14#0, %h15 : !quantum.bit, !quantum.bit
  %h17 = quantum.custom "Hadamard"() %g16#1 : !quantum.bit
  %g18:2 = quantum.custom "CRX"(%t1) %g16#0, %h17 : !quantum.bit, !quantum.bit
  %h19 = quantum.custom "Hadamard"() %g18#1 : !quantum.bit
  %g20:2 = quantum.custom "CRX"(%t2) %w3, %h19 : !quantum.bit, !quantum.bit
  %h21 = quantum.custom "Hadamard"() %g20#1 : !quantum.bit
  %g22:2 = quantum.custom "CRX"(%t2) %g20#0, %h21 : !quantum.bit, !quantum.bit
  %h23 = quantum.custom "Hadamard"() %g22#1 : !quantum.bit
  %g24:2 = quantum.custom "CRX"(%t2) %g22#0, %h23 : !quantum.bit, !quantum.bit
  %h25 = quantum.custom "Hadamard"() %g24#1 : !quantum.bit
  %g26:2 = quantum.custom "CRX"(%t2) %g24#0, %h25 : !quantum.bit, !quantum.bit
  %h27 = quantum.custom "Hadamard"() %g26#1 : !quantum.bit
  %g28:2 = quantum.custom "CRX"(%t3) %w4, %h27 : !quantum.bit, !quantum.bit
  %h29 = quantum.custom "Hadamard"() %g28#1 : !quantum.bit
  %g30:2 = quantum.custom "CRX"(%t3) %g28#0, %h29 : !quantum.bit, !quantum.bit
  %h31 = quantum.custom "Hadamard"() %g30#1 : !quantum.bit
  %g32:2 = quantum.custom "CRX"(%t3) %g30#0, %h31 : !quantum.bit, !quantum.bit
  %h33 = quantum.custom "Hadamard"() %g32#1 : !quantum.bit
  %g34:2 = quantum.custom "CRX"(%t3) %g32#0, %h33 : !quantum.bit, !quantum.bit
  %h35 = quantum.custom "Hadamard"() %g34#1 : !quantum.bit
  %g36:2 = quantum.custom "CRX"(%t3) %g34#0, %h35 : !quantum.bit, !quantum.bit
  %h37 = quantum.custom "Hadamard"() %g36#1 : !quantum.bit
  %i0 = quantum.insert %r[ 0], %h37 : !quantum.reg, !quantum.bit
  %i1 = quantum.insert %i0[ 1], %g8#0 : !quantum.reg, !quantum.bit
  %i2 = quantum.insert %i1[ 2], %g18#0 : !quantum.reg, !quantum.bit
  %i3 = quantum.insert %i2[ 3], %g26#0 : !quantum.reg, !quantum.bit
  %i4 = quantum.insert %i3[ 4], %g36#0 : !quantum.reg, !quantum.bit
  return %i4 : !quantum.reg
}
