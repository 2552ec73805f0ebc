// Gates lower to __catalyst__qis__<Gate>(params..., qubits..., Modifiers*)
// with RuntimeCAPI.h's signatures; variadic gates pass a count, then the
// qubits; modifiers are null without adjoint and controls, else a stack
// struct {i1 adjoint, i64 num_controlled, ptr wires, ptr values}.
// RUN: qshape-opt %s --finalize-memref-to-llvm --convert-arith-to-llvm --qshape-convert-quantum-to-llvm --reconcile-unrealized-casts | FileCheck %s

// The declarations, each once, with RuntimeCAPI.h's signatures.
// CHECK-DAG: llvm.func @__catalyst__qis__RX(f64, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @__catalyst__qis__Rot(f64, f64, f64, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @__catalyst__qis__S(!llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @__catalyst__qis__Hadamard(!llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @__catalyst__qis__CNOT(!llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @__catalyst__qis__CRot(f64, f64, f64, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @__catalyst__qis__Toffoli(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @__catalyst__qis__DoubleExcitation(f64, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @__catalyst__qis__Identity(!llvm.ptr, i64, ...)
// CHECK-DAG: llvm.func @__catalyst__qis__GlobalPhase(f64, !llvm.ptr)
// CHECK-DAG: llvm.func @__catalyst__qis__PauliRot(!llvm.ptr, f64, !llvm.ptr, i1, i64, ...)
// CHECK-DAG: llvm.func @__catalyst__qis__MultiRZ(f64, !llvm.ptr, i64, ...)
// CHECK-DAG: llvm.func @__catalyst__qis__PCPhase(f64, i64, !llvm.ptr, i64, ...)
// CHECK-DAG: llvm.func @__catalyst__qis__QubitUnitary(!llvm.ptr, !llvm.ptr, i64, ...)
// CHECK-DAG: llvm.mlir.global internal constant @[[XZ:__qshape_str\.[0-9]+]]("XZ\00")
// No SX: it has no runtime function.
// CHECK-NOT: __catalyst__qis__SX

// CHECK-LABEL: llvm.func @fixed(
// CHECK-SAME: %[[T:[^:]+]]: f64
func.func @fixed(%t: f64, %r: !quantum.reg) -> !quantum.reg {
  // CHECK: %[[SLOT:.*]] = llvm.call @__catalyst__rt__array_get_element_ptr_1d
  // CHECK: %[[Q0:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %q2 = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %q3 = quantum.extract %r[ 3] : !quantum.reg -> !quantum.bit
  // CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
  // CHECK: llvm.call @__catalyst__qis__RX(%[[T]], %[[Q0]], %[[NULL]]) : (f64, !llvm.ptr, !llvm.ptr) -> ()
  %a = quantum.custom "RX"(%t) %q0 : !quantum.bit
  // CHECK: llvm.call @__catalyst__qis__Rot(%[[T]], %[[T]], %[[T]], %[[Q0]], %{{.*}}) : (f64, f64, f64, !llvm.ptr, !llvm.ptr) -> ()
  %b = quantum.custom "Rot"(%t, %t, %t) %a : !quantum.bit
  // CHECK: llvm.call @__catalyst__qis__CNOT(%[[Q0]], %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  %c:2 = quantum.custom "CNOT"() %b, %q1 : !quantum.bit, !quantum.bit
  // CHECK: llvm.call @__catalyst__qis__CRot(%[[T]], %[[T]], %[[T]], %[[Q0]]
  %d:2 = quantum.custom "CRot"(%t, %t, %t) %c#0, %c#1 : !quantum.bit, !quantum.bit
  // CHECK: llvm.call @__catalyst__qis__Toffoli(%[[Q0]]
  %e:3 = quantum.custom "Toffoli"() %d#0, %d#1, %q2 : !quantum.bit, !quantum.bit, !quantum.bit
  // CHECK: llvm.call @__catalyst__qis__DoubleExcitation(%[[T]], %[[Q0]]
  %f:4 = quantum.custom "DoubleExcitation"(%t) %e#0, %e#1, %e#2, %q3 : !quantum.bit, !quantum.bit, !quantum.bit, !quantum.bit
  // Outputs are the input handles: the insert lowers to nothing.
  // CHECK-NOT: llvm.call
  // CHECK: llvm.return
  %r1 = quantum.insert %r[ 0], %f#0 : !quantum.reg, !quantum.bit
  %r2 = quantum.insert %r1[ 1], %f#1 : !quantum.reg, !quantum.bit
  %r3 = quantum.insert %r2[ 2], %f#2 : !quantum.reg, !quantum.bit
  %r4 = quantum.insert %r3[ 3], %f#3 : !quantum.reg, !quantum.bit
  return %r4 : !quantum.reg
}

// CHECK-LABEL: llvm.func @modifiers(
// CHECK-SAME: %[[Q:[^:]+]]: !llvm.ptr, %[[C0:[^:]+]]: !llvm.ptr, %[[C1:[^:]+]]: !llvm.ptr, %[[V:[^:]+]]: i1
func.func @modifiers(%q: !quantum.bit, %c0: !quantum.bit, %c1: !quantum.bit, %v: i1) -> (!quantum.bit, !quantum.bit, !quantum.bit) {
  // One Modifiers struct, and one wires/values pair per control count,
  // serve the whole function: five stack slots.
  // CHECK-COUNT-5: llvm.alloca
  // CHECK-NOT: llvm.alloca
  // adjoint only: {true, 0, null, null}
  // CHECK: %[[TRUE:.*]] = llvm.mlir.constant(true) : i1
  // CHECK: %[[F0:.*]] = llvm.getelementptr inbounds %[[MODS:[0-9]+]][0, 0]
  // CHECK: llvm.store %[[TRUE]], %[[F0]] : i1, !llvm.ptr
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
  // CHECK: %[[F1:.*]] = llvm.getelementptr inbounds %[[MODS]][0, 1]
  // CHECK: llvm.store %[[ZERO]], %[[F1]] : i64, !llvm.ptr
  // CHECK: llvm.call @__catalyst__qis__S(%[[Q]], %[[MODS]]) : (!llvm.ptr, !llvm.ptr) -> ()
  %a = quantum.custom "S"() %q adj : !quantum.bit

  // two controls with values: wires and values arrays, then {false, 2, wires, values}
  // CHECK: %[[W0:.*]] = llvm.getelementptr inbounds %[[WIRES:[0-9]+]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
  // CHECK: llvm.store %[[C0]], %[[W0]] : !llvm.ptr, !llvm.ptr
  // CHECK: %[[V0:.*]] = llvm.getelementptr inbounds %[[VALS:[0-9]+]][0] : (!llvm.ptr) -> !llvm.ptr, i1
  // CHECK: llvm.store %[[V]], %[[V0]] : i1, !llvm.ptr
  // CHECK: %[[W1:.*]] = llvm.getelementptr inbounds %[[WIRES]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
  // CHECK: llvm.store %[[C1]], %[[W1]] : !llvm.ptr, !llvm.ptr
  // CHECK: %[[FALSE:.*]] = llvm.mlir.constant(false) : i1
  // CHECK: llvm.store %[[FALSE]]
  // CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i64) : i64
  // CHECK: llvm.store %[[TWO]]
  // CHECK: %[[F2:.*]] = llvm.getelementptr inbounds %[[MODS]][0, 2]
  // CHECK: llvm.store %[[WIRES]], %[[F2]] : !llvm.ptr, !llvm.ptr
  // CHECK: %[[F3:.*]] = llvm.getelementptr inbounds %[[MODS]][0, 3]
  // CHECK: llvm.store %[[VALS]], %[[F3]] : !llvm.ptr, !llvm.ptr
  // CHECK: llvm.call @__catalyst__qis__Hadamard(%[[Q]], %[[MODS]])
  %b, %cs:2 = quantum.custom "Hadamard"() %a ctrls(%c0, %c1) ctrlvals(%v, %v) : !quantum.bit ctrls !quantum.bit, !quantum.bit

  // a second call with two controls reuses the same arrays
  // CHECK: llvm.getelementptr inbounds %[[WIRES]][0]
  // CHECK: llvm.call @__catalyst__qis__PauliX(%[[Q]], %[[MODS]])
  %c, %ds:2 = quantum.custom "PauliX"() %b adj ctrls(%cs#0, %cs#1) ctrlvals(%v, %v) : !quantum.bit ctrls !quantum.bit, !quantum.bit
  // one control needs arrays of one
  // CHECK-NOT: llvm.getelementptr inbounds %[[WIRES]][
  // CHECK: llvm.getelementptr inbounds %[[WIRES2:[0-9]+]][0]
  // CHECK: llvm.call @__catalyst__qis__PauliY(%[[Q]], %[[MODS]])
  %d, %e = quantum.custom "PauliY"() %c ctrls(%ds#0) ctrlvals(%v) : !quantum.bit ctrls !quantum.bit
  // CHECK: llvm.return
  return %d, %e, %ds#1 : !quantum.bit, !quantum.bit, !quantum.bit
}

// CHECK-LABEL: llvm.func @variadic(
// CHECK-SAME: %[[T:[^:]+]]: f64, %[[Q0:[^:]+]]: !llvm.ptr, %[[Q1:[^:]+]]: !llvm.ptr
func.func @variadic(%t: f64, %q0: !quantum.bit, %q1: !quantum.bit, %m: memref<4x4xcomplex<f64>>) {
  // CHECK: %[[N:.*]] = llvm.mlir.constant(2 : i64) : i64
  // CHECK: llvm.call @__catalyst__qis__Identity(%{{.*}}, %[[N]], %[[Q0]], %[[Q1]]) vararg(!llvm.func<void (ptr, i64, ...)>) : (!llvm.ptr, i64, !llvm.ptr, !llvm.ptr) -> ()
  %a:2 = quantum.custom "Identity"() %q0, %q1 : !quantum.bit, !quantum.bit
  // The word is a NUL-terminated global; the i1 (cond) is true.
  // CHECK: %[[WORD:.*]] = llvm.mlir.addressof @[[XZ]] : !llvm.ptr
  // CHECK: %[[COND:.*]] = llvm.mlir.constant(true) : i1
  // CHECK: %[[N2:.*]] = llvm.mlir.constant(2 : i64) : i64
  // CHECK: llvm.call @__catalyst__qis__PauliRot(%[[WORD]], %[[T]], %{{.*}}, %[[COND]], %[[N2]], %[[Q0]], %[[Q1]]) vararg(!llvm.func<void (ptr, f64, ptr, i1, i64, ...)>)
  %b:2 = quantum.paulirot ["X", "Z"](%t) %a#0, %a#1 : !quantum.bit, !quantum.bit
  // CHECK: llvm.call @__catalyst__qis__MultiRZ(%[[T]], %{{.*}}, %{{.*}}, %[[Q0]], %[[Q1]]) vararg(!llvm.func<void (f64, ptr, i64, ...)>)
  %c:2 = quantum.multirz(%t) %b#0, %b#1 : !quantum.bit, !quantum.bit
  // CHECK: %[[DIM:.*]] = llvm.mlir.constant(3 : i64) : i64
  // CHECK: llvm.call @__catalyst__qis__PCPhase(%[[T]], %[[DIM]], %{{.*}}, %{{.*}}, %[[Q0]], %[[Q1]]) vararg(!llvm.func<void (f64, i64, ptr, i64, ...)>)
  %d:2 = quantum.pcphase(%t, dim : 3) %c#0, %c#1 : !quantum.bit, !quantum.bit
  // The matrix descriptor goes by pointer: stored to a stack slot.
  // CHECK: llvm.store %[[DESC:.*]], %[[MSLOT:.*]] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>, !llvm.ptr
  // CHECK: llvm.call @__catalyst__qis__QubitUnitary(%[[MSLOT]], %{{.*}}, %{{.*}}, %[[Q0]], %[[Q1]]) vararg(!llvm.func<void (ptr, ptr, i64, ...)>)
  %e:2 = quantum.unitary(%m : memref<4x4xcomplex<f64>>) %d#0, %d#1 adj : !quantum.bit, !quantum.bit
  return
}

// SX = exp(i pi/4) RX(pi/2): RX(pi/2) and GlobalPhase(-pi/4) with the same
// modifiers.
// CHECK-LABEL: llvm.func @sx(
// CHECK-SAME: %[[Q:[^:]+]]: !llvm.ptr, %[[C:[^:]+]]: !llvm.ptr
func.func @sx(%q: !quantum.bit, %c: !quantum.bit, %v: i1) -> (!quantum.bit, !quantum.bit) {
  // CHECK: %[[MODS:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i1, i64, ptr, ptr)>
  // CHECK: %[[HALFPI:.*]] = llvm.mlir.constant(1.5707963267948966 : f64) : f64
  // CHECK: llvm.call @__catalyst__qis__RX(%[[HALFPI]], %[[Q]], %[[MODS]])
  // CHECK: %[[PHASE:.*]] = llvm.mlir.constant(-0.78539816339744828 : f64) : f64
  // CHECK: llvm.call @__catalyst__qis__GlobalPhase(%[[PHASE]], %[[MODS]])
  %a, %b = quantum.custom "SX"() %q adj ctrls(%c) ctrlvals(%v) : !quantum.bit ctrls !quantum.bit
  return %a, %b : !quantum.bit, !quantum.bit
}

// A controlled gphase returns its control qubits: the next gate on the
// control wire uses the same handle. (Catalyst's pattern erases the op
// and leaves that use without a value.)
// CHECK-LABEL: llvm.func @gphase(
// CHECK-SAME: %[[T:[^:]+]]: f64, %[[C:[^:]+]]: !llvm.ptr
func.func @gphase(%t: f64, %c: !quantum.bit, %v: i1) -> !quantum.bit {
  // CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
  // CHECK: llvm.call @__catalyst__qis__GlobalPhase(%[[T]], %[[NULL]]) : (f64, !llvm.ptr) -> ()
  quantum.gphase(%t)
  // CHECK: llvm.call @__catalyst__qis__GlobalPhase(%[[T]], %[[MODS:.*]]) : (f64, !llvm.ptr) -> ()
  %c1 = quantum.gphase(%t) ctrls(%c) ctrlvals(%v) : ctrls !quantum.bit
  // CHECK: llvm.call @__catalyst__qis__GlobalPhase(%[[T]], %[[MODS]])
  %c2 = quantum.gphase(%t) adj ctrls(%c1) ctrlvals(%v) : ctrls !quantum.bit
  // CHECK: llvm.call @__catalyst__qis__PauliZ(%[[C]], %{{.*}})
  %c3 = quantum.custom "PauliZ"() %c2 : !quantum.bit
  // CHECK: llvm.return %[[C]] : !llvm.ptr
  return %c3 : !quantum.bit
}
