// quantum.ctrl regions: every gate of the region (global phases included)
// gets the region's controls and control values.

// RUN: qshape-sim %s --entry cnot --decimals 12 | FileCheck %s --check-prefix=CNOT
// RUN: qshape-sim %s --entry ctrlval_false --decimals 12 | FileCheck %s --check-prefix=FALSE
// RUN: qshape-sim %s --entry phase --decimals 12 | FileCheck %s --check-prefix=PHASE
// RUN: qshape-sim %s --entry nested --decimals 12 | FileCheck %s --check-prefix=NESTED
// RUN: qshape-sim %s --entry register --decimals 12 | FileCheck %s --check-prefix=REG

// ctrl(X) under an H'd control acts as a CNOT and makes a Bell pair.
// CNOT: {"results": {{\[}}[0.5, 0.0, 0.0, 0.5]]}
func.func @cnot() -> tensor<4xf64> {
  %true = arith.constant true
  %r = quantum.alloc( 2) : !quantum.reg
  %c = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %c1 = quantum.custom "Hadamard"() %c : !quantum.bit
  %oc, %oq = quantum.ctrl(%c1) ctrlvals(%true) (%q) : !quantum.bit -> !quantum.bit {
  ^bb0(%x: !quantum.bit):
    %x1 = quantum.custom "PauliX"() %x : !quantum.bit
    quantum.yield %x1 : !quantum.bit
  }
  %o = quantum.compbasis qubits %oc, %oq : !quantum.obs
  %p = quantum.probs %o : tensor<4xf64>
  return %p : tensor<4xf64>
}

// ctrlvals(false) fires on a |0> control: |0>|1>.
// FALSE: {"results": {{\[}}[0.0, 1.0, 0.0, 0.0]]}
func.func @ctrlval_false() -> tensor<4xf64> {
  %false = arith.constant false
  %r = quantum.alloc( 2) : !quantum.reg
  %c = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %oc, %oq = quantum.ctrl(%c) ctrlvals(%false) (%q) : !quantum.bit -> !quantum.bit {
  ^bb0(%x: !quantum.bit):
    %x1 = quantum.custom "PauliX"() %x : !quantum.bit
    quantum.yield %x1 : !quantum.bit
  }
  %o = quantum.compbasis qubits %oc, %oq : !quantum.obs
  %p = quantum.probs %o : tensor<4xf64>
  return %p : tensor<4xf64>
}

// A controlled global phase exp(-i pi) = -1 is a Z on the control: |+> -> |->.
// PHASE: {"results": [-1.0]}
func.func @phase() -> f64 {
  %pi = arith.constant 3.141592653589793 : f64
  %true = arith.constant true
  %r = quantum.alloc( 1) : !quantum.reg
  %c = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %c1 = quantum.custom "Hadamard"() %c : !quantum.bit
  // (Generic form: the custom form has no spelling for a ctrl without targets.)
  %oc = "quantum.ctrl"(%c1, %true) <{operandSegmentSizes = array<i32: 1, 1, 0>, resultSegmentSizes = array<i32: 1, 0>}> ({
    quantum.gphase(%pi)
    quantum.yield
  }) : (!quantum.bit, i1) -> !quantum.bit
  %x = quantum.namedobs %oc[ PauliX] : !quantum.obs
  %e = quantum.expval %x : f64
  return %e : f64
}

// ctrl(c0) { ctrl(c1) { X } } is a Toffoli; with c1 = |0> nothing happens.
// NESTED: {"results": {{\[}}[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]]}
func.func @nested() -> (tensor<8xf64>, tensor<8xf64>) {
  %true = arith.constant true
  %r = quantum.alloc( 6) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %t = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %a1 = quantum.custom "PauliX"() %a : !quantum.bit
  %b1 = quantum.custom "PauliX"() %b : !quantum.bit
  %oa, %ob, %ot = quantum.ctrl(%a1) ctrlvals(%true) (%b1, %t) : !quantum.bit -> !quantum.bit, !quantum.bit {
  ^bb0(%x: !quantum.bit, %y: !quantum.bit):
    %ox, %oy = quantum.ctrl(%x) ctrlvals(%true) (%y) : !quantum.bit -> !quantum.bit {
    ^bb0(%z: !quantum.bit):
      %z1 = quantum.custom "PauliX"() %z : !quantum.bit
      quantum.yield %z1 : !quantum.bit
    }
    quantum.yield %ox, %oy : !quantum.bit, !quantum.bit
  }
  %o1 = quantum.compbasis qubits %oa, %ob, %ot : !quantum.obs
  %p1 = quantum.probs %o1 : tensor<8xf64>
  %d = quantum.extract %r[ 3] : !quantum.reg -> !quantum.bit
  %e = quantum.extract %r[ 4] : !quantum.reg -> !quantum.bit
  %u = quantum.extract %r[ 5] : !quantum.reg -> !quantum.bit
  %d1 = quantum.custom "PauliX"() %d : !quantum.bit
  %od, %oe, %ou = quantum.ctrl(%d1) ctrlvals(%true) (%e, %u) : !quantum.bit -> !quantum.bit, !quantum.bit {
  ^bb0(%x: !quantum.bit, %y: !quantum.bit):
    %ox, %oy = quantum.ctrl(%x) ctrlvals(%true) (%y) : !quantum.bit -> !quantum.bit {
    ^bb0(%z: !quantum.bit):
      %z1 = quantum.custom "PauliX"() %z : !quantum.bit
      quantum.yield %z1 : !quantum.bit
    }
    quantum.yield %ox, %oy : !quantum.bit, !quantum.bit
  }
  %o2 = quantum.compbasis qubits %od, %oe, %ou : !quantum.obs
  %p2 = quantum.probs %o2 : tensor<8xf64>
  return %p1, %p2 : tensor<8xf64>, tensor<8xf64>
}

// Catalyst's form with a register argument; controls an adjoint region too:
// ctrl(adjoint(S)) with a |1> control on |+> gives <Y> = -1.
// REG: {"results": [-1.0]}
func.func @register() -> f64 {
  %true = arith.constant true
  %r = quantum.alloc( 2) : !quantum.reg
  %c = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %c1 = quantum.custom "PauliX"() %c : !quantum.bit
  %q = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "Hadamard"() %q : !quantum.bit
  %r1 = quantum.insert %r[ 1], %q1 : !quantum.reg, !quantum.bit
  %oc, %or = quantum.ctrl(%c1) ctrlvals(%true) (%r1) : !quantum.bit -> !quantum.reg {
  ^bb0(%x: !quantum.reg):
    %x1 = quantum.adjoint(%x) : !quantum.reg {
    ^bb0(%y: !quantum.reg):
      %a = quantum.extract %y[ 1] : !quantum.reg -> !quantum.bit
      %a1 = quantum.custom "S"() %a : !quantum.bit
      %y1 = quantum.insert %y[ 1], %a1 : !quantum.reg, !quantum.bit
      quantum.yield %y1 : !quantum.reg
    }
    quantum.yield %x1 : !quantum.reg
  }
  %t = quantum.extract %or[ 1] : !quantum.reg -> !quantum.bit
  %y = quantum.namedobs %t[ PauliY] : !quantum.obs
  %e = quantum.expval %y : f64
  return %e : f64
}
