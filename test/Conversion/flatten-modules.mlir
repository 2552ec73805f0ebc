// Catalyst's QNode modules are inlined and catalyst.launch_kernel (an
// unregistered op here, read by name) becomes func.call.
// RUN: qshape-opt %s --allow-unregistered-dialect --qshape-flatten-modules | FileCheck %s
// RUN: qshape-opt %s --allow-unregistered-dialect --qshape-flatten-modules --qshape-catalyst-entry-points | FileCheck %s --check-prefix=ENTRY

// CHECK-LABEL: module @circuit {
// CHECK-NOT: module @
// CHECK: func.func public @jit_circuit(%[[A:.*]]: tensor<f64>) -> tensor<f64> attributes {llvm.emit_c_interface}
// CHECK-NEXT: %[[R:.*]] = call @circuit(%[[A]]) : (tensor<f64>) -> tensor<f64>
// CHECK-NEXT: %[[S:.*]] = call @helper_0(%[[R]]) : (tensor<f64>) -> tensor<f64>
// CHECK-NEXT: return %[[S]]
// The top module's own @helper keeps its name; the nested one is renamed,
// and references inside the nested module follow.
// CHECK: func.func private @helper(
// CHECK: func.func private @extern_fn(f64) -> f64
// CHECK-NOT: @extern_fn(
// CHECK: func.func public @circuit(%{{.*}}: tensor<f64>) -> tensor<f64> attributes {diff_method = "adjoint", llvm.linkage = #llvm.linkage<internal>, qnode}
// CHECK: call @extern_fn(
// CHECK: call @inner_0(
// CHECK: func.func private @inner_0(
// CHECK: func.func public @helper_0(
// CHECK: func.func @setup()
// ENTRY: func.func public @jit_circuit(%{{.*}}: tensor<f64> {bufferization.writable = false})
// An entry exists already: no jit_ wrapper is added, and @setup is kept.
// ENTRY-NOT: @jit_jit_circuit
// ENTRY: func.func @setup()
// ENTRY-NEXT: quantum.init
// ENTRY-NOT: func.func @setup()
// ENTRY: func.func @teardown()
// ENTRY-NEXT: quantum.finalize
module @circuit {
  func.func public @jit_circuit(%arg0: tensor<f64>) -> tensor<f64> attributes {llvm.emit_c_interface} {
    %0 = "catalyst.launch_kernel"(%arg0) <{callee = @module_circuit::@circuit}> : (tensor<f64>) -> tensor<f64>
    %1 = "catalyst.launch_kernel"(%0) <{callee = @module_circuit::@nested::@helper}> : (tensor<f64>) -> tensor<f64>
    return %1 : tensor<f64>
  }
  func.func private @helper(%arg0: f64) -> f64 {
    return %arg0 : f64
  }
  func.func private @extern_fn(f64) -> f64
  func.func private @inner(%arg0: f64) -> f64 {
    return %arg0 : f64
  }
  module @module_circuit {
    func.func private @extern_fn(f64) -> f64
    func.func public @circuit(%arg0: tensor<f64>) -> tensor<f64> attributes {diff_method = "adjoint", llvm.linkage = #llvm.linkage<internal>, quantum.node} {
      %x = tensor.extract %arg0[] : tensor<f64>
      %y = func.call @extern_fn(%x) : (f64) -> f64
      %z = func.call @inner(%y) : (f64) -> f64
      %t = tensor.from_elements %z : tensor<f64>
      return %t : tensor<f64>
    }
    func.func private @inner(%arg0: f64) -> f64 {
      return %arg0 : f64
    }
    module @nested {
      func.func public @helper(%arg0: tensor<f64>) -> tensor<f64> {
        return %arg0 : tensor<f64>
      }
    }
  }
  func.func @setup() {
    quantum.init
    return
  }
}
