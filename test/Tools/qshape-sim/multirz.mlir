// quantum.multirz and quantum.pcphase.

// RUN: qshape-sim %s --entry multirz --decimals 12 | FileCheck %s --check-prefix=MRZ
// RUN: qshape-sim %s --entry pcphase --decimals 12 | FileCheck %s --check-prefix=PCP

// MultiRZ(t) = exp(-i t/2 Z...Z). On |+>|0> it is RZ(t) on the first qubit:
// <X> = cos(t), <Y> = sin(t); on |+>|1> it is RZ(-t); the adjoint flag
// negates t. Three qubits: the parity of the other two decides the sign
// (|1>|1> is even: adjoint again gives -t, -2t in all). t = pi/6.
// MRZ: {"results": [0.866025403784, 0.5, -0.5, -0.5, -0.866025403784]}
func.func @multirz() -> (f64, f64, f64, f64, f64) {
  %t = arith.constant 0.5235987755982988 : f64
  %r = quantum.alloc( 7) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %c = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %d = quantum.extract %r[ 3] : !quantum.reg -> !quantum.bit
  %e = quantum.extract %r[ 4] : !quantum.reg -> !quantum.bit
  %f = quantum.extract %r[ 5] : !quantum.reg -> !quantum.bit
  %g = quantum.extract %r[ 6] : !quantum.reg -> !quantum.bit
  %a1 = quantum.custom "Hadamard"() %a : !quantum.bit
  %m:2 = quantum.multirz(%t) %a1, %b : !quantum.bit, !quantum.bit
  %c1 = quantum.custom "Hadamard"() %c : !quantum.bit
  %d1 = quantum.custom "PauliX"() %d : !quantum.bit
  %n:2 = quantum.multirz(%t) %c1, %d1 : !quantum.bit, !quantum.bit
  %e1 = quantum.custom "Hadamard"() %e : !quantum.bit
  %o:2 = quantum.multirz(%t) %e1, %f adj : !quantum.bit, !quantum.bit
  %x0 = quantum.namedobs %m#0[ PauliX] : !quantum.obs
  %ex0 = quantum.expval %x0 : f64
  %y0 = quantum.namedobs %m#0[ PauliY] : !quantum.obs
  %ey0 = quantum.expval %y0 : f64
  %y1 = quantum.namedobs %n#0[ PauliY] : !quantum.obs
  %ey1 = quantum.expval %y1 : f64
  %y2 = quantum.namedobs %o#0[ PauliY] : !quantum.obs
  %ey2 = quantum.expval %y2 : f64
  %f1 = quantum.custom "PauliX"() %o#1 : !quantum.bit
  %g1 = quantum.custom "PauliX"() %g : !quantum.bit
  %s:3 = quantum.multirz(%t) %o#0, %f1, %g1 adj : !quantum.bit, !quantum.bit, !quantum.bit
  %y3 = quantum.namedobs %s#0[ PauliY] : !quantum.obs
  %ey3 = quantum.expval %y3 : f64
  return %ex0, %ey0, %ey1, %ey2, %ey3 : f64, f64, f64, f64, f64
}

// PCPhase(phi, dim=1) on one qubit = diag(e^{i phi}, e^{-i phi}): on |+>,
// <X> = cos(2 phi), <Y> = -sin(2 phi). phi = pi/12.
// PCP: {"results": [0.866025403784, -0.5]}
func.func @pcphase() -> (f64, f64) {
  %phi = arith.constant 0.2617993877991494 : f64
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "Hadamard"() %q : !quantum.bit
  %q2 = quantum.pcphase(%phi, dim : 1) %q1 : !quantum.bit
  %x = quantum.namedobs %q2[ PauliX] : !quantum.obs
  %ex = quantum.expval %x : f64
  %y = quantum.namedobs %q2[ PauliY] : !quantum.obs
  %ey = quantum.expval %y : f64
  return %ex, %ey : f64, f64
}
