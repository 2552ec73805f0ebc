// Generic-form input with the quantum dialect not loaded: upstream mlir-opt
// with the pass plugin only, the quantum ops and types unregistered. The
// patterns match by name, so the result is the same as with the dialect.
// RUN: %upstream_mlir_opt --allow-unregistered-dialect --load-pass-plugin=%pass_plugin %s \
// RUN:   --pass-pipeline='builtin.module(finalize-memref-to-llvm,convert-arith-to-llvm,qshape-convert-quantum-to-llvm,reconcile-unrealized-casts)' \
// RUN:   | FileCheck %s
// And the whole pipeline, from utils/gen/workloads.py's generic output to LLVM
// IR.
// RUN: %workloads w1 --generic --no-linkage -o %t.w1.mlir
// RUN: %upstream_mlir_opt --allow-unregistered-dialect --load-pass-plugin=%pass_plugin %t.w1.mlir \
// RUN:   --pass-pipeline='builtin.module(qshape-lower-to-llvm)' -o %t.w1.ll.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.w1.ll.mlir | FileCheck %s --check-prefix=IR

// CHECK-DAG: llvm.func @__catalyst__qis__RX(f64, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @__catalyst__qis__CNOT(!llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @__catalyst__qis__GlobalPhase(f64, !llvm.ptr)
// CHECK-DAG: llvm.func @__catalyst__qis__NamedObs(i64, !llvm.ptr) -> i64
// CHECK-DAG: llvm.func @__catalyst__qis__Probs(!llvm.ptr, i64, ...)
// CHECK-LABEL: llvm.func @circuit(
// CHECK-SAME: %[[T:[^:]+]]: f64
// CHECK: %[[R:.*]] = llvm.call @__catalyst__rt__qubit_allocate_array
// CHECK: %[[Q0:.*]] = llvm.load
// CHECK: %[[Q1:.*]] = llvm.load
// CHECK: llvm.call @__catalyst__qis__RX(%[[T]], %[[Q0]], %[[MODS:.*]]) : (f64, !llvm.ptr, !llvm.ptr) -> ()
// CHECK: llvm.call @__catalyst__qis__CNOT(%[[Q0]], %[[Q1]], %{{.*}})
// CHECK: llvm.call @__catalyst__qis__GlobalPhase(%[[T]], %[[GMODS:.*]])
// CHECK: llvm.call @__catalyst__qis__PauliZ(%[[Q1]], %{{.*}})
// CHECK: %[[Z:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK: llvm.call @__catalyst__qis__NamedObs(%[[Z]], %[[Q1]])
// CHECK: llvm.call @__catalyst__qis__Probs(%{{.*}}, %{{.*}}, %[[Q0]], %[[Q1]])
// CHECK: llvm.call @__catalyst__rt__qubit_release_array(%[[R]])
func.func @circuit(%t: f64, %p: memref<4xf64>) -> f64 {
  %r = "quantum.alloc"() <{nqubits_attr = 2 : i64}> : () -> !quantum.reg
  %q0 = "quantum.extract"(%r) <{idx_attr = 0 : i64}> : (!quantum.reg) -> !quantum.bit
  %q1 = "quantum.extract"(%r) <{idx_attr = 1 : i64}> : (!quantum.reg) -> !quantum.bit
  %a = "quantum.custom"(%t, %q0) <{adjoint, gate_name = "RX", operandSegmentSizes = array<i32: 1, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (f64, !quantum.bit) -> !quantum.bit
  %b:2 = "quantum.custom"(%a, %q1) <{gate_name = "CNOT", operandSegmentSizes = array<i32: 0, 2, 0, 0>, resultSegmentSizes = array<i32: 2, 0>}> : (!quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  %true = arith.constant true
  %c = "quantum.gphase"(%t, %b#1, %true) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (f64, !quantum.bit, i1) -> !quantum.bit
  %d = "quantum.custom"(%c) <{gate_name = "PauliZ", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
  %o = "quantum.namedobs"(%d) <{type = #quantum<named_observable PauliZ>}> : (!quantum.bit) -> !quantum.obs
  %e = "quantum.expval"(%o) : (!quantum.obs) -> f64
  %cb = "quantum.compbasis"(%b#0, %d) <{operandSegmentSizes = array<i32: 2, 0>}> : (!quantum.bit, !quantum.bit) -> !quantum.obs
  "quantum.probs"(%cb, %p) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (!quantum.obs, memref<4xf64>) -> ()
  %r1 = "quantum.insert"(%r, %b#0) <{idx_attr = 0 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
  %r2 = "quantum.insert"(%r1, %d) <{idx_attr = 1 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
  "quantum.dealloc"(%r2) : (!quantum.reg) -> ()
  return %e : f64
}

// IR-DAG: declare void @__catalyst__qis__Rot(double, double, double, ptr, ptr)
// IR-DAG: define void @_catalyst_pyface_jit_circuit(ptr %0, ptr %1)
// IR-DAG: define void @_mlir_ciface_jit_circuit(ptr %0, ptr %1, ptr %2)
// IR-DAG: define void @setup()
// IR-DAG: define void @teardown()
