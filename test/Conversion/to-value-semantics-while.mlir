// qshape-to-value-semantics on scf.while: the qubits and registers the loop
// uses go around as extra values, forwarded by scf.condition and yielded by
// the body, after the loop's own. The converted program computes what its
// value-semantics twin (Inputs/while-twin.mlir) computes, in qshape-sim, and natively.
//
// RUN: qshape-opt %s --qshape-to-value-semantics --qshape-check-linearity | FileCheck %s
// RUN: qshape-sim %s --args '[0.7]' > %t.qref
// RUN: qshape-compile %s -o %t.so --cache=off
// RUN: qshape-run %t.so --args '[0.7]' > %t.native
// RUN: diff %t.qref %t.native
// RUN: qshape-sim %S/Inputs/while-twin.mlir --args '[0.7]' > %t.value
// RUN: diff %t.qref %t.value

// A dynamic index into the register inside: the loop carries the register
// whole (and wire 0, read at a static index too, inside it).
// CHECK-LABEL: func.func public @whiles
// CHECK: %[[R:.*]] = quantum.alloc( 3)
// CHECK: %[[W:.*]]:2 = scf.while (%[[I:.*]] = %{{.*}}, %[[REG:.*]] = %[[R]]) : (i64, !quantum.reg) -> (i64, !quantum.reg)
// CHECK: scf.condition(%{{.*}}) %[[I]], %[[REG]] : i64, !quantum.reg
// CHECK: } do {
// CHECK: quantum.extract %{{.*}}[%{{.*}}]
// CHECK: quantum.custom "Hadamard"
// CHECK: quantum.custom "RY"
// CHECK: scf.yield %{{.*}}, %{{.*}} : i64, !quantum.reg
// CHECK: quantum.extract %[[W]]#1[ 0]
// CHECK-NOT: qref
func.func public @whiles(%x: f64) -> (f64, f64) attributes {qnode} {
  %shots = arith.constant 0 : i64
  quantum.device shots(%shots) ["liblightning_qubit_catalyst.so", "LightningSimulator", "{}"]
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c3 = arith.constant 3 : i64
  %a = qref.alloc(3) : !qref.reg<3>
  %q0 = qref.get %a[0] : !qref.reg<3> -> !qref.bit
  %n = scf.while (%i = %c0) : (i64) -> i64 {
    %go = arith.cmpi slt, %i, %c3 : i64
    scf.condition(%go) %i : i64
  } do {
  ^bb0(%j: i64):
    %q = qref.get %a[%j] : !qref.reg<3>, i64 -> !qref.bit
    qref.custom "Hadamard"() %q : !qref.bit
    qref.custom "RY"(%x) %q0 : !qref.bit
    %next = arith.addi %j, %c1 : i64
    scf.yield %next : i64
  }
  %q2 = qref.get %a[2] : !qref.reg<3> -> !qref.bit
  %o0 = qref.namedobs %q0 [ PauliZ] : !quantum.obs
  %e0 = quantum.expval %o0 : f64
  %o2 = qref.namedobs %q2 [ PauliX] : !quantum.obs
  %e2 = quantum.expval %o2 : f64
  qref.dealloc %a : !qref.reg<3>
  quantum.device_release
  return %e0, %e2 : f64, f64
}
