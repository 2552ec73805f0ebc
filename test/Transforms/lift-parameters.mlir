// RUN: qshape-opt %s --split-input-file --qshape-lift-parameters | FileCheck %s
// RUN: qshape-opt %s --split-input-file --qshape-lift-parameters=abstract-values | FileCheck %s --check-prefix=ABS
// Lifting twice changes nothing (the table exists, nothing is left to lift).
// RUN: qshape-opt %s --split-input-file --qshape-lift-parameters > %t.once.mlir
// RUN: qshape-opt %t.once.mlir --split-input-file --qshape-lift-parameters > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// Two programs of one topology with other angles: one lifted module.
// RUN: sed -e 's/0.3 : f64/0.7 : f64/' -e 's/1.1 : f64/-0.4 : f64/' -e 's/0.5, -0.25/1.5, 0.125/' %s > %t.other.mlir
// RUN: not diff -q %s %t.other.mlir
// RUN: qshape-opt %s --split-input-file --qshape-canonicalize --qshape-lift-parameters=abstract-values > %t.a.mlir
// RUN: qshape-opt %t.other.mlir --split-input-file --qshape-canonicalize --qshape-lift-parameters=abstract-values > %t.b.mlir
// RUN: diff %t.a.mlir %t.b.mlir

// Scalars in order of first use (0.3 is read twice: one slot), then the
// Hamiltonian's coefficients as consecutive slots.
// CHECK-LABEL: module @angles
// CHECK: memref.global @__qshape_params : memref<4xf64> = dense<[3.000000e-01, 1.100000e+00, 5.000000e-01, -2.500000e-01]> {alignment = 8 : i64}
// CHECK: func.func public @circuit()
// CHECK-NEXT: %[[M:.*]] = memref.get_global @__qshape_params : memref<4xf64>
// CHECK-NEXT: %[[T:.*]] = bufferization.to_tensor %[[M]] restrict : memref<4xf64> to tensor<4xf64>
// CHECK-NOT: arith.constant {{.*}} : f64
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[A:.*]] = tensor.extract %[[T]][%[[C0]]] : tensor<4xf64>
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[B:.*]] = tensor.extract %[[T]][%[[C1]]] : tensor<4xf64>
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[E2:.*]] = tensor.extract %[[T]][%[[C2]]] : tensor<4xf64>
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[E3:.*]] = tensor.extract %[[T]][%[[C3]]] : tensor<4xf64>
// CHECK-NEXT: %[[H:.*]] = tensor.from_elements %[[E2]], %[[E3]] : tensor<2xf64>
// CHECK-NOT: arith.constant dense
// CHECK: quantum.custom "RX"(%[[A]])
// CHECK: quantum.custom "RY"(%[[B]])
// CHECK: quantum.custom "RZ"(%[[A]])
// CHECK: quantum.hamiltonian(%[[H]] : tensor<2xf64>)
// ABS-LABEL: module @angles
// ABS: memref.global @__qshape_params : memref<4xf64> = dense<0x7FF8000000000000> {alignment = 8 : i64}
module @angles {
  func.func public @circuit() -> (f64, f64) attributes {qnode} {
    %c0_i64 = arith.constant 0 : i64
    quantum.device shots(%c0_i64) ["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{}"]
    %a = arith.constant 0.3 : f64
    %b = arith.constant 1.1 : f64
    %coeffs = arith.constant dense<[0.5, -0.25]> : tensor<2xf64>
    %r = quantum.alloc( 2) : !quantum.reg
    %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
    %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
    %q0a = quantum.custom "RX"(%a) %q0 : !quantum.bit
    %q1a = quantum.custom "RY"(%b) %q1 : !quantum.bit
    %q0b, %q1b = quantum.custom "CNOT"() %q0a, %q1a : !quantum.bit, !quantum.bit
    %q1c = quantum.custom "RZ"(%a) %q1b : !quantum.bit
    %z = quantum.namedobs %q0b[ PauliZ] : !quantum.obs
    %x = quantum.namedobs %q1c[ PauliX] : !quantum.obs
    %ham = quantum.hamiltonian(%coeffs : tensor<2xf64>) %z, %x : !quantum.obs
    %e = quantum.expval %ham : f64
    %ez = quantum.expval %z : f64
    quantum.dealloc %r : !quantum.reg
    quantum.device_release
    return %e, %ez : f64, f64
  }
}

// -----

// Not lifted: f32 and complex constants, functions of a nested module,
// declarations. Without f64 constants there is no table at all.
// CHECK-LABEL: module @untouched
// CHECK-NOT: memref.global
// CHECK: arith.constant 2.500000e-01 : f32
// CHECK: arith.constant dense<(1.000000e+00,0.000000e+00)> : tensor<1xcomplex<f64>>
// CHECK: module @inner
// CHECK: arith.constant 7.500000e-01 : f64
module @untouched {
  func.func private @decl(f64)
  func.func @f() -> (f32, tensor<1xcomplex<f64>>) {
    %s = arith.constant 0.25 : f32
    %c = arith.constant dense<(1.0, 0.0)> : tensor<1xcomplex<f64>>
    return %s, %c : f32, tensor<1xcomplex<f64>>
  }
  module @inner {
    func.func @g() -> f64 {
      %x = arith.constant 0.75 : f64
      return %x : f64
    }
  }
}

// -----

// A constant used only in a nested region gets its slot where it is first
// used; the table's view is at the top of the function, so it dominates.
// CHECK-LABEL: module @nested
// CHECK: memref.global @__qshape_params : memref<2xf64> = dense<[2.000000e+00, 5.000000e-01]>
// CHECK: func.func @loop
// CHECK-NEXT: memref.get_global
// CHECK-NEXT: %[[T:.*]] = bufferization.to_tensor
// CHECK: %[[HALF:.*]] = tensor.extract %[[T]][%{{.*}}]
// CHECK: %[[TWO:.*]] = tensor.extract %[[T]][%{{.*}}]
// CHECK: scf.for
// CHECK-NEXT: arith.mulf %{{.*}}, %[[TWO]]
// CHECK-NEXT: arith.mulf %{{.*}}, %[[HALF]]
module @nested {
  func.func @loop(%n: index, %x: f64) -> f64 {
    %half = arith.constant 0.5 : f64
    %two = arith.constant 2.0 : f64
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %y = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> f64 {
      %m = arith.mulf %acc, %two : f64
      %s = arith.mulf %m, %half : f64
      scf.yield %s : f64
    }
    return %y : f64
  }
}
