// Where nothing rolls, qshape-roll-loops leaves the IR exactly as it came
// in: its output is byte for byte what qshape-opt prints without the pass.
// The functions below are not in canonical form (constants out of order and
// duplicated, a dead op, gates of independent wires interleaved), so a pass
// that canonicalized them would change them; the second check shows that
// it would.
// RUN: qshape-opt %s --allow-unregistered-dialect -split-input-file --qshape-roll-loops -o %t.rolled
// RUN: qshape-opt %s --allow-unregistered-dialect -split-input-file -o %t.plain
// RUN: diff %t.plain %t.rolled
// RUN: qshape-opt %s --allow-unregistered-dialect -split-input-file --qshape-canonicalize -o %t.canon
// RUN: not diff -q %t.plain %t.canon
// And with every option that could touch the IR on the way:
// RUN: qshape-opt %s --allow-unregistered-dialect -split-input-file '--qshape-roll-loops=verify-roundtrip min-trip-count=2 param-tables=true' -o %t.rolled2
// RUN: diff %t.plain %t.rolled2
// A large function (6000 ops, every gate its own), with threading on and
// off:
// RUN: %python %S/Inputs/distinct-gates.py 3000 > %t.big.mlir
// RUN: qshape-opt %t.big.mlir -o %t.big.plain
// RUN: qshape-opt %t.big.mlir --qshape-roll-loops -o %t.big.rolled
// RUN: diff %t.big.plain %t.big.rolled
// RUN: qshape-opt %t.big.mlir --qshape-roll-loops --mlir-disable-threading -o %t.big.rolled1
// RUN: diff %t.big.plain %t.big.rolled1
// RUN: qshape-opt %t.big.mlir --qshape-canonicalize -o %t.big.canon
// RUN: not diff -q %t.big.plain %t.big.canon

func.func @distinct_gates(%r: !quantum.reg, %a: f64) -> !quantum.reg {
  %c2 = arith.constant 2 : index
  %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %x = arith.constant 0.5 : f64
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %h = quantum.custom "Hadamard"() %q1 : !quantum.bit
  %dead = arith.mulf %a, %x : f64
  %y = arith.constant 0.5 : f64
  %t = quantum.custom "RX"(%y) %q0 : !quantum.bit
  %c:2 = quantum.custom "CNOT"() %t, %h : !quantum.bit, !quantum.bit
  %s = quantum.custom "RZ"(%a) %c#1 : !quantum.bit
  %r0 = quantum.insert %r[ 0], %c#0 : !quantum.reg, !quantum.bit
  %r1 = quantum.insert %r0[ 1], %s : !quantum.reg, !quantum.bit
  return %r1 : !quantum.reg
}

// -----

// Two copies only (min-trip-count is 3 by default): not a loop.
func.func @two_copies(%q: !quantum.bit) -> !quantum.bit {
  %b = arith.constant 0.25 : f64
  %a = arith.constant 0.75 : f64
  %q0 = quantum.custom "RX"(%a) %q : !quantum.bit
  %q1 = quantum.custom "RY"(%b) %q0 : !quantum.bit
  %q2 = quantum.custom "RX"(%b) %q1 : !quantum.bit
  %q3 = quantum.custom "RY"(%a) %q2 : !quantum.bit
  "test.opaque"() : () -> ()
  return %q3 : !quantum.bit
}
