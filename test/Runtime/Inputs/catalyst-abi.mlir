// The results a Catalyst host must be able to take: a measurement (probs),
// a scalar made into a tensor, a constant and the argument returned as it
// is. The last two are not runtime allocations unless the library copies
// them (qshape-compile --abi=catalyst).
module @module_circuit {
  func.func public @circuit(%arg0: tensor<f64>) -> (tensor<4xf64>, tensor<f64>, tensor<2xf64>, tensor<f64>) attributes {qnode} {
    %c0_i64 = arith.constant 0 : i64
    %k = arith.constant dense<[1.5, -2.0]> : tensor<2xf64>
    %x = tensor.extract %arg0[] : tensor<f64>
    quantum.device shots(%c0_i64) ["liblightning_qubit_catalyst.so", "LightningSimulator", "{}"]
    %0 = quantum.alloc( 2) : !quantum.reg
    %1 = quantum.extract %0[ 0] : !quantum.reg -> !quantum.bit
    %2 = quantum.extract %0[ 1] : !quantum.reg -> !quantum.bit
    %3 = quantum.custom "RX"(%x) %1 : !quantum.bit
    %4:2 = quantum.custom "CNOT"() %3, %2 : !quantum.bit, !quantum.bit
    %5 = quantum.compbasis qubits %4#0, %4#1 : !quantum.obs
    %6 = quantum.probs %5 : tensor<4xf64>
    %7 = quantum.namedobs %4#1[ PauliZ] : !quantum.obs
    %8 = quantum.expval %7 : f64
    %9 = tensor.from_elements %8 : tensor<f64>
    %10 = quantum.insert %0[ 0], %4#0 : !quantum.reg, !quantum.bit
    %11 = quantum.insert %10[ 1], %4#1 : !quantum.reg, !quantum.bit
    quantum.dealloc %11 : !quantum.reg
    quantum.device_release
    return %6, %9, %k, %arg0 : tensor<4xf64>, tensor<f64>, tensor<2xf64>, tensor<f64>
  }
}
