// Every op of the `quantum` dialect in every printed variant of the reference
// sheet (docs/Dialect, Catalyst's textual form). The pretty form must print
// back exactly as Catalyst prints it, and the generic form must parse back to
// the same pretty text.
//
// RUN: qshape-opt %s | qshape-opt | FileCheck %s
// RUN: qshape-opt %s --mlir-print-op-generic | qshape-opt | FileCheck %s
//
// qshape's passes read ops by attribute name (GateView), so the generic form
// must carry Catalyst's property names.
// RUN: qshape-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @runtime
// CHECK-NEXT:    quantum.init{{$}}
// CHECK-NEXT:    quantum.init {seed = 42 : i64}
// CHECK-NEXT:    quantum.device shots(%{{.*}}) ["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{'mcmc': False}"]{{$}}
// CHECK-NEXT:    quantum.device ["lib.so", "NullQubit", "{}"]{{$}}
// CHECK-NEXT:    quantum.device ["lib.so", "NullQubit", "{}"] {auto_qubit_management}
// CHECK-NEXT:    %{{.*}} = quantum.num_qubits : i64
// CHECK-NEXT:    quantum.device_release
// CHECK-NEXT:    quantum.finalize
// CHECK-NEXT:    return
// GENERIC-LABEL: "func.func"
// GENERIC-SAME:    sym_name = "runtime"
// GENERIC:       "quantum.init"() : () -> ()
// GENERIC:       "quantum.init"() {seed = 42 : i64} : () -> ()
// GENERIC:       "quantum.device"(%{{.*}}) <{device_name = "LightningSimulator", kwargs = "{'mcmc': False}", lib = "/path/liblightning_qubit_catalyst.so"}> : (i64) -> ()
// GENERIC:       "quantum.device"() <{device_name = "NullQubit", kwargs = "{}", lib = "lib.so"}> : () -> ()
// GENERIC:       "quantum.device"() <{auto_qubit_management, device_name = "NullQubit", kwargs = "{}", lib = "lib.so"}> : () -> ()
func.func @runtime(%shots: i64) {
  quantum.init
  quantum.init {seed = 42 : i64}
  quantum.device shots(%shots) ["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{'mcmc': False}"]
  quantum.device ["lib.so", "NullQubit", "{}"]
  quantum.device ["lib.so", "NullQubit", "{}"] {auto_qubit_management}
  %n = quantum.num_qubits : i64
  quantum.device_release
  quantum.finalize
  return
}

// CHECK-LABEL: func.func @qubit_management
// CHECK-NEXT:    %[[R:.*]] = quantum.alloc( 3) : !quantum.reg
// CHECK-NEXT:    %[[RD:.*]] = quantum.alloc(%arg0) : !quantum.reg
// CHECK-NEXT:    %[[Q0:.*]] = quantum.extract %[[R]][ 0] : !quantum.reg -> !quantum.bit
// CHECK-NEXT:    %[[Q1:.*]] = quantum.extract %[[R]][ 2] : !quantum.reg -> !quantum.bit
// CHECK-NEXT:    %[[QD:.*]] = quantum.extract %[[RD]][%arg1] : !quantum.reg -> !quantum.bit
// CHECK-NEXT:    %[[R1:.*]] = quantum.insert %[[R]][ 0], %[[Q0]] : !quantum.reg, !quantum.bit
// CHECK-NEXT:    %[[R2:.*]] = quantum.insert %[[R1]][ 2], %[[Q1]] : !quantum.reg, !quantum.bit
// CHECK-NEXT:    %[[RD1:.*]] = quantum.insert %[[RD]][%arg1], %[[QD]] : !quantum.reg, !quantum.bit
// CHECK-NEXT:    %[[QB:.*]] = quantum.alloc_qb : !quantum.bit
// CHECK-NEXT:    quantum.dealloc_qb %[[QB]] : !quantum.bit
// CHECK-NEXT:    quantum.dealloc %[[R2]] : !quantum.reg
// CHECK-NEXT:    quantum.dealloc %[[RD1]] : !quantum.reg
// CHECK-NEXT:    return
// GENERIC-LABEL: sym_name = "qubit_management"
// GENERIC:       "quantum.alloc"() <{nqubits_attr = 3 : i64}> : () -> !quantum.reg
// GENERIC:       "quantum.alloc"(%{{[^,) ]+}}) : (i64) -> !quantum.reg
// GENERIC:       "quantum.extract"(%{{.*}}) <{idx_attr = 0 : i64}> : (!quantum.reg) -> !quantum.bit
// GENERIC:       "quantum.extract"(%{{.*}}) <{idx_attr = 2 : i64}> : (!quantum.reg) -> !quantum.bit
// GENERIC:       "quantum.extract"(%{{.*}}, %{{[^,) ]+}}) : (!quantum.reg, i64) -> !quantum.bit
// GENERIC:       "quantum.insert"(%{{.*}}, %{{.*}}) <{idx_attr = 0 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
// GENERIC:       "quantum.insert"(%{{.*}}, %{{.*}}) <{idx_attr = 2 : i64}> : (!quantum.reg, !quantum.bit) -> !quantum.reg
// GENERIC:       "quantum.insert"(%{{.*}}, %{{[^,) ]+}}, %{{.*}}) : (!quantum.reg, i64, !quantum.bit) -> !quantum.reg
func.func @qubit_management(%n: i64, %i: i64) {
  %r = quantum.alloc( 3) : !quantum.reg
  // The parser also accepts the index and size without the leading space.
  %rd = quantum.alloc(%n) : !quantum.reg
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.extract %r[2] : !quantum.reg -> !quantum.bit
  %qd = quantum.extract %rd[%i] : !quantum.reg -> !quantum.bit
  %r1 = quantum.insert %r[ 0], %q0 : !quantum.reg, !quantum.bit
  %r2 = quantum.insert %r1[2], %q1 : !quantum.reg, !quantum.bit
  %rd1 = quantum.insert %rd[%i], %qd : !quantum.reg, !quantum.bit
  %qb = quantum.alloc_qb : !quantum.bit
  quantum.dealloc_qb %qb : !quantum.bit
  quantum.dealloc %r2 : !quantum.reg
  quantum.dealloc %rd1 : !quantum.reg
  return
}

// CHECK-LABEL: func.func @state_prep
// CHECK-NEXT:    %{{.*}}:2 = quantum.set_state(%arg0) %arg4, %arg5 : (tensor<4xcomplex<f64>>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
// CHECK-NEXT:    %{{.*}}:2 = quantum.set_basis_state(%arg1) %{{.*}}#0, %{{.*}}#1 : (tensor<2xi1>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
// CHECK-NEXT:    %{{.*}}:2 = quantum.set_state(%arg2) %{{.*}}#0, %{{.*}}#1 : (memref<4xcomplex<f64>>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
// CHECK-NEXT:    %{{.*}}:2 = quantum.set_basis_state(%arg3) %{{.*}}#0, %{{.*}}#1 : (memref<2xi1>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
// CHECK-NEXT:    return
func.func @state_prep(%v: tensor<4xcomplex<f64>>, %b: tensor<2xi1>, %vm: memref<4xcomplex<f64>>,
                      %bm: memref<2xi1>, %q0: !quantum.bit, %q1: !quantum.bit) {
  %s:2 = quantum.set_state(%v) %q0, %q1 : (tensor<4xcomplex<f64>>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  %t:2 = quantum.set_basis_state(%b) %s#0, %s#1 : (tensor<2xi1>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  %u:2 = quantum.set_state(%vm) %t#0, %t#1 : (memref<4xcomplex<f64>>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  %w:2 = quantum.set_basis_state(%bm) %u#0, %u#1 : (memref<2xi1>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  return
}

// CHECK-LABEL: func.func @custom
// CHECK-NEXT:    %[[H:.*]] = quantum.custom "Hadamard"() %arg1 : !quantum.bit
// CHECK-NEXT:    %[[CX:.*]]:2 = quantum.custom "CNOT"() %[[H]], %arg2 : !quantum.bit, !quantum.bit
// CHECK-NEXT:    %[[RX:.*]] = quantum.custom "RX"(%arg0) %[[CX]]#0 : !quantum.bit
// CHECK-NEXT:    %[[ROT:.*]] = quantum.custom "Rot"(%arg0, %arg0, %arg0) %[[RX]] : !quantum.bit
// CHECK-NEXT:    %[[S:.*]] = quantum.custom "S"() %[[ROT]] adj : !quantum.bit
// CHECK-NEXT:    %[[T:.*]] = arith.constant true
// CHECK-NEXT:    %[[F:.*]] = arith.constant false
// CHECK-NEXT:    %[[O:.*]], %[[C:.*]]:2 = quantum.custom "RX"(%arg0) %[[S]] ctrls(%[[CX]]#1, %arg3) ctrlvals(%[[T]], %[[F]]) : !quantum.bit ctrls !quantum.bit, !quantum.bit
// CHECK-NEXT:    %{{.*}}, %{{.*}} = quantum.custom "T"() %[[O]] adj ctrls(%[[C]]#0) ctrlvals(%[[T]]) : !quantum.bit ctrls !quantum.bit
// CHECK-NEXT:    return
// GENERIC-LABEL: sym_name = "custom"
// GENERIC:       "quantum.custom"(%{{[^,) ]+}}) <{gate_name = "Hadamard", operandSegmentSizes = array<i32: 0, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (!quantum.bit) -> !quantum.bit
// GENERIC:       "quantum.custom"(%{{.*}}, %{{[^,) ]+}}) <{gate_name = "CNOT", operandSegmentSizes = array<i32: 0, 2, 0, 0>, resultSegmentSizes = array<i32: 2, 0>}>
// GENERIC:       "quantum.custom"(%{{[^,) ]+}}, %{{.*}}) <{gate_name = "RX", operandSegmentSizes = array<i32: 1, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (f64, !quantum.bit) -> !quantum.bit
// GENERIC:       <{gate_name = "Rot", operandSegmentSizes = array<i32: 3, 1, 0, 0>
// GENERIC:       <{adjoint, gate_name = "S", operandSegmentSizes = array<i32: 0, 1, 0, 0>
// GENERIC:       <{gate_name = "RX", operandSegmentSizes = array<i32: 1, 1, 2, 2>, resultSegmentSizes = array<i32: 1, 2>}> : (f64, !quantum.bit, !quantum.bit, !quantum.bit, i1, i1) -> (!quantum.bit, !quantum.bit, !quantum.bit)
// GENERIC:       <{adjoint, gate_name = "T", operandSegmentSizes = array<i32: 0, 1, 1, 1>, resultSegmentSizes = array<i32: 1, 1>}>
func.func @custom(%theta: f64, %q0: !quantum.bit, %q1: !quantum.bit, %q2: !quantum.bit) {
  %h = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %cx:2 = quantum.custom "CNOT"() %h, %q1 : !quantum.bit, !quantum.bit
  %rx = quantum.custom "RX"(%theta) %cx#0 : !quantum.bit
  %rot = quantum.custom "Rot"(%theta, %theta, %theta) %rx : !quantum.bit
  %s = quantum.custom "S"() %rot adj : !quantum.bit
  %true = arith.constant true
  %false = arith.constant false
  %o, %c:2 = quantum.custom "RX"(%theta) %s ctrls(%cx#1, %q2) ctrlvals(%true, %false) : !quantum.bit ctrls !quantum.bit, !quantum.bit
  %o2, %c2 = quantum.custom "T"() %o adj ctrls(%c#0) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit
  return
}

// CHECK-LABEL: func.func @other_gates
// CHECK-NEXT:    %[[P:.*]]:2 = quantum.paulirot ["Z", "X"](%arg0) %arg2, %arg3 : !quantum.bit, !quantum.bit
// CHECK-NEXT:    %[[P2:.*]], %[[PC:.*]] = quantum.paulirot ["Y"](%arg0) %[[P]]#0 adj ctrls(%[[P]]#1) ctrlvals(%arg1) : !quantum.bit ctrls !quantum.bit
// CHECK-NEXT:    quantum.gphase(%arg0){{$}}
// CHECK-NEXT:    quantum.gphase(%arg0) adj{{$}}
// CHECK-NEXT:    %[[G:.*]] = quantum.gphase(%arg0) ctrls(%[[PC]]) ctrlvals(%arg1) : ctrls !quantum.bit
// CHECK-NEXT:    %[[G2:.*]] = quantum.gphase(%arg0) adj ctrls(%[[G]]) ctrlvals(%arg1) : ctrls !quantum.bit
// CHECK-NEXT:    %[[M:.*]]:2 = quantum.multirz(%arg0) %[[P2]], %[[G2]] : !quantum.bit, !quantum.bit
// CHECK-NEXT:    %[[M2:.*]], %[[MC:.*]] = quantum.multirz(%arg0) %[[M]]#0 adj ctrls(%[[M]]#1) ctrlvals(%arg1) : !quantum.bit ctrls !quantum.bit
// CHECK-NEXT:    %[[PH:.*]] = quantum.pcphase(%arg0, dim : 1) %[[M2]] : !quantum.bit
// CHECK-NEXT:    %[[PH2:.*]], %[[PHC:.*]] = quantum.pcphase(%arg0, dim : 2) %[[PH]] adj ctrls(%[[MC]]) ctrlvals(%arg1) : !quantum.bit ctrls !quantum.bit
// CHECK-NEXT:    %[[U:.*]]:2 = quantum.unitary(%arg4 : tensor<4x4xcomplex<f64>>) %[[PH2]], %[[PHC]] : !quantum.bit, !quantum.bit
// CHECK-NEXT:    %[[U2:.*]], %{{.*}} = quantum.unitary(%arg5 : memref<2x2xcomplex<f64>>) %[[U]]#0 adj ctrls(%[[U]]#1) ctrlvals(%arg1) : !quantum.bit ctrls !quantum.bit
// CHECK-NEXT:    return
// GENERIC-LABEL: sym_name = "other_gates"
// GENERIC:       "quantum.paulirot"(%{{[^,) ]+}}, %{{[^,) ]+}}, %{{[^,) ]+}}) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>, pauli_product = ["Z", "X"], resultSegmentSizes = array<i32: 2, 0>}>
// GENERIC:       "quantum.paulirot"({{.*}}) <{adjoint, operandSegmentSizes = array<i32: 1, 1, 1, 1>, pauli_product = ["Y"], resultSegmentSizes = array<i32: 1, 1>}>
// GENERIC:       "quantum.gphase"(%{{[^,) ]+}}) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (f64) -> ()
// GENERIC:       "quantum.gphase"(%{{[^,) ]+}}) <{adjoint, operandSegmentSizes = array<i32: 1, 0, 0>}> : (f64) -> ()
// GENERIC:       "quantum.gphase"(%{{[^,) ]+}}, %{{.*}}, %{{[^,) ]+}}) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (f64, !quantum.bit, i1) -> !quantum.bit
// GENERIC:       "quantum.multirz"(%{{[^,) ]+}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>, resultSegmentSizes = array<i32: 2, 0>}>
// GENERIC:       "quantum.pcphase"(%{{[^,) ]+}}, %{{.*}}) <{dim = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>, resultSegmentSizes = array<i32: 1, 0>}>
// GENERIC:       "quantum.unitary"(%{{[^,) ]+}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 2, 0, 0>, resultSegmentSizes = array<i32: 2, 0>}> : (tensor<4x4xcomplex<f64>>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
func.func @other_gates(%t: f64, %true: i1, %q0: !quantum.bit, %q1: !quantum.bit,
                       %m: tensor<4x4xcomplex<f64>>, %mm: memref<2x2xcomplex<f64>>) {
  %p:2 = quantum.paulirot ["Z", "X"](%t) %q0, %q1 : !quantum.bit, !quantum.bit
  %p2, %pc = quantum.paulirot ["Y"](%t) %p#0 adj ctrls(%p#1) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit
  quantum.gphase(%t)
  quantum.gphase(%t) adj
  %g = quantum.gphase(%t) ctrls(%pc) ctrlvals(%true) : ctrls !quantum.bit
  %g2 = quantum.gphase(%t) adj ctrls(%g) ctrlvals(%true) : ctrls !quantum.bit
  %mz:2 = quantum.multirz(%t) %p2, %g2 : !quantum.bit, !quantum.bit
  %mz2, %mc = quantum.multirz(%t) %mz#0 adj ctrls(%mz#1) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit
  %ph = quantum.pcphase(%t, dim : 1) %mz2 : !quantum.bit
  %ph2, %phc = quantum.pcphase(%t, dim : 2) %ph adj ctrls(%mc) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit
  %u:2 = quantum.unitary(%m : tensor<4x4xcomplex<f64>>) %ph2, %phc : !quantum.bit, !quantum.bit
  %u2, %uc = quantum.unitary(%mm : memref<2x2xcomplex<f64>>) %u#0 adj ctrls(%u#1) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit
  return
}

// quantum.operator in every form of Catalyst's syntax. The input spells the
// typed lists with and without a space before the colon (Catalyst's tests use
// both); the printer writes Catalyst's layout: one section per line after
// the first.
// CHECK-LABEL: func.func @operator
// CHECK-NEXT:    %[[A:.*]] = quantum.operator "MyOpA"(%arg0: f64) qubits(%arg3){{$}}
// CHECK-NEXT:    %[[B:.*]] = quantum.operator "MyOpB"(%arg0: f64, %arg1: tensor<8xcomplex<f64>>) adj qubits(%[[A]]){{$}}
// CHECK-NEXT:      static_data = {greedy = true, pauli_word = "XYZ"}{{$}}
// CHECK-NEXT:    %[[C:.*]], %[[CC:.*]]:2 = quantum.operator "MyOpC"() qubits(%[[B]]){{$}}
// CHECK-NEXT:      ctrls(%arg4, %arg5) ctrl_vals(%arg6, %arg7){{$}}
// CHECK-NEXT:    %[[D:.*]]:3 = quantum.operator "MyOpD"(%arg1: tensor<8xcomplex<f64>>) qubits(%[[C]], %[[CC]]#0, %[[CC]]#1){{$}}
// CHECK-NEXT:      UID(324958) forward(%arg0: f64, %arg2: i64){{$}}
// CHECK-NEXT:    %[[E:.*]]:2 = quantum.operator "MyOpE"() qubits(%[[D]]#0, %[[D]]#1){{$}}
// CHECK-NEXT:      UID(7){{$}}
// CHECK-NEXT:    %[[F:.*]]:2 = quantum.operator "MyOpF"(%arg0: f64, %arg2: i64) qubits(%[[E]]#0, %[[E]]#1) {extra = "kept"}{{$}}
// CHECK-NEXT:      param_map = {p0 = [0], p1 = [1]} qubit_map = {pair = [0, 1]}{{$}}
// CHECK-NEXT:    %{{.*}} = quantum.operator "MyOpG"(%arg0: f64) qubits(%[[F]]#0){{$}}
// CHECK-NEXT:      qubit_map = {wires = [0]}{{$}}
// CHECK-NEXT:    %[[R1:.*]] = quantum.operator "RegOp"(%arg10: tensor<?xcomplex<f64>>){{$}}
// CHECK-NEXT:      quregs(%arg8) indices(%arg9: tensor<?xi64>, %arg11: tensor<1xi64>){{$}}
// CHECK-NEXT:      param_map = {state_vector = [0]} qubit_map = {precision_wire = [1], wires = [0]}{{$}}
// CHECK-NEXT:    %[[R2:.*]] = quantum.operator "RegCtrl"() adj{{$}}
// CHECK-NEXT:      quregs(%[[R1]]) indices(%arg11: tensor<1xi64>){{$}}
// CHECK-NEXT:      ctrls(%arg12: tensor<2xi64>) ctrl_vals(%arg13: tensor<2xi1>){{$}}
// CHECK-NEXT:    %{{.*}} = quantum.operator "RegAll"(%arg0: f64){{$}}
// CHECK-NEXT:      UID(3) forward(%arg2: i64){{$}}
// CHECK-NEXT:      quregs(%[[R2]]) indices(){{$}}
// CHECK-NEXT:      static_data = {k = 2 : i64}{{$}}
// CHECK-NEXT:      param_map = {"two words" = [0]}{{$}}
// CHECK-NEXT:    quantum.operator "NoTargets"() qubits(){{$}}
// CHECK-NEXT:    return
// GENERIC-LABEL: sym_name = "operator"
// GENERIC:       "quantum.operator"(%{{[^,) ]+}}, %{{[^,) ]+}}) <{op_name = "MyOpA", operandSegmentSizes = array<i32: 1, 0, 1, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>}> : (f64, !quantum.bit) -> !quantum.bit
// GENERIC:       <{adjoint, op_name = "MyOpB", operandSegmentSizes = array<i32: 2, 0, 1, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>, static_data = {greedy = true, pauli_word = "XYZ"}}> : (f64, tensor<8xcomplex<f64>>, !quantum.bit) -> !quantum.bit
// GENERIC:       <{op_name = "MyOpC", operandSegmentSizes = array<i32: 0, 0, 1, 2, 2, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 2, 0>}> : (!quantum.bit, !quantum.bit, !quantum.bit, i1, i1) -> (!quantum.bit, !quantum.bit, !quantum.bit)
// GENERIC:       <{UID = 324958 : i64, op_name = "MyOpD", operandSegmentSizes = array<i32: 1, 2, 3, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 3, 0, 0>}>
// GENERIC:       <{UID = 7 : i64, op_name = "MyOpE"
// GENERIC:       <{op_name = "MyOpF", operandSegmentSizes = array<i32: 2, 0, 2, 0, 0, 0, 0, 0, 0>, param_map = {p0 = array<i64: 0>, p1 = array<i64: 1>}, qubit_map = {pair = array<i64: 0, 1>}, resultSegmentSizes = array<i32: 2, 0, 0>}> {extra = "kept"}
// GENERIC:       <{op_name = "MyOpG", {{.*}}qubit_map = {wires = array<i64: 0>}
// GENERIC:       <{op_name = "RegOp", operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 1, 2, 0, 0>, param_map = {state_vector = array<i64: 0>}, qubit_map = {precision_wire = array<i64: 1>, wires = array<i64: 0>}, resultSegmentSizes = array<i32: 0, 0, 1>}> : (tensor<?xcomplex<f64>>, !quantum.reg, tensor<?xi64>, tensor<1xi64>) -> !quantum.reg
// GENERIC:       <{adjoint, op_name = "RegCtrl", operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 1, 1, 1, 1>, resultSegmentSizes = array<i32: 0, 0, 1>}> : (!quantum.reg, tensor<1xi64>, tensor<2xi64>, tensor<2xi1>) -> !quantum.reg
// GENERIC:       <{UID = 3 : i64, op_name = "RegAll", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 1, 0, 0, 0>, param_map = {"two words" = array<i64: 0>}, resultSegmentSizes = array<i32: 0, 0, 1>, static_data = {k = 2 : i64}}>
// GENERIC:       "quantum.operator"() <{op_name = "NoTargets", operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 0, 0, 0>}> : () -> ()
func.func @operator(%theta: f64, %state: tensor<8xcomplex<f64>>, %fwd: i64, %q: !quantum.bit,
                    %c0: !quantum.bit, %c1: !quantum.bit, %v0: i1, %v1: i1, %r: !quantum.reg,
                    %w: tensor<?xi64>, %sv: tensor<?xcomplex<f64>>, %pw: tensor<1xi64>,
                    %ci: tensor<2xi64>, %cv: tensor<2xi1>) {
  %a = quantum.operator "MyOpA"(%theta : f64) qubits(%q)
  %b = quantum.operator "MyOpB"(%theta: f64, %state: tensor<8xcomplex<f64>>) adj qubits(%a)
      static_data = {pauli_word = "XYZ", greedy = true}
  %c, %cc:2 = quantum.operator "MyOpC"() qubits(%b)
      ctrls(%c0, %c1) ctrl_vals(%v0, %v1)
  %d:3 = quantum.operator "MyOpD"(%state: tensor<8xcomplex<f64>>) qubits(%c, %cc#0, %cc#1)
      UID(324958) forward(%theta: f64, %fwd : i64)
  %e:2 = quantum.operator "MyOpE"() qubits(%d#0, %d#1) UID(7)
  %f:2 = quantum.operator "MyOpF"(%theta : f64, %fwd : i64) qubits(%e#0, %e#1) {extra = "kept"}
      param_map = {p0 = [0], p1 = [1]}
      qubit_map = {pair = [0, 1]}
  %g = quantum.operator "MyOpG"(%theta : f64) qubits(%f#0) qubit_map = {wires = [0]}
  %r1 = quantum.operator "RegOp"(%sv: tensor<?xcomplex<f64>>)
      quregs(%r) indices(%w: tensor<?xi64>, %pw: tensor<1xi64>)
      param_map = {state_vector = [0]}
      qubit_map = {wires = [0], precision_wire = [1]}
  %r2 = quantum.operator "RegCtrl"() adj
      quregs(%r1) indices(%pw : tensor<1xi64>)
      ctrls(%ci : tensor<2xi64>) ctrl_vals(%cv : tensor<2xi1>)
  %r3 = quantum.operator "RegAll"(%theta: f64) UID(3) forward(%fwd: i64) quregs(%r2) indices()
      static_data = {k = 2 : i64} param_map = {"two words" = [0]}
  quantum.operator "NoTargets"() qubits()
  return
}

// CHECK-LABEL: func.func @regions
// CHECK-NEXT:    %[[A:.*]] = quantum.adjoint(%arg0) : !quantum.reg {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: !quantum.reg):
// CHECK-NEXT:      %[[Q:.*]] = quantum.extract %[[X]][ 0] : !quantum.reg -> !quantum.bit
// CHECK-NEXT:      %[[T:.*]] = quantum.custom "T"() %[[Q]] : !quantum.bit
// CHECK-NEXT:      %[[X1:.*]] = quantum.insert %[[X]][ 0], %[[T]] : !quantum.reg, !quantum.bit
// CHECK-NEXT:      quantum.yield %[[X1]] : !quantum.reg
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[OC:.*]], %[[OQ:.*]] = quantum.ctrl(%arg1) ctrlvals(%arg3) (%arg2) : !quantum.bit -> !quantum.bit {
// CHECK-NEXT:    ^bb0(%[[Y:.*]]: !quantum.bit):
// CHECK-NEXT:      %[[H:.*]] = quantum.custom "Hadamard"() %[[Y]] : !quantum.bit
// CHECK-NEXT:      quantum.yield %[[H]] : !quantum.bit
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}}:2, %{{.*}}:2 = quantum.ctrl(%[[OC]], %[[OQ]]) ctrlvals(%arg3, %arg3) (%[[A]], %arg4) : !quantum.bit, !quantum.bit -> !quantum.reg, !quantum.bit {
// CHECK-NEXT:    ^bb0(%{{.*}}: !quantum.reg, %{{.*}}: !quantum.bit):
// CHECK-NEXT:      quantum.yield %{{.*}}, %{{.*}} : !quantum.reg, !quantum.bit
// CHECK-NEXT:    }
// An adjoint without targets (only a global phase) has an implicit, empty yield.
// CHECK-NEXT:    quantum.adjoint() {
// CHECK-NEXT:      quantum.gphase(%arg5)
// CHECK-NEXT:    }
// A ctrl without targets, without controls, or without either: the empty type
// list prints as nothing (two spaces around the arrow, as Catalyst prints
// it) and parses back.
// CHECK-NEXT:    %[[GC:.*]] = quantum.ctrl(%arg6) ctrlvals(%arg3) () : !quantum.bit ->  {
// CHECK-NEXT:      quantum.gphase(%arg5)
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}} = quantum.ctrl() ctrlvals() (%[[GC]]) :  -> !quantum.bit {
// CHECK-NEXT:    ^bb0(%[[U:.*]]: !quantum.bit):
// CHECK-NEXT:      quantum.yield %[[U]] : !quantum.bit
// CHECK-NEXT:    }
// CHECK-NEXT:    quantum.ctrl() ctrlvals() () :  ->  {
// CHECK-NEXT:      quantum.gphase(%arg5)
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// GENERIC-LABEL: sym_name = "regions"
// GENERIC:       "quantum.adjoint"(%{{[^,) ]+}}) ({
// GENERIC:         "quantum.yield"(%{{.*}}) : (!quantum.reg) -> ()
// GENERIC-NEXT:  }) : (!quantum.reg) -> !quantum.reg
// GENERIC:       "quantum.ctrl"(%{{[^,) ]+}}, %{{[^,) ]+}}, %{{[^,) ]+}}) <{operandSegmentSizes = array<i32: 1, 1, 1>, resultSegmentSizes = array<i32: 1, 1>}> ({
// GENERIC:       "quantum.adjoint"() ({
// GENERIC-NEXT:    "quantum.gphase"
// GENERIC-NEXT:    "quantum.yield"() : () -> ()
// GENERIC-NEXT:  }) : () -> ()
// GENERIC:       "quantum.ctrl"(%{{[^,) ]+}}, %{{[^,) ]+}}) <{operandSegmentSizes = array<i32: 1, 1, 0>, resultSegmentSizes = array<i32: 1, 0>}> ({
// GENERIC:       }) : (!quantum.bit, i1) -> !quantum.bit
// GENERIC:       "quantum.ctrl"(%{{[^,) ]+}}) <{operandSegmentSizes = array<i32: 0, 0, 1>, resultSegmentSizes = array<i32: 0, 1>}> ({
// GENERIC:       "quantum.ctrl"() <{operandSegmentSizes = array<i32: 0, 0, 0>, resultSegmentSizes = array<i32: 0, 0>}> ({
func.func @regions(%r: !quantum.reg, %c: !quantum.bit, %q: !quantum.bit, %true: i1,
                   %q2: !quantum.bit, %t: f64, %c2: !quantum.bit) {
  %a = quantum.adjoint(%r) : !quantum.reg {
  ^bb0(%x: !quantum.reg):
    %q0 = quantum.extract %x[ 0] : !quantum.reg -> !quantum.bit
    %t0 = quantum.custom "T"() %q0 : !quantum.bit
    %x1 = quantum.insert %x[ 0], %t0 : !quantum.reg, !quantum.bit
    quantum.yield %x1 : !quantum.reg
  }
  %oc, %oq = quantum.ctrl(%c) ctrlvals(%true) (%q) : !quantum.bit -> !quantum.bit {
  ^bb0(%y: !quantum.bit):
    %h = quantum.custom "Hadamard"() %y : !quantum.bit
    quantum.yield %h : !quantum.bit
  }
  %cc:2, %rr:2 = quantum.ctrl(%oc, %oq) ctrlvals(%true, %true) (%a, %q2) : !quantum.bit, !quantum.bit -> !quantum.reg, !quantum.bit {
  ^bb0(%z: !quantum.reg, %w: !quantum.bit):
    quantum.yield %z, %w : !quantum.reg, !quantum.bit
  }
  quantum.adjoint() {
    quantum.gphase(%t)
  }
  %gc = quantum.ctrl(%c2) ctrlvals(%true) () : !quantum.bit -> {
    quantum.gphase(%t)
  }
  %nc = quantum.ctrl() ctrlvals() (%gc) : -> !quantum.bit {
  ^bb0(%u: !quantum.bit):
    quantum.yield %u : !quantum.bit
  }
  quantum.ctrl() ctrlvals() () : -> {
    quantum.gphase(%t)
  }
  return
}

// CHECK-LABEL: func.func @observables
// CHECK-NEXT:    %[[Z:.*]] = quantum.namedobs %arg0[ PauliZ] : !quantum.obs
// CHECK-NEXT:    %[[I:.*]] = quantum.namedobs %arg0[ Identity] : !quantum.obs
// CHECK-NEXT:    %[[X:.*]] = quantum.namedobs %arg1[ PauliX] : !quantum.obs
// CHECK-NEXT:    %{{.*}} = quantum.namedobs %arg1[ PauliY] : !quantum.obs
// CHECK-NEXT:    %{{.*}} = quantum.namedobs %arg1[ Hadamard] : !quantum.obs
// CHECK-NEXT:    %{{.*}} = quantum.compbasis qubits %arg0, %arg1 : !quantum.obs
// CHECK-NEXT:    %{{.*}} = quantum.compbasis qreg %arg2 : !quantum.obs
// CHECK-NEXT:    %{{.*}} = quantum.compbasis : !quantum.obs
// CHECK-NEXT:    %{{.*}} = quantum.mcmobs %arg3, %arg4 : !quantum.obs
// CHECK-NEXT:    %{{.*}} = quantum.hermitian(%arg5 : tensor<2x2xcomplex<f64>>) %arg0 : !quantum.obs
// CHECK-NEXT:    %{{.*}} = quantum.hermitian(%arg6 : memref<4x4xcomplex<f64>>) %arg0, %arg1 : !quantum.obs
// CHECK-NEXT:    %[[TN:.*]] = quantum.tensor %[[Z]], %[[X]] : !quantum.obs
// CHECK-NEXT:    %{{.*}} = quantum.hamiltonian(%arg7 : tensor<2xf64>) %[[I]], %[[TN]] : !quantum.obs
// CHECK-NEXT:    %{{.*}} = quantum.hamiltonian(%arg8 : memref<1xf64>) %[[TN]] : !quantum.obs
// CHECK-NEXT:    return
// GENERIC-LABEL: sym_name = "observables"
// GENERIC:       "quantum.namedobs"(%{{[^,) ]+}}) <{type = #quantum<named_observable PauliZ>}> : (!quantum.bit) -> !quantum.obs
// GENERIC:       "quantum.namedobs"(%{{[^,) ]+}}) <{type = #quantum<named_observable Identity>}>
// GENERIC:       "quantum.namedobs"(%{{[^,) ]+}}) <{type = #quantum<named_observable PauliX>}>
// GENERIC:       "quantum.namedobs"(%{{[^,) ]+}}) <{type = #quantum<named_observable PauliY>}>
// GENERIC:       "quantum.namedobs"(%{{[^,) ]+}}) <{type = #quantum<named_observable Hadamard>}>
// GENERIC:       "quantum.compbasis"(%{{[^,) ]+}}, %{{[^,) ]+}}) <{operandSegmentSizes = array<i32: 2, 0>}>
// GENERIC:       "quantum.compbasis"(%{{[^,) ]+}}) <{operandSegmentSizes = array<i32: 0, 1>}>
func.func @observables(%q0: !quantum.bit, %q1: !quantum.bit, %r: !quantum.reg, %m0: i1, %m1: i1,
                       %h: tensor<2x2xcomplex<f64>>, %hm: memref<4x4xcomplex<f64>>,
                       %c: tensor<2xf64>, %cm: memref<1xf64>) {
  %z = quantum.namedobs %q0[ PauliZ] : !quantum.obs
  %i = quantum.namedobs %q0[Identity] : !quantum.obs
  %x = quantum.namedobs %q1[ PauliX] : !quantum.obs
  %y = quantum.namedobs %q1[ PauliY] : !quantum.obs
  %hd = quantum.namedobs %q1[ Hadamard] : !quantum.obs
  %cb = quantum.compbasis qubits %q0, %q1 : !quantum.obs
  %cr = quantum.compbasis qreg %r : !quantum.obs
  %ca = quantum.compbasis : !quantum.obs
  %mcm = quantum.mcmobs %m0, %m1 : !quantum.obs
  %he = quantum.hermitian(%h : tensor<2x2xcomplex<f64>>) %q0 : !quantum.obs
  %he2 = quantum.hermitian(%hm : memref<4x4xcomplex<f64>>) %q0, %q1 : !quantum.obs
  %t = quantum.tensor %z, %x : !quantum.obs
  %ham = quantum.hamiltonian(%c : tensor<2xf64>) %i, %t : !quantum.obs
  %ham2 = quantum.hamiltonian(%cm : memref<1xf64>) %t : !quantum.obs
  return
}

// Sample, counts, probs and state need an observable defined by an
// observable op (Catalyst's rule); expval and var take any.
// CHECK-LABEL: func.func @measurements
// CHECK-NEXT:    %[[M:.*]], %[[Q:.*]] = quantum.measure %arg0 : i1, !quantum.bit
// CHECK-NEXT:    %{{.*}}, %{{.*}} = quantum.measure %[[Q]] postselect 1 : i1, !quantum.bit
// CHECK-NEXT:    %{{.*}}, %[[Q4:.*]] = quantum.measure %arg1 postselect 0 : i1, !quantum.bit
// CHECK-NEXT:    %{{.*}} = quantum.expval %arg2 : f64
// CHECK-NEXT:    %{{.*}} = quantum.var %arg2 : f64
// CHECK-NEXT:    %[[O:.*]] = quantum.compbasis qubits %[[Q]], %[[Q4]] : !quantum.obs
// CHECK-NEXT:    %{{.*}} = quantum.probs %[[O]] : tensor<4xf64>
// CHECK-NEXT:    %{{.*}} = quantum.probs %[[O]] shape %arg3 : tensor<?xf64>
// CHECK-NEXT:    quantum.probs %[[O]] in(%arg4 : memref<4xf64>){{$}}
// CHECK-NEXT:    %{{.*}} = quantum.state %[[O]] : tensor<4xcomplex<f64>>
// CHECK-NEXT:    %{{.*}} = quantum.state %[[O]] shape %arg3 : tensor<?xcomplex<f64>>
// CHECK-NEXT:    quantum.state %[[O]] in(%arg5 : memref<4xcomplex<f64>>){{$}}
// CHECK-NEXT:    %{{.*}} = quantum.sample %[[O]] : tensor<1000x2xf64>
// CHECK-NEXT:    %{{.*}} = quantum.sample %[[O]] : tensor<1000xf64>
// CHECK-NEXT:    %{{.*}} = quantum.sample %[[O]] shape %arg3, %arg7 : tensor<?x?xf64>
// CHECK-NEXT:    quantum.sample %[[O]] in(%arg6 : memref<10x2xf64>){{$}}
// CHECK-NEXT:    %{{.*}}, %{{.*}} = quantum.counts %[[O]] : tensor<4xf64>, tensor<4xi64>
// CHECK-NEXT:    %{{.*}}, %{{.*}} = quantum.counts %[[O]] shape %arg3 : tensor<?xf64>, tensor<?xi64>
// CHECK-NEXT:    quantum.counts %[[O]] in(%arg4 : memref<4xf64>, %arg8 : memref<4xi64>){{$}}
// CHECK-NEXT:    %[[Z:.*]] = quantum.namedobs %[[Q]][ PauliZ] : !quantum.obs
// CHECK-NEXT:    %{{.*}}, %{{.*}} = quantum.counts %[[Z]] : tensor<2xf64>, tensor<2xi64>
// CHECK-NEXT:    return
// GENERIC-LABEL: sym_name = "measurements"
// GENERIC:       "quantum.measure"(%{{[^,) ]+}}) : (!quantum.bit) -> (i1, !quantum.bit)
// GENERIC:       "quantum.measure"(%{{.*}}) <{postselect = 1 : i32}> : (!quantum.bit) -> (i1, !quantum.bit)
// GENERIC:       "quantum.probs"(%{{[^,) ]+}}) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!quantum.obs) -> tensor<4xf64>
// GENERIC:       "quantum.probs"(%{{[^,) ]+}}, %{{[^,) ]+}}) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (!quantum.obs, i64) -> tensor<?xf64>
// GENERIC:       "quantum.probs"(%{{[^,) ]+}}, %{{[^,) ]+}}) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (!quantum.obs, memref<4xf64>) -> ()
// GENERIC:       "quantum.counts"(%{{[^,) ]+}}, %{{[^,) ]+}}, %{{[^,) ]+}}) <{operandSegmentSizes = array<i32: 1, 0, 1, 1>}> : (!quantum.obs, memref<4xf64>, memref<4xi64>) -> ()
func.func @measurements(%q: !quantum.bit, %q1: !quantum.bit, %o: !quantum.obs, %n: i64,
                        %pm: memref<4xf64>, %sm: memref<4xcomplex<f64>>, %dm: memref<10x2xf64>,
                        %w: i64, %cm: memref<4xi64>) {
  %m, %q2 = quantum.measure %q : i1, !quantum.bit
  %m2, %q3 = quantum.measure %q2 postselect 1 : i1, !quantum.bit
  %m3, %q4 = quantum.measure %q1 postselect 0 : i1, !quantum.bit
  %e = quantum.expval %o : f64
  %v = quantum.var %o : f64
  %b = quantum.compbasis qubits %q2, %q4 : !quantum.obs
  %p = quantum.probs %b : tensor<4xf64>
  %pd = quantum.probs %b shape %n : tensor<?xf64>
  quantum.probs %b in(%pm : memref<4xf64>)
  %s = quantum.state %b : tensor<4xcomplex<f64>>
  %sd = quantum.state %b shape %n : tensor<?xcomplex<f64>>
  quantum.state %b in(%sm : memref<4xcomplex<f64>>)
  %sa = quantum.sample %b : tensor<1000x2xf64>
  %sa1 = quantum.sample %b : tensor<1000xf64>
  %sad = quantum.sample %b shape %n, %w : tensor<?x?xf64>
  quantum.sample %b in(%dm : memref<10x2xf64>)
  %ev, %c = quantum.counts %b : tensor<4xf64>, tensor<4xi64>
  %evd, %cd = quantum.counts %b shape %n : tensor<?xf64>, tensor<?xi64>
  quantum.counts %b in(%pm : memref<4xf64>, %cm : memref<4xi64>)
  %z = quantum.namedobs %q2[ PauliZ] : !quantum.obs
  %zv, %zc = quantum.counts %z : tensor<2xf64>, tensor<2xi64>
  return
}

// Forms Catalyst (2026-08) accepts that qshape used to reject: a basis state
// or a state vector whose length is not the qubit count's (Catalyst's
// bufferization tests prepare one qubit from a 2-bit basis state), a pcphase
// `dim` outside [0, 2^n], a Hamiltonian with more coefficients than terms, an
// empty gate name, an adjoint region that yields other types than it
// returns, counts of a whole register (its size is not known), probs of
// mid-circuit measurements. The device, or qshape-sim, reports what it
// cannot run.
// CHECK-LABEL: func.func @catalyst_accepts
// CHECK-NEXT:    %[[B1:.*]] = quantum.set_basis_state(%arg0) %arg4 : (tensor<2xi1>, !quantum.bit) -> !quantum.bit
// CHECK-NEXT:    %[[B2:.*]]:2 = quantum.set_basis_state(%arg1) %[[B1]], %arg5 : (memref<1xi1>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
// CHECK-NEXT:    %[[S:.*]]:2 = quantum.set_state(%arg2) %[[B2]]#0, %[[B2]]#1 : (tensor<2xcomplex<f64>>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
// CHECK-NEXT:    %[[P:.*]] = quantum.pcphase(%arg3, dim : -1) %[[S]]#0 : !quantum.bit
// CHECK-NEXT:    %[[P2:.*]] = quantum.pcphase(%arg3, dim : 9) %[[P]] : !quantum.bit
// CHECK-NEXT:    %[[E:.*]] = quantum.custom ""() %[[P2]] : !quantum.bit
// CHECK-NEXT:    %[[Z:.*]] = quantum.namedobs %[[E]][ PauliZ] : !quantum.obs
// CHECK-NEXT:    %{{.*}} = quantum.hamiltonian(%arg6 : tensor<3xf64>) %[[Z]] : !quantum.obs
// CHECK-NEXT:    %{{.*}} = quantum.adjoint(%arg7) : !quantum.reg {
// CHECK-NEXT:    ^bb0(%{{.*}}: !quantum.reg):
// CHECK-NEXT:      quantum.yield %arg8 : !quantum.reg
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[W:.*]] = quantum.compbasis qreg %arg7 : !quantum.obs
// CHECK-NEXT:    %{{.*}}, %{{.*}} = quantum.counts %[[W]] : tensor<8xf64>, tensor<8xi64>
// CHECK-NEXT:    %[[MC:.*]] = quantum.mcmobs %arg9, %arg9 : !quantum.obs
// CHECK-NEXT:    %{{.*}} = quantum.probs %[[MC]] : tensor<4xf64>
// CHECK-NEXT:    quantum.counts %[[MC]] in(%arg10 : memref<?xf64>, %arg11 : memref<?xi64>){{$}}
// CHECK-NEXT:    return
func.func @catalyst_accepts(%b2: tensor<2xi1>, %b1: memref<1xi1>, %s2: tensor<2xcomplex<f64>>,
                            %t: f64, %q0: !quantum.bit, %q1: !quantum.bit, %c3: tensor<3xf64>,
                            %r: !quantum.reg, %r2: !quantum.reg, %m: i1,
                            %eb: memref<?xf64>, %cb: memref<?xi64>) {
  %a = quantum.set_basis_state(%b2) %q0 : (tensor<2xi1>, !quantum.bit) -> !quantum.bit
  %b:2 = quantum.set_basis_state(%b1) %a, %q1 : (memref<1xi1>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  %s:2 = quantum.set_state(%s2) %b#0, %b#1 : (tensor<2xcomplex<f64>>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  %p = quantum.pcphase(%t, dim : -1) %s#0 : !quantum.bit
  %p2 = quantum.pcphase(%t, dim : 9) %p : !quantum.bit
  %e = quantum.custom ""() %p2 : !quantum.bit
  %z = quantum.namedobs %e[ PauliZ] : !quantum.obs
  %h = quantum.hamiltonian(%c3 : tensor<3xf64>) %z : !quantum.obs
  %ra = quantum.adjoint(%r) : !quantum.reg {
  ^bb0(%x: !quantum.reg):
    quantum.yield %r2 : !quantum.reg
  }
  %w = quantum.compbasis qreg %r : !quantum.obs
  %ev, %cv = quantum.counts %w : tensor<8xf64>, tensor<8xi64>
  %mc = quantum.mcmobs %m, %m : !quantum.obs
  %pm = quantum.probs %mc : tensor<4xf64>
  quantum.counts %mc in(%eb : memref<?xf64>, %cb : memref<?xi64>)
  return
}

// A quantum kernel as Catalyst's frontend emits it: the QNode module holds the
// transform module first, then the QNode function, which carries
// `quantum.node`; measurements stand in it, in loops too.
// CHECK-LABEL: module @module_circuit {
// CHECK-NEXT:    module attributes {transform.with_named_sequence} {
// CHECK-NEXT:    }
// CHECK-NEXT:    func.func public @circuit(%arg0: !quantum.bit) -> f64 attributes {quantum.node} {
// CHECK:           quantum.expval
// CHECK:           scf.for
// CHECK-NEXT:        quantum.compbasis
// CHECK-NEXT:        quantum.probs
// CHECK:         func.func private @decl() attributes {quantum.node}
// GENERIC:       "func.func"() <{function_type = (!quantum.bit) -> f64, sym_name = "circuit", sym_visibility = "public"}> ({
// GENERIC:       }) {quantum.node} : () -> ()
module @module_circuit {
  module attributes {transform.with_named_sequence} {}
  func.func public @circuit(%q: !quantum.bit) -> f64 attributes {quantum.node} {
    %o = quantum.namedobs %q[ PauliZ] : !quantum.obs
    %e = quantum.expval %o : f64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %c1 step %c1 {
      %b = quantum.compbasis qubits %q : !quantum.obs
      %p = quantum.probs %b : tensor<2xf64>
    }
    return %e : f64
  }
  func.func private @decl() attributes {quantum.node}
}

// Only a transform module that comes first among the nested modules makes a
// kernel (Catalyst's test): here a measurement may stand in any function.
// CHECK-LABEL: module @not_a_kernel {
// CHECK:         func.func @plain(%arg0: !quantum.bit) -> f64 {
// CHECK-NEXT:      quantum.namedobs
// CHECK-NEXT:      quantum.expval
module @not_a_kernel {
  module @library {}
  module attributes {transform.with_named_sequence} {}
  func.func @plain(%q: !quantum.bit) -> f64 {
    %o = quantum.namedobs %q[ PauliZ] : !quantum.obs
    %e = quantum.expval %o : f64
    return %e : f64
  }
}

// CHECK-LABEL: func.func @types(%arg0: !quantum.bit, %arg1: !quantum.reg, %arg2: !quantum.obs, %arg3: !quantum.res) -> (!quantum.bit, !quantum.reg, !quantum.obs, !quantum.res)
// CHECK-NEXT:    return %arg0, %arg1, %arg2, %arg3 : !quantum.bit, !quantum.reg, !quantum.obs, !quantum.res
func.func @types(%q: !quantum.bit, %r: !quantum.reg, %o: !quantum.obs, %s: !quantum.res)
    -> (!quantum.bit, !quantum.reg, !quantum.obs, !quantum.res) {
  return %q, %r, %o, %s : !quantum.bit, !quantum.reg, !quantum.obs, !quantum.res
}
