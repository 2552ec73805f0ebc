// The qubit model: allocations append wires to the device (also after gates
// have run), alloc_qb adds one wire, num_qubits counts them, dynamic sizes;
// device_release ends the device and the next one starts from |0...0>.

// RUN: qshape-sim %s --entry growth --decimals 12 | FileCheck %s --check-prefix=GROWTH
// RUN: qshape-sim %s --entry dynamic --args '[3]' --decimals 12 | FileCheck %s --check-prefix=DYN
// RUN: qshape-sim %s --entry release --decimals 12 | FileCheck %s --check-prefix=RELEASE

// X on the first register's wire, then a second register and a qubit are
// allocated: they start in |0>.
// GROWTH: {"results": {{\[}}[0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], 3, [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]}
func.func @growth() -> (tensor<8xf64>, i64, tensor<8xf64>) {
  %r = quantum.alloc( 1) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %a1 = quantum.custom "PauliX"() %a : !quantum.bit
  %m, %a2 = quantum.measure %a1 : i1, !quantum.bit
  %r2 = quantum.alloc( 1) : !quantum.reg
  %b = quantum.extract %r2[ 0] : !quantum.reg -> !quantum.bit
  %c = quantum.alloc_qb : !quantum.bit
  %n = quantum.num_qubits : i64
  %o = quantum.compbasis qubits %a2, %b, %c : !quantum.obs
  %p = quantum.probs %o : tensor<8xf64>
  %c1 = quantum.custom "PauliX"() %c : !quantum.bit
  %a3 = quantum.custom "PauliX"() %a2 : !quantum.bit
  %o2 = quantum.compbasis qubits %a3, %b, %c1 : !quantum.obs
  %p2 = quantum.probs %o2 : tensor<8xf64>
  quantum.dealloc_qb %c1 : !quantum.bit
  quantum.dealloc %r2 : !quantum.reg
  return %p, %n, %p2 : tensor<8xf64>, i64, tensor<8xf64>
}

// quantum.alloc(%n) with n from the arguments; H on every wire by a loop.
// DYN: {"results": [3, [0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125]]}
func.func @dynamic(%n: i64) -> (i64, tensor<8xf64>) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r = quantum.alloc(%n) : !quantum.reg
  %r1 = scf.for %i = %c0 to %n step %c1 iter_args(%reg = %r) -> (!quantum.reg) : i64 {
    %q = quantum.extract %reg[%i] : !quantum.reg -> !quantum.bit
    %q1 = quantum.custom "Hadamard"() %q : !quantum.bit
    %reg1 = quantum.insert %reg[%i], %q1 : !quantum.reg, !quantum.bit
    scf.yield %reg1 : !quantum.reg
  }
  %k = quantum.num_qubits : i64
  %o = quantum.compbasis qreg %r1 : !quantum.obs
  %p = quantum.probs %o : tensor<8xf64>
  return %k, %p : i64, tensor<8xf64>
}

// Two device sessions: after device_release the next alloc is wire 0 again,
// in |0>.
// RELEASE: {"results": {{\[}}[0.0, 1.0], [1.0, 0.0], 1]}
func.func @release() -> (tensor<2xf64>, tensor<2xf64>, i64) {
  %c0 = arith.constant 0 : i64
  quantum.device shots(%c0) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 1) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %a1 = quantum.custom "PauliX"() %a : !quantum.bit
  %o = quantum.compbasis qubits %a1 : !quantum.obs
  %p = quantum.probs %o : tensor<2xf64>
  quantum.dealloc %r : !quantum.reg
  quantum.device_release
  quantum.device shots(%c0) ["lib.so", "LightningSimulator", "{}"]
  %s = quantum.alloc( 1) : !quantum.reg
  %n = quantum.num_qubits : i64
  %b = quantum.extract %s[ 0] : !quantum.reg -> !quantum.bit
  %o2 = quantum.compbasis qubits %b : !quantum.obs
  %p2 = quantum.probs %o2 : tensor<2xf64>
  quantum.dealloc %s : !quantum.reg
  quantum.device_release
  return %p, %p2, %n : tensor<2xf64>, tensor<2xf64>, i64
}
