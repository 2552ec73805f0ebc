// The register rules on chains of inserts (reads-past-inserts, round-trips)
// walk each chain once (lib/Fingerprint/CanonicalRules.cpp, forEachChain)
// and give what walking from every extract did: here on a linear chain, a
// chain that two inserts consume, and a read at a dynamic index.
// RUN: qshape-opt %s -split-input-file --qshape-canonicalize | FileCheck %s
// RUN: qshape-opt %s -split-input-file '--qshape-canonicalize=emit-remarks' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// The branch stops the round trips; reads still go past the insert at 1 to
// the insert at 0, on both branches.
// REMARK: reads-past-inserts 3, round-trips 0,
// CHECK-LABEL: func.func @branching_chain
// CHECK: %[[R0:.*]] = quantum.insert %arg0[ 0], %
// CHECK-NEXT: %[[C:.*]] = quantum.extract %[[R0]][ 0]
// CHECK: %[[R1:.*]] = quantum.insert %[[R0]][ 1], %
// CHECK: quantum.insert %[[R1]][ 0], %
// CHECK: return
// A register value that two inserts consume (not linear: Catalyst never
// emits it), then reads and round trips on both branches.
func.func @branching_chain(%r: !quantum.reg) -> (!quantum.reg, !quantum.reg) {
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %ha = quantum.custom "Hadamard"() %a : !quantum.bit
  %hb = quantum.custom "Hadamard"() %b : !quantum.bit
  %r1 = quantum.insert %r[ 0], %ha : !quantum.reg, !quantum.bit
  %r2 = quantum.insert %r1[ 1], %hb : !quantum.reg, !quantum.bit
  // Two inserts consume %r2.
  %c = quantum.extract %r2[ 0] : !quantum.reg -> !quantum.bit
  %xc = quantum.custom "PauliX"() %c : !quantum.bit
  %r3 = quantum.insert %r2[ 0], %xc : !quantum.reg, !quantum.bit
  %r4 = quantum.insert %r2[ 2], %xc : !quantum.reg, !quantum.bit
  %d = quantum.extract %r3[ 1] : !quantum.reg -> !quantum.bit
  %zd = quantum.custom "PauliZ"() %d : !quantum.bit
  %r5 = quantum.insert %r3[ 1], %zd : !quantum.reg, !quantum.bit
  %e = quantum.extract %r4[ 1] : !quantum.reg -> !quantum.bit
  %ye = quantum.custom "PauliY"() %e : !quantum.bit
  %r6 = quantum.insert %r4[ 1], %ye : !quantum.reg, !quantum.bit
  return %r5, %r6 : !quantum.reg, !quantum.reg
}

// -----

// Every read goes back to %arg0 and all three round trips are removed: the
// gates of each wire follow each other, and one insert per wire is left.
// REMARK: reads-past-inserts 9, round-trips 3,
// CHECK-LABEL: func.func @linear_chain
// CHECK-COUNT-3: quantum.extract %arg0[
// CHECK-NOT: quantum.extract
// CHECK: %[[A:.*]] = quantum.insert %arg0[ 0], %
// CHECK-NEXT: %[[B:.*]] = quantum.insert %[[A]][ 1], %
// CHECK-NEXT: %[[C:.*]] = quantum.insert %[[B]][ 2], %
// CHECK-NEXT: return %[[C]]
// A linear chain over four wires, two layers: every read goes past the
// other wires' inserts and every round trip is removed.
func.func @linear_chain(%r: !quantum.reg) -> !quantum.reg {
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %h0 = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %r0 = quantum.insert %r[ 0], %h0 : !quantum.reg, !quantum.bit
  %q1 = quantum.extract %r0[ 1] : !quantum.reg -> !quantum.bit
  %h1 = quantum.custom "Hadamard"() %q1 : !quantum.bit
  %r1 = quantum.insert %r0[ 1], %h1 : !quantum.reg, !quantum.bit
  %q2 = quantum.extract %r1[ 2] : !quantum.reg -> !quantum.bit
  %h2 = quantum.custom "Hadamard"() %q2 : !quantum.bit
  %r2 = quantum.insert %r1[ 2], %h2 : !quantum.reg, !quantum.bit
  %p0 = quantum.extract %r2[ 0] : !quantum.reg -> !quantum.bit
  %x0 = quantum.custom "PauliX"() %p0 : !quantum.bit
  %s0 = quantum.insert %r2[ 0], %x0 : !quantum.reg, !quantum.bit
  %p1 = quantum.extract %s0[ 1] : !quantum.reg -> !quantum.bit
  %x1 = quantum.custom "PauliX"() %p1 : !quantum.bit
  %s1 = quantum.insert %s0[ 1], %x1 : !quantum.reg, !quantum.bit
  %p2 = quantum.extract %s1[ 2] : !quantum.reg -> !quantum.bit
  %x2 = quantum.custom "PauliX"() %p2 : !quantum.bit
  %s2 = quantum.insert %s1[ 2], %x2 : !quantum.reg, !quantum.bit
  return %s2 : !quantum.reg
}

// -----

// REMARK: reads-past-inserts 2, round-trips 0,
// CHECK-LABEL: func.func @dynamic_read
// CHECK: %[[R0:.*]] = quantum.insert %arg0[ 0], %
// CHECK-NEXT: quantum.extract %[[R0]][%arg1]
// CHECK-NEXT: quantum.extract %[[R0]][ 0]
// CHECK: return
// A read at a dynamic index of the register after the insert at 0: it may
// read wire 0, so the round trip through wire 0 stays.
func.func @dynamic_read(%r: !quantum.reg, %i: i64) -> !quantum.reg {
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %h0 = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %r0 = quantum.insert %r[ 0], %h0 : !quantum.reg, !quantum.bit
  %d = quantum.extract %r0[%i] : !quantum.reg -> !quantum.bit
  %m, %dm = quantum.measure %d : i1, !quantum.bit
  %q1 = quantum.extract %r0[ 1] : !quantum.reg -> !quantum.bit
  %h1 = quantum.custom "Hadamard"() %q1 : !quantum.bit
  %r1 = quantum.insert %r0[ 1], %h1 : !quantum.reg, !quantum.bit
  %p0 = quantum.extract %r1[ 0] : !quantum.reg -> !quantum.bit
  %x0 = quantum.custom "PauliX"() %p0 : !quantum.bit
  %s0 = quantum.insert %r1[ 0], %x0 : !quantum.reg, !quantum.bit
  return %s0 : !quantum.reg
}
