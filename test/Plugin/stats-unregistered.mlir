// The pass plugin alone, loaded as Catalyst loads a plugin (with both
// --load-pass-plugin and --load-dialect-plugin), on generic-form input with
// no `quantum` dialect in the host: the ops are unregistered, and qshape-stats
// reads them by name, operand segments and property names, giving exactly
// the numbers of the registered run (stats-registered.mlir, same circuit).
//
// RUN: %upstream_mlir_opt --load-pass-plugin=%pass_plugin --load-dialect-plugin=%pass_plugin \
// RUN:   --allow-unregistered-dialect --pass-pipeline='builtin.module(qshape-stats{output=-})' %s -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=JSON
// RUN: %upstream_mlir_opt --load-pass-plugin=%pass_plugin --load-dialect-plugin=%pass_plugin \
// RUN:   --allow-unregistered-dialect --pass-pipeline='builtin.module(qshape-stats{emit-remark})' %s \
// RUN:   -verify-diagnostics -o /dev/null
//
// The unregistered ops come out exactly as they went in.
// RUN: %upstream_mlir_opt --allow-unregistered-dialect %s --mlir-print-op-generic -o %t.before
// RUN: %upstream_mlir_opt --load-pass-plugin=%pass_plugin --load-dialect-plugin=%pass_plugin \
// RUN:   --allow-unregistered-dialect --pass-pipeline='builtin.module(qshape-stats)' %s \
// RUN:   --mlir-print-op-generic -o %t.after
// RUN: diff %t.before %t.after
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.after
// IR: "quantum.custom"(%{{.*}}) <{adjoint, gate_name = "RX", operandSegmentSizes = array<i32: 1, 1, 1, 1>, resultSegmentSizes = array<i32: 1, 1>}> : (f64, !quantum.bit, !quantum.bit, i1) -> (!quantum.bit, !quantum.bit)

// JSON:      {
// JSON-NEXT:   "gates": 4,
// JSON-NEXT:   "gates_by_name": {
// JSON-NEXT:     "Hadamard": {
// JSON-NEXT:       "adjoint": 0,
// JSON-NEXT:       "controlled": 0,
// JSON-NEXT:       "count": 1,
// JSON-NEXT:       "static": 1
// JSON-NEXT:     },
// JSON-NEXT:     "PauliRot": {
// JSON-NEXT:       "adjoint": 0,
// JSON-NEXT:       "controlled": 0,
// JSON-NEXT:       "count": 1,
// JSON-NEXT:       "static": 3
// JSON-NEXT:     },
// JSON-NEXT:     "RX": {
// JSON-NEXT:       "adjoint": 1,
// JSON-NEXT:       "controlled": 1,
// JSON-NEXT:       "count": 1,
// JSON-NEXT:       "static": 1
// JSON-NEXT:     },
// JSON-NEXT:     "RZ": {
// JSON-NEXT:       "adjoint": 0,
// JSON-NEXT:       "controlled": 0,
// JSON-NEXT:       "count": 1,
// JSON-NEXT:       "static": 3
// JSON-NEXT:     }
// JSON-NEXT:   },
// JSON-NEXT:   "loops": 1,
// JSON-NEXT:   "max_loop_depth": 1,
// JSON-NEXT:   "ops": 26,
// JSON-NEXT:   "quantum_ops": 17,
// JSON-NEXT:   "qubits": 2,
// JSON-NEXT:   "static_gates": 8,
// JSON-NEXT:   "static_gates_exact": true
// JSON-NEXT: }

// expected-remark @+1 {{qshape-stats: 26 ops, 17 quantum ops, 4 gates (8 static), 2 qubits, 1 loops (depth 1)}}
"builtin.module"() ({
  "func.func"() <{function_type = (f64) -> f64, sym_name = "circuit"}> ({
  ^bb0(%arg0: f64):
    "quantum.device"() <{device_name = "LightningSimulator", kwargs = "{}", lib = "lib.so"}> : () -> ()
    %0 = "quantum.alloc"() <{nqubits_attr = 2 : i64}> : () -> !quantum.reg
    %1 = "quantum.extract"(%0) <{idx_attr = 0 : i64}> : (!quantum.reg) -> !quantum.bit
    %2 = "quantum.extract"(%0) <{idx_attr = 1 : i64}> : (!quantum.reg) -> !quantum.bit
    %3 = "quantum.custom"(%1) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
    %4 = "arith.constant"() <{value = true}> : () -> i1
    %5:2 = "quantum.custom"(%arg0, %3, %2, %4) <{adjoint, gate_name = "RX", operandSegmentSizes = array<i32: 1, 1, 1, 1>, resultSegmentSizes = array<i32: 1, 1>}> : (f64, !quantum.bit, !quantum.bit, i1) -> (!quantum.bit, !quantum.bit)
    %6 = "quantum.insert"(%0, %5#0) <{idx_attr = 0 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %7 = "quantum.insert"(%6, %5#1) <{idx_attr = 1 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
    %8 = "arith.constant"() <{value = 0 : index}> : () -> index
    %9 = "arith.constant"() <{value = 1 : index}> : () -> index
    %10 = "arith.constant"() <{value = 3 : index}> : () -> index
    %11 = "scf.for"(%8, %10, %9, %7) ({
    ^bb0(%arg1: index, %arg2: !quantum.reg):
      %15 = "arith.index_cast"(%arg1) : (index) -> i64
      %16 = "quantum.extract"(%arg2, %15) : (!quantum.reg, i64) -> !quantum.bit
      %17 = "quantum.custom"(%arg0, %16) <{gate_name = "RZ", operandSegmentSizes = array<i32: 1, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (f64, !quantum.bit) -> !quantum.bit
      %18 = "quantum.paulirot"(%arg0, %17) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, pauli_product = ["X"], resultSegmentSizes = array<i32: 1, 0>}> : (f64, !quantum.bit) -> !quantum.bit
      %19 = "quantum.insert"(%arg2, %15, %18) : (!quantum.reg, i64, !quantum.bit) -> !quantum.reg
      "scf.yield"(%19) : (!quantum.reg) -> ()
    }) : (index, index, index, !quantum.reg) -> !quantum.reg
    %12 = "quantum.extract"(%11) <{idx_attr = 0 : i64}> : (!quantum.reg) -> !quantum.bit
    %13 = "quantum.namedobs"(%12) <{type = #quantum<named_observable PauliZ>}> : (!quantum.bit) -> !quantum.obs
    %14 = "quantum.expval"(%13) : (!quantum.obs) -> f64
    "quantum.dealloc"(%11) : (!quantum.reg) -> ()
    "quantum.device_release"() : () -> ()
    "func.return"(%14) : (f64) -> ()
  }) : () -> ()
}) : () -> ()

