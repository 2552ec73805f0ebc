// qshape-to-value-semantics on subroutines (functions that take qubit
// references), as Catalyst's conversion shapes them: a subroutine takes its
// other arguments, then the state it uses of its caller's (a register used
// whole, else the static wires it reads, then its qubit arguments), and
// returns that state after its own results; each call passes and takes it
// back. The converted program computes what the same program with its
// calls inlined by hand (Inputs/calls-inlined.mlir, still qref) computes,
// in qshape-sim and natively.
//
// RUN: qshape-opt %s --qshape-to-value-semantics --qshape-check-linearity | FileCheck %s
// RUN: qshape-sim %s --args '[0.6]' > %t.calls
// RUN: qshape-compile %s -o %t.so --cache=off
// RUN: qshape-run %t.so --args '[0.6]' > %t.native
// RUN: diff %t.calls %t.native
// RUN: qshape-sim %S/Inputs/calls-inlined.mlir --args '[0.6]' > %t.inlined
// RUN: diff %t.calls %t.inlined

// CHECK-LABEL: func.func private @layer(%arg0: f64, %arg1: !quantum.bit, %arg2: !quantum.bit, %arg3: !quantum.bit) -> (f64, !quantum.bit, !quantum.bit, !quantum.bit)
// CHECK: quantum.custom "RX"(%arg0) %arg1
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f64, !quantum.bit, !quantum.bit, !quantum.bit
// CHECK-LABEL: func.func private @dyn(%arg0: i64, %arg1: !quantum.reg) -> !quantum.reg
// CHECK: quantum.extract %arg1[%arg0]
// CHECK-LABEL: func.func public @main
// CHECK: %[[R:[0-9]+]]:4 = call @layer(%arg0, %{{.*}}, %{{.*}}, %{{.*}}) : (f64, !quantum.bit, !quantum.bit, !quantum.bit) -> (f64, !quantum.bit, !quantum.bit, !quantum.bit)
// CHECK: call @layer(%[[R]]#0, %[[R]]#1, %[[R]]#2, %[[R]]#3)
// CHECK: call @dyn(%{{.*}}, %{{.*}}) : (i64, !quantum.reg) -> !quantum.reg
// CHECK-NOT: qref
func.func private @layer(%r: !qref.reg<3>, %q: !qref.bit, %x: f64) -> f64 {
  %q0 = qref.get %r[0] : !qref.reg<3> -> !qref.bit
  %q1 = qref.get %r[1] : !qref.reg<3> -> !qref.bit
  qref.custom "RX"(%x) %q0 : !qref.bit
  qref.custom "CNOT"() %q0, %q1 : !qref.bit, !qref.bit
  qref.custom "RY"(%x) %q : !qref.bit
  %two = arith.mulf %x, %x : f64
  return %two : f64
}
func.func private @dyn(%r: !qref.reg<3>, %i: i64) {
  %q = qref.get %r[%i] : !qref.reg<3>, i64 -> !qref.bit
  qref.custom "Hadamard"() %q : !qref.bit
  return
}
func.func public @main(%x: f64) -> (f64, f64, f64) attributes {qnode} {
  %shots = arith.constant 0 : i64
  quantum.device shots(%shots) ["liblightning_qubit_catalyst.so", "LightningSimulator", "{}"]
  %c2 = arith.constant 2 : i64
  %a = qref.alloc(3) : !qref.reg<3>
  %q2 = qref.get %a[2] : !qref.reg<3> -> !qref.bit
  qref.custom "Hadamard"() %q2 : !qref.bit
  %y = func.call @layer(%a, %q2, %x) : (!qref.reg<3>, !qref.bit, f64) -> f64
  %z = func.call @layer(%a, %q2, %y) : (!qref.reg<3>, !qref.bit, f64) -> f64
  func.call @dyn(%a, %c2) : (!qref.reg<3>, i64) -> ()
  %q0 = qref.get %a[0] : !qref.reg<3> -> !qref.bit
  %q1 = qref.get %a[1] : !qref.reg<3> -> !qref.bit
  %o0 = qref.namedobs %q0 [ PauliZ] : !quantum.obs
  %e0 = quantum.expval %o0 : f64
  %o1 = qref.namedobs %q1 [ PauliZ] : !quantum.obs
  %e1 = quantum.expval %o1 : f64
  %o2 = qref.namedobs %q2 [ PauliX] : !quantum.obs
  %e2 = quantum.expval %o2 : f64
  qref.dealloc %a : !qref.reg<3>
  quantum.device_release
  return %e0, %e1, %e2 : f64, f64, f64
}
