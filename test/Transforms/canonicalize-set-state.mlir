// quantum.set_state and quantum.set_basis_state rewrite the whole device:
// the wires they list take the state, every other wire becomes |0>
// (Catalyst's runtime, qshape-sim). The op table marks them WholeDevice, so
// they are barriers (include/qshape/GateView/Barriers.h): no gate, on any
// wire, moves across them. Without that, the schedule puts gates (pure)
// before the ordered set_state.
// RUN: qshape-opt %s -split-input-file --qshape-canonicalize | FileCheck %s
// The same for generic, unregistered quantum ops in upstream mlir-opt:
// RUN: qshape-opt %s -split-input-file --mlir-print-op-generic | %upstream_mlir_opt --load-pass-plugin=%pass_plugin --allow-unregistered-dialect -split-input-file --pass-pipeline='builtin.module(qshape-canonicalize)' | qshape-opt -split-input-file | FileCheck %s
// Where the gate stands changes the fingerprint:
// RUN: qshape-opt %s -split-input-file --qshape-fingerprint=emit-remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=FP

// A Hadamard on a wire set_state does not list, after it: it stays after.
// CHECK-LABEL: func.func @gate_after_set_state
// CHECK: quantum.set_state
// CHECK-NEXT: quantum.custom "Hadamard"
// FP: remark: qshape-fingerprint @gate_after_set_state: [[AFTER:blake3:[0-9a-f]+]]
func.func @gate_after_set_state(%s: tensor<4xcomplex<f64>>, %r: !quantum.reg) -> !quantum.reg {
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %x = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %a1, %b1 = quantum.set_state(%s) %a, %b : (tensor<4xcomplex<f64>>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  %x1 = quantum.custom "Hadamard"() %x : !quantum.bit
  %r1 = quantum.insert %r[ 0], %a1 : !quantum.reg, !quantum.bit
  %r2 = quantum.insert %r1[ 1], %b1 : !quantum.reg, !quantum.bit
  %r3 = quantum.insert %r2[ 2], %x1 : !quantum.reg, !quantum.bit
  return %r3 : !quantum.reg
}

// -----

// The same program with the Hadamard before set_state: it stays before, and
// the digest differs from the one above.
// CHECK-LABEL: func.func @gate_after_set_state
// CHECK: quantum.custom "Hadamard"
// CHECK-NEXT: quantum.set_state
// FP-NOT: @gate_after_set_state: [[AFTER]]
// FP: remark: qshape-fingerprint @set_basis_state_between
func.func @gate_after_set_state(%s: tensor<4xcomplex<f64>>, %r: !quantum.reg) -> !quantum.reg {
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %x = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %x1 = quantum.custom "Hadamard"() %x : !quantum.bit
  %a1, %b1 = quantum.set_state(%s) %a, %b : (tensor<4xcomplex<f64>>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  %r1 = quantum.insert %r[ 0], %a1 : !quantum.reg, !quantum.bit
  %r2 = quantum.insert %r1[ 1], %b1 : !quantum.reg, !quantum.bit
  %r3 = quantum.insert %r2[ 2], %x1 : !quantum.reg, !quantum.bit
  return %r3 : !quantum.reg
}

// -----

// set_basis_state between two gates on another wire: one before, one after.
// CHECK-LABEL: func.func @set_basis_state_between
// CHECK: quantum.custom "PauliX"
// CHECK-NEXT: quantum.set_basis_state
// CHECK-NEXT: quantum.custom "Hadamard"
func.func @set_basis_state_between(%bits: tensor<1xi1>, %r: !quantum.reg) -> !quantum.reg {
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %x = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %x1 = quantum.custom "PauliX"() %x : !quantum.bit
  %a1 = quantum.set_basis_state(%bits) %a : (tensor<1xi1>, !quantum.bit) -> !quantum.bit
  %x2 = quantum.custom "Hadamard"() %x1 : !quantum.bit
  %r1 = quantum.insert %r[ 0], %a1 : !quantum.reg, !quantum.bit
  %r2 = quantum.insert %r1[ 1], %x2 : !quantum.reg, !quantum.bit
  return %r2 : !quantum.reg
}
