// Quantum teleportation, as Catalyst lowers a QNode with mid-circuit
// measurements and classically controlled corrections (scf.if).
//
// Wire 0 holds RY(theta)|0>; wires 1 and 2 share a Bell pair. After the
// Bell measurement of wires 0 and 1 and the X/Z corrections, wire 2 holds
// RY(theta)|0> whatever the outcomes were: <Z> = cos(theta), <X> = sin(theta).
//
//   qshape-sim examples/teleport.mlir --args @examples/teleport.json
module @teleport {
  func.func public @circuit(%arg0: tensor<f64>) -> (tensor<f64>, tensor<f64>, tensor<2xi1>) attributes {diff_method = "parameter-shift", qnode} {
    %c0_i64 = arith.constant 0 : i64
    quantum.device shots(%c0_i64) ["/path/liblightning_qubit_catalyst.so", "LightningSimulator", "{'mcmc': False}"]
    %r = quantum.alloc( 3) : !quantum.reg
    %q0 = quantum.extract %r[ 0] : !quantum.reg -> !quantum.bit
    %q1 = quantum.extract %r[ 1] : !quantum.reg -> !quantum.bit
    %q2 = quantum.extract %r[ 2] : !quantum.reg -> !quantum.bit
    // The state to teleport.
    %theta = tensor.extract %arg0[] : tensor<f64>
    %s = quantum.custom "RY"(%theta) %q0 : !quantum.bit
    // Bell pair on wires 1 and 2.
    %h = quantum.custom "Hadamard"() %q1 : !quantum.bit
    %b:2 = quantum.custom "CNOT"() %h, %q2 : !quantum.bit, !quantum.bit
    // Bell measurement of wires 0 and 1.
    %c:2 = quantum.custom "CNOT"() %s, %b#0 : !quantum.bit, !quantum.bit
    %hs = quantum.custom "Hadamard"() %c#0 : !quantum.bit
    %m0, %q0m = quantum.measure %hs : i1, !quantum.bit
    %m1, %q1m = quantum.measure %c#1 : i1, !quantum.bit
    // Corrections: X if m1, then Z if m0.
    %t1 = scf.if %m1 -> (!quantum.bit) {
      %x = quantum.custom "PauliX"() %b#1 : !quantum.bit
      scf.yield %x : !quantum.bit
    } else {
      scf.yield %b#1 : !quantum.bit
    }
    %t2 = scf.if %m0 -> (!quantum.bit) {
      %z = quantum.custom "PauliZ"() %t1 : !quantum.bit
      scf.yield %z : !quantum.bit
    } else {
      scf.yield %t1 : !quantum.bit
    }
    %oz = quantum.namedobs %t2[ PauliZ] : !quantum.obs
    %ez = quantum.expval %oz : f64
    %ox = quantum.namedobs %t2[ PauliX] : !quantum.obs
    %ex = quantum.expval %ox : f64
    %rz = tensor.from_elements %ez : tensor<f64>
    %rx = tensor.from_elements %ex : tensor<f64>
    %ms = tensor.from_elements %m0, %m1 : tensor<2xi1>
    %r1 = quantum.insert %r[ 0], %q0m : !quantum.reg, !quantum.bit
    %r2 = quantum.insert %r1[ 1], %q1m : !quantum.reg, !quantum.bit
    %r3 = quantum.insert %r2[ 2], %t2 : !quantum.reg, !quantum.bit
    quantum.dealloc %r3 : !quantum.reg
    quantum.device_release
    return %rz, %rx, %ms : tensor<f64>, tensor<f64>, tensor<2xi1>
  }
}
