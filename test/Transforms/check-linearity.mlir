// qshape-check-linearity: reads before the consumer, one consumer per value,
// nothing consumed once per loop iteration, no wire extracted twice. Valid
// Catalyst-shaped code gives no diagnostic; each violation an error at the
// op with a note at the other.
//
// RUN: qshape-opt %s -split-input-file -verify-diagnostics --qshape-check-linearity
// Generic form with the dialect not loaded: the same diagnostics, by name.
// RUN: qshape-opt %s -split-input-file --mlir-print-op-generic | \
// RUN:   not %upstream_mlir_opt -split-input-file --allow-unregistered-dialect \
// RUN:   --load-pass-plugin=%pass_plugin --pass-pipeline='builtin.module(qshape-check-linearity)' \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=GENERIC --implicit-check-not=error:
// GENERIC: error: qshape-check-linearity: 'quantum.extract' reads a register value inside 'scf.for'
// GENERIC: error: qshape-check-linearity: 'quantum.extract' reads a register value after 'quantum.insert'
// GENERIC: error: qshape-check-linearity: 'quantum.namedobs' reads a qubit value after 'quantum.custom'
// GENERIC: error: qshape-check-linearity: 'quantum.custom' consumes a qubit value that 'quantum.custom' consumes too
// GENERIC: error: qshape-check-linearity: 'quantum.custom' consumes a qubit value that 'quantum.custom' consumes too
// GENERIC: error: qshape-check-linearity: 'quantum.custom' consumes a qubit value defined outside the enclosing 'scf.for'
// GENERIC: error: qshape-check-linearity: 'quantum.extract' extracts wire 1 of a register it was already extracted from
// GENERIC: error: qshape-check-linearity: 'quantum.extract' extracts wire 1 of a register it was already extracted from

// What the frontend emits: observables read a qubit before it is inserted,
// a loop carries the register, scf.if branches consume it exclusively.
func.func @valid(%n: index, %m: i1) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = quantum.alloc( 2) : !quantum.reg
  %res = scf.for %i = %c0 to %n step %c1 iter_args(%reg = %r) -> (!quantum.reg) {
    %w = arith.index_cast %i : index to i64
    %q = quantum.extract %reg[%w] : !quantum.reg -> !quantum.bit
    %h = quantum.custom "Hadamard"() %q : !quantum.bit
    %r1 = quantum.insert %reg[%w], %h : !quantum.reg, !quantum.bit
    scf.yield %r1 : !quantum.reg
  }
  %r2 = scf.if %m -> (!quantum.reg) {
    %q = quantum.extract %res[ 0] : !quantum.reg -> !quantum.bit
    %x = quantum.custom "PauliX"() %q : !quantum.bit
    %ri = quantum.insert %res[ 0], %x : !quantum.reg, !quantum.bit
    scf.yield %ri : !quantum.reg
  } else {
    scf.yield %res : !quantum.reg
  }
  %q0 = quantum.extract %r2[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.extract %r2[ 1] : !quantum.reg -> !quantum.bit
  %o = quantum.namedobs %q0[ PauliZ] : !quantum.obs
  %e = quantum.expval %o : f64
  %r3 = quantum.insert %r2[ 0], %q0 : !quantum.reg, !quantum.bit
  %r4 = quantum.insert %r3[ 1], %q1 : !quantum.reg, !quantum.bit
  quantum.dealloc %r4 : !quantum.reg
  return %e : f64
}

// -----

// A rolled loop that extracts from the register it was given as iter_args
// init, instead of from the carried value.
func.func @stale_in_loop(%n: index) -> !quantum.reg {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = quantum.alloc( 2) : !quantum.reg
  // expected-note @below {{consumed here}}
  %res = scf.for %i = %c0 to %n step %c1 iter_args(%reg = %r) -> (!quantum.reg) {
    %w = arith.index_cast %i : index to i64
    // expected-error @below {{'quantum.extract' reads a register value inside 'scf.for', which consumes it}}
    %q = quantum.extract %r[%w] : !quantum.reg -> !quantum.bit
    %h = quantum.custom "Hadamard"() %q : !quantum.bit
    %r1 = quantum.insert %reg[%w], %h : !quantum.reg, !quantum.bit
    scf.yield %r1 : !quantum.reg
  }
  return %res : !quantum.reg
}

// -----

func.func @read_after_insert() -> !quantum.reg {
  %r = quantum.alloc( 2) : !quantum.reg
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  // expected-note @below {{consumed here}}
  %r1 = quantum.insert %r[ 0], %q0 : !quantum.reg, !quantum.bit
  // expected-error @below {{'quantum.extract' reads a register value after 'quantum.insert' consumed it}}
  %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %r2 = quantum.insert %r1[ 1], %q1 : !quantum.reg, !quantum.bit
  return %r2 : !quantum.reg
}

// -----

func.func @observable_after_gate(%r: !quantum.reg) -> f64 {
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  // expected-note @below {{consumed here}}
  %h = quantum.custom "Hadamard"() %q : !quantum.bit
  // expected-error @below {{'quantum.namedobs' reads a qubit value after 'quantum.custom' consumed it}}
  %o = quantum.namedobs %q[ PauliZ] : !quantum.obs
  %e = quantum.expval %o : f64
  return %e : f64
}

// -----

func.func @two_consumers(%r: !quantum.reg) -> !quantum.reg {
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  // expected-note @below {{first consumed here}}
  %a = quantum.custom "Hadamard"() %q : !quantum.bit
  // expected-error @below {{'quantum.custom' consumes a qubit value that 'quantum.custom' consumes too}}
  %b = quantum.custom "PauliX"() %q : !quantum.bit
  %r1 = quantum.insert %r[ 0], %a : !quantum.reg, !quantum.bit
  %r2 = quantum.insert %r1[ 1], %b : !quantum.reg, !quantum.bit
  return %r2 : !quantum.reg
}

// -----

// One op taking the same qubit twice consumes it twice.
func.func @same_op_twice(%q: !quantum.bit) -> !quantum.bit {
  // expected-error @below {{'quantum.custom' consumes a qubit value that 'quantum.custom' consumes too}}
  // expected-note @below {{first consumed here}}
  %o:2 = quantum.custom "CNOT"() %q, %q : !quantum.bit, !quantum.bit
  return %o#0 : !quantum.bit
}

// -----

func.func @consumed_per_iteration(%n: index, %q: !quantum.bit) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @below {{the loop}}
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @below {{'quantum.custom' consumes a qubit value defined outside the enclosing 'scf.for', once per iteration}}
    %h = quantum.custom "Hadamard"() %q : !quantum.bit
  }
  return
}

// -----

// A wire extracted twice from one register: two values name one qubit.
// Inserts of other wires pass the register on; an insert of the wire
// itself gives it back; extracts in exclusive branches run one at a time.
func.func @aliased_wire(%m: i1) -> !quantum.reg {
  %r = quantum.alloc( 3) : !quantum.reg
  // expected-note @below {{first extracted here}}
  %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %q2 = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %r1 = quantum.insert %r[ 2], %q2 : !quantum.reg, !quantum.bit
  // expected-error @below {{'quantum.extract' extracts wire 1 of a register it was already extracted from, with no insert of that wire between: two values name one qubit}}
  %q1b = quantum.extract %r1[ 1] : !quantum.reg -> !quantum.bit
  // Wire 2 was inserted back into %r1: extracting it again is the next use.
  %q2b = quantum.extract %r1[ 2] : !quantum.reg -> !quantum.bit
  %r2 = quantum.insert %r1[ 1], %q1 : !quantum.reg, !quantum.bit
  %r3 = quantum.insert %r2[ 2], %q2b : !quantum.reg, !quantum.bit
  %r4 = scf.if %m -> (!quantum.reg) {
    %a = quantum.extract %r3[ 0] : !quantum.reg -> !quantum.bit
    %x = quantum.custom "PauliX"() %a : !quantum.bit
    %ra = quantum.insert %r3[ 0], %x : !quantum.reg, !quantum.bit
    scf.yield %ra : !quantum.reg
  } else {
    %b = quantum.extract %r3[ 0] : !quantum.reg -> !quantum.bit
    %z = quantum.custom "PauliZ"() %b : !quantum.bit
    %rb = quantum.insert %r3[ 0], %z : !quantum.reg, !quantum.bit
    scf.yield %rb : !quantum.reg
  }
  quantum.dealloc_qb %q1b : !quantum.bit
  return %r4 : !quantum.reg
}

// -----

// A constant index operand names its wire as the static index does.
func.func @aliased_constant_index() -> !quantum.reg {
  %c1 = arith.constant 1 : i64
  %r = quantum.alloc( 2) : !quantum.reg
  // expected-note @below {{first extracted here}}
  %a = quantum.extract %r[%c1] : !quantum.reg -> !quantum.bit
  // expected-error @below {{'quantum.extract' extracts wire 1 of a register it was already extracted from}}
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %r1 = quantum.insert %r[%c1], %a : !quantum.reg, !quantum.bit
  quantum.dealloc_qb %b : !quantum.bit
  return %r1 : !quantum.reg
}

// -----

// An insert at a dynamic index may refill any wire: no report past it.
func.func @dynamic_insert(%w: i64) -> !quantum.reg {
  %r = quantum.alloc( 2) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %r1 = quantum.insert %r[%w], %q : !quantum.reg, !quantum.bit
  %q0 = quantum.extract %r1[ 0] : !quantum.reg -> !quantum.bit
  %r2 = quantum.insert %r1[ 0], %q0 : !quantum.reg, !quantum.bit
  return %r2 : !quantum.reg
}
