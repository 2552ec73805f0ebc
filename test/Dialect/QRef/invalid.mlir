// One case per verifier rule of the `qref` dialect, mirroring what Catalyst's
// VerifierTests.mlir checks (2026-08). The rules and their messages are
// Catalyst's (its QRefOps.cpp and its QuantumGate interface, whose messages
// carry no op name), so a module fails here exactly when it fails in
// Catalyst; the one rule of qshape's own (qref.get's index) says so. Cases
// the pretty form cannot express use the generic form.
//
// RUN: qshape-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// expected-error @+1 {{Static allocation size must be non-negative}}
func.func @reg_negative_size(%r: !qref.reg<-1>) {
  return
}

// -----

//===----------------------------------------------------------------------===//
// Qubit management
//===----------------------------------------------------------------------===//

func.func @alloc_no_size() {
  // expected-error @+1 {{expected op to have a non-null allocation size}}
  %r = "qref.alloc"() : () -> !qref.reg<?>
  return
}

// -----

func.func @alloc_two_sizes(%n: i64) {
  // expected-error @+1 {{must have a single allocation size}}
  %r = "qref.alloc"(%n) <{nqubits_attr = 2 : i64}> : (i64) -> !qref.reg<2>
  return
}

// -----

func.func @alloc_dynamic_size_static_type(%n: i64) {
  // expected-error @+1 {{expected result to have dynamic allocation size !qref.qreg<?>}}
  %r = qref.alloc(%n) : !qref.reg<5>
  return
}

// -----

func.func @alloc_static_size_other_type() {
  // expected-error @+1 {{expected result to have static allocation size !qref.qreg<3>}}
  %r = qref.alloc(3) : !qref.reg<4>
  return
}

// -----

func.func @alloc_static_size_dynamic_type() {
  // expected-error @+1 {{expected result to have static allocation size !qref.qreg<3>}}
  %r = qref.alloc(3) : !qref.reg<?>
  return
}

// -----

// qshape's rule: the pretty form prints exactly one index.
func.func @get_no_index(%r: !qref.reg<2>) {
  // expected-error @+1 {{expected op to have a non-null index}}
  %q = "qref.get"(%r) <{operandSegmentSizes = array<i32: 1, 0>}> : (!qref.reg<2>) -> !qref.bit
  return
}

// -----

func.func @get_two_indices(%r: !qref.reg<2>, %i: i64) {
  // expected-error @+1 {{has both a dynamic index operand and a static index attribute; it must have one}}
  %q = "qref.get"(%r, %i) <{idx_attr = 0 : i64}> : (!qref.reg<2>, i64) -> !qref.bit
  return
}

// -----

//===----------------------------------------------------------------------===//
// Gates: one control value per control qubit, all qubits distinct.
//===----------------------------------------------------------------------===//

func.func @custom_more_values(%q: !qref.bit, %c: !qref.bit, %on: i1) {
  // expected-error @+1 {{number of controlling qubits in input (1) and controlling values (2) must be the same}}
  qref.custom "PauliX"() %q ctrls(%c) ctrlvals(%on, %on) : !qref.bit ctrls !qref.bit
  return
}

// -----

func.func @custom_values_without_controls(%q: !qref.bit, %on: i1) {
  // expected-error @+1 {{number of controlling qubits in input (0) and controlling values (1) must be the same}}
  qref.custom "PauliX"() %q ctrls() ctrlvals(%on) : !qref.bit
  return
}

// -----

func.func @custom_repeated_target(%q: !qref.bit) {
  // expected-error @+1 {{all qubits on a quantum gate must be distinct (including controls)}}
  qref.custom "SWAP"() %q, %q : !qref.bit, !qref.bit
  return
}

// -----

func.func @custom_target_is_control(%q: !qref.bit, %on: i1) {
  // expected-error @+1 {{all qubits on a quantum gate must be distinct (including controls)}}
  qref.custom "Hadamard"() %q ctrls(%q) ctrlvals(%on) : !qref.bit ctrls !qref.bit
  return
}

// -----

func.func @custom_no_qubit() {
  // expected-error @+1 {{'qref.custom' op expected op to have at least one qubit}}
  "qref.custom"() <{gate_name = "Identity", operandSegmentSizes = array<i32: 0, 0, 0, 0>}> : () -> ()
  return
}

// -----

func.func @paulirot_word_too_long(%t: f64, %q: !qref.bit) {
  // expected-error @+1 {{length of Pauli word (3) and number of qubits (1) must be the same}}
  qref.paulirot ["X", "Y", "Z"](%t) %q : !qref.bit
  return
}

// -----

func.func @paulirot_bad_letter(%t: f64, %q: !qref.bit) {
  // expected-error @+1 {{Only "X", "Y", "Z", and "I" are valid Pauli words.}}
  qref.paulirot ["W"](%t) %q : !qref.bit
  return
}

// -----

func.func @paulirot_repeated_qubit(%t: f64, %q: !qref.bit) {
  // expected-error @+1 {{all qubits on a quantum gate must be distinct (including controls)}}
  qref.paulirot ["X", "X"](%t) %q, %q : !qref.bit, !qref.bit
  return
}

// -----

func.func @gphase_more_values(%t: f64, %c: !qref.bit, %on: i1) {
  // expected-error @+1 {{number of controlling qubits in input (1) and controlling values (2) must be the same}}
  qref.gphase(%t) ctrls(%c) ctrlvals(%on, %on) : ctrls !qref.bit
  return
}

// -----

func.func @gphase_repeated_control(%t: f64, %c: !qref.bit, %on: i1) {
  // expected-error @+1 {{all qubits on a quantum gate must be distinct (including controls)}}
  qref.gphase(%t) ctrls(%c, %c) ctrlvals(%on, %on) : ctrls !qref.bit, !qref.bit
  return
}

// -----

func.func @multirz_more_values(%t: f64, %q: !qref.bit, %c: !qref.bit, %on: i1) {
  // expected-error @+1 {{number of controlling qubits in input (1) and controlling values (2) must be the same}}
  qref.multirz(%t) %q ctrls(%c) ctrlvals(%on, %on) : !qref.bit ctrls !qref.bit
  return
}

// -----

func.func @multirz_repeated_qubit(%t: f64, %q: !qref.bit) {
  // expected-error @+1 {{all qubits on a quantum gate must be distinct (including controls)}}
  qref.multirz(%t) %q, %q : !qref.bit, !qref.bit
  return
}

// -----

func.func @pcphase_more_values(%t: f64, %q: !qref.bit, %c: !qref.bit, %on: i1) {
  // expected-error @+1 {{number of controlling qubits in input (1) and controlling values (2) must be the same}}
  qref.pcphase(%t, dim : 1) %q ctrls(%c) ctrlvals(%on, %on) : !qref.bit ctrls !qref.bit
  return
}

// -----

func.func @pcphase_repeated_qubit(%t: f64, %q: !qref.bit) {
  // expected-error @+1 {{all qubits on a quantum gate must be distinct (including controls)}}
  qref.pcphase(%t, dim : 1) %q, %q : !qref.bit, !qref.bit
  return
}

// -----

func.func @unitary_wrong_size(%u: tensor<4x4xcomplex<f64>>, %q: !qref.bit) {
  // expected-error @+1 {{The Unitary matrix must be of size 2^(num_qubits) * 2^(num_qubits)}}
  qref.unitary(%u : tensor<4x4xcomplex<f64>>) %q : !qref.bit
  return
}

// -----

func.func @unitary_more_values(%u: tensor<2x2xcomplex<f64>>, %q: !qref.bit, %c: !qref.bit, %on: i1) {
  // expected-error @+1 {{number of controlling qubits in input (1) and controlling values (2) must be the same}}
  qref.unitary(%u : tensor<2x2xcomplex<f64>>) %q ctrls(%c) ctrlvals(%on, %on) : !qref.bit ctrls !qref.bit
  return
}

// -----

func.func @unitary_repeated_qubit(%u: tensor<4x4xcomplex<f64>>, %q: !qref.bit) {
  // expected-error @+1 {{all qubits on a quantum gate must be distinct (including controls)}}
  qref.unitary(%u : tensor<4x4xcomplex<f64>>) %q, %q : !qref.bit, !qref.bit
  return
}

// -----

//===----------------------------------------------------------------------===//
// qref.operator
//===----------------------------------------------------------------------===//

func.func @operator_repeated_qubit(%q: !qref.bit) {
  // expected-error @+1 {{all qubits on a quantum gate must be distinct (including controls)}}
  qref.operator "Op"() qubits(%q, %q)
  return
}

// -----

func.func @operator_fewer_values(%q: !qref.bit, %c0: !qref.bit, %c1: !qref.bit, %on: i1) {
  // expected-error @+1 {{number of controlling qubits in input (2) and controlling values (1) must be the same}}
  qref.operator "Op"() qubits(%q) ctrls(%c0, %c1) ctrl_vals(%on)
  return
}

// -----

func.func @operator_qubits_and_register(%q: !qref.bit, %r: !qref.reg<2>, %w: tensor<1xi64>) {
  // expected-error @+1 {{must use either qubits or registers, but not both}}
  "qref.operator"(%q, %r, %w) <{op_name = "Op", operandSegmentSizes = array<i32: 0, 0, 1, 0, 0, 1, 1, 0, 0>}> : (!qref.bit, !qref.reg<2>, tensor<1xi64>) -> ()
  return
}

// -----

func.func @operator_forward_without_uid(%q: !qref.bit, %x: f64) {
  // expected-error @+1 {{forward_args can only be present when UID is provided}}
  "qref.operator"(%x, %q) <{op_name = "Op", operandSegmentSizes = array<i32: 0, 1, 1, 0, 0, 0, 0, 0, 0>}> : (f64, !qref.bit) -> ()
  return
}

// -----

func.func @operator_mixed_controls(%q: !qref.bit, %c: !qref.bit, %on: i1, %ci: tensor<1xi64>, %cv: tensor<1xi1>) {
  // expected-error @+1 {{cannot mix qubit controls (ctrl_qubits/ctrl_values) with register controls (arr_ctrl_indices/arr_ctrl_values)}}
  "qref.operator"(%q, %c, %on, %ci, %cv) <{op_name = "Op", operandSegmentSizes = array<i32: 0, 0, 1, 1, 1, 0, 0, 1, 1>}> : (!qref.bit, !qref.bit, i1, tensor<1xi64>, tensor<1xi1>) -> ()
  return
}

// -----

func.func @operator_ctrl_indices_without_values(%r: !qref.reg<3>, %w: tensor<1xi64>, %ci: tensor<1xi64>) {
  // expected-error @+1 {{arr_ctrl_indices and arr_ctrl_values must either both be present or both absent}}
  "qref.operator"(%r, %w, %ci) <{op_name = "Op", operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 1, 1, 1, 0>}> : (!qref.reg<3>, tensor<1xi64>, tensor<1xi64>) -> ()
  return
}

// -----

func.func @operator_ctrl_arrays_of_other_lengths(%r: !qref.reg<4>, %w: tensor<1xi64>, %ci: tensor<2xi64>, %cv: tensor<1xi1>) {
  // expected-error @+1 {{number of input control qubits (2) and control values (1) must be the same}}
  qref.operator "Op"() quregs(%r : !qref.reg<4>) indices(%w : tensor<1xi64>)
    ctrls(%ci : tensor<2xi64>) ctrl_vals(%cv : tensor<1xi1>)
  return
}

// -----

func.func @operator_ctrl_arrays_dynamic_and_static(%r: !qref.reg<4>, %w: tensor<1xi64>, %ci: tensor<?xi64>, %cv: tensor<1xi1>) {
  // expected-error @+1 {{number of input control qubits (-9223372036854775808) and control values (1) must be the same}}
  qref.operator "Op"() quregs(%r : !qref.reg<4>) indices(%w : tensor<1xi64>)
    ctrls(%ci : tensor<?xi64>) ctrl_vals(%cv : tensor<1xi1>)
  return
}

// -----

func.func @operator_param_map_out_of_bounds(%x: f64, %q: !qref.bit) {
  // expected-error @+1 {{param_map index is out of bounds with respect to params: 1 is not in [0, 1)}}
  qref.operator "Op"(%x : f64) qubits(%q)
    param_map = {x = [1]}
  return
}

// -----

func.func @operator_param_map_misses_a_param(%x: f64, %y: f64, %q: !qref.bit) {
  // expected-error @+1 {{param_map must cover all params when provided: expected 2, got 1}}
  qref.operator "Op"(%x : f64, %y : f64) qubits(%q)
    param_map = {x = [0], y = [0]}
  return
}

// -----

func.func @operator_qubit_map_out_of_bounds(%q0: !qref.bit, %q1: !qref.bit) {
  // expected-error @+1 {{qubit_map index is out of bounds with respect to qubits: 2 is not in [0, 2)}}
  qref.operator "Op"() qubits(%q0, %q1)
    qubit_map = {wires = [0, 1, 2]}
  return
}

// -----

func.func @operator_qubit_map_index_array_out_of_bounds(%r: !qref.reg<3>, %w0: tensor<2xi64>, %w1: tensor<1xi64>) {
  // expected-error @+1 {{qubit_map index is out of bounds with respect to index arrays: 2 is not in [0, 2)}}
  qref.operator "Op"() quregs(%r : !qref.reg<3>) indices(%w0 : tensor<2xi64>, %w1 : tensor<1xi64>)
    qubit_map = {wires = [0], aux = [2]}
  return
}

// -----

func.func @operator_qubit_map_misses_a_qubit(%q0: !qref.bit, %q1: !qref.bit) {
  // expected-error @+1 {{qubit_map must cover all qubit values in qubit mode: expected 2, got 1}}
  qref.operator "Op"() qubits(%q0, %q1)
    qubit_map = {wires = [1, 1]}
  return
}

// -----

func.func @operator_qubit_map_misses_an_index_array(%r: !qref.reg<3>, %w0: tensor<2xi64>, %w1: tensor<1xi64>) {
  // expected-error @+1 {{qubit_map must cover all index arrays in register mode: expected 2, got 1}}
  qref.operator "Op"() quregs(%r : !qref.reg<3>) indices(%w0 : tensor<2xi64>, %w1 : tensor<1xi64>)
    qubit_map = {wires = [0]}
  return
}

// -----

//===----------------------------------------------------------------------===//
// Region ops
//===----------------------------------------------------------------------===//

func.func @adjoint_measures(%r: !qref.reg<2>) {
  // expected-error @+1 {{'qref.adjoint' op quantum measurements are not allowed in the adjoint regions}}
  qref.adjoint {
    %q = qref.get %r[0] : !qref.reg<2> -> !qref.bit
    %o = qref.namedobs %q [ PauliZ] : !quantum.obs
    %e = quantum.expval %o : f64
  }
  return
}

// -----

func.func @adjoint_block_argument() {
  // expected-error @+1 {{'qref.adjoint' op qref.adjoint op must have no arguments on its block}}
  qref.adjoint {
  ^bb0(%q: !qref.bit):
    qref.custom "S"() %q : !qref.bit
  }
  return
}

// -----

func.func @ctrl_measures(%c: !qref.bit, %r: !qref.reg<2>, %on: i1) {
  // expected-error @+1 {{'qref.ctrl' op quantum measurements are not allowed in the ctrl regions}}
  qref.ctrl(%c) ctrlvals(%on) {
    %q = qref.get %r[0] : !qref.reg<2> -> !qref.bit
    %o = qref.namedobs %q [ PauliX] : !quantum.obs
    %e = quantum.expval %o : f64
  }
  return
}

// -----

// Unlike qref.adjoint, qref.ctrl rejects a mid-circuit measurement too.
func.func @ctrl_mid_circuit_measure(%c: !qref.bit, %q: !qref.bit, %on: i1) {
  // expected-error @+1 {{'qref.ctrl' op quantum measurements are not allowed in the ctrl regions}}
  qref.ctrl(%c) ctrlvals(%on) {
    %m = qref.measure %q : i1
  }
  return
}

// -----

func.func @ctrl_block_argument(%c: !qref.bit, %on: i1) {
  // expected-error @+1 {{'qref.ctrl' op qref.ctrl op must have no arguments on its block}}
  qref.ctrl(%c) ctrlvals(%on) {
  ^bb0(%r: !qref.reg<2>):
  }
  return
}

// -----

func.func @ctrl_fewer_values(%c0: !qref.bit, %c1: !qref.bit, %on: i1, %t: f64) {
  // expected-error @+1 {{'qref.ctrl' op Ctrl op number of control values must be the same as the number of control qubits}}
  qref.ctrl(%c0, %c1) ctrlvals(%on) {
    qref.gphase(%t)
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// Observables
//===----------------------------------------------------------------------===//

func.func @compbasis_qubits_and_register(%q: !qref.bit, %r: !qref.reg<2>) {
  // expected-error @+1 {{computational basis op cannot simultaneously take in both qubits and quregs}}
  %o = qref.compbasis qubits %q (qreg %r : !qref.reg<2>) : !quantum.obs
  return
}

// -----

func.func @hermitian_wrong_size(%h: tensor<2x2xcomplex<f64>>, %q0: !qref.bit, %q1: !qref.bit) {
  // expected-error @+1 {{The Hermitian matrix must be of size 2^(num_qubits) * 2^(num_qubits)}}
  %o = qref.hermitian(%h : tensor<2x2xcomplex<f64>>) %q0, %q1 : !quantum.obs
  return
}

// -----

func.func @namedobs_bad_name(%q: !qref.bit) {
  // expected-error @+2 {{expected ::qshape::quantum::NamedObservable to be one of: Identity, PauliX, PauliY, PauliZ, Hadamard}}
  // expected-error @+1 {{failed to parse NamedObservableAttr parameter 'value'}}
  %o = qref.namedobs %q [ PauliW] : !quantum.obs
  return
}

// -----

//===----------------------------------------------------------------------===//
// quantum's measurement rules on qref observables
//===----------------------------------------------------------------------===//

func.func @counts_on_two_qref_qubits(%q0: !qref.bit, %q1: !qref.bit) {
  %b = qref.compbasis qubits %q0, %q1 : !quantum.obs
  // expected-error @+1 {{'quantum.counts' op number of eigenvalues or counts did not match observable}}
  %e, %c = quantum.counts %b : tensor<2xf64>, tensor<2xi64>
  return
}
