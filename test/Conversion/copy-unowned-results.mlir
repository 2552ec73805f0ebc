// RUN: qshape-opt %s --split-input-file --qshape-copy-unowned-results | FileCheck %s

// A constant result is copied into a buffer of its own; one the entry
// allocated (through a cast) is returned as it is.
// CHECK-LABEL: func.func @jit_constant(
// CHECK:         %[[G:.*]] = memref.get_global @c : memref<2xf64>
// CHECK:         %[[A:.*]] = memref.alloc() : memref<f64>
// CHECK:         %[[C:.*]] = memref.cast %[[A]]
// CHECK:         %[[COPY:.*]] = memref.alloc() : memref<2xf64>
// CHECK:         memref.copy %[[G]], %[[COPY]]
// CHECK-NOT:     memref.copy
// CHECK:         return %[[COPY]], %[[C]]
memref.global "private" constant @c : memref<2xf64> = dense<[1.0, 2.0]>
func.func @jit_constant() -> (memref<2xf64>, memref<f64>) attributes {llvm.emit_c_interface} {
  %g = memref.get_global @c : memref<2xf64>
  %a = memref.alloc() : memref<f64>
  %c = memref.cast %a : memref<f64> to memref<f64>
  return %g, %c : memref<2xf64>, memref<f64>
}

// -----

// An argument returned as it is, with a dynamic size, is copied too.
// CHECK-LABEL: func.func @jit_argument(
// CHECK-SAME:    %[[ARG:.*]]: memref<?xf64>
// CHECK:         %[[N:.*]] = memref.dim %[[ARG]], %c0
// CHECK:         %[[COPY:.*]] = memref.alloc(%[[N]]) : memref<?xf64>
// CHECK:         memref.copy %[[ARG]], %[[COPY]]
// CHECK:         return %[[COPY]]
func.func @jit_argument(%arg: memref<?xf64>) -> memref<?xf64> attributes {llvm.emit_c_interface} {
  return %arg : memref<?xf64>
}

// -----

// Functions without a C interface are not entry points: left alone.
// CHECK-LABEL: func.func @inner(
// CHECK-NOT:     memref.copy
// CHECK:         return %arg0
func.func @inner(%arg: memref<f64>) -> memref<f64> {
  return %arg : memref<f64>
}
