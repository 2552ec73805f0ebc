// A QNode module as Catalyst's frontend hands it to the quantum compilation
// stage (the sheet's example, minus catalyst.launch_kernel, plus an autograph
// loop): qshape-opt must read it and print it back unchanged, in pretty and
// in generic form.
//
// RUN: qshape-opt %s | qshape-opt | FileCheck %s
// RUN: qshape-opt %s --mlir-print-op-generic | qshape-opt | FileCheck %s

// CHECK-LABEL: module @circuit {
// CHECK-NEXT:    func.func public @jit_circuit(%arg0: tensor<f64>) -> tensor<f64> attributes {llvm.emit_c_interface} {
// CHECK-NEXT:      return %arg0 : tensor<f64>
// CHECK-NEXT:    }
// CHECK-NEXT:    module @module_circuit {
// CHECK-NEXT:      func.func public @circuit(%arg0: tensor<f64>) -> tensor<f64> attributes {diff_method = "adjoint", llvm.linkage = #llvm.linkage<internal>, qnode} {
// CHECK-DAG:         %[[C0I:.*]] = arith.constant 0 : i64
// CHECK-DAG:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:         %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:         %[[C2:.*]] = arith.constant 2 : index
// CHECK:             quantum.device shots(%[[C0I]]) ["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{'mcmc': False}"]
// CHECK-NEXT:        %[[R:.*]] = quantum.alloc( 2) : !quantum.reg
// CHECK-NEXT:        %[[Q0:.*]] = quantum.extract %[[R]][ 0] : !quantum.reg -> !quantum.bit
// CHECK-NEXT:        %[[X:.*]] = tensor.extract %arg0[] : tensor<f64>
// CHECK-NEXT:        %[[RX:.*]] = quantum.custom "RX"(%[[X]]) %[[Q0]] : !quantum.bit
// CHECK-NEXT:        %[[R1:.*]] = quantum.insert %[[R]][ 0], %[[RX]] : !quantum.reg, !quantum.bit
// CHECK-NEXT:        %[[R2:.*]] = scf.for %[[I:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[REG:.*]] = %[[R1]]) -> (!quantum.reg) {
// CHECK-NEXT:          %[[I64:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT:          %[[Q:.*]] = quantum.extract %[[REG]][%[[I64]]] : !quantum.reg -> !quantum.bit
// CHECK-NEXT:          %[[H:.*]] = quantum.custom "Hadamard"() %[[Q]] : !quantum.bit
// CHECK-NEXT:          %[[REG1:.*]] = quantum.insert %[[REG]][%[[I64]]], %[[H]] : !quantum.reg, !quantum.bit
// CHECK-NEXT:          scf.yield %[[REG1]] : !quantum.reg
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[A:.*]] = quantum.extract %[[R2]][ 0] : !quantum.reg -> !quantum.bit
// CHECK-NEXT:        %[[B:.*]] = quantum.extract %[[R2]][ 1] : !quantum.reg -> !quantum.bit
// CHECK-NEXT:        %[[CX:.*]]:2 = quantum.custom "CNOT"() %[[A]], %[[B]] : !quantum.bit, !quantum.bit
// CHECK-NEXT:        %[[OBS:.*]] = quantum.namedobs %[[CX]]#1[ PauliZ] : !quantum.obs
// CHECK-NEXT:        %[[E:.*]] = quantum.expval %[[OBS]] : f64
// CHECK-NEXT:        %[[T:.*]] = tensor.from_elements %[[E]] : tensor<f64>
// CHECK-NEXT:        %[[R3:.*]] = quantum.insert %[[R2]][ 0], %[[CX]]#0 : !quantum.reg, !quantum.bit
// CHECK-NEXT:        %[[R4:.*]] = quantum.insert %[[R3]][ 1], %[[CX]]#1 : !quantum.reg, !quantum.bit
// CHECK-NEXT:        quantum.dealloc %[[R4]] : !quantum.reg
// CHECK-NEXT:        quantum.device_release
// CHECK-NEXT:        return %[[T]] : tensor<f64>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.func @setup() {
// CHECK-NEXT:      quantum.init
// CHECK-NEXT:      return
// CHECK-NEXT:    }
// CHECK-NEXT:    func.func @teardown() {
// CHECK-NEXT:      quantum.finalize
// CHECK-NEXT:      return
// CHECK-NEXT:    }
// CHECK-NEXT:  }

module @circuit {
  func.func public @jit_circuit(%arg0: tensor<f64>) -> tensor<f64> attributes {llvm.emit_c_interface} {
    return %arg0 : tensor<f64>
  }
  module @module_circuit {
    func.func public @circuit(%arg0: tensor<f64>) -> tensor<f64> attributes {diff_method = "adjoint", llvm.linkage = #llvm.linkage<internal>, qnode} {
      %c0_i64 = arith.constant 0 : i64
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      quantum.device shots(%c0_i64) ["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{'mcmc': False}"]
      %0 = quantum.alloc( 2) : !quantum.reg
      %1 = quantum.extract %0[ 0] : !quantum.reg -> !quantum.bit
      %extracted = tensor.extract %arg0[] : tensor<f64>
      %out_qubits = quantum.custom "RX"(%extracted) %1 : !quantum.bit
      %2 = quantum.insert %0[ 0], %out_qubits : !quantum.reg, !quantum.bit
      %3 = scf.for %arg1 = %c0 to %c2 step %c1 iter_args(%arg2 = %2) -> (!quantum.reg) {
        %10 = arith.index_cast %arg1 : index to i64
        %11 = quantum.extract %arg2[%10] : !quantum.reg -> !quantum.bit
        %out = quantum.custom "Hadamard"() %11 : !quantum.bit
        %12 = quantum.insert %arg2[%10], %out : !quantum.reg, !quantum.bit
        scf.yield %12 : !quantum.reg
      }
      %4 = quantum.extract %3[ 0] : !quantum.reg -> !quantum.bit
      %5 = quantum.extract %3[ 1] : !quantum.reg -> !quantum.bit
      %out_qubits_0:2 = quantum.custom "CNOT"() %4, %5 : !quantum.bit, !quantum.bit
      %6 = quantum.namedobs %out_qubits_0#1[ PauliZ] : !quantum.obs
      %7 = quantum.expval %6 : f64
      %from_elements = tensor.from_elements %7 : tensor<f64>
      %8 = quantum.insert %3[ 0], %out_qubits_0#0 : !quantum.reg, !quantum.bit
      %9 = quantum.insert %8[ 1], %out_qubits_0#1 : !quantum.reg, !quantum.bit
      quantum.dealloc %9 : !quantum.reg
      quantum.device_release
      return %from_elements : tensor<f64>
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
