// The quantum ops with tensor operands or results get their memref forms,
// through the bridge ops one-shot bufferization folds away.
// RUN: qshape-opt %s --split-input-file --qshape-bufferize-quantum | FileCheck %s
// And on through one-shot bufferization: no tensor is left for the quantum ops.
// RUN: qshape-opt %s --split-input-file --qshape-bufferize-quantum \
// RUN:   --one-shot-bufferize='bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map' \
// RUN:   | FileCheck %s --check-prefix=BUF
// Generic form, dialect not loaded:
// RUN: qshape-opt %s --split-input-file --mlir-print-op-generic | %upstream_mlir_opt --allow-unregistered-dialect --load-pass-plugin=%pass_plugin --split-input-file --pass-pipeline='builtin.module(qshape-bufferize-quantum)' | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @operands(
// CHECK-SAME: %[[M:[^:]*]]: tensor<2x2xcomplex<f64>>, %[[C:[^:]*]]: tensor<2xf64>, %[[S:[^:]*]]: tensor<2xcomplex<f64>>, %[[B:[^:]*]]: tensor<1xi1>
// CHECK: %[[MB:.*]] = bufferization.to_buffer %[[M]] read_only : tensor<2x2xcomplex<f64>> to memref<2x2xcomplex<f64>>
// CHECK-NEXT: quantum.unitary(%[[MB]] : memref<2x2xcomplex<f64>>)
// CHECK: %[[SB:.*]] = bufferization.to_buffer %[[S]] read_only : tensor<2xcomplex<f64>> to memref<2xcomplex<f64>>
// CHECK-NEXT: quantum.set_state(%[[SB]])
// CHECK: %[[BB:.*]] = bufferization.to_buffer %[[B]] read_only : tensor<1xi1> to memref<1xi1>
// CHECK-NEXT: quantum.set_basis_state(%[[BB]])
// CHECK: %[[HB:.*]] = bufferization.to_buffer %[[M]] read_only
// CHECK-NEXT: quantum.hermitian(%[[HB]] : memref<2x2xcomplex<f64>>)
// CHECK: %[[CB:.*]] = bufferization.to_buffer %[[C]] read_only : tensor<2xf64> to memref<2xf64>
// CHECK-NEXT: quantum.hamiltonian(%[[CB]] : memref<2xf64>)
// BUF-LABEL: func.func @operands(
// BUF-SAME: %[[M:[^:]*]]: memref<2x2xcomplex<f64>>
// BUF: quantum.unitary(%[[M]] : memref<2x2xcomplex<f64>>)
// BUF-NOT: tensor
// GENERIC-LABEL: func.func @operands(
// GENERIC: bufferization.to_buffer
// GENERIC-NEXT: "quantum.unitary"(%{{.*}}, %{{.*}}) {{.*}} : (memref<2x2xcomplex<f64>>, !quantum.bit) -> !quantum.bit
func.func @operands(%m: tensor<2x2xcomplex<f64>>, %c: tensor<2xf64>, %s: tensor<2xcomplex<f64>>, %b: tensor<1xi1>, %q: !quantum.bit) -> f64 {
  %a = quantum.unitary(%m : tensor<2x2xcomplex<f64>>) %q : !quantum.bit
  %a2 = quantum.set_state(%s) %a : (tensor<2xcomplex<f64>>, !quantum.bit) -> !quantum.bit
  %a3 = quantum.set_basis_state(%b) %a2 : (tensor<1xi1>, !quantum.bit) -> !quantum.bit
  %h = quantum.hermitian(%m : tensor<2x2xcomplex<f64>>) %a3 : !quantum.obs
  %z = quantum.namedobs %a3[ PauliZ] : !quantum.obs
  %H = quantum.hamiltonian(%c : tensor<2xf64>) %h, %z : !quantum.obs
  %e = quantum.expval %H : f64
  return %e : f64
}

// -----

// CHECK-LABEL: func.func @results(
// CHECK-SAME: %[[Q:[^:]*]]: !quantum.bit, %[[N:[^:]*]]: i64
// CHECK: %[[OBS:.*]] = quantum.compbasis qubits %[[Q]]
// CHECK: %[[P:.*]] = memref.alloc() : memref<2xf64>
// CHECK-NEXT: quantum.probs %[[OBS]] in(%[[P]] : memref<2xf64>)
// CHECK-NEXT: %[[PT:.*]] = bufferization.to_tensor %[[P]] restrict writable : memref<2xf64> to tensor<2xf64>
// A dynamic size comes from the shape operand.
// CHECK: %[[DN:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK-NEXT: %[[D:.*]] = memref.alloc(%[[DN]]) : memref<?xcomplex<f64>>
// CHECK-NEXT: quantum.state %[[OBS]] in(%[[D]] : memref<?xcomplex<f64>>)
// CHECK: %[[SM:.*]] = memref.alloc() : memref<10x1xf64>
// CHECK-NEXT: quantum.sample %[[OBS]] in(%[[SM]] : memref<10x1xf64>)
// CHECK: %[[E:.*]] = memref.alloc() : memref<2xf64>
// CHECK-NEXT: %[[CN:.*]] = memref.alloc() : memref<2xi64>
// CHECK-NEXT: quantum.counts %[[OBS]] in(%[[E]] : memref<2xf64>, %[[CN]] : memref<2xi64>)
// CHECK-NEXT: %[[ET:.*]] = bufferization.to_tensor %[[E]] restrict writable
// CHECK-NEXT: %[[CT:.*]] = bufferization.to_tensor %[[CN]] restrict writable
// CHECK: return %[[PT]], %{{.*}}, %{{.*}}, %[[ET]], %[[CT]]
// BUF-LABEL: func.func @results(
// BUF: %[[P:.*]] = memref.alloc() {{.*}}: memref<2xf64>
// BUF-NEXT: quantum.probs %{{.*}} in(%[[P]] : memref<2xf64>)
// BUF: return %[[P]],
// GENERIC-LABEL: func.func @results(
// GENERIC: %[[P:.*]] = memref.alloc() : memref<2xf64>
// GENERIC-NEXT: "quantum.probs"(%{{.*}}, %[[P]]) {operandSegmentSizes = array<i32: 1, 0, 1>} : (!quantum.obs, memref<2xf64>) -> ()
func.func @results(%q: !quantum.bit, %n: i64) -> (tensor<2xf64>, tensor<?xcomplex<f64>>, tensor<10x1xf64>, tensor<2xf64>, tensor<2xi64>) {
  %o = quantum.compbasis qubits %q : !quantum.obs
  %p = quantum.probs %o : tensor<2xf64>
  %s = quantum.state %o shape %n : tensor<?xcomplex<f64>>
  %sm = quantum.sample %o : tensor<10x1xf64>
  %e, %c = quantum.counts %o : tensor<2xf64>, tensor<2xi64>
  return %p, %s, %sm, %e, %c : tensor<2xf64>, tensor<?xcomplex<f64>>, tensor<10x1xf64>, tensor<2xf64>, tensor<2xi64>
}

// -----

// Memref forms are left alone.
// CHECK-LABEL: func.func @already(
// CHECK-NOT: bufferization
// CHECK: quantum.probs %{{.*}} in(%{{.*}} : memref<2xf64>)
func.func @already(%q: !quantum.bit, %p: memref<2xf64>) {
  %o = quantum.compbasis qubits %q : !quantum.obs
  quantum.probs %o in(%p : memref<2xf64>)
  return
}
