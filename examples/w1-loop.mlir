// qshape workload w1: wires=10 layers=1 op=PauliX form=loop outer_loop=always
module @module_circuit {
  func.func public @circuit(%arg0: tensor<3xf64>, %arg1: tensor<3xf64>) -> tensor<f64> attributes {diff_method = "adjoint", llvm.linkage = #llvm.linkage<internal>, qnode} {
    %c0_i64 = arith.constant 0 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %c2 = arith.constant 2 : index
    quantum.device shots(%c0_i64) ["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{'mcmc': False}"]
    %0 = quantum.alloc( 12) : !quantum.reg
    %1 = scf.for %arg2 = %c0 to %c1 step %c1 iter_args(%arg3 = %0) -> (!quantum.reg) {
      %2 = scf.for %arg4 = %c0 to %c10 step %c1 iter_args(%arg5 = %arg3) -> (!quantum.reg) {
        %3 = arith.index_cast %arg4 : index to i64
        %4 = quantum.extract %arg5[%3] : !quantum.reg -> !quantum.bit
        %5 = quantum.custom "PauliX"() %4 : !quantum.bit
        %extracted = tensor.extract %arg0[%c0] : tensor<3xf64>
        %extracted_0 = tensor.extract %arg0[%c1] : tensor<3xf64>
        %extracted_1 = tensor.extract %arg0[%c2] : tensor<3xf64>
        %6 = quantum.custom "Rot"(%extracted, %extracted_0, %extracted_1) %5 : !quantum.bit
        %extracted_2 = tensor.extract %arg1[%c0] : tensor<3xf64>
        %extracted_3 = tensor.extract %arg1[%c1] : tensor<3xf64>
        %extracted_4 = tensor.extract %arg1[%c2] : tensor<3xf64>
        %7 = quantum.custom "Rot"(%extracted_2, %extracted_3, %extracted_4) %6 : !quantum.bit
        %8 = quantum.custom "Hadamard"() %7 : !quantum.bit
        %9 = quantum.insert %arg5[%3], %8 : !quantum.reg, !quantum.bit
        scf.yield %9 : !quantum.reg
      }
      scf.yield %2 : !quantum.reg
    }
    %10 = quantum.extract %1[ 0] : !quantum.reg -> !quantum.bit
    %11 = quantum.namedobs %10[ PauliZ] : !quantum.obs
    %12 = quantum.expval %11 : f64
    %from_elements = tensor.from_elements %12 : tensor<f64>
    %13 = quantum.insert %1[ 0], %10 : !quantum.reg, !quantum.bit
    quantum.dealloc %13 : !quantum.reg
    quantum.device_release
    return %from_elements : tensor<f64>
  }
}
