// A quantum.ctrl without target arguments (a controlled global phase) prints
// in a form that parses back: no `->` and no result types. Found by
// qshape-parse-fuzzer (print(parse(x)) did not parse).
// RUN: qshape-opt %s | FileCheck %s
// RUN: qshape-opt %s | qshape-opt | FileCheck %s
// RUN: qshape-opt %s --mlir-print-op-generic | qshape-opt | FileCheck %s

// CHECK-LABEL: func.func @phase
// CHECK: %[[OC:.*]] = quantum.ctrl(%{{.*}}) ctrlvals(%{{.*}}) () : !quantum.bit {
// CHECK-NEXT: quantum.gphase
// CHECK: quantum.namedobs %[[OC]][ PauliX]
func.func @phase(%pi: f64, %true: i1, %c: !quantum.bit) -> f64 {
  %oc = "quantum.ctrl"(%c, %true) <{operandSegmentSizes = array<i32: 1, 1, 0>, resultSegmentSizes = array<i32: 1, 0>}> ({
    quantum.gphase(%pi)
    quantum.yield
  }) : (!quantum.bit, i1) -> !quantum.bit
  %x = quantum.namedobs %oc[ PauliX] : !quantum.obs
  %e = quantum.expval %x : f64
  return %e : f64
}

// With targets the form is Catalyst's, `->` and all.
// CHECK-LABEL: func.func @targets
// CHECK: quantum.ctrl(%{{.*}}) ctrlvals(%{{.*}}) (%{{.*}}) : !quantum.bit -> !quantum.bit {
func.func @targets(%true: i1, %c: !quantum.bit, %q: !quantum.bit) -> (!quantum.bit, !quantum.bit) {
  %oc, %oq = quantum.ctrl(%c) ctrlvals(%true) (%q) : !quantum.bit -> !quantum.bit {
  ^bb0(%x: !quantum.bit):
    %x1 = quantum.custom "PauliX"() %x : !quantum.bit
    quantum.yield %x1 : !quantum.bit
  }
  return %oc, %oq : !quantum.bit, !quantum.bit
}
