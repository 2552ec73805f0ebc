// quantum.paulirot: PauliRot(theta, P) = exp(-i theta/2 P), the first letter
// acting on the first qubit; with the adjoint flag and with controls.

// RUN: qshape-sim %s --entry single --decimals 12 | FileCheck %s --check-prefix=SINGLE
// RUN: qshape-sim %s --entry word_order --decimals 12 | FileCheck %s --check-prefix=ORDER
// RUN: qshape-sim %s --entry adjoint --decimals 12 | FileCheck %s --check-prefix=ADJ
// RUN: qshape-sim %s --entry controlled --decimals 12 | FileCheck %s --check-prefix=CTRL

// PauliRot(2pi/3, X) = RX(2pi/3): <Z> = cos(2pi/3).
// SINGLE: {"results": [-0.5]}
func.func @single() -> f64 {
  %theta = arith.constant 2.0943951023931953 : f64
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.paulirot ["X"](%theta) %q : !quantum.bit
  %z = quantum.namedobs %q1[ PauliZ] : !quantum.obs
  %e = quantum.expval %z : f64
  return %e : f64
}

// exp(-i t/2 Z(a) X(b)) is RX(t) on b when a = |0> and RX(-t) when a = |1>:
// <Y(b)> = -sin(t) and +sin(t), t = pi/6.
// ORDER: {"results": [-0.5, 0.5]}
func.func @word_order() -> (f64, f64) {
  %t = arith.constant 0.5235987755982988 : f64
  %r = quantum.alloc( 4) : !quantum.reg
  %a0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b0 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %a1 = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %b1 = quantum.extract %r[ 3] : !quantum.reg -> !quantum.bit
  %p:2 = quantum.paulirot ["Z", "X"](%t) %a0, %b0 : !quantum.bit, !quantum.bit
  %a1x = quantum.custom "PauliX"() %a1 : !quantum.bit
  %s:2 = quantum.paulirot ["Z", "X"](%t) %a1x, %b1 : !quantum.bit, !quantum.bit
  %y0 = quantum.namedobs %p#1[ PauliY] : !quantum.obs
  %e0 = quantum.expval %y0 : f64
  %y1 = quantum.namedobs %s#1[ PauliY] : !quantum.obs
  %e1 = quantum.expval %y1 : f64
  return %e0, %e1 : f64, f64
}

// PauliRot(pi/6, Y) adj = RY(-pi/6): <X> = -sin(pi/6).
// ADJ: {"results": [-0.5]}
func.func @adjoint() -> f64 {
  %t = arith.constant 0.5235987755982988 : f64
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.paulirot ["Y"](%t) %q adj : !quantum.bit
  %x = quantum.namedobs %q1[ PauliX] : !quantum.obs
  %e = quantum.expval %x : f64
  return %e : f64
}

// A control on |0> with ctrlval true blocks the rotation (<Z> = 1); with
// ctrlval false it fires: PauliRot(pi, X) = -i X, <Z> = -1.
// CTRL: {"results": [1.0, -1.0]}
func.func @controlled() -> (f64, f64) {
  %pi = arith.constant 3.141592653589793 : f64
  %true = arith.constant true
  %false = arith.constant false
  %r = quantum.alloc( 3) : !quantum.reg
  %c = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %p = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %q1, %c1 = quantum.paulirot ["X"](%pi) %q ctrls(%c) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit
  %p1, %c2 = quantum.paulirot ["X"](%pi) %p ctrls(%c1) ctrlvals(%false) : !quantum.bit ctrls !quantum.bit
  %z0 = quantum.namedobs %q1[ PauliZ] : !quantum.obs
  %e0 = quantum.expval %z0 : f64
  %z1 = quantum.namedobs %p1[ PauliZ] : !quantum.obs
  %e1 = quantum.expval %z1 : f64
  return %e0, %e1 : f64, f64
}
