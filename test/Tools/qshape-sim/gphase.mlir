// quantum.gphase: GlobalPhase(phi) = exp(-i phi) on the whole state; with
// controls it becomes a relative phase, visible to measurements.

// RUN: qshape-sim %s --entry global --decimals 12 | FileCheck %s --check-prefix=GLOBAL
// RUN: qshape-sim %s --entry controlled --decimals 12 | FileCheck %s --check-prefix=CTRL

// exp(-i pi/2) = -i; the adjoint flag gives +i.
// GLOBAL: {"results": {{\[}}{{\[}}[0.0, -1.0], [0.0, 0.0]], {{\[}}[0.0, 1.0], [0.0, 0.0]]]}
func.func @global() -> (tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>) {
  %phi = arith.constant 1.5707963267948966 : f64
  %r = quantum.alloc( 1) : !quantum.reg
  quantum.gphase(%phi)
  %all = quantum.compbasis qreg %r : !quantum.obs
  %s1 = quantum.state %all : tensor<2xcomplex<f64>>
  quantum.gphase(%phi) adj
  quantum.gphase(%phi) adj
  %s2 = quantum.state %all : tensor<2xcomplex<f64>>
  return %s1, %s2 : tensor<2xcomplex<f64>>, tensor<2xcomplex<f64>>
}

// H on c, then GlobalPhase(pi/3) controlled on c = |1>: c's |1> branch gets
// exp(-i pi/3): <X> = cos(pi/3), <Y> = -sin(pi/3). With ctrlval false the
// |0> branch gets it: <Y> = +sin(pi/3).
// CTRL: {"results": [0.5, -0.866025403784, 0.866025403784]}
func.func @controlled() -> (f64, f64, f64) {
  %phi = arith.constant 1.0471975511965976 : f64
  %true = arith.constant true
  %false = arith.constant false
  %r = quantum.alloc( 2) : !quantum.reg
  %c = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %d = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %c1 = quantum.custom "Hadamard"() %c : !quantum.bit
  %c2 = quantum.gphase(%phi) ctrls(%c1) ctrlvals(%true) : ctrls !quantum.bit
  %d1 = quantum.custom "Hadamard"() %d : !quantum.bit
  %d2 = quantum.gphase(%phi) ctrls(%d1) ctrlvals(%false) : ctrls !quantum.bit
  %x = quantum.namedobs %c2[ PauliX] : !quantum.obs
  %ex = quantum.expval %x : f64
  %y = quantum.namedobs %c2[ PauliY] : !quantum.obs
  %ey = quantum.expval %y : f64
  %y2 = quantum.namedobs %d2[ PauliY] : !quantum.obs
  %ey2 = quantum.expval %y2 : f64
  return %ex, %ey, %ey2 : f64, f64, f64
}
