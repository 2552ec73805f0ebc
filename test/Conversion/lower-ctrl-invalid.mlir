// What qshape-lower-ctrl cannot control: a located error, the region left
// as it was, a non-zero exit. The verifier already rejects a measurement in a
// ctrl region (Catalyst's rule); the pass checks it again for modules that
// reach it unverified, as here, where parsing does not verify.
// RUN: qshape-opt %s --split-input-file --verify-diagnostics --qshape-lower-ctrl --mlir-very-unsafe-disable-verifier-on-parsing
// RUN: not qshape-opt %s --qshape-lower-ctrl --mlir-print-ir-after-failure --mlir-very-unsafe-disable-verifier-on-parsing 2>&1 | FileCheck %s
// CHECK: error: 'quantum.measure' op cannot be controlled: a measurement inside a quantum.ctrl region
// CHECK: IR Dump After QShapeLowerCtrl Failed
// CHECK: quantum.ctrl

func.func @measure(%c: !quantum.bit, %q: !quantum.bit, %v: i1) -> (!quantum.bit, !quantum.bit) {
  %oc, %oq = quantum.ctrl(%c) ctrlvals(%v) (%q) : !quantum.bit -> !quantum.bit {
  ^bb0(%a: !quantum.bit):
    %h = quantum.custom "Hadamard"() %a : !quantum.bit
    // expected-error @+1 {{'quantum.measure' op cannot be controlled: a measurement inside a quantum.ctrl region}}
    %m, %b = quantum.measure %h : i1, !quantum.bit
    quantum.yield %b : !quantum.bit
  }
  return %oc, %oq : !quantum.bit, !quantum.bit
}

// -----

func.func @while(%c: !quantum.bit, %q: !quantum.bit, %v: i1) -> (!quantum.bit, !quantum.bit) {
  %oc, %oq = quantum.ctrl(%c) ctrlvals(%v) (%q) : !quantum.bit -> !quantum.bit {
  ^bb0(%a: !quantum.bit):
    // expected-error @+1 {{'scf.while' op takes part in the quantum program inside a quantum.ctrl region; qshape-lower-ctrl can control gates, scf.for, scf.if and quantum.adjoint regions only}}
    %w = scf.while (%x = %a) : (!quantum.bit) -> !quantum.bit {
      scf.condition(%v) %x : !quantum.bit
    } do {
    ^bb1(%y: !quantum.bit):
      %z = quantum.custom "PauliX"() %y : !quantum.bit
      scf.yield %z : !quantum.bit
    }
    quantum.yield %w : !quantum.bit
  }
  return %oc, %oq : !quantum.bit, !quantum.bit
}

// -----

func.func @device(%c: !quantum.bit, %q: !quantum.bit, %v: i1) -> (!quantum.bit, !quantum.bit) {
  %oc, %oq = quantum.ctrl(%c) ctrlvals(%v) (%q) : !quantum.bit -> !quantum.bit {
  ^bb0(%a: !quantum.bit):
    // expected-error @+1 {{'quantum.device_release' op cannot be controlled inside a quantum.ctrl region}}
    quantum.device_release
    quantum.yield %a : !quantum.bit
  }
  return %oc, %oq : !quantum.bit, !quantum.bit
}
