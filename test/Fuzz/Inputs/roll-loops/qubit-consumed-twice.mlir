"builtin.module"() ({
  "func.func"() <{function_type = (!quantum.reg) -> !quantum.reg, sym_name = "nested"}> ({
  ^bb0(%arg0: !quantum.reg):
    %0 = "quantum.extract"(%arg0) <{idx_attr = 0 : i64}> : (!quantum.reg) -> !quantum.bit
    %1 = "quantum.custom"(%0) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %2 = "quantum.custom"(%1) <{gate_name = "T", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %3 = "quantum.insert"(%arg0, %2) <{idx_attr = 0 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %4 = "quantum.extract"(%3) <{idx_attr = 1 : i64}> : (!quantum.reg) -> !quantum.bit
    %5 = "quantum.custom"(%4) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %6 = "quantum.custom"(%1) <{gate_name = "T", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %7 = "quantum.insert"(%3, %6) <{idx_attr = 1 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %8 = "quantum.extract"(%7) <{idx_attr = 2 : i64}> : (!quantum.reg) -> !quantum.bit
    %9 = "quantum.custom"(%8) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %10 = "quantum.custom"(%9) <{gate_name = "T", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %11 = "quantum.insert"(%7, %10) <{idx_attr = 2 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %12 = "quantum.extract"(%11) <{idx_attr = 0 : i64}> : (!quantum.reg) -> !quantum.bit
    %13 = "quantum.custom"(%12) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %14 = "quantum.custom"(%13) <{gate_name = "T", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %15 = "quantum.custom"(%14) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %16 = "quantum.custom"(%15) <{gate_name = "T", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %17 = "quantum.custom"(%16) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %18 = "quantum.custom"(%17) <{gate_name = "T", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %19 = "quantum.custom"(%18) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %20 = "quantum.custom"(%19) <{gate_name = "T", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %21 = "quantum.insert"(%11, %20) <{idx_attr = 0 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %22 = "quantum.extract"(%21) <{idx_attr = 1 : i64}> : (!quantum.reg) -> !quantum.bit
    %23 = "quantum.custom"(%22) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %24 = "quantum.custom"(%23) <{gate_name = "T", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    "fuzz.barrier"() : () -> ()
    %25 = "quantum.insert"(%21, %24) <{idx_attr = 1 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %26 = "quantum.extract"(%25) <{idx_attr = 2 : i64}> : (!quantum.reg) -> !quantum.bit
    %27 = "quantum.custom"(%26) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %28 = "quantum.custom"(%27) <{gate_name = "T", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %29 = "quantum.insert"(%25, %28) <{idx_attr = 2 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %30 = "quantum.extract"(%29) <{idx_attr = 0 : i64}> : (!quantum.reg) -> !quantum.bit
    %31 = "quantum.custom"(%30) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %32 = "quantum.custom"(%31) <{gate_name = "T", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %33 = "quantum.insert"(%29, %32) <{idx_attr = 0 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %34 = "quantum.extract"(%33) <{idx_attr = 1 : i64}> : (!quantum.reg) -> !quantum.bit
    %35 = "quantum.custom"(%34) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %36 = "quantum.custom"(%35) <{gate_name = "T", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %37 = "quantum.insert"(%33, %36) <{idx_attr = 1 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %38 = "quantum.extract"(%37) <{idx_attr = 2 : i64}> : (!quantum.reg) -> !quantum.bit
    %39 = "quantum.custom"(%38) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %40 = "quantum.custom"(%39) <{gate_name = "T", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %41 = "quantum.insert"(%37, %40) <{idx_attr = 2 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    "func.return"(%41) : (!quantum.reg) -> ()
  }) : () -> ()
}) : () -> ()
