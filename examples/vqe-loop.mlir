// A hardware-efficient VQE ansatz in the form Catalyst emits with autograph:
// scf.for loops over the wires with dynamic quantum.extract/insert, RY
// rotations from a parameter tensor, a CNOT ladder, and the expectation of a
// Hamiltonian 0.5 Z0 Z1 - 0.25 X2 + 0.75 Z3 built from quantum.hamiltonian.
//
//   qshape-sim examples/vqe-loop.mlir --args @examples/vqe-loop.json
module @vqe {
  func.func public @circuit(%params: tensor<4xf64>) -> tensor<f64> attributes {diff_method = "adjoint", qnode} {
    %c0_i64 = arith.constant 0 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %coeffs = arith.constant dense<[0.5, -0.25, 0.75]> : tensor<3xf64>
    quantum.device shots(%c0_i64) ["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{'mcmc': False}"]
    %r = quantum.alloc( 4) : !quantum.reg
    // RY(params[i]) on every wire.
    %r1 = scf.for %i = %c0 to %c4 step %c1 iter_args(%reg = %r) -> (!quantum.reg) {
      %i64 = arith.index_cast %i : index to i64
      %q = quantum.extract %reg[%i64] : !quantum.reg -> !quantum.bit
      %theta = tensor.extract %params[%i] : tensor<4xf64>
      %q1 = quantum.custom "RY"(%theta) %q : !quantum.bit
      %reg1 = quantum.insert %reg[%i64], %q1 : !quantum.reg, !quantum.bit
      scf.yield %reg1 : !quantum.reg
    }
    // CNOT(i, i + 1) for i = 0, 1, 2.
    %r2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%reg = %r1) -> (!quantum.reg) {
      %i64 = arith.index_cast %i : index to i64
      %j = arith.addi %i, %c1 : index
      %j64 = arith.index_cast %j : index to i64
      %a = quantum.extract %reg[%i64] : !quantum.reg -> !quantum.bit
      %b = quantum.extract %reg[%j64] : !quantum.reg -> !quantum.bit
      %ab:2 = quantum.custom "CNOT"() %a, %b : !quantum.bit, !quantum.bit
      %reg1 = quantum.insert %reg[%i64], %ab#0 : !quantum.reg, !quantum.bit
      %reg2 = quantum.insert %reg1[%j64], %ab#1 : !quantum.reg, !quantum.bit
      scf.yield %reg2 : !quantum.reg
    }
    %q0 = quantum.extract %r2[ 0] : !quantum.reg -> !quantum.bit
    %q1 = quantum.extract %r2[ 1] : !quantum.reg -> !quantum.bit
    %q2 = quantum.extract %r2[ 2] : !quantum.reg -> !quantum.bit
    %q3 = quantum.extract %r2[ 3] : !quantum.reg -> !quantum.bit
    %z0 = quantum.namedobs %q0[ PauliZ] : !quantum.obs
    %z1 = quantum.namedobs %q1[ PauliZ] : !quantum.obs
    %zz = quantum.tensor %z0, %z1 : !quantum.obs
    %x2 = quantum.namedobs %q2[ PauliX] : !quantum.obs
    %z3 = quantum.namedobs %q3[ PauliZ] : !quantum.obs
    %h = quantum.hamiltonian(%coeffs : tensor<3xf64>) %zz, %x2, %z3 : !quantum.obs
    %e = quantum.expval %h : f64
    %res = tensor.from_elements %e : tensor<f64>
    %r3 = quantum.insert %r2[ 0], %q0 : !quantum.reg, !quantum.bit
    quantum.dealloc %r3 : !quantum.reg
    quantum.device_release
    return %res : tensor<f64>
  }
}
