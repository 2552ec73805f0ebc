// A Bell pair measured with 1000 shots (the device's shots operand): basis
// state counts and the shot estimate of <Z0 Z1>
// (exactly 1: the two qubits always agree). Seeded: --seed N changes the
// counts, never the correlation.
//
//   qshape-sim examples/bell-shots.mlir --args @examples/bell-shots.json --seed 42
module @bell {
  func.func public @circuit() -> (tensor<4xf64>, tensor<4xi64>, f64) attributes {qnode} {
    %shots = arith.constant 1000 : i64
    quantum.device shots(%shots) ["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{'mcmc': False}"]
    %r = quantum.alloc( 2) : !quantum.reg
    %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
    %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
    %h = quantum.custom "Hadamard"() %a : !quantum.bit
    %c:2 = quantum.custom "CNOT"() %h, %b : !quantum.bit, !quantum.bit
    %o = quantum.compbasis qubits %c#0, %c#1 : !quantum.obs
    %eig, %counts = quantum.counts %o : tensor<4xf64>, tensor<4xi64>
    %z0 = quantum.namedobs %c#0[ PauliZ] : !quantum.obs
    %z1 = quantum.namedobs %c#1[ PauliZ] : !quantum.obs
    %zz = quantum.tensor %z0, %z1 : !quantum.obs
    %e = quantum.expval %zz : f64
    %r1 = quantum.insert %r[ 0], %c#0 : !quantum.reg, !quantum.bit
    %r2 = quantum.insert %r1[ 1], %c#1 : !quantum.reg, !quantum.bit
    quantum.dealloc %r2 : !quantum.reg
    quantum.device_release
    return %eig, %counts, %e : tensor<4xf64>, tensor<4xi64>, f64
  }
}
