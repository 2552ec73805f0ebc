// RUN: qshape-opt %s --allow-unregistered-dialect --qshape-canonicalize -split-input-file | FileCheck %s
// Idempotence: a second run changes nothing.
// RUN: qshape-opt %s --allow-unregistered-dialect --qshape-canonicalize -split-input-file > %t.1.mlir
// RUN: qshape-opt %t.1.mlir --allow-unregistered-dialect --qshape-canonicalize -split-input-file > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// Register and qubit values stay linear (qshape-check-linearity; the inputs
// are linear but for @reinsert, which inserts a qubit twice, and whose
// output is).
// RUN: qshape-opt %s --allow-unregistered-dialect --qshape-canonicalize --qshape-check-linearity -split-input-file -o /dev/null
// Each rule counts its rewrites (emit-remarks; the same counts are the pass
// statistics), one remark per module below, in order.
// RUN: qshape-opt %s --allow-unregistered-dialect --qshape-canonicalize=emit-remarks -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// Unregistered (generic) quantum ops get the same treatment.
// RUN: qshape-opt %s --allow-unregistered-dialect -split-input-file --mlir-print-op-generic | %upstream_mlir_opt --load-pass-plugin=%pass_plugin --allow-unregistered-dialect -split-input-file --pass-pipeline='builtin.module(qshape-canonicalize)' | qshape-opt --allow-unregistered-dialect -split-input-file | FileCheck %s

// Rule 1: constant index operands become static attributes.
// REMARK: qshape-canonicalize: {{[0-9]+}} ops; static-indices 3, dead-ops 2, constants-merged 0, ops-merged 0, reads-past-inserts 0, round-trips 0, inserts-dropped 0, insert-chains-sorted 0, blocks-reordered 0
// CHECK-LABEL: func.func @static_index
// CHECK-NOT: arith.constant
// CHECK: quantum.alloc( 2)
// CHECK: quantum.extract %{{.*}}[ 1]
// CHECK: quantum.insert %{{.*}}[ 1], %
func.func @static_index() -> !quantum.reg {
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %r = quantum.alloc(%c2) : !quantum.reg
  %q = quantum.extract %r[%c1] : !quantum.reg -> !quantum.bit
  %h = quantum.custom "Hadamard"() %q : !quantum.bit
  %r1 = quantum.insert %r[%c1], %h : !quantum.reg, !quantum.bit
  return %r1 : !quantum.reg
}

// -----

// Rule 2: constants go to the top, merged and sorted (floats last).
// REMARK: qshape-canonicalize: {{[0-9]+}} ops; static-indices 0, dead-ops 0, constants-merged 1, ops-merged 0, reads-past-inserts 0, round-trips 0, inserts-dropped 0, insert-chains-sorted 0, blocks-reordered 0
// CHECK-LABEL: func.func @constants
// CHECK-NEXT: arith.constant 3 : index
// CHECK-NEXT: arith.constant 5.000000e-01 : f64
// CHECK-NOT: arith.constant
// CHECK: quantum.custom "RX"(%[[A:.*]]) %
// CHECK: quantum.custom "RY"(%[[A]]) %
func.func @constants(%r: !quantum.reg, %t: tensor<4xf64>) -> (!quantum.reg, f64) {
  %a = arith.constant 0.5 : f64
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "RX"(%a) %q : !quantum.bit
  %b = arith.constant 0.5 : f64
  %q2 = quantum.custom "RY"(%b) %q1 : !quantum.bit
  %r1 = quantum.insert %r[ 0], %q2 : !quantum.reg, !quantum.bit
  %i = arith.constant 3 : index
  %x = tensor.extract %t[%i] : tensor<4xf64>
  return %r1, %x : !quantum.reg, f64
}

// -----

// Rule 3: equal pure non-quantum ops are merged.
// REMARK: qshape-canonicalize: {{[0-9]+}} ops; static-indices 0, dead-ops 0, constants-merged 0, ops-merged 1, reads-past-inserts 0, round-trips 0, inserts-dropped 0, insert-chains-sorted 0, blocks-reordered 0
// CHECK-LABEL: func.func @merge
// CHECK: tensor.extract
// CHECK-NOT: tensor.extract
// CHECK: return
func.func @merge(%t: tensor<2xf64>) -> (f64, f64) {
  %c0 = arith.constant 0 : index
  %x = tensor.extract %t[%c0] : tensor<2xf64>
  %y = tensor.extract %t[%c0] : tensor<2xf64>
  return %x, %y : f64, f64
}

// -----

// Rule 4: register accesses are forwarded; rule 5: dead ops disappear.
// REMARK: qshape-canonicalize: {{[0-9]+}} ops; static-indices 0, dead-ops 3, constants-merged 0, ops-merged 0, reads-past-inserts 2, round-trips 1, inserts-dropped 1, insert-chains-sorted 0, blocks-reordered 0
// CHECK-LABEL: func.func @forward
// CHECK: %[[Q:.*]] = quantum.extract %arg0[ 0]
// CHECK-NEXT: %[[H:.*]] = quantum.custom "Hadamard"() %[[Q]]
// CHECK-NEXT: %[[X:.*]] = quantum.custom "PauliX"() %[[H]]
// CHECK-NEXT: %[[R:.*]] = quantum.insert %arg0[ 0], %[[X]]
// CHECK-NEXT: return %[[R]]
func.func @forward(%r: !quantum.reg) -> !quantum.reg {
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %h = quantum.custom "Hadamard"() %q : !quantum.bit
  %r1 = quantum.insert %r[ 0], %h : !quantum.reg, !quantum.bit
  // reads past the insert at another index, then is put back unchanged
  %p = quantum.extract %r1[ 1] : !quantum.reg -> !quantum.bit
  %r2 = quantum.insert %r1[ 1], %p : !quantum.reg, !quantum.bit
  // reads what the insert stored
  %q2 = quantum.extract %r2[ 0] : !quantum.reg -> !quantum.bit
  %x = quantum.custom "PauliX"() %q2 : !quantum.bit
  %r3 = quantum.insert %r2[ 0], %x : !quantum.reg, !quantum.bit
  %c5 = arith.constant 5 : i64
  %dead = arith.addi %c5, %c5 : i64
  return %r3 : !quantum.reg
}

// -----

// Rule 6: independent gates get one order whatever the input order:
// REMARK: qshape-canonicalize: {{[0-9]+}} ops; static-indices 0, dead-ops 0, constants-merged 0, ops-merged 0, reads-past-inserts 0, round-trips 0, inserts-dropped 0, insert-chains-sorted 0, blocks-reordered 1
// wire by wire, ascending, each wire's chain kept together.
// CHECK-LABEL: func.func @order
// CHECK: quantum.extract %arg0[ 0]
// CHECK-NEXT: quantum.custom "Hadamard"
// CHECK-NEXT: quantum.custom "T"
// CHECK-NEXT: %[[O0:.*]] = quantum.namedobs
// CHECK-NEXT: quantum.extract %arg0[ 1]
// CHECK-NEXT: quantum.custom "PauliX"
// CHECK-NEXT: %[[O1:.*]] = quantum.namedobs
// CHECK-NEXT: quantum.expval %[[O1]]
// CHECK-NEXT: quantum.expval %[[O0]]
func.func @order(%r: !quantum.reg) -> (f64, f64) {
  %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %x = quantum.custom "PauliX"() %q1 : !quantum.bit
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %h = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %o1 = quantum.namedobs %x[ PauliZ] : !quantum.obs
  %e1 = quantum.expval %o1 : f64
  %t = quantum.custom "T"() %h : !quantum.bit
  %o0 = quantum.namedobs %t[ PauliZ] : !quantum.obs
  %e0 = quantum.expval %o0 : f64
  return %e1, %e0 : f64, f64
}

// -----

// Side effects keep their order; unknown ops are not moved across them.
// CHECK-LABEL: func.func @side_effects
// CHECK: quantum.measure
// CHECK-NEXT: "test.unknown"()
// CHECK-NEXT: quantum.measure
func.func @side_effects(%q0: !quantum.bit, %q1: !quantum.bit) -> (i1, i1) {
  %m1, %o1 = quantum.measure %q1 : i1, !quantum.bit
  "test.unknown"() : () -> ()
  %m0, %o0 = quantum.measure %q0 : i1, !quantum.bit
  return %m1, %m0 : i1, i1
}

// -----

// Rule 4: putting back a qubit the register already holds at that index is
// a no-op, even past inserts at other indices (frontends do this before
// dealloc).
// CHECK-LABEL: func.func @reinsert
// CHECK: %[[R0:.*]] = quantum.insert %arg0[ 0]
// CHECK-NEXT: %[[R1:.*]] = quantum.insert %[[R0]][ 1]
// CHECK-NEXT: return %[[R1]]
func.func @reinsert(%r: !quantum.reg, %a: !quantum.bit, %b: !quantum.bit) -> !quantum.reg {
  %r0 = quantum.insert %r[ 0], %a : !quantum.reg, !quantum.bit
  %r1 = quantum.insert %r0[ 1], %b : !quantum.reg, !quantum.bit
  %r2 = quantum.insert %r1[ 0], %a : !quantum.reg, !quantum.bit
  return %r2 : !quantum.reg
}

// -----

// Rule 4: an insert overwritten at the same index, past inserts at other
// indices whose registers nobody else reads, is dropped. The inserts that
// remain store in index order (sortInsertChains).
// REMARK: inserts-dropped 1, insert-chains-sorted 1, blocks-reordered 0
// CHECK-LABEL: func.func @overwrite
// CHECK: %[[R0:.*]] = quantum.insert %arg0[ 0], %arg3
// CHECK-NEXT: %[[R1:.*]] = quantum.insert %[[R0]][ 1], %arg2
// CHECK-NEXT: return %[[R1]]
func.func @overwrite(%r: !quantum.reg, %a: !quantum.bit, %b: !quantum.bit, %c: !quantum.bit) -> !quantum.reg {
  %r0 = quantum.insert %r[ 0], %a : !quantum.reg, !quantum.bit
  %r1 = quantum.insert %r0[ 1], %b : !quantum.reg, !quantum.bit
  %r2 = quantum.insert %r1[ 0], %c : !quantum.reg, !quantum.bit
  return %r2 : !quantum.reg
}

// -----

// Rule 3 merges within one block only: whether an equal op in an enclosing
// block dominates depends on rule 6's placement, and merging across blocks
// made a second run merge more than the first (the RUN lines above diff two
// runs, and golden.test checks the fingerprint view against the clone path).
// CHECK-LABEL: func.func @merge_per_block
// CHECK: tensor.extract
// CHECK-NEXT: quantum.custom "RX"
// CHECK-NEXT: scf.if
// CHECK-NEXT: tensor.extract
func.func @merge_per_block(%t: tensor<2xf64>, %b: i1, %q: !quantum.bit) -> (!quantum.bit, f64) {
  %c0 = arith.constant 0 : index
  %r = scf.if %b -> (f64) {
    %x = tensor.extract %t[%c0] : tensor<2xf64>
    scf.yield %x : f64
  } else {
    %z = arith.constant 0.0 : f64
    scf.yield %z : f64
  }
  %y = tensor.extract %t[%c0] : tensor<2xf64>
  %g = quantum.custom "RX"(%y) %q : !quantum.bit
  return %g, %r : !quantum.bit, f64
}
