// Malformed IR: every case gives an error at the offending line and column,
// and qshape-opt exits non-zero (a failing split fails the whole run).
//
// RUN: not qshape-opt %s -split-input-file 2>&1 | FileCheck %s

func.func @missing_bracket(%r: !quantum.reg) {
  // CHECK: bad-input.mlir:[[# @LINE + 1]]:29: error: expected ']'
  %q = quantum.extract %r[ 0 : !quantum.reg -> !quantum.bit
  return
}

// -----

func.func @undefined_value() {
  // CHECK: bad-input.mlir:[[# @LINE + 1]]:36: error: use of undeclared SSA value name
  %h = quantum.custom "Hadamard"() %nope : !quantum.bit
  return
}

// -----

func.func @unknown_quantum_op(%q: !quantum.bit) {
  // CHECK: bad-input.mlir:[[# @LINE + 1]]:8: error: custom op 'quantum.frobnicate' is unknown
  %h = quantum.frobnicate %q : !quantum.bit
  return
}

// -----

// CHECK: bad-input.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: unknown {{ *}}type `qubit` in dialect `quantum`
func.func @unknown_quantum_type(%q: !quantum.qubit) {
  return
}

// -----

func.func @wrong_operand_type(%i: i64, %q: !quantum.bit) {
  // CHECK: bad-input.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: use of value '%i' expects different type than prior uses: 'f64' vs 'i64'
  %o = quantum.custom "RX"(%i) %q : !quantum.bit
  return
}

// -----

func.func @verifier(%q: !quantum.bit) {
  // CHECK: bad-input.mlir:[[# @LINE + 1]]:10: error: number of qubits in input (1) and output (2) must be the same
  %o:2 = quantum.custom "Hadamard"() %q : !quantum.bit, !quantum.bit
  return
}

// -----

func.func @unregistered_dialect(%a: tensor<f64>) {
  // CHECK: bad-input.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: operation being parsed with an unregistered dialect
  %0 = "stablehlo.add"(%a, %a) : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return
}

// -----

// The error is at the end of the last line.
// CHECK: bad-input.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: expected operation name in quotes
func.func @truncated(%q: !quantum.bit) {
  %h = quantum.custom "Hadamard"() %q : !quantum.bit
