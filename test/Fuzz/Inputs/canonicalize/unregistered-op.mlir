module @module_circuit {
  func.func public @circuit(%arg0: tensor<f64>) -> tensor<f64> attributes {diff_method = "adjoint", llvm.linkage = #llvm.linkage<internal>, qnode} {
    %c0_i64 = arith.constant 0 : i64
    quantum.device shots(%c0_i64) ["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{'mcmc': False}"]
    %0 = quantum.alloc( 2) : !quantum.reg
    %1 = quantum.extract %0[ 0] : !quantum.reg -> !quantum.bit
    %extracted = tensor.extract %arg0[] : tensor<f64>
    %out_qubits = quantum.custom "RX"(%extracted) %1 : !quantum.bit
    %2 = "fuzz.opaque"(%out_qubits) {note = "unregistered, unknown effects"} : (!quantum.bit) -> !quantum.bit
    %out_qubits_0 = quantum.custom "S"() %2 adj : !quantum.bit
    %3 = quantum.extract %0[ 1] : !quantum.reg -> !quantum.bit
    %true = arith.constant true
    %out_qubits_1, %out_ctrl_qubits = quantum.custom "RY"(%extracted) %out_qubits_0 ctrls(%3) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit
    %out_qubits_2:2 = quantum.paulirot ["Z", "X"](%extracted) %out_qubits_1, %out_ctrl_qubits : !quantum.bit, !quantum.bit
    %4 = quantum.insert %0[ 0], %out_qubits_2#0 : !quantum.reg, !quantum.bit
    %5 = quantum.namedobs %out_qubits_2#1[ PauliZ] : !quantum.obs
    %6 = quantum.expval %5 : f64
    %from_elements = tensor.from_elements %6 : tensor<f64>
    quantum.dealloc %4 : !quantum.reg
    quantum.device_release
    return %from_elements : tensor<f64>
  }
}
