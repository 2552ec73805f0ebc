// Catalyst's quantum.operator has no semantics until a decomposition rule
// replaces it: qshape-sim stops at the op with a located error (exit code 1)
// in either mode, and never guesses.

// RUN: not qshape-sim %s --entry qubit_mode --args '[0.5]' 2>&1 | FileCheck %s --check-prefix=QUBITS
// RUN: not qshape-sim %s --entry register_mode 2>&1 | FileCheck %s --check-prefix=REGISTER
// RUN: not qshape-sim %s --entry in_loop 2>&1 | FileCheck %s --check-prefix=LOOP
// An operator that is never reached is no error.
// RUN: qshape-sim %s --entry not_reached | FileCheck %s --check-prefix=NOTREACHED

// QUBITS: operator.mlir:[[@LINE+6]]:8: error: qshape-sim: cannot execute 'quantum.operator': "MyOp" has no semantics without a definition; decompose it into gates first (Catalyst's decompose-lowering or graph-decomposition pass)
// QUBITS-NOT: results
func.func @qubit_mode(%t: f64) -> f64 {
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %h = quantum.custom "Hadamard"() %q : !quantum.bit
  %o = quantum.operator "MyOp"(%t: f64) qubits(%h)
      static_data = {pauli_word = "X"}
  %obs = quantum.namedobs %o[ PauliZ] : !quantum.obs
  %e = quantum.expval %obs : f64
  return %e : f64
}

// REGISTER: operator.mlir:[[@LINE+4]]:9: error: qshape-sim: cannot execute 'quantum.operator': "Template" has no semantics
func.func @register_mode() -> f64 {
  %r = quantum.alloc( 2) : !quantum.reg
  %w = arith.constant dense<[0, 1]> : tensor<2xi64>
  %r1 = quantum.operator "Template"() quregs(%r) indices(%w: tensor<2xi64>)
  %q = quantum.extract %r1[ 0] : !quantum.reg -> !quantum.bit
  %obs = quantum.namedobs %q[ PauliZ] : !quantum.obs
  %e = quantum.expval %obs : f64
  return %e : f64
}

// LOOP: operator.mlir:[[@LINE+8]]:10: error: qshape-sim: cannot execute 'quantum.operator'
func.func @in_loop() -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = quantum.alloc( 1) : !quantum.reg
  %r2 = scf.for %i = %c0 to %c2 step %c1 iter_args(%ra = %r) -> (!quantum.reg) {
    %q = quantum.extract %ra[ 0] : !quantum.reg -> !quantum.bit
    %o = quantum.operator "MyOp"() qubits(%q) UID(3)
    %rb = quantum.insert %ra[ 0], %o : !quantum.reg, !quantum.bit
    scf.yield %rb : !quantum.reg
  }
  %q = quantum.extract %r2[ 0] : !quantum.reg -> !quantum.bit
  %obs = quantum.namedobs %q[ PauliZ] : !quantum.obs
  %e = quantum.expval %obs : f64
  return %e : f64
}

// NOTREACHED: {"results": [1.0]}
func.func @not_reached() -> f64 {
  %false = arith.constant false
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q2 = scf.if %false -> (!quantum.bit) {
    %o = quantum.operator "MyOp"() qubits(%q)
    scf.yield %o : !quantum.bit
  } else {
    scf.yield %q : !quantum.bit
  }
  %obs = quantum.namedobs %q2[ PauliZ] : !quantum.obs
  %e = quantum.expval %obs : f64
  return %e : f64
}
