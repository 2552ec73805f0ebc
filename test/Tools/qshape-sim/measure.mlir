// quantum.measure: postselection, seeded outcomes, collapse, feed-forward.

// RUN: qshape-sim %s --entry postselect --decimals 12 | FileCheck %s --check-prefix=POST
// RUN: qshape-sim %s --entry outcomes --seed 1 | FileCheck %s --check-prefix=SEED1
// RUN: qshape-sim %s --entry outcomes --seed 1 | FileCheck %s --check-prefix=SEED1
// RUN: qshape-sim %s --entry outcomes --seed 2 | FileCheck %s --check-prefix=SEED2
// RUN: qshape-sim %s --entry collapse --seed 1 --decimals 12 | FileCheck %s --check-prefix=COLLAPSE
// RUN: qshape-sim %s --entry collapse --seed 2 --decimals 12 | FileCheck %s --check-prefix=COLLAPSE
// RUN: qshape-sim %s --entry collapse --seed 3 --decimals 12 | FileCheck %s --check-prefix=COLLAPSE
// RUN: qshape-sim %s --entry reset --seed 1 --decimals 12 | FileCheck %s --check-prefix=RESET
// RUN: qshape-sim %s --entry reset --seed 5 --decimals 12 | FileCheck %s --check-prefix=RESET

// Postselecting 1 on |+> gives true and |1>; postselecting 0 gives false, |0>.
// POST: {"results": [true, -1.0, false, 1.0]}
func.func @postselect() -> (i1, f64, i1, f64) {
  %r = quantum.alloc( 2) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %a1 = quantum.custom "Hadamard"() %a : !quantum.bit
  %b1 = quantum.custom "Hadamard"() %b : !quantum.bit
  %m1, %a2 = quantum.measure %a1 postselect 1 : i1, !quantum.bit
  %m2, %b2 = quantum.measure %b1 postselect 0 : i1, !quantum.bit
  %za = quantum.namedobs %a2[ PauliZ] : !quantum.obs
  %ea = quantum.expval %za : f64
  %zb = quantum.namedobs %b2[ PauliZ] : !quantum.obs
  %eb = quantum.expval %zb : f64
  return %m1, %ea, %m2, %eb : i1, f64, i1, f64
}

// Eight |+> qubits measured: the outcomes depend on the seed only (the
// simulator's generator is the same on every platform).
// SEED1: {"results": {{\[}}[true, true, true, true, true, false, true, true]]}
// SEED2: {"results": {{\[}}[false, false, false, false, true, true, true, true]]}
func.func @outcomes() -> tensor<8xi1> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r = quantum.alloc( 8) : !quantum.reg
  %init = arith.constant dense<false> : tensor<8xi1>
  %out = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (tensor<8xi1>) {
    %i64 = arith.index_cast %i : index to i64
    %q = quantum.extract %r[%i64] : !quantum.reg -> !quantum.bit
    %h = quantum.custom "Hadamard"() %q : !quantum.bit
    %m, %q1 = quantum.measure %h : i1, !quantum.bit
    %acc1 = tensor.insert %m into %acc[%i] : tensor<8xi1>
    scf.yield %acc1 : tensor<8xi1>
  }
  return %out : tensor<8xi1>
}

// After a measurement the qubit is in the measured state: <Z> = 1 - 2m.
// COLLAPSE: {"results": [{{true, -1.0|false, 1.0}}]}
func.func @collapse() -> (i1, f64) {
  %t = arith.constant 1.2 : f64
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "RY"(%t) %q : !quantum.bit
  %m, %q2 = quantum.measure %q1 : i1, !quantum.bit
  %z = quantum.namedobs %q2[ PauliZ] : !quantum.obs
  %e = quantum.expval %z : f64
  return %m, %e : i1, f64
}

// Feed-forward: measure, then X if the outcome was 1: always |0>.
// RESET: {"results": [1.0]}
func.func @reset() -> f64 {
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "Hadamard"() %q : !quantum.bit
  %m, %q2 = quantum.measure %q1 : i1, !quantum.bit
  %q3 = scf.if %m -> (!quantum.bit) {
    %x = quantum.custom "PauliX"() %q2 : !quantum.bit
    scf.yield %x : !quantum.bit
  } else {
    scf.yield %q2 : !quantum.bit
  }
  %z = quantum.namedobs %q3[ PauliZ] : !quantum.obs
  %e = quantum.expval %z : f64
  return %e : f64
}
