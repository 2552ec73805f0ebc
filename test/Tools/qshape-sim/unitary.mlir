// quantum.unitary: the matrix's row/column index has the first qubit as its
// most significant bit; dense complex constants and complex tensor arguments.

// RUN: qshape-sim %s --entry hadamard --decimals 12 | FileCheck %s --check-prefix=HAD
// RUN: qshape-sim %s --entry cnot_order --decimals 12 | FileCheck %s --check-prefix=CNOT
// RUN: qshape-sim %s --entry s_adjoint --decimals 12 | FileCheck %s --check-prefix=SADJ
// RUN: qshape-sim %s --entry from_args --args '[[[[0, 0], [1, 0]], [[1, 0], [0, 0]]]]' --decimals 12 | FileCheck %s --check-prefix=ARGS
// RUN: qshape-sim %s --entry from_args --args '[[[0, 0], [1, 0], [1, 0], [0, 0]]]' --decimals 12 | FileCheck %s --check-prefix=ARGS
// RUN: qshape-sim %s --entry controlled --decimals 12 | FileCheck %s --check-prefix=CTRL

// HAD: {"results": [1.0]}
func.func @hadamard() -> f64 {
  %m = arith.constant dense<[[(0.7071067811865476, 0.0), (0.7071067811865476, 0.0)], [(0.7071067811865476, 0.0), (-0.7071067811865476, 0.0)]]> : tensor<2x2xcomplex<f64>>
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.unitary(%m : tensor<2x2xcomplex<f64>>) %q : !quantum.bit
  %x = quantum.namedobs %q1[ PauliX] : !quantum.obs
  %e = quantum.expval %x : f64
  return %e : f64
}

// X on w0, CNOT matrix on (w0, w1): |11>. The same matrix on (w1, w0) uses
// w1 as the control: |01>.
// CNOT: {"results": {{\[}}[0.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, 0.0]]}
func.func @cnot_order() -> (tensor<4xf64>, tensor<4xf64>) {
  %m = arith.constant dense<[[(1.0, 0.0), (0.0, 0.0), (0.0, 0.0), (0.0, 0.0)],
                             [(0.0, 0.0), (1.0, 0.0), (0.0, 0.0), (0.0, 0.0)],
                             [(0.0, 0.0), (0.0, 0.0), (0.0, 0.0), (1.0, 0.0)],
                             [(0.0, 0.0), (0.0, 0.0), (1.0, 0.0), (0.0, 0.0)]]> : tensor<4x4xcomplex<f64>>
  %r = quantum.alloc( 2) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %a1 = quantum.custom "PauliX"() %a : !quantum.bit
  %u:2 = quantum.unitary(%m : tensor<4x4xcomplex<f64>>) %a1, %b : !quantum.bit, !quantum.bit
  %o1 = quantum.compbasis qubits %u#0, %u#1 : !quantum.obs
  %p1 = quantum.probs %o1 : tensor<4xf64>
  %v:2 = quantum.unitary(%m : tensor<4x4xcomplex<f64>>) %u#1, %u#0 : !quantum.bit, !quantum.bit
  %o2 = quantum.compbasis qubits %v#1, %v#0 : !quantum.obs
  %p2 = quantum.probs %o2 : tensor<4xf64>
  return %p1, %p2 : tensor<4xf64>, tensor<4xf64>
}

// S = diag(1, i); its adjoint on |+> gives <Y> = -1.
// SADJ: {"results": [-1.0]}
func.func @s_adjoint() -> f64 {
  %m = arith.constant dense<[[(1.0, 0.0), (0.0, 0.0)], [(0.0, 0.0), (0.0, 1.0)]]> : tensor<2x2xcomplex<f64>>
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "Hadamard"() %q : !quantum.bit
  %q2 = quantum.unitary(%m : tensor<2x2xcomplex<f64>>) %q1 adj : !quantum.bit
  %y = quantum.namedobs %q2[ PauliY] : !quantum.obs
  %e = quantum.expval %y : f64
  return %e : f64
}

// The matrix comes from --args (nested or flat, complex as [re, im]): X.
// ARGS: {"results": [-1.0]}
func.func @from_args(%m: tensor<2x2xcomplex<f64>>) -> f64 {
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.unitary(%m : tensor<2x2xcomplex<f64>>) %q : !quantum.bit
  %z = quantum.namedobs %q1[ PauliZ] : !quantum.obs
  %e = quantum.expval %z : f64
  return %e : f64
}

// A controlled X matrix under a |1> control and a |0> control.
// CTRL: {"results": [-1.0, 1.0]}
func.func @controlled() -> (f64, f64) {
  %true = arith.constant true
  %m = arith.constant dense<[[(0.0, 0.0), (1.0, 0.0)], [(1.0, 0.0), (0.0, 0.0)]]> : tensor<2x2xcomplex<f64>>
  %r = quantum.alloc( 4) : !quantum.reg
  %c = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %d = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %p = quantum.extract %r[ 3] : !quantum.reg -> !quantum.bit
  %c1 = quantum.custom "PauliX"() %c : !quantum.bit
  %q1, %c2 = quantum.unitary(%m : tensor<2x2xcomplex<f64>>) %q ctrls(%c1) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit
  %p1, %d1 = quantum.unitary(%m : tensor<2x2xcomplex<f64>>) %p ctrls(%d) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit
  %z0 = quantum.namedobs %q1[ PauliZ] : !quantum.obs
  %e0 = quantum.expval %z0 : f64
  %z1 = quantum.namedobs %p1[ PauliZ] : !quantum.obs
  %e1 = quantum.expval %z1 : f64
  return %e0, %e1 : f64, f64
}
