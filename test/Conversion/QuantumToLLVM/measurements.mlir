// Observables, mid-circuit measurement and measurement processes (memref
// forms, as after bufferization). Output buffers go to the runtime as
// pointers to their memref descriptors.
// RUN: qshape-opt %s --split-input-file --finalize-memref-to-llvm --convert-arith-to-llvm --qshape-convert-quantum-to-llvm --reconcile-unrealized-casts | FileCheck %s

// CHECK-DAG: llvm.func @__catalyst__qis__NamedObs(i64, !llvm.ptr) -> i64
// CHECK-DAG: llvm.func @__catalyst__qis__HermitianObs(!llvm.ptr, i64, ...) -> i64
// CHECK-DAG: llvm.func @__catalyst__qis__TensorObs(i64, ...) -> i64
// CHECK-DAG: llvm.func @__catalyst__qis__HamiltonianObs(!llvm.ptr, i64, ...) -> i64
// CHECK-DAG: llvm.func @__catalyst__qis__Expval(i64) -> f64
// CHECK-DAG: llvm.func @__catalyst__qis__Variance(i64) -> f64
// CHECK-LABEL: llvm.func @observables(
// CHECK-SAME: %[[Q0:[^:]+]]: !llvm.ptr, %[[Q1:[^:]+]]: !llvm.ptr
func.func @observables(%q0: !quantum.bit, %q1: !quantum.bit, %m: memref<2x2xcomplex<f64>>,
                       %c: memref<3xf64>) -> (f64, f64) {
  // NamedObservable values: Identity 0, PauliX 1, PauliY 2, PauliZ 3, Hadamard 4.
  // CHECK: %[[K0:.*]] = llvm.mlir.constant(0 : i64) : i64
  // CHECK: llvm.call @__catalyst__qis__NamedObs(%[[K0]], %[[Q0]]) : (i64, !llvm.ptr) -> i64
  // CHECK: %[[K1:.*]] = llvm.mlir.constant(1 : i64) : i64
  // CHECK: llvm.call @__catalyst__qis__NamedObs(%[[K1]], %[[Q0]])
  // CHECK: %[[K2:.*]] = llvm.mlir.constant(2 : i64) : i64
  // CHECK: llvm.call @__catalyst__qis__NamedObs(%[[K2]], %[[Q1]])
  // CHECK: %[[K3:.*]] = llvm.mlir.constant(3 : i64) : i64
  // CHECK: %[[Z:.*]] = llvm.call @__catalyst__qis__NamedObs(%[[K3]], %[[Q1]])
  // CHECK: %[[K4:.*]] = llvm.mlir.constant(4 : i64) : i64
  // CHECK: %[[H:.*]] = llvm.call @__catalyst__qis__NamedObs(%[[K4]], %[[Q1]])
  %i = quantum.namedobs %q0[ Identity] : !quantum.obs
  %x = quantum.namedobs %q0[ PauliX] : !quantum.obs
  %y = quantum.namedobs %q1[ PauliY] : !quantum.obs
  %z = quantum.namedobs %q1[ PauliZ] : !quantum.obs
  %h = quantum.namedobs %q1[ Hadamard] : !quantum.obs
  // CHECK: llvm.store %{{.*}}, %[[MSLOT:.*]] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, !llvm.ptr
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
  // CHECK: %[[HERM:.*]] = llvm.call @__catalyst__qis__HermitianObs(%[[MSLOT]], %[[ONE]], %[[Q0]]) vararg(!llvm.func<i64 (ptr, i64, ...)>) : (!llvm.ptr, i64, !llvm.ptr) -> i64
  %herm = quantum.hermitian(%m : memref<2x2xcomplex<f64>>) %q0 : !quantum.obs
  // CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i64) : i64
  // CHECK: %[[T:.*]] = llvm.call @__catalyst__qis__TensorObs(%[[TWO]], %[[HERM]], %[[Z]]) vararg(!llvm.func<i64 (i64, ...)>) : (i64, i64, i64) -> i64
  %t = quantum.tensor %herm, %z : !quantum.obs
  // CHECK: llvm.store %{{.*}}, %[[CSLOT:.*]] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, !llvm.ptr
  // CHECK: %[[THREE:.*]] = llvm.mlir.constant(3 : i64) : i64
  // CHECK: %[[HAM:.*]] = llvm.call @__catalyst__qis__HamiltonianObs(%[[CSLOT]], %[[THREE]], %[[T]], %[[H]], %{{.*}}) vararg(!llvm.func<i64 (ptr, i64, ...)>) : (!llvm.ptr, i64, i64, i64, i64) -> i64
  %ham = quantum.hamiltonian(%c : memref<3xf64>) %t, %h, %x : !quantum.obs
  // CHECK: %[[E:.*]] = llvm.call @__catalyst__qis__Expval(%[[HAM]]) : (i64) -> f64
  // CHECK: %[[V:.*]] = llvm.call @__catalyst__qis__Variance(%[[Y:.*]]) : (i64) -> f64
  // CHECK: llvm.return
  %e = quantum.expval %ham : f64
  %v = quantum.var %y : f64
  return %e, %v : f64, f64
}

// -----

// CHECK: llvm.func @__catalyst__qis__Measure(!llvm.ptr, i32) -> !llvm.ptr
// CHECK-LABEL: llvm.func @measure(
// CHECK-SAME: %[[Q:[^:]+]]: !llvm.ptr
func.func @measure(%q: !quantum.bit) -> (i1, i1, i1, !quantum.bit) {
  // No postselect: -1. The result pointer is loaded as an i1.
  // CHECK: %[[NONE:.*]] = llvm.mlir.constant(-1 : i32) : i32
  // CHECK: %[[P0:.*]] = llvm.call @__catalyst__qis__Measure(%[[Q]], %[[NONE]]) : (!llvm.ptr, i32) -> !llvm.ptr
  // CHECK: %[[M0:.*]] = llvm.load %[[P0]] : !llvm.ptr -> i1
  %m0, %q0 = quantum.measure %q : i1, !quantum.bit
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: llvm.call @__catalyst__qis__Measure(%[[Q]], %[[ZERO]])
  %m1, %q1 = quantum.measure %q0 postselect 0 : i1, !quantum.bit
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: llvm.call @__catalyst__qis__Measure(%[[Q]], %[[ONE]])
  %m2, %q2 = quantum.measure %q1 postselect 1 : i1, !quantum.bit
  // CHECK: llvm.insertvalue %[[M0]]
  // CHECK: llvm.insertvalue %[[Q]]
  return %m0, %m1, %m2, %q2 : i1, i1, i1, !quantum.bit
}

// -----

// CHECK-DAG: llvm.func @__catalyst__qis__Probs(!llvm.ptr, i64, ...)
// CHECK-DAG: llvm.func @__catalyst__qis__State(!llvm.ptr, i64, ...)
// CHECK-DAG: llvm.func @__catalyst__qis__Sample(!llvm.ptr, i64, ...)
// CHECK-DAG: llvm.func @__catalyst__qis__Counts(!llvm.ptr, i64, ...)
// CHECK-LABEL: llvm.func @processes(
// CHECK-SAME: %[[R:[^:]+]]: !llvm.ptr, %[[Q0:[^:]+]]: !llvm.ptr, %[[Q1:[^:]+]]: !llvm.ptr
func.func @processes(%r: !quantum.reg, %q0: !quantum.bit, %q1: !quantum.bit, %p: memref<4xf64>,
                     %s: memref<8xcomplex<f64>>, %smp: memref<100x2xf64>, %eig: memref<4xf64>,
                     %cnt: memref<4xi64>) {
  %obs = quantum.compbasis qubits %q1, %q0 : !quantum.obs
  %all = quantum.compbasis qreg %r : !quantum.obs
  // The qubits of the compbasis, in its order.
  // CHECK: llvm.store %{{.*}}, %[[PSLOT:.*]] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, !llvm.ptr
  // CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i64) : i64
  // CHECK: llvm.call @__catalyst__qis__Probs(%[[PSLOT]], %[[TWO]], %[[Q1]], %[[Q0]]) vararg(!llvm.func<void (ptr, i64, ...)>) : (!llvm.ptr, i64, !llvm.ptr, !llvm.ptr) -> ()
  quantum.probs %obs in(%p : memref<4xf64>)
  // A compbasis of a register measures every qubit: n = 0.
  // CHECK: %[[NONE:.*]] = llvm.mlir.constant(0 : i64) : i64
  // CHECK: llvm.call @__catalyst__qis__Probs(%[[PSLOT]], %[[NONE]]) vararg(!llvm.func<void (ptr, i64, ...)>) : (!llvm.ptr, i64) -> ()
  quantum.probs %all in(%p : memref<4xf64>)
  // State measures the whole device, whatever the compbasis lists.
  // CHECK: llvm.store %{{.*}}, %[[SSLOT:.*]] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, !llvm.ptr
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
  // CHECK: llvm.call @__catalyst__qis__State(%[[SSLOT]], %[[ZERO]]) vararg(!llvm.func<void (ptr, i64, ...)>) : (!llvm.ptr, i64) -> ()
  quantum.state %obs in(%s : memref<8xcomplex<f64>>)
  // CHECK: llvm.store %{{.*}}, %[[SMPSLOT:.*]] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, !llvm.ptr
  // CHECK: llvm.call @__catalyst__qis__Sample(%[[SMPSLOT]], %{{.*}}, %[[Q1]], %[[Q0]]) vararg(!llvm.func<void (ptr, i64, ...)>) : (!llvm.ptr, i64, !llvm.ptr, !llvm.ptr) -> ()
  quantum.sample %obs in(%smp : memref<100x2xf64>)
  // Counts takes a pointer to {eigenvalues, counts}.
  // CHECK: %[[PAIR0:.*]] = llvm.mlir.undef : !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>)>
  // CHECK: %[[PAIR1:.*]] = llvm.insertvalue %{{.*}}, %[[PAIR0]][0]
  // CHECK: %[[PAIR2:.*]] = llvm.insertvalue %{{.*}}, %[[PAIR1]][1]
  // CHECK: llvm.store %[[PAIR2]], %[[CSLOT:.*]] : !llvm.struct<(struct<
  // CHECK: llvm.call @__catalyst__qis__Counts(%[[CSLOT]], %{{.*}}, %[[Q1]], %[[Q0]]) vararg(!llvm.func<void (ptr, i64, ...)>)
  quantum.counts %obs in(%eig : memref<4xf64>, %cnt : memref<4xi64>)
  // The compbasis placeholders are gone.
  // CHECK-NOT: unrealized_conversion_cast
  // CHECK: llvm.return
  return
}

// -----

// set_state / set_basis_state: the vector by descriptor pointer, then the
// qubit count and the qubits; the outputs are the input handles.
// CHECK-DAG: llvm.func @__catalyst__qis__SetState(!llvm.ptr, i64, ...)
// CHECK-DAG: llvm.func @__catalyst__qis__SetBasisState(!llvm.ptr, i64, ...)
// CHECK-LABEL: llvm.func @prep(
// CHECK-SAME: %[[Q0:[^:]+]]: !llvm.ptr, %[[Q1:[^:]+]]: !llvm.ptr
func.func @prep(%q0: !quantum.bit, %q1: !quantum.bit, %v: memref<4xcomplex<f64>>, %b: memref<2xi1>) -> (!quantum.bit, !quantum.bit) {
  // CHECK: llvm.store %{{.*}}, %[[VSLOT:.*]] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, !llvm.ptr
  // CHECK: %[[N:.*]] = llvm.mlir.constant(2 : i64) : i64
  // CHECK: llvm.call @__catalyst__qis__SetState(%[[VSLOT]], %[[N]], %[[Q0]], %[[Q1]]) vararg(!llvm.func<void (ptr, i64, ...)>)
  %a:2 = quantum.set_state(%v) %q0, %q1 : (memref<4xcomplex<f64>>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  // CHECK: llvm.call @__catalyst__qis__SetBasisState(%{{.*}}, %{{.*}}, %[[Q0]], %[[Q1]]) vararg(!llvm.func<void (ptr, i64, ...)>)
  %c:2 = quantum.set_basis_state(%b) %a#0, %a#1 : (memref<2xi1>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  return %c#0, %c#1 : !quantum.bit, !quantum.bit
}
