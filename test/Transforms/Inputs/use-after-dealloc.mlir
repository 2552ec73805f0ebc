// A qubit of a freed register, gated: ../stats-qref.mlir.
func.func @f() {
  %a = qref.alloc(2) : !qref.reg<2>
  %q = qref.get %a[0] : !qref.reg<2> -> !qref.bit
  qref.custom "Hadamard"() %q : !qref.bit
  qref.dealloc %a : !qref.reg<2>
  qref.custom "PauliX"() %q : !qref.bit
  return
}
