// Barriers: an op whose effects are unknown or include a write keeps its
// place relative to every quantum op and every op with effects. Each case
// is built so that the schedule would move a gate across the barrier
// without the rule (ops without side effects are scheduled first, and the
// barrier is an op with side effects): the CHECK-NEXT chains fail then.
// RUN: qshape-opt %s --allow-unregistered-dialect --qshape-canonicalize -split-input-file | FileCheck %s
// Register and qubit values stay linear (qshape-check-linearity).
// RUN: qshape-opt %s --allow-unregistered-dialect --qshape-canonicalize --qshape-check-linearity -split-input-file -o /dev/null
// Idempotence, and the same in upstream mlir-opt on generic, unregistered IR.
// RUN: qshape-opt %s --allow-unregistered-dialect --qshape-canonicalize -split-input-file > %t.1.mlir
// RUN: qshape-opt %t.1.mlir --allow-unregistered-dialect --qshape-canonicalize -split-input-file > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: qshape-opt %s --allow-unregistered-dialect -split-input-file --mlir-print-op-generic | %upstream_mlir_opt --load-pass-plugin=%pass_plugin --allow-unregistered-dialect -split-input-file --pass-pipeline='builtin.module(qshape-canonicalize)' | qshape-opt --allow-unregistered-dialect -split-input-file | FileCheck %s

// The issue's case: H; measure; catalyst.print (generic, unregistered); H.
// The second H depends only on the measurement, so without the barrier it
// would go before the print.
// CHECK-LABEL: func.func @print_generic
// CHECK:      quantum.custom "Hadamard"
// CHECK-NEXT: quantum.measure
// CHECK-NEXT: "catalyst.print"() {const_val = "mid"}
// CHECK-NEXT: quantum.custom "Hadamard"
// CHECK-NEXT: quantum.insert
func.func @print_generic(%r: !quantum.reg) -> !quantum.reg {
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %h = quantum.custom "Hadamard"() %q : !quantum.bit
  %m, %o = quantum.measure %h : i1, !quantum.bit
  "catalyst.print"() {const_val = "mid"} : () -> ()
  %h2 = quantum.custom "Hadamard"() %o : !quantum.bit
  %r1 = quantum.insert %r[ 0], %h2 : !quantum.reg, !quantum.bit
  return %r1 : !quantum.reg
}

// -----

// An unregistered op with operands and results (a callback) between two
// wires' gates: the gates of wire 1 come after it, those of wire 0 before,
// although wire 1's are independent of it (without the barrier, all four
// gates would precede it).
// CHECK-LABEL: func.func @unregistered
// CHECK:      %[[Q0:.*]] = quantum.extract %arg0[ 0]
// CHECK-NEXT: quantum.custom "Hadamard"() %[[Q0]]
// CHECK-NEXT: quantum.custom "T"
// CHECK-NEXT: "test.callback"(%arg1) : (f64) -> f64
// CHECK-NEXT: %[[Q1:.*]] = quantum.extract %arg0[ 1]
// CHECK-NEXT: quantum.custom "PauliX"() %[[Q1]]
// CHECK-NEXT: quantum.custom "S"
func.func @unregistered(%r: !quantum.reg, %x: f64) -> (!quantum.bit, !quantum.bit, f64) {
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %a = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %b = quantum.custom "T"() %a : !quantum.bit
  %y = "test.callback"(%x) : (f64) -> f64
  %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %c = quantum.custom "PauliX"() %q1 : !quantum.bit
  %d = quantum.custom "S"() %c : !quantum.bit
  return %b, %d, %y : !quantum.bit, !quantum.bit, f64
}

// -----

// A registered op whose MemoryEffectOpInterface declares a write
// (memref.store): the gate after it stays after it, the gates before it
// before it (without the barrier the store would go after all three).
// CHECK-LABEL: func.func @memref_store
// CHECK:      quantum.custom "Hadamard"
// CHECK-NEXT: quantum.custom "RX"
// CHECK-NEXT: memref.store
// CHECK-NEXT: quantum.custom "RY"
// CHECK-NEXT: return
func.func @memref_store(%q: !quantum.bit, %m: memref<f64>, %t: f64) -> !quantum.bit {
  %a = quantum.custom "Hadamard"() %q : !quantum.bit
  %b = quantum.custom "RX"(%t) %a : !quantum.bit
  memref.store %t, %m[] : memref<f64>
  %c = quantum.custom "RY"(%t) %b : !quantum.bit
  return %c : !quantum.bit
}

// -----

// A barrier holds back ops with effects too: the measurement after the
// print stays after it, the one before stays before. Gates of one segment
// are still put in canonical order (wire 0 before wire 1), and a barrier
// inside a loop makes the loop a barrier.
// CHECK-LABEL: func.func @segments
// CHECK:      quantum.extract %arg0[ 0]
// CHECK-NEXT: quantum.custom "Hadamard"
// CHECK-NEXT: quantum.extract %arg0[ 1]
// CHECK-NEXT: quantum.custom "PauliX"
// CHECK-NEXT: quantum.measure
// CHECK-NEXT: "catalyst.print"() {const_val = "a"}
// CHECK-NEXT: quantum.measure
// CHECK-NEXT: scf.for
// CHECK-NEXT: "catalyst.print"() {const_val = "b"}
// CHECK-NEXT: }
// CHECK-NEXT: quantum.custom "PauliZ"
// CHECK-NEXT: return
func.func @segments(%r: !quantum.reg) -> (i1, i1, !quantum.bit) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %x = quantum.custom "PauliX"() %q1 : !quantum.bit
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %h = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %m0, %o0 = quantum.measure %h : i1, !quantum.bit
  "catalyst.print"() {const_val = "a"} : () -> ()
  %m1, %o1 = quantum.measure %x : i1, !quantum.bit
  scf.for %i = %c0 to %c2 step %c1 {
    "catalyst.print"() {const_val = "b"} : () -> ()
  }
  %z = quantum.custom "PauliZ"() %o0 : !quantum.bit
  return %m0, %m1, %z : i1, i1, !quantum.bit
}

// -----

// Not barriers: a pure op (arith.addf) and an op that only reads
// (memref.load) still move: the gates go first, whatever their place.
// CHECK-LABEL: func.func @not_barriers
// CHECK:      quantum.custom "Hadamard"
// CHECK-NEXT: quantum.custom "PauliX"
// CHECK-NEXT: memref.load
// CHECK-NEXT: arith.addf
// CHECK-NEXT: return
func.func @not_barriers(%q: !quantum.bit, %m: memref<f64>, %t: f64) -> (!quantum.bit, f64) {
  %v = memref.load %m[] : memref<f64>
  %a = quantum.custom "Hadamard"() %q : !quantum.bit
  %s = arith.addf %v, %t : f64
  %b = quantum.custom "PauliX"() %a : !quantum.bit
  return %b, %s : !quantum.bit, f64
}
