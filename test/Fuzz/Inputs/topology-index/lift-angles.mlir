// Two rotations sharing an angle, a Hamiltonian with baked coefficients
// (share-topology.py substitutes the values).
module @module_circuit {
  func.func public @circuit() -> (f64, f64) attributes {qnode} {
    %c0_i64 = arith.constant 0 : i64
    quantum.device shots(%c0_i64) ["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{}"]
    %a = arith.constant 0.3 : f64
    %b = arith.constant 1.1 : f64
    %coeffs = arith.constant dense<[0.5, -0.25]> : tensor<2xf64>
    %r = quantum.alloc( 2) : !quantum.reg
    %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
    %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
    %q0a = quantum.custom "RX"(%a) %q0 : !quantum.bit
    %q1a = quantum.custom "RY"(%b) %q1 : !quantum.bit
    %q0b, %q1b = quantum.custom "CNOT"() %q0a, %q1a : !quantum.bit, !quantum.bit
    %q1c = quantum.custom "RZ"(%a) %q1b : !quantum.bit
    %z = quantum.namedobs %q0b[ PauliZ] : !quantum.obs
    %x = quantum.namedobs %q1c[ PauliX] : !quantum.obs
    %ham = quantum.hamiltonian(%coeffs : tensor<2xf64>) %z, %x : !quantum.obs
    %e = quantum.expval %ham : f64
    %ez = quantum.expval %z : f64
    quantum.dealloc %r : !quantum.reg
    quantum.device_release
    return %e, %ez : f64, f64
  }
}
