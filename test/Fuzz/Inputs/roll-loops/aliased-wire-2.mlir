module @module_circuit {
  func.func public @circuit(%arg0: tensor<4xf64>) -> (tensor<f64>, tensor<4xf64>) attributes {diff_method = "adjoint", llvm.linkage = #llvm.linkage<internal>, qnode} {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant -2.6272824524387857 : f64
    %cst_0 = arith.constant -1.2550718034502983 : f64
    %cst_1 = arith.constant -0.030684817887966176 : f64
    %cst_2 = arith.constant -0.98347124506997118 : f64
    %cst_3 = arith.constant -0.32148426293403798 : f64
    %cst_4 = arith.constant 0.68460970749423211 : f64
    %cst_5 = arith.constant -2.6816580386944064 : f64
    %cst_6 = arith.constant 0.074976186197742933 : f64
    %cst_7 = arith.constant -2.1051051877350577 : f64
    %cst_8 = arith.constant -0.99239263809070576 : f64
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %cst_9 = arith.constant -2.8382001061215565 : f64
    %true = arith.constant true
    %cst_10 = arith.constant 3.0565628157731943 : f64
    %cst_11 = arith.constant 1.5707963267948966 : f64
    %cst_12 = arith.constant 1.1070977691705384 : f64
    %false = arith.constant false
    %cst_13 = arith.constant 0.000000e+00 : f64
    %c1 = arith.constant 1 : index
    %cst_14 = arith.constant 2.0186259110143121 : f64
    %cst_15 = arith.constant -0.98013354152084497 : f64
    %cst_16 = arith.constant -2.0734281550876252 : f64
    %cst_17 = arith.constant 3.0178512468174112 : f64
    %cst_18 = arith.constant -0.93991732167641872 : f64
    %cst_19 = arith.constant -1.8155745404967305 : f64
    %cst_20 = arith.constant 0.0073005576432363384 : f64
    quantum.device shots(%c0_i64) ["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{'mcmc': False}"]
    %0 = quantum.alloc( 5) : !quantum.reg
    %1 = quantum.extract %0[ 1] : !quantum.reg -> !quantum.bit
    %2 = "fuzz.opaque"(%1) {note = "unregistered, unknown effects"} : (!quantum.bit) -> !quantum.bit
    %out_qubits = quantum.custom "RY"(%cst) %2 : !quantum.bit
    %out_qubits_21 = quantum.custom "RZ"(%cst_0) %out_qubits : !quantum.bit
    %3 = quantum.extract %0[ 1] : !quantum.reg -> !quantum.bit
    %out_qubits_22 = quantum.custom "RY"(%cst_1) %3 : !quantum.bit
    "fuzz.barrier"() : () -> ()
    %out_qubits_23 = quantum.custom "RZ"(%cst_2) %out_qubits_22 : !quantum.bit
    %4 = quantum.extract %0[ 2] : !quantum.reg -> !quantum.bit
    %out_qubits_24 = quantum.custom "RY"(%cst_3) %4 : !quantum.bit
    %out_qubits_25 = quantum.custom "RZ"(%cst_4) %out_qubits_24 : !quantum.bit
    %5 = quantum.extract %0[ 3] : !quantum.reg -> !quantum.bit
    %out_qubits_26 = quantum.custom "RY"(%cst_5) %5 : !quantum.bit
    %out_qubits_27 = quantum.custom "RZ"(%cst_6) %out_qubits_26 : !quantum.bit
    %6 = quantum.extract %0[ 4] : !quantum.reg -> !quantum.bit
    %out_qubits_28 = quantum.custom "RY"(%cst_7) %6 : !quantum.bit
    %out_qubits_29 = quantum.custom "RZ"(%cst_8) %out_qubits_28 : !quantum.bit
    %extracted = tensor.extract %arg0[%c2] : tensor<4xf64>
    %out_qubits_30:3 = quantum.multirz(%extracted) %out_qubits_27, %out_qubits_29, %out_qubits_21 : !quantum.bit, !quantum.bit, !quantum.bit
    %extracted_31 = tensor.extract %arg0[%c0] : tensor<4xf64>
    %out_qubits_32:3 = quantum.paulirot ["X", "X", "X"](%extracted_31) %out_qubits_25, %out_qubits_30#0, %out_qubits_30#1 : !quantum.bit, !quantum.bit, !quantum.bit
    %out_qubits_33 = quantum.custom "PauliY"() %out_qubits_32#1 adj : !quantum.bit
    %out_qubits_34:2 = quantum.custom "ISWAP"() %out_qubits_32#0, %out_qubits_33 : !quantum.bit, !quantum.bit
    %out_qubits_35:2 = quantum.custom "IsingXY"(%cst_9) %out_qubits_30#2, %out_qubits_34#1 : !quantum.bit, !quantum.bit
    %out_qubits_36:2, %out_ctrl_qubits = quantum.custom "CNOT"() %out_qubits_23, %out_qubits_32#2 ctrls(%out_qubits_34#0) ctrlvals(%true) : !quantum.bit, !quantum.bit ctrls !quantum.bit
    %out_qubits_37 = quantum.custom "S"() %out_qubits_35#1 : !quantum.bit
    %out_qubits_38:2 = quantum.custom "CRY"(%cst_10) %out_qubits_37, %out_ctrl_qubits : !quantum.bit, !quantum.bit
    %out_qubits_39:2, %out_ctrl_qubits_40 = quantum.custom "CRX"(%cst_11) %out_qubits_38#0, %out_qubits_36#0 adj ctrls(%out_qubits_35#0) ctrlvals(%true) : !quantum.bit, !quantum.bit ctrls !quantum.bit
    %out_qubits_41:2, %out_ctrl_qubits_42:2 = quantum.custom "CRX"(%cst_12) %out_qubits_38#1, %out_ctrl_qubits_40 ctrls(%out_qubits_36#1, %out_qubits_39#0) ctrlvals(%false, %true) : !quantum.bit, !quantum.bit ctrls !quantum.bit, !quantum.bit
    %7 = quantum.insert %0[ 4], %out_ctrl_qubits_42#0 : !quantum.reg, !quantum.bit
    %out_qubits_43 = quantum.custom "PauliX"() %out_ctrl_qubits_42#1 : !quantum.bit
    %out_qubits_44, %out_ctrl_qubits_45 = quantum.custom "PauliX"() %out_qubits_43 adj ctrls(%out_qubits_39#1) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit
    %out_qubits_46, %out_ctrl_qubits_47 = quantum.custom "Hadamard"() %out_qubits_41#1 ctrls(%out_ctrl_qubits_45) ctrlvals(%false) : !quantum.bit ctrls !quantum.bit
    %8 = quantum.insert %7[ 1], %out_ctrl_qubits_47 : !quantum.reg, !quantum.bit
    %9 = quantum.extract %8[ 4] : !quantum.reg -> !quantum.bit
    %out_qubits_48 = quantum.custom "Hadamard"() %9 : !quantum.bit
    %out_qubits_49:2 = quantum.custom "CRX"(%cst_13) %out_qubits_48, %out_qubits_41#0 adj : !quantum.bit, !quantum.bit
    %extracted_50 = tensor.extract %arg0[%c2] : tensor<4xf64>
    %10 = arith.mulf %extracted_50, %cst_9 : f64
    %out_qubits_51:2, %out_ctrl_qubits_52:2 = quantum.custom "IsingXY"(%10) %out_qubits_49#1, %out_qubits_46 ctrls(%out_qubits_49#0, %out_qubits_44) ctrlvals(%true, %true) : !quantum.bit, !quantum.bit ctrls !quantum.bit, !quantum.bit
    %out_qubits_53 = quantum.custom "PauliZ"() %out_qubits_51#1 : !quantum.bit
    %out_qubits_54:2 = quantum.custom "CRZ"(%cst_9) %out_qubits_53, %out_qubits_51#0 : !quantum.bit, !quantum.bit
    %out_qubits_55 = quantum.custom "PauliZ"() %out_ctrl_qubits_52#0 adj : !quantum.bit
    %11 = quantum.extract %8[ 1] : !quantum.reg -> !quantum.bit
    %out_qubits_56 = quantum.custom "PauliY"() %11 : !quantum.bit
    %extracted_57 = tensor.extract %arg0[%c0] : tensor<4xf64>
    %out_qubits_58:2 = quantum.custom "CRY"(%extracted_57) %out_qubits_56, %out_qubits_55 : !quantum.bit, !quantum.bit
    %extracted_59 = tensor.extract %arg0[%c1] : tensor<4xf64>
    %12 = arith.mulf %extracted_59, %cst_14 : f64
    %extracted_60 = tensor.extract %arg0[%c0] : tensor<4xf64>
    "fuzz.barrier"() : () -> ()
    %13 = arith.mulf %extracted_60, %cst_13 : f64
    %out_qubits_61:2, %out_ctrl_qubits_62:2 = quantum.custom "CRot"(%12, %13, %cst_15) %out_ctrl_qubits_52#1, %out_qubits_54#1 adj ctrls(%out_qubits_58#0, %out_qubits_58#1) ctrlvals(%false, %true) : !quantum.bit, !quantum.bit ctrls !quantum.bit, !quantum.bit
    %out_qubits_63:2 = quantum.custom "IsingYY"(%cst_9) %out_qubits_54#0, %out_qubits_61#0 : !quantum.bit, !quantum.bit
    %out_qubits_64 = quantum.custom "RZ"(%cst_13) %out_qubits_61#1 : !quantum.bit
    %out_qubits_65:2 = quantum.custom "CRX"(%cst_16) %out_qubits_63#1, %out_ctrl_qubits_62#1 : !quantum.bit, !quantum.bit
    %out_qubits_66 = quantum.custom "S"() %out_ctrl_qubits_62#0 : !quantum.bit
    %out_qubits_67 = quantum.custom "Rot"(%cst_17, %cst_18, %cst_9) %out_qubits_65#0 adj : !quantum.bit
    %out_qubits_68:2 = quantum.custom "IsingZZ"(%cst_19) %out_qubits_65#1, %out_qubits_66 : !quantum.bit, !quantum.bit
    %14 = quantum.insert %8[ 0], %out_qubits_63#0 : !quantum.reg, !quantum.bit
    %out_qubits_69 = quantum.custom "RY"(%cst_20) %out_qubits_64 : !quantum.bit
    %15 = quantum.namedobs %out_qubits_69[ PauliZ] : !quantum.obs
    %16 = quantum.expval %15 : f64
    %from_elements = tensor.from_elements %16 : tensor<f64>
    %17 = quantum.compbasis qubits %out_qubits_69, %out_qubits_67 : !quantum.obs
    %18 = quantum.probs %17 : tensor<4xf64>
    %19 = quantum.insert %14[ 1], %out_qubits_68#1 : !quantum.reg, !quantum.bit
    %20 = quantum.insert %19[ 2], %out_qubits_69 : !quantum.reg, !quantum.bit
    %21 = quantum.insert %20[ 3], %out_qubits_67 : !quantum.reg, !quantum.bit
    %22 = quantum.insert %21[ 4], %out_qubits_68#0 : !quantum.reg, !quantum.bit
    quantum.dealloc %22 : !quantum.reg
    quantum.device_release
    return %from_elements, %18 : tensor<f64>, tensor<4xf64>
  }
}
