// The dialect plugin gives upstream mlir-opt the `qref` dialect next to
// `quantum` (its observables are `!quantum.obs`): the pretty form parses and
// prints back as Catalyst prints it, and the ops verify in the host.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: %upstream_mlir_opt --load-dialect-plugin=%dialect_plugin %t/bell.mlir \
// RUN:   | %upstream_mlir_opt --load-dialect-plugin=%dialect_plugin | FileCheck %s
// RUN: %upstream_mlir_opt --load-dialect-plugin=%dialect_plugin %t/bell.mlir --mlir-print-op-generic \
// RUN:   | %upstream_mlir_opt --load-dialect-plugin=%dialect_plugin | FileCheck %s
// RUN: not %upstream_mlir_opt --load-dialect-plugin=%dialect_plugin %t/invalid.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=VERIFY
// VERIFY: invalid.mlir:2:{{[0-9]+}}: error: all qubits on a quantum gate must be distinct (including controls)
//
// The pass plugin registers no `qref` dialect, as it registers no `quantum`:
// Catalyst, which loads it with --load-dialect-plugin too, has its own.
// RUN: not %upstream_mlir_opt --load-pass-plugin=%pass_plugin --load-dialect-plugin=%pass_plugin \
// RUN:   %t/invalid.mlir 2>&1 | FileCheck %s --check-prefix=NODIALECT
// NODIALECT: invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: {{.*}}qref{{.*}}unregistered dialect

// CHECK-LABEL: func.func @bell
// CHECK-NEXT:    %[[R:.*]] = qref.alloc( 2) : !qref.reg<2>
// CHECK-NEXT:    %[[Q0:.*]] = qref.get %[[R]][ 0] : !qref.reg<2> -> !qref.bit
// CHECK-NEXT:    %[[Q1:.*]] = qref.get %[[R]][ 1] : !qref.reg<2> -> !qref.bit
// CHECK-NEXT:    qref.custom "Hadamard"() %[[Q0]] : !qref.bit
// CHECK-NEXT:    qref.custom "CNOT"() %[[Q0]], %[[Q1]] : !qref.bit, !qref.bit
// CHECK-NEXT:    %[[OBS:.*]] = qref.namedobs %[[Q1]][ PauliZ] : !quantum.obs
// CHECK-NEXT:    %[[E:.*]] = quantum.expval %[[OBS]] : f64
// CHECK-NEXT:    qref.dealloc %[[R]] : !qref.reg<2>
// CHECK-NEXT:    return %[[E]] : f64

//--- bell.mlir
func.func @bell() -> f64 {
  %r = qref.alloc( 2) : !qref.reg<2>
  %q0 = qref.get %r[0] : !qref.reg<2> -> !qref.bit
  %q1 = qref.get %r[1] : !qref.reg<2> -> !qref.bit
  qref.custom "Hadamard"() %q0 : !qref.bit
  qref.custom "CNOT"() %q0, %q1 : !qref.bit, !qref.bit
  %obs = qref.namedobs %q1 [ PauliZ] : !quantum.obs
  %e = quantum.expval %obs : f64
  qref.dealloc %r : !qref.reg<2>
  return %e : f64
}

//--- invalid.mlir
func.func @twice(%q: !qref.bit) {
  qref.custom "CNOT"() %q, %q : !qref.bit, !qref.bit
  return
}
