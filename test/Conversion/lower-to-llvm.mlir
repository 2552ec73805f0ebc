// The qshape-lower-to-llvm pipeline on a module shaped as Catalyst's
// frontend emits it: a jit_ entry calling the QNode through
// catalyst.launch_kernel (unregistered here), the QNode in a nested module,
// setup/teardown; quantum.ctrl and quantum.adjoint regions; every tensor-level
// measurement and tensor operand. The result is LLVM dialect only and
// translates to LLVM IR.
// RUN: qshape-opt %s --allow-unregistered-dialect --qshape-lower-to-llvm -o %t.ll.mlir
// RUN: FileCheck %s --input-file %t.ll.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.ll.mlir | FileCheck %s --check-prefix=IR
// Only LLVM dialect ops are left.
// RUN: FileCheck %s --check-prefix=ONLY-LLVM --input-file %t.ll.mlir
// ONLY-LLVM-NOT: {{[ "](quantum|catalyst|func|arith|memref|scf|cf|tensor|bufferization|builtin)[.]}}
// ONLY-LLVM-NOT: !quantum.

// CHECK-DAG: llvm.func @__catalyst__rt__device_init(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i1)
// CHECK-DAG: llvm.func @__catalyst__qis__QubitUnitary(!llvm.ptr, !llvm.ptr, i64, ...)
// CHECK-DAG: llvm.func @__catalyst__qis__HermitianObs(!llvm.ptr, i64, ...) -> i64
// CHECK-DAG: llvm.func @__catalyst__qis__HamiltonianObs(!llvm.ptr, i64, ...) -> i64
// CHECK-DAG: llvm.func @__catalyst__qis__Measure(!llvm.ptr, i32) -> !llvm.ptr
// CHECK-DAG: llvm.func @__catalyst__qis__Probs(!llvm.ptr, i64, ...)
// CHECK-DAG: llvm.func @__catalyst__qis__State(!llvm.ptr, i64, ...)
// CHECK-DAG: llvm.func @__catalyst__qis__Sample(!llvm.ptr, i64, ...)
// CHECK-DAG: llvm.func @__catalyst__qis__Counts(!llvm.ptr, i64, ...)
// CHECK-DAG: llvm.func @__catalyst__qis__Variance(i64) -> f64
// The entry and its C interface (results by pointer, one descriptor
// pointer per argument).
// CHECK: llvm.func @jit_circuit({{.*}} attributes {llvm.emit_c_interface}
// CHECK: llvm.func @_mlir_ciface_jit_circuit(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {llvm.emit_c_interface}
// The QNode keeps its internal linkage; its regions are gone: the gates
// inside carry the adjoint flag and the control (one Modifiers struct).
// CHECK-LABEL: llvm.func internal @circuit(
// CHECK: llvm.call @__catalyst__qis__RY(%{{.*}}, %{{.*}}, %[[MODS:.*]]) : (f64, !llvm.ptr, !llvm.ptr) -> ()
// CHECK: llvm.call @__catalyst__qis__Hadamard(%{{.*}}, %[[MODS]])
// CHECK: llvm.call @__catalyst__qis__Measure(%{{.*}}, %{{.*}})
// CHECK: llvm.func @setup()
// CHECK-NEXT: llvm.mlir.zero
// CHECK-NEXT: llvm.call @__catalyst__rt__initialize
// CHECK: llvm.func @teardown()
// CHECK: llvm.func @_catalyst_ciface_jit_circuit(
// CHECK: llvm.func @_catalyst_pyface_jit_circuit(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// IR-DAG: define void @setup()
// IR-DAG: define void @teardown()
// IR-DAG: define void @_catalyst_pyface_jit_circuit(ptr %0, ptr %1)
// IR-DAG: define void @_mlir_ciface_jit_circuit(ptr %0, ptr %1, ptr %2, ptr %3)

module @circuit {
  func.func public @jit_circuit(%arg0: tensor<f64>, %m: tensor<4x4xcomplex<f64>>, %c: tensor<2xf64>)
      -> (tensor<f64>, tensor<4xf64>, tensor<4xcomplex<f64>>, tensor<10x2xf64>, tensor<4xf64>, tensor<4xi64>, tensor<f64>)
      attributes {llvm.emit_c_interface} {
    %0:7 = "catalyst.launch_kernel"(%arg0, %m, %c) <{callee = @module_circuit::@circuit}>
        : (tensor<f64>, tensor<4x4xcomplex<f64>>, tensor<2xf64>)
        -> (tensor<f64>, tensor<4xf64>, tensor<4xcomplex<f64>>, tensor<10x2xf64>, tensor<4xf64>, tensor<4xi64>, tensor<f64>)
    return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5, %0#6 : tensor<f64>, tensor<4xf64>, tensor<4xcomplex<f64>>, tensor<10x2xf64>, tensor<4xf64>, tensor<4xi64>, tensor<f64>
  }
  module @module_circuit {
    func.func public @circuit(%arg0: tensor<f64>, %m: tensor<4x4xcomplex<f64>>, %c: tensor<2xf64>)
        -> (tensor<f64>, tensor<4xf64>, tensor<4xcomplex<f64>>, tensor<10x2xf64>, tensor<4xf64>, tensor<4xi64>, tensor<f64>)
        attributes {diff_method = "adjoint", llvm.linkage = #llvm.linkage<internal>, qnode} {
      %shots = arith.constant 10 : i64
      quantum.device shots(%shots) ["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{'mcmc': False}"]
      %r = quantum.alloc( 2) : !quantum.reg
      %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
      %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
      %x = tensor.extract %arg0[] : tensor<f64>
      %true = arith.constant true
      %oc, %oq = quantum.ctrl(%q1) ctrlvals(%true) (%q0) : !quantum.bit -> !quantum.bit {
      ^bb0(%a: !quantum.bit):
        %ad = quantum.adjoint(%a) : !quantum.bit {
        ^bb1(%b: !quantum.bit):
          %h = quantum.custom "Hadamard"() %b : !quantum.bit
          %y = quantum.custom "RY"(%x) %h : !quantum.bit
          quantum.yield %y : !quantum.bit
        }
        quantum.yield %ad : !quantum.bit
      }
      %u:2 = quantum.unitary(%m : tensor<4x4xcomplex<f64>>) %oq, %oc : !quantum.bit, !quantum.bit
      %mres, %mq = quantum.measure %u#0 postselect 0 : i1, !quantum.bit
      %herm = quantum.hermitian(%m : tensor<4x4xcomplex<f64>>) %mq, %u#1 : !quantum.obs
      %z = quantum.namedobs %u#1[ PauliZ] : !quantum.obs
      %ham = quantum.hamiltonian(%c : tensor<2xf64>) %herm, %z : !quantum.obs
      %e = quantum.expval %ham : f64
      %v = quantum.var %z : f64
      %obs = quantum.compbasis qubits %mq, %u#1 : !quantum.obs
      %p = quantum.probs %obs : tensor<4xf64>
      %s = quantum.state %obs : tensor<4xcomplex<f64>>
      %smp = quantum.sample %obs : tensor<10x2xf64>
      %eig, %cnt = quantum.counts %obs : tensor<4xf64>, tensor<4xi64>
      %te = tensor.from_elements %e : tensor<f64>
      %tv = tensor.from_elements %v : tensor<f64>
      %r1 = quantum.insert %r[ 0], %mq : !quantum.reg, !quantum.bit
      %r2 = quantum.insert %r1[ 1], %u#1 : !quantum.reg, !quantum.bit
      quantum.dealloc %r2 : !quantum.reg
      quantum.device_release
      return %te, %p, %s, %smp, %eig, %cnt, %tv : tensor<f64>, tensor<4xf64>, tensor<4xcomplex<f64>>, tensor<10x2xf64>, tensor<4xf64>, tensor<4xi64>, tensor<f64>
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
