// func.call: helpers that take and return qubits, registers and tensors;
// recursion. (launch-kernel.mlir: a QNode reached through catalyst.launch_kernel.)

// RUN: qshape-sim %s --entry main --args '[[0.5, 1.0471975511965976]]' --decimals 12 | FileCheck %s --check-prefix=MAIN
// RUN: qshape-sim %s --entry recursive --args '[5]' --decimals 12 | FileCheck %s --check-prefix=REC5
// RUN: qshape-sim %s --entry recursive --args '[4]' --decimals 12 | FileCheck %s --check-prefix=REC4

// MAIN: {"results": [0.5, [0.5, 0.0, 0.0, 0.5]]}
func.func private @rx_on(%q: !quantum.bit, %t: f64) -> !quantum.bit {
  %q1 = quantum.custom "RX"(%t) %q : !quantum.bit
  return %q1 : !quantum.bit
}
func.func private @bell(%r: !quantum.reg) -> !quantum.reg {
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %h = quantum.custom "Hadamard"() %a : !quantum.bit
  %c:2 = quantum.custom "CNOT"() %h, %b : !quantum.bit, !quantum.bit
  %r1 = quantum.insert %r[ 0], %c#0 : !quantum.reg, !quantum.bit
  %r2 = quantum.insert %r1[ 1], %c#1 : !quantum.reg, !quantum.bit
  return %r2 : !quantum.reg
}
func.func @main(%angles: tensor<2xf64>) -> (f64, tensor<4xf64>) {
  %c1 = arith.constant 1 : index
  %t = tensor.extract %angles[%c1] : tensor<2xf64>
  %r = quantum.alloc( 3) : !quantum.reg
  %q = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %q1 = func.call @rx_on(%q, %t) : (!quantum.bit, f64) -> !quantum.bit
  %z = quantum.namedobs %q1[ PauliZ] : !quantum.obs
  %e = quantum.expval %z : f64
  %r1 = call @bell(%r) : (!quantum.reg) -> !quantum.reg
  %a = quantum.extract %r1[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r1[ 1] : !quantum.reg -> !quantum.bit
  %o = quantum.compbasis qubits %a, %b : !quantum.obs
  %p = quantum.probs %o : tensor<4xf64>
  return %e, %p : f64, tensor<4xf64>
}

// Hadamard applied n times by recursion: |+> for odd n, |0> for even n.
// REC5: {"results": [1.0]}
// REC4: {"results": [0.0]}
func.func private @h_times(%q: !quantum.bit, %n: i64) -> !quantum.bit {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %done = arith.cmpi eq, %n, %c0 : i64
  %res = scf.if %done -> (!quantum.bit) {
    scf.yield %q : !quantum.bit
  } else {
    %q1 = quantum.custom "Hadamard"() %q : !quantum.bit
    %m = arith.subi %n, %c1 : i64
    %q2 = func.call @h_times(%q1, %m) : (!quantum.bit, i64) -> !quantum.bit
    scf.yield %q2 : !quantum.bit
  }
  return %res : !quantum.bit
}
func.func @recursive(%n: i64) -> f64 {
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = call @h_times(%q, %n) : (!quantum.bit, i64) -> !quantum.bit
  %x = quantum.namedobs %q1[ PauliX] : !quantum.obs
  %e = quantum.expval %x : f64
  return %e : f64
}
