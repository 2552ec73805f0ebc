module {
  func.func public @flat(%arg0: f64) -> f64 attributes {qnode} {
    %c0_i64 = arith.constant 0 : i64
    quantum.device shots(%c0_i64) ["liblightning_qubit_catalyst.so", "LightningSimulator", "{}"]
    %0 = qref.alloc( 2) : !qref.reg<2>
    %1 = qref.get %0[ 0] : !qref.reg<2> -> !qref.bit
    %2 = qref.get %0[ 1] : !qref.reg<2> -> !qref.bit
    "fuzz.barrier"() : () -> ()
    qref.custom "Hadamard"() %1 : !qref.bit
    qref.custom "CNOT"() %1, %2 : !qref.bit, !qref.bit
    qref.custom "RX"(%arg0) %2 : !qref.bit
    %3 = qref.namedobs %2[ PauliZ] : !quantum.obs
    %4 = quantum.expval %3 : f64
    qref.dealloc %0 : !qref.reg<2>
    quantum.device_release
    return %4 : f64
  }
  func.func public @loops(%arg0: f64) -> f64 attributes {qnode} {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c0_i64 = arith.constant 0 : i64
    quantum.device shots(%c0_i64) ["liblightning_qubit_catalyst.so", "LightningSimulator", "{}"]
    %0 = qref.alloc( 3) : !qref.reg<3>
    %1 = qref.get %0[ 0] : !qref.reg<3> -> !qref.bit
    qref.custom "Hadamard"() %1 : !qref.bit
    scf.for %arg1 = %c0 to %c3 step %c1 {
      %5 = qref.get %0[ 2] : !qref.reg<3> -> !qref.bit
      %6 = qref.get %0[ 0] : !qref.reg<3> -> !qref.bit
      qref.custom "CRX"(%arg0) %6, %5 : !qref.bit, !qref.bit
    }
    "fuzz.barrier"() : () -> ()
    scf.for %arg1 = %c0 to %c3 step %c1 {
      %5 = arith.index_cast %arg1 : index to i64
      %6 = qref.get %0[%5] : !qref.reg<3>, i64 -> !qref.bit
      qref.custom "RY"(%arg0) %6 : !qref.bit
    }
    %2 = qref.get %0[ 2] : !qref.reg<3> -> !qref.bit
    %3 = qref.namedobs %2[ PauliZ] : !quantum.obs
    %4 = quantum.expval %3 : f64
    qref.dealloc %0 : !qref.reg<3>
    quantum.device_release
    "fuzz.barrier"() : () -> ()
    return %4 : f64
  }
  func.func public @regions(%arg0: f64) -> f64 attributes {qnode} {
    %c0_i64 = arith.constant 0 : i64
    %true = arith.constant true
    quantum.device shots(%c0_i64) ["liblightning_qubit_catalyst.so", "LightningSimulator", "{}"]
    %0 = qref.alloc( 3) : !qref.reg<3>
    %1 = qref.get %0[ 0] : !qref.reg<3> -> !qref.bit
    %2 = qref.get %0[ 1] : !qref.reg<3> -> !qref.bit
    %3 = qref.get %0[ 2] : !qref.reg<3> -> !qref.bit
    qref.custom "RY"(%arg0) %1 : !qref.bit
    %4 = qref.measure %1 : i1
    scf.if %4 {
      "fuzz.barrier"() : () -> ()
      qref.custom "PauliX"() %2 : !qref.bit
    }
    qref.adjoint {
      qref.custom "RX"(%arg0) %2 : !qref.bit
      qref.custom "S"() %3 : !qref.bit
    }
    qref.ctrl(%2) ctrlvals(%true) {
      qref.custom "RY"(%arg0) %3 : !qref.bit
    }
    %5 = qref.namedobs %3[ PauliX] : !quantum.obs
    %6 = quantum.expval %5 : f64
    qref.dealloc %0 : !qref.reg<3>
    quantum.device_release
    return %6 : f64
  }
}
