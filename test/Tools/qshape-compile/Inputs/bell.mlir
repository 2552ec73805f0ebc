// A Bell pair with a runtime rotation (of cos(theta): a libm call): the
// smallest QNode the tests compile.
module @module_circuit {
  func.func public @circuit(%arg0: tensor<f64>) -> (tensor<4xf64>, tensor<f64>) attributes {diff_method = "adjoint", llvm.linkage = #llvm.linkage<internal>, qnode} {
    %c0_i64 = arith.constant 0 : i64
    %x = tensor.extract %arg0[] : tensor<f64>
    %theta = math.cos %x : f64
    quantum.device shots(%c0_i64) ["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{'mcmc': False}"]
    %0 = quantum.alloc( 2) : !quantum.reg
    %1 = quantum.extract %0[ 0] : !quantum.reg -> !quantum.bit
    %2 = quantum.extract %0[ 1] : !quantum.reg -> !quantum.bit
    %3 = quantum.custom "Hadamard"() %1 : !quantum.bit
    %4:2 = quantum.custom "CNOT"() %3, %2 : !quantum.bit, !quantum.bit
    %5 = quantum.custom "RY"(%theta) %4#1 : !quantum.bit
    %6 = quantum.compbasis qubits %4#0, %5 : !quantum.obs
    %7 = quantum.probs %6 : tensor<4xf64>
    %8 = quantum.namedobs %5[ PauliZ] : !quantum.obs
    %9 = quantum.expval %8 : f64
    %10 = tensor.from_elements %9 : tensor<f64>
    %11 = quantum.insert %0[ 0], %4#0 : !quantum.reg, !quantum.bit
    %12 = quantum.insert %11[ 1], %5 : !quantum.reg, !quantum.bit
    quantum.dealloc %12 : !quantum.reg
    quantum.device_release
    return %7, %10 : tensor<4xf64>, tensor<f64>
  }
}
