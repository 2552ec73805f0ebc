module @module_circuit {
  func.func public @circuit(%arg0: tensor<f64>) -> tensor<f64> attributes {diff_method = "adjoint", llvm.linkage = #llvm.linkage<internal>, qnode} {
    %c0_i64 = arith.constant 0 : i64
    quantum.device shots(%c0_i64) ["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{'mcmc': False}"]
    %r = quantum.alloc( 2) : !quantum.reg
    %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
    %x = tensor.extract %arg0[] : tensor<f64>
    %q1 = quantum.custom "RX"(%x) %q0 : !quantum.bit
    %q2 = quantum.custom "S"() %q1 adj : !quantum.bit
    %qb = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
    %true = arith.constant true
    %o3, %c3 = quantum.custom "RY"(%x) %q2 ctrls(%qb) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit
    %p:2 = quantum.paulirot ["Z", "X"](%x) %o3, %c3 : !quantum.bit, !quantum.bit
    %r1 = quantum.insert %r[ 0], %p#0 : !quantum.reg, !quantum.bit
    %o = quantum.namedobs %p#1[ PauliZ] : !quantum.obs
    %e = quantum.expval %o : f64
    %t = tensor.from_elements %e : tensor<f64>
    quantum.dealloc %r1 : !quantum.reg
    quantum.device_release
    return %t : tensor<f64>
  }
}
