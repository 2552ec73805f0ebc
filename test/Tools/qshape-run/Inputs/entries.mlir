// Two QNodes, for the entry-point tests (entry.test).

// An analytic device; --shots turns the estimates on.
func.func public @estimates(%t: tensor<f64>) -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<2xf64>) attributes {qnode} {
  %c0 = arith.constant 0 : i64
  %theta = tensor.extract %t[] : tensor<f64>
  quantum.device shots(%c0) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 2) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %p = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "RY"(%theta) %q : !quantum.bit
  %p1 = quantum.custom "Hadamard"() %p : !quantum.bit
  %z = quantum.namedobs %q1[ PauliZ] : !quantum.obs
  %x = quantum.namedobs %p1[ PauliX] : !quantum.obs
  %zx = quantum.tensor %z, %x : !quantum.obs
  %e = quantum.expval %z : f64
  %v = quantum.var %z : f64
  %e2 = quantum.expval %zx : f64
  %o = quantum.compbasis qubits %q1 : !quantum.obs
  %pr = quantum.probs %o : tensor<2xf64>
  %te = tensor.from_elements %e : tensor<f64>
  %tv = tensor.from_elements %v : tensor<f64>
  %te2 = tensor.from_elements %e2 : tensor<f64>
  quantum.device_release
  return %te, %tv, %te2, %pr : tensor<f64>, tensor<f64>, tensor<f64>, tensor<2xf64>
}

func.func public @flip(%t: tensor<f64>) -> tensor<2xf64> attributes {qnode} {
  %c0 = arith.constant 0 : i64
  %theta = tensor.extract %t[] : tensor<f64>
  quantum.device shots(%c0) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 1) : !quantum.reg
  %q = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.custom "RX"(%theta) %q : !quantum.bit
  %o = quantum.compbasis qubits %q1 : !quantum.obs
  %p = quantum.probs %o : tensor<2xf64>
  quantum.device_release
  return %p : tensor<2xf64>
}
