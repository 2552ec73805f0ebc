// qshape's two plugins in the installed upstream mlir-opt: the dialect plugin
// gives it the `quantum` dialect (pretty form parses and prints as Catalyst
// prints it) and the pass plugin gives it qshape-stats.
//
// RUN: %upstream_mlir_opt --load-dialect-plugin=%dialect_plugin --load-pass-plugin=%pass_plugin \
// RUN:   --pass-pipeline='builtin.module(qshape-stats{output=-})' %s -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=JSON
// RUN: %upstream_mlir_opt --load-dialect-plugin=%dialect_plugin --load-pass-plugin=%pass_plugin \
// RUN:   --pass-pipeline='builtin.module(qshape-stats{emit-remark})' %s -verify-diagnostics -o /dev/null
// RUN: %upstream_mlir_opt --load-dialect-plugin=%dialect_plugin --load-pass-plugin=%pass_plugin \
// RUN:   --pass-pipeline='builtin.module(qshape-stats)' %s | FileCheck %s --check-prefix=IR
//
// The dialect plugin also works alone, and its ops verify in the host.
// RUN: %upstream_mlir_opt --load-dialect-plugin=%dialect_plugin %s | FileCheck %s --check-prefix=IR
// RUN: not %upstream_mlir_opt --load-dialect-plugin=%dialect_plugin %S/Inputs/invalid-gate.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=VERIFY
// VERIFY: invalid-gate.mlir:4:{{[0-9]+}}: error: number of controlling qubits in input (1) and controlling values (0) must be the same

// JSON:      {
// JSON-NEXT:   "gates": 4,
// JSON-NEXT:   "gates_by_name": {
// JSON-NEXT:     "Hadamard": {
// JSON-NEXT:       "adjoint": 0,
// JSON-NEXT:       "controlled": 0,
// JSON-NEXT:       "count": 1,
// JSON-NEXT:       "static": 1
// JSON-NEXT:     },
// JSON-NEXT:     "PauliRot": {
// JSON-NEXT:       "adjoint": 0,
// JSON-NEXT:       "controlled": 0,
// JSON-NEXT:       "count": 1,
// JSON-NEXT:       "static": 3
// JSON-NEXT:     },
// JSON-NEXT:     "RX": {
// JSON-NEXT:       "adjoint": 1,
// JSON-NEXT:       "controlled": 1,
// JSON-NEXT:       "count": 1,
// JSON-NEXT:       "static": 1
// JSON-NEXT:     },
// JSON-NEXT:     "RZ": {
// JSON-NEXT:       "adjoint": 0,
// JSON-NEXT:       "controlled": 0,
// JSON-NEXT:       "count": 1,
// JSON-NEXT:       "static": 3
// JSON-NEXT:     }
// JSON-NEXT:   },
// JSON-NEXT:   "loops": 1,
// JSON-NEXT:   "max_loop_depth": 1,
// JSON-NEXT:   "ops": 26,
// JSON-NEXT:   "quantum_ops": 17,
// JSON-NEXT:   "qubits": 2,
// JSON-NEXT:   "static_gates": 8,
// JSON-NEXT:   "static_gates_exact": true
// JSON-NEXT: }

// IR:      quantum.device ["lib.so", "LightningSimulator", "{}"]
// IR-NEXT: quantum.alloc( 2) : !quantum.reg
// IR-NEXT: quantum.extract %{{.*}}[ 0] : !quantum.reg -> !quantum.bit
// IR-NEXT: quantum.extract %{{.*}}[ 1] : !quantum.reg -> !quantum.bit
// IR-NEXT: quantum.custom "Hadamard"() %{{.*}} : !quantum.bit
// IR-NEXT: arith.constant true
// IR-NEXT: quantum.custom "RX"(%arg0) %{{.*}} adj ctrls(%{{.*}}) ctrlvals(%{{.*}}) : !quantum.bit ctrls !quantum.bit
// IR:      quantum.extract %{{.*}}[%{{.*}}] : !quantum.reg -> !quantum.bit
// IR-NEXT: quantum.custom "RZ"(%arg0) %{{.*}} : !quantum.bit
// IR-NEXT: quantum.paulirot ["X"](%arg0) %{{.*}} : !quantum.bit
// IR:      quantum.namedobs %{{.*}}[ PauliZ] : !quantum.obs

// expected-remark @+1 {{qshape-stats: 26 ops, 17 quantum ops, 4 gates (8 static), 2 qubits, 1 loops (depth 1)}}
module {
  func.func @circuit(%t: f64) -> f64 {
    quantum.device ["lib.so", "LightningSimulator", "{}"]
    %r = quantum.alloc( 2) : !quantum.reg
    %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
    %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
    %h = quantum.custom "Hadamard"() %q0 : !quantum.bit
    %true = arith.constant true
    %o, %c = quantum.custom "RX"(%t) %h adj ctrls(%q1) ctrlvals(%true) : !quantum.bit ctrls !quantum.bit
    %r1 = quantum.insert %r[ 0], %o : !quantum.reg, !quantum.bit
    %r2 = quantum.insert %r1[ 1], %c : !quantum.reg, !quantum.bit
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %r3 = scf.for %i = %c0 to %c3 step %c1 iter_args(%ra = %r2) -> (!quantum.reg) {
      %i64 = arith.index_cast %i : index to i64
      %q = quantum.extract %ra[%i64] : !quantum.reg -> !quantum.bit
      %z = quantum.custom "RZ"(%t) %q : !quantum.bit
      %p = quantum.paulirot ["X"](%t) %z : !quantum.bit
      %rb = quantum.insert %ra[%i64], %p : !quantum.reg, !quantum.bit
      scf.yield %rb : !quantum.reg
    }
    %q2 = quantum.extract %r3[ 0] : !quantum.reg -> !quantum.bit
    %obs = quantum.namedobs %q2[ PauliZ] : !quantum.obs
    %e = quantum.expval %obs : f64
    quantum.dealloc %r3 : !quantum.reg
    quantum.device_release
    return %e : f64
  }
}
