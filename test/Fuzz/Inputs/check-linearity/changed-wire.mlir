"builtin.module"() <{sym_name = "module_circuit"}> ({
  "func.func"() <{function_type = (tensor<f64>) -> tensor<f64>, sym_name = "circuit", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<f64>):
    %0 = "arith.constant"() <{value = 0 : i64}> : () -> i64
    "quantum.device"(%0) <{device_name = "LightningSimulator", kwargs = "{'mcmc': False}", lib = "/path/liblightning_qubit_catalyst.so"}> : (i64) -> ()
    %1 = "quantum.alloc"() <{nqubits_attr = 2 : i64}> : () -> !quantum.reg
    %2 = "quantum.extract"(%1) <{idx_attr = 1 : i64}> : (!quantum.reg) -> !quantum.bit
    %3 = "tensor.extract"(%arg0) : (tensor<f64>) -> f64
    %4 = "quantum.custom"(%3, %2) <{gate_name = "RX", operandSegmentSizes = array<i32: 1, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (f64, !quantum.bit) -> !quantum.bit
    "fuzz.barrier"() : () -> ()
    %5 = "quantum.custom"(%4) <{adjoint, gate_name = "S", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %6 = "quantum.extract"(%1) <{idx_attr = 1 : i64}> : (!quantum.reg) -> !quantum.bit
    %7 = "arith.constant"() <{value = true}> : () -> i1
    %8:2 = "quantum.custom"(%3, %5, %6, %7) <{gate_name = "RY", operandSegmentSizes = array<i32: 1, 1, 1, 1>, resultSegmentSizes = array<i32: 1, 1>}> : (f64, !quantum.bit, !quantum.bit, i1) -> (!quantum.bit, !quantum.bit)
    "fuzz.barrier"() : () -> ()
    %9:2 = "quantum.paulirot"(%3, %8#0, %8#1) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>, pauli_product = ["Z", "X"], resultSegmentSizes = array<i32: 2, 0>}> : (f64, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
    %10 = "quantum.insert"(%1, %9#0) <{idx_attr = 0 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %11 = "quantum.namedobs"(%9#1) <{type = #quantum<named_observable PauliZ>}> : (!quantum.bit) -> !quantum.obs
    %12 = "quantum.expval"(%11) : (!quantum.obs) -> f64
    %13 = "tensor.from_elements"(%12) : (f64) -> tensor<f64>
    "quantum.dealloc"(%10) : (!quantum.reg) -> ()
    "quantum.device_release"() : () -> ()
    "func.return"(%13) : (tensor<f64>) -> ()
  }) {diff_method = "adjoint", llvm.linkage = #llvm.linkage<internal>, qnode} : () -> ()
}) : () -> ()
