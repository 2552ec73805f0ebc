// One case per verifier (and per ODS constraint qshape relies on). Cases the
// pretty form cannot even express use the generic form.
//
// RUN: qshape-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Gates
//===----------------------------------------------------------------------===//

func.func @ctrl_values_mismatch(%t: f64, %q: !quantum.bit, %c0: !quantum.bit, %c1: !quantum.bit, %true: i1) {
  // expected-error @+1 {{'quantum.custom' op has 2 control qubits but 1 control values; they must match}}
  %o, %c:2 = quantum.custom "RX"(%t) %q ctrls(%c0, %c1) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit, !quantum.bit
  return
}

// -----

func.func @out_ctrl_mismatch(%q: !quantum.bit, %c0: !quantum.bit, %c1: !quantum.bit, %true: i1) {
  // expected-error @+1 {{'quantum.custom' op has 2 control qubits but 1 output control qubits; they must match}}
  %o, %c = quantum.custom "X"() %q ctrls(%c0, %c1) ctrlvals(%true, %true) : !quantum.bit ctrls !quantum.bit
  return
}

// -----

func.func @out_qubits_mismatch(%q: !quantum.bit) {
  // expected-error @+1 {{'quantum.custom' op has 1 input qubits but 2 output qubits; they must match}}
  %o:2 = quantum.custom "Hadamard"() %q : !quantum.bit, !quantum.bit
  return
}

// -----

func.func @empty_gate_name(%q: !quantum.bit) {
  // expected-error @+1 {{'quantum.custom' op gate_name must not be empty}}
  %o = quantum.custom ""() %q : !quantum.bit
  return
}

// -----

func.func @multirz_out_qubits_mismatch(%t: f64, %q0: !quantum.bit, %q1: !quantum.bit) {
  // expected-error @+1 {{'quantum.multirz' op has 2 input qubits but 1 output qubits; they must match}}
  %o = quantum.multirz(%t) %q0, %q1 : !quantum.bit
  return
}

// -----

func.func @gphase_ctrl_values_mismatch(%t: f64, %c0: !quantum.bit, %true: i1) {
  // expected-error @+1 {{'quantum.gphase' op has 1 control qubits but 2 control values; they must match}}
  %c = quantum.gphase(%t) ctrls(%c0) ctrlvals(%true, %true) : ctrls !quantum.bit
  return
}

// -----

func.func @paulirot_word_length(%t: f64, %q0: !quantum.bit, %q1: !quantum.bit) {
  // expected-error @+1 {{'quantum.paulirot' op Pauli word has 1 letters but the op acts on 2 qubits}}
  %o:2 = quantum.paulirot ["Z"](%t) %q0, %q1 : !quantum.bit, !quantum.bit
  return
}

// -----

func.func @paulirot_bad_letter(%t: f64, %q0: !quantum.bit, %q1: !quantum.bit) {
  // expected-error @+1 {{'quantum.paulirot' op Pauli word letter 'Q' is not one of "I", "X", "Y", "Z"}}
  %o:2 = quantum.paulirot ["X", "Q"](%t) %q0, %q1 : !quantum.bit, !quantum.bit
  return
}

// -----

func.func @paulirot_multi_letter(%t: f64, %q0: !quantum.bit) {
  // expected-error @+1 {{'quantum.paulirot' op Pauli word letter 'XY' is not one of "I", "X", "Y", "Z"}}
  %o = quantum.paulirot ["XY"](%t) %q0 : !quantum.bit
  return
}

// -----

func.func @pcphase_negative_dim(%t: f64, %q: !quantum.bit) {
  // expected-error @+1 {{'quantum.pcphase' op dim must be between 0 and 2^1 = 2, got -1}}
  %o = quantum.pcphase(%t, dim : -1) %q : !quantum.bit
  return
}

// -----

func.func @pcphase_dim_too_large(%t: f64, %q0: !quantum.bit, %q1: !quantum.bit) {
  // expected-error @+1 {{'quantum.pcphase' op dim must be between 0 and 2^2 = 4, got 5}}
  %o:2 = quantum.pcphase(%t, dim : 5) %q0, %q1 : !quantum.bit, !quantum.bit
  return
}

// -----

func.func @unitary_matrix_size(%m: tensor<2x2xcomplex<f64>>, %q0: !quantum.bit, %q1: !quantum.bit) {
  // expected-error @+1 {{'quantum.unitary' op acts on 2 qubits, so its matrix must be 4x4, got 'tensor<2x2xcomplex<f64>>'}}
  %o:2 = quantum.unitary(%m : tensor<2x2xcomplex<f64>>) %q0, %q1 : !quantum.bit, !quantum.bit
  return
}

// -----

func.func @unitary_matrix_not_square(%m: memref<2x4xcomplex<f64>>, %q0: !quantum.bit) {
  // expected-error @+1 {{'quantum.unitary' op acts on 1 qubits, so its matrix must be 2x2, got 'memref<2x4xcomplex<f64>>'}}
  %o = quantum.unitary(%m : memref<2x4xcomplex<f64>>) %q0 : !quantum.bit
  return
}

//===----------------------------------------------------------------------===//
// Register access and allocation: exactly one of a static and a dynamic
// index/size (only the generic form can say both or neither).
//===----------------------------------------------------------------------===//

// -----

func.func @extract_both(%r: !quantum.reg, %i: i64) {
  // expected-error @+1 {{'quantum.extract' op expects exactly one of a dynamic index operand or a static index attribute, got both}}
  %q = "quantum.extract"(%r, %i) <{idx_attr = 0 : i64}> : (!quantum.reg, i64) -> !quantum.bit
  return
}

// -----

func.func @extract_neither(%r: !quantum.reg) {
  // expected-error @+1 {{'quantum.extract' op expects exactly one of a dynamic index operand or a static index attribute, got neither}}
  %q = "quantum.extract"(%r) : (!quantum.reg) -> !quantum.bit
  return
}

// -----

func.func @extract_negative(%r: !quantum.reg) {
  // expected-error @+1 {{'quantum.extract' op attribute 'idx_attr' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %q = quantum.extract %r[ -1] : !quantum.reg -> !quantum.bit
  return
}

// -----

func.func @insert_both(%r: !quantum.reg, %i: i64, %q: !quantum.bit) {
  // expected-error @+1 {{'quantum.insert' op expects exactly one of a dynamic index operand or a static index attribute, got both}}
  %r1 = "quantum.insert"(%r, %i, %q) <{idx_attr = 1 : i64}> : (!quantum.reg, i64, !quantum.bit) -> !quantum.reg
  return
}

// -----

func.func @insert_neither(%r: !quantum.reg, %q: !quantum.bit) {
  // expected-error @+1 {{'quantum.insert' op expects exactly one of a dynamic index operand or a static index attribute, got neither}}
  %r1 = "quantum.insert"(%r, %q) : (!quantum.reg, !quantum.bit) -> !quantum.reg
  return
}

// -----

func.func @alloc_both(%n: i64) {
  // expected-error @+1 {{'quantum.alloc' op expects exactly one of a dynamic size operand or a static size attribute, got both}}
  %r = "quantum.alloc"(%n) <{nqubits_attr = 2 : i64}> : (i64) -> !quantum.reg
  return
}

// -----

func.func @alloc_neither() {
  // expected-error @+1 {{'quantum.alloc' op expects exactly one of a dynamic size operand or a static size attribute, got neither}}
  %r = "quantum.alloc"() : () -> !quantum.reg
  return
}

//===----------------------------------------------------------------------===//
// State preparation
//===----------------------------------------------------------------------===//

// -----

func.func @set_state_size(%v: tensor<2xcomplex<f64>>, %q0: !quantum.bit, %q1: !quantum.bit) {
  // expected-error @+1 {{'quantum.set_state' op prepares 2 qubits, so the state must have 4 amplitudes, got 2}}
  %s:2 = quantum.set_state(%v) %q0, %q1 : (tensor<2xcomplex<f64>>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  return
}

// -----

func.func @set_state_results(%v: tensor<4xcomplex<f64>>, %q0: !quantum.bit, %q1: !quantum.bit) {
  // expected-error @+1 {{'quantum.set_state' op must return one qubit per input qubit}}
  %s = quantum.set_state(%v) %q0, %q1 : (tensor<4xcomplex<f64>>, !quantum.bit, !quantum.bit) -> (!quantum.bit)
  return
}

// -----

func.func @set_basis_state_size(%b: memref<3xi1>, %q0: !quantum.bit, %q1: !quantum.bit) {
  // expected-error @+1 {{'quantum.set_basis_state' op prepares 2 qubits, so the basis state must have as many bits, got 3}}
  %s:2 = quantum.set_basis_state(%b) %q0, %q1 : (memref<3xi1>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  return
}

//===----------------------------------------------------------------------===//
// Region ops
//===----------------------------------------------------------------------===//

// -----

func.func @adjoint_yield_type(%r: !quantum.reg, %q: !quantum.bit) {
  // expected-error @+1 {{'quantum.adjoint' op region yields ('!quantum.bit') but the op returns ('!quantum.reg'); they must match}}
  %a = quantum.adjoint(%r) : !quantum.reg {
  ^bb0(%x: !quantum.reg):
    quantum.yield %q : !quantum.bit
  }
  return
}

// -----

func.func @adjoint_yield_count(%r: !quantum.reg) {
  // expected-error @+1 {{'quantum.adjoint' op region yields () but the op returns ('!quantum.reg'); they must match}}
  %a = quantum.adjoint(%r) : !quantum.reg {
  ^bb0(%x: !quantum.reg):
    quantum.yield
  }
  return
}

// -----

func.func @adjoint_block_args(%r: !quantum.reg) {
  // expected-error @+1 {{'quantum.adjoint' op region takes ('!quantum.bit') but the op's target arguments are ('!quantum.reg'); they must match}}
  %a = quantum.adjoint(%r) : !quantum.reg {
  ^bb0(%x: !quantum.bit):
    quantum.yield %r : !quantum.reg
  }
  return
}

// -----

func.func @adjoint_result_types(%r: !quantum.reg, %q: !quantum.bit) {
  // expected-error @+1 {{'quantum.adjoint' op failed to verify that all of {args, results} have same type}}
  %a = "quantum.adjoint"(%r) ({
  ^bb0(%x: !quantum.reg):
    "quantum.yield"(%q) : (!quantum.bit) -> ()
  }) : (!quantum.reg) -> !quantum.bit
  return
}

// -----

func.func @ctrl_yield_type(%r: !quantum.reg, %c: !quantum.bit, %true: i1) {
  // expected-error @+1 {{'quantum.ctrl' op region yields ('!quantum.bit') but the op returns ('!quantum.reg'); they must match}}
  %oc, %a = quantum.ctrl(%c) ctrlvals(%true) (%r) : !quantum.bit -> !quantum.reg {
  ^bb0(%x: !quantum.reg):
    quantum.yield %c : !quantum.bit
  }
  return
}

// -----

func.func @ctrl_block_args(%q: !quantum.bit, %c: !quantum.bit, %true: i1) {
  // expected-error @+1 {{'quantum.ctrl' op region takes () but the op's target arguments are ('!quantum.bit'); they must match}}
  %oc, %a = quantum.ctrl(%c) ctrlvals(%true) (%q) : !quantum.bit -> !quantum.bit {
    quantum.yield %q : !quantum.bit
  }
  return
}

// -----

func.func @ctrl_values_count(%q: !quantum.bit, %c: !quantum.bit) {
  // expected-error @+1 {{'quantum.ctrl' op has 1 control qubits but 0 control values; they must match}}
  %oc, %a = quantum.ctrl(%c) ctrlvals() (%q) : !quantum.bit -> !quantum.bit {
  ^bb0(%x: !quantum.bit):
    quantum.yield %x : !quantum.bit
  }
  return
}

// -----

func.func @yield_outside_region(%q: !quantum.bit) {
  // expected-error @+1 {{'quantum.yield' op expects parent op to be one of 'quantum.adjoint, quantum.ctrl'}}
  quantum.yield %q : !quantum.bit
}

//===----------------------------------------------------------------------===//
// Observables
//===----------------------------------------------------------------------===//

// -----

func.func @namedobs_bad_enum(%q: !quantum.bit) {
  // expected-error @+2 {{expected ::qshape::quantum::NamedObservable to be one of: Identity, PauliX, PauliY, PauliZ, Hadamard}}
  // expected-error @+1 {{failed to parse Quantum_NamedObservableAttr parameter 'value'}}
  %o = quantum.namedobs %q[ PauliW] : !quantum.obs
  return
}

// -----

func.func @compbasis_both(%q: !quantum.bit, %r: !quantum.reg) {
  // expected-error @+1 {{'quantum.compbasis' op takes either qubits or a register, not both}}
  %o = quantum.compbasis qubits %q qreg %r : !quantum.obs
  return
}

// -----

func.func @hermitian_matrix_size(%m: tensor<4x4xcomplex<f64>>, %q: !quantum.bit) {
  // expected-error @+1 {{'quantum.hermitian' op acts on 1 qubits, so its matrix must be 2x2, got 'tensor<4x4xcomplex<f64>>'}}
  %o = quantum.hermitian(%m : tensor<4x4xcomplex<f64>>) %q : !quantum.obs
  return
}

// -----

func.func @hamiltonian_coeffs(%c: tensor<3xf64>, %o1: !quantum.obs, %o2: !quantum.obs) {
  // expected-error @+1 {{'quantum.hamiltonian' op has 2 terms but 3 coefficients}}
  %h = quantum.hamiltonian(%c : tensor<3xf64>) %o1, %o2 : !quantum.obs
  return
}

//===----------------------------------------------------------------------===//
// Measurements: a result (value form) or a buffer (bufferized form), exactly one.
//===----------------------------------------------------------------------===//

// -----

func.func @measure_postselect(%q: !quantum.bit) {
  // expected-error @+1 {{'quantum.measure' op attribute 'postselect' failed to satisfy constraint}}
  %m, %q1 = quantum.measure %q postselect 2 : i1, !quantum.bit
  return
}

// -----

func.func @probs_neither(%o: !quantum.obs) {
  // expected-error @+1 {{'quantum.probs' op must either return a result or write into a buffer}}
  quantum.probs %o
  return
}

// -----

func.func @probs_both(%o: !quantum.obs, %b: memref<4xf64>) {
  // expected-error @+1 {{'quantum.probs' op cannot both write into a buffer and return a result}}
  %p = "quantum.probs"(%o, %b) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (!quantum.obs, memref<4xf64>) -> tensor<4xf64>
  return
}

// -----

func.func @state_neither(%o: !quantum.obs) {
  // expected-error @+1 {{'quantum.state' op must either return a result or write into a buffer}}
  quantum.state %o
  return
}

// -----

func.func @sample_neither(%o: !quantum.obs, %n: i64) {
  // expected-error @+1 {{'quantum.sample' op must either return a result or write into a buffer}}
  quantum.sample %o shape %n
  return
}

// -----

func.func @counts_neither(%o: !quantum.obs) {
  // expected-error @+1 {{'quantum.counts' op must either return a result or write into a buffer}}
  quantum.counts %o
  return
}

// -----

func.func @counts_one_buffer(%o: !quantum.obs, %e: memref<4xf64>) {
  // expected-error @+1 {{'quantum.counts' op bufferized form needs both eigenvalue and count buffers}}
  "quantum.counts"(%o, %e) <{operandSegmentSizes = array<i32: 1, 0, 1, 0>}> : (!quantum.obs, memref<4xf64>) -> ()
  return
}
