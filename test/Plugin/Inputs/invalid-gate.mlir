// A gate that the qshape verifier rejects (not a test: used by ../stats-registered.mlir).
func.func @f(%q: !quantum.bit, %c: !quantum.bit) {
  %t = arith.constant 0.5 : f64
  %o, %oc = quantum.custom "RX"(%t) %q ctrls(%c) : !quantum.bit ctrls !quantum.bit
  return
}
