// Named gates (quantum.custom) against analytic values: rotations, the
// adjoint flag, multi-qubit gates and controls with control values.

// RUN: qshape-sim %s --entry rx --decimals 12 | FileCheck %s --check-prefix=RX
// RUN: qshape-sim %s --entry rx_adj --decimals 12 | FileCheck %s --check-prefix=RXADJ
// RUN: qshape-sim %s --entry t_adj --decimals 12 | FileCheck %s --check-prefix=TADJ
// RUN: qshape-sim %s --entry rot --args '[0.3, 1.0471975511965976, -0.7]' --decimals 12 | FileCheck %s --check-prefix=ROT
// RUN: qshape-sim %s --entry bell --decimals 12 | FileCheck %s --check-prefix=BELL
// RUN: qshape-sim %s --entry ctrlvals | FileCheck %s --check-prefix=CTRLVALS
// RUN: qshape-sim %s --entry toffoli | FileCheck %s --check-prefix=TOFFOLI
// RUN: qshape-sim %s --entry full_precision | FileCheck %s --check-prefix=FULL

// RX(pi/3)|0>: <Z> = cos(pi/3) = 0.5, Var(Z) = 1 - 0.25, <Y> = -sin(pi/3).
// RX: {"results": [0.5, 0.75, -0.866025403784]}
func.func @rx() -> (f64, f64, f64) {
  %theta = arith.constant 1.0471975511965976 : f64
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "RX"(%theta) %q : !quantum.bit
  %z = quantum.namedobs %q1[ PauliZ] : !quantum.obs
  %e = quantum.expval %z : f64
  %v = quantum.var %z : f64
  %y = quantum.namedobs %q1[ PauliY] : !quantum.obs
  %ey = quantum.expval %y : f64
  return %e, %v, %ey : f64, f64, f64
}

// RX(pi/6) with `adj` is RX(-pi/6): <Y> = +sin(pi/6) (and -0.5 without adj).
// RXADJ: {"results": [-0.5, 0.5]}
func.func @rx_adj() -> (f64, f64) {
  %theta = arith.constant 0.5235987755982988 : f64
  %r = quantum.alloc( 2) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %p = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "RX"(%theta) %q : !quantum.bit
  %p1 = quantum.custom "RX"(%theta) %p adj : !quantum.bit
  %y = quantum.namedobs %q1[ PauliY] : !quantum.obs
  %ey = quantum.expval %y : f64
  %y2 = quantum.namedobs %p1[ PauliY] : !quantum.obs
  %ey2 = quantum.expval %y2 : f64
  return %ey, %ey2 : f64, f64
}

// T^dagger|+> = (|0> + e^{-i pi/4}|1>)/sqrt(2): <X> = cos(pi/4), <Y> = -sin(pi/4).
// TADJ: {"results": [0.707106781187, -0.707106781187]}
func.func @t_adj() -> (f64, f64) {
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "Hadamard"() %q : !quantum.bit
  %q2 = quantum.custom "T"() %q1 adj : !quantum.bit
  %x = quantum.namedobs %q2[ PauliX] : !quantum.obs
  %ex = quantum.expval %x : f64
  %y = quantum.namedobs %q2[ PauliY] : !quantum.obs
  %ey = quantum.expval %y : f64
  return %ex, %ey : f64, f64
}

// Rot(phi, theta, omega)|0>: <Z> = cos(theta) whatever phi and omega.
// ROT: {"results": [0.5]}
func.func @rot(%phi: f64, %theta: f64, %omega: f64) -> f64 {
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "Rot"(%phi, %theta, %omega) %q : !quantum.bit
  %z = quantum.namedobs %q1[ PauliZ] : !quantum.obs
  %e = quantum.expval %z : f64
  return %e : f64
}

// BELL: {"results": {{\[}}[0.5, 0.0, 0.0, 0.5]]}
func.func @bell() -> tensor<4xf64> {
  %r = quantum.alloc( 2) : !quantum.reg
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %h = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %c:2 = quantum.custom "CNOT"() %h, %q1 : !quantum.bit, !quantum.bit
  %obs = quantum.compbasis qubits %c#0, %c#1 : !quantum.obs
  %p = quantum.probs %obs : tensor<4xf64>
  return %p : tensor<4xf64>
}

// PauliX on t controlled by c0 = |1> (ctrlval true) and c1 = |0> (ctrlval
// false) fires; a second X controlled on c1 = |1> does not.
// CTRLVALS: {"results": {{\[}}[0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]}
func.func @ctrlvals() -> (tensor<8xf64>, tensor<4xf64>) {
  %true = arith.constant true
  %false = arith.constant false
  %r = quantum.alloc( 4) : !quantum.reg
  %c0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %c1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %t = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %u = quantum.extract %r[ 3] : !quantum.reg -> !quantum.bit
  %c0x = quantum.custom "PauliX"() %c0 : !quantum.bit
  %t1, %cc:2 = quantum.custom "PauliX"() %t ctrls(%c0x, %c1) ctrlvals(%true, %false) : !quantum.bit ctrls !quantum.bit, !quantum.bit
  %u1, %c1b = quantum.custom "PauliX"() %u ctrls(%cc#1) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit
  // probs index the qubits given, the first one as the most significant bit:
  // (c0, c1, t) = (1, 0, 1) -> index 5; (u, t) = (0, 1) -> index 1.
  %obs = quantum.compbasis qubits %cc#0, %c1b, %t1 : !quantum.obs
  %p = quantum.probs %obs : tensor<8xf64>
  %obs2 = quantum.compbasis qubits %u1, %t1 : !quantum.obs
  %p2 = quantum.probs %obs2 : tensor<4xf64>
  return %p, %p2 : tensor<8xf64>, tensor<4xf64>
}

// X, X, Toffoli flips the target: |111>. X on w1 gives |101>, then CSWAP
// swaps (w1, w2) under w0 = 1: |110>.
// TOFFOLI: {"results": {{\[}}[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]]}
func.func @toffoli() -> (tensor<8xf64>, tensor<8xf64>) {
  %r = quantum.alloc( 3) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %c = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %a1 = quantum.custom "PauliX"() %a : !quantum.bit
  %b1 = quantum.custom "PauliX"() %b : !quantum.bit
  %t:3 = quantum.custom "Toffoli"() %a1, %b1, %c : !quantum.bit, !quantum.bit, !quantum.bit
  %obs = quantum.compbasis qubits %t#0, %t#1, %t#2 : !quantum.obs
  %p = quantum.probs %obs : tensor<8xf64>
  %b2 = quantum.custom "PauliX"() %t#1 : !quantum.bit
  %s:3 = quantum.custom "CSWAP"() %t#0, %b2, %t#2 : !quantum.bit, !quantum.bit, !quantum.bit
  %obs2 = quantum.compbasis qubits %s#0, %s#1, %s#2 : !quantum.obs
  %p2 = quantum.probs %obs2 : tensor<8xf64>
  return %p, %p2 : tensor<8xf64>, tensor<8xf64>
}

// Without --decimals, floats print with the shortest text that reads back
// exactly (up to 17 significant digits): 0.1 + 0.2 = 0.30000000000000004;
// <H> on |+> is 1/sqrt(2) up to rounding.
// FULL: {"results": [0.30000000000000004, 0.70710678118654{{[0-9]+}}]}
func.func @full_precision() -> (f64, f64) {
  %a = arith.constant 0.1 : f64
  %b = arith.constant 0.2 : f64
  %s = arith.addf %a, %b : f64
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "Hadamard"() %q : !quantum.bit
  %h = quantum.namedobs %q1[ Hadamard] : !quantum.obs
  %eh = quantum.expval %h : f64
  return %s, %eh : f64, f64
}
