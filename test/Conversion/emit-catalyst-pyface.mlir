// _catalyst_pyface_<name>(ptr results, ptr args) for every C interface:
// `results` goes on as the result pointer (or receives a scalar result),
// `args` holds one field per argument (descriptor pointers, scalars by
// value). _catalyst_ciface_<name> forwards to _mlir_ciface_<name>.
// RUN: qshape-opt %s --finalize-memref-to-llvm --convert-func-to-llvm --qshape-emit-catalyst-pyface --reconcile-unrealized-casts | FileCheck %s
// RUN: qshape-opt %s --finalize-memref-to-llvm --convert-func-to-llvm --qshape-emit-catalyst-pyface --reconcile-unrealized-casts | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

// CHECK-LABEL: llvm.func @_catalyst_ciface_jit_a(
// CHECK-SAME: %[[R:.*]]: !llvm.ptr, %[[A:.*]]: !llvm.ptr, %[[B:.*]]: !llvm.ptr)
// CHECK-NEXT: llvm.call @_mlir_ciface_jit_a(%[[R]], %[[A]], %[[B]])
// CHECK-LABEL: llvm.func @_catalyst_pyface_jit_a(
// CHECK-SAME: %[[RES:.*]]: !llvm.ptr, %[[ARGS:.*]]: !llvm.ptr)
// CHECK-NEXT: %[[P:.*]] = llvm.load %[[ARGS]] : !llvm.ptr -> !llvm.struct<(ptr, ptr)>
// CHECK-NEXT: %[[P0:.*]] = llvm.extractvalue %[[P]][0]
// CHECK-NEXT: %[[P1:.*]] = llvm.extractvalue %[[P]][1]
// CHECK-NEXT: llvm.call @_mlir_ciface_jit_a(%[[RES]], %[[P0]], %[[P1]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT: llvm.return
// A scalar argument is a field by value.
// CHECK-LABEL: llvm.func @_catalyst_pyface_jit_b(
// CHECK-NEXT: %[[P:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<(f64, ptr)>
// CHECK: llvm.call @_mlir_ciface_jit_b(%{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, f64, !llvm.ptr) -> ()
// A scalar result is stored to `results`.
// CHECK-LABEL: llvm.func @_catalyst_pyface_jit_c(
// CHECK-SAME: %[[RES:.*]]: !llvm.ptr, %[[ARGS:.*]]: !llvm.ptr)
// CHECK: %[[V:.*]] = llvm.call @_mlir_ciface_jit_c(%{{.*}}) : (!llvm.ptr) -> f64
// CHECK-NEXT: llvm.store %[[V]], %[[RES]] : f64, !llvm.ptr
// No arguments: `args` is not read.
// CHECK-LABEL: llvm.func @_catalyst_pyface_jit_d(
// CHECK-NEXT: llvm.call @_mlir_ciface_jit_d() : () -> ()
// Only functions with llvm.emit_c_interface.
// CHECK-NOT: not_an_entry
// IR-DAG: define void @_catalyst_pyface_jit_a(ptr %0, ptr %1)
// IR-DAG: define void @_catalyst_pyface_jit_b(ptr %0, ptr %1)
// IR-DAG: define void @_catalyst_pyface_jit_c(ptr %0, ptr %1)
// IR-DAG: define void @_catalyst_pyface_jit_d(ptr %0, ptr %1)
// IR-DAG: define void @_mlir_ciface_jit_a(ptr %0, ptr %1, ptr %2)
// IR-DAG: define void @_catalyst_ciface_jit_a(ptr %0, ptr %1, ptr %2)

func.func @jit_a(%a: memref<f64>, %b: memref<3xf64>) -> memref<4xf64> attributes {llvm.emit_c_interface} {
  %m = memref.alloc() : memref<4xf64>
  return %m : memref<4xf64>
}
func.func @jit_b(%s: f64, %b: memref<2x2xf64>) -> (memref<f64>, memref<2xi64>) attributes {llvm.emit_c_interface} {
  %m = memref.alloc() : memref<f64>
  %n = memref.alloc() : memref<2xi64>
  return %m, %n : memref<f64>, memref<2xi64>
}
func.func @jit_c(%a: memref<f64>) -> f64 attributes {llvm.emit_c_interface} {
  %x = memref.load %a[] : memref<f64>
  return %x : f64
}
func.func @jit_d() attributes {llvm.emit_c_interface} {
  return
}
func.func @not_an_entry(%a: memref<f64>) {
  return
}
