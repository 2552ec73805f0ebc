// The shape of a full Catalyst program: the public function launches the
// QNode of a nested module through catalyst.launch_kernel (unregistered,
// generic form), which qshape-sim executes as a call.

// RUN: qshape-sim %s --allow-unregistered-dialect --entry jit_circuit --args '[1.0471975511965976]' --decimals 12 | FileCheck %s
// Without --entry, the choice falls on the only function marked `qnode`
// (four functions are public).
// RUN: qshape-sim %s --allow-unregistered-dialect --args '[1.0471975511965976]' --decimals 12 | FileCheck %s

// RX(pi/3): <Z> = 0.5.
// CHECK: {"results": [0.5]}
module @circuit {
  func.func public @jit_circuit(%arg0: tensor<f64>) -> tensor<f64> attributes {llvm.emit_c_interface} {
    %0 = "catalyst.launch_kernel"(%arg0) <{callee = @module_circuit::@circuit}> : (tensor<f64>) -> tensor<f64>
    return %0 : tensor<f64>
  }
  module @module_circuit {
    func.func public @circuit(%arg0: tensor<f64>) -> tensor<f64> attributes {diff_method = "adjoint", llvm.linkage = #llvm.linkage<internal>, qnode} {
      %c0_i64 = arith.constant 0 : i64
      quantum.device shots(%c0_i64) ["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{'mcmc': False}"]
      %r = quantum.alloc( 1) : !quantum.reg
      %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
      %x = tensor.extract %arg0[] : tensor<f64>
      %q1 = quantum.custom "RX"(%x) %q : !quantum.bit
      %o = quantum.namedobs %q1[ PauliZ] : !quantum.obs
      %e = quantum.expval %o : f64
      %t = tensor.from_elements %e : tensor<f64>
      %r1 = quantum.insert %r[ 0], %q1 : !quantum.reg, !quantum.bit
      quantum.dealloc %r1 : !quantum.reg
      quantum.device_release
      return %t : tensor<f64>
    }
  }
  func.func @setup() {
    quantum.init
    return
  }
  func.func @teardown() {
    quantum.finalize
    return
  }
}
