// scf.for with dynamic quantum.extract/insert (Catalyst's autograph form),
// i64 and index induction variables, steps and loop-carried floats.

// RUN: qshape-sim %s --entry ladder --args '[1.0471975511965976]' --decimals 12 | FileCheck %s --check-prefix=LADDER
// RUN: qshape-sim %s --entry stepped --decimals 12 | FileCheck %s --check-prefix=STEP
// RUN: qshape-sim %s --entry empty --decimals 12 | FileCheck %s --check-prefix=EMPTY

// Wire i gets RX(i * t) through a loop over a register: <Z(i)> = cos(i t),
// t = pi/3; the loop also accumulates the angles: 0 + t + 2t + 3t = 6t = 2pi.
// LADDER: {"results": {{\[}}[1.0, 0.5, -0.5, -1.0], 6.28318530718]}
func.func @ladder(%t: f64) -> (tensor<4xf64>, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  %r = quantum.alloc( 4) : !quantum.reg
  %r1, %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%reg = %r, %acc = %zero) -> (!quantum.reg, f64) {
    %i64 = arith.index_cast %i : index to i64
    %fi = arith.sitofp %i64 : i64 to f64
    %angle = arith.mulf %fi, %t : f64
    %q = quantum.extract %reg[%i64] : !quantum.reg -> !quantum.bit
    %q1 = quantum.custom "RX"(%angle) %q : !quantum.bit
    %reg1 = quantum.insert %reg[%i64], %q1 : !quantum.reg, !quantum.bit
    %acc1 = arith.addf %acc, %angle : f64
    scf.yield %reg1, %acc1 : !quantum.reg, f64
  }
  %e = tensor.empty() : tensor<4xf64>
  %out = scf.for %i = %c0 to %c4 step %c1 iter_args(%t0 = %e) -> (tensor<4xf64>) {
    %i64 = arith.index_cast %i : index to i64
    %q = quantum.extract %r1[%i64] : !quantum.reg -> !quantum.bit
    %z = quantum.namedobs %q[ PauliZ] : !quantum.obs
    %v = quantum.expval %z : f64
    %t1 = tensor.insert %v into %t0[%i] : tensor<4xf64>
    scf.yield %t1 : tensor<4xf64>
  }
  return %out, %sum : tensor<4xf64>, f64
}

// An i64 loop from 1 to 6 step 2 flips wires 1, 3 and 5 of six.
// STEP: {"results": {{\[}}[0.0, 1.0, 0.0, 1.0, 0.0, 1.0]]}
func.func @stepped() -> tensor<6xf64> {
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c6 = arith.constant 6 : i64
  %r = quantum.alloc( 6) : !quantum.reg
  %r1 = scf.for %i = %c1 to %c6 step %c2 iter_args(%reg = %r) -> (!quantum.reg) : i64 {
    %q = quantum.extract %reg[%i] : !quantum.reg -> !quantum.bit
    %q1 = quantum.custom "PauliX"() %q : !quantum.bit
    %reg1 = quantum.insert %reg[%i], %q1 : !quantum.reg, !quantum.bit
    scf.yield %reg1 : !quantum.reg
  }
  %p = scf.for %i = %c1 to %c1 step %c1 iter_args(%x = %r1) -> (!quantum.reg) : i64 {
    scf.yield %x : !quantum.reg
  }
  %ones = arith.constant dense<0.0> : tensor<6xf64>
  %c0 = arith.constant 0 : index
  %ci1 = arith.constant 1 : index
  %c6i = arith.constant 6 : index
  %res = scf.for %i = %c0 to %c6i step %ci1 iter_args(%acc = %ones) -> (tensor<6xf64>) {
    %i64 = arith.index_cast %i : index to i64
    %q = quantum.extract %p[%i64] : !quantum.reg -> !quantum.bit
    %o = quantum.compbasis qubits %q : !quantum.obs
    %pr = quantum.probs %o : tensor<2xf64>
    %one = tensor.extract %pr[%ci1] : tensor<2xf64>
    %acc1 = tensor.insert %one into %acc[%i] : tensor<6xf64>
    scf.yield %acc1 : tensor<6xf64>
  }
  return %res : tensor<6xf64>
}

// A loop with no iterations yields its initial values.
// EMPTY: {"results": [3.5]}
func.func @empty() -> f64 {
  %c5 = arith.constant 5 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 3.5 : f64
  %r = scf.for %i = %c5 to %c1 step %c1 iter_args(%a = %x) -> (f64) {
    %y = arith.addf %a, %a : f64
    scf.yield %y : f64
  }
  return %r : f64
}
