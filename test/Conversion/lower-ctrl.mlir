// RUN: qshape-opt %s --split-input-file --qshape-lower-ctrl | FileCheck %s
// Generic form, dialect not loaded:
// RUN: qshape-opt %s --split-input-file --mlir-print-op-generic | %upstream_mlir_opt --allow-unregistered-dialect --load-pass-plugin=%pass_plugin --split-input-file --pass-pipeline='builtin.module(qshape-lower-ctrl)' | FileCheck %s --check-prefix=GENERIC

// Each gate gains the region's controls after its own; the control qubits
// are threaded gate to gate and become the region's out_ctrl_qubits.
// CHECK-LABEL: func.func @gates(
// CHECK-SAME: %[[C:[^:]*]]: !quantum.bit, %[[D:[^:]*]]: !quantum.bit, %[[Q:[^:]*]]: !quantum.bit, %[[E:[^:]*]]: !quantum.bit, %[[T:[^:]*]]: f64, %[[V:[^:]*]]: i1
// CHECK: %[[FALSE:.*]] = arith.constant false
// CHECK-NEXT: %[[H:.*]], %[[HC:.*]]:2 = quantum.custom "Hadamard"() %[[Q]] ctrls(%[[C]], %[[D]]) ctrlvals(%[[V]], %[[FALSE]])
// CHECK-NEXT: %[[G:.*]]:2 = quantum.gphase(%[[T]]) ctrls(%[[HC]]#0, %[[HC]]#1) ctrlvals(%[[V]], %[[FALSE]]) : ctrls !quantum.bit, !quantum.bit
// A gate with a control of its own keeps it first.
// CHECK-NEXT: %[[X:.*]], %[[XC:.*]]:3 = quantum.custom "RX"(%[[T]]) %[[H]] adj ctrls(%[[E]], %[[G]]#0, %[[G]]#1) ctrlvals(%[[V]], %[[V]], %[[FALSE]])
// CHECK-NEXT: %[[P:.*]]:2, %[[PC:.*]]:2 = quantum.paulirot ["X", "Y"](%[[T]]) %[[X]], %[[XC]]#0 ctrls(%[[XC]]#1, %[[XC]]#2)
// CHECK-NEXT: return %[[PC]]#0, %[[PC]]#1, %[[P]]#0, %[[P]]#1
// GENERIC-LABEL: @gates
// GENERIC: "quantum.custom"({{.*}}) {{.*}}gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 2, 2>, resultSegmentSizes = array<i32: 1, 2>
// GENERIC: "quantum.gphase"({{.*}}) {{.*}}operandSegmentSizes = array<i32: 1, 2, 2>
// GENERIC-NOT: quantum.ctrl
func.func @gates(%c: !quantum.bit, %d: !quantum.bit, %q: !quantum.bit, %e: !quantum.bit, %t: f64, %v: i1) -> (!quantum.bit, !quantum.bit, !quantum.bit, !quantum.bit) {
  %false = arith.constant false
  %oc:2, %oq:2 = quantum.ctrl(%c, %d) ctrlvals(%v, %false) (%q, %e) : !quantum.bit, !quantum.bit -> !quantum.bit, !quantum.bit {
  ^bb0(%a: !quantum.bit, %b: !quantum.bit):
    %h = quantum.custom "Hadamard"() %a : !quantum.bit
    quantum.gphase(%t)
    %x, %xc = quantum.custom "RX"(%t) %h adj ctrls(%b) ctrlvals(%v) : !quantum.bit ctrls !quantum.bit
    %p:2 = quantum.paulirot ["X", "Y"](%t) %x, %xc : !quantum.bit, !quantum.bit
    quantum.yield %p#0, %p#1 : !quantum.bit, !quantum.bit
  }
  return %oc#0, %oc#1, %oq#0, %oq#1 : !quantum.bit, !quantum.bit, !quantum.bit, !quantum.bit
}

// -----

// Nested ctrl regions: the inner one first, then the outer controls are
// added after the inner ones.
// CHECK-LABEL: func.func @nested(
// CHECK-SAME: %[[C:[^:]*]]: !quantum.bit, %[[D:[^:]*]]: !quantum.bit, %[[Q:[^:]*]]: !quantum.bit, %[[V:[^:]*]]: i1, %[[W:[^:]*]]: i1
// CHECK-NEXT: %[[Z:.*]], %[[ZC:.*]]:2 = quantum.custom "PauliZ"() %[[Q]] ctrls(%[[D]], %[[C]]) ctrlvals(%[[W]], %[[V]])
// CHECK-NEXT: return %[[ZC]]#1, %[[ZC]]#0, %[[Z]]
func.func @nested(%c: !quantum.bit, %d: !quantum.bit, %q: !quantum.bit, %v: i1, %w: i1) -> (!quantum.bit, !quantum.bit, !quantum.bit) {
  %oc, %od, %oq = quantum.ctrl(%c) ctrlvals(%v) (%d, %q) : !quantum.bit -> !quantum.bit, !quantum.bit {
  ^bb0(%dd: !quantum.bit, %a: !quantum.bit):
    %id, %iq = quantum.ctrl(%dd) ctrlvals(%w) (%a) : !quantum.bit -> !quantum.bit {
    ^bb1(%b: !quantum.bit):
      %z = quantum.custom "PauliZ"() %b : !quantum.bit
      quantum.yield %z : !quantum.bit
    }
    quantum.yield %id, %iq : !quantum.bit, !quantum.bit
  }
  return %oc, %od, %oq : !quantum.bit, !quantum.bit, !quantum.bit
}

// -----

// Control flow carries the controls: extra iter_args of scf.for, extra
// results of scf.if, extra arguments and results of quantum.adjoint.
// Register accesses and classical ops are copied unchanged.
// CHECK-LABEL: func.func @control_flow(
// CHECK-SAME: %[[C:[^:]*]]: !quantum.bit, %[[R:[^:]*]]: !quantum.reg, %[[Q:[^:]*]]: !quantum.bit, %[[N:[^:]*]]: index, %[[B:[^:]*]]: i1, %[[V:[^:]*]]: i1
// CHECK: %[[L:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[REG:.*]] = %[[R]], %[[LC:.*]] = %[[C]]) -> (!quantum.reg, !quantum.bit)
// CHECK: quantum.extract %[[REG]]
// CHECK: %[[T:.*]], %[[TC:.*]] = quantum.custom "T"() %{{.*}} ctrls(%[[LC]]) ctrlvals(%[[V]])
// CHECK: scf.yield %{{.*}}, %[[TC]] : !quantum.reg, !quantum.bit
// CHECK: %[[I:.*]]:2 = scf.if %[[B]] -> (!quantum.bit, !quantum.bit) {
// CHECK-NEXT: %[[X:.*]], %[[XC:.*]] = quantum.custom "PauliX"() %[[Q]] ctrls(%[[L]]#1)
// CHECK-NEXT: scf.yield %[[X]], %[[XC]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[Q]], %[[L]]#1
// CHECK: %[[A:.*]]:2 = quantum.adjoint(%[[I]]#0, %[[I]]#1) : !quantum.bit, !quantum.bit {
// CHECK-NEXT: ^bb0(%[[AQ:.*]]: !quantum.bit, %[[AC:.*]]: !quantum.bit):
// CHECK-NEXT: %[[S:.*]], %[[SC:.*]] = quantum.custom "S"() %[[AQ]] ctrls(%[[AC]]) ctrlvals(%[[V]])
// CHECK-NEXT: quantum.yield %[[S]], %[[SC]]
// CHECK: return %[[A]]#1, %[[L]]#0, %[[A]]#0
func.func @control_flow(%c: !quantum.bit, %r: !quantum.reg, %q: !quantum.bit, %n: index, %b: i1, %v: i1) -> (!quantum.bit, !quantum.reg, !quantum.bit) {
  %oc, %or, %oq = quantum.ctrl(%c) ctrlvals(%v) (%r, %q) : !quantum.bit -> !quantum.reg, !quantum.bit {
  ^bb0(%reg0: !quantum.reg, %a: !quantum.bit):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %l = scf.for %i = %c0 to %n step %c1 iter_args(%reg = %reg0) -> (!quantum.reg) {
      %w = arith.index_cast %i : index to i64
      %x = quantum.extract %reg[%w] : !quantum.reg -> !quantum.bit
      %t = quantum.custom "T"() %x : !quantum.bit
      %r2 = quantum.insert %reg[%w], %t : !quantum.reg, !quantum.bit
      scf.yield %r2 : !quantum.reg
    }
    %i = scf.if %b -> (!quantum.bit) {
      %x = quantum.custom "PauliX"() %a : !quantum.bit
      scf.yield %x : !quantum.bit
    } else {
      scf.yield %a : !quantum.bit
    }
    %s = quantum.adjoint(%i) : !quantum.bit {
    ^bb1(%z: !quantum.bit):
      %y = quantum.custom "S"() %z : !quantum.bit
      quantum.yield %y : !quantum.bit
    }
    quantum.yield %l, %s : !quantum.reg, !quantum.bit
  }
  return %oc, %or, %oq : !quantum.bit, !quantum.reg, !quantum.bit
}
