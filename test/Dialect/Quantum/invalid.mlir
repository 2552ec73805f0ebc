// One case per verifier rule and per ODS constraint qshape relies on. The
// rules and their messages are Catalyst's (2026-08: its QuantumOps.cpp, the
// verifiers of its QuantumOperation / QuantumGate interfaces, and its
// dialect attribute verifier), so a module fails here exactly when it fails
// in Catalyst; the few rules of qshape's own say so. Cases the pretty form
// cannot express use the generic form. Forms that Catalyst accepts and
// qshape once rejected are in round-trip.mlir.
//
// RUN: qshape-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Gates: qubits in = qubits out, one control value per control, controls
// come out again (Catalyst's interface rules, reported without op name).
//===----------------------------------------------------------------------===//

func.func @custom_qubits_mismatch(%q0: !quantum.bit, %q1: !quantum.bit) {
  // expected-error @+1 {{number of qubits in input (2) and output (1) must be the same}}
  %o = quantum.custom "CNOT"() %q0, %q1 : !quantum.bit
  return
}

// -----

func.func @custom_out_qubits_mismatch(%q: !quantum.bit) {
  // expected-error @+1 {{number of qubits in input (1) and output (2) must be the same}}
  %o:2 = quantum.custom "Hadamard"() %q : !quantum.bit, !quantum.bit
  return
}

// -----

func.func @custom_ctrl_values_mismatch(%t: f64, %q: !quantum.bit, %c0: !quantum.bit, %c1: !quantum.bit, %true: i1) {
  // expected-error @+1 {{number of controlling qubits in input (2) and controlling values (1) must be the same}}
  %o, %c:2 = quantum.custom "RX"(%t) %q ctrls(%c0, %c1) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit, !quantum.bit
  return
}

// -----

// Three qubits in and three out, but one control comes out as a target.
func.func @custom_out_ctrl_mismatch(%t: f64, %q: !quantum.bit, %c: !quantum.bit, %true: i1) {
  // expected-error @+1 {{number of controlling qubits in input (1) and output (0) must be the same}}
  %o:2 = quantum.custom "Rot"(%t, %t, %t) %q ctrls(%c) ctrlvals(%true) : !quantum.bit, !quantum.bit
  return
}

// -----

func.func @custom_no_qubits(%t: f64) {
  // expected-error @+1 {{'quantum.custom' op expected op to have at least one qubit}}
  "quantum.custom"(%t) <{gate_name = "RX", operandSegmentSizes = array<i32: 1, 0, 0, 0>, resultSegmentSizes = array<i32: 0, 0>}> : (f64) -> ()
  return
}

// -----

func.func @multirz_qubits_mismatch(%t: f64, %q0: !quantum.bit, %q1: !quantum.bit) {
  // expected-error @+1 {{number of qubits in input (2) and output (1) must be the same}}
  %o = quantum.multirz(%t) %q0, %q1 : !quantum.bit
  return
}

// -----

func.func @pcphase_ctrl_values_mismatch(%t: f64, %q: !quantum.bit, %c: !quantum.bit) {
  // expected-error @+1 {{number of controlling qubits in input (1) and controlling values (0) must be the same}}
  %o, %oc = "quantum.pcphase"(%t, %q, %c) <{dim = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0>, resultSegmentSizes = array<i32: 1, 1>}> : (f64, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  return
}

// -----

func.func @gphase_ctrl_values_mismatch(%t: f64, %c0: !quantum.bit, %true: i1) {
  // expected-error @+1 {{number of controlling qubits in input (1) and controlling values (2) must be the same}}
  %c = quantum.gphase(%t) ctrls(%c0) ctrlvals(%true, %true) : ctrls !quantum.bit
  return
}

// -----

func.func @gphase_out_ctrl_mismatch(%t: f64, %c0: !quantum.bit, %true: i1) {
  // expected-error @+1 {{number of qubits in input (1) and output (0) must be the same}}
  "quantum.gphase"(%t, %c0, %true) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (f64, !quantum.bit, i1) -> ()
  return
}

// -----

func.func @paulirot_word_length(%t: f64, %q0: !quantum.bit, %q1: !quantum.bit) {
  // expected-error @+1 {{'quantum.paulirot' op length of Pauli word (1) and number of qubits (2) must be the same}}
  %o:2 = quantum.paulirot ["Z"](%t) %q0, %q1 : !quantum.bit, !quantum.bit
  return
}

// -----

func.func @paulirot_bad_letter(%t: f64, %q0: !quantum.bit, %q1: !quantum.bit) {
  // expected-error @+1 {{'quantum.paulirot' op Only "X", "Y", "Z", and "I" are valid Pauli words.}}
  %o:2 = quantum.paulirot ["X", "Q"](%t) %q0, %q1 : !quantum.bit, !quantum.bit
  return
}

// -----

func.func @paulirot_multi_letter(%t: f64, %q0: !quantum.bit) {
  // expected-error @+1 {{'quantum.paulirot' op Only "X", "Y", "Z", and "I" are valid Pauli words.}}
  %o = quantum.paulirot ["XY"](%t) %q0 : !quantum.bit
  return
}

// -----

func.func @unitary_matrix_size(%m: tensor<2x2xcomplex<f64>>, %q0: !quantum.bit, %q1: !quantum.bit) {
  // expected-error @+1 {{'quantum.unitary' op The Unitary matrix must be of size 2^(num_qubits) * 2^(num_qubits)}}
  %o:2 = quantum.unitary(%m : tensor<2x2xcomplex<f64>>) %q0, %q1 : !quantum.bit, !quantum.bit
  return
}

// -----

func.func @unitary_matrix_not_square(%m: memref<2x4xcomplex<f64>>, %q0: !quantum.bit) {
  // expected-error @+1 {{'quantum.unitary' op The Unitary matrix must be of size 2^(num_qubits) * 2^(num_qubits)}}
  %o = quantum.unitary(%m : memref<2x4xcomplex<f64>>) %q0 : !quantum.bit
  return
}

// -----

// Catalyst wants the matrix's shape static.
func.func @unitary_matrix_dynamic(%m: tensor<?x?xcomplex<f64>>, %q0: !quantum.bit) {
  // expected-error @+1 {{'quantum.unitary' op The Unitary matrix must be of size 2^(num_qubits) * 2^(num_qubits)}}
  %o = quantum.unitary(%m : tensor<?x?xcomplex<f64>>) %q0 : !quantum.bit
  return
}

// -----

func.func @set_state_results(%v: tensor<4xcomplex<f64>>, %q0: !quantum.bit, %q1: !quantum.bit) {
  // expected-error @+1 {{number of qubits in input (2) and output (1) must be the same}}
  %s = quantum.set_state(%v) %q0, %q1 : (tensor<4xcomplex<f64>>, !quantum.bit, !quantum.bit) -> (!quantum.bit)
  return
}

// -----

func.func @set_basis_state_results(%b: tensor<1xi1>, %q0: !quantum.bit) {
  // expected-error @+1 {{number of qubits in input (1) and output (2) must be the same}}
  %s:2 = quantum.set_basis_state(%b) %q0 : (tensor<1xi1>, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  return
}

//===----------------------------------------------------------------------===//
// quantum.operator
//===----------------------------------------------------------------------===//

// -----

func.func @operator_qubits_mismatch(%q0: !quantum.bit, %q1: !quantum.bit) {
  // expected-error @+1 {{number of qubits in input (2) and output (1) must be the same}}
  %o = "quantum.operator"(%q0, %q1) <{op_name = "Op", operandSegmentSizes = array<i32: 0, 0, 2, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>}> : (!quantum.bit, !quantum.bit) -> !quantum.bit
  return
}

// -----

func.func @operator_ctrl_values_mismatch(%q: !quantum.bit, %c0: !quantum.bit, %c1: !quantum.bit, %v: i1) {
  // expected-error @+1 {{number of controlling qubits in input (2) and controlling values (1) must be the same}}
  %o, %oc:2 = quantum.operator "Op"() qubits(%q)
    ctrls(%c0, %c1) ctrl_vals(%v)
  return
}

// -----

func.func @operator_out_ctrl_mismatch(%q: !quantum.bit, %c0: !quantum.bit, %c1: !quantum.bit, %v: i1) {
  // expected-error @+1 {{number of controlling qubits in input (2) and output (1) must be the same}}
  %o:3 = "quantum.operator"(%q, %c0, %c1, %v, %v) <{op_name = "Op", operandSegmentSizes = array<i32: 0, 0, 1, 2, 2, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 2, 1, 0>}> : (!quantum.bit, !quantum.bit, !quantum.bit, i1, i1) -> (!quantum.bit, !quantum.bit, !quantum.bit)
  return
}

// -----

func.func @operator_both_modes(%q: !quantum.bit, %r: !quantum.reg, %i: tensor<2xi64>) {
  // expected-error @+1 {{'quantum.operator' op must use either qubits or registers, but not both}}
  %oq, %or = "quantum.operator"(%q, %r, %i) <{op_name = "Op", operandSegmentSizes = array<i32: 0, 0, 1, 0, 0, 1, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 1>}> : (!quantum.bit, !quantum.reg, tensor<2xi64>) -> (!quantum.bit, !quantum.reg)
  return
}

// -----

func.func @operator_register_not_returned(%r: !quantum.reg, %i: tensor<2xi64>) {
  // expected-error @+1 {{'quantum.operator' op in_qreg and out_qreg must either both be present or absent}}
  "quantum.operator"(%r, %i) <{op_name = "Op", operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 1, 1, 0, 0>, resultSegmentSizes = array<i32: 0, 0, 0>}> : (!quantum.reg, tensor<2xi64>) -> ()
  return
}

// -----

func.func @operator_forward_without_uid(%f: i64, %q: !quantum.bit) {
  // expected-error @+1 {{'quantum.operator' op forward_args can only be present when UID is provided}}
  %o = "quantum.operator"(%f, %q) <{op_name = "Op", operandSegmentSizes = array<i32: 0, 1, 1, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>}> : (i64, !quantum.bit) -> !quantum.bit
  return
}

// -----

func.func @operator_mixed_controls(%c: !quantum.bit, %v: i1, %r: !quantum.reg, %i: tensor<2xi64>, %ci: tensor<1xi64>, %cv: tensor<1xi1>) {
  // expected-error @+1 {{'quantum.operator' op cannot mix qubit controls (in_ctrl_qubits/in_ctrl_values/out_ctrl_qubits) with register controls (arr_ctrl_indices/arr_ctrl_values)}}
  %oc, %or = "quantum.operator"(%c, %v, %r, %i, %ci, %cv) <{op_name = "Op", operandSegmentSizes = array<i32: 0, 0, 0, 1, 1, 1, 1, 1, 1>, resultSegmentSizes = array<i32: 0, 1, 1>}> : (!quantum.bit, i1, !quantum.reg, tensor<2xi64>, tensor<1xi64>, tensor<1xi1>) -> (!quantum.bit, !quantum.reg)
  return
}

// -----

func.func @operator_ctrl_indices_without_values(%r: !quantum.reg, %i: tensor<2xi64>, %ci: tensor<2xi64>) {
  // expected-error @+1 {{'quantum.operator' op arr_ctrl_indices and arr_ctrl_values must either both be present or both absent}}
  %or = "quantum.operator"(%r, %i, %ci) <{op_name = "Op", operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 1, 1, 1, 0>, resultSegmentSizes = array<i32: 0, 0, 1>}> : (!quantum.reg, tensor<2xi64>, tensor<2xi64>) -> !quantum.reg
  return
}

// -----

func.func @operator_ctrl_array_lengths(%r: !quantum.reg, %i: tensor<2xi64>, %ci: tensor<2xi64>, %cv: tensor<1xi1>) {
  // expected-error @+1 {{'quantum.operator' op number of input control qubits (2) and control values (1) must be the same}}
  %or = quantum.operator "Op"()
    quregs(%r) indices(%i: tensor<2xi64>)
    ctrls(%ci: tensor<2xi64>) ctrl_vals(%cv: tensor<1xi1>)
  return
}

// -----

func.func @operator_param_map_coverage(%p0: f64, %p1: i64, %q: !quantum.bit) {
  // expected-error @+1 {{'quantum.operator' op param_map must cover all params when provided: expected 2, got 1}}
  %o = quantum.operator "Op"(%p0: f64, %p1: i64) qubits(%q)
    param_map = {theta = [0]}
  return
}

// -----

// An empty map still counts as provided.
func.func @operator_param_map_empty(%p0: f64, %q: !quantum.bit) {
  // expected-error @+1 {{'quantum.operator' op param_map must cover all params when provided: expected 1, got 0}}
  %o = quantum.operator "Op"(%p0: f64) qubits(%q)
    param_map = {}
  return
}

// -----

func.func @operator_param_map_out_of_bounds(%p0: f64, %q: !quantum.bit) {
  // expected-error @+1 {{'quantum.operator' op param_map index is out of bounds with respect to params: 1 is not in [0, 1)}}
  %o = quantum.operator "Op"(%p0: f64) qubits(%q)
    param_map = {theta = [0, 1]}
  return
}

// -----

func.func @operator_qubit_map_coverage_qubits(%q0: !quantum.bit, %q1: !quantum.bit) {
  // expected-error @+1 {{'quantum.operator' op qubit_map must cover all qubit values in qubit mode: expected 2, got 1}}
  %o:2 = quantum.operator "Op"() qubits(%q0, %q1)
    qubit_map = {a = [0], b = [0]}
  return
}

// -----

func.func @operator_qubit_map_coverage_register(%r: !quantum.reg, %i0: tensor<2xi64>, %i1: tensor<1xi64>) {
  // expected-error @+1 {{'quantum.operator' op qubit_map must cover all index arrays in register mode: expected 2, got 1}}
  %or = quantum.operator "Op"()
    quregs(%r) indices(%i0: tensor<2xi64>, %i1: tensor<1xi64>)
    qubit_map = {wires = [1]}
  return
}

// -----

func.func @operator_qubit_map_out_of_bounds_register(%r: !quantum.reg, %i0: tensor<2xi64>, %i1: tensor<1xi64>) {
  // expected-error @+1 {{'quantum.operator' op qubit_map index is out of bounds with respect to index arrays: 2 is not in [0, 2)}}
  %or = quantum.operator "Op"()
    quregs(%r) indices(%i0: tensor<2xi64>, %i1: tensor<1xi64>)
    qubit_map = {a = [0], b = [2]}
  return
}

// -----

func.func @operator_qubit_map_negative(%q: !quantum.bit) {
  // expected-error @+1 {{'quantum.operator' op qubit_map index is out of bounds with respect to qubits: -1 is not in [0, 1)}}
  %o = quantum.operator "Op"() qubits(%q)
    qubit_map = {wires = [-1]}
  return
}

// -----

// Map values are dense i64 arrays (the pretty form's `[0, 1]`).
func.func @operator_map_value_type(%q: !quantum.bit) {
  // expected-error @+1 {{'quantum.operator' op attribute 'qubit_map' failed to satisfy constraint: dictionary of named attribute values dictionary with DenseI64ArrayAttr values}}
  %o = "quantum.operator"(%q) <{op_name = "Op", operandSegmentSizes = array<i32: 0, 0, 1, 0, 0, 0, 0, 0, 0>, qubit_map = {wires = [0]}, resultSegmentSizes = array<i32: 1, 0, 0>}> : (!quantum.bit) -> !quantum.bit
  return
}

// -----

func.func @operator_index_type(%r: !quantum.reg, %i: tensor<2xi32>) {
  // expected-error @+1 {{'quantum.operator' op operand #1 must be variadic of 1D tensor of 64-bit signless integer values, but got 'tensor<2xi32>'}}
  %or = quantum.operator "Op"() quregs(%r) indices(%i: tensor<2xi32>)
  return
}

// -----

// The parser reports at the token where `ctrl_vals` should be.
func.func @operator_ctrls_need_values(%q: !quantum.bit, %c: !quantum.bit) {
  %o, %oc = quantum.operator "Op"() qubits(%q) ctrls(%c)
  // expected-error @+1 {{expected 'ctrl_vals'}}
  return
}

//===----------------------------------------------------------------------===//
// Register access and allocation. Catalyst asks extract and insert for an
// index; qshape's own rules (its printer holds one of the two forms, so an
// op with both or neither would print wrong) add the rest.
//===----------------------------------------------------------------------===//

// -----

func.func @extract_neither(%r: !quantum.reg) {
  // expected-error @+1 {{'quantum.extract' op expected op to have a non-null index}}
  %q = "quantum.extract"(%r) : (!quantum.reg) -> !quantum.bit
  return
}

// -----

func.func @extract_both(%r: !quantum.reg, %i: i64) {
  // expected-error @+1 {{'quantum.extract' op has both a dynamic index operand and a static index attribute; it must have one}}
  %q = "quantum.extract"(%r, %i) <{idx_attr = 0 : i64}> : (!quantum.reg, i64) -> !quantum.bit
  return
}

// -----

func.func @extract_negative(%r: !quantum.reg) {
  // expected-error @+1 {{'quantum.extract' op attribute 'idx_attr' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %q = quantum.extract %r[ -1] : !quantum.reg -> !quantum.bit
  return
}

// -----

func.func @insert_neither(%r: !quantum.reg, %q: !quantum.bit) {
  // expected-error @+1 {{'quantum.insert' op expected op to have a non-null index}}
  %r1 = "quantum.insert"(%r, %q) : (!quantum.reg, !quantum.bit) -> !quantum.reg
  return
}

// -----

func.func @insert_both(%r: !quantum.reg, %i: i64, %q: !quantum.bit) {
  // expected-error @+1 {{'quantum.insert' op has both a dynamic index operand and a static index attribute; it must have one}}
  %r1 = "quantum.insert"(%r, %i, %q) <{idx_attr = 1 : i64}> : (!quantum.reg, i64, !quantum.bit) -> !quantum.reg
  return
}

// -----

func.func @alloc_both(%n: i64) {
  // expected-error @+1 {{'quantum.alloc' op has both a dynamic size operand and a static size attribute; it must have one}}
  %r = "quantum.alloc"(%n) <{nqubits_attr = 2 : i64}> : (i64) -> !quantum.reg
  return
}

// -----

func.func @alloc_neither() {
  // expected-error @+1 {{'quantum.alloc' op expected op to have a size (an nqubits operand or an nqubits_attr)}}
  %r = "quantum.alloc"() : () -> !quantum.reg
  return
}

// -----

func.func @alloc_negative() {
  // expected-error @+1 {{'quantum.alloc' op attribute 'nqubits_attr' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  %r = quantum.alloc(-1) : !quantum.reg
  return
}

//===----------------------------------------------------------------------===//
// Region ops
//===----------------------------------------------------------------------===//

// -----

func.func @adjoint_block_arg_count(%r: !quantum.reg) {
  // expected-error @+1 {{'quantum.adjoint' op Adjoint op number of operands must be the same as the number of arguments on its block}}
  %a = quantum.adjoint(%r) : !quantum.reg {
    quantum.yield %r : !quantum.reg
  }
  return
}

// -----

func.func @adjoint_block_arg_type(%r: !quantum.reg, %q: !quantum.bit) {
  // expected-error @+1 {{'quantum.adjoint' op Adjoint op operand types must be the same as the argument types on its block}}
  %a = "quantum.adjoint"(%r) ({
  ^bb0(%x: !quantum.bit):
    "quantum.yield"(%r) : (!quantum.reg) -> ()
  }) : (!quantum.reg) -> !quantum.reg
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

func.func @adjoint_holds_measurement(%r: !quantum.reg) {
  // expected-error @+1 {{'quantum.adjoint' op quantum measurements are not allowed in the adjoint regions}}
  %a = quantum.adjoint(%r) : !quantum.reg {
  ^bb0(%x: !quantum.reg):
    %q = quantum.extract %x[ 0] : !quantum.reg -> !quantum.bit
    %o = quantum.namedobs %q[ PauliZ] : !quantum.obs
    %e = quantum.expval %o : f64
    quantum.yield %x : !quantum.reg
  }
  return
}

// -----

func.func @ctrl_holds_measurement(%q: !quantum.bit, %c: !quantum.bit, %true: i1) {
  // expected-error @+1 {{'quantum.ctrl' op quantum measurements are not allowed in the ctrl regions}}
  %oc, %a = quantum.ctrl(%c) ctrlvals(%true) (%q) : !quantum.bit -> !quantum.bit {
  ^bb0(%x: !quantum.bit):
    %m, %y = quantum.measure %x : i1, !quantum.bit
    quantum.yield %y : !quantum.bit
  }
  return
}

// -----

// Nested deeper (in a loop of the region), still a measurement of the region.
func.func @ctrl_holds_nested_measurement(%r: !quantum.reg, %c: !quantum.bit, %true: i1) {
  // expected-error @+1 {{'quantum.ctrl' op quantum measurements are not allowed in the ctrl regions}}
  %oc, %a = quantum.ctrl(%c) ctrlvals(%true) (%r) : !quantum.bit -> !quantum.reg {
  ^bb0(%x: !quantum.reg):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c1 step %c1 {
      %o = quantum.compbasis qreg %x : !quantum.obs
      %p = quantum.probs %o : tensor<4xf64>
    }
    quantum.yield %x : !quantum.reg
  }
  return
}

// -----

func.func @ctrl_values_count(%q: !quantum.bit, %c: !quantum.bit) {
  // expected-error @+1 {{'quantum.ctrl' op Ctrl op number of control values must be the same as the number of control qubits}}
  %oc, %a = quantum.ctrl(%c) ctrlvals() (%q) : !quantum.bit -> !quantum.bit {
  ^bb0(%x: !quantum.bit):
    quantum.yield %x : !quantum.bit
  }
  return
}

// -----

func.func @ctrl_block_args(%q: !quantum.bit, %c: !quantum.bit, %true: i1) {
  // expected-error @+1 {{'quantum.ctrl' op Ctrl op number of operands must be the same as the number of arguments on its block}}
  %oc, %a = quantum.ctrl(%c) ctrlvals(%true) (%q) : !quantum.bit -> !quantum.bit {
    quantum.yield %q : !quantum.bit
  }
  return
}

// -----

func.func @ctrl_block_arg_type(%r: !quantum.reg, %c: !quantum.bit, %true: i1) {
  // expected-error @+1 {{'quantum.ctrl' op Ctrl op operand types must be the same as the argument types on its block}}
  %oc, %a = quantum.ctrl(%c) ctrlvals(%true) (%r) : !quantum.bit -> !quantum.reg {
  ^bb0(%x: !quantum.bit):
    quantum.yield %r : !quantum.reg
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
  // expected-error @+1 {{failed to parse NamedObservableAttr parameter 'value'}}
  %o = quantum.namedobs %q[ PauliW] : !quantum.obs
  return
}

// -----

func.func @compbasis_both(%q: !quantum.bit, %r: !quantum.reg) {
  // expected-error @+1 {{'quantum.compbasis' op computational basis op cannot simultaneously take in both qubits and quregs}}
  %o = quantum.compbasis qubits %q qreg %r : !quantum.obs
  return
}

// -----

func.func @hermitian_matrix_size(%m: tensor<4x4xcomplex<f64>>, %q: !quantum.bit) {
  // expected-error @+1 {{'quantum.hermitian' op The Hermitian matrix must be of size 2^(num_qubits) * 2^(num_qubits)}}
  %o = quantum.hermitian(%m : tensor<4x4xcomplex<f64>>) %q : !quantum.obs
  return
}

// -----

func.func @hermitian_matrix_dynamic(%m: memref<?x2xcomplex<f64>>, %q: !quantum.bit) {
  // expected-error @+1 {{'quantum.hermitian' op The Hermitian matrix must be of size 2^(num_qubits) * 2^(num_qubits)}}
  %o = quantum.hermitian(%m : memref<?x2xcomplex<f64>>) %q : !quantum.obs
  return
}

//===----------------------------------------------------------------------===//
// Measurements: the observable, the form (a tensor result or memref
// buffers, exactly one), a static result shape or a shape operand (exactly
// one), and the number of eigenvalues.
//===----------------------------------------------------------------------===//

// -----

func.func @measure_postselect(%q: !quantum.bit) {
  // expected-error @+1 {{'quantum.measure' op attribute 'postselect' failed to satisfy constraint}}
  %m, %q1 = quantum.measure %q postselect 2 : i1, !quantum.bit
  return
}

// -----

func.func @probs_observable_argument(%o: !quantum.obs) {
  // expected-error @+1 {{'quantum.probs' op observable must be locally defined}}
  %p = quantum.probs %o : tensor<4xf64>
  return
}

// -----

func.func @probs_named_observable(%q: !quantum.bit) {
  %o = quantum.namedobs %q[ PauliX] : !quantum.obs
  // expected-error @+1 {{'quantum.probs' op only computational basis observables are supported}}
  %p = quantum.probs %o : tensor<2xf64>
  return
}

// -----

func.func @probs_neither(%q: !quantum.bit) {
  %o = quantum.compbasis qubits %q : !quantum.obs
  // expected-error @+1 {{'quantum.probs' op either tensors must be returned or memrefs must be used as inputs}}
  quantum.probs %o
  return
}

// -----

func.func @probs_both(%q: !quantum.bit, %b: memref<2xf64>) {
  %o = quantum.compbasis qubits %q : !quantum.obs
  // expected-error @+1 {{'quantum.probs' op either tensors must be returned or memrefs must be used as inputs}}
  %p = quantum.probs %o in(%b : memref<2xf64>) : tensor<2xf64>
  return
}

// -----

func.func @probs_static_with_shape(%q: !quantum.bit, %n: i64) {
  %o = quantum.compbasis qubits %q : !quantum.obs
  // expected-error @+1 {{'quantum.probs' op with static return shapes should not specify dynamic shape in arguments}}
  %p = quantum.probs %o shape %n : tensor<2xf64>
  return
}

// -----

func.func @probs_dynamic_without_shape(%q: !quantum.bit) {
  %o = quantum.compbasis qubits %q : !quantum.obs
  // expected-error @+1 {{'quantum.probs' op with dynamic return shapes must specify dynamic shape in arguments}}
  %p = quantum.probs %o : tensor<?xf64>
  return
}

// -----

func.func @state_observable_argument(%o: !quantum.obs) {
  // expected-error @+1 {{'quantum.state' op observable must be locally defined}}
  %s = quantum.state %o : tensor<4xcomplex<f64>>
  return
}

// -----

func.func @state_hermitian_observable(%m: tensor<2x2xcomplex<f64>>, %q: !quantum.bit) {
  %o = quantum.hermitian(%m : tensor<2x2xcomplex<f64>>) %q : !quantum.obs
  // expected-error @+1 {{'quantum.state' op only computational basis observables are supported}}
  %s = quantum.state %o : tensor<2xcomplex<f64>>
  return
}

// -----

func.func @state_neither(%r: !quantum.reg) {
  %o = quantum.compbasis qreg %r : !quantum.obs
  // expected-error @+1 {{'quantum.state' op either tensors must be returned or memrefs must be used as inputs}}
  quantum.state %o
  return
}

// -----

func.func @state_static_with_shape(%r: !quantum.reg, %n: i64) {
  %o = quantum.compbasis qreg %r : !quantum.obs
  // expected-error @+1 {{'quantum.state' op with static return shapes should not specify dynamic shape in arguments}}
  %s = quantum.state %o shape %n : tensor<4xcomplex<f64>>
  return
}

// -----

func.func @state_dynamic_without_shape(%r: !quantum.reg) {
  %o = quantum.compbasis qreg %r : !quantum.obs
  // expected-error @+1 {{'quantum.state' op with dynamic return shapes must specify dynamic shape in arguments}}
  %s = quantum.state %o : tensor<?xcomplex<f64>>
  return
}

// -----

func.func @sample_observable_argument(%o: !quantum.obs) {
  // expected-error @+1 {{'quantum.sample' op observable must be locally defined}}
  %s = quantum.sample %o : tensor<10xf64>
  return
}

// -----

func.func @sample_neither(%q: !quantum.bit, %n: i64) {
  %o = quantum.compbasis qubits %q : !quantum.obs
  // expected-error @+1 {{'quantum.sample' op either tensors must be returned or memrefs must be used as inputs}}
  quantum.sample %o shape %n
  return
}

// -----

func.func @sample_both(%q: !quantum.bit, %b: memref<10x1xf64>) {
  %o = quantum.compbasis qubits %q : !quantum.obs
  // expected-error @+1 {{'quantum.sample' op either tensors must be returned or memrefs must be used as inputs}}
  %s = quantum.sample %o in(%b : memref<10x1xf64>) : tensor<10x1xf64>
  return
}

// -----

func.func @sample_static_with_shape(%q: !quantum.bit, %n: i64) {
  %o = quantum.compbasis qubits %q : !quantum.obs
  // expected-error @+1 {{'quantum.sample' op with static return shapes should not specify dynamic shape in arguments}}
  %s = quantum.sample %o shape %n : tensor<10x1xf64>
  return
}

// -----

func.func @sample_dynamic_without_shape(%q: !quantum.bit) {
  %o = quantum.compbasis qubits %q : !quantum.obs
  // expected-error @+1 {{'quantum.sample' op with dynamic return shapes must specify dynamic shape in arguments}}
  %s = quantum.sample %o : tensor<?x1xf64>
  return
}

// -----

func.func @counts_observable_argument(%o: !quantum.obs) {
  // expected-error @+1 {{'quantum.counts' op observable must be locally defined}}
  %e, %c = quantum.counts %o : tensor<2xf64>, tensor<2xi64>
  return
}

// -----

func.func @counts_neither(%q: !quantum.bit) {
  %o = quantum.namedobs %q[ PauliX] : !quantum.obs
  // expected-error @+1 {{'quantum.counts' op either tensors must be returned or memrefs must be used as inputs}}
  quantum.counts %o
  return
}

// -----

func.func @counts_both(%q: !quantum.bit, %eb: memref<2xf64>, %cb: memref<2xi64>) {
  %o = quantum.namedobs %q[ PauliX] : !quantum.obs
  // expected-error @+1 {{'quantum.counts' op either tensors must be returned or memrefs must be used as inputs}}
  %e, %c = quantum.counts %o in(%eb : memref<2xf64>, %cb : memref<2xi64>) : tensor<2xf64>, tensor<2xi64>
  return
}

// -----

// qshape's rule: the pretty form prints both buffers or neither.
func.func @counts_one_buffer(%q: !quantum.bit, %eb: memref<2xf64>) {
  %o = quantum.namedobs %q[ PauliX] : !quantum.obs
  // expected-error @+1 {{'quantum.counts' op bufferized form needs both eigenvalue and count buffers}}
  %e, %c = "quantum.counts"(%o, %eb) <{operandSegmentSizes = array<i32: 1, 0, 1, 0>}> : (!quantum.obs, memref<2xf64>) -> (tensor<2xf64>, tensor<2xi64>)
  return
}

// -----

func.func @counts_static_with_shape(%q: !quantum.bit, %n: i64) {
  %o = quantum.compbasis qubits %q : !quantum.obs
  // expected-error @+1 {{'quantum.counts' op with static return shapes should not specify dynamic shape in arguments}}
  %e, %c = quantum.counts %o shape %n : tensor<2xf64>, tensor<2xi64>
  return
}

// -----

func.func @counts_dynamic_without_shape(%q: !quantum.bit) {
  %o = quantum.compbasis qubits %q : !quantum.obs
  // expected-error @+1 {{'quantum.counts' op with dynamic return shapes must specify dynamic shape in arguments}}
  %e, %c = quantum.counts %o : tensor<?xf64>, tensor<?xi64>
  return
}

// -----

// A named observable has two eigenvalues.
func.func @counts_named_eigenvalues(%q: !quantum.bit) {
  %o = quantum.namedobs %q[ PauliZ] : !quantum.obs
  // expected-error @+1 {{'quantum.counts' op number of eigenvalues or counts did not match observable}}
  %e, %c = quantum.counts %o : tensor<4xf64>, tensor<4xi64>
  return
}

// -----

// A computational basis on n qubits has 2^n bitstrings.
func.func @counts_basis_eigenvalues(%q0: !quantum.bit, %q1: !quantum.bit) {
  %o = quantum.compbasis qubits %q0, %q1 : !quantum.obs
  // expected-error @+1 {{'quantum.counts' op number of eigenvalues or counts did not match observable}}
  %e, %c = quantum.counts %o : tensor<2xf64>, tensor<2xi64>
  return
}

// -----

// So does a set of n mid-circuit measurement results.
func.func @counts_mcm_eigenvalues(%m0: i1, %m1: i1) {
  %o = quantum.mcmobs %m0, %m1 : !quantum.obs
  // expected-error @+1 {{'quantum.counts' op number of eigenvalues or counts did not match observable}}
  %e, %c = quantum.counts %o : tensor<2xf64>, tensor<2xi64>
  return
}

// -----

func.func @counts_buffer_eigenvalues(%q: !quantum.bit, %eb: memref<4xf64>, %cb: memref<4xi64>) {
  %o = quantum.namedobs %q[ PauliY] : !quantum.obs
  // expected-error @+1 {{'quantum.counts' op number of eigenvalues or counts did not match observable}}
  quantum.counts %o in(%eb : memref<4xf64>, %cb : memref<4xi64>)
  return
}

// -----

func.func @counts_general_observable(%m: tensor<2x2xcomplex<f64>>, %q: !quantum.bit) {
  %o = quantum.hermitian(%m : tensor<2x2xcomplex<f64>>) %q : !quantum.obs
  // expected-error @+1 {{'quantum.counts' op cannot determine the number of eigenvalues for general observable}}
  %e, %c = quantum.counts %o : tensor<2xf64>, tensor<2xi64>
  return
}

//===----------------------------------------------------------------------===//
// Where measurements stand. In a quantum kernel (a module whose first nested
// module is the transform module Catalyst's frontend emits), measurements
// belong to a func.func with the `quantum.node` attribute.
//===----------------------------------------------------------------------===//

// -----

module {
  module attributes {transform.with_named_sequence} {}
  func.func @not_a_qnode(%q: !quantum.bit) -> f64 {
    %o = quantum.namedobs %q[ PauliZ] : !quantum.obs
    // expected-error @+1 {{'quantum.expval' op requires parent function to carry 'quantum.node' attribute}}
    %e = quantum.expval %o : f64
    return %e : f64
  }
}

// -----

// The rule holds in loops of the function too, and for every measurement.
module {
  module attributes {transform.with_named_sequence} {}
  func.func @not_a_qnode(%q: !quantum.bit, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %o = quantum.compbasis qubits %q : !quantum.obs
      // expected-error @+1 {{'quantum.probs' op requires parent function to carry 'quantum.node' attribute}}
      %p = quantum.probs %o : tensor<2xf64>
    }
    return
  }
}

// -----

module {
  module attributes {transform.with_named_sequence} {}
  func.func @qnode_attr_not_unit(%q: !quantum.bit) -> f64 attributes {quantum.node = true} {
    %o = quantum.namedobs %q[ PauliZ] : !quantum.obs
    %e = quantum.var %o : f64
    return %e : f64
  }
  // expected-error @-5 {{'func.func' op attribute 'quantum.node' must be a unit attribute}}
}

// -----

module {
  module attributes {transform.with_named_sequence} {}
  %q = quantum.alloc_qb : !quantum.bit
  %o = quantum.namedobs %q[ PauliZ] : !quantum.obs
  // expected-error @+1 {{'quantum.expval' op must be nested inside a 'func.func' operation}}
  %e = quantum.expval %o : f64
}

//===----------------------------------------------------------------------===//
// The `quantum.node` attribute: a unit attribute, on func.func only.
//===----------------------------------------------------------------------===//

// -----

// expected-error @below {{'arith.constant' op attribute 'quantum.node' is only valid on 'func.func'}}
%c0 = "arith.constant"() {value = 0 : i64, quantum.node} : () -> i64

// -----

// expected-error @below {{'func.func' op attribute 'quantum.node' must be a unit attribute}}
func.func private @qnode_not_unit() attributes {quantum.node = "yes"}
