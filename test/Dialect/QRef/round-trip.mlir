// Every op of the `qref` dialect in each printed variant Catalyst's text
// has (its QRefOps.td assembly formats and qref.operator's hand-written
// syntax). The pretty form must print back exactly as Catalyst prints it,
// and the generic form must parse back to the same pretty text.
//
// RUN: qshape-opt %s | qshape-opt | FileCheck %s
// RUN: qshape-opt %s --mlir-print-op-generic | qshape-opt | FileCheck %s
//
// The generic form carries Catalyst's property names and segment sizes.
// RUN: qshape-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// GENERIC: "qref.alloc"() <{nqubits_attr = 3 : i64}> : () -> !qref.reg<3>
// GENERIC: "qref.get"(%{{.*}}) <{idx_attr = 0 : i64}> : (!qref.reg<3>) -> !qref.bit
// GENERIC: "qref.get"(%{{.*}}, %{{.*}}) : (!qref.reg<?>, i64) -> !qref.bit
// GENERIC: "qref.custom"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{adjoint, gate_name = "RY", operandSegmentSizes = array<i32: 1, 1, 1, 1>}> : (f64, !qref.bit, !qref.bit, i1) -> ()
// GENERIC: "qref.paulirot"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>, pauli_product = ["X", "Z"]}>
// GENERIC: "qref.gphase"(%{{.*}}, %{{.*}}, %{{.*}}) <{adjoint, operandSegmentSizes = array<i32: 1, 1, 1>}> : (f64, !qref.bit, i1) -> ()
// GENERIC: "qref.pcphase"(%{{.*}}, %{{.*}}, %{{.*}}) <{dim = 2 : i64, operandSegmentSizes = array<i32: 1, 2, 0, 0>}>
// GENERIC: "qref.operator"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{op_name = "Ctrl", operandSegmentSizes = array<i32: 0, 0, 1, 2, 2, 0, 0, 0, 0>}>
// GENERIC: "qref.operator"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{op_name = "Reg", operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 1, 2, 0, 0>, param_map = {state_vector = array<i64: 0>}, qubit_map = {precision_wire = array<i64: 1>, wires = array<i64: 0>}}> : (tensor<8xcomplex<f64>>, !qref.reg<?>, tensor<?xi64>, tensor<2xi64>) -> ()
// GENERIC: "qref.operator"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{op_name = "RegCtrl", operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 1, 1, 1, 1>}>
// GENERIC: "qref.operator"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{UID = 324958 : i64, op_name = "Frontend", operandSegmentSizes = array<i32: 1, 2, 2, 0, 0, 0, 0, 0, 0>}>
// GENERIC: "qref.ctrl"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 2, 2>}> ({
// GENERIC: "qref.compbasis"(%{{.*}}) <{operandSegmentSizes = array<i32: 0, 1>}> : (!qref.reg<2>) -> !quantum.obs
// GENERIC: "qref.namedobs"(%{{.*}}) <{type = #quantum<named_observable PauliZ>}> : (!qref.bit) -> !quantum.obs
// GENERIC: "qref.measure"(%{{.*}}) <{postselect = 1 : i32}> : (!qref.bit) -> i1

// CHECK-LABEL: func.func @memory
// CHECK-NEXT:    %{{[0-9]+}} = qref.alloc( 3) : !qref.reg<3>
// CHECK-NEXT:    %{{[0-9]+}} = qref.alloc(%arg0) : !qref.reg<?>
// CHECK-NEXT:    %{{[0-9]+}} = qref.get %{{[0-9]+}}[ 0] : !qref.reg<3> -> !qref.bit
// CHECK-NEXT:    %{{[0-9]+}} = qref.get %{{[0-9]+}}[%arg1] : !qref.reg<?>, i64 -> !qref.bit
// CHECK-NEXT:    %{{[0-9]+}} = qref.alloc_qb : !qref.bit
// CHECK-NEXT:    qref.dealloc_qb %{{[0-9]+}} : !qref.bit
// CHECK-NEXT:    qref.dealloc %{{[0-9]+}} : !qref.reg<?>
// CHECK-NEXT:    qref.dealloc %{{[0-9]+}} : !qref.reg<3>
// CHECK-NEXT:    return
// CHECK-NEXT:  }
func.func @memory(%n: i64, %i: i64) {
  %r = qref.alloc(3) : !qref.reg<3>
  %d = qref.alloc(%n) : !qref.reg<?>
  %q0 = qref.get %r[0] : !qref.reg<3> -> !qref.bit
  %q1 = qref.get %d[%i] : !qref.reg<?>, i64 -> !qref.bit
  %a = qref.alloc_qb : !qref.bit
  qref.dealloc_qb %a : !qref.bit
  qref.dealloc %d : !qref.reg<?>
  qref.dealloc %r : !qref.reg<3>
  return
}

// CHECK-LABEL: func.func @state
// CHECK-NEXT:    qref.set_state(%arg0) %arg2, %arg3 : tensor<4xcomplex<f64>>, !qref.bit, !qref.bit
// CHECK-NEXT:    qref.set_basis_state(%arg1) %arg2, %arg3 : tensor<2xi1>, !qref.bit, !qref.bit
// CHECK-NEXT:    return
// CHECK-NEXT:  }
func.func @state(%s: tensor<4xcomplex<f64>>, %b: tensor<2xi1>, %q0: !qref.bit, %q1: !qref.bit) {
  qref.set_state(%s) %q0, %q1 : tensor<4xcomplex<f64>>, !qref.bit, !qref.bit
  qref.set_basis_state(%b) %q0, %q1 : tensor<2xi1>, !qref.bit, !qref.bit
  return
}

// CHECK-LABEL: func.func @gates
// CHECK-NEXT:    qref.custom "Hadamard"() %arg1 : !qref.bit
// CHECK-NEXT:    qref.custom "CNOT"() %arg1, %arg2 : !qref.bit, !qref.bit
// CHECK-NEXT:    qref.custom "RX"(%arg0) %arg1 adj : !qref.bit
// CHECK-NEXT:    qref.custom "RY"(%arg0) %arg1 adj ctrls(%arg3) ctrlvals(%arg4) : !qref.bit ctrls !qref.bit
// CHECK-NEXT:    qref.custom "S"() %arg1 {tag = 1 : i64} : !qref.bit
// CHECK-NEXT:    qref.paulirot ["X", "Z"](%arg0) %arg1, %arg2 : !qref.bit, !qref.bit
// CHECK-NEXT:    qref.paulirot ["Y"](%arg0) %arg1 adj ctrls(%arg3) ctrlvals(%arg4) : !qref.bit ctrls !qref.bit
// CHECK-NEXT:    qref.gphase(%arg0)
// CHECK-NEXT:    qref.gphase(%arg0) adj ctrls(%arg3) ctrlvals(%arg4) : ctrls !qref.bit
// CHECK-NEXT:    qref.multirz(%arg0) %arg1, %arg2 : !qref.bit, !qref.bit
// CHECK-NEXT:    qref.multirz(%arg0) %arg1 adj ctrls(%arg3) ctrlvals(%arg4) : !qref.bit ctrls !qref.bit
// CHECK-NEXT:    qref.pcphase(%arg0, dim : 2) %arg1, %arg2 : !qref.bit, !qref.bit
// CHECK-NEXT:    qref.pcphase(%arg0, dim : 1) %arg1 adj ctrls(%arg3) ctrlvals(%arg4) : !qref.bit ctrls !qref.bit
// CHECK-NEXT:    qref.unitary(%arg5 : tensor<4x4xcomplex<f64>>) %arg1, %arg2 : !qref.bit, !qref.bit
// CHECK-NEXT:    qref.unitary(%arg5 : tensor<4x4xcomplex<f64>>) %arg1, %arg2 adj ctrls(%arg3) ctrlvals(%arg4) : !qref.bit, !qref.bit ctrls !qref.bit
// CHECK-NEXT:    return
// CHECK-NEXT:  }
func.func @gates(%t: f64, %q0: !qref.bit, %q1: !qref.bit, %c: !qref.bit, %on: i1,
                 %u: tensor<4x4xcomplex<f64>>) {
  qref.custom "Hadamard"() %q0 : !qref.bit
  qref.custom "CNOT"() %q0, %q1 : !qref.bit, !qref.bit
  qref.custom "RX"(%t) %q0 adj : !qref.bit
  qref.custom "RY"(%t) %q0 adj ctrls(%c) ctrlvals(%on) : !qref.bit ctrls !qref.bit
  qref.custom "S"() %q0 {tag = 1 : i64} : !qref.bit
  qref.paulirot ["X", "Z"](%t) %q0, %q1 : !qref.bit, !qref.bit
  qref.paulirot ["Y"](%t) %q0 adj ctrls(%c) ctrlvals(%on) : !qref.bit ctrls !qref.bit
  qref.gphase(%t)
  qref.gphase(%t) adj ctrls(%c) ctrlvals(%on) : ctrls !qref.bit
  qref.multirz(%t) %q0, %q1 : !qref.bit, !qref.bit
  qref.multirz(%t) %q0 adj ctrls(%c) ctrlvals(%on) : !qref.bit ctrls !qref.bit
  qref.pcphase(%t, dim : 2) %q0, %q1 : !qref.bit, !qref.bit
  qref.pcphase(%t, dim : 1) %q0 adj ctrls(%c) ctrlvals(%on) : !qref.bit ctrls !qref.bit
  qref.unitary(%u : tensor<4x4xcomplex<f64>>) %q0, %q1 : !qref.bit, !qref.bit
  qref.unitary(%u : tensor<4x4xcomplex<f64>>) %q0, %q1 adj ctrls(%c) ctrlvals(%on) : !qref.bit, !qref.bit ctrls !qref.bit
  return
}

// CHECK-LABEL: func.func @operators
// CHECK-NEXT:    qref.operator "Bare"() qubits()
// CHECK-NEXT:    qref.operator "MyOp"(%arg0: f64) adj qubits(%arg2)
// CHECK-NEXT:      static_data = {greedy = true, pauli_word = "XYZ"}
// CHECK-NEXT:    qref.operator "Ctrl"() qubits(%arg2)
// CHECK-NEXT:      ctrls(%arg4, %arg5) ctrl_vals(%arg6, %arg7)
// CHECK-NEXT:    qref.operator "Reg"(%arg14: tensor<8xcomplex<f64>>)
// CHECK-NEXT:      quregs(%arg9 : !qref.reg<?>) indices(%arg11: tensor<?xi64>, %arg10: tensor<2xi64>)
// CHECK-NEXT:      param_map = {state_vector = [0]} qubit_map = {precision_wire = [1], wires = [0]}
// CHECK-NEXT:    qref.operator "RegCtrl"()
// CHECK-NEXT:      quregs(%arg8 : !qref.reg<4>) indices(%arg10: tensor<2xi64>)
// CHECK-NEXT:      ctrls(%arg12: tensor<1xi64>) ctrl_vals(%arg13: tensor<1xi1>)
// CHECK-NEXT:    qref.operator "Frontend"(%arg14: tensor<8xcomplex<f64>>) qubits(%arg2, %arg3)
// CHECK-NEXT:      UID(324958) forward(%arg0: f64, %arg1: i64)
// CHECK-NEXT:    qref.operator "Maps"(%arg0: f64, %arg1: i64) qubits(%arg2, %arg3) {note = "kept"}
// CHECK-NEXT:      param_map = {angles = [0, 1]}
// CHECK-NEXT:    qref.operator "OnlyQubitMap"() qubits(%arg2, %arg3)
// CHECK-NEXT:      qubit_map = {"two words" = [1, 0]}
// CHECK-NEXT:    return
// CHECK-NEXT:  }
func.func @operators(%t: f64, %p: i64, %q0: !qref.bit, %q1: !qref.bit, %c0: !qref.bit,
                     %c1: !qref.bit, %on: i1, %off: i1, %r: !qref.reg<4>, %d: !qref.reg<?>,
                     %w0: tensor<2xi64>, %w1: tensor<?xi64>, %ci: tensor<1xi64>, %cv: tensor<1xi1>,
                     %s: tensor<8xcomplex<f64>>) {
  qref.operator "Bare"() qubits()
  qref.operator "MyOp"(%t : f64) adj qubits(%q0)
    static_data = {pauli_word = "XYZ", greedy = true}
  qref.operator "Ctrl"() qubits(%q0) ctrls(%c0, %c1) ctrl_vals(%on, %off)
  qref.operator "Reg"(%s : tensor<8xcomplex<f64>>) quregs(%d : !qref.reg<?>)
    indices(%w1 : tensor<?xi64>, %w0 : tensor<2xi64>)
    param_map = {state_vector = [0]}
    qubit_map = {wires = [0], precision_wire = [1]}
  qref.operator "RegCtrl"() quregs(%r : !qref.reg<4>) indices(%w0 : tensor<2xi64>)
    ctrls(%ci : tensor<1xi64>) ctrl_vals(%cv : tensor<1xi1>)
  qref.operator "Frontend"(%s : tensor<8xcomplex<f64>>) qubits(%q0, %q1)
    UID(324958) forward(%t : f64, %p : i64)
  qref.operator "Maps"(%t : f64, %p : i64) qubits(%q0, %q1) {note = "kept"}
    param_map = {angles = [0, 1]}
  qref.operator "OnlyQubitMap"() qubits(%q0, %q1)
    qubit_map = {"two words" = [1, 0]}
  return
}

// CHECK-LABEL: func.func @regions
// CHECK-NEXT:    qref.adjoint {
// CHECK-NEXT:      %{{[0-9]+}} = qref.get %arg0[ 0] : !qref.reg<2> -> !qref.bit
// CHECK-NEXT:      qref.custom "RX"(%arg5) %{{[0-9]+}} : !qref.bit
// CHECK-NEXT:    }
// CHECK-NEXT:    qref.adjoint attributes {tag} {
// CHECK-NEXT:      qref.gphase(%arg5)
// CHECK-NEXT:    }
// CHECK-NEXT:    qref.ctrl(%arg1, %arg2) ctrlvals(%arg3, %arg4) {
// CHECK-NEXT:      %{{[0-9]+}} = qref.get %arg0[ 1] : !qref.reg<2> -> !qref.bit
// CHECK-NEXT:      qref.custom "Hadamard"() %{{[0-9]+}} : !qref.bit
// CHECK-NEXT:      qref.gphase(%arg5)
// CHECK-NEXT:    }
// CHECK-NEXT:    qref.ctrl() ctrlvals() {
// CHECK-NEXT:      qref.gphase(%arg5)
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// CHECK-NEXT:  }
func.func @regions(%r: !qref.reg<2>, %c0: !qref.bit, %c1: !qref.bit, %on: i1, %off: i1, %t: f64) {
  qref.adjoint {
    %q = qref.get %r[0] : !qref.reg<2> -> !qref.bit
    qref.custom "RX"(%t) %q : !qref.bit
  }
  qref.adjoint attributes {tag} {
    qref.gphase(%t)
  }
  qref.ctrl(%c0, %c1) ctrlvals(%on, %off) {
    %q = qref.get %r[1] : !qref.reg<2> -> !qref.bit
    qref.custom "Hadamard"() %q : !qref.bit
    qref.gphase(%t)
  }
  qref.ctrl() ctrlvals() {
    qref.gphase(%t)
  }
  return
}

// CHECK-LABEL: func.func @observables
// CHECK-NEXT:    %{{[0-9]+}} = qref.compbasis qubits %arg0, %arg1 : !quantum.obs
// CHECK-NEXT:    %{{[0-9]+}} = qref.compbasis(qreg %arg2 : !qref.reg<2>) : !quantum.obs
// CHECK-NEXT:    %{{[0-9]+}} = qref.compbasis : !quantum.obs
// CHECK-NEXT:    %{{[0-9]+}} = qref.namedobs %arg0[ PauliZ] : !quantum.obs
// CHECK-NEXT:    %{{[0-9]+}} = qref.namedobs %arg1[ Hadamard] : !quantum.obs
// CHECK-NEXT:    %{{[0-9]+}} = qref.hermitian(%arg3 : tensor<4x4xcomplex<f64>>) %arg0, %arg1 : !quantum.obs
// CHECK-NEXT:    %{{[0-9]+}} = quantum.expval %{{[0-9]+}} : f64
// CHECK-NEXT:    %{{[0-9]+}} = quantum.var %{{[0-9]+}} : f64
// CHECK-NEXT:    %{{[0-9]+}} = quantum.probs %{{[0-9]+}} : tensor<4xf64>
// CHECK-NEXT:    return %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : f64, f64, tensor<4xf64>
// CHECK-NEXT:  }
func.func @observables(%q0: !qref.bit, %q1: !qref.bit, %r: !qref.reg<2>,
                       %h: tensor<4x4xcomplex<f64>>) -> (f64, f64, tensor<4xf64>) {
  %b0 = qref.compbasis qubits %q0, %q1 : !quantum.obs
  %b1 = qref.compbasis (qreg %r : !qref.reg<2>) : !quantum.obs
  %b2 = qref.compbasis : !quantum.obs
  %z = qref.namedobs %q0 [ PauliZ] : !quantum.obs
  %x = qref.namedobs %q1 [Hadamard] : !quantum.obs
  %m = qref.hermitian(%h : tensor<4x4xcomplex<f64>>) %q0, %q1 : !quantum.obs
  %e = quantum.expval %z : f64
  %v = quantum.var %m : f64
  %p = quantum.probs %b0 : tensor<4xf64>
  return %e, %v, %p : f64, f64, tensor<4xf64>
}

// CHECK-LABEL: func.func @measure
// CHECK-NEXT:    %{{[0-9]+}} = qref.measure %arg0 : i1
// CHECK-NEXT:    %{{[0-9]+}} = qref.measure %arg0 postselect 1 : i1
// CHECK-NEXT:    return %{{[0-9]+}}, %{{[0-9]+}} : i1, i1
// CHECK-NEXT:  }
func.func @measure(%q: !qref.bit) -> (i1, i1) {
  %m0 = qref.measure %q : i1
  %m1 = qref.measure %q postselect 1 : i1
  return %m0, %m1 : i1, i1
}

// CHECK-LABEL: func.func @expval_circuit
// CHECK-NEXT:    %{{[0-9]+}} = qref.alloc( 2) : !qref.reg<2>
// CHECK-NEXT:    %{{[0-9]+}} = qref.get %{{[0-9]+}}[ 0] : !qref.reg<2> -> !qref.bit
// CHECK-NEXT:    %{{[0-9]+}} = qref.get %{{[0-9]+}}[ 1] : !qref.reg<2> -> !qref.bit
// CHECK-NEXT:    qref.custom "Hadamard"() %{{[0-9]+}} : !qref.bit
// CHECK-NEXT:    qref.custom "CNOT"() %{{[0-9]+}}, %{{[0-9]+}} : !qref.bit, !qref.bit
// CHECK-NEXT:    %{{[0-9]+}} = qref.namedobs %{{[0-9]+}}[ PauliX] : !quantum.obs
// CHECK-NEXT:    %{{[0-9]+}} = quantum.expval %{{[0-9]+}} : f64
// CHECK-NEXT:    qref.dealloc %{{[0-9]+}} : !qref.reg<2>
// CHECK-NEXT:    return %{{[0-9]+}} : f64
// CHECK-NEXT:  }
// Catalyst's own example (QRefDialect.td): references are used many times.
func.func @expval_circuit() -> f64 {
  %a = qref.alloc(2) : !qref.reg<2>
  %q0 = qref.get %a[0] : !qref.reg<2> -> !qref.bit
  %q1 = qref.get %a[1] : !qref.reg<2> -> !qref.bit
  qref.custom "Hadamard"() %q0 : !qref.bit
  qref.custom "CNOT"() %q0, %q1 : !qref.bit, !qref.bit
  %obs = qref.namedobs %q1 [ PauliX] : !quantum.obs
  %e = quantum.expval %obs : f64
  qref.dealloc %a : !qref.reg<2>
  return %e : f64
}

// quantum's measurement verifiers read qref's observables: counts on a
// computational basis of two qubits has 4 eigenvalues; on a register, the
// count is checked at run time.
// CHECK-LABEL: func.func @counts
// CHECK-NEXT:    %[[B:.*]] = qref.compbasis qubits %arg0, %arg1 : !quantum.obs
// CHECK-NEXT:    %{{.*}}, %{{.*}} = quantum.counts %[[B]] : tensor<4xf64>, tensor<4xi64>
// CHECK-NEXT:    %[[BR:.*]] = qref.compbasis(qreg %arg2 : !qref.reg<3>) : !quantum.obs
// CHECK-NEXT:    %{{.*}}, %{{.*}} = quantum.counts %[[BR]] : tensor<8xf64>, tensor<8xi64>
func.func @counts(%q0: !qref.bit, %q1: !qref.bit, %r: !qref.reg<3>)
    -> (tensor<4xf64>, tensor<4xi64>, tensor<8xf64>, tensor<8xi64>) {
  %b = qref.compbasis qubits %q0, %q1 : !quantum.obs
  %e, %c = quantum.counts %b : tensor<4xf64>, tensor<4xi64>
  %br = qref.compbasis (qreg %r : !qref.reg<3>) : !quantum.obs
  %e2, %c2 = quantum.counts %br : tensor<8xf64>, tensor<8xi64>
  return %e, %c, %e2, %c2 : tensor<4xf64>, tensor<4xi64>, tensor<8xf64>, tensor<8xi64>
}
