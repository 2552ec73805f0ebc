// What qshape-sim cannot execute is an error at the op's location (exit
// code 1), never a guessed answer.

// RUN: not qshape-sim %s --allow-unregistered-dialect --entry unknown_op 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not qshape-sim %s --allow-unregistered-dialect --entry unknown_gate 2>&1 | FileCheck %s --check-prefix=GATE
// RUN: not qshape-sim %s --allow-unregistered-dialect --entry bad_arity 2>&1 | FileCheck %s --check-prefix=ARITY
// RUN: not qshape-sim %s --allow-unregistered-dialect --entry postselect 2>&1 | FileCheck %s --check-prefix=POST
// RUN: not qshape-sim %s --allow-unregistered-dialect --entry measure_in_adjoint 2>&1 | FileCheck %s --check-prefix=ADJ
// RUN: not qshape-sim %s --allow-unregistered-dialect --entry no_shots 2>&1 | FileCheck %s --check-prefix=SHOTS
// RUN: not qshape-sim %s --allow-unregistered-dialect --entry mcmobs 2>&1 | FileCheck %s --check-prefix=MCM
// RUN: not qshape-sim %s --allow-unregistered-dialect --entry out_of_range 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not qshape-sim %s --allow-unregistered-dialect --entry div_zero 2>&1 | FileCheck %s --check-prefix=DIV
// RUN: not qshape-sim %s --allow-unregistered-dialect --entry partial_state 2>&1 | FileCheck %s --check-prefix=STATE
// RUN: not qshape-sim %s --allow-unregistered-dialect --entry memref 2>&1 | FileCheck %s --check-prefix=MEMREF
// RUN: not qshape-sim %s --allow-unregistered-dialect --entry in_loop 2>&1 | FileCheck %s --check-prefix=LOOP
// An op that is never reached is no error.
// RUN: qshape-sim %s --allow-unregistered-dialect --entry not_reached | FileCheck %s --check-prefix=NOTREACHED

// UNKNOWN: errors.mlir:[[@LINE+3]]:3: error: qshape-sim: cannot execute 'foo.bar'
// UNKNOWN-NOT: results
func.func @unknown_op() -> f64 {
  "foo.bar"() : () -> ()
  %x = arith.constant 1.0 : f64
  return %x : f64
}

// GATE: errors.mlir:[[@LINE+4]]:9: error: qshape-sim: cannot execute 'quantum.custom': unknown gate "Foo"
func.func @unknown_gate() {
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "Foo"() %q : !quantum.bit
  return
}

// ARITY: errors.mlir:[[@LINE+4]]:9: error: qshape-sim: gate 'RX' expects 1 parameter(s), got 0
func.func @bad_arity() {
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "RX"() %q : !quantum.bit
  return
}

// POST: errors.mlir:[[@LINE+4]]:13: error: qshape-sim: measure: cannot postselect outcome 1 on wire 0, its probability is 0
func.func @postselect() -> i1 {
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %m, %q1 = quantum.measure %q postselect 1 : i1, !quantum.bit
  return %m : i1
}

// ADJ: errors.mlir:[[@LINE+6]]:15: error: qshape-sim: cannot execute 'quantum.measure' inside a 'quantum.adjoint' region
func.func @measure_in_adjoint() {
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.adjoint(%q) : !quantum.bit {
  ^bb0(%x: !quantum.bit):
    %m, %x1 = quantum.measure %x : i1, !quantum.bit
    quantum.yield %x1 : !quantum.bit
  }
  return
}

// SHOTS: errors.mlir:[[@LINE+5]]:8: error: qshape-sim: 'quantum.sample' needs shots (quantum.device shots or --shots)
func.func @no_shots() -> tensor<10x1xf64> {
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %o = quantum.compbasis qubits %q : !quantum.obs
  %s = quantum.sample %o : tensor<10x1xf64>
  return %s : tensor<10x1xf64>
}

// MCM: errors.mlir:[[@LINE+5]]:8: error: qshape-sim: cannot execute 'quantum.mcmobs': observables of mid-circuit measurement results are not supported
func.func @mcmobs() -> f64 {
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %m, %q1 = quantum.measure %q : i1, !quantum.bit
  %o = quantum.mcmobs %m : !quantum.obs
  %e = quantum.expval %o : f64
  return %e : f64
}

// RANGE: errors.mlir:[[@LINE+4]]:8: error: qshape-sim: index 2 out of range for a register of 2 qubits
func.func @out_of_range() {
  %c2 = arith.constant 2 : i64
  %r = quantum.alloc( 2) : !quantum.reg
  %q = quantum.extract %r[%c2] : !quantum.reg -> !quantum.bit
  return
}

// DIV: errors.mlir:[[@LINE+4]]:8: error: qshape-sim: division by zero
func.func @div_zero() -> i64 {
  %a = arith.constant 7 : i64
  %z = arith.constant 0 : i64
  %d = arith.divsi %a, %z : i64
  return %d : i64
}

// STATE: errors.mlir:[[@LINE+6]]:8: error: qshape-sim: quantum.state of 1 of the 2 device wires is not supported (it needs all wires)
func.func @partial_state() -> tensor<2xcomplex<f64>> {
  %r = quantum.alloc( 2) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %o = quantum.compbasis qubits %q : !quantum.obs
  // One of two wires: a reduced state is not a state vector.
  %s = quantum.state %o : tensor<2xcomplex<f64>>
  return %s : tensor<2xcomplex<f64>>
}

// MEMREF: errors.mlir:[[@LINE+2]]:8: error: qshape-sim: cannot execute 'memref.alloc'
func.func @memref() {
  %m = memref.alloc() : memref<4xf64>
  return
}

// Errors inside loops point at the op in the loop body.
// LOOP: errors.mlir:[[@LINE+7]]:10: error: qshape-sim: cannot execute 'foo.step'
func.func @in_loop() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    %x = arith.addi %i, %c1 : index
    %y = "foo.step"(%x) : (index) -> index
  }
  return
}

// NOTREACHED: {"results": [2.0]}
func.func @not_reached() -> f64 {
  %false = arith.constant false
  %x = arith.constant 2.0 : f64
  scf.if %false {
    "foo.bar"() : () -> ()
  }
  return %x : f64
}
