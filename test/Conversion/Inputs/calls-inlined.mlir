// ../to-value-semantics-calls.mlir's @main with its calls inlined by hand,
// still in qref: the oracle of the conversion of subroutines.
func.func public @main(%x: f64) -> (f64, f64, f64) attributes {qnode} {
  %shots = arith.constant 0 : i64
  quantum.device shots(%shots) ["liblightning_qubit_catalyst.so", "LightningSimulator", "{}"]
  %c2 = arith.constant 2 : i64
  %a = qref.alloc(3) : !qref.reg<3>
  %q0 = qref.get %a[0] : !qref.reg<3> -> !qref.bit
  %q1 = qref.get %a[1] : !qref.reg<3> -> !qref.bit
  %q2 = qref.get %a[2] : !qref.reg<3> -> !qref.bit
  qref.custom "Hadamard"() %q2 : !qref.bit
  qref.custom "RX"(%x) %q0 : !qref.bit
  qref.custom "CNOT"() %q0, %q1 : !qref.bit, !qref.bit
  qref.custom "RY"(%x) %q2 : !qref.bit
  %y = arith.mulf %x, %x : f64
  qref.custom "RX"(%y) %q0 : !qref.bit
  qref.custom "CNOT"() %q0, %q1 : !qref.bit, !qref.bit
  qref.custom "RY"(%y) %q2 : !qref.bit
  %qd = qref.get %a[%c2] : !qref.reg<3>, i64 -> !qref.bit
  qref.custom "Hadamard"() %qd : !qref.bit
  %o0 = qref.namedobs %q0 [ PauliZ] : !quantum.obs
  %e0 = quantum.expval %o0 : f64
  %o1 = qref.namedobs %q1 [ PauliZ] : !quantum.obs
  %e1 = quantum.expval %o1 : f64
  %o2 = qref.namedobs %q2 [ PauliX] : !quantum.obs
  %e2 = quantum.expval %o2 : f64
  qref.dealloc %a : !qref.reg<3>
  quantum.device_release
  return %e0, %e1, %e2 : f64, f64, f64
}
