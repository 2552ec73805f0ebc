// scf.if on a runtime condition chooses which gates run; results carry
// qubits and registers out of the branches.

// RUN: qshape-sim %s --args '[true, 0.25]' --decimals 12 | FileCheck %s --check-prefix=TRUE
// RUN: qshape-sim %s --args '[false, 0.25]' --decimals 12 | FileCheck %s --check-prefix=FALSE
// RUN: qshape-sim %s --args '[1, 0.75]' --decimals 12 | FileCheck %s --check-prefix=BOTH

// flip: X on wire 0. Then, if x > 0.5 (no else region), X on wire 1.
// TRUE: {"results": {{\[}}[0.0, 0.0, 1.0, 0.0]]}
// FALSE: {"results": {{\[}}[1.0, 0.0, 0.0, 0.0]]}
// BOTH: {"results": {{\[}}[0.0, 0.0, 0.0, 1.0]]}
func.func @circuit(%flip: i1, %x: f64) -> tensor<4xf64> attributes {qnode} {
  %half = arith.constant 0.5 : f64
  %r = quantum.alloc( 2) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = scf.if %flip -> (!quantum.bit) {
    %a = quantum.custom "PauliX"() %q : !quantum.bit
    scf.yield %a : !quantum.bit
  } else {
    scf.yield %q : !quantum.bit
  }
  %r1 = quantum.insert %r[ 0], %q1 : !quantum.reg, !quantum.bit
  %big = arith.cmpf ogt, %x, %half : f64
  %r2 = scf.if %big -> (!quantum.reg) {
    %p = quantum.extract %r1[ 1] : !quantum.reg -> !quantum.bit
    %p1 = quantum.custom "PauliX"() %p : !quantum.bit
    %rr = quantum.insert %r1[ 1], %p1 : !quantum.reg, !quantum.bit
    scf.yield %rr : !quantum.reg
  } else {
    scf.yield %r1 : !quantum.reg
  }
  scf.if %big {
    %unused = arith.addf %x, %x : f64
  }
  %o = quantum.compbasis qreg %r2 : !quantum.obs
  %pr = quantum.probs %o : tensor<4xf64>
  return %pr : tensor<4xf64>
}
