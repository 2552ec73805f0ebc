// Catalyst's quantum.operator in the canonical form. The op table gives it
// Catalyst's effects (none: its qubits or its register order it) and the
// gate view its qubits, so the canonical form treats it as a gate: it
// follows its wires, moves only where its dataflow lets it, and a register
// it rewrites is a barrier to register forwarding.
//
// RUN: qshape-opt %s --qshape-canonicalize -split-input-file | FileCheck %s
// RUN: qshape-opt %s --qshape-canonicalize -split-input-file > %t.1.mlir
// RUN: qshape-opt %t.1.mlir --qshape-canonicalize -split-input-file > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// Unregistered (generic) operators get the same treatment, by name.
// RUN: qshape-opt %s -split-input-file --mlir-print-op-generic | %upstream_mlir_opt --load-pass-plugin=%pass_plugin --allow-unregistered-dialect -split-input-file --pass-pipeline='builtin.module(qshape-canonicalize)' | qshape-opt -split-input-file | FileCheck %s

// Independent operators get one order whatever the input order: wire by
// wire, ascending, like any gate.
// CHECK-LABEL: func.func @order
// CHECK:      quantum.extract %arg0[ 0]
// CHECK-NEXT: quantum.operator "A"() qubits(
// CHECK-NEXT: quantum.namedobs
// CHECK-NEXT: quantum.extract %arg0[ 1]
// CHECK-NEXT: quantum.operator "B"(%arg1: f64) qubits(
// CHECK-NEXT:   static_data = {word = "XY"}
func.func @order(%r: !quantum.reg, %t: f64) -> (f64, f64) {
  %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %x = quantum.operator "B"(%t: f64) qubits(%q1)
      static_data = {word = "XY"}
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %h = quantum.operator "A"() qubits(%q0)
  %o1 = quantum.namedobs %x[ PauliZ] : !quantum.obs
  %e1 = quantum.expval %o1 : f64
  %o0 = quantum.namedobs %h[ PauliZ] : !quantum.obs
  %e0 = quantum.expval %o0 : f64
  return %e1, %e0 : f64, f64
}

// -----

// A multi-qubit operator with controls waits for all of its inputs and
// carries every wire on; the gates after it stay after it.
// CHECK-LABEL: func.func @wires
// CHECK:      %[[H:.*]] = quantum.custom "Hadamard"()
// CHECK:      %[[O:.*]], %[[C:.*]] = quantum.operator "Ctrl"() qubits(%[[H]])
// CHECK-NEXT:   ctrls(%{{.*}}) ctrl_vals(%arg1)
// CHECK-NEXT: quantum.custom "PauliX"() %[[O]]
// CHECK:      quantum.custom "PauliZ"() %[[C]]
func.func @wires(%r: !quantum.reg, %v: i1) -> (!quantum.bit, !quantum.bit) {
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %h = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %o, %c = quantum.operator "Ctrl"() qubits(%h) ctrls(%q1) ctrl_vals(%v)
  %z = quantum.custom "PauliZ"() %c : !quantum.bit
  %x = quantum.custom "PauliX"() %o : !quantum.bit
  return %x, %z : !quantum.bit, !quantum.bit
}

// -----

// Free of effects, an operator may move across a measurement of another
// qubit; the measurements keep their order.
// CHECK-LABEL: func.func @across_measurement
// CHECK:      %[[A:.*]] = quantum.operator "A"() qubits(%arg0)
// CHECK-NEXT: quantum.measure %arg1
// CHECK-NEXT: quantum.measure %[[A]]
func.func @across_measurement(%q0: !quantum.bit, %q1: !quantum.bit) -> (i1, i1, !quantum.bit, !quantum.bit) {
  %m1, %o1 = quantum.measure %q1 : i1, !quantum.bit
  %a = quantum.operator "A"() qubits(%q0)
  %m0, %o0 = quantum.measure %a : i1, !quantum.bit
  return %m1, %m0, %o1, %o0 : i1, i1, !quantum.bit, !quantum.bit
}

// -----

// Register mode: the operator rewrites the register, so an extract after it
// reads its result, never the qubit inserted before it.
// CHECK-LABEL: func.func @register_mode
// CHECK:      %[[R1:.*]] = quantum.insert %arg0[ 0], %{{.*}}
// CHECK-NEXT: %[[R2:.*]] = quantum.operator "Template"()
// CHECK-NEXT:   quregs(%[[R1]]) indices(%arg1: tensor<1xi64>)
// CHECK-NEXT: quantum.extract %[[R2]][ 0]
// CHECK-NEXT: quantum.custom "PauliX"
func.func @register_mode(%r: !quantum.reg, %w: tensor<1xi64>) -> !quantum.reg {
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %h = quantum.custom "Hadamard"() %q : !quantum.bit
  %r1 = quantum.insert %r[ 0], %h : !quantum.reg, !quantum.bit
  %r2 = quantum.operator "Template"() quregs(%r1) indices(%w: tensor<1xi64>)
  %q2 = quantum.extract %r2[ 0] : !quantum.reg -> !quantum.bit
  %x = quantum.custom "PauliX"() %q2 : !quantum.bit
  %r3 = quantum.insert %r2[ 0], %x : !quantum.reg, !quantum.bit
  return %r3 : !quantum.reg
}

// -----

// Constant parameters are hoisted and merged like any gate's.
// CHECK-LABEL: func.func @constant_params
// CHECK-NEXT: %[[T:.*]] = arith.constant 5.000000e-01 : f64
// CHECK-NOT:  arith.constant
// CHECK:      quantum.operator "P"(%[[T]]: f64)
// CHECK:      quantum.operator "P"(%[[T]]: f64)
func.func @constant_params(%q: !quantum.bit) -> !quantum.bit {
  %a = arith.constant 0.5 : f64
  %o = quantum.operator "P"(%a: f64) qubits(%q)
  %b = arith.constant 0.5 : f64
  %o2 = quantum.operator "P"(%b: f64) qubits(%o)
  return %o2 : !quantum.bit
}
