// The value-semantics twin of ../to-value-semantics-while.mlir's @whiles,
// written by hand: the loop carries the register.
func.func public @whiles(%x: f64) -> (f64, f64) attributes {qnode} {
  %shots = arith.constant 0 : i64
  quantum.device shots(%shots) ["liblightning_qubit_catalyst.so", "LightningSimulator", "{}"]
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c3 = arith.constant 3 : i64
  %r = quantum.alloc( 3) : !quantum.reg
  %n:2 = scf.while (%i = %c0, %reg = %r) : (i64, !quantum.reg) -> (i64, !quantum.reg) {
    %go = arith.cmpi slt, %i, %c3 : i64
    scf.condition(%go) %i, %reg : i64, !quantum.reg
  } do {
  ^bb0(%j: i64, %rj: !quantum.reg):
    %q = quantum.extract %rj[%j] : !quantum.reg -> !quantum.bit
    %h = quantum.custom "Hadamard"() %q : !quantum.bit
    %r1 = quantum.insert %rj[%j], %h : !quantum.reg, !quantum.bit
    %q0 = quantum.extract %r1[ 0] : !quantum.reg -> !quantum.bit
    %y = quantum.custom "RY"(%x) %q0 : !quantum.bit
    %r2 = quantum.insert %r1[ 0], %y : !quantum.reg, !quantum.bit
    %next = arith.addi %j, %c1 : i64
    scf.yield %next, %r2 : i64, !quantum.reg
  }
  %q0 = quantum.extract %n#1[ 0] : !quantum.reg -> !quantum.bit
  %q2 = quantum.extract %n#1[ 2] : !quantum.reg -> !quantum.bit
  %o0 = quantum.namedobs %q0[ PauliZ] : !quantum.obs
  %e0 = quantum.expval %o0 : f64
  %o2 = quantum.namedobs %q2[ PauliX] : !quantum.obs
  %e2 = quantum.expval %o2 : f64
  %r3 = quantum.insert %n#1[ 0], %q0 : !quantum.reg, !quantum.bit
  %r4 = quantum.insert %r3[ 2], %q2 : !quantum.reg, !quantum.bit
  quantum.dealloc %r4 : !quantum.reg
  quantum.device_release
  return %e0, %e2 : f64, f64
}
