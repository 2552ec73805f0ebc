// qshape-to-value-semantics on the shapes Catalyst's capture frontend emits:
// a flat circuit, measurements and observables, a loop over static wires,
// a loop over a dynamic wire, a branch on a measurement, adjoint and
// control regions. The output is value semantics with linear use (checked
// by qshape-check-linearity) that qshape-sim runs. That each program
// computes what its value-semantics twin computes is the families' oracle
// (test/Transforms/roll-loops-families.py, whose generator writes both).
//
// RUN: qshape-opt %s --qshape-to-value-semantics --qshape-check-linearity -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=NOREF < %t.mlir
// RUN: qshape-sim %t.mlir --entry flat --args '[0.3]'
// RUN: qshape-sim %t.mlir --entry loops --args '[0.3]'
// RUN: qshape-sim %t.mlir --entry regions --args '[0.3]' --seed 1

// NOREF-NOT: qref

// CHECK-LABEL: func.func public @flat
// CHECK: %[[R:.*]] = quantum.alloc( 2) : !quantum.reg
// CHECK: %[[Q0:.*]] = quantum.extract %[[R]][ 0]
// CHECK: %[[H:.*]] = quantum.custom "Hadamard"() %[[Q0]] : !quantum.bit
// CHECK: %[[Q1:.*]] = quantum.extract %[[R]][ 1]
// CHECK: %[[C:.*]]:2 = quantum.custom "CNOT"() %[[H]], %[[Q1]]
// CHECK: %[[X:.*]] = quantum.custom "RX"(%arg0) %[[C]]#1
// CHECK: quantum.namedobs %[[X]][ PauliZ]
// CHECK: %[[I0:.*]] = quantum.insert %[[R]][ 0], %[[C]]#0
// CHECK: %[[I1:.*]] = quantum.insert %[[I0]][ 1], %[[X]]
// CHECK: quantum.dealloc %[[I1]]
func.func public @flat(%x: f64) -> f64 attributes {qnode} {
  %shots = arith.constant 0 : i64
  quantum.device shots(%shots) ["liblightning_qubit_catalyst.so", "LightningSimulator", "{}"]
  %a = qref.alloc(2) : !qref.reg<2>
  %q0 = qref.get %a[0] : !qref.reg<2> -> !qref.bit
  %q1 = qref.get %a[1] : !qref.reg<2> -> !qref.bit
  qref.custom "Hadamard"() %q0 : !qref.bit
  qref.custom "CNOT"() %q0, %q1 : !qref.bit, !qref.bit
  qref.custom "RX"(%x) %q1 : !qref.bit
  %o = qref.namedobs %q1 [ PauliZ] : !quantum.obs
  %e = quantum.expval %o : f64
  qref.dealloc %a : !qref.reg<2>
  quantum.device_release
  return %e : f64
}

// A loop over static wires carries their qubits, as Catalyst's conversion
// does; a dynamic wire is read from the whole register, which the loop then
// carries, and put back at once.
// CHECK-LABEL: func.func public @loops
// CHECK: scf.for {{.*}} iter_args(%[[P:.*]] = %{{.*}}, %[[T:.*]] = %{{.*}}) -> (!quantum.bit, !quantum.bit)
// CHECK-NEXT: quantum.custom "CRX"(%arg0) %[[P]], %[[T]]
// CHECK: scf.for {{.*}} -> (!quantum.reg)
// CHECK: %[[D:.*]] = quantum.extract %{{.*}}[%{{.*}}] : !quantum.reg -> !quantum.bit
// CHECK: %[[G:.*]] = quantum.custom "RY"(%arg0) %[[D]]
// CHECK: quantum.insert %{{.*}}[%{{.*}}], %[[G]]
func.func public @loops(%x: f64) -> f64 attributes {qnode} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %shots = arith.constant 0 : i64
  quantum.device shots(%shots) ["liblightning_qubit_catalyst.so", "LightningSimulator", "{}"]
  %a = qref.alloc(3) : !qref.reg<3>
  %q0 = qref.get %a[0] : !qref.reg<3> -> !qref.bit
  qref.custom "Hadamard"() %q0 : !qref.bit
  scf.for %i = %c0 to %c3 step %c1 {
    %p = qref.get %a[0] : !qref.reg<3> -> !qref.bit
    %t = qref.get %a[2] : !qref.reg<3> -> !qref.bit
    qref.custom "CRX"(%x) %p, %t : !qref.bit, !qref.bit
  }
  scf.for %i = %c0 to %c3 step %c1 {
    %w = arith.index_cast %i : index to i64
    %q = qref.get %a[%w] : !qref.reg<3>, i64 -> !qref.bit
    qref.custom "RY"(%x) %q : !qref.bit
  }
  %q2 = qref.get %a[2] : !qref.reg<3> -> !qref.bit
  %o = qref.namedobs %q2 [ PauliZ] : !quantum.obs
  %e = quantum.expval %o : f64
  qref.dealloc %a : !qref.reg<3>
  quantum.device_release
  return %e : f64
}

// Mid-circuit measurement steering a correction; an adjoint and a
// controlled region.
// CHECK-LABEL: func.func public @regions
// CHECK: quantum.measure
// CHECK: scf.if
// CHECK: quantum.adjoint
// CHECK: quantum.yield
// CHECK: quantum.ctrl
// CHECK: quantum.yield
func.func public @regions(%x: f64) -> f64 attributes {qnode} {
  %shots = arith.constant 0 : i64
  %true = arith.constant true
  quantum.device shots(%shots) ["liblightning_qubit_catalyst.so", "LightningSimulator", "{}"]
  %a = qref.alloc(3) : !qref.reg<3>
  %q0 = qref.get %a[0] : !qref.reg<3> -> !qref.bit
  %q1 = qref.get %a[1] : !qref.reg<3> -> !qref.bit
  %q2 = qref.get %a[2] : !qref.reg<3> -> !qref.bit
  qref.custom "RY"(%x) %q0 : !qref.bit
  %m = qref.measure %q0 : i1
  scf.if %m {
    qref.custom "PauliX"() %q1 : !qref.bit
  }
  qref.adjoint {
    qref.custom "RX"(%x) %q1 : !qref.bit
    qref.custom "S"() %q2 : !qref.bit
  }
  qref.ctrl(%q1) ctrlvals(%true) {
    qref.custom "RY"(%x) %q2 : !qref.bit
  }
  %o = qref.namedobs %q2 [ PauliX] : !quantum.obs
  %e = quantum.expval %o : f64
  qref.dealloc %a : !qref.reg<3>
  quantum.device_release
  return %e : f64
}
