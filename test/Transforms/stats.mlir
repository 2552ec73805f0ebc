// qshape-stats: JSON on stdout (keys are printed sorted), the summary remark,
// and unknown ops left untouched.
//
// RUN: qshape-opt %s -split-input-file --allow-unregistered-dialect --qshape-stats=output=- -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=JSON
// RUN: qshape-opt %s -split-input-file --allow-unregistered-dialect --qshape-stats=emit-remark \
// RUN:   -verify-diagnostics -o /dev/null
// The pass changes nothing: the IR it prints is the IR it read.
// RUN: qshape-opt %s -split-input-file --allow-unregistered-dialect --qshape-stats=emit-remark \
// RUN:   | FileCheck %s --check-prefix=IR
// RUN: qshape-opt %s -split-input-file --allow-unregistered-dialect --qshape-stats=emit-remark \
// RUN:   2>/dev/null > %t.after
// RUN: qshape-opt %s -split-input-file --allow-unregistered-dialect 2>/dev/null > %t.before
// RUN: diff %t.before %t.after

// A circuit with plain, adjoint, controlled gates and nested constant-bound
// loops: static_gates = 1 (H) + 1 (CNOT) + 1 (S adj) + 1 (ctrl RX) + 1 (gphase)
//   + 4 (H in the outer loop, 4 trips) + 4*3 (RZ in the inner loop, 3 trips) = 21.
//
// JSON:      {
// JSON-NEXT:   "gates": 7,
// JSON-NEXT:   "gates_by_name": {
// JSON-NEXT:     "CNOT": {
// JSON-NEXT:       "adjoint": 0,
// JSON-NEXT:       "controlled": 0,
// JSON-NEXT:       "count": 1,
// JSON-NEXT:       "static": 1
// JSON-NEXT:     },
// JSON-NEXT:     "GlobalPhase": {
// JSON-NEXT:       "adjoint": 0,
// JSON-NEXT:       "controlled": 0,
// JSON-NEXT:       "count": 1,
// JSON-NEXT:       "static": 1
// JSON-NEXT:     },
// JSON-NEXT:     "Hadamard": {
// JSON-NEXT:       "adjoint": 0,
// JSON-NEXT:       "controlled": 0,
// JSON-NEXT:       "count": 2,
// JSON-NEXT:       "static": 5
// JSON-NEXT:     },
// JSON-NEXT:     "RX": {
// JSON-NEXT:       "adjoint": 0,
// JSON-NEXT:       "controlled": 1,
// JSON-NEXT:       "count": 1,
// JSON-NEXT:       "static": 1
// JSON-NEXT:     },
// JSON-NEXT:     "RZ": {
// JSON-NEXT:       "adjoint": 0,
// JSON-NEXT:       "controlled": 0,
// JSON-NEXT:       "count": 1,
// JSON-NEXT:       "static": 12
// JSON-NEXT:     },
// JSON-NEXT:     "S": {
// JSON-NEXT:       "adjoint": 1,
// JSON-NEXT:       "controlled": 0,
// JSON-NEXT:       "count": 1,
// JSON-NEXT:       "static": 1
// JSON-NEXT:     }
// JSON-NEXT:   },
// JSON-NEXT:   "loops": 2,
// JSON-NEXT:   "max_loop_depth": 2,
// JSON-NEXT:   "ops": 30,
// JSON-NEXT:   "quantum_ops": 18,
// JSON-NEXT:   "qubits": 3,
// JSON-NEXT:   "static_gates": 21,
// JSON-NEXT:   "static_gates_exact": true
// JSON-NEXT: }

// expected-remark @+1 {{qshape-stats: 30 ops, 18 quantum ops, 7 gates (21 static), 3 qubits, 2 loops (depth 2)}}
module {
  func.func @circuit(%t: f64) -> !quantum.reg {
    %r = quantum.alloc( 3) : !quantum.reg
    %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
    %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
    %q2 = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
    %h = quantum.custom "Hadamard"() %q0 : !quantum.bit
    %cx:2 = quantum.custom "CNOT"() %h, %q1 : !quantum.bit, !quantum.bit
    %s = quantum.custom "S"() %cx#0 adj : !quantum.bit
    %true = arith.constant true
    %o, %c = quantum.custom "RX"(%t) %s ctrls(%q2) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit
    quantum.gphase(%t)
    %r1 = quantum.insert %r[ 0], %o : !quantum.reg, !quantum.bit
    %r2 = quantum.insert %r1[ 1], %cx#1 : !quantum.reg, !quantum.bit
    %r3 = quantum.insert %r2[ 2], %c : !quantum.reg, !quantum.bit
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %r4 = scf.for %i = %c0 to %c4 step %c1 iter_args(%ra = %r3) -> (!quantum.reg) {
      %qa = quantum.extract %ra[ 0] : !quantum.reg -> !quantum.bit
      %ha = quantum.custom "Hadamard"() %qa : !quantum.bit
      %rb = quantum.insert %ra[ 0], %ha : !quantum.reg, !quantum.bit
      %rc = scf.for %j = %c0 to %c6 step %c2 iter_args(%rd = %rb) -> (!quantum.reg) {
        %qb = quantum.extract %rd[ 1] : !quantum.reg -> !quantum.bit
        %zb = quantum.custom "RZ"(%t) %qb : !quantum.bit
        %re = quantum.insert %rd[ 1], %zb : !quantum.reg, !quantum.bit
        scf.yield %re : !quantum.reg
      }
      scf.yield %rc : !quantum.reg
    }
    return %r4 : !quantum.reg
  }
}

// -----

// A loop whose bound is a function argument: its gates count once in
// static_gates, and static_gates_exact says the number is a lower bound.
//
// JSON:      {
// JSON-NEXT:   "gates": 2,
// JSON:        "loops": 1,
// JSON-NEXT:   "max_loop_depth": 1,
// JSON-NEXT:   "ops": 11,
// JSON-NEXT:   "quantum_ops": 5,
// JSON-NEXT:   "qubits": 2,
// JSON-NEXT:   "static_gates": 2,
// JSON-NEXT:   "static_gates_exact": false
// JSON-NEXT: }

// expected-remark @+1 {{qshape-stats: 11 ops, 5 quantum ops, 2 gates (2 static), 2 qubits, 1 loops (depth 1)}}
module {
  func.func @dynamic_loop(%n: index, %t: f64) -> !quantum.reg {
    %r = quantum.alloc( 2) : !quantum.reg
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r1 = scf.for %i = %c0 to %n step %c1 iter_args(%ra = %r) -> (!quantum.reg) {
      %q = quantum.extract %ra[ 0] : !quantum.reg -> !quantum.bit
      %x = quantum.custom "RX"(%t) %q : !quantum.bit
      %y = quantum.custom "RY"(%t) %x : !quantum.bit
      %rb = quantum.insert %ra[ 0], %y : !quantum.reg, !quantum.bit
      scf.yield %rb : !quantum.reg
    }
    return %r1 : !quantum.reg
  }
}

// -----

// Every allocation kind counts by one rule: the qubits it allocates, times
// the trips of the constant-bound loops around it. A 3-trip loop allocates a
// 2-qubit register and one qubit per trip: 3 * 2 + 3 * 1 = 9 qubits, plus
// the 1-qubit register and the qubit outside the loop: 11.
//
// JSON:      "qubits": 11,
// JSON-NEXT: "static_gates": 7,
// JSON-NEXT: "static_gates_exact": true

// expected-remark @+1 {{qshape-stats: 18 ops, 11 quantum ops, 3 gates (7 static), 11 qubits, 1 loops (depth 1)}}
module {
  func.func @alloc_in_loop() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r0 = quantum.alloc( 1) : !quantum.reg
    %b0 = quantum.alloc_qb : !quantum.bit
    %h0 = quantum.custom "Hadamard"() %b0 : !quantum.bit
    quantum.dealloc_qb %h0 : !quantum.bit
    scf.for %i = %c0 to %c3 step %c1 {
      %r = quantum.alloc( 2) : !quantum.reg
      %b = quantum.alloc_qb : !quantum.bit
      %h = quantum.custom "Hadamard"() %b : !quantum.bit
      %x = quantum.custom "PauliX"() %h : !quantum.bit
      quantum.dealloc_qb %x : !quantum.bit
      quantum.dealloc %r : !quantum.reg
    }
    quantum.dealloc %r0 : !quantum.reg
    return
  }
}

// -----

// A register of dynamic size: its qubits are unknown, so the count is not exact.
//
// JSON:      "qubits": 0,
// JSON-NEXT: "static_gates": 1,
// JSON-NEXT: "static_gates_exact": false

// expected-remark @+1 {{qshape-stats: 7 ops, 5 quantum ops, 1 gates (1 static), 0 qubits, 0 loops (depth 0)}}
module {
  func.func @dynamic_alloc(%n: i64) {
    %r = quantum.alloc(%n) : !quantum.reg
    %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
    %h = quantum.custom "Hadamard"() %q : !quantum.bit
    %r1 = quantum.insert %r[ 0], %h : !quantum.reg, !quantum.bit
    quantum.dealloc %r1 : !quantum.reg
    return
  }
}

// -----

// Ops qshape does not know (Catalyst, StableHLO, gradient; unregistered here)
// pass through untouched; quantum ops nested in their regions still count.
//
// JSON:      "gates": 1,
// JSON:      "ops": 11,
// JSON-NEXT: "quantum_ops": 2,
//
// IR-LABEL: func.func @mixed
// IR-NEXT:    %[[C:.*]] = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f64>}> : () -> tensor<f64>
// IR-NEXT:    %[[K:.*]] = "catalyst.launch_kernel"(%arg0) {callee = @module_circuit::@circuit} : (tensor<f64>) -> tensor<f64>
// IR-NEXT:    %[[G:.*]] = "gradient.grad"(%[[K]]) ({
// IR-NEXT:    ^bb0(%[[X:.*]]: tensor<f64>):
// IR-NEXT:      "gradient.return"(%[[X]]) : (tensor<f64>) -> ()
// IR-NEXT:    }) {method = "auto"} : (tensor<f64>) -> tensor<f64>
// IR-NEXT:    %[[Q:.*]] = quantum.extract %arg1[ 0] : !quantum.reg -> !quantum.bit
// IR-NEXT:    %{{.*}} = "catalyst.custom_region"(%[[Q]]) ({
// IR-NEXT:    ^bb0(%[[Y:.*]]: !quantum.bit):
// IR-NEXT:      %[[H:.*]] = quantum.custom "Hadamard"() %[[Y]] : !quantum.bit
// IR-NEXT:      "catalyst.yield"(%[[H]]) : (!quantum.bit) -> ()
// IR-NEXT:    }) : (!quantum.bit) -> !quantum.bit
// IR-NEXT:    %[[S:.*]] = "stablehlo.add"(%[[C]], %[[G]]) : (tensor<f64>, tensor<f64>) -> tensor<f64>
// IR-NEXT:    return %[[S]] : tensor<f64>

// expected-remark @+1 {{qshape-stats: 11 ops, 2 quantum ops, 1 gates (1 static), 0 qubits, 0 loops (depth 0)}}
module {
  func.func @mixed(%arg0: tensor<f64>, %r: !quantum.reg) -> tensor<f64> {
    %0 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %1 = "catalyst.launch_kernel"(%arg0) {callee = @module_circuit::@circuit} : (tensor<f64>) -> tensor<f64>
    %2 = "gradient.grad"(%1) ({
    ^bb0(%x: tensor<f64>):
      "gradient.return"(%x) : (tensor<f64>) -> ()
    }) {method = "auto"} : (tensor<f64>) -> tensor<f64>
    %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
    %3 = "catalyst.custom_region"(%q) ({
    ^bb0(%y: !quantum.bit):
      %h = quantum.custom "Hadamard"() %y : !quantum.bit
      "catalyst.yield"(%h) : (!quantum.bit) -> ()
    }) : (!quantum.bit) -> !quantum.bit
    %4 = "stablehlo.add"(%0, %2) : (tensor<f64>, tensor<f64>) -> tensor<f64>
    return %4 : tensor<f64>
  }
}

// -----

// Catalyst's quantum.operator is a gate, counted by its op_name, in qubit mode
// and in register mode (where a control index tensor makes it controlled):
// static_gates = 1 + 3 (in the loop) = 4.
//
// JSON:      "gates": 2,
// JSON-NEXT: "gates_by_name": {
// JSON-NEXT:   "MyOp": {
// JSON-NEXT:     "adjoint": 1,
// JSON-NEXT:     "controlled": 1,
// JSON-NEXT:     "count": 1,
// JSON-NEXT:     "static": 1
// JSON-NEXT:   },
// JSON-NEXT:   "Template": {
// JSON-NEXT:     "adjoint": 0,
// JSON-NEXT:     "controlled": 1,
// JSON-NEXT:     "count": 1,
// JSON-NEXT:     "static": 3
// JSON-NEXT:   }
// JSON-NEXT: },
// JSON:      "static_gates": 4,
//
// IR-LABEL: func.func @operators
// IR:         quantum.operator "MyOp"(%arg0: f64) adj qubits(%{{.*}})
// IR-NEXT:      ctrls(%{{.*}}) ctrl_vals(%{{.*}})
// IR:           quantum.operator "Template"(%arg0: f64)
// IR-NEXT:        quregs(%{{.*}}) indices(%arg1: tensor<2xi64>)
// IR-NEXT:        ctrls(%arg2: tensor<1xi64>) ctrl_vals(%arg3: tensor<1xi1>)

// expected-remark @+1 {{qshape-stats: 15 ops, 7 quantum ops, 2 gates (4 static), 3 qubits, 1 loops (depth 1)}}
module {
  func.func @operators(%t: f64, %w: tensor<2xi64>, %ci: tensor<1xi64>, %cv: tensor<1xi1>) -> !quantum.reg {
    %r = quantum.alloc( 3) : !quantum.reg
    %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
    %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
    %true = arith.constant true
    %a, %ac = quantum.operator "MyOp"(%t: f64) adj qubits(%q0) ctrls(%q1) ctrl_vals(%true)
    %r1 = quantum.insert %r[ 0], %a : !quantum.reg, !quantum.bit
    %r2 = quantum.insert %r1[ 1], %ac : !quantum.reg, !quantum.bit
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r3 = scf.for %i = %c0 to %c3 step %c1 iter_args(%ra = %r2) -> (!quantum.reg) {
      %rb = quantum.operator "Template"(%t: f64) quregs(%ra) indices(%w: tensor<2xi64>)
          ctrls(%ci: tensor<1xi64>) ctrl_vals(%cv: tensor<1xi1>)
      scf.yield %rb : !quantum.reg
    }
    return %r3 : !quantum.reg
  }
}
