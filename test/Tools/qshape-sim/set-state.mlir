// quantum.set_state / quantum.set_basis_state. As in Catalyst's runtime,
// they overwrite the whole device: the given wires take the given state,
// every other wire is |0>.

// RUN: qshape-sim %s --entry set_state --decimals 12 | FileCheck %s --check-prefix=STATE
// RUN: qshape-sim %s --entry set_basis_state --decimals 12 | FileCheck %s --check-prefix=BASIS

// STATE: {"results": {{\[}}{{\[}}[0.0, 0.0], [0.707106781187, 0.0], [0.0, 0.707106781187], [0.0, 0.0]], [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]]}
func.func @set_state() -> (tensor<4xcomplex<f64>>, tensor<8xf64>) {
  %v = arith.constant dense<[(0.0, 0.0), (0.7071067811865476, 0.0), (0.0, 0.7071067811865476), (0.0, 0.0)]> : tensor<4xcomplex<f64>>
  %r = quantum.alloc( 2) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %s:2 = quantum.set_state(%v) %a, %b : (tensor<4xcomplex<f64>>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  %o = quantum.compbasis qubits %s#0, %s#1 : !quantum.obs
  %st = quantum.state %o : tensor<4xcomplex<f64>>
  // |01> on (c, x) of a 3-wire register: c = 0, x = 1 (wire 0); the X on
  // wire 1 is overwritten.
  %e = arith.constant dense<[(0.0, 0.0), (1.0, 0.0), (0.0, 0.0), (0.0, 0.0)]> : tensor<4xcomplex<f64>>
  %r2 = quantum.alloc( 3) : !quantum.reg
  %x = quantum.extract %r2[ 0] : !quantum.reg -> !quantum.bit
  %y = quantum.extract %r2[ 1] : !quantum.reg -> !quantum.bit
  %c = quantum.extract %r2[ 2] : !quantum.reg -> !quantum.bit
  %y1 = quantum.custom "PauliX"() %y : !quantum.bit
  %t:2 = quantum.set_state(%e) %c, %x : (tensor<4xcomplex<f64>>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  %o2 = quantum.compbasis qubits %t#1, %y1, %t#0 : !quantum.obs
  %p = quantum.probs %o2 : tensor<8xf64>
  return %st, %p : tensor<4xcomplex<f64>>, tensor<8xf64>
}

// BASIS: {"results": {{\[}}[0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]]}
func.func @set_basis_state() -> (tensor<4xf64>, tensor<8xf64>) {
  %bits = arith.constant dense<[true, false]> : tensor<2xi1>
  %r = quantum.alloc( 3) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %c = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %s:2 = quantum.set_basis_state(%bits) %a, %b : (tensor<2xi1>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  %o = quantum.compbasis qubits %s#0, %s#1 : !quantum.obs
  %p = quantum.probs %o : tensor<4xf64>
  // bits (1, 1) on (c, a): |101>; b is reset to |0>.
  %ones = arith.constant dense<true> : tensor<2xi1>
  %t:2 = quantum.set_basis_state(%ones) %c, %s#0 : (tensor<2xi1>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  %o2 = quantum.compbasis qubits %t#1, %s#1, %t#0 : !quantum.obs
  %p2 = quantum.probs %o2 : tensor<8xf64>
  return %p, %p2 : tensor<4xf64>, tensor<8xf64>
}
