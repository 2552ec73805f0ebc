// Tensor arguments that are only read get one read-only buffer at the
// function's entry, and their tensor.extracts become loads of it, so
// one-shot bufferization analyses one use instead of N.
// RUN: qshape-opt %s --split-input-file --qshape-lower-argument-reads | FileCheck %s
// On through one-shot bufferization as qshape-lower-to-llvm runs it
// (qshape-bufferize-quantum registers the upstream dialects' bufferization
// models): the bridge folds into the argument's buffer, which is not copied.
// RUN: qshape-opt %s --split-input-file --qshape-bufferize-quantum --qshape-lower-argument-reads \
// RUN:   --one-shot-bufferize='bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map' \
// RUN:   | FileCheck %s --check-prefix=BUF
// In upstream mlir-opt, through the pass plugin:
// RUN: %upstream_mlir_opt %s --load-pass-plugin=%pass_plugin --split-input-file --pass-pipeline='builtin.module(qshape-lower-argument-reads)' | FileCheck %s

// Every read, in loops too, goes through the one buffer.
// CHECK-LABEL: func.func @reads(
// CHECK-SAME: %[[W:[^:]*]]: tensor<2x3xf64>, %[[X:[^:]*]]: f64, %[[S:[^:]*]]: tensor<f64>
// CHECK-NEXT: %[[WB:.*]] = bufferization.to_buffer %[[W]] read_only : tensor<2x3xf64> to memref<2x3xf64>
// CHECK-NEXT: %[[SB:.*]] = bufferization.to_buffer %[[S]] read_only : tensor<f64> to memref<f64>
// CHECK-NOT: bufferization.to_buffer
// CHECK: memref.load %[[WB]][%{{.*}}, %{{.*}}] : memref<2x3xf64>
// CHECK: memref.load %[[WB]][%{{.*}}, %{{.*}}] : memref<2x3xf64>
// CHECK: scf.for %[[I:[^ ]*]] =
// CHECK: memref.load %[[WB]][%[[I]], %{{.*}}] : memref<2x3xf64>
// CHECK: memref.load %[[SB]][] : memref<f64>
// CHECK-NOT: tensor.extract
// BUF-LABEL: func.func @reads(
// BUF-SAME: %[[W:[^:]*]]: memref<2x3xf64>
// BUF-NOT: memref.alloc
// BUF-NOT: memref.copy
// BUF: memref.load %[[W]][
func.func @reads(%w: tensor<2x3xf64>, %x: f64, %s: tensor<f64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = tensor.extract %w[%c0, %c1] : tensor<2x3xf64>
  %b = tensor.extract %w[%c1, %c2] : tensor<2x3xf64>
  %ab = arith.addf %a, %b : f64
  %sum = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %ab) -> (f64) {
    %e = tensor.extract %w[%i, %c0] : tensor<2x3xf64>
    %n = arith.addf %acc, %e : f64
    scf.yield %n : f64
  }
  %t = tensor.extract %s[] : tensor<f64>
  %r = arith.addf %sum, %t : f64
  %rx = arith.addf %r, %x : f64
  return %rx : f64
}

// -----

// A read-only buffer that qshape-bufferize-quantum made for a quantum op
// does not stop the rewrite: it cannot write the argument either.
// CHECK-LABEL: func.func @with_buffer(
// CHECK: %[[WB:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<4xf64> to memref<4xf64>
// CHECK: bufferization.to_buffer %{{.*}} read_only
// CHECK: memref.load %[[WB]][
// CHECK-NOT: tensor.extract
func.func @with_buffer(%w: tensor<4xf64>) -> (memref<4xf64>, f64) {
  %c0 = arith.constant 0 : index
  %m = bufferization.to_buffer %w read_only : tensor<4xf64> to memref<4xf64>
  %a = tensor.extract %w[%c0] : tensor<4xf64>
  return %m, %a : memref<4xf64>, f64
}

// -----

// An argument with a use that may write it in place keeps its tensor
// reads: a load after that write would read the new value.
// CHECK-LABEL: func.func @written(
// CHECK-NOT: bufferization.to_buffer
// CHECK: tensor.extract
// CHECK: tensor.insert
// CHECK: tensor.extract
// BUF-LABEL: func.func @written(
// BUF: memref.alloc
// BUF: memref.copy
func.func @written(%w: tensor<2xf64>, %v: f64) -> (tensor<2xf64>, f64, f64) {
  %c0 = arith.constant 0 : index
  %a = tensor.extract %w[%c0] : tensor<2xf64>
  %w1 = tensor.insert %v into %w[%c0] : tensor<2xf64>
  %b = tensor.extract %w[%c0] : tensor<2xf64>
  return %w1, %a, %b : tensor<2xf64>, f64, f64
}

// -----

// So does an argument that is returned, or that a buffer is made of
// without read_only.
// CHECK-LABEL: func.func @escapes(
// CHECK-NOT: memref.load
// CHECK: tensor.extract %{{.*}}[%{{.*}}] : tensor<2xf64>
// CHECK-NOT: memref.load
// CHECK: tensor.extract %{{.*}}[%{{.*}}] : tensor<3xf64>
// CHECK-LABEL: func.func private @declared(
func.func @escapes(%w: tensor<2xf64>, %u: tensor<3xf64>) -> (tensor<2xf64>, memref<3xf64>, f64, f64) {
  %c0 = arith.constant 0 : index
  %a = tensor.extract %w[%c0] : tensor<2xf64>
  %b = tensor.extract %u[%c0] : tensor<3xf64>
  %m = bufferization.to_buffer %u : tensor<3xf64> to memref<3xf64>
  return %w, %m, %a, %b : tensor<2xf64>, memref<3xf64>, f64, f64
}
func.func private @declared(%w: tensor<2xf64>) -> f64
