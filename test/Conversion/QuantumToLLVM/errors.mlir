// A quantum op the conversion cannot lower is a located error naming it,
// before anything is converted, and the tool exits non-zero.
// RUN: qshape-opt %s --split-input-file --verify-diagnostics --qshape-convert-quantum-to-llvm
// RUN: not qshape-opt %s --split-input-file --qshape-convert-quantum-to-llvm 2>&1 | FileCheck %s
// CHECK: errors.mlir:[[@LINE+4]]:8: error: 'quantum.adjoint' op must be lowered before the conversion to LLVM

func.func @adjoint_left(%r: !quantum.reg) -> !quantum.reg {
  // expected-error @+1 {{'quantum.adjoint' op must be lowered before the conversion to LLVM (qshape-lower-adjoint and qshape-lower-ctrl, as qshape-lower-to-llvm does)}}
  %a = quantum.adjoint(%r) : !quantum.reg {
  ^bb0(%x: !quantum.reg):
    quantum.yield %x : !quantum.reg
  }
  return %a : !quantum.reg
}

// -----

func.func @ctrl_left(%c: !quantum.bit, %q: !quantum.bit, %v: i1) -> (!quantum.bit, !quantum.bit) {
  // expected-error @+1 {{'quantum.ctrl' op must be lowered before the conversion to LLVM}}
  %oc, %oq = quantum.ctrl(%c) ctrlvals(%v) (%q) : !quantum.bit -> !quantum.bit {
  ^bb0(%a: !quantum.bit):
    quantum.yield %a : !quantum.bit
  }
  return %oc, %oq : !quantum.bit, !quantum.bit
}

// -----

func.func @tensor_probs(%q: !quantum.bit) -> tensor<2xf64> {
  %o = quantum.compbasis qubits %q : !quantum.obs
  // expected-error @+1 {{'quantum.probs' op returns a tensor; give it a buffer first (qshape-bufferize-quantum, then one-shot-bufferize, as qshape-lower-to-llvm does)}}
  %p = quantum.probs %o : tensor<2xf64>
  return %p : tensor<2xf64>
}

// -----

func.func @tensor_matrix(%m: tensor<2x2xcomplex<f64>>, %q: !quantum.bit) -> !quantum.bit {
  // expected-error @+1 {{'quantum.unitary' op takes its matrix as a tensor; give it a buffer first}}
  %o = quantum.unitary(%m : tensor<2x2xcomplex<f64>>) %q : !quantum.bit
  return %o : !quantum.bit
}

// -----

func.func @mcm(%m: i1) -> f64 {
  // expected-error @+1 {{'quantum.mcmobs' op (an observable of mid-circuit measurements) has no function in Catalyst's runtime}}
  %o = quantum.mcmobs %m : !quantum.obs
  %e = quantum.expval %o : f64
  return %e : f64
}

// -----

func.func @unknown_gate(%q: !quantum.bit) -> !quantum.bit {
  // expected-error @+1 {{'quantum.custom' op applies gate 'Frobnicate', which has no function in Catalyst's runtime (no __catalyst__qis__Frobnicate); decompose it first}}
  %o = quantum.custom "Frobnicate"() %q : !quantum.bit
  return %o : !quantum.bit
}

// -----

func.func @arity(%q0: !quantum.bit, %q1: !quantum.bit, %t: f64) -> (!quantum.bit, !quantum.bit) {
  // expected-error @+1 {{'quantum.custom' op applies 'RX' to 1 parameters and 2 qubits; the runtime's takes 1 and 1}}
  %o:2 = quantum.custom "RX"(%t) %q0, %q1 : !quantum.bit, !quantum.bit
  return %o#0, %o#1 : !quantum.bit, !quantum.bit
}

// -----

func.func @sample_obs(%q: !quantum.bit, %b: memref<100xf64>) {
  %o = quantum.namedobs %q[ PauliZ] : !quantum.obs
  // expected-error @+1 {{'quantum.sample' op of an observable other than quantum.compbasis has no function in Catalyst's runtime}}
  quantum.sample %o in(%b : memref<100xf64>)
  return
}

// -----

func.func @expval_compbasis(%q: !quantum.bit) -> f64 {
  %o = quantum.compbasis qubits %q : !quantum.obs
  // expected-error @+1 {{'quantum.expval' op of a computational-basis observable is undefined}}
  %e = quantum.expval %o : f64
  return %e : f64
}
