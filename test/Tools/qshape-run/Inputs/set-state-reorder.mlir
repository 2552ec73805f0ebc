// quantum.set_state on some wires overwrites the whole device (qshape-sim's
// and Catalyst's runtime semantics), so the Hadamard on %x after it puts %x
// in |+>. qshape-canonicalize used to move that Hadamard before the
// set_state, where the set_state undoes it, so the rolled builds (canonical
// form, then rolling) differed from qshape-sim. See set-state-roll.test.

// CASE: prepare --args [[[0.6,0],[0,0],[0,0.8],[0,0]]]
func.func public @prepare(%s: tensor<4xcomplex<f64>>) -> tensor<8xf64> attributes {qnode} {
  %c0 = arith.constant 0 : i64
  quantum.device shots(%c0) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 3) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %x = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %a1, %b1 = quantum.set_state(%s) %a, %b : (tensor<4xcomplex<f64>>, !quantum.bit, !quantum.bit) -> (!quantum.bit, !quantum.bit)
  %x1 = quantum.custom "Hadamard"() %x : !quantum.bit
  %o = quantum.compbasis qubits %a1, %b1, %x1 : !quantum.obs
  %p = quantum.probs %o : tensor<8xf64>
  quantum.device_release
  return %p : tensor<8xf64>
}
