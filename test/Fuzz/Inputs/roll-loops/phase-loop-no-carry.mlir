"builtin.module"() ({
  "func.func"() <{function_type = (!quantum.bit, !quantum.bit, !quantum.bit, !quantum.bit, f64, i1) -> (!quantum.bit, !quantum.bit, !quantum.bit, !quantum.bit), sym_name = "gates"}> ({
  ^bb0(%arg0: !quantum.bit, %arg1: !quantum.bit, %arg2: !quantum.bit, %arg3: !quantum.bit, %arg4: f64, %arg5: i1):
    %0 = "arith.constant"() <{value = false}> : () -> i1
    %1:4 = "quantum.ctrl"(%arg0, %arg1, %arg5, %0, %arg2, %arg3) <{operandSegmentSizes = array<i32: 2, 2, 2>, resultSegmentSizes = array<i32: 2, 2>}> ({
    ^bb0(%arg6: !quantum.bit, %arg7: !quantum.bit):
      %2 = "fuzz.opaque"(%arg6) {note = "unregistered, unknown effects"} : (!quantum.bit) -> !quantum.bit
      %3 = "quantum.custom"(%2) <{adjoint, gate_name = "Identity", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
      "quantum.gphase"(%arg4) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (f64) -> ()
      %4:2 = "quantum.custom"(%arg4, %3, %arg7, %arg5) <{adjoint, gate_name = "RX", operandSegmentSizes = array<i32: 1, 1, 1, 1>, resultSegmentSizes = array<i32: 1, 1>}> : (f64, !quantum.bit, !quantum.bit, i1) -> (!quantum.bit, !quantum.bit)
      %5:2 = "quantum.paulirot"(%arg4, %4#0, %4#1) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>, pauli_product = ["X", "Y"], resultSegmentSizes = array<i32: 2, 0>}> : (f64, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
      "quantum.gphase"(%arg4) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (f64) -> ()
      %6:2 = "quantum.custom"(%arg4, %5#0, %5#1, %arg5) <{adjoint, gate_name = "RZ", operandSegmentSizes = array<i32: 1, 1, 1, 1>, resultSegmentSizes = array<i32: 1, 1>}> : (f64, !quantum.bit, !quantum.bit, i1) -> (!quantum.bit, !quantum.bit)
      %7 = "quantum.custom"(%6#0) <{adjoint, gate_name = "Identity", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
      "quantum.gphase"(%arg4) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (f64) -> ()
      %8:2 = "quantum.custom"(%arg4, %7, %6#1, %arg5) <{adjoint, gate_name = "RX", operandSegmentSizes = array<i32: 1, 1, 1, 1>, resultSegmentSizes = array<i32: 1, 1>}> : (f64, !quantum.bit, !quantum.bit, i1) -> (!quantum.bit, !quantum.bit)
      %9:2 = "quantum.paulirot"(%arg4, %8#0, %8#1) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>, pauli_product = ["X", "Y"], resultSegmentSizes = array<i32: 2, 0>}> : (f64, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
      "quantum.gphase"(%arg4) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (f64) -> ()
      %10:2 = "quantum.custom"(%arg4, %9#0, %9#1, %arg5) <{adjoint, gate_name = "RZ", operandSegmentSizes = array<i32: 1, 1, 1, 1>, resultSegmentSizes = array<i32: 1, 1>}> : (f64, !quantum.bit, !quantum.bit, i1) -> (!quantum.bit, !quantum.bit)
      %11 = "quantum.custom"(%10#0) <{adjoint, gate_name = "Identity", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
      "quantum.gphase"(%arg4) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (f64) -> ()
      %12:2 = "quantum.custom"(%arg4, %11, %10#1, %arg5) <{adjoint, gate_name = "RX", operandSegmentSizes = array<i32: 1, 1, 1, 1>, resultSegmentSizes = array<i32: 1, 1>}> : (f64, !quantum.bit, !quantum.bit, i1) -> (!quantum.bit, !quantum.bit)
      %13:2 = "quantum.paulirot"(%arg4, %12#0, %12#1) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>, pauli_product = ["X", "Y"], resultSegmentSizes = array<i32: 2, 0>}> : (f64, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
      "quantum.gphase"(%arg4) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (f64) -> ()
      %14:2 = "quantum.custom"(%arg4, %13#0, %13#1, %arg5) <{adjoint, gate_name = "RZ", operandSegmentSizes = array<i32: 1, 1, 1, 1>, resultSegmentSizes = array<i32: 1, 1>}> : (f64, !quantum.bit, !quantum.bit, i1) -> (!quantum.bit, !quantum.bit)
      %15 = "quantum.custom"(%14#0) <{adjoint, gate_name = "Identity", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
      "quantum.gphase"(%arg4) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (f64) -> ()
      %16:2 = "quantum.custom"(%arg4, %15, %14#1, %arg5) <{adjoint, gate_name = "RX", operandSegmentSizes = array<i32: 1, 1, 1, 1>, resultSegmentSizes = array<i32: 1, 1>}> : (f64, !quantum.bit, !quantum.bit, i1) -> (!quantum.bit, !quantum.bit)
      %17:2 = "quantum.paulirot"(%arg4, %16#0, %16#1) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>, pauli_product = ["X", "Y"], resultSegmentSizes = array<i32: 2, 0>}> : (f64, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
      "quantum.gphase"(%arg4) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (f64) -> ()
      %18:2 = "quantum.custom"(%arg4, %17#0, %17#1, %arg5) <{adjoint, gate_name = "RZ", operandSegmentSizes = array<i32: 1, 1, 1, 1>, resultSegmentSizes = array<i32: 1, 1>}> : (f64, !quantum.bit, !quantum.bit, i1) -> (!quantum.bit, !quantum.bit)
      "fuzz.barrier"() : () -> ()
      %19:2 = "quantum.paulirot"(%arg4, %18#0, %18#1) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>, pauli_product = ["X", "Y"], resultSegmentSizes = array<i32: 2, 0>}> : (f64, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
      "quantum.gphase"(%arg4) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (f64) -> ()
      %20:2 = "quantum.custom"(%arg4, %19#0, %19#1, %arg5) <{adjoint, gate_name = "RX", operandSegmentSizes = array<i32: 1, 1, 1, 1>, resultSegmentSizes = array<i32: 1, 1>}> : (f64, !quantum.bit, !quantum.bit, i1) -> (!quantum.bit, !quantum.bit)
      %21 = "func.call"(%20#0) <{callee = @fuzz_opaque}> : (!quantum.bit) -> !quantum.bit
      %22:2 = "quantum.paulirot"(%arg4, %21, %20#1) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>, pauli_product = ["X", "Y"], resultSegmentSizes = array<i32: 2, 0>}> : (f64, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
      "fuzz.barrier"() : () -> ()
      %23:2 = "quantum.paulirot"(%arg4, %22#0, %22#1) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>, pauli_product = ["X", "Y"], resultSegmentSizes = array<i32: 2, 0>}> : (f64, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
      %24:2 = "quantum.paulirot"(%arg4, %23#0, %23#1) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>, pauli_product = ["X", "Y"], resultSegmentSizes = array<i32: 2, 0>}> : (f64, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
      %25:2 = "quantum.paulirot"(%arg4, %24#0, %24#1) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>, pauli_product = ["X", "Y"], resultSegmentSizes = array<i32: 2, 0>}> : (f64, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
      "fuzz.barrier"() : () -> ()
      %26 = "func.call"(%25#1) <{callee = @fuzz_opaque}> : (!quantum.bit) -> !quantum.bit
      %27:2 = "quantum.paulirot"(%arg4, %25#0, %26) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>, pauli_product = ["X", "Y"], resultSegmentSizes = array<i32: 2, 0>}> : (f64, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
      %28:2 = "quantum.paulirot"(%arg4, %27#0, %27#1) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>, pauli_product = ["X", "Y"], resultSegmentSizes = array<i32: 2, 0>}> : (f64, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
      %29 = "func.call"(%28#1) <{callee = @fuzz_opaque}> : (!quantum.bit) -> !quantum.bit
      %30 = "fuzz.opaque"(%28#0) {note = "unregistered, unknown effects"} : (!quantum.bit) -> !quantum.bit
      %31 = "fuzz.opaque"(%30) {note = "unregistered, unknown effects"} : (!quantum.bit) -> !quantum.bit
      %32:2 = "quantum.paulirot"(%arg4, %31, %29) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>, pauli_product = ["X", "Y"], resultSegmentSizes = array<i32: 2, 0>}> : (f64, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
      "quantum.yield"(%32#0, %32#1) : (!quantum.bit, !quantum.bit) -> ()
    }) : (!quantum.bit, !quantum.bit, i1, i1, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit, !quantum.bit, !quantum.bit)
    "fuzz.barrier"() : () -> ()
    "func.return"(%1#0, %1#1, %1#2, %1#3) : (!quantum.bit, !quantum.bit, !quantum.bit, !quantum.bit) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (!quantum.bit) -> !quantum.bit, sym_name = "fuzz_opaque", sym_visibility = "private"}> ({
  }) : () -> ()
}) : () -> ()
