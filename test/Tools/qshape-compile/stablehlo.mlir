// A module that still holds StableHLO (JAX's classical code, as Catalyst's
// frontend writes it before its HLO lowering stage) is one error line that
// names the first such op, where it is, and the stage to run first; exit
// code 1 and no output written. In custom form (as Catalyst prints it) and
// in generic form, with and without --allow-unregistered-dialect, whatever
// else the module holds.

// RUN: rm -rf %t && mkdir -p %t/err
// RUN: split-file %s %t
// RUN: not qshape-compile %t/frontend.mlir -o %t/out.so 2> %t/err/frontend
// RUN: not qshape-compile %t/frontend.mlir --allow-unregistered-dialect -o %t/out.so 2> %t/err/frontend-unregistered
// RUN: not qshape-compile %t/generic.mlir -o %t/out.so 2> %t/err/generic
// RUN: not qshape-compile %t/generic.mlir --allow-unregistered-dialect -o %t/out.so 2> %t/err/generic-unregistered
// RUN: not qshape-compile %t/generic.mlir --allow-unregistered-dialect --emit=mlir -o - > %t/err/emit-out 2> %t/err/emit
// RUN: FileCheck %s --check-prefix=FRONTEND --match-full-lines < %t/err/frontend
// RUN: FileCheck %s --check-prefix=FRONTEND --match-full-lines < %t/err/frontend-unregistered
// RUN: FileCheck %s --check-prefix=GENERIC --match-full-lines < %t/err/generic
// RUN: FileCheck %s --check-prefix=GENERIC --match-full-lines < %t/err/generic-unregistered
// RUN: FileCheck %s --check-prefix=GENERIC --match-full-lines < %t/err/emit
// One line each, and nothing written:
// RUN: cat %t/err/* | wc -l | FileCheck %s --check-prefix=LINES
// LINES: {{^}}5{{$}}
// RUN: ls -A %t | FileCheck %s --check-prefix=FILES

// FRONTEND:qshape-compile: error: {{.*}}frontend.mlir:3:12: 'stablehlo.constant' is a StableHLO op (JAX's classical code), which qshape-compile does not lower: run Catalyst's HLO lowering stage on the module first (catalyst --tool=opt --hlo-lowering-stage, or the IR after qjit's HLOLoweringStage)
// GENERIC:qshape-compile: error: {{.*}}generic.mlir:7:8: 'stablehlo.add' is a StableHLO op (JAX's classical code), which qshape-compile does not lower: run Catalyst's HLO lowering stage on the module first (catalyst --tool=opt --hlo-lowering-stage, or the IR after qjit's HLOLoweringStage)
// FILES: err
// FILES-NEXT: frontend.mlir
// FILES-NEXT: generic.mlir
// FILES-NOT: {{.}}

//--- frontend.mlir
module @circuit {
  func.func public @jit_circuit(%arg0: tensor<f64>) -> tensor<f64> attributes {llvm.emit_c_interface} {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %0 = stablehlo.multiply %arg0, %cst : tensor<f64>
    %1 = catalyst.launch_kernel @module_circuit::@circuit(%0) : (tensor<f64>) -> tensor<f64>
    return %1 : tensor<f64>
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
      quantum.dealloc %r : !quantum.reg
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
//--- generic.mlir
// The QNode comes first here; the first HLO op is in jit_circuit.
func.func public @circuit(%arg0: f64) -> f64 attributes {qnode} {
  return %arg0 : f64
}
func.func public @jit_circuit(%a: tensor<f64>) -> tensor<f64> attributes {llvm.emit_c_interface} {
  %x = tensor.extract %a[] : tensor<f64>
  %0 = "stablehlo.add"(%a, %a) : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %1 = "stablehlo.multiply"(%0, %0) : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %1 : tensor<f64>
}
