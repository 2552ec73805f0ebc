// One value in two operand slots of one op, where only one slot varies
// from copy to copy: the loop must plan and set each slot on its own. (The
// first copy reads a[%c0, %c0]; planned by value, the varying row's table
// overwrote the fixed column's constant, or the other way round, and the
// rolled program read other angles: cos(0.4) instead of cos(1.0).)
// RUN: qshape-opt %s --qshape-roll-loops='min-trip-count=2 min-savings=0' --qshape-check-linearity -o %t.rolled.mlir
// RUN: FileCheck %s < %t.rolled.mlir
// RUN: qshape-sim %s --entry rows --args '[[[0.1],[0.2],[0.3],[0.4]]]' --decimals 12 > %t.rows.in.json
// RUN: qshape-sim %t.rolled.mlir --entry rows --args '[[[0.1],[0.2],[0.3],[0.4]]]' --decimals 12 > %t.rows.out.json
// RUN: %python %qshape_src/utils/compare-results.py %t.rows.in.json %t.rows.out.json --tol 1e-9
// RUN: qshape-sim %s --entry rot --args '[0.3, 0.5]' --decimals 12 > %t.rot.in.json
// RUN: qshape-sim %t.rolled.mlir --entry rot --args '[0.3, 0.5]' --decimals 12 > %t.rot.out.json
// RUN: %python %qshape_src/utils/compare-results.py %t.rot.in.json %t.rot.out.json --tol 1e-9

// CHECK-LABEL: func.func public @rows
// The row is computed from the induction variable, not read from a table.
// CHECK: scf.for %[[I:[a-z0-9_]+]] =
// CHECK-NEXT: tensor.extract %arg0[%[[I]], %c0] : tensor<4x1xf64>
// CHECK: quantum.custom "RX"
func.func public @rows(%a: tensor<4x1xf64>) -> f64 attributes {qnode} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %shots = arith.constant 0 : i64
  quantum.device shots(%shots) ["liblightning_qubit_catalyst.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 1) : !quantum.reg
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %x0 = tensor.extract %a[%c0, %c0] : tensor<4x1xf64>
  %q1 = quantum.custom "RX"(%x0) %q0 : !quantum.bit
  %x1 = tensor.extract %a[%c1, %c0] : tensor<4x1xf64>
  %q2 = quantum.custom "RX"(%x1) %q1 : !quantum.bit
  %x2 = tensor.extract %a[%c2, %c0] : tensor<4x1xf64>
  %q3 = quantum.custom "RX"(%x2) %q2 : !quantum.bit
  %x3 = tensor.extract %a[%c3, %c0] : tensor<4x1xf64>
  %q4 = quantum.custom "RX"(%x3) %q3 : !quantum.bit
  %o = quantum.namedobs %q4[ PauliZ] : !quantum.obs
  %e = quantum.expval %o : f64
  %r1 = quantum.insert %r[ 0], %q4 : !quantum.reg, !quantum.bit
  quantum.dealloc %r1 : !quantum.reg
  quantum.device_release
  return %e : f64
}

// Rot(%t, %t, %t) in which only the first slot varies (the gate-operand
// path): copy i is Rot(x_i, t, t), with x_0 = t.
// CHECK-LABEL: func.func public @rot
// CHECK: scf.for
// CHECK: quantum.custom "Rot"
func.func public @rot(%t: f64, %s: f64) -> f64 attributes {qnode} {
  %shots = arith.constant 0 : i64
  quantum.device shots(%shots) ["liblightning_qubit_catalyst.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 1) : !quantum.reg
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %x1 = arith.mulf %s, %s : f64
  %x2 = arith.mulf %s, %x1 : f64
  %x3 = arith.mulf %s, %x2 : f64
  %x4 = arith.mulf %s, %x3 : f64
  %x5 = arith.mulf %s, %x4 : f64
  %x6 = arith.mulf %s, %x5 : f64
  %x7 = arith.mulf %s, %x6 : f64
  %q1 = quantum.custom "Rot"(%t, %t, %t) %q0 : !quantum.bit
  %q2 = quantum.custom "Rot"(%x1, %t, %t) %q1 : !quantum.bit
  %q3 = quantum.custom "Rot"(%x2, %t, %t) %q2 : !quantum.bit
  %q4 = quantum.custom "Rot"(%x3, %t, %t) %q3 : !quantum.bit
  %q5 = quantum.custom "Rot"(%x4, %t, %t) %q4 : !quantum.bit
  %q6 = quantum.custom "Rot"(%x5, %t, %t) %q5 : !quantum.bit
  %q7 = quantum.custom "Rot"(%x6, %t, %t) %q6 : !quantum.bit
  %q8 = quantum.custom "Rot"(%x7, %t, %t) %q7 : !quantum.bit
  %o = quantum.namedobs %q8[ PauliZ] : !quantum.obs
  %e = quantum.expval %o : f64
  %r1 = quantum.insert %r[ 0], %q8 : !quantum.reg, !quantum.bit
  quantum.dealloc %r1 : !quantum.reg
  quantum.device_release
  return %e : f64
}
