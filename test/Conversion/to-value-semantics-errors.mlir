// What qshape-to-value-semantics does not convert is a located error, and
// the pass fails (a tool exits non-zero and writes nothing).
// RUN: qshape-opt %s --qshape-to-value-semantics -split-input-file -verify-diagnostics --allow-unregistered-dialect

// expected-error @+1 {{functions that return qubit references are not supported}}
func.func @returns_a_qubit(%q: !qref.bit) -> !qref.bit {
  qref.custom "Hadamard"() %q : !qref.bit
  return %q : !qref.bit
}

// -----

// expected-error @+1 {{this function could not be converted}}
func.func @unknown_op_on_a_reference() {
  %a = qref.alloc(1) : !qref.reg<1>
  %q = qref.get %a[0] : !qref.reg<1> -> !qref.bit
  // expected-error @+1 {{'test.use' uses qubit references}}
  "test.use"(%q) : (!qref.bit) -> ()
  qref.dealloc %a : !qref.reg<1>
  return
}

// -----

// A use after deallocation is a located error with a note at the dealloc,
// never a program that reads a freed register.
// expected-error @+1 {{this function could not be converted}}
func.func @use_after_dealloc() {
  %a = qref.alloc(2) : !qref.reg<2>
  %q = qref.get %a[0] : !qref.reg<2> -> !qref.bit
  qref.custom "Hadamard"() %q : !qref.bit
  // expected-note @+1 {{deallocated here}}
  qref.dealloc %a : !qref.reg<2>
  // expected-error @+1 {{a use of a qubit reference after its deallocation}}
  qref.custom "PauliX"() %q : !qref.bit
  return
}

// -----

// expected-error @+1 {{this function could not be converted}}
func.func @loop_after_dealloc(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = qref.alloc(2) : !qref.reg<2>
  %q = qref.get %a[1] : !qref.reg<2> -> !qref.bit
  // expected-note @+1 {{deallocated here}}
  qref.dealloc %a : !qref.reg<2>
  // expected-error @+1 {{a use of a qubit reference after its deallocation}}
  scf.for %i = %c0 to %n step %c1 {
    qref.custom "Hadamard"() %q : !qref.bit
  }
  return
}

// -----

// expected-error @+1 {{this function could not be converted}}
func.func @qubit_after_dealloc_qb() {
  %q = qref.alloc_qb : !qref.bit
  // expected-note @+1 {{deallocated here}}
  qref.dealloc_qb %q : !qref.bit
  // expected-error @+1 {{a use of a qubit reference after its deallocation}}
  qref.custom "Hadamard"() %q : !qref.bit
  return
}

// -----

// expected-error @+1 {{this function could not be converted}}
func.func @dealloc_in_a_branch(%c: i1) {
  %a = qref.alloc(1) : !qref.reg<1>
  scf.if %c {
    // expected-error @+1 {{deallocated in a region other than the one that allocated it}}
    qref.dealloc %a : !qref.reg<1>
  }
  return
}

// -----

// expected-error @+1 {{this function could not be converted}}
func.func @get_beyond_the_register() {
  %a = qref.alloc(2) : !qref.reg<2>
  // expected-error @+1 {{this qref.get reads wire 5 of a register of 2 qubits}}
  %q = qref.get %a[5] : !qref.reg<2> -> !qref.bit
  qref.custom "Hadamard"() %q : !qref.bit
  qref.dealloc %a : !qref.reg<2>
  return
}

// -----

// A register the callee uses whole, and one of its qubits: they alias.
func.func private @two(%r: !qref.reg<2>, %q: !qref.bit, %i: i64) {
  %q0 = qref.get %r[%i] : !qref.reg<2>, i64 -> !qref.bit
  qref.custom "CNOT"() %q0, %q : !qref.bit, !qref.bit
  return
}
// expected-error @+1 {{this function could not be converted}}
func.func @aliasing(%i: i64) {
  %a = qref.alloc(2) : !qref.reg<2>
  %q = qref.get %a[1] : !qref.reg<2> -> !qref.bit
  // expected-error @+1 {{a call that passes a register and one of its qubits is not supported}}
  func.call @two(%a, %q, %i) : (!qref.reg<2>, !qref.bit, i64) -> ()
  qref.dealloc %a : !qref.reg<2>
  return
}

// -----

// expected-error @+1 {{a declaration that takes qubit references cannot be converted}}
func.func private @external(!qref.bit)
