module @module_circuit {
  func.func public @circuit(%arg0: tensor<f64>) -> tensor<f64> attributes {diff_method = "adjoint", llvm.linkage = #llvm.linkage<internal>, qnode} {
    %c0_i64 = arith.constant 0 : i64
    quantum.device shots(%c0_i64) ["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{'mcmc': False}"]
    %0 = quantum.alloc( 2) : !quantum.reg
    %1 = quantum.extract %0[ 0] : !quantum.reg -> !quantum.bit
    %extracted = tensor.extract %arg0[] : tensor<f64>
    %out_qubits = quantum.custom "RX"(%extracted) %1 : !quantum.bit
    %out_qubits_0 = quantum.custom "S"() %out_qubits adj : !quantum.bit
    %out_qubits_1 = quantum.custom "S"() %out_qubits_0 adj : !quantum.bit
    %out_qubits_2 = quantum.custom "S"() %out_qubits_1 adj : !quantum.bit
    %out_qubits_3 = quantum.custom "S"() %out_qubits_2 adj : !quantum.bit
    %2 = quantum.extract %0[ 1] : !quantum.reg -> !quantum.bit
    %true = arith.constant true
    %out_qubits_4, %out_ctrl_qubits = quantum.custom "RY"(%extracted) %2 ctrls(%out_qubits_3) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit
    %out_qubits_5:2 = quantum.paulirot ["Z", "X"](%extracted) %out_qubits_4, %out_ctrl_qubits : !quantum.bit, !quantum.bit
    %3 = quantum.insert %0[ 0], %out_qubits_5#0 : !quantum.reg, !quantum.bit
    %4 = quantum.namedobs %out_qubits_5#1[ PauliZ] : !quantum.obs
    %5 = quantum.expval %4 : f64
    %from_elements = tensor.from_elements %5 : tensor<f64>
    quantum.dealloc %3 : !quantum.reg
    quantum.device_release
    "fuzz.barrier"() : () -> ()
    return %from_elements : tensor<f64>
  }
}
