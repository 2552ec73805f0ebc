// A module without entries (utils/gen/workloads.py's output) gets jit_<qnode>
// entries with the C interface, setup and teardown.
// RUN: qshape-opt %s --qshape-catalyst-entry-points | FileCheck %s

// CHECK-LABEL: module @module_circuit {
// CHECK: func.func @jit_circuit(%[[A:.*]]: tensor<3xf64> {bufferization.writable = false}, %[[B:.*]]: f64) -> (tensor<f64>, tensor<4xf64>) attributes {llvm.emit_c_interface} {
// CHECK-NEXT: %[[R:.*]]:2 = call @circuit(%[[A]], %[[B]]) : (tensor<3xf64>, f64) -> (tensor<f64>, tensor<4xf64>)
// CHECK-NEXT: return %[[R]]#0, %[[R]]#1
// CHECK: func.func public @circuit(
// Functions that are not public QNodes get no entry.
// CHECK-NOT: @jit_helper
// CHECK-NOT: @jit_private_qnode
// CHECK: func.func @setup() {
// CHECK-NEXT: quantum.init
// CHECK-NEXT: return
// CHECK: func.func @teardown() {
// CHECK-NEXT: quantum.finalize
// CHECK-NEXT: return
module @module_circuit {
  func.func public @circuit(%arg0: tensor<3xf64>, %arg1: f64) -> (tensor<f64>, tensor<4xf64>) attributes {qnode} {
    %c = arith.constant dense<0.0> : tensor<f64>
    %p = arith.constant dense<0.25> : tensor<4xf64>
    return %c, %p : tensor<f64>, tensor<4xf64>
  }
  func.func public @helper() {
    return
  }
  func.func private @private_qnode() attributes {qnode} {
    return
  }
}
