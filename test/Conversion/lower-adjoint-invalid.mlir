// What qshape-lower-adjoint cannot invert: a located error, the region
// left as it was, a non-zero exit.
// RUN: qshape-opt %s --split-input-file --verify-diagnostics --qshape-lower-adjoint
// RUN: not qshape-opt %s --qshape-lower-adjoint --mlir-print-ir-after-failure 2>&1 | FileCheck %s
// CHECK: error: 'quantum.measure' op cannot be inverted inside a quantum.adjoint region
// CHECK: IR Dump After QShapeLowerAdjoint Failed
// CHECK: quantum.adjoint

func.func @measure(%q: !quantum.bit) -> !quantum.bit {
  %r = quantum.adjoint(%q) : !quantum.bit {
  ^bb0(%a: !quantum.bit):
    %h = quantum.custom "Hadamard"() %a : !quantum.bit
    // expected-error @+1 {{'quantum.measure' op cannot be inverted inside a quantum.adjoint region}}
    %m, %b = quantum.measure %h : i1, !quantum.bit
    quantum.yield %b : !quantum.bit
  }
  return %r : !quantum.bit
}

// -----

func.func @classical_carry(%r0: !quantum.reg, %t: f64) -> !quantum.reg {
  %r1 = quantum.adjoint(%r0) : !quantum.reg {
  ^bb0(%r: !quantum.reg):
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'scf.for' op carries a classical value next to qubits inside a quantum.adjoint region; its reversal would need that value per iteration}}
    %x:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%reg = %r, %a = %t) -> (!quantum.reg, f64) {
      %q = quantum.extract %reg[ 0] : !quantum.reg -> !quantum.bit
      %g = quantum.custom "RX"(%a) %q : !quantum.bit
      %r2 = quantum.insert %reg[ 0], %g : !quantum.reg, !quantum.bit
      %b = arith.addf %a, %a : f64
      scf.yield %r2, %b : !quantum.reg, f64
    }
    quantum.yield %x#0 : !quantum.reg
  }
  return %r1 : !quantum.reg
}

// -----

func.func @outer_dealloc(%q: !quantum.bit, %r: !quantum.reg) -> !quantum.bit {
  %o = quantum.adjoint(%q) : !quantum.bit {
  ^bb0(%a: !quantum.bit):
    // expected-error @+1 {{'quantum.dealloc' op releases a register whose allocation is not in the quantum.adjoint region, so its inverse cannot allocate it}}
    quantum.dealloc %r : !quantum.reg
    quantum.yield %a : !quantum.bit
  }
  return %o : !quantum.bit
}

// -----

func.func private @sub(!quantum.bit) -> !quantum.bit

func.func @call(%q: !quantum.bit) -> !quantum.bit {
  %o = quantum.adjoint(%q) : !quantum.bit {
  ^bb0(%a: !quantum.bit):
    // expected-error @+1 {{'func.call' op takes part in the quantum program inside a quantum.adjoint region and cannot be inverted}}
    %b = func.call @sub(%a) : (!quantum.bit) -> !quantum.bit
    quantum.yield %b : !quantum.bit
  }
  return %o : !quantum.bit
}

// -----

func.func @twice(%q: !quantum.bit) -> !quantum.bit {
  %o = quantum.adjoint(%q) : !quantum.bit {
  ^bb0(%a: !quantum.bit):
    %b = quantum.custom "Hadamard"() %a : !quantum.bit
    // expected-error @+1 {{'quantum.custom' op uses a quantum value the adjoint lowering cannot follow backwards (one taken from outside its region, or consumed twice)}}
    %c = quantum.custom "Hadamard"() %a : !quantum.bit
    quantum.yield %b : !quantum.bit
  }
  return %o : !quantum.bit
}
