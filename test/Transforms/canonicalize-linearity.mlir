// The canonical form keeps register and qubit values linear, as Catalyst
// emits them: a value is read (extract of a register, an observable of its
// qubits) before its one consumer, and consumed once. Every input here is
// linear (the first RUN line checks), and so must the output be; each case
// is one that a rule or the schedule made non-linear before.
// RUN: qshape-opt %s --allow-unregistered-dialect --qshape-check-linearity -split-input-file -o /dev/null
// RUN: qshape-opt %s --allow-unregistered-dialect --qshape-canonicalize --qshape-check-linearity -split-input-file -o /dev/null
// RUN: qshape-opt %s --allow-unregistered-dialect --qshape-canonicalize -split-input-file | FileCheck %s

// An observable reads a qubit before the insert that consumes it. Without
// the read-before-consumer edges the schedule puts the insert first
// (`quantum.insert` sorts before `quantum.namedobs`).
// CHECK-LABEL: func.func @observable_before_insert
// CHECK:      %[[H:.*]] = quantum.custom "Hadamard"
// CHECK-NEXT: quantum.namedobs %[[H]][ PauliZ]
// CHECK-NEXT: quantum.insert %arg0[ 0], %[[H]]
func.func @observable_before_insert(%r: !quantum.reg) -> (!quantum.obs, !quantum.reg) {
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %h = quantum.custom "Hadamard"() %q : !quantum.bit
  %o = quantum.namedobs %h[ PauliZ] : !quantum.obs
  %r1 = quantum.insert %r[ 0], %h : !quantum.reg, !quantum.bit
  return %o, %r1 : !quantum.obs, !quantum.reg
}

// -----

// A wire extracted again after the other wires were inserted, read by an
// observable and put back (the end of a traced W1 circuit). The extract is
// a round trip through the register: its observable gets the qubit and the
// first insert goes, so the qubit is neither read after that insert
// consumed it nor consumed twice. (Forwarding the extract alone left the
// observable reading the Hadamard's qubit after the insert consumed it.)
// The last inserts store the wires in index order (sortInsertChains).
// CHECK-LABEL: func.func @wire_read_again
// CHECK:      %[[Q0:.*]] = quantum.extract %[[R:.*]][ 0]
// CHECK-NEXT: %[[H:.*]] = quantum.custom "Hadamard"() %[[Q0]]
// CHECK-NEXT: %[[O:.*]] = quantum.namedobs %[[H]][ PauliZ]
// CHECK-NEXT: %[[Q1:.*]] = quantum.extract %[[R]][ 1]
// CHECK-NEXT: %[[X:.*]] = quantum.custom "PauliX"() %[[Q1]]
// CHECK-NEXT: %[[R1:.*]] = quantum.insert %[[R]][ 0], %[[H]]
// CHECK-NEXT: %[[R2:.*]] = quantum.insert %[[R1]][ 1], %[[X]]
// CHECK-NEXT: quantum.expval %[[O]]
// CHECK-NEXT: quantum.dealloc %[[R2]]
func.func @wire_read_again() -> f64 {
  %r = quantum.alloc( 2) : !quantum.reg
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %h = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %r1 = quantum.insert %r[ 0], %h : !quantum.reg, !quantum.bit
  %q1 = quantum.extract %r1[ 1] : !quantum.reg -> !quantum.bit
  %x = quantum.custom "PauliX"() %q1 : !quantum.bit
  %r2 = quantum.insert %r1[ 1], %x : !quantum.reg, !quantum.bit
  %q0b = quantum.extract %r2[ 0] : !quantum.reg -> !quantum.bit
  %o = quantum.namedobs %q0b[ PauliZ] : !quantum.obs
  %e = quantum.expval %o : f64
  %r3 = quantum.insert %r2[ 0], %q0b : !quantum.reg, !quantum.bit
  quantum.dealloc %r3 : !quantum.reg
  return %e : f64
}

// -----

// Per-gate register style: every gate extracts its wire and inserts it
// back. The round trips go, leaving the threaded form: one extract, the
// gates, one insert.
// CHECK-LABEL: func.func @per_gate
// CHECK:      %[[Q:.*]] = quantum.extract %arg0[ 0]
// CHECK-NEXT: %[[A:.*]] = quantum.custom "Hadamard"() %[[Q]]
// CHECK-NEXT: %[[B:.*]] = quantum.custom "T"() %[[A]]
// CHECK-NEXT: %[[C:.*]] = quantum.custom "S"() %[[B]]
// CHECK-NEXT: %[[R:.*]] = quantum.insert %arg0[ 0], %[[C]]
// CHECK-NEXT: return %[[R]]
func.func @per_gate(%r: !quantum.reg) -> !quantum.reg {
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %a = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %r1 = quantum.insert %r[ 0], %a : !quantum.reg, !quantum.bit
  %q1 = quantum.extract %r1[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.custom "T"() %q1 : !quantum.bit
  %r2 = quantum.insert %r1[ 0], %b : !quantum.reg, !quantum.bit
  %q2 = quantum.extract %r2[ 0] : !quantum.reg -> !quantum.bit
  %c = quantum.custom "S"() %q2 : !quantum.bit
  %r3 = quantum.insert %r2[ 0], %c : !quantum.reg, !quantum.bit
  return %r3 : !quantum.reg
}

// -----

// Not a round trip: the register that holds the inserted qubit is also read
// by an observable of the whole register, which sees what the insert
// stored; the extract stays, and reads the register after the observable.
// CHECK-LABEL: func.func @register_observed
// CHECK:      %[[R1:.*]] = quantum.insert %arg0[ 0], %{{.*}}
// CHECK-NEXT: %[[O:.*]] = quantum.compbasis qreg %[[R1]]
// CHECK-NEXT: %[[Q:.*]] = quantum.extract %[[R1]][ 0]
func.func @register_observed(%r: !quantum.reg) -> (!quantum.obs, !quantum.reg) {
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %a = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %r1 = quantum.insert %r[ 0], %a : !quantum.reg, !quantum.bit
  %o = quantum.compbasis qreg %r1 : !quantum.obs
  %q1 = quantum.extract %r1[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.custom "T"() %q1 : !quantum.bit
  %r2 = quantum.insert %r1[ 0], %b : !quantum.reg, !quantum.bit
  return %o, %r2 : !quantum.obs, !quantum.reg
}

// -----

// An extract does not read past an insert across a barrier: the schedule
// could not put it back in front of the insert, so it would read the
// register after the insert consumed it. (Wire 1's gate stays after the
// print, as barriers demand, and reads the register the insert made.)
// CHECK-LABEL: func.func @read_past_barrier
// CHECK:      %[[R1:.*]] = quantum.insert %arg0[ 0]
// CHECK-NEXT: "catalyst.print"()
// CHECK-NEXT: %[[Q1:.*]] = quantum.extract %[[R1]][ 1]
func.func @read_past_barrier(%r: !quantum.reg) -> (!quantum.bit, !quantum.reg) {
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %a = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %r1 = quantum.insert %r[ 0], %a : !quantum.reg, !quantum.bit
  "catalyst.print"() {const_val = "mid"} : () -> ()
  %q1 = quantum.extract %r1[ 1] : !quantum.reg -> !quantum.bit
  %b = quantum.custom "PauliX"() %q1 : !quantum.bit
  return %b, %r1 : !quantum.bit, !quantum.reg
}
