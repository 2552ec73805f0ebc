// Quantum ops in generic form, run with qshape's quantum dialect NOT
// registered (--no-quantum-dialect): every quantum op, type and attribute is
// unregistered, so this exercises the name-based gate-view adapter path.
// The result must equal that of the same program with the dialect
// registered (qshape-opt turns it into the custom form first).
// Covers: dynamic/static extract, insert, custom with ctrls/ctrlvals,
// paulirot, multirz adj, controlled gphase, unitary adj, adjoint and ctrl
// regions, namedobs/tensor/hamiltonian, expval, var, probs, state, measure
// with postselect, sample, device shots, dealloc, device_release.

// RUN: qshape-sim %s --no-quantum-dialect --args '[0.7]' --seed 11 > %t.unregistered.json
// RUN: qshape-sim %s --args '[0.7]' --seed 11 > %t.generic.json
// RUN: qshape-opt %s | qshape-sim - --args '[0.7]' --seed 11 > %t.pretty.json
// RUN: %python %qshape_src/utils/compare-results.py %t.unregistered.json %t.pretty.json --tol 0
// RUN: %python %qshape_src/utils/compare-results.py %t.generic.json %t.pretty.json --tol 0
// RUN: qshape-opt %s | FileCheck %s --check-prefix=PRETTY
// RUN: qshape-sim %s --no-quantum-dialect --entry exact --decimals 12 | FileCheck %s --check-prefix=EXACT

// The input really is generic: qshape-opt prints it back in custom form.
// PRETTY: quantum.adjoint(
// PRETTY: quantum.ctrl(

// EXACT: {"results": [1.0, -0.5, [0.0, 0.0, 0.5, 0.5]]}
"builtin.module"() ({
  "func.func"() <{function_type = (f64) -> (f64, tensor<4xf64>, f64, tensor<8xcomplex<f64>>, i1, tensor<3x2xf64>), sym_name = "circuit"}> ({
  ^bb0(%arg0: f64):
    %14 = "arith.constant"() <{value = 0 : i64}> : () -> i64
    %15 = "arith.constant"() <{value = 1 : i64}> : () -> i64
    %16 = "arith.constant"() <{value = 3 : i64}> : () -> i64
    %17 = "arith.constant"() <{value = true}> : () -> i1
    %18 = "arith.constant"() <{value = false}> : () -> i1
    %19 = "arith.constant"() <{value = dense<[5.000000e-01, -1.000000e+00]> : tensor<2xf64>}> : () -> tensor<2xf64>
    %20 = "arith.constant"() <{value = dense<[[(0.000000e+00,0.000000e+00), (1.000000e+00,0.000000e+00)], [(1.000000e+00,0.000000e+00), (0.000000e+00,0.000000e+00)]]> : tensor<2x2xcomplex<f64>>}> : () -> tensor<2x2xcomplex<f64>>
    "quantum.device"(%16) <{device_name = "LightningSimulator", kwargs = "{}", lib = "lib.so"}> : (i64) -> ()
    %21 = "quantum.alloc"() <{nqubits_attr = 3 : i64}> : () -> !quantum.reg
    %22 = "quantum.extract"(%21, %14) : (!quantum.reg, i64) -> !quantum.bit
    %23 = "quantum.extract"(%21) <{idx_attr = 1 : i64}> : (!quantum.reg) -> !quantum.bit
    %24 = "quantum.extract"(%21) <{idx_attr = 2 : i64}> : (!quantum.reg) -> !quantum.bit
    %25 = "quantum.custom"(%arg0, %22) <{gate_name = "RX", operandSegmentSizes = array<i32: 1, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (f64, !quantum.bit) -> !quantum.bit
    %26:2 = "quantum.custom"(%23, %25, %18) <{gate_name = "PauliX", operandSegmentSizes = array<i32: 0, 1, 1, 1>, resultSegmentSizes = array<i32: 1, 1>}> : (!quantum.bit, !quantum.bit, i1) -> (!quantum.bit, !quantum.bit)
    %27:2 = "quantum.paulirot"(%arg0, %26#1, %26#0) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>, pauli_product = ["Z", "X"], resultSegmentSizes = array<i32: 2, 0>}> : (f64, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
    %28:2 = "quantum.multirz"(%arg0, %27#0, %27#1) <{adjoint, operandSegmentSizes = array<i32: 1, 2, 0, 0>, resultSegmentSizes = array<i32: 2, 0>}> : (f64, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
    %29 = "quantum.custom"(%24) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %30 = "quantum.gphase"(%arg0, %29, %17) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (f64, !quantum.bit, i1) -> !quantum.bit
    %31 = "quantum.unitary"(%20, %30) <{adjoint, operandSegmentSizes = array<i32: 1, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (tensor<2x2xcomplex<f64>>, !quantum.bit) -> !quantum.bit
    %32:2 = "quantum.adjoint"(%28#0, %31) ({
    ^bb0(%arg2: !quantum.bit, %arg3: !quantum.bit):
      %55 = "quantum.custom"(%arg2) <{gate_name = "S", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
      %56:2 = "quantum.custom"(%arg0, %55, %arg3) <{gate_name = "CRY", operandSegmentSizes = array<i32: 1, 2, 0, 0>, resultSegmentSizes = array<i32: 2, 0>}> : (f64, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
      "quantum.yield"(%56#0, %56#1) : (!quantum.bit, !quantum.bit) -> ()
    }) : (!quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
    %33:2 = "quantum.ctrl"(%32#0, %17, %32#1) <{operandSegmentSizes = array<i32: 1, 1, 1>, resultSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg1: !quantum.bit):
      %54 = "quantum.custom"(%arg0, %arg1) <{gate_name = "RY", operandSegmentSizes = array<i32: 1, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (f64, !quantum.bit) -> !quantum.bit
      "quantum.yield"(%54) : (!quantum.bit) -> ()
    }) : (!quantum.bit, i1, !quantum.bit) -> (!quantum.bit, !quantum.bit)
    %34 = "quantum.namedobs"(%33#0) <{type = #quantum<named_observable PauliZ>}> : (!quantum.bit) -> !quantum.obs
    %35 = "quantum.namedobs"(%28#1) <{type = #quantum<named_observable PauliX>}> : (!quantum.bit) -> !quantum.obs
    %36 = "quantum.tensor"(%34, %35) : (!quantum.obs, !quantum.obs) -> !quantum.obs
    %37 = "quantum.namedobs"(%33#1) <{type = #quantum<named_observable Hadamard>}> : (!quantum.bit) -> !quantum.obs
    %38 = "quantum.hamiltonian"(%19, %36, %37) : (tensor<2xf64>, !quantum.obs, !quantum.obs) -> !quantum.obs
    %39 = "quantum.expval"(%38) : (!quantum.obs) -> f64
    %40 = "quantum.compbasis"(%33#0, %33#1) <{operandSegmentSizes = array<i32: 2, 0>}> : (!quantum.bit, !quantum.bit) -> !quantum.obs
    %41 = "quantum.probs"(%40) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!quantum.obs) -> tensor<4xf64>
    %42 = "quantum.var"(%34) : (!quantum.obs) -> f64
    %43 = "quantum.insert"(%21, %33#0) <{idx_attr = 0 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %44 = "quantum.insert"(%43, %15, %28#1) : (!quantum.reg, i64, !quantum.bit) -> !quantum.reg
    %45 = "quantum.insert"(%44, %33#1) <{idx_attr = 2 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %46 = "quantum.extract"(%45) <{idx_attr = 0 : i64}> : (!quantum.reg) -> !quantum.bit
    %47 = "quantum.extract"(%45) <{idx_attr = 1 : i64}> : (!quantum.reg) -> !quantum.bit
    %48 = "quantum.extract"(%45) <{idx_attr = 2 : i64}> : (!quantum.reg) -> !quantum.bit
    %49 = "quantum.compbasis"(%46, %47, %48) <{operandSegmentSizes = array<i32: 3, 0>}> : (!quantum.bit, !quantum.bit, !quantum.bit) -> !quantum.obs
    %50 = "quantum.state"(%49) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!quantum.obs) -> tensor<8xcomplex<f64>>
    %51:2 = "quantum.measure"(%46) <{postselect = 1 : i32}> : (!quantum.bit) -> (i1, !quantum.bit)
    %52 = "quantum.compbasis"(%51#1, %48) <{operandSegmentSizes = array<i32: 2, 0>}> : (!quantum.bit, !quantum.bit) -> !quantum.obs
    %53 = "quantum.sample"(%52) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!quantum.obs) -> tensor<3x2xf64>
    "quantum.dealloc"(%45) : (!quantum.reg) -> ()
    "quantum.device_release"() : () -> ()
    "func.return"(%39, %41, %42, %50, %51#0, %53) : (f64, tensor<4xf64>, f64, tensor<8xcomplex<f64>>, i1, tensor<3x2xf64>) -> ()
  }) {qnode} : () -> ()
  "func.func"() <{function_type = () -> (f64, f64, tensor<4xf64>), sym_name = "exact"}> ({
    %0 = "arith.constant"() <{value = 2.0943951023931953 : f64}> : () -> f64
    %1 = "quantum.alloc"() <{nqubits_attr = 3 : i64}> : () -> !quantum.reg
    %2 = "quantum.extract"(%1) <{idx_attr = 0 : i64}> : (!quantum.reg) -> !quantum.bit
    %3 = "quantum.extract"(%1) <{idx_attr = 1 : i64}> : (!quantum.reg) -> !quantum.bit
    %4 = "quantum.extract"(%1) <{idx_attr = 2 : i64}> : (!quantum.reg) -> !quantum.bit
    %5 = "quantum.namedobs"(%3) <{type = #quantum<named_observable PauliZ>}> : (!quantum.bit) -> !quantum.obs
    %6 = "quantum.expval"(%5) : (!quantum.obs) -> f64
    %7 = "quantum.custom"(%0, %3) <{gate_name = "RX", operandSegmentSizes = array<i32: 1, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (f64, !quantum.bit) -> !quantum.bit
    %8 = "quantum.namedobs"(%7) <{type = #quantum<named_observable PauliZ>}> : (!quantum.bit) -> !quantum.obs
    %9 = "quantum.expval"(%8) : (!quantum.obs) -> f64
    %10 = "quantum.custom"(%2) <{gate_name = "PauliX", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %11 = "quantum.custom"(%4) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %12 = "quantum.compbasis"(%10, %11) <{operandSegmentSizes = array<i32: 2, 0>}> : (!quantum.bit, !quantum.bit) -> !quantum.obs
    %13 = "quantum.probs"(%12) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!quantum.obs) -> tensor<4xf64>
    "func.return"(%6, %9, %13) : (f64, f64, tensor<4xf64>) -> ()
  }) : () -> ()
}) : () -> ()

