// quantum.state of a compbasis that lists every wire, in another order than
// the device's. Catalyst's lowering passes 0 to __catalyst__qis__State and
// its runtime returns the whole state in device order; qshape-sim does the
// same. See state-permuted.test.

// CASE: permuted --args [0.7]
func.func public @permuted(%t: tensor<f64>) -> tensor<8xcomplex<f64>> attributes {qnode} {
  %c0 = arith.constant 0 : i64
  %theta = tensor.extract %t[] : tensor<f64>
  quantum.device shots(%c0) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 3) : !quantum.reg
  %a = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %b = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %c = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %a1 = quantum.custom "RY"(%theta) %a : !quantum.bit
  %c1 = quantum.custom "PauliX"() %c : !quantum.bit
  %o = quantum.compbasis qubits %c1, %a1, %b : !quantum.obs
  %s = quantum.state %o : tensor<8xcomplex<f64>>
  quantum.device_release
  return %s : tensor<8xcomplex<f64>>
}
