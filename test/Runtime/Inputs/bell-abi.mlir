// The program Inputs/bell-abi.c makes the runtime calls of.
func.func @circuit() -> (i1, tensor<4xf64>, tensor<8xi64>, f64) attributes {qnode} {
  %shots = arith.constant 1000 : i64
  quantum.device shots(%shots) ["lib.so", "LightningSimulator", "{}"]
  %r = quantum.alloc( 3) : !quantum.reg
  %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
  %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
  %q2 = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
  %a = quantum.custom "Hadamard"() %q0 : !quantum.bit
  %b:2 = quantum.custom "CNOT"() %a, %q1 : !quantum.bit, !quantum.bit
  %false = arith.constant false
  %theta = arith.constant 0.5 : f64
  %t, %c = quantum.custom "RY"(%theta) %q2 adj ctrls(%b#0) ctrlvals(%false) : !quantum.bit ctrls !quantum.bit
  %m, %t2 = quantum.measure %t : i1, !quantum.bit
  %o = quantum.compbasis qubits %c, %b#1 : !quantum.obs
  %p = quantum.probs %o : tensor<4xf64>
  %all = quantum.compbasis  : !quantum.obs
  %eig, %n = quantum.counts %all : tensor<8xf64>, tensor<8xi64>
  %z = quantum.namedobs %b#1[ PauliZ] : !quantum.obs
  %ez = quantum.expval %z : f64
  quantum.device_release
  return %m, %p, %n, %ez : i1, tensor<4xf64>, tensor<8xi64>, f64
}
