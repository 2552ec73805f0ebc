// RUN: qshape-opt %s --qshape-lift-parameters -verify-diagnostics -split-input-file

// A module lifted before, with new constants since: the slots of the first
// lift cannot be extended without breaking the values written for them.
module {
  // expected-error @+1 {{the module already has @__qshape_params and constants to lift}}
  memref.global @__qshape_params : memref<1xf64> = dense<[1.0]> {alignment = 8 : i64}
  func.func @f() -> f64 {
    %x = arith.constant 0.75 : f64
    return %x : f64
  }
}
