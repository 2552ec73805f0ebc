// What qshape-to-value-semantics does not convert is a located error, and
// the pass fails (a tool exits non-zero and writes nothing).
// RUN: qshape-opt %s --qshape-to-value-semantics -split-input-file -verify-diagnostics --allow-unregistered-dialect

// expected-error @+1 {{functions that take or return qubit references are not supported yet}}
func.func @takes_a_qubit(%q: !qref.bit) {
  qref.custom "Hadamard"() %q : !qref.bit
  return
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
