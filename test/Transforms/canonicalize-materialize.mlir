// qshape-canonicalize writes the canonical view back to the IR: these cases
// take the paths where the view and the IR disagree on where an op is
// (constants hoisted out of regions, dead ops holding them, merged and
// forwarded values, edited operand lists). The text written must have the
// digests of the input, and a second run must change nothing.
// RUN: qshape-opt %s --allow-unregistered-dialect --qshape-canonicalize -split-input-file | FileCheck %s
// RUN: qshape-opt %s --allow-unregistered-dialect --qshape-canonicalize -split-input-file > %t.view.mlir
// RUN: qshape-opt %s --allow-unregistered-dialect -split-input-file '--qshape-fingerprint=annotate=false emit-remarks' -o /dev/null 2>&1 | grep -o 'qshape-fingerprint .*' > %t.in.fp
// RUN: qshape-opt %t.view.mlir --allow-unregistered-dialect -split-input-file '--qshape-fingerprint=annotate=false emit-remarks' -o /dev/null 2>&1 | grep -o 'qshape-fingerprint .*' > %t.out.fp
// RUN: diff %t.in.fp %t.out.fp
// RUN: qshape-opt %t.view.mlir --allow-unregistered-dialect --qshape-canonicalize -split-input-file > %t.again.mlir
// RUN: diff %t.view.mlir %t.again.mlir
// Register and qubit values stay linear (qshape-check-linearity). The one
// report is the checker's on the input as well: it does not know that the
// successors of cf.cond_br are exclusive (@cfg).
// RUN: not qshape-opt %t.view.mlir --allow-unregistered-dialect --qshape-check-linearity -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=LINEAR --implicit-check-not=error:
// LINEAR: error: qshape-check-linearity: 'quantum.custom' consumes a qubit value that 'quantum.custom' consumes too

// A dead scf.if whose branches hold constants: they are hoisted first, then
// the if and (as their last users go) they die; one of them equals a live
// constant and is merged into it.
// CHECK-LABEL: func.func @dead_region_constants
// CHECK-NEXT: %[[C:.*]] = arith.constant 2.500000e-01 : f64
// CHECK-NEXT: %[[Q:.*]] = quantum.custom "RX"(%[[C]])
// CHECK-NEXT: return %[[Q]]
// CHECK-NOT: scf.if
func.func @dead_region_constants(%b: i1, %q: !quantum.bit) -> !quantum.bit {
  %x = scf.if %b -> f64 {
    %c = arith.constant 1.5 : f64
    scf.yield %c : f64
  } else {
    %d = arith.constant 2.5e-01 : f64
    scf.yield %d : f64
  }
  %a = arith.constant 0.25 : f64
  %q1 = quantum.custom "RX"(%a) %q : !quantum.bit
  return %q1 : !quantum.bit
}

// -----

// A live scf.for whose body constants move to the function's entry block,
// sorted with the others; the loop body keeps its own order.
// CHECK-LABEL: func.func @loop_constants
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: arith.constant 1 : index
// CHECK-NEXT: arith.constant 4 : index
// CHECK-NEXT: arith.constant 3.000000e-01 : f64
// CHECK-NEXT: arith.constant 0.69999999999999996 : f64
// CHECK-NEXT: scf.for
// CHECK-NEXT: quantum.custom "RY"
// CHECK-NEXT: quantum.custom "RZ"
// CHECK-NEXT: scf.yield
func.func @loop_constants(%q: !quantum.bit) -> !quantum.bit {
  %lb = arith.constant 0 : index
  %ub = arith.constant 4 : index
  %st = arith.constant 1 : index
  %r = scf.for %i = %lb to %ub step %st iter_args(%a = %q) -> (!quantum.bit) {
    %t = arith.constant 0.7 : f64
    %a1 = quantum.custom "RY"(%t) %a : !quantum.bit
    %u = arith.constant 0.3 : f64
    %a2 = quantum.custom "RZ"(%u) %a1 : !quantum.bit
    scf.yield %a2 : !quantum.bit
  }
  return %r : !quantum.bit
}

// -----

// Edited operand lists: a constant index becomes static (the operand goes),
// an extract reads past an insert at another wire (and so goes before it:
// a register is read before the insert that consumes it), and a no-op
// re-insert disappears; the unused extract dies.
// CHECK-LABEL: func.func @operand_edits
// CHECK-NEXT: %[[R:.*]] = quantum.alloc( 2)
// CHECK-NEXT: %[[Q0:.*]] = quantum.extract %[[R]][ 0]
// CHECK-NEXT: %[[H:.*]] = quantum.custom "Hadamard"() %[[Q0]]
// CHECK-NEXT: %[[Q1:.*]] = quantum.extract %[[R]][ 1]
// CHECK-NEXT: %[[X:.*]] = quantum.custom "PauliX"() %[[Q1]]
// CHECK-NEXT: %[[R1:.*]] = quantum.insert %[[R]][ 0], %[[H]]
// CHECK-NEXT: %[[R2:.*]] = quantum.insert %[[R1]][ 1], %[[X]]
// CHECK-NEXT: return %[[R2]]
func.func @operand_edits() -> !quantum.reg {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r = quantum.alloc( 2) : !quantum.reg
  %q0 = quantum.extract %r[%c0] : !quantum.reg -> !quantum.bit
  %h = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %r1 = quantum.insert %r[ 0], %h : !quantum.reg, !quantum.bit
  %q1 = quantum.extract %r1[%c1] : !quantum.reg -> !quantum.bit
  %x = quantum.custom "PauliX"() %q1 : !quantum.bit
  %r2 = quantum.insert %r1[ 1], %x : !quantum.reg, !quantum.bit
  %q1b = quantum.extract %r2[ 1] : !quantum.reg -> !quantum.bit
  %r3 = quantum.insert %r2[ 1], %q1b : !quantum.reg, !quantum.bit
  %unused = quantum.extract %r3[ 0] : !quantum.reg -> !quantum.bit
  return %r3 : !quantum.reg
}

// -----

// Several blocks: constants of every block go to the entry block, merged
// and sorted; the dead arith.addf goes.
// CHECK-LABEL: func.func @cfg
// CHECK-NEXT: arith.constant 1.250000e-01 : f64
// CHECK-NEXT: arith.constant 2.500000e-01 : f64
// CHECK-NEXT: arith.constant 5.000000e-01 : f64
// CHECK-NEXT: cf.cond_br
// CHECK-NOT: arith.addf
// CHECK: return
func.func @cfg(%b: i1, %q: !quantum.bit) -> !quantum.bit {
  %c = arith.constant 0.5 : f64
  cf.cond_br %b, ^bb1, ^bb2
^bb1:
  %d = arith.constant 0.25 : f64
  %e = arith.constant 0.5 : f64
  %q1 = quantum.custom "RX"(%d) %q : !quantum.bit
  %q2 = quantum.custom "RY"(%e) %q1 : !quantum.bit
  %dead = arith.addf %d, %e : f64
  cf.br ^bb3(%q2 : !quantum.bit)
^bb2:
  %f = arith.constant 0.125 : f64
  %q3 = quantum.custom "RZ"(%f) %q : !quantum.bit
  %q4 = quantum.custom "RZ"(%c) %q3 : !quantum.bit
  cf.br ^bb3(%q4 : !quantum.bit)
^bb3(%r: !quantum.bit):
  %g = arith.constant 0.5 : f64
  %r1 = quantum.custom "RX"(%g) %r : !quantum.bit
  return %r1 : !quantum.bit
}

// -----

// The region of an unknown op is left as it is (its equal constants too).
// CHECK-LABEL: func.func @unknown_region
// CHECK-NEXT: arith.constant 1.000000e+00 : f64
// CHECK-NEXT: "test.region"
// CHECK-NEXT: arith.constant 3.000000e+00 : f64
// CHECK-NEXT: arith.constant 3.000000e+00 : f64
// CHECK-NOT: arith.mulf
func.func @unknown_region(%q: !quantum.bit) -> !quantum.bit {
  %0 = "test.region"() ({
    %k = arith.constant 3.0 : f64
    %k2 = arith.constant 3.0 : f64
    %s = arith.addf %k, %k2 : f64
    "test.yield"(%s) : (f64) -> ()
  }) : () -> f64
  %a = arith.constant 1.0 : f64
  %b = arith.addf %a, %0 : f64
  %dead = arith.mulf %a, %a : f64
  %q1 = quantum.custom "RX"(%b) %q : !quantum.bit
  return %q1 : !quantum.bit
}
