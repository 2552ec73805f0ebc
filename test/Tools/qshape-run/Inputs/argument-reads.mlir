// Argument reads for the native differential suite (differential.py
// features): the shapes qshape-lower-argument-reads rewrites (tensor.extract
// of an argument, unrolled and in a loop, next to a quantum op reading the
// same argument) and the ones it must leave to one-shot bufferization (an
// argument written by tensor.insert and read again; a private function's
// argument, which the caller writes after the call).

// CASE: layers --args [[[[0.1,0.2,0.3],[0.4,0.5,0.6]],[[0.7,0.8,0.9],[1.0,1.1,1.2]]],[0.3,-0.4,0.5]]
// CASE: layers --args [[[[1.5,-0.2,2.3],[0.4,-1.5,0.6]],[[-0.7,0.8,0.1],[2.0,0.1,-1.2]]],[1.3,0.4,-0.5]]
func.func public @layers(%w: tensor<2x2x3xf64>, %v: tensor<3xf64>) -> (tensor<f64>, tensor<f64>) attributes {qnode} {
  %c0_i64 = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  quantum.device shots(%c0_i64) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 2) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %x0 = tensor.extract %w[%c0, %c0, %c0] : tensor<2x2x3xf64>
  %x1 = tensor.extract %w[%c0, %c0, %c1] : tensor<2x2x3xf64>
  %x2 = tensor.extract %w[%c0, %c0, %c2] : tensor<2x2x3xf64>
  %a1 = quantum.custom "Rot"(%x0, %x1, %x2) %a : !quantum.bit
  %x3 = tensor.extract %w[%c0, %c1, %c0] : tensor<2x2x3xf64>
  %x4 = tensor.extract %w[%c0, %c1, %c1] : tensor<2x2x3xf64>
  %x5 = tensor.extract %w[%c0, %c1, %c2] : tensor<2x2x3xf64>
  %b1 = quantum.custom "Rot"(%x3, %x4, %x5) %b : !quantum.bit
  %a2, %b2 = quantum.custom "CNOT"() %a1, %b1 : !quantum.bit, !quantum.bit
  %x6 = tensor.extract %w[%c1, %c0, %c0] : tensor<2x2x3xf64>
  %x7 = tensor.extract %w[%c1, %c0, %c1] : tensor<2x2x3xf64>
  %x8 = tensor.extract %w[%c1, %c0, %c2] : tensor<2x2x3xf64>
  %a3 = quantum.custom "Rot"(%x6, %x7, %x8) %a2 : !quantum.bit
  %x9 = tensor.extract %w[%c1, %c1, %c0] : tensor<2x2x3xf64>
  %x10 = tensor.extract %w[%c1, %c1, %c1] : tensor<2x2x3xf64>
  %x11 = tensor.extract %w[%c1, %c1, %c2] : tensor<2x2x3xf64>
  %b3 = quantum.custom "Rot"(%x9, %x10, %x11) %b2 : !quantum.bit
  %b4, %a4 = quantum.custom "CNOT"() %b3, %a3 : !quantum.bit, !quantum.bit
  // Dynamic indices: the loads stay in the loop.
  %a5 = scf.for %i = %c0 to %c3 step %c1 iter_args(%q = %a4) -> (!quantum.bit) {
    %t = tensor.extract %v[%i] : tensor<3xf64>
    %q1 = quantum.custom "RY"(%t) %q : !quantum.bit
    scf.yield %q1 : !quantum.bit
  }
  %za = quantum.namedobs %a5[ PauliZ] : !quantum.obs
  %ea = quantum.expval %za : f64
  %zb = quantum.namedobs %b4[ PauliZ] : !quantum.obs
  %eb = quantum.expval %zb : f64
  %ta = tensor.from_elements %ea : tensor<f64>
  %tb = tensor.from_elements %eb : tensor<f64>
  %r1 = quantum.insert %r[ 0], %a5 : !quantum.reg, !quantum.bit
  %r2 = quantum.insert %r1[ 1], %b4 : !quantum.reg, !quantum.bit
  quantum.dealloc %r2 : !quantum.reg
  quantum.device_release
  return %ta, %tb : tensor<f64>, tensor<f64>
}

// The matrix argument is read by a quantum op and by tensor.extract.
// CASE: shared --args [[[[1,0],[0.5,0]],[[0.5,0],[-1,0]]]]
// CASE: shared --args [[[[0.2,0],[0,-1]],[[0,1],[0.7,0]]]]
func.func public @shared(%h: tensor<2x2xcomplex<f64>>) -> tensor<f64> attributes {qnode} {
  %c0_i64 = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  quantum.device shots(%c0_i64) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 1) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %m = tensor.extract %h[%c1, %c1] : tensor<2x2xcomplex<f64>>
  %re = complex.re %m : complex<f64>
  %a1 = quantum.custom "RX"(%re) %a : !quantum.bit
  %obs = quantum.hermitian(%h : tensor<2x2xcomplex<f64>>) %a1 : !quantum.obs
  %e = quantum.expval %obs : f64
  %te = tensor.from_elements %e : tensor<f64>
  %r1 = quantum.insert %r[ 0], %a1 : !quantum.reg, !quantum.bit
  quantum.dealloc %r1 : !quantum.reg
  quantum.device_release
  return %te : tensor<f64>
}

// An argument written and then read again, and a private function whose
// argument the caller changes after the call: the reads must see the
// values of their time.
// CASE: written --args [[0.4,1.3],0.9]
// CASE: written --args [[-1.1,0.2],2.5]
func.func public @written(%w: tensor<2xf64>, %s: tensor<f64>) -> (tensor<f64>, tensor<f64>) attributes {qnode} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = tensor.extract %s[] : tensor<f64>
  %before = tensor.extract %w[%c0] : tensor<2xf64>
  %w1 = tensor.insert %x into %w[%c0] : tensor<2xf64>
  %after = tensor.extract %w[%c0] : tensor<2xf64>
  %e1 = func.call @angles(%w1, %before) : (tensor<2xf64>, f64) -> f64
  %w2 = tensor.insert %after into %w1[%c1] : tensor<2xf64>
  %e2 = func.call @angles(%w2, %x) : (tensor<2xf64>, f64) -> f64
  %t1 = tensor.from_elements %e1 : tensor<f64>
  %t2 = tensor.from_elements %e2 : tensor<f64>
  return %t1, %t2 : tensor<f64>, tensor<f64>
}

func.func private @angles(%w: tensor<2xf64>, %y: f64) -> f64 {
  %c0_i64 = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  quantum.device shots(%c0_i64) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 1) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %t0 = tensor.extract %w[%c0] : tensor<2xf64>
  %t1 = tensor.extract %w[%c1] : tensor<2xf64>
  %a1 = quantum.custom "RX"(%t0) %a : !quantum.bit
  %a2 = quantum.custom "RY"(%t1) %a1 : !quantum.bit
  %a3 = quantum.custom "RZ"(%y) %a2 : !quantum.bit
  %a4 = quantum.custom "Hadamard"() %a3 : !quantum.bit
  %z = quantum.namedobs %a4[ PauliZ] : !quantum.obs
  %e = quantum.expval %z : f64
  %r1 = quantum.insert %r[ 0], %a4 : !quantum.reg, !quantum.bit
  quantum.dealloc %r1 : !quantum.reg
  quantum.device_release
  return %e : f64
}
