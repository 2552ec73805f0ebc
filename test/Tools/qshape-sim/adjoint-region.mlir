// quantum.adjoint regions: the region's gates are recorded, then applied in
// reverse order, each adjointed. Classical ops in the region run as usual.

// RUN: qshape-sim %s --entry undo --args '[0.4, 1.3]' --decimals 12 | FileCheck %s --check-prefix=UNDO
// RUN: qshape-sim %s --entry order --decimals 12 | FileCheck %s --check-prefix=ORDER
// RUN: qshape-sim %s --entry register --decimals 12 | FileCheck %s --check-prefix=REG
// RUN: qshape-sim %s --entry nested --decimals 12 | FileCheck %s --check-prefix=NESTED
// RUN: qshape-sim %s --entry phase_only --decimals 12 | FileCheck %s --check-prefix=PHASE
// RUN: qshape-sim %s --entry with_call --decimals 12 | FileCheck %s --check-prefix=CALL

// U = RY(b) RX(a) followed by adjoint(U) is the identity only if the
// adjoint runs RY(-b) before RX(-a).
// UNDO: {"results": [1.0, [1.0, 0.0]]}
func.func @undo(%a: f64, %b: f64) -> (f64, tensor<2xf64>) {
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "RX"(%a) %q : !quantum.bit
  %q2 = quantum.custom "RY"(%b) %q1 : !quantum.bit
  %q3 = quantum.adjoint(%q2) : !quantum.bit {
  ^bb0(%x: !quantum.bit):
    %x1 = quantum.custom "RX"(%a) %x : !quantum.bit
    %x2 = quantum.custom "RY"(%b) %x1 : !quantum.bit
    quantum.yield %x2 : !quantum.bit
  }
  %z = quantum.namedobs %q3[ PauliZ] : !quantum.obs
  %e = quantum.expval %z : f64
  %o = quantum.compbasis qubits %q3 : !quantum.obs
  %p = quantum.probs %o : tensor<2xf64>
  return %e, %p : f64, tensor<2xf64>
}

// adjoint(H; S) runs S^dagger, then H: on |0> that gives |+>, <Y> = 0
// (the unreversed H, then S^dagger, would give <Y> = -1). The angle of the
// second part is computed inside the region: adjoint(RZ(2 * pi/4)) after H
// on |0> gives <Y> = -sin(pi/2).
// ORDER: {"results": [0.0, -1.0]}
func.func @order() -> (f64, f64) {
  %quarter = arith.constant 0.7853981633974483 : f64
  %r = quantum.alloc( 2) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.adjoint(%q) : !quantum.bit {
  ^bb0(%x: !quantum.bit):
    %x1 = quantum.custom "Hadamard"() %x : !quantum.bit
    %x2 = quantum.custom "S"() %x1 : !quantum.bit
    quantum.yield %x2 : !quantum.bit
  }
  %y = quantum.namedobs %q1[ PauliY] : !quantum.obs
  %ey = quantum.expval %y : f64
  %p = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %p1 = quantum.custom "Hadamard"() %p : !quantum.bit
  %p2 = quantum.adjoint(%p1) : !quantum.bit {
  ^bb0(%x: !quantum.bit):
    %two = arith.constant 2.0 : f64
    %angle = arith.mulf %two, %quarter : f64
    %x1 = quantum.custom "RZ"(%angle) %x : !quantum.bit
    quantum.yield %x1 : !quantum.bit
  }
  %y2 = quantum.namedobs %p2[ PauliY] : !quantum.obs
  %ey2 = quantum.expval %y2 : f64
  return %ey, %ey2 : f64, f64
}

// Catalyst's form: the region takes and yields the register, with
// extract/insert inside. adjoint(X(0); CNOT(0, 1)) on |00> = CNOT then X:
// |00> -> |00> -> |10>.
// REG: {"results": {{\[}}[0.0, 0.0, 1.0, 0.0]]}
func.func @register() -> tensor<4xf64> {
  %r = quantum.alloc( 2) : !quantum.reg
  %r1 = quantum.adjoint(%r) : !quantum.reg {
  ^bb0(%x: !quantum.reg):
    %a = quantum.extract %x[ 0] : !quantum.reg -> !quantum.bit
    %a1 = quantum.custom "PauliX"() %a : !quantum.bit
    %b = quantum.extract %x[ 1] : !quantum.reg -> !quantum.bit
    %c:2 = quantum.custom "CNOT"() %a1, %b : !quantum.bit, !quantum.bit
    %x1 = quantum.insert %x[ 0], %c#0 : !quantum.reg, !quantum.bit
    %x2 = quantum.insert %x1[ 1], %c#1 : !quantum.reg, !quantum.bit
    quantum.yield %x2 : !quantum.reg
  }
  %o = quantum.compbasis qreg %r1 : !quantum.obs
  %p = quantum.probs %o : tensor<4xf64>
  return %p : tensor<4xf64>
}

// adjoint(adjoint(T)) = T: on |+>, <Y> = sin(pi/4). adjoint(ctrl(RX(t)))
// with a |1> control is RX(-t): <Y> = sin(t), t = pi/6.
// NESTED: {"results": [0.707106781187, 0.5]}
func.func @nested() -> (f64, f64) {
  %t = arith.constant 0.5235987755982988 : f64
  %true = arith.constant true
  %r = quantum.alloc( 3) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "Hadamard"() %q : !quantum.bit
  %q2 = quantum.adjoint(%q1) : !quantum.bit {
  ^bb0(%x: !quantum.bit):
    %x1 = quantum.adjoint(%x) : !quantum.bit {
    ^bb0(%y: !quantum.bit):
      %y1 = quantum.custom "T"() %y : !quantum.bit
      quantum.yield %y1 : !quantum.bit
    }
    quantum.yield %x1 : !quantum.bit
  }
  %yo = quantum.namedobs %q2[ PauliY] : !quantum.obs
  %e0 = quantum.expval %yo : f64
  %c = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %c1 = quantum.custom "PauliX"() %c : !quantum.bit
  %p = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %c2, %p1 = quantum.adjoint(%c1, %p) : !quantum.bit, !quantum.bit {
  ^bb0(%cc: !quantum.bit, %pp: !quantum.bit):
    %oc, %op = quantum.ctrl(%cc) ctrlvals(%true) (%pp) : !quantum.bit -> !quantum.bit {
    ^bb0(%z: !quantum.bit):
      %z1 = quantum.custom "RX"(%t) %z : !quantum.bit
      quantum.yield %z1 : !quantum.bit
    }
    quantum.yield %oc, %op : !quantum.bit, !quantum.bit
  }
  %y1 = quantum.namedobs %p1[ PauliY] : !quantum.obs
  %e1 = quantum.expval %y1 : f64
  return %e0, %e1 : f64, f64
}

// An adjoint region without qubits (a global phase only): exp(+i pi/2) = i.
// PHASE: {"results": {{\[}}{{\[}}[0.0, 1.0], [0.0, 0.0]]]}
func.func @phase_only() -> tensor<2xcomplex<f64>> {
  %phi = arith.constant 1.5707963267948966 : f64
  %r = quantum.alloc( 1) : !quantum.reg
  quantum.adjoint() {
    quantum.gphase(%phi)
  }
  %all = quantum.compbasis qreg %r : !quantum.obs
  %s = quantum.state %all : tensor<2xcomplex<f64>>
  return %s : tensor<2xcomplex<f64>>
}

// Gates applied by a function called inside the region are adjointed too:
// adjoint(call @s_gate) on |+> is S^dagger|+>, <Y> = -1.
// CALL: {"results": [-1.0]}
func.func private @s_gate(%q: !quantum.bit) -> !quantum.bit {
  %q1 = quantum.custom "S"() %q : !quantum.bit
  return %q1 : !quantum.bit
}
func.func @with_call() -> f64 {
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "Hadamard"() %q : !quantum.bit
  %q2 = quantum.adjoint(%q1) : !quantum.bit {
  ^bb0(%x: !quantum.bit):
    %x1 = func.call @s_gate(%x) : (!quantum.bit) -> !quantum.bit
    quantum.yield %x1 : !quantum.bit
  }
  %y = quantum.namedobs %q2[ PauliY] : !quantum.obs
  %e = quantum.expval %y : f64
  return %e : f64
}
