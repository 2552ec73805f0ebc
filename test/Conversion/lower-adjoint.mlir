// RUN: qshape-opt %s --split-input-file --qshape-lower-adjoint | FileCheck %s
// Generic form, dialect not loaded:
// RUN: qshape-opt %s --split-input-file --mlir-print-op-generic | %upstream_mlir_opt --allow-unregistered-dialect --load-pass-plugin=%pass_plugin --split-input-file --pass-pipeline='builtin.module(qshape-lower-adjoint)' | FileCheck %s --check-prefix=GENERIC

// The gates in reverse order, each flag flipped; extract and insert swap;
// classical ops first, in order.
// CHECK-LABEL: func.func @straight(
// CHECK-SAME: %[[R0:.*]]: !quantum.reg, %[[T:.*]]: f64)
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2.0
// CHECK-NEXT: %[[T2:.*]] = arith.mulf %[[T]], %[[TWO]] : f64
// CHECK-NEXT: %[[Q:.*]] = quantum.extract %[[R0]][ 0]
// CHECK-NEXT: %[[B:.*]] = quantum.custom "RY"(%[[T2]]) %[[Q]] : !quantum.bit
// CHECK-NEXT: %[[A:.*]] = quantum.custom "RX"(%[[T]]) %[[B]] adj : !quantum.bit
// CHECK-NEXT: %[[R1:.*]] = quantum.insert %[[R0]][ 0], %[[A]]
// CHECK-NEXT: return %[[R1]]
// GENERIC-LABEL: @straight
// GENERIC: "quantum.custom"(%{{.*}}, %{{.*}}) <{gate_name = "RY", {{[^{]*}}}> :
// GENERIC: "quantum.custom"(%{{.*}}, %{{.*}}) <{gate_name = "RX", {{.*}}}> {adjoint}
// GENERIC-NOT: quantum.adjoint
func.func @straight(%r0: !quantum.reg, %t: f64) -> !quantum.reg {
  %r1 = quantum.adjoint(%r0) : !quantum.reg {
  ^bb0(%r: !quantum.reg):
    %two = arith.constant 2.0 : f64
    %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
    %a = quantum.custom "RX"(%t) %q : !quantum.bit
    %t2 = arith.mulf %t, %two : f64
    %b = quantum.custom "RY"(%t2) %a adj : !quantum.bit
    %r2 = quantum.insert %r[ 0], %b : !quantum.reg, !quantum.bit
    quantum.yield %r2 : !quantum.reg
  }
  return %r1 : !quantum.reg
}

// -----

// Qubit arguments flow backwards through multi-qubit and controlled gates,
// and gphase (with its controls) is inverted too. adjoint(adjoint(U)) = U:
// the inner region is lowered first.
// CHECK-LABEL: func.func @qubits(
// CHECK-SAME: %[[Q0:[^:]*]]: !quantum.bit, %[[Q1:[^:]*]]: !quantum.bit, %[[C:[^:]*]]: !quantum.bit
// CHECK-NEXT: %[[G:.*]] = quantum.gphase(%{{.*}}) ctrls(%[[C]]) ctrlvals(%{{.*}}) : ctrls !quantum.bit
// CHECK-NEXT: %[[X:.*]]:2 = quantum.custom "CNOT"() %[[Q0]], %[[Q1]] adj : !quantum.bit, !quantum.bit
// CHECK-NEXT: %[[H:.*]], %[[HC:.*]] = quantum.custom "Hadamard"() %[[X]]#0 adj ctrls(%[[G]])
// CHECK-NEXT: %[[S:.*]] = quantum.custom "S"() %[[H]] adj : !quantum.bit
// CHECK-NEXT: %[[T:.*]] = quantum.custom "T"() %[[S]] adj : !quantum.bit
// CHECK-NEXT: return %[[T]], %[[X]]#1, %[[HC]]
func.func @qubits(%q0: !quantum.bit, %q1: !quantum.bit, %c: !quantum.bit, %phi: f64, %v: i1) -> (!quantum.bit, !quantum.bit, !quantum.bit) {
  %r:3 = quantum.adjoint(%q0, %q1, %c) : !quantum.bit, !quantum.bit, !quantum.bit {
  ^bb0(%a: !quantum.bit, %b: !quantum.bit, %cc: !quantum.bit):
    %in = quantum.adjoint(%a) : !quantum.bit {
    ^bb1(%z: !quantum.bit):
      %s = quantum.custom "S"() %z adj : !quantum.bit
      %t = quantum.custom "T"() %s adj : !quantum.bit
      quantum.yield %t : !quantum.bit
    }
    %h, %hc = quantum.custom "Hadamard"() %in ctrls(%cc) ctrlvals(%v) : !quantum.bit ctrls !quantum.bit
    %x:2 = quantum.custom "CNOT"() %h, %b : !quantum.bit, !quantum.bit
    %g = quantum.gphase(%phi) adj ctrls(%hc) ctrlvals(%v) : ctrls !quantum.bit
    quantum.yield %x#0, %x#1, %g : !quantum.bit, !quantum.bit, !quantum.bit
  }
  return %r#0, %r#1, %r#2 : !quantum.bit, !quantum.bit, !quantum.bit
}

// -----

// scf.for: the same iteration space, the induction variable reversed as
// lb + last - iv, the body reversed and its classical ops recomputed from
// the reversed variable. Constant bounds give a constant lb + last.
// CHECK-LABEL: func.func @loops(
// CHECK-SAME: %[[R0:.*]]: !quantum.reg, %[[N:.*]]: index
// The region's constants are copied first. Then the dynamic loop (the last
// in the region) comes first: last = lb + ((ub - lb - 1) / step) * step.
// CHECK: arith.constant 7 : index
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[SPAN:.*]] = arith.subi %[[N]], %[[LB:.*]] : index
// CHECK-NEXT: %[[SPAN1:.*]] = arith.subi %[[SPAN]], %[[ONE]] : index
// CHECK-NEXT: %[[STEPS:.*]] = arith.divsi %[[SPAN1]], %[[STEP:.*]] : index
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[STEPS]], %[[STEP]] : index
// CHECK-NEXT: %[[LAST:.*]] = arith.addi %[[LB]], %[[OFF]] : index
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[LB]], %[[LAST]] : index
// CHECK-NEXT: %[[D:.*]] = scf.for %[[I:.*]] = %[[LB]] to %[[N]] step %[[STEP]] iter_args(%[[REG:.*]] = %[[R0]])
// CHECK-NEXT: %[[IV:.*]] = arith.subi %[[SUM]], %[[I]] : index
// CHECK-NEXT: %[[W:.*]] = arith.index_cast %[[IV]] : index to i64
// CHECK-NEXT: %[[Q:.*]] = quantum.extract %[[REG]][%[[W]]]
// CHECK-NEXT: %[[TQ:.*]] = quantum.custom "T"() %[[Q]] adj
// CHECK-NEXT: quantum.insert %[[REG]][%[[W]]], %[[TQ]]
// Constant bounds 1 to 7 step 2 (iv 1, 3, 5): lb + last = 6.
// CHECK: %[[SIX:.*]] = arith.constant 6 : index
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[REG2:.*]] = %[[D]])
// CHECK-NEXT: %[[JV:.*]] = arith.subi %[[SIX]], %[[J]] : index
// CHECK-NEXT: %[[W2:.*]] = arith.index_cast %[[JV]] : index to i64
// CHECK-NEXT: %[[F:.*]] = arith.sitofp %[[W2]] : i64 to f64
// CHECK-NEXT: %[[Q2:.*]] = quantum.extract %[[REG2]][%[[W2]]]
// CHECK-NEXT: quantum.custom "RZ"(%[[F]]) %[[Q2]] adj
func.func @loops(%r0: !quantum.reg, %n: index) -> !quantum.reg {
  %r1 = quantum.adjoint(%r0) : !quantum.reg {
  ^bb0(%r: !quantum.reg):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c7 = arith.constant 7 : index
    %x = scf.for %i = %c1 to %c7 step %c2 iter_args(%reg = %r) -> (!quantum.reg) {
      %w = arith.index_cast %i : index to i64
      %f = arith.sitofp %w : i64 to f64
      %q = quantum.extract %reg[%w] : !quantum.reg -> !quantum.bit
      %a = quantum.custom "RZ"(%f) %q : !quantum.bit
      %r2 = quantum.insert %reg[%w], %a : !quantum.reg, !quantum.bit
      scf.yield %r2 : !quantum.reg
    }
    %y = scf.for %i = %c0 to %n step %c1 iter_args(%reg = %x) -> (!quantum.reg) {
      %w = arith.index_cast %i : index to i64
      %q = quantum.extract %reg[%w] : !quantum.reg -> !quantum.bit
      %a = quantum.custom "T"() %q : !quantum.bit
      %r2 = quantum.insert %reg[%w], %a : !quantum.reg, !quantum.bit
      scf.yield %r2 : !quantum.reg
    }
    quantum.yield %y : !quantum.reg
  }
  return %r1 : !quantum.reg
}

// -----

// scf.if keeps its condition; each branch is reversed and yields what the
// original consumed. A quantum.ctrl region stays a ctrl region around the
// reversed body.
// CHECK-LABEL: func.func @if_and_ctrl(
// CHECK-SAME: %[[Q:[^:]*]]: !quantum.bit, %[[C:[^:]*]]: !quantum.bit, %[[COND:[^:]*]]: i1
// CHECK: %[[OC:.*]], %[[OQ:.*]] = quantum.ctrl(%[[C]]) ctrlvals(%[[COND]]) (%[[Q]]) : !quantum.bit -> !quantum.bit {
// CHECK-NEXT: ^bb0(%[[A:.*]]: !quantum.bit):
// CHECK-NEXT: %[[Y:.*]] = quantum.custom "PauliY"() %[[A]] adj
// CHECK-NEXT: quantum.yield %[[Y]]
// CHECK: %[[IF:.*]] = scf.if %[[COND]] -> (!quantum.bit) {
// CHECK-NEXT: %[[X:.*]] = quantum.custom "RX"(%{{.*}}) %[[OQ]] adj
// CHECK-NEXT: scf.yield %[[X]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[OQ]]
// CHECK: return %[[IF]], %[[OC]]
func.func @if_and_ctrl(%q: !quantum.bit, %c: !quantum.bit, %cond: i1, %t: f64) -> (!quantum.bit, !quantum.bit) {
  %r:2 = quantum.adjoint(%q, %c) : !quantum.bit, !quantum.bit {
  ^bb0(%a: !quantum.bit, %b: !quantum.bit):
    %i = scf.if %cond -> (!quantum.bit) {
      %x = quantum.custom "RX"(%t) %a : !quantum.bit
      scf.yield %x : !quantum.bit
    } else {
      scf.yield %a : !quantum.bit
    }
    %oc, %oq = quantum.ctrl(%b) ctrlvals(%cond) (%i) : !quantum.bit -> !quantum.bit {
    ^bb1(%z: !quantum.bit):
      %y = quantum.custom "PauliY"() %z : !quantum.bit
      quantum.yield %y : !quantum.bit
    }
    quantum.yield %oq, %oc : !quantum.bit, !quantum.bit
  }
  return %r#0, %r#1 : !quantum.bit, !quantum.bit
}

// -----

// An allocation in the region is released by the inverse, and its release
// becomes an allocation of the same size.
// CHECK-LABEL: func.func @alloc(
// CHECK-NEXT: %[[R:.*]] = quantum.alloc( 2) : !quantum.reg
// CHECK-NEXT: %[[Q:.*]] = quantum.extract %[[R]][ 1]
// CHECK-NEXT: %[[H:.*]] = quantum.custom "Hadamard"() %[[Q]] adj
// CHECK-NEXT: %[[R2:.*]] = quantum.insert %[[R]][ 1], %[[H]]
// CHECK-NEXT: quantum.dealloc %[[R2]]
func.func @alloc(%q: !quantum.bit) -> !quantum.bit {
  %o = quantum.adjoint(%q) : !quantum.bit {
  ^bb0(%a: !quantum.bit):
    %r = quantum.alloc( 2) : !quantum.reg
    %x = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
    %h = quantum.custom "Hadamard"() %x : !quantum.bit
    %r2 = quantum.insert %r[ 1], %h : !quantum.reg, !quantum.bit
    quantum.dealloc %r2 : !quantum.reg
    quantum.yield %a : !quantum.bit
  }
  return %o : !quantum.bit
}
