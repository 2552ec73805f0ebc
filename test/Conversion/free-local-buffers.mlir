// RUN: qshape-opt %s --split-input-file --qshape-free-local-buffers | FileCheck %s

// A table read in a loop and by a gate is freed after the loop, its last
// user in the block.
// CHECK-LABEL: func.func @table(
// CHECK: %[[T:.*]] = memref.alloc() : memref<3xf64>
// CHECK: %[[V:.*]] = memref.subview %[[T]]
// CHECK: scf.for
// CHECK: memref.load %[[V]]
// CHECK: quantum.custom "RX"
// CHECK: }
// CHECK-NEXT: memref.dealloc %[[T]] : memref<3xf64>
// CHECK-NEXT: %[[O:.*]] = quantum.custom "RY"
// CHECK: return
func.func @table(%x: f64, %q: !quantum.bit, %n: index, %h: memref<2x2xcomplex<f64>>) -> !quantum.bit {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.alloc() : memref<3xf64>
  memref.store %x, %t[%c0] : memref<3xf64>
  %v = memref.subview %t[1] [2] [1] : memref<3xf64> to memref<2xf64, strided<[1], offset: 1>>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %q) -> (!quantum.bit) {
    %y = memref.load %v[%i] : memref<2xf64, strided<[1], offset: 1>>
    %b = quantum.custom "RX"(%y) %a : !quantum.bit
    scf.yield %b : !quantum.bit
  }
  %o = quantum.custom "RY"(%x) %r : !quantum.bit
  return %o : !quantum.bit
}

// -----

// A buffer a quantum op fills is freed once the values are read back.
// CHECK-LABEL: func.func @probs(
// CHECK: %[[P:.*]] = memref.alloc() : memref<2xf64>
// CHECK-NEXT: quantum.probs %{{.*}} in(%[[P]] : memref<2xf64>)
// CHECK-NEXT: %[[X:.*]] = memref.load %[[P]]
// CHECK-NEXT: memref.dealloc %[[P]]
func.func @probs(%q: !quantum.bit) -> f64 {
  %c0 = arith.constant 0 : index
  %o = quantum.compbasis qubits %q : !quantum.obs
  %p = memref.alloc() : memref<2xf64>
  quantum.probs %o in(%p : memref<2xf64>)
  %x = memref.load %p[%c0] : memref<2xf64>
  return %x : f64
}

// -----

// Buffers that may leave the function or their block are kept: returned,
// returned through a view, passed to an external function, carried by a loop, freed
// already.
// CHECK-LABEL: func.func @escapes(
// CHECK-NOT: memref.dealloc
// CHECK: scf.yield
// CHECK-NOT: memref.dealloc
// CHECK: %[[D:.*]] = memref.alloc() : memref<4xf64>
// CHECK-NEXT: memref.dealloc %[[D]] : memref<4xf64>
// CHECK-NEXT: return
func.func private @sink(memref<4xf64>)
func.func @escapes(%n: index) -> (memref<4xf64>, memref<2xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.alloc() : memref<4xf64>
  %s = memref.alloc() : memref<4xf64>
  %w = memref.subview %s[0] [2] [1] : memref<4xf64> to memref<2xf64>
  %c = memref.alloc() : memref<4xf64>
  func.call @sink(%c) : (memref<4xf64>) -> ()
  %l = memref.alloc() : memref<4xf64>
  %m = scf.for %i = %c0 to %n step %c1 iter_args(%b = %l) -> (memref<4xf64>) {
    scf.yield %b : memref<4xf64>
  }
  %d = memref.alloc() : memref<4xf64>
  memref.dealloc %d : memref<4xf64>
  return %r, %w : memref<4xf64>, memref<2xf64>
}

// -----

// A buffer passed to a function of the module that only reads it is freed
// after the call; one the callee returns, hands to an external function or
// to itself (recursion, undecided) is kept.
// CHECK-LABEL: func.func @calls(
// CHECK: %[[R:.*]] = memref.alloc() : memref<2xf64>
// CHECK-NEXT: %[[X:.*]] = call @reads(%[[R]])
// CHECK-NEXT: memref.dealloc %[[R]] : memref<2xf64>
// CHECK-NEXT: %[[K:.*]] = memref.alloc() : memref<2xf64>
// CHECK-NEXT: call @keeps(%[[K]])
// CHECK-NEXT: %[[P:.*]] = memref.alloc() : memref<2xf64>
// CHECK-NEXT: call @passes(%[[P]])
// CHECK-NEXT: %[[S:.*]] = memref.alloc() : memref<2xf64>
// CHECK-NEXT: call @self(%[[S]])
// CHECK-NEXT: return
func.func private @external(memref<2xf64>)
func.func private @reads(%b: memref<2xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %v = memref.subview %b[1] [1] [1] : memref<2xf64> to memref<1xf64, strided<[1], offset: 1>>
  %x = memref.load %v[%c0] : memref<1xf64, strided<[1], offset: 1>>
  return %x : f64
}
func.func private @keeps(%b: memref<2xf64>) -> memref<2xf64> {
  return %b : memref<2xf64>
}
func.func private @passes(%b: memref<2xf64>) {
  func.call @external(%b) : (memref<2xf64>) -> ()
  return
}
func.func private @self(%b: memref<2xf64>) {
  func.call @self(%b) : (memref<2xf64>) -> ()
  return
}
func.func @calls() -> f64 {
  %r = memref.alloc() : memref<2xf64>
  %x = func.call @reads(%r) : (memref<2xf64>) -> f64
  %k = memref.alloc() : memref<2xf64>
  %kk = func.call @keeps(%k) : (memref<2xf64>) -> memref<2xf64>
  %p = memref.alloc() : memref<2xf64>
  func.call @passes(%p) : (memref<2xf64>) -> ()
  %s = memref.alloc() : memref<2xf64>
  func.call @self(%s) : (memref<2xf64>) -> ()
  return %x : f64
}
