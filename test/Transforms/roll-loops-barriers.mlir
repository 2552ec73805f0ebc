// Barriers: an op whose effects are unknown or include a write is never
// crossed by a quantum op or any other effectful op, and no loop holds it.
// Each case has enough copies that rolling across the barrier would be
// profitable, so only the barrier rule keeps it apart (removing it makes
// these checks fail).
// RUN: qshape-opt %s --allow-unregistered-dialect -split-input-file '--qshape-roll-loops=verify-roundtrip' --qshape-check-linearity | FileCheck %s
// The pass plugin in upstream mlir-opt, on generic quantum ops:
// RUN: qshape-opt %s --allow-unregistered-dialect -split-input-file --mlir-print-op-generic | %upstream_mlir_opt --load-pass-plugin=%pass_plugin --allow-unregistered-dialect -split-input-file --pass-pipeline='builtin.module(qshape-roll-loops{verify-roundtrip},qshape-check-linearity)' | qshape-opt --allow-unregistered-dialect -split-input-file | FileCheck %s

// An unregistered op after the sixth of twelve S gates: two loops of six,
// with the op between them (not one loop of twelve with the op after it).
// CHECK-LABEL: func.func @unregistered_op
// CHECK-NOT: scf.for
// CHECK: %[[A:.*]] = scf.for {{.*}} = %c0 to %c6 step %c1 iter_args(%{{.*}} = %arg0)
// CHECK: quantum.custom "S"
// CHECK: "test.opaque"() : () -> ()
// CHECK-NEXT: %[[B:.*]] = scf.for {{.*}} = %c0 to %c6 step %c1 iter_args(%{{.*}} = %[[A]])
// CHECK: quantum.custom "S"
// CHECK: return %[[B]]
func.func @unregistered_op(%q: !quantum.bit) -> !quantum.bit {
  %q0 = quantum.custom "S"() %q : !quantum.bit
  %q1 = quantum.custom "S"() %q0 : !quantum.bit
  %q2 = quantum.custom "S"() %q1 : !quantum.bit
  %q3 = quantum.custom "S"() %q2 : !quantum.bit
  %q4 = quantum.custom "S"() %q3 : !quantum.bit
  %q5 = quantum.custom "S"() %q4 : !quantum.bit
  "test.opaque"() : () -> ()
  %q6 = quantum.custom "S"() %q5 : !quantum.bit
  %q7 = quantum.custom "S"() %q6 : !quantum.bit
  %q8 = quantum.custom "S"() %q7 : !quantum.bit
  %q9 = quantum.custom "S"() %q8 : !quantum.bit
  %q10 = quantum.custom "S"() %q9 : !quantum.bit
  %q11 = quantum.custom "S"() %q10 : !quantum.bit
  return %q11 : !quantum.bit
}

// -----

// catalyst.print in generic form (Catalyst's dialect is not loaded: an
// unregistered op) between two halves of a register-style circuit whose
// eight extracts all come first. The extracts of wires 4-7 stay before the
// print, and the loop after it does not read them again from the register
// (that would move an extract across the print): only wires 0-3 roll.
// (The extracts read the register the loop of wires 0-3 returns, which
// holds the same qubits at wires 4-7.)
// CHECK-LABEL: func.func @catalyst_print
// CHECK: %[[R:.*]] = scf.for %[[I:.*]] = %c0 to %c4 step %c1 iter_args(%[[REG:.*]] = %arg0) -> (!quantum.reg)
// CHECK: quantum.custom "Hadamard"
// CHECK: scf.yield
// CHECK-COUNT-4: quantum.extract %[[R]][ {{[4-7]}}]
// CHECK-NEXT: "catalyst.print"() <{const_val = "half way"}> : () -> ()
// CHECK-NOT: scf.for
// CHECK: quantum.custom "Hadamard"
// CHECK-NEXT: quantum.insert %[[R]][ 4]
// CHECK-COUNT-3: quantum.custom "Hadamard"
// CHECK: return
func.func @catalyst_print(%r: !quantum.reg) -> !quantum.reg {
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %q2 = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %q3 = quantum.extract %r[ 3] : !quantum.reg -> !quantum.bit
  %q4 = quantum.extract %r[ 4] : !quantum.reg -> !quantum.bit
  %q5 = quantum.extract %r[ 5] : !quantum.reg -> !quantum.bit
  %q6 = quantum.extract %r[ 6] : !quantum.reg -> !quantum.bit
  %q7 = quantum.extract %r[ 7] : !quantum.reg -> !quantum.bit
  %h0 = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %r0 = quantum.insert %r[ 0], %h0 : !quantum.reg, !quantum.bit
  %h1 = quantum.custom "Hadamard"() %q1 : !quantum.bit
  %r1 = quantum.insert %r0[ 1], %h1 : !quantum.reg, !quantum.bit
  %h2 = quantum.custom "Hadamard"() %q2 : !quantum.bit
  %r2 = quantum.insert %r1[ 2], %h2 : !quantum.reg, !quantum.bit
  %h3 = quantum.custom "Hadamard"() %q3 : !quantum.bit
  %r3 = quantum.insert %r2[ 3], %h3 : !quantum.reg, !quantum.bit
  "catalyst.print"() <{const_val = "half way"}> : () -> ()
  %h4 = quantum.custom "Hadamard"() %q4 : !quantum.bit
  %r4 = quantum.insert %r3[ 4], %h4 : !quantum.reg, !quantum.bit
  %h5 = quantum.custom "Hadamard"() %q5 : !quantum.bit
  %r5 = quantum.insert %r4[ 5], %h5 : !quantum.reg, !quantum.bit
  %h6 = quantum.custom "Hadamard"() %q6 : !quantum.bit
  %r6 = quantum.insert %r5[ 6], %h6 : !quantum.reg, !quantum.bit
  %h7 = quantum.custom "Hadamard"() %q7 : !quantum.bit
  %r7 = quantum.insert %r6[ 7], %h7 : !quantum.reg, !quantum.bit
  return %r7 : !quantum.reg
}

// -----

// A registered op whose MemoryEffectOpInterface reports a write
// (memref.store): the RX chain rolls on each side of it, not across it.
// CHECK-LABEL: func.func @memory_write
// CHECK: scf.for {{.*}} = %c0 to %c5 step %c1
// CHECK: quantum.custom "RX"
// CHECK: memref.store %arg2, %arg1[] : memref<f64>
// CHECK-NEXT: scf.for {{.*}} = %c0 to %c5 step %c1
// CHECK: quantum.custom "RX"
// CHECK: return
func.func @memory_write(%q: !quantum.bit, %m: memref<f64>, %x: f64) -> !quantum.bit {
  %a = arith.constant 0.5 : f64
  %q0 = quantum.custom "RX"(%a) %q : !quantum.bit
  %q1 = quantum.custom "RX"(%a) %q0 : !quantum.bit
  %q2 = quantum.custom "RX"(%a) %q1 : !quantum.bit
  %q3 = quantum.custom "RX"(%a) %q2 : !quantum.bit
  %q4 = quantum.custom "RX"(%a) %q3 : !quantum.bit
  memref.store %x, %m[] : memref<f64>
  %q5 = quantum.custom "RX"(%a) %q4 : !quantum.bit
  %q6 = quantum.custom "RX"(%a) %q5 : !quantum.bit
  %q7 = quantum.custom "RX"(%a) %q6 : !quantum.bit
  %q8 = quantum.custom "RX"(%a) %q7 : !quantum.bit
  %q9 = quantum.custom "RX"(%a) %q8 : !quantum.bit
  return %q9 : !quantum.bit
}

// -----

// A read-only op is not a barrier: the five copies on each side of the
// memref.load are one loop of ten.
// CHECK-LABEL: func.func @pure_and_read_only
// CHECK: scf.for {{.*}} = %c0 to %c10 step %c1
// CHECK-NOT: scf.for
// CHECK: memref.load
// CHECK: return
func.func @pure_and_read_only(%q: !quantum.bit, %m: memref<f64>) -> (!quantum.bit, f64) {
  %a = arith.constant 0.5 : f64
  %q0 = quantum.custom "RY"(%a) %q : !quantum.bit
  %q1 = quantum.custom "RY"(%a) %q0 : !quantum.bit
  %q2 = quantum.custom "RY"(%a) %q1 : !quantum.bit
  %q3 = quantum.custom "RY"(%a) %q2 : !quantum.bit
  %q4 = quantum.custom "RY"(%a) %q3 : !quantum.bit
  %v = memref.load %m[] : memref<f64>
  %q5 = quantum.custom "RY"(%a) %q4 : !quantum.bit
  %q6 = quantum.custom "RY"(%a) %q5 : !quantum.bit
  %q7 = quantum.custom "RY"(%a) %q6 : !quantum.bit
  %q8 = quantum.custom "RY"(%a) %q7 : !quantum.bit
  %q9 = quantum.custom "RY"(%a) %q8 : !quantum.bit
  return %q9, %v : !quantum.bit, f64
}

// -----

// A call has no MemoryEffectOpInterface: its effects are unknown.
// CHECK-LABEL: func.func @unknown_call
// CHECK: scf.for {{.*}} = %c0 to %c6 step %c1
// CHECK: call @callback() : () -> ()
// CHECK-NEXT: scf.for {{.*}} = %c0 to %c6 step %c1
func.func private @callback()
func.func @unknown_call(%q: !quantum.bit) -> !quantum.bit {
  %q0 = quantum.custom "T"() %q : !quantum.bit
  %q1 = quantum.custom "T"() %q0 : !quantum.bit
  %q2 = quantum.custom "T"() %q1 : !quantum.bit
  %q3 = quantum.custom "T"() %q2 : !quantum.bit
  %q4 = quantum.custom "T"() %q3 : !quantum.bit
  %q5 = quantum.custom "T"() %q4 : !quantum.bit
  func.call @callback() : () -> ()
  %q6 = quantum.custom "T"() %q5 : !quantum.bit
  %q7 = quantum.custom "T"() %q6 : !quantum.bit
  %q8 = quantum.custom "T"() %q7 : !quantum.bit
  %q9 = quantum.custom "T"() %q8 : !quantum.bit
  %q10 = quantum.custom "T"() %q9 : !quantum.bit
  %q11 = quantum.custom "T"() %q10 : !quantum.bit
  return %q11 : !quantum.bit
}

// -----

// The inserts come after the barrier: they do not rise above it to close
// each copy, so the eight extract/Hadamard/insert copies do not become one
// loop with the op after it.
// CHECK-LABEL: func.func @inserts_after_barrier
// CHECK-NOT: scf.for
// CHECK: "test.opaque"() : () -> ()
// CHECK-NOT: quantum.custom
// CHECK: quantum.insert %arg0[ 0]
// CHECK: return
func.func @inserts_after_barrier(%r: !quantum.reg) -> !quantum.reg {
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %h0 = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %h1 = quantum.custom "Hadamard"() %q1 : !quantum.bit
  %q2 = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %h2 = quantum.custom "Hadamard"() %q2 : !quantum.bit
  %q3 = quantum.extract %r[ 3] : !quantum.reg -> !quantum.bit
  %h3 = quantum.custom "Hadamard"() %q3 : !quantum.bit
  %q4 = quantum.extract %r[ 4] : !quantum.reg -> !quantum.bit
  %h4 = quantum.custom "Hadamard"() %q4 : !quantum.bit
  %q5 = quantum.extract %r[ 5] : !quantum.reg -> !quantum.bit
  %h5 = quantum.custom "Hadamard"() %q5 : !quantum.bit
  %q6 = quantum.extract %r[ 6] : !quantum.reg -> !quantum.bit
  %h6 = quantum.custom "Hadamard"() %q6 : !quantum.bit
  %q7 = quantum.extract %r[ 7] : !quantum.reg -> !quantum.bit
  %h7 = quantum.custom "Hadamard"() %q7 : !quantum.bit
  "test.opaque"() : () -> ()
  %r0 = quantum.insert %r[ 0], %h0 : !quantum.reg, !quantum.bit
  %r1 = quantum.insert %r0[ 1], %h1 : !quantum.reg, !quantum.bit
  %r2 = quantum.insert %r1[ 2], %h2 : !quantum.reg, !quantum.bit
  %r3 = quantum.insert %r2[ 3], %h3 : !quantum.reg, !quantum.bit
  %r4 = quantum.insert %r3[ 4], %h4 : !quantum.reg, !quantum.bit
  %r5 = quantum.insert %r4[ 5], %h5 : !quantum.reg, !quantum.bit
  %r6 = quantum.insert %r5[ 6], %h6 : !quantum.reg, !quantum.bit
  %r7 = quantum.insert %r6[ 7], %h7 : !quantum.reg, !quantum.bit
  return %r7 : !quantum.reg
}
