"builtin.module"() ({
  "func.func"() <{function_type = (f64) -> (f64, f64, f64), sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: f64):
    %0 = "arith.constant"() <{value = 0 : i64}> : () -> i64
    "quantum.device"(%0) <{device_name = "LightningSimulator", kwargs = "{}", lib = "liblightning_qubit_catalyst.so"}> : (i64) -> ()
    %1 = "arith.constant"() <{value = 2 : i64}> : () -> i64
    %2 = "qref.alloc"() <{nqubits_attr = 3 : i64}> : () -> !qref.reg<3>
    %3 = "qref.get"(%2) <{idx_attr = 0 : i64}> : (!qref.reg<3>) -> !qref.bit
    %4 = "qref.get"(%2) <{idx_attr = 1 : i64}> : (!qref.reg<3>) -> !qref.bit
    %5 = "qref.get"(%2) <{idx_attr = 2 : i64}> : (!qref.reg<3>) -> !qref.bit
    "qref.custom"(%arg0, %3) <{gate_name = "RX", operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (f64, !qref.bit) -> ()
    "qref.custom"(%5) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>}> : (!qref.bit) -> ()
    "qref.custom"(%arg0, %5) <{gate_name = "RY", operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (f64, !qref.bit) -> ()
    "qref.custom"(%3, %4) <{gate_name = "CNOT", operandSegmentSizes = array<i32: 0, 2, 0, 0>}> : (!qref.bit, !qref.bit) -> ()
    %6 = "arith.mulf"(%arg0, %arg0) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
    "qref.custom"(%6, %3) <{gate_name = "RX", operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (f64, !qref.bit) -> ()
    "qref.custom"(%3, %4) <{gate_name = "CNOT", operandSegmentSizes = array<i32: 0, 2, 0, 0>}> : (!qref.bit, !qref.bit) -> ()
    "qref.custom"(%6, %5) <{gate_name = "RY", operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (f64, !qref.bit) -> ()
    %7 = "qref.get"(%2, %1) : (!qref.reg<3>, i64) -> !qref.bit
    "qref.custom"(%7) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>}> : (!qref.bit) -> ()
    %8 = "qref.namedobs"(%3) <{type = #quantum<named_observable PauliZ>}> : (!qref.bit) -> !quantum.obs
    "fuzz.barrier"() : () -> ()
    %9 = "quantum.expval"(%8) : (!quantum.obs) -> f64
    "fuzz.barrier"() : () -> ()
    %10 = "qref.namedobs"(%4) <{type = #quantum<named_observable PauliZ>}> : (!qref.bit) -> !quantum.obs
    %11 = "quantum.expval"(%10) : (!quantum.obs) -> f64
    "fuzz.barrier"() : () -> ()
    %12 = "qref.namedobs"(%5) <{type = #quantum<named_observable PauliX>}> : (!qref.bit) -> !quantum.obs
    %13 = "quantum.expval"(%12) : (!quantum.obs) -> f64
    "qref.dealloc"(%2) : (!qref.reg<3>) -> ()
    "quantum.device_release"() : () -> ()
    "func.return"(%9, %11, %13) : (f64, f64, f64) -> ()
  }) {qnode} : () -> ()
}) : () -> ()
