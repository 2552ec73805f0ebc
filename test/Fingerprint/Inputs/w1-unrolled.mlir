// qshape workload w1: wires=3 layers=1 op=PauliX form=unrolled outer_loop=always
module @module_circuit {
  func.func public @circuit(%arg0: tensor<3xf64>, %arg1: tensor<3xf64>) -> tensor<f64> attributes {diff_method = "adjoint", llvm.linkage = #llvm.linkage<internal>, qnode} {
    %c0_i64 = arith.constant 0 : i64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    quantum.device shots(%c0_i64) ["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{'mcmc': False}"]
    %0 = quantum.alloc( 5) : !quantum.reg
    %1 = quantum.extract %0[ 0] : !quantum.reg -> !quantum.bit
    %2 = quantum.custom "PauliX"() %1 : !quantum.bit
    %extracted = tensor.extract %arg0[%c0] : tensor<3xf64>
    %extracted_0 = tensor.extract %arg0[%c1] : tensor<3xf64>
    %extracted_1 = tensor.extract %arg0[%c2] : tensor<3xf64>
    %3 = quantum.custom "Rot"(%extracted, %extracted_0, %extracted_1) %2 : !quantum.bit
    %extracted_2 = tensor.extract %arg1[%c0] : tensor<3xf64>
    %extracted_3 = tensor.extract %arg1[%c1] : tensor<3xf64>
    %extracted_4 = tensor.extract %arg1[%c2] : tensor<3xf64>
    %4 = quantum.custom "Rot"(%extracted_2, %extracted_3, %extracted_4) %3 : !quantum.bit
    %5 = quantum.custom "Hadamard"() %4 : !quantum.bit
    %6 = quantum.insert %0[ 0], %5 : !quantum.reg, !quantum.bit
    %7 = quantum.extract %6[ 1] : !quantum.reg -> !quantum.bit
    %8 = quantum.custom "PauliX"() %7 : !quantum.bit
    %extracted_5 = tensor.extract %arg0[%c0] : tensor<3xf64>
    %extracted_6 = tensor.extract %arg0[%c1] : tensor<3xf64>
    %extracted_7 = tensor.extract %arg0[%c2] : tensor<3xf64>
    %9 = quantum.custom "Rot"(%extracted_5, %extracted_6, %extracted_7) %8 : !quantum.bit
    %extracted_8 = tensor.extract %arg1[%c0] : tensor<3xf64>
    %extracted_9 = tensor.extract %arg1[%c1] : tensor<3xf64>
    %extracted_10 = tensor.extract %arg1[%c2] : tensor<3xf64>
    %10 = quantum.custom "Rot"(%extracted_8, %extracted_9, %extracted_10) %9 : !quantum.bit
    %11 = quantum.custom "Hadamard"() %10 : !quantum.bit
    %12 = quantum.insert %6[ 1], %11 : !quantum.reg, !quantum.bit
    %13 = quantum.extract %12[ 2] : !quantum.reg -> !quantum.bit
    %14 = quantum.custom "PauliX"() %13 : !quantum.bit
    %extracted_11 = tensor.extract %arg0[%c0] : tensor<3xf64>
    %extracted_12 = tensor.extract %arg0[%c1] : tensor<3xf64>
    %extracted_13 = tensor.extract %arg0[%c2] : tensor<3xf64>
    %15 = quantum.custom "Rot"(%extracted_11, %extracted_12, %extracted_13) %14 : !quantum.bit
    %extracted_14 = tensor.extract %arg1[%c0] : tensor<3xf64>
    %extracted_15 = tensor.extract %arg1[%c1] : tensor<3xf64>
    %extracted_16 = tensor.extract %arg1[%c2] : tensor<3xf64>
    %16 = quantum.custom "Rot"(%extracted_14, %extracted_15, %extracted_16) %15 : !quantum.bit
    %17 = quantum.custom "Hadamard"() %16 : !quantum.bit
    %18 = quantum.insert %12[ 2], %17 : !quantum.reg, !quantum.bit
    %19 = quantum.extract %18[ 0] : !quantum.reg -> !quantum.bit
    %20 = quantum.namedobs %19[ PauliZ] : !quantum.obs
    %21 = quantum.expval %20 : f64
    %from_elements = tensor.from_elements %21 : tensor<f64>
    %22 = quantum.insert %18[ 0], %19 : !quantum.reg, !quantum.bit
    quantum.dealloc %22 : !quantum.reg
    quantum.device_release
    return %from_elements : tensor<f64>
  }
}
