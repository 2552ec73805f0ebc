// Runtime control, devices, registers and qubits.
// RUN: qshape-opt %s --split-input-file --convert-arith-to-llvm --qshape-convert-quantum-to-llvm --reconcile-unrealized-casts | FileCheck %s

// CHECK-DAG: llvm.func @__catalyst__rt__initialize(!llvm.ptr)
// CHECK-DAG: llvm.func @__catalyst__rt__finalize()
// CHECK-DAG: llvm.mlir.global internal constant @[[SEED:__qshape_seed\.42]](42 : i32) {addr_space = 0 : i32} : i32
// CHECK-LABEL: llvm.func @setup()
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.call @__catalyst__rt__initialize(%[[NULL]]) : (!llvm.ptr) -> ()
// CHECK-LABEL: llvm.func @seeded()
// CHECK: %[[S:.*]] = llvm.mlir.addressof @[[SEED]] : !llvm.ptr
// CHECK: llvm.call @__catalyst__rt__initialize(%[[S]]) : (!llvm.ptr) -> ()
// CHECK-LABEL: llvm.func @teardown()
// CHECK: llvm.call @__catalyst__rt__finalize() : () -> ()
func.func @setup() {
  quantum.init
  return
}
func.func @seeded() {
  quantum.init {seed = 42 : i64}
  return
}
func.func @teardown() {
  quantum.finalize
  return
}

// -----

// Device strings are NUL-terminated internal globals, shared when equal.
// CHECK-DAG: llvm.func @__catalyst__rt__device_init(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i1)
// CHECK-DAG: llvm.func @__catalyst__rt__device_release()
// CHECK-DAG: llvm.func @__catalyst__rt__num_qubits() -> i64
// CHECK-DAG: llvm.mlir.global internal constant @[[LIB:__qshape_str\.[0-9]+]]("lib.so\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[NAME:__qshape_str\.[0-9]+]]("LightningSimulator\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[KW:__qshape_str\.[0-9]+]]("{'mcmc': False}\00")
// CHECK-NOT: llvm.mlir.global
// CHECK-LABEL: llvm.func @device(
// CHECK-SAME: %[[SHOTS:.*]]: i64)
func.func @device(%shots: i64) -> i64 {
  // CHECK: %[[L:.*]] = llvm.mlir.addressof @[[LIB]]
  // CHECK: %[[N:.*]] = llvm.mlir.addressof @[[NAME]]
  // CHECK: %[[K:.*]] = llvm.mlir.addressof @[[KW]]
  // CHECK: %[[AUTO:.*]] = llvm.mlir.constant(false) : i1
  // CHECK: llvm.call @__catalyst__rt__device_init(%[[L]], %[[N]], %[[K]], %[[SHOTS]], %[[AUTO]]) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i1) -> ()
  quantum.device shots(%shots) ["lib.so", "LightningSimulator", "{'mcmc': False}"]
  // CHECK: llvm.call @__catalyst__rt__device_release() : () -> ()
  quantum.device_release
  // Without shots: 0; auto_qubit_management: true.
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
  // CHECK: %[[AUTO2:.*]] = llvm.mlir.constant(true) : i1
  // CHECK: llvm.call @__catalyst__rt__device_init(%{{.*}}, %{{.*}}, %{{.*}}, %[[ZERO]], %[[AUTO2]])
  quantum.device ["lib.so", "LightningSimulator", "{'mcmc': False}"] {auto_qubit_management}
  // CHECK: %[[NQ:.*]] = llvm.call @__catalyst__rt__num_qubits() : () -> i64
  %n = quantum.num_qubits : i64
  // CHECK: llvm.return %[[NQ]] : i64
  return %n : i64
}

// -----

// CHECK-DAG: llvm.func @__catalyst__rt__qubit_allocate_array(i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @__catalyst__rt__qubit_release_array(!llvm.ptr)
// CHECK-DAG: llvm.func @__catalyst__rt__qubit_allocate() -> !llvm.ptr
// CHECK-DAG: llvm.func @__catalyst__rt__qubit_release(!llvm.ptr)
// CHECK-DAG: llvm.func @__catalyst__rt__array_get_element_ptr_1d(!llvm.ptr, i64) -> !llvm.ptr
// CHECK-LABEL: llvm.func @registers(
// CHECK-SAME: %[[N:.*]]: i64, %[[I:.*]]: i64)
func.func @registers(%n: i64, %i: i64) {
  // CHECK: %[[FIVE:.*]] = llvm.mlir.constant(5 : i64) : i64
  // CHECK: %[[R:.*]] = llvm.call @__catalyst__rt__qubit_allocate_array(%[[FIVE]]) : (i64) -> !llvm.ptr
  %r = quantum.alloc( 5) : !quantum.reg
  // CHECK: %[[R2:.*]] = llvm.call @__catalyst__rt__qubit_allocate_array(%[[N]]) : (i64) -> !llvm.ptr
  %r2 = quantum.alloc(%n) : !quantum.reg
  // extract: the runtime returns the slot's address, the qubit is loaded from it.
  // CHECK: %[[THREE:.*]] = llvm.mlir.constant(3 : i64) : i64
  // CHECK: %[[SLOT:.*]] = llvm.call @__catalyst__rt__array_get_element_ptr_1d(%[[R]], %[[THREE]]) : (!llvm.ptr, i64) -> !llvm.ptr
  // CHECK: %[[Q:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
  %q = quantum.extract %r[ 3] : !quantum.reg -> !quantum.bit
  // CHECK: %[[SLOT2:.*]] = llvm.call @__catalyst__rt__array_get_element_ptr_1d(%[[R2]], %[[I]])
  // CHECK: llvm.load %[[SLOT2]] : !llvm.ptr -> !llvm.ptr
  %q2 = quantum.extract %r2[%i] : !quantum.reg -> !quantum.bit
  // insert lowers to nothing: the register handle is the same.
  %r3 = quantum.insert %r[ 3], %q : !quantum.reg, !quantum.bit
  %r4 = quantum.insert %r2[%i], %q2 : !quantum.reg, !quantum.bit
  // CHECK: llvm.call @__catalyst__rt__qubit_release_array(%[[R]]) : (!llvm.ptr) -> ()
  // CHECK: llvm.call @__catalyst__rt__qubit_release_array(%[[R2]]) : (!llvm.ptr) -> ()
  quantum.dealloc %r3 : !quantum.reg
  quantum.dealloc %r4 : !quantum.reg
  // CHECK: %[[B:.*]] = llvm.call @__catalyst__rt__qubit_allocate() : () -> !llvm.ptr
  // CHECK: llvm.call @__catalyst__rt__qubit_release(%[[B]]) : (!llvm.ptr) -> ()
  %b = quantum.alloc_qb : !quantum.bit
  quantum.dealloc_qb %b : !quantum.bit
  return
}

// -----

// Registers cross function signatures, calls and block arguments (after
// scf-to-cf): the func and cf patterns run with the quantum types.
// CHECK-LABEL: llvm.func @loop(
// CHECK-SAME: %[[R:.*]]: !llvm.ptr, %{{.*}}: i1) -> !llvm.ptr
// CHECK: llvm.cond_br %{{.*}}, ^[[BB:.*]](%[[R]] : !llvm.ptr), ^{{.*}}(%[[R]] : !llvm.ptr)
// CHECK: ^[[BB]](%[[ARG:.*]]: !llvm.ptr):
// CHECK: llvm.call @__catalyst__qis__Hadamard
// CHECK: llvm.call @loop(%[[ARG]], %{{.*}}) : (!llvm.ptr, i1) -> !llvm.ptr
func.func @loop(%r: !quantum.reg, %c: i1) -> !quantum.reg {
  cf.cond_br %c, ^body(%r : !quantum.reg), ^exit(%r : !quantum.reg)
^body(%x: !quantum.reg):
  %q = quantum.extract %x[ 0] : !quantum.reg -> !quantum.bit
  %h = quantum.custom "Hadamard"() %q : !quantum.bit
  %y = quantum.insert %x[ 0], %h : !quantum.reg, !quantum.bit
  %z = func.call @loop(%y, %c) : (!quantum.reg, i1) -> !quantum.reg
  cf.br ^exit(%z : !quantum.reg)
^exit(%e: !quantum.reg):
  return %e : !quantum.reg
}
