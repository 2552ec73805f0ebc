// Terminal measurements: expval/var of named, Hermitian, tensor-product and
// Hamiltonian observables; probs and state over chosen wires; sample and
// counts with shots (quantum.device shots or --shots) and a seed.

// RUN: qshape-sim %s --entry observables --decimals 12 | FileCheck %s --check-prefix=OBS
// RUN: qshape-sim %s --entry state --decimals 12 | FileCheck %s --check-prefix=STATE
// RUN: qshape-sim %s --entry basis_samples --decimals 12 | FileCheck %s --check-prefix=BASIS
// RUN: qshape-sim %s --entry plus_samples --seed 7 | FileCheck %s --check-prefix=SEED7
// RUN: qshape-sim %s --entry plus_samples --seed 7 | FileCheck %s --check-prefix=SEED7
// RUN: qshape-sim %s --entry plus_samples --seed 8 | FileCheck %s --check-prefix=SEED8
// RUN: qshape-sim %s --entry plus_samples --seed 7 --shots 4 | FileCheck %s --check-prefix=SHOTS4
// RUN: qshape-sim %s --entry shot_estimates --seed 3 | FileCheck %s --check-prefix=EST
// RUN: qshape-sim %s --entry shot_estimates --seed 3 --shots 0 --decimals 12 | FileCheck %s --check-prefix=EXACT

// On |1>|+> (wires a, b): <Z(a)> = -1, Var = 0; Hermitian Z on a = -1;
// Hermitian X on b = 1; Z(a) @ X(b) = -1; 0.5 Z(a) + 2 Z(a) @ X(b) = -2.5;
// <H(b)> = 1/sqrt(2); Var(H(b)) = 1/2.
// OBS: {"results": [-1.0, 0.0, -1.0, 1.0, -1.0, -2.5, 0.707106781187, 0.5]}
func.func @observables() -> (f64, f64, f64, f64, f64, f64, f64, f64) {
  %hz = arith.constant dense<[[(1.0, 0.0), (0.0, 0.0)], [(0.0, 0.0), (-1.0, 0.0)]]> : tensor<2x2xcomplex<f64>>
  %hx = arith.constant dense<[[(0.0, 0.0), (1.0, 0.0)], [(1.0, 0.0), (0.0, 0.0)]]> : tensor<2x2xcomplex<f64>>
  %coeffs = arith.constant dense<[0.5, 2.0]> : tensor<2xf64>
  %r = quantum.alloc( 2) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %a1 = quantum.custom "PauliX"() %a : !quantum.bit
  %b1 = quantum.custom "Hadamard"() %b : !quantum.bit
  %z = quantum.namedobs %a1[ PauliZ] : !quantum.obs
  %e1 = quantum.expval %z : f64
  %v1 = quantum.var %z : f64
  %h1 = quantum.hermitian(%hz : tensor<2x2xcomplex<f64>>) %a1 : !quantum.obs
  %e2 = quantum.expval %h1 : f64
  %h2 = quantum.hermitian(%hx : tensor<2x2xcomplex<f64>>) %b1 : !quantum.obs
  %e3 = quantum.expval %h2 : f64
  %x = quantum.namedobs %b1[ PauliX] : !quantum.obs
  %zx = quantum.tensor %z, %x : !quantum.obs
  %e4 = quantum.expval %zx : f64
  %ham = quantum.hamiltonian(%coeffs : tensor<2xf64>) %z, %zx : !quantum.obs
  %e5 = quantum.expval %ham : f64
  %h = quantum.namedobs %b1[ Hadamard] : !quantum.obs
  %e6 = quantum.expval %h : f64
  %v6 = quantum.var %h : f64
  return %e1, %v1, %e2, %e3, %e4, %e5, %e6, %v6 : f64, f64, f64, f64, f64, f64, f64, f64
}

// RY(pi/2) on a, X on c, b untouched: (|0> + |1>)/sqrt(2) (x) |0> (x) |1>.
// The state over (a, b, c), then over the permuted wires (c, a, b): the same
// amplitudes, since Catalyst's runtime returns the whole state in device
// order whatever the compbasis lists; probs of (a, c) and of the whole
// register (compbasis without operands).
// STATE: {"results": {{\[}}{{\[}}[0.0, 0.0], [0.707106781187, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.707106781187, 0.0], [0.0, 0.0], [0.0, 0.0]], {{\[}}[0.0, 0.0], [0.707106781187, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.707106781187, 0.0], [0.0, 0.0], [0.0, 0.0]], [0.0, 0.5, 0.0, 0.5], [0.0, 0.5, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0]]}
func.func @state() -> (tensor<8xcomplex<f64>>, tensor<8xcomplex<f64>>, tensor<4xf64>, tensor<8xf64>) {
  %half_pi = arith.constant 1.5707963267948966 : f64
  %r = quantum.alloc( 3) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %c = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %a1 = quantum.custom "RY"(%half_pi) %a : !quantum.bit
  %c1 = quantum.custom "PauliX"() %c : !quantum.bit
  %o1 = quantum.compbasis qubits %a1, %b, %c1 : !quantum.obs
  %s1 = quantum.state %o1 : tensor<8xcomplex<f64>>
  %o2 = quantum.compbasis qubits %c1, %a1, %b : !quantum.obs
  %s2 = quantum.state %o2 : tensor<8xcomplex<f64>>
  %o3 = quantum.compbasis qubits %a1, %c1 : !quantum.obs
  %p3 = quantum.probs %o3 : tensor<4xf64>
  %o4 = quantum.compbasis : !quantum.obs
  %p4 = quantum.probs %o4 : tensor<8xf64>
  return %s1, %s2, %p3, %p4 : tensor<8xcomplex<f64>>, tensor<8xcomplex<f64>>, tensor<4xf64>, tensor<8xf64>
}

// Shots from quantum.device: on |1>|0> every sample is [1, 0], counts of
// basis states are [0, 0, 5, 0], the Z(a) eigenvalue samples are -1 and their
// counts {-1: 5, 1: 0}; expval with shots on an eigenstate is exact.
// BASIS: {"results": {{\[}}{{\[}}[1.0, 0.0], [1.0, 0.0], [1.0, 0.0], [1.0, 0.0], [1.0, 0.0]], [0.0, 1.0, 2.0, 3.0], [0, 0, 5, 0], [-1.0, -1.0, -1.0, -1.0, -1.0], [-1.0, 1.0], [5, 0], -1.0, [0.0, 0.0, 1.0, 0.0]]}
func.func @basis_samples() -> (tensor<5x2xf64>, tensor<4xf64>, tensor<4xi64>, tensor<5xf64>, tensor<2xf64>, tensor<2xi64>, f64, tensor<4xf64>) {
  %shots = arith.constant 5 : i64
  quantum.device shots(%shots) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 2) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %a1 = quantum.custom "PauliX"() %a : !quantum.bit
  %o = quantum.compbasis qubits %a1, %b : !quantum.obs
  %s = quantum.sample %o : tensor<5x2xf64>
  %ev, %cn = quantum.counts %o : tensor<4xf64>, tensor<4xi64>
  %z = quantum.namedobs %a1[ PauliZ] : !quantum.obs
  %sz = quantum.sample %z : tensor<5xf64>
  %evz, %cnz = quantum.counts %z : tensor<2xf64>, tensor<2xi64>
  %e = quantum.expval %z : f64
  %p = quantum.probs %o : tensor<4xf64>
  quantum.device_release
  return %s, %ev, %cn, %sz, %evz, %cnz, %e, %p : tensor<5x2xf64>, tensor<4xf64>, tensor<4xi64>, tensor<5xf64>, tensor<2xf64>, tensor<2xi64>, f64, tensor<4xf64>
}

// |+>: samples and counts depend on the seed only; --shots overrides the
// device's 10 shots (the result shape is dynamic).
// SEED7: {"results": {{\[}}{{\[}}[1.0], [1.0], [0.0], [1.0], [0.0], [0.0], [1.0], [1.0], [0.0], [1.0]], [4, 6]]}
// SEED8: {"results": {{\[}}{{\[}}[0.0], [1.0], [1.0], [1.0], [0.0], [1.0], [0.0], [0.0], [1.0], [1.0]], [6, 4]]}
// SHOTS4: {"results": {{\[}}{{\[}}[1.0], [1.0], [0.0], [1.0]], [2, 2]]}
func.func @plus_samples() -> (tensor<?x1xf64>, tensor<2xi64>) {
  %shots = arith.constant 10 : i64
  quantum.device shots(%shots) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "Hadamard"() %q : !quantum.bit
  %o = quantum.compbasis qubits %q1 : !quantum.obs
  %s = quantum.sample %o shape %shots : tensor<?x1xf64>
  %ev, %cn = quantum.counts %o : tensor<2xf64>, tensor<2xi64>
  return %s, %cn : tensor<?x1xf64>, tensor<2xi64>
}

// With shots, expval/var/probs are estimated from samples (seeded); with
// --shots 0 they are exact: RY(1.2)|0> has <Z> = cos(1.2), <X> = sin(1.2).
// EST: {"results": [0.372, 0.888444, [0.692, 0.308]]}
// EXACT: {"results": [0.362357754477, 0.868696857771, [0.681178877238, 0.318821122762]]}
func.func @shot_estimates() -> (f64, f64, tensor<2xf64>) {
  %shots = arith.constant 1000 : i64
  %t = arith.constant 1.2 : f64
  quantum.device shots(%shots) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "RY"(%t) %q : !quantum.bit
  %z = quantum.namedobs %q1[ PauliZ] : !quantum.obs
  %e = quantum.expval %z : f64
  %v = quantum.var %z : f64
  %o = quantum.compbasis qubits %q1 : !quantum.obs
  %p = quantum.probs %o : tensor<2xf64>
  return %e, %v, %p : f64, f64, tensor<2xf64>
}
